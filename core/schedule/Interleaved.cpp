// Interleaved 1F1B (docs/SCHEDULES.md section 2.3): loop placement, rank r holds chunks c = 0..v-1 = stages c*p + r.
//
// Every variant walks T = m*v "virtual microbatches" per rank: w_r warm-up forwards, T - w_r steady steps of
// "forward k + w_r, then backward k", and w_r cool-down backwards. The variants differ only in the chunk each
// forward / backward step runs and in w_r:
// - "megatron" (Megatron-LM since Nov 2024, get_schedule_table / get_pp_rank_microbatches): microbatch groups
// of
//   g = microbatch_group_size_per_vp_stage (default p) run chunk 0, then chunk 1, ...; the last group absorbs
//   the remainder; w_r = min(T, 2(p-r-1) + (v-1)g);
// - "megatron-legacy" (Megatron-LM before the tunable schedule): chunk of step k = (k mod p*v) div p, groups
// of
//   p; w_r = min(T, 2(p-r-1) + (v-1)p), and every step is warm-up when m == p;
// - "torch" (ScheduleInterleaved1F1B, "flexible" rounds): rounds = max(1, m div p), mpr = m / rounds;
//   forward chunk (k div mpr) mod v, backward chunk v-1 - ((k div mpr) mod v); w_r = min(T, (v-1)mpr +
//   2(p-1-r)).
// Backward steps take the chunk's microbatches first in, first out (Megatron pops input_tensors[chunk][0];
// torch counts per stage), so the microbatch of every step is a per-chunk counter.
#include "Generators.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace planscope::schedules {

namespace {

// The chunk of each forward step and of each backward step, and the warm-up count of each rank.
struct VirtualSteps {
    std::vector<int> forwardChunk; // size T
    std::vector<int> backwardChunk; // size T
    std::vector<int> warmup; // size p
};

Result<Schedule> fail(std::string path, Text message)
{
    return Result<Schedule>::failure(std::move(path), std::move(message));
}

Result<Schedule> build(const ScheduleRequest& r, const std::string& variant, const VirtualSteps& steps)
{
    const int p = r.ranks, m = r.microbatches, v = r.chunks;
    const int total = m * v;
    Schedule s = makeSchedule(ScheduleKind::Interleaved1F1B, Placement::Loop, p, v, 1, m);
    s.variant = variant;
    for (int rank = 0; rank < p; ++rank) {
        std::vector<int> nextForward(std::size_t(v), 0), nextBackward(std::size_t(v), 0);
        auto& ops = s.rankOps[std::size_t(rank)];
        ops.reserve(std::size_t(2 * total));
        auto forward = [&](int k) {
            const int c = steps.forwardChunk[std::size_t(k)];
            ops.push_back(Op::f(c * p + rank, nextForward[std::size_t(c)]++));
        };
        auto backward = [&](int k) {
            const int c = steps.backwardChunk[std::size_t(k)];
            ops.push_back(Op::b(c * p + rank, nextBackward[std::size_t(c)]++));
        };
        const int w = steps.warmup[std::size_t(rank)];
        for (int k = 0; k < w; ++k)
            forward(k);
        for (int k = 0; k < total - w; ++k) {
            forward(k + w);
            backward(k);
        }
        for (int k = total - w; k < total; ++k)
            backward(k);
    }
    return s;
}

VirtualSteps megatronSteps(int p, int m, int v, int g)
{
    // get_schedule_table: for each group of g microbatches (the last group takes the remainder), chunk 0 for
    // the whole group, then chunk 1, ...
    VirtualSteps steps;
    for (int lo = 0; lo < m; lo += g) {
        const int hi = lo + g >= m ? m : lo + g;
        for (int c = 0; c < v; ++c)
            for (int mb = lo; mb < hi; ++mb)
                steps.forwardChunk.push_back(c);
        if (hi == m) break;
    }
    for (int c : steps.forwardChunk)
        steps.backwardChunk.push_back(v - 1 - c);
    const int total = m * v;
    for (int rank = 0; rank < p; ++rank)
        steps.warmup.push_back(std::min(total, 2 * (p - rank - 1) + (v - 1) * g));
    return steps;
}

VirtualSteps megatronLegacySteps(int p, int m, int v)
{
    VirtualSteps steps;
    const int total = m * v;
    for (int k = 0; k < total; ++k) {
        const int c = (k % (p * v)) / p;
        steps.forwardChunk.push_back(c);
        steps.backwardChunk.push_back(v - 1 - c);
    }
    for (int rank = 0; rank < p; ++rank)
        steps.warmup.push_back(m == p ? total : std::min(total, 2 * (p - rank - 1) + (v - 1) * p));
    return steps;
}

VirtualSteps torchSteps(int p, int m, int v, int perRound)
{
    VirtualSteps steps;
    const int total = m * v;
    for (int k = 0; k < total; ++k) {
        const int c = (k / perRound) % v;
        steps.forwardChunk.push_back(c);
        // torch's backward_stage_index(step) uses step - warmup_ops, which is the backward's own index k.
        steps.backwardChunk.push_back(v - 1 - c);
    }
    // _get_warmup_ops(multiply_factor=2).
    for (int rank = 0; rank < p; ++rank)
        steps.warmup.push_back(std::min(total, (v - 1) * perRound + 2 * (p - 1 - rank)));
    return steps;
}

} // namespace

Result<Schedule> interleaved1F1B(const ScheduleRequest& r)
{
    const int p = r.ranks, m = r.microbatches, v = r.chunks;
    if (p < 1) return fail("stages", Text(PS_TEXT("CoreText", "the number of pipeline ranks must be >= 1")));
    if (m < 1)
        return fail("microbatches", Text(PS_TEXT("CoreText", "the number of microbatches must be >= 1")));
    if (v < 1) return fail("vpp", Text(PS_TEXT("CoreText", "chunks per rank must be >= 1")));
    const std::string variant = r.variant.empty() ? std::string("megatron") : r.variant;

    if (variant == "torch") {
        const int rounds = std::max(1, m / p);
        if (m % rounds != 0)
            return fail("microbatches",
                Text(PS_TEXT("CoreText",
                         "Interleaved 1F1B requires the number of microbatches to be a multiple of the "
                         "number of rounds "
                         "(%1), but got %2 (torch ScheduleInterleaved1F1B, rounds = max(1, m // p))"),
                    rounds, m));
        return build(r, variant, torchSteps(p, m, v, m / rounds));
    }

    if (variant != "megatron" && variant != "megatron-legacy")
        return fail("variant",
            Text(PS_TEXT("CoreText",
                     "unknown interleaved 1F1B variant \"%1\" (expected megatron, megatron-legacy or torch)"),
                variant));
    // megatron/training/arguments.py: a virtual pipeline needs pipeline-parallel ranks (and, without
    // overlap_p2p_comm, more than 2; that rule is about p2p batching, not the order, so p = 2 is accepted
    // here).
    if (p < 2)
        return fail("stages",
            Text(PS_TEXT("CoreText",
                "When interleaved schedule is used, pipeline-model-parallel size should be greater than 1 "
                "(Megatron)")));

    if (variant == "megatron-legacy") {
        if (m % p != 0)
            return fail("microbatches",
                Text(PS_TEXT("CoreText",
                         "number of microbatches (%1) is not divisible by pipeline-model-parallel-size (%2) "
                         "when using "
                         "interleaved schedule (Megatron before microbatch_group_size_per_vp_stage)"),
                    m, p));
        return build(r, variant, megatronLegacySteps(p, m, v));
    }

    const int g = r.groupSize > 0 ? r.groupSize : p;
    if (g > m || g < p)
        return fail(r.groupSize > 0 ? "groupSize" : "microbatches",
            Text(PS_TEXT("CoreText",
                     "The number of contiguous micro-batches in a virtual pipeline stage should range in "
                     "[PP=%1 , M=%2], "
                     "got %3 (Megatron microbatch_group_size_per_vp_stage)"),
                p, m, g));
    const int remainder = m % g;
    if (remainder > 0 && remainder < p)
        return fail("microbatches",
            Text(PS_TEXT("CoreText",
                     "The remainder of M (the total micro-batches) divided by N (number of contiguous "
                     "micro-batches in a "
                     "virtual pipeline stage) should be 0, or larger than or equal to the pipeline-parallel "
                     "size, but it "
                     "is %1. Otherwise, it introduces dependency bubbles in the pipeline and reduces "
                     "throughput. "
                     "(Megatron, M=%2, N=%3, PP=%4)"),
                remainder, m, g, p));
    return build(r, variant, megatronSteps(p, m, v, g));
}

} // namespace planscope::schedules
