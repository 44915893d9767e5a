// Presentation mode and the report from the main window, as a presenter uses them: F5 hides the menus, the status
// bar and the docks and enlarges the type; the arrow keys step through the views and walk the playhead from one op
// start to the next (the starts read from the simulated timeline here); L shows the laser pointer; Escape puts
// everything back. File > Export Report writes the report of the open plan.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "LanguageManager.h"
#include "MainWindow.h"
#include "PresentationMode.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "pages/ComparePage.h"
#include "sim/Timeline.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <set>

using namespace planscope;
using namespace planscope::test;

namespace {

QWidget* focusTarget(MainWindow& window)
{
    QWidget* w = QApplication::focusWidget();
    return w ? w : &window;
}

} // namespace

class TestPresentation : public QObject {
    Q_OBJECT
private:
    LanguageManager m_languages;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void presentStepAndLeave()
    {
        MainWindow window(&m_languages);
        window.resize(1200, 800);
        QVERIFY(window.openPlan(QString::fromStdString(test::samplePath("default.plan.json"))));
        QVERIFY(waitForCurrentPrediction(*window.document()));
        window.setCurrentView(QStringLiteral("editor"));
        window.setCurrentView(QStringLiteral("timeline"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("editorDock"));
        QVERIFY(dock && dock->isVisible());
        auto* tabs = window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        const double pointSize = tabs->font().pointSizeF();

        PresentationMode* present = window.presentation();
        QTest::keyClick(focusTarget(window), Qt::Key_F5);
        QVERIFY(present->isActive());
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        QVERIFY(!window.menuBar()->isVisible());
        QVERIFY(!window.statusBar()->isVisible());
        QVERIFY(!dock->isVisible());
        QVERIFY(!tabs->tabBar()->isVisible());
        QCOMPARE(tabs->font().pointSizeF(), pointSize * PresentationMode::kFontScale);

        // Right and Left step through the views, and stop at the ends.
        QCOMPARE(window.currentView(), QStringLiteral("timeline"));
        QTest::keyClick(focusTarget(window), Qt::Key_Right);
        QCOMPARE(window.currentView(), QStringLiteral("grid"));
        QTest::keyClick(focusTarget(window), Qt::Key_PageDown);
        QCOMPARE(window.currentView(), QStringLiteral("memory"));
        QTest::keyClick(focusTarget(window), Qt::Key_Left);
        QTest::keyClick(focusTarget(window), Qt::Key_Left);
        QTest::keyClick(focusTarget(window), Qt::Key_Left);
        QCOMPARE(window.currentView(), QStringLiteral("timeline"));

        // Down walks the playhead through the distinct starts of the compute ops on any GPU, Up walks back.
        const auto timeline = window.document()->timeline();
        QVERIFY(timeline);
        std::set<double> starts;
        for (const Span& s : timeline->spans)
            if (s.stream == Stream::Compute) starts.insert(s.start);
        std::vector<double> expected { 0.0 };
        for (double t : starts)
            if (t - expected.back() >= 1e-9) expected.push_back(t);
        QVERIFY(expected.size() > 10);
        ViewState* state = window.viewState();
        // A finished step leaves the playhead at its end: Down starts the walk at 0.
        state->setPlayhead(timeline->stepSeconds);
        QTest::keyClick(focusTarget(window), Qt::Key_Down);
        QCOMPARE(state->playhead(), 0.0);
        for (std::size_t i = 1; i <= 5; ++i) {
            QTest::keyClick(focusTarget(window), Qt::Key_Down);
            QCOMPARE(state->playhead(), expected[i]);
        }
        QTest::keyClick(focusTarget(window), Qt::Key_Up);
        QCOMPARE(state->playhead(), expected[4]);

        // The laser pointer follows where it is moved, over everything, and goes with L.
        QTest::keyClick(focusTarget(window), Qt::Key_L);
        QVERIFY(present->laser()->isActive());
        QVERIFY(present->laser()->isVisible());
        present->laser()->moveTo(QPoint(300, 200));
        QCOMPARE(present->laser()->position(), QPoint(300, 200));
        QCOMPARE(present->laser()->geometry(), window.rect());
        QTest::keyClick(focusTarget(window), Qt::Key_L);
        QVERIFY(!present->laser()->isVisible());

        // Escape puts the window back as it was.
        QTest::keyClick(focusTarget(window), Qt::Key_Escape);
        QVERIFY(!present->isActive());
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
        QVERIFY(window.menuBar()->isVisible());
        QVERIFY(window.statusBar()->isVisible());
        QVERIFY(dock->isVisible());
        QVERIFY(tabs->tabBar()->isVisible());
        QCOMPARE(tabs->font().pointSizeF(), pointSize);
        // Outside presentation the arrows are the views' own again.
        const QString before = window.currentView();
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(window.currentView(), before);
    }

    void exportReportFromTheWindow()
    {
        MainWindow window(&m_languages);
        QVERIFY(window.openPlan(QString::fromStdString(test::samplePath("default.plan.json"))));
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
        QString error;
        // While the plan is analysed the report is refused (the window's menu writes it when the analysis is done);
        // the report draws the analysis the window shows, never one of its own.
        QVERIFY(window.document()->isEvaluating());
        QVERIFY(!window.exportReport(pdf, &error));
        QVERIFY2(error.contains(QStringLiteral("still running")), qPrintable(error));
        QVERIFY(waitForCurrentPrediction(*window.document()));
        QVERIFY2(window.exportReport(pdf, &error), qPrintable(error));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        // One page object per text page and view: at least the five views and a page of text.
        QVERIFY(bytes.count("/Type /Page") - bytes.count("/Type /Pages") >= 6);
        // With a plan beside it on the compare page, the report starts with the comparison of both.
        QVERIFY(window.comparePage()->addPlanFile(QString::fromStdString(test::samplePath("interview-175b-256xa100.plan.json"))));
        window.comparePage()->waitForAnalyses();
        const QString two = dir.filePath(QStringLiteral("two.pdf"));
        QVERIFY2(window.exportReport(two, &error), qPrintable(error));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        QVERIFY2(!pdftotext.isEmpty(), "pdftotext is missing: scripts/deps.sh installs poppler-utils");
        QProcess text;
        text.start(pdftotext, { QStringLiteral("-l"), QStringLiteral("1"), two, QStringLiteral("-") });
        QVERIFY(text.waitForFinished(60000));
        const QString first = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(first.contains(QStringLiteral("Comparison of 2 plans")), qPrintable(first.left(300)));
        QVERIFY(first.contains(QStringLiteral("Interview: 175B on 256 x A100-80GB")));
        QVERIFY(first.contains(QStringLiteral("Llama 2 7B on 16 x A100-80GB")));

        QVERIFY(!window.exportReport(dir.filePath(QStringLiteral("report.txt")), &error));
        QVERIFY(error.contains(QStringLiteral(".pdf or .html")));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
