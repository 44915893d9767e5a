// The compare page ("compare"): two to four plans side by side, to see which wins and why. Plan A is always the open
// document and follows it (an edit in the editor updates the comparison at once); up to three more come from files
// (addPlanFile) or as plans (addPlan: the planner's "Compare with current"). Each added plan is analysed by the one
// core call the document makes (analyse(), core/analysis/Analysis.h) off the GUI thread, the newest result of each
// winning. The page shows:
//   - the headline table: core's compareRows() (core/analysis/PlanCompare.h, what `planscope-cli compare` prints),
//     one column per plan, the better value of each row marked, the others as a multiple of it, and under it a line
//     saying which term of the step (compute, bubble, exposed communication, optimizer, the rest) differs most
//     between the fastest plan and each other one;
//   - the simulated timelines stacked on ONE time axis (the longest step sets it, so a faster plan ends short);
//   - memory per stage side by side on one y scale, and a compact GPU grid per plan.
// Nothing here computes a figure: the table is compareRows() over the analyses, the rest reads their predictions.
#pragma once

#include "pages/Page.h"

#include "analysis/Analysis.h"
#include "analysis/PlanCompare.h"
#include "spec/Plan.h"
#include "util/Result.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

class QBoxLayout;
class QCheckBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableWidget;
class QVBoxLayout;

namespace planscope {

class ElidedLabel;

class GpuGridView;
class MemoryBarsView;
class PlanDocument;
class TimelineView;

class ComparePage : public QWidget, public Page {
    Q_OBJECT
public:
    static constexpr int kMaxPlans = 4; // the open plan and three more

    explicit ComparePage(QWidget* parent = nullptr);
    ~ComparePage() override;

    static constexpr const char* kPageName = "compare";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    void setDocument(PlanDocument* document) override;
    // The whole page (table, timelines, bars, grids), laid out at `size` or at least as tall as its content.
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;

    // Adds the plan of a file. False when it cannot be read (the reason, with the field path or byte offset the
    // reader gives, in message() and *error) or four plans are shown already; the plans shown stay as they were.
    bool addPlanFile(const QString& path, QString* error = nullptr);
    // Adds a plan that has no file (the planner's), named `name`.
    bool addPlan(const Plan& plan, const QString& name, QString* error = nullptr);
    // Adds a plan already analysed (the report's): shown at once, nothing computed again.
    bool addAnalysis(std::shared_ptr<const Analysis> analysis, const QString& name, QString* error = nullptr);
    // Plan A without a document (the report's): this analysis, named `name` (its plan's name where empty). A
    // document, when given, takes its place.
    void showAnalysis(std::shared_ptr<const Analysis> analysis, const QString& name = QString());
    // Removes added plan `index` (1 .. planCount() - 1; plan 0 is the document's).
    void removePlan(int index);
    void clearAddedPlans();
    // Opens a file dialog and adds the chosen plan.
    void addPlanInteractively();

    // Plans shown, the document's first.
    int planCount() const { return 1 + int(m_added.size()); }
    QString planName(int index) const; // "A: name"
    QString planFile(int index) const; // empty for a plan without a file
    // The analysis shown for plan `index` (null while it is computed, or plan 0 without a document).
    std::shared_ptr<const Analysis> analysis(int index) const;
    // An added plan's analysis is running.
    bool isEvaluating() const;
    // Runs the event loop until no added plan's analysis is running (for --screenshot and tests; the report gives the
    // page analyses made already and never waits).
    void waitForAnalyses();

    // compareRows() of the plans shown (a plan computing counts as one without figures).
    const std::vector<CompareRow>& rows() const { return m_rows; }
    // The table's row of a CompareRow field ("time.stepSeconds"), -1 if none. Cells keep the value in Qt::UserRole
    // and its relative factor in Qt::UserRole + 1; the best cell is bold, tinted, with the tooltip "best".
    int tableRow(const QString& field) const;
    QTableWidget* table() const { return m_table; }
    // A compare row's name and a value of it as the table writes them (in the interface's language; GiB, seconds,
    // shares in %). The report's comparison uses the same words.
    static QString rowLabel(const CompareRow& row);
    static QString valueText(const CompareRow& row, double value);
    // A headline figure's name as a row title, and a value in its unit (HeadlineFigure, core/analysis/PlanCompare.h).
    static QString figureLabel(const Text& label);
    static QString valueText(const std::string& unit, double value);
    // The "why" line under the table.
    QString whyText() const;
    // Why the last plan was not added (unreadable file, too many plans); empty after a success.
    QString message() const { return m_message; }
    QPushButton* addButton() const { return m_addButton; }
    QCheckBox* stageRowsChoice() const { return m_stageRows; }
    TimelineView* timelineView(int index) const;
    MemoryBarsView* memoryView(int index) const;
    GpuGridView* gridView(int index) const;
    // The span the stacked timelines share (the longest simulated step), 0 without timelines.
    double sharedTimeSpan() const { return m_timeSpan; }
    double sharedMemoryMaximumGiB() const { return m_memoryMax; }

Q_SIGNALS:
    // The table and the pictures show a new state (a plan added, removed, analysed, or the document's new analysis).
    void comparisonChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Added {
        quint64 id = 0;
        QString name;
        QString file;
        Plan plan;
        Issues warnings;
        std::shared_ptr<const Analysis> analysis;
        quint64 generation = 0; // of the analysis asked for last: an older result arriving late is dropped
        bool pending = false;
    };
    // What one plan's column of pictures is made of.
    struct Column {
        QWidget* chip = nullptr;
        ElidedLabel* chipLabel = nullptr; // the plan's letter and name, elided in the middle where narrow
        QPushButton* remove = nullptr;
        QLabel* timelineTitle = nullptr;
        TimelineView* timeline = nullptr;
        MemoryBarsView* memory = nullptr;
        GpuGridView* grid = nullptr;
    };

    bool add(Added added, QString* error);
    bool refuse(const QString& message, QString* error);
    void startAnalysis(quint64 id);
    void rebuild();
    void rebuildColumns();
    void fillTable();
    void fillWhy();
    void updatePictures();
    void retranslate();
    QString shortName(int index) const;

    QPointer<PlanDocument> m_document;
    std::shared_ptr<const Analysis> m_first; // plan A without a document (showAnalysis)
    QString m_firstName;
    std::vector<Added> m_added;
    quint64 m_nextId = 1;
    std::vector<CompareRow> m_rows;
    std::vector<Column> m_columns;
    QString m_message;
    double m_timeSpan = 0;
    double m_memoryMax = 0;

    QLabel* m_title = nullptr;
    QHBoxLayout* m_chips = nullptr;
    QPushButton* m_addButton = nullptr;
    QCheckBox* m_stageRows = nullptr;
    QLabel* m_messageLabel = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_why = nullptr;
    QLabel* m_timelinesTitle = nullptr;
    QVBoxLayout* m_timelines = nullptr;
    QLabel* m_memoryTitle = nullptr;
    QWidget* m_memoryKey = nullptr;
    QHBoxLayout* m_memory = nullptr;
    QLabel* m_gridsTitle = nullptr;
    QBoxLayout* m_bottom = nullptr;
    QHBoxLayout* m_grids = nullptr;
};

} // namespace planscope
