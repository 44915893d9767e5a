#!/usr/bin/env python3
"""Writes the synthetic Kineto traces of this folder (README.md says what each one is).

Each trace is one rank's file as torch.profiler writes it (Kineto's Chrome-trace JSON): distributedInfo with
rank, world_size and pg_config (the entries torch.distributed's _get_all_pg_configs() returns: pg_name, pg_desc,
backend_config, pg_size, ranks), and a few traceEvents. The groups are laid out the way Megatron-Core's
initialize_model_parallel lays them out (megatron/core/parallel_state.py): a dimension's stride is the product of
the degrees before it in the order string, a group of several dimensions holds every combination of theirs, and
each group carries its group_desc. Run from this folder: python3 make_traces.py
"""
import itertools
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def groups_of(degrees, order, dims):
    """Every group of the dimensions `dims` (a list of names): the ranks that share the coordinates of the others."""
    stride, s = {}, 1
    for name in order.split("-"):
        stride[name] = s
        s *= degrees.get(name, 1)
    world = s
    seen, out = set(), []
    for rank in range(world):
        coord = {n: (rank // stride[n]) % degrees.get(n, 1) for n in stride}
        base = rank - sum(coord[n] * stride[n] for n in dims)
        members = sorted(base + sum(c * stride[n] for c, n in zip(combo, dims))
                         for combo in itertools.product(*[range(degrees.get(n, 1)) for n in dims]))
        if tuple(members) not in seen:
            seen.add(tuple(members))
            out.append(members)
    return out


def megatron_groups(tp, pp, dp, cp, ep, etp, order):
    """(desc, backend, ranks) of every group, in initialize_model_parallel's order of creation."""
    world = tp * pp * dp * cp
    edp = world // (etp * ep * pp)
    dense = {"tp": tp, "pp": pp, "dp": dp, "cp": cp, "ep": 1}
    expert = {"tp": etp, "pp": pp, "dp": edp, "cp": 1, "ep": ep}
    made = []

    def add(desc, groups, backend="cuda:nccl"):
        made.extend((desc, backend, g) for g in groups)

    for g in groups_of(dense, order, ["dp", "cp"]):
        add("DATA_PARALLEL_GROUP_WITH_CP", [g])
        add("DATA_PARALLEL_GROUP_WITH_CP_GLOO", [g], "cpu:gloo")
    for g in groups_of(dense, order, ["dp"]):
        add("DATA_PARALLEL_GROUP", [g])
        add("DATA_PARALLEL_GROUP_GLOO", [g], "cpu:gloo")
    add("CONTEXT_PARALLEL_GROUP", groups_of(dense, order, ["cp"]))
    add("MODEL_PARALLEL_GROUP", groups_of(dense, order, ["tp", "pp"]))
    add("TENSOR_MODEL_PARALLEL_GROUP", groups_of(dense, order, ["tp"]))
    pipelines = groups_of(dense, order, ["pp"])
    add("PIPELINE_MODEL_PARALLEL_GROUP", pipelines)
    add("EMBEDDING_GROUP", [[p[0], p[-1]] if len(p) > 1 else [p[0]] for p in pipelines])
    add("POSITION_EMBEDDING_GROUP", [[p[0]] for p in pipelines])
    add("TENSOR_AND_DATA_PARALLEL_GROUP_WITH_CP", groups_of(dense, order, ["tp", "dp", "cp"]))
    add("TENSOR_AND_DATA_PARALLEL_GROUP", groups_of(dense, order, ["tp", "dp"]))
    add("TENSOR_AND_CONTEXT_PARALLEL_GROUP", groups_of(dense, order, ["tp", "cp"]))
    add("EXPERT_MODEL_PARALLEL_GROUP", groups_of(expert, order, ["ep"]))
    add("EXPERT_TENSOR_PARALLEL_GROUP", groups_of(expert, order, ["tp"]))
    add("EXPERT_TENSOR_AND_MODEL_PARALLEL_GROUP", groups_of(expert, order, ["tp", "ep"]))
    add("EXPERT_TENSOR_MODEL_PIPELINE_PARALLEL_GROUP", groups_of(expert, order, ["tp", "ep", "pp"]))
    for g in groups_of(expert, order, ["dp"]):
        add("EXPERT_DATA_PARALLEL_GROUP", [g])
        add("EXPERT_DATA_PARALLEL_GROUP_GLOO", [g], "cpu:gloo")
    return world, made


def trace(rank, world, config, tp_group=None, desc="TENSOR_MODEL_PARALLEL_GROUP", name="0"):
    """One rank's trace: distributedInfo, a step, a GEMM and an all-reduce kernel with its NCCL args."""
    events = [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 900},
        {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32", "pid": 0, "tid": 7, "ts": 100, "dur": 300},
    ]
    if tp_group is not None:
        events.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                       "pid": 0, "tid": 20, "ts": 400, "dur": 50,
                       "args": {"Collective name": "allreduce", "In msg nelems": 4096, "Out msg nelems": 4096,
                                "Group size": len(tp_group), "dtype": "BFloat16", "Process Group Name": name,
                                "Process Group Description": desc,
                                "Process Group Ranks": "[" + ", ".join(str(r) for r in tp_group) + "]"}})
    return {"schemaVersion": 1,
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": world, "pg_count": len(config),
                                "pg_config": config, "nccl_version": "2.21.5"},
            "baseTimeNanoseconds": 1735689600000000000,
            "traceEvents": events}


def write(folder, name, doc):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, name), "w") as f:
        json.dump(doc, f, separators=(", ", ": "))
        f.write("\n")


def megatron_run(folder, tp, pp, dp, cp, ep, etp, order):
    world, made = megatron_groups(tp, pp, dp, cp, ep, etp, order)
    for rank in range(world):
        config = [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": world,
                   "ranks": list(range(world))}]
        tp_group, tp_name = None, None
        # pg_name: torch.distributed numbers every group made, member or not (distributed_c10d.py, group_count).
        for number, (desc, backend, ranks) in enumerate(made, start=1):
            if rank in ranks:
                config.append({"pg_name": str(number), "pg_desc": desc, "backend_config": backend,
                               "pg_size": len(ranks), "ranks": ranks})
                if desc == "TENSOR_MODEL_PARALLEL_GROUP":
                    tp_group, tp_name = ranks, str(number)
        write(folder, "rank%d.json" % rank, trace(rank, world, config, tp_group, name=tp_name))


def main():
    # 8 GPUs, tp 2 x pp 2 x dp 2 in Megatron-Core's default order.
    megatron_run("megatron-tp2-pp2-dp2", tp=2, pp=2, dp=2, cp=1, ep=1, etp=2, order="tp-cp-ep-dp-pp")
    # 16 GPUs, tp 2 x cp 2 x pp 2 x dp 2 with pp faster than dp, and experts over ep 2 x etp 2 (an order that does not
    # end in pp needs the expert data-parallel size to equal dp: initialize_model_parallel asserts it).
    megatron_run("megatron-tp2-cp2-pp2-dp2-ep2-ppfirst", tp=2, pp=2, dp=2, cp=2, ep=2, etp=2, order="tp-cp-ep-pp-dp")

    # 2 GPUs of plain DDP: the default group only (as samples/traces/nccl_data.json.gz records it).
    for rank in range(2):
        write("default-pg-only", "rank%d.json" % rank,
              trace(rank, 2, [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": 2,
                               "ranks": [0, 1]}], [0, 1], desc="default_pg", name="0"))

    # 4 GPUs, tp 2 x dp 2, groups made without a group_desc (torch before 2.4): pg_desc "undefined".
    world, made = 4, [("undefined", [0, 2]), ("undefined", [1, 3]), ("undefined", [0, 1]), ("undefined", [2, 3])]
    for rank in range(world):
        config = [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": 4, "ranks": [0, 1, 2, 3]}]
        for number, (desc, ranks) in enumerate(made, start=1):
            if rank in ranks:
                config.append({"pg_name": str(number), "pg_desc": desc, "backend_config": "cuda:nccl",
                               "pg_size": 2, "ranks": ranks})
        write("unnamed-tp2-dp2", "rank%d.json" % rank, trace(rank, world, config))

    # 4 GPUs whose records contradict each other: tp 2 x pp 4 x dp 2 on a world of 4, rank 3 listing a tensor group
    # without itself, and an entry whose pg_size disagrees with its list.
    for rank in range(4):
        tp = [0, 1] if rank in (0, 1, 3) else [2, 3]
        config = [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": 4, "ranks": [0, 1, 2, 3]},
                  {"pg_name": "1", "pg_desc": "DATA_PARALLEL_GROUP", "backend_config": "cuda:nccl", "pg_size": 2,
                   "ranks": [rank % 2, rank % 2 + 2]},
                  {"pg_name": "2", "pg_desc": "TENSOR_MODEL_PARALLEL_GROUP", "backend_config": "cuda:nccl", "pg_size": 2,
                   "ranks": tp},
                  {"pg_name": "3", "pg_desc": "PIPELINE_MODEL_PARALLEL_GROUP", "backend_config": "cuda:nccl", "pg_size": 4,
                   "ranks": [0, 1, 2, 3]},
                  {"pg_name": "4", "pg_desc": "CONTEXT_PARALLEL_GROUP", "backend_config": "cuda:nccl", "pg_size": 2,
                   "ranks": [rank]}]
        write("inconsistent", "rank%d.json" % rank, trace(rank, 4, config))


if __name__ == "__main__":
    main()
