// The main window as a user drives it: nothing typed is lost. Opening another plan over unsaved changes asks
// first; a file that cannot be read leaves the open plan as it was and says why once; every plan autosaves to a
// file of its own, and what a session left unsaved is offered back at the next start, under the plan's own name.
#include "GuiTestMain.h"
#include "AppTestUtil.h"

#include "LanguageManager.h"
#include "MainWindow.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "pages/LessonPanel.h"
#include "pages/ProfilePage.h"
#include "pages/LaunchConfigDialog.h"
#include <QDropEvent>
#include <QMimeData>
#include <QUndoStack>
#include <QUrl>
#include "Theme.h"
#include <QCheckBox>
#include "io/PlanJson.h"
#include "XlsxReader.h"
#include <QAbstractItemView>
#include <QAction>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>

#include <QApplication>
#include <cstdio>
#include <QAbstractSpinBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QTabWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace planscope;

namespace {

using test::clearAutosaves;
using test::samplePlan;
using test::waitForCurrentPrediction;

Plan edited(Plan plan)
{
    plan.training.microBatch = 2;
    plan.training.globalBatch = 64;
    return plan;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateFromTheUser(); }
    void cleanup() { clearAutosaves(); }

private:
    LanguageManager m_languages;

    // On screen at 1200 x 800, notes without delay, the default plan open and analysed.
    static bool showWithDefaultPlan(MainWindow& window)
    {
        window.setComputingNoteDelay(0);
        window.resize(1200, 800);
        window.show();
        return window.openPlan(samplePlan("default.plan.json")) && waitForCurrentPrediction(*window.document());
    }

private slots:

    // Ctrl+O over an edit asks first; Cancel keeps everything, Discard opens the other plan and drops the autosave.
    void openAsksBeforeReplacingUnsavedChanges()
    {
        MainWindow window(&m_languages);
        int asked = 0;
        MainWindow::SaveChoice answer = MainWindow::SaveChoice::Cancel;
        window.setSaveQuestion([&] {
            ++asked;
            return answer;
        });
        PlanDocument* doc = window.document();
        QVERIFY(window.openPlan(samplePlan("default.plan.json")));
        QCOMPARE(asked, 0); // nothing to lose yet
        const Plan mine = edited(doc->plan());
        doc->setPlan(mine);
        QVERIFY(doc->autosaveNow());
        const QString autosave = doc->autosavePath();
        QVERIFY(QFileInfo::exists(autosave));

        QVERIFY(!window.openPlan(samplePlan("gpt3-175b-1024xa100.plan.json")));
        QCOMPARE(asked, 1);
        QCOMPARE(doc->plan(), mine);
        QVERIFY(doc->isModified());
        QVERIFY(doc->filePath().endsWith(QLatin1String("default.plan.json")));
        QVERIFY(QFileInfo::exists(autosave));

        answer = MainWindow::SaveChoice::Discard;
        QVERIFY(window.openPlan(samplePlan("gpt3-175b-1024xa100.plan.json")));
        QCOMPARE(asked, 2);
        QVERIFY(!doc->isModified());
        QVERIFY(doc->filePath().endsWith(QLatin1String("gpt3-175b-1024xa100.plan.json")));
        QVERIFY(!QFileInfo::exists(autosave)); // discarded on purpose: nothing to offer later
        QVERIFY(PlanDocument::pendingRecoveries().isEmpty());
    }

    // Save from the question writes the edit to its file before the other plan opens.
    void openSavesWhenAskedTo()
    {
        QTemporaryDir dir;
        const QString mineFile = dir.filePath(QStringLiteral("mine.plan.json"));
        QVERIFY(QFile::copy(samplePlan("default.plan.json"), mineFile));
        QFile::setPermissions(mineFile, QFile::ReadOwner | QFile::WriteOwner);
        MainWindow window(&m_languages);
        window.setSaveQuestion([] { return MainWindow::SaveChoice::Save; });
        PlanDocument* doc = window.document();
        QVERIFY(window.openPlan(mineFile));
        const Plan mine = edited(doc->plan());
        doc->setPlan(mine);
        QVERIFY(window.openPlan(samplePlan("gpt3-175b-1024xa100.plan.json")));
        auto back = loadPlanFile(QFile::encodeName(mineFile).toStdString());
        QVERIFY(back.ok());
        QCOMPARE(back.value().plan, mine);
    }

    // A truncated file: the open plan, its file, title and analysis stay; the message bar names the file and the
    // byte where reading stopped.
    void failedLoadKeepsTheDocument()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("truncated.plan.json"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QFile source(samplePlan("default.plan.json"));
            QVERIFY(source.open(QIODevice::ReadOnly));
            f.write(source.readAll().left(300));
        }
        MainWindow window(&m_languages);
        PlanDocument* doc = window.document();
        QVERIFY(window.openPlan(samplePlan("default.plan.json")));
        QVERIFY(waitForCurrentPrediction(*doc));
        const Plan before = doc->plan();
        const QString path = doc->filePath();
        const QString title = window.windowTitle();
        const auto prediction = doc->prediction();
        QVERIFY(prediction && prediction->valid);

        QSignalSpy failed(doc, &PlanDocument::loadFailed);
        QVERIFY(!window.openPlan(bad));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(doc->plan(), before);
        QCOMPARE(doc->filePath(), path);
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(doc->prediction(), prediction); // the same analysis object: nothing republished
        QVERIFY(!doc->isModified());
        const QString message = window.message();
        QVERIFY2(message.contains(QLatin1String("truncated.plan.json")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("byte")), qPrintable(message));
        // The next good file clears it.
        QVERIFY(window.openPlan(samplePlan("gpt3-175b-1024xa100.plan.json")));
        QVERIFY(window.message().isEmpty());
    }

    // Two documents autosave to two files: the second edit does not overwrite the first plan's autosave.
    void autosavePerDocument()
    {
        PlanDocument a, b;
        QVERIFY(a.load(samplePlan("default.plan.json")));
        QVERIFY(b.load(samplePlan("gpt3-175b-1024xa100.plan.json")));
        a.setPlan(edited(a.plan()));
        b.setPlan(edited(b.plan()));
        QVERIFY(a.autosaveNow());
        QVERIFY(b.autosaveNow());
        QVERIFY(a.autosavePath() != b.autosavePath());
        QCOMPARE(loadPlanFile(QFile::encodeName(a.autosavePath()).toStdString()).value().plan, a.plan());
        QCOMPARE(loadPlanFile(QFile::encodeName(b.autosavePath()).toStdString()).value().plan, b.plan());
        // Held by this running process: not offered for recovery.
        QVERIFY(PlanDocument::pendingRecoveries().isEmpty());
        // A save leaves nothing to recover.
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("a.plan.json"));
        const QString autosaveA = a.autosavePath();
        QVERIFY(a.save(saved));
        QVERIFY(!QFileInfo::exists(autosaveA));
    }

    // A session that ends with unsaved changes (its document goes while modified, as when the process is killed
    // after an autosave) leaves them behind; the next window offers them under the plan's own file name.
    void recoveryAtTheNextStart()
    {
        const QString original = QFileInfo(samplePlan("default.plan.json")).absoluteFilePath();
        Plan mine;
        {
            auto* doc = new PlanDocument;
            QVERIFY(doc->load(original));
            mine = edited(doc->plan());
            doc->setPlan(mine);
            delete doc; // writes the pending autosave and lets go of it
        }
        const auto pending = PlanDocument::pendingRecoveries();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(pending.front().originalPath, original);
        QVERIFY(pending.front().savedAt.isValid());

        MainWindow window(&m_languages);
        QString asked;
        window.setRecoveryQuestion([&](const QString& description) {
            asked = description;
            return MainWindow::RecoveryChoice::Recover;
        });
        QVERIFY(window.offerRecovery());
        QVERIFY2(asked.contains(QLatin1String("default.plan.json")), qPrintable(asked));
        PlanDocument* doc = window.document();
        QCOMPARE(doc->plan(), mine);
        QCOMPARE(doc->filePath(), original); // named after its file, not the autosave
        QVERIFY(doc->isModified());
        QVERIFY(window.windowTitle().startsWith(QLatin1String("default.plan.json *")));
        QVERIFY(waitForCurrentPrediction(*doc));
        QVERIFY(doc->prediction()->valid);
        // Now this window holds it; nothing is pending for another start.
        QVERIFY(PlanDocument::pendingRecoveries().isEmpty());
    }

    void recoveryCanBeDiscardedOrKept()
    {
        {
            PlanDocument doc;
            QVERIFY(doc.load(samplePlan("default.plan.json")));
            doc.setPlan(edited(doc.plan()));
        }
        QCOMPARE(PlanDocument::pendingRecoveries().size(), 1);
        MainWindow window(&m_languages);
        window.setRecoveryQuestion([](const QString&) { return MainWindow::RecoveryChoice::Later; });
        QVERIFY(!window.offerRecovery());
        QCOMPARE(PlanDocument::pendingRecoveries().size(), 1); // kept for the next start
        window.setRecoveryQuestion([](const QString&) { return MainWindow::RecoveryChoice::Discard; });
        QVERIFY(!window.offerRecovery());
        QVERIFY(PlanDocument::pendingRecoveries().isEmpty());
        // With nothing to offer, asking says so.
        QVERIFY(!window.offerRecovery(true));
        QVERIFY(!window.message().isEmpty());
    }

    // Half of a 1920x1080 screen holds the window with the plan editor beside the views, and the editor keeps its
    // fields in view (no horizontal scrolling inside the dock).
    void halfAScreenHoldsTheEditorAndTheViews()
    {
        MainWindow window(&m_languages);
        QVERIFY(window.openPlan(samplePlan("default.plan.json")));
        QVERIFY(window.setCurrentView(QStringLiteral("editor")));
        QVERIFY(window.setCurrentView(QStringLiteral("timeline")));
        window.setAttribute(Qt::WA_DontShowOnScreen);
        window.resize(960, 1040);
        window.show();
        QVERIFY(waitForCurrentPrediction(*window.document()));
        QApplication::processEvents();
        QVERIFY2(window.width() <= 960, qPrintable(QString::number(window.width())));
        // The dock keeps its fields: no field of the editor is cut by the dock's right edge.
        QDockWidget* dock = window.findChild<QDockWidget*>(QStringLiteral("editorDock"));
        QVERIFY(dock && dock->isVisible());
        QVERIFY(dock->width() >= dock->minimumSizeHint().width());
        int checked = 0;
        for (QAbstractSpinBox* field : dock->findChildren<QAbstractSpinBox*>()) {
            if (!field->isVisibleTo(dock)) continue;
            const QRect r(field->mapTo(dock, QPoint(0, 0)), field->size());
            QVERIFY2(r.right() <= dock->width(), qPrintable(field->objectName() + QStringLiteral(" ends at %1 of %2").arg(r.right()).arg(dock->width())));
            ++checked;
        }
        QVERIFY(checked > 10);
    }

    // An unmodified plan leaves nothing behind when its window goes.
    void cleanExitLeavesNothing()
    {
        {
            PlanDocument doc;
            QVERIFY(doc.load(samplePlan("default.plan.json")));
            doc.setPlan(edited(doc.plan()));
            QVERIFY(doc.autosaveNow());
            doc.discardChanges();
        }
        QVERIFY(PlanDocument::pendingRecoveries().isEmpty());
    }

    // A lesson over unsaved changes asks first (Cancel keeps them); its steps never write the user's file, which stays
    // byte for byte as it was, and the lesson's plans are untitled and unmodified, shown in the step's view.
    void lessonsLeaveTheUsersFileAlone()
    {
        QTemporaryDir dir;
        const QString mineFile = dir.filePath(QStringLiteral("mine.plan.json"));
        QVERIFY(QFile::copy(samplePlan("default.plan.json"), mineFile));
        QFile::setPermissions(mineFile, QFile::ReadOwner | QFile::WriteOwner);
        QFile original(mineFile);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();

        MainWindow window(&m_languages);
        int asked = 0;
        MainWindow::SaveChoice answer = MainWindow::SaveChoice::Cancel;
        window.setSaveQuestion([&] {
            ++asked;
            return answer;
        });
        PlanDocument* doc = window.document();
        QVERIFY(window.openPlan(mineFile));
        const Plan mine = edited(doc->plan());
        doc->setPlan(mine);

        QVERIFY(!window.startLesson(QStringLiteral("pipeline-bubble")));
        QCOMPARE(asked, 1);
        QCOMPARE(doc->plan(), mine); // cancelled: the edit is still there
        QVERIFY(doc->isModified());

        answer = MainWindow::SaveChoice::Discard;
        QVERIFY(window.startLesson(QStringLiteral("pipeline-bubble")));
        QCOMPARE(asked, 2);
        QVERIFY(doc->filePath().isEmpty());
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->plan().parallel.pp, 4);
        QCOMPARE(window.currentView(), QStringLiteral("timeline"));
        QVERIFY(window.viewState()->isPlaying());
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible() || !window.isVisible());
        QVERIFY(window.lessonPanel()->next()); // the lesson's second step, as Next does
        QCOMPARE(doc->plan().training.globalBatch, 32);
        QVERIFY(window.startLesson(QStringLiteral("ring-allreduce"), 1));
        QCOMPARE(window.currentView(), QStringLiteral("comm"));
        QCOMPARE(asked, 2); // the lesson's own plans are unmodified: nothing more to ask
        QVERIFY(waitForCurrentPrediction(*doc));
        QVERIFY(doc->prediction()->valid);

        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), before);
        QVERIFY(!window.startLesson(QStringLiteral("no-such-lesson")));
    }

    // A plan file written by another program while it is open: without edits it is read again and the bar says so;
    // with edits they are kept and the bar says how to take the file's; the document's own saves are not a change.
    void aFileChangedOnDiskIsNoticed()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("mine.plan.json"));
        QVERIFY(QFile::copy(samplePlan("default.plan.json"), file));
        MainWindow window(&m_languages);
        PlanDocument* doc = window.document();
        QVERIFY(window.openPlan(file));
        QVERIFY(waitForCurrentPrediction(*doc));
        // Written the way editors write: a new file renamed over the old one.
        auto writeElsewhere = [&](Plan plan) {
            const QString tmp = file + QStringLiteral(".tmp");
            QFile out(tmp);
            if (!out.open(QIODevice::WriteOnly)) return false;
            out.write(QByteArray::fromStdString(serializePlan(plan)));
            out.close();
            return std::rename(QFile::encodeName(tmp).constData(), QFile::encodeName(file).constData()) == 0;
        };
        const Plan theirs = edited(doc->plan()); // microBatch 2
        QVERIFY(writeElsewhere(theirs));
        QTRY_COMPARE_WITH_TIMEOUT(doc->plan().training.microBatch, 2, 10000);
        QVERIFY(!doc->isModified());
        QVERIFY(window.message().contains(QStringLiteral("changed by another program")));

        Plan mine = doc->plan();
        mine.training.globalBatch = 128;
        doc->setPlan(mine);
        Plan again = theirs;
        again.training.microBatch = 4;
        QVERIFY(writeElsewhere(again));
        QTRY_VERIFY_WITH_TIMEOUT(window.message().contains(QStringLiteral("Your unsaved edits are kept")), 10000);
        QCOMPARE(doc->plan().training.globalBatch, 128);
        QVERIFY(doc->isModified());
        QVERIFY(window.reloadFromDisk());
        QCOMPARE(doc->plan().training.microBatch, 4);
        QCOMPARE(doc->plan().training.globalBatch, theirs.training.globalBatch);
        QVERIFY(!doc->isModified());
        QVERIFY(window.message().isEmpty());

        // Its own save is no news.
        doc->setPlan(mine);
        QVERIFY(doc->save(file));
        QTest::qWait(400);
        QVERIFY(window.message().isEmpty());
        QCOMPARE(doc->plan().training.globalBatch, 128);
    }

    // A long analysis (a million-op simulation, about 0.35 s here) shows its note with a Cancel; Cancel stops the
    // simulation: the closed form stands and the timeline says it was cancelled. The plan stays as edited. The note
    // shows at once (its delay, 300 ms in the app, is about the analysis' own time on this machine).
    void aLongAnalysisCanBeCancelled()
    {
        MainWindow window(&m_languages);
        PlanDocument* doc = window.document();
        QVERIFY(showWithDefaultPlan(window));
        Plan big = doc->plan();
        // 16 GPUs as pp 4 x tp 2 x dp 2; 250,000 sequences = 125,000 microbatches per replica; pp 4 x 125,000 x
        // (forward, backward) = 1,000,000 ops: the most the analysis simulates.
        big.parallel.pp = 4;
        big.parallel.tp = 2;
        big.parallel.dp = 2;
        big.training.microBatch = 1;
        big.training.globalBatch = 250000;
        doc->setPlan(big);
        auto* cancel = window.findChild<QPushButton*>(QStringLiteral("cancelComputing"));
        QVERIFY(cancel);
        QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible(), 5000);
        QVERIFY(doc->isEvaluating());
        cancel->click();
        QVERIFY(waitForCurrentPrediction(*doc));
        QVERIFY(doc->prediction()->valid);
        QVERIFY(!doc->timeline());
        QVERIFY2(doc->timelineError().contains(QLatin1String("cancelled")), qPrintable(doc->timelineError()));
        QCOMPARE(doc->prediction()->timeSource, std::string("analytic"));
        QCOMPARE(doc->prediction()->microbatches, std::int64_t(125000));
        QCOMPARE(doc->plan().training.globalBatch, std::int64_t(250000));
        QTRY_VERIFY(!cancel->isVisible());
    }

    // Opening a plan runs the window's event loop while the file is read on a thread of its own: a timer posted
    // before the open fires during it. With the note delay 0 the opening bar shows, names the file and disables the
    // pages and the editor; Cancel ends the open at once, leaves the open plan, its file and the pages as they were,
    // and says so in the status bar. The next open reads the file.
    void openingAPlanKeepsTheWindowAnsweringAndCanBeCancelled()
    {
        MainWindow window(&m_languages);
        PlanDocument* doc = window.document();
        QVERIFY(showWithDefaultPlan(window));
        const Plan before = doc->plan();
        const QString beforePath = doc->filePath();
        const QString other = samplePlan("gpt3-175b-1024xa100.plan.json");

        bool barShown = false, pagesDisabled = false, editorDisabled = false;
        QString barText;
        QTimer::singleShot(5, &window, [&] {
            QVERIFY(doc->isLoading());
            QCOMPARE(doc->loadingPath(), other);
            barShown = window.openingBar()->isVisible();
            barText = window.openingBar()->findChild<QLabel*>()->text();
            pagesDisabled = !static_cast<QScrollArea*>(window.findChild<QTabWidget*>()->currentWidget())->widget()->isEnabled();
            editorDisabled = !window.findChild<QDockWidget*>(QStringLiteral("editorDock"))->widget()->isEnabled();
            window.openingBar()->findChild<QPushButton*>(QStringLiteral("cancelOpening"))->click();
        });
        QVERIFY(!window.openPlan(other));
        QVERIFY(barShown);
        QVERIFY2(barText.contains(QDir::toNativeSeparators(other)), qPrintable(barText));
        QVERIFY(pagesDisabled);
        QVERIFY(editorDisabled);
        QVERIFY(!doc->isLoading());
        QCOMPARE(doc->plan(), before);
        QCOMPARE(doc->filePath(), beforePath);
        QVERIFY(!doc->isModified());
        QVERIFY2(doc->errorString().contains(QLatin1String("cancelled")), qPrintable(doc->errorString()));
        QVERIFY(window.statusBar()->currentMessage().contains(QLatin1String("cancelled")));
        QVERIFY(!window.openingBar()->isVisible());
        QVERIFY(static_cast<QScrollArea*>(window.findChild<QTabWidget*>()->currentWidget())->widget()->isEnabled());

        // Another plan shown while the file is read (a lesson's step): the read is forgotten at once, the document no
        // longer loading, and the open says nothing of its own.
        Plan lesson = before;
        lesson.training.microBatch = 2;
        bool stillLoading = true;
        const QString errorBefore = doc->errorString();
        QTimer::singleShot(5, &window, [&] {
            doc->showUntitledPlan(lesson);
            stillLoading = doc->isLoading();
        });
        QVERIFY(!window.openPlan(other));
        QVERIFY(!stillLoading);
        QCOMPARE(doc->plan(), lesson);
        QVERIFY(doc->filePath().isEmpty());
        // The plan shown cleared the last error, and the replaced open wrote none of its own.
        QVERIFY2(doc->errorString().isEmpty() && !errorBefore.isEmpty(), qPrintable(doc->errorString()));

        // Not cancelled: the file is read and shown.
        QVERIFY(window.openPlan(other));
        QCOMPARE(doc->filePath(), QFileInfo(other).absoluteFilePath());
        QVERIFY(!window.openingBar()->isVisible());
    }

    // An H100's nccl-tests run applied anyway to an A100 plan (Profile page, "Apply to another GPU"): the status bar,
    // under every page, says whose measurements the figures use, in the alarm colour; refused again, it says nothing.
    void anotherGpusCalibrationIsSaidOnEveryPage()
    {
        MainWindow window(&m_languages);
        PlanDocument* doc = window.document();
        QVERIFY(showWithDefaultPlan(window));
        QLabel* status = nullptr;
        for (QLabel* l : window.statusBar()->findChildren<QLabel*>())
            if (l->text().startsWith(QLatin1String("Peak"))) status = l;
        QVERIFY(status);
        ProfilePage* profile = window.profilePage();
        QVERIFY(profile->openProfile(QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/a3mega-h100-2x8-all_reduce_perf.txt")));
        profile->useBox()->setChecked(true);
        profile->anyGpuBox()->setChecked(true);
        QVERIFY(QTest::qWaitFor([&] { return doc->calibration() && doc->calibration()->refused.empty(); }, 20000));
        QVERIFY(waitForCurrentPrediction(*doc));
        const QString warning = QStringLiteral("calibrated with NVIDIA H100 80GB HBM3's measurements, not this plan's NVIDIA A100-SXM4-80GB");
        for (const char* page : { "timeline", "grid", "memory" }) {
            QVERIFY(window.setCurrentView(QLatin1String(page)));
            QVERIFY2(status->isVisible() && status->text().contains(warning), qPrintable(status->text()));
        }
        QCOMPARE(status->palette().color(QPalette::WindowText), Theme::alarmText());
        profile->anyGpuBox()->setChecked(false);
        QVERIFY(QTest::qWaitFor([&] { return doc->calibration() && !doc->calibration()->refused.empty(); }, 20000));
        QVERIFY(waitForCurrentPrediction(*doc));
        QVERIFY2(!status->text().contains(QLatin1String("calibrated with")), qPrintable(status->text()));
    }

    // File > Import Launch Config: a pasted Megatron-LM line becomes the plan as one undo step over the open plan's
    // cluster, what is not modelled said by name; a line with a bad value keeps the dialog (and the text) open and
    // names the argument; a launch script dropped on the window opens the dialog with its text.
    void aLaunchConfigIsImportedAsOneUndoStep()
    {
        MainWindow window(&m_languages);
        PlanDocument* doc = window.document();
        QVERIFY(showWithDefaultPlan(window));
        const Plan before = doc->plan();
        const QString line = QStringLiteral("torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 "
                                            "--num-attention-heads 32 --seq-length 4096 --vocab-size 32000 --swiglu "
                                            "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --micro-batch-size 1 "
                                            "--global-batch-size 64 --bf16 --lr 3e-4");
        QString shownText, problems;
        window.setLaunchConfigAnswer([&](LaunchConfigDialog& d) {
            shownText = d.text();
            if (shownText.isEmpty()) d.setText(line);
            const bool ok = d.importText();
            problems = d.problems();
            return ok;
        });
        QVERIFY(window.importLaunchConfig());
        QVERIFY(waitForCurrentPrediction(*doc));
        QCOMPARE(doc->plan().parallel.tp, 2);
        QCOMPARE(doc->plan().parallel.pp, 2);
        QCOMPARE(doc->plan().parallel.dp, 16 / 4);
        QCOMPARE(doc->plan().cluster.nodes, 2);
        QCOMPARE(doc->plan().cluster.gpu.id, before.cluster.gpu.id);
        QVERIFY2(window.message().contains(QLatin1String("Not modelled: --lr")), qPrintable(window.message()));
        window.findChild<QUndoStack*>()->undo();
        QCOMPARE(doc->plan(), before);

        // A bad value: nothing imported, the argument named.
        window.setLaunchConfigAnswer([&](LaunchConfigDialog& d) {
            d.setText(QStringLiteral("--num-layers 32 --tensor-model-parallel-size two"));
            const bool ok = d.importText();
            problems = d.problems();
            return ok;
        });
        QVERIFY(!window.importLaunchConfig());
        QVERIFY2(problems.contains(QLatin1String("--tensor-model-parallel-size")), qPrintable(problems));
        QCOMPARE(doc->plan(), before);

        // Dropped: the dialog opens with the script's text.
        int asked = 0;
        window.setLaunchConfigAnswer([&](LaunchConfigDialog& d) {
            ++asked;
            shownText = d.text();
            return false;
        });
        const QString script = QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/launch-configs/gpt-175b-megatron.sh");
        auto* mime = new QMimeData;
        mime->setUrls({ QUrl::fromLocalFile(script) });
        // As a drag delivers it: entered (the window takes a .sh), then dropped.
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(200, 200), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY2(shownText.contains(QLatin1String("--tensor-model-parallel-size 8")), qPrintable(shownText.left(80)));
        QCOMPARE(asked, 1);
        delete mime;

        // A torchtitan TOML dropped: read by its content, the Hugging Face folder it names found beside it.
        window.setLaunchConfigAnswer([&](LaunchConfigDialog& d) {
            shownText = d.text();
            const bool ok = d.importText();
            problems = d.problems();
            return ok;
        });
        auto* toml = new QMimeData;
        toml->setUrls({ QUrl::fromLocalFile(QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/launch-configs/torchtitan-llama3_8b.toml")) });
        QDragEnterEvent enterToml(QPoint(200, 200), Qt::CopyAction, toml, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enterToml);
        QVERIFY(enterToml.isAccepted());
        QDropEvent dropToml(QPointF(200, 200), Qt::CopyAction, toml, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &dropToml);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QVERIFY(waitForCurrentPrediction(*doc));
        QCOMPARE(doc->plan().model.vocab, std::int64_t(128256)); // assets/hf/Llama-3.1-8B/config.json
        QVERIFY(doc->plan().parallel.fsdp == Fsdp::Full);
        delete toml;
    }

    // Tables out: right-click on every table of every page offers Copy and Export; File > Export Tables writes the
    // page's tables as a workbook that Python's zipfile reads back with the rows on screen; a page without a table
    // says so.
    void tablesAreExported()
    {
        MainWindow window(&m_languages);
        QVERIFY(showWithDefaultPlan(window));
        QVERIFY(waitForCurrentPrediction(*window.document()));
        for (QAbstractItemView* view : window.findChildren<QAbstractItemView*>()) {
            if (!qobject_cast<QTableView*>(view) && !qobject_cast<QTreeView*>(view)) continue;
            if (!window.findChild<QTabWidget*>()->isAncestorOf(view)) continue; // the pages', not the editor's own
            bool offered = false;
            for (QAction* a : view->actions()) offered = offered || a->objectName() == QLatin1String("exportTable");
            QVERIFY2(offered, qPrintable(view->objectName() + QLatin1Char(' ') + QLatin1String(view->metaObject()->className())));
        }
        QTemporaryDir dir;
        QVERIFY(window.setCurrentView(QStringLiteral("summary")));
        QApplication::processEvents();
        const QString path = dir.filePath(QStringLiteral("metrics.xlsx"));
        QString error;
        QVERIFY2(window.exportTables(path, &error), qPrintable(error));
        const nlohmann::json book = test::readXlsx(path);
        QVERIFY2(book.is_object(), "python3 could not read the workbook");
        // The metrics tree: its first group's title is the first cell under the header.
        QTreeWidget* tree = nullptr;
        for (QTreeWidget* t : window.findChildren<QTreeWidget*>())
            if (t->isVisible() && t->topLevelItemCount() > 0) tree = t;
        QVERIFY(tree);
        const std::string first = tree->topLevelItem(0)->text(0).toStdString();
        bool found = false;
        for (const auto& [sheet, rows] : book["cells"].items())
            for (const auto& row : rows)
                if (!row.empty() && row[0].is_object() && row[0]["v"] == first) found = true;
        QVERIFY2(found, first.c_str());
        // CSV: one file per table.
        QVERIFY2(window.exportTables(dir.filePath(QStringLiteral("metrics.csv")), &error), qPrintable(error));
        QVERIFY(!QDir(dir.path()).entryList({ QStringLiteral("metrics-*.csv") }).isEmpty());
        // The timeline has no table.
        QVERIFY(window.setCurrentView(QStringLiteral("timeline")));
        QVERIFY(!window.exportTables(dir.filePath(QStringLiteral("none.xlsx")), &error));
        QVERIFY(!error.isEmpty());
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
