// The overlay of measured ranks on a predicted timeline (core/trace/Overlay): a Kineto trace written from a
// predicted timeline imports and overlays with zero deltas for every op and phase (the round trip the issue asks
// for), a uniformly slower "run" shows up as the right ratios and signs, and ranks map to pipeline ranks through
// the plan's order.
#include "TestUtil.h"

#include "cost/RankLayout.h"
#include "sim/Timeline.h"
#include "trace/Overlay.h"

#include <QObject>
#include <QString>
#include <map>
#include <set>

using namespace planscope;

namespace {

struct Case {
    std::string sample;
    std::string schedule; // empty: the sample's own
    int vpp = 0; // 0: the sample's own
};

Plan planOf(const Case& c)
{
    Plan plan = test::loadSample(c.sample.c_str());
    if (!c.schedule.empty()) {
        for (ScheduleKind k : { ScheduleKind::GPipe, ScheduleKind::OneFOneB, ScheduleKind::Interleaved1F1B,
                 ScheduleKind::ZBH1, ScheduleKind::ZBV, ScheduleKind::DualPipeV })
            if (toString(k) == c.schedule) plan.training.schedule = k;
    }
    if (c.vpp > 0) plan.parallel.vpp = c.vpp;
    return plan;
}

const std::vector<Case>& cases()
{
    static const std::vector<Case> c {
        { "default.plan.json", "", 0 }, // 1F1B, pp 4, dp 2 (gradient all-reduce)
        { "default.plan.json", "gpipe", 0 },
        { "default.plan.json", "zb-h1", 0 }, // I/W split
        { "default.plan.json", "zb-v", 0 }, // V placement, two chunks per rank
        { "interview-10b-8xa100.plan.json", "", 0 }, // ZeRO-3, pp 1: parameter all-gathers
        { "interview-130b-256xa100-zero3.plan.json", "", 0 }, // pp 16, ZeRO-3
        { "gpt3-175b-1024xa100.plan.json", "", 0 }, // interleaved, vpp 2
    };
    return c;
}

std::vector<MeasuredRank> importAll(const std::vector<std::string>& texts)
{
    std::vector<MeasuredRank> ranks;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto r = importKinetoText(texts[i], "synthetic-rank" + std::to_string(i) + ".json");
        if (!r) {
            QTest::qFail(("synthetic trace did not import: " + r.errors().front().message).c_str(), __FILE__, __LINE__);
            return {};
        }
        ranks.push_back(std::move(r.value()));
    }
    return ranks;
}

} // namespace

class TestTraceOverlay : public QObject {
    Q_OBJECT
private slots:
    void syntheticTraceRoundTripsWithZeroDeltas_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(cases().size()); ++i)
            QTest::newRow((cases()[std::size_t(i)].sample + " " + cases()[std::size_t(i)].schedule).c_str()) << i;
    }
    void syntheticTraceRoundTripsWithZeroDeltas()
    {
        QFETCH(int, index);
        const Plan plan = planOf(cases()[std::size_t(index)]);
        auto tl = simulate(plan, evaluate(plan));
        QVERIFY2(tl.ok(), tl.ok() ? "" : tl.errors().front().message.c_str());
        const auto texts = syntheticKinetoTraces(tl.value(), plan);
        QCOMPARE(int(texts.size()), tl->schedule.ranks);
        const auto ranks = importAll(texts);
        QCOMPARE(ranks.size(), texts.size());

        // What the importer must have seen, counted from the timeline itself: one kernel per span that starts
        // within the step (an all-gather overlapping the next step's forward is cut at the step's end), NCCL
        // kernels for the communication streams, one ProfilerStep per rank.
        // Pipeline rank r is written as global rank r x stride, the first replica in the plan's rank order.
        const int stride = rankLayout(plan).stridePp;
        std::map<int, std::int64_t> spansPerRank, commPerRank;
        std::int64_t annotated = 0;
        for (const Span& s : tl->spans) {
            if (std::llround(s.start * 1e9) >= std::llround(tl->stepSeconds * 1e9)) continue;
            ++spansPerRank[s.rank];
            if (s.stream == Stream::P2P || s.stream == Stream::DataParallel || s.stream == Stream::ZeroGather) ++commPerRank[s.rank];
            if (!pipelineActionText(s).empty()) ++annotated;
        }
        for (const MeasuredRank& r : ranks) {
            QCOMPARE(r.rank % stride, 0);
            QCOMPARE(r.kernels, spansPerRank[r.rank / stride]);
            QCOMPARE(r.ncclKernels, commPerRank[r.rank / stride]);
            QCOMPARE(r.stepSpans.size(), std::size_t(1));
            QCOMPARE(r.worldSize, plan.cluster.gpus());
        }

        const Overlay ov = buildOverlay(ranks, plan, tl.value());
        QCOMPARE(int(ov.ranks.size()), tl->schedule.ranks);
        QCOMPARE(ov.stepName, std::string("ProfilerStep#1"));
        QCOMPARE(std::int64_t(ov.ops.size()), annotated);
        QCOMPARE(ov.measuredActions, annotated);
        QCOMPARE(ov.unmatchedMeasured, std::int64_t(0));
        QCOMPARE(ov.unmatchedPredicted, std::int64_t(0));
        for (const OpDelta& d : ov.ops) {
            QVERIFY2(d.startDeltaNs() == 0 && d.durationDeltaNs() == 0, d.op.c_str());
            QCOMPARE(d.op, pipelineActionText(tl->spans[d.span]));
        }
        for (const OverlayRank& o : ov.ranks) {
            QCOMPARE(o.pipelineRank, o.rank / stride);
            QCOMPARE(o.measured.windowNs, o.predicted.windowNs);
            QCOMPARE(o.measured.computeNs, o.predicted.computeNs);
            QCOMPARE(o.measured.exposedCommNs, o.predicted.exposedCommNs);
            QCOMPARE(o.measured.idleNs, o.predicted.idleNs);
            QCOMPARE(o.measured.windowNs, o.measured.computeNs + o.measured.exposedCommNs + o.measured.idleNs);
        }
        // Every phase, the forward / backward / optimizer ones from the PP: annotations included, matches exactly.
        QCOMPARE(ov.phases.size(), std::size_t(6)); // the synthetic trace marks forward and backward, not the optimizer
        for (const PhaseDelta& p : ov.phases) QVERIFY2(p.deltaSeconds == 0, p.phase.c_str());
        // The window of the last rank to finish ends with the step, the figure the app shows: the part of a ZeRO
        // parameter all-gather that the simulation overlaps with the next step's forward belongs to that step.
        std::int64_t window = 0;
        for (const OverlayRank& o : ov.ranks) window = std::max(window, o.predicted.windowNs);
        double first = tl->spans.front().start;
        for (const Span& s : tl->spans) first = std::min(first, s.start);
        QCOMPARE(window, std::llround(tl->stepSeconds * 1e9) - std::llround(first * 1e9));
        QVERIFY2(ov.summary.find("on target") != std::string::npos, ov.summary.c_str());
    }

    void slowerRunShowsAsOptimisticPrediction()
    {
        // The "run" is the prediction stretched by 1.25 in time: every op takes 1.25x as long, so every kind's median
        // ratio is 1.25, every phase is 1.25x, and the prediction is 1 - 1/1.25 = 20% optimistic.
        const Plan plan = test::loadSample("default.plan.json");
        auto tl = simulate(plan, evaluate(plan));
        QVERIFY(tl.ok());
        Timeline slow = tl.value();
        for (Span& s : slow.spans) {
            s.start *= 1.25;
            s.end *= 1.25;
        }
        slow.pipelineSeconds *= 1.25;
        slow.stepSeconds *= 1.25;
        const Overlay ov = buildOverlay(importAll(syntheticKinetoTraces(slow, plan)), plan, tl.value());
        QVERIFY(!ov.opRatios.empty());
        std::set<std::string> kinds;
        for (const OpKindRatio& k : ov.opRatios) {
            kinds.insert(k.kind);
            QVERIFY2(std::abs(k.medianRatio - 1.25) < 1e-6, (k.kind + " " + std::to_string(k.medianRatio)).c_str());
        }
        QVERIFY(kinds.count("F") && kinds.count("B") && kinds.count("SEND_F") && kinds.count("SEND_B"));
        for (const PhaseDelta& p : ov.phases)
            QVERIFY2(p.predictedSeconds == 0 || std::abs(p.measuredSeconds / p.predictedSeconds - 1.25) < 1e-6, p.phase.c_str());
        QVERIFY2(ov.summary.find("20% optimistic") != std::string::npos, ov.summary.c_str());
        QVERIFY(ov.biggestGap == "compute" || ov.biggestGap == "idle" || ov.biggestGap == "exposedComm");
        // The biggest gap is the phase with the most predicted time (every phase grew by the same 25%).
        double most = 0;
        std::string mostPhase;
        for (const PhaseDelta& p : ov.phases)
            if (p.phase != "step" && p.predictedSeconds > most) {
                most = p.predictedSeconds;
                mostPhase = p.phase;
            }
        QCOMPARE(ov.biggestGap, mostPhase);
    }

    void measuredPhasesAreTheComputeTheyLaunched_data()
    {
        // Every sample trace, every ProfilerStep. Expected values from an independent Python reading (gzip + json,
        // parse_float=Decimal, ts/dur as integer ns): a kernel's step and phase come from the start of the
        // cuda_runtime launch with its args.correlation; compute is the union of the step's non-NCCL kernels; a
        // kernel belongs to the phase of the latest-starting user_annotation ("## forward ##",
        // "DistributedDataParallel.forward", "## backward ##", "Optimizer.step#...", ...) whose span holds its launch;
        // a phase is the union of its kernels minus the time of the phases before it (forward, backward,
        // optimizer); -1 where no annotation of the phase starts in the step.
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("step");
        QTest::addColumn<qint64>("compute");
        QTest::addColumn<qint64>("forward");
        QTest::addColumn<qint64>("backward");
        QTest::addColumn<qint64>("optimizer");
        const struct {
            const char* file;
            int step;
            qint64 compute, forward, backward, optimizer;
        } rows[] = {
            { "nccl_data.json.gz", 0, 38506406, 12649602, 25163659, 693145 },
            { "nccl_data.json.gz", 1, 38429422, 12638675, 25098758, 691989 },
            { "nccl_data.json.gz", 2, 38720019, 12633264, 25393611, 693144 },
            { "sampled_rank-0.json.gz", 0, 106252000, 29281000, 69954000, 2939000 },
            { "sampled_rank-0.json.gz", 1, 104068000, 28716000, 68283000, 2976000 },
            { "sampled_rank-1.json.gz", 0, 135548000, 39632000, 88604000, 2892000 },
            { "sampled_rank-1.json.gz", 1, 136425000, 39833000, 89373000, 2821000 },
            { "df_index_resolver.json.gz", 0, 124235000, -1, -1, 5165000 },
            { "df_index_resolver.json.gz", 1, 124096000, -1, -1, 5155000 },
            { "df_index_resolver.json.gz", 2, 123957000, -1, -1, 5153000 },
            { "df_index_resolver.json.gz", 3, 124197000, -1, -1, 5153000 },
            { "df_index_resolver.json.gz", 4, 124031000, -1, -1, 5150000 },
        };
        for (const auto& r : rows)
            QTest::newRow((std::string(r.file) + " step " + std::to_string(r.step)).c_str())
                << QString::fromUtf8(r.file) << r.step << r.compute << r.forward << r.backward << r.optimizer;
    }
    void measuredPhasesAreTheComputeTheyLaunched()
    {
        QFETCH(QString, file);
        QFETCH(int, step);
        QFETCH(qint64, compute);
        QFETCH(qint64, forward);
        QFETCH(qint64, backward);
        QFETCH(qint64, optimizer);
        static std::map<QString, MeasuredRank> imported;
        if (!imported.count(file)) {
            auto r = importKinetoTrace(std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/" + file.toStdString());
            QVERIFY(r.ok());
            imported.emplace(file, std::move(r.value()));
        }
        const Plan plan = test::loadSample("default.plan.json");
        static const auto tl = simulate(plan, evaluate(plan));
        QVERIFY(tl.ok());
        OverlayOptions options;
        options.step = step;
        const Overlay ov = buildOverlay({ imported.at(file) }, plan, tl.value(), options);
        QCOMPARE(ov.ranks.size(), std::size_t(1));
        const OverlayRank& o = ov.ranks.front();
        QCOMPARE(o.step, step);
        QCOMPARE(o.measured.computeNs, std::int64_t(compute));
        QCOMPARE(o.measuredPhases.forwardNs, std::int64_t(forward));
        QCOMPARE(o.measuredPhases.backwardNs, std::int64_t(backward));
        QCOMPARE(o.measuredPhases.optimizerNs, std::int64_t(optimizer));
        // The documented relation (docs/TRACES.md, "The overlay", item 5), on both sides: the phases are parts of compute.
        for (const auto& [phases, decomposition] : { std::pair(o.measuredPhases, o.measured), std::pair(o.predictedPhases, o.predicted) }) {
            std::int64_t sum = 0;
            for (std::int64_t p : { phases.forwardNs, phases.backwardNs, phases.optimizerNs }) sum += std::max<std::int64_t>(0, p);
            QVERIFY2(sum <= decomposition.computeNs, (std::to_string(sum) + " > " + std::to_string(decomposition.computeNs)).c_str());
        }
        // And so are the medians the tables show.
        std::map<std::string, double> measured;
        for (const PhaseDelta& p : ov.phases) measured[p.phase] = p.measuredSeconds;
        QVERIFY(measured["forward"] + measured["backward"] + measured["optimizer"] <= measured["compute"]);
    }

    void phaseRowsAddUpOverRanks()
    {
        // The rows are means over ranks, so they add up as each rank's figures do: the sampled_rank pair of real
        // traces, and the four pipeline ranks of the default plan's synthetic traces (each rank a different split).
        const Plan plan = test::loadSample("default.plan.json");
        const auto tl = simulate(plan, evaluate(plan));
        QVERIFY(tl.ok());
        std::vector<MeasuredRank> pair;
        for (const char* f : { "sampled_rank-0.json.gz", "sampled_rank-1.json.gz" }) {
            auto r = importKinetoTrace(std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/" + f);
            QVERIFY(r.ok());
            pair.push_back(std::move(r.value()));
        }
        for (const Overlay& ov : { buildOverlay(pair, plan, tl.value()), buildOverlay(importAll(syntheticKinetoTraces(tl.value(), plan)), plan, tl.value()) }) {
            QVERIFY(ov.ranks.size() >= 2);
            std::map<std::string, const PhaseDelta*> row;
            for (const PhaseDelta& p : ov.phases) row[p.phase] = &p;
            QVERIFY(row.count("forward") && row.count("backward"));
            for (auto side : { &PhaseDelta::predictedSeconds, &PhaseDelta::measuredSeconds }) {
                const double parts = row["compute"]->*side + row["exposedComm"]->*side + row["idle"]->*side;
                QVERIFY2(std::abs(parts - row["step"]->*side) <= 1e-12, (std::to_string(parts) + " vs " + std::to_string(row["step"]->*side)).c_str());
                double marked = 0;
                for (const char* p : { "forward", "backward", "optimizer" })
                    if (row.count(p)) marked += row[p]->*side;
                QVERIFY(marked <= row["compute"]->*side + 1e-12);
            }
        }
    }

    void ranksMapToPipelineRanksThroughTheOrder()
    {
        // default.plan.json: tp 2, dp 2, pp 4 in Megatron's order tp-cp-ep-dp-pp, so pp is outermost with stride
        // tp x dp = 4: global ranks 0-3 are pipeline rank 0, 4-7 rank 1, ... 12-15 rank 3.
        Plan plan = test::loadSample("default.plan.json");
        for (int g = 0; g < 16; ++g) QCOMPARE(pipelineRankOf(plan, g), g / 4);
        // With pp innermost (pp-tp-dp order), neighbours in rank are neighbours in the pipeline.
        plan.parallel.order = "pp-tp-cp-ep-dp";
        for (int g = 0; g < 16; ++g) QCOMPARE(pipelineRankOf(plan, g), g % 4);
    }

    void pipelineActionTextFollowsTorch()
    {
        Span f { 0, Stream::Compute, SpanKind::Forward, 3, 0, 7 };
        QCOMPARE(pipelineActionText(f), std::string("3F7"));
        Span w { 0, Stream::Compute, SpanKind::WeightGrad, 12, 0, 0 };
        QCOMPARE(pipelineActionText(w), std::string("12W0"));
        Span send { 0, Stream::P2P, SpanKind::SendGradient, 2, 0, 5 };
        QCOMPARE(pipelineActionText(send), std::string("2SEND_B5"));
        Span reduce { 0, Stream::DataParallel, SpanKind::GradReduce, -1, -1, -1 };
        QVERIFY(pipelineActionText(reduce).empty());
        // And the importer's parser reads them back.
        for (const char* text : { "3F7", "12W0", "2SEND_B5" }) {
            const auto a = parsePipelineAction(std::string("PP:") + text);
            QVERIFY(a.has_value());
            QCOMPARE(std::to_string(a->stage) + a->kind + std::to_string(a->microbatch), std::string(text));
        }
    }
};

QTEST_APPLESS_MAIN(TestTraceOverlay)
#include "tst_trace_overlay.moc"
