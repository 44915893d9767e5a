#!/usr/bin/env bash
# A trace of about 1 GB: df_index_resolver's events repeated with shifted timestamps (COPIES times, default 22:
# 22 x 53.7 MB, about 1.03 GB), then the import through the CLI and the GUI's offscreen render of the Measured Run view, each
# timed with /usr/bin/time for wall time and peak resident memory, then bench_trace_view on it if built. Prints one JSON object per run.
# Usage: scripts/bench-trace-large.sh [COPIES]    (BUILD_DIR=build by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${BUILD_DIR:-build}
copies=${1:-22}
gz="$root/samples/traces/df_index_resolver.json.gz"
[ -x "$build/bin/planscope-cli" ] || { echo "bench-trace-large: build first (scripts/build.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
big="$tmp/big.json"
scripts/make-large-trace.py "$gz" "$big" "$copies"
bytes=$(stat -c %s "$big")
measure() { # name, command...
  local name=$1; shift
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  read -r secs kib < "$tmp/time"
  python3 -c 'import json,sys; n,b,s,k=sys.argv[1],int(sys.argv[2]),float(sys.argv[3]),int(sys.argv[4]); print(json.dumps({"run": n, "fileBytes": b, "seconds": s, "MBperSecond": round(b/1e6/s, 1), "peakRssMiB": round(k/1024, 1)}))' \
    "$name" "$bytes" "$secs" "$kib"
}
measure "planscope-cli import --json" "$build/bin/planscope-cli" import "$big" --json
if [ -x "$build/bin/planscope" ]; then
  measure "planscope --trace (Measured Run view rendered offscreen)" env QT_QPA_PLATFORM=offscreen "$build/bin/planscope" \
    --plan samples/plans/default.plan.json --trace "$big" --view trace --screenshot "$tmp/shot.png" --size 1400x900
fi
# The Measured Run view's GUI-thread work on the same file (overlay, rows, the engine's index, 1920 x 1080 frames at
# five zooms), one JSON object per benchmark.
if [ -x "$build/bin/bench_trace_view" ]; then
  PLANSCOPE_BENCH_TRACE="$big" QT_QPA_PLATFORM=offscreen "$build/bin/bench_trace_view" --benchmark_format=json \
    --benchmark_repetitions=${REPETITIONS:-3} --benchmark_report_aggregates_only=true > "$tmp/view.json"
  python3 -c 'import json,sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    print(json.dumps({k: v for k, v in b.items() if k not in ("family_index", "per_family_instance_index", "run_name", "threads", "repetition_index")}))' "$tmp/view.json"
fi
