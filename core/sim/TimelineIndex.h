// Indexes over a simulated step, built once with the analysis (core/analysis/Analysis.h) on its worker so that
// views only binary-search them: the lanes (one per pipeline rank and stream), the running maximum of span
// ends per lane (culling: the first span that can be visible at t is a binary search even where spans of a
// lane overlap, docs/ARCHITECTURE.md section 4), spans by microbatch, stages by rank, and the sorted span
// boundaries the playhead steps through.
#pragma once

#include "sim/Timeline.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace planscope {

// Per lane, the running maximum of the items' ends: non-decreasing, so "the first item that can still be visible
// at t" is a binary search even where items of one lane overlap. Built once per source (O(n)).
class LaneIndex {
public:
    LaneIndex() = default;
    template <class Source> explicit LaneIndex(const Source& source)
    {
        const std::size_t lanes = source.laneCount();
        m_offset.assign(lanes + 1, 0);
        for (std::size_t l = 0; l < lanes; ++l) m_offset[l + 1] = m_offset[l] + source.size(l);
        m_maxEnd.resize(m_offset.back());
        for (std::size_t l = 0; l < lanes; ++l) {
            double reach = -std::numeric_limits<double>::infinity();
            for (std::size_t i = 0, n = source.size(l); i < n; ++i)
                m_maxEnd[m_offset[l] + i] = reach = std::max(reach, source.end(l, i));
        }
    }
    std::size_t laneCount() const { return m_offset.empty() ? 0 : m_offset.size() - 1; }
    std::size_t size(std::size_t lane) const { return m_offset[lane + 1] - m_offset[lane]; }
    // The largest end among items [0, i] of the lane; -inf for i = -1 (use reachBefore).
    double maxEndUpTo(std::size_t lane, std::size_t i) const { return m_maxEnd[m_offset[lane] + i]; }
    double reachBefore(std::size_t lane, std::size_t i) const
    {
        return i == 0 ? -std::numeric_limits<double>::infinity() : maxEndUpTo(lane, i - 1);
    }
    // First item of the lane whose extent can reach past t (maxEnd > t).
    std::size_t firstReaching(std::size_t lane, double t) const
    {
        const auto first = m_maxEnd.begin() + std::ptrdiff_t(m_offset[lane]);
        const auto last = m_maxEnd.begin() + std::ptrdiff_t(m_offset[lane + 1]);
        return std::size_t(std::partition_point(first, last, [t](double e) { return e <= t; }) - first);
    }

private:
    std::vector<std::size_t> m_offset; // lane l's items are [m_offset[l], m_offset[l + 1]) of m_maxEnd
    std::vector<double> m_maxEnd;
};

// Per pipeline rank, per stream that has spans (empty sub-lanes are left out), built once per timeline.
struct TimelineLane {
    int rank = 0;
    Stream stream = Stream::Compute;
    std::size_t begin = 0; // [begin, end) into Timeline::spans, sorted by start
    std::size_t end = 0;
    bool operator==(const TimelineLane&) const = default;
};

// Lane ranges and the engine's index over them. Built once from a Timeline (O(n log n)); layouts then only
// binary-search it.
class TimelineIndex {
public:
    TimelineIndex() = default;
    explicit TimelineIndex(const Timeline& timeline);

    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    // The running maximum of ends per lane, for culling and hit-testing.
    const LaneIndex& laneIndex() const { return m_index; }
    // Span indexes of one microbatch in one lane (an OverlapFB span counts for both of its microbatches).
    std::vector<std::size_t> microbatchSpans(std::size_t lane, int microbatch) const;
    // Stages held by a rank, ascending (from the schedule, else from the compute spans).
    const std::vector<int>& stagesOfRank(int rank) const;

private:
    std::vector<TimelineLane> m_lanes;
    LaneIndex m_index;
    std::vector<std::vector<std::pair<int, std::uint32_t>>> m_byMicrobatch; // per lane, (microbatch, span)
    std::vector<std::vector<int>> m_stages; // per rank
};

// Every span start and end, sorted and unique: where "step to the next event" goes.
std::vector<double> spanBoundaries(const Timeline& timeline);
// The boundary strictly after (direction > 0) or before (direction < 0) t; t itself when there is none.
double stepBoundary(const std::vector<double>& boundaries, double t, int direction);

} // namespace planscope
