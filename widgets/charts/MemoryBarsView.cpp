#include "charts/MemoryBarsView.h"
#include "Format.h"
#include "WidgetExporter.h"

#include "document/ViewState.h"
#include "sim/Timeline.h"

#include "Palette.h"
#include "document/PlanDocument.h"
#include "Theme.h"
#include "analysis/Analysis.h"
#include "spec/SplitText.h"
#include "util/Units.h"

#include <QEvent>
#include <QFileInfo>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace planscope {

namespace {
// The chart's values are GiB already.
QString gib(double gibValue)
{
    return display::gib(gibValue * units::kGiB);
}

QPen simulatedPeakPen()
{
    return QPen(Theme::text(), 2.5);
}

QPen steadyPen()
{
    return QPen(Theme::text(), 1.5, Qt::DotLine);
}

// The point of a memory step function at time t (the last at or before it).
MemoryPoint memoryPointAt(const std::vector<MemoryPoint>& points, double t)
{
    if (points.empty()) return {};
    auto it = std::upper_bound(points.begin(), points.end(), t, [](double v, const MemoryPoint& p) { return v < p.time; });
    return it == points.begin() ? points.front() : *std::prev(it);
}
} // namespace

MemoryBarsView::MemoryBarsView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    // Never laid out at 0 x 0 (a hidden page): QCustomPlot would paint into a null buffer and warn.
    m_plot->setMinimumSize(160, 120);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->plotLayout()->insertRow(0);
    m_title
        = new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize() + 2, QFont::Bold));
    m_plot->plotLayout()->addElement(0, 0, m_title);

    // The legend in its own row under the chart, so it never covers a bar.
    auto* legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(2, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 5));
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setWrap(4);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);

    for (MemorySegment segment : kMemorySegments) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        const QColor colour = segmentColor(segment);
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(140), 1));
        bars->setWidth(0.62);
        bars->setAntialiased(false);
        if (!m_bars.isEmpty()) bars->moveAbove(m_bars.back());
        m_bars.push_back(bars);
    }
    m_capacity = m_plot->addGraph();
    m_capacity->setPen(QPen(palette::capacityLine(), 2, Qt::DashLine));
    m_usable = m_plot->addGraph();
    m_usable->setPen(QPen(palette::capacityLine(), 1, Qt::DotLine));
    // Legend entries of the per-stage marks (drawn as items across each bar): no data of their own.
    m_simulatedPeakKey = m_plot->addGraph();
    m_steadyKey = m_plot->addGraph();

    m_plot->yAxis->grid()->setSubGridVisible(false);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setTickLength(0, 4);
    // The right axis carries one tick: the capacity, named beside its line, outside the bars.
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setTickLength(0, 6);
    m_plot->yAxis2->setSubTicks(false);
    m_plot->yAxis2->setBasePen(Qt::NoPen);
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_plot->yAxis2,
        qOverload<const QCPRange&>(&QCPAxis::setRange));
    // The labels above the bars are placed for the width the chart gets, at every layout (screen and export).
    connect(m_plot, &QCustomPlot::afterLayout, this, &MemoryBarsView::placeBarLabels);
    // As many legend columns as the widest entry allows at the chart's width (screen and export), so that no entry is
    // cut on a narrow page and a wide one does not waste rows.
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] {
        QCPLegend* legend = m_plot->legend;
        int widest = 1, entries = 0;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = legend->item(i)) {
                widest = std::max(widest, item->minimumOuterSizeHint().width());
                ++entries;
            }
        const int available = m_plot->width() - 20;
        const int columns = std::clamp(available / widest, 1, std::max(1, entries));
        if (columns != legend->wrap()) {
            legend->setWrap(columns);
            legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
    });

    connect(m_plot, &QCustomPlot::mouseMove, this, &MemoryBarsView::showToolTip);
    connect(Theme::instance(), &Theme::changed, this, &MemoryBarsView::rebuild);
    rebuild();
}

MemoryBarsView::~MemoryBarsView() = default;

void MemoryBarsView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_prediction = analysis ? std::shared_ptr<const Prediction>(analysis, &analysis->prediction) : nullptr;
    m_analysis = std::move(analysis);
    rebuild();
}

void MemoryBarsView::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this, [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void MemoryBarsView::setPrediction(std::shared_ptr<const Prediction> prediction)
{
    m_analysis = nullptr;
    m_prediction = std::move(prediction);
    rebuild();
}

void MemoryBarsView::setSharedMaximumGiB(double gib)
{
    if (gib == m_sharedMaximumGiB) return;
    m_sharedMaximumGiB = std::max(0.0, gib);
    rebuild();
}

void MemoryBarsView::setCompact(bool compact)
{
    if (compact == m_compact) return;
    m_compact = compact;
    // Out of the legend, which QCustomPlot lays out (and makes room for) even while it is hidden.
    for (QCPBars* bars : m_bars) compact ? bars->removeFromLegend() : bars->addToLegend();
    compact ? m_capacity->removeFromLegend() : m_capacity->addToLegend();
    compact ? m_usable->removeFromLegend() : m_usable->addToLegend();
    rebuild();
}

void MemoryBarsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) rebuild();
    QWidget::changeEvent(event);
}

void MemoryBarsView::rebuild()
{
    m_plot->clearItems();
    m_barLabels.clear();
    m_barLabelAlarm.clear();
    m_capacityLabel.clear();
    m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
    m_overflowLabels.clear();
    for (QCPBars* bars : m_bars)
        bars->data()->clear();
    m_capacity->data()->clear();
    m_usable->data()->clear();
    m_capacityGiB = 0;
    styleCustomPlot(m_plot);
    m_capacity->setPen(QPen(Theme::capacityLine(), 2, Qt::DashLine));
    m_usable->setPen(QPen(Theme::capacityLine(), 1, Qt::DotLine));
    m_simulatedPeakKey->setPen(simulatedPeakPen());
    m_steadyKey->setPen(steadyPen());
    m_simulatedPeakKey->setName(tr("Simulated peak inside the step"));
    m_steadyKey->setName(tr("Steady state (no temporaries, no slack)"));
    m_simulatedPeaks.clear();

    for (std::size_t i = 0; i < kMemorySegments.size(); ++i)
        m_bars[int(i)]->setName(segmentName(kMemorySegments[i]));
    m_capacity->setName(tr("GPU capacity"));
    m_plot->yAxis->setLabel(tr("GiB per GPU (2^30 bytes)"));
    m_plot->xAxis->setLabel(tr("Pipeline stage (every GPU of a stage holds the same)"));

    const Prediction* pr = m_prediction.get();
    // Each stage's layers, from the plan of the analysis shown (none for a prediction given alone).
    m_stageLayers.clear();
    m_stageLayerIndices.clear();
    if (m_analysis) {
        for (const std::string& text : rankSplitTexts(m_analysis->plan)) m_stageLayers << QString::fromStdString(text);
        for (const std::string& text : rankLayerRanges(m_analysis->plan)) m_stageLayerIndices << QString::fromStdString(text);
    }
    m_tickLayersShown = false;
    if (!pr || !pr->valid || pr->stages.empty()) {
        m_title->setText(
            pr ? tr("No memory to show: this plan cannot run (the Metrics page says why)") : tr("No plan loaded"));
        m_title->setTextColor(pr ? Theme::alarmText() : Theme::text());
        m_plot->legend->setVisible(false);
        if (pr && !pr->errors.empty()) {
            // The reasons, in the middle of the empty chart, so a picture of this view says why it is empty.
            auto* reasons = new QCPItemText(m_plot);
            reasons->position->setType(QCPItemPosition::ptAxisRectRatio);
            reasons->position->setCoords(0.5, 0.4);
            reasons->setPositionAlignment(Qt::AlignCenter);
            reasons->setTextAlignment(Qt::AlignLeft);
            reasons->setColor(Theme::alarmText());
            reasons->setPadding(QMargins(12, 8, 12, 8));
            reasons->setPen(QPen(Theme::alarmText()));
            reasons->setBrush(Theme::background());
            reasons->setText(PlanDocument::describe(pr->errors));
        }
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
        m_plot->xAxis->setRange(-0.5, 3.5);
        m_plot->yAxis->setRange(0, 80);
        replotIfSized(m_plot);
        return;
    }

    m_plot->legend->setVisible(!m_compact);
    const int stages = int(pr->stages.size());
    const double capacity = units::toGiB(double(pr->capacityBytes));
    m_capacityGiB = capacity;
    double highest = capacity;
    QVector<double> keys;
    for (int s = 0; s < stages; ++s)
        keys << s;
    // At the playhead the activations are what the simulated step holds then; everything else is static.
    const Timeline* timeline = m_analysis ? m_analysis->timeline.get() : nullptr;
    const bool atPlayhead = m_mode == Mode::AtPlayhead && timeline && m_viewState
        && int(timeline->memory.size()) == stages;
    std::vector<StageMemory> shown = pr->stages;
    if (atPlayhead) {
        // In use at the playhead: the static terms, the activations in flight and the running op's temporaries
        // (reserved memory is the peak's: the slack is not drawn here).
        for (int s = 0; s < stages; ++s) {
            StageMemory& st = shown[std::size_t(s)];
            const MemoryPoint now = memoryPointAt(timeline->memory[std::size_t(s)], m_viewState->playhead());
            const std::int64_t fixed = st.weightsBytes + st.gradientsBytes + st.optimizerBytes
                + st.buffers.runtimeBytes() + st.buffers.communicationBytes();
            st.buffers.zeroGatherBytes = now.temporaryBytes;
            st.buffers.logitsBytes = 0;
            st.buffers.fragmentationBytes = 0;
            st.activationsBytes = std::max<std::int64_t>(0, now.bytes - fixed - now.temporaryBytes);
            st.totalBytes = fixed + st.activationsBytes + now.temporaryBytes;
        }
    }
    for (std::size_t i = 0; i < kMemorySegments.size(); ++i) {
        QVector<double> values;
        for (const StageMemory& st : shown)
            values << units::toGiB(double(segmentBytes(st, kMemorySegments[i])));
        m_bars[int(i)]->setData(keys, values, true);
    }

    // Drawn before the labels, which stand on top with their backdrop. Per stage, across its bar: the simulated peak inside the step (solid) and the steady state (dotted).
    const bool marks = !atPlayhead;
    bool anySimulated = false;
    for (const StageMemory& st : shown) {
        if (!marks) break;
        auto mark = [&](std::int64_t bytes, const QPen& pen) {
            auto* line = new QCPItemLine(m_plot);
            line->start->setCoords(st.stage - 0.36, units::toGiB(double(bytes)));
            line->end->setCoords(st.stage + 0.36, units::toGiB(double(bytes)));
            line->setPen(pen);
            line->setSelectable(false);
        };
        mark(st.steadyBytes, steadyPen());
        if (st.simulatedPeakBytes > 0) {
            mark(st.simulatedPeakBytes, simulatedPeakPen());
            highest = std::max(highest, units::toGiB(double(st.simulatedPeakBytes)));
            anySimulated = true;
        }
        m_simulatedPeaks << (st.simulatedPeakBytes > 0 ? units::toGiB(double(st.simulatedPeakBytes)) : -1.0);
    }
    if (anySimulated && !m_compact) m_simulatedPeakKey->addToLegend();
    else m_simulatedPeakKey->removeFromLegend();
    if (marks && !m_compact) m_steadyKey->addToLegend();
    else m_steadyKey->removeFromLegend();

    // Labels above each bar: the total, and for a stage over capacity the overflow in red. With many
    // stages only the overflows are written; placeBarLabels() turns or thins them so that none collide.
    const bool writeTotals = stages <= 24;
    QFont labelFont = font();
    QFont alarmFont = font();
    alarmFont.setBold(true);
    for (const StageMemory& st : shown) {
        const double total = units::toGiB(double(st.totalBytes));
        highest = std::max(highest, total);
        const double over = total - capacity;
        QStringList lines;
        if (over > 0) lines << tr("over by %1").arg(gib(over));
        if (writeTotals) lines << gib(total);
        if (lines.isEmpty()) continue;
        auto* text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        // Above the simulated peak's mark where it is higher than the bar.
        text->position->setCoords(st.stage, std::max(total, marks ? units::toGiB(double(st.simulatedPeakBytes)) : 0.0));
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setTextAlignment(Qt::AlignHCenter);
        text->setPadding(QMargins(2, 1, 2, 4)); // clear of the simulated peak's mark under it
        text->setBrush(Theme::labelBackdrop()); // stays readable where the capacity line runs behind it
        text->setText(lines.join(QLatin1Char('\n')));
        text->setFont(over > 0 ? alarmFont : labelFont);
        text->setColor(over > 0 ? Theme::alarmText() : Theme::pick(QColor(0x30, 0x30, 0x30), Theme::text()));
        if (over > 0) m_overflowLabels << lines.front();
        m_barLabels << text;
        m_barLabelAlarm << (over > 0);
    }
    m_naturalHighest = highest;
    highest = std::max(highest, m_sharedMaximumGiB);
    m_highest = highest;

    const double left = -0.6, right = stages - 0.4; // the x range; SVG export does not clip, so not beyond it
    m_capacity->setData({ left, right }, { capacity, capacity });
    // The planner's fit: a plan leaves the headroom free below this line (memoryOverheads.headroom).
    const double usable = units::toGiB(double(pr->usableBytes));
    const bool showUsable = pr->usableBytes > 0 && pr->usableBytes < pr->capacityBytes;
    m_usable->setData(showUsable ? QVector<double> { left, right } : QVector<double> {},
        showUsable ? QVector<double> { usable, usable } : QVector<double> {});
    m_usable->setName(tr("Planner's fit: %1 % of the GPU left free")
                          .arg(100.0 * (1.0 - double(pr->usableBytes) / double(pr->capacityBytes)), 0, 'f', 0));
    if (!showUsable || m_compact) m_usable->removeFromLegend();
    else m_usable->addToLegend();
    m_capacityLabel = tr("GPU capacity\n%1 GB = %2")
                          .arg(units::toGB(double(pr->capacityBytes)), 0, 'f', 1)
                          .arg(gib(capacity));
    auto capacityTicker = QSharedPointer<QCPAxisTickerText>::create();
    capacityTicker->addTick(capacity, m_capacityLabel);
    m_plot->yAxis2->setTicker(capacityTicker);
    m_plot->yAxis2->setTickLabelColor(Theme::text());
    m_plot->yAxis2->setTickLabels(!m_compact); // compact: the capacity is named in the title, the chart keeps the width
    m_plot->yAxis2->setTickPen(QPen(Theme::capacityLine(), 2));

    m_plot->xAxis->setRange(left, right);
    setStageTicks(!m_stageLayers.isEmpty(), true);
    // Room above the tallest bar for its labels (placeBarLabels() makes more where they stand upright).
    m_plot->yAxis->setRange(0, m_sharedMaximumGiB > 0 ? m_sharedMaximumGiB * 1.25 : highest * (writeTotals ? 1.2 : 1.12));

    const StageMemory& peak = pr->stages[std::size_t(pr->peakStage)];
    if (atPlayhead)
        m_title->setText(tr("Memory per GPU at %1 ms of the step (peak %2 on stage %3, capacity %4)")
                             .arg(m_viewState->playhead() * 1e3, 0, 'f', 1)
                             .arg(gib(units::toGiB(double(peak.totalBytes))))
                             .arg(pr->peakStage)
                             .arg(gib(capacity)));
    else if (m_compact)
        // Two lines: QCustomPlot gives a title its whole width as the chart's least width, so one long line would
        // squeeze the bars of a narrow chart to nothing.
        m_title->setText(tr("Peak %1 on stage %2\nof %3")
                             .arg(gib(units::toGiB(double(peak.totalBytes))))
                             .arg(pr->peakStage)
                             .arg(gib(capacity)));
    else
        m_title->setText(tr("Memory per GPU by pipeline stage: peak %1 on stage %2, capacity %3")
                             .arg(gib(units::toGiB(double(peak.totalBytes))))
                             .arg(pr->peakStage)
                             .arg(gib(capacity)));
    m_title->setTextColor(pr->fits ? Theme::text() : Theme::alarmText());
    replotIfSized(m_plot);
}

void MemoryBarsView::showToolTip(QMouseEvent* event)
{
    if (!m_prediction || !m_prediction->valid || m_prediction->stages.empty()) return;
    const double key = m_plot->xAxis->pixelToCoord(event->position().x());
    const int stage = int(std::lround(key));
    if (stage < 0 || stage >= int(m_prediction->stages.size()) || std::abs(key - stage) > 0.31) {
        QToolTip::hideText();
        return;
    }
    const StageMemory& st = m_prediction->stages[std::size_t(stage)];
    const double y = m_plot->yAxis->pixelToCoord(event->position().y());
    QStringList lines { tr("Stage %1: %2 (%3 bytes)")
                            .arg(stage)
                            .arg(gib(units::toGiB(double(st.totalBytes))))
                            .arg(st.totalBytes) };
    if (!stageLayersLabel(stage).isEmpty()) {
        lines << tr("layers %1 (E embedding, L loss, | between chunks)").arg(stageLayersLabel(stage).toHtmlEscaped());
        if (stage < m_stageLayerIndices.size() && !m_stageLayerIndices[stage].isEmpty())
            lines << tr("transformer layers %1").arg(m_stageLayerIndices[stage]);
    }
    double bottom = 0;
    // Top segment first, as stacked on screen; the one under the pointer in bold.
    QStringList segments;
    for (MemorySegment seg : kMemorySegments) {
        const double bytes = double(segmentBytes(st, seg));
        const double top = bottom + units::toGiB(bytes);
        QString line = QStringLiteral("%1: %2 (%3 bytes)")
                           .arg(segmentName(seg), gib(units::toGiB(bytes)))
                           .arg(qint64(bytes));
        if (y >= bottom && y < top) line = QStringLiteral("<b>%1</b>").arg(line);
        segments.prepend(line);
        bottom = top;
    }
    lines << segments;
    lines << tr("Allocated %1, reserved %2 (the slack: %3)")
                 .arg(gib(units::toGiB(double(st.allocatedBytes))), gib(units::toGiB(double(st.reservedBytes))),
                     gib(units::toGiB(double(st.buffers.fragmentationBytes))));
    lines << tr("Steady state between ops: %1").arg(gib(units::toGiB(double(st.steadyBytes))));
    if (st.simulatedPeakBytes > 0)
        lines << tr("Simulated peak inside the step: %1").arg(gib(units::toGiB(double(st.simulatedPeakBytes))));
    QToolTip::showText(event->globalPosition().toPoint(), lines.join(QStringLiteral("<br>")), m_plot);
}

bool MemoryBarsView::exportTo(const QString& path, int width, int height)
{
    if (width <= 0 || height <= 0) {
        const bool sized = m_plot->width() > 200 && m_plot->height() > 150;
        width = sized ? m_plot->width() : 1400;
        height = sized ? m_plot->height() : 900;
    }
    // QCustomPlot paints through its own QCPPainter, laid out in pixels at 96 dpi.
    const bool ok = WidgetExporter::exportPainted(
        path, QSize(width, height),
        [this, width, height](QPaintDevice* device, const QRectF&) {
            QCPPainter painter;
            if (!painter.begin(device)) return false;
            if (!dynamic_cast<QImage*>(device)) { // SVG, PDF: vector output, as QCustomPlot's own savePdf
                painter.setMode(QCPPainter::pmVectorized);
                painter.setMode(QCPPainter::pmNoCaching);
            }
            m_plot->toPainter(&painter, width, height);
            return painter.end();
        },
        nullptr, m_title->text(), Theme::background());
    // Draw again at the widget's own size: the exports above lay the chart out at theirs.
    replotIfSized(m_plot);
    return ok;
}

QString MemoryBarsView::stageLayersLabel(int stage) const
{
    return stage >= 0 && stage < m_stageLayers.size() ? m_stageLayers[stage] : QString();
}

QString MemoryBarsView::tickLabel(int stage) const
{
    const int stages = stageCount();
    QString label = stages <= 8 && !m_compact ? tr("Stage %1").arg(stage) : QString::number(stage);
    if (m_tickLayersShown && !stageLayersLabel(stage).isEmpty()) label += QLatin1Char('\n') + stageLayersLabel(stage);
    return label;
}

bool MemoryBarsView::setStageTicks(bool withLayers, bool force)
{
    withLayers = withLayers && !m_stageLayers.isEmpty();
    const int stages = stageCount();
    if (withLayers == m_tickLayersShown && !force) return false;
    m_tickLayersShown = withLayers;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int every = std::max(1, (stages + 15) / 16);
    for (int s = 0; s < stages; s += every)
        ticker->addTick(s, tickLabel(s));
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(m_compact ? tr("Pipeline stage")
            : withLayers
            ? tr("Pipeline stage and its layers (E embedding, L loss, | between chunks); every GPU of a stage holds the same")
            : tr("Pipeline stage (every GPU of a stage holds the same)"));
    return true;
}

bool MemoryBarsView::layersFitTicks() const
{
    const int stages = stageCount();
    if (m_stageLayers.isEmpty() || stages <= 0) return false;
    const int every = std::max(1, (stages + 15) / 16);
    const double room = every * std::abs(m_plot->xAxis->coordToPixel(1.0) - m_plot->xAxis->coordToPixel(0.0)) - 6;
    const QFontMetricsF fm(m_plot->xAxis->tickLabelFont());
    for (int s = 0; s < stages; s += every)
        if (fm.horizontalAdvance(stageLayersLabel(s)) > room) return false;
    return true;
}

void MemoryBarsView::placeBarLabels()
{
    // The layers under the ticks only where each fits the width of its stage; a change of the tick labels' height
    // moves the axis, so the layout is run again.
    if (setStageTicks(layersFitTicks()))
        for (auto phase : { QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout })
            m_plot->plotLayout()->update(phase);
    if (m_barLabels.isEmpty()) return;
    const double spacing
        = std::abs(m_plot->xAxis->coordToPixel(1.0) - m_plot->xAxis->coordToPixel(0.0)); // one stage, in pixels
    // Each label's box, level.
    QList<QSizeF> boxes;
    double widest = 0;
    for (const QCPItemText* label : std::as_const(m_barLabels)) {
        const QFontMetricsF fm(label->font());
        double w = 0;
        const QStringList lines = label->text().split(QLatin1Char('\n'));
        for (const QString& line : lines)
            w = std::max(w, fm.horizontalAdvance(line));
        const QMargins pad = label->padding();
        boxes << QSizeF(w + pad.left() + pad.right() + 1, lines.size() * fm.lineSpacing() + pad.top() + pad.bottom());
        widest = std::max(widest, boxes.back().width());
    }
    // Level while every label fits its stage's width; else upright (reading upwards from the bar's top), where
    // each takes its height across; and where even that is too wide, every other one (the overflows first).
    const bool upright = widest > spacing - 4;
    QList<bool> shown(m_barLabels.size(), false);
    QList<std::pair<double, double>> taken; // x ranges of the labels kept
    for (const bool alarms : { true, false })
        for (int i = 0; i < m_barLabels.size(); ++i) {
            if (m_barLabelAlarm[i] != alarms) continue;
            const double across = upright ? boxes[i].height() : boxes[i].width();
            const double x = m_plot->xAxis->coordToPixel(m_barLabels[i]->position->coords().x());
            const double left = x - across / 2, right = x + across / 2;
            const bool free = std::none_of(taken.begin(), taken.end(),
                [&](const std::pair<double, double>& t) { return left < t.second + 2 && right > t.first - 2; });
            if (!free) continue;
            shown[i] = true;
            taken.push_back({ left, right });
        }
    // The y range leaves each shown label room under the top of the chart: a label reaching e pixels above a
    // bar of t GiB needs an axis to t * h / (h - e) on a chart h pixels high.
    const double height = m_plot->axisRect()->height();
    double upper = m_highest * 1.08;
    for (int i = 0; i < m_barLabels.size(); ++i) {
        QCPItemText* label = m_barLabels[i];
        label->setVisible(shown[i]);
        label->setRotation(upright ? -90 : 0);
        label->setPositionAlignment(upright ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignHCenter | Qt::AlignBottom);
        label->setTextAlignment(upright ? Qt::AlignLeft : Qt::AlignHCenter);
        const double reach = (upright ? boxes[i].width() : boxes[i].height()) + 6;
        if (shown[i])
            upper = std::max(upper, label->position->coords().y() * height / std::max(height / 4, height - reach));
    }
    if (m_sharedMaximumGiB > 0) {
        // One scale for the charts side by side: the scale does not grow for the labels, so a label that would reach
        // past the top (over the title, or cut) is left out; the caption names the peak and hovering gives each.
        upper = m_sharedMaximumGiB * 1.25;
        for (int i = 0; i < m_barLabels.size(); ++i) {
            if (!shown[i]) continue;
            const double reach = (upright ? boxes[i].width() : boxes[i].height()) + 6;
            if (m_barLabels[i]->position->coords().y() + reach * upper / std::max(1.0, height) > upper)
                m_barLabels[i]->setVisible(false);
        }
    }
    // A new range needs new ticks, so the layout is run again (this is called after a layout, before drawing).
    if (std::abs(upper - m_plot->yAxis->range().upper) > 1e-6 * upper) {
        m_plot->yAxis->setRange(0, upper);
        for (auto phase : { QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout })
            m_plot->plotLayout()->update(phase);
    }
}

QList<QRectF> MemoryBarsView::barLabelRects() const
{
    QList<QRectF> rects;
    for (const QCPItemText* label : m_barLabels) {
        if (!label->visible()) continue;
        QPolygonF corners;
        for (const QCPItemAnchor* a : { label->topLeft, label->topRight, label->bottomLeft, label->bottomRight })
            corners << a->pixelPosition();
        rects << corners.boundingRect();
    }
    return rects;
}

QList<QRectF> MemoryBarsView::barRects() const
{
    QList<QRectF> rects;
    if (m_bars.isEmpty()) return rects;
    const int stages = m_bars.front()->data()->size();
    const double half = m_bars.front()->width() / 2;
    for (int s = 0; s < stages; ++s) {
        double top = 0;
        for (const QCPBars* bars : m_bars)
            top += (bars->data()->constBegin() + s)->value;
        const QPointF a(m_plot->xAxis->coordToPixel(s - half), m_plot->yAxis->coordToPixel(0));
        const QPointF b(m_plot->xAxis->coordToPixel(s + half), m_plot->yAxis->coordToPixel(top));
        rects << QRectF(a, b).normalized();
    }
    return rects;
}

int MemoryBarsView::stageCount() const
{
    return m_bars.isEmpty() ? 0 : m_bars.front()->data()->size();
}

double MemoryBarsView::plottedGiB(MemorySegment segment, int stage) const
{
    const auto index = std::size_t(
        std::find(kMemorySegments.begin(), kMemorySegments.end(), segment) - kMemorySegments.begin());
    const QCPBars* bars = m_bars.value(int(index));
    if (!bars || stage < 0 || stage >= bars->data()->size()) return -1;
    return (bars->data()->constBegin() + stage)->value;
}

double MemoryBarsView::capacityGiB() const
{
    return m_capacityGiB;
}

QStringList MemoryBarsView::overflowLabels() const
{
    return m_overflowLabels;
}

void MemoryBarsView::setMode(Mode mode)
{
    if (mode == m_mode) return;
    m_mode = mode;
    rebuild();
}

void MemoryBarsView::setViewState(ViewState* state)
{
    if (m_viewState) disconnect(m_viewState, nullptr, this, nullptr);
    m_viewState = state;
    if (state)
        connect(state, &ViewState::playheadChanged, this, [this] {
            if (m_mode == Mode::AtPlayhead) rebuild();
        });
    rebuild();
}

} // namespace planscope
