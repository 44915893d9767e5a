// The predicted timeline through the one timeline engine (LaneEngine.h): layout(timeline, viewport) -> DrawList,
// with no Qt and no widget, so culling, folding, labels and bubbles are tested headless. The timeline's spans are
// the engine's lanes (per rank and stream); what is the predicted timeline's own is here: lane heights, idle
// bubbles, microbatch selection, the playhead's pending flag and span labels ("F12"). The view only paints what
// this returns. A frame costs O(lanes x pixels x log spans), never O(spans).
#pragma once

#include "timeline/LaneEngine.h"
#include "sim/TimelineIndex.h"
#include "sim/Timeline.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace planscope {

// Heights and spacing in pixels, and what text measures; the view fills it from its font.
struct LaneGeometry : LaneMetrics {
    double computeHeight = 24;
    double streamHeight = 14; // p2p, data parallel, ZeRO gather, optimizer sub-lanes
    double rankGap = 6; // between the last sub-lane of a rank and the next rank
    double subLaneGap = 1;
    // Names written on spans that have no microbatch (gradient all-reduce, optimizer), UTF-8, by SpanKind.
    std::array<std::string, 10> kindLabels {};
    bool operator==(const LaneGeometry&) const = default;
};

// What the user picked and where the playhead stands; both only change flags, never geometry.
struct Selection {
    int microbatch = -1; // -1: nothing selected
    // Spans ending after the playhead are "pending" (drawn faded); +inf: none pending.
    double playhead = std::numeric_limits<double>::infinity();
    bool operator==(const Selection&) const = default;
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


} // namespace planscope
