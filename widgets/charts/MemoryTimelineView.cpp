#include "charts/MemoryTimelineView.h"

#include "Palette.h"
#include "Theme.h"
#include "analysis/Analysis.h"
#include "document/ViewState.h"
#include "WidgetExporter.h"
#include "sim/Timeline.h"
#include "util/Units.h"

#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace planscope {

namespace {
// Slices of the step a line is thinned to (about 2 px each on a full-HD plot): a wide pen over tens of thousands
// of segments costs the raster engine most of a second, the envelope a few milliseconds.
constexpr int kEnvelopeBuckets = 1024;
} // namespace

namespace {
// Distinct, colour-blind-safe line colours for up to eight stages, then repeated with dashes.
QColor stageColour(int stage)
{
    static const QColor colours[] = { palette::blue(), palette::orange(), palette::bluishGreen(), palette::reddishPurple(),
        palette::skyBlue(), palette::vermillion(), palette::yellow().darker(130), palette::grey().darker(140) };
    return colours[stage % 8];
}
} // namespace

MemoryTimelineView::MemoryTimelineView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    // Never laid out at 0 x 0 (a hidden page): QCustomPlot would paint into a null buffer and warn.
    m_plot->setMinimumSize(160, 120);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    // The legend sits in its own column right of the chart, so it never covers the lines or gets clipped.
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(0, 1, m_plot->legend);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->legend->setMargins(QMargins(6, 4, 6, 4));
    m_plot->legend->setRowSpacing(0);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_plot->legend->setFont(small);
    // The playhead on a buffered layer of its own: a playback tick replots that layer, not the lines.
    m_plot->addLayer(QStringLiteral("playhead"), m_plot->layer(QStringLiteral("overlay")), QCustomPlot::limBelow);
    m_playheadLayer = m_plot->layer(QStringLiteral("playhead"));
    m_playheadLayer->setMode(QCPLayer::lmBuffered);
    m_playhead = new QCPItemStraightLine(m_plot);
    m_playhead->setLayer(m_playheadLayer);
    connect(Theme::instance(), &Theme::changed, this, &MemoryTimelineView::rebuild);
    rebuild();
}

MemoryTimelineView::~MemoryTimelineView() = default;

void MemoryTimelineView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    rebuild();
}

void MemoryTimelineView::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this, [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void MemoryTimelineView::setViewState(ViewState* state)
{
    if (m_viewState) disconnect(m_viewState, nullptr, this, nullptr);
    m_viewState = state;
    if (state) connect(state, &ViewState::playheadChanged, this, &MemoryTimelineView::movePlayhead);
    movePlayhead();
}

int MemoryTimelineView::lineCount() const
{
    int n = 0;
    for (int i = 0; i < m_plot->graphCount(); ++i)
        if (m_plot->graph(i)->property("stage").isValid()) ++n;
    return n;
}

double MemoryTimelineView::valueAt(int stage, double seconds) const
{
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph* g = m_plot->graph(i);
        if (g->property("stage").toInt() != stage || !g->property("stage").isValid()) continue;
        double value = 0;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd() && it->key <= seconds; ++it) value = it->value;
        return value;
    }
    return -1;
}

double MemoryTimelineView::playheadSeconds() const
{
    return m_playhead->point1->key();
}

void MemoryTimelineView::rebuild()
{
    m_plot->clearGraphs();
    styleCustomPlot(m_plot);
    m_playhead->setPen(QPen(Theme::playhead(), 1.5));
    m_plot->xAxis->setLabel(tr("Time in the step (s)"));
    m_plot->yAxis->setLabel(tr("GiB in use per GPU"));
    const Timeline* tl = m_analysis ? m_analysis->timeline.get() : nullptr;
    const Prediction* pr = m_analysis ? &m_analysis->prediction : nullptr;
    if (!tl || !pr || !pr->valid) {
        m_plot->legend->setVisible(false);
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(0, 1);
        replotIfSized(m_plot);
        return;
    }
    m_plot->legend->setVisible(true);
    const int stages = int(tl->memory.size());
    double highest = units::toGiB(double(pr->capacityBytes));
    // Many stages: draw the first, the last and every k-th so the legend stays readable.
    const int every = std::max(1, (stages + 7) / 8);
    for (int s = 0; s < stages; ++s) {
        if (s % every != 0 && s != stages - 1) continue;
        // At most a few points per pixel column of a full-HD plot; the envelope keeps every peak.
        const auto points = memoryEnvelope(tl->memory[std::size_t(s)], 0.0, tl->stepSeconds, kEnvelopeBuckets);
        QVector<double> x, y;
        x.reserve(int(points.size()) + 1);
        y.reserve(int(points.size()) + 1);
        for (const MemoryPoint& p : points) {
            x << p.time;
            y << units::toGiB(double(p.bytes));
            highest = std::max(highest, y.back());
        }
        x << tl->stepSeconds;
        y << (y.isEmpty() ? 0.0 : y.back());
        QCPGraph* g = m_plot->addGraph();
        g->setProperty("stage", s);
        g->setName(tr("stage %1").arg(s));
        g->setLineStyle(QCPGraph::lsStepLeft);
        // A dense line (a sawtooth of microbatches) with a 1-pixel cosmetic pen: Qt's raster engine draws those
        // directly, where a wider pen is stroked into a path and filled (hundreds of ms for thousands of steps).
        QPen pen(stageColour(s / every), points.size() > 1000 ? 1.0 : 1.6);
        pen.setCosmetic(true);
        if (s / every >= 8) pen.setStyle(Qt::DashLine);
        g->setPen(pen);
        g->setData(x, y, true);
    }
    // Each drawn stage's highest point: the activations in flight and the temporaries of the op running then.
    QVector<double> peakX, peakY;
    for (int s = 0; s < stages && s < int(tl->ranks.size()); ++s) {
        if (s % every != 0 && s != stages - 1) continue;
        peakX << tl->ranks[std::size_t(s)].peakSeconds;
        peakY << units::toGiB(double(tl->ranks[std::size_t(s)].inUsePeakBytes));
    }
    QCPGraph* peaks = m_plot->addGraph();
    peaks->setName(tr("peak inside the step (temporaries included)"));
    peaks->setLineStyle(QCPGraph::lsNone);
    peaks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Theme::text(), 1.5), Qt::NoBrush, 9));
    peaks->setData(peakX, peakY);
    const double capacity = units::toGiB(double(pr->capacityBytes));
    QCPGraph* cap = m_plot->addGraph();
    cap->setName(tr("GPU capacity"));
    cap->setPen(QPen(Theme::capacityLine(), 2, Qt::DashLine));
    cap->setData({ 0.0, tl->stepSeconds }, { capacity, capacity });
    m_plot->xAxis->setRange(0, tl->stepSeconds);
    m_plot->yAxis->setRange(0, highest * 1.1);
    movePlayhead();
}

void MemoryTimelineView::movePlayhead()
{
    const double t = m_viewState ? m_viewState->playhead() : 0.0;
    m_playhead->point1->setCoords(t, 0);
    m_playhead->point2->setCoords(t, 1);
    if (m_plot->width() > 0 && m_plot->height() > 0) m_playheadLayer->replot();
}

int MemoryTimelineView::pointCount(int stage) const
{
    for (int i = 0; i < m_plot->graphCount(); ++i)
        if (m_plot->graph(i)->property("stage").isValid() && m_plot->graph(i)->property("stage").toInt() == stage)
            return m_plot->graph(i)->dataCount();
    return 0;
}

std::vector<MemoryPoint> memoryEnvelope(const std::vector<MemoryPoint>& points, double start, double end, int buckets)
{
    if (buckets <= 0 || points.size() <= std::size_t(4) * std::size_t(buckets) || !(end > start)) return points;
    std::vector<MemoryPoint> out;
    out.reserve(std::size_t(4) * std::size_t(buckets));
    const double width = (end - start) / buckets;
    std::size_t i = 0;
    while (i < points.size()) {
        const int bucket = std::clamp(int((points[i].time - start) / width), 0, buckets - 1);
        std::size_t j = i, lo = i, hi = i;
        while (j < points.size() && std::clamp(int((points[j].time - start) / width), 0, buckets - 1) == bucket) {
            if (points[j].bytes < points[lo].bytes) lo = j;
            if (points[j].bytes > points[hi].bytes) hi = j;
            ++j;
        }
        // first, lowest, highest, last: in time order, each once.
        std::size_t keep[] = { i, std::min(lo, hi), std::max(lo, hi), j - 1 };
        std::size_t last = points.size();
        for (std::size_t k : keep)
            if (k != last) {
                out.push_back(points[k]);
                last = k;
            }
        i = j;
    }
    return out;
}

bool MemoryTimelineView::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isValid() && !size.isEmpty()) resize(size);
    replotIfSized(m_plot);
    return WidgetExporter::exportWidget(this, path, error);
}

} // namespace planscope
