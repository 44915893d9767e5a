// What both timeline views (TimelineView, TraceTimelineView) do alike when they paint the engine's DrawList
// (LaneEngine.h): the 1 px gap between back-to-back items, and a folded block cut into its two colours.
#pragma once

#include "timeline/LaneEngine.h"

#include <QRectF>
#include <algorithm>
#include <cmath>

namespace planscope {

// An item's rect less 1 px at the right (when 4 px wide or more) and at the top and bottom (lanes 8 px high or
// more), so back-to-back items stay apart.
inline QRectF insetRect(double x, double y, double w, double h)
{
    const double dy = h >= 8 ? 1 : 0;
    return QRectF(x, y + dy, w >= 4 ? w - 1 : w, h - 2 * dy);
}

// A folded block filled to its busy share from the bottom (at least 2 px): full is that part, top gets the
// commonest (style, kind) and bottom the second.
struct FoldRects {
    QRectF full, top, bottom;
};
inline FoldRects foldRects(const FoldedBlock& b)
{
    FoldRects f;
    f.full = insetRect(b.x, b.y, b.w, b.h);
    const double filled = std::max(2.0, std::round(f.full.height() * b.busy));
    f.full.setTop(f.full.bottom() - std::min(f.full.height(), filled));
    const double half = std::floor(f.full.height() / 2);
    f.top = QRectF(f.full.x(), f.full.y(), f.full.width(), half);
    f.bottom = QRectF(f.full.x(), f.full.y() + half, f.full.width(), f.full.height() - half);
    return f;
}

} // namespace planscope
