// The main window: the plan editor as a dock, the views as pages, the menus and the status bar, all
// following one ViewState. It wires the document and the state to the pages and does nothing else; each
// page draws and exports itself.
#pragma once

#include "pages/Page.h"

#include <QMainWindow>
#include <QSize>
#include <QStringList>
#include <array>
#include <functional>
#include <vector>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QMenu;
class QTabWidget;
class QTimer;

namespace planscope {

class LaunchConfigDialog;

class ComparePage;
class LanguageManager;
class LessonPanel;
class PlanDocument;
class PlanEditorPage;
class PresentationMode;
class ProfilePage;
class RunPage;
class TraceSet;
class ViewState;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(LanguageManager* languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Page names for --view and the View menu: timeline, grid, memory, comm, metrics, anatomy, planner, compare, profile,
    // trace, editor
    // (and "summary", the older name of metrics).
    static QStringList viewNames();
    // How long an analysis runs before the pages are marked as showing the plan before the edit and Cancel appears
    // (300 ms: shorter ones flash nothing). Tests that cancel set 0.
    void setComputingNoteDelay(int milliseconds);
    bool setCurrentView(const QString& name);
    QString currentView() const;

    // Loads a plan, first asking to save unsaved changes (maybeSave()); on failure the open plan stays as it was,
    // the message bar says why, and this returns false. The file is read and parsed off the GUI thread
    // (PlanDocument::loadWithoutBlocking): the window keeps answering, and a read that takes longer than the
    // computing-note delay shows a bar with its progress and Cancel (cancelOpening()) while the pages wait.
    bool openPlan(const QString& path);
    void cancelOpening();
    // File > Import Launch Config (and a dropped launch script): the dialog, `text` in it; an imported plan becomes
    // the document's as one undo step. False when cancelled or nothing was imported.
    bool importLaunchConfig(const QString& text = {}, const QString& directory = {});
    // Tests: answer the dialog instead of showing it (true: as if Import closed it).
    void setLaunchConfigAnswer(std::function<bool(LaunchConfigDialog&)> answer) { m_launchConfigAnswer = std::move(answer); }
    // The opening bar (for tests): shown while a slow read goes on.
    QWidget* openingBar() const { return m_loadBar; }
    // Before anything replaces the document: unsaved changes are saved, discarded or the action is cancelled
    // (false). The question is askToSave(), a message box unless replaced (tests answer it).
    enum class SaveChoice { Save, Discard, Cancel };
    bool maybeSave();
    void setSaveQuestion(std::function<SaveChoice()> ask) { m_askToSave = std::move(ask); }
    // Autosaves left by a session that ended without saving: each is offered (recover, discard, or keep for
    // later) through the recovery question, a message box unless replaced. Returns whether one was recovered.
    enum class RecoveryChoice { Recover, Discard, Later };
    bool offerRecovery(bool sayIfNone = false);
    void setRecoveryQuestion(std::function<RecoveryChoice(const QString& description)> ask) { m_askToRecover = std::move(ask); }
    // Save over a file another program or PlanScope window saved since this one read it: overwrite it, save under
    // another name, or cancel (a message box unless replaced).
    enum class OverwriteChoice { Overwrite, SaveAs, Cancel };
    void setOverwriteQuestion(std::function<OverwriteChoice(const QString& description)> ask) { m_askToOverwrite = std::move(ask); }
    // A failed save or export: a warning box unless replaced (tests read the text). The message bar says it too.
    void setWarning(std::function<void(const QString& title, const QString& text)> warn) { m_warn = std::move(warn); }
    // The open plan's file, read again (File > Reload From Disk): the plan in memory and its edits are replaced.
    // A file changed by another program is reloaded at once when there are no edits; with edits, the message bar
    // says so and they are kept until the user reloads.
    bool reloadFromDisk();
    // The message bar above the pages (a failed load, a recovery): empty when hidden.
    QString message() const;
    // Saves the current page as PNG, SVG or PDF (by the suffix), at its size on screen.
    bool exportView(const QString& path, QString* error = nullptr);
    // File > Export Tables…: every table of the current page (the editor's when it is asked for), .xlsx one workbook
    // or .csv a file per table (widgets/TableExporter.h).
    bool exportTables(const QString& path, QString* error = nullptr);
    // File > Export Report…: the report of docs/FORMATS.md section 9 (.pdf or .html) on the open plan, and the plans
    // beside it on the compare page, through the one writer planscope-cli report uses (widgets/report).
    bool exportReport(const QString& path, QString* error = nullptr);
    // View > Present (F5): full screen, the current view alone in large type; Escape leaves (PresentationMode.h).
    PresentationMode* presentation() const { return m_presentation; }
    PlanDocument* document() const { return m_document; }
    // Measured traces shown on the trace page; openTraces() imports in the background and shows that page.
    TraceSet* traceSet() const { return m_traces; }
    void openTraces(const QStringList& paths);
    ViewState* viewState() const { return m_state; }
    // The Learn menu's lessons in a dock beside the views (core/lessons): startLesson() first asks to save unsaved
    // changes (maybeSave()), then shows the step's plan untitled and unmodified, switches to its view and plays the
    // timeline; false for an unknown lesson or step, or when the question was cancelled. The user's file is never
    // written.
    bool startLesson(const QString& id, int step = 0);
    void showInterviewPractice();
    LessonPanel* lessonPanel() const { return m_lessons; }
    // The whole window (the views and the open docks) as PNG, SVG or PDF: --lesson with --screenshot.
    bool exportWindow(const QString& path, QString* error = nullptr);
    // The compare page; compareWith() adds a plan file to it and shows it (false: the message bar says why).
    ComparePage* comparePage() const { return m_compare; }
    ProfilePage* profilePage() const { return m_profile; }
    RunPage* runPage() const { return m_run; }
    // A measured run's summary (planscope-reduce, planscope-cli reduce) on the Run Summary page.
    void openRun(const QString& path);
    bool compareWith(const QString& path);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct PageEntry {
        Page* page = nullptr;
        QWidget* widget = nullptr;
        QAction* action = nullptr;
    };
    void addPage(QWidget* widget, Page* page);
    void createMenus();
    void retranslateUi();
    void updateTitle();
    void updateStatus();
    void updateRecentFiles();
    void rememberRecent(const QString& path);
    void open();
    void openTracesInteractively();
    void openRunInteractively();
    bool save();
    bool saveAs();
    // A save that failed: the reason in the message bar and the warning; returns false.
    bool saveFailed();
    void exportViewInteractively();
    void exportTablesInteractively();
    void exportReportInteractively();
    void showMessage(const QString& text);
    void updateStaleState();
    void updateLoadBar();
    void showLoadProgress(qint64 bytesRead, qint64 bytesTotal, bool parsing);

    LanguageManager* m_languages;
    PlanDocument* m_document;
    TraceSet* m_traces;
    ProfilePage* m_profile = nullptr;
    RunPage* m_run = nullptr;
    ViewState* m_state;
    QTabWidget* m_tabs;
    PlanEditorPage* m_editor;
    QDockWidget* m_editorDock;
    QLabel* m_statusLabel;
    QWidget* m_messageBar = nullptr;
    QLabel* m_messageText = nullptr;
    QWidget* m_staleBar = nullptr;
    QLabel* m_staleText = nullptr;
    QPushButton* m_cancelComputing = nullptr;
    QTimer* m_staleTimer = nullptr;
    QWidget* m_loadBar = nullptr;
    QLabel* m_loadText = nullptr;
    QProgressBar* m_loadProgress = nullptr;
    QPushButton* m_cancelLoad = nullptr;
    QTimer* m_loadTimer = nullptr;
    std::function<SaveChoice()> m_askToSave;
    std::function<RecoveryChoice(const QString&)> m_askToRecover;
    std::function<OverwriteChoice(const QString&)> m_askToOverwrite;
    std::function<void(const QString&, const QString&)> m_warn;
    QString m_autosaveMessage; // the message bar's text while autosave fails
    std::vector<PageEntry> m_pages;
    bool m_exportEditor = false; // the last setCurrentView() asked for the editor

    QMenu* m_fileMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_compareRecentMenu = nullptr;
    QAction* m_compareWith = nullptr;
    QAction* m_importLaunch = nullptr;
    std::function<bool(LaunchConfigDialog&)> m_launchConfigAnswer;
    ComparePage* m_compare = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_languageMenu = nullptr;
    QMenu* m_themeMenu = nullptr;
    QAction* m_open = nullptr;
    QAction* m_openTraces = nullptr;
    QAction* m_openRun = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_export = nullptr;
    QAction* m_exportTables = nullptr;
    QAction* m_exportReport = nullptr;
    QAction* m_present = nullptr;
    PresentationMode* m_presentation = nullptr;
    QAction* m_restore = nullptr;
    QAction* m_reload = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_play = nullptr;
    QActionGroup* m_viewGroup = nullptr;
    QActionGroup* m_languageGroup = nullptr;
    QActionGroup* m_themeGroup = nullptr;
    std::array<QAction*, 3> m_themeActions {}; // System, Light, Dark, as ThemeMode
    LessonPanel* m_lessons = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    QMenu* m_learnMenu = nullptr;
    std::vector<QAction*> m_lessonActions;
    QAction* m_interview = nullptr;
    void createLessonDock();
    void retranslateLessons();
    void showLessonDock();
};

} // namespace planscope
