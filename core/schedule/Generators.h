// One generator per schedule (docs/SCHEDULES.md section 2). Each returns the ordered ops of every rank exactly as
// the framework that ships it orders them, or the reason that framework refuses the shape.
#pragma once

#include "Schedule.h"

namespace planscope::schedules {

Result<Schedule> gpipe(const ScheduleRequest& r);           // torch ScheduleGPipe
Result<Schedule> oneFOneB(const ScheduleRequest& r);        // Megatron / torch Schedule1F1B
Result<Schedule> interleaved1F1B(const ScheduleRequest& r); // Megatron VPP (variants) / torch ScheduleInterleaved1F1B
Result<Schedule> loopedBfs(const ScheduleRequest& r);       // torch ScheduleLoopedBFS
Result<Schedule> zbH1(const ScheduleRequest& r);            // torch _get_1f1b_rank_ops(enable_zero_bubble=True)
Result<Schedule> zbH2(const ScheduleRequest& r);            // Zero Bubble paper shape (greedy list schedule)
Result<Schedule> zbV(const ScheduleRequest& r);             // torch ScheduleZBVZeroBubble
Result<Schedule> dualPipe(const ScheduleRequest& r);        // deepseek-ai/DualPipe dualpipe.py
Result<Schedule> dualPipeV(const ScheduleRequest& r);       // deepseek-ai/DualPipe dualpipev.py

// A schedule skeleton with placement and empty op lists.
Schedule makeSchedule(ScheduleKind kind, Placement placement, int ranks, int chunksPerRank, int pipelines,
    int microbatchesPerPipeline);

} // namespace planscope::schedules
