// Analyses over imported Kineto ranks (core/trace/KinetoImport.h): per-collective bandwidth from NCCL kernels
// with collective metadata, cross-rank alignment of matched collectives (skew, straggler), the GPU breakdown
// of each ProfilerStep, the kernels with the most GPU time and the memory timeline of each device. docs/MODEL.md
// section 6: algBw = S / t, busBw = algBw * busBandwidthFactor(op, n). A kernel's duration includes waiting
// for its peers, so bandwidths from it are lower bounds.
#pragma once

#include "trace/KinetoImport.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

// Bytes per element of a c10 dtype name ("Float" 4, "Half"/"BFloat16" 2, "Long" 8, ...); 0 when unknown.
int dtypeSize(std::string_view c10Name);

// Medians over the NCCL kernels of one collective and group size that carry metadata.
struct CollectiveStat {
    std::string op; // AllReduce, AllGather, ...
    int groupSize = 0;
    std::int64_t count = 0;
    double bytes = 0; // S as nccl-tests counts it: In msg nelems x dtype size (Out msg nelems for all-gather)
    double seconds = 0; // kernel duration
    double algBandwidth = 0; // bytes/s
    double busBandwidth = 0; // bytes/s
};

// Sorted by op then group size; kernels without metadata, with an unknown dtype or a zero duration are left
// out.
std::vector<CollectiveStat> collectiveStats(const MeasuredRank& r);

// Median of the values (mean of the middle two for an even count); 0 when empty. Reorders `v`.
double medianOf(std::vector<double>& v);

struct RankSkew {
    int rank = -1;
    double medianSkewSeconds = 0;
};

struct Alignment {
    int worldSize = -1;
    std::int64_t matchedCollectives = 0;
    std::vector<RankSkew> ranks; // by rank
    int straggler = -1; // the rank with the largest median skew; -1 when fewer than two ranks matched
};

// Ranks of one job (the largest group with the same worldSize and a known, distinct rank) matched by the i-th
// NCCL kernel of each collective in start order on every rank, whatever its stream. Absolute start times
// (baseTimeNs + start) are compared; the skew of a rank for one matched collective is its start minus the
// earliest start among the ranks.
Alignment alignRanks(const std::vector<MeasuredRank>& ranks);

// One ProfilerStep: its CPU span and the breakdown (MeasuredBreakdown's definitions) of the kernels assigned
// to it (MeasuredEvent::step), over their own span [gpuStartNs, gpuEndNs].
struct StepBreakdown {
    std::string name;
    std::int64_t startNs = 0; // the CPU span, in file time like MeasuredEvent::startNs
    std::int64_t durNs = 0;
    std::int64_t gpuStartNs = 0; // first start and last end of the step's kernels; both 0 when it has none
    std::int64_t gpuEndNs = 0;
    double computeSeconds = 0;
    double commSeconds = 0;
    double overlapSeconds = 0;
    double idleSeconds = 0;
    std::int64_t kernels = 0;
    std::int64_t ncclKernels = 0;
};
// One entry per stepSpans entry, in that order.
std::vector<StepBreakdown> stepBreakdowns(const MeasuredRank& r);

// Kernels of one name.
struct KernelStat {
    std::string name;
    std::int64_t count = 0;
    double totalSeconds = 0; // summed durations
    double share = 0; // of the summed durations of all kernels
    CollectiveKind collective = CollectiveKind::None; // of the first kernel of that name
};
// The n kernel names with the most GPU time, most first (equal times: by name).
std::vector<KernelStat> topKernels(const MeasuredRank& r, std::size_t n);

struct MeasuredMemoryPoint {
    std::int64_t tsNs = 0; // file time
    std::int64_t allocatedBytes = -1; // "Total Allocated" after the event; -1 absent
    std::int64_t reservedBytes = -1; // "Total Reserved"
};
struct DeviceMemorySeries {
    int deviceType = -1; // 0 CPU, 1 CUDA
    int deviceId = -1;
    std::vector<MeasuredMemoryPoint> points; // in time order (file order among equal times)
    std::int64_t peakAllocated = 0; // bytes
    std::int64_t peakReserved = 0;
};
// The [memory] events as one series per (deviceType, deviceId), by type then id.
std::vector<DeviceMemorySeries> memoryTimeline(const MeasuredRank& r);

} // namespace planscope
