#include "pages/LaunchConfigDialog.h"

#include "CoreText.h"
#include "Theme.h"
#include "io/LaunchConfig.h"
#include "io/PlanJson.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace planscope {

LaunchConfigDialog::LaunchConfigDialog(const Plan* current, QWidget* parent)
    : QDialog(parent)
{
    if (current) m_current = *current;
    setWindowTitle(tr("Import Launch Config"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Paste a Megatron-LM launch line or script (torchrun or srun in front), a torchtitan TOML, "
                                "a Megatron-Bridge or NeMo YAML or a DeepSpeed JSON, or open one. Every argument PlanScope "
                                "models becomes a plan field; the others are listed by name. The GPU and the links stay "
                                "the open plan's."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_edit = new QPlainTextEdit(this);
    m_edit->setObjectName(QStringLiteral("launchText"));
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setPlaceholderText(QStringLiteral("torchrun --nnodes 16 --nproc-per-node 8 pretrain_gpt.py --num-layers 96 ..."));
    m_edit->setMinimumSize(640, 280);
    layout->addWidget(m_edit, 1);
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("launchProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette palette = m_problems->palette();
    palette.setColor(QPalette::WindowText, Theme::alarmText());
    m_problems->setPalette(palette);
    m_problems->hide();
    layout->addWidget(m_problems);
    auto* buttons = new QDialogButtonBox(this);
    auto* open = buttons->addButton(tr("Open File…"), QDialogButtonBox::ActionRole);
    m_import = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    m_import->setObjectName(QStringLiteral("importButton"));
    buttons->addButton(QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(open, &QPushButton::clicked, this, &LaunchConfigDialog::openFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Import: the dialog closes only with a plan; what could not be read stays on show beside the text.
    connect(m_import, &QPushButton::clicked, this, [this] {
        if (importText()) accept();
    });
}

void LaunchConfigDialog::setText(const QString& text)
{
    m_edit->setPlainText(text);
}

QString LaunchConfigDialog::text() const
{
    return m_edit->toPlainText();
}

QString LaunchConfigDialog::problems() const
{
    return m_problems->isHidden() ? QString() : m_problems->text();
}

void LaunchConfigDialog::showProblems()
{
    // Under the text, the dialog grown to hold them (the text keeps its size; nothing is drawn over it).
    m_problems->show();
    layout()->activate();
    if (height() < sizeHint().height()) resize(width(), sizeHint().height());
}

void LaunchConfigDialog::openFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Launch Config"), QString(),
        tr("Launch configs (*.sh *.txt *.args *.toml *.yaml *.yml *.json);;All files (*)"));
    if (path.isEmpty()) return;
    auto read = readTextFile(QFile::encodeName(path).toStdString(), kMaxPlanFileBytes);
    if (!read) {
        m_problems->setText(tr("Cannot read %1: %2").arg(path, CoreText::text(read.errors().front())));
        showProblems();
        return;
    }
    setText(QString::fromStdString(read.value()));
    // A Hugging Face folder the config names is looked for beside it.
    m_directory = QFileInfo(path).absolutePath();
}

bool LaunchConfigDialog::importText()
{
    m_plan.reset();
    m_report.clear();
    LaunchImportBase base;
    if (m_current) base.plan = planToJson(*m_current);
    base.name = tr("From a launch config").toStdString();
    base.directory = m_directory.toStdString();
    const LaunchImport result = importLaunchPlan(text().toStdString(), base);
    const ImportedLaunch& imported = result.imported;
    QStringList errors, warnings;
    for (const Issue& i : result.issues) (i.severity == Severity::Error ? errors : warnings) << CoreText::line(i);
    if (!errors.isEmpty() || result.failed()) {
        m_problems->setText(tr("Not imported:") + QLatin1Char('\n') + errors.join(QLatin1Char('\n')));
        showProblems();
        return false;
    }
    m_problems->hide();
    m_plan = result.plan;
    QStringList ignored;
    for (const std::string& s : imported.ignored) ignored << QString::fromStdString(s);
    m_report = tr("%n argument(s) of the launch config applied.", nullptr, int(imported.applied.size()));
    if (!ignored.isEmpty()) m_report += QLatin1Char(' ') + tr("Not modelled: %1.").arg(ignored.join(QStringLiteral(", ")));
    if (!warnings.isEmpty()) m_report += QLatin1Char(' ') + warnings.join(QStringLiteral("; "));
    return true;
}

} // namespace planscope
