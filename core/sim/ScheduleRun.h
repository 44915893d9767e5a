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
    std::vector<double> idle;                   // makespan - busy
    std::vector<double> internalIdle;           // idle between the rank's first op start and last op end
    std::vector<double> peakInFlightChunks;     // per rank, chunk-microbatches of activations held at the peak
    std::vector<double> peakInFlight;           // the same in stage units (chunks / chunksPerRank; DualPipe: chunks)
    double bubbleFraction = 0;                  // total idle / (p * makespan)
    double bubbleOverhead = 0;                  // total idle / total busy
};

// Duration of one op on its rank; the default cost model is unit time per chunk: F = 1, B = 2, I = W = 1,
// OverlapFB = F + B.
using OpDuration = std::function<double(const Op&)>;
OpDuration unitDurations(double f = 1, double b = 2, double w = 1, double overlap = -1);

// A rank's activation events in time order (docs/SCHEDULES.md section 1.7): +1 when an F (or an overlapped F&B)
// starts, -1 when a microbatch's backward frees them (the end of B, or of W when the backward is split); frees first
// at equal times. Starts and ends each grow along the rank's ops, so the two runs are merged, not sorted.
std::vector<std::pair<double, int>> inFlightEvents(const std::vector<TimedOp>& timed);

// Fails with the blocked ops (one issue per rank) if the schedule deadlocks.
Result<ScheduleRun> runSchedule(const Schedule& schedule, const OpDuration& duration, double commDelay = 0);

} // namespace planscope
