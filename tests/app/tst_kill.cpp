// Nothing typed is lost when PlanScope is killed: a process opens a plan, edits it and lets the document autosave
// (its timer, as in the app), then dies by SIGKILL, no destructor run, its autosave lock left behind. The next start
// finds the edit, offers it under the plan's own file, and recovers it exactly; the plan file itself is untouched.
// Ten times in a row. The killed process is this test's own executable started with --child.
#include "GuiTestMain.h"
#include "AppTestUtil.h"

#include "LanguageManager.h"
#include "MainWindow.h"
#include "document/PlanDocument.h"
#include "io/PlanJson.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace planscope;

namespace {

// The edit the child makes, and the test looks for.
void edit(Plan& plan)
{
    plan.training.microBatch = 2;
    plan.training.globalBatch = 64;
    plan.name += " (edited before the kill)";
}

// Child: open the plan, edit it, and once the autosave is written say so and wait to be killed.
int child(int argc, char** argv)
{
    const char* planPath = argv[2];
    QApplication app(argc, argv); // the same executable, so the same application name and autosave folder
    QStandardPaths::setTestModeEnabled(true);
    PlanDocument doc;
    if (!doc.load(QString::fromLocal8Bit(planPath))) return 3;
    doc.setAutosaveInterval(100);
    QObject::connect(&doc, &PlanDocument::autosaved, [] {
        std::printf("autosaved\n");
        std::fflush(stdout);
    });
    Plan plan = doc.plan();
    edit(plan);
    doc.setPlan(plan);
    return app.exec(); // until SIGKILL
}

} // namespace

class TestKill : public QObject {
    Q_OBJECT
private:
    LanguageManager m_languages;

private slots:
    void initTestCase() { test::isolateFromTheUser(); }
    void cleanup() { test::clearAutosaves(); }

    void killedTenTimesLosesNothing()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("mine.plan.json"));
        QVERIFY(QFile::copy(QString::fromStdString(test::samplePath("default.plan.json")), file));
        QFile original(file);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();
        Plan expected = loadPlanFile(QFile::encodeName(file).toStdString())->plan;
        edit(expected);

        for (int round = 0; round < 10; ++round) {
            QProcess process;
            process.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--child"), file });
            QVERIFY(process.waitForStarted(20000));
            QByteArray said;
            QTRY_VERIFY_WITH_TIMEOUT((said += process.readAllStandardOutput()).contains("autosaved"), 30000);
            process.kill(); // SIGKILL: no destructor, no clean-up, the lock file stays
            QVERIFY(process.waitForFinished(20000));
            QCOMPARE(process.exitStatus(), QProcess::CrashExit);

            // The next start: the edit is offered under its file and recovered as it was typed.
            const QList<PlanDocument::Recovery> pending = PlanDocument::pendingRecoveries();
            QCOMPARE(pending.size(), 1);
            QCOMPARE(pending.front().originalPath, QFileInfo(file).absoluteFilePath());
            MainWindow window(&m_languages);
            QString offered;
            window.setRecoveryQuestion([&](const QString& description) {
                offered = description;
                return MainWindow::RecoveryChoice::Recover;
            });
            QVERIFY(window.offerRecovery());
            QVERIFY(offered.contains(QStringLiteral("mine.plan.json")) || offered.contains(QStringLiteral("edited before the kill")));
            QVERIFY(window.document()->plan() == expected);
            QVERIFY(window.document()->isModified());
            QCOMPARE(window.document()->filePath(), QFileInfo(file).absoluteFilePath());
            QVERIFY(original.open(QIODevice::ReadOnly));
            QCOMPARE(original.readAll(), before); // the file is as it was: only Save writes it
            original.close();
            // Thrown away for the next round, as Discard would.
            window.document()->discardChanges();
            test::clearAutosaves();
        }
    }
};

int main(int argc, char** argv)
{
    if (argc > 2 && QByteArray(argv[1]) == "--child") return child(argc, argv);
    return planscope::test::runGuiTest<TestKill>(argc, argv);
}

#include "tst_kill.moc"
