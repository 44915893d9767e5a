// The pipeline split in the GUI: the editor's "Balance stages" button sets parallel.layout to autoBalance()'s split
// as one undo step (or says why it set nothing), and the timeline's rank labels and the memory bars' stage ticks
// name each rank's layers in the notation of core/spec/SplitText.h, the one the CLI summary prints.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "charts/MemoryBarsView.h"
#include "cost/AutoBalance.h"
#include "document/PlanDocument.h"
#include "pages/PlanEditorPage.h"
#include "spec/SplitText.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <fstream>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

using namespace planscope;
using namespace planscope::test;

namespace {

QString samplePlan(const char* name)
{
    return QString::fromStdString(test::samplePath(name));
}

QStringList texts(const std::vector<std::string>& v)
{
    QStringList out;
    for (const std::string& s : v) out << QString::fromStdString(s);
    return out;
}

} // namespace

class TestBalanceViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("planscope-balance-tests"));
    }

    // One click, one undo step: undo gives the plan back as it was, redo the balanced layout again; a layout typed
    // afterwards is a step of its own.
    void balanceIsOneUndoStep()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QVERIFY(loadAndWait(doc, samplePlan("default.plan.json")));
        const Plan before = doc.plan();
        QVERIFY(before.parallel.layout.empty());
        const auto expected = autoBalance(before);
        QVERIFY(expected.ok() && expected->fits);
        const int steps = editor.undoStack()->count();

        editor.balanceButton()->click();
        QCOMPARE(doc.plan().parallel.layout, expected->layout);
        QCOMPARE(doc.plan(), expected->plan);
        QCOMPARE(editor.undoStack()->count(), steps + 1);
        QCOMPARE(editor.undoStack()->undoText(),
            QStringLiteral("Balance pipeline stages: %1").arg(QString::fromStdString(expected->layout)));
        QCOMPARE(editor.lineEdit(QStringLiteral("parallel.layout"))->text(), QString::fromStdString(expected->layout));
        QVERIFY(editor.balanceNote()->isVisibleTo(&editor));
        QVERIFY2(editor.balanceNote()->text().startsWith(QLatin1String("Slowest stage")),
            qPrintable(editor.balanceNote()->text()));

        editor.undoStack()->undo();
        QCOMPARE(doc.plan(), before);
        QVERIFY(editor.lineEdit(QStringLiteral("parallel.layout"))->text().isEmpty());
        QVERIFY(!editor.balanceNote()->isVisibleTo(&editor));
        editor.undoStack()->redo();
        QCOMPARE(doc.plan().parallel.layout, expected->layout);

        // Typing into the layout field afterwards does not merge into the balance step.
        editor.lineEdit(QStringLiteral("parallel.layout"))->setText(QStringLiteral("Et*9|t*8|t*8|t*7L"));
        QCOMPARE(editor.undoStack()->count(), steps + 2);
        editor.undoStack()->undo();
        QCOMPARE(doc.plan().parallel.layout, expected->layout);
    }

    // 2 GB per GPU: no split fits; nothing is set and the note says so.
    void saysWhenNothingFits()
    {
        PlanDocument doc;
        PlanEditorPage editor;
        editor.setDocument(&doc);
        QTemporaryDir dir;
        std::ifstream in(test::samplePath("default.plan.json"));
        nlohmann::json j = nlohmann::json::parse(in);
        j["cluster"]["gpu"] = { { "preset", "a100-sxm4-80gb" }, { "memory", 2000000000 } };
        const QString tiny = dir.filePath(QStringLiteral("tiny.plan.json"));
        std::ofstream(tiny.toStdString()) << j.dump(2);
        QVERIFY(loadAndWait(doc, tiny));
        const Plan plan = doc.plan();
        editor.balanceButton()->click();
        QCOMPARE(doc.plan(), plan);
        QCOMPARE(editor.undoStack()->count(), 0);
        QVERIFY(editor.balanceNote()->isVisibleTo(&editor));
        QVERIFY2(editor.balanceNote()->text().startsWith(QLatin1String("No split fits")),
            qPrintable(editor.balanceNote()->text()));
    }

    // Llama 2 7B (32 layers) on pp 4: 8 layers a rank, the embedding on the first, the loss on the last.
    void memoryTicksNameTheLayers()
    {
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->valid());
        MemoryBarsView view;
        view.resize(1400, 900);
        view.setAnalysis(analysis);
        QTemporaryDir dir;
        QVERIFY(view.exportTo(dir.filePath(QStringLiteral("bars.png")), 1400, 900)); // lays the chart out
        const QStringList expected { QStringLiteral("E8"), QStringLiteral("8"), QStringLiteral("8"), QStringLiteral("8L") };
        QCOMPARE(texts(rankSplitTexts(analysis->plan)), expected);
        for (int s = 0; s < 4; ++s) {
            QCOMPARE(view.stageLayersLabel(s), expected[s]);
            QCOMPARE(view.tickLabel(s), QStringLiteral("Stage %1\n%2").arg(s).arg(expected[s]));
        }
        QVERIFY(view.tickLayersShown());
    }

    // Eight chunks a rank are too wide for the ticks of a narrow chart: the ticks then carry the stage alone.
    void memoryTicksDropLayersThatDoNotFit()
    {
        const auto analysis = test::analyseSample("llama31-405b-pp8-vp8-h100.plan.json");
        QVERIFY(analysis->valid());
        MemoryBarsView view;
        view.setAnalysis(analysis);
        QCOMPARE(view.stageLayersLabel(0), QStringLiteral("E1|2|2|2|2|2|2|2"));
        view.resize(360, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        QVERIFY(!view.tickLayersShown());
        QCOMPARE(view.tickLabel(0), QStringLiteral("Stage 0"));
        view.resize(1600, 900);
        QApplication::processEvents();
        view.plot()->replot();
        QVERIFY(view.tickLayersShown());
        QCOMPARE(view.tickLabel(7), QStringLiteral("Stage 7\n2|2|2|2|2|2|2|1L"));
    }

    // The timeline says under each rank's name which layers it holds.
    void timelineRanksNameTheLayers()
    {
        const auto analysis = test::analyseSample("llama31-405b-pp8-vp8-h100.plan.json");
        QVERIFY(analysis->valid());
        TimelineView view;
        view.resize(1400, 900);
        view.setAnalysis(analysis);
        QVERIFY(view.timeline());
        const std::vector<std::string> split = rankSplitTexts(analysis->plan);
        QCOMPARE(split.size(), std::size_t(8));
        for (int r = 0; r < 8; ++r)
            QCOMPARE(view.rankLayersLabel(r), QStringLiteral("layers %1").arg(QString::fromStdString(split[std::size_t(r)])));
        QCOMPARE(view.rankLayersLabel(0), QStringLiteral("layers E1|2|2|2|2|2|2|2"));
        QCOMPARE(view.rankLayersLabel(7), QStringLiteral("layers 2|2|2|2|2|2|2|1L"));
        QVERIFY(view.rankLayersLabel(8).isEmpty());
        // A timeline from no document has no plan to name the layers of.
        TimelineView bare;
        bare.setTimeline(analysis->timeline);
        QVERIFY(bare.rankLayersLabel(0).isEmpty());
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestBalanceViews)
#include "tst_balance_views.moc"
