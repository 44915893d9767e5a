// Communication: (a) the prediction's communication groups as a table, (b) ring all-reduce step by step on
// n GPUs, (c) charts from the same alpha-beta functions the model uses (core/cost/Collective.h): all-reduce
// time against the number of GPUs at the plan's gradient size, and against the message size at n GPUs,
// over the plan's links. QCustomPlot stays out of this header.
#pragma once

#include "pages/Page.h"
#include "cost/Prediction.h"
#include "document/AnalysisFeed.h"
#include "spec/Plan.h"

#include <QList>
#include <QVector>
#include <functional>
#include <memory>
#include <utility>
#include <vector>
#include <QPointF>
#include <QPointer>
#include <QSize>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTableWidget;

namespace planscope {

class PlanDocument;
class ViewState;
class CommRingWidget;

enum class CommAlgorithm { Ring, Tree, Hierarchical, ParameterServer };
enum class CommChart { GpuCount, MessageSize };

class CommView : public QWidget, public Page {
    Q_OBJECT
public:
    explicit CommView(QWidget* parent = nullptr);
    ~CommView() override;

    static constexpr const char* kPageName = "comm";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    // Follows the document: each analysis it publishes is shown (setAnalysis()).
    void setDocument(PlanDocument* document) override;
    // Shows this analysis' plan and communication groups (null: no plan).
    void setAnalysis(std::shared_ptr<const Analysis> analysis) override;
    // Follows the highlighted GPU: the line above the table names its groups.
    void setViewState(ViewState* state) override;
    // Saves the whole view by the file's extension (.png, .svg, .pdf). An empty size: the view's own size,
    // or 1400 x 900 when it has none.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    // The link a flat ring, a tree or a parameter server over n GPUs runs on: NVLink while the n GPUs fit
    // in one node, the inter-node network beyond.
    static LinkSpec linkFor(const ClusterSpec& cluster, int n);
    // The buffer of the GPU-count chart: the largest stage's gradients on one GPU (bytes).
    double gradientBytes() const { return m_gradientBytes; }

    // The ring animation and the message-size chart use n GPUs.
    int ringSize() const;
    void setRingSize(int n);
    int ringStep() const;
    int ringStepCount() const;
    bool stepRing();
    void resetRing();
    void playRing(bool playing);
    QString ringCaption() const;

    // What is plotted, read back from the charts (x, seconds) in plotting order.
    QList<QPointF> plottedSeries(CommChart chart, CommAlgorithm algorithm) const;
    // A chart's title (row 0) and subtitle (row 1) as drawn.
    QString chartTitle(CommChart chart, int row = 0) const;
    // The plan's communication group the message-size chart is drawn for: the one of n GPUs in the table (the
    // data-parallel group first, then tensor parallel, ...), placed and linked as the table says; nullptr when no
    // group of the plan has n GPUs (the chart then places n GPUs side by side, node after node).
    const CommGroup* messageSizeGroup() const;
    QTableWidget* groupTable() const { return m_table; }
    QString highlightText() const;
    QCustomPlot* gpuCountPlot() const { return m_countPlot; }
    QCustomPlot* messageSizePlot() const { return m_sizePlot; }

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void retranslate();
    void fillTable();
    void plotGpuCount();
    void plotMessageSize();
    // One curve per algorithm over xs (the same order as the plot's graphs); returns the smallest and the
    // largest positive time, for the axis range.
    std::pair<double, double> setAlgorithmCurves(QCustomPlot* plot, const QVector<double>& xs,
        const std::function<double(CommAlgorithm, double)>& seconds, int perNode);
    void updateCaption();
    void updateHighlight();
    // perNode: the GPUs per node a hierarchical all-reduce groups (the group's own where it is the plan's).
    QString algorithmName(CommAlgorithm algorithm, int perNode) const;
    void fitTableHeight();
    void placeSizeTicks();
    QLabel* chartLabel(const QCustomPlot* plot, int row) const;

    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis; // what is shown
    QPointer<ViewState> m_state;
    Plan m_plan; // m_analysis' plan
    bool m_hasPlan = false;
    double m_gradientBytes = 1073741824.0;
    int m_gradientStage = -1;
    int m_planGroup = 0; // dp*cp of the plan, marked on the GPU-count chart
    std::vector<CommGroup> m_groups; // the prediction's groups, as in the table

    QLabel* m_tableTitle = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_highlight = nullptr;
    QLabel* m_ringTitle = nullptr;
    QLabel* m_sizeLabel = nullptr;
    QSpinBox* m_sizeSpin = nullptr;
    QPushButton* m_stepButton = nullptr;
    QPushButton* m_playButton = nullptr;
    QPushButton* m_resetButton = nullptr;
    CommRingWidget* m_ring = nullptr;
    QLabel* m_caption = nullptr;
    QCustomPlot* m_countPlot = nullptr;
    QCustomPlot* m_sizePlot = nullptr;
    std::vector<std::pair<QLabel*, QLabel*>> m_chartLabels; // title and subtitle of each chart
    int m_sizeTop = 32; // the message-size axis ends at 2^m_sizeTop bytes
    QScrollArea* m_scroll = nullptr;
    QWidget* m_content = nullptr; // everything, inside m_scroll; exports render it whole
};

} // namespace planscope
