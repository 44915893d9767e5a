// Measured ranks laid over a predicted timeline (issue 6, docs/FORMATS.md section 5 "--against"): one profiler step of
// every rank aligned with the predicted step at a common origin, pipeline actions matched op by op, and the
// step decomposed the same way on both sides so that the gap splits into compute, exposed communication and idle.
// All times are integer nanoseconds (predicted times rounded once), so an exact round trip compares equal.
#pragma once

#include "sim/Timeline.h"
#include "spec/Plan.h"
#include "trace/KinetoImport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace planscope {

// A GPU step decomposed: window = compute + exposedComm + idle, where compute is the union of compute kernels
// (predicted: compute and optimizer spans), comm the union of NCCL kernels (predicted: p2p, data-parallel and
// ZeRO spans), exposedComm = comm - (comm and compute overlapped), idle = window - union of both.
struct StepDecomposition {
    std::int64_t windowNs = 0; // from the common origin to the rank's last GPU end in the step
    std::int64_t computeNs = 0;
    std::int64_t commNs = 0;
    std::int64_t exposedCommNs = 0;
    std::int64_t idleNs = 0;
};

// Measured and predicted time in forward, backward (B, or I and W) and optimizer work; -1 where the trace marks
// no such phase (it needs annotations: PP: actions, "## forward ##", "DistributedDataParallel.forward",
// "## backward ##", "Optimizer.step#..."). Each is GPU compute time: measured, the union of the step's compute
// kernels launched inside the phase's annotations; predicted, the union of the phase's compute-stream spans. Where
// two phases run at once the time counts once (forward before backward before optimizer), so
// forward + backward + optimizer <= StepDecomposition::computeNs on both sides (docs/TRACES.md, "The overlay").
struct PhaseTimes {
    std::int64_t forwardNs = -1, backwardNs = -1, optimizerNs = -1;
};

struct OverlayRank {
    std::size_t source = 0; // index into the measured ranks given
    int rank = -1; // distributedInfo rank (-1: unknown, taken as pipeline rank 0)
    int pipelineRank = 0; // from the plan's rank order
    int step = -1; // index into that rank's stepSpans; -1: the whole trace
    std::int64_t originNs = 0; // absolute ns that maps to predicted time 0 (shared by all ranks)
    std::int64_t gpuStartNs = 0; // absolute ns of the step's first GPU event on this rank
    StepDecomposition measured;
    StepDecomposition predicted; // of the same pipeline rank
    PhaseTimes measuredPhases;
    PhaseTimes predictedPhases;
};

// One pipeline action found in both: a measured "PP:<stage><kind><mb>" span and the predicted span it names.
struct OpDelta {
    std::size_t overlayRank = 0; // index into Overlay::ranks
    std::uint32_t event = 0; // index into the measured rank's eventList
    std::uint32_t span = 0; // index into Timeline::spans
    std::string op; // "0F1", "3SEND_B0"
    std::int64_t predictedStartNs = 0, predictedNs = 0;
    std::int64_t measuredStartNs = 0, measuredNs = 0; // start relative to the origin
    std::int64_t startDeltaNs() const { return measuredStartNs - predictedStartNs; }
    std::int64_t durationDeltaNs() const { return measuredNs - predictedNs; }
};

// Measured over predicted durations of one kind of action ("F", "B", ...), as a median ratio.
struct OpKindRatio {
    std::string kind;
    std::int64_t count = 0;
    double medianRatio = 0;
};

struct PhaseDelta {
    std::string phase; // "compute", "exposedComm", "idle", "step"
    double predictedSeconds = 0; // means over the overlay's ranks (rows add up as each rank's do)
    double measuredSeconds = 0;
    double deltaSeconds = 0; // measured - predicted
};

// A caveat of the overlay: a key the app translates, the numbers it needs, and the English text the CLI prints.
struct OverlayNote {
    enum Kind : std::uint8_t { NoKernels, NoSteps, WorldSize, TensorParallelInCompute, CpuSideActions };
    Kind kind = NoSteps;
    int rank = -1; // NoKernels, NoSteps
    int worldSize = 0; // WorldSize: the traces' job
    int planGpus = 0; // WorldSize: the plan's
    std::string text;
};

struct Overlay {
    std::string stepName; // of the first rank ("ProfilerStep#5"); empty: whole trace
    std::vector<OverlayRank> ranks;
    std::vector<OpDelta> ops; // sorted by (overlay rank, predicted start)
    std::vector<OpKindRatio> opRatios;
    std::int64_t measuredActions = 0; // PP actions seen in the aligned steps
    std::int64_t unmatchedMeasured = 0; // PP actions that name no predicted span (RECV_*, UNSHARD, ...) or a
                                        // stage/microbatch the plan does not have
    std::int64_t unmatchedPredicted = 0; // predicted compute/p2p spans of the overlay's pipeline ranks that no
                                         // measured action named (0 when the trace has no PP actions at all)
    std::vector<PhaseDelta> phases; // compute, exposedComm, idle, step; then forward, backward, optimizer where
                                    // every overlaid rank's trace marks them
    // The GPU step's reading: predicted / measured - 1 (negative: optimistic), within half a percent "on target".
    enum Verdict : std::uint8_t { Unmeasured, OnTarget, Optimistic, Pessimistic };
    Verdict verdict = Unmeasured;
    double stepError = 0;
    std::string biggestGap; // compute, exposedComm or idle: the one with the largest |delta|
    std::string summary; // one sentence: how far off and where
    std::vector<OverlayNote> notes; // caveats (world-size mismatch, no steps, TP inside compute, ...)
};

struct OverlayOptions {
    int step = -1; // ProfilerStep index to align (into each rank's stepSpans); -1: the median-length step
};

// The kind of work an annotation's name stands for: "PP:0F1" forward, "PP:2I3" input-grad, "PP:1SEND_F0" send
// activation, "## forward ##" and "*.forward" (DistributedDataParallel.forward) forward, "## backward ##" backward,
// "## optimizer ##" and "Optimizer.step#..." optimizer step, "nccl:*" gradient reduction; false for anything else.
bool phaseOfName(std::string_view name, SpanKind& kind);

// The predicted side's time 0: the start of the timeline's first span, in ns (0 for an empty timeline).
std::int64_t predictedOriginNs(const Timeline& timeline);
// Spans that are communication (p2p, data-parallel, ZeRO); the rest (compute, optimizer) are computation.
bool isCommunicationStream(Stream s);

// The pipeline rank of a global rank under the plan's rank order (parallel.order).
int pipelineRankOf(const Plan& plan, int globalRank);

// Builds the overlay. Ranks without kept GPU events are left out.
Overlay buildOverlay(const std::vector<MeasuredRank>& ranks, const Plan& plan, const Timeline& timeline,
    const OverlayOptions& options = {});

// The predicted span's "PP:" action text ("0F1", "1SEND_F3"); empty for spans torch does not annotate.
std::string pipelineActionText(const Span& span);

// Kineto trace text, one per pipeline rank, that a profiler would have written had the run gone exactly as
// predicted: a ProfilerStep#1 annotation over the step, one kernel (with its cudaLaunchKernel correlation) and one
// "PP:" gpu_user_annotation per compute span, NCCL kernels with collective metadata for communication spans.
// Pipeline rank r is written as the plan's global rank of its first replica (r x the pipeline stride of the rank
// order) in a world of all the plan's GPUs. Used to prove the import and the overlay round-trip with zero deltas.
std::vector<std::string> syntheticKinetoTraces(const Timeline& timeline, const Plan& plan,
    std::int64_t baseTimeNs = 1700000000000000000);

} // namespace planscope
