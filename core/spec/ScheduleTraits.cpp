#include "spec/ScheduleTraits.h"

namespace planscope {

namespace {
// { kind, name, splitBackward, usesVpp, vShaped, bidirectional, searched }
constexpr ScheduleTraits kTraits[] = {
    { ScheduleKind::GPipe, "gpipe", false, false, false, false, true },
    { ScheduleKind::OneFOneB, "1f1b", false, false, false, false, true },
    { ScheduleKind::Interleaved1F1B, "interleaved-1f1b", false, true, false, false, true },
    { ScheduleKind::LoopedBFS, "looped-bfs", false, true, false, false, false },
    { ScheduleKind::ZBH1, "zb-h1", true, false, false, false, true },
    { ScheduleKind::ZBH2, "zb-h2", true, false, false, false, true },
    { ScheduleKind::ZBV, "zb-v", true, false, true, false, true },
    { ScheduleKind::DualPipe, "dualpipe", true, false, false, true, true },
    { ScheduleKind::DualPipeV, "dualpipe-v", true, false, true, false, true },
};
} // namespace

std::span<const ScheduleTraits> scheduleTraits() { return kTraits; }

const ScheduleTraits& traits(ScheduleKind kind)
{
    for (const ScheduleTraits& t : kTraits)
        if (t.kind == kind) return t;
    return kTraits[1];
}

ScheduleKind effectiveSchedule(ScheduleKind kind, int chunks)
{
    return kind == ScheduleKind::Interleaved1F1B && chunks <= 1 ? ScheduleKind::OneFOneB : kind;
}

} // namespace planscope
