// Flush schedules with one forward and one full backward per (stage, microbatch): GPipe, 1F1B and Looped BFS
// (docs/SCHEDULES.md sections 2.1, 2.2, 2.4). The op orders follow the frameworks' code:
// - GPipe: torch.distributed.pipelining ScheduleGPipe (all forwards, then all backwards, both ascending);
// - 1F1B: Megatron-LM forward_backward_pipelining_without_interleaving and torch Schedule1F1B;
// - Looped BFS: torch ScheduleLoopedBFS.
#include "Generators.h"

#include <algorithm>
#include <string>
#include <utility>

namespace planscope::schedules {

namespace {

// The generators can be called without generateSchedule's checks.
Issues shapeErrors(const ScheduleRequest& r)
{
    if (r.ranks < 1)
        return { issue(Severity::Error, "stages",
            Text(PS_TEXT("CoreText", "the number of pipeline ranks must be >= 1"))) };
    if (r.microbatches < 1)
        return { issue(Severity::Error, "microbatches",
            Text(PS_TEXT("CoreText", "the number of microbatches must be >= 1"))) };
    return {};
}

} // namespace

Result<Schedule> gpipe(const ScheduleRequest& r)
{
    if (Issues bad = shapeErrors(r); !bad.empty()) return Result<Schedule>(std::move(bad));
    const int p = r.ranks, m = r.microbatches;
    Schedule s = makeSchedule(ScheduleKind::GPipe, Placement::Linear, p, 1, 1, m);
    s.variant = "torch";
    for (int rank = 0; rank < p; ++rank) {
        auto& ops = s.rankOps[std::size_t(rank)];
        ops.reserve(std::size_t(2 * m));
        for (int mb = 0; mb < m; ++mb)
            ops.push_back(Op::f(rank, mb));
        for (int mb = 0; mb < m; ++mb)
            ops.push_back(Op::b(rank, mb));
    }
    return s;
}

Result<Schedule> oneFOneB(const ScheduleRequest& r)
{
    if (Issues bad = shapeErrors(r); !bad.empty()) return Result<Schedule>(std::move(bad));
    const int p = r.ranks, m = r.microbatches;
    const bool torch = r.variant == "torch";
    // torch Schedule1F1B.__init__ raises ValueError for m < p; Megatron caps the warm-up at m instead.
    if (torch && m < p)
        return Result<Schedule>::failure("microbatches",
            Text(PS_TEXT("CoreText",
                     "Number of microbatches (%1) must be greater than or equal to the number of stages (%2) "
                     "(torch "
                     "Schedule1F1B)"),
                m, p));
    Schedule s = makeSchedule(ScheduleKind::OneFOneB, Placement::Linear, p, 1, 1, m);
    s.variant = torch ? "torch" : "megatron";
    for (int rank = 0; rank < p; ++rank) {
        // Megatron: w = min(p - r - 1, m) warm-up forwards, then "F then B" in steady state, then w
        // backwards. torch warms up with min(m, p - r) forwards and runs "B then F": its last warm-up forward
        // is Megatron's first steady forward, so both give this sequence.
        const int w = std::min(p - rank - 1, m);
        auto& ops = s.rankOps[std::size_t(rank)];
        ops.reserve(std::size_t(2 * m));
        for (int mb = 0; mb < w; ++mb)
            ops.push_back(Op::f(rank, mb));
        for (int i = 0; i < m - w; ++i) {
            ops.push_back(Op::f(rank, w + i));
            ops.push_back(Op::b(rank, i));
        }
        for (int mb = m - w; mb < m; ++mb)
            ops.push_back(Op::b(rank, mb));
    }
    return s;
}

Result<Schedule> loopedBfs(const ScheduleRequest& r)
{
    if (Issues bad = shapeErrors(r); !bad.empty()) return Result<Schedule>(std::move(bad));
    if (r.chunks < 1)
        return Result<Schedule>::failure("vpp", Text(PS_TEXT("CoreText", "chunks per rank must be >= 1")));
    const int p = r.ranks, m = r.microbatches, v = r.chunks;
    Schedule s = makeSchedule(ScheduleKind::LoopedBFS, Placement::Loop, p, v, 1, m);
    s.variant = "torch";
    for (int rank = 0; rank < p; ++rank) {
        // torch ScheduleLoopedBFS: every local stage in turn runs all microbatches forward (both ascending);
        // the backward walks the local stages and the microbatches in reverse.
        auto& ops = s.rankOps[std::size_t(rank)];
        ops.reserve(std::size_t(2 * m * v));
        for (int c = 0; c < v; ++c)
            for (int mb = 0; mb < m; ++mb)
                ops.push_back(Op::f(c * p + rank, mb));
        for (int c = v - 1; c >= 0; --c)
            for (int mb = m - 1; mb >= 0; --mb)
                ops.push_back(Op::b(c * p + rank, mb));
    }
    return s;
}

} // namespace planscope::schedules
