// A measured run of thousands of ranks (docs/TRACES.md, "Large runs"): open the run summary planscope-reduce or
// planscope-cli reduce wrote (docs/FORMATS.md section 14), read in the background, and see every rank as a row of a
// heat map (step, compute, exposed communication, idle, wait, straggler lag), the GPU grid coloured by a chosen
// metric, the slowest ranks with why, the process groups (intra- or inter-node, straggler, all-to-all imbalance),
// the files left out; open the full timelines of the ranks picked (from the raw traces, where they are reachable);
// compare with a second run. Every number is the core's (trace/RunAnalysis.h), as `planscope-cli run-summary` prints.
#pragma once

#include "pages/Page.h"
#include "trace/RunAnalysis.h"

#include <QFutureWatcher>
#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace planscope {

class RankGridView;
class RankHeatMap;

// A run as the page holds it: read, with its metrics; or why it could not be read.
struct LoadedRun {
    QString path;
    std::optional<MeasuredRun> run;
    std::vector<RunRankMetrics> metrics;
    RunRankMetrics median;
    std::vector<SlowRank> slowest; // the 20 the others wait for most
    QString error;
};

class RunPage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit RunPage(QWidget* parent = nullptr);
    ~RunPage() override;

    static constexpr const char* kPageName = "run";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    void setDocument(PlanDocument*) override { }
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    // Reads a run summary (or a shard of one) in the background; the page shows it, or why it could not be read.
    void openRun(const QString& path);
    // A second run to compare with the open one (the Comparison tab).
    void openComparison(const QString& path);
    // Blocks until the reads in flight are done and shown (headless screenshots, tests).
    void waitForLoad();

    std::shared_ptr<const LoadedRun> run() const { return m_run; }
    std::shared_ptr<const LoadedRun> comparison() const { return m_other; }
    // For tests: the status line, the rows of a table ("slowest", "groups", "alltoall", "files", "comparison") with
    // cells joined by " | ", the views, and the ranks whose timelines "Open Timelines" would open.
    QString statusText() const;
    QStringList tableRows(const QString& table) const;
    RankHeatMap* heatMap() const { return m_heat; }
    RankGridView* gridView() const { return m_grid; }
    QComboBox* metricPicker() const { return m_metric; }
    QPushButton* openTimelinesButton() const { return m_timelines; }
    QList<int> pickedRanks() const;

signals:
    // "Open Timelines": the raw traces of the picked ranks that exist here, for the Measured Run page.
    void openTracesRequested(const QStringList& files);
    void runShown();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    void rebuildComparison();
    void pickRank(int rank);
    void openTimelines();
    void startRead(const QString& path, bool comparison);

    std::shared_ptr<const LoadedRun> m_run;
    std::shared_ptr<const LoadedRun> m_other;
    QFutureWatcher<std::shared_ptr<const LoadedRun>> m_runWatcher;
    QFutureWatcher<std::shared_ptr<const LoadedRun>> m_otherWatcher;
    int m_picked = -1;
    QString m_timelineNote;

    QLabel* m_title;
    QPushButton* m_open;
    QPushButton* m_compare;
    QPushButton* m_timelines;
    QLabel* m_metricLabel;
    QComboBox* m_metric;
    QLabel* m_status;
    RankHeatMap* m_heat;
    RankGridView* m_grid;
    QTabWidget* m_tabs;
    QTableWidget* m_slowest;
    QTableWidget* m_groups;
    QTableWidget* m_allToAll;
    QTableWidget* m_files;
    QTableWidget* m_comparison;
};

} // namespace planscope
