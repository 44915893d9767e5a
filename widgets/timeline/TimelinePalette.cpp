#include "timeline/TimelinePalette.h"

#include "Palette.h"
#include "Theme.h"

#include <QPaintEngine>
#include <QPainter>
#include <QVector>
#include <algorithm>

namespace planscope {

namespace {
QColor mix(const QColor& a, const QColor& b, double t)
{
    return Theme::mix(a, b, t);
}
} // namespace

QColor TimelinePalette::bubbleHatch()
{
    return Theme::hatch();
}
QColor TimelinePalette::background()
{
    return Theme::background();
}
QColor TimelinePalette::laneBackground()
{
    return Theme::surface();
}
QColor TimelinePalette::playhead()
{
    return Theme::playhead();
}
QColor TimelinePalette::selectionOutline()
{
    return Theme::outline();
}

QColor TimelinePalette::color(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Forward:
        return palette::blue();
    case SpanKind::Backward:
        return palette::vermillion();
    case SpanKind::InputGrad:
        return QColor(0xA3, 0x48, 0x00); // vermillion, darker
    case SpanKind::WeightGrad:
        return QColor(0xF2, 0xA8, 0x6F); // vermillion, lighter
    case SpanKind::OverlapFB:
        return palette::reddishPurple();
    case SpanKind::SendActivation:
        return palette::skyBlue();
    case SpanKind::SendGradient:
        return palette::orange();
    case SpanKind::GradReduce:
        return palette::bluishGreen();
    case SpanKind::ParamGather:
        return QColor(0x86, 0xD3, 0xBD); // bluish green, lighter
    case SpanKind::OptimizerStep:
        // Dark grey on light lanes, light grey on dark ones: the one kind whose colour follows the theme, since no
        // grey reads on both.
        return Theme::pick(QColor(0x4D, 0x4D, 0x4D), QColor(0xB8, 0xB8, 0xB8));
    }
    return palette::grey();
}

QColor TimelinePalette::textColor(SpanKind kind)
{
    const QColor c = color(kind);
    const double luminance = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
    return luminance < 0.45 ? QColor(Qt::white) : QColor(Qt::black);
}

QColor TimelinePalette::pendingColor(SpanKind kind)
{
    // The kind's colour with nearly all of its saturation taken out, halfway to the background: a light grey on
    // light lanes, a dark grey on dark ones, with a trace of the kind's hue.
    const QColor c = color(kind).toHsl();
    const QColor grey = QColor::fromHslF(c.hslHueF() < 0 ? 0 : c.hslHueF(), c.hslSaturationF() * 0.12, c.lightnessF());
    return mix(grey, background(), Theme::isDark() ? 0.55 : 0.6);
}

QColor TimelinePalette::pendingOutline(SpanKind kind)
{
    return color(kind);
}

QColor TimelinePalette::dimmedColor(SpanKind kind)
{
    const QColor grey = Theme::isDark() ? QColor(0x60, 0x60, 0x60) : QColor(0xB0, 0xB0, 0xB0);
    return mix(mix(color(kind), grey, 0.5), background(), 0.7);
}

void TimelinePalette::hatch(QPainter& painter, const QRectF* rects, int count)
{
    if (count <= 0) return;
    const QPaintEngine* engine = painter.paintEngine();
    const bool vector
        = engine && (engine->type() == QPaintEngine::SVG || engine->type() == QPaintEngine::Pdf);
    if (!vector) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(bubbleBrush());
        painter.drawRects(rects, count);
        return;
    }
    // Lines up and to the right every 8 px, as Qt::BDiagPattern, clipped to each rectangle by hand.
    QVector<QLineF> lines;
    for (int i = 0; i < count; ++i) {
        const QRectF& r = rects[i];
        const double h = r.height();
        for (double k = std::floor((r.left() - h) / 8) * 8; k < r.right(); k += 8) {
            const double t0 = std::max(0.0, r.left() - k), t1 = std::min(h, r.right() - k);
            if (t1 > t0) lines.push_back(QLineF(k + t0, r.bottom() - t0, k + t1, r.bottom() - t1));
        }
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(bubbleHatch(), 0.8));
    painter.drawLines(lines.constData(), int(lines.size()));
}

QString TimelinePalette::name(SpanKind kind)
{
    switch (kind) {
    case SpanKind::Forward:
        return tr("forward");
    case SpanKind::Backward:
        return tr("backward");
    case SpanKind::InputGrad:
        return tr("input-grad");
    case SpanKind::WeightGrad:
        return tr("weight-grad");
    case SpanKind::OverlapFB:
        return tr("F&B overlapped");
    case SpanKind::SendActivation:
        return tr("send activation");
    case SpanKind::SendGradient:
        return tr("send gradient");
    case SpanKind::GradReduce:
        return tr("gradient reduction");
    case SpanKind::ParamGather:
        return tr("parameter all-gather");
    case SpanKind::OptimizerStep:
        return tr("optimizer");
    }
    return QString();
}

QString TimelinePalette::shortName(SpanKind kind)
{
    switch (kind) {
    case SpanKind::GradReduce:
        return tr("grad reduce");
    case SpanKind::ParamGather:
        return tr("all-gather");
    case SpanKind::OptimizerStep:
        return tr("optimizer");
    default:
        return name(kind);
    }
}

QString TimelinePalette::streamName(Stream stream)
{
    switch (stream) {
    case Stream::Compute:
        return tr("compute");
    case Stream::P2P:
        return tr("p2p");
    case Stream::DataParallel:
        return tr("data parallel");
    case Stream::ZeroGather:
        return tr("ZeRO-3 gather");
    case Stream::Optimizer:
        return tr("optimizer");
    }
    return QString();
}

} // namespace planscope
