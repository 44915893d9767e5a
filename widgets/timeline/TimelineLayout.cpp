#include "TimelineLayout.h"

#include <algorithm>
#include <cmath>

namespace planscope {

namespace {

constexpr std::size_t kKinds = 10;

bool isWide(const Span& s, double minSeconds)
{
    return s.end - s.start >= minSeconds;
}

bool ofMicrobatch(const Span& s, int microbatch)
{
    return microbatch >= 0 && (s.microbatch == microbatch || s.microbatch2 == microbatch);
}

const char* kindLetter(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Forward:
        return "F";
    case SpanKind::Backward:
        return "B";
    case SpanKind::InputGrad:
        return "I";
    case SpanKind::WeightGrad:
        return "W";
    default:
        return "";
    }
}

// The longest label that fits in widthPx, from the most to the least telling: "F12", then "12".
std::string spanLabel(const Span& s, double widthPx, const LaneGeometry& g)
{
    auto fits = [&](const std::string& text) {
        return !text.empty() && textColumns(text) * g.charWidth + 2 * g.labelPadding <= widthPx;
    };
    if (s.microbatch < 0) {
        const std::string& name = g.kindLabels[std::size_t(s.kind)];
        return fits(name) ? name : std::string();
    }
    const std::string mb = std::to_string(s.microbatch);
    std::string full;
    if (s.kind == SpanKind::OverlapFB && s.microbatch2 >= 0) {
        full = "F" + mb + "/B" + std::to_string(s.microbatch2);
        if (fits(full)) return full;
        full = mb + "/" + std::to_string(s.microbatch2);
    } else {
        full = kindLetter(s.kind) + mb;
    }
    if (fits(full)) return full;
    return fits(mb) ? mb : std::string();
}

} // namespace

// ---- TimelineIndex -------------------------------------------------------------------------------------

TimelineIndex::TimelineIndex(const Timeline& timeline)
{
    const auto& spans = timeline.spans;
    m_maxEnd.resize(spans.size());
    int ranks = int(timeline.ranks.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const Span& s = spans[i];
        ranks = std::max(ranks, s.rank + 1);
        const bool newLane
            = m_lanes.empty() || m_lanes.back().rank != s.rank || m_lanes.back().stream != s.stream;
        if (newLane) m_lanes.push_back({ s.rank, s.stream, i, i });
        m_lanes.back().end = i + 1;
        m_maxEnd[i] = newLane ? s.end : std::max(m_maxEnd[i - 1], s.end);
    }

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

std::size_t TimelineIndex::firstReaching(const TimelineLane& lane, double t) const
{
    auto first = m_maxEnd.begin() + std::ptrdiff_t(lane.begin);
    auto last = m_maxEnd.begin() + std::ptrdiff_t(lane.end);
    return std::size_t(
        std::partition_point(first, last, [t](double e) { return e <= t; }) - m_maxEnd.begin());
}

std::size_t TimelineIndex::firstStartingAtOrAfter(
    const Timeline& timeline, const TimelineLane& lane, double t) const
{
    auto first = timeline.spans.begin() + std::ptrdiff_t(lane.begin);
    auto last = timeline.spans.begin() + std::ptrdiff_t(lane.end);
    return std::size_t(std::partition_point(first, last, [t](const Span& s) { return s.start < t; })
        - timeline.spans.begin());
}

// ---- Layout --------------------------------------------------------------------------------------------

std::vector<LaneItem> laneRows(const Timeline& timeline, const TimelineIndex& index, const LaneGeometry& g)
{
    std::vector<LaneItem> rows;
    rows.reserve(index.lanes().size());
    double y = 0;
    for (std::size_t l = 0; l < index.lanes().size(); ++l) {
        const TimelineLane& lane = index.lanes()[l];
        const bool firstOfRank = l == 0 || index.lanes()[l - 1].rank != lane.rank;
        if (l > 0) y += firstOfRank ? g.rankGap : g.subLaneGap;
        LaneItem row;
        row.rank = lane.rank;
        row.stream = lane.stream;
        row.y = y;
        row.h = lane.stream == Stream::Compute ? g.computeHeight : g.streamHeight;
        row.firstOfRank = firstOfRank;
        row.lane = l;
        if (lane.stream == Stream::Compute && timeline.pipelineSeconds > 0
            && std::size_t(lane.rank) < timeline.ranks.size())
            row.idleShare = timeline.ranks[std::size_t(lane.rank)].idle / timeline.pipelineSeconds;
        rows.push_back(row);
        y += row.h;
    }
    return rows;
}

namespace {

struct LaneLayout {
    const Timeline& tl;
    const TimelineIndex& index;
    const TimeViewport& vp;
    const LaneGeometry& g;
    const Selection& sel;
    DrawList& out;

    double clipX(double x) const { return std::clamp(x, -1.0, double(vp.widthPx) + 1.0); }

    std::uint8_t flagsFor(const Span& s) const
    {
        std::uint8_t f = 0;
        if (sel.microbatch >= 0) f |= ofMicrobatch(s, sel.microbatch) ? DrawSelected : DrawDimmed;
        if (s.end > sel.playhead) f |= DrawPending;
        return f;
    }

    void emitRect(std::size_t i, const LaneItem& row, double minWidth)
    {
        const Span& s = tl.spans[i];
        const double x0 = clipX(vp.toX(s.start));
        const double x1 = clipX(vp.toX(s.end));
        DrawRect r { x0, row.y, std::max(x1 - x0, minWidth), row.h, s.kind, flagsFor(s), s.microbatch,
            std::uint32_t(i) };
        out.rects.push_back(r);
        // The label is centred in the visible part of the span.
        const double v0 = std::max(x0, 0.0), v1 = std::min(x1, double(vp.widthPx));
        if (row.h >= g.minLabelHeight && v1 - v0 > g.charWidth + 2 * g.labelPadding) {
            std::string text = spanLabel(s, v1 - v0, g);
            if (!text.empty())
                out.labels.push_back({ v0, row.y, v1 - v0, row.h, std::move(text), s.kind, r.flags });
        }
    }

    void emitFold(std::size_t first, std::size_t last, double start, double end, const LaneItem& row)
    {
        // The two kinds with the most time, from at most 16 evenly spaced runs of 4 consecutive spans:
        // bounded work per block, and runs rather than single spans so a periodic order (F B F B, F I W) is
        // not aliased into one kind.
        std::array<double, kKinds> weight {};
        const std::size_t count = last - first;
        const std::size_t runs = std::min<std::size_t>((count + 3) / 4, 16);
        double sampledSeconds = 0;
        std::size_t sampled = 0;
        for (std::size_t k = 0; k < runs; ++k) {
            const std::size_t from = first + k * count / runs;
            for (std::size_t i = from; i < std::min(from + 4, last); ++i) {
                const Span& s = tl.spans[i];
                weight[std::size_t(s.kind)] += std::max(s.end - s.start, 1e-300);
                sampledSeconds += s.end - s.start;
                ++sampled;
            }
        }
        std::size_t top = 0, second = 0;
        for (std::size_t k = 1; k < kKinds; ++k)
            if (weight[k] > weight[top]) top = k;
        second = top;
        for (std::size_t k = 0; k < kKinds; ++k)
            if (k != top && weight[k] > 0 && (second == top || weight[k] > weight[second])) second = k;

        FoldedBlock b;
        b.x = clipX(vp.toX(start));
        b.w = std::max(clipX(vp.toX(end)) - b.x, 1.0);
        b.y = row.y;
        b.h = row.h;
        b.count = std::uint32_t(count);
        b.kind = SpanKind(top);
        b.kind2 = SpanKind(second);
        b.firstSpan = first;
        b.stream = tl.spans[first].stream;
        b.busy = end > start && sampled > 0
            ? std::clamp(sampledSeconds / double(sampled) * double(count) / (end - start), 0.0, 1.0)
            : 1.0;
        if (sel.microbatch >= 0) b.flags |= DrawDimmed;
        if (end > sel.playhead) b.flags |= DrawPending;
        out.folds.push_back(b);
    }

    void bubble(double from, double to, const LaneItem& row)
    {
        from = std::max({ from, 0.0, vp.start });
        to = std::min({ to, tl.pipelineSeconds, vp.end });
        if (to <= from) return;
        const double x0 = clipX(vp.toX(from)), x1 = clipX(vp.toX(to));
        if (x1 - x0 < 0.5) return; // float dust between back-to-back ops
        out.bubbles.push_back({ x0, row.y, x1 - x0, row.h, from, to, row.rank });
    }

    // Culling: [first, last) are the spans that can touch the window (binary searches on the index).
    // Folding, after Tracy's zone folding (wolfpld/tracy, TimelineItemThread): a span narrower than
    // minSpanPx starts a block that swallows every following span starting within minSpanPx of the block's
    // end, until a gap of minSpanPx or a span wide enough to draw; each round moves the end by at least
    // minSpanPx, so a lane costs O(width / minSpanPx) rounds of O(log n), however many spans it has.
    void lane(const LaneItem& row)
    {
        const TimelineLane& lane = index.lanes()[row.lane];
        const auto& spans = tl.spans;
        const std::size_t first = index.firstReaching(lane, vp.start);
        const std::size_t last = index.firstStartingAtOrAfter(tl, lane, vp.end);
        const double minSeconds = g.minSpanPx * vp.secondsPerPixel();
        const bool compute = lane.stream == Stream::Compute;
        double covered = first > lane.begin ? index.maxEndUpTo(first - 1) : 0.0; // for bubbles

        std::size_t i = first;
        while (i < last) {
            const Span& s = spans[i];
            if (isWide(s, minSeconds)) {
                if (compute) bubble(covered, s.start, row);
                emitRect(i, row, 0.0);
                covered = std::max(covered, s.end);
                ++i;
                continue;
            }
            double end = s.end;
            std::size_t j = i + 1;
            for (;;) {
                auto from = spans.begin() + std::ptrdiff_t(j);
                auto to = spans.begin() + std::ptrdiff_t(last);
                const double limit = end + minSeconds;
                std::size_t k = std::size_t(std::partition_point(from, to, [limit](const Span& x) {
                    return x.start < limit;
                }) - spans.begin());
                if (k == j) break;
                const bool stopBeforeWide = isWide(spans[k - 1], minSeconds);
                if (stopBeforeWide) --k;
                if (k == j) break;
                end = std::max(end, spans[k - 1].end);
                j = k;
                if (stopBeforeWide) break;
            }
            if (compute) bubble(covered, s.start, row);
            if (j - i == 1)
                emitRect(i, row, 1.0);
            else
                emitFold(i, j, s.start, end, row);
            covered = std::max(covered, end);
            i = j;
        }
        if (compute) bubble(covered, last < lane.end ? spans[last].start : tl.pipelineSeconds, row);

        // The selected microbatch stays visible when zoomed out: its narrow spans were folded above, so they
        // are drawn again on top, at least 2 px wide.
        if (sel.microbatch >= 0)
            for (std::size_t i : index.microbatchSpans(row.lane, sel.microbatch)) {
                const Span& s = spans[i];
                if (s.end < vp.start || s.start > vp.end || isWide(s, minSeconds)) continue;
                emitRect(i, row, 2.0);
            }
    }
};

} // namespace

DrawList layoutTimeline(const Timeline& timeline, const TimelineIndex& index, const TimeViewport& viewport,
    const LaneGeometry& geometry, const Selection& selection)
{
    DrawList out;
    if (viewport.widthPx <= 0 || !(viewport.end > viewport.start)) return out;
    std::vector<LaneItem> rows = laneRows(timeline, index, geometry);
    out.contentHeight = rows.empty() ? 0 : rows.back().y + rows.back().h;
    LaneLayout layout { timeline, index, viewport, geometry, selection, out };
    for (LaneItem row : rows) {
        if (row.y + row.h <= geometry.scrollY || row.y >= geometry.scrollY + geometry.viewHeight) continue;
        row.y -= geometry.scrollY;
        out.lanes.push_back(row);
        layout.lane(row);
    }
    return out;
}

DrawList layoutTimeline(const Timeline& timeline, const TimeViewport& viewport, const LaneGeometry& geometry,
    const Selection& selection)
{
    return layoutTimeline(timeline, TimelineIndex(timeline), viewport, geometry, selection);
}

long long hitTest(const Timeline& timeline, const TimelineIndex& index, const TimeViewport& viewport,
    const LaneGeometry& geometry, double x, double y, double tolerancePx)
{
    if (viewport.widthPx <= 0 || !(viewport.end > viewport.start)) return -1;
    const double contentY = y + geometry.scrollY;
    for (const LaneItem& row : laneRows(timeline, index, geometry)) {
        if (contentY < row.y || contentY >= row.y + row.h) continue;
        const TimelineLane& lane = index.lanes()[row.lane];
        const double t = viewport.toTime(x);
        const double tol = tolerancePx * viewport.secondsPerPixel();
        std::size_t i = index.firstReaching(lane, t - tol);
        long long best = -1;
        double bestDistance = tol;
        // Bounded scan: in a folded region the nearest of the first few thousand candidates is good enough.
        for (std::size_t n = 0; i < lane.end && timeline.spans[i].start <= t + tol && n < 4096; ++i, ++n) {
            const Span& s = timeline.spans[i];
            const double d = t < s.start ? s.start - t : (t > s.end ? t - s.end : 0.0);
            if (d < bestDistance || (d == 0 && bestDistance == 0)) {
                best = (long long)i;
                bestDistance = d;
            }
        }
        return best;
    }
    return -1;
}

std::vector<double> axisTicks(const TimeViewport& viewport, double minSpacingPx, double* step)
{
    std::vector<double> ticks;
    if (viewport.widthPx <= 0 || !(viewport.end > viewport.start)) return ticks;
    const double raw = std::max(minSpacingPx, 1.0) * viewport.secondsPerPixel();
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double s = 10 * magnitude;
    for (double m : { 1.0, 2.0, 5.0 })
        if (m * magnitude >= raw) {
            s = m * magnitude;
            break;
        }
    if (step) *step = s;
    for (double k = std::ceil(viewport.start / s); k * s <= viewport.end + s * 1e-9; k += 1)
        ticks.push_back(k * s);
    return ticks;
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

double textColumns(const std::string& utf8)
{
    double columns = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        char32_t cp = c;
        std::size_t n = 1;
        if (c >= 0xF0) {
            n = 4;
            cp = c & 0x07;
        } else if (c >= 0xE0) {
            n = 3;
            cp = c & 0x0F;
        } else if (c >= 0xC0) {
            n = 2;
            cp = c & 0x1F;
        }
        for (std::size_t k = 1; k < n && i + k < utf8.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
        i += n;
        // CJK, Hangul, full-width forms: two columns (a close enough reading of East Asian Width "W"/"F").
        const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF)
            || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF)
            || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60)
            || (cp >= 0xFFE0 && cp <= 0xFFE6) || cp >= 0x20000;
        columns += wide ? 2 : 1;
    }
    return columns;
}

} // namespace planscope
