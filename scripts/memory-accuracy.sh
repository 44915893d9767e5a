#!/usr/bin/env bash
# The memory benchmark of issue 13 (item 7): PlanScope's per-GPU memory prediction against the published measured
# runs of samples/memory/runs.json, with the error and its sign.
#
# usage: scripts/memory-accuracy.sh [--json] [--cli PATH]
#   --json      the same as JSON (schema planscope/memory-accuracy/v1)
#   --cli PATH  the planscope-cli to run (default: $PLANSCOPE_CLI, else build/bin/planscope-cli)
#
# Builds nothing: it runs an already built planscope-cli (cmake --build build --target planscope-cli).
# Needs python3 (Debian's base system). Nothing here is tuned: each plan is the run's published configuration,
# every memory overhead is PlanScope's default, and the plan file names each detail the source leaves out.
#
# What is compared (one `evaluate` per run):
#   stage      runs.json "stage": "max" = the largest of memory.stages[] (the source reports the maximum over all
#              GPUs), "last" = the last pipeline rank's entry (Megatron-LM logs memory on rank world_size - 1
#              only), a number = that pipeline rank
#   predicted  the stage's figure that matches "measuredKind", where the prediction has it:
#                allocated  -> allocatedBytes (torch.cuda max_memory_allocated: tensors only)
#                reserved   -> reservedBytes  (torch.cuda max_memory_reserved: the caching allocator's segments)
#                nvidia-smi -> totalBytes     (everything the process holds, CUDA context included)
#              and totalBytes otherwise (the column "compared" says which one was used)
#   allocator view  while the prediction has no allocatedBytes/reservedBytes, the same stage's totalBytes less
#              the terms the measured counter cannot see: for "allocated" the CUDA context, the NCCL buffers and
#              the fragmentation allowance (outside PyTorch's allocator, or reserved but not allocated); for
#              "reserved" the CUDA context and the NCCL buffers; shown with its own error
#   error      (predicted - measured) / measured: positive = the prediction is above the measurement
#              (conservative: a plan it says fits does fit), negative = below it (a plan it says fits may not)
#   terms      the stage's three largest terms (weights, gradients, optimizer, activations and each buffer)
#   needs      the plan fields this planscope-cli does not know yet (its "unknown field" warnings): the row
#              is evaluated without them and must be run again once they exist
#   model states (runs with "measuredStaticBytes": the bytes still allocated after the optimizer step)
#              weightsBytes + gradientsBytes + optimizerBytes of the same stage against that figure
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
json=0
cli="${PLANSCOPE_CLI:-$root/build/bin/planscope-cli}"
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --cli) shift; cli="${1:?--cli needs a path}" ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/memory-accuracy.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ ! -x "$cli" ]; then
  echo "scripts/memory-accuracy.sh: $cli is missing; build it first: cmake --build build --target planscope-cli" >&2
  exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "scripts/memory-accuracy.sh: python3 is needed" >&2
  exit 1
fi
exec python3 - "$cli" "$root" "$json" <<'PY'
import json, re, subprocess, sys

cli, root, as_json = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
GIB = 1024 ** 3
FIELD = {"allocated": "allocatedBytes", "reserved": "reservedBytes", "nvidia-smi": "totalBytes"}

def evaluate(plan):
    r = subprocess.run([cli, "evaluate", plan], cwd=root, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        sys.exit(f"scripts/memory-accuracy.sh: planscope-cli evaluate {plan} failed ({r.returncode}): {r.stderr.strip()}")

def pick_stage(stages, which):
    if which == "max":
        return max(stages, key=lambda s: s["totalBytes"])
    if which == "last":
        return stages[-1]
    return next(s for s in stages if s["stage"] == int(which))

def terms(stage):
    parts = {"weights": stage["weightsBytes"], "gradients": stage["gradientsBytes"],
             "optimizer": stage["optimizerBytes"], "activations": stage["activationsBytes"]}
    for k, v in stage.get("buffers", {}).items():
        parts[re.sub(r"Bytes$", "", k)] = v
    total = sum(parts.values()) or 1
    top = sorted(parts.items(), key=lambda kv: -kv[1])[:3]
    return [{"term": k, "bytes": v, "share": v / total} for k, v in top]

rows = []
for e in json.load(open(f"{root}/samples/memory/runs.json")):
    pred = evaluate(e["plan"])
    needs = sorted({w.split(":")[0] for w in pred.get("warnings", []) if "unknown field" in w})
    row = {"id": e["id"], "measured": e["measuredBytes"], "measuredKind": e["measuredKind"], "stage": e["stage"],
           "measuredAsPublished": e.get("measuredAsPublished"), "needs": needs}
    if not pred.get("valid", True) or pred.get("errors"):
        row["error"] = None
        row["invalid"] = "; ".join(f"{x.get('path', '')}: {x.get('message', '')}" for x in pred.get("errors", []))
        rows.append(row)
        continue
    st = pick_stage(pred["memory"]["stages"], e["stage"])
    field = FIELD.get(e["measuredKind"], "totalBytes")
    if field not in st:
        field = "totalBytes"
    p = st[field]
    row.update({"predicted": p, "compared": field, "predictedStage": st["stage"],
                "error": (p - e["measuredBytes"]) / e["measuredBytes"], "terms": terms(st)})
    if field == "totalBytes" and e["measuredKind"] in ("allocated", "reserved"):
        b = st.get("buffers", {})
        unseen = b.get("cudaContextBytes", 0) + b.get("ncclBytes", 0)
        if e["measuredKind"] == "allocated":
            unseen += b.get("fragmentationBytes", 0)
        row["predictedAllocatorView"] = p - unseen
        row["errorAllocatorView"] = (p - unseen - e["measuredBytes"]) / e["measuredBytes"]
    if "measuredStaticBytes" in e:
        states = st["weightsBytes"] + st["gradientsBytes"] + st["optimizerBytes"]
        row["measuredStatic"] = e["measuredStaticBytes"]
        row["predictedStatic"] = states
        row["errorStatic"] = (states - e["measuredStaticBytes"]) / e["measuredStaticBytes"]
    rows.append(row)

done = [r for r in rows if r["error"] is not None]
clean = [r for r in done if not r["needs"]]
def summary(rs, key="error"):
    rs = [r for r in rs if key in r]
    if not rs:
        return None
    return {"runs": len(rs), "meanAbsError": sum(abs(r[key]) for r in rs) / len(rs),
            "meanError": sum(r[key] for r in rs) / len(rs),
            "above": sum(1 for r in rs if r[key] > 0), "below": sum(1 for r in rs if r[key] < 0)}
out = {"schema": "planscope/memory-accuracy/v1", "runs": rows,
       "summary": {"all": summary(done), "withoutMissingFields": summary(clean),
                   "allocatorView": summary(done, "errorAllocatorView")}}

if as_json:
    json.dump(out, sys.stdout, indent=2)
    print()
    sys.exit(0)

g = lambda b: f"{b / GIB:.1f} GiB"
print("| run | measured | predicted | compared | error | side | allocator view | error | largest terms | needs |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    meas = f"{g(r['measured'])} {r['measuredKind']}, stage {r['stage']}"
    needs = ", ".join(f"`{n}`" for n in r["needs"]) or "-"
    if r["error"] is None:
        print(f"| `{r['id']}` | {meas} | not evaluated: {r['invalid']} | - | - | - | - | - | - | {needs} |")
        continue
    side = "above" if r["error"] > 0 else "below" if r["error"] < 0 else "exact"
    top = ", ".join(f"{t['term']} {100 * t['share']:.0f}%" for t in r["terms"])
    view, verr = "-", "-"
    if "predictedAllocatorView" in r:
        view, verr = g(r["predictedAllocatorView"]), f"{100 * r['errorAllocatorView']:+.1f}%"
    print(f"| `{r['id']}` | {meas} | {g(r['predicted'])} (stage {r['predictedStage']}) | {r['compared']} | "
          f"{100 * r['error']:+.1f}% | {side} | {view} | {verr} | {top} | {needs} |")
print()
for k, s in out["summary"].items():
    if s:
        print(f"mean absolute error, {k} ({s['runs']} runs): {100 * s['meanAbsError']:.1f}%; mean signed error "
              f"{100 * s['meanError']:+.1f}%; {s['above']} above, {s['below']} below the measurement")
static = [r for r in done if "measuredStatic" in r]
if static:
    print()
    print("| run | model states measured (step-end allocated) | predicted weights + gradients + optimizer | error |")
    print("|---|---|---|---|")
    for r in static:
        print(f"| `{r['id']}` | {g(r['measuredStatic'])} | {g(r['predictedStatic'])} | {100 * r['errorStatic']:+.1f}% |")
PY
