#include "charts/RunViews.h"

#include "Palette.h"

#include <QFontMetrics>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace planscope {

namespace {

constexpr int kLegendHeight = 30;

// The distance from the median that gets full colour: the largest in the run, but at least a tenth of the median, so
// that ranks a fraction of a percent apart (the step time of ranks kept in lockstep by their collectives) stay pale.
std::int64_t spreadOf(const std::vector<RunRankMetrics>& metrics, RunMetric m, std::int64_t median)
{
    std::int64_t spread = std::llabs(median) / 10;
    for (const RunRankMetrics& r : metrics) spread = std::max<std::int64_t>(spread, std::llabs(metricValue(r, m) - median));
    return spread;
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
        float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// The legend under both pictures: the colour scale from below the median to above it.
void paintLegend(QPainter& p, const QRect& r, const QString& what)
{
    const QFontMetrics fm(p.font());
    const QString below = RankHeatMap::tr("below median"), above = RankHeatMap::tr("above median");
    const int barWidth = std::min(180, r.width() / 3);
    const QRect bar(r.left() + fm.horizontalAdvance(below) + 8, r.top() + 8, barWidth, 12);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    g.setColorAt(0, palette::blue());
    g.setColorAt(0.5, Qt::white);
    g.setColorAt(1, palette::vermillion());
    p.fillRect(bar, g);
    p.setPen(QColor(0x60, 0x60, 0x60));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(QRect(r.left(), r.top(), bar.left() - r.left() - 4, 28), Qt::AlignRight | Qt::AlignVCenter, below);
    p.drawText(QRect(bar.right() + 6, r.top(), r.width(), 28), Qt::AlignLeft | Qt::AlignVCenter,
        above + (what.isEmpty() ? QString() : QStringLiteral("   ") + what));
}

} // namespace

QString runMetricTitle(RunMetric m)
{
    switch (m) {
    case RunMetric::Step: return RankHeatMap::tr("Step");
    case RunMetric::Compute: return RankHeatMap::tr("Compute");
    case RunMetric::ExposedComm: return RankHeatMap::tr("Exposed comm.");
    case RunMetric::Idle: return RankHeatMap::tr("Idle");
    case RunMetric::Wait: return RankHeatMap::tr("Wait");
    case RunMetric::Lag: return RankHeatMap::tr("Straggler lag");
    case RunMetric::Memory: return RankHeatMap::tr("Peak memory");
    }
    return {};
}

QString runMetricValue(RunMetric m, std::int64_t value)
{
    if (m == RunMetric::Memory) return RankHeatMap::tr("%1 GiB").arg(double(value) / double(1 << 30), 0, 'f', 1);
    return RankHeatMap::tr("%1 ms").arg(double(value) * 1e-6, 0, 'f', 2);
}

QColor deviationColour(std::int64_t value, std::int64_t median, std::int64_t spread)
{
    if (spread <= 0) return Qt::white;
    const double t = std::clamp(double(value - median) / double(spread), -1.0, 1.0);
    return t >= 0 ? blend(Qt::white, palette::vermillion(), t) : blend(Qt::white, palette::blue(), -t);
}

// --- RankHeatMap ---

RankHeatMap::RankHeatMap(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(300, 240);
}

void RankHeatMap::setMetrics(std::vector<RunRankMetrics> metrics, const RunRankMetrics& median)
{
    m_metrics = std::move(metrics);
    m_median = median;
    m_spread.clear();
    for (RunMetric m : kHeatMapMetrics) m_spread.push_back(spreadOf(m_metrics, m, metricValue(m_median, m)));
    update();
}

void RankHeatMap::setSelectedRank(int rank)
{
    m_selected = rank;
    update();
}

QRect RankHeatMap::body(const QRect& rect) const
{
    const QFontMetrics fm(font());
    const int left = std::max(fm.horizontalAdvance(QStringLiteral("000000")), fm.horizontalAdvance(tr("median, ms"))) + 10;
    const int top = fm.height() * 3 + 8;
    return rect.adjusted(left, top, -4, -kLegendHeight - 4);
}

std::size_t RankHeatMap::indexAt(int row, int rows, int column) const
{
    const std::size_t n = m_metrics.size();
    if (n <= std::size_t(rows)) return std::min(n - 1, std::size_t(row) * n / std::size_t(rows));
    const std::size_t first = std::size_t(row) * n / std::size_t(rows), last = std::max(first + 1, std::size_t(row + 1) * n / std::size_t(rows));
    const RunMetric m = kHeatMapMetrics[column];
    std::size_t worst = first;
    for (std::size_t i = first + 1; i < last && i < n; ++i)
        if (metricValue(m_metrics[i], m) > metricValue(m_metrics[worst], m)) worst = i;
    return worst;
}

void RankHeatMap::paint(QPainter& p, const QRect& rect) const
{
    p.fillRect(rect, Qt::white);
    const QRect b = body(rect);
    const int columns = int(std::size(kHeatMapMetrics));
    const QFontMetrics fm(p.font());
    p.setPen(QColor(0x20, 0x20, 0x20));
    // Each column's title on up to two lines, then the run's median of it (in ms: the corner says so).
    const int line = fm.height();
    p.drawText(QRect(rect.left(), rect.top() + 2 + 2 * line, b.left() - rect.left() - 4, line), Qt::AlignRight | Qt::AlignVCenter,
        tr("median, ms"));
    for (int c = 0; c < columns; ++c) {
        const int x0 = b.left() + b.width() * c / columns, x1 = b.left() + b.width() * (c + 1) / columns;
        const RunMetric m = kHeatMapMetrics[c];
        QStringList words = runMetricTitle(m).split(QLatin1Char(' '));
        QString first = words.takeFirst(), second = words.join(QLatin1Char(' '));
        if (!second.isEmpty() && fm.horizontalAdvance(first + QLatin1Char(' ') + second) <= x1 - x0 - 2) first += QLatin1Char(' ') + second, second.clear();
        p.drawText(QRect(x0, rect.top() + 2, x1 - x0, line), Qt::AlignHCenter | Qt::AlignVCenter, fm.elidedText(first, Qt::ElideRight, x1 - x0 - 2));
        p.drawText(QRect(x0, rect.top() + 2 + line, x1 - x0, line), Qt::AlignHCenter | Qt::AlignVCenter, fm.elidedText(second, Qt::ElideRight, x1 - x0 - 2));
        if (!m_metrics.empty()) {
            // As many decimals as the column has room for.
            const double value = double(metricValue(m_median, m)) * 1e-6;
            QString text;
            for (int decimals = 2; decimals >= 0; --decimals) {
                text = QString::number(value, 'f', decimals);
                if (fm.horizontalAdvance(text) <= x1 - x0 - 4) break;
            }
            p.drawText(QRect(x0, rect.top() + 2 + 2 * line, x1 - x0, line), Qt::AlignHCenter | Qt::AlignVCenter, text);
        }
    }
    if (m_metrics.empty() || b.height() <= 0 || b.width() <= 0) {
        p.drawText(b, Qt::AlignCenter, tr("No run summary open"));
        return;
    }
    const int bodyRows = m_metrics.size() <= std::size_t(b.height()) ? int(m_metrics.size()) : b.height();
    const double h = double(b.height()) / bodyRows;
    for (int row = 0; row < bodyRows; ++row) {
        const int y0 = b.top() + int(std::floor(row * h)), y1 = b.top() + int(std::floor((row + 1) * h));
        for (int c = 0; c < columns; ++c) {
            const std::size_t i = indexAt(row, bodyRows, c);
            const RunMetric m = kHeatMapMetrics[c];
            const int x0 = b.left() + b.width() * c / columns, x1 = b.left() + b.width() * (c + 1) / columns;
            p.fillRect(QRect(x0, y0, x1 - x0 - 1, std::max(1, y1 - y0)),
                deviationColour(metricValue(m_metrics[i], m), metricValue(m_median, m), m_spread[std::size_t(c)]));
        }
    }
    // Rank ticks on the left: about one per 40 pixels.
    p.setPen(QColor(0x40, 0x40, 0x40));
    const int ticks = std::max(2, b.height() / 40);
    for (int t = 0; t <= ticks; ++t) {
        const int row = std::min(bodyRows - 1, t * bodyRows / ticks);
        const std::size_t i = m_metrics.size() <= std::size_t(b.height()) ? std::size_t(row) : std::size_t(row) * m_metrics.size() / std::size_t(bodyRows);
        const int y = b.top() + int(row * h + h / 2);
        p.drawText(QRect(rect.left(), y - fm.height() / 2, b.left() - rect.left() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            QString::number(m_metrics[std::min(i, m_metrics.size() - 1)].rank));
    }
    // The selected rank: a line across every column.
    if (m_selected >= 0)
        for (int row = 0; row < bodyRows; ++row) {
            const std::size_t first = m_metrics.size() <= std::size_t(b.height()) ? std::size_t(row) : std::size_t(row) * m_metrics.size() / std::size_t(bodyRows);
            const std::size_t last = m_metrics.size() <= std::size_t(b.height()) ? first + 1 : std::size_t(row + 1) * m_metrics.size() / std::size_t(bodyRows);
            bool here = false;
            for (std::size_t i = first; i < last && i < m_metrics.size(); ++i) here |= m_metrics[i].rank == m_selected;
            if (!here) continue;
            const int y = b.top() + int(row * h);
            p.setPen(QPen(QColor(0x20, 0x20, 0x20), 2));
            p.drawRect(QRect(b.left() - 2, y - 1, b.width() + 2, std::max(2, int(h) + 1)));
            break;
        }
    paintLegend(p, QRect(rect.left(), b.bottom() + 4, rect.width(), kLegendHeight), QString());
}

int RankHeatMap::rankAt(QPoint pos, int* column) const
{
    const QRect b = body(rect());
    if (m_metrics.empty() || !b.contains(pos)) return -1;
    const int columns = int(std::size(kHeatMapMetrics));
    const int c = std::clamp((pos.x() - b.left()) * columns / std::max(1, b.width()), 0, columns - 1);
    const int bodyRows = m_metrics.size() <= std::size_t(b.height()) ? int(m_metrics.size()) : b.height();
    const int row = std::clamp(int((pos.y() - b.top()) * bodyRows / std::max(1, b.height())), 0, bodyRows - 1);
    if (column) *column = c;
    return m_metrics[indexAt(row, bodyRows, c)].rank;
}

void RankHeatMap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, rect());
}

void RankHeatMap::mouseMoveEvent(QMouseEvent* event)
{
    int column = 0;
    const int rank = rankAt(event->position().toPoint(), &column);
    if (rank < 0) {
        QToolTip::hideText();
        return;
    }
    const auto it = std::find_if(m_metrics.begin(), m_metrics.end(), [&](const RunRankMetrics& m) { return m.rank == rank; });
    const RunMetric m = kHeatMapMetrics[column];
    QToolTip::showText(event->globalPosition().toPoint(),
        tr("Rank %1 (node %2)\n%3: %4, median %5").arg(rank).arg(it->node).arg(runMetricTitle(m), runMetricValue(m, metricValue(*it, m)),
            runMetricValue(m, metricValue(m_median, m))),
        this);
}

void RankHeatMap::mousePressEvent(QMouseEvent* event)
{
    const int rank = rankAt(event->position().toPoint());
    if (rank < 0) return;
    setSelectedRank(rank);
    emit rankClicked(rank);
}

// --- RankGridView ---

RankGridView::RankGridView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(240, 180);
}

void RankGridView::setMetrics(std::vector<RunRankMetrics> metrics, const RunRankMetrics& median, int worldSize, int gpusPerNode)
{
    m_metrics = std::move(metrics);
    m_median = median;
    m_gpusPerNode = gpusPerNode > 0 ? gpusPerNode : 8;
    int largest = -1;
    for (const RunRankMetrics& m : m_metrics) largest = std::max(largest, m.rank);
    m_worldSize = std::max(worldSize, largest + 1);
    m_indexOfRank.assign(std::size_t(std::max(m_worldSize, 0)), -1);
    for (std::size_t i = 0; i < m_metrics.size(); ++i)
        if (m_metrics[i].rank >= 0) m_indexOfRank[std::size_t(m_metrics[i].rank)] = int(i);
    update();
}

void RankGridView::setColourMetric(RunMetric metric)
{
    m_metric = metric;
    update();
}

void RankGridView::setSelectedRank(int rank)
{
    m_selected = rank;
    update();
}

RankGridView::Layout RankGridView::layoutFor(const QRect& rect) const
{
    Layout best;
    const QRect area = rect.adjusted(4, 4, -4, -kLegendHeight - 4);
    const int g = m_gpusPerNode;
    const int nodes = std::max(1, (m_worldSize + g - 1) / g);
    // Nodes side by side, as many as make the cells largest: a node is g cells wide with half a cell between nodes, a
    // quarter of a cell between rows of nodes.
    double bestCell = 0;
    for (int k = 1; k <= nodes; ++k) {
        const int rows = (nodes + k - 1) / k;
        const double w = area.width() / (k * g + (k - 1) * 0.5), h = area.height() / (rows + (rows - 1) * 0.25);
        const double cell = std::min(w, h);
        if (cell > bestCell) bestCell = cell, best.blocksPerRow = k;
        if (rows == 1) break;
    }
    best.cell = std::max(1, int(std::floor(bestCell)));
    best.gap = best.cell >= 4 ? best.cell / 2 : 1;
    best.origin = area.topLeft();
    return best;
}

QRect RankGridView::cellRect(const Layout& l, int rank) const
{
    const int node = rank / m_gpusPerNode, gpu = rank % m_gpusPerNode;
    const int blockX = node % l.blocksPerRow, blockY = node / l.blocksPerRow;
    const int x = l.origin.x() + blockX * (m_gpusPerNode * l.cell + l.gap) + gpu * l.cell;
    const int y = l.origin.y() + blockY * (l.cell + std::max(1, l.gap / 2));
    return QRect(x, y, l.cell, l.cell);
}

void RankGridView::paint(QPainter& p, const QRect& rect) const
{
    p.fillRect(rect, Qt::white);
    if (m_worldSize <= 0) {
        p.setPen(QColor(0x40, 0x40, 0x40));
        p.drawText(rect, Qt::AlignCenter, RankHeatMap::tr("No run summary open"));
        return;
    }
    const Layout l = layoutFor(rect);
    const std::int64_t median = metricValue(m_median, m_metric);
    const std::int64_t spread = spreadOf(m_metrics, m_metric, median);
    const bool outline = l.cell >= 6;
    for (int rank = 0; rank < m_worldSize; ++rank) {
        const QRect c = cellRect(l, rank);
        const int i = m_indexOfRank[std::size_t(rank)];
        const QColor colour = i < 0 ? QColor(0xD0, 0xD0, 0xD0) : deviationColour(metricValue(m_metrics[std::size_t(i)], m_metric), median, spread);
        p.fillRect(outline ? c.adjusted(0, 0, -1, -1) : c, colour);
        if (i < 0 && outline) {
            // Not in the run (no trace, or left out): crossed.
            p.setPen(QColor(0x90, 0x90, 0x90));
            p.drawLine(c.topLeft(), c.bottomRight() - QPoint(1, 1));
        }
    }
    if (m_selected >= 0 && m_selected < m_worldSize) {
        p.setPen(QPen(QColor(0x10, 0x10, 0x10), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(cellRect(l, m_selected).adjusted(-1, -1, 0, 0));
    }
    paintLegend(p, QRect(rect.left() + 4, rect.bottom() - kLegendHeight, rect.width() - 8, kLegendHeight),
        RankHeatMap::tr("%1; a row per node of %2 GPUs").arg(runMetricTitle(m_metric)).arg(m_gpusPerNode));
}

int RankGridView::rankAt(QPoint pos) const
{
    if (m_worldSize <= 0) return -1;
    const Layout l = layoutFor(rect());
    const int blockW = m_gpusPerNode * l.cell + l.gap, blockH = l.cell + std::max(1, l.gap / 2);
    const int dx = pos.x() - l.origin.x(), dy = pos.y() - l.origin.y();
    if (dx < 0 || dy < 0) return -1;
    const int blockX = dx / blockW, blockY = dy / blockH;
    if (blockX >= l.blocksPerRow || dx % blockW >= m_gpusPerNode * l.cell || dy % blockH >= l.cell) return -1;
    const int rank = (blockY * l.blocksPerRow + blockX) * m_gpusPerNode + (dx % blockW) / l.cell;
    return rank < m_worldSize ? rank : -1;
}

void RankGridView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paint(p, rect());
}

void RankGridView::mouseMoveEvent(QMouseEvent* event)
{
    const int rank = rankAt(event->position().toPoint());
    if (rank < 0) {
        QToolTip::hideText();
        return;
    }
    const int i = m_indexOfRank[std::size_t(rank)];
    const QString text = i < 0 ? RankHeatMap::tr("Rank %1 (node %2): not in the run").arg(rank).arg(rank / m_gpusPerNode)
                               : RankHeatMap::tr("Rank %1 (node %2)\n%3: %4, median %5")
                                     .arg(rank)
                                     .arg(rank / m_gpusPerNode)
                                     .arg(runMetricTitle(m_metric), runMetricValue(m_metric, metricValue(m_metrics[std::size_t(i)], m_metric)),
                                         runMetricValue(m_metric, metricValue(m_median, m_metric)));
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void RankGridView::mousePressEvent(QMouseEvent* event)
{
    const int rank = rankAt(event->position().toPoint());
    if (rank < 0) return;
    setSelectedRank(rank);
    emit rankClicked(rank);
}

} // namespace planscope
