// The planner's first choice held to what real runs survive (issue 29, item 6; docs/ACCURACY.md, "The planner's first
// choice"): the compute a collective slows beside it (NCCL runs one CUDA block per channel, each on its own SM), the
// memory headroom the memory model's measured error asks for (checked against the Megatron-Core runs of
// samples/memory/runs.json), and the planner leaving out what no framework runs.
#include "../TestUtil.h"

#include "cost/Evaluate.h"
#include "io/PlanJson.h"
#include "search/Search.h"
#include "spec/Validate.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace planscope;
using namespace planscope::test;

class TestPlausibility : public QObject {
    Q_OBJECT

private slots:
    // ZeRO-1 with the gradient reduction overlapped: the exposed tail is docs/MODEL.md section 7.3's
    // max(q*rs, rs - B) + max(q*ag, ag - F), and the compute beside the hidden rest loses k of the GPU's S SMs.
    void zeroOneChargesTheHiddenReduction()
    {
        Plan plan = loadSample("default.plan.json");
        QCOMPARE(plan.parallel.zero, 1);
        plan.training.overlapGradReduce = true;
        const double S = plan.cluster.gpu.sms;
        QCOMPARE(S, 108.0); // A100 SXM (NVIDIA A100 Tensor Core GPU architecture whitepaper)
        for (int k : { 16, 32 }) {
            plan.overheads.ncclChannels = k;
            const Prediction pr = evaluate(plan);
            QVERIFY(pr.valid);
            for (const StageTime& t : pr.stageTimes) {
                const double q = t.dpLastBucketShare;
                const double plain = std::max(q * t.dpReduceSeconds, t.dpReduceSeconds - t.backwardSeconds)
                    + std::max(q * t.dpGatherSeconds, t.dpGatherSeconds - t.forwardSeconds);
                const double hidden = t.dpSeconds - plain;
                QVERIFY(hidden > 0);
                QVERIFY(near(t.contentionSeconds, k / S * hidden, 1e-9));
                QVERIFY(near(t.dpExposedSeconds, plain + k / S * hidden, 1e-9));
                QCOMPARE(t.zeroContentionSeconds, 0.0);
            }
        }
    }

    // ZeRO-3: each microbatch's reduce-scatter and two gathers hide behind its forward and backward (at most F + B of
    // them), and that share of the compute is slowed.
    void zeroThreeChargesEveryMicrobatch()
    {
        Plan plan = loadSample("interview-130b-256xa100-zero3.plan.json");
        QCOMPARE(plan.parallel.zero, 3);
        const double k = plan.overheads.ncclChannels, S = plan.cluster.gpu.sms;
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        for (const StageTime& t : pr.stageTimes) {
            const double perMb = t.dpReduceSeconds + 2.0 * t.zeroGatherSeconds;
            const double hidden = std::min(perMb, t.forwardSeconds + t.backwardSeconds);
            QVERIFY(hidden > 0);
            QVERIFY(near(t.zeroContentionSeconds, k / S * hidden, 1e-9));
            const double plain = std::max(0.0, perMb - (t.forwardSeconds + t.backwardSeconds));
            QVERIFY(near(t.zeroExposedSeconds, plain + k / S * hidden, 1e-9));
        }
        // More channels, a slower step, by the same rule.
        Plan more = plan;
        more.overheads.ncclChannels = 2 * plan.overheads.ncclChannels;
        QVERIFY(evaluate(more).analyticStepSeconds > pr.analyticStepSeconds);
    }

    // The default headroom covers the memory model's largest shortfall on the published runs that log PyTorch's
    // allocated peak (Megatron-Core's release tests, whole configuration public), rounded up to a whole percent.
    void headroomCoversTheMeasuredShortfall()
    {
        std::ifstream in(std::string(PLANSCOPE_SAMPLES_DIR) + "/memory/runs.json");
        QVERIFY(in.good());
        const nlohmann::json runs = nlohmann::json::parse(in);
        double worst = 0;
        int counted = 0;
        for (const auto& run : runs) {
            if (run.at("measuredKind") != "allocated" || run.at("stage") != "last") continue;
            const std::string path = std::string(PLANSCOPE_SAMPLES_DIR) + "/../" + run.at("plan").get<std::string>();
            auto loaded = loadPlanFile(path);
            QVERIFY2(bool(loaded), path.c_str());
            const Prediction pr = evaluate(loaded->plan);
            QVERIFY(pr.valid);
            const double measured = run.at("measuredBytes").get<double>();
            const double predicted = double(pr.stages.back().allocatedBytes);
            worst = std::max(worst, (measured - predicted) / measured);
            ++counted;
        }
        QVERIFY(counted >= 5);
        QVERIFY(worst > 0);
        QCOMPARE(std::ceil(worst * 100.0) / 100.0, kDefaultMemoryHeadroom);
        QCOMPARE(MemoryOverheads {}.headroom, kDefaultMemoryHeadroom);
    }

    // usableBytes = capacity*(1 - headroom); a plan between it and the capacity fits, with a warning, and the
    // planner turns it away under its own reason.
    void headroomSplitsFitFromComfortable()
    {
        Plan plan = loadSample("default.plan.json");
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.fits);
        QCOMPARE(pr.usableBytes, std::llround(double(pr.capacityBytes) * (1.0 - kDefaultMemoryHeadroom)));
        // A headroom that leaves less than this plan's peak.
        const double share = 1.0 - double(pr.peakBytes) / double(pr.capacityBytes);
        plan.overheads.headroom = share + 0.01;
        const Prediction tight = evaluate(plan);
        QVERIFY(tight.fits);
        QVERIFY(!tight.fitsWithHeadroom);
        QVERIFY(std::any_of(tight.warnings.begin(), tight.warnings.end(),
            [](const Issue& w) { return w.path == "memory" && w.message.find("memoryOverheads.headroom") != std::string::npos; }));
        plan.overheads.headroom = std::max(0.0, share - 0.01);
        const Prediction roomy = evaluate(plan);
        QVERIFY(roomy.fitsWithHeadroom);
        QCOMPARE(roomy.stepSeconds, pr.stepSeconds); // the headroom changes no figure but the fit

        plan.overheads.headroom = share + 0.01;
        const auto space = buildSpace(plan, { Knob::MicroBatch });
        QVERIFY(bool(space));
        SearchOptions o;
        o.threads = 1;
        const SearchResult r = search(space.value(), o);
        QVERIFY(!r.given.fits);
        QVERIFY(r.given.reason.english().find("headroom") != std::string::npos);
        QVERIFY(r.rejected.count("less free memory than the headroom (memoryOverheads.headroom)"));
        for (const SearchEntry& e : r.best) QVERIFY(double(e.peakBytes) <= double(e.capacityBytes) * (1.0 - plan.overheads.headroom) + 1);
    }

    // The headroom is a plan field: read, written, and refused outside [0, 1) by name.
    void headroomIsAPlanField()
    {
        Plan plan = loadSample("default.plan.json");
        plan.overheads.headroom = 0.1;
        const std::string text = serializePlan(plan);
        const Plan back = planFromText(text);
        QCOMPARE(back.overheads.headroom, 0.1);
        nlohmann::json j = nlohmann::json::parse(text);
        j["memoryOverheads"]["headroom"] = 1.5;
        const auto bad = parsePlan(j.dump());
        QVERIFY(!bad);
        QCOMPARE(bad.errors().front().path, std::string("memoryOverheads.headroom"));
    }
};

QTEST_APPLESS_MAIN(TestPlausibility)
#include "tst_plausibility.moc"
