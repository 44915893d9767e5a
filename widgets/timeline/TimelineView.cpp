#include "timeline/TimelineView.h"

#include "document/PlanDocument.h"
#include "timeline/DrawListPaint.h"
#include "timeline/TimelinePalette.h"
#include "Theme.h"
#include "document/ViewState.h"
#include "WidgetExporter.h"

#include "analysis/Analysis.h"
#include "spec/SplitText.h"

#include <QEvent>
#include <QFileInfo>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
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
    : QWidget(parent)
    , m_ownState(new ViewState(this))
    , m_state(m_ownState)
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(false);
    m_scrollBar->hide();
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int v) { setScroll(v); });
    prepareBrushes();
    updateMetrics();
    setViewState(nullptr);
    connect(Theme::instance(), &Theme::changed, this, [this] {
        prepareBrushes();
        update();
    });
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

void TimelineView::setViewState(ViewState* state)
{
    if (m_state) disconnect(m_state, nullptr, this, nullptr);
    m_state = state ? state : m_ownState;
    connect(m_state, &ViewState::viewRangeChanged, this, &TimelineView::relayout);
    connect(m_state, &ViewState::playheadChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::playingChanged, this, qOverload<>(&QWidget::update));
    connect(m_state, &ViewState::selectionChanged, this, &TimelineView::relayout);
    connect(m_state, &ViewState::durationChanged, this, &TimelineView::relayout);
    if (m_timeline) m_state->setDuration(m_timeline->stepSeconds);
    relayout();
}

ViewState* TimelineView::viewState() const
{
    return m_state;
}

void TimelineView::setTimeline(std::shared_ptr<const Timeline> timeline, std::shared_ptr<const TimelineIndex> index)
{
    m_timeline = std::move(timeline);
    if (!index) index = std::make_shared<const TimelineIndex>(m_timeline ? TimelineIndex(*m_timeline) : TimelineIndex());
    m_index = std::move(index);
    m_layoutValid = false;
    m_scrollY = 0;
    updateMetrics();
    if (m_timeline) {
        m_state->setDuration(m_timeline->stepSeconds);
        if (!(m_state->viewEnd() > m_state->viewStart())) m_state->zoomToFit();
    }
    relayout();
}

void TimelineView::zoomToFit()
{
    if (m_timeline) setRange(0.0, m_timeline->stepSeconds);
}

void TimelineView::setFixedTimeAxis(double span, int headerWidth)
{
    m_fixedSpan = std::max(0.0, span);
    m_minHeaderWidth = std::max(0, headerWidth);
    relayout();
}

QRect TimelineView::timeArea() const
{
    const QSize canvas = canvasSize();
    const bool scrollBar = m_exportSize.isEmpty() && m_scrollBar->isVisibleTo(this);
    const int right = m_idleWidth + (scrollBar ? m_scrollBar->sizeHint().width() : 0);
    return QRect(m_headerWidth, m_axisHeight, std::max(1, canvas.width() - m_headerWidth - right),
        std::max(1, canvas.height() - m_axisHeight));
}

QRectF TimelineView::spanRect(std::size_t span) const
{
    if (!m_timeline || span >= m_timeline->spans.size()) return {};
    const QRect area = timeArea();
    for (const LaneItem& row : laneRows(*m_timeline, *m_index, m_geometry)) {
        const TimelineLane& lane = m_index->lanes()[row.lane];
        if (span < lane.begin || span >= lane.end) continue;
        const Span& s = m_timeline->spans[span];
        const double x0 = m_viewport.toX(s.start), x1 = m_viewport.toX(s.end);
        return QRectF(area.left() + x0, area.top() + row.y - m_scrollY, x1 - x0, row.h);
    }
    return {};
}

QSize TimelineView::sizeHint() const
{
    return QSize(1200, 600);
}

QSize TimelineView::minimumSizeHint() const
{
    return QSize(m_headerWidth + m_idleWidth + 200, m_axisHeight + 80);
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
    for (const LaneItem& lane : m_draw.lanes) {
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
    if (laneIndex + 1 >= m_draw.lanes.size()) return false;
    const LaneItem& head = m_draw.lanes[laneIndex];
    const LaneItem& next = m_draw.lanes[laneIndex + 1];
    return head.firstOfRank && next.rank == head.rank && !next.firstOfRank && next.stream != Stream::Compute
        && next.h >= QFontMetricsF(m_smallFont).height() - 3;
}

void TimelineView::updateMetrics()
{
    m_headerFont = font();
    m_labelFont = font();
    m_labelFont.setPointSizeF(std::max(7.0, font().pointSizeF() - 1));
    m_smallFont = m_labelFont;
    const QFontMetricsF label(m_labelFont);
    const QFontMetricsF header(m_headerFont);
    QFont bold = m_headerFont;
    bold.setBold(true);
    const QFontMetricsF headerBold(bold);

    m_axisHeight = int(std::ceil(label.height())) + 12;
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
    m_headerWidth = std::max(m_minHeaderWidth, std::clamp(int(std::ceil(widest)) + 16, 90, 320));
    m_idleWidth = int(std::ceil(label.horizontalAdvance(tr("idle %1 %").arg(QStringLiteral("100.0"))))) + 28;

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

void TimelineView::relayout()
{
    if (!m_timeline || !m_state) {
        m_draw = {};
        m_scrollBar->hide();
        update();
        return;
    }
    const double duration = m_timeline->stepSeconds > 0 ? m_timeline->stepSeconds : 1.0;
    double start = m_state->viewStart(), end = m_state->viewEnd();
    if (!(end > start)) {
        start = 0;
        end = duration;
    }
    if (m_fixedSpan > 0) {
        start = 0;
        end = m_fixedSpan;
    }

    // Many ranks: lanes shrink down to 55 % before the view scrolls.
    updateMetrics();
    const QSize canvas = canvasSize();
    const int available = canvas.height() - m_axisHeight;
    LaneGeometry natural = m_geometry;
    const std::vector<LaneItem> rows = laneRows(*m_timeline, *m_index, natural);
    const double content = rows.empty() ? 0 : rows.back().y + rows.back().h;
    if (content > available && content > 0) {
        // On screen the rest scrolls; an export has no scroll bar, so there every lane is squeezed in.
        const bool exporting = !m_exportSize.isEmpty() || m_fitAllLanes;
        const double scale = std::max(exporting ? 0.0 : 0.55, double(available) / content);
        m_geometry.computeHeight
            = std::max(exporting ? 6.0 : 12.0, std::floor(m_geometry.computeHeight * scale));
        m_geometry.streamHeight
            = std::max(exporting ? 2.0 : 5.0, std::floor(m_geometry.streamHeight * scale));
        m_geometry.rankGap = std::max(exporting ? 2.0 : 3.0, std::floor(m_geometry.rankGap * scale));
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
    const std::vector<LaneItem> scaled = laneRows(*m_timeline, *m_index, m_geometry);
    const double contentHeight = scaled.empty() ? 0 : scaled.back().y + scaled.back().h;
    const int overflow = int(std::ceil(contentHeight)) - available;
    m_scrollBar->setVisible(overflow > 0 && m_exportSize.isEmpty() && !m_fitAllLanes);
    m_scrollY = std::clamp(m_scrollY, 0.0, double(std::max(0, overflow)));
    if (overflow > 0) {
        const int w = m_scrollBar->sizeHint().width();
        m_scrollBar->setGeometry(width() - w, m_axisHeight, w, available);
        const QSignalBlocker block(m_scrollBar);
        m_scrollBar->setRange(0, overflow);
        m_scrollBar->setPageStep(available);
        m_scrollBar->setSingleStep(int(m_geometry.computeHeight));
        m_scrollBar->setValue(int(m_scrollY));
    }

    const QRect area = timeArea();
    m_viewport = { start, end, area.width() };
    m_geometry.scrollY = m_scrollY;
    m_geometry.viewHeight = area.height();
    // The playhead is not part of the layout: pending items are told at paint time (paintFlags), so playback
    // only repaints. The layout is redone when what it depends on changed.
    const Selection selection { m_state->selectedMicrobatch(), std::numeric_limits<double>::infinity() };
    if (!m_layoutValid || !(m_viewport == m_laidOutViewport) || !(m_geometry == m_laidOutGeometry)
        || !(selection == m_selection)) {
        m_selection = selection;
        m_laidOutViewport = m_viewport;
        m_laidOutGeometry = m_geometry;
        m_draw = layoutTimeline(*m_timeline, *m_index, m_viewport, m_geometry, m_selection);
        m_layoutValid = true;
        ++m_layoutCount;
    }
    update();
}

double TimelineView::pendingFrom() const
{
    // Before playing or scrubbing (playhead at 0) the whole plan is shown as done, not all faded; so is an export.
    if (m_finalState || !m_state || !(m_state->playhead() > 0 || m_state->isPlaying())) return std::numeric_limits<double>::infinity();
    return m_state->playhead();
}

std::uint8_t TimelineView::paintFlags(std::uint8_t flags, double end) const
{
    return end > pendingFrom() ? std::uint8_t(flags | DrawPending) : flags;
}

void TimelineView::setRange(double start, double end)
{
    if (!m_timeline) return;
    const double duration = m_timeline->stepSeconds > 0 ? m_timeline->stepSeconds : 1.0;
    double width = std::clamp(end - start, 1e-9, duration);
    start = std::clamp(start, 0.0, duration - width);
    m_state->setViewRange(start, start + width);
}

void TimelineView::zoomAround(double x, double factor)
{
    const double t = m_viewport.toTime(x);
    setRange(t - (t - m_viewport.start) * factor, t + (m_viewport.end - t) * factor);
}

void TimelineView::setScroll(double y)
{
    const double old = m_scrollY;
    m_scrollY = std::max(0.0, y);
    if (old != m_scrollY) relayout();
}

// ---- Painting ------------------------------------------------------------------------------------------

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintAll(p);
}

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

void TimelineView::paintAll(QPainter& p)
{
    const QRect canvas(QPoint(0, 0), canvasSize());
    p.fillRect(canvas, TimelinePalette::background());
    if (!m_timeline) {
        p.setPen(Theme::text());
        const QString why = emptyText();
        p.drawText(canvas.adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, why);
        return;
    }
    const QRect area = timeArea();
    paintLanes(p, area);
    paintHeaders(p, area);
    paintAxis(p, area);
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
    for (const LaneItem& lane : m_draw.lanes)
        m_scratch.push_back(QRectF(0, lane.y, area.width(), lane.h));
    p.setBrush(TimelinePalette::laneBackground());
    p.drawRects(m_scratch.constData(), int(m_scratch.size()));
    p.setPen(Theme::gridLine());
    for (double t : axisTicks(m_viewport, 90)) {
        const double x = std::round(m_viewport.toX(t)) + 0.5;
        p.drawLine(QLineF(x, 0, x, area.height()));
    }
    p.setPen(Qt::NoPen);

    // Bubbles: hatched, no fill, so idle time never looks like work.
    m_scratch.clear();
    for (const BubbleRect& b : m_draw.bubbles)
        m_scratch.push_back(QRectF(b.x, b.y, b.w, b.h));
    p.setBrushOrigin(0, 0);
    TimelinePalette::hatch(p, m_scratch.constData(), int(m_scratch.size()));
    p.setPen(Qt::NoPen);

    // Spans and folded blocks, batched by brush. A 1 px gap separates back-to-back spans.
    for (auto& bucket : m_buckets)
        bucket.clear();
    const double pending = pendingFrom();
    auto flagsOf = [pending](std::uint8_t flags, double end) {
        return end > pending ? std::uint8_t(flags | DrawPending) : flags;
    };
    for (const DrawRect& r : m_draw.rects)
        m_buckets[std::size_t(bucketOf(r.kind, flagsOf(r.flags, r.end)))].push_back(insetRect(r.x, r.y, r.w, r.h));
    // A folded block is filled to its busy share from the bottom; on a compute lane the idle rest above is
    // hatched like any bubble.
    m_scratch.clear();
    for (const FoldedBlock& b : m_draw.folds)
        if (b.busy < 0.97 && b.stream == Stream::Compute) m_scratch.push_back(insetRect(b.x, b.y, b.w, b.h));
    TimelinePalette::hatch(p, m_scratch.constData(), int(m_scratch.size()));
    p.setPen(Qt::NoPen);
    m_scratch.clear();
    for (const FoldedBlock& b : m_draw.folds) {
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
    for (const DrawRect& r : m_draw.rects)
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
    order.reserve(m_draw.labels.size());
    for (std::size_t i = 0; i < m_draw.labels.size(); ++i)
        order.push_back({ bucketOf(m_draw.labels[i].kind, flagsOf(m_draw.labels[i].flags, m_draw.labels[i].end)), i });
    std::sort(order.begin(), order.end());
    for (const auto& [bucket, i] : order) {
        if (bucket != pen) {
            p.setPen(m_textColors[std::size_t(bucket)]);
            pen = bucket;
        }
        const LabelItem& l = m_draw.labels[i];
        p.drawText(QRectF(l.x, l.y, l.w, l.h), Qt::AlignCenter,
            QString::fromUtf8(l.text.data(), qsizetype(l.text.size())));
    }

    // The playhead.
    const double playhead = m_state ? m_state->playhead() : 0;
    if (!m_finalState && playhead >= m_viewport.start && playhead <= m_viewport.end) {
        const double x = std::round(m_viewport.toX(playhead));
        p.setPen(QPen(TimelinePalette::playhead(), 2));
        p.drawLine(QLineF(x, 0, x, area.height()));
    }

    if (m_drag == Drag::Band) {
        const double x0 = m_pressPos.x() - area.left(), x1 = m_lastPos.x() - area.left();
        p.setPen(QPen(QColor(0x00, 0x72, 0xB2), 1));
        p.setBrush(QColor(0x00, 0x72, 0xB2, 40));
        p.drawRect(QRectF(std::min(x0, x1), 0, std::abs(x1 - x0), area.height() - 1));
    }
    p.restore();
}

void TimelineView::paintHeaders(QPainter& p, const QRect& area)
{
    p.save();
    const int width = canvasSize().width();
    p.setClipRect(QRect(0, area.top(), width, area.height()));
    QFont bold = m_headerFont;
    bold.setBold(true);
    const QColor text = Theme::text();
    const QColor quiet = Theme::mutedText();
    const QFontMetrics boldMetrics(bold);

    for (std::size_t i = 0; i < m_draw.lanes.size(); ++i) {
        const LaneItem& lane = m_draw.lanes[i];
        const QRectF row(6, area.top() + lane.y, m_headerWidth - 12, lane.h);
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

QString TimelineView::formatTime(double seconds, double step) const
{
    double scale = 1;
    QString pattern = tr("%1 s");
    if (step < 5e-4) {
        scale = 1e6;
        pattern = tr("%1 µs");
    } else if (step < 0.5) {
        scale = 1e3;
        pattern = tr("%1 ms");
    }
    const int decimals = std::clamp(int(std::ceil(-std::log10(step * scale) - 1e-9)), 0, 6);
    return pattern.arg(seconds * scale, 0, 'f', decimals);
}

void TimelineView::paintAxis(QPainter& p, const QRect& area)
{
    p.save();
    p.setFont(m_labelFont);
    const QFontMetricsF fm(m_labelFont);
    const QColor text = Theme::text();
    p.setPen(Theme::axis());
    p.drawLine(QLineF(area.left(), m_axisHeight - 0.5, area.right() + 1, m_axisHeight - 0.5));
    double step = 0;
    const std::vector<double> ticks = axisTicks(m_viewport, 90, &step);
    double lastRight = -1e9;
    for (double t : ticks) {
        const double x = area.left() + std::round(m_viewport.toX(t)) + 0.5;
        p.setPen(Theme::axis());
        p.drawLine(QLineF(x, m_axisHeight - 6, x, m_axisHeight));
        const QString label = formatTime(t, step);
        const double w = fm.horizontalAdvance(label);
        // Centred on the tick, pushed inside the time area at its ends, skipped if it would overlap.
        const double left = std::clamp(x - w / 2, double(area.left()), double(area.right()) - w);
        if (left < lastRight + 6) continue;
        p.setPen(text);
        p.drawText(QRectF(left, 2, w + 1, m_axisHeight - 8), Qt::AlignLeft | Qt::AlignVCenter, label);
        lastRight = left + w;
    }
    // Axis caption in the header column.
    p.setPen(Theme::mutedText());
    p.drawText(QRectF(6, 2, m_headerWidth - 12, m_axisHeight - 8), Qt::AlignLeft | Qt::AlignVCenter,
        tr("time in step"));
    // The playhead's marker on the axis.
    const double playhead = m_state ? m_state->playhead() : 0;
    if (!m_finalState && playhead >= m_viewport.start && playhead <= m_viewport.end) {
        const double x = area.left() + std::round(m_viewport.toX(playhead));
        QPainterPath marker;
        marker.moveTo(x - 5, m_axisHeight - 8);
        marker.lineTo(x + 5, m_axisHeight - 8);
        marker.lineTo(x, m_axisHeight);
        marker.closeSubpath();
        p.setRenderHint(QPainter::Antialiasing, true);
        p.fillPath(marker, TimelinePalette::playhead());
    }
    p.restore();
}

// ---- Interaction ---------------------------------------------------------------------------------------

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void TimelineView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) relayout();
    if (event->type() == QEvent::PaletteChange) prepareBrushes();
    QWidget::changeEvent(event);
}

bool TimelineView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString TimelineView::toolTipAt(const QPoint& pos) const
{
    if (!m_timeline) return {};
    const QRect area = timeArea();
    if (pos.x() < area.left() && pos.y() >= area.top()) return headerToolTip(pos.y() - area.top());
    if (!area.contains(pos)) return {};
    const double x = pos.x() - area.left(), y = pos.y() - area.top();
    for (const FoldedBlock& b : m_draw.folds)
        if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)
            return tr("%n ops folded here (mostly %1); zoom in to see them", nullptr, int(b.count))
                .arg(TimelinePalette::name(b.kind));
    const long long hit = hitTest(*m_timeline, *m_index, m_viewport, m_geometry, x, y);
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
    for (const BubbleRect& b : m_draw.bubbles)
        if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)
            return tr("idle (bubble) on rank %1: %2, from %3 to %4")
                .arg(b.rank)
                .arg(milliseconds(b.end - b.start), milliseconds(b.start), milliseconds(b.end));
    return {};
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    if (!m_timeline) return;
    const QPoint delta = event->angleDelta();
    const QRect area = timeArea();
    if (event->modifiers() & Qt::ShiftModifier) {
        setScroll(
            m_scrollY - (delta.y() != 0 ? delta.y() : delta.x()) / 120.0 * m_geometry.computeHeight * 2);
    } else if (std::abs(delta.x()) > std::abs(delta.y())) {
        const double shift = -delta.x() / 120.0 * 0.1 * (m_viewport.end - m_viewport.start);
        setRange(m_viewport.start + shift, m_viewport.end + shift);
    } else if (delta.y() != 0) {
        zoomAround(std::clamp(event->position().x() - area.left(), 0.0, double(area.width())),
            std::pow(0.8, delta.y() / 120.0));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_timeline) return QWidget::mousePressEvent(event);
    m_pressPos = m_lastPos = event->position().toPoint();
    m_pressStart = m_viewport.start;
    m_pressEnd = m_viewport.end;
    m_drag = (event->modifiers() & Qt::ShiftModifier) ? Drag::Band : Drag::Pending;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None) return QWidget::mouseMoveEvent(event);
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() > 4) m_drag = Drag::Pan;
    if (m_drag == Drag::Pan) {
        const double dt = -(pos.x() - m_pressPos.x()) * (m_pressEnd - m_pressStart) / timeArea().width();
        setRange(m_pressStart + dt, m_pressEnd + dt);
        setScroll(m_scrollY - (pos.y() - m_lastPos.y()));
    }
    m_lastPos = pos;
    if (m_drag == Drag::Band) update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None || event->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(event);
    const Drag drag = m_drag;
    m_drag = Drag::None;
    const QRect area = timeArea();
    const QPoint pos = event->position().toPoint();
    if (drag == Drag::Band) {
        const double x0 = std::min(pos.x(), m_pressPos.x()) - area.left();
        const double x1 = std::max(pos.x(), m_pressPos.x()) - area.left();
        if (x1 - x0 >= 3) setRange(m_viewport.toTime(x0), m_viewport.toTime(x1));
        update();
    } else if (drag == Drag::Pending && area.contains(pos)) {
        const long long hit = hitTest(
            *m_timeline, *m_index, m_viewport, m_geometry, pos.x() - area.left(), pos.y() - area.top());
        const Span* s = hit >= 0 ? &m_timeline->spans[std::size_t(hit)] : nullptr;
        if (s && s->microbatch >= 0)
            m_state->select(s->rank, s->stage, s->microbatch);
        else
            m_state->clearSelection();
    }
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) zoomToFit();
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    const double width = m_viewport.end - m_viewport.start;
    switch (event->key()) {
    case Qt::Key_F:
        zoomToFit();
        break;
    case Qt::Key_Escape:
        m_state->clearSelection();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround(m_viewport.widthPx / 2.0, 0.8);
        break;
    case Qt::Key_Minus:
        zoomAround(m_viewport.widthPx / 2.0, 1.25);
        break;
    case Qt::Key_Left:
        setRange(m_viewport.start - width / 10, m_viewport.end - width / 10);
        break;
    case Qt::Key_Right:
        setRange(m_viewport.start + width / 10, m_viewport.end + width / 10);
        break;
    case Qt::Key_Space:
        m_state->setPlaying(!m_state->isPlaying());
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    event->accept();
}

void TimelineView::setFinalState(bool final)
{
    if (final == m_finalState) return;
    m_finalState = final;
    update();
}

void TimelineView::setFitAllLanes(bool fit)
{
    if (fit == m_fitAllLanes) return;
    m_fitAllLanes = fit;
    relayout();
}

bool TimelineView::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isEmpty()) size = width() >= 300 && height() >= 150 ? this->size() : QSize(1400, 800);
    // Painted by the same code as the screen, at the export's size, without touching the widget's geometry
    // (it may sit in a layout); written by the one exporter.
    m_exportSize = size;
    const bool wasFinal = m_finalState;
    m_finalState = true;
    relayout();
    const bool ok = WidgetExporter::exportPainted(
        path, size,
        [this](QPaintDevice* device, const QRectF&) {
            QPainter p;
            if (!p.begin(device)) return false;
            paintAll(p);
            return p.end();
        },
        error, tr("PlanScope timeline"), Theme::background());
    m_exportSize = QSize();
    m_finalState = wasFinal;
    relayout();
    return ok;
}

} // namespace planscope
