// File > Import Launch Config: a Megatron-LM launch line or script pasted (or read from a file) and turned into a
// plan (core/io/LaunchConfig.h) over the open plan's cluster. Import shows what it could not read without closing,
// so nothing typed is lost; on success the dialog closes with the plan and a report of what was applied and what
// is not modelled, by name.
#pragma once

#include "spec/Plan.h"

#include <QDialog>
#include <QString>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace planscope {

class LaunchConfigDialog : public QDialog {
    Q_OBJECT
public:
    // `current`: the open plan (its cluster is the base; null: an H100 node, said in the report).
    explicit LaunchConfigDialog(const Plan* current, QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const;
    // Reads the text as a launch config; true when it gives a plan (then plan() and report() hold it).
    bool importText();
    const std::optional<Plan>& plan() const { return m_plan; }
    // "22 arguments applied; not modelled: --lr, --data-path" and the warnings, one a line.
    QString report() const { return m_report; }
    // What the last import could not read (errors by argument or field), shown in the dialog.
    QString problems() const;

    // Where a Hugging Face folder the text names is looked for (the folder of a dropped or opened file).
    void setDirectory(const QString& directory) { m_directory = directory; }

private:
    void openFile();
    void showProblems();

    std::optional<Plan> m_current;
    QPlainTextEdit* m_edit = nullptr;
    QLabel* m_problems = nullptr;
    QPushButton* m_import = nullptr;
    std::optional<Plan> m_plan;
    QString m_report;
    QString m_directory; // the opened file's folder: where a Hugging Face folder it names is looked for
};

} // namespace planscope
