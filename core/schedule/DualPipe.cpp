// DualPipe and DualPipeV (docs/SCHEDULES.md section 2.7): the op order of deepseek-ai/DualPipe's DualPipe.step() and
// DualPipeV.step() (dualpipe/dualpipe.py, dualpipe/dualpipev.py), one op per compute call:
// _forward_chunk -> F, _backward_chunk -> B (I when enable_zb: the weight gradients go to WeightGradStore),
// _weight_chunk -> W of the oldest pending I (WeightGradStore is a FIFO), _forward_backward_chunk -> one
// OVERLAP_F_B pair. torch's ScheduleDualPipeV (torch/distributed/pipelining/schedules.py) builds the same lists.
//
// Both step() functions run the same 8 loops. Per rank they use a "half rank" h and a half size n:
//   DualPipe:  n = p/2, h = min(r, p-1-r), M = m/2 microbatches per direction, and the phases are flipped on
//              the second half of the ranks (phase ^= is_in_second_half);
//   DualPipeV: n = p,   h = r,             M = m.
// Phase 0 of rank r is global stage r and phase 1 is stage 2p-1-r in both: DualPipe's "up" pipeline stage
// p + (p-1-r) (Placement::Bidirectional), DualPipeV's second leg of the V (Placement::VShape).
#include "Generators.h"

#include <algorithm>
#include <deque>
#include <string>
#include <utility>

namespace planscope::schedules {

namespace {

struct RankBuilder {
    std::vector<Op>& ops;
    int stage[2];                      // global stage of (actual) phase 0 and 1
    bool flip = false;                 // DualPipe's second half: the loops' phase 0 is the rank's phase 1
    int fCount[2] = { 0, 0 };          // current_f_chunk_id
    int bCount[2] = { 0, 0 };          // current_b_chunk_id
    std::deque<std::pair<int, int>> weights; // WeightGradStore: (stage, microbatch) of each I, oldest first

    int phase(int loopPhase) const { return loopPhase ^ int(flip); }

    void forward(int loopPhase)
    {
        const int ph = phase(loopPhase);
        ops.push_back(Op::f(stage[ph], fCount[ph]++));
    }
    void backward(int loopPhase, bool zeroBubble = false)
    {
        const int ph = phase(loopPhase);
        const int mb = bCount[ph]++;
        if (zeroBubble) {
            ops.push_back(Op::i(stage[ph], mb));
            weights.emplace_back(stage[ph], mb);
        } else {
            ops.push_back(Op::b(stage[ph], mb));
        }
    }
    void forwardBackward(int loopPhase0, int loopPhase1)
    {
        const int f = phase(loopPhase0), b = phase(loopPhase1);
        ops.push_back(Op::overlap(stage[f], fCount[f]++, stage[b], bCount[b]++));
    }
    void weight()
    {
        // DeepSeek asserts the queue is not empty ("Pop empty queue."); the loop counts guarantee it.
        const auto [s, mb] = weights.front();
        weights.pop_front();
        ops.push_back(Op::w(s, mb));
    }
};

// DualPipe.step() / DualPipeV.step(), steps 1-8. `n` is num_half_ranks (DualPipe) or num_ranks (DualPipeV),
// `h` half_rank or rank, `chunks` the microbatches per direction; h == n-1 is DualPipe's is_middle_rank and
// DualPipeV's is_last_rank.
void buildRank(RankBuilder& k, int n, int h, int chunks)
{
    const bool middle = h == n - 1;
    // Step 1: nF0
    for (int i = 0; i < (n - h - 1) * 2; ++i) k.forward(0);
    // Step 2: nF0F1
    for (int i = 0; i < h + 1; ++i) {
        k.forward(0);
        k.forward(1);
    }
    // Step 3: nB1W1F1 (zero bubble: input gradient, then the oldest weight gradient)
    for (int i = 0; i < n - h - 1; ++i) {
        k.backward(1, true);
        k.weight();
        k.forward(1);
    }
    // Step 4 (main): nF0B1F1B0; the middle (DualPipeV: last) ranks do not overlap their first F0 and B1.
    const int step4 = chunks - 2 * n + h + 1;
    for (int i = 0; i < step4; ++i) {
        if (i == 0 && middle) {
            k.forward(0);
            k.backward(1);
        } else {
            k.forwardBackward(0, 1);
        }
        k.forwardBackward(1, 0);
    }
    // Step 5: nB1F1B0
    for (int i = 0; i < n - h - 1; ++i) {
        k.backward(1);
        k.forwardBackward(1, 0);
    }
    // Step 6: nB1B0, the second half of them split (zero bubble)
    const int step6 = h + 1;
    bool zb = false;
    for (int i = 0; i < step6; ++i) {
        if (i == step6 / 2 && h % 2 == 1) zb = true;
        k.backward(1, zb);
        if (i == step6 / 2 && h % 2 == 0) zb = true;
        k.backward(0, zb);
    }
    // Step 7: nWB0 (zero bubble)
    for (int i = 0; i < n - h - 1; ++i) {
        k.weight();
        k.backward(0, true);
    }
    // Step 8: nW
    for (int i = 0; i < h + 1; ++i) k.weight();
}

bool chunksOk(const ScheduleRequest& r)
{
    // Each rank holds two chunks; 1 is accepted as "not given" (the request's default).
    return r.chunks == 1 || r.chunks == 2;
}

} // namespace

Result<Schedule> dualPipe(const ScheduleRequest& r)
{
    const int p = r.ranks, m = r.microbatches;
    // dualpipe.py: assert num_ranks % 2 == 0; assert num_chunks > 0 and num_chunks % 2 == 0 and num_chunks >= num_ranks * 2
    if (p < 2 || p % 2 != 0)
        return Result<Schedule>::failure("stages",
            Text(PS_TEXT("CoreText",
                     "DualPipe needs an even number of pipeline ranks (one stage of each direction per "
                     "rank), got %1"),
                p));
    if (m < 1 || m % 2 != 0)
        return Result<Schedule>::failure("microbatches",
            Text(PS_TEXT("CoreText",
                     "DualPipe needs an even number of microbatches (half enter from each end), got %1"),
                m));
    if (m < 2 * p)
        return Result<Schedule>::failure("microbatches",
            Text(PS_TEXT("CoreText", "DualPipe needs at least 2 x ranks = %1 microbatches, got %2"), 2 * p,
                m));
    if (!chunksOk(r))
        return Result<Schedule>::failure("vpp",
            Text(PS_TEXT("CoreText", "DualPipe holds exactly 2 chunks per rank (one per direction), got %1"),
                r.chunks));

    Schedule s = makeSchedule(ScheduleKind::DualPipe, Placement::Bidirectional, p, 2, 2, m / 2);
    const int half = p / 2;
    for (int rank = 0; rank < p; ++rank) {
        RankBuilder k { s.rankOps[std::size_t(rank)], { rank, 2 * p - 1 - rank } };
        k.flip = rank >= half;
        buildRank(k, half, std::min(rank, p - 1 - rank), m / 2);
    }
    return s;
}

Result<Schedule> dualPipeV(const ScheduleRequest& r)
{
    const int p = r.ranks, m = r.microbatches;
    // dualpipev.py: assert num_chunks > 0 and num_chunks >= num_ranks * 2 (torch: n_microbatches >= num_stages)
    if (p < 1)
        return Result<Schedule>::failure(
            "stages", Text(PS_TEXT("CoreText", "DualPipeV needs at least one pipeline rank")));
    if (m < 2 * p)
        return Result<Schedule>::failure("microbatches",
            Text(PS_TEXT("CoreText",
                     "DualPipeV needs at least as many microbatches as stages (2 x ranks = %1), got %2"),
                2 * p, m));
    if (!chunksOk(r))
        return Result<Schedule>::failure("vpp",
            Text(PS_TEXT("CoreText", "DualPipeV holds exactly 2 chunks per rank (a V), got %1"), r.chunks));

    Schedule s = makeSchedule(ScheduleKind::DualPipeV, Placement::VShape, p, 2, 1, m);
    for (int rank = 0; rank < p; ++rank) {
        RankBuilder k { s.rankOps[std::size_t(rank)], { rank, 2 * p - 1 - rank } };
        buildRank(k, p, rank, m);
    }
    return s;
}

} // namespace planscope::schedules
