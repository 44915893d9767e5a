// Measured runs of thousands of ranks (docs/TRACES.md, "Large runs"; docs/FORMATS.md section 14): each rank's
// Kineto trace is reduced where it lies to a compact summary (its steps and their compute / communication / idle
// split, top kernels, memory peaks, PP: action spans, and one record per NCCL collective), the records of each
// process group are matched across its members (skew, wait, arrival order, the straggler), and the run is what is
// left: a few kilobytes per rank, which the app opens for 10,000 ranks in seconds. Everything here is integer
// nanoseconds and integer counts, so that a summary written, read back and merged in any order or on any number of
// processes gives the same bytes (core/io/RunFile.h).
#pragma once

#include "trace/KinetoImport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace planscope {

// One NCCL collective as one rank ran it.
struct CollectiveRecord {
    std::int64_t stepNumber = -1; // N of the ProfilerStep#N its launch falls in; -1 outside every step
    std::int32_t seq = 0; // its place among this rank's collectives of the same group in that step, from 0
    CollectiveKind op = CollectiveKind::Other;
    std::int64_t startNs = 0; // absolute (baseTimeNanoseconds + file time), the kernel's start
    std::int64_t endNs = 0;
    std::int64_t bytes = -1; // S as collectiveStats counts it (core/trace/TraceAnalysis.h); -1 without metadata
    bool operator==(const CollectiveRecord&) const = default;
};

// A process group this rank ran collectives on, with those collectives. The key is what the members of one group
// share: "pg:<Process Group Name>" (torch names each group once for the whole job: "0", "1", ... or a hash of its
// ranks, torch/distributed/distributed_c10d.py _process_group_name), or, for NCCL kernels without metadata,
// "op:<collective>" (the i-th such kernel of every rank is matched, as alignRanks does).
struct RankGroup {
    std::string key;
    std::string name; // Process Group Name ("" for an op: key)
    std::string desc; // its pg_desc ("TENSOR_MODEL_PARALLEL_GROUP", "default_pg", ...); "" when unknown
    int size = -1; // Group size; -1 unknown
    std::vector<int> ranks; // members as pg_config lists them (may be cut, see ProcessGroupRecord)
    std::vector<CollectiveRecord> records; // in start order
    bool operator==(const RankGroup&) const = default;
};

struct RankStep {
    std::int64_t number = -1; // N of ProfilerStep#N
    std::int64_t startNs = 0; // absolute start of the CPU span
    std::int64_t durNs = 0;
    std::int64_t computeNs = 0; // the breakdown of the step's kernels (StepBreakdown)
    std::int64_t commNs = 0;
    std::int64_t overlapNs = 0;
    std::int64_t idleNs = 0;
    std::int64_t kernels = 0;
    bool operator==(const RankStep&) const = default;
};

struct RankKernel {
    std::string name;
    std::int64_t count = 0;
    std::int64_t totalNs = 0;
    CollectiveKind collective = CollectiveKind::None;
    bool operator==(const RankKernel&) const = default;
};

struct RankMemory {
    int deviceType = -1; // 0 CPU, 1 CUDA
    int deviceId = -1;
    std::int64_t peakAllocatedBytes = 0;
    std::int64_t peakReservedBytes = 0;
    bool operator==(const RankMemory&) const = default;
};

// A "PP:<stage><kind><microbatch>" annotation's span (parsePipelineAction), GPU-side where the trace has them.
struct RankAction {
    int stage = -1;
    std::string kind;
    int microbatch = -1;
    std::int64_t startNs = 0; // absolute
    std::int64_t durNs = 0;
    bool operator==(const RankAction&) const = default;
};

// What one trace rank keeps.
struct RankSummary {
    int rank = -1; // distributedInfo.rank
    int worldSize = -1;
    std::string file; // the raw trace's path as the reduce was given it: the app opens its timeline from there
    std::int64_t fileBytes = 0; // its size on disk
    std::string device; // deviceProperties[0].name
    int localDevice = -1; // the CUDA device its GPU events ran on (Kineto's pid of GPU lanes)
    std::string damaged; // where a damaged file stopped ("byte 1234: ...") : its head was summarized
    std::int64_t events = 0;
    std::int64_t kernels = 0;
    std::int64_t ncclKernels = 0;
    std::int64_t startNs = 0; // absolute span of its kernels
    std::int64_t endNs = 0;
    std::int64_t computeNs = 0; // whole-trace breakdown (MeasuredBreakdown)
    std::int64_t commNs = 0;
    std::int64_t overlapNs = 0;
    std::int64_t idleNs = 0;
    std::vector<RankStep> steps;
    std::vector<RankKernel> topKernels; // kSummaryTopKernels, most GPU time first
    std::vector<RankMemory> memory;
    std::vector<RankAction> actions; // at most kSummaryMaxActions, in start order
    std::int64_t actionsLeftOut = 0;
    std::vector<RankGroup> groups; // by key
    std::int64_t recordsLeftOut = 0; // collectives over kSummaryMaxRecords, not kept
    bool operator==(const RankSummary&) const = default;
};

inline constexpr std::size_t kSummaryTopKernels = 10;
inline constexpr std::size_t kSummaryMaxActions = 4096;
// 16,384 records of 40 bytes: a bound on what one rank ships whatever its trace holds (a 1 GB trace of a 4D-parallel
// run has a few thousand NCCL kernels).
inline constexpr std::size_t kSummaryMaxRecords = 16384;

// The summary of an imported trace (`file` and `fileBytes` as given).
RankSummary summarizeRank(const MeasuredRank& r, std::int64_t fileBytes);

// Median of integer values (the lower middle for an even count, so that it stays one of them); 0 when empty.
std::int64_t medianNs(std::vector<std::int64_t> v);

// One member's place in a group's matched collectives.
struct MemberStat {
    int rank = -1;
    std::int64_t matched = 0; // instances it took part in with every other member present
    std::int64_t waitNs = 0; // summed: the last member's start minus its own (time it waited for the last arrival)
    std::int64_t lastArrivals = 0; // instances where it started last (ties: the lower rank)
    std::int64_t medianSkewNs = 0; // median of its start minus the earliest member's
    std::int64_t maxSkewNs = 0;
    bool operator==(const MemberStat&) const = default;
};

struct GroupOpStat {
    CollectiveKind op = CollectiveKind::Other;
    std::int64_t instances = 0; // matched across every member
    std::int64_t medianBytes = -1; // of the members' sizes; -1 unknown
    std::int64_t medianDurNs = 0; // of every member's kernel duration
    std::int64_t medianSpreadNs = 0; // last start minus first start of an instance
    std::int64_t maxSpreadNs = 0;
    bool operator==(const GroupOpStat&) const = default;
};

// All-to-all(v) size imbalance at one place in a step (an MoE layer's dispatch or combine: the k-th all-to-all of
// the group in a step), where the traces record sizes: max over members of the bytes sent over their mean.
struct AllToAllImbalance {
    std::int32_t position = 0; // k
    std::int64_t instances = 0;
    std::int64_t medianPermille = 1000; // max / mean x 1000 (1000: balanced)
    std::int64_t worstPermille = 1000;
    int heaviestRank = -1; // the member most often sending the most (ties: the lower rank)
    bool operator==(const AllToAllImbalance&) const = default;
};

// A process group matched across the members whose traces were reduced.
struct GroupResult {
    std::string key;
    std::string name;
    std::string desc;
    int size = -1; // Group size as the traces say; -1 unknown
    std::vector<int> ranks; // the members with records, ascending
    std::int64_t unmatched = 0; // instances (step, seq) that not every member has
    std::vector<GroupOpStat> ops; // by op
    std::vector<MemberStat> members; // by rank
    int straggler = -1; // the member with the most last arrivals (ties: the larger median skew, then the lower rank)
    std::vector<AllToAllImbalance> allToAll; // by position
    bool operator==(const GroupResult&) const = default;
};

// One member's records of a group, as matchGroup takes them.
struct GroupMember {
    int rank = -1;
    const RankGroup* group = nullptr;
};

// Matches the members' records of one group by (stepNumber, seq) and op: an instance counts where every member has
// it. Members are taken in the order given (callers give them by rank); the result depends only on their records.
// Send/receive records are matched only in groups of two (in larger groups they pair neighbours, not all members).
GroupResult matchGroup(const std::vector<GroupMember>& members);

} // namespace planscope
