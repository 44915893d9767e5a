#!/usr/bin/env python3
"""Writes the memory-snapshot pickles of tests/core/tst_memory_snapshot.cpp and tests/cli/tst_cli_memory_check.cpp.

Each snapshot is a dict laid out as the _snapshot() docstring of torch/cuda/memory.py documents it (and as
torch/csrc/cuda/Module.cpp builds it): "segments" with device, address, total_size, allocated_size, active_size,
requested_size, stream, segment_type, segment_pool_id, is_expandable, frames and blocks (address, size,
requested_size, state, frames); "device_traces", one list of events per device, each {action, addr, size, stream,
time_us, frames} ("device_free" in place of addr for an oom); "allocator_settings". It is written with pickle.dump()
at the default protocol, as torch.cuda.memory._dump_snapshot() writes it. No PyTorch is needed or imported.

The allocator here is PlanScope's small model, not PyTorch's: a block is the request rounded up to 512 bytes (the
caching allocator's kMinBlockSize, c10/cuda/CUDACachingAllocator.cpp) at the start of its own segment, a segment is
the block rounded up to 2 MiB, a free is free_requested then free_completed (at once or later, as for a block used on
another stream), and an empty_cache() returns the empty segments. It runs forward from an empty allocator and records
the allocated (requested bytes, alloc to free_requested), active (to free_completed) and reserved bytes after every
event, so the peaks in expected.json are counted forwards, independently of PlanScope's backward replay from the
segments. A "tail" file keeps only the last events of a trace, as the ring buffer of _record_memory_history's
max_entries does; its expected figures start from the state the model had when the kept events begin.

Run from this folder: python3 make_snapshot.py (deterministic: the same bytes each run with the same Python).
"""

import fractions
import json
import pickle
import pickletools
import random

MIB = 1 << 20


def rounded(size):
    return max(512, (size + 511) // 512 * 512)


class Device:
    def __init__(self, index, expandable, first_address):
        self.index = index
        self.expandable = expandable  # segment_map/segment_unmap in place of segment_alloc/segment_free
        self.next_address = first_address
        self.segments = {}  # address -> {"total", "block": None or {size, requested, state, frames}}
        self.events = []
        self.states = [(0, 0, 0)]  # (allocated, active, reserved) before the first event and after each
        self.allocated = self.active = self.reserved = 0
        self.time = 1000 * (index + 1)

    def event(self, action, addr, size, frames):
        self.time += 7
        e = {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": self.time}
        if frames is not None:
            e["frames"] = frames
        self.events.append(e)
        self.states.append((self.allocated, self.active, self.reserved))

    def alloc(self, size, frames):
        block = rounded(size)
        for address in sorted(self.segments):
            seg = self.segments[address]
            if seg["block"] is None and seg["total"] >= block:
                break
        else:
            total = (block + 2 * MIB - 1) // (2 * MIB) * (2 * MIB)
            address = self.next_address
            self.next_address += total + 4 * MIB
            self.segments[address] = {"total": total, "block": None}
            self.reserved += total
            self.event("segment_map" if self.expandable else "segment_alloc", address, total, [])
        self.segments[address]["block"] = {"size": block, "requested": size, "state": "active_allocated", "frames": frames}
        self.allocated += size
        self.active += size
        self.event("alloc", address, size, frames)
        return address

    def free(self, address, complete=True):
        b = self.segments[address]["block"]
        b["state"] = "active_pending_free"
        self.allocated -= b["requested"]
        self.event("free_requested", address, b["requested"], b["frames"])
        if complete:
            self.complete(address)

    def complete(self, address):
        b = self.segments[address]["block"]
        self.segments[address]["block"] = None
        self.active -= b["requested"]
        self.event("free_completed", address, b["requested"], b["frames"])

    def empty_cache(self):
        for address in sorted(self.segments):
            seg = self.segments[address]
            if seg["block"] is None:
                self.reserved -= seg["total"]
                del self.segments[address]
                self.event("segment_unmap" if self.expandable else "segment_free", address, seg["total"], [])

    def oom(self, size):
        self.time += 7
        self.events.append({"action": "oom", "device_free": 3 * MIB, "size": size, "stream": 0, "time_us": self.time})
        self.states.append((self.allocated, self.active, self.reserved))

    def segment_dicts(self):
        out = []
        for address in sorted(self.segments):
            seg = self.segments[address]
            b = seg["block"]
            blocks = []
            used = 0
            if b is not None:
                blocks.append({"address": address, "size": b["size"], "requested_size": b["requested"],
                               "state": b["state"], "frames": b["frames"]})
                used = b["size"]
            if used < seg["total"]:
                blocks.append({"address": address + used, "size": seg["total"] - used, "requested_size": 0,
                               "state": "inactive", "frames": []})
            allocated = b["size"] if b is not None and b["state"] == "active_allocated" else 0
            out.append({"device": self.index, "address": address, "total_size": seg["total"],
                        "allocated_size": allocated, "active_size": used,
                        "requested_size": b["requested"] if b is not None else 0, "stream": 0,
                        "segment_type": "large" if seg["total"] > MIB else "small", "segment_pool_id": (0, 0),
                        "is_expandable": self.expandable, "frames": [], "blocks": blocks})
        return out


def expected(device, keep_from=0):
    """The figures of a trace kept from event keep_from on, counted forwards from the model's state there."""
    events = device.events[keep_from:]
    states = device.states[keep_from:]
    start = states[0]
    allocated_peak = max(s[0] for s in states)
    active_peak = max(s[1] for s in states)
    reserved_peak = max(s[2] for s in states)
    counts = {}
    for e in events:
        counts[e["action"]] = counts.get(e["action"], 0) + 1
    # Allocations alive before the kept events: those the model had when they begin (alive or awaiting their
    # free_completed); each is met once in the kept trace or at the end.
    before = 0
    for e in device.events[:keep_from]:
        if e["action"] == "alloc":
            before += 1
        elif e["action"] == "free_completed":
            before -= 1
    in_use = [b for s in device.segments.values() for b in [s["block"]] if b is not None]
    return {
        "device": device.index,
        "events": len(events),
        "counts": counts,
        "atStart": {"allocatedBytes": start[0], "activeBytes": start[1], "reservedBytes": start[2]},
        "peak": {"allocatedBytes": allocated_peak, "activeBytes": active_peak, "reservedBytes": reserved_peak},
        "allocationsBeforeTrace": before,
        "now": {
            "reservedBytes": sum(s["total"] for s in device.segments.values()),
            "allocatedBytes": sum(b["size"] for b in in_use if b["state"] == "active_allocated"),
            "activeBytes": sum(b["size"] for b in in_use),
            "requestedBytes": sum(b["requested"] for b in in_use if b["state"] == "active_allocated"),
        },
        "segments": len(device.segments),
        "blocks": sum(2 if s["block"] is not None and s["block"]["size"] < s["total"] else 1
                      for s in device.segments.values()),
        "largestBlock": max((b["size"] for b in in_use), default=0),
        "peakEvent": {"allocated": first_reaching(states, 0, allocated_peak),
                      "reserved": first_reaching(states, 2, reserved_peak)},
        "peakIsLowerBound": not events or before > 0 or start[0] > 0 or start[2] > 0,
    }


def first_reaching(states, k, peak):
    """The index of the first kept event after which figure k is at its peak; -1 where the start is the peak."""
    if states[0][k] == peak:
        return -1
    return next(i for i in range(1, len(states)) if states[i][k] == peak) - 1


FRAMES = [
    [{"filename": "/workspace/megatron/core/transformer/attention.py", "line": 311, "name": "forward"},
     {"filename": "/workspace/megatron/core/transformer/transformer_layer.py", "line": 402, "name": "forward"},
     {"filename": "/workspace/megatron/core/transformer/transformer_block.py", "line": 540, "name": "forward"},
     {"filename": "/workspace/megatron/core/models/gpt/gpt_model.py", "line": 266, "name": "forward"},
     {"filename": "/workspace/megatron/core/pipeline_parallel/schedules.py", "line": 275, "name": "forward_step"},
     {"filename": "/workspace/pretrain_gpt.py", "line": 180, "name": "forward_step"}],
    [{"filename": "/workspace/megatron/core/optimizer/distrib_optimizer.py", "line": 1733, "name": "step"}],
    [{"filename": "/workspace/megatron/core/distributed/param_and_grad_buffer.py", "line": 580, "name": "__init__"},
     {"filename": "/workspace/megatron/core/distributed/distributed_data_parallel.py", "line": 200, "name": "__init__"}],
]


def snapshot(devices, traces):
    segments = [s for d in devices for s in d.segment_dicts()]
    return {"segments": segments, "device_traces": traces,
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": None, "max_split_size": -1,
                                   "garbage_collection_threshold": 0.0, "expandable_segments": False,
                                   "pinned_num_register_threads": 1, "release_lock_on_cudamalloc": False,
                                   "pinned_use_cuda_host_register": False, "roundup_power2_divisions": {}}}


def simple_run():
    """The run tst_memory_snapshot.cpp counts by hand: one device, eleven events."""
    d = Device(0, False, 0x7F0000000000)
    a = d.alloc(8 * MIB, FRAMES[0])          # 0 segment_alloc A 8 MiB, 1 alloc 8 MiB in A
    b = d.alloc(4 * MIB, FRAMES[0])          # 2 segment_alloc B 4 MiB, 3 alloc 4 MiB in B
    d.free(a)                                # 4 free_requested A, 5 free_completed A
    c = d.alloc(1000000, FRAMES[1])          # 6 alloc 1000000 in A (its block 1000448)
    d.alloc(6 * MIB, FRAMES[2])              # 7 segment_alloc C 6 MiB, 8 alloc 6 MiB in C
    d.free(b, complete=False)                # 9 free_requested B; its free_completed never comes
    d.oom(64 * MIB)                          # 10 oom
    assert c == a and b == a + 12 * MIB
    return d


def random_run(index, expandable, first_address, steps, seed):
    rng = random.Random(seed)
    d = Device(index, expandable, first_address)
    live, waiting = [], []
    for step in range(steps):
        r = rng.random()
        if r < 0.45 or not live:
            size = rng.choice([rng.randrange(1, 4096), rng.randrange(4096, MIB), rng.randrange(MIB, 48 * MIB)])
            live.append(d.alloc(size, FRAMES[rng.randrange(len(FRAMES))]))
        elif r < 0.85:
            address = live.pop(rng.randrange(len(live)))
            complete = rng.random() < 0.8
            d.free(address, complete)
            if not complete:
                waiting.append(address)
        elif r < 0.92 and waiting:
            d.complete(waiting.pop(rng.randrange(len(waiting))))
        elif r < 0.96:
            d.empty_cache()
        else:
            d.oom(rng.randrange(MIB, 80 * 1024 * MIB))
        if step == steps * 3 // 4:
            # The end of a step: most blocks freed and the cache emptied, so the peak lies inside the trace.
            rng.shuffle(live)
            while len(live) > 3:
                d.free(live.pop())
            while waiting:
                d.complete(waiting.pop())
            d.empty_cache()
    return d


def value_zoo():
    """Every kind of value the pickle reader reads, with the boundaries of each integer opcode."""
    shared = ["shared", 1]
    return {
        "ints": [0, 1, 255, 256, 65535, 65536, -1, -256, 2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**32, 2**47 + 12345,
                 2**63 - 1, -2**63, 2**63, 2**64 - 1],
        "floats": [0.0, -0.0, 0.5, -1.25, 1e300, -2.5e-300, 3.141592653589793],
        "strings": ["", "a", "x" * 255, "y" * 256, "显存 memory", "\U0001F680", "lone \ud800 surrogate"],
        "none": None,
        "bools": [True, False],
        "tuples": [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), ((), ((),))],
        "nested": {"a": [{"b": [[], {}]}], "c": {"d": {"e": {"f": [1, [2, [3, [4]]]]}}}},
        "intKeys": {1: "one", -7: "minus seven", 2**40: "big"},
        "otherKeys": {None: "none", (1, "two"): "tuple"},
        "manyItems": list(range(2500)),
        "manyKeys": {"k%04d" % i: i for i in range(1200)},
        "sharedTwice": [shared, shared],
    }


def bytes_zoo():
    return {"bytes": [b"", b"\x00\xff", bytes(range(256)) * 2]}


def json_value(v):
    """What readPickle returns for v, as JSON: keys that are not strings as their compact JSON text, bytes as
    {"__bytes__": hex} (the test writes nlohmann's binary values that way), str as its UTF-8 with what is not UTF-8
    replaced."""
    if isinstance(v, dict):
        return {k.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if isinstance(k, str)
                else json.dumps(json_value(k), separators=(",", ":")): json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    if isinstance(v, (bytes, bytearray)):
        return {"__bytes__": bytes(v).hex()}
    if isinstance(v, str):
        return v.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return v


def write(name, obj, protocol=None):
    with open(name, "wb") as f:
        if protocol is None:
            pickle.dump(obj, f)
        else:
            pickle.dump(obj, f, protocol=protocol)


def main():
    out = {"python": "%d.%d" % tuple(__import__("sys").version_info[:2]), "defaultProtocol": pickle.DEFAULT_PROTOCOL,
           "snapshots": {}, "values": {}}

    simple = simple_run()
    write("simple.pickle", snapshot([simple], [simple.events]))
    out["snapshots"]["simple.pickle"] = [expected(simple)]
    # The ring buffer kept the last seven events: the first four (two segments and their allocs) were dropped.
    write("simple-tail.pickle", snapshot([simple], [simple.events[4:]]))
    out["snapshots"]["simple-tail.pickle"] = [expected(simple, 4)]

    d0 = random_run(0, False, 0x7F3000000000, 400, 32)
    d1 = random_run(1, True, 0x7E1000000000, 150, 6)
    write("random.pickle", snapshot([d0, d1], [d0.events, d1.events]))
    out["snapshots"]["random.pickle"] = [expected(d0), expected(d1)]
    keep = len(d0.events) - 200
    write("random-tail.pickle", snapshot([d0, d1], [d0.events[keep:], d1.events]))
    out["snapshots"]["random-tail.pickle"] = [expected(d0, keep), expected(d1)]
    # History off: no events, the segments only.
    write("no-trace.pickle", snapshot([d0, d1], [[], []]))
    out["snapshots"]["no-trace.pickle"] = [expected(d0, len(d0.events)), expected(d1, len(d1.events))]
    # The older form: a list of segments (torch/cuda/_memory_viz.py's _read).
    write("segments-only.pickle", d0.segment_dicts())
    out["snapshots"]["segments-only.pickle"] = [expected(d0, len(d0.events))]

    zoo = value_zoo()
    for protocol in (2, 3, 4, 5):
        name = "values-p%d.pickle" % protocol
        value = dict(zoo)
        if protocol >= 3:
            value.update(bytes_zoo())  # protocol 2 writes bytes through a REDUCE of _codecs.encode
        if protocol >= 5:
            value["bytearray"] = bytearray(b"\x01\x02\x03")  # BYTEARRAY8
        write(name, value, protocol)
        out["values"][name] = json_value(value)
    # Objects that pickle through GLOBAL/STACK_GLOBAL and REDUCE, which the reader refuses: a Fraction, and bytes at
    # protocol 2 (a REDUCE of _codecs.encode). Where the first of those opcodes stands, by pickletools.genops.
    out["refused"] = {}
    for name, obj, protocol in (("refused-fraction.pickle", fractions.Fraction(1, 3), None),
                                ("refused-bytes-p2.pickle", b"x", 2)):
        write(name, obj, protocol)
        with open(name, "rb") as f:
            first = next((op.name, pos) for op, arg, pos in pickletools.genops(f.read())
                         if op.name in ("GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD"))
        out["refused"][name] = {"opcode": first[0], "offset": first[1]}

    # Plain data that is no snapshot, or a snapshot whose fields are not as documented.
    write("bad-not-a-dict.pickle", "hello")
    write("bad-segments-not-a-list.pickle", {"segments": 5, "device_traces": []})
    seg = simple.segment_dicts()
    del seg[1]["total_size"]
    write("bad-missing-total-size.pickle", {"segments": seg, "device_traces": [[]]})
    write("bad-negative-size.pickle", {"segments": [], "device_traces": [[
        {"action": "alloc", "addr": 4096, "size": -1, "stream": 0, "time_us": 1}]]})
    # Readable, but the trace allocates 1 MiB that the segments do not hold at its end: replayed back, the trace
    # would start below zero.
    write("bad-disagree.pickle", {"segments": [], "device_traces": [[
        {"action": "segment_alloc", "addr": 1 << 40, "size": 2 * MIB, "stream": 0, "time_us": 1},
        {"action": "alloc", "addr": 1 << 40, "size": MIB, "stream": 0, "time_us": 2}]]})

    with open("expected.json", "w") as f:
        json.dump(out, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
