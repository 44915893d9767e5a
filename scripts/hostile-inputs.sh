#!/usr/bin/env bash
# Big and hostile inputs against the release binaries (issue 16, item 4): each case is written to a temporary
# folder, run under an 8 GiB address-space limit and a 300 s timeout, and printed as one JSON object: the case,
# what is expected ("works" or "refused"), the exit code, wall seconds, peak resident MiB, the first line of the
# message and whether the expectation held. Exits 1 if any did not. docs/RELIABILITY.md records a run.
#   scripts/hostile-inputs.sh            every case, the 2 GB trace included (about 5 GB of temporary disk)
#   scripts/hostile-inputs.sh --quick    without the 2 GB trace
# BUILD_DIR=build by default (scripts/build.sh first).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${BUILD_DIR:-build}
quick=${1:-}
cli="$root/$build/bin/planscope-cli"
gui="$root/$build/bin/planscope"
[ -x "$cli" ] || { echo "hostile-inputs: build first (scripts/build.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export QT_QPA_PLATFORM=offscreen
failed=0

# run NAME EXPECT COMMAND...: EXPECT is "works" (exit 0) or "refused" (exit 1 or 2 with a message, no signal).
run() {
  local name=$1 expect=$2; shift 2
  local rc=0
  ( ulimit -v 8388608; /usr/bin/time -f '%e %M' -o "$tmp/time" timeout 300 "$@" >"$tmp/out" 2>"$tmp/err" ) || rc=$?
  local secs=0 kib=0
  [ -s "$tmp/time" ] && read -r secs kib < <(tail -1 "$tmp/time")
  python3 - "$name" "$expect" "$rc" "$secs" "$kib" "$tmp/err" <<'PY' || failed=1
import json, sys
name, expect, rc, secs, kib, err = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
lines = [l.strip() for l in open(err, errors="replace") if l.strip() and "propagateSizeHints" not in l and "XDG_RUNTIME_DIR" not in l and not l.startswith("Command exited")]
message = next((l for l in lines if l.startswith("error") or "planscope" in l), lines[0] if lines else "")
ok = rc == 0 if expect == "works" else rc in (1, 2) and bool(message)
print(json.dumps({"case": name, "expect": expect, "exit": rc, "seconds": secs, "peakRssMiB": round(kib / 1024, 1),
                  "message": message[:300], "ok": ok}), flush=True)
sys.exit(0 if ok else 1)
PY
}

# Plans derived from the default sample.
python3 - "$root/samples/plans/default.plan.json" "$tmp" <<'PY'
import copy, json, sys
base, out = json.load(open(sys.argv[1])), sys.argv[2]
def write(name, edit):
    p = copy.deepcopy(base); edit(p); json.dump(p, open(f"{out}/{name}.plan.json", "w"), indent=1)
write("microbatches-100000", lambda p: p["training"].update(globalBatch=200000))                      # pp 4: 800,000 ops
write("microbatches-100000-pp16", lambda p: (p["training"].update(globalBatch=100000), p["parallel"].update(pp=16, dp=1, tp=1)))
write("layers-1e9", lambda p: p["model"].update(layers=1000000000))
write("batch-1e30", lambda p: p["training"].update(globalBatch=1e30))
write("tokens-1e300", lambda p: p["training"].update(tokens=1e300))
write("nodes-1e9", lambda p: p["cluster"].update(nodes=1e9))
text = json.dumps(base)
deep = "[" * 1000000 + "]" * 1000000
open(f"{out}/nested-1e6-unknown-field.plan.json", "w").write(text[:-1] + ', "extra": ' + deep + "}")
open(f"{out}/nested-1e6-as-batch.plan.json", "w").write(text.replace('"globalBatch": 64', '"globalBatch": ' + deep))
open(f"{out}/nested-1e6-document.plan.json", "w").write(deep)
write("json-15MB-description", lambda p: p.update(description="x" * 15_000_000))
write("json-100MB-description", lambda p: p.update(description="x" * 100_000_000))
PY

plans=(microbatches-100000 microbatches-100000-pp16 layers-1e9 batch-1e30 tokens-1e300 nodes-1e9 nested-1e6-unknown-field
  nested-1e6-as-batch nested-1e6-document json-15MB-description json-100MB-description)
expects=(works works refused refused refused refused works refused refused works refused)
run "16,384 GPUs: planscope-cli evaluate" works "$cli" evaluate samples/plans/llama3-405b-16k-h100.plan.json
[ -x "$gui" ] && run "16,384 GPUs: GPU grid rendered" works "$gui" --plan samples/plans/llama3-405b-16k-h100.plan.json \
  --view grid --screenshot "$tmp/grid.png"
for i in "${!plans[@]}"; do
  run "${plans[$i]}: planscope-cli evaluate" "${expects[$i]}" "$cli" evaluate "$tmp/${plans[$i]}.plan.json"
done
[ -x "$gui" ] && run "microbatches-100000: timeline rendered" works "$gui" --plan "$tmp/microbatches-100000.plan.json" \
  --view timeline --screenshot "$tmp/timeline.png"
[ -x "$gui" ] && run "json-100MB-description: opened in the app" refused "$gui" --plan "$tmp/json-100MB-description.plan.json" \
  --screenshot "$tmp/refused.png"

# A PyTorch pipelining CSV of 100,000 microbatches on 4 ranks, written by the CLI, imported back.
"$cli" schedule --kind 1f1b --stages 4 --microbatches 100000 --csv > "$tmp/schedule.csv"
run "pipelining CSV, 4 ranks x 100,000 microbatches: import" works "$cli" schedule --kind 1f1b --stages 4 \
  --microbatches 100000 --import "$tmp/schedule.csv" --json
run "schedule of 1,000 ranks x 100,000 microbatches (2e8 ops)" refused "$cli" schedule --kind 1f1b --stages 1000 \
  --microbatches 100000 --json

if [ "$quick" != --quick ]; then
  # A trace over 2 GiB: the sample's events written 48 times with shifted timestamps (2.25 GB), then the same cut
  # short 50 MB before its end, past byte 2^31 (the importer keeps the head and names the offset).
  scripts/make-large-trace.py samples/traces/df_index_resolver.json.gz "$tmp/big.json" 48
  bytes=$(stat -c %s "$tmp/big.json")
  run "trace of $bytes bytes: planscope-cli import" works "$cli" import "$tmp/big.json" --json
  [ -x "$gui" ] && run "trace of $bytes bytes: Measured Run view rendered" works "$gui" \
    --plan samples/plans/default.plan.json --trace "$tmp/big.json" --view trace --screenshot "$tmp/trace.png"
  head -c $((bytes - 50000000)) "$tmp/big.json" > "$tmp/cut.json"
  rm -f "$tmp/big.json"
  run "the same trace cut at byte $((bytes - 50000000)): planscope-cli import" works "$cli" import "$tmp/cut.json" --json
  # The cut is reported at its byte offset (past 2^31: no 32-bit offset anywhere), with the events before it kept.
  python3 - "$tmp/out" "$((bytes - 50000000))" <<'PY' || failed=1
import json, sys
r, cut = json.load(open(sys.argv[1])), int(sys.argv[2])
skipped = r["skipped"][0] if r["skipped"] else {}
ok = skipped.get("offset") == cut and r["ranks"][0]["events"] > 0
print(json.dumps({"case": "the cut trace's skipped tail", "offset": skipped.get("offset"), "reason": skipped.get("reason"),
                  "eventsKept": r["ranks"][0]["events"], "ok": ok}))
sys.exit(0 if ok else 1)
PY
fi
exit "$failed"
