// The one timeline engine of the predicted timeline (TimelineLayout) and the measured-run view (TraceRows):
// pure C++, no Qt, so culling, folding, labels and hit-testing are tested headless; the views only paint the
// DrawList it prepares. Its input is any set of indexed lanes, a Source with
//   std::size_t laneCount() const;            std::size_t size(std::size_t lane) const;
//   double start(lane, i) const;              double end(lane, i) const;     // seconds, items sorted by start
//   SpanKind kind(lane, i) const;             std::uint8_t style(lane, i) const; // colour: family and kind
//   void describe(lane, i, DrawRect&) const;  // id, flags, microbatch of a drawn item
//   std::string label(lane, i, double px) const; // the longest text that fits in px ("" for none)
//   std::uint8_t foldFlags(lane, double end) const;
// A frame costs O(visible lanes x pixels / minSpanPx x log items), never O(items): LaneIndex keeps, per lane, the
// running maximum of the items' ends, so the first item that can reach the window is a binary search even where
// one item is longer than the screen (it raises the maximum for the items after it, and only those).
#pragma once

#include "sim/Timeline.h"
#include "sim/TimelineIndex.h" // LaneIndex: the running maximum of ends, for culling

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace planscope {

// Seconds <-> pixels of the time area (x = 0 at start, x = widthPx at end).
struct TimeViewport {
    double start = 0;
    double end = 1;
    int widthPx = 1000;

    double secondsPerPixel() const { return (end - start) / double(widthPx > 0 ? widthPx : 1); }
    double toX(double t) const { return (t - start) * double(widthPx) / (end - start); }
    double toTime(double x) const { return start + x * (end - start) / double(widthPx); }
    bool operator==(const TimeViewport&) const = default;
};

enum DrawFlag : std::uint8_t {
    DrawSelected = 1, // of the selected microbatch
    DrawDimmed = 2, // a microbatch is selected and this is not it
    DrawPending = 4, // ends after the playhead
    DrawGhost = 8, // a predicted item under measured ones (the measured-run view draws it translucent)
};

// One item drawn on its own. end is the item's end in seconds, so the playhead's "pending" test can be made at
// paint time without a new layout.
struct DrawRect {
    double x = 0, y = 0, w = 0, h = 0; // time-area pixels; y from the top of the lane content
    SpanKind kind = SpanKind::Forward;
    std::uint8_t flags = 0;
    int microbatch = -1;
    std::uint32_t span = 0; // the item's id in its source (Timeline::spans index; a trace row's item index)
    std::uint8_t style = 0; // the source's colour family (0 for predicted spans, TraceColor for trace items)
    std::uint32_t lane = 0; // the source's lane
    double end = 0; // seconds
};

// Items too narrow to draw one by one: the block's top half has the commonest (style, kind), the bottom half
// the second commonest (the same when all are alike), so a folded F/B steady state still reads as F and B.
// busy is the share of the block's time its items cover (estimated from the same samples), so a folded
// stretch that is half idle can be drawn half full instead of as solid work.
struct FoldedBlock {
    double x = 0, y = 0, w = 0, h = 0;
    std::uint32_t count = 0;
    double busy = 1;
    Stream stream = Stream::Compute; // predicted lanes: the lane's stream
    SpanKind kind = SpanKind::Forward;
    SpanKind kind2 = SpanKind::Forward;
    std::uint8_t style = 0, style2 = 0;
    std::uint8_t flags = 0;
    std::size_t firstSpan = 0; // the first item's index in its lane
    std::uint32_t lane = 0;
    double end = 0; // seconds
};

// Idle time of a predicted compute lane between 0 and Timeline::pipelineSeconds.
struct BubbleRect {
    double x = 0, y = 0, w = 0, h = 0;
    double start = 0, end = 0; // seconds
    int rank = 0;
};

struct LabelItem {
    double x = 0, y = 0, w = 0, h = 0; // the visible part of the item's rect
    std::string text; // UTF-8
    SpanKind kind = SpanKind::Forward;
    std::uint8_t flags = 0;
    std::uint8_t style = 0;
    double end = 0; // seconds
};

// A lane's place on screen. rank, stream and idleShare are the predicted timeline's; the measured-run view puts
// the overlaid rank in rank.
struct LaneItem {
    int rank = 0;
    Stream stream = Stream::Compute;
    double y = 0, h = 0;
    bool firstOfRank = false;
    double idleShare = -1; // predicted compute lanes: ranks[rank].idle / pipelineSeconds; else -1
    std::size_t lane = 0; // the source's lane
};

struct DrawList {
    std::vector<LaneItem> lanes; // visible lanes only
    std::vector<BubbleRect> bubbles;
    std::vector<DrawRect> rects;
    std::vector<FoldedBlock> folds;
    std::vector<LabelItem> labels;
    double contentHeight = 0; // all lanes, visible or not
    std::size_t itemCount() const { return bubbles.size() + rects.size() + folds.size() + labels.size(); }
};

// Pixels, text and scrolling: what the engine needs of a view's geometry.
struct LaneMetrics {
    double scrollY = 0; // content y shown at the top of the lane area
    double viewHeight = 1e9; // lanes entirely outside [scrollY, scrollY + viewHeight] are culled
    double minSpanPx = 3; // items narrower than this fold into counted blocks
    double charWidth = 7; // average advance of a label character
    double labelPadding = 3; // each side
    double minLabelHeight = 0; // lanes lower than this get no labels
    bool operator==(const LaneMetrics&) const = default;
};

// The display width of UTF-8 text in average characters (East Asian wide characters count two).
double textColumns(const std::string& utf8);
// The longest prefix of text that fits in maxColumns, with "…" when it was cut ("" when not even one character
// and the ellipsis fit).
std::string fitText(const std::string& utf8, double maxColumns);
// The lane of rows (sorted by y) under content y, or -1.
long long laneAt(const std::vector<LaneItem>& rows, double y);

namespace engine {

// The first index in [lo, hi) for which keep(i) is false (keep must be true, then false, along the range).
template <class Keep> std::size_t partitionIndex(std::size_t lo, std::size_t hi, Keep&& keep)
{
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (keep(mid)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// The same from lo by galloping (lo + 1, 2, 4, ... then a binary search), for a boundary expected near lo: it
// touches memory near lo only, where a plain binary search over a long range misses the cache at every step.
template <class Keep> std::size_t gallopIndex(std::size_t lo, std::size_t hi, Keep&& keep)
{
    std::size_t step = 1, from = lo;
    while (from + step < hi && keep(from + step)) {
        lo = from + step + 1;
        step *= 2;
    }
    return partitionIndex(lo, std::min(hi, from + step), keep);
}

// [first, last): the lane's items that can touch (t0, t1), by two binary searches.
template <class Source>
std::pair<std::size_t, std::size_t> visibleRange(const Source& s, const LaneIndex& index, std::size_t lane, double t0, double t1)
{
    const std::size_t first = index.firstReaching(lane, t0);
    const std::size_t last = partitionIndex(first, s.size(lane), [&](std::size_t i) { return s.start(lane, i) < t1; });
    return { first, std::max(first, last) };
}

// Cuts [first, last) into runs, calling visit(from, to, start, end) for each: an item at least minSeconds long
// alone, else a run of narrow items. Folding, after Tracy's zone folding (wolfpld/tracy, TimelineItemThread): a
// narrow item starts a block that swallows every following item starting within minSeconds of the block's end,
// until a gap of minSeconds or an item wide enough to draw; each round moves the end by at least minSeconds, so
// a lane costs O(width / minSpanPx) rounds of O(log n), however many items it has. A long item that starts
// inside a block's reach and ends past it is found by a binary search on the running maximum of ends and ends
// the block, so it is drawn on its own (it may be longer than the screen).
// Items ending by t0 are skipped one by one: after an item that holds t0 (only in lanes whose items overlap) the
// running maximum cannot skip them.
template <class Source, class Visit>
void foldRuns(const Source& s, const LaneIndex& index, std::size_t lane, std::size_t first, std::size_t last,
    double t0, double minSeconds, Visit&& visit)
{
    auto wide = [&](std::size_t i) { return s.end(lane, i) - s.start(lane, i) >= minSeconds; };
    std::size_t i = first;
    while (i < last) {
        if (s.end(lane, i) <= t0) {
            ++i;
            continue;
        }
        if (wide(i)) {
            visit(i, i + 1, s.start(lane, i), s.end(lane, i));
            ++i;
            continue;
        }
        const double before = index.reachBefore(lane, i);
        double end = s.end(lane, i);
        std::size_t j = i + 1;
        for (;;) {
            const double limit = end + minSeconds;
            std::size_t k = gallopIndex(j, last, [&](std::size_t x) { return s.start(lane, x) < limit; });
            if (k == j) break;
            // An item of [j, k) reaching past limit + minSeconds started before limit, so it is wide: stop there.
            const double far = std::max(before, limit + minSeconds);
            if (index.maxEndUpTo(lane, k - 1) > far) {
                k = partitionIndex(j, k, [&](std::size_t x) { return index.maxEndUpTo(lane, x) <= far; });
                if (k == j) break;
            }
            const bool stopBeforeWide = wide(k - 1);
            if (stopBeforeWide) --k;
            if (k == j) break;
            // Without an earlier item still running, the running maximum is exactly the run's end.
            end = std::max(end, before <= end ? index.maxEndUpTo(lane, k - 1) : s.end(lane, k - 1));
            j = k;
            if (stopBeforeWide) break;
        }
        visit(i, j, s.start(lane, i), end);
        i = j;
    }
}

// Appends what one visible lane shows to out: its items one by one, folded, and labelled where the label fits.
// onGap(from, to) is called for the time before each run that no earlier item covers (the predicted timeline's
// bubbles); the covered reach starts at the items before the window.
template <class Source> class LaneLayout {
public:
    LaneLayout(const Source& source, const LaneIndex& index, const TimeViewport& viewport, const LaneMetrics& metrics,
        DrawList& out)
        : s(source), idx(index), vp(viewport), g(metrics), out(out)
    {
    }

    double clipX(double x) const { return std::clamp(x, -1.0, double(vp.widthPx) + 1.0); }

    void emitRect(std::size_t lane, std::size_t i, const LaneItem& row, double minWidth)
    {
        const double x0 = clipX(vp.toX(s.start(lane, i))), x1 = clipX(vp.toX(s.end(lane, i)));
        DrawRect r;
        r.x = x0;
        r.y = row.y;
        r.w = std::max(x1 - x0, minWidth);
        r.h = row.h;
        r.kind = s.kind(lane, i);
        r.style = s.style(lane, i);
        r.lane = std::uint32_t(lane);
        r.end = s.end(lane, i);
        r.span = std::uint32_t(i);
        s.describe(lane, i, r);
        out.rects.push_back(r);
        // The label goes in the visible part of the item.
        const double v0 = std::max(x0, 0.0), v1 = std::min(x1, double(vp.widthPx));
        if (row.h >= g.minLabelHeight && v1 - v0 > g.charWidth + 2 * g.labelPadding) {
            std::string text = s.label(lane, i, v1 - v0);
            if (!text.empty())
                out.labels.push_back({ v0, row.y, v1 - v0, row.h, std::move(text), r.kind, r.flags, r.style, r.end });
        }
    }

    void emitFold(std::size_t lane, std::size_t first, std::size_t last, double start, double end, const LaneItem& row)
    {
        // The two (style, kind) pairs with the most time, from at most 8 evenly spaced runs of 4 consecutive items:
        // bounded work per block (the runs are far apart in memory), and runs rather than single items so a
        // periodic order (F B F B, F I W) is not aliased into one kind. Equal weights go to the smaller key.
        constexpr std::size_t kKinds = 16;
        std::array<std::pair<std::size_t, double>, 32> weight {}; // (key, seconds), keys as met
        std::size_t keys = 0;
        const std::size_t count = last - first;
        const std::size_t runs = std::min<std::size_t>((count + 3) / 4, 8);
        double sampledSeconds = 0;
        std::size_t sampled = 0;
        for (std::size_t k = 0; k < runs; ++k) {
            const std::size_t from = first + k * count / runs;
            for (std::size_t i = from; i < std::min(from + 4, last); ++i) {
                const double d = s.end(lane, i) - s.start(lane, i);
                const std::size_t key = (std::size_t(s.style(lane, i)) % 16) * kKinds + std::size_t(s.kind(lane, i)) % kKinds;
                std::size_t w = 0;
                while (w < keys && weight[w].first != key) ++w;
                if (w == keys) weight[keys++] = { key, 0.0 };
                weight[w].second += std::max(d, 1e-300);
                sampledSeconds += d;
                ++sampled;
            }
        }
        auto heavier = [&](std::size_t a, std::size_t b) {
            return weight[a].second > weight[b].second || (weight[a].second == weight[b].second && weight[a].first < weight[b].first);
        };
        std::size_t top = 0;
        for (std::size_t w = 1; w < keys; ++w)
            if (heavier(w, top)) top = w;
        std::size_t second = top;
        for (std::size_t w = 0; w < keys; ++w)
            if (w != top && (second == top || heavier(w, second))) second = w;

        FoldedBlock b;
        b.x = clipX(vp.toX(start));
        b.w = std::max(clipX(vp.toX(end)) - b.x, 1.0);
        b.y = row.y;
        b.h = row.h;
        b.count = std::uint32_t(count);
        b.style = std::uint8_t(weight[top].first / kKinds);
        b.kind = SpanKind(weight[top].first % kKinds);
        b.style2 = std::uint8_t(weight[second].first / kKinds);
        b.kind2 = SpanKind(weight[second].first % kKinds);
        b.firstSpan = first;
        b.lane = std::uint32_t(lane);
        b.stream = row.stream;
        b.end = end;
        b.busy = end > start && sampled > 0
            ? std::clamp(sampledSeconds / double(sampled) * double(count) / (end - start), 0.0, 1.0)
            : 1.0;
        b.flags = s.foldFlags(lane, end);
        out.folds.push_back(b);
    }

    // The lane's runs in the window. Returns the visible range, for callers that add to it.
    template <class Gap> std::pair<std::size_t, std::size_t> lane(const LaneItem& row, Gap&& onGap)
    {
        const std::size_t lane = row.lane;
        const auto [first, last] = visibleRange(s, idx, lane, vp.start, vp.end);
        const double minSeconds = g.minSpanPx * vp.secondsPerPixel();
        double covered = first > 0 ? idx.maxEndUpTo(lane, first - 1) : 0.0;
        foldRuns(s, idx, lane, first, last, vp.start, minSeconds, [&](std::size_t from, std::size_t to, double start, double end) {
            onGap(covered, start);
            if (to - from == 1) emitRect(lane, from, row, end - start >= minSeconds ? 0.0 : 1.0);
            else emitFold(lane, from, to, start, end, row);
            covered = std::max(covered, end);
        });
        onGap(covered, last < s.size(lane) ? s.start(lane, last) : std::numeric_limits<double>::infinity());
        return { first, last };
    }

    std::pair<std::size_t, std::size_t> lane(const LaneItem& row)
    {
        return lane(row, [](double, double) {});
    }

private:
    const Source& s;
    const LaneIndex& idx;
    const TimeViewport& vp;
    const LaneMetrics& g;
    DrawList& out;
};

// Lays out every lane of rows (content y, any order of y) that meets [scrollY, scrollY + viewHeight]; the
// DrawList's y are then relative to scrollY.
template <class Source>
DrawList layoutLanes(const Source& source, const LaneIndex& index, const std::vector<LaneItem>& rows,
    const TimeViewport& viewport, const LaneMetrics& metrics)
{
    DrawList out;
    for (const LaneItem& r : rows) out.contentHeight = std::max(out.contentHeight, r.y + r.h);
    if (viewport.widthPx <= 0 || !(viewport.end > viewport.start)) return out;
    LaneLayout<Source> layout(source, index, viewport, metrics, out);
    for (LaneItem row : rows) {
        if (row.y + row.h <= metrics.scrollY || row.y >= metrics.scrollY + metrics.viewHeight) continue;
        row.y -= metrics.scrollY;
        out.lanes.push_back(row);
        layout.lane(row);
    }
    return out;
}

// The item of one lane under time t, within tol seconds, or -1: a binary search to the last item starting by
// t + tol, then back while the running maximum of ends can still reach t - tol. An item holding t wins (the
// latest-starting one), else the nearest; at most maxSteps items are looked at.
template <class Source>
long long hitLane(const Source& s, const LaneIndex& index, std::size_t lane, double t, double tol, std::size_t maxSteps = 4096)
{
    std::size_t i = partitionIndex(0, s.size(lane), [&](std::size_t k) { return s.start(lane, k) <= t + tol; });
    long long best = -1;
    double bestDistance = tol;
    for (std::size_t n = 0; i > 0 && n < maxSteps; ++n) {
        --i;
        if (index.maxEndUpTo(lane, i) < t - tol) break; // nothing here or earlier reaches t - tol
        const double a = s.start(lane, i), b = s.end(lane, i);
        const double d = t < a ? a - t : (t > b ? t - b : 0.0);
        if (d == 0) return (long long)i;
        if (d < bestDistance || (best >= 0 && d == bestDistance)) {
            best = (long long)i;
            bestDistance = d;
        }
    }
    return best;
}

} // namespace engine

} // namespace planscope
