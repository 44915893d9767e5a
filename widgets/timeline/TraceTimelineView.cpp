#include "timeline/TraceTimelineView.h"

#include "Palette.h"
#include "Theme.h"
#include "timeline/DrawListPaint.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePalette.h"
#include "document/TraceSet.h"
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

// An axis label as precise as the tick step: in the unit of the window's largest time (s, ms, us as
// units::formatSeconds writes them), with the decimals the step needs, so ticks 100 us apart at 1.6 s read
// 1.6312 s, 1.6313 s.
QString axisLabel(double t, double step, double magnitude)
{
    double scale = 1;
    QString unit = QStringLiteral("s");
    if (magnitude < 1e-3) {
        scale = 1e6;
        unit = QStringLiteral("us");
    } else if (magnitude < 1) {
        scale = 1e3;
        unit = QStringLiteral("ms");
    }
    const int decimals = std::clamp(int(std::ceil(-std::log10(step * scale) - 1e-9)), 0, 9);
    return QStringLiteral("%1 %2").arg(t * scale, 0, 'f', decimals).arg(unit);
}
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
    m_hover = {};
    if (m_traces && m_overlay) m_rows = buildTraceRows(m_traces->ranks, *m_overlay, m_predicted.get(), m_showCpu);
    m_lanes = traceRowLanes(m_rows);
    m_index = LaneIndex(lanes());
    m_layoutValid = false;
    updateScroll();
    update();
}

TraceLanes TraceTimelineView::lanes() const
{
    return TraceLanes { m_rows, m_traces ? &m_traces->ranks : nullptr, m_predicted.get(), m_metrics };
}

void TraceTimelineView::layoutNow()
{
    const QRect area = timeArea();
    m_viewport.widthPx = std::max(1, area.width());
    const QFontMetricsF fm(font());
    m_metrics.scrollY = m_scroll->value();
    m_metrics.viewHeight = area.height();
    m_metrics.minSpanPx = 2;
    m_metrics.charWidth = fm.averageCharWidth();
    m_metrics.labelPadding = 3;
    m_metrics.minLabelHeight = 12;
    if (m_layoutValid && m_viewport == m_laidOutViewport && m_metrics == m_laidOutMetrics) return;
    m_draw = engine::layoutLanes(lanes(), m_index, m_lanes, m_viewport, m_metrics);
    m_laidOutViewport = m_viewport;
    m_laidOutMetrics = m_metrics;
    m_layoutValid = true;
    ++m_layoutCount;
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

void TraceTimelineView::setRange(double start, double end)
{
    if (!(end > start)) return;
    m_viewport.start = start;
    m_viewport.end = end;
    m_viewport.widthPx = std::max(1, timeArea().width());
    update();
}

QRect TraceTimelineView::timeArea() const
{
    return QRect(kHeaderWidth, kAxisHeight, std::max(1, width() - kHeaderWidth - m_scroll->sizeHint().width()),
        std::max(1, height() - kAxisHeight));
}

double TraceTimelineView::contentHeight() const
{
    return m_lanes.empty() ? 0 : m_lanes.back().y + m_lanes.back().h + 4;
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
    return colorOf(item.color, item.kind);
}

QColor TraceTimelineView::colorOf(TraceColor color, SpanKind kind)
{
    switch (color) {
    case TraceColor::Compute: return Theme::pick(QColor(0x4A, 0x5D, 0x73), QColor(0x8A, 0xA0, 0xB8));
    case TraceColor::Memcpy: return palette::yellow();
    case TraceColor::Collective: return palette::bluishGreen();
    case TraceColor::SendRecv: return palette::skyBlue();
    case TraceColor::Cpu: return Theme::pick(QColor(0xB8, 0xB8, 0xB8), QColor(0x5C, 0x5C, 0x5C));
    case TraceColor::Annotation: return Theme::pick(QColor(0xC9, 0xC2, 0xD9), QColor(0x6A, 0x62, 0x80));
    case TraceColor::Predicted:
    case TraceColor::Phase: return TimelinePalette::color(kind);
    }
    return palette::grey();
}

void TraceTimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Theme::background());
    const QRect area = timeArea();
    const QFontMetrics fm(font());

    if (m_rows.empty()) {
        p.setPen(Theme::mutedText());
        p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No measured lanes. Open or drop PyTorch profiler traces (.json, .json.gz, or a folder with one file per rank)."));
        return;
    }

    layoutNow();
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
        const double magnitude = std::max(std::abs(m_viewport.start), std::abs(m_viewport.end));
        const QString label = axisLabel(std::abs(t) < step * 1e-6 ? 0.0 : t, step, magnitude); // no "-0" at the origin
        const int w = fm.horizontalAdvance(label);
        if (x - w / 2 < area.left() || x + w / 2 > area.right()) continue;
        p.drawText(QRectF(x - w / 2.0 - 2, 2, w + 4, kAxisHeight - 4), Qt::AlignCenter, label);
    }

    p.save();
    p.setClipRect(QRect(0, area.top(), width(), area.height()));
    // Lane backgrounds (predicted rows on the page's background, measured ones on a surface), rank separators.
    for (const LaneItem& lane : m_draw.lanes) {
        const double y = area.top() + lane.y;
        if (lane.firstOfRank && lane.lane > 0) {
            p.setPen(Theme::separator());
            p.drawLine(QLineF(0, y - 4.5, width(), y - 4.5));
        }
        p.fillRect(QRectF(area.left(), y, area.width(), lane.h), m_rows[lane.lane].ghost() ? Theme::background() : Theme::surface());
    }
    paintItems(p, area);
    // The predicted span of the hovered PP: action, outlined on its rank's predicted rows.
    if (m_hover.row >= 0 && m_overlay) {
        const TraceItem& it = m_rows[std::size_t(m_hover.row)].items[std::size_t(m_hover.item)];
        if (it.match >= 0) {
            const OpDelta& op = m_overlay->ops[std::size_t(it.match)];
            const double x0 = m_viewport.toX(double(op.predictedStartNs) * 1e-9);
            const double x1 = m_viewport.toX(double(op.predictedStartNs + op.predictedNs) * 1e-9);
            p.setPen(QPen(Theme::outline(), 2));
            p.setBrush(Qt::NoBrush);
            for (const LaneItem& lane : m_draw.lanes) {
                const TraceRow& row = m_rows[lane.lane];
                if (row.ghost() && row.overlayRank == op.overlayRank)
                    p.drawRect(QRectF(area.left() + x0, area.top() + lane.y, x1 - x0, lane.h));
            }
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
    for (const LaneItem& lane : m_draw.lanes) {
        const TraceRow& row = m_rows[lane.lane];
        const double y = area.top() + lane.y, h = lane.h;
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

void TraceTimelineView::paintItems(QPainter& p, const QRect& area)
{
    p.save();
    p.translate(area.topLeft());
    p.setClipRect(QRect(0, 0, area.width(), area.height()));
    p.setPen(Qt::NoPen);
    // Batched by colour: measured items filled, predicted ones (ghosts) translucent and outlined.
    for (auto& bucket : m_buckets) bucket.clear();
    auto bucketOf = [](std::uint8_t style, SpanKind kind, std::uint8_t flags) {
        return ((std::size_t(style) % 16) * 16 + std::size_t(kind) % 16) * 2 + ((flags & DrawGhost) ? 1 : 0);
    };
    for (const DrawRect& r : m_draw.rects) m_buckets[bucketOf(r.style, r.kind, r.flags)].push_back(insetRect(r.x, r.y, r.w, r.h));
    // Folded blocks at full height (a measured row has no idle hatching to fill the rest), the commonest colour
    // over the second.
    for (FoldedBlock b : m_draw.folds) {
        b.busy = 1;
        const FoldRects f = foldRects(b);
        m_buckets[bucketOf(b.style, b.kind, b.flags)].push_back(f.top);
        m_buckets[bucketOf(b.style2, b.kind2, b.flags)].push_back(f.bottom);
    }
    for (std::size_t k = 0; k < m_buckets.size(); ++k) {
        QVector<QRectF>& rects = m_buckets[k];
        if (rects.isEmpty()) continue;
        const QColor c = colorOf(TraceColor(k / 32), SpanKind(k / 2 % 16));
        if (k % 2 == 0) {
            p.setBrush(c);
            p.drawRects(rects.constData(), int(rects.size()));
            continue;
        }
        QColor fill = c;
        fill.setAlpha(90);
        p.setBrush(fill);
        p.drawRects(rects.constData(), int(rects.size()));
        for (QRectF& r : rects) r.adjust(0.5, 0.5, -0.5, -0.5);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(c, 1));
        p.drawRects(rects.constData(), int(rects.size()));
        p.setPen(Qt::NoPen);
    }
    // Names where they fit (the engine cut them by the average character width; long ones are elided exactly).
    const QFontMetricsF fm(font());
    for (const LabelItem& l : m_draw.labels) {
        const bool ghost = l.flags & DrawGhost;
        const QRectF r(l.x + m_metrics.labelPadding, l.y, l.w - 2 * m_metrics.labelPadding, l.h);
        QString text = QString::fromUtf8(l.text.data(), qsizetype(l.text.size()));
        if (fm.horizontalAdvance(text) > r.width()) text = fm.elidedText(text, Qt::ElideRight, r.width());
        if (text.isEmpty()) continue;
        p.setPen(ghost ? Theme::text() : Theme::textOn(colorOf(TraceColor(l.style), l.kind)));
        p.drawText(r, Qt::AlignVCenter | (ghost ? Qt::AlignHCenter : Qt::AlignLeft), text);
    }
    p.restore();
}

TraceTimelineView::Hit TraceTimelineView::hitAt(QPoint pos) const
{
    const QRect area = timeArea();
    if (!area.contains(pos) || m_viewport.widthPx <= 0) return {};
    const long long row = laneAt(m_lanes, pos.y() - area.top() + m_scroll->value());
    if (row < 0) return {};
    const long long item = engine::hitLane(lanes(), m_index, std::size_t(row), m_viewport.toTime(pos.x() - area.left()),
        2 * m_viewport.secondsPerPixel());
    return item < 0 ? Hit {} : Hit { int(row), int(item) };
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
