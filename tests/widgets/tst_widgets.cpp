// The widgets against core: what the views show must be what planscope::evaluate computes.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"
#include "sim/Timeline.h"

#include "LanguageManager.h"
#include "charts/MemoryBarsView.h"
#include "charts/MemorySegments.h"
#include "Palette.h"
#include "document/PlanDocument.h"
#include "pages/SummaryPage.h"
#include "cost/Evaluate.h"
#include "io/PlanJson.h"
#include "util/Units.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTranslator>
#include <QTreeWidget>

using namespace planscope;
using namespace planscope::test;

namespace {

QString samplePlan(const char* name)
{
    return QString::fromStdString(test::samplePath(name));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString gibText(double bytes)
{
    return QStringLiteral("%1 GiB").arg(units::toGiB(bytes), 0, 'f', 2);
}

} // namespace

class TestWidgets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("planscope-widget-tests"));
    }

    void summaryMatchesEvaluate_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("default (pp=4)") << QStringLiteral("default.plan.json");
        QTest::newRow("130b zero3 (pp=16)") << QStringLiteral("interview-130b-256xa100-zero3.plan.json");
    }
    void summaryMatchesEvaluate()
    {
        QFETCH(QString, file);
        PlanDocument doc;
        SummaryPage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, samplePlan(file.toUtf8().constData())));

        const Plan plan = test::loadSample(file.toUtf8().constData());
        // The document publishes the prediction with the simulated step (one step time in every view).
        Explainer ex;
        Prediction expected = evaluate(plan, &ex);
        QVERIFY(expected.valid);
        auto timeline = simulate(plan, expected);
        QVERIFY(timeline.ok());
        applySimulation(expected, plan, timeline.value(), &ex);
        QCOMPARE(*doc.prediction(), expected);
        QCOMPARE(doc.prediction()->timeSource, std::string("simulation"));
        QCOMPARE(doc.prediction()->stepSeconds, doc.timeline()->stepSeconds);
        QVERIFY(page.headerLabel()->text().contains(QString::fromStdString(plan.name).toHtmlEscaped()));

        // One row per pipeline stage under the memory group, in stage order.
        const QRegularExpression stageTotal(QStringLiteral("^memory\\.stages\\.(\\d+)\\.totalBytes$"));
        QList<int> stageRows;
        for (QTreeWidgetItemIterator it(page.tree()); *it; ++it) {
            const auto m = stageTotal.match((*it)->data(0, SummaryPage::FieldRole).toString());
            if (m.hasMatch() && (*it)->parent() && !(*it)->parent()->parent())
                stageRows << m.captured(1).toInt();
        }
        QCOMPARE(stageRows.size(), qsizetype(expected.stages.size()));
        QCOMPARE(stageRows.size(), plan.parallel.pp);
        for (int i = 0; i < stageRows.size(); ++i)
            QCOMPARE(stageRows[i], i);

        QTreeWidgetItem* peak = page.findField(QStringLiteral("memory.peakBytes"));
        QVERIFY(peak);
        QCOMPARE(peak->text(SummaryPage::ValueColumn), gibText(double(expected.peakBytes)));
        QCOMPARE(peak->data(0, SummaryPage::ExactValueRole).toDouble(), double(expected.peakBytes));
        QVERIFY(peak->toolTip(SummaryPage::ValueColumn).contains(QString::number(expected.peakBytes)));

        for (const StageMemory& st : expected.stages) {
            QTreeWidgetItem* act
                = page.findField(QStringLiteral("memory.stages.%1.activationsBytes").arg(st.stage));
            QVERIFY(act);
            QCOMPARE(act->text(SummaryPage::ValueColumn), gibText(double(st.activationsBytes)));
        }

        // Both bubble definitions, named apart, with their own values.
        QTreeWidgetItem* fraction = page.findField(QStringLiteral("time.bubbleFraction"));
        QTreeWidgetItem* overhead = page.findField(QStringLiteral("time.bubbleOverhead"));
        QVERIFY(fraction && overhead);
        QVERIFY(fraction->text(0) != overhead->text(0));
        QCOMPARE(fraction->data(0, SummaryPage::ExactValueRole).toDouble(), expected.bubbleFraction);
        QCOMPARE(overhead->data(0, SummaryPage::ExactValueRole).toDouble(), expected.bubbleOverhead);
        QCOMPARE(fraction->text(SummaryPage::ValueColumn),
            QStringLiteral("%1 %").arg(expected.bubbleFraction * 100, 0, 'f', 1));

        // The bubble row's note shows its formula, and the value shown is that formula's value (independently:
        // (p-1)/(m+p-1) for GPipe/1F1B, (p-1)/(v*m+p-1) interleaved); the idle of every cause is a row of its own.
        const int p = plan.parallel.pp, v = std::max(1, plan.parallel.vpp);
        const double m = double(expected.microbatches);
        const bool flush = plan.training.schedule == ScheduleKind::GPipe || plan.training.schedule == ScheduleKind::OneFOneB;
        const bool interleaved = plan.training.schedule == ScheduleKind::Interleaved1F1B;
        if (p > 1 && (flush || interleaved)) {
            const double formula = (p - 1) / ((interleaved ? v : 1) * m + p - 1);
            QVERIFY2(std::abs(fraction->data(0, SummaryPage::ExactValueRole).toDouble() - formula) < 1e-9,
                qPrintable(QStringLiteral("%1 vs %2").arg(fraction->data(0, SummaryPage::ExactValueRole).toDouble()).arg(formula)));
            QCOMPARE(fraction->text(SummaryPage::ValueColumn), QStringLiteral("%1 %").arg(formula * 100, 0, 'f', 1));
            const QString note = fraction->text(SummaryPage::NoteColumn);
            QVERIFY2(note.contains(interleaved ? QLatin1String("(p-1)/(v*m+p-1)") : QLatin1String("(p-1)/(m+p-1)")), qPrintable(note));
            QVERIFY2(note.contains(QStringLiteral("p = %1").arg(p)) && note.contains(QStringLiteral("m = %1").arg(qint64(m))), qPrintable(note));
        }
        QTreeWidgetItem* idle = page.findField(QStringLiteral("time.idleFraction"));
        QVERIFY(idle);
        QCOMPARE(idle->data(0, SummaryPage::ExactValueRole).toDouble(), expected.idleFraction);
        QCOMPARE(expected.idleFraction, timeline.value().bubbleFraction); // the simulation's idle share of all ranks

        // Selecting a row explains it: the formula, and the formula with values filled in.
        page.selectField(QStringLiteral("time.bubbleFraction"));
        const QString explanation = page.explanationView()->toPlainText();
        const Explanation* e = ex.find("time.bubbleFraction");
        QVERIFY(e);
        QVERIFY2(explanation.contains(QString::fromStdString(e->formula)), qPrintable(explanation));
        QVERIFY(explanation.contains(QString::fromStdString(substitute(*e))));
        QVERIFY(explanation.contains(QString::fromStdString(e->source.english())));

        // Communication groups: those crossing nodes in red, the others not.
        for (std::size_t i = 0; i < expected.comm.size(); ++i) {
            QTreeWidgetItem* g = page.findField(QStringLiteral("comm.groups.%1.seconds").arg(i));
            QVERIFY(g);
            QCOMPARE(g->data(0, SummaryPage::ExactValueRole).toDouble(), expected.comm[i].seconds);
            QCOMPARE(g->foreground(0).color() == palette::alarm(), expected.comm[i].crossesNodes);
        }

        // Every core warning is listed.
        QCOMPARE(page.issueList()->count(), int(expected.warnings.size()) + int(doc.loadWarnings().size()));
        for (int i = 0; i < page.issueList()->count(); ++i)
            QVERIFY(!page.issueList()->item(i)->text().isEmpty());
    }

    void memoryBarsMatchPrediction_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("default (pp=4)") << QStringLiteral("default.plan.json");
        QTest::newRow("130b zero3 (pp=16)") << QStringLiteral("interview-130b-256xa100-zero3.plan.json");
    }
    void memoryBarsMatchPrediction()
    {
        QFETCH(QString, file);
        MemoryBarsView view;
        const auto analysis = analyseSample(file.toUtf8().constData());
        view.setAnalysis(analysis);
        const Prediction expected = evaluate(test::loadSample(file.toUtf8().constData()));

        QCOMPARE(view.stageCount(), int(expected.stages.size()));
        for (const StageMemory& st : expected.stages)
            for (MemorySegment seg : kMemorySegments)
                QCOMPARE(view.plottedGiB(seg, st.stage), double(segmentBytes(st, seg)) / 1073741824.0);
        QCOMPARE(view.capacityGiB(), double(expected.capacityBytes) / 1073741824.0);
        int over = 0;
        for (const StageMemory& st : expected.stages)
            over += st.totalBytes > expected.capacityBytes ? 1 : 0;
        QCOMPARE(int(view.overflowLabels().size()), over);
    }

    void overCapacityIsLabelled()
    {
        // Shrink the GPU until the default plan no longer fits: every stage over capacity gets its label.
        Plan plan = test::loadSample("default.plan.json");
        plan.cluster.gpu.memoryBytes = std::int64_t(16) << 30;
        const Prediction expected = evaluate(plan);
        QVERIFY(expected.valid); // over capacity is still a valid, drawable plan (docs/ARCHITECTURE.md section 5)
        PlanDocument doc;
        MemoryBarsView view;
        view.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        doc.setPlan(plan);
        QVERIFY(waitForPrediction(spy));
        QVERIFY(!expected.fits);
        QStringList wanted;
        for (const StageMemory& st : expected.stages)
            if (st.totalBytes > expected.capacityBytes)
                wanted << QStringLiteral("over by %1")
                              .arg(gibText(double(st.totalBytes - expected.capacityBytes)));
        QVERIFY(!wanted.isEmpty());
        QCOMPARE(view.overflowLabels(), wanted);
    }

    void exportWritesFiles_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG", 4);
        QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<svg");
        QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF");
    }
    void exportWritesFiles()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        MemoryBarsView view;
        const auto analysis = analyseSample("default.plan.json");
        view.setAnalysis(analysis);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("memory.") + suffix);
        QVERIFY(view.exportTo(path, 1000, 600));
        const QByteArray bytes = readAll(path);
        QVERIFY2(bytes.size() > 1000, qPrintable(QString::number(bytes.size())));
        QVERIFY(suffix == QLatin1String("svg") ? bytes.contains(magic) : bytes.startsWith(magic));
        if (suffix == QLatin1String("png")) {
            const QImage image(path);
            QCOMPARE(image.size(), QSize(1000, 600));
        }
        if (suffix == QLatin1String("svg")) {
            // Text stays text: the legend's names are in the file.
            QVERIFY(bytes.contains(segmentName(MemorySegment::Activations).toUtf8()));
        }
        QVERIFY(!view.exportTo(dir.filePath(QStringLiteral("memory.bmpx"))));
    }

    void saveLoadRoundTrip()
    {
        PlanDocument doc;
        QVERIFY(loadAndWait(doc, samplePlan("default.plan.json")));
        QVERIFY(!doc.isModified());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("copy.plan.json"));
        QVERIFY2(doc.save(path), qPrintable(doc.errorString()));
        QCOMPARE(doc.filePath(), path);
        // Atomic: the finished file and nothing else (no leftover temporary).
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { QStringLiteral("copy.plan.json") });

        const QByteArray text = readAll(path);
        auto parsed = parsePlan(text.toStdString());
        QVERIFY(parsed.ok());
        QVERIFY(parsed->plan == doc.plan());

        PlanDocument again;
        QVERIFY(loadAndWait(again, path));
        QVERIFY(again.plan() == doc.plan());
        QCOMPARE(*again.prediction(), *doc.prediction());
    }

    void malformedFileReportsOffset_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("truncated") << QByteArray("{\n  \"schema\": \"planscope/plan/v1\",\n  \"name\": ");
        QTest::newRow("bare word") << QByteArray("{\"schema\": \"planscope/plan/v1\", oops: 1}");
        QTest::newRow("trailing comma") << QByteArray("{\"schema\": \"planscope/plan/v1\",}");
    }
    void malformedFileReportsOffset()
    {
        QFETCH(QByteArray, text);
        const auto direct = parsePlan(text.toStdString());
        QVERIFY(!direct.ok());
        const std::int64_t offset = direct.errors().front().offset;
        QVERIFY(offset > 0);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.plan.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();

        PlanDocument doc;
        SummaryPage page;
        page.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(!doc.load(path));
        QVERIFY2(
            doc.errorString().contains(QStringLiteral("byte %1").arg(offset)), qPrintable(doc.errorString()));
        QCOMPARE(spy.count(), 1);
        QVERIFY(!doc.prediction()->valid);
        QVERIFY(page.issueList()->count() >= 1);
        QVERIFY(page.issueList()->item(0)->text().contains(QStringLiteral("byte %1").arg(offset)));
        QCOMPARE(page.issueList()->item(0)->foreground().color(), palette::alarm());
    }

    void invalidPlanShowsFieldPath()
    {
        Plan plan = test::loadSample("default.plan.json");
        plan.parallel.tp = 3; // 32 heads do not split over 3 GPUs, and 2*3*4 != 16
        const Prediction expected = evaluate(plan);
        QVERIFY(!expected.valid);
        QVERIFY(!expected.errors.empty());

        PlanDocument doc;
        SummaryPage page;
        MemoryBarsView bars;
        page.setDocument(&doc);
        bars.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        doc.setPlan(plan);
        QVERIFY(waitForPrediction(spy));
        QVERIFY(doc.isModified());
        QCOMPARE(doc.prediction()->errors, expected.errors);
        QCOMPARE(bars.stageCount(), 0);
        for (std::size_t i = 0; i < expected.errors.size(); ++i) {
            const QString shown = page.issueList()->item(int(i))->text();
            QVERIFY2(shown.contains(QString::fromStdString(expected.errors[i].path)), qPrintable(shown));
            QVERIFY(shown.contains(QString::fromStdString(expected.errors[i].message)));
        }
        QVERIFY(page.findField(QString::fromStdString(expected.errors.front().path)));
    }

    // An edit undone back to the plan the file holds leaves nothing to save: the title loses its "*".
    void backToTheSavedPlanIsNotModified()
    {
        PlanDocument doc;
        QVERIFY(loadAndWait(doc, samplePlan("default.plan.json")));
        const Plan saved = doc.plan();
        QSignalSpy modified(&doc, &PlanDocument::modifiedChanged);
        Plan edited = saved;
        edited.training.globalBatch *= 2;
        QVERIFY(setPlanAndWait(doc, edited));
        QVERIFY(doc.isModified());
        QVERIFY(setPlanAndWait(doc, saved));
        QVERIFY(!doc.isModified());
        QCOMPARE(modified.count(), 2);
    }

    void autosaveWritesEveryChange()
    {
        PlanDocument doc;
        QVERIFY(loadAndWait(doc, samplePlan("default.plan.json")));
        QFile::remove(doc.autosavePath());
        doc.setAutosaveInterval(20);
        Plan plan = doc.plan();
        plan.training.globalBatch = 128;
        QSignalSpy saved(&doc, &PlanDocument::autosaved);
        doc.setPlan(plan);
        QVERIFY(saved.wait(5000));
        QCOMPARE(saved.front().front().toString(), doc.autosavePath());
        auto back = loadPlanFile(QFile::encodeName(doc.autosavePath()).toStdString());
        QVERIFY(back.ok());
        QVERIFY(back->plan == plan);
        QCOMPARE(back->plan.training.globalBatch, std::int64_t(128));
    }

    void chineseTranslation_data()
    {
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("chinese");
        QTest::newRow("activations") << QStringLiteral("MemorySegments") << QStringLiteral("Activations")
                                     << QStringLiteral("激活值");
        QTest::newRow("optimizer") << QStringLiteral("MemorySegments") << QStringLiteral("Optimizer states")
                                   << QStringLiteral("优化器状态");
        QTest::newRow("memory group")
            << QStringLiteral("planscope::SummaryPage") << QStringLiteral("Memory per GPU, by pipeline stage")
            << QStringLiteral("每个 GPU 的显存（按流水线阶段）");
        QTest::newRow("bubble") << QStringLiteral("planscope::SummaryPage")
                                << QStringLiteral("Bubble fraction") << QStringLiteral("气泡占比");
    }
    void chineseTranslation()
    {
        QFETCH(QString, context);
        QFETCH(QString, source);
        QFETCH(QString, chinese);
        QTranslator translator;
        QVERIFY(translator.load(LanguageManager::translationResource(QStringLiteral("zh_CN"))));
        QCOMPARE(translator.translate(context.toUtf8().constData(), source.toUtf8().constData()), chinese);
    }

    void languageSwitchRetranslates()
    {
        SummaryPage page;
        const auto analysis = analyseSample("default.plan.json");
        page.setAnalysis(analysis);
        QCOMPARE(page.tree()->topLevelItem(0)->text(0), QStringLiteral("Parameters"));

        LanguageManager languages;
        QVERIFY(!languages.setLanguage(QStringLiteral("xx_XX")));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents();
        QCOMPARE(page.tree()->topLevelItem(0)->text(0), QStringLiteral("参数"));
        QCOMPARE(segmentName(MemorySegment::Weights), QStringLiteral("权重"));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCoreApplication::processEvents();
        QCOMPARE(page.tree()->topLevelItem(0)->text(0), QStringLiteral("Parameters"));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestWidgets)

#include "tst_widgets.moc"
