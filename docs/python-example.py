#!/usr/bin/env python3
"""PlanScope from Python, cell by cell (docs/PYTHON.md).

With the module built (build/python/planscope*.so):

    PYTHONPATH=build/python python3 docs/python-example.py [PLAN.plan.json]

Every figure is the one `planscope-cli` prints for the same plan (docs/FORMATS.md names the fields).
"""
import pathlib
import sys

import planscope

ROOT = pathlib.Path(__file__).resolve().parents[1]
PLAN = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "samples" / "plans" / "default.plan.json"

# %% One plan: the simulated step and MFU, as the app shows them (`planscope-cli evaluate`).
prediction = planscope.evaluate(PLAN)
time = prediction["time"]
memory = prediction["memory"]
print(f"plan: {PLAN.name} (planscope {planscope.__version__})")
print(f"step time: {time['stepSeconds']:.4f} s ({time['source']}; closed form {time['analyticStepSeconds']:.4f} s)")
print(f"MFU: {100 * time['mfu']:.2f} %")
print(f"peak memory: {memory['peakBytes'] / 2**30:.2f} GiB of {memory['capacityBytes'] / 2**30:.2f} GiB")

# %% Where the step comes from: its formula and source (`planscope-cli explain --json`).
step = planscope.explain(PLAN, "time.stepSeconds", depth=1)
print(f"time.stepSeconds = {step['formula']}")
for child in step["children"]:
    print(f"  {child['field']} = {child['value']:.4f} {child['unit']}")

# %% Sweep one knob: the microbatch size, everything else as in the file. An invalid value raises ValueError.
plan = planscope.load_plan(PLAN)
print("sweep training.microBatch:")
for micro_batch in (1, 2, 4, 8):
    plan["training"]["microBatch"] = micro_batch
    try:
        p = planscope.evaluate(plan)
    except ValueError as error:
        print(f"  microBatch {micro_batch}: invalid at {error.issues[0]['path']}")
        continue
    fits = "fits" if p["memory"]["fits"] else "does not fit"
    print(f"  microBatch {micro_batch}: step {p['time']['stepSeconds']:.4f} s, MFU {100 * p['time']['mfu']:.2f} %, "
          f"peak {p['memory']['peakBytes'] / 2**30:.2f} GiB ({fits})")

# %% A small search: tp, pp and the microbatch varied, the three fastest plans (`planscope-cli search --json`).
found = planscope.search(PLAN, vary=["tp", "pp", "microBatch"], top=3)
space = found["space"]
print(f"search: {space['plans']:.0f} plans, {space['fit']:.0f} fit")
for entry in found["best"]:
    par, tr = entry["parallel"], entry["training"]
    print(f"  {entry['rank']}. dp{par['dp']} tp{par['tp']} pp{par['pp']} mb{tr['microBatch']}: "
          f"step {entry['stepSeconds']:.4f} s, MFU {100 * entry['mfu']:.2f} %")
