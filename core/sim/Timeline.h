// The predicted timeline of one training step: spans per pipeline rank and stream, memory over time, the
// critical path and the step's metrics (docs/ARCHITECTURE.md section 2). One pipeline replica is simulated: every
// data- and tensor-parallel replica of a pipeline rank does the same at the same time.
#pragma once

#include "cost/Explain.h"
#include "cost/Prediction.h"
#include "schedule/Schedule.h"
#include "spec/Plan.h"
#include "util/Result.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

enum class Stream : std::uint8_t { Compute, P2P, DataParallel, ZeroGather, Optimizer };
enum class SpanKind : std::uint8_t {
    Forward,
    Backward,
    InputGrad,
    WeightGrad,
    OverlapFB,
    SendActivation,
    SendGradient,
    GradReduce,     // DP/ZeRO gradient reduction (all-reduce or reduce-scatter)
    ParamGather,    // ZeRO parameter all-gather
    OptimizerStep,
};

std::string_view toString(Stream s);
std::string_view toString(SpanKind k);

struct Span {
    int rank = 0;
    Stream stream = Stream::Compute;
    SpanKind kind = SpanKind::Forward;
    int stage = -1;      // global (virtual) stage
    int chunk = -1;      // index of the stage among the rank's chunks
    int microbatch = -1;
    double start = 0;
    double end = 0;
    int stage2 = -1;     // OverlapFB: the backward half's stage and microbatch
    int microbatch2 = -1;
    bool operator==(const Span&) const = default;
};

// Memory in use on one GPU of a rank from `time` on (docs/MODEL.md section 4): the static terms (the CUDA context,
// NCCL's buffers, model states, workspaces, the ZeRO bucket), the activations in flight and the temporaries of
// the op running. The allocator's slack is not in it: reserved memory is RankMetrics::reservedPeakBytes.
struct MemoryPoint {
    double time = 0;
    std::int64_t bytes = 0;
    std::int64_t temporaryBytes = 0; // the part of `bytes` that are temporaries of the op running
    bool operator==(const MemoryPoint&) const = default;
};

struct RankMetrics {
    double busy = 0;         // compute
    double sending = 0;      // waiting on its own blocking pipeline sends (overlapP2pComm off)
    double idle = 0;         // makespan of the pipeline part - busy - sending
    double peakInFlight = 0; // stage-microbatch units
    std::int64_t staticBytes = 0;        // in use with nothing in flight (the memory's first and last point)
    std::int64_t inUsePeakBytes = 0;     // the highest point of the memory over time
    double peakSeconds = 0;              // when it is reached
    std::int64_t allocatedPeakBytes = 0; // inUsePeakBytes without the CUDA context and NCCL's buffers
    std::int64_t reservedPeakBytes = 0;  // allocatedPeakBytes + the allocator's slack (cost/Runtime.h)
    // The simulated peak inside the step, the figure compared with capacity: reserved + the context + NCCL.
    std::int64_t peakBytes = 0;
    bool operator==(const RankMetrics&) const = default;
};

struct Timeline {
    Schedule schedule;
    std::vector<Span> spans;              // sorted by (rank, stream, start)
    std::vector<std::vector<MemoryPoint>> memory; // per rank, step function over time
    std::vector<int> criticalPath;        // indexes into spans, from the first op to the step's end
    std::vector<RankMetrics> ranks;
    double pipelineSeconds = 0;           // last compute op's end
    double stepSeconds = 0;               // including the DP tail and the optimizer step
    double bubbleFraction = 0;            // idle share of the pipeline part
    double bubbleOverhead = 0;            // idle over busy
    std::int64_t peakBytes = 0;
    bool sendsBlock = false;              // a rank waits for its own p2p sends (overlapP2pComm off): not a bubble
    bool operator==(const Timeline&) const = default;
};

// Bytes on a GPU at time t from a rank's memory step function (the last point at or before t).
std::int64_t memoryAt(const std::vector<MemoryPoint>& points, double t);

// Simulates the plan's schedule with per-stage durations from the prediction's cost model. With `cancel`, the
// simulation looks at it between its phases (generate, run, spans, critical path) and, once it is set, stops with
// the error kSimulationCancelled.
Result<Timeline> simulate(const Plan& plan, const Prediction& prediction, const std::atomic<bool>* cancel = nullptr);
inline constexpr std::string_view kSimulationCancelled = "the simulation was cancelled";

// Replaces the analytic step time of a prediction with the simulated one (and everything derived from it).
// With an explainer, the explanations of those fields say they come from the simulation, and the analytic
// step stays explained under time.analyticStepSeconds.
void applySimulation(Prediction& prediction, const Plan& plan, const Timeline& timeline, Explainer* explainer = nullptr);

} // namespace planscope
