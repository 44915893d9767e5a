// The numbers of an analysis' prediction, grouped, each row tied to its field path in the prediction JSON so
// that selecting it shows how it was computed (the Explainer's formula with the values filled in).
#pragma once

#include "pages/Page.h"
#include "cost/Prediction.h"
#include "document/AnalysisFeed.h"

#include <QWidget>
#include <memory>

class QLabel;
class QListWidget;
class QSplitter;
class QTableWidget;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace planscope {

class PlanDocument;

class SummaryPage : public QWidget, public Page {
    Q_OBJECT
public:
    enum Role {
        FieldRole = Qt::UserRole, // QString: the prediction field path, e.g. "time.bubbleFraction"
        ExactValueRole, // double: the unrounded value in core units (bytes, seconds, ...)
    };
    enum Column { QuantityColumn, ValueColumn, NoteColumn };
    // The operator table: one layer's ops in execution order with a total per pass, then the output layer's.
    enum OpColumn {
        OpPassColumn,
        OpNameColumn,
        OpShapeColumn,
        OpGflopColumn,
        OpMegabytesColumn,
        OpBoundColumn,
        OpEfficiencyColumn,
        OpMillisecondsColumn,
        OpExposedColumn,
        OpColumnCount
    };
    enum OpRole {
        OpIndexRole = Qt::UserRole + 10, // int on OpNameColumn: the index into the op list; -1 on totals and titles
        OpListRole, // int on OpNameColumn: 0 Prediction::layerOps, 1 outputOps
        OpPassRole, // int on OpPassColumn of a total row: the KernelPass it sums
        OpSecondsRole, // double on OpMillisecondsColumn and OpExposedColumn: the unrounded seconds
    };

    explicit SummaryPage(QWidget* parent = nullptr);

    static constexpr const char* kPageName = "metrics";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;
    // Follows the document: each analysis it publishes is shown (setAnalysis()).
    void setDocument(PlanDocument* document) override;
    // Shows this analysis (null: no plan): its plan, prediction and explanations, with its input warnings (the
    // plan file's) listed among the issues.
    void setAnalysis(std::shared_ptr<const Analysis> analysis) override;

    QTreeWidget* tree() const { return m_tree; }
    QTextBrowser* explanationView() const { return m_explanation; }
    QListWidget* issueList() const { return m_issues; }
    QLabel* headerLabel() const { return m_header; }
    QTableWidget* opsTable() const { return m_ops; }
    QTreeWidgetItem* findField(const QString& field) const;
    void selectField(const QString& field);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void rebuildHeader();
    void rebuildTree();
    void rebuildIssues();
    void rebuildOps();
    void showOpDetails();
    void showExplanation();
    void fitIssueList();
    // The shown analysis' prediction; null without one.
    const Prediction* prediction() const { return m_analysis ? &m_analysis->prediction : nullptr; }

    QLabel* m_header = nullptr;
    QSplitter* m_vertical = nullptr;
    QTreeWidget* m_tree = nullptr;
    QTextBrowser* m_explanation = nullptr;
    QLabel* m_opsTitle = nullptr;
    QTableWidget* m_ops = nullptr;
    QLabel* m_issuesTitle = nullptr;
    QListWidget* m_issues = nullptr;

    AnalysisFeed m_feed;
    std::shared_ptr<const Analysis> m_analysis; // what is shown
    bool m_issueSplitterMoved = false;
    QString m_selectedField = QStringLiteral("time.stepSeconds");
};

} // namespace planscope
