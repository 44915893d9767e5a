#include "charts/PlannerScatter.h"

#include "charts/LogTickers.h"

#include "Palette.h"
#include "Theme.h"
#include "util/Units.h"

#include <QMouseEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>

namespace planscope {

namespace {

// Colour-blind-safe colours for the values of the colour knob (Palette.h), then the same colours with another
// shape, so that up to 32 values stay apart.
QColor groupColour(int i)
{
    static const QColor colours[] = { palette::blue(), palette::orange(), palette::bluishGreen(), palette::vermillion(),
        palette::reddishPurple(), palette::skyBlue(), palette::yellow().darker(140), palette::grey().darker(150) };
    return colours[i % 8];
}

// A group's marker drawn once into a pixmap: tens of thousands of points are then one drawPixmap each, about ten times
// faster than QCustomPlot drawing each shape with antialiasing (a replot of 20000 points: ~3 ms instead of ~40 ms).
QPixmap markerPixmap(QCPScatterStyle::ScatterShape shape, const QColor& colour, qreal ratio)
{
    constexpr int kSize = 5, kSide = kSize + 2;
    QPixmap dot(int(std::ceil(kSide * ratio)), int(std::ceil(kSide * ratio)));
    dot.setDevicePixelRatio(ratio);
    dot.fill(Qt::transparent);
    QCPPainter painter(&dot);
    painter.setRenderHint(QPainter::Antialiasing);
    const QCPScatterStyle style(shape, colour, colour, kSize);
    style.applyTo(&painter, QPen(colour));
    style.drawShape(&painter, kSide / 2.0, kSide / 2.0);
    return dot;
}

QCPScatterStyle::ScatterShape groupShape(int i)
{
    static const QCPScatterStyle::ScatterShape shapes[]
        = { QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond };
    return shapes[(i / 8) % 4];
}

// A legend with more entries than this is wrapped into columns.
constexpr int kLegendRows = 14;
// Step times spread wider than this factor are drawn on a logarithmic axis: a space holds plans a hundred times
// slower than the best, and the interesting ones crowd near the best.
constexpr double kLogRatio = 3.0;

} // namespace

QString knobValueText(Knob knob, const Candidate& c)
{
    switch (knob) {
    case Knob::SP: return c.sp ? PlannerScatter::tr("on") : PlannerScatter::tr("off");
    case Knob::Recompute: return QString::fromStdString(c.recompute.label());
    case Knob::Schedule: return QString::fromStdString(std::string(toString(c.schedule)));
    case Knob::Overlap: {
        // The overlap mask's bits by the names of Megatron-Core's flags they stand for.
        QStringList on;
        if (c.overlap & kOverlapGradReduce) on << QStringLiteral("grad");
        if (c.overlap & kOverlapTpComm) on << QStringLiteral("tp");
        if (c.overlap & kOverlapP2p) on << QStringLiteral("p2p");
        return on.isEmpty() ? PlannerScatter::tr("none") : on.join(QLatin1Char('+'));
    }
    case Knob::Offload: return QStringLiteral("%1 %").arg(c.offload * 100.0, 0, 'f', 0);
    default: return QString::number(qlonglong(std::llround(knobValueKey(knob, c)))); // counts and degrees: the key
    }
}

double knobValueKey(Knob knob, const Candidate& c) { return knobInfo(knob).key(c); }

PlannerScatter::PlannerScatter(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    // Never laid out at 0 x 0 (a hidden page): QCustomPlot would paint into a null buffer and warn.
    m_plot->setMinimumSize(200, 160);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // The legend (the colour key and the marks) in a column of its own right of the chart, at its top: it never
    // covers points.
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_legendBox = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, m_legendBox);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_legendBox->addElement(0, 0, m_plot->legend);
    m_legendBox->addElement(1, 0, new QCPLayoutElement(m_plot)); // the room under the legend
    m_legendBox->setRowStretchFactor(0, 0.001);
    m_legendBox->setRowSpacing(0);
    m_legendBox->setMargins(QMargins(0, 0, 6, 0)); // the legend's frame clear of the widget's edge
    m_plot->legend->setMargins(QMargins(6, 4, 6, 4));
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foRowsFirst, false);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_plot->legend->setFont(small);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { m_pressAt = e->pos(); });
    connect(m_plot, &QCustomPlot::mouseRelease, this, &PlannerScatter::onRelease);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &PlannerScatter::onDoubleClick);
    connect(Theme::instance(), &Theme::changed, this, &PlannerScatter::rebuild);
    rebuild();
}

PlannerScatter::~PlannerScatter() = default;

std::shared_ptr<const ScatterPoints> prepareScatter(std::shared_ptr<const SearchResult> result)
{
    if (!result) return nullptr;
    auto out = std::make_shared<ScatterPoints>();
    const std::vector<SearchPoint>& points = result->points;
    out->candidates.reserve(points.size());
    for (const SearchPoint& p : points) out->candidates.push_back(candidateAt(result->space, p.index));
    out->byTime.resize(points.size());
    for (std::uint32_t i = 0; i < out->byTime.size(); ++i) out->byTime[i] = i;
    std::stable_sort(out->byTime.begin(), out->byTime.end(),
        [&points](std::uint32_t a, std::uint32_t b) { return points[a].stepSeconds < points[b].stepSeconds; });
    out->result = std::move(result);
    return out;
}

void PlannerScatter::setPoints(std::shared_ptr<const ScatterPoints> points)
{
    m_points = std::move(points);
    m_result = m_points ? m_points->result.get() : nullptr;
    m_selectedIndex.reset();
    rebuild();
}

void PlannerScatter::setColourKnob(Knob knob)
{
    if (knob == m_colourKnob) return;
    m_colourKnob = knob;
    rebuild();
}

void PlannerScatter::setSelected(std::optional<std::int64_t> index, double stepSeconds, std::int64_t peakBytes)
{
    m_selectedIndex = index;
    m_selectedSeconds = stepSeconds;
    m_selectedBytes = peakBytes;
    moveSelection();
}

int PlannerScatter::pointCount() const
{
    return m_pointCount;
}

QStringList PlannerScatter::colourKey() const
{
    return m_colourKey;
}

void PlannerScatter::rebuild()
{
    m_plot->clearGraphs();
    m_plot->legend->clearItems();
    m_selection = nullptr;
    m_picks.clear();
    m_pointCount = 0;
    m_colourKey.clear();
    m_evidenceBands.clear();
    m_plot->clearItems();
    m_marksOpenPlan = false;
    styleCustomPlot(m_plot);
    m_plot->xAxis->setScaleType(QCPAxis::stLinear);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->xAxis->setLabel(tr("Step time (s)"));
    m_plot->yAxis->setLabel(tr("Peak memory per GPU (GiB)"));
    if (m_result) {
        addEvidenceRegions(); // under the points
        addColourGroups();
        addFront();
        addMarkers();
    }
    fitRanges();
    // The selection mark last: drawn over everything.
    m_selection = m_plot->addGraph();
    m_selection->setName(tr("selected plan"));
    m_selection->setLineStyle(QCPGraph::lsNone);
    m_selection->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Theme::playhead(), 2.5), Qt::NoBrush, 17));
    m_plot->legend->setVisible(m_result != nullptr);
    placeLegend();
    moveSelection();
}

void PlannerScatter::addColourGroups()
{
    struct Group {
        QString text;
        QVector<double> x, y;
    };
    std::map<double, Group> groups;
    const std::vector<SearchPoint>& points = m_result->points;
    // In step-time order: each group's data arrives sorted and QCustomPlot need not sort it.
    for (std::uint32_t i : m_points->byTime) {
        const Candidate& c = m_points->candidates[i];
        Group& g = groups[knobValueKey(m_colourKnob, c)];
        if (g.text.isEmpty()) g.text = knobValueText(m_colourKnob, c);
        const double seconds = points[i].stepSeconds, gib = units::toGiB(double(points[i].peakBytes));
        g.x << seconds;
        g.y << gib;
        m_picks.push_back({ seconds, gib, points[i].index });
    }
    const QString name = QString::fromLatin1(knobName(m_colourKnob));
    int i = 0;
    for (auto& [key, g] : groups) {
        QCPGraph* graph = m_plot->addGraph();
        graph->setName(QStringLiteral("%1 = %2").arg(name, g.text));
        graph->setLineStyle(QCPGraph::lsNone);
        QColor fill = groupColour(i);
        fill.setAlpha(170); // dense clouds show their density
        graph->setScatterStyle(QCPScatterStyle(markerPixmap(groupShape(i), fill, devicePixelRatioF())));
        m_pointCount += int(g.x.size());
        graph->setData(g.x, g.y, true);
        m_colourKey << graph->name();
        ++i;
    }
}

std::vector<PlannerScatter::MfuBand> PlannerScatter::mfuBands() const
{
    // Per GPU count the step time of the ceiling's MFU (step x MFU is the same for every plan of one count and
    // global batch), from that count's fastest plan.
    std::vector<MfuBand> bands;
    if (!m_result || !m_result->evidence.hasCeiling) return bands;
    for (const SearchResult::PerGpus& g : m_result->byGpus)
        if (g.fastest && g.fastest->mfu > 0)
            bands.push_back({ g.gpus, stepAtCeiling(m_result->evidence, g.fastest->stepSeconds, g.fastest->mfu) });
    return bands;
}

void PlannerScatter::addEvidenceRegions()
{
    // Beyond published evidence (search/Evidence.h), shaded in the alarm colour: left of the step time at which a plan
    // would reach the best MFU a published run reached on this GPU, and above the memory the model's measured error
    // leaves safe. Wide in x and y so that a zoom or a drag never shows their edges.
    QColor fill = Theme::alarmText();
    fill.setAlpha(28);
    const PublishedEvidence& ev = m_result->evidence;
    const std::vector<MfuBand> bands = mfuBands();
    const bool several = bands.size() > 1;
    double lowest = 0, highest = 0;
    for (const SearchPoint& p : m_result->points) {
        lowest = lowest > 0 ? std::min(lowest, p.stepSeconds) : p.stepSeconds;
        highest = std::max(highest, p.stepSeconds);
    }
    for (const SearchEntry& e : m_result->best) {
        lowest = lowest > 0 ? std::min(lowest, e.stepSeconds) : e.stepSeconds;
        highest = std::max(highest, e.stepSeconds);
    }
    const double capacity = units::toGiB(double(m_result->given.entry.capacityBytes > 0 ? m_result->given.entry.capacityBytes
            : m_result->best.empty()                                                   ? 0
                                                                                       : m_result->best.front().capacityBytes));
    bool named = false;
    for (const MfuBand& b : bands) {
        if (!(b.stepSeconds > 0)) continue;
        QCPGraph* band = m_plot->addGraph();
        band->setPen(QPen(fill.darker(), 1)); // the band's swatch in the legend; the line itself lies far above
        band->setBrush(fill);
        auto* edge = new QCPItemStraightLine(m_plot);
        edge->point1->setCoords(b.stepSeconds, 0);
        edge->point2->setCoords(b.stepSeconds, 1);
        edge->setPen(QPen(Theme::alarmText(), 1, Qt::DashLine));
        band->setLineStyle(QCPGraph::lsStepLeft);
        const double from = std::min(b.stepSeconds, lowest > 0 ? lowest : b.stepSeconds) / 1000.0;
        band->setData({ from, b.stepSeconds }, { capacity * 100, capacity * 100 }, true);
        band->setName(tr("beyond published runs: MFU > %1 %").arg(100.0 * ev.best.mfu, 0, 'f', 1));
        if (named) band->removeFromLegend();
        named = true;
        m_evidenceBands << band->name();
        if (several) {
            auto* label = new QCPItemText(m_plot);
            label->position->setType(QCPItemPosition::ptPlotCoords);
            label->position->setCoords(b.stepSeconds, capacity * 0.04);
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            label->setText(tr("%n GPUs", "", b.gpus));
            label->setColor(Theme::alarmText());
            label->setClipToAxisRect(true);
        }
    }
    if (capacity <= 0) return;
    // The memory band: from capacity x (1 - margin) to the capacity.
    const double safe = capacity * (1.0 - ev.memoryMargin);
    const double x0 = (lowest > 0 ? lowest : 1.0) / 1000.0, x1 = std::max(highest, 1.0) * 1000.0;
    QCPGraph* floor = m_plot->addGraph();
    floor->setPen(Qt::NoPen);
    floor->setData({ x0, x1 }, { safe, safe }, true);
    floor->removeFromLegend();
    QCPGraph* band = m_plot->addGraph();
    band->setPen(Qt::NoPen);
    band->setBrush(fill);
    band->setChannelFillGraph(floor);
    band->setData({ x0, x1 }, { capacity, capacity }, true);
    band->setName(tr("beyond published runs: < %1 % free").arg(100.0 * ev.memoryMargin, 0, 'f', 0));
    m_evidenceBands << band->name();
}

void PlannerScatter::addFront()
{
    const std::vector<SearchEntry>& front = m_result->pareto;
    if (front.empty()) return;
    QVector<double> x, y;
    for (const SearchEntry& e : front) {
        x << e.stepSeconds;
        y << units::toGiB(double(e.peakBytes));
        m_picks.push_back({ x.back(), y.back(), e.index });
    }
    QCPGraph* graph = m_plot->addGraph();
    graph->setName(tr("Pareto front (%1 plans)").arg(front.size()));
    // Sorted by step time with the memory falling: each step is a plan no other beats in both. With several GPU
    // counts the front has a third axis and is not a staircase in this plane: points only.
    const bool staircase = m_result->space.gpus.size() <= 1;
    graph->setLineStyle(staircase ? QCPGraph::lsStepLeft : QCPGraph::lsNone);
    graph->setPen(QPen(Theme::text(), 1.5));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Theme::text(), 1.2), Qt::NoBrush, 6));
    graph->setData(x, y, true);
}

void PlannerScatter::addMarkers()
{
    auto mark = [this](const QString& name, double seconds, std::int64_t bytes, QCPScatterStyle::ScatterShape shape, int size) {
        QCPGraph* graph = m_plot->addGraph();
        graph->setName(name);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(shape, QPen(Theme::text(), 2.2), QBrush(Theme::background()), size));
        graph->setData({ seconds }, { units::toGiB(double(bytes)) });
    };
    for (const SearchEntry& e : m_result->best) m_picks.push_back({ e.stepSeconds, units::toGiB(double(e.peakBytes)), e.index });
    if (!m_result->best.empty()) {
        const SearchEntry& best = m_result->best.front();
        mark(tr("best plan"), best.stepSeconds, best.peakBytes, QCPScatterStyle::ssDiamond, 15);
    }
    const SearchResult::Given& given = m_result->given;
    m_marksOpenPlan = given.valid && given.fits;
    if (m_marksOpenPlan) mark(tr("your plan"), given.entry.stepSeconds, given.entry.peakBytes, QCPScatterStyle::ssCrossCircle, 15);
}

void PlannerScatter::addCapacity(double xLow, double xHigh)
{
    const SearchEntry* entry = m_result->given.entry.capacityBytes > 0 ? &m_result->given.entry
        : m_result->best.empty()                                        ? nullptr
                                                                        : &m_result->best.front();
    if (!entry) return;
    const std::int64_t capacity = entry->capacityBytes;
    const double gib = units::toGiB(double(capacity));
    QCPGraph* graph = m_plot->addGraph();
    graph->setName(tr("GPU memory (%1 GiB)").arg(gib, 0, 'f', 0));
    graph->setPen(QPen(Theme::capacityLine(), 2, Qt::DashLine));
    graph->setData({ xLow, xHigh }, { gib, gib });
    // The planner's fit: plans above this line leave less than the headroom free (memoryOverheads.headroom).
    if (entry->usableBytes <= 0 || entry->usableBytes >= capacity) return;
    const double usableGib = units::toGiB(double(entry->usableBytes));
    QCPGraph* usable = m_plot->addGraph();
    usable->setName(tr("planner's fit: %1 % left free").arg(100.0 * (1.0 - double(entry->usableBytes) / double(capacity)), 0, 'f', 0));
    usable->setPen(QPen(Theme::capacityLine(), 1, Qt::DotLine));
    usable->setData({ xLow, xHigh }, { usableGib, usableGib });
}

void PlannerScatter::fitRanges()
{
    if (!m_result || m_picks.empty()) {
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(0, 1);
        if (m_result) addCapacity(0, 1);
        return;
    }
    double lo = m_picks.front().seconds, hi = lo, top = 0;
    for (const Pick& p : m_picks) {
        lo = std::min(lo, p.seconds);
        hi = std::max(hi, p.seconds);
        top = std::max(top, p.gib);
    }
    if (m_marksOpenPlan) {
        lo = std::min(lo, m_result->given.entry.stepSeconds);
        hi = std::max(hi, m_result->given.entry.stepSeconds);
    }
    const double capacity = units::toGiB(double(m_result->given.entry.capacityBytes));
    top = std::max(top, capacity);
    double xLow, xHigh;
    if (lo > 0 && hi / lo > kLogRatio) {
        m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new DecadeTicker));
        fitTickCount();
        m_plot->xAxis->setLabel(tr("Step time (s, logarithmic)"));
        xLow = lo / 1.08;
        xHigh = hi * 1.08;
    } else {
        const double pad = std::max(hi - lo, hi * 0.01) * 0.04;
        xLow = std::max(0.0, lo - pad);
        xHigh = hi + pad;
    }
    m_plot->xAxis->setRange(xLow, xHigh);
    m_plot->yAxis->setRange(0, top * 1.08);
    // The capacity line across the whole width, and beyond for a drag.
    addCapacity(xLow / 10, xHigh * 10);
}

void PlannerScatter::fitTickCount()
{
    // About one time label per 70 pixels of the chart (the legend's column not counted).
    m_plot->xAxis->ticker()->setTickCount(std::max(3, (width() - 200) / 70));
}

void PlannerScatter::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) rebuild();
    QWidget::changeEvent(event);
}

void PlannerScatter::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    placeLegend();
    fitTickCount();
}

void PlannerScatter::placeLegend()
{
    // Right of the chart, entries in columns of kLegendRows, where that leaves the chart kMinChartWidth; else under the
    // chart in as many columns as the width holds, so a narrow page (the editor and the tables beside it) keeps a
    // chart to read and every entry whole.
    constexpr int kMinChartWidth = 380;
    QCPLegend* legend = m_plot->legend;
    int widest = 0, items = 0;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
            ++items;
        }
    const int columnsRight = std::max(1, (items + kLegendRows - 1) / kLegendRows);
    const int rightWidth = columnsRight * widest + 24;
    const bool below = items > 0 && width() - rightWidth < kMinChartWidth;
    QCPLayoutGrid* layout = m_plot->plotLayout();
    if (below != m_legendBelow) {
        layout->take(m_legendBox);
        layout->simplify();
        if (below) {
            layout->addElement(1, 0, m_legendBox);
            layout->setRowStretchFactor(1, 0.001);
        } else {
            layout->addElement(0, 1, m_legendBox);
            layout->setColumnStretchFactor(1, 0.001);
        }
        m_legendBelow = below;
    }
    if (below) {
        const int columns = std::max(1, std::min(items, (width() - 24) / std::max(1, widest)));
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, false);
        legend->setWrap(columns);
    } else {
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, false);
        legend->setWrap(kLegendRows);
    }
    legend->setFillOrder(legend->fillOrder(), true); // re-flow the entries
}

void PlannerScatter::moveSelection()
{
    if (!m_selection) return;
    if (m_selectedIndex)
        m_selection->setData({ m_selectedSeconds }, { units::toGiB(double(m_selectedBytes)) });
    else
        m_selection->data()->clear();
    // In the legend only while something is selected (so the whole chart is replotted, legend included).
    if (m_selectedIndex)
        m_selection->addToLegend();
    else
        m_selection->removeFromLegend();
    replotIfSized(m_plot);
}

std::optional<std::int64_t> PlannerScatter::planAt(const QPointF& pixel, double radius) const
{
    std::optional<std::int64_t> found;
    double nearest = radius * radius;
    for (const Pick& p : m_picks) {
        const double dx = m_plot->xAxis->coordToPixel(p.seconds) - pixel.x();
        const double dy = m_plot->yAxis->coordToPixel(p.gib) - pixel.y();
        const double d = dx * dx + dy * dy;
        if (d <= nearest) {
            nearest = d;
            found = p.index;
        }
    }
    return found;
}

QPointF PlannerScatter::pixelOf(double stepSeconds, std::int64_t peakBytes) const
{
    return { m_plot->xAxis->coordToPixel(stepSeconds), m_plot->yAxis->coordToPixel(units::toGiB(double(peakBytes))) };
}

void PlannerScatter::onRelease(QMouseEvent* event)
{
    // A click, not the end of a drag.
    if (event->button() != Qt::LeftButton || (event->pos() - m_pressAt).manhattanLength() > 3) return;
    if (const auto index = planAt(event->position())) Q_EMIT pointClicked(qint64(*index));
}

void PlannerScatter::onDoubleClick(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    if (const auto index = planAt(event->position())) Q_EMIT pointActivated(qint64(*index));
}

} // namespace planscope
