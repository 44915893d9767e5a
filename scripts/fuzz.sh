#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz into build-fuzz/ (Clang, ASan + UBSan; PLANSCOPE_FUZZ=ON) and runs each
# for SECONDS (default 60), or for N executions with --runs N, from seeds taken from the repo (the corpus of earlier
# runs in build-fuzz/corpus/ is kept and grows).
#   scripts/fuzz.sh [SECONDS]            each target for SECONDS
#   scripts/fuzz.sh --runs N [TARGET...] each target (or the ones named) for N executions Prints the executions per target (libFuzzer's
# "Done N runs" line) and exits 1 on any crash, leak, timeout or out-of-memory; the inputs that caused one are kept in
# build-fuzz/findings/<target>/. Reproduce one with: build-fuzz/bin/<target> build-fuzz/findings/<target>/crash-...
# (https://llvm.org/docs/LibFuzzer.html). docs/RELIABILITY.md records the results.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
runs=
if [ "${1:-}" = --runs ]; then
  runs="${2:?usage: scripts/fuzz.sh --runs N [TARGET...]}"
  shift 2
elif [ $# -gt 0 ]; then
  seconds=$1
  shift
fi
build=build-fuzz

# Clang and its libFuzzer runtime (Debian 12: clang-14 and libclang-rt-14-dev), only where missing.
if ! command -v clang++ >/dev/null || ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "scripts/fuzz.sh: installing clang and libclang-rt-14-dev"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi

all=(fuzz_plan fuzz_hf_config fuzz_schedule_csv fuzz_layout fuzz_profile fuzz_kineto fuzz_purity fuzz_snapshot fuzz_launch_config fuzz_run_file)
targets=("${all[@]}")
[ $# -gt 0 ] && targets=("$@")
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLANSCOPE_FUZZ=ON \
  -DPLANSCOPE_WITH_GUI=OFF -DPLANSCOPE_BUILD_TESTS=OFF -DPLANSCOPE_BUILD_BENCH=OFF -DPLANSCOPE_WITH_CUDA=OFF >/dev/null
ninja -C "$build" -j "${FUZZ_JOBS:-1}" "${targets[@]}"

# Seed corpora: the repo's files of each kind, plus the small hand-written ones in tests/fuzz/seeds/.
# (a folder of this run's own, so that two runs on different targets can go side by side)
seeds="$build/seeds.$$"
rm -rf "$seeds"
trap 'rm -rf "$seeds"' EXIT
for t in "${all[@]}"; do mkdir -p "$seeds/$t"; done
cp samples/plans/*.json samples/memory/*.plan.json "$seeds/fuzz_plan/"
# Pairs of plans (A, NUL, B): each sample after the one before it, the Mixtral pair that differs only in etp first.
sed 's/"etp": 2/"etp": 1/' samples/memory/mcore-mixtral-8x22b-tp2pp8ep8.plan.json > "$seeds/etp1.json"
{ cat "$seeds/etp1.json"; printf '\0'; cat samples/memory/mcore-mixtral-8x22b-tp2pp8ep8.plan.json; } > "$seeds/fuzz_purity/mixtral-etp.pair"
rm "$seeds/etp1.json"
prev=
for f in samples/plans/*.json samples/memory/*.plan.json; do
  [ -n "$prev" ] && { cat "$prev"; printf '\0'; cat "$f"; } > "$seeds/fuzz_purity/$(basename "$f" .json).pair"
  prev=$f
done
cp resources/presets/models.json tests/fuzz/seeds/hf_config/* "$seeds/fuzz_hf_config/"
cp tests/fuzz/seeds/schedule_csv/* "$seeds/fuzz_schedule_csv/"
cp tests/fuzz/seeds/layout/* "$seeds/fuzz_layout/"
cp tests/fuzz/seeds/profile/* tests/data/nccl-tests/*.txt tests/data/nccl-tests/*.json "$seeds/fuzz_profile/"
# Traces: the small samples as they are (gzip) and the head of each uncompressed (the importer keeps a damaged
# file's head, so a cut trace is a valid input). 64 KB, like every input: longer inputs only repeat the event
# shapes these already hold, at a twentieth of the executions per second.
for f in samples/traces/*.json.gz; do
  name="$(basename "$f" .json.gz)"
  [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$seeds/fuzz_kineto/$name.json.gz"
  { gzip -dc "$f" || true; } | head -c 65536 > "$seeds/fuzz_kineto/$name.json"
done
# Memory snapshots (tests/data/memory-snapshots, written by its make_snapshot.py) and launch configs of every format.
cp tests/data/memory-snapshots/*.pickle "$seeds/fuzz_snapshot/"
cp tests/data/launch-configs/*.sh tests/data/launch-configs/*.txt tests/data/launch-configs/*.json tests/data/launch-configs/*.toml \
  tests/data/launch-configs/*.yaml "$seeds/fuzz_launch_config/"
# Run summaries and shards: tests/fuzz/seeds/run_file (written by planscope-cli reduce from scripts/make-rank-set.py's ranks).
cp tests/fuzz/seeds/run_file/* "$seeds/fuzz_run_file/"
# Process groups of each shape the inferred plan reads (tests/data/process-groups/README.md): one rank of each.
for d in tests/data/process-groups/*/; do cp "$d/rank0.json" "$seeds/fuzz_kineto/pg-$(basename "$d").json"; done

failed=0
for t in "${targets[@]}"; do
  max_len=65536
  corpus="$build/corpus/$t"
  findings="$build/findings/$t"
  rm -rf "$findings"
  mkdir -p "$corpus" "$findings"
  log="$build/findings/$t.log"
  rc=0
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  start=$(date +%s)
  "$build/bin/$t" "$corpus" "$seeds/$t" "${limit[@]}" -max_len="$max_len" -rss_limit_mb=2048 \
    -timeout=30 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 || rc=$?
  elapsed=$(( $(date +%s) - start ))
  done_runs="$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*' || true)"
  if [ "$rc" -ne 0 ] || [ -z "$done_runs" ]; then
    failed=1
    echo "$t: FAILED (exit $rc), inputs in $findings/, log $log"
    grep -m1 -E '^==[0-9]+==ERROR|runtime error|deadly signal|ALARM|out-of-memory' "$log" || true
  else
    echo "$t: $done_runs executions in ${elapsed} s, no findings"
  fi
done
exit "$failed"
