// The compare page: its headline table holds, for each plan, the figures `planscope-cli evaluate PLAN` prints and
// the rows core's compareRows() makes of the two analyses (docs/FORMATS.md section 8); the best is the lower step
// time, every other value is shown as value / best; plan A follows the document's edits; unreadable files and a fifth
// plan are refused with the reason while the plans shown stay; the page renders headless, also through
// `planscope --compare`, and speaks Chinese under zh_CN.
#include "GuiTestMain.h"
#include "CliRunner.h"
#include "ImageUtil.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "LanguageManager.h"
#include "analysis/Analysis.h"
#include "analysis/PlanCompare.h"
#include "charts/MemoryBarsView.h"
#include "document/PlanDocument.h"
#include "io/PlanJson.h"
#include <qcustomplot.h>
#include "ElidedLabel.h"
#include "pages/ComparePage.h"
#include "timeline/TimelineView.h"

#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

using namespace planscope;
using namespace planscope::test;
using nlohmann::json;

namespace {

// Two plans of GPT-3 175B with different pipeline depths (pp 8 on 256 GPUs, pp 16 with 2 chunks on 1024 GPUs).
const QString kPlanA = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-175b-256xa100.plan.json");
const QString kPlanB = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/gpt3-175b-1024xa100.plan.json");
const QString kPlanC = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/gpt3-175b-64xa100-search.plan.json");
const QString kPlanD = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json");

json evaluateWithCli(const QString& path)
{
    const test::CliRun run = test::runCli({ QStringLiteral("evaluate"), path });
    if (run.code != 0) return json();
    return json::parse(run.out);
}

std::shared_ptr<const Analysis> analyseFile(const QString& path)
{
    auto loaded = loadPlanFile(QFile::encodeName(path).toStdString());
    if (!loaded) return nullptr;
    AnalysisOptions options;
    options.inputWarnings = loaded->warnings;
    return analyse(loaded->plan, options);
}

double cellValue(const ComparePage& page, const char* field, int plan)
{
    const int row = page.tableRow(QLatin1String(field));
    QTableWidgetItem* item = row >= 0 ? page.table()->item(row, 1 + plan) : nullptr;
    return item ? item->data(Qt::UserRole).toDouble() : -1;
}

} // namespace

class TestComparePage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Names and labels are never cut silently: a label shows the whole name where it fits, else both ends with an ellipsis in
    // the middle, and the whole name on hover; the page's plan captions are such labels.
    void namesAndLabelsAreNeverCutSilently()
    {
        ElidedLabel label;
        const QString name = QStringLiteral("DeepSeek-V3 on 1,024 x H100, FP8, PP 8 x VP 4, EP 64 (Megatron-Core)");
        label.setFullText(name);
        label.resize(QFontMetrics(label.font()).horizontalAdvance(name) + 10, 20);
        QCOMPARE(label.shownText(), name);
        label.resize(120, 20);
        const QString shown = label.shownText();
        QVERIFY(shown.contains(QChar(0x2026)));
        QVERIFY2(shown.startsWith(name.left(3)) && shown.endsWith(name.right(3)), qPrintable(shown));
        QVERIFY(QFontMetrics(label.font()).horizontalAdvance(shown) <= 120);
        QCOMPARE(label.toolTip(), name);

        ComparePage page; // two files, no open plan
        QVERIFY(page.addPlanFile(kPlanA) && page.addPlanFile(kPlanB));
        page.waitForAnalyses();
        const QList<ElidedLabel*> captions = page.findChildren<ElidedLabel*>();
        QVERIFY(captions.size() >= 6); // a chip, a memory and a grid caption per plan
        // Each caption is a plan's letter and whole name, and both files' names are there (as the chips, the memory
        // and the grid captions).
        int named = 0;
        for (const ElidedLabel* c : captions) {
            QVERIFY2(c->fullText().size() > 3 && c->fullText().at(0).isUpper() && c->fullText().mid(1, 2) == QLatin1String(": "),
                qPrintable(c->fullText()));
            named += c->fullText().contains(QLatin1String("GPT-3 175B on 1024 x A100-80GB")) ? 1 : 0;
        }
        QVERIFY(named >= 3);

        // On the one memory scale the charts share, no stage's label reaches past the top of its chart: one that
        // would is left out, never cut or drawn over the title (DeepSeek-V3's 59 GiB beside Llama 3 405B's 79 GiB).
        ComparePage pair;
        pair.resize(1386, 900);
        QVERIFY(pair.addPlanFile(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/deepseek-v3-1024xh100-fp8.plan.json")));
        QVERIFY(pair.addPlanFile(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/llama3-405b-16k-h100.plan.json")));
        pair.waitForAnalyses();
        pair.grab();
        for (int i = 0; i < pair.planCount(); ++i) {
            MemoryBarsView* memory = pair.memoryView(i);
            if (!memory) continue;
            const QRect area = memory->plot()->axisRect()->rect();
            for (const QRectF& r : memory->barLabelRects())
                QVERIFY2(r.top() >= area.top() - 1, qPrintable(QStringLiteral("plan %1: a label from %2 above a top at %3").arg(i).arg(r.top()).arg(area.top())));
        }
    }

    void tableHoldsTheCommandLinesFigures()
    {
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, kPlanA));
        QVERIFY(page.addPlanFile(kPlanB));
        QCOMPARE(page.planCount(), 2);
        page.waitForAnalyses();
        QVERIFY(page.analysis(0) && page.analysis(1));
        QVERIFY(page.analysis(0)->valid() && page.analysis(1)->valid());

        // Each column equals what `planscope-cli evaluate` prints for its file.
        const json a = evaluateWithCli(kPlanA), b = evaluateWithCli(kPlanB);
        QVERIFY(a.is_object() && b.is_object());
        int plan = 0;
        for (const json* j : { &a, &b }) {
            QCOMPARE(cellValue(page, "time.stepSeconds", plan), (*j)["time"]["stepSeconds"].get<double>());
            QCOMPARE(cellValue(page, "time.tokensPerSecond", plan), (*j)["time"]["tokensPerSecond"].get<double>());
            QCOMPARE(cellValue(page, "memory.peakBytes", plan), (*j)["memory"]["peakBytes"].get<double>());
            ++plan;
        }

        // ... and the rows core's compareRows() makes of the two analyses, run here on their own.
        const auto ra = analyseFile(kPlanA), rb = analyseFile(kPlanB);
        QVERIFY(ra && rb);
        const std::vector<CompareRow> rows = compareRows({ &ra->prediction, &rb->prediction });
        QCOMPARE(page.rows().size(), rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r) {
            QCOMPARE(page.rows()[r].field, rows[r].field);
            QCOMPARE(page.rows()[r].best, rows[r].best);
            QCOMPARE(page.rows()[r].values, rows[r].values);
            QVERIFY(page.tableRow(QString::fromStdString(rows[r].field)) >= 0);
        }

        // The best step is the lower one; the other value is shown as value / best, with its factor.
        const double stepA = a["time"]["stepSeconds"].get<double>(), stepB = b["time"]["stepSeconds"].get<double>();
        QVERIFY(stepA != stepB);
        const int best = stepA < stepB ? 0 : 1, other = 1 - best;
        const int stepRow = page.tableRow(QStringLiteral("time.stepSeconds"));
        QTableWidgetItem* bestCell = page.table()->item(stepRow, 1 + best);
        QTableWidgetItem* otherCell = page.table()->item(stepRow, 1 + other);
        QCOMPARE(bestCell->toolTip(), QStringLiteral("best"));
        QVERIFY(bestCell->font().bold());
        QVERIFY(bestCell->background().style() != Qt::NoBrush);
        QVERIFY(!otherCell->font().bold());
        QCOMPARE(otherCell->background().style(), Qt::NoBrush);
        const double factor = std::max(stepA, stepB) / std::min(stepA, stepB);
        QCOMPARE(otherCell->data(Qt::UserRole + 1).toDouble(), factor);
        QVERIFY2(otherCell->text().contains(QString::number(factor, 'f', 2) + QStringLiteral("×")), qPrintable(otherCell->text()));
        // Units on the cells: seconds scaled like the other pages, memory in GiB.
        QVERIFY(bestCell->text().endsWith(QLatin1String(" s")) || bestCell->text().endsWith(QLatin1String(" ms")));
        const int peakRow = page.tableRow(QStringLiteral("memory.peakBytes"));
        QVERIFY(page.table()->item(peakRow, 1)->text().contains(QLatin1String("GiB")));
        // The why line names the faster plan and one of the step's terms.
        QVERIFY2(page.whyText().startsWith(QStringLiteral("%1 is faster than %2").arg(QChar(u'A' + best)).arg(QChar(u'A' + other))),
            qPrintable(page.whyText()));

        // One time axis: the longer step sets it for both timelines; one memory scale for both charts.
        QCOMPARE(page.sharedTimeSpan(), std::max(page.analysis(0)->timeline->stepSeconds, page.analysis(1)->timeline->stepSeconds));
        QCOMPARE(page.timelineView(0)->headerWidth(), page.timelineView(1)->headerWidth());
        QVERIFY(page.sharedMemoryMaximumGiB() >= page.memoryView(0)->naturalMaximumGiB());
        QVERIFY(page.sharedMemoryMaximumGiB() >= page.memoryView(1)->naturalMaximumGiB());
    }

    // One plan, one answer: the Mixtral 8x22B sample with expert TP 1 as the document and with 2 beside it, then the
    // other way round on the same page, each column equal to what `planscope-cli evaluate` prints for its file alone
    // (another process, so nothing else was analysed before it).
    void eachColumnIsItsPlanAlone()
    {
        QTemporaryDir dir;
        const test::PlanPair pair = test::writeExpertTpPair(dir.path());
        const std::map<QString, json> alone { { pair.etp1, evaluateWithCli(pair.etp1) }, { pair.etp2, evaluateWithCli(pair.etp2) } };
        QVERIFY(alone.at(pair.etp1)["time"]["stepSeconds"] != alone.at(pair.etp2)["time"]["stepSeconds"]);
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        for (const auto& [first, second] : { std::pair { pair.etp1, pair.etp2 }, std::pair { pair.etp2, pair.etp1 } }) {
            QVERIFY(loadAndWait(doc, first));
            page.clearAddedPlans();
            QVERIFY(page.addPlanFile(second));
            page.waitForAnalyses();
            QTRY_VERIFY_WITH_TIMEOUT(page.analysis(0) && page.analysis(0)->plan == doc.plan(), 60000);
            int plan = 0;
            for (const QString& file : { first, second }) {
                const json& j = alone.at(file);
                QCOMPARE(cellValue(page, "time.stepSeconds", plan), j["time"]["stepSeconds"].get<double>());
                QCOMPARE(cellValue(page, "time.tokensPerSecond", plan), j["time"]["tokensPerSecond"].get<double>());
                QCOMPARE(cellValue(page, "memory.peakBytes", plan), j["memory"]["peakBytes"].get<double>());
                QCOMPARE(page.analysis(plan)->prediction.stepSeconds, j["time"]["stepSeconds"].get<double>());
                ++plan;
            }
        }
    }

    void followsTheDocumentsEdits()
    {
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, kPlanA));
        QVERIFY(page.addPlanFile(kPlanC));
        page.waitForAnalyses();
        const double before = cellValue(page, "time.stepSeconds", 0);
        QCOMPARE(before, doc.prediction()->stepSeconds);

        // Twice the global batch: twice the microbatches, a new analysis, a new column A.
        Plan plan = doc.plan();
        const std::int64_t microbatches = plan.microbatches();
        plan.training.globalBatch *= 2;
        QCOMPARE(plan.microbatches(), 2 * microbatches);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        doc.setPlan(plan);
        QVERIFY(spy.wait(120000));
        QCOMPARE(doc.prediction()->microbatches, 2 * microbatches);
        QCOMPARE(cellValue(page, "time.stepSeconds", 0), doc.prediction()->stepSeconds);
        QCOMPARE(cellValue(page, "memory.peakBytes", 0), double(doc.prediction()->peakBytes));
        QVERIFY(cellValue(page, "time.stepSeconds", 0) != before);
        const auto rc = analyseFile(kPlanC);
        const std::vector<CompareRow> rows = compareRows({ &doc.analysis()->prediction, &rc->prediction });
        QCOMPARE(page.rows()[0].values, rows[0].values);
        QCOMPARE(page.rows()[0].best, rows[0].best);
    }

    void unreadableFilesAreRefusedWithTheReason()
    {
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, kPlanA));
        QVERIFY(page.addPlanFile(kPlanC));
        page.waitForAnalyses();
        const auto kept = page.analysis(1);

        QTemporaryDir dir;
        QString error;
        const QString missing = dir.filePath(QStringLiteral("missing.plan.json"));
        QVERIFY(!page.addPlanFile(missing, &error));
        QVERIFY2(error.contains(QLatin1String("missing.plan.json")), qPrintable(error));
        QCOMPARE(page.message(), error);

        // Broken JSON: the reader's byte offset.
        const QString broken = dir.filePath(QStringLiteral("broken.plan.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ \"schema\": \"planscope/plan/v1\", \"parallel\": { \"tp\": 8, ");
        f.close();
        QVERIFY(!page.addPlanFile(broken, &error));
        QVERIFY2(error.contains(QLatin1String("broken.plan.json")) && error.contains(QLatin1String("byte")), qPrintable(error));

        // A wrong type: the field's path.
        const QString wrong = dir.filePath(QStringLiteral("wrong.plan.json"));
        QFile g(wrong);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(R"({ "schema": "planscope/plan/v1", "model": { "preset": "gpt3-175b" },
                     "cluster": { "gpu": "a100-sxm4-80gb", "nodes": 8, "gpusPerNode": 8 },
                     "parallel": { "tp": "eight", "pp": 8, "dp": 1 }, "training": { "globalBatch": 64 } })");
        g.close();
        QVERIFY(!page.addPlanFile(wrong, &error));
        QVERIFY2(error.contains(QLatin1String("parallel.tp")), qPrintable(error));

        // The plans shown stayed as they were.
        QCOMPARE(page.planCount(), 2);
        QCOMPARE(page.analysis(1), kept);
        QCOMPARE(page.table()->columnCount(), 3);
        // A success clears the message.
        QVERIFY(page.addPlanFile(kPlanD));
        QVERIFY(page.message().isEmpty());
        page.waitForAnalyses();
    }

    void aFifthPlanIsRefused()
    {
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, kPlanD));
        QVERIFY(page.addPlanFile(kPlanA));
        QVERIFY(page.addPlanFile(kPlanC));
        QVERIFY(page.addPlanFile(kPlanD));
        QCOMPARE(page.planCount(), ComparePage::kMaxPlans);
        QVERIFY(!page.addButton()->isEnabled());
        QString error;
        QVERIFY(!page.addPlanFile(kPlanB, &error));
        QVERIFY2(error.contains(QString::number(ComparePage::kMaxPlans)), qPrintable(error));
        QVERIFY(!page.addPlan(doc.plan(), QStringLiteral("another"), &error));
        QCOMPARE(page.planCount(), ComparePage::kMaxPlans);
        page.waitForAnalyses();
        QCOMPARE(page.table()->columnCount(), 1 + ComparePage::kMaxPlans);
        // Removing one makes room again.
        page.removePlan(2);
        QCOMPARE(page.planCount(), 3);
        QCOMPARE(page.planFile(2), QFileInfo(kPlanD).absoluteFilePath());
        QVERIFY(page.addButton()->isEnabled());
    }

    void rendersHeadless()
    {
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, kPlanA));
        QVERIFY(page.addPlanFile(kPlanB));
        page.waitForAnalyses();
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("compare.png"));
        QString error;
        QVERIFY2(page.exportTo(png, QSize(1400, 900), &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), 1400);
        QVERIFY(image.height() >= 900);
        QVERIFY(test::distinctColours(image) > 8);
        const QString svg = dir.filePath(QStringLiteral("compare.svg"));
        QVERIFY2(page.exportTo(svg, QSize(1400, 900), &error), qPrintable(error));
        QVERIFY(QFileInfo(svg).size() > 0);
    }

    void theAppRendersACompareScreenshot()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("x.png"));
        QProcess p;
        p.start(QStringLiteral(PLANSCOPE_GUI), { QStringLiteral("--plan"), kPlanA, QStringLiteral("--compare"), kPlanB,
                                                   QStringLiteral("--view"), QStringLiteral("compare"),
                                                   QStringLiteral("--screenshot"), png });
        QVERIFY(p.waitForFinished(240000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(test::distinctColours(image) > 8);

        // A file that cannot be read: the reason on stderr and exit 2.
        const QString missing = dir.filePath(QStringLiteral("nothing.plan.json"));
        QProcess q;
        q.start(QStringLiteral(PLANSCOPE_GUI), { QStringLiteral("--plan"), kPlanA, QStringLiteral("--compare"), missing,
                                                   QStringLiteral("--view"), QStringLiteral("compare"),
                                                   QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("y.png")) });
        QVERIFY(q.waitForFinished(240000));
        QCOMPARE(q.exitCode(), 2);
        QVERIFY(QString::fromLocal8Bit(q.readAllStandardError()).contains(QLatin1String("nothing.plan.json")));
    }

    void speaksChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        PlanDocument doc;
        ComparePage page;
        page.setDocument(&doc);
        QVERIFY(loadAndWait(doc, kPlanA));
        QVERIFY(page.addPlanFile(kPlanC));
        page.waitForAnalyses();
        auto chinese = [](const QString& s) {
            return std::any_of(s.begin(), s.end(), [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
        };
        QVERIFY2(chinese(page.pageTitle()), qPrintable(page.pageTitle()));
        QVERIFY2(chinese(page.table()->horizontalHeaderItem(0)->text()), qPrintable(page.table()->horizontalHeaderItem(0)->text()));
        const int stepRow = page.tableRow(QStringLiteral("time.stepSeconds"));
        QVERIFY2(chinese(page.table()->item(stepRow, 0)->text()), qPrintable(page.table()->item(stepRow, 0)->text()));
        QVERIFY2(chinese(page.addButton()->text()), qPrintable(page.addButton()->text()));
        QVERIFY2(chinese(page.whyText()), qPrintable(page.whyText()));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCOMPARE(page.pageTitle(), QStringLiteral("Compare"));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestComparePage)
#include "tst_compare_page.moc"
