#include "timeline/TimelineLayout.h"

#include <algorithm>
#include <cmath>

namespace planscope {

namespace {

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

// The timeline's lanes as the engine sees them (LaneEngine.h): lane l is spans [lanes[l].begin, lanes[l].end).
struct PredictedLanes {
    const Timeline& tl;
    const std::vector<TimelineLane>& lanes;
    const LaneGeometry* g = nullptr;
    const Selection* sel = nullptr;

    std::size_t laneCount() const { return lanes.size(); }
    std::size_t size(std::size_t l) const { return lanes[l].end - lanes[l].begin; }
    const Span& at(std::size_t l, std::size_t i) const { return tl.spans[lanes[l].begin + i]; }
    double start(std::size_t l, std::size_t i) const { return at(l, i).start; }
    double end(std::size_t l, std::size_t i) const { return at(l, i).end; }
    SpanKind kind(std::size_t l, std::size_t i) const { return at(l, i).kind; }
    std::uint8_t style(std::size_t, std::size_t) const { return 0; }

    void describe(std::size_t l, std::size_t i, DrawRect& r) const
    {
        const Span& s = at(l, i);
        r.span = std::uint32_t(lanes[l].begin + i);
        r.microbatch = s.microbatch;
        if (sel->microbatch >= 0) r.flags |= ofMicrobatch(s, sel->microbatch) ? DrawSelected : DrawDimmed;
        if (s.end > sel->playhead) r.flags |= DrawPending;
    }
    std::string label(std::size_t l, std::size_t i, double widthPx) const { return spanLabel(at(l, i), widthPx, *g); }
    std::uint8_t foldFlags(std::size_t, double end) const
    {
        std::uint8_t f = 0;
        if (sel->microbatch >= 0) f |= DrawDimmed;
        if (end > sel->playhead) f |= DrawPending;
        return f;
    }
};

} // namespace

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

DrawList layoutTimeline(const Timeline& timeline, const TimelineIndex& index, const TimeViewport& viewport,
    const LaneGeometry& geometry, const Selection& selection)
{
    DrawList out;
    if (viewport.widthPx <= 0 || !(viewport.end > viewport.start)) return out;
    std::vector<LaneItem> rows = laneRows(timeline, index, geometry);
    out.contentHeight = rows.empty() ? 0 : rows.back().y + rows.back().h;
    const PredictedLanes source { timeline, index.lanes(), &geometry, &selection };
    engine::LaneLayout<PredictedLanes> layout(source, index.laneIndex(), viewport, geometry, out);
    const double minSeconds = geometry.minSpanPx * viewport.secondsPerPixel();
    // Each rank's send lane: with blocking sends the time a rank waits on its own send is not idle.
    std::vector<const TimelineLane*> sendLane(timeline.ranks.size(), nullptr);
    if (timeline.sendsBlock)
        for (const TimelineLane& lane : index.lanes())
            if (lane.stream == Stream::P2P && std::size_t(lane.rank) < sendLane.size()) sendLane[std::size_t(lane.rank)] = &lane;
    auto sendEndingAt = [&](int rank, double from) {
        const TimelineLane* lane = std::size_t(rank) < sendLane.size() ? sendLane[std::size_t(rank)] : nullptr;
        if (!lane) return from;
        const auto first = timeline.spans.begin() + std::ptrdiff_t(lane->begin), last = timeline.spans.begin() + std::ptrdiff_t(lane->end);
        const double eps = 1e-12 * std::max(1.0, timeline.pipelineSeconds);
        auto it = std::lower_bound(first, last, from - eps, [](const Span& s, double t) { return s.start < t; });
        double end = from;
        for (; it != last && it->start <= from + eps; ++it) end = std::max(end, it->end);
        return end;
    };
    for (LaneItem row : rows) {
        if (row.y + row.h <= geometry.scrollY || row.y >= geometry.scrollY + geometry.viewHeight) continue;
        row.y -= geometry.scrollY;
        out.lanes.push_back(row);
        // Idle time of a compute lane: the gaps no span covers, between 0 and the end of the pipeline part.
        auto bubble = [&](double from, double to) {
            if (index.lanes()[row.lane].stream != Stream::Compute) return;
            if (timeline.sendsBlock && from > 0) from = sendEndingAt(row.rank, from);
            from = std::max({ from, 0.0, viewport.start });
            to = std::min({ to, timeline.pipelineSeconds, viewport.end });
            if (to <= from) return;
            const double x0 = layout.clipX(viewport.toX(from)), x1 = layout.clipX(viewport.toX(to));
            if (x1 - x0 < 0.5) return; // float dust between back-to-back ops
            out.bubbles.push_back({ x0, row.y, x1 - x0, row.h, from, to, row.rank });
        };
        layout.lane(row, bubble);
        // The selected microbatch stays visible when zoomed out: its narrow spans were folded above, so they
        // are drawn again on top, at least 2 px wide.
        if (selection.microbatch >= 0) {
            const TimelineLane& lane = index.lanes()[row.lane];
            for (std::size_t i : index.microbatchSpans(row.lane, selection.microbatch)) {
                const Span& s = timeline.spans[i];
                if (s.end < viewport.start || s.start > viewport.end || s.end - s.start >= minSeconds) continue;
                layout.emitRect(row.lane, i - lane.begin, row, 2.0);
            }
        }
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
    const std::vector<LaneItem> rows = laneRows(timeline, index, geometry);
    const long long row = laneAt(rows, y + geometry.scrollY);
    if (row < 0) return -1;
    const std::size_t lane = rows[std::size_t(row)].lane;
    const long long i = engine::hitLane(PredictedLanes { timeline, index.lanes() }, index.laneIndex(), lane,
        viewport.toTime(x), tolerancePx * viewport.secondsPerPixel());
    return i < 0 ? -1 : (long long)index.lanes()[lane].begin + i;
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

} // namespace planscope
