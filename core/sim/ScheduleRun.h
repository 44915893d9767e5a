// Dependency-driven list scheduling of a schedule's op lists (docs/SCHEDULES.md section 1.8): each rank runs its
// ops in list order; an op starts when its rank is free and its inputs have arrived (plus a communication
// delay on cross-rank edges). No progress in a sweep is a deadlock, reported with the blocked ops.
#pragma once

#include "schedule/Schedule.h"

#include <functional>
#include <utility>
#include <vector>

namespace planscope {

struct TimedOp {
    Op op;
    double start = 0;
    double end = 0;
    bool operator==(const TimedOp&) const = default;
};

struct ScheduleRun {
    std::vector<std::vector<TimedOp>> ranks;    // ops with their times, in list order
    double makespan = 0;
    std::vector<double> busy;                   // per rank, sum of op durations
    std::vector<double> sendBlocked;            // per rank, time spent waiting on its own blocking sends
    std::vector<double> idle;                   // makespan - busy - sendBlocked
    std::vector<double> internalIdle;           // idle (not busy, not sending) between the first op start and last op end
    std::vector<double> peakInFlightChunks;     // per rank, chunk-microbatches of activations held at the peak
    std::vector<double> peakInFlight;           // the same in stage units (chunks / chunksPerRank; DualPipe: chunks)
    double bubbleFraction = 0;                  // total idle / (p * makespan)
    double bubbleOverhead = 0;                  // total idle / total busy
};

// Duration of one op on its rank; the default cost model is unit time per chunk: F = 1, B = 2, I = W = 1,
// OverlapFB = F + B.
using OpDuration = std::function<double(const Op&)>;
OpDuration unitDurations(double f = 1, double b = 2, double w = 1, double overlap = -1);

// Per (virtual) stage: the forward, the full backward and its weight-gradient part; I = B - W, OverlapFB = F of its
// forward stage + B of its backward stage. The simulation's durations, without a std::function call per op.
struct StageDurations {
    std::vector<double> forward, backward, weight;
};

// A rank's activation events in time order (docs/SCHEDULES.md section 1.7): fn(time, +1) when an F (or an overlapped
// F&B) starts, fn(time, -1) when a microbatch's backward frees them (the end of B, or of W when the backward is split);
// frees first at equal times. A rank runs its ops one after another, so starts and ends each grow along its list:
// two cursors merge them without sorting or allocating.
template<typename Fn>
void forEachInFlightEvent(const std::vector<TimedOp>& timed, Fn&& fn)
{
    auto isStart = [](const TimedOp& t) { return t.op.kind == OpKind::F || t.op.kind == OpKind::OverlapFB; };
    auto isEnd = [](const TimedOp& t) { return t.op.kind == OpKind::B || t.op.kind == OpKind::W || t.op.kind == OpKind::OverlapFB; };
    const std::size_t n = timed.size();
    std::size_t i = 0, j = 0;
    while (i < n && !isStart(timed[i])) ++i;
    while (j < n && !isEnd(timed[j])) ++j;
    while (i < n || j < n) {
        if (j < n && (i >= n || timed[j].end <= timed[i].start)) {
            fn(timed[j].end, -1);
            for (++j; j < n && !isEnd(timed[j]); ++j) { }
        } else {
            fn(timed[i].start, +1);
            for (++i; i < n && !isStart(timed[i]); ++i) { }
        }
    }
}

// Whether an op hands an output to another rank: an F (or the forward half of an overlapped F&B) whose next stage,
// or a B or I (or the backward half) whose previous stage, lives on another rank.
bool sendsAcrossRanks(const Schedule& schedule, const Op& op);

// commDelay: the time a tensor takes from one rank to another. blockingSends: the sending rank waits until its send
// completes (Megatron-Core's default, overlap_p2p_comm = False: each send is waited on before the next op), so it
// is free commDelay after the op's end; otherwise the send runs beside the rank's next ops and only the receiver
// waits. The blocked time is neither busy nor idle: ScheduleRun::sendBlocked.
// Fails with the blocked ops (one issue per rank) if the schedule deadlocks.
Result<ScheduleRun> runSchedule(const Schedule& schedule, const OpDuration& duration, double commDelay = 0,
    bool blockingSends = false);
Result<ScheduleRun> runSchedule(const Schedule& schedule, const StageDurations& durations, double commDelay = 0,
    bool blockingSends = false);

} // namespace planscope
