// A measured memory check (docs/FORMATS.md section 12): a PyTorch CUDA memory snapshot, the pickle that
// torch.cuda.memory._dump_snapshot() writes (pickle.dump of torch.cuda.memory._snapshot()), read as plain
// data (io/Pickle.h) and set beside a plan's predicted memory for one pipeline stage. Megatron-LM's one-GPU
// runs with a fake process group (--fake-process-group with --rank: one rank of a large plan on one GPU, its
// CHANGELOG's "fake distributed process group that skips distributed communication") write such files with
// --record-memory-history and
// --memory-snapshot-path.
//
// The snapshot as the _snapshot() docstring in torch/cuda/memory.py documents it and
// torch/csrc/cuda/Module.cpp builds it: "segments", each {device, address, total_size, allocated_size,
// active_size, requested_size, stream, segment_type, blocks: [{address, size, requested_size, state,
// frames}]}, a block's state "active_allocated", "active_pending_free" or "inactive"; and "device_traces", a
// list per device of the allocator's events {action, addr, size, stream, time_us, frames}, action one of
// alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot,
// oom (whose "device_free" stands where addr would). A pickle that is a list is the older segments-only form
// (torch/cuda/_memory_viz.py reads it the same way).
#pragma once

#include "util/Result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

struct Analysis;

// One block of a segment when the snapshot was taken.
struct SnapshotBlock {
    std::int64_t address = 0;
    std::int64_t size = 0; // the block (the allocator's rounded size)
    std::int64_t requestedSize = 0; // what the program asked for
    std::string state; // "active_allocated", "active_pending_free", "inactive"
    std::vector<std::string> frames; // "filename:line:name", innermost first, at most kSnapshotFramesKept
};

// One segment (one cudaMalloc, or an expandable segment's mapped range) when the snapshot was taken.
struct SnapshotSegment {
    std::int64_t address = 0;
    std::int64_t totalSize = 0;
    std::int64_t allocatedSize = 0;
    std::int64_t activeSize = 0;
    std::int64_t stream = 0;
    std::string segmentType; // "large" or "small"
    int blocks = 0;
};

// One device of a snapshot.
struct DeviceMemory {
    int device = 0;
    // When the snapshot was taken, from its segments.
    int segments = 0, blocks = 0;
    std::int64_t reservedBytes = 0; // the segments' total_size: torch.cuda.memory_reserved()
    std::int64_t allocatedBytes
        = 0; // their allocated_size (blocks in use, rounded sizes): memory_allocated()
    std::int64_t activeBytes = 0; // their active_size (in use or waiting for another stream)
    std::int64_t requestedBytes = 0; // the requested sizes of the active_allocated blocks

    // Over the trace, replayed from the state its events imply at its start: the state at the snapshot minus
    // every change the events made, as MemoryViz.js (torch/utils/viz) walks its events back from the
    // segments. The trace's sizes are requested sizes (CUDACachingAllocator.cpp records an alloc with the
    // size asked for and a free with the block's requested_size), so the allocated figures count requested
    // bytes; a segment event's size is the segment's.
    std::int64_t events = 0;
    std::int64_t allocs = 0, freeRequests = 0, freeCompletions = 0, segmentAllocs = 0, segmentFrees = 0,
                 segmentMaps = 0, segmentUnmaps = 0, ooms = 0, otherEvents = 0;
    std::int64_t allocatedAtStartBytes = 0; // alive when the trace starts
    std::int64_t activeAtStartBytes = 0;
    std::int64_t reservedAtStartBytes = 0;
    // Peaks over the trace (the start included). Allocated: an allocation counts from alloc to
    // free_requested, when the allocator's allocated_bytes drops; active: until free_completed
    // (MemoryViz.js's Active Memory Timeline); reserved: segment_alloc/segment_map to
    // segment_free/segment_unmap.
    std::int64_t allocatedPeakBytes = 0;
    std::int64_t activePeakBytes = 0;
    std::int64_t reservedPeakBytes = 0;
    std::int64_t allocatedPeakEvent = -1; // the event after which the peak is first reached; -1: at the start
    std::int64_t reservedPeakEvent = -1;
    std::int64_t allocatedPeakTimeUs = -1; // that event's time_us; -1: at the start or not recorded
    std::int64_t reservedPeakTimeUs = -1;
    // Allocations alive before the trace's first event: freed in the trace without their alloc in it, or
    // alive at the snapshot and never allocated in it.
    std::int64_t allocationsBeforeTrace = 0;
    // The peaks are lower bounds of the run's peaks: the trace starts with memory in use (recording began
    // after the run did, or the ring buffer of max_entries events dropped the oldest), or there is no trace
    // (the peaks are the snapshot's state); also set where the trace, replayed back, would start below zero
    // (it disagrees with the segments, MemorySnapshot::warnings says where). peakNote says which.
    bool peakIsLowerBound = true;
    Text peakNote;

    std::vector<SnapshotBlock>
        largestBlocks; // blocks in use, the largest first, at most kSnapshotLargestKept
    std::vector<SnapshotSegment> largestSegments; // the largest first, at most kSnapshotLargestKept
};

inline constexpr std::size_t kSnapshotFramesKept = 4;
inline constexpr std::size_t kSnapshotLargestKept = 10;
// The largest snapshot file read: _dump_snapshot's docstring (torch/cuda/memory.py) says file sizes "scale
// with `max_entries` and stack trace depth per entry, with several KB per entry".
inline constexpr std::int64_t kMaxMemorySnapshotBytes = std::int64_t(1) << 30;

struct MemorySnapshot {
    std::vector<DeviceMemory> devices; // every device with a segment or an event, ascending
    bool hasTrace = false; // "device_traces" present (history was recorded)
    Issues warnings; // disagreements between the trace and the segments, by path

    const DeviceMemory* device(int d) const;
};

// The snapshot in a pickle's bytes. Errors: the pickle's (byte offset, io/Pickle.h), or a field of the
// documented structure missing or of the wrong type (its path, "segments[3].total_size").
Result<MemorySnapshot> readMemorySnapshot(std::string_view bytes);
// The file at `path` (at most kMaxMemorySnapshotBytes; errors name the path).
Result<MemorySnapshot> loadMemorySnapshot(const std::string& path);

// Predicted beside measured, one figure each: difference = predicted - measured, differencePercent =
// difference / measured x 100 (docs/MEMORY-ACCURACY.md's sign: above, positive, is the safe side); NaN where
// measured is 0.
struct MemoryCheckRow {
    std::string figure; // "allocated", "reserved", "fragmentation", "total"
    std::int64_t predictedBytes = 0;
    std::int64_t measuredBytes = 0;
    std::int64_t differenceBytes = 0;
    double differencePercent = 0;
};

struct MemoryCheck {
    int stage = 0; // the pipeline stage predicted
    int device = 0; // the snapshot's device measured
    // The stage's prediction (StageMemory, cost/Prediction.h).
    std::int64_t weightsBytes = 0, gradientsBytes = 0, optimizerBytes = 0, activationsBytes = 0,
                 buffersBytes = 0;
    std::int64_t predictedTotalBytes = 0; // totalBytes: reserved + the CUDA context + NCCL's buffers
    std::int64_t predictedAllocatedBytes = 0; // allocatedBytes
    std::int64_t predictedReservedBytes = 0; // reservedBytes
    std::int64_t outsideAllocatorBytes = 0; // the CUDA context and NCCL's buffers, which no snapshot sees
    // The device's peaks (DeviceMemory).
    std::int64_t allocatedPeakBytes = 0, reservedPeakBytes = 0;
    std::int64_t fragmentationBytes = 0; // reserved peak - allocated peak
    bool peakIsLowerBound = true;
    Text peakNote;
    // allocated (allocatedBytes vs the allocated peak), reserved (reservedBytes vs the reserved peak),
    // fragmentation (buffers.fragmentationBytes vs reserved peak - allocated peak), total (totalBytes vs the
    // reserved peak: the difference includes the terms outside the allocator).
    std::vector<MemoryCheckRow> rows;
};

// The stage of global rank 0 (RankGrid), the rank a one-GPU fake-process-group run measures.
int defaultMemoryCheckStage(const Analysis& analysis);
// The snapshot's first device (ascending) with a segment or an event; -1 when it has none.
int defaultMemoryCheckDevice(const MemorySnapshot& snapshot);

// The check of `stage` (-1: defaultMemoryCheckStage) against `device` (-1: defaultMemoryCheckDevice). Errors:
// an invalid analysis, a stage the plan does not have, a device the snapshot does not have.
Result<MemoryCheck> checkMemory(
    const Analysis& analysis, const MemorySnapshot& snapshot, int stage = -1, int device = -1);

} // namespace planscope
