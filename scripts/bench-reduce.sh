#!/usr/bin/env bash
# The reduce of a measured run at scale (docs/TRACES.md "Large runs", docs/PERFORMANCE.md): one JSON object per run.
#   1. RANKS generated ranks (scripts/make-rank-set.py, default 512) reduced by one process on one thread
#      (planscope-cli reduce --threads 1) and by planscope-reduce under `mpiexec -n PROCS` (default 2), each timed
#      with /usr/bin/time: ranks per second, per process, and the peak resident memory of one process; the two outputs
#      compared byte for byte.
#   2. bench_reduce (import vs reduce of one trace, a 10,240-rank run matched and read back), whose run file is then
#      opened in the app offscreen (planscope --run FILE --view run --screenshot): wall time and peak memory.
# Usage: scripts/bench-reduce.sh [RANKS] [PROCS]    (BUILD_DIR=build by default)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${BUILD_DIR:-build}
ranks=${1:-512}
procs=${2:-2}
[ -x "$build/bin/planscope-cli" ] || { echo "bench-reduce: build first (scripts/build.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/make-rank-set.py "$tmp/traces" --ranks "$ranks" --straggler 37 >/dev/null
bytes=$(du -sb "$tmp/traces" | cut -f1)
measure() { # name, processes, command...
  local name=$1 n=$2; shift 2
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  read -r secs kib < "$tmp/time"
  python3 -c 'import json,sys; name,r,n,b,s,k=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]),int(sys.argv[4]),float(sys.argv[5]),int(sys.argv[6]); print(json.dumps({"run": name, "ranks": r, "processes": n, "traceBytes": b, "seconds": s, "ranksPerSecond": round(r/s, 1), "ranksPerSecondPerProcess": round(r/s/n, 1), "peakRssMiB": round(k/1024, 1)}))' \
    "$name" "$ranks" "$n" "$bytes" "$secs" "$kib"
}
measure "planscope-cli reduce --threads 1" 1 "$build/bin/planscope-cli" reduce "$tmp/traces" --threads 1 --out "$tmp/one.planscope-run"
if [ -x "$build/bin/planscope-reduce" ] && command -v mpiexec >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none PMIX_MCA_gds=hash
  measure "mpiexec -n $procs planscope-reduce" "$procs" mpiexec -n "$procs" "$build/bin/planscope-reduce" "$tmp/traces" --out "$tmp/mpi.planscope-run"
  cmp -s "$tmp/one.planscope-run" "$tmp/mpi.planscope-run" && echo '{"sameBytes": true}' || { echo '{"sameBytes": false}'; exit 1; }
fi
python3 -c 'import json,os,sys; p=sys.argv[1]; print(json.dumps({"runFileBytes": os.path.getsize(p), "ranks": int(sys.argv[2]), "bytesPerRank": round(os.path.getsize(p)/int(sys.argv[2]))}))' "$tmp/one.planscope-run" "$ranks"
if [ -x "$build/bin/bench_reduce" ]; then
  PLANSCOPE_BENCH_RUN_OUT="$tmp/10k.planscope-run" "$build/bin/bench_reduce" --benchmark_format=json --benchmark_repetitions=${REPETITIONS:-3} \
    --benchmark_report_aggregates_only=true > "$tmp/bench.json"
  python3 -c 'import json,sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") in ("median", None):
        print(json.dumps({k: v for k, v in b.items() if k not in ("family_index", "per_family_instance_index", "run_name", "threads", "repetition_index", "repetitions", "run_type")}))' "$tmp/bench.json"
  if [ -x "$build/bin/planscope" ]; then
    /usr/bin/time -f '%e %M' -o "$tmp/time" env QT_QPA_PLATFORM=offscreen "$build/bin/planscope" --plan samples/plans/default.plan.json \
      --run "$tmp/10k.planscope-run" --view run --size 1400x900 --screenshot "$tmp/10k.png" >/dev/null 2>&1
    read -r secs kib < "$tmp/time"
    echo "{\"run\": \"planscope --run (10,240 ranks, Run Summary page rendered offscreen, start-up and plan included)\", \"runFileBytes\": $(stat -c %s "$tmp/10k.planscope-run"), \"seconds\": $secs, \"peakRssMiB\": $((kib / 1024))}"
  fi
fi
