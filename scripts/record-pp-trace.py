#!/usr/bin/env python3
"""Records a small, real pipeline-parallel PyTorch-profiler trace for the Measured Run overlay (issue 6, item 6).

Two (or --ranks) processes train a GPT-style model split into ranks x chunks stages with
torch.distributed.pipelining, looped-BFS order, through the schedule runtime that wraps every action in
record_function("PP:<stage><kind><mb>"), and write one Kineto trace per rank (rank<r>.json.gz) plus the
PlanScope plan that describes the same run (plan.plan.json), so that

    planscope-cli import OUT --against OUT/plan.plan.json

compares them op by op. Backend: NCCL when there is a GPU per rank; with fewer GPUs (NCCL refuses two ranks on
one GPU) gloo, with every stage computing on the GPU and handing its activations and gradients over on the CPU
(gloo's send/recv take CPU tensors only). Ranks sharing a GPU run slower than the plan's separate GPUs: the
README written next to the traces says which case was recorded.

Needs PyTorch >= 2.5 (pipelining's schedule runtime with _load_actions; without it the trace is recorded with the
plain looped-BFS schedule, which writes no PP: annotations) and a CUDA GPU. Exit 0 when every rank wrote a trace
that has PP: annotations; 2 when PyTorch or CUDA is missing; 1 on any other failure.
"""
import argparse
import gzip
import json
import os
import shutil
import socket
import sys
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="folder for rank<r>.json.gz, plan.plan.json and README.md")
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--chunks", type=int, default=2, help="stages per rank (loop placement)")
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--hidden", type=int, default=1024)
    p.add_argument("--heads", type=int, default=16)
    p.add_argument("--seq", type=int, default=1024)
    p.add_argument("--vocab", type=int, default=8192)
    p.add_argument("--microbatches", type=int, default=8)
    p.add_argument("--steps", type=int, default=4, help="training steps; the last two are profiled")
    return p.parse_args()


def build_stage_modules(torch, args, stage, num_stages):
    """The layers of one stage: the embedding on the first, the final norm and the LM head on the last."""
    nn = torch.nn
    F = torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            h = args.hidden
            self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)
            self.qkv, self.proj = nn.Linear(h, 3 * h), nn.Linear(h, h)
            self.fc1, self.fc2 = nn.Linear(h, 4 * h), nn.Linear(4 * h, h)

        def forward(self, x):
            b, s, h = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, args.heads, h // args.heads).unbind(2)
            a = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
            x = x + self.proj(a.transpose(1, 2).reshape(b, s, h))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    class Stage(nn.Module):
        def __init__(self):
            super().__init__()
            per = args.layers // num_stages
            self.first, self.last = stage == 0, stage == num_stages - 1
            if self.first:
                self.tok, self.pos = nn.Embedding(args.vocab, args.hidden), nn.Embedding(args.seq, args.hidden)
            self.blocks = nn.ModuleList(Block() for _ in range(per))
            if self.last:
                self.norm, self.head = nn.LayerNorm(args.hidden), nn.Linear(args.hidden, args.vocab, bias=False)

        def forward(self, x):
            if self.first:
                x = self.tok(x) + self.pos(torch.arange(x.shape[1], device=x.device))
            for blk in self.blocks:
                x = blk(x)
            return self.head(self.norm(x)) if self.last else x

    return Stage()


def cpu_hand_over(torch, inner, device):
    """Wraps a stage so that it computes on the GPU but takes and returns CPU tensors: gloo carries the p2p."""

    class HandOver(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = inner

        def forward(self, x):
            return self.inner(x.to(device, non_blocking=True)).to("cpu")

    return HandOver()


def worker(rank, args, port, backend, hand_over):
    import torch
    import torch.distributed as dist
    from torch.distributed.pipelining import PipelineStage, ScheduleLoopedBFS

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    gpu = torch.device("cuda", rank % torch.cuda.device_count())
    torch.cuda.set_device(gpu)
    dist.init_process_group(backend, rank=rank, world_size=args.ranks)
    num_stages = args.ranks * args.chunks
    stage_device = torch.device("cpu") if hand_over else gpu
    stages, params = [], []
    for stage in range(rank, num_stages, args.ranks):  # loop placement: stage s on rank s mod ranks
        torch.manual_seed(stage)
        module = build_stage_modules(torch, args, stage, num_stages).to(gpu, torch.bfloat16)
        params += list(module.parameters())
        if hand_over:
            module = cpu_hand_over(torch, module, gpu)
        # Example inputs of one microbatch, so that no shape inference runs: token ids for the first stage,
        # activations for the others.
        example = (torch.zeros(1, args.seq, dtype=torch.long, device=stage_device) if stage == 0 else
                   torch.zeros(1, args.seq, args.hidden, dtype=torch.bfloat16, device=stage_device))
        stages.append(PipelineStage(module, stage, num_stages, stage_device, input_args=(example,)))

    def loss_fn(logits, target):  # on the GPU, also when the logits were handed over on the CPU
        return torch.nn.functional.cross_entropy(logits.to(gpu).float().flatten(0, 1), target.to(gpu).flatten())

    schedule = ScheduleLoopedBFS(stages, args.microbatches, loss_fn=loss_fn)
    try:
        # The runtime is what wraps each action in record_function("PP:<action>"); it takes the looped-BFS order
        # as compute-only actions and adds the sends and receives itself.
        from torch.distributed.pipelining.schedules import _PipelineScheduleRuntime
        runtime = _PipelineScheduleRuntime(stages, args.microbatches, loss_fn=loss_fn)
        runtime._load_actions(schedule.pipeline_order)
        schedule = runtime
    except (ImportError, AttributeError, TypeError) as e:
        if rank == 0:
            print(f"record-pp-trace: this PyTorch has no usable schedule runtime ({e}); recording without PP: "
                  "annotations", file=sys.stderr)
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    batch = args.microbatches  # microbatch size 1
    gen = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, args.vocab, (batch, args.seq), generator=gen)
    targets = torch.randint(0, args.vocab, (batch, args.seq), generator=gen)
    if not hand_over:
        tokens, targets = tokens.to(gpu), targets.to(gpu)
    holds_first, holds_last = 0 in [s.stage_index for s in stages], num_stages - 1 in [s.stage_index for s in stages]

    path = os.path.join(args.out, f"rank{rank}.json")
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    prof_schedule = torch.profiler.schedule(wait=0, warmup=args.steps - 2, active=2)
    with torch.profiler.profile(activities=activities, schedule=prof_schedule, profile_memory=True,
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for _ in range(args.steps):
            optimizer.zero_grad(set_to_none=True)
            schedule.step(*((tokens,) if holds_first else ()), target=targets if holds_last else None)
            optimizer.step()
            torch.cuda.synchronize()
            prof.step()
    dist.barrier()
    dist.destroy_process_group()
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb") as g:
        shutil.copyfileobj(f, g)
    os.remove(path)


def plan_json(args, gpu_name):
    presets = [("H200", "h200-sxm-141gb"), ("H100", "h100-sxm5-80gb"), ("A100", "a100-sxm4-80gb"), ("B200", "b200")]
    gpu = next((p for key, p in presets if key in gpu_name), "h100-sxm5-80gb")
    return {
        "schema": "planscope/plan/v1",
        "name": f"record-pp-trace: {args.layers} x {args.hidden} GPT, PP={args.ranks} x {args.chunks} chunks",
        "description": "The run scripts/record-pp-trace.py recorded: looped BFS through torch.distributed.pipelining, "
                       f"{args.microbatches} microbatches of 1 x {args.seq} tokens, bf16, AdamW.",
        "source": "scripts/record-pp-trace.py",
        "model": {"name": "record-pp-trace GPT", "layers": args.layers, "hidden": args.hidden, "heads": args.heads,
                  "kvHeads": args.heads, "ffnHidden": 4 * args.hidden, "vocab": args.vocab, "seqLength": args.seq,
                  "gatedMlp": False, "tiedEmbeddings": False, "positionEmbedding": "learned", "norm": "layernorm",
                  "bias": True, "embeddingNorm": False, "dropout": False,
                  "moe": {"experts": 0, "topK": 0, "expertFfnHidden": 0, "sharedExperts": 0}},
        "cluster": {"gpu": gpu, "nodes": 1, "gpusPerNode": args.ranks},
        "parallel": {"dp": 1, "tp": 1, "pp": args.ranks, "vpp": args.chunks},
        "training": {"microBatch": 1, "globalBatch": args.microbatches, "precision": "bf16", "gradDtype": "bf16",
                     "optimizer": "adam", "recompute": "none", "schedule": "looped-bfs", "flashAttention": True,
                     "tokens": 1e9},
    }


def main():
    args = parse_args()
    try:
        import torch
        import torch.multiprocessing as mp
    except ImportError as e:
        print(f"record-pp-trace: PyTorch is not importable ({e})", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("record-pp-trace: no CUDA device", file=sys.stderr)
        return 2
    if args.layers % (args.ranks * args.chunks):
        print("record-pp-trace: --layers must divide into ranks x chunks stages", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    gpus = torch.cuda.device_count()
    hand_over = gpus < args.ranks
    backend = "gloo" if hand_over else "nccl"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.time()
    mp.spawn(worker, args=(args, port, backend, hand_over), nprocs=args.ranks, join=True)
    seconds = time.time() - started

    actions = 0
    for r in range(args.ranks):
        with gzip.open(os.path.join(args.out, f"rank{r}.json.gz"), "rt") as f:
            events = json.load(f)["traceEvents"]
        actions += sum(1 for e in events if str(e.get("name", "")).startswith("PP:"))
    name = torch.cuda.get_device_name(0)
    with open(os.path.join(args.out, "plan.plan.json"), "w") as f:
        json.dump(plan_json(args, name), f, indent=2)
    how = (f"NCCL, one GPU per rank ({gpus} x {name})" if not hand_over else
           f"gloo over the CPU, {args.ranks} ranks sharing {gpus} x {name}: the ranks contend for one GPU, so "
           "the measured step is slower than the plan's separate GPUs predict")
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write(f"# A recorded pipeline-parallel trace\n\nRecorded by `scripts/record-pp-trace.py` on "
                f"{time.strftime('%Y-%m-%d')} with PyTorch {torch.__version__}: {args.ranks} ranks x {args.chunks} "
                f"stages, looped BFS, {args.microbatches} microbatches, a {args.layers} x {args.hidden} GPT, bf16. "
                f"Backend: {how}. The last two of {args.steps} steps are profiled; {actions} `PP:` annotations "
                f"in all. `plan.plan.json` describes the same run.\n\n"
                f"    planscope-cli import . --against plan.plan.json\n")
    print(f"record-pp-trace: {args.ranks} traces, {actions} PP: annotations, backend {backend}, {seconds:.0f} s")
    return 0 if actions > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
