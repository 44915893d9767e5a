// What each pipeline schedule is, in one table (docs/SCHEDULES.md): its name in a plan file, how many model chunks a
// rank holds, whether its backward splits into I and W, its shape. Every other file asks this table instead of
// listing schedule kinds.
#pragma once

#include "spec/Plan.h"

#include <span>
#include <string_view>

namespace planscope {

struct ScheduleTraits {
    ScheduleKind kind;
    std::string_view name;   // training.schedule in a plan file
    bool splitBackward;      // the backward runs as an input gradient I and a weight gradient W (zero-bubble, DualPipe)
    bool usesVpp;            // parallel.vpp chunks per rank (interleaved 1F1B, looped BFS)
    bool vShaped;            // two chunks per rank folded back into a V (ZB-V, DualPipe-V)
    bool bidirectional;      // two copies of the model fed from both ends (DualPipe)
    bool searched;           // among the planner's schedules when it varies them (docs/SEARCH.md)

    // A stage's layers may be set unevenly (parallel.firstStageLayers/lastStageLayers, a layout string): not where
    // the schedule pairs stages (a V, DualPipe's mirrored copies).
    bool customSplit() const { return !vShaped && !bidirectional; }
    // Model chunks on a rank: 2 for a V, vpp where the schedule interleaves, else 1 (DualPipe's second copy is a
    // second model, not a chunk).
    int chunksPerRank(int vpp) const { return vShaped ? 2 : usesVpp ? vpp : 1; }
    // Stages a rank holds in the generated schedule: DualPipe's two copies count.
    int stagesPerRank(int vpp) const { return bidirectional ? 2 : chunksPerRank(vpp); }
};

std::span<const ScheduleTraits> scheduleTraits();
const ScheduleTraits& traits(ScheduleKind kind);

// The schedule that runs: interleaved 1F1B with one chunk per rank is 1F1B (Megatron-Core runs it so).
ScheduleKind effectiveSchedule(ScheduleKind kind, int chunks);

} // namespace planscope
