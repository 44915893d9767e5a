// The planner page (widgets/pages/PlannerPage): its search is core's search() of the open plan's space (the table
// holds the same best plans, the scatter the same sampled points), "Open this plan" is one undo step of the editor,
// a cancelled or abandoned search leaves the page idle and safe, core's reasons and terms read in Chinese under
// zh_CN, the cluster-size table is core's sizeCluster() of the search, and `planscope --view planner --screenshot`
// draws a finished search.
#include "GuiTestMain.h"
#include "CliRunner.h"
#include "ImageUtil.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "CoreText.h"
#include "Format.h"
#include "Theme.h"
#include "LanguageManager.h"
#include "charts/FieldScientificSpinBox.h"
#include "charts/PlannerScatter.h"
#include "document/PlanDocument.h"
#include "io/PlanJson.h"
#include "pages/PlanEditorPage.h"
#include "pages/PlannerPage.h"
#include "search/Search.h"
#include "util/Units.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLineF>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <qcustomplot.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>
#include <memory>

using namespace planscope;
using namespace planscope::test;

namespace {

// Every knob the page offers: core's table but the GPU counts (their own line).
std::vector<Knob> allKnobs()
{
    std::vector<Knob> out;
    for (const KnobInfo& i : knobTable())
        if (i.knob != Knob::Gpus) out.push_back(i.knob);
    return out;
}

// Ticks exactly `knobs` on the page.
void tick(PlannerPage& page, std::initializer_list<Knob> knobs)
{
    for (Knob k : allKnobs()) page.knobCheck(k)->setChecked(std::find(knobs.begin(), knobs.end(), k) != knobs.end());
}

// Runs the page's search and waits for its end (no time is asserted: the wait is only a bound for a hung test).
bool searchAndWait(PlannerPage& page)
{
    QSignalSpy done(&page, &PlannerPage::searchFinished);
    if (!page.startSearch()) return false;
    return done.wait(300000) || done.count() > 0;
}

double cellKey(const QTableWidget* table, int row, int column)
{
    return table->item(row, column)->data(Qt::UserRole).toDouble();
}

bool hasCjk(const QString& s)
{
    for (QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

// The best plans' columns, as PlannerPage lays them out.
enum { cRank, cGpus, cDp, cTp, cPp, cCp, cEp, cVpp, cSp, cZero, cMicroBatch, cRecompute, cSchedule, cOverlap, cOffload,
    cStep, cTokens, cMfu, cPeak, cEvidence };

} // namespace

class TestPlannerPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The default knobs are the command line's; overlap and offload are not ticked.
    void defaultKnobsAreTicked()
    {
        PlannerPage page;
        std::vector<Knob> expected = defaultKnobs();
        std::vector<Knob> chosen = page.chosenKnobs();
        std::sort(expected.begin(), expected.end());
        std::sort(chosen.begin(), chosen.end());
        QVERIFY(chosen == expected);
        QVERIFY(!page.knobCheck(Knob::Overlap)->isChecked());
        QVERIFY(!page.knobCheck(Knob::Offload)->isChecked());
        std::vector<int> gpus { 1 };
        QVERIFY(page.chosenGpus(&gpus));
        QVERIFY(gpus.empty()); // empty line: the plan's cluster
        page.gpuCountsEdit()->setText(QStringLiteral("64, 128,256"));
        QVERIFY(page.chosenGpus(&gpus));
        QCOMPARE(gpus, (std::vector<int> { 64, 128, 256 }));
        QVERIFY(page.searchOptions().threads >= 1);
    }

    // The table, the scatter and the counts are core's search() of the same space with the same options.
    void tableAndScatterAreCoreSearch()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch, Knob::Schedule, Knob::Zero });
        page.topChoice()->setValue(7);
        QVERIFY(searchAndWait(page));
        QVERIFY(!page.isRunning());
        const auto result = page.result();
        QVERIFY(result && !result->cancelled);

        const Result<SearchSpace> space = buildSpace(doc.plan(), { Knob::TP, Knob::PP, Knob::MicroBatch, Knob::Schedule, Knob::Zero });
        QVERIFY(space.ok());
        SearchOptions options;
        options.top = 7;
        options.threads = 1;
        const SearchResult expected = search(space.value(), options);
        QCOMPARE(result->plans, expected.plans);
        QCOMPARE(result->valid, expected.valid);
        QCOMPARE(result->fit, expected.fit);
        QVERIFY(expected.best.size() == 7);

        const QTableWidget* table = page.bestTable();
        QCOMPARE(table->rowCount(), int(expected.best.size()));
        for (int row = 0; row < table->rowCount(); ++row) {
            const SearchEntry& e = expected.best[std::size_t(row)];
            QCOMPARE(cellKey(table, row, cRank), double(row + 1));
            QCOMPARE(cellKey(table, row, cStep), e.stepSeconds);
            QCOMPARE(cellKey(table, row, cPeak), double(e.peakBytes));
            QCOMPARE(cellKey(table, row, cGpus), double(e.candidate.gpus));
            QCOMPARE(cellKey(table, row, cDp), double(e.candidate.dp));
            QCOMPARE(cellKey(table, row, cTp), double(e.candidate.tp));
            QCOMPARE(cellKey(table, row, cPp), double(e.candidate.pp));
            QCOMPARE(cellKey(table, row, cZero), double(e.candidate.zero));
            QCOMPARE(cellKey(table, row, cMicroBatch), double(e.candidate.microBatch));
            QCOMPARE(table->item(row, cSchedule)->text(), QString::fromStdString(std::string(toString(e.candidate.schedule))));
            QCOMPARE(table->item(row, cRecompute)->text(), QString::fromStdString(e.candidate.recompute.label()));
        }
        QVERIFY(!expected.points.empty());
        QCOMPARE(page.scatter()->pointCount(), int(expected.points.size()));
        QCOMPARE(page.scatter()->pointCount(), int(result->points.size()));
        // One colour per tp value of the sampled points.
        QSet<int> tps;
        for (const SearchPoint& p : expected.points) tps.insert(candidateAt(space.value(), p.index).tp);
        QCOMPARE(page.scatter()->colourKey().size(), int(tps.size()));

        // Rejections: one row per reason, most plans first.
        const QTableWidget* rejected = page.rejectedTable();
        QCOMPARE(rejected->rowCount(), int(expected.rejected.size()));
        double previous = 1e300, total = 0;
        for (int row = 0; row < rejected->rowCount(); ++row) {
            const std::string reason = rejected->item(row, 0)->text().toStdString();
            QVERIFY2(expected.rejected.count(reason), reason.c_str());
            const double n = expected.rejected.at(reason);
            QVERIFY(n <= previous);
            previous = n;
            total += n;
        }
        // Every plan is valid or turned away for one reason (out of memory among them).
        QCOMPARE(total + expected.fit, expected.plans);
        // The summary names the counts.
        QVERIFY(page.summaryLabel()->text().contains(QLocale().toString(qlonglong(expected.plans))));
    }

    // Plans beyond published evidence (search/Evidence.h): on the GPT-3 175B A100 sample, each listed plan whose MFU
    // is above the best a published run of 100B parameters or more reached on A100 in bf16 (samples/published/
    // mfu-ceilings.json, read here) says "beyond: MFU" in its evidence column with its MFU in the alarm colour; the
    // others say "within". The scatter shades the region left of the step time that MFU takes, for each GPU count:
    // model FLOPs per step / (GPUs x the bf16 dense peak x the ceiling), from evaluate() of a plan of that count.
    void plansBeyondPublishedEvidenceAreMarked()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "gpt3-175b-64xa100-search.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch, Knob::Recompute });
        page.gpuCountsEdit()->setText(QStringLiteral("64,128"));
        page.topChoice()->setValue(12);
        QVERIFY(searchAndWait(page));
        const auto result = page.result();
        QVERIFY(result && !result->best.empty());

        std::ifstream in(std::string(PLANSCOPE_SAMPLES_DIR) + "/published/mfu-ceilings.json");
        const nlohmann::json file = nlohmann::json::parse(in);
        double ceiling = 0;
        for (const nlohmann::json& c : file["ceilings"])
            if (c["gpu"] == "a100-sxm4-80gb" && c["precision"] == "bf16") ceiling = c["largeModel"]["mfu"].get<double>();
        QVERIFY(ceiling > 0);

        const QTableWidget* table = page.bestTable();
        QVERIFY(!table->isColumnHidden(cEvidence));
        int beyond = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const SearchEntry& e = result->best[std::size_t(cellKey(table, row, cRank)) - 1];
            const bool above = e.mfu > ceiling;
            const bool tight = double(e.capacityBytes - e.peakBytes) < 0.06 * double(e.capacityBytes);
            QVERIFY(!tight); // the planner's own headroom is the same 6 %: nothing listed is tight
            QCOMPARE(table->item(row, cEvidence)->text(), above ? QStringLiteral("beyond: MFU") : QStringLiteral("within"));
            QCOMPARE(table->item(row, cMfu)->foreground().color() == Theme::alarmText(), above);
            QCOMPARE(table->item(row, cMfu)->toolTip().contains(QStringLiteral("above the best a published run")), above);
            QVERIFY(table->item(row, cEvidence)->toolTip().contains(QStringLiteral("1T GPT")));
            beyond += above ? 1 : 0;
        }
        if (beyond > 0) QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("beyond published evidence")));
        QVERIFY(page.summaryLabel()->text().contains(display::percent(ceiling)));

        // The bands: one per GPU count with a fitting plan, at the ceiling's step time.
        const std::vector<PlannerScatter::MfuBand> bands = page.scatter()->mfuBands();
        int counts = 0;
        for (const auto& g : result->byGpus) {
            if (!g.fastest) continue;
            ++counts;
            const Prediction pr = evaluate(applyCandidate(result->space.templ, g.fastest->candidate));
            QVERIFY(pr.valid);
            const double expected = pr.modelFlopsPerStep / (double(g.gpus) * 312e12 * ceiling); // A100 bf16 dense: 312 TFLOP/s
            const auto band = std::find_if(bands.begin(), bands.end(), [&](const auto& b) { return b.gpus == g.gpus; });
            QVERIFY(band != bands.end());
            QVERIFY2(std::abs(band->stepSeconds / expected - 1) < 1e-9, qPrintable(QString::number(band->stepSeconds)));
        }
        QCOMPARE(int(bands.size()), counts);
        QVERIFY(counts >= 1);
        const QStringList regions = page.scatter()->evidenceRegions();
        QVERIFY(regions.size() == counts + 1);
        QVERIFY(regions.front().contains(QString::number(100 * ceiling, 'f', 1)));
        QVERIFY(regions.back().contains(QStringLiteral("6 %")));

        // Every legend entry whole and inside the chart, the legend right of a wide chart and under a narrow one.
        PlannerScatter alone;
        PlannerScatter* scatter = &alone;
        scatter->setResult(result);
        scatter->setAttribute(Qt::WA_DontShowOnScreen);
        for (const int width : { 1200, 460 }) {
            scatter->resize(width, 520);
            scatter->show();
            QApplication::processEvents();
            scatter->plot()->replot();
            QCOMPARE(scatter->legendBelow(), width < 700);
            QCPLegend* legend = scatter->plot()->legend;
            QVERIFY(legend->itemCount() >= 10);
            for (int i = 0; i < legend->itemCount(); ++i) {
                QCPAbstractLegendItem* item = legend->item(i);
                if (!item) continue;
                QVERIFY2(scatter->plot()->rect().contains(item->outerRect()), qPrintable(QString::number(i)));
                QVERIFY(item->outerRect().width() + 1 >= item->minimumOuterSizeHint().width());
            }
            QVERIFY(scatter->plot()->axisRect()->width() >= 300);
        }
    }

    // Numbers sort as numbers: by peak memory (bytes), not by the text "9.5 GiB" before "10 GiB".
    // One plan, one answer: the planner's best plans for the Mixtral 8x22B sample with expert TP 1, searched after the
    // document analysed it with expert TP 2, and then the other way round, show for each row the step and the peak
    // memory that `planscope-cli evaluate` prints for that plan alone (in another process).
    void bestPlansAreEachPlanAlone()
    {
        QTemporaryDir dir;
        const test::PlanPair pair = test::writeExpertTpPair(dir.path());
        PlanDocument doc;
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch });
        page.topChoice()->setValue(3);
        int checked = 0;
        for (const auto& [before, searched] : { std::pair { pair.etp2, pair.etp1 }, std::pair { pair.etp1, pair.etp2 } }) {
            for (const QString& file : { before, searched }) {
                QSignalSpy ready(&doc, &PlanDocument::predictionChanged);
                QVERIFY(doc.load(file));
                QVERIFY(ready.count() > 0 || ready.wait(60000));
            }
            QVERIFY(searchAndWait(page));
            const auto result = page.result();
            QVERIFY(result && !result->best.empty());
            const QTableWidget* table = page.bestTable();
            for (int row = 0; row < table->rowCount(); ++row) {
                const SearchEntry& e = result->best[std::size_t(row)];
                const QString planFile = dir.filePath(QStringLiteral("best-%1.plan.json").arg(checked));
                {
                    QFile out(planFile);
                    QVERIFY(out.open(QIODevice::WriteOnly));
                    out.write(QByteArray::fromStdString(serializePlan(applyCandidate(result->space.templ, e.candidate))));
                }
                QStringList args { QStringLiteral("evaluate"), planFile };
                if (e.source == "analytic") args << QStringLiteral("--analytic");
                const test::CliRun r = test::runCli(args);
                QVERIFY2(r.code == 0, r.err.c_str());
                const nlohmann::json alone = nlohmann::json::parse(r.out);
                QCOMPARE(cellKey(table, row, cStep), alone["time"]["stepSeconds"].get<double>());
                QCOMPARE(cellKey(table, row, cPeak), alone["memory"]["peakBytes"].get<double>());
                ++checked;
            }
        }
        QVERIFY(checked >= 4);
    }

    void columnsSortNumerically()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch, Knob::Zero, Knob::Recompute });
        page.topChoice()->setValue(40);
        QVERIFY(searchAndWait(page));
        QTableWidget* table = page.bestTable();
        QVERIFY(table->rowCount() > 10);
        for (int column : { int(cPeak), int(cTokens), int(cStep), int(cMicroBatch) }) {
            table->sortByColumn(column, Qt::AscendingOrder);
            for (int row = 1; row < table->rowCount(); ++row)
                QVERIFY(cellKey(table, row - 1, column) <= cellKey(table, row, column));
        }
        // A row still names its plan after sorting: selecting it selects the plan of its rank.
        table->sortByColumn(cPeak, Qt::DescendingOrder);
        page.selectRow(0);
        const int rank = int(cellKey(table, 0, cRank));
        QVERIFY(page.selectedCandidate() == page.result()->best[std::size_t(rank - 1)].candidate);
    }

    // "Open this plan" through the editor is one undo step: the document holds applyCandidate(...), Undo gives the
    // plan back, Redo the planned one again.
    void openingIsOneUndoStep()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlanEditorPage editor;
        editor.setDocument(&doc);
        PlannerPage page;
        page.setDocument(&doc);
        QObject::connect(&page, &PlannerPage::planChosen, &editor, &PlanEditorPage::pushPlan);
        tick(page, { Knob::TP, Knob::PP, Knob::CP, Knob::MicroBatch, Knob::Zero });
        QVERIFY(searchAndWait(page));
        const auto result = page.result();
        QVERIFY(result->best.size() >= 3);
        const Plan original = doc.plan();
        page.selectRow(2);
        const Plan chosen = applyCandidate(result->space.templ, result->best[2].candidate);
        QVERIFY(chosen != original);
        page.openSelected();
        QCOMPARE(doc.plan(), chosen);
        QCOMPARE(editor.undoStack()->count(), 1);
        editor.undoStack()->undo();
        QCOMPARE(doc.plan(), original);
        editor.undoStack()->redo();
        QCOMPARE(doc.plan(), chosen);
        // The summary says the result is of the plan before.
        QVERIFY(page.summaryLabel()->text().contains(QLatin1String("changed since this search")));
        // Why not mine now compares the opened plan with itself: no term differs.
        const QTableWidget* why = page.whyNotTable();
        QVERIFY(why->rowCount() > 4);
        for (int row = 0; row < why->rowCount(); ++row)
            QCOMPARE(why->item(row, 1)->text(), why->item(row, 2)->text());
    }

    // Why not mine: compareTerms(evaluate(open plan), evaluate(best)), row by row, with units.
    void whyNotIsCompareTerms()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::CP, Knob::MicroBatch, Knob::Zero });
        QVERIFY(searchAndWait(page));
        const auto result = page.result();
        const std::vector<TermDifference> terms
            = compareTerms(evaluate(doc.plan()), evaluate(applyCandidate(result->space.templ, result->best.front().candidate)));
        const QTableWidget* why = page.whyNotTable();
        QCOMPARE(why->rowCount(), int(terms.size()));
        for (int row = 0; row < why->rowCount(); ++row) {
            const TermDifference& t = terms[std::size_t(row)];
            QCOMPARE(why->item(row, 0)->text().trimmed(), QString::fromStdString(t.label.english()));
            QCOMPARE(why->item(row, 0)->text().startsWith(QLatin1Char(' ')), t.part);
            const QString mine = t.unit == "B" ? QString::fromStdString(units::formatBytes(t.mine))
                                               : QString::fromStdString(units::formatSeconds(t.mine));
            QCOMPARE(why->item(row, 1)->text(), mine);
        }
        // The open plan of the default sample fits: it is marked on the chart and ranked.
        QVERIFY(result->given.fits);
        QVERIFY(page.scatter()->marksOpenPlan());
        QVERIFY(page.summaryLabel()->text().contains(QLatin1String("Your plan ranks")));
    }

    // A click on a point of the scatter selects the plan drawn there.
    void clickSelectsAPoint()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch, Knob::Zero });
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page) || page.isVisible());
        if (page.isRunning()) page.waitForSearch(); // the first show searched the default knobs
        QVERIFY(searchAndWait(page));
        QApplication::processEvents();
        const auto result = page.result();
        page.scatter()->plot()->replot();
        // A point no other plan of the chart lies within 8 pixels of.
        std::vector<std::pair<QPointF, std::int64_t>> drawn;
        for (const SearchPoint& p : result->points) drawn.push_back({ page.scatter()->pixelOf(p.stepSeconds, p.peakBytes), p.index });
        for (const SearchEntry& e : result->pareto) drawn.push_back({ page.scatter()->pixelOf(e.stepSeconds, e.peakBytes), e.index });
        for (const SearchEntry& e : result->best) drawn.push_back({ page.scatter()->pixelOf(e.stepSeconds, e.peakBytes), e.index });
        std::optional<std::pair<QPointF, std::int64_t>> lonely;
        for (const auto& a : drawn) {
            bool alone = true;
            for (const auto& b : drawn)
                if (b.second != a.second && QLineF(a.first, b.first).length() < 8) alone = false;
            if (alone) {
                lonely = a;
                break;
            }
        }
        QVERIFY(lonely.has_value());
        QTest::mouseClick(page.scatter()->plot(), Qt::LeftButton, {}, lonely->first.toPoint());
        QVERIFY(page.selectedCandidate().has_value());
        QVERIFY(*page.selectedCandidate() == candidateAt(result->space, lonely->second));
        // Nothing within reach: nothing is picked.
        QVERIFY(!page.scatter()->planAt(QPointF(-100, -100)).has_value());
    }

    // Cancel a search of hundreds of millions of plans: the page is idle again and the result says cancelled.
    void cancelStopsALargeSearch()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "interview-175b-256xa100.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        for (Knob k : allKnobs()) page.knobCheck(k)->setChecked(true);
        QSignalSpy done(&page, &PlannerPage::searchFinished);
        QVERIFY(page.startSearch());
        QVERIFY(page.isRunning());
        QVERIFY(page.cancelButton()->isEnabled());
        QVERIFY(!page.searchButton()->isEnabled());
        page.cancelButton()->click();
        QVERIFY(done.wait(120000) || done.count() > 0);
        QVERIFY(!page.isRunning());
        QVERIFY(page.result() && page.result()->cancelled);
        QVERIFY(!page.cancelButton()->isEnabled());
        QVERIFY(page.searchButton()->isEnabled());
        QVERIFY(page.summaryLabel()->text().startsWith(QLatin1String("Cancelled")));
    }

    // A new search replaces a running one: the running one is cancelled and never shown.
    void aNewSearchReplacesTheRunningOne()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "interview-175b-256xa100.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        for (Knob k : allKnobs()) page.knobCheck(k)->setChecked(true);
        QSignalSpy done(&page, &PlannerPage::searchFinished);
        QVERIFY(page.startSearch());
        tick(page, { Knob::TP, Knob::PP });
        QVERIFY(page.startSearch());
        QVERIFY(done.wait(120000) || done.count() > 0);
        QCOMPARE(done.count(), 1);
        QVERIFY(!page.result()->cancelled);
        QCOMPARE(page.result()->space.overlap.size(), std::size_t(1));
    }

    // Destroying the page (closing the window) mid-search cancels and joins the worker first.
    void destroyingThePageMidSearchIsSafe()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "interview-175b-256xa100.plan.json"));
        for (int round = 0; round < 3; ++round) {
            auto page = std::make_unique<PlannerPage>();
            page->setDocument(&doc);
            for (Knob k : allKnobs()) page->knobCheck(k)->setChecked(true);
            QVERIFY(page->startSearch());
            QTest::qWait(20 * round); // before, at and after the first progress report
            QVERIFY(page->isRunning());
            page.reset();
        }
        QVERIFY(doc.hasPlan()); // the document is untouched
    }

    // No plan, or GPU counts that are not counts: the page says why and does not search.
    void refusesWhatCannotBeSearched()
    {
        PlannerPage page;
        QVERIFY(!page.startSearch());
        QVERIFY(!page.isRunning());
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        page.setDocument(&doc);
        page.gpuCountsEdit()->setText(QStringLiteral("12"));
        // 12 GPUs on 8-GPU nodes: core's message, as the summary shows it.
        QVERIFY(!page.startSearch());
        QVERIFY(page.summaryLabel()->text().contains(QLatin1String("12")));
        QVERIFY(!page.isRunning());
    }

    // Under zh_CN: every rejection reason, every term of why-not-mine, the dropped-split note and an
    // out-of-memory reason come out in Chinese (core's templates, util/Text.h).
    void coreTextIsChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        std::vector<Text> texts; // the reasons, the notes and the why-not-mine terms: templates (util/Text.h)
        for (const char* name : { "default.plan.json", "interview-130b-64xa100.plan.json" }) {
            const Plan plan = test::loadSample(name);
            const Result<SearchSpace> space = buildSpace(plan, defaultKnobs());
            QVERIFY(space.ok());
            const SearchResult r = search(space.value());
            for (const auto& [reason, n] : r.rejected) {
                const Text t = rejectionText(reason);
                QVERIFY2(t.isTemplate(), reason.c_str());
                QCOMPARE(t.english(), reason);
                texts.push_back(t);
            }
            for (const Text& note : r.notes) texts.push_back(note);
            for (const TermDifference& t : compareTerms(evaluate(plan), evaluate(applyCandidate(space->templ, r.best.front().candidate))))
                texts.push_back(t.label);
        }
        // A plan that does not fit: the reason the chart gives for not marking it.
        Plan big = test::loadSample("default.plan.json");
        big.training.recompute = Recompute::None;
        big.training.microBatch = 8;
        big.training.globalBatch = 128;
        const Result<SearchSpace> one = buildSpace(big, {});
        QVERIFY(one.ok());
        const SearchResult r = search(one.value());
        QVERIFY(r.given.valid && !r.given.fits);
        const Result<SearchSpace> twelve = buildSpace(big, {}, { 12 });
        QVERIFY(!twelve.ok());
        QVERIFY(texts.size() > 30);
        QStringList failures;
        for (const QString& zh : { CoreText::text(r.given.reason), CoreText::text(twelve.errors().front()) })
            if (!hasCjk(zh)) failures << zh;
        for (const Text& text : texts)
            if (!hasCjk(CoreText::text(text))) failures << QString::fromStdString(text.english());
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
        // The page's own words, and its tables in Chinese.
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::Schedule });
        QVERIFY(searchAndWait(page));
        QVERIFY(hasCjk(page.pageTitle()));
        QVERIFY(hasCjk(page.searchButton()->text()));
        QVERIFY(hasCjk(page.summaryLabel()->text()));
        QVERIFY(hasCjk(page.whyNotTable()->item(0, 0)->text()));
        for (int row = 0; row < page.rejectedTable()->rowCount(); ++row)
            QVERIFY2(hasCjk(page.rejectedTable()->item(row, 0)->text()), qPrintable(page.rejectedTable()->item(row, 0)->text()));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    // The cluster-size table is sizeCluster() of core's search of the same space: one row per GPU count with the
    // fastest plan's days and GPU-hours for the tokens, the answer (fewest GPUs within the deadline) marked, and a
    // row selects its count's fastest plan, which "Open this plan" opens.
    void clusterSizeIsSizeCluster()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        QCOMPARE(page.tokensChoice()->value(), doc.plan().training.tokens); // the plan's tokens until typed
        QCOMPARE(page.deadlineChoice()->value(), 0.0);
        const std::vector<Knob> knobs { Knob::TP, Knob::PP, Knob::MicroBatch };
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch });
        page.gpuCountsEdit()->setText(QStringLiteral("8, 16, 32"));
        const double tokens = 1e11;
        page.tokensChoice()->setValue(tokens);

        const Result<SearchSpace> space = buildSpace(doc.plan(), knobs, { 8, 16, 32 });
        QVERIFY(space.ok());
        SearchOptions options;
        options.threads = 1;
        const SearchResult direct = search(space.value(), options);
        // A deadline between the two smallest counts' days, to the field's tenth of a day: the second count answers.
        const Sizing open = sizeCluster(direct, tokens, 0);
        QCOMPARE(int(open.rows.size()), 3);
        QVERIFY(open.rows[0].best && open.rows[1].best);
        const double deadline = std::round((open.rows[0].days + open.rows[1].days) / 2 * 10) / 10;
        QVERIFY(deadline < open.rows[0].days && deadline > open.rows[1].days);
        page.deadlineChoice()->setValue(deadline);
        const Sizing expected = sizeCluster(direct, tokens, deadline);
        QCOMPARE(expected.answer, 1);

        QVERIFY(searchAndWait(page));
        QVERIFY(page.sizing());
        QVERIFY(!page.sizingBox()->isHidden());
        const QTableWidget* table = page.sizingTable();
        QCOMPARE(table->rowCount(), int(expected.rows.size()));
        const QLocale locale;
        for (int row = 0; row < table->rowCount(); ++row) {
            const SizingRow& r = expected.rows[std::size_t(row)];
            QVERIFY(r.best);
            const Candidate& c = r.best->candidate;
            QCOMPARE(table->item(row, 0)->text(), locale.toString(r.gpus));
            QCOMPARE(table->item(row, 1)->text(), locale.toString(qlonglong(std::llround(r.fit))));
            QVERIFY2(table->item(row, 2)->text().startsWith(QStringLiteral("dp%1 tp%2 pp%3 ").arg(c.dp).arg(c.tp).arg(c.pp)),
                qPrintable(table->item(row, 2)->text()));
            QVERIFY(table->item(row, 2)->text().contains(QStringLiteral("mb%1").arg(c.microBatch)));
            QCOMPARE(table->item(row, 3)->text(), QString::fromStdString(units::formatSeconds(r.best->stepSeconds)));
            QCOMPARE(table->item(row, 4)->text(), locale.toString(r.days, 'f', 1));
            QCOMPARE(table->item(row, 5)->text(), locale.toString(qlonglong(std::llround(r.gpuHours))));
            QCOMPARE(table->item(row, 0)->font().bold(), row == expected.answer);
        }
        QCOMPARE(page.sizingAnswerRow(), expected.answer);
        // The sentence names the answer, the smallest cluster that fits and the one with the fewest GPU-hours.
        const QString sentence = page.sizingAnswerLabel()->text();
        const SizingRow& answer = expected.rows[std::size_t(expected.answer)];
        QVERIFY2(sentence.contains(QStringLiteral("%1 GPUs (%2 days)").arg(locale.toString(answer.gpus), locale.toString(answer.days, 'f', 1))),
            qPrintable(sentence));
        QVERIFY(sentence.contains(QStringLiteral("Smallest cluster that fits: %1 GPUs").arg(expected.rows[std::size_t(expected.smallest)].gpus)));
        QVERIFY(sentence.contains(QStringLiteral("Fewest GPU-hours: %1 GPUs").arg(expected.rows[std::size_t(expected.cheapest)].gpus)));

        // A row selects its count's fastest plan; "Open this plan" makes it the document's.
        for (int row = 0; row < table->rowCount(); ++row) {
            page.sizingTable()->selectRow(row);
            const std::optional<Candidate> selected = page.selectedCandidate();
            QVERIFY(selected);
            QVERIFY(*selected == expected.rows[std::size_t(row)].best->candidate);
        }
        page.openSelected();
        QVERIFY(doc.plan() == applyCandidate(space->templ, expected.rows.back().best->candidate));
        QCOMPARE(doc.plan().cluster.gpus(), 32);

        // The answer follows the deadline without a new search: none of the counts finishes in a tenth of a day.
        page.deadlineChoice()->setValue(0.1);
        QCOMPARE(sizeCluster(direct, tokens, 0.1).answer, -1);
        QCOMPARE(page.sizingAnswerRow(), -1);
        QVERIFY2(page.sizingAnswerLabel()->text().contains(QLatin1String("no searched GPU count finishes in")),
            qPrintable(page.sizingAnswerLabel()->text()));
    }

    // A deadline with no GPU counts typed searches sizingGpuCounts(plan); one count and no deadline: no table.
    void deadlineSearchesTheSizingCounts()
    {
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "default.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP });
        QVERIFY(page.searchedGpus(doc.plan(), {}).empty());
        QVERIFY(searchAndWait(page));
        QCOMPARE(int(page.result()->byGpus.size()), 1);
        QVERIFY(!page.sizing());
        QVERIFY(page.sizingBox()->isHidden());

        page.deadlineChoice()->setValue(30);
        const std::vector<int> counts = sizingGpuCounts(doc.plan());
        QVERIFY(counts.size() > 1);
        QCOMPARE(page.searchedGpus(doc.plan(), {}), counts);
        QCOMPARE(page.searchedGpus(doc.plan(), { 8 }), std::vector<int> { 8 });
        QVERIFY(page.gpuCountsEdit()->toolTip().contains(QString::number(counts.back())));
        QVERIFY(searchAndWait(page));
        std::vector<int> searched;
        for (const SearchResult::PerGpus& g : page.result()->byGpus) searched.push_back(g.gpus);
        QCOMPARE(searched, counts);
        QVERIFY(page.sizing());
        QCOMPARE(page.sizingTable()->rowCount(), int(counts.size()));
        QCOMPARE(page.sizingAnswerRow(), sizeCluster(*page.result(), doc.plan().training.tokens, 30).answer);
    }

    // Under zh_CN the cluster size reads in Chinese, and the page laid out at 1400x900 draws it.
    void clusterSizeInChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        PlanDocument doc;
        QVERIFY(loadSampleAndWait(doc, "interview-175b-256xa100.plan.json"));
        PlannerPage page;
        page.setDocument(&doc);
        tick(page, { Knob::TP, Knob::PP, Knob::MicroBatch });
        page.deadlineChoice()->setValue(30);
        QVERIFY(searchAndWait(page));
        QVERIFY(page.sizing());
        QVERIFY(hasCjk(page.sizingAnswerLabel()->text()));
        QVERIFY(hasCjk(page.sizingTable()->horizontalHeaderItem(2)->text()));
        QVERIFY(hasCjk(page.deadlineChoice()->toolTip()));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("sizing.png"));
        QVERIFY(page.exportTo(png, QSize(1400, 900)));
        QVERIFY(!QImage(png).isNull());
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    // planscope --view planner --screenshot: a finished search, drawn (not an empty pane), exit code 0.
    void screenshotShowsASearch()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("planner.png"));
        QProcess p;
        p.start(QStringLiteral(PLANSCOPE_GUI),
            { QStringLiteral("--plan"), samplePlanPath("default.plan.json"), QStringLiteral("--view"), QStringLiteral("planner"),
                QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("1280x800") });
        QVERIFY(p.waitForFinished(300000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 1000);
        // Coloured points of several tp values, text, lines: far more than an empty pane's one or two colours.
        QVERIFY2(test::distinctColours(image) > 30, qPrintable(QString::number(test::distinctColours(image))));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestPlannerPage)

#include "tst_planner_page.moc"
