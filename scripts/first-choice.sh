#!/usr/bin/env bash
# The planner's first choice on every sample (issue 29, item 6): for each samples/plans/*.plan.json, the plan
# `planscope-cli search PLAN --top 1` ranks first, its MFU beside the highest MFU a published run reached on that GPU
# and precision (samples/published/mfu-ceilings.json), and the memory it leaves free.
#
# usage: scripts/first-choice.sh [--json] [--cli PATH] [PLAN ...]
#   --json      the rows as JSON (schema planscope/first-choice/v1)
#   --cli PATH  the planscope-cli to run (default: $PLANSCOPE_CLI, else build/bin/planscope-cli)
#   PLAN ...    the plans to search (default: every samples/plans/*.plan.json)
#
# Builds nothing. The search is the default space of docs/SEARCH.md; fp16 plans are compared with the bf16 ceiling
# (the same dense peak on A100 and H100).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
json=0
cli="${PLANSCOPE_CLI:-$root/build/bin/planscope-cli}"
plans=()
while [ $# -gt 0 ]; do
  case "$1" in
    --json) json=1 ;;
    --cli) cli="$2"; shift ;;
    *) plans+=("$1") ;;
  esac
  shift
done
if [ ${#plans[@]} -eq 0 ]; then plans=("$root"/samples/plans/*.plan.json); fi
[ -x "$cli" ] || { echo "first-choice.sh: $cli is not built (cmake --build build --target planscope-cli)" >&2; exit 2; }
python3 - "$cli" "$json" "$root/samples/published/mfu-ceilings.json" "${plans[@]}" <<'PY'
import json, os, subprocess, sys
cli, as_json, ceilings_path, plans = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4:]
ceilings = {(c["gpu"], c["precision"]): c for c in json.load(open(ceilings_path))["ceilings"]}
rows = []
for path in plans:
    plan = json.load(open(path))
    gpu = plan["cluster"]["gpu"] if isinstance(plan["cluster"]["gpu"], str) else plan["cluster"]["gpu"].get("id", "")
    precision = plan["training"].get("precision", "bf16")
    key = (gpu, "bf16" if precision == "fp16" else precision)
    out = subprocess.run([cli, "search", path, "--top", "1", "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        rows.append({"plan": os.path.basename(path), "error": out.stderr.strip()[:200]})
        continue
    res = json.loads(out.stdout)
    best = res["best"][0] if res["best"] else None
    row = {"plan": os.path.basename(path).removesuffix(".plan.json"), "gpu": gpu, "precision": precision,
           "fit": res["space"]["fit"], "underHeadroom": res["rejected"].get("less free memory than the headroom (memoryOverheads.headroom)", 0)}
    if best:
        p, t = best["parallel"], best["training"]
        row["choice"] = (f"dp{p['dp']} tp{p['tp']} pp{p['pp']}" + (f" cp{p['cp']}" if p["cp"] > 1 else "")
                         + (f" ep{p['ep']}" if p["ep"] > 1 else "") + (f" vpp{p['vpp']}" if p["vpp"] > 1 else "")
                         + (" sp" if p["sp"] else "") + f" zero{p['zero']} mb{t['microBatch']} {t['recompute']} {t['schedule']}")
        row["mfu"] = best["mfu"]
        row["freeBytes"] = best["capacityBytes"] - best["peakBytes"]
        row["freeShare"] = row["freeBytes"] / best["capacityBytes"]
        c = ceilings.get(key)
        if c:
            row["ceilingAny"] = c["any"]["mfu"]
            row["ceilingLarge"] = c["largeModel"]["mfu"]
            row["aboveAny"] = best["mfu"] > c["any"]["mfu"]
            row["aboveLarge"] = best["mfu"] > c["largeModel"]["mfu"]
    rows.append(row)
if as_json:
    print(json.dumps({"schema": "planscope/first-choice/v1", "rows": rows}, indent=1))
    sys.exit(0)
print("| sample | first choice | MFU | published best, any size / >= 100B | free memory |")
print("|---|---|---|---|---|")
for r in rows:
    if "error" in r:
        print(f"| `{r['plan']}` | error: {r['error']} | | | |")
        continue
    if "choice" not in r:
        print(f"| `{r['plan']}` | nothing fits | | | |")
        continue
    ceiling = (f"{100*r['ceilingAny']:.1f}% / {100*r['ceilingLarge']:.1f}%" if "ceilingAny" in r else "none published")
    flag = " (above)" if r.get("aboveAny") else (" (above the >= 100B best)" if r.get("aboveLarge") else "")
    print(f"| `{r['plan']}` | {r['choice']} | {100*r['mfu']:.1f}%{flag} | {ceiling} | "
          f"{r['freeBytes']/2**30:.1f} GiB ({100*r['freeShare']:.1f}%) |")
PY
