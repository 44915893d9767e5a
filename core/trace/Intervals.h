// Time intervals [start, end) in integer nanoseconds and the three operations the trace breakdowns need: the
// union, its length, and the overlap of two unions. Shared by the importer's breakdowns and the overlay.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace planscope {

using Interval = std::pair<std::int64_t, std::int64_t>;
using Intervals = std::vector<Interval>;

// Sorted, merged where intervals touch or overlap.
inline Intervals unionOf(Intervals v)
{
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const Interval& iv : v) {
        if (!out.empty() && iv.first <= out.back().second) out.back().second = std::max(out.back().second, iv.second);
        else out.push_back(iv);
    }
    return out;
}

// Total length of a union (disjoint intervals).
inline std::int64_t lengthOf(const Intervals& u)
{
    std::int64_t t = 0;
    for (const Interval& iv : u) t += iv.second - iv.first;
    return t;
}

// Length of the intersection of two unions.
inline std::int64_t intersectionOf(const Intervals& a, const Intervals& b)
{
    std::int64_t t = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        const std::int64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (hi > lo) t += hi - lo;
        if (a[i].second < b[j].second) ++i;
        else ++j;
    }
    return t;
}

} // namespace planscope
