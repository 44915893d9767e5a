// Measured ranks against a prediction (core/trace/Compare): per-step measures (medians over ProfilerStep spans,
// or the whole kernel span), medians over ranks, errors, the reading and the biggest gap, on hand-made inputs
// with exact expected values.
#include "TestUtil.h"

#include "trace/Compare.h"

#include <QObject>
#include <QTest>
#include <cmath>
#include <string>
#include <vector>

using namespace planscope;

namespace {

// One ProfilerStep: its duration, and the compute and NCCL time of its kernels and how much of them overlaps.
struct StepSpec {
    double seconds, compute, comm, overlap;
};

std::int64_t ns(double seconds) { return std::llround(seconds * 1e9); }

// Steps one after the other; in each, one compute kernel at the step's start and one NCCL kernel starting
// `overlap` before the compute kernel ends.
MeasuredRank rank(int r, const std::vector<StepSpec>& steps)
{
    MeasuredRank m;
    m.rank = r;
    std::int64_t start = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepSpec& s = steps[i];
        const std::string name = "ProfilerStep#" + std::to_string(i);
        m.steps.push_back(name);
        m.stepSpans.push_back(MeasuredStep { name, std::int64_t(i), start, ns(s.seconds) });
        auto kernel = [&](std::int64_t at, double seconds, CollectiveKind c) {
            if (seconds <= 0) return;
            MeasuredEvent e;
            e.startNs = at;
            e.durNs = ns(seconds);
            e.collective = c;
            e.step = std::int16_t(i);
            m.eventList.push_back(e);
        };
        kernel(start, s.compute, CollectiveKind::None);
        kernel(start + ns(s.compute - s.overlap), s.comm, CollectiveKind::AllReduce);
        start += ns(s.seconds);
    }
    return m;
}

// A rank without ProfilerStep spans: only the whole-trace breakdown.
MeasuredRank unstepped(int r, double span, double compute, double comm, double overlap)
{
    MeasuredRank m;
    m.rank = r;
    m.breakdown.spanSeconds = span;
    m.breakdown.computeSeconds = compute;
    m.breakdown.commSeconds = comm;
    m.breakdown.overlapSeconds = overlap;
    return m;
}

Prediction prediction(double step, double compute, double exposed)
{
    Prediction p;
    p.valid = true;
    p.stepSeconds = step;
    p.computeSeconds = compute;
    p.exposedCommSeconds = exposed;
    return p;
}

} // namespace

class TestTraceCompare : public QObject {
    Q_OBJECT
private slots:
    void perRankMeasure()
    {
        // Steps 2.0, 2.5, 1.0 s (median 2.0); compute 1.0, 1.5, 0.5 (1.0); comm 0.5, 0.25, 1.0 (0.5); exposed
        // comm 0.375, 0.25, 0.5 (0.375).
        const RankStepMeasure m = measureSteps(rank(3, { { 2.0, 1.0, 0.5, 0.125 }, { 2.5, 1.5, 0.25, 0.0 },
                                                        { 1.0, 0.5, 1.0, 0.5 } }));
        QCOMPARE(m.rank, 3);
        QCOMPARE(m.steps, 3);
        QCOMPARE(m.method, std::string("profilerStep"));
        QCOMPARE(m.stepSeconds, 2.0);
        QCOMPARE(m.computeSeconds, 1.0);
        QCOMPARE(m.commSeconds, 0.5);
        QCOMPARE(m.exposedCommSeconds, 0.375);
        // Four steps: medians of the middle two (step 1.5 and 2.0; compute 0.5 and 1.0).
        const RankStepMeasure even = measureSteps(rank(
            0, { { 2.0, 1.0, 0.0, 0.0 }, { 1.0, 0.5, 0.0, 0.0 }, { 1.5, 0.5, 0.0, 0.0 }, { 4.0, 2.0, 0.0, 0.0 } }));
        QCOMPARE(even.stepSeconds, 1.75);
        QCOMPARE(even.computeSeconds, 0.75);
        QCOMPARE(even.exposedCommSeconds, 0.0);
        // No ProfilerStep: the whole span is one step.
        const RankStepMeasure one = measureSteps(unstepped(0, 3.0, 1.0, 1.0, 0.25));
        QCOMPARE(one.steps, 1);
        QCOMPARE(one.method, std::string("kernelSpan"));
        QCOMPARE(one.stepSeconds, 3.0);
        QCOMPARE(one.exposedCommSeconds, 0.75);
    }

    void mediansErrorsAndGap()
    {
        // Per-step steps 1.0, 1.25, 2.0 (median 1.25); compute 0.5, 0.5, 0.75 (median 0.5); exposed comm
        // 0.25, 0.5, 0.125 (median 0.25).
        const std::vector<MeasuredRank> ranks { rank(0, { { 1.0, 0.5, 0.25, 0.0 } }),
            rank(1, { { 1.25, 0.5, 0.75, 0.25 } }), rank(2, { { 2.0, 0.75, 0.25, 0.125 } }) };
        const Comparison c = compare(ranks, prediction(1.0, 0.625, 0.25), "hand-made");
        QCOMPARE(c.plan, std::string("hand-made"));
        QCOMPARE(c.method, std::string("profilerStep"));
        QCOMPARE(c.ranks.size(), std::size_t(3));
        QCOMPARE(c.predictedStepSeconds, 1.0);
        QCOMPARE(c.measuredStepSeconds, 1.25);
        QCOMPARE(c.stepError, -0.2);
        QCOMPARE(c.reading, std::string("prediction 20% optimistic"));
        QCOMPARE(c.phases.size(), std::size_t(3));
        QCOMPARE(c.phases[0].phase, std::string("compute"));
        QCOMPARE(c.phases[0].predictedSeconds, 0.625);
        QCOMPARE(c.phases[0].measuredSeconds, 0.5);
        QCOMPARE(c.phases[0].error, 0.25);
        QCOMPARE(c.phases[1].phase, std::string("exposedComm"));
        QCOMPARE(c.phases[1].measuredSeconds, 0.25);
        QCOMPARE(c.phases[1].error, 0.0);
        QCOMPARE(c.phases[2].phase, std::string("step"));
        QCOMPARE(c.phases[2].error, -0.2);
        QCOMPARE(c.biggestGap, std::string("step")); // 0.25 s off; compute 0.125, exposedComm 0
    }

    void pessimisticAndMixed()
    {
        // Even count: median is the mean of the middle two (1.0 and 3.0 -> 2.0); one rank without steps.
        const std::vector<MeasuredRank> ranks { rank(0, { { 1.0, 0.5, 0.0, 0.0 } }), unstepped(1, 3.0, 0.5, 0.0, 0.0) };
        const Comparison c = compare(ranks, prediction(2.5, 0.5, 1.0), "p");
        QCOMPARE(c.method, std::string("mixed"));
        QCOMPARE(c.measuredStepSeconds, 2.0);
        QCOMPARE(c.stepError, 0.25);
        QCOMPARE(c.reading, std::string("prediction 25% pessimistic"));
        QCOMPARE(c.biggestGap, std::string("exposedComm")); // 1.0 vs 0.0
        QVERIFY(std::isnan(c.phases[1].error)); // nothing measured
        // No ranks: nothing measured.
        const Comparison none = compare({}, prediction(1.0, 0.5, 0.5), "p");
        QVERIFY(std::isnan(none.stepError));
        QCOMPARE(none.reading, std::string("nothing measured"));
    }
};

QTEST_APPLESS_MAIN(TestTraceCompare)
#include "tst_trace_compare.moc"
