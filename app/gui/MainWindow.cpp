#include "MainWindow.h"

#include "LanguageManager.h"
#include "MemoryBarsView.h"
#include "PlanDocument.h"
#include "SummaryPage.h"
#include "WidgetExporter.h"
#include "util/Units.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace planscope {

MainWindow::MainWindow(LanguageManager* languages, QWidget* parent)
    : QMainWindow(parent)
    , m_languages(languages)
    , m_document(new PlanDocument(this))
    , m_pages(new QTabWidget(this))
    , m_summary(new SummaryPage(m_pages))
    , m_memory(new MemoryBarsView(m_pages))
    , m_statusLabel(new QLabel(this))
{
    m_pages->setDocumentMode(true);
    m_pages->addTab(m_summary, QString());
    m_pages->addTab(m_memory, QString());
    setCentralWidget(m_pages);
    statusBar()->addPermanentWidget(m_statusLabel);

    m_summary->setDocument(m_document);
    m_memory->setDocument(m_document);
    connect(m_document, &PlanDocument::predictionChanged, this, &MainWindow::updateStatus);
    connect(m_document, &PlanDocument::planChanged, this, &MainWindow::updateStatus);
    connect(m_document, &PlanDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PlanDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_pages, &QTabWidget::currentChanged, this, [this](int index) {
        const QList<QAction*> views = m_viewGroup->actions();
        if (index >= 0 && index < views.size()) views[index]->setChecked(true);
    });

    createMenus();
    retranslateUi();
}

MainWindow::~MainWindow() = default;

QStringList MainWindow::viewNames()
{
    return { QStringLiteral("summary"), QStringLiteral("memory") };
}

bool MainWindow::setCurrentView(const QString& name)
{
    const int index = int(viewNames().indexOf(name));
    if (index < 0) return false;
    m_pages->setCurrentIndex(index);
    return true;
}

QString MainWindow::currentView() const
{
    return viewNames().value(m_pages->currentIndex());
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_open = m_fileMenu->addAction(QString(), this, &MainWindow::open);
    m_open->setShortcut(QKeySequence::Open);
    m_save = m_fileMenu->addAction(QString(), this, &MainWindow::save);
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs = m_fileMenu->addAction(QString(), this, &MainWindow::saveAs);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    m_fileMenu->addSeparator();
    m_export = m_fileMenu->addAction(QString(), this, &MainWindow::exportViewInteractively);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString(), this, &QWidget::close);
    m_quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(QString());
    m_viewGroup = new QActionGroup(this);
    m_showSummary = m_viewMenu->addAction(QString());
    m_showMemory = m_viewMenu->addAction(QString());
    int index = 0;
    for (QAction* action : { m_showSummary, m_showMemory }) {
        action->setCheckable(true);
        action->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + index)));
        m_viewGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, index] { m_pages->setCurrentIndex(index); });
        ++index;
    }
    m_showSummary->setChecked(true);

    m_languageMenu = menuBar()->addMenu(QString());
    m_languageGroup = new QActionGroup(this);
    for (const QString& code : LanguageManager::availableLanguages()) {
        // Each language in its own words, so a reader can find theirs whatever is shown now.
        QAction* action = m_languageMenu->addAction(LanguageManager::nativeName(code));
        action->setCheckable(true);
        action->setChecked(code == m_languages->language());
        m_languageGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] { m_languages->setLanguage(code); });
    }
}

void MainWindow::retranslateUi()
{
    m_pages->setTabText(0, tr("Summary"));
    m_pages->setTabText(1, tr("Memory"));
    m_fileMenu->setTitle(tr("&File"));
    m_open->setText(tr("&Open…"));
    m_save->setText(tr("&Save"));
    m_saveAs->setText(tr("Save &As…"));
    m_export->setText(tr("&Export View…"));
    m_quit->setText(tr("&Quit"));
    m_viewMenu->setTitle(tr("&View"));
    m_showSummary->setText(tr("&Summary"));
    m_showMemory->setText(tr("&Memory"));
    m_languageMenu->setTitle(tr("&Language"));
    updateTitle();
    updateStatus();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_document->isModified()) {
        const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
            tr("The plan has changes that are not saved. Save them before quitting?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save())) {
            event->ignore();
            return;
        }
    }
    event->accept();
}

void MainWindow::updateTitle()
{
    const QString file
        = m_document->filePath().isEmpty() ? tr("Untitled") : QFileInfo(m_document->filePath()).fileName();
    setWindowTitle(QStringLiteral("%1%2 — PlanScope")
                       .arg(file, m_document->isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::updateStatus()
{
    const auto prediction = m_document->prediction();
    if (m_document->isEvaluating()) {
        m_statusLabel->setText(tr("Evaluating…"));
    } else if (!prediction) {
        m_statusLabel->setText(tr("No plan loaded"));
    } else if (!prediction->valid) {
        m_statusLabel->setText(
            tr("The plan cannot run: %n error(s)", nullptr, int(prediction->errors.size())));
    } else {
        m_statusLabel->setText(tr("Peak %1 GiB of %2 GiB (%3) · step %4 · MFU %5 %")
                                   .arg(units::toGiB(double(prediction->peakBytes)), 0, 'f', 2)
                                   .arg(units::toGiB(double(prediction->capacityBytes)), 0, 'f', 2)
                                   .arg(prediction->fits ? tr("fits") : tr("does not fit"))
                                   .arg(QString::fromStdString(units::formatSeconds(prediction->stepSeconds)))
                                   .arg(prediction->mfu * 100.0, 0, 'f', 1));
    }
}

bool MainWindow::openPlan(const QString& path)
{
    if (m_document->load(path)) {
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
        return true;
    }
    statusBar()->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(path)), 10000);
    setCurrentView(QStringLiteral("summary"));
    return false;
}

void MainWindow::open()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Plan"),
        QFileInfo(m_document->filePath()).absolutePath(),
        tr("PlanScope plans (*.plan.json *.json);;All files (*)"));
    if (!path.isEmpty()) openPlan(path);
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty()) return saveAs();
    if (!m_document->save(m_document->filePath())) {
        QMessageBox::warning(this, tr("Save failed"), m_document->errorString());
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_document->filePath())), 5000);
    return true;
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Plan As"), m_document->filePath(), tr("PlanScope plans (*.plan.json)"));
    if (path.isEmpty()) return false;
    if (!m_document->save(path)) {
        QMessageBox::warning(this, tr("Save failed"), m_document->errorString());
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::exportView(const QString& path, QString* error)
{
    QWidget* page = m_pages->currentWidget();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (page == m_memory && (suffix == QLatin1String("svg") || suffix == QLatin1String("pdf"))) {
        if (m_memory->exportTo(path, page->width(), page->height())) return true;
        if (error) *error = tr("Cannot write %1").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return WidgetExporter::exportWidget(page, path, error);
}

void MainWindow::exportViewInteractively()
{
    const QString base = QFileInfo(m_document->filePath()).completeBaseName().section(QLatin1Char('.'), 0, 0);
    const QString suggestion = QFileInfo(m_document->filePath()).absolutePath() + QLatin1Char('/') + base
        + QLatin1Char('-') + currentView() + QStringLiteral(".png");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export View"), suggestion,
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportView(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
}

} // namespace planscope
