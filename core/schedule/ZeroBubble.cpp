// Zero Bubble family (docs/SCHEDULES.md section 2.6): the backward split into I (input gradient) and W (weight gradient).
//
// ZB-H1 and ZB-V are ports of pytorch/pytorch torch/distributed/pipelining/schedules.py:
//   ZB-H1 = _get_1f1b_rank_ops(..., enable_zero_bubble=True) as ScheduleInterleavedZeroBubble calls it, with
//           one stage per rank (n_local_stages = 1, warm-up multiply_factor = 1, num_1f1b_microbatches = rank);
//   ZB-V  = ScheduleZBVZeroBubble._calculate_single_rank_operations.
// torch pads its op lists with None (idle steps); those carry no ordering information and are dropped here.
// ZB-H2 is not shipped by a framework as a fixed order; see zbH2 for the rule used.
#include "Generators.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace planscope::schedules {

namespace {

Result<Schedule> fail(std::string path, Text message)
{
    return Result<Schedule>::failure(std::move(path), std::move(message));
}

// Shape checks shared by the three generators (generateSchedule checks these too, but the generators are public).
std::optional<Result<Schedule>> basicChecks(const ScheduleRequest& r)
{
    if (r.ranks < 1)
        return fail("stages", Text(PS_TEXT("CoreText", "the number of pipeline ranks must be >= 1")));
    if (r.microbatches < 1)
        return fail("microbatches", Text(PS_TEXT("CoreText", "the number of microbatches must be >= 1")));
    return std::nullopt;
}

} // namespace

// torch ScheduleInterleavedZeroBubble with one stage per rank, i.e. _get_1f1b_rank_ops(enable_zero_bubble=True):
//   warm-up w = min(p-1-r, m) forwards; then for j = 0 .. m-1: F(w+j) while forwards remain, I(j), and
//   W(j-r) once j >= r (each W delayed r steps behind its I); then the remaining W's in order.
Result<Schedule> zbH1(const ScheduleRequest& req)
{
    if (auto bad = basicChecks(req)) return *bad;
    if (req.chunks != 1)
        return fail("vpp",
            Text(PS_TEXT("CoreText",
                     "ZB-H1 holds one stage per rank, but %1 chunks per rank were requested (torch's "
                     "interleaved zero "
                     "bubble is a different schedule)"),
                req.chunks));
    const int p = req.ranks, m = req.microbatches;
    // ScheduleInterleavedZeroBubble.__init__: number_of_rounds = max(1, m // p) must divide m.
    const int rounds = std::max(1, m / p);
    if (m % rounds != 0)
        return fail("microbatches",
            Text(PS_TEXT("CoreText",
                     "Zero bubble requires the number of microbatches to be a multiple of the number of "
                     "rounds (%1), but "
                     "got %2."),
                rounds, m));

    Schedule s = makeSchedule(ScheduleKind::ZBH1, Placement::Linear, p, 1, 1, m);
    for (int r = 0; r < p; ++r) {
        auto& ops = s.rankOps[std::size_t(r)];
        // _get_warmup_ops(rank, 1, mpr, p, m, multiply_factor=1) = min(0 * mpr + (p - 1 - r), m * 1).
        const int warmup = std::min(p - 1 - r, m);
        const int fwdBwd = m - warmup;
        const int cooldown = m - fwdBwd;
        const int delayed = r; // num_1f1b_microbatches: backwards before the first W
        int f = 0, b = 0, w = 0;
        for (int op = 0; op < warmup + fwdBwd + cooldown; ++op) {
            if (op < warmup) {
                ops.push_back(Op::f(r, f++));
                continue;
            }
            if (op < warmup + fwdBwd) ops.push_back(Op::f(r, f++));
            ops.push_back(Op::i(r, b++));
            if (op - warmup >= delayed) ops.push_back(Op::w(r, w++));
        }
        while (w < b) ops.push_back(Op::w(r, w++));
    }
    return s;
}

// ZB-H2 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR'24, section 3.1 / figure 3): the paper gives the
// shape, not a unique order -- extra warm-up forwards, then I, F and W interleaved so that no rank idles between
// its first and last op, W's of the tail moved into the cool-down. We fix the order with a deterministic greedy
// list schedule run in lock step under unit op times (F = I = W = 1, no communication delay):
//   at each step every rank runs, among the ops whose inputs are complete,
//     1. its next I (input gradients are on the critical path), else
//     2. its next F if it holds fewer than 2p-1 microbatches in flight (F started, W not yet done), else
//     3. its oldest pending W, else it idles.
// Microbatches go in increasing order per kind. The warm-up comes out as min(2(p-r)-1, m) forwards on rank r
// (the first I reaches rank r at step 2p-1-r), the peak in flight is 2p-1, and for m >= 2p-1 there is no internal
// idle under that time model (docs/SCHEDULES.md section 2.6; the same construction as ezyang's pipeline tutor level "ZB-H2").
// For m < 2p-1 rank 0 cannot fill its 2p-1 warm-up slots, so some internal idle is unavoidable.
Result<Schedule> zbH2(const ScheduleRequest& req)
{
    if (auto bad = basicChecks(req)) return *bad;
    if (req.chunks != 1)
        return fail("vpp",
            Text(PS_TEXT("CoreText", "ZB-H2 holds one stage per rank, but %1 chunks per rank were requested"),
                req.chunks));
    const int p = req.ranks, m = req.microbatches;
    const int cap = 2 * p - 1;
    Schedule s = makeSchedule(ScheduleKind::ZBH2, Placement::Linear, p, 1, 1, m);

    constexpr long kNever = -1;
    // End step of F(r, k) and I(r, k); kNever while not run.
    std::vector<long> fEnd(std::size_t(p) * std::size_t(m), kNever), iEnd(std::size_t(p) * std::size_t(m), kNever);
    auto at = [m](int r, int k) { return std::size_t(r) * std::size_t(m) + std::size_t(k); };
    auto doneBy = [](long end, long t) { return end != kNever && end <= t; };
    std::vector<int> nf(std::size_t(p), 0), ni(std::size_t(p), 0), nw(std::size_t(p), 0);
    int finished = 0;
    const long limit = 4L * (3L * m + p) + 16; // far above what any shape needs (3m + p - 1 when bubble-free)
    for (long t = 0; finished < p; ++t) {
        if (t > limit)
            return fail("kind",
                Text(PS_TEXT("CoreText", "ZB-H2: the greedy schedule did not finish (internal error)")));
        std::vector<Op> chosen(static_cast<std::size_t>(p));
        std::vector<bool> runs(static_cast<std::size_t>(p), false);
        for (int r = 0; r < p; ++r) {
            const int f = nf[std::size_t(r)], i = ni[std::size_t(r)], w = nw[std::size_t(r)];
            if (i < f && doneBy(r == p - 1 ? fEnd[at(r, i)] : iEnd[at(r + 1, i)], t)) {
                chosen[std::size_t(r)] = Op::i(r, i);
            } else if (f < m && f - w < cap && (r == 0 || doneBy(fEnd[at(r - 1, f)], t))) {
                chosen[std::size_t(r)] = Op::f(r, f);
            } else if (w < i) {
                chosen[std::size_t(r)] = Op::w(r, w);
            } else {
                continue;
            }
            runs[std::size_t(r)] = true;
        }
        // Commit after every rank decided, so that decisions at step t only see ops that ended by t.
        for (int r = 0; r < p; ++r) {
            if (!runs[std::size_t(r)]) continue;
            const Op& op = chosen[std::size_t(r)];
            s.rankOps[std::size_t(r)].push_back(op);
            switch (op.kind) {
            case OpKind::F: fEnd[at(r, op.microbatch)] = t + 1; ++nf[std::size_t(r)]; break;
            case OpKind::I: iEnd[at(r, op.microbatch)] = t + 1; ++ni[std::size_t(r)]; break;
            case OpKind::W:
                if (++nw[std::size_t(r)] == m) ++finished;
                break;
            default: break;
            }
        }
    }
    return s;
}

// torch ScheduleZBVZeroBubble._calculate_single_rank_operations (V placement, rank r holds stages r and 2p-1-r):
//   n = max(2p-1, m) microbatches are scheduled and those >= m dropped afterwards;
//   (2(p-r)-1) x F(c0); r x [F(c1), F(c0)]; (p-r) x [F(c1), I(c1), W(c1)];
//   while f1 < f0 or f0 < n: [F(c0) if f0 < n], I(c0), W(c0), F(c1), I(c1), W(c1);
//   r x [I(c0), I(c1)]; (p-r) x [I(c0), W(c0)]; the remaining W(c1), then the remaining W(c0).
Result<Schedule> zbV(const ScheduleRequest& req)
{
    if (auto bad = basicChecks(req)) return *bad;
    if (req.chunks != 2)
        return fail("vpp",
            Text(PS_TEXT("CoreText", "ZBV requires exactly 2 stages per rank, but got %1."), req.chunks));
    const int p = req.ranks, m = req.microbatches;
    const int n = std::max(2 * p - 1, m);
    Schedule s = makeSchedule(ScheduleKind::ZBV, Placement::VShape, p, 2, 1, m);
    const int numStages = 2 * p;
    for (int r = 0; r < p; ++r) {
        auto& ops = s.rankOps[std::size_t(r)];
        const int c0 = r, c1 = numStages - 1 - r;
        // Microbatches >= m are torch's padding: scheduled, then replaced by None.
        auto add = [&](Op op) {
            if (op.microbatch < m) ops.push_back(op);
        };
        int f0 = 0, f1 = 0, b0 = 0, b1 = 0;
        for (int k = 0; k < 2 * (p - r) - 1; ++k) add(Op::f(c0, f0++));
        for (int k = 0; k < r; ++k) {
            add(Op::f(c1, f1++));
            add(Op::f(c0, f0++));
        }
        for (int k = 0; k < p - r; ++k) {
            add(Op::f(c1, f1++));
            add(Op::i(c1, b1));
            add(Op::w(c1, b1++));
        }
        while (f1 < f0 || f0 < n) {
            if (f0 < n) add(Op::f(c0, f0++));
            add(Op::i(c0, b0));
            add(Op::w(c0, b0++));
            add(Op::f(c1, f1++));
            add(Op::i(c1, b1));
            add(Op::w(c1, b1++));
        }
        int w0 = b0, w1 = b1;
        for (int k = 0; k < r; ++k) {
            add(Op::i(c0, b0++));
            add(Op::i(c1, b1++));
        }
        for (int k = 0; k < p - r; ++k) {
            add(Op::i(c0, b0++));
            add(Op::w(c0, w0++));
        }
        while (w1 < b1) add(Op::w(c1, w1++));
        while (w0 < b0) add(Op::w(c0, w0++));
        if (!(w0 == b0 && b0 == f0 && w1 == b1 && b1 == f1))
            return fail("kind",
                Text(PS_TEXT("CoreText", "ZB-V: unbalanced op counts on rank %1 (internal error)"), r));
    }
    return s;
}

} // namespace planscope::schedules
