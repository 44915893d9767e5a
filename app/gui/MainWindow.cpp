#include "MainWindow.h"

#include "io/FileKind.h"

#include "LanguageManager.h"
#include "document/ViewState.h"
#include "pages/RunPage.h"
#include "pages/ComparePage.h"
#include "pages/PageRegistry.h"
#include "pages/SummaryPage.h"
#include "pages/PlanEditorPage.h"
#include "pages/LessonPanel.h"
#include "pages/PlannerPage.h"
#include "pages/ProfilePage.h"
#include "pages/TracePage.h"
#include "document/PlanDocument.h"
#include "Theme.h"
#include "pages/LaunchConfigDialog.h"
#include "io/PlanJson.h"
#include "document/TraceSet.h"
#include "CoreText.h"
#include "TableExporter.h"
#include "spec/PlanText.h"
#include "WidgetExporter.h"
#include "report/ReportWriter.h"
#include "PresentationMode.h"
#include "util/Units.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFrame>
#include <QHBoxLayout>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSettings>
#include <QUndoStack>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace planscope {

namespace {
constexpr int kMaxRecent = 8;

const char* kRecentKey = "recentFiles";
} // namespace

MainWindow::MainWindow(LanguageManager* languages, QWidget* parent)
    : QMainWindow(parent)
    , m_languages(languages)
    , m_document(new PlanDocument(this))
    , m_traces(new TraceSet(this))
    , m_state(new ViewState(this))
    , m_tabs(new QTabWidget(this))
    , m_editor(new PlanEditorPage(this))
    , m_editorDock(new QDockWidget(this))
    , m_statusLabel(new QLabel(this))
{
    m_tabs->setDocumentMode(true);
    // The pages under a message bar (a failed load says why there, once) and a computing note.
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    m_messageBar = new QFrame(central);
    m_messageBar->setObjectName(QStringLiteral("messageBar"));
    static_cast<QFrame*>(m_messageBar)->setFrameShape(QFrame::StyledPanel);
    auto* bar = new QHBoxLayout(m_messageBar);
    bar->setContentsMargins(8, 4, 4, 4);
    m_messageText = new QLabel(m_messageBar);
    m_messageText->setWordWrap(true);
    m_messageText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* closeMessage = new QToolButton(m_messageBar);
    closeMessage->setObjectName(QStringLiteral("closeMessage"));
    closeMessage->setAutoRaise(true);
    closeMessage->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    connect(closeMessage, &QToolButton::clicked, this, [this] { showMessage(QString()); });
    bar->addWidget(m_messageText, 1);
    bar->addWidget(closeMessage, 0, Qt::AlignTop);
    m_messageBar->hide();
    // The note with its Cancel: a long analysis (a simulation of up to a million ops, about a second and a half)
    // can be stopped; the closed form then stands and the timeline says it was cancelled.
    m_staleBar = new QWidget(central);
    auto* staleRow = new QHBoxLayout(m_staleBar);
    staleRow->setContentsMargins(8, 2, 4, 2);
    m_staleText = new QLabel(m_staleBar);
    m_staleText->setObjectName(QStringLiteral("computingNote"));
    m_cancelComputing = new QPushButton(m_staleBar);
    m_cancelComputing->setObjectName(QStringLiteral("cancelComputing"));
    connect(m_cancelComputing, &QPushButton::clicked, m_document, &PlanDocument::cancelEvaluation);
    staleRow->addWidget(m_staleText, 1);
    staleRow->addWidget(m_cancelComputing);
    m_staleBar->hide();
    // Opening a plan that takes a while (a slow or stalled file system): what is read, how far, and Cancel.
    m_loadBar = new QWidget(central);
    m_loadBar->setObjectName(QStringLiteral("openingBar"));
    auto* loadRow = new QHBoxLayout(m_loadBar);
    loadRow->setContentsMargins(8, 2, 4, 2);
    m_loadText = new QLabel(m_loadBar);
    m_loadProgress = new QProgressBar(m_loadBar);
    m_loadProgress->setMaximumWidth(240);
    m_cancelLoad = new QPushButton(m_loadBar);
    m_cancelLoad->setObjectName(QStringLiteral("cancelOpening"));
    connect(m_cancelLoad, &QPushButton::clicked, m_document, &PlanDocument::cancelLoad);
    loadRow->addWidget(m_loadText, 1);
    loadRow->addWidget(m_loadProgress);
    loadRow->addWidget(m_cancelLoad);
    m_loadBar->hide();
    column->addWidget(m_messageBar);
    column->addWidget(m_loadBar);
    column->addWidget(m_staleBar);
    column->addWidget(m_tabs, 1);
    setCentralWidget(central);
    m_staleTimer = new QTimer(this);
    m_staleTimer->setSingleShot(true);
    m_staleTimer->setInterval(300);
    connect(m_staleTimer, &QTimer::timeout, this, &MainWindow::updateStaleState);
    m_loadTimer = new QTimer(this);
    m_loadTimer->setSingleShot(true);
    connect(m_loadTimer, &QTimer::timeout, this, &MainWindow::updateLoadBar);
    connect(m_document, &PlanDocument::loadingChanged, this, [this](bool loading) {
        // A quick read flashes nothing; a slow one shows the bar after the computing-note delay.
        m_loadTimer->setInterval(m_staleTimer->interval());
        if (loading) {
            m_loadProgress->setRange(0, 0);
            m_loadTimer->start();
        } else {
            m_loadTimer->stop();
        }
        updateLoadBar();
    });
    connect(m_document, &PlanDocument::loadProgress, this, &MainWindow::showLoadProgress);
    m_askToSave = [this] {
        const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
            tr("The plan has changes that are not saved. Save them first?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        return answer == QMessageBox::Save ? SaveChoice::Save
            : answer == QMessageBox::Discard ? SaveChoice::Discard : SaveChoice::Cancel;
    };
    m_askToRecover = [this](const QString& description) {
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"), description, QMessageBox::NoButton, this);
        QPushButton* recover = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("&Not Now"), QMessageBox::RejectRole);
        box.setDefaultButton(recover);
        box.exec();
        return box.clickedButton() == recover ? RecoveryChoice::Recover
            : box.clickedButton() == discard ? RecoveryChoice::Discard : RecoveryChoice::Later;
    };
    m_askToOverwrite = [this](const QString& description) {
        QMessageBox box(QMessageBox::Warning, tr("File changed on disk"), description, QMessageBox::NoButton, this);
        QPushButton* overwrite = box.addButton(tr("&Overwrite"), QMessageBox::DestructiveRole);
        QPushButton* saveAs = box.addButton(tr("Save &As…"), QMessageBox::AcceptRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(saveAs);
        box.exec();
        return box.clickedButton() == overwrite ? OverwriteChoice::Overwrite
            : box.clickedButton() == saveAs ? OverwriteChoice::SaveAs : OverwriteChoice::Cancel;
    };
    m_warn = [this](const QString& title, const QString& text) { QMessageBox::warning(this, title, text); };
    statusBar()->addPermanentWidget(m_statusLabel);
    setAcceptDrops(true);

    // Every page of the registry (widgets/pages/PageRegistry.cpp), in its order, through the one interface: the
    // document, the shared view state, a tab.
    PlannerPage* planner = nullptr;
    TracePage* trace = nullptr;
    for (const PageKind& kind : pageKinds()) {
        Page* page = nullptr;
        QWidget* widget = kind.make(m_tabs, &page);
        addPage(widget, page);
        if (auto* p = qobject_cast<PlannerPage*>(widget)) planner = p;
        if (auto* p = qobject_cast<TracePage*>(widget)) trace = p;
        if (auto* p = qobject_cast<ComparePage*>(widget)) m_compare = p;
        if (auto* p = qobject_cast<ProfilePage*>(widget)) m_profile = p;
        if (auto* p = qobject_cast<RunPage*>(widget)) m_run = p;
    }
    m_editor->setDocument(m_document);
    m_traces->setDocument(m_document);
    trace->setTraceSet(m_traces);
    // The planner's "Open this plan" is an edit of the plan: one step on the editor's undo stack.
    connect(planner, &PlannerPage::planChosen, m_editor, &PlanEditorPage::pushPlan);
    // The measured run's "Use This Plan": the layout its traces imply, one step on the same stack.
    connect(trace, &TracePage::usePlanRequested, this, [this](const Plan& plan) {
        m_editor->pushPlan(plan, tr("Use the layout of the traces"));
        showMessage(tr("The plan now has the layout the traces imply: %1").arg(CoreText::text(degreesText(plan.parallel))));
    });
    // A run summary's "Open Timelines": the raw traces of the picked ranks on the Measured Run page.
    connect(m_run, &RunPage::openTracesRequested, this, &MainWindow::openTraces);
    // "Compare with current": the planner's plan beside the open one, on the compare page.
    connect(planner, &PlannerPage::compareRequested, this, [this](const Plan& plan, const QString& name) {
        QString error;
        if (!m_compare->addPlan(plan, name, &error)) showMessage(error);
        setCurrentView(QLatin1String(ComparePage::kPageName));
    });

    // The editor is a dock beside the views so that an edit and its effect are seen together.
    m_editorDock->setObjectName(QStringLiteral("editorDock"));
    m_editorDock->setWidget(m_editor);
    m_editorDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable
        | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_editorDock);
    m_editorDock->hide();
    createLessonDock();

    connect(m_document, &PlanDocument::predictionChanged, this, &MainWindow::updateStatus);
    connect(m_document, &PlanDocument::loadFailed, this, &MainWindow::showMessage);
    connect(m_document, &PlanDocument::changedOnDisk, this, [this](const QString& path) {
        const QString file = QDir::toNativeSeparators(path);
        if (!m_document->isModified()) {
            if (m_document->loadWithoutBlocking(path))
                showMessage(tr("%1 was changed by another program and has been read again.").arg(file));
            return;
        }
        showMessage(tr("%1 was changed by another program. Your unsaved edits are kept; File > Reload From Disk "
                       "replaces them with the file, Save writes them over it.")
                        .arg(file));
    });
    connect(m_document, &PlanDocument::openElsewhere, this, [this](const QString& path, qint64 pid) {
        showMessage(tr("%1 is open in another PlanScope as well (process %2). Both can edit it; a save that would "
                       "replace the other's saved changes asks first.")
                        .arg(QDir::toNativeSeparators(path))
                        .arg(pid));
    });
    connect(m_document, &PlanDocument::autosaveFailed, this, [this](const QString& why) {
        m_autosaveMessage = tr("Autosave failed: %1\nYour edits are kept in this window; autosave tries again, and Save "
                               "As can write them elsewhere.")
                                .arg(why);
        showMessage(m_autosaveMessage);
    });
    connect(m_document, &PlanDocument::autosaveRestored, this, [this] {
        if (message() == m_autosaveMessage) showMessage(QString());
        statusBar()->showMessage(tr("Autosave works again."), 5000);
    });
    connect(m_document, &PlanDocument::evaluatingChanged, this, [this](bool evaluating) {
        // Short evaluations flash nothing; a long one marks the pages as showing the plan before the edit.
        if (evaluating)
            m_staleTimer->start();
        else
            m_staleTimer->stop();
        updateStaleState();
        updateStatus();
    });
    connect(m_document, &PlanDocument::planEdited, this, &MainWindow::updateStatus);
    connect(m_document, &PlanDocument::planReplaced, this, &MainWindow::updateStatus);
    connect(m_document, &PlanDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PlanDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PlanDocument::predictionChanged, this, [this] {
        if (const auto tl = m_document->timeline()) m_state->setDuration(tl->stepSeconds);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        m_exportEditor = false;
        if (index >= 0 && index < int(m_pages.size())) m_pages[std::size_t(index)].action->setChecked(true);
    });

    createMenus();
    retranslateUi();
}

MainWindow::~MainWindow() = default;

void MainWindow::addPage(QWidget* widget, Page* page)
{
    page->setDocument(m_document);
    page->setViewState(m_state);
    // Each page in a scroll area of its own: a window narrower than a page's minimum (half a screen with the editor
    // open) scrolls that page instead of growing past the screen.
    auto* scroll = new QScrollArea(m_tabs);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(widget);
    m_tabs->addTab(scroll, QString());
    m_pages.push_back({ page, widget, nullptr });
    // Right-click on any of its tables: copy or export it (widgets/TableExporter.h).
    TableExporter::installContextMenus(widget);
}

QStringList MainWindow::viewNames()
{
    // The registry's pages, "summary" (the Metrics page's other name) and the editor dock.
    QStringList names;
    for (const PageKind& kind : pageKinds()) names << QLatin1String(kind.name);
    return names << QStringLiteral("summary") << QLatin1String(PlanEditorPage::kPageName);
}

bool MainWindow::setCurrentView(const QString& requested)
{
    const QString name = requested == QLatin1String("summary") ? QLatin1String(SummaryPage::kPageName) : requested;
    m_exportEditor = name == QLatin1String("editor");
    if (m_exportEditor) {
        m_editorDock->show();
        return true;
    }
    for (std::size_t i = 0; i < m_pages.size(); ++i)
        if (m_pages[i].page->pageName() == name) {
            m_tabs->setCurrentIndex(int(i));
            return true;
        }
    return false;
}

QString MainWindow::currentView() const
{
    const int i = m_tabs->currentIndex();
    return i >= 0 && i < int(m_pages.size()) ? m_pages[std::size_t(i)].page->pageName() : QString();
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_open = m_fileMenu->addAction(QString(), this, &MainWindow::open);
    m_open->setShortcut(QKeySequence::Open);
    m_openTraces = m_fileMenu->addAction(QString(), this, &MainWindow::openTracesInteractively);
    m_openTraces->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_openRun = m_fileMenu->addAction(QString(), this, &MainWindow::openRunInteractively);
    m_recentMenu = m_fileMenu->addMenu(QString());
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentFiles);
    m_importLaunch = m_fileMenu->addAction(QString(), this, [this] { importLaunchConfig(); });
    m_compareWith = m_fileMenu->addAction(QString(), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare With Plan"),
            QFileInfo(m_document->filePath()).absolutePath(), tr("PlanScope plans (*.plan.json *.json);;All files (*)"));
        if (!path.isEmpty()) compareWith(path);
    });
    m_compareRecentMenu = m_fileMenu->addMenu(QString());
    connect(m_compareRecentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentFiles);
    m_restore = m_fileMenu->addAction(QString(), this, [this] { offerRecovery(true); });
    m_reload = m_fileMenu->addAction(QString(), this, [this] {
        if (m_document->isModified()
            && QMessageBox::question(this, tr("Reload From Disk"),
                   tr("Replace your unsaved edits with the plan as the file holds it now?"),
                   QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel)
                != QMessageBox::Discard)
            return;
        reloadFromDisk();
    });
    m_save = m_fileMenu->addAction(QString(), this, &MainWindow::save);
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs = m_fileMenu->addAction(QString(), this, &MainWindow::saveAs);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    m_fileMenu->addSeparator();
    m_export = m_fileMenu->addAction(QString(), this, &MainWindow::exportViewInteractively);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportTables = m_fileMenu->addAction(QString(), this, &MainWindow::exportTablesInteractively);
    m_exportReport = m_fileMenu->addAction(QString(), this, &MainWindow::exportReportInteractively);
    m_exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString(), this, &QWidget::close);
    m_quit->setShortcut(QKeySequence::Quit);
    updateRecentFiles();

    m_editMenu = menuBar()->addMenu(QString());
    m_undo = m_editor->undoStack()->createUndoAction(this);
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = m_editor->undoStack()->createRedoAction(this);
    m_redo->setShortcut(QKeySequence::Redo);
    m_editMenu->addAction(m_undo);
    m_editMenu->addAction(m_redo);
    m_editMenu->addSeparator();
    QAction* editor = m_editorDock->toggleViewAction();
    editor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_editMenu->addAction(editor);

    m_viewMenu = menuBar()->addMenu(QString());
    m_viewGroup = new QActionGroup(this);
    for (std::size_t i = 0; i < m_pages.size(); ++i) {
        QAction* action = m_viewMenu->addAction(QString());
        action->setCheckable(true);
        if (i < 9) action->setShortcut(QKeySequence(Qt::CTRL | (Qt::Key_1 + int(i)))); // Ctrl+1 .. Ctrl+9
        m_viewGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, i] { m_tabs->setCurrentIndex(int(i)); });
        m_pages[i].action = action;
    }
    m_pages.front().action->setChecked(true);
    m_viewMenu->addSeparator();
    m_play = m_viewMenu->addAction(QString(), this, [this] { m_state->setPlaying(!m_state->isPlaying()); });
    m_play->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Space));
    m_presentation = new PresentationMode(this, m_tabs, m_state, m_document);
    m_present = m_viewMenu->addAction(QString(), this, [this] { m_presentation->setActive(true); });
    m_present->setShortcut(QKeySequence(Qt::Key_F5));
    // Light, dark, or whatever the system uses; the choice is remembered (QSettings "theme").
    m_themeMenu = m_viewMenu->addMenu(QString());
    m_themeGroup = new QActionGroup(this);
    for (ThemeMode mode : { ThemeMode::System, ThemeMode::Light, ThemeMode::Dark }) {
        QAction* action = m_themeMenu->addAction(QString());
        action->setCheckable(true);
        action->setChecked(Theme::instance()->mode() == mode);
        action->setData(Theme::modeName(mode));
        m_themeGroup->addAction(action);
        connect(action, &QAction::triggered, this, [mode] {
            Theme::instance()->setMode(mode);
            QSettings().setValue(QStringLiteral("theme"), Theme::modeName(mode));
        });
        m_themeActions[std::size_t(mode)] = action;
    }
    connect(Theme::instance(), &Theme::changed, this, [this] {
        if (QAction* a = m_themeActions[std::size_t(Theme::instance()->mode())]) a->setChecked(true);
    });

    // Learn: every lesson (the dock opens at it) and interview questions made up on demand.
    m_learnMenu = menuBar()->addMenu(QString());
    for (const Lesson& lesson : m_lessons->lessons()) {
        const QString id = QString::fromStdString(lesson.id);
        m_lessonActions.push_back(m_learnMenu->addAction(QString(), this, [this, id] { startLesson(id); }));
    }
    m_learnMenu->addSeparator();
    m_interview = m_learnMenu->addAction(QString(), this, &MainWindow::showInterviewPractice);

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
    const QString menuTitles[] = { tr("&Timeline"), tr("&GPU Grid"), tr("&Memory"), tr("&Communication"), tr("M&etrics"),
        tr("Layer &Anatomy"), tr("&Planner"), tr("C&ompare"), tr("&Profile This Machine…"), tr("Measured &Run") };
    for (std::size_t i = 0; i < m_pages.size(); ++i) {
        m_tabs->setTabText(int(i), m_pages[i].page->pageTitle());
        m_pages[i].action->setText(i < std::size(menuTitles) ? menuTitles[i] : m_pages[i].page->pageTitle());
    }
    m_editorDock->setWindowTitle(m_editor->pageTitle());
    m_cancelComputing->setText(tr("Cancel"));
    m_cancelLoad->setText(tr("Cancel"));
    m_cancelLoad->setToolTip(tr("Stop reading this file: the plan shown now stays"));
    m_cancelComputing->setToolTip(tr("Stop the simulation of this plan: the step time is then the closed form's, and "
                                     "the timeline says it was cancelled"));
    m_fileMenu->setTitle(tr("&File"));
    m_open->setText(tr("&Open…"));
    m_openTraces->setText(tr("Open &Traces…"));
    m_openRun->setText(tr("Open Run Su&mmary…"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_compareWith->setText(tr("&Compare With…"));
    m_importLaunch->setText(tr("Import &Launch Config…"));
    m_importLaunch->setStatusTip(tr("A plan from a Megatron-LM launch line or script, pasted or opened"));
    m_compareRecentMenu->setTitle(tr("Compare With Rece&nt"));
    m_restore->setText(tr("Recover &Unsaved Plans…"));
    m_reload->setText(tr("Reload From &Disk"));
    m_save->setText(tr("&Save"));
    m_saveAs->setText(tr("Save &As…"));
    m_export->setText(tr("&Export View…"));
    m_exportTables->setText(tr("Export Ta&bles…"));
    m_exportReport->setText(tr("Export Re&port…"));
    m_quit->setText(tr("&Quit"));
    m_editMenu->setTitle(tr("&Edit"));
    m_undo->setText(tr("&Undo"));
    m_redo->setText(tr("&Redo"));
    m_editorDock->toggleViewAction()->setText(tr("Plan &Editor"));
    m_viewMenu->setTitle(tr("&View"));
    m_play->setText(tr("&Play / Pause"));
    m_present->setText(tr("P&resent"));
    m_themeMenu->setTitle(tr("T&heme"));
    m_themeActions[std::size_t(ThemeMode::System)]->setText(tr("&System"));
    m_themeActions[std::size_t(ThemeMode::Light)]->setText(tr("&Light"));
    m_themeActions[std::size_t(ThemeMode::Dark)]->setText(tr("&Dark"));
    m_languageMenu->setTitle(tr("&Language"));
    retranslateLessons();
    updateTitle();
    updateStatus();
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (url.isLocalFile()
            && (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive)
                || path.endsWith(QLatin1String(".txt"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".log"), Qt::CaseInsensitive)
                || path.endsWith(QLatin1String(".sh"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".args"), Qt::CaseInsensitive)
                || path.endsWith(QLatin1String(".toml"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".yaml"), Qt::CaseInsensitive)
                || path.endsWith(QLatin1String(".yml"), Qt::CaseInsensitive) || path.endsWith(QLatin1String(".planscope-run"), Qt::CaseInsensitive)
                || path.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive) || QFileInfo(path).isDir())) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // Traces (gzip, a folder, or JSON with traceEvents) go to the measured-run page, all of them at once; a
    // profile or nccl-tests output to the profile page; the first plan file opens as the plan; a launch script opens
    // in the Import Launch Config dialog.
    QStringList traces;
    QString plan, profile, launch, run;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (!url.isLocalFile()) continue;
        const QString path = url.toLocalFile();
        switch (fileKindOf(QFile::encodeName(path).toStdString())) {
        case FileKind::Trace: traces << path; break;
        case FileKind::Run: run = path; break;
        case FileKind::LaunchConfig: launch = path; break;
        case FileKind::Profile:
        case FileKind::NcclTests: profile = path; break;
        case FileKind::Plan:
        case FileKind::Unreadable: // opened as a plan, whose reader says what is wrong with it
            if (plan.isEmpty()) plan = path;
            break;
        }
    }
    if (!plan.isEmpty()) openPlan(plan);
    if (!profile.isEmpty()) {
        m_profile->openProfile(profile);
        setCurrentView(QStringLiteral("profile"));
    }
    if (!traces.isEmpty()) openTraces(traces);
    if (!run.isEmpty()) openRun(run);
    if (!launch.isEmpty()) {
        event->acceptProposedAction();
        auto text = readTextFile(QFile::encodeName(launch).toStdString(), kMaxPlanFileBytes);
        importLaunchConfig(text ? QString::fromStdString(text.value()) : QString(), QFileInfo(launch).absolutePath());
        return;
    }
    if (!plan.isEmpty() || !traces.isEmpty() || !profile.isEmpty() || !run.isEmpty()) event->acceptProposedAction();
}

bool MainWindow::compareWith(const QString& path)
{
    QString error;
    const bool added = m_compare->addPlanFile(path, &error);
    if (!added) showMessage(error);
    setCurrentView(QLatin1String(ComparePage::kPageName));
    return added;
}

void MainWindow::openTraces(const QStringList& paths)
{
    m_traces->importPaths(paths);
    setCurrentView(QStringLiteral("trace"));
}

void MainWindow::openRun(const QString& path)
{
    m_run->openRun(path);
    setCurrentView(QLatin1String(RunPage::kPageName));
}

void MainWindow::openRunInteractively()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open Run Summary"), QString(),
        tr("Run summaries (*.planscope-run *.jsonl);;All files (*)"));
    if (!file.isEmpty()) openRun(file);
}

void MainWindow::openTracesInteractively()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Traces"), QString(),
        tr("PyTorch profiler traces (*.json *.json.gz);;All files (*)"));
    if (!files.isEmpty()) openTraces(files);
}

void MainWindow::updateRecentFiles()
{
    // Read again each time a menu opens: a file may have been deleted, moved or replaced since it was opened. One
    // that is not there is shown disabled with the reason, and Remove Missing Files drops those from the list.
    const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    int missing = 0;
    const auto fill = [&](QMenu* menu, auto open) {
        // Deleted later, not now: this may run inside one of these actions' triggered() (an open remembers its file).
        for (QAction* a : menu->actions()) {
            menu->removeAction(a);
            if (a->parent() == menu) a->deleteLater();
        }
        for (const QString& path : recent) {
            const QFileInfo info(path);
            const QString shown = QDir::toNativeSeparators(path);
            QAction* a = nullptr;
            if (info.isDir())
                a = menu->addAction(tr("%1 (now a folder)").arg(shown));
            else if (!info.exists())
                a = menu->addAction(tr("%1 (not found)").arg(shown));
            else {
                a = menu->addAction(shown, this, [open, path] { open(path); });
                a->setData(path);
                continue;
            }
            a->setData(path);
            a->setEnabled(false);
            if (menu == m_recentMenu) ++missing;
        }
        if (missing > 0 && menu == m_recentMenu) {
            menu->addSeparator();
            menu->addAction(tr("Remove Missing Files"), this, [this] {
                QSettings settings;
                QStringList kept;
                for (const QString& path : settings.value(QLatin1String(kRecentKey)).toStringList())
                    if (QFileInfo(path).isFile()) kept << path;
                settings.setValue(QLatin1String(kRecentKey), kept);
                updateRecentFiles();
            });
        }
        menu->setEnabled(!recent.isEmpty());
    };
    fill(m_recentMenu, [this](const QString& path) { openPlan(path); });
    // The same files, to set beside the open plan on the compare page.
    fill(m_compareRecentMenu, [this](const QString& path) { compareWith(path); });
}

void MainWindow::rememberRecent(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    updateRecentFiles();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    event->accept();
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified()) return true;
    switch (m_askToSave ? m_askToSave() : SaveChoice::Cancel) {
    case SaveChoice::Save: return save();
    case SaveChoice::Discard: m_document->discardChanges(); return true;
    case SaveChoice::Cancel: return false;
    }
    return false;
}

bool MainWindow::offerRecovery(bool sayIfNone)
{
    const QList<PlanDocument::Recovery> pending = PlanDocument::pendingRecoveries();
    if (pending.isEmpty()) {
        if (sayIfNone) showMessage(tr("There are no unsaved plans to recover."));
        return false;
    }
    for (const PlanDocument::Recovery& r : pending) {
        const QString what = r.originalPath.isEmpty()
            ? (r.planName.isEmpty() ? tr("an untitled plan") : tr("the untitled plan “%1”").arg(r.planName))
            : tr("“%1” (%2)").arg(r.planName.isEmpty() ? QFileInfo(r.originalPath).fileName() : r.planName,
                  QDir::toNativeSeparators(r.originalPath));
        const QString description = tr("PlanScope ended without saving the changes to %1. They were autosaved at %2.\n\n"
                                       "Recover them? Not now keeps them for the next start.")
                                        .arg(what, QLocale().toString(r.savedAt, QLocale::ShortFormat));
        switch (m_askToRecover ? m_askToRecover(description) : RecoveryChoice::Later) {
        case RecoveryChoice::Recover:
            if (!maybeSave()) return false;
            if (m_document->recover(r.autosavePath)) {
                showMessage(tr("Recovered the unsaved changes to %1. Save them to keep them.").arg(what));
                return true;
            }
            return false;
        case RecoveryChoice::Discard: PlanDocument::discardRecovery(r); break;
        case RecoveryChoice::Later: break;
        }
    }
    return false;
}

QString MainWindow::message() const
{
    return m_messageBar->isVisible() || !m_messageBar->isHidden() ? m_messageText->text() : QString();
}

void MainWindow::showMessage(const QString& text)
{
    m_messageText->setText(text);
    m_messageBar->setVisible(!text.isEmpty());
}

void MainWindow::setComputingNoteDelay(int milliseconds)
{
    m_staleTimer->setInterval(milliseconds);
}

void MainWindow::updateStaleState()
{
    const bool stale = m_document->isEvaluating() && !m_staleTimer->isActive();
    if (stale) m_staleText->setText(tr("Computing… the pages show the plan before the last edit until it is done."));
    m_staleText->setVisible(stale);
    m_staleBar->setVisible(stale);
    for (const PageEntry& p : m_pages) p.widget->setEnabled(!stale && m_loadBar->isHidden());
}

bool MainWindow::importLaunchConfig(const QString& text, const QString& directory)
{
    LaunchConfigDialog dialog(m_document->hasPlan() ? &m_document->plan() : nullptr, this);
    if (!text.isEmpty()) dialog.setText(text);
    if (!directory.isEmpty()) dialog.setDirectory(directory);
    if (m_launchConfigAnswer) {
        // Tests: the dialog's answer without showing it.
        if (!m_launchConfigAnswer(dialog)) return false;
    } else if (dialog.exec() != QDialog::Accepted) {
        return false;
    }
    if (!dialog.plan()) return false;
    if (m_document->hasPlan())
        m_editor->pushPlan(*dialog.plan(), tr("Import launch config"));
    else
        m_document->showUntitledPlan(*dialog.plan());
    showMessage(dialog.report());
    return true;
}

void MainWindow::cancelOpening()
{
    m_document->cancelLoad();
}

void MainWindow::updateLoadBar()
{
    const bool show = m_document->isLoading() && !m_loadTimer->isActive();
    if (show)
        m_loadText->setText(tr("Opening %1… the window stays as it was until the plan is read.")
                                .arg(QDir::toNativeSeparators(m_document->loadingPath())));
    m_loadBar->setVisible(show);
    // The pages and the editor wait: an edit now would be replaced by the plan being read.
    for (const PageEntry& p : m_pages) p.widget->setEnabled(!show && m_staleBar->isHidden());
    m_editor->setEnabled(!show);
}

void MainWindow::showLoadProgress(qint64 bytesRead, qint64 bytesTotal, bool parsing)
{
    if (parsing || bytesTotal <= 0) {
        m_loadProgress->setRange(0, 0); // busy: the size is not known, or the text is being parsed
        m_loadProgress->setFormat(parsing ? tr("parsing") : QString());
        return;
    }
    m_loadProgress->setRange(0, 1000);
    m_loadProgress->setValue(int(1000.0 * double(std::min(bytesRead, bytesTotal)) / double(bytesTotal)));
    m_loadProgress->setFormat(tr("%1 of %2").arg(QString::fromStdString(units::formatBytes(double(bytesRead))),
        QString::fromStdString(units::formatBytes(double(bytesTotal)))));
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
        m_statusLabel->setText(tr("Computing…"));
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
    // A calibration applied to another GPU than it measured is said on every page, beside the figures it changed.
    const auto analysis = m_document->analysis();
    const bool otherGpu = analysis && analysis->calibration && analysis->calibration->refused.empty()
        && analysis->calibration->gpu.match == GpuIdentity::Match::Different;
    if (otherGpu && prediction && !m_document->isEvaluating()) {
        const QString warning = tr("⚠ calibrated with %1's measurements, not this plan's %2")
                                    .arg(QString::fromStdString(analysis->calibration->gpu.measured),
                                        QString::fromStdString(analysis->calibration->gpu.planned));
        m_statusLabel->setText(warning + QStringLiteral(" · ") + m_statusLabel->text());
    }
    QPalette palette = m_statusLabel->palette();
    palette.setColor(QPalette::WindowText, otherGpu ? Theme::alarmText() : Theme::text());
    m_statusLabel->setPalette(palette);
}

bool MainWindow::openPlan(const QString& path)
{
    if (!maybeSave()) return false;
    const bool hadPlan = m_document->hasPlan();
    // Cleared first: what the load itself says (the file open elsewhere too) stays.
    const QString before = message();
    showMessage(QString());
    if (m_document->loadWithoutBlocking(path)) {
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
        rememberRecent(path);
        return true;
    }
    // A plan stays open as it was (loadFailed() put the reason in the message bar); with none, the pages say why. A
    // cancelled read says so in the status bar.
    if (message().isEmpty()) {
        showMessage(before);
        if (hadPlan) statusBar()->showMessage(m_document->errorString(), 8000);
    }
    if (!hadPlan) {
        showMessage(m_document->errorString());
        setCurrentView(QLatin1String(SummaryPage::kPageName));
    }
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
    bool saved = m_document->save(m_document->filePath());
    if (!saved && m_document->saveRefusedAsChanged()) {
        switch (m_askToOverwrite ? m_askToOverwrite(m_document->errorString()) : OverwriteChoice::Cancel) {
        case OverwriteChoice::Overwrite: saved = m_document->save(m_document->filePath(), PlanDocument::SaveMode::Overwrite); break;
        case OverwriteChoice::SaveAs: return saveAs();
        case OverwriteChoice::Cancel: return false;
        }
    }
    if (!saved) return saveFailed();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_document->filePath())), 5000);
    return true;
}

bool MainWindow::saveFailed()
{
    // The edits stay in the window and in the autosave; the file keeps what it held.
    const QString text = tr("%1\nThe file is unchanged; your edits are kept.").arg(m_document->errorString());
    showMessage(text);
    if (m_warn) m_warn(tr("Save failed"), text);
    return false;
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Plan As"), m_document->filePath(), tr("PlanScope plans (*.plan.json)"));
    if (path.isEmpty()) return false;
    // A file chosen in the dialog was confirmed there (its own overwrite question).
    if (!m_document->save(path, PlanDocument::SaveMode::Overwrite)) return saveFailed();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::exportView(const QString& path, QString* error)
{
    // The editor when it was asked for (--view editor) or has the focus, else the current tab.
    if (m_editorDock->isVisible() && (m_exportEditor || m_editor->isAncestorOf(QApplication::focusWidget())))
        return m_editor->exportTo(path, QSize(), error);
    const int i = m_tabs->currentIndex();
    if (i < 0 || i >= int(m_pages.size())) {
        if (error) *error = tr("No view to export");
        return false;
    }
    return m_pages[std::size_t(i)].page->exportTo(path, QSize(), error);
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
    if (!exportView(path, &error)) {
        if (m_warn) m_warn(tr("Export failed"), error);
    }
    else
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
}

bool MainWindow::exportTables(const QString& path, QString* error)
{
    QWidget* root = nullptr;
    QString title;
    if (m_editorDock->isVisible() && (m_exportEditor || m_editor->isAncestorOf(QApplication::focusWidget()))) {
        root = m_editor;
        title = m_editor->pageTitle();
    } else if (const int i = m_tabs->currentIndex(); i >= 0 && i < int(m_pages.size())) {
        root = m_pages[std::size_t(i)].widget;
        title = m_pages[std::size_t(i)].page->pageTitle();
    }
    // The editor's and each page's tables as the user sees them; the pages' are installed on the page itself.
    const std::vector<Table> tables = root ? TableExporter::tablesOf(root, title) : std::vector<Table> {};
    if (tables.empty()) {
        if (error) *error = tr("This view has no table: the Metrics, Compare, Planner, Measured Run and Profile pages have");
        return false;
    }
    return TableExporter::writeTables(tables, path, error);
}

void MainWindow::exportTablesInteractively()
{
    const QString base = QFileInfo(m_document->filePath()).completeBaseName().section(QLatin1Char('.'), 0, 0);
    const QString suggestion = QFileInfo(m_document->filePath()).absolutePath() + QLatin1Char('/') + base
        + QLatin1Char('-') + currentView() + QStringLiteral(".xlsx");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Tables"), suggestion,
        tr("Excel workbook (*.xlsx);;CSV, one file per table (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportTables(path, &error)) {
        if (m_warn) m_warn(tr("Export failed"), error);
    } else {
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    }
}

bool MainWindow::exportReport(const QString& path, QString* error)
{
    if (m_document->hasPlan() && m_document->isEvaluating()) {
        if (error) *error = tr("The analysis of the last edit is still running: the report waits for it");
        return false;
    }
    if (!m_document->hasPlan() || !m_document->analysis()) {
        if (error) *error = tr("There is no analysed plan to report on");
        return false;
    }
    const QString name = QString::fromStdString(m_document->plan().name);
    QList<ReportPlan> plans { { m_document->analysis(),
        name.isEmpty() ? (m_document->filePath().isEmpty() ? tr("Untitled") : QFileInfo(m_document->filePath()).fileName())
                       : name,
        m_document->filePath() } };
    // The plans beside it on the compare page come after it, with the analyses the page shows.
    ComparePage* compare = comparePage();
    for (int i = 1; compare && i < compare->planCount(); ++i) {
        std::shared_ptr<const Analysis> analysis = compare->analysis(i);
        if (!analysis) continue; // still computing: not in this report
        plans.push_back({ std::move(analysis), compare->planName(i).section(QStringLiteral(": "), 1), compare->planFile(i) });
    }
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const bool written = ReportWriter::write(path, plans, error);
    QApplication::restoreOverrideCursor();
    return written;
}

void MainWindow::exportReportInteractively()
{
    const QString base = QFileInfo(m_document->filePath()).completeBaseName().section(QLatin1Char('.'), 0, 0);
    const QString suggestion = QFileInfo(m_document->filePath()).absolutePath() + QLatin1Char('/')
        + (base.isEmpty() ? QStringLiteral("plan") : base) + QStringLiteral("-report.pdf");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Report"), suggestion,
        tr("PDF document (*.pdf);;HTML page (*.html)"));
    if (path.isEmpty()) return;
    const auto write = [this, path] {
        QString error;
        if (!exportReport(path, &error)) {
            if (m_warn) m_warn(tr("Export failed"), error);
        } else
            statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    };
    if (!m_document->isEvaluating()) {
        write();
        return;
    }
    // An edit is being analysed: the report is of the plan as edited, written when its analysis arrives.
    statusBar()->showMessage(tr("The report is written when the analysis of the last edit is done"));
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(m_document, &PlanDocument::evaluatingChanged, this, [once, write](bool evaluating) {
        if (evaluating) return;
        QObject::disconnect(*once);
        write();
    });
}

void MainWindow::createLessonDock()
{
    // The lessons are a dock beside the views, like the editor: the step's text next to the picture it explains.
    m_lessons = new LessonPanel(m_languages, this);
    m_lessonDock = new QDockWidget(this);
    m_lessonDock->setObjectName(QStringLiteral("lessonDock"));
    m_lessonDock->setWidget(m_lessons);
    m_lessonDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable
        | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    m_lessonDock->hide();
    // Nothing typed is lost: before a step replaces the plan, unsaved changes are saved or discarded (or it stays).
    m_lessons->setStepGate([this] { return maybeSave(); });
    connect(m_lessons, &LessonPanel::planShown, this, [this](const Plan& plan, const QString& view) {
        m_document->showUntitledPlan(plan);
        statusBar()->showMessage(QString::fromStdString(plan.name), 5000); // not the file opened before
        setCurrentView(view);
        m_state->setPlaying(true);
    });
}

void MainWindow::retranslateLessons()
{
    const bool zh = m_languages && m_languages->language() == QLatin1String("zh_CN");
    m_lessonDock->setWindowTitle(tr("Lessons"));
    m_learnMenu->setTitle(tr("&Learn"));
    for (std::size_t i = 0; i < m_lessonActions.size() && i < m_lessons->lessons().size(); ++i) {
        const Bilingual& title = m_lessons->lessons()[i].title;
        m_lessonActions[i]->setText(QString::fromStdString(zh ? title.zh_CN : title.en));
    }
    m_interview->setText(tr("&Interview Question…"));
}

void MainWindow::showLessonDock()
{
    if (m_lessonDock->isVisible()) return;
    // Beside the views where the window has room for the editor, the lesson and a page of kMinPageWidth; else in a
    // tab of the editor's dock (the lesson raised, the editor a click away), so the page keeps its width.
    constexpr int kMinPageWidth = 760;
    const int lessonWidth = std::max(360, width() / 4);
    const int editorWidth = m_editorDock->isVisible() && !m_editorDock->isFloating() ? m_editorDock->width() : 0;
    if (editorWidth > 0 && width() - editorWidth - lessonWidth < kMinPageWidth
        && dockWidgetArea(m_lessonDock) != dockWidgetArea(m_editorDock))
        tabifyDockWidget(m_editorDock, m_lessonDock);
    m_lessonDock->show();
    m_lessonDock->raise();
    if (!tabifiedDockWidgets(m_lessonDock).contains(m_editorDock))
        resizeDocks({ m_lessonDock }, { lessonWidth }, Qt::Horizontal);
}

bool MainWindow::startLesson(const QString& id, int step)
{
    showLessonDock();
    m_lessonDock->raise();
    return m_lessons->showLesson(id, step);
}

void MainWindow::showInterviewPractice()
{
    showLessonDock();
    m_lessonDock->raise();
    m_lessons->newInterviewQuestion();
}

bool MainWindow::exportWindow(const QString& path, QString* error)
{
    return WidgetExporter::exportWidget(this, path, error);
}

bool MainWindow::reloadFromDisk()
{
    const QString path = m_document->filePath();
    if (path.isEmpty()) return false;
    m_document->discardChanges(); // chosen: the file's plan replaces the edits (and their autosave)
    if (!m_document->loadWithoutBlocking(path)) return false;
    showMessage(QString());
    statusBar()->showMessage(tr("Read %1 again").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

} // namespace planscope
