// The pictures of a measured run of many ranks (pages/RunPage.h): a heat map with one row per rank and one column per
// measured metric, and the GPU grid (nodes of gpusPerNode GPUs) coloured by one metric. Both colour a value by how far
// it is from the run's median of that metric: white at the median, towards blue below it and towards red above it,
// full colour at the largest distance in the run. Ten thousand ranks fit: where ranks outnumber pixel rows, a pixel
// row shows the worst (largest) value of the ranks it covers, so a straggler is never averaged away.
#pragma once

#include "trace/RunAnalysis.h"

#include <QImage>
#include <QWidget>
#include <vector>

namespace planscope {

// The metrics the heat map shows, in column order.
inline constexpr RunMetric kHeatMapMetrics[] = { RunMetric::Step, RunMetric::Compute, RunMetric::ExposedComm, RunMetric::Idle,
    RunMetric::Wait, RunMetric::Lag };

// The metric's name in the interface's language ("Step", "Exposed comm.", ...).
QString runMetricTitle(RunMetric m);
// A value of the metric with its unit ("12.34 ms", "38.2 GiB").
QString runMetricValue(RunMetric m, std::int64_t value);

// White at the median, blue below, red above; `spread` is the largest |value - median| of the metric (0: all white).
QColor deviationColour(std::int64_t value, std::int64_t median, std::int64_t spread);

class RankHeatMap : public QWidget {
    Q_OBJECT
public:
    explicit RankHeatMap(QWidget* parent = nullptr);
    // The ranks' metrics (RunAnalysis's rankMetrics) and their medians; a copy is kept.
    void setMetrics(std::vector<RunRankMetrics> metrics, const RunRankMetrics& median);
    void setSelectedRank(int rank);
    int selectedRank() const { return m_selected; }
    // For tests and the tooltip: the rank and column under a point of the widget (-1 when none).
    int rankAt(QPoint p, int* column = nullptr) const;
    // Paints into any device (the widget, an export) at `rect`.
    void paint(QPainter& p, const QRect& rect) const;
    QSize sizeHint() const override { return { 420, 520 }; }

signals:
    void rankClicked(int rank);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRect body(const QRect& rect) const;
    // The index into m_metrics of the rank a body row shows in a column (the worst of the ranks it covers).
    std::size_t indexAt(int row, int rows, int column) const;
    std::vector<RunRankMetrics> m_metrics;
    RunRankMetrics m_median;
    std::vector<std::int64_t> m_spread; // per column
    int m_selected = -1;
};

class RankGridView : public QWidget {
    Q_OBJECT
public:
    explicit RankGridView(QWidget* parent = nullptr);
    void setMetrics(std::vector<RunRankMetrics> metrics, const RunRankMetrics& median, int worldSize, int gpusPerNode);
    void setColourMetric(RunMetric metric);
    RunMetric colourMetric() const { return m_metric; }
    void setSelectedRank(int rank);
    int rankAt(QPoint p) const;
    void paint(QPainter& p, const QRect& rect) const;
    QSize sizeHint() const override { return { 480, 360 }; }

signals:
    void rankClicked(int rank);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Layout {
        int cell = 0; // pixels per GPU
        int gap = 0; // between nodes
        int blocksPerRow = 1; // nodes side by side
        QPoint origin;
    };
    Layout layoutFor(const QRect& rect) const;
    QRect cellRect(const Layout& l, int rank) const;
    std::vector<RunRankMetrics> m_metrics;
    std::vector<int> m_indexOfRank; // rank -> index into m_metrics; -1 not in the run
    RunRankMetrics m_median;
    int m_worldSize = 0;
    int m_gpusPerNode = 8;
    RunMetric m_metric = RunMetric::Lag;
    int m_selected = -1;
};

} // namespace planscope
