// core's analyse(): what every consumer reads. The prediction shown is the analytic one with the simulated step
// laid in; both figures are kept; the timeline's indexes come with it and cover every span once.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "cost/Evaluate.h"

#include <QTest>
#include <algorithm>
#include <atomic>
#include <set>

using namespace planscope;

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    void simulatedStepWithTheClosedFormBeside()
    {
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const auto a = analyse(plan);
        QVERIFY(a->valid());
        QVERIFY(a->timeline && a->timelineIndex);
        QCOMPARE(a->prediction.timeSource, std::string("simulation"));
        QCOMPARE(a->stepSeconds(), a->timeline->stepSeconds);
        // The analytic side is evaluate()'s own result.
        const Prediction closed = evaluate(plan);
        QCOMPARE(a->analytic.stepSeconds, closed.stepSeconds);
        QCOMPARE(a->prediction.analyticStepSeconds, closed.stepSeconds);
        // Everything not about time is the same on both sides.
        QCOMPARE(a->prediction.peakBytes, closed.peakBytes);
        QCOMPARE(a->prediction.modelFlopsPerStep, closed.modelFlopsPerStep);
        // MFU follows the step shown: model FLOPs / (step * GPUs * dense peak), 1024 A100s at 312 TFLOP/s (fp16).
        QVERIFY(test::near(a->prediction.mfu, closed.modelFlopsPerStep / (a->stepSeconds() * 1024 * 312e12)));
        QVERIFY(!a->explainer || a->explainer->entries().empty()); // not asked for

        // Without the simulation: no timeline, and what is shown is the closed form.
        AnalysisOptions quick;
        quick.simulate = false;
        const auto b = analyse(plan, quick);
        QVERIFY(!b->timeline && !b->timelineIndex);
        QCOMPARE(b->prediction.stepSeconds, closed.stepSeconds);
        QCOMPARE(b->prediction.timeSource, std::string("analytic"));

        // Explanations when asked: the step explained as the simulation's, the closed form under its own field.
        AnalysisOptions explain;
        explain.explain = true;
        const auto c = analyse(plan, explain);
        QVERIFY(c->explainer->find("time.stepSeconds"));
        QCOMPARE(c->explainer->find("time.stepSeconds")->value, a->stepSeconds());
        QCOMPARE(c->explainer->find("time.analyticStepSeconds")->value, closed.stepSeconds);
    }

    // Cancelled (the user's Cancel, or a newer edit): the analysis ends with the closed form and says why there is
    // no timeline. Cancelled before it starts, so the test does not race the simulation.
    void aCancelledSimulationLeavesTheClosedForm()
    {
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        AnalysisOptions options;
        auto cancel = std::make_shared<std::atomic<bool>>(true);
        options.cancel = cancel;
        const auto a = analyse(plan, options);
        QVERIFY(a->valid());
        QVERIFY(!a->timeline && !a->timelineIndex);
        QCOMPARE(a->stepSeconds(), evaluate(plan).stepSeconds);
        QCOMPARE(a->prediction.timeSource, std::string("analytic"));
        QCOMPARE(a->timelineErrors.size(), std::size_t(1));
        QCOMPARE(a->timelineErrors[0].message, std::string("the simulation was cancelled; the step time is the closed form's"));
        const std::vector<std::string> lines = issueLines(a->prediction.warnings);
        QVERIFY(std::find(lines.begin(), lines.end(),
                    "not simulated: the simulation was cancelled; the step time is the closed form's")
            != lines.end());
        // Not cancelled: the flag is looked at and the simulation runs.
        cancel->store(false);
        QVERIFY(analyse(plan, options)->timeline);
    }

    void theTimelinesIndexCoversEverySpanOnce()
    {
        const auto a = analyse(test::loadSample("interview-130b-256xa100-zero3.plan.json"));
        QVERIFY(a->timeline && a->timelineIndex);
        const Timeline& tl = *a->timeline;
        const TimelineIndex& index = *a->timelineIndex;
        std::set<std::pair<int, int>> seen;
        std::size_t covered = 0, next = 0;
        for (std::size_t l = 0; l < index.lanes().size(); ++l) {
            const TimelineLane& lane = index.lanes()[l];
            QCOMPARE(lane.begin, next); // contiguous, in span order
            next = lane.end;
            QVERIFY(seen.insert({ lane.rank, int(lane.stream) }).second); // one lane per rank and stream
            double reach = -1;
            for (std::size_t i = lane.begin; i < lane.end; ++i) {
                QCOMPARE(tl.spans[i].rank, lane.rank);
                QVERIFY(tl.spans[i].stream == lane.stream);
                reach = std::max(reach, tl.spans[i].end);
                QCOMPARE(index.laneIndex().maxEndUpTo(l, i - lane.begin), reach);
            }
            covered += lane.end - lane.begin;
        }
        QCOMPARE(covered, tl.spans.size());
    }

    void calibrationIsNamed()
    {
        const Plan plan = test::loadSample("default.plan.json");
        AnalysisOptions options;
        Calibration c;
        c.gemmEfficiency = 0.5;
        c.terms = { issue(Severity::Warning, "cluster.gpu.gemmEfficiency", Text::verbatim("0.500 = test")) };
        c.warnings = { issue(Severity::Warning, "extra", Text::verbatim("unknown field")) };
        c.source = "test";
        options.calibration = c;
        const auto a = analyse(plan, options);
        QCOMPARE(a->evaluatedPlan.cluster.gpu.gemmEfficiency, 0.5);
        QVERIFY(a->plan.cluster.gpu.gemmEfficiency != 0.5); // the plan as written is kept
        QCOMPARE(a->prediction.warnings[0].message, std::string("calibrated: cluster.gpu.gemmEfficiency: 0.500 = test"));
        QCOMPARE(a->prediction.warnings[1].message, std::string("calibration: extra: unknown field"));
        QCOMPARE(a->calibrationNotes.size(), std::size_t(2));
        // Half the GEMM efficiency: a slower step than the uncalibrated plan's.
        QVERIFY(a->stepSeconds() > analyse(plan)->stepSeconds());
    }
};

QTEST_APPLESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
