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
    # Clang with line tables only: the Debug build (Qt's inline assertions on) compiles about twice as fast as with
    # g++ -g, which matters on two cores (docs/RELIABILITY.md); the reports still name file and line.
    if ! command -v clang++ >/dev/null || ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a" >/dev/null; then
      SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
      echo "scripts/test.sh: installing clang and libclang-rt-14-dev"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
    fi
    launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -gline-tables-only" \
      -DPLANSCOPE_WERROR=ON -DPLANSCOPE_SANITIZE="$sanitizers" -DPLANSCOPE_BUILD_BENCH=OFF >/dev/null
    # ThreadSanitizer runs the tests that keep work in flight on other threads (document loads and edits, trace
    # import with cancel, the planner's search with cancel, thousands of analyses on four threads against the
    # per-thread memos); only those are built for it. The threaded tests that also start a process (tst_kill,
    # tst_one_analysis, tst_compare_page, tst_planner_page) run under ASan only: in the child of Qt's vfork-style
    # QProcess the clang 14 TSan runtime fails its own check (tsan_rtl.cpp:234, ForkAfter).
    threaded=(app_tst_mainwindow widgets_tst_trace_page core_tst_search core_tst_purity)
    if [ "$mode" = --sanitize ]; then
      cmake --build "$dir" --parallel "$jobs"
    else
      cmake --build "$dir" --parallel "$jobs" --target "${threaded[@]}" planscope planscope-cli
    fi
    # Leaks inside the system's libraries (fontconfig's caches, Qt's plugin loader) are theirs: tests/sanitizers/.
    # intercept_tls_get_addr=0: up to LLVM 16 the runtime can take a dynamic TLS block of glibc >= 2.25 for one with
    # a glibc 2.19 header, and LeakSanitizer's tracer then dies scanning a range that is not there ("Tracer caught
    # signal 11"); seen here on planscope-cli report. Leaks are still checked; dynamic TLS is just not a root.
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:check_initialization_order=1:intercept_tls_get_addr=0
    export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/sanitizers/tsan.supp
    if [ "$mode" = --sanitize ]; then
      ctest --test-dir "$dir" --output-on-failure --timeout 1800 -j "$jobs"
    else
      ctest --test-dir "$dir" --output-on-failure --timeout 1800 -j "$jobs" -R "^($(IFS='|'; echo "${threaded[*]}"))\$"
    fi
    ;;
  *)
    echo "usage: scripts/test.sh [--sanitize | --tsan]" >&2
    exit 2
    ;;
esac
