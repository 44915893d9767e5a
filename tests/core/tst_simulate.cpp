// The schedule simulation on plans: agreement with the analytic step where its formulas hold, the shape of
// the timeline, memory over time, the critical path, deadlocks and the Chrome trace.
#include "TestUtil.h"

#include "io/ChromeTrace.h"
#include "schedule/Generators.h"
#include "sim/ScheduleRun.h"
#include "sim/Timeline.h"

#include <QObject>
#include <set>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;
using planscope::test::near;

namespace {
// Equal stages, no communication: one node, tp = dp = 1, an effectively free link, a tiny vocabulary so the
// output layer is negligible.
// Free links and a full-iteration CUDA graph (the CPU issues nothing per op): the schedule alone sets the step.
Plan equalStages(const std::string& schedule, int pp, int microbatches, int vpp = 1)
{
    json j = {
        { "schema", "planscope/plan/v1" },
        { "model", test::gptModel(pp * vpp * 2, 1024, 16, 8, 1024) },
        { "cluster",
            { { "gpu", "a100-sxm4-80gb" }, { "nodes", 1 }, { "gpusPerNode", pp },
                { "intraNode", { { "bandwidth", 1e30 }, { "latency", 0 } } },
                { "interNode", { { "bandwidth", 1e30 }, { "latency", 0 } } } } },
        { "parallel", { { "dp", 1 }, { "tp", 1 }, { "pp", pp }, { "vpp", vpp } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", microbatches }, { "schedule", schedule }, { "tokens", 1e9 }, { "host", { { "cudaGraphs", "full-iteration" } } } } },
    };
    return test::planFromText(j.dump());
}
} // namespace

class TestSimulate : public QObject {
    Q_OBJECT
private slots:
    void deadlockIsReportedNotHung()
    {
        // Rank 1 waits for a backward before running the forward that would feed it.
        Schedule s = schedules::makeSchedule(ScheduleKind::OneFOneB, Placement::Linear, 2, 1, 1, 1);
        s.rankOps[0] = { Op::f(0, 0), Op::b(0, 0) };
        s.rankOps[1] = { Op::b(1, 0), Op::f(1, 0) };
        QVERIFY(checkSchedule(s).empty() == false); // backward before its forward on rank 1
        auto run = runSchedule(s, unitDurations());
        QVERIFY(!run.ok());
        QCOMPARE(run.errors().size(), std::size_t(2)); // both ranks blocked
        QVERIFY(run.errors()[1].message.find("1B0") != std::string::npos);
        QVERIFY(run.errors()[0].message.find("deadlock") != std::string::npos);
    }

    void handBuiltScheduleTimes()
    {
        // 2 ranks, 2 microbatches, GPipe by hand, F = 1, B = 2, comm 0.5 on cross-rank edges.
        Schedule s = schedules::makeSchedule(ScheduleKind::GPipe, Placement::Linear, 2, 1, 1, 2);
        s.rankOps[0] = { Op::f(0, 0), Op::f(0, 1), Op::b(0, 0), Op::b(0, 1) };
        s.rankOps[1] = { Op::f(1, 0), Op::f(1, 1), Op::b(1, 0), Op::b(1, 1) };
        QVERIFY(checkSchedule(s).empty());
        auto run = runSchedule(s, unitDurations(1, 2), 0.5);
        QVERIFY(run.ok());
        // r0: F0 [0,1] F1 [1,2]; r1: F0 [1.5,2.5] F1 [2.5,3.5] B0 [3.5,5.5] B1 [5.5,7.5];
        // r0: B0 waits for r1's B0 + 0.5 = 6.0 -> [6,8], B1 at 8 (r1's B1 arrives 8.0) -> [8,10].
        QCOMPARE(run->ranks[1][2].start, 3.5);
        QCOMPARE(run->ranks[0][2].start, 6.0);
        QCOMPARE(run->makespan, 10.0);
        QCOMPARE(run->busy[0], 6.0);
        QCOMPARE(run->idle[1], 4.0);
        QCOMPARE(run->peakInFlightChunks[0], 2.0);
    }

    // Pipeline sends on a slow link: with overlapP2pComm off (Megatron-Core's default) each send holds its rank, as the
    // closed form's slots (F + B + 2 sends per microbatch) assume; on, the sends leave the slots and only delay the
    // fill and the drain.
    void blockingSendsMatchTheClosedForm()
    {
        Plan plan = equalStages("1f1b", 4, 16);
        plan.cluster.intraNode.bandwidth = 25e9; // 25 GB/s: each 2 MiB activation about 0.08 ms
        plan.cluster.intraNode.latency = 5e-6;
        const Prediction blocking = evaluate(plan);
        QVERIFY(blocking.valid);
        const StageTime& st = blocking.stageTimes[1];
        QVERIFY(st.p2pTransferSeconds > 0.05 * (st.forwardSeconds + st.backwardSeconds));
        QCOMPARE(st.p2pSeconds, st.p2pTransferSeconds);
        auto slow = simulate(plan, blocking);
        QVERIFY(slow.ok());
        // The closed form charges every rank two sends per slot, also in the fill and the drain where the first and
        // the last rank send one: it is at most (p-1) sends above the simulation.
        const double oneSend = st.p2pSendSeconds;
        QCOMPARE(st.p2pTransferSeconds, 2 * oneSend); // a middle rank: one activation, one gradient
        QCOMPARE(blocking.stageTimes[0].p2pTransferSeconds, oneSend); // the first rank sends no gradient
        QCOMPARE(blocking.stageTimes[3].p2pTransferSeconds, oneSend); // the last no activation
        QVERIFY2(slow->stepSeconds <= blocking.stepSeconds * (1 + 1e-9)
                && slow->stepSeconds >= blocking.stepSeconds - 3 * oneSend - 1e-3 * blocking.stepSeconds,
            qPrintable(QStringLiteral("blocking: simulated %1 vs analytic %2").arg(slow->stepSeconds).arg(blocking.stepSeconds)));
        // The waiting is not a bubble: a middle rank waits 2m sends, and its idle is what is left.
        QVERIFY(near(slow->ranks[1].sending, 2 * 16 * oneSend, 1e-9));
        QVERIFY(near(slow->ranks[1].idle, slow->pipelineSeconds - slow->ranks[1].busy - slow->ranks[1].sending, 1e-9));

        // Overlapped, the sender runs on, but 1F1B's steady state waits for each gradient's round trip: the
        // simulation gains little and never loses; the closed form keeps the sends in its slots.
        plan.training.overlapP2pComm = true;
        const Prediction overlapped = evaluate(plan);
        QVERIFY(overlapped.valid);
        QCOMPARE(overlapped.stageTimes[1].p2pTransferSeconds, st.p2pTransferSeconds);
        QCOMPARE(overlapped.analyticStepSeconds, blocking.analyticStepSeconds);
        auto fast = simulate(plan, overlapped);
        QVERIFY(fast.ok());
        QCOMPARE(fast->ranks[1].sending, 0.0);
        QVERIFY(fast->stepSeconds <= slow->stepSeconds);
        QVERIFY(fast->stepSeconds <= overlapped.analyticStepSeconds);
        QVERIFY(fast->stepSeconds >= slow->stepSeconds - 16 * oneSend);
    }

    void agreesWithAnalyticWhereFormulasHold_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("vpp");
        QTest::newRow("gpipe p4 m8") << "gpipe" << 4 << 8 << 1;
        QTest::newRow("1f1b p4 m8") << "1f1b" << 4 << 8 << 1;
        QTest::newRow("1f1b p8 m32") << "1f1b" << 8 << 32 << 1;
        QTest::newRow("1f1b p2 m2") << "1f1b" << 2 << 2 << 1;
        QTest::newRow("interleaved p4 m8 v2") << "interleaved-1f1b" << 4 << 8 << 2;
        QTest::newRow("interleaved p4 m16 v4") << "interleaved-1f1b" << 4 << 16 << 4;
    }
    void agreesWithAnalyticWhereFormulasHold()
    {
        QFETCH(QString, schedule);
        QFETCH(int, pp);
        QFETCH(int, m);
        QFETCH(int, vpp);
        const Plan plan = equalStages(schedule.toStdString(), pp, m, vpp);
        const Prediction pred = evaluate(plan);
        QVERIFY(pred.valid);
        auto tl = simulate(plan, pred);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.errors().front().message.c_str());
        // (m + (p-1)/v) * (F + B) with F, B the stage times of one microbatch (GPipe/1F1B: v = 1). The layers split
        // evenly, but the last stage also runs the output layer (a few kernels, under 2% here): with a slower last
        // stage, GPipe and 1F1B take m slots of the last stage and p-1 of the others, m*(F+B)last + (p-1)*(F+B)first,
        // and every schedule lies between the closed form at the fastest and at the slowest stage.
        const double first = pred.stageTimes.front().forwardSeconds + pred.stageTimes.front().backwardSeconds;
        const double last = pred.stageTimes.back().forwardSeconds + pred.stageTimes.back().backwardSeconds;
        QVERIFY2(last >= first && last < 1.05 * first, qPrintable(QStringLiteral("%1 %2").arg(last).arg(first)));
        const double lower = (m + double(pp - 1) / vpp) * first, upper = (m + double(pp - 1) / vpp) * last;
        QVERIFY2(tl->pipelineSeconds >= lower * (1 - 1e-9) && tl->pipelineSeconds <= upper * (1 + 1e-9),
            qPrintable(QStringLiteral("simulated %1 outside (m+(p-1)/v)(F+B) [%2, %3]").arg(tl->pipelineSeconds).arg(lower).arg(upper)));
        if (vpp == 1) {
            const double expected = m * last + (pp - 1) * first;
            QVERIFY2(near(tl->pipelineSeconds, expected, 1e-6),
                qPrintable(QStringLiteral("simulated %1 vs m*last + (p-1)*first %2").arg(tl->pipelineSeconds).arg(expected)));
        }
        QVERIFY2(near(tl->stepSeconds, pred.stepSeconds, 2e-2),
            qPrintable(QStringLiteral("simulated step %1 vs analytic %2").arg(tl->stepSeconds).arg(pred.stepSeconds)));
        // Both bubble definitions: with equal stages (p-1)/(m*v + p-1) and (p-1)/(m*v). The faster stages also wait
        // for the last one, m*(last - first) each: for GPipe and 1F1B the idle share of all ranks' time is exactly
        // 1 - ((p-1)*m*first + m*last) / (p*(m*last + (p-1)*first)); interleaved lies between the equal-stage value
        // and that plus the imbalance share 1 - first/last.
        const double equalFraction = double(pp - 1) / (double(m) * vpp + pp - 1);
        if (vpp == 1) {
            const double busy = (pp - 1) * m * first + m * last, total = pp * (m * last + (pp - 1) * first);
            QVERIFY2(near(tl->bubbleFraction, 1 - busy / total, 1e-6),
                qPrintable(QStringLiteral("%1 vs %2").arg(tl->bubbleFraction).arg(1 - busy / total)));
        } else {
            QVERIFY2(tl->bubbleFraction >= equalFraction * (1 - 1e-3) && tl->bubbleFraction <= equalFraction + (1 - first / last),
                qPrintable(QStringLiteral("%1 vs %2").arg(tl->bubbleFraction).arg(equalFraction)));
        }
        // The two definitions are the same idle time over different denominators: overhead = f / (1 - f).
        QVERIFY(near(tl->bubbleOverhead, tl->bubbleFraction / (1 - tl->bubbleFraction), 1e-6));
        Prediction sim = pred;
        applySimulation(sim, plan, tl.value());
        QCOMPARE(sim.timeSource, std::string("simulation"));
        QVERIFY(near(sim.mfu, pred.modelFlopsPerStep / (sim.stepSeconds * plan.cluster.gpus()
                                     * plan.cluster.gpu.peakFlops.forPrecision(plan.training.precision))));
    }

    void timelineShape()
    {
        const Plan plan = test::loadSample("default.plan.json");
        const Prediction pred = evaluate(plan);
        auto tl = simulate(plan, pred);
        QVERIFY(tl.ok());
        const int p = plan.parallel.pp;
        const std::int64_t m = plan.microbatches();
        int compute = 0, sends = 0, reduce = 0, optimizer = 0;
        for (std::size_t i = 0; i < tl->spans.size(); ++i) {
            const Span& sp = tl->spans[i];
            QVERIFY(sp.end >= sp.start);
            if (i > 0) {
                const Span& prev = tl->spans[i - 1];
                QVERIFY(prev.rank < sp.rank || (prev.rank == sp.rank && (prev.stream < sp.stream
                    || (prev.stream == sp.stream && prev.start <= sp.start))));
                if (prev.rank == sp.rank && prev.stream == Stream::Compute && sp.stream == Stream::Compute)
                    QVERIFY(prev.end <= sp.start + 1e-12); // one op at a time on a rank
            }
            switch (sp.stream) {
            case Stream::Compute: ++compute; break;
            case Stream::P2P: ++sends; break;
            case Stream::DataParallel: reduce += sp.kind == SpanKind::GradReduce; break;
            case Stream::ZeroGather: break;
            case Stream::Optimizer: ++optimizer; break;
            }
        }
        QCOMPARE(compute, int(2 * m * p));                // one F and one B per microbatch per stage
        QCOMPARE(sends, int(2 * m * (p - 1)));            // activations down, gradients up, across p-1 boundaries
        QCOMPARE(optimizer, p);
        QCOMPARE(reduce, p);                              // ZeRO-1: one reduce-scatter per rank
        // The DP reduction overlaps the last backward (overlapGradReduce): it starts before compute ends.
        for (const Span& sp : tl->spans)
            if (sp.kind == SpanKind::GradReduce) QVERIFY(sp.start < tl->pipelineSeconds);
        QVERIFY(tl->stepSeconds >= tl->pipelineSeconds);
        // Memory: 1F1B holds p - r microbatches at the peak, as the analytic model says.
        for (int r = 0; r < p; ++r) {
            QCOMPARE(tl->ranks[std::size_t(r)].peakInFlight, double(std::min<std::int64_t>(p - r, m)));
            const std::int64_t analytic = pred.stages[std::size_t(r)].totalBytes;
            QVERIFY2(std::llabs(tl->ranks[std::size_t(r)].peakBytes - analytic) <= 8,
                qPrintable(QStringLiteral("rank %1: %2 vs %3").arg(r).arg(tl->ranks[std::size_t(r)].peakBytes).arg(analytic)));
            QCOMPARE(tl->memory[std::size_t(r)].back().bytes, tl->ranks[std::size_t(r)].staticBytes); // returns to static
        }
        // Critical path: from time 0 to the end of the last compute op, in time order.
        QVERIFY(!tl->criticalPath.empty());
        QCOMPARE(tl->spans[std::size_t(tl->criticalPath.front())].start, 0.0);
        QVERIFY(near(tl->spans[std::size_t(tl->criticalPath.back())].end, tl->pipelineSeconds));
        for (std::size_t k = 1; k < tl->criticalPath.size(); ++k)
            QVERIFY(tl->spans[std::size_t(tl->criticalPath[k - 1])].end <= tl->spans[std::size_t(tl->criticalPath[k])].start + 1e-9);
    }

    // Every schedule's spans come out in (rank, stream, start) order, which the views' lanes and the critical path
    // rely on (the simulation pushes them in that order instead of sorting), and every critical path runs from
    // time 0 to the end of the pipeline through ops that follow each other.
    void spansOrderedAndCriticalPathForEverySchedule_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("vpp");
        QTest::addColumn<int>("zero");
        for (const char* k : { "gpipe", "1f1b", "looped-bfs", "zb-h1", "zb-h2", "zb-v", "dualpipe", "dualpipe-v" })
            for (int zero : { 1, 3 }) QTest::newRow(qPrintable(QStringLiteral("%1 zero%2").arg(QLatin1String(k)).arg(zero))) << k << 1 << zero;
        QTest::newRow("interleaved v2 zero1") << "interleaved-1f1b" << 2 << 1;
        QTest::newRow("interleaved v2 zero3") << "interleaved-1f1b" << 2 << 3;
    }
    void spansOrderedAndCriticalPathForEverySchedule()
    {
        QFETCH(QString, schedule);
        QFETCH(int, vpp);
        QFETCH(int, zero);
        json j = {
            { "schema", "planscope/plan/v1" },
            { "model", test::gptModel(16, 1024, 16, 8, 1024) },
            { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 1 }, { "gpusPerNode", 8 } } },
            { "parallel", { { "dp", 2 }, { "tp", 1 }, { "pp", 4 }, { "vpp", vpp }, { "zero", zero } } },
            { "training", { { "microBatch", 1 }, { "globalBatch", 16 }, { "schedule", schedule.toStdString() }, { "tokens", 1e9 }, { "host", { { "cudaGraphs", "full-iteration" } } } } },
        };
        const Plan plan = test::planFromText(j.dump());
        const Prediction pred = evaluate(plan);
        QVERIFY2(pred.valid, pred.errors.empty() ? "" : pred.errors.front().message.c_str());
        auto tl = simulate(plan, pred);
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.errors().front().message.c_str());
        for (std::size_t i = 1; i < tl->spans.size(); ++i) {
            const Span& a = tl->spans[i - 1];
            const Span& b = tl->spans[i];
            const bool ordered = a.rank < b.rank || (a.rank == b.rank && (a.stream < b.stream || (a.stream == b.stream && a.start <= b.start)));
            QVERIFY2(ordered, qPrintable(QStringLiteral("span %1 (rank %2 stream %3 start %4) before (rank %5 stream %6 start %7)")
                                           .arg(i).arg(a.rank).arg(int(a.stream)).arg(a.start).arg(b.rank).arg(int(b.stream)).arg(b.start)));
        }
        QVERIFY(!tl->criticalPath.empty());
        QCOMPARE(tl->spans[std::size_t(tl->criticalPath.front())].start, 0.0);
        QVERIFY(near(tl->spans[std::size_t(tl->criticalPath.back())].end, tl->pipelineSeconds));
        for (std::size_t k = 1; k < tl->criticalPath.size(); ++k)
            QVERIFY(tl->spans[std::size_t(tl->criticalPath[k - 1])].end <= tl->spans[std::size_t(tl->criticalPath[k])].start + 1e-9);
    }

    // DualPipe holds two copies of a stage per rank and a microbatch passes one of them: the closed form's ZeRO-3
    // traffic per microbatch and the simulation's reduce-scatter spans both count half the rank's parameters.
    void dualPipeZeroCountsOneCopyPerMicrobatch()
    {
        json j = {
            { "schema", "planscope/plan/v1" },
            { "model", test::gptModel(16, 1024, 16, 8, 1024) },
            { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 1 }, { "gpusPerNode", 8 } } },
            { "parallel", { { "dp", 2 }, { "tp", 1 }, { "pp", 4 }, { "zero", 3 } } },
            { "training", { { "microBatch", 1 }, { "globalBatch", 16 }, { "schedule", "dualpipe" }, { "tokens", 1e9 }, { "host", { { "cudaGraphs", "full-iteration" } } } } },
        };
        const Plan plan = test::planFromText(j.dump());
        const Prediction pred = evaluate(plan);
        QVERIFY(pred.valid);
        const StageTime& st = pred.stageTimes.front();
        const double m = double(pred.microbatches);
        QVERIFY(near(st.dpSeconds, m * 0.5 * (st.dpReduceSeconds + 2 * st.zeroGatherSeconds), 1e-9));
        auto tl = simulate(plan, pred);
        QVERIFY(tl.ok());
        double reduce = 0;
        int spans = 0;
        for (const Span& sp : tl->spans)
            if (sp.rank == 0 && sp.kind == SpanKind::GradReduce) {
                reduce += sp.end - sp.start;
                ++spans;
            }
        QCOMPARE(spans, int(m)); // one backward per microbatch on each rank (both directions together)
        QVERIFY(near(reduce, m * 0.5 * st.dpReduceSeconds, 1e-9));
    }

    void zero3GathersBeforeEveryForwardAndBackward()
    {
        // The 10B interview plan: ZeRO-3 over 8 GPUs, pp = 1, m = 32.
        const Plan plan = test::loadSample("interview-10b-8xa100.plan.json");
        const Prediction pred = evaluate(plan);
        auto tl = simulate(plan, pred);
        QVERIFY(tl.ok());
        const std::int64_t m = plan.microbatches();
        int gathers = 0, reduces = 0;
        for (const Span& sp : tl->spans) {
            if (sp.kind == SpanKind::ParamGather && sp.stream == Stream::ZeroGather) {
                ++gathers;
                QVERIFY(test::near(sp.end - sp.start, pred.stageTimes[0].zeroGatherSeconds));
            }
            if (sp.kind == SpanKind::GradReduce) ++reduces;
        }
        QCOMPARE(gathers, int(2 * m)); // before every F and every B
        QCOMPARE(reduces, int(m));     // a reduce-scatter after every backward
    }

    void chromeTraceOpensAsPerfettoExpects()
    {
        const Plan plan = test::loadSample("default.plan.json");
        const Prediction pred = evaluate(plan);
        auto tl = simulate(plan, pred);
        QVERIFY(tl.ok());
        const json doc = json::parse(chromeTrace(tl.value(), plan.name));
        int complete = 0, processes = 0, threads = 0;
        std::set<int> pids;
        for (const json& e : doc["traceEvents"]) {
            const std::string ph = e["ph"].get<std::string>();
            if (ph == "X") {
                ++complete;
                pids.insert(e["pid"].get<int>());
                QVERIFY(e["dur"].get<double>() >= 0);
            }
            if (ph == "M" && e["name"] == "process_name") ++processes;
            if (ph == "M" && e["name"] == "thread_name") ++threads;
        }
        QCOMPARE(complete, int(tl->spans.size()));
        QCOMPARE(processes, plan.parallel.pp);
        QCOMPARE(threads, plan.parallel.pp * 5); // compute, p2p, data parallel, ZeRO-3 gathers, optimizer
        QCOMPARE(int(pids.size()), plan.parallel.pp);
    }
};

QTEST_APPLESS_MAIN(TestSimulate)
#include "tst_simulate.moc"
