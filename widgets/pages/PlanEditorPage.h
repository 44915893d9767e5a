// The plan as a form: model, cluster, parallel degrees and training settings. Every edit builds a Plan,
// pushes one undo command holding the plan before and after, and hands the new plan to the document, so
// every view follows at once. planscope::validate runs on each edit and its messages appear under the
// field whose path they name (errors red, warnings amber), with a "valid / N errors" line on top.
#pragma once

#include "pages/Page.h"
#include "spec/Plan.h"
#include "util/Result.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QHBoxLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QUndoStack;

namespace planscope {

class PlanDocument;
class RealityCheckBox;

class PlanEditorPage : public QWidget, public Page {
    Q_OBJECT
public:
    explicit PlanEditorPage(QWidget* parent = nullptr);
    ~PlanEditorPage() override;

    // Shows the document's plan and edits it. A plan the document gets from elsewhere (a file loaded)
    // refreshes the fields and clears the undo stack.
    static constexpr const char* kPageName = "editor";
    QString pageName() const override { return QLatin1String(kPageName); }
    QString pageTitle() const override;
    bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) override;
    void setDocument(PlanDocument* document) override;
    // One command per field edit (consecutive edits of one field merge); for the Edit menu's Undo/Redo.
    QUndoStack* undoStack() const { return m_undoStack; }
    // The plan the fields show.
    const Plan& plan() const { return m_plan; }
    // A whole plan from elsewhere in the window (the planner's "Open this plan") as one undo step named `text`, so
    // that Undo brings back the plan before it.
    void pushPlan(const Plan& plan, const QString& text);

    // The validation text shown under the field of this path ("parallel.pp"; "parallel" is the group's own
    // line), one issue a line; empty when the field has none. An issue whose path has no field of its own
    // ("cluster.gpu.memory") is shown under the nearest enclosing one ("cluster.gpu").
    QString fieldError(const QString& path) const;
    // The path of the field an issue of this path is shown under; empty if none (then it is listed on top).
    QString displayPath(const QString& path) const;

    // Field widgets by plan path, for tests and for the main window to focus one.
    QWidget* fieldWidget(const QString& path) const;
    QSpinBox* spinBox(const QString& path) const;
    QDoubleSpinBox* doubleSpinBox(const QString& path) const;
    QComboBox* comboBox(const QString& path) const;
    QCheckBox* checkBox(const QString& path) const;
    QLineEdit* lineEdit(const QString& path) const;
    // "dp", "tp", "pp", "cp", "ep", "etp" or "vpp".
    QSpinBox* degreeSpin(const QString& name) const;
    // The box of one module of training.recomputeModules ("core_attn", "mlp", ...); null for another name. The boxes
    // sit in fieldWidget("training.recomputeModules"), and with none chosen in the plan core_attn shows ticked.
    QCheckBox* recomputeModuleCheck(const QString& module) const;
    // Ticked: dp follows GPUs / (tp*pp*cp).
    QCheckBox* autoDpCheck() const { return m_autoDp; }
    // "valid" or "N errors, M warnings".
    QLabel* summaryLabel() const { return m_summary; }
    // Peak memory, step time and MFU of the latest prediction.
    QLabel* predictionLabel() const { return m_predictionLine; }
    RealityCheckBox* realityCheckBox() const { return m_realityCheck; }
    // "Balance stages" beside the pipeline layout: sets parallel.layout to autoBalance()'s split (one undo step),
    // and the line under it that says what that changed, or why nothing was set.
    QPushButton* balanceButton() const { return m_balance; }
    QLabel* balanceNote() const { return m_balanceNote; }
    QLabel* splitNote() const { return m_splitNote; }   // each rank's chunks under the layout field

    // Columns the groups are laid out in: 3 when wide enough, else 2, else 1.
    int columnCount() const { return m_columnCount; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Section {
        QGroupBox* box = nullptr;
        QGridLayout* grid = nullptr;
        int row = 0;
        const char* title = nullptr;
    };
    struct Field {
        QString path;
        QWidget* editor = nullptr; // null for a group's own line ("parallel")
        QLabel* label = nullptr; // null where the editor carries its text (check boxes)
        QLabel* error = nullptr;
        const char* text = nullptr; // untranslated label (QT_TR_NOOP)
        const char* tip = nullptr;
        std::function<void()> show; // puts m_plan's value into the editor
    };

    Section* addSection(const char* title);
    int addRow(Section& section, const QString& path, const char* text, const char* tip, QWidget* editor,
        QWidget* rowWidget = nullptr);
    // An integer field: its range, and how it is read and written, are the field's row of core/spec/FieldLimits.cpp.
    QSpinBox* addInt(Section& section, const QString& path, const char* text, const char* tip);
    QDoubleSpinBox* addScaled(Section& section, const QString& path, const char* text, const char* tip,
        double scale, int decimals, double maximum, std::function<double(const Plan&)> get,
        std::function<void(Plan&, double)> set);
    QCheckBox* addCheck(Section& section, const QString& path, const char* text, const char* tip,
        std::function<bool(const Plan&)> get, std::function<void(Plan&, bool)> set);
    QComboBox* addChoice(Section& section, const QString& path, const char* text, const char* tip,
        const QStringList& values, std::function<std::string(const Plan&)> get,
        std::function<void(Plan&, const std::string&)> set);

    void buildModel(Section& section);
    void buildMla(Section& section);
    void buildMoe(Section& section);
    void buildCluster(Section& section);
    void buildParallel(Section& section);
    void buildTraining(Section& section);
    void buildHost(Section& section);
    void buildRecomputeModules(Section& section);
    void buildOffload(Section& section);

    // A user edit of field `field`: applies `change` to a copy of the plan and pushes it as a command.
    void edit(int field, const std::function<void(Plan&)>& change);
    // Pushes the plan `next` as one undo command of field `field` named `text`.
    void pushEdit(int field, Plan next, const QString& text, bool mergeable);
    // The "Balance stages" button: the balanced layout as one undo step of the layout field, or a note why not.
    void balanceStages(int layoutField);
    // A recompute module's box toggled: the ticked modules become the plan's list (one undo step).
    void toggleRecomputeModule(int field);
    // Enables the fields that apply to the plan (MoE settings for an MoE model, the fp8 recipe with fp8, ...) and names
    // what a 0 stands for where that follows from other fields (head size, etp).
    void updateDependentFields();
    void showBalanceNote(const QString& text, bool alarm);
    // Keeps what follows from an edit consistent: dp when it is automatic, the model preset's name.
    void normalise(Plan& plan, const QString& path) const;
    // Shows `plan` and hands it to the document (an undo command's undo/redo).
    void applyPlan(const Plan& plan);
    void followDocumentPlan();
    void refreshFields();
    void showIssues();
    void showPrediction();
    void retranslate();
    void fillZeroItems();
    void arrangeColumns(int count);
    int widthFor(int columns) const;
    int fieldIndex(const QString& path) const;

    QUndoStack* m_undoStack = nullptr;
    QPointer<PlanDocument> m_document;
    Plan m_plan;
    Issues m_issues;

    std::vector<std::unique_ptr<Section>> m_sections;
    std::vector<Field> m_fields;
    std::vector<QString> m_errorTexts; // per field: the plain text of its issues

    QWidget* m_content = nullptr;
    QHBoxLayout* m_columns = nullptr;
    // Model, MLA, MoE, cluster, parallel, training, offload, reality check (arrangeColumns()).
    std::vector<QGroupBox*> m_boxes;
    int m_columnCount = 0;
    QLabel* m_summary = nullptr;
    QLabel* m_predictionLine = nullptr;
    QLabel* m_otherIssues = nullptr;
    QLabel* m_gpuInfo = nullptr;
    QLabel* m_microbatchInfo = nullptr;
    QLabel* m_dpFormula = nullptr;
    QCheckBox* m_autoDp = nullptr;
    QPushButton* m_balance = nullptr;
    QLabel* m_balanceNote = nullptr;
    QLabel* m_splitNote = nullptr;
    std::string m_balancedLayout; // the layout the note speaks of; another layout hides the note
    QComboBox* m_modelPreset = nullptr;
    QComboBox* m_gpu = nullptr;
    QComboBox* m_zero = nullptr;
    struct ModuleBox {
        QString name;
        QCheckBox* box = nullptr;
        const char* tip = nullptr; // untranslated (QT_TR_NOOP)
    };
    std::vector<ModuleBox> m_recomputeModules; // in Megatron-Core's order
    QGroupBox* m_realityBox = nullptr;
    RealityCheckBox* m_realityCheck = nullptr;

    bool m_refreshing = false; // fields are being filled from the plan: their signals are no edits
    bool m_applying = false; // the document's planEdited comes from this editor
};

} // namespace planscope
