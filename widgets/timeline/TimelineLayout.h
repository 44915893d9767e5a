// The timeline engine's pure half (docs/ARCHITECTURE.md section 4): layout(timeline, viewport)
// -> DrawList, with no Qt and no widget, so culling, folding, labels and bubbles are tested headless. The
// view only paints what this returns. A frame costs O(lanes x pixels x log spans), never O(spans).
#pragma once

#include "sim/Timeline.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
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

// Per pipeline rank, per stream that has spans (empty sub-lanes are left out), built once per timeline.
struct TimelineLane {
    int rank = 0;
    Stream stream = Stream::Compute;
    std::size_t begin = 0; // [begin, end) into Timeline::spans, sorted by start
    std::size_t end = 0;
    bool operator==(const TimelineLane&) const = default;
};

// Lane ranges and the helpers culling needs. Built once from a Timeline (O(n log n)); layouts then only
// binary-search it.
class TimelineIndex {
public:
    TimelineIndex() = default;
    explicit TimelineIndex(const Timeline& timeline);

    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    // The largest end among spans [lane.begin, i] of i's lane: non-decreasing, so "the first span that can
    // still be visible at t" is a binary search even where spans of one stream overlap (p2p sends).
    double maxEndUpTo(std::size_t spanIndex) const { return m_maxEnd[spanIndex]; }
    // Span indexes of one microbatch in one lane (an OverlapFB span counts for both of its microbatches).
    std::vector<std::size_t> microbatchSpans(std::size_t lane, int microbatch) const;
    // Stages held by a rank, ascending (from the schedule, else from the compute spans).
    const std::vector<int>& stagesOfRank(int rank) const;
    std::size_t spanCount() const { return m_maxEnd.size(); }
    // First span of the lane whose extent can reach t or later (maxEnd > t), as an absolute index.
    std::size_t firstReaching(const TimelineLane& lane, double t) const;
    // First span of the lane starting at or after t.
    std::size_t firstStartingAtOrAfter(const Timeline& timeline, const TimelineLane& lane, double t) const;

private:
    std::vector<TimelineLane> m_lanes;
    std::vector<double> m_maxEnd;
    std::vector<std::vector<std::pair<int, std::uint32_t>>> m_byMicrobatch; // per lane, (microbatch, span)
    std::vector<std::vector<int>> m_stages; // per rank
};

// Heights and spacing in pixels, and what text measures; the view fills it from its font.
struct LaneGeometry {
    double computeHeight = 24;
    double streamHeight = 14; // p2p, data parallel, ZeRO gather, optimizer sub-lanes
    double rankGap = 6; // between the last sub-lane of a rank and the next rank
    double subLaneGap = 1;
    double scrollY = 0; // content y shown at the top of the lane area
    double viewHeight = 1e9; // lanes entirely outside [scrollY, scrollY + viewHeight] are culled
    double minSpanPx = 3; // spans narrower than this fold into counted blocks
    double charWidth = 7; // average advance of a label character
    double labelPadding = 3; // each side
    double minLabelHeight = 0; // lanes lower than this get no labels
    // Names written on spans that have no microbatch (gradient all-reduce, optimizer), UTF-8, by SpanKind.
    std::array<std::string, 10> kindLabels {};
};

// What the user picked and where the playhead stands; both only change flags, never geometry.
struct Selection {
    int microbatch = -1; // -1: nothing selected
    // Spans ending after the playhead are "pending" (drawn faded); +inf: none pending.
    double playhead = std::numeric_limits<double>::infinity();
    bool operator==(const Selection&) const = default;
};

enum DrawFlag : std::uint8_t {
    DrawSelected = 1, // of the selected microbatch
    DrawDimmed = 2, // a microbatch is selected and this is not it
    DrawPending = 4, // ends after the playhead
};

struct DrawRect {
    double x = 0, y = 0, w = 0, h = 0; // time-area pixels; y from the top of the lane content
    SpanKind kind = SpanKind::Forward;
    std::uint8_t flags = 0;
    int microbatch = -1;
    std::uint32_t span = 0; // index into Timeline::spans
};

// Spans too narrow to draw one by one: the block's top half has the commonest kind, the bottom half the
// second commonest (the same when all are alike), so a folded F/B steady state still reads as F and B.
// busy is the share of the block's time its spans cover (estimated from the same samples), so a folded
// stretch that is half idle can be drawn half full instead of as solid work.
struct FoldedBlock {
    double x = 0, y = 0, w = 0, h = 0;
    std::uint32_t count = 0;
    double busy = 1;
    Stream stream = Stream::Compute;
    SpanKind kind = SpanKind::Forward;
    SpanKind kind2 = SpanKind::Forward;
    std::uint8_t flags = 0;
    std::size_t firstSpan = 0;
};

// Idle time of a compute lane between 0 and Timeline::pipelineSeconds.
struct BubbleRect {
    double x = 0, y = 0, w = 0, h = 0;
    double start = 0, end = 0; // seconds
    int rank = 0;
};

struct LabelItem {
    double x = 0, y = 0, w = 0, h = 0; // the span's rect; the text is centred in it
    std::string text; // UTF-8
    SpanKind kind = SpanKind::Forward;
    std::uint8_t flags = 0;
};

struct LaneItem {
    int rank = 0;
    Stream stream = Stream::Compute;
    double y = 0, h = 0;
    bool firstOfRank = false;
    double idleShare = -1; // compute lanes: ranks[rank].idle / pipelineSeconds; else -1
    std::size_t lane = 0; // index into TimelineIndex::lanes()
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

// Lays out the visible part of the timeline. Rect x/w are exact (viewport.toX of start and end, clipped to
// [-1, widthPx + 1]); folded blocks, labels and bubbles follow the rules in the .cpp.
DrawList layoutTimeline(const Timeline& timeline, const TimelineIndex& index, const TimeViewport& viewport,
    const LaneGeometry& geometry, const Selection& selection);
// Convenience for a one-off layout: builds the index first (O(n log n)).
DrawList layoutTimeline(const Timeline& timeline, const TimeViewport& viewport, const LaneGeometry& geometry,
    const Selection& selection);

// y of every lane (visible or not) for the same geometry; index-aligned with TimelineIndex::lanes().
std::vector<LaneItem> laneRows(
    const Timeline& timeline, const TimelineIndex& index, const LaneGeometry& geometry);

// The span under a point of the time area (x, y in DrawList coordinates, y including scrollY), or -1. A
// point within tolerancePx of a span counts; the nearest wins.
long long hitTest(const Timeline& timeline, const TimelineIndex& index, const TimeViewport& viewport,
    const LaneGeometry& geometry, double x, double y, double tolerancePx = 2);

// Tick times for the axis: multiples of 1, 2 or 5 x 10^k, at least minSpacingPx apart. *step gets the step.
std::vector<double> axisTicks(const TimeViewport& viewport, double minSpacingPx, double* step = nullptr);

// Every span start and end, sorted and unique: where "step to the next event" goes.
std::vector<double> spanBoundaries(const Timeline& timeline);
// The boundary strictly after (direction > 0) or before (direction < 0) t; t itself when there is none.
double stepBoundary(const std::vector<double>& boundaries, double t, int direction);

// Display width of UTF-8 text in average characters (East Asian wide characters count two).
double textColumns(const std::string& utf8);

} // namespace planscope
