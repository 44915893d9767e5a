// The main window: a stack of pages (Summary, Memory), the menus and the status bar. It wires the
// document to the pages and does nothing else; each page draws itself.
#pragma once

#include <QMainWindow>
#include <QStringList>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTabWidget;

namespace planscope {

class LanguageManager;
class MemoryBarsView;
class PlanDocument;
class SummaryPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(LanguageManager* languages, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Page names for --view and the View menu: "summary", "memory".
    static QStringList viewNames();
    bool setCurrentView(const QString& name);
    QString currentView() const;

    // Loads a plan; on failure the Summary page shows why and this returns false.
    bool openPlan(const QString& path);
    // Saves the current page: PNG as on screen; SVG and PDF as vector graphics.
    bool exportView(const QString& path, QString* error = nullptr);
    PlanDocument* document() const { return m_document; }

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void retranslateUi();
    void updateTitle();
    void updateStatus();
    void open();
    bool save();
    bool saveAs();
    void exportViewInteractively();

    LanguageManager* m_languages;
    PlanDocument* m_document;
    QTabWidget* m_pages;
    SummaryPage* m_summary;
    MemoryBarsView* m_memory;
    QLabel* m_statusLabel;

    QMenu* m_fileMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_languageMenu = nullptr;
    QAction* m_open = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_export = nullptr;
    QAction* m_quit = nullptr;
    QActionGroup* m_viewGroup = nullptr;
    QAction* m_showSummary = nullptr;
    QAction* m_showMemory = nullptr;
    QActionGroup* m_languageGroup = nullptr;
};

} // namespace planscope
