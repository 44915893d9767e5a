#!/usr/bin/env python3
"""A generated measured run of many ranks, from the sample traces, for the reduce's tests and benchmark.

    scripts/make-rank-set.py OUT_DIR --ranks N [--tp 4] [--gpus-per-node 8] [--straggler R] [--damaged R] [--broken R]

Rank r's trace is samples/traces/sampled_rank-{r % 2}.json.gz (two real ranks of a 128-rank job, HTA's test data,
MIT: samples/traces/LICENSE-HTA.txt) with its times shifted by a small per-rank offset, its GPU events on CUDA device
r % gpus-per-node, its distributedInfo saying rank r of N with the process groups of a TP x DP layout (torch's
pg_config: "0" the default group, then the TP groups, then the DP groups, as torch.distributed names groups in the
order they are created), and, in each ProfilerStep, NCCL kernels with the metadata torch.profiler records for them
(Collective name, In/Out msg nelems, dtype, Group size, Process Group Name / Description / Ranks): two all-reduces on
the TP group, one on the DP group and two all-to-alls on the DP group whose sizes vary by rank (an MoE dispatch and
combine). Each kernel starts when its rank arrives and ends when the last member has arrived plus the transfer, as
an NCCL kernel does. The straggler rank arrives 2 ms late at every collective; the damaged rank's file is cut in the
middle (its head imports); the broken rank's file is no trace at all. Everything is a function of the rank and
--seed: the same arguments write the same bytes (gzip mtime 0).
"""
import argparse
import copy
import gzip
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "samples", "traces")

# (collective name arg, kernel op, group kind, elements) in the order they run in a step.
COLLECTIVES = [
    ("allreduce", "AllReduce", "tp", 4 << 20),
    ("all_to_all", "AllToAll", "dp", 2 << 20),
    ("allreduce", "AllReduce", "tp", 4 << 20),
    ("all_to_all", "AllToAll", "dp", 2 << 20),
    ("allreduce", "AllReduce", "dp", 16 << 20),
]


def arrival(seed, rank, step, index, straggler):
    """When a rank reaches collective `index` of `step`, in microseconds after the collective's nominal time."""
    rng = random.Random("%d-%d-%d-%d" % (seed, rank, step, index))
    late = 2000 if rank == straggler else 0
    return rng.randint(0, 300) + late


def a2a_elements(rank, step, index, base):
    """Tokens an MoE rank sends vary with the routing: up to 2x the mean on some ranks."""
    return base * (4 + (rank * 7 + step * 3 + index) % 5) // 6


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--tp", type=int, default=4)
    p.add_argument("--gpus-per-node", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--straggler", type=int, default=-1)
    p.add_argument("--damaged", type=int, default=-1)
    p.add_argument("--broken", type=int, default=-1)
    a = p.parse_args()
    n, tp = a.ranks, a.tp
    if n < 2 or tp < 1 or n % tp:
        sys.exit("make-rank-set.py: --ranks must be at least 2 and a multiple of --tp")
    dp = n // tp
    os.makedirs(a.out, exist_ok=True)
    bases = []
    for i in range(2):
        with gzip.open(os.path.join(SAMPLES, "sampled_rank-%d.json.gz" % i), "rt") as f:
            bases.append(json.load(f))

    def tp_group(r):
        return r // tp

    def dp_group(r):
        return r % tp

    def group(kind, r):
        """(name, desc, ranks) of rank r's group of a kind."""
        if kind == "tp":
            g = tp_group(r)
            return str(1 + g), "TENSOR_MODEL_PARALLEL_GROUP", list(range(g * tp, g * tp + tp))
        g = dp_group(r)
        return str(1 + dp + g), "DATA_PARALLEL_GROUP", list(range(g, n, tp))

    # One clock for the collectives of every rank: the step spans of rank 0's file (both files profile the same steps).
    step_spans = {int(e["name"].split("#")[1]): (e["ts"], e["dur"]) for e in bases[0]["traceEvents"]
                  if e.get("name", "").startswith("ProfilerStep#") and e.get("ph") == "X"}

    for r in range(n):
        path = os.path.join(a.out, "rank-%05d.json.gz" % r)
        if r == a.broken:
            with open(path, "wb") as f:
                f.write(b"this is not a trace\n")
            continue
        base = bases[r % 2]
        doc = {k: v for k, v in base.items() if k != "traceEvents"}
        shift = random.Random(a.seed * 1000003 + r).randint(0, 150)
        device = r % a.gpus_per_node
        events = []
        steps = []
        cpu = None
        for e in base["traceEvents"]:
            e = copy.copy(e)
            if "ts" in e:
                e["ts"] = e["ts"] + shift
            if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"):
                e["pid"] = device
            if e.get("name", "").startswith("ProfilerStep#") and e.get("ph") == "X":
                steps.append(e)
                cpu = (e["pid"], e["tid"])
            events.append(e)
        pgs = [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": n, "ranks": list(range(n))}]
        for kind in ("tp", "dp"):
            name, desc, ranks = group(kind, r)
            pgs.append({"pg_name": name, "pg_desc": desc, "backend_config": "cuda:nccl", "pg_size": len(ranks), "ranks": ranks})
        doc["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": n, "pg_count": len(pgs), "pg_config": pgs}
        correlation = 900000000
        for s in steps:
            number = int(s["name"].split("#")[1])
            if number not in step_spans:
                continue
            start, dur = step_spans[number]
            for i, (arg, op, kind, elements) in enumerate(COLLECTIVES):
                name, desc, ranks = group(kind, r)
                nominal = start + dur * (i + 1) // (len(COLLECTIVES) + 2)
                mine = nominal + arrival(a.seed, r, number, i, a.straggler)
                last = nominal + max(arrival(a.seed, m, number, i, a.straggler) for m in ranks)
                nel = a2a_elements(r, number, i, elements) if op == "AllToAll" else elements
                heaviest = max(a2a_elements(m, number, i, elements) for m in ranks) if op == "AllToAll" else elements
                transfer = 200 + heaviest // 20000
                correlation += 1
                events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": cpu[0], "tid": cpu[1],
                               "ts": mine - 6, "dur": 5, "args": {"correlation": correlation}})
                events.append({"ph": "X", "cat": "kernel", "pid": device, "tid": 99, "ts": mine, "dur": last - mine + transfer,
                               "name": "ncclDevKernel_%s_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)" % op,
                               "args": {"correlation": correlation, "stream": 99, "device": device, "Collective name": arg,
                                        "In msg nelems": nel, "Out msg nelems": nel, "Group size": len(ranks), "dtype": "BFloat16",
                                        "Process Group Name": name, "Process Group Description": desc,
                                        "Process Group Ranks": str(ranks)}})
        doc["traceEvents"] = events
        text = json.dumps(doc, separators=(",", ":")).encode()
        if r == a.damaged:
            text = text[: len(text) // 2]
        with open(path, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=1, mtime=0, filename="") as f:
                f.write(text)
    print("make-rank-set.py: %d ranks (tp %d x dp %d) in %s" % (n, tp, dp, a.out))


if __name__ == "__main__":
    main()
