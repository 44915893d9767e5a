#!/usr/bin/env bash
# Kineto import throughput vs Python's json.load on the same uncompressed trace, in one run on one machine.
# Decompresses samples/traces/df_index_resolver.json.gz to a temp .json, runs $BUILD_DIR/bin/bench_trace on it
# (results also in $BUILD_DIR/bench-trace.json), times `json.load` on it (median of 5), prints both and the ratio.
# Usage: [BUILD_DIR=build] scripts/bench-trace.sh [extra bench_trace flags]
#   BUILD_DIR: the build folder to use (default build; it is configured with scripts/build.sh when it is build
#   and holds no build yet, otherwise it must already be configured).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
gz="$root/samples/traces/df_index_resolver.json.gz"
[ -f "$gz" ] || { echo "bench-trace: missing $gz" >&2; exit 1; }
build=${BUILD_DIR:-build}
if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
  [ "$build" = build ] || { echo "bench-trace: $build is not a configured build folder" >&2; exit 1; }
  scripts/build.sh
fi
cmake --build "$build" --target bench_trace >/dev/null
[ -x "$build/bin/bench_trace" ] || { echo "bench-trace: $build/bin/bench_trace not built (Google Benchmark missing?)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json="$tmp/df_index_resolver.json"
python3 -c 'import gzip,shutil,sys; shutil.copyfileobj(gzip.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$gz" "$json"

PLANSCOPE_BENCH_TRACE="$json" "$build/bin/bench_trace" --benchmark_format=json --benchmark_out="$build/bench-trace.json" \
  --benchmark_out_format=json "$@" >/dev/null

python3 - "$json" "$build/bench-trace.json" <<'PY'
import json, os, platform, statistics, sys, time
path, bench = sys.argv[1], sys.argv[2]
size = os.path.getsize(path)
times = []
for _ in range(5):
    t = time.perf_counter()
    with open(path, "rb") as f:
        d = json.load(f)
    times.append(time.perf_counter() - t)
    del d
py = statistics.median(times)
b = json.load(open(bench))
run = [r for r in b["benchmarks"] if r.get("run_type") == "iteration"][0]
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[run["time_unit"]]
cpp = run["real_time"] * unit
ctx = b["context"]
print(f"machine: {platform.node()} {ctx.get('num_cpus')} CPUs @ {ctx.get('mhz_per_cpu')} MHz, "
      f"Python {platform.python_version()}")
print(f"file: {path} ({size / 1e6:.1f} MB uncompressed, {int(run['events'])} events)")
print(f"planscope import (streaming scanner, C++): {cpp * 1e3:.1f} ms, {size / cpp / 1e6:.1f} MB/s, "
      f"{run['events'] / cpp / 1e6:.3f} M events/s, {int(run['keptEvents'])} kept events, "
      f"{run['retainedBytesPerKeptEvent']:.0f} retained B/kept event, {run['inputBytesPerKeptEvent']:.0f} input B/kept event")
print(f"python json.load (full DOM, median of 5): {py * 1e3:.1f} ms, {size / py / 1e6:.1f} MB/s")
print(f"ratio python/planscope: {py / cpp:.2f}x")
PY
