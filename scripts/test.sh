#!/usr/bin/env bash
# Installs what is missing, builds into build/, and runs every test through ctest.
#   scripts/test.sh              the suite (what CI runs)
#   scripts/test.sh --sanitize   the whole suite, GUI tests included, built Debug with AddressSanitizer and
#                                UndefinedBehaviorSanitizer in build-asan/ (Qt's assertions on; any report fails)
#   scripts/test.sh --tsan       the threaded tests (document analyses in flight, trace import with cancel, the
#                                planner's search with cancel, the kill test) under ThreadSanitizer in build-tsan/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export QT_QPA_PLATFORM=offscreen
mode=${1:-}
case "$mode" in
  "")
    scripts/build.sh -DPLANSCOPE_WERROR=ON
    ctest --test-dir build --output-on-failure --timeout 600 -j "$jobs"
    ;;
  --sanitize|--tsan)
    if [ "$mode" = --sanitize ]; then dir=build-asan; sanitizers=address,undefined; else dir=build-tsan; sanitizers=thread; fi
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLANSCOPE_WERROR=ON -DPLANSCOPE_SANITIZE="$sanitizers" \
      -DPLANSCOPE_BUILD_BENCH=OFF >/dev/null
    cmake --build "$dir" --parallel "$jobs"
    # Leaks inside the system's libraries (fontconfig's caches, Qt's plugin loader) are theirs: tests/sanitizers/.
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:check_initialization_order=1
    export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/sanitizers/tsan.supp
    if [ "$mode" = --sanitize ]; then
      ctest --test-dir "$dir" --output-on-failure --timeout 1800 -j "$jobs"
    else
      ctest --test-dir "$dir" --output-on-failure --timeout 1800 -j "$jobs" \
        -R 'tst_mainwindow|tst_kill|tst_one_analysis|tst_trace_page|tst_search|tst_planner_page|tst_compare_page'
    fi
    ;;
  *)
    echo "usage: scripts/test.sh [--sanitize | --tsan]" >&2
    exit 2
    ;;
esac
