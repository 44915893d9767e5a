#include "TraceTimelineView.h"

#include "Palette.h"
#include "Theme.h"
#include "timeline/TimelinePalette.h"
#include "TraceSet.h"
#include "cost/Collective.h"
#include "trace/TraceAnalysis.h"
#include "util/Units.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace planscope {

namespace {
constexpr int kHeaderWidth = 190;
constexpr int kAxisHeight = 24;

QString ms(double seconds) { return QString::fromStdString(units::formatSeconds(seconds)); }
QString signedMs(double seconds) { return QString::fromStdString(units::formatSignedSeconds(seconds)); }
} // namespace

TraceTimelineView::TraceTimelineView(QWidget* parent) : QWidget(parent), m_scroll(new QScrollBar(Qt::Vertical, this))
{
    setMouseTracking(true);
    setMinimumSize(420, 200);
    setFocusPolicy(Qt::StrongFocus);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(Theme::instance(), &Theme::changed, this, qOverload<>(&QWidget::update));
}

void TraceTimelineView::setData(std::shared_ptr<const TraceImport> traces, std::shared_ptr<const Overlay> overlay,
    std::shared_ptr<const Timeline> predicted)
{
    const bool fresh = traces != m_traces;
    m_traces = std::move(traces);
    m_overlay = std::move(overlay);
    m_predicted = std::move(predicted);
    rebuild();
    if (fresh || m_viewport.end <= m_viewport.start) zoomToFit();
}

void TraceTimelineView::setShowCpu(bool show)
{
    if (show == m_showCpu) return;
    m_showCpu = show;
    rebuild();
}

void TraceTimelineView::rebuild()
{
    m_rows.clear();
    m_rowY.clear();
    m_hover = {};
    if (m_traces && m_overlay) m_rows = buildTraceRows(m_traces->ranks, *m_overlay, m_predicted.get(), m_showCpu);
    double y = 0;
    for (const TraceRow& r : m_rows) {
        if (r.firstOfRank) y += 8;
        m_rowY.push_back(y);
        y += rowHeight(r) + 1;
    }
    updateScroll();
    update();
}

void TraceTimelineView::zoomToFit()
{
    // The aligned step: the longer of the predicted and the measured windows, with a margin either side.
    double window = 0;
    if (m_overlay)
        for (const OverlayRank& o : m_overlay->ranks)
            window = std::max({ window, double(o.measured.windowNs) * 1e-9, double(o.predicted.windowNs) * 1e-9 });
    if (window <= 0) window = 1e-3;
    m_viewport.start = -0.03 * window;
    m_viewport.end = 1.03 * window;
    m_viewport.widthPx = std::max(1, timeArea().width());
    update();
}

QRect TraceTimelineView::timeArea() const
{
    return QRect(kHeaderWidth, kAxisHeight, std::max(1, width() - kHeaderWidth - m_scroll->sizeHint().width()),
        std::max(1, height() - kAxisHeight));
}

double TraceTimelineView::rowHeight(const TraceRow& row) const
{
    switch (row.kind) {
    case TraceRow::PredictedCompute: return 16;
    case TraceRow::PredictedComm: return 10;
    case TraceRow::Annotations: return 12;
    case TraceRow::GpuStream: return 18;
    case TraceRow::CpuThread: return 9;
    }
    return 12;
}

double TraceTimelineView::contentHeight() const
{
    return m_rows.empty() ? 0 : m_rowY.back() + rowHeight(m_rows.back()) + 4;
}

int TraceTimelineView::preferredHeight() const { return kAxisHeight + int(std::ceil(contentHeight())) + 8; }

void TraceTimelineView::updateScroll()
{
    const int page = timeArea().height();
    m_scroll->setGeometry(width() - m_scroll->sizeHint().width(), kAxisHeight, m_scroll->sizeHint().width(), page);
    m_scroll->setRange(0, std::max(0, int(std::ceil(contentHeight())) - page));
    m_scroll->setPageStep(page);
    m_scroll->setSingleStep(18);
}

void TraceTimelineView::resizeEvent(QResizeEvent*)
{
    m_viewport.widthPx = std::max(1, timeArea().width());
    updateScroll();
}

QString TraceTimelineView::rowLabel(const TraceRow& row) const
{
    switch (row.kind) {
    case TraceRow::PredictedCompute: return tr("predicted");
    case TraceRow::PredictedComm: return tr("predicted comm.");
    case TraceRow::Annotations: return row.depth == 0 ? tr("annotations") : QString();
    case TraceRow::GpuStream: return tr("stream %1").arg(row.tid);
    case TraceRow::CpuThread: return row.depth == 0 ? tr("thread %1").arg(row.tid) : QString();
    }
    return {};
}

QColor TraceTimelineView::colorOf(const TraceItem& item)
{
    switch (item.color) {
    case TraceColor::Compute: return Theme::pick(QColor(0x4A, 0x5D, 0x73), QColor(0x8A, 0xA0, 0xB8));
    case TraceColor::Memcpy: return palette::yellow();
    case TraceColor::Collective: return palette::bluishGreen();
    case TraceColor::SendRecv: return palette::skyBlue();
    case TraceColor::Cpu: return Theme::pick(QColor(0xB8, 0xB8, 0xB8), QColor(0x5C, 0x5C, 0x5C));
    case TraceColor::Annotation: return Theme::pick(QColor(0xC9, 0xC2, 0xD9), QColor(0x6A, 0x62, 0x80));
    case TraceColor::Predicted:
    case TraceColor::Phase: return TimelinePalette::color(item.kind);
    }
    return palette::grey();
}

void TraceTimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Theme::background());
    const QRect area = timeArea();
    m_viewport.widthPx = std::max(1, area.width());
    const QFontMetrics fm(font());

    if (m_rows.empty()) {
        p.setPen(Theme::mutedText());
        p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No measured lanes. Open or drop PyTorch profiler traces (.json, .json.gz, or a folder with one file per rank)."));
        return;
    }

    // Axis: ms from the origin, grid lines through the lanes, the origin marked.
    double step = 0;
    const std::vector<double> ticks = axisTicks(m_viewport, 90, &step);
    p.setPen(Theme::gridLine());
    for (double t : ticks) {
        const double x = area.left() + std::round(m_viewport.toX(t)) + 0.5;
        p.drawLine(QLineF(x, area.top(), x, area.bottom()));
    }
    p.setPen(Theme::text());
    for (double t : ticks) {
        const double x = area.left() + std::round(m_viewport.toX(t));
        const QString label = ms(std::abs(t) < step * 1e-6 ? 0.0 : t); // no "-0.00 us" at the origin
        const int w = fm.horizontalAdvance(label);
        if (x - w / 2 < area.left() || x + w / 2 > area.right()) continue;
        p.drawText(QRectF(x - w / 2.0 - 2, 2, w + 4, kAxisHeight - 4), Qt::AlignCenter, label);
    }

    const double scroll = m_scroll->value();
    p.save();
    p.setClipRect(QRect(0, area.top(), width(), area.height()));
    const std::int64_t viewStart = std::llround(m_viewport.start * 1e9), viewEnd = std::llround(m_viewport.end * 1e9);
    const double nsPerPx = (m_viewport.end - m_viewport.start) * 1e9 / double(m_viewport.widthPx);
    const OpDelta* hoverOp = nullptr;
    if (m_hover.row >= 0 && m_overlay) {
        const TraceItem& it = m_rows[std::size_t(m_hover.row)].items[std::size_t(m_hover.item)];
        if (it.match >= 0) hoverOp = &m_overlay->ops[std::size_t(it.match)];
    }
    for (std::size_t ri = 0; ri < m_rows.size(); ++ri) {
        const TraceRow& row = m_rows[ri];
        const double y = area.top() + m_rowY[ri] - scroll, h = rowHeight(row);
        if (y + h < area.top() || y > area.bottom()) continue;
        if (row.firstOfRank && ri > 0) {
            p.setPen(Theme::separator());
            p.drawLine(QLineF(0, y - 4.5, width(), y - 4.5));
        }
        const bool ghost = row.kind == TraceRow::PredictedCompute || row.kind == TraceRow::PredictedComm;
        p.fillRect(QRectF(area.left(), y, area.width(), h), ghost ? Theme::background() : Theme::surface());
        // Items in view, narrow neighbours of one colour merged into one pixel-wide bar.
        auto first = std::lower_bound(row.items.begin(), row.items.end(), viewStart - row.maxDuration,
            [](const TraceItem& it, std::int64_t t) { return it.start < t; });
        QRectF pending;
        QColor pendingColor;
        auto flush = [&] {
            if (pending.isNull()) return;
            if (ghost) {
                QColor fill = pendingColor;
                fill.setAlpha(90);
                p.fillRect(pending, fill);
                p.setPen(QPen(pendingColor, 1));
                p.drawRect(pending.adjusted(0.5, 0.5, -0.5, -0.5));
            } else {
                p.fillRect(pending, pendingColor);
            }
            pending = QRectF();
        };
        for (auto it = first; it != row.items.end() && it->start <= viewEnd; ++it) {
            if (it->end < viewStart) continue;
            const double x0 = area.left() + double(it->start - viewStart) / nsPerPx;
            const double x1 = area.left() + double(it->end - viewStart) / nsPerPx;
            const QColor c = colorOf(*it);
            const QRectF r(std::max(x0, double(area.left()) - 1), y, std::max(1.0, std::min(x1, double(area.right()) + 1) - std::max(x0, double(area.left()) - 1)), h);
            if (!pending.isNull() && c == pendingColor && r.left() <= pending.right() + 0.5 && x1 - x0 < 2) {
                pending.setRight(std::max(pending.right(), r.right()));
                continue;
            }
            flush();
            pending = r;
            pendingColor = c;
            // Wide enough for a label: the action or kernel name.
            if (x1 - x0 > 40 && !ghost && h >= 12 && m_traces) {
                flush();
                const MeasuredRank& rank = m_traces->ranks[row.rankIndex];
                const QString name = QString::fromUtf8(rank.nameOf(rank.eventList[it->index]));
                p.setPen(Theme::textOn(c));
                p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(name, Qt::ElideRight, int(r.width()) - 6));
            } else if (x1 - x0 > 28 && ghost && h >= 14 && m_predicted) {
                flush();
                const std::string action = pipelineActionText(m_predicted->spans[it->index]);
                p.setPen(Theme::text());
                if (!action.empty()) p.drawText(r, Qt::AlignCenter, fm.elidedText(QString::fromStdString(action), Qt::ElideRight, int(r.width()) - 4));
            }
        }
        flush();
        if (hoverOp && ghost && row.overlayRank == hoverOp->overlayRank) {
            const std::int64_t s = hoverOp->predictedStartNs, e = s + hoverOp->predictedNs;
            const QRectF r(area.left() + double(s - viewStart) / nsPerPx, y, double(e - s) / nsPerPx, h);
            p.setPen(QPen(Theme::outline(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
        }
    }
    // The origin: where the aligned step starts on both sides.
    const double x0 = area.left() + m_viewport.toX(0);
    if (x0 >= area.left() && x0 <= area.right()) {
        p.setPen(QPen(Theme::playhead(), 1, Qt::DashLine));
        p.drawLine(QLineF(x0, area.top(), x0, area.bottom()));
    }
    p.restore();

    // Row headers: rank and pipeline rank on a rank's first row, then what each row is.
    p.fillRect(QRect(0, area.top(), kHeaderWidth - 4, area.height()), Theme::background());
    p.setClipRect(QRect(0, area.top(), kHeaderWidth, area.height()));
    for (std::size_t ri = 0; ri < m_rows.size(); ++ri) {
        const TraceRow& row = m_rows[ri];
        const double y = area.top() + m_rowY[ri] - scroll, h = rowHeight(row);
        if (y + h < area.top() || y > area.bottom()) continue;
        QString label = rowLabel(row);
        if (row.firstOfRank && m_overlay) {
            const OverlayRank& o = m_overlay->ranks[row.overlayRank];
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(Theme::text());
            const QString rank = o.rank >= 0 ? tr("rank %1 · PP %2").arg(o.rank).arg(o.pipelineRank) : tr("rank ? · PP %1").arg(o.pipelineRank);
            const int rankWidth = std::min(kHeaderWidth - 16, QFontMetrics(bold).horizontalAdvance(rank));
            p.drawText(QRectF(6, y - 1, rankWidth + 2, h + 2), Qt::AlignVCenter | Qt::AlignLeft,
                QFontMetrics(bold).elidedText(rank, Qt::ElideRight, rankWidth + 2));
            p.setFont(font());
            p.setPen(Theme::mutedText());
            const int left = 14 + rankWidth;
            p.drawText(QRectF(left, y - 1, kHeaderWidth - 6 - left, h + 2), Qt::AlignVCenter | Qt::AlignRight,
                fm.elidedText(label, Qt::ElideRight, kHeaderWidth - 6 - left));
            continue;
        }
        p.setPen(Theme::mutedText());
        p.drawText(QRectF(6, y - 1, kHeaderWidth - 12, h + 2), Qt::AlignVCenter | Qt::AlignRight, fm.elidedText(label, Qt::ElideRight, kHeaderWidth - 12));
    }
}

TraceTimelineView::Hit TraceTimelineView::hitAt(QPoint pos) const
{
    const QRect area = timeArea();
    if (!area.contains(pos)) return {};
    const double y = pos.y() - area.top() + m_scroll->value();
    for (std::size_t ri = 0; ri < m_rows.size(); ++ri) {
        if (y < m_rowY[ri] || y > m_rowY[ri] + rowHeight(m_rows[ri])) continue;
        const TraceRow& row = m_rows[ri];
        const double nsPerPx = (m_viewport.end - m_viewport.start) * 1e9 / double(m_viewport.widthPx);
        const std::int64_t t = std::llround(m_viewport.start * 1e9 + double(pos.x() - area.left()) * nsPerPx);
        const std::int64_t tol = std::llround(2 * nsPerPx);
        Hit best;
        std::int64_t bestDistance = tol + 1;
        auto it = std::lower_bound(row.items.begin(), row.items.end(), t - tol - row.maxDuration,
            [](const TraceItem& a, std::int64_t v) { return a.start < v; });
        for (; it != row.items.end() && it->start <= t + tol; ++it) {
            const std::int64_t d = t < it->start ? it->start - t : (t > it->end ? t - it->end : 0);
            if (d < bestDistance || (d == 0 && bestDistance == 0)) {
                bestDistance = d;
                best = { int(ri), int(it - row.items.begin()) };
            }
        }
        return best;
    }
    return {};
}

QString TraceTimelineView::describeAt(QPoint pos) const
{
    const Hit hit = hitAt(pos);
    if (hit.row < 0) return {};
    const TraceRow& row = m_rows[std::size_t(hit.row)];
    const TraceItem& it = row.items[std::size_t(hit.item)];
    const double start = double(it.start) * 1e-9, dur = double(it.end - it.start) * 1e-9;
    if (row.kind == TraceRow::PredictedCompute || row.kind == TraceRow::PredictedComm) {
        const Span& s = m_predicted->spans[it.index];
        QString text = tr("Predicted %1").arg(TimelinePalette::name(s.kind));
        const std::string action = pipelineActionText(s);
        if (!action.empty()) text += QStringLiteral(" (PP:%1)").arg(QString::fromStdString(action));
        return text + QLatin1Char('\n') + tr("starts %1, lasts %2").arg(ms(start), ms(dur));
    }
    const MeasuredRank& rank = m_traces->ranks[row.rankIndex];
    const MeasuredEvent& e = rank.eventList[it.index];
    QString text = QString::fromUtf8(rank.nameOf(e));
    if (text.size() > 120) text = text.left(117) + QStringLiteral("…");
    text += QLatin1Char('\n') + tr("%1 · starts %2, lasts %3").arg(QString::fromUtf8(toString(e.kind)), ms(start), ms(dur));
    if (e.collective != CollectiveKind::None) {
        text += QLatin1Char('\n') + tr("NCCL %1").arg(QString::fromUtf8(toString(e.collective)));
        // With the trace's collective metadata: the message and this kernel's bandwidth (a lower bound: the
        // kernel's time includes waiting for its peers).
        Collective c = Collective::AllReduce;
        if (e.comm >= 0 && e.durNs > 0 && fromString(toString(e.collective), c)) {
            const CommInfo& info = rank.comms[std::size_t(e.comm)];
            const std::int64_t nelems = c == Collective::AllGather ? info.outMsgNelems : info.inMsgNelems;
            const int size = info.dtype >= 0 ? dtypeSize(rank.names[std::size_t(info.dtype)]) : 0;
            if (nelems >= 0 && size > 0 && info.groupSize > 0) {
                const double bytes = double(nelems) * size, alg = bytes / (double(e.durNs) * 1e-9);
                text += tr(": %1 over %2 ranks, algBw %3 GB/s, busBw %4 GB/s (lower bounds)")
                            .arg(QString::fromStdString(units::formatBytes(bytes)))
                            .arg(info.groupSize)
                            .arg(alg / 1e9, 0, 'f', 2)
                            .arg(alg * busBandwidthFactor(c, int(info.groupSize)) / 1e9, 0, 'f', 2);
            }
        }
    }
    if (it.match >= 0 && m_overlay) {
        const OpDelta& d = m_overlay->ops[std::size_t(it.match)];
        text += QLatin1Char('\n')
            + tr("predicted: starts %1, lasts %2").arg(ms(double(d.predictedStartNs) * 1e-9), ms(double(d.predictedNs) * 1e-9))
            + QLatin1Char('\n')
            + tr("measured − predicted: start %1, duration %2").arg(signedMs(double(d.startDeltaNs()) * 1e-9), signedMs(double(d.durationDeltaNs()) * 1e-9));
    }
    return text;
}

bool TraceTimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = describeAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void TraceTimelineView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ShiftModifier || event->position().x() < kHeaderWidth) {
        m_scroll->setValue(m_scroll->value() - event->angleDelta().y() / 2);
        return;
    }
    zoomAround(event->position().x() - timeArea().left(), std::pow(0.85, event->angleDelta().y() / 120.0));
}

void TraceTimelineView::zoomAround(double x, double factor)
{
    const double t = m_viewport.toTime(x);
    const double span = std::max(1e-9, (m_viewport.end - m_viewport.start) * factor);
    m_viewport.start = t - x / double(m_viewport.widthPx) * span;
    m_viewport.end = m_viewport.start + span;
    update();
}

void TraceTimelineView::keyPressEvent(QKeyEvent* event)
{
    const double pan = (m_viewport.end - m_viewport.start) / 10;
    switch (event->key()) {
    case Qt::Key_F: zoomToFit(); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAround(m_viewport.widthPx / 2.0, 0.8); break;
    case Qt::Key_Minus: zoomAround(m_viewport.widthPx / 2.0, 1.25); break;
    case Qt::Key_Left:
    case Qt::Key_Right:
        m_viewport.start += event->key() == Qt::Key_Left ? -pan : pan;
        m_viewport.end += event->key() == Qt::Key_Left ? -pan : pan;
        update();
        break;
    default: return QWidget::keyPressEvent(event);
    }
    event->accept();
}

void TraceTimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    m_dragging = true;
    m_dragFrom = event->pos();
    m_dragViewport = m_viewport;
}

void TraceTimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging) {
        const double dt = double(event->pos().x() - m_dragFrom.x()) * m_dragViewport.secondsPerPixel();
        m_viewport.start = m_dragViewport.start - dt;
        m_viewport.end = m_dragViewport.end - dt;
        m_scroll->setValue(m_scroll->value() - (event->pos().y() - m_dragFrom.y()));
        m_dragFrom.setY(event->pos().y());
        update();
        return;
    }
    const Hit hit = hitAt(event->pos());
    if (hit.row != m_hover.row || hit.item != m_hover.item) {
        m_hover = hit;
        update();
    }
}

void TraceTimelineView::mouseReleaseEvent(QMouseEvent*) { m_dragging = false; }

void TraceTimelineView::mouseDoubleClickEvent(QMouseEvent*) { zoomToFit(); }

} // namespace planscope
