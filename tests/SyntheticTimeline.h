// A large, regular timeline for the layout tests, the frame-time benchmark and screenshots of "a measured
// trace with millions of ops": per rank, alternating forward/backward compute ops of one microbatch each,
// an activation or gradient send after each, staggered by rank like a pipeline's warm-up.
#pragma once

#include "sim/Timeline.h"

#include <algorithm>
#include <cstddef>

namespace planscope {

// About `spans` spans over `ranks` ranks (half compute, half p2p); each compute op occupies `period`
// seconds of its lane, forward 40 % and backward 80 % of it, the rest idle.
inline Timeline makeSyntheticTimeline(int ranks, std::size_t spans, double period = 1e-5)
{
    Timeline tl;
    ranks = std::max(1, ranks);
    const std::size_t opsPerRank = std::max<std::size_t>(1, spans / std::size_t(ranks) / 2);
    tl.schedule.ranks = ranks;
    tl.schedule.stages = ranks;
    tl.schedule.microbatches = int((opsPerRank + 1) / 2);
    for (int r = 0; r < ranks; ++r)
        tl.schedule.stageToRank.push_back(r);
    tl.spans.reserve(opsPerRank * 2 * std::size_t(ranks));
    tl.ranks.resize(std::size_t(ranks));
    for (int r = 0; r < ranks; ++r) {
        const double offset = r * period;
        double busy = 0;
        for (std::size_t k = 0; k < opsPerRank; ++k) {
            const bool forward = k % 2 == 0;
            const double start = offset + double(k) * period;
            const double end = start + (forward ? 0.4 : 0.8) * period;
            const int mb = int(k / 2);
            tl.spans.push_back({ r, Stream::Compute, forward ? SpanKind::Forward : SpanKind::Backward, r, 0,
                mb, start, end });
            busy += end - start;
            tl.pipelineSeconds = std::max(tl.pipelineSeconds, end);
        }
        for (std::size_t k = 0; k < opsPerRank; ++k) {
            const bool forward = k % 2 == 0;
            const double end = offset + double(k) * period + (forward ? 0.4 : 0.8) * period;
            tl.spans.push_back({ r, Stream::P2P, forward ? SpanKind::SendActivation : SpanKind::SendGradient,
                r, 0, int(k / 2), end, end + 0.1 * period });
        }
        tl.ranks[std::size_t(r)].busy = busy;
    }
    for (RankMetrics& m : tl.ranks)
        m.idle = tl.pipelineSeconds - m.busy;
    tl.stepSeconds = tl.pipelineSeconds + 0.2 * period;
    return tl;
}

} // namespace planscope
