// The timeline's colours and names, from the one palette (Palette.h):
// forward blue; backward vermillion with input-grad a darker and weight-grad a lighter shade of it; F&B
// overlapped reddish purple; sends sky blue (activations, the forward's
// family) and orange (gradients, the backward's); collectives green (the
// reduction dark, the parameter gather light); the optimizer dark grey. Bubbles are hatched empty space,
// never a fill that looks like work. Other views that show span kinds use these too.
#pragma once

#include "sim/Timeline.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <array>

class QPainter;

namespace planscope {

class TimelinePalette {
    Q_DECLARE_TR_FUNCTIONS(TimelinePalette)
public:
    static constexpr std::array<SpanKind, 10> kinds { SpanKind::Forward, SpanKind::Backward,
        SpanKind::InputGrad, SpanKind::WeightGrad, SpanKind::OverlapFB, SpanKind::SendActivation,
        SpanKind::SendGradient, SpanKind::GradReduce, SpanKind::ParamGather, SpanKind::OptimizerStep };

    static QColor color(SpanKind kind);
    // Black or white, whichever reads better on color(kind).
    static QColor textColor(SpanKind kind);
    // A span that ends after the playhead (not yet done): a pale neutral fill, nearly grey, so it is never taken for
    // a kind of its own (faded blue and faded vermillion would read as send-activation and weight-grad); the view
    // outlines it in pendingOutline(kind), so what it will be stays visible.
    static QColor pendingColor(SpanKind kind);
    static QColor pendingOutline(SpanKind kind);
    // Not the selected microbatch: nearly background, so the selection stands out on every lane.
    static QColor dimmedColor(SpanKind kind);
    // Translated names for the legend and tooltips, e.g. "weight-grad".
    static QString name(SpanKind kind);
    // Short names written on wide spans without a microbatch, e.g. "all-reduce".
    static QString shortName(SpanKind kind);
    static QString streamName(Stream stream);

    // Bubbles: hatch lines on the background, no fill. The chrome below follows the theme (Theme.h).
    static QColor bubbleHatch();
    static QBrush bubbleBrush() { return QBrush(bubbleHatch(), Qt::BDiagPattern); }
    // Hatches the rectangles: the pattern brush on screen and in images; explicit lines in SVG and PDF,
    // where viewers (Qt's own SVG renderer among them) may drop pattern fills. Leaves pen and brush unset.
    static void hatch(QPainter& painter, const QRectF* rects, int count);
    static QColor background();
    static QColor laneBackground();
    static QColor playhead();
    static QColor selectionOutline();
};

} // namespace planscope
