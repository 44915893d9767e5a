// A measured run of many ranks from its rank summaries (core/trace/RunSummary.h): which summaries are the run, the
// process groups matched across their members, each rank's measured metrics, the slowest ranks with why, and two
// runs compared (docs/TRACES.md, "Large runs").
#pragma once

#include "trace/RunSummary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace planscope {

// A file that is not in the run, and why (English: the CLI, the run file).
struct RunIssue {
    std::string file;
    int rank = -1;
    std::string reason;
    bool operator==(const RunIssue&) const = default;
};

struct MeasuredRun {
    int worldSize = -1; // distributedInfo.world_size of its ranks; -1 when none says
    int gpusPerNode = 0; // as given, else inferred (inferGpusPerNode); 0 unknown
    bool gpusPerNodeInferred = false;
    std::int64_t files = 0; // trace files the reduce was given
    std::int64_t bytesRead = 0; // their bytes on disk
    std::vector<RankSummary> ranks; // by rank; `groups` left empty (their matches are in `groups` below)
    std::vector<GroupResult> groups; // by key
    std::vector<RunIssue> failed; // files that could not be read (file order)
    std::vector<RunIssue> excluded; // read but not of the run: another world size, a rank already taken (file order)
    bool operator==(const MeasuredRun&) const = default;
};

// Which summaries (given in file order) are the run: those with the world size most of them have (ties: the smaller;
// unknown sizes join any), one per rank (the first file of a rank wins). `reasons[i]` says why i is left out.
struct RankIdentity {
    int rank = -1;
    int worldSize = -1;
};
std::vector<bool> keptRanks(const std::vector<RankIdentity>& ids, std::vector<std::string>& reasons);

// GPUs per node where the traces do not say: the largest CUDA device index any rank ran on, plus one (torchrun and
// srun give each node's ranks consecutive global ranks on devices 0..G-1, so rank r is on node r / G). 0 when no rank
// has a device.
int inferGpusPerNode(const std::vector<RankSummary>& ranks);

// The run from summaries in file order: kept (keptRanks), its groups matched (matchGroup, members by rank), ranks
// sorted by rank with their records dropped. gpusPerNode 0: inferred.
MeasuredRun assembleRun(std::vector<RankSummary> summaries, std::vector<RunIssue> failed, std::int64_t files,
    std::int64_t bytesRead, int gpusPerNode);

// The run from its parts however they were computed (one process, or planscope-reduce's MPI processes): ranks sorted
// by rank (their groups dropped), groups by key, the world size from the ranks. gpusPerNode as decided (given, or
// inferGpusPerNode over the kept ranks).
MeasuredRun runFromParts(std::vector<RankSummary> ranks, std::vector<GroupResult> groups, std::vector<RunIssue> failed,
    std::vector<RunIssue> excluded, std::int64_t files, std::int64_t bytesRead, int gpusPerNode, bool gpusPerNodeInferred);

// "intra-node" when every member is on one node (rank / gpusPerNode), "inter-node" otherwise, "" when unknown.
std::string groupScope(const GroupResult& g, int gpusPerNode);
// How a group is named to people: its description where torch has one, else its key.
std::string groupLabel(const GroupResult& g);

// What the app's heat map, grid and tables show of a rank. Per step values are medians over its ProfilerSteps (the
// whole kernel span as one step where it has none); collectives from the groups it is a member of.
struct RunRankMetrics {
    int rank = -1;
    int node = -1; // rank / gpusPerNode; -1 unknown
    std::int64_t stepNs = 0;
    std::int64_t computeNs = 0;
    std::int64_t exposedCommNs = 0; // communication not overlapped by compute
    std::int64_t idleNs = 0;
    std::int64_t waitNs = 0; // summed over its groups' matched collectives (MemberStat::waitNs)
    std::int64_t lagNs = 0; // straggler lag: the largest median skew over its groups
    std::int64_t lastArrivals = 0;
    std::int64_t matched = 0;
    std::int64_t peakAllocatedBytes = 0; // the largest CUDA "Total Allocated" peak
};
enum class RunMetric { Step, Compute, ExposedComm, Idle, Wait, Lag, Memory };
inline constexpr RunMetric kRunMetrics[] = { RunMetric::Step, RunMetric::Compute, RunMetric::ExposedComm, RunMetric::Idle,
    RunMetric::Wait, RunMetric::Lag, RunMetric::Memory };
std::string_view toString(RunMetric m); // "step", "compute", "exposedComm", "idle", "wait", "lag", "memory"
std::int64_t metricValue(const RunRankMetrics& m, RunMetric metric);

// One per rank of the run, in its order.
std::vector<RunRankMetrics> rankMetrics(const MeasuredRun& run);
// The median of each metric over the ranks (rank -1).
RunRankMetrics medianMetrics(const std::vector<RunRankMetrics>& ranks);

// Why a rank is slow: each cause with its value against the run's median.
struct SlowCause {
    enum Kind : std::uint8_t {
        Compute, // more kernel time than the median rank: a slower GPU, or more work (an uneven stage, a hot expert)
        Idle, // more GPU idle time: its CPU launches late (data loading, Python, the host)
        ExposedComm, // more communication left exposed
        ArrivesLast, // the last member at its group's collectives, that the others wait for
    };
    Kind kind = Compute;
    std::int64_t valueNs = 0; // ArrivesLast: its last arrivals
    std::int64_t medianNs = 0; // ArrivesLast: its matched collectives
    std::string group; // ArrivesLast: the group's label
};
struct SlowRank {
    RunRankMetrics metrics;
    std::vector<SlowCause> causes; // the largest first
    std::string why; // the causes in English
};
// The ranks the others wait for, worst first: by straggler lag, then step time (ranks whose lag and step time are both
// at or below the median are not listed); at most `top`.
std::vector<SlowRank> slowestRanks(const MeasuredRun& run, const std::vector<RunRankMetrics>& metrics, std::size_t top);

// Two measured runs side by side (planscope-cli compare-runs; the app's Measured Run Summary page).
struct RunDelta {
    std::string what; // "step", "compute", ... (RunMetric names); collectives: "<group label> <op>"; ranks: "rank N"
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::int64_t delta() const { return b - a; }
};
struct RunComparison {
    std::vector<RunDelta> phases; // medians over ranks: step, compute, exposedComm, idle, wait, lag
    std::vector<RunDelta> collectives; // median kernel time of each (group label, op) both runs have, by label
    std::vector<RunDelta> ranks; // the ranks both runs have whose step time changed the most, at most 10
    std::vector<std::string> onlyInA; // collectives (label op) one run has and the other not
    std::vector<std::string> onlyInB;
    std::string biggest; // the phase (compute, exposedComm, idle) that moved most: "exposedComm +12.3 ms (+25%)"
};
RunComparison compareRuns(const MeasuredRun& a, const MeasuredRun& b);

} // namespace planscope
