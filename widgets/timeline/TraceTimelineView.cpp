#include "timeline/TraceTimelineView.h"

#include "Palette.h"
#include "Theme.h"
#include "timeline/DrawListPaint.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelinePalette.h"
#include "document/TraceSet.h"
#include "document/ViewState.h"
#include "cost/Collective.h"
#include "trace/TraceAnalysis.h"
#include "util/Units.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>

namespace planscope {

namespace {
constexpr int kHeaderWidth = 190;
constexpr double kLabelPadding = 3;

QString ms(double seconds) { return QString::fromStdString(units::formatSeconds(seconds)); }
QString signedMs(double seconds) { return QString::fromStdString(units::formatSignedSeconds(seconds)); }
} // namespace

TraceTimelineView::TraceTimelineView(QWidget* parent) : LaneView(parent)
{
    setMouseTracking(true);
    setMinimumSize(420, 200);
    setColumns(kHeaderWidth, 0);
}

void TraceTimelineView::setData(std::shared_ptr<const TraceImport> traces, std::shared_ptr<const Overlay> overlay,
    std::shared_ptr<const Timeline> predicted)
{
    const bool fresh = traces != m_traces;
    m_traces = std::move(traces);
    m_overlay = std::move(overlay);
    m_predicted = std::move(predicted);
    rebuild();
    if (fresh) zoomToFit();
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
    // Panning and zooming reach every item (CPU work before the origin, a straggler long after the step).
    m_limits = fitRange();
    for (const TraceRow& row : m_rows)
        if (!row.items.empty()) {
            m_limits.start = std::min(m_limits.start, double(row.items.front().start) * 1e-9);
            for (const TraceItem& it : row.items) m_limits.end = std::max(m_limits.end, double(it.end) * 1e-9);
        }
    invalidateLayout();
    relayout();
}

TraceLanes TraceTimelineView::lanes(const LaneMetrics& metrics) const
{
    return TraceLanes { m_rows, m_traces ? &m_traces->ranks : nullptr, m_predicted.get(), metrics };
}

LaneMetrics TraceTimelineView::metricsFor(double scrollY, double viewHeight) const
{
    LaneMetrics m;
    m.scrollY = scrollY;
    m.viewHeight = viewHeight;
    m.minSpanPx = 2;
    m.charWidth = QFontMetricsF(font()).averageCharWidth();
    m.labelPadding = kLabelPadding;
    m.minLabelHeight = 12;
    return m;
}

DrawList TraceTimelineView::layoutLanes(const TimeViewport& viewport, double scrollY, double viewHeight) const
{
    const LaneMetrics metrics = metricsFor(scrollY, viewHeight);
    return engine::layoutLanes(lanes(metrics), m_index, m_lanes, viewport, metrics);
}

LaneView::Range TraceTimelineView::fitRange() const
{
    // The aligned step from its origin: the longer of the predicted and the measured windows. No margin: the view
    // state is the window's, and fitting here is then exactly fitting the predicted timeline wherever the measured
    // step is the shorter (work before the origin is reached by panning, timeLimits()).
    double window = 0;
    if (m_overlay)
        for (const OverlayRank& o : m_overlay->ranks)
            window = std::max({ window, double(o.measured.windowNs) * 1e-9, double(o.predicted.windowNs) * 1e-9 });
    if (window <= 0) window = 1e-3;
    return { 0.0, window };
}

double TraceTimelineView::arrangeLanes(double, bool)
{
    // Rows keep their heights (traceRowHeight): a measured row is read, not squeezed.
    setScrollStep(18);
    return contentHeight();
}

double TraceTimelineView::contentHeight() const
{
    return m_lanes.empty() ? 0 : m_lanes.back().y + m_lanes.back().h + 4;
}

int TraceTimelineView::preferredHeight() const { return axisHeight() + int(std::ceil(contentHeight())) + 8; }

bool TraceTimelineView::playheadShown() const
{
    const double playhead = state().playhead();
    return state().isPlaying() || (playhead > 0 && playhead < state().duration());
}

QString TraceTimelineView::emptyText() const
{
    return tr("No measured lanes. Open or drop PyTorch profiler traces (.json, .json.gz, or a folder with one file per rank).");
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

void TraceTimelineView::paintLanes(QPainter& p, const QRect& area)
{
    const DrawList& draw = drawList();
    p.save();
    p.setClipRect(area);
    p.translate(area.topLeft());
    // Lane backgrounds (predicted rows on the page's background, measured ones on a surface), the grid, rank
    // separators.
    for (const LaneItem& lane : draw.lanes)
        p.fillRect(QRectF(0, lane.y, area.width(), lane.h), m_rows[lane.lane].ghost() ? Theme::background() : Theme::surface());
    paintGrid(p, area);
    p.restore();
    paintItems(p, area);
    p.save();
    p.setClipRect(area);
    p.translate(area.topLeft());
    // The predicted span of the hovered PP: action, outlined on its rank's predicted rows.
    if (m_hover.row >= 0 && m_overlay) {
        const TraceItem& it = m_rows[std::size_t(m_hover.row)].items[std::size_t(m_hover.item)];
        if (it.match >= 0) {
            const OpDelta& op = m_overlay->ops[std::size_t(it.match)];
            const double x0 = viewport().toX(double(op.predictedStartNs) * 1e-9);
            const double x1 = viewport().toX(double(op.predictedStartNs + op.predictedNs) * 1e-9);
            p.setPen(QPen(Theme::outline(), 2));
            p.setBrush(Qt::NoBrush);
            for (const LaneItem& lane : draw.lanes) {
                const TraceRow& row = m_rows[lane.lane];
                if (row.ghost() && row.overlayRank == op.overlayRank) p.drawRect(QRectF(x0, lane.y, x1 - x0, lane.h));
            }
        }
    }
    // The origin: where the aligned step starts on both sides.
    const double x0 = viewport().toX(0);
    if (x0 >= 0 && x0 <= area.width()) {
        p.setPen(QPen(Theme::playhead(), 1, Qt::DashLine));
        p.drawLine(QLineF(x0, 0, x0, area.height()));
    }
    p.restore();
}

void TraceTimelineView::paintHeaders(QPainter& p, const QRect& area)
{
    // Rank and pipeline rank on a rank's first row, then what each row is; a line between ranks.
    p.save();
    const int width = canvasSize().width();
    p.setClipRect(QRect(0, area.top(), width, area.height()));
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    for (const LaneItem& lane : drawList().lanes) {
        const TraceRow& row = m_rows[lane.lane];
        const double y = area.top() + lane.y, h = lane.h;
        if (lane.firstOfRank && lane.lane > 0) {
            p.setPen(Theme::separator());
            p.drawLine(QLineF(0, y - 4.5, width, y - 4.5));
        }
        const QString label = rowLabel(row);
        if (row.firstOfRank && m_overlay) {
            const OverlayRank& o = m_overlay->ranks[row.overlayRank];
            p.setFont(bold);
            p.setPen(Theme::text());
            const QString rank = o.rank >= 0 ? tr("rank %1 · PP %2").arg(o.rank).arg(o.pipelineRank) : tr("rank ? · PP %1").arg(o.pipelineRank);
            const int rankWidth = std::min(kHeaderWidth - 16, boldMetrics.horizontalAdvance(rank));
            p.drawText(QRectF(6, y - 1, rankWidth + 2, h + 2), Qt::AlignVCenter | Qt::AlignLeft,
                boldMetrics.elidedText(rank, Qt::ElideRight, rankWidth + 2));
            p.setFont(font());
            p.setPen(Theme::mutedText());
            const int left = 14 + rankWidth;
            p.drawText(QRectF(left, y - 1, kHeaderWidth - 6 - left, h + 2), Qt::AlignVCenter | Qt::AlignRight,
                fm.elidedText(label, Qt::ElideRight, kHeaderWidth - 6 - left));
            continue;
        }
        p.setPen(Theme::mutedText());
        p.drawText(QRectF(6, y - 1, kHeaderWidth - 12, h + 2), Qt::AlignVCenter | Qt::AlignRight,
            fm.elidedText(label, Qt::ElideRight, kHeaderWidth - 12));
    }
    p.restore();
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
    const DrawList& draw = drawList();
    for (const DrawRect& r : draw.rects) m_buckets[bucketOf(r.style, r.kind, r.flags)].push_back(insetRect(r.x, r.y, r.w, r.h));
    // Folded blocks at full height (a measured row has no idle hatching to fill the rest), the commonest colour
    // over the second.
    for (FoldedBlock b : draw.folds) {
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
    for (const LabelItem& l : draw.labels) {
        const bool ghost = l.flags & DrawGhost;
        const QRectF r(l.x + kLabelPadding, l.y, l.w - 2 * kLabelPadding, l.h);
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
    const TimeViewport& vp = viewport();
    if (!area.contains(pos) || vp.widthPx <= 0) return {};
    const long long row = laneAt(m_lanes, pos.y() - area.top() + scrollY());
    if (row < 0) return {};
    const long long item = engine::hitLane(lanes(), m_index, std::size_t(row), vp.toTime(pos.x() - area.left()), 2 * vp.secondsPerPixel());
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

void TraceTimelineView::hoverAt(const QPoint& pos)
{
    const Hit hit = hitAt(pos);
    if (hit.row != m_hover.row || hit.item != m_hover.item) {
        m_hover = hit;
        update();
    }
}

} // namespace planscope
