#include "timeline/TimelineLegend.h"

#include "timeline/TimelinePalette.h"

#include <QEvent>
#include <QPainter>

namespace planscope {

namespace {
constexpr int kSwatch = 14;
constexpr int kGap = 18;
constexpr int kMargin = 6;
} // namespace

TimelineLegend::TimelineLegend(QWidget* parent)
    : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QStringList TimelineLegend::entries() const
{
    QStringList names;
    for (SpanKind kind : TimelinePalette::kinds)
        names << TimelinePalette::name(kind);
    names << tr("bubble (idle)");
    if (m_showPending) names << tr("not yet played (after the playhead)");
    return names;
}

void TimelineLegend::setShowPending(bool show)
{
    if (show == m_showPending) return;
    m_showPending = show;
    updateGeometry();
    update();
}

int TimelineLegend::entryWidth(const QString& name) const
{
    return kSwatch + 5 + fontMetrics().horizontalAdvance(name);
}

int TimelineLegend::place(int width, QList<QPoint>* positions) const
{
    const int line = std::max(kSwatch, fontMetrics().height()) + 4;
    int x = kMargin, y = kMargin;
    for (const QString& name : entries()) {
        const int w = entryWidth(name);
        if (x > kMargin && x + w > width - kMargin) {
            x = kMargin;
            y += line;
        }
        if (positions) positions->push_back(QPoint(x, y));
        x += w + kGap;
    }
    return y + line + kMargin;
}

int TimelineLegend::heightForWidth(int width) const
{
    return place(width, nullptr);
}

QSize TimelineLegend::sizeHint() const
{
    int w = kMargin;
    for (const QString& name : entries())
        w += entryWidth(name) + kGap;
    return QSize(w, place(w, nullptr));
}

QSize TimelineLegend::minimumSizeHint() const
{
    return QSize(200, heightForWidth(200 > width() ? 200 : width()));
}

void TimelineLegend::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    QList<QPoint> positions;
    place(width(), &positions);
    const QStringList names = entries();
    const int line = std::max(kSwatch, fontMetrics().height()) + 4;
    for (int i = 0; i < names.size() && i < positions.size(); ++i) {
        const QPoint at = positions[i];
        const QRect swatch(at.x(), at.y() + (line - 4 - kSwatch) / 2, kSwatch, kSwatch);
        const int kinds = int(TimelinePalette::kinds.size());
        if (i < kinds) {
            p.fillRect(swatch, TimelinePalette::color(TimelinePalette::kinds[std::size_t(i)]));
        } else if (i > kinds) {
            // Pending, drawn as the timeline draws it: a pale fill outlined in the kind's colour (forward here).
            p.fillRect(swatch, TimelinePalette::pendingColor(SpanKind::Forward));
            p.setBrush(Qt::NoBrush);
            p.setPen(TimelinePalette::pendingOutline(SpanKind::Forward));
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        } else {
            p.fillRect(swatch, TimelinePalette::laneBackground());
            const QRectF area(swatch);
            TimelinePalette::hatch(p, &area, 1);
            p.setBrush(Qt::NoBrush);
            p.setPen(TimelinePalette::bubbleHatch());
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(
            QRect(swatch.right() + 6, at.y(), width(), line - 4), Qt::AlignLeft | Qt::AlignVCenter, names[i]);
    }
}

void TimelineLegend::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace planscope
