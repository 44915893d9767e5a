#!/usr/bin/env python3
"""Writes a large Kineto trace for the big-input runs: the events of a (gzipped) sample written COPIES times, each
copy's timestamps shifted past the one before, under the sample's own header.
Usage: scripts/make-large-trace.py SAMPLE.json.gz OUT.json COPIES
Used by scripts/bench-trace-large.sh and scripts/hostile-inputs.sh."""
import gzip
import json
import sys

src, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(gzip.open(src))
events = d.pop("traceEvents")
ts = [e["ts"] for e in events if isinstance(e.get("ts"), (int, float))]
span = max(ts) - min(ts) + 1000
with open(out, "w") as f:
    f.write(json.dumps(d)[:-1] + ', "traceEvents": [\n')
    first = True
    for k in range(copies):
        for e in events:
            if isinstance(e.get("ts"), (int, float)):
                e = dict(e, ts=e["ts"] + k * span)
            f.write(("" if first else ",\n") + json.dumps(e))
            first = False
    f.write("\n]}\n")
