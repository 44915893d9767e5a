#include "timeline/TimelineView.h"

#include "document/PlanDocument.h"
#include "timeline/DrawListPaint.h"
#include "timeline/TimelinePalette.h"
#include "Theme.h"
#include "document/ViewState.h"

#include "analysis/Analysis.h"
#include "spec/SplitText.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace planscope {

namespace {

constexpr int kStates = 3; // normal, pending, dimmed

int stateOf(std::uint8_t flags)
{
    if (flags & DrawDimmed) return 2;
    if (flags & DrawPending) return 1;
    return 0;
}

int bucketOf(SpanKind kind, std::uint8_t flags)
{
    return int(kind) * kStates + stateOf(flags);
}

QString milliseconds(double seconds)
{
    return QCoreApplication::translate("planscope::TimelineView", "%1 ms").arg(seconds * 1e3, 0, 'f', 3);
}

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : LaneView(parent)
{
    prepareBrushes();
    updateMetrics();
}

TimelineView::~TimelineView() = default;

void TimelineView::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this, [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void TimelineView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    // Each rank's layers, from the plan the timeline was simulated for.
    QStringList layers, indices;
    if (m_analysis) {
        for (const std::string& text : rankSplitTexts(m_analysis->plan)) layers << QString::fromStdString(text);
        for (const std::string& text : rankLayerRanges(m_analysis->plan)) indices << QString::fromStdString(text);
    }
    m_rankLayers = layers;
    m_rankLayerIndices = indices;
    // The index was built on the analysing thread with the timeline: nothing O(n log n) on the GUI thread.
    setTimeline(m_analysis ? m_analysis->timeline : nullptr, m_analysis ? m_analysis->timelineIndex : nullptr);
}

void TimelineView::setRankLayers(const QStringList& perRank, const QStringList& indices)
{
    m_rankLayers = perRank;
    m_rankLayerIndices = indices;
    updateMetrics();
    relayout();
}

QString TimelineView::rankLayersLabel(int rank) const
{
    if (rank < 0 || rank >= m_rankLayers.size() || m_rankLayers[rank].isEmpty()) return {};
    return tr("layers %1").arg(m_rankLayers[rank]);
}

void TimelineView::stateAttached()
{
    if (m_timeline) state().setDuration(m_timeline->stepSeconds);
}

void TimelineView::selectionChanged()
{
    invalidateLayout(); // the selected microbatch is drawn outlined, the rest dimmed
    update();
}

void TimelineView::themeChanged()
{
    prepareBrushes();
    update();
}

QColor TimelineView::background() const
{
    return TimelinePalette::background();
}

void TimelineView::setTimeline(std::shared_ptr<const Timeline> timeline, std::shared_ptr<const TimelineIndex> index)
{
    m_timeline = std::move(timeline);
    if (!index) index = std::make_shared<const TimelineIndex>(m_timeline ? TimelineIndex(*m_timeline) : TimelineIndex());
    m_index = std::move(index);
    invalidateLayout();
    setScroll(0);
    updateMetrics();
    if (m_timeline) {
        state().setDuration(m_timeline->stepSeconds);
        if (!(state().viewEnd() > state().viewStart())) state().zoomToFit();
    }
    relayout();
}

LaneView::Range TimelineView::fitRange() const
{
    return { 0.0, m_timeline && m_timeline->stepSeconds > 0 ? m_timeline->stepSeconds : 1.0 };
}

QRectF TimelineView::spanRect(std::size_t span) const
{
    if (!m_timeline || span >= m_timeline->spans.size()) return {};
    const QRect area = timeArea();
    for (const LaneItem& row : laneRows(*m_timeline, *m_index, m_geometry)) {
        const TimelineLane& lane = m_index->lanes()[row.lane];
        if (span < lane.begin || span >= lane.end) continue;
        const Span& s = m_timeline->spans[span];
        const double x0 = viewport().toX(s.start), x1 = viewport().toX(s.end);
        return QRectF(area.left() + x0, area.top() + row.y - scrollY(), x1 - x0, row.h);
    }
    return {};
}

QSize TimelineView::sizeHint() const
{
    return QSize(1200, 600);
}

QSize TimelineView::minimumSizeHint() const
{
    return QSize(headerWidth() + m_idleWidth + 200, axisHeight() + 80);
}

QString TimelineView::headerText(int rank) const
{
    QStringList stages;
    for (int s : m_index->stagesOfRank(rank))
        stages << QString::number(s);
    if (stages.isEmpty()) return tr("rank %1").arg(rank);
    return tr("rank %1 · stage %2").arg(rank).arg(stages.join(QLatin1Char(',')));
}

// Over a rank's name: its stages and the transformer layers it holds, by count per chunk and by index.
QString TimelineView::headerToolTip(double y) const
{
    for (const LaneItem& lane : drawList().lanes) {
        if (y < lane.y || y >= lane.y + lane.h) continue;
        QStringList lines { QStringLiteral("<b>%1</b>").arg(headerText(lane.rank).toHtmlEscaped()) };
        const QString layers = rankLayersLabel(lane.rank);
        if (!layers.isEmpty()) {
            lines << tr("%1 (E embedding, L loss, | between chunks)").arg(layers.toHtmlEscaped());
            if (lane.rank < m_rankLayerIndices.size() && !m_rankLayerIndices[lane.rank].isEmpty())
                lines << tr("transformer layers %1").arg(m_rankLayerIndices[lane.rank]);
        }
        return lines.join(QStringLiteral("<br>"));
    }
    return {};
}

bool TimelineView::layersOnOwnLine(std::size_t laneIndex) const
{
    if (laneIndex + 1 >= drawList().lanes.size()) return false;
    const LaneItem& head = drawList().lanes[laneIndex];
    const LaneItem& next = drawList().lanes[laneIndex + 1];
    return head.firstOfRank && next.rank == head.rank && !next.firstOfRank && next.stream != Stream::Compute
        && next.h >= QFontMetricsF(m_smallFont).height() - 3;
}

void TimelineView::updateMetrics()
{
    m_headerFont = font();
    m_labelFont = axisFont();
    m_smallFont = m_labelFont;
    const QFontMetricsF label(m_labelFont);
    const QFontMetricsF header(m_headerFont);
    QFont bold = m_headerFont;
    bold.setBold(true);
    const QFontMetricsF headerBold(bold);

    double widest = headerBold.horizontalAdvance(tr("rank %1").arg(0));
    int lastRank = -1;
    double widestStream = 0;
    for (const TimelineLane& lane : m_index->lanes())
        widestStream = std::max(widestStream, label.horizontalAdvance(TimelinePalette::streamName(lane.stream)));
    for (const TimelineLane& lane : m_index->lanes()) {
        if (lane.rank != lastRank) {
            widest = std::max(widest, headerBold.horizontalAdvance(headerText(lane.rank)));
            // The layers line shares its row with a stream's name, written at the right.
            const QString layers = rankLayersLabel(lane.rank);
            if (!layers.isEmpty()) widest = std::max(widest, label.horizontalAdvance(layers) + 12 + widestStream);
        }
        widest = std::max(widest, label.horizontalAdvance(TimelinePalette::streamName(lane.stream)));
        lastRank = lane.rank;
    }
    m_idleWidth = int(std::ceil(label.horizontalAdvance(tr("idle %1 %").arg(QStringLiteral("100.0"))))) + 28;
    setColumns(std::clamp(int(std::ceil(widest)) + 16, 90, 320), m_idleWidth);

    m_geometry.computeHeight = std::round(header.height() * 1.8);
    m_geometry.streamHeight = std::round(label.height() * 1.05);
    m_geometry.rankGap = 7;
    m_geometry.subLaneGap = 1;
    m_geometry.charWidth = std::max({ label.averageCharWidth(), label.horizontalAdvance(QLatin1Char('0')),
        label.horizontalAdvance(QLatin1Char('F')) });
    m_geometry.labelPadding = 3;
    m_geometry.minLabelHeight = label.height() - 1;
    for (SpanKind kind : TimelinePalette::kinds)
        m_geometry.kindLabels[std::size_t(kind)] = TimelinePalette::shortName(kind).toStdString();
}

void TimelineView::prepareBrushes()
{
    for (SpanKind kind : TimelinePalette::kinds) {
        const int k = int(kind) * kStates;
        m_brushes[std::size_t(k)] = QBrush(TimelinePalette::color(kind));
        m_brushes[std::size_t(k + 1)] = QBrush(TimelinePalette::pendingColor(kind));
        m_brushes[std::size_t(k + 2)] = QBrush(TimelinePalette::dimmedColor(kind));
        m_textColors[std::size_t(k)] = TimelinePalette::textColor(kind);
        m_textColors[std::size_t(k + 1)] = Theme::pendingText();
        m_textColors[std::size_t(k + 2)] = Theme::dimmedText();
    }
}

LaneGeometry TimelineView::geometryNow() const
{
    LaneGeometry g = m_geometry;
    g.scrollY = scrollY();
    g.viewHeight = timeArea().height();
    return g;
}

double TimelineView::arrangeLanes(double available, bool squeeze)
{
    // Many ranks: lanes shrink down to 55 % before the view scrolls (an export squeezes every lane in).
    const LaneGeometry before = m_geometry;
    updateMetrics();
    const std::vector<LaneItem> rows = laneRows(*m_timeline, *m_index, m_geometry);
    const double content = rows.empty() ? 0 : rows.back().y + rows.back().h;
    if (content > available && content > 0) {
        const double scale = std::max(squeeze ? 0.0 : 0.55, available / content);
        m_geometry.computeHeight = std::max(squeeze ? 6.0 : 12.0, std::floor(m_geometry.computeHeight * scale));
        m_geometry.streamHeight = std::max(squeeze ? 2.0 : 5.0, std::floor(m_geometry.streamHeight * scale));
        m_geometry.rankGap = std::max(squeeze ? 2.0 : 3.0, std::floor(m_geometry.rankGap * scale));
    } else if (content > 0) {
        // Few ranks: lanes grow into the room (stream lanes up to 1.4x, compute lanes up to 3x), so the
        // picture has no empty half.
        double room = available - content - 4;
        const auto computeLanes = double(std::count_if(
            rows.begin(), rows.end(), [](const LaneItem& r) { return r.stream == Stream::Compute; }));
        const double streamLanes = double(rows.size()) - computeLanes;
        if (streamLanes > 0 && room > 0) {
            const double grow = std::floor(std::min(m_geometry.streamHeight * 0.4, room / streamLanes));
            m_geometry.streamHeight += grow;
            room -= grow * streamLanes;
        }
        if (computeLanes > 0 && room > 0)
            m_geometry.computeHeight = std::floor(
                m_geometry.computeHeight + std::min(2 * m_geometry.computeHeight, room / computeLanes));
    }
    if (!(m_geometry == before)) invalidateLayout();
    setScrollStep(m_geometry.computeHeight);
    const std::vector<LaneItem> scaled = laneRows(*m_timeline, *m_index, m_geometry);
    return scaled.empty() ? 0 : scaled.back().y + scaled.back().h;
}

DrawList TimelineView::layoutLanes(const TimeViewport& viewport, double scrollY, double viewHeight) const
{
    LaneGeometry g = m_geometry;
    g.scrollY = scrollY;
    g.viewHeight = viewHeight;
    // The playhead is not part of the layout: pending items are told at paint time (paintFlags), so playback
    // only repaints.
    const Selection selection { state().selectedMicrobatch(), std::numeric_limits<double>::infinity() };
    return layoutTimeline(*m_timeline, *m_index, viewport, g, selection);
}

double TimelineView::pendingFrom() const
{
    // Before playing or scrubbing (playhead at 0) the whole plan is shown as done, not all faded; so is an export.
    if (isFinalState() || !(state().playhead() > 0 || state().isPlaying())) return std::numeric_limits<double>::infinity();
    return state().playhead();
}

std::uint8_t TimelineView::paintFlags(std::uint8_t flags, double end) const
{
    return end > pendingFrom() ? std::uint8_t(flags | DrawPending) : flags;
}

// ---- Painting ------------------------------------------------------------------------------------------

QString TimelineView::emptyText() const
{
    if (m_timeline) return QString();
    // Only the analysis drawn says why: while a newer one is computed, the window says so and this one stays.
    if (!m_analysis) return tr("No timeline: load a plan");
    if (!m_analysis->valid())
        return tr("No timeline: the plan cannot run.\n%1").arg(PlanDocument::describe(m_analysis->prediction.errors));
    if (!m_analysis->timelineErrors.empty())
        return tr("No timeline: %1").arg(PlanDocument::describe(m_analysis->timelineErrors));
    return tr("No timeline for this plan");
}

void TimelineView::paintLanes(QPainter& p, const QRect& area)
{
    p.save();
    p.setClipRect(area);
    p.translate(area.topLeft());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);

    // Lane backgrounds, then the grid at the axis ticks.
    m_scratch.clear();
    for (const LaneItem& lane : drawList().lanes)
        m_scratch.push_back(QRectF(0, lane.y, area.width(), lane.h));
    p.setBrush(TimelinePalette::laneBackground());
    p.drawRects(m_scratch.constData(), int(m_scratch.size()));
    paintGrid(p, area);
    p.setPen(Qt::NoPen);

    // Bubbles: hatched, no fill, so idle time never looks like work.
    m_scratch.clear();
    for (const BubbleRect& b : drawList().bubbles)
        m_scratch.push_back(QRectF(b.x, b.y, b.w, b.h));
    p.setBrushOrigin(0, 0);
    TimelinePalette::hatch(p, m_scratch.constData(), int(m_scratch.size()));
    p.setPen(Qt::NoPen);

    // Spans and folded blocks, batched by brush. A 1 px gap separates back-to-back spans.
    for (auto& bucket : m_buckets)
        bucket.clear();
    const DrawList& draw = drawList();
    const double pending = pendingFrom();
    auto flagsOf = [pending](std::uint8_t flags, double end) {
        return end > pending ? std::uint8_t(flags | DrawPending) : flags;
    };
    for (const DrawRect& r : draw.rects)
        m_buckets[std::size_t(bucketOf(r.kind, flagsOf(r.flags, r.end)))].push_back(insetRect(r.x, r.y, r.w, r.h));
    // A folded block is filled to its busy share from the bottom; on a compute lane the idle rest above is
    // hatched like any bubble.
    m_scratch.clear();
    for (const FoldedBlock& b : draw.folds)
        if (b.busy < 0.97 && b.stream == Stream::Compute) m_scratch.push_back(insetRect(b.x, b.y, b.w, b.h));
    TimelinePalette::hatch(p, m_scratch.constData(), int(m_scratch.size()));
    p.setPen(Qt::NoPen);
    m_scratch.clear();
    for (const FoldedBlock& b : draw.folds) {
        const FoldRects f = foldRects(b);
        const std::uint8_t flags = flagsOf(b.flags, b.end);
        m_buckets[std::size_t(bucketOf(b.kind, flags))].push_back(f.top);
        m_buckets[std::size_t(bucketOf(b.kind2, flags))].push_back(f.bottom);
        m_scratch.push_back(f.full);
    }
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
        if (m_buckets[i].isEmpty()) continue;
        p.setBrush(m_brushes[i]);
        p.drawRects(m_buckets[i].constData(), int(m_buckets[i].size()));
    }
    // Folded blocks get a dotted texture: many ops, not one long one.
    if (!m_scratch.isEmpty()) {
        p.setBrush(QBrush(QColor(255, 255, 255, 170), Qt::Dense6Pattern));
        p.drawRects(m_scratch.constData(), int(m_scratch.size()));
    }
    // Pending spans (after the playhead) are a pale neutral fill outlined in their kind's colour: hollow, so they
    // never pass for a kind of their own. Spans too small for an outline keep the fill alone.
    p.setBrush(Qt::NoBrush);
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
        if (int(i) % kStates != 1 || m_buckets[i].isEmpty()) continue;
        m_scratch.clear();
        for (const QRectF& r : m_buckets[i])
            if (r.width() >= 4 && r.height() >= 4) m_scratch.push_back(r.adjusted(0, 0, -1, -1));
        if (m_scratch.isEmpty()) continue;
        p.setPen(QPen(TimelinePalette::pendingOutline(SpanKind(int(i) / kStates)), 1));
        p.drawRects(m_scratch.constData(), int(m_scratch.size()));
    }
    p.setPen(Qt::NoPen);

    // The selected microbatch, outlined.
    m_scratch.clear();
    for (const DrawRect& r : draw.rects)
        if (r.flags & DrawSelected)
            m_scratch.push_back(QRectF(r.x, r.y + 0.5, std::max(r.w - 1, 1.0), r.h - 1));
    if (!m_scratch.isEmpty()) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(TimelinePalette::selectionOutline(), 1));
        p.drawRects(m_scratch.constData(), int(m_scratch.size()));
        p.setPen(Qt::NoPen);
    }

    // Text last, grouped by colour.
    p.setFont(m_labelFont);
    int pen = -1;
    std::vector<std::pair<int, std::size_t>> order;
    order.reserve(draw.labels.size());
    for (std::size_t i = 0; i < draw.labels.size(); ++i)
        order.push_back({ bucketOf(draw.labels[i].kind, flagsOf(draw.labels[i].flags, draw.labels[i].end)), i });
    std::sort(order.begin(), order.end());
    for (const auto& [bucket, i] : order) {
        if (bucket != pen) {
            p.setPen(m_textColors[std::size_t(bucket)]);
            pen = bucket;
        }
        const LabelItem& l = draw.labels[i];
        p.drawText(QRectF(l.x, l.y, l.w, l.h), Qt::AlignCenter,
            QString::fromUtf8(l.text.data(), qsizetype(l.text.size())));
    }

    p.restore();
}

void TimelineView::paintHeaders(QPainter& p, const QRect& area)
{
    p.save();
    const DrawList& draw = drawList();
    const int width = canvasSize().width();
    p.setClipRect(QRect(0, area.top(), width, area.height()));
    QFont bold = m_headerFont;
    bold.setBold(true);
    const QColor text = Theme::text();
    const QColor quiet = Theme::mutedText();
    const QFontMetrics boldMetrics(bold);

    for (std::size_t i = 0; i < draw.lanes.size(); ++i) {
        const LaneItem& lane = draw.lanes[i];
        const QRectF row(6, area.top() + lane.y, headerWidth() - 12, lane.h);
        if (lane.firstOfRank && i > 0) {
            p.setPen(Theme::separator());
            const double y = std::floor(row.top() - m_geometry.rankGap / 2) + 0.5;
            p.drawLine(QLineF(0, y, width, y));
        }
        if (lane.firstOfRank) {
            // A squeezed compute lane is lower than the text: the name then hangs from the lane's top over the
            // rank's stream lanes (their names are not drawn at that size).
            const bool low = lane.h < boldMetrics.height();
            const QRectF nameRow = low ? QRectF(row.left(), row.top() - 1, row.width(), boldMetrics.height()) : row;
            QString name = headerText(lane.rank);
            const QString layers = rankLayersLabel(lane.rank);
            if (!layers.isEmpty() && !layersOnOwnLine(i)) name += QStringLiteral(" · ") + layers;
            p.setFont(bold);
            p.setPen(text);
            p.drawText(nameRow, Qt::AlignLeft | (low ? Qt::AlignTop : Qt::AlignVCenter),
                boldMetrics.elidedText(name, Qt::ElideRight, int(row.width())));
        }
        if (lane.stream != Stream::Compute && lane.h >= QFontMetricsF(m_smallFont).height() - 3) {
            p.setFont(m_smallFont);
            p.setPen(quiet);
            const QString stream = TimelinePalette::streamName(lane.stream);
            p.drawText(row, Qt::AlignRight | Qt::AlignVCenter, stream);
            if (i > 0 && layersOnOwnLine(i - 1)) {
                // The rank's layers under its name, left of the stream's name.
                const QFontMetrics small(m_smallFont);
                const int room = int(row.width()) - small.horizontalAdvance(stream) - 10;
                p.setPen(text);
                p.drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                    small.elidedText(rankLayersLabel(lane.rank), Qt::ElideRight, std::max(0, room)));
            }
        }
        if (lane.idleShare >= 0) {
            // The idle share next to a hatched swatch, as the bubbles are drawn.
            const QRectF swatch(area.right() + 7, area.top() + lane.y + (lane.h - 10) / 2, 10, 10);
            TimelinePalette::hatch(p, &swatch, 1);
            p.setBrush(Qt::NoBrush);
            p.setPen(Theme::pick(QColor(0xA0, 0xA0, 0xA0), Theme::axis()));
            p.drawRect(swatch);
            p.setFont(m_smallFont);
            p.setPen(text);
            p.drawText(QRectF(swatch.right() + 4, area.top() + lane.y, m_idleWidth, lane.h),
                Qt::AlignLeft | Qt::AlignVCenter, tr("idle %1 %").arg(lane.idleShare * 100, 0, 'f', 1));
        }
    }
    p.restore();
}

// ---- Interaction ---------------------------------------------------------------------------------------

QString TimelineView::toolTipAt(const QPoint& pos) const
{
    const QRect area = timeArea();
    if (pos.x() < area.left() && pos.y() >= area.top()) return headerToolTip(pos.y() - area.top());
    if (!area.contains(pos)) return {};
    const double x = pos.x() - area.left(), y = pos.y() - area.top();
    const DrawList& draw = drawList();
    for (const FoldedBlock& b : draw.folds)
        if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)
            return tr("%n ops folded here (mostly %1); zoom in to see them", nullptr, int(b.count))
                .arg(TimelinePalette::name(b.kind));
    const long long hit = hitTest(*m_timeline, *m_index, viewport(), geometryNow(), x, y);
    if (hit >= 0) {
        const Span& s = m_timeline->spans[std::size_t(hit)];
        QStringList lines;
        lines << QStringLiteral("<b>%1</b>").arg(TimelinePalette::name(s.kind).toHtmlEscaped());
        QStringList where { tr("rank %1").arg(s.rank) };
        if (s.stage >= 0) where << tr("stage %1").arg(s.stage);
        if (s.chunk >= 0) where << tr("chunk %1").arg(s.chunk);
        if (s.microbatch >= 0) where << tr("microbatch %1").arg(s.microbatch);
        lines << where.join(QStringLiteral(" · "));
        if (s.kind == SpanKind::OverlapFB && s.microbatch2 >= 0)
            lines << tr("backward half: stage %1 · microbatch %2").arg(s.stage2).arg(s.microbatch2);
        lines << tr("start %1 · duration %2").arg(milliseconds(s.start), milliseconds(s.end - s.start));
        return lines.join(QStringLiteral("<br>"));
    }
    for (const BubbleRect& b : draw.bubbles)
        if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)
            return tr("idle (bubble) on rank %1: %2, from %3 to %4")
                .arg(b.rank)
                .arg(milliseconds(b.end - b.start), milliseconds(b.start), milliseconds(b.end));
    return {};
}

void TimelineView::clickAt(const QPoint& pos)
{
    const QRect area = timeArea();
    const long long hit = hitTest(*m_timeline, *m_index, viewport(), geometryNow(), pos.x() - area.left(), pos.y() - area.top());
    const Span* s = hit >= 0 ? &m_timeline->spans[std::size_t(hit)] : nullptr;
    if (s && s->microbatch >= 0)
        state().select(s->rank, s->stage, s->microbatch);
    else
        state().clearSelection();
}

} // namespace planscope
