#!/usr/bin/env bash
# The accuracy benchmark of issue 11 (item 5): PlanScope's prediction against the published runs of
# samples/published/runs.json, with the error, its sign and the mean absolute error.
#
# usage: scripts/accuracy.sh [--json] [--cli PATH]
#   --json      the same as JSON (schema planscope/accuracy/v1)
#   --cli PATH  the planscope-cli to run (default: $PLANSCOPE_CLI, else build/bin/planscope-cli)
#
# Builds nothing: it runs an already built planscope-cli (cmake --build build --target planscope-cli).
# Needs python3 (Debian's base system). Nothing here is tuned: the plans are the published
# configurations and every efficiency is PlanScope's default.
#
# Conversion of the prediction to the published metric (one `evaluate` per run; its JSON has both the
# simulated step, time.simulatedStepSeconds = time.stepSeconds, and the closed form,
# time.analyticStepSeconds; the FLOP counts do not depend on which):
#   GPUs              = cluster.nodes * cluster.gpusPerNode of the plan file
#   FLOPs per step    = flops.hardwarePerStep where the source counts hardware FLOPs (recomputed
#                       forward passes included: Narayanan et al. SC21: 96 B s l h^2 (1 + s/(6h) + V/(16 l h)), Megatron-DeepSpeed's
#                       BLOOM throughput), flops.modelPerStep where it counts model FLOPs (MFU)
#   tflopsPerGpu      = FLOPs per step / step seconds / GPUs / 1e12
#   mfu               = flops.modelPerStep / step seconds / GPUs / peak, peak = the plan GPU preset's
#                       dense peak for the plan's training.precision (`presets gpus --json`, peakFlops)
#   tokensPerSecond   = globalBatch * seqLength / step seconds (= time.tokensPerSecond)
#   tokensPerSecondPerGpu = tokensPerSecond / GPUs (Megatron-Bridge's "Tokens / sec / GPU")
#   error             = (predicted - published) / published: positive = optimistic (more throughput
#                       than the run achieved), negative = pessimistic
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
json=0
cli="${PLANSCOPE_CLI:-$root/build/bin/planscope-cli}"
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --cli) shift; cli="${1:?--cli needs a path}" ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/accuracy.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ ! -x "$cli" ]; then
  echo "scripts/accuracy.sh: $cli is missing; build it first: cmake --build build --target planscope-cli" >&2
  exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "scripts/accuracy.sh: python3 is needed" >&2
  exit 1
fi
exec python3 - "$cli" "$root" "$json" <<'PY'
import json, subprocess, sys

cli, root, as_json = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

def run(*args):
    r = subprocess.run([cli, *args], cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"scripts/accuracy.sh: planscope-cli {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return json.loads(r.stdout)

runs = json.load(open(f"{root}/samples/published/runs.json"))["runs"]
gpus = {g["id"]: g for g in run("presets", "gpus", "--json")["gpus"]}

def predict(entry, plan, pred, step):
    n = plan["cluster"]["nodes"] * plan["cluster"]["gpusPerNode"]
    metric = entry["metric"]
    if metric == "tflopsPerGpu":
        flops = pred["flops"]["hardwarePerStep" if entry["flops"] == "hardware" else "modelPerStep"]
        return flops / step / n / 1e12
    if metric == "mfu":
        gpu = plan["cluster"]["gpu"]
        gpu = gpus[gpu if isinstance(gpu, str) else gpu["preset"]]
        peak = gpu["peakFlops"][plan["training"].get("precision", "bf16")]
        return pred["flops"]["modelPerStep"] / step / n / peak
    if metric == "tokensPerSecond":
        return pred["time"]["tokensPerSecond"] * pred["time"]["stepSeconds"] / step
    if metric == "tokensPerSecondPerGpu":
        return pred["time"]["tokensPerSecond"] * pred["time"]["stepSeconds"] / step / n
    sys.exit(f"scripts/accuracy.sh: unknown metric {metric} in runs.json ({entry['id']})")

rows = []
for e in runs:
    plan = json.load(open(f"{root}/{e['plan']}"))
    pred = run("evaluate", e["plan"])
    sim = predict(e, plan, pred, pred["time"]["simulatedStepSeconds"])
    ana = predict(e, plan, pred, pred["time"]["analyticStepSeconds"])
    pub = e["value"]
    err, err_a = (sim - pub) / pub, (ana - pub) / pub
    rows.append({"id": e["id"], "name": e["name"], "gpu": e["gpu"], "metric": e["metric"],
                 "set": e.get("set", "dense"), "configuration": e.get("configuration", "published"),
                 "flops": e.get("flops"), "published": pub, "range": e.get("range"),
                 "predicted": sim, "error": err,
                 "side": "optimistic" if err > 0 else "pessimistic" if err < 0 else "exact",
                 "predictedAnalytic": ana, "errorAnalytic": err_a,
                 "stepSeconds": pred["time"]["simulatedStepSeconds"],
                 "analyticStepSeconds": pred["time"]["analyticStepSeconds"]})

# Groups: all runs, each GPU, each set (dense, moe), and the MoE runs whose configuration is fully published.
groups = [("all", lambda r: True)]
groups += [(g, (lambda g: lambda r: r["gpu"] == g)(g)) for g in dict.fromkeys(r["gpu"] for r in rows)]
groups += [(f"set {k}", (lambda k: lambda r: r["set"] == k)(k)) for k in dict.fromkeys(r["set"] for r in rows)]
groups += [("moe, configuration published", lambda r: r["set"] == "moe" and r["configuration"].startswith("published"))]

def stats(pick):
    sel = [r for r in rows if pick(r)]
    if not sel: return None
    xs = [r["error"] for r in sel]
    side = ("optimistic on every run" if all(x > 0 for x in xs) else
            "pessimistic on every run" if all(x < 0 for x in xs) else "mixed")
    return {"runs": len(sel), "meanAbsError": sum(abs(x) for x in xs) / len(sel),
            "meanAbsErrorAnalytic": sum(abs(r["errorAnalytic"]) for r in sel) / len(sel),
            "meanError": sum(xs) / len(sel), "bias": side}

summary = {k: v for k, v in ((k, stats(f)) for k, f in groups) if v}

if as_json:
    json.dump({"schema": "planscope/accuracy/v1", "runs": rows, "summary": summary}, sys.stdout, indent=2)
    print()
    sys.exit(0)

def fmt(metric, v, flops=None):
    if metric == "mfu": return f"MFU {100 * v:.1f}%"
    if metric == "tflopsPerGpu": return f"{v:.0f} TFLOP/s ({flops})"
    if metric == "tokensPerSecondPerGpu": return f"{v:.0f} tok/s/GPU"
    return f"{v:.0f} tok/s"

print("| run | configuration | published | predicted (simulated) | error | side | predicted (closed form) | error |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    pub = fmt(r["metric"], r["published"], r["flops"])
    if r["range"]: pub += f" (range {100 * r['range'][0]:.0f}-{100 * r['range'][1]:.0f}%)" if r["metric"] == "mfu" else f" (range {r['range'][0]}-{r['range'][1]})"
    print(f"| {r['name']} (`{r['id']}`) | {r['configuration']} | {pub} | {fmt(r['metric'], r['predicted'], r['flops'])} | "
          f"{100 * r['error']:+.1f}% | {r['side']} | {fmt(r['metric'], r['predictedAnalytic'], r['flops'])} | "
          f"{100 * r['errorAnalytic']:+.1f}% |")
print()
for k, s in summary.items():
    print(f"mean absolute error, {k} ({s['runs']} runs): {100 * s['meanAbsError']:.1f}% simulated, "
          f"{100 * s['meanAbsErrorAnalytic']:.1f}% closed form; mean signed error {100 * s['meanError']:+.1f}%: {s['bias']}")
PY
