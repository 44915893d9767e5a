// A measured run next to the prediction (issue 6): open or drop PyTorch-profiler traces (one file per rank, or a
// folder), watch the import (progress, cancel), then read, on one time axis, each rank's measured lanes against
// its pipeline rank's predicted ones, the summary of where the prediction is off (compute, exposed
// communication, idle), matched PP: actions with their deltas, each collective's bandwidth, the top kernels and
// measured memory against predicted memory. planscope-cli import --against computes the same comparison.
#pragma once

#include "spec/Plan.h"

#include <optional>

#include "pages/Page.h"
#include <QPointer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QSplitter;
class QTableWidget;

namespace planscope {

class PlanDocument;
class TraceSet;
struct InferredLayout;
struct TraceImport;
struct Overlay;
class TraceTimelineView;

class TracePage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit TracePage(QWidget* parent = nullptr);

    static constexpr const char* kPageName = "trace";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    void setDocument(PlanDocument* document) override;
    void setTraceSet(TraceSet* traces);
    // The window's view state: the measured lanes show the seconds of the step the timeline page shows, and the
    // other way round (zooming either zooms both).
    void setViewState(ViewState* state) override;
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    TraceTimelineView* timelineView() const { return m_view; }
    // For tests: the summary line and the rows of the tables, cells joined by " | ".
    QString summaryText() const;
    QStringList tableRows(const QString& table) const; // "phases", "ops", "collectives", "kernels", "memory"
    // For tests: the status text (ranks imported, files left out and why, damaged files) and the job picker.
    QString statusText() const;
    QComboBox* jobPicker() const { return m_job; }
    QTableWidget* kernelTable() const { return m_kernels; }
    QTabWidget* tabs() const { return m_tabs; }
    // The layout the traces' process groups imply (core's inferLayout) and "Use this plan": for tests, the text shown
    // (empty when the traces record none) and the plan the button would make the document's.
    QString layoutText() const;
    const std::optional<Plan>& inferredPlan() const { return m_inferredPlan; }
    QPushButton* usePlanButton() const { return m_usePlan; }

signals:
    // "Use this plan": the open plan (or, without one, the traces' world on the default GPU) with the inferred layout.
    void usePlanRequested(const planscope::Plan& plan);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    void rebuildSteps();
    void rebuildJobs();
    QStringList leftOutLines() const;
    void rebuildMemory();
    void rebuildLegend();
    QString overlaySummary(const Overlay& overlay) const;
    void rebuildLayout();

    QLabel* m_layout = nullptr;
    QPushButton* m_usePlan = nullptr;
    std::optional<Plan> m_inferredPlan;
    // The layout is the traces' alone: inferred once per import (the open plan only changes what it is applied to).
    std::shared_ptr<const TraceImport> m_layoutTraces;
    std::shared_ptr<const InferredLayout> m_inferred;
    QPointer<PlanDocument> m_document;
    QPointer<TraceSet> m_traces;
    std::shared_ptr<const TraceImport> m_shownTraces;
    QLabel* m_title;
    QPushButton* m_open;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_jobLabel;
    QComboBox* m_job;
    QLabel* m_stepLabel;
    QComboBox* m_step;
    QCheckBox* m_cpu;
    QLabel* m_status;
    QLabel* m_legend;
    QLabel* m_summary;
    TraceTimelineView* m_view;
    QSplitter* m_split;
    QTabWidget* m_tabs;
    QTableWidget* m_phases;
    QTableWidget* m_ops;
    QTableWidget* m_collectives;
    QTableWidget* m_kernels;
    QComboBox* m_memoryRank;
    QCustomPlot* m_memoryPlot;
    QTableWidget* m_memory;
};

} // namespace planscope
