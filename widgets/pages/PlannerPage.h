// The planner page ("planner"): searches every plan of the open plan's space (core/search: the knobs ticked vary,
// the others keep the plan's values) off the GUI thread, then shows the sampled fitting plans as a scatter of step
// time against peak memory (PlannerScatter), the best plans by the objective in a sortable table, why the open plan
// loses to the selected (or best) one term by term, and why the other plans were turned away. With a deadline (or
// several GPU counts) it sizes the cluster: core's sizeCluster() of the search, per GPU count the fastest plan and
// the days it takes to train the tokens, and the fewest GPUs that finish in time. "Open this plan"
// hands the chosen plan to the editor as one undoable edit (planChosen()), so every view shows it and Undo brings
// the user's plan back.
//
// The search runs on a std::thread of its own with SearchOptions::threads = cores - 1 (the GUI thread keeps a
// core); it reports progress through atomics that a timer on the GUI thread polls, and stops at the cancel flag. A
// new search, another document or the page's destruction cancels the running one and joins it first.
#pragma once

#include "pages/Page.h"
#include "search/Search.h"

#include <QPointer>
#include <QWidget>
#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace planscope {

class PlanDocument;
class FieldScientificSpinBox;
class PlannerScatter;
struct ScatterPoints;

class PlannerPage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit PlannerPage(QWidget* parent = nullptr);
    ~PlannerPage() override;

    static constexpr const char* kPageName = "planner";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    void setDocument(PlanDocument* document) override;
    // The page as on screen, or laid out at `size`. With no search of the open plan yet (a headless
    // --screenshot), one runs first and the picture shows its result.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    // What the controls ask for: the knobs ticked, the GPU counts typed (empty: the plan's; false and *error when
    // the text is not a list of counts), and the options of search() (objective, top K, threads; no callbacks).
    std::vector<Knob> chosenKnobs() const;
    bool chosenGpus(std::vector<int>* gpus, QString* error = nullptr) const;
    SearchOptions searchOptions() const;
    // The GPU counts a search of `plan` covers: the typed ones; none typed, sizingGpuCounts(plan) with a deadline,
    // else empty (the plan's own count).
    std::vector<int> searchedGpus(const Plan& plan, const std::vector<int>& typed) const;
    // The sizing question: tokens to train and the deadline in days (0: none).
    double sizingTokens() const;
    double sizingDays() const;
    // sizeCluster() of the last search for the sizing question; null when the cluster-size table is hidden (no
    // search, or one GPU count and no deadline).
    const Sizing* sizing() const { return m_sizing ? &*m_sizing : nullptr; }

    // Starts a search of the document's plan with the controls' settings, cancelling a running one. False (and
    // the summary says why) when there is no plan or the settings do not make a space.
    bool startSearch();
    void cancelSearch();
    bool isRunning() const { return m_thread.joinable(); }
    // Blocks until the running search ends and its result is shown, chart included (at once when none runs).
    void waitForSearch();
    // The last finished search (null before the first); a cancelled one holds what it had found.
    std::shared_ptr<const SearchResult> result() const { return m_result; }

    // The selected plan: a row of the table, a point of the scatter, or an index of the space.
    void selectRow(int row);
    void selectIndex(qint64 index);
    std::optional<Candidate> selectedCandidate() const;
    // "Open this plan": the selected plan (the best without a selection) as the document's plan.
    void openSelected();
    // "Compare with current": emits compareRequested() with the selected plan (the best without a selection).
    void compareSelected();

    QCheckBox* knobCheck(Knob knob) const;
    QLineEdit* gpuCountsEdit() const { return m_gpus; }
    FieldScientificSpinBox* tokensChoice() const { return m_tokens; }
    QDoubleSpinBox* deadlineChoice() const { return m_deadline; }
    QComboBox* objectiveChoice() const { return m_objective; }
    QSpinBox* topChoice() const { return m_top; }
    QComboBox* colourChoice() const { return m_colour; }
    QPushButton* searchButton() const { return m_search; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* compareButton() const { return m_compare; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* openPlanNote() const { return m_givenNote; }
    QTableWidget* bestTable() const { return m_best; }
    QTableWidget* whyNotTable() const { return m_whyNot; }
    QTableWidget* rejectedTable() const { return m_rejected; }
    QWidget* sizingBox() const { return m_sizingBox; }
    QLabel* sizingAnswerLabel() const { return m_sizingAnswer; }
    QTableWidget* sizingTable() const { return m_sizingTable; }
    // The cluster-size table's row that answers the question (sizeCluster's answer), -1 for none.
    int sizingAnswerRow() const;
    PlannerScatter* scatter() const { return m_scatter; }

Q_SIGNALS:
    // A search ended (finished or cancelled) and its result is shown.
    void searchFinished();
    // "Open this plan": the plan to become the document's, and the undo step's name. The main window hands it to
    // the plan editor (one undo step); with nothing connected the page sets the document's plan itself.
    void planChosen(const planscope::Plan& plan, const QString& description);
    // "Compare with current": the selected plan (the best without a selection) and its description, to be set beside
    // the open plan on the compare page. The main window connects it.
    void compareRequested(const planscope::Plan& plan, const QString& name);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    // What the worker and the GUI thread share; the worker only touches this, and the page joins it before the
    // job goes away.
    struct Job {
        std::atomic<bool> cancel { false };
        std::atomic<bool> finished { false };
        std::atomic<double> done { 0 }, total { 0 };
        Objective objective = Objective::Time;
        std::shared_ptr<const SearchResult> result;
        std::shared_ptr<const ScatterPoints> points; // the result's scatter, prepared on the worker too
    };

    QWidget* buildControls();
    QWidget* buildResults();
    void retranslate();
    void retranslateTables();
    void fillColourChoice();
    void stopWorker();
    void poll();
    // The worker's result taken and shown; the chart a turn of the event loop later where `deferChart`.
    void finish(bool deferChart);
    void showResult();
    void showTables();
    void showChart();
    void showSummary();
    void showBestTitle();
    void fillBestTable();
    void fillRejected();
    // The open plan against the selected (or best) plan; `selectedPrediction`: that plan's, where already evaluated.
    void showWhyNot(const Prediction* selectedPrediction = nullptr);
    void showOpenPlanNote();
    void showSizing();
    QString sizingSentence() const;
    void fillSizingTable();
    void selectSizingRow(int row);
    void followSelectionInSizingTable(std::int64_t index);
    void showGpuCountsHint();
    void setRunning(bool running);
    void followPlan();

    QPointer<PlanDocument> m_document;
    std::array<QCheckBox*, kKnobCount> m_knobs {};
    QGroupBox* m_knobBox = nullptr;
    QLabel* m_gpusLabel = nullptr;
    QLineEdit* m_gpus = nullptr;
    QLabel* m_tokensLabel = nullptr;
    FieldScientificSpinBox* m_tokens = nullptr;
    QLabel* m_deadlineLabel = nullptr;
    QDoubleSpinBox* m_deadline = nullptr;
    QLabel* m_objectiveLabel = nullptr;
    QComboBox* m_objective = nullptr;
    QLabel* m_topLabel = nullptr;
    QSpinBox* m_top = nullptr;
    QPushButton* m_search = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_colourLabel = nullptr;
    QComboBox* m_colour = nullptr;
    QLabel* m_givenNote = nullptr;
    PlannerScatter* m_scatter = nullptr;
    QLabel* m_bestTitle = nullptr;
    QTableWidget* m_best = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_compare = nullptr;
    QLabel* m_selectionLabel = nullptr;
    QLabel* m_whyNotTitle = nullptr;
    QTableWidget* m_whyNot = nullptr;
    QLabel* m_rejectedTitle = nullptr;
    QTableWidget* m_rejected = nullptr;
    QWidget* m_sizingBox = nullptr;
    QLabel* m_sizingTitle = nullptr;
    QLabel* m_sizingAnswer = nullptr;
    QTableWidget* m_sizingTable = nullptr;
    QTimer* m_poll = nullptr;

    std::unique_ptr<Job> m_job;
    std::thread m_thread;
    Plan m_searchedPlan;                       // the document's plan when the shown search started
    std::shared_ptr<const SearchResult> m_result;
    std::shared_ptr<const ScatterPoints> m_points; // m_result's, for the chart
    Objective m_resultObjective = Objective::Time;
    std::optional<std::int64_t> m_selected;    // an index of m_result->space
    std::optional<Sizing> m_sizing;            // sizeCluster(*m_result, tokens, deadline) while its table shows
    double m_planTokens = 0;                   // the tokens field's value taken from the plan (not typed)
    bool m_filling = false;                    // the table is being filled: its selection signals are no choice
    bool m_chartPending = false;               // the tables show m_result, the chart not yet
};

} // namespace planscope
