#include "TimelineIndex.h"

namespace planscope {

namespace {

// The timeline's lanes as LaneIndex reads them: lane l is spans [lanes[l].begin, lanes[l].end).
struct SpanLanes {
    const Timeline& tl;
    const std::vector<TimelineLane>& lanes;
    std::size_t laneCount() const { return lanes.size(); }
    std::size_t size(std::size_t l) const { return lanes[l].end - lanes[l].begin; }
    double end(std::size_t l, std::size_t i) const { return tl.spans[lanes[l].begin + i].end; }
};

} // namespace

TimelineIndex::TimelineIndex(const Timeline& timeline)
{
    const auto& spans = timeline.spans;
    int ranks = int(timeline.ranks.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Span& s = spans[i];
        ranks = std::max(ranks, s.rank + 1);
        const bool newLane
            = m_lanes.empty() || m_lanes.back().rank != s.rank || m_lanes.back().stream != s.stream;
        if (newLane) m_lanes.push_back({ s.rank, s.stream, i, i });
        m_lanes.back().end = i + 1;
    }
    m_index = LaneIndex(SpanLanes { timeline, m_lanes });

    m_byMicrobatch.resize(m_lanes.size());
    for (std::size_t l = 0; l < m_lanes.size(); ++l) {
        auto& list = m_byMicrobatch[l];
        for (std::size_t i = m_lanes[l].begin; i < m_lanes[l].end; ++i) {
            if (spans[i].microbatch >= 0) list.push_back({ spans[i].microbatch, std::uint32_t(i) });
            if (spans[i].microbatch2 >= 0 && spans[i].microbatch2 != spans[i].microbatch)
                list.push_back({ spans[i].microbatch2, std::uint32_t(i) });
        }
        std::sort(list.begin(), list.end());
    }

    m_stages.resize(std::size_t(std::max(0, ranks)));
    const auto& toRank = timeline.schedule.stageToRank;
    if (!toRank.empty()) {
        for (std::size_t s = 0; s < toRank.size(); ++s)
            if (toRank[s] >= 0 && toRank[s] < ranks) m_stages[std::size_t(toRank[s])].push_back(int(s));
    } else {
        for (const TimelineLane& lane : m_lanes) {
            if (lane.stream != Stream::Compute) continue;
            auto& st = m_stages[std::size_t(lane.rank)];
            for (std::size_t i = lane.begin; i < lane.end; ++i)
                if (spans[i].stage >= 0 && std::find(st.begin(), st.end(), spans[i].stage) == st.end())
                    st.push_back(spans[i].stage);
            std::sort(st.begin(), st.end());
        }
    }
}

std::vector<std::size_t> TimelineIndex::microbatchSpans(std::size_t lane, int microbatch) const
{
    std::vector<std::size_t> out;
    if (lane >= m_byMicrobatch.size()) return out;
    const auto& list = m_byMicrobatch[lane];
    auto it = std::lower_bound(list.begin(), list.end(), std::pair<int, std::uint32_t>(microbatch, 0));
    for (; it != list.end() && it->first == microbatch; ++it)
        out.push_back(it->second);
    return out;
}

const std::vector<int>& TimelineIndex::stagesOfRank(int rank) const
{
    static const std::vector<int> none;
    return rank >= 0 && std::size_t(rank) < m_stages.size() ? m_stages[std::size_t(rank)] : none;
}

std::vector<double> spanBoundaries(const Timeline& timeline)
{
    std::vector<double> b;
    b.reserve(timeline.spans.size() * 2);
    for (const Span& s : timeline.spans) {
        b.push_back(s.start);
        b.push_back(s.end);
    }
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    return b;
}

double stepBoundary(const std::vector<double>& boundaries, double t, int direction)
{
    if (direction > 0) {
        auto it = std::upper_bound(boundaries.begin(), boundaries.end(), t);
        return it == boundaries.end() ? t : *it;
    }
    auto it = std::lower_bound(boundaries.begin(), boundaries.end(), t);
    return it == boundaries.begin() ? t : *(it - 1);
}

} // namespace planscope
