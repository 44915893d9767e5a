// autoBalance (core/cost/AutoBalance.h): the split that minimises the slowest pipeline rank's forward + backward
// time per microbatch under the memory limit, checked against brute force over every split of small models (the
// rank times from the plan's own Prediction::opCosts, the memory from evaluate() of each split), and the layout
// string it writes read back by parsePipelineLayout and virtualStages (Megatron-Core's layout semantics,
// megatron/core/transformer/pipeline_parallel_layer_layout.py in NVIDIA/Megatron-LM).
#include "TestUtil.h"

#include "cost/AutoBalance.h"
#include "spec/PipelineLayout.h"
#include "spec/SplitText.h"
#include "spec/Validate.h"

#include <QObject>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

// A Llama-style model whose output layer (vocab 48000 x hidden 1024, untied) costs a few transformer layers.
Plan smallPlan(int layers, int pp, int vpp, const char* schedule)
{
    const json j = {
        { "schema", "planscope/plan/v1" }, { "name", "balance" },
        { "model", { { "layers", layers }, { "hidden", 1024 }, { "heads", 16 }, { "kvHeads", 4 }, { "ffnHidden", 4096 },
                       { "vocab", 48000 }, { "seqLength", 2048 }, { "gatedMlp", true }, { "tiedEmbeddings", false },
                       { "norm", "rmsnorm" }, { "bias", false }, { "positionEmbedding", "rope" }, { "dropout", false } } },
        { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 1 }, { "gpusPerNode", pp } } },
        { "parallel", { { "dp", 1 }, { "tp", 1 }, { "pp", pp }, { "vpp", vpp } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", 4 * pp }, { "schedule", schedule }, { "tokens", 1e9 } } },
    };
    return test::planFromText(j.dump());
}

// Every way to put `layers` layers on `parts` stages in order (stages may be empty, as the layout grammar allows).
void forEachSplit(int layers, int parts, const std::function<void(const std::vector<int>&)>& visit)
{
    std::vector<int> n(std::size_t(parts), 0);
    std::function<void(int, int)> go = [&](int k, int left) {
        if (k == parts - 1) {
            n[std::size_t(k)] = left;
            visit(n);
            return;
        }
        for (int x = 0; x <= left; ++x) {
            n[std::size_t(k)] = x;
            go(k + 1, left - x);
        }
    };
    go(0, layers);
}

// The slowest rank's forward + backward of one microbatch for per-virtual-stage layer counts, summed the way
// docs/MODEL.md section 7.1 gives a rank's time (stage k on rank k mod pp; the output layer on the last stage).
double bottleneck(const std::vector<int>& stages, int pp, const OpCosts& c)
{
    std::vector<double> forward(std::size_t(pp), 0), backward(std::size_t(pp), 0);
    std::vector<int> held(std::size_t(pp), 0);
    for (std::size_t k = 0; k < stages.size(); ++k) held[k % std::size_t(pp)] += stages[k];
    double worst = 0;
    for (int r = 0; r < pp; ++r) {
        const bool last = std::size_t(r) == (stages.size() - 1) % std::size_t(pp);
        // A dense model: every layer has the dense MLP.
        const double n = held[std::size_t(r)];
        worst = std::max(worst, c.forward(n, n, 0, last) + c.backward(n, n, 0, last));
    }
    return worst;
}

std::vector<int> stageLayersOf(const ParsedLayout& lay)
{
    std::vector<int> out;
    for (const auto& stage : lay.stages) {
        int t = 0;
        for (const LayoutSymbol& s : stage) t += s.kind == 't';
        out.push_back(t);
    }
    return out;
}

std::string dump(const Issues& issues)
{
    std::string s;
    for (const Issue& i : issues) s += i.path + ": " + i.message + "\n";
    return s;
}

// The layout round-trips: parsed, its stages are the counts; the plan with it validates and virtualStages gives
// those counts with the embedding first and the loss last.
void checkRoundTrip(const BalancedSplit& b)
{
    auto parsed = parsePipelineLayout(b.layout);
    QVERIFY2(parsed.ok(), b.layout.c_str());
    QCOMPARE(stageLayersOf(parsed.value()), b.stageLayers);
    const Issues issues = validate(b.plan);
    QVERIFY2(!hasErrors(issues), (b.layout + "\n" + dump(issues)).c_str());
    const std::vector<VirtualStage> stages = virtualStages(b.plan);
    QCOMPARE(stages.size(), b.stageLayers.size());
    for (std::size_t k = 0; k < stages.size(); ++k) {
        QCOMPARE(stages[k].layers, b.stageLayers[k]);
        QCOMPARE(stages[k].rank, b.stageRanks[k]);
        QCOMPARE(stages[k].embedding, k == 0);
        QCOMPARE(stages[k].loss, k + 1 == stages.size());
    }
    int sum = 0;
    for (int n : b.stageLayers) sum += n;
    QCOMPARE(sum, b.plan.model.layers);
}

} // namespace

class TestAutoBalance : public QObject {
    Q_OBJECT
private slots:
    void layoutStrings()
    {
        // 'E' opens the first stage, 'L' closes the last, equal middle stages fold into one group.
        QCOMPARE(layoutString({ 7, 8, 8, 7 }, 0), std::string("Et*7|(t*8|)*2t*7L"));
        QCOMPARE(layoutString({ 8, 8, 8, 6 }, 0), std::string("Et*8|(t*8|)*2t*6L"));
        QCOMPARE(layoutString({ 1, 2, 1, 0 }, 0), std::string("Et|t*2|t|L"));
        QCOMPARE(layoutString({ 3, 3 }, 2), std::string("Et*3|t*3m*2L"));
        QCOMPARE(layoutString({ 5 }, 1), std::string("Et*5mL"));
        QCOMPARE(layoutString({ 2, 0, 0, 2 }, 0), std::string("Et*2|(|)*2t*2L"));
        auto parsed = parsePipelineLayout(layoutString({ 2, 0, 0, 2 }, 0));
        QVERIFY(parsed.ok());
        QCOMPARE(stageLayersOf(parsed.value()), (std::vector<int> { 2, 0, 0, 2 }));
    }

    // pp = 4, 30 layers, one chunk per rank: 30 is not a multiple of 4, so the even split is invalid and the plan
    // as given has no figures; the balanced split is the best of all C(33, 3) = 5456 splits.
    void matchesBruteForceOneChunk()
    {
        const Plan plan = smallPlan(30, 4, 1, "1f1b");
        auto r = autoBalance(plan);
        QVERIFY2(r.ok(), dump(r.errors()).c_str());
        const BalancedSplit& b = r.value();
        QVERIFY(!b.before.valid);
        QVERIFY(b.fits);
        checkRoundTrip(b);

        const OpCosts c = evaluate(b.plan).opCosts;
        // The output layer costs k transformer layers (48000 x 1024 against a 1024-wide gated layer: a few).
        const double k = (c.outputForward + c.outputBackward) / (c.layerForward + c.layerBackward);
        QVERIFY2(k > 1 && k < 8, std::to_string(k).c_str());
        double best = std::numeric_limits<double>::infinity();
        forEachSplit(30, 4, [&](const std::vector<int>& n) { best = std::min(best, bottleneck(n, 4, c)); });
        QVERIFY(test::near(b.after.slowestRankSeconds, best, 1e-12));
        QVERIFY(test::near(bottleneck(b.stageLayers, 4, c), best, 1e-12));
        // By hand: the last rank holds n layers and the output, the other three share 30 - n; with k between 1
        // and 8 the best n makes max(ceil((30 - n)/3), n + k) least.
        double hand = std::numeric_limits<double>::infinity();
        for (int n = 0; n <= 30; ++n) hand = std::min(hand, std::max(double((30 - n + 2) / 3), n + k));
        QVERIFY(test::near(best / (c.layerForward + c.layerBackward), hand, 1e-9));
        // The last rank gets fewer layers than the others.
        QVERIFY(b.rankLayers[3] < b.rankLayers[0]);
    }

    // pp = 2, vpp = 2 (interleaved): stage k on rank k mod 2, a rank's time the sum of its two chunks.
    void matchesBruteForceInterleaved()
    {
        const Plan plan = smallPlan(10, 2, 2, "interleaved-1f1b");
        auto r = autoBalance(plan);
        QVERIFY2(r.ok(), dump(r.errors()).c_str());
        const BalancedSplit& b = r.value();
        checkRoundTrip(b);
        QCOMPARE(b.stageRanks, (std::vector<int> { 0, 1, 0, 1 }));
        const OpCosts c = evaluate(b.plan).opCosts;
        double best = std::numeric_limits<double>::infinity();
        forEachSplit(10, 4, [&](const std::vector<int>& n) { best = std::min(best, bottleneck(n, 2, c)); });
        QVERIFY(test::near(b.after.slowestRankSeconds, best, 1e-12));
        QCOMPARE(b.rankLayers[0], b.stageLayers[0] + b.stageLayers[2]);
        QCOMPARE(b.rankLayers[1], b.stageLayers[1] + b.stageLayers[3]);
        // Each rank's own figures are the evaluation's.
        const Prediction pr = evaluate(b.plan);
        for (int q = 0; q < 2; ++q) {
            QCOMPARE(b.rankSeconds[std::size_t(q)],
                pr.stageTimes[std::size_t(q)].forwardSeconds + pr.stageTimes[std::size_t(q)].backwardSeconds);
            QCOMPARE(b.rankBytes[std::size_t(q)], pr.stages[std::size_t(q)].totalBytes);
        }
    }

    // Memory binds: capacity one byte under the fastest split's peak. Every split of 12 layers on 4 ranks is
    // evaluated; the answer is the fastest of those that fit.
    void fastestThatFits()
    {
        Plan plan = smallPlan(12, 4, 1, "1f1b");
        auto free = autoBalance(plan);
        QVERIFY2(free.ok(), dump(free.errors()).c_str());
        QVERIFY(free->fits);
        plan.cluster.gpu.memoryBytes = free->after.peakBytes - 1;

        double best = std::numeric_limits<double>::infinity();
        int fitting = 0;
        forEachSplit(12, 4, [&](const std::vector<int>& n) {
            Plan p = plan;
            p.parallel.layout = layoutString(n, 0);
            const Prediction pr = evaluate(p);
            QVERIFY(pr.valid);
            if (!pr.fits) return;
            ++fitting;
            double worst = 0;
            for (const StageTime& t : pr.stageTimes) worst = std::max(worst, t.forwardSeconds + t.backwardSeconds);
            best = std::min(best, worst);
        });
        QVERIFY(fitting > 0);

        auto r = autoBalance(plan);
        QVERIFY2(r.ok(), dump(r.errors()).c_str());
        const BalancedSplit& b = r.value();
        QVERIFY(b.fits);
        QVERIFY(b.after.peakBytes <= plan.cluster.gpu.memoryBytes);
        QCOMPARE(b.after.slowestRankSeconds, best);
        QVERIFY(b.after.slowestRankSeconds > free->after.slowestRankSeconds);
        checkRoundTrip(b);
    }

    // No split fits in 1 GiB (the CUDA context alone is 768 MiB): reported, with the split of the least peak.
    void reportsWhenNothingFits()
    {
        Plan plan = smallPlan(8, 4, 1, "1f1b");
        plan.cluster.gpu.memoryBytes = std::int64_t(1) << 30;
        auto r = autoBalance(plan);
        QVERIFY2(r.ok(), dump(r.errors()).c_str());
        const BalancedSplit& b = r.value();
        QVERIFY(!b.fits);
        QVERIFY(!b.after.fits);
        // The least peak of all C(11, 3) = 165 splits, and the fastest split with that peak.
        std::int64_t least = std::numeric_limits<std::int64_t>::max();
        double fastest = 0;
        forEachSplit(8, 4, [&](const std::vector<int>& n) {
            Plan p = plan;
            p.parallel.layout = layoutString(n, 0);
            const Prediction pr = evaluate(p);
            const double t = bottleneck(n, 4, pr.opCosts);
            if (pr.peakBytes < least || (pr.peakBytes == least && t < fastest)) {
                least = pr.peakBytes;
                fastest = t;
            }
        });
        QCOMPARE(b.after.peakBytes, least);
        QVERIFY(test::near(b.after.slowestRankSeconds, fastest, 1e-12));
        checkRoundTrip(b);
    }

    // The plan's own split options give way to the layout; the plan as given is compared as it stands.
    void replacesOtherSplitOptions()
    {
        Plan plan = smallPlan(14, 4, 2, "interleaved-1f1b");
        plan.parallel.embeddingInSplit = plan.parallel.lossInSplit = true; // (14 + 2) / 8 = 2 per virtual stage
        QVERIFY2(!hasErrors(validate(plan)), dump(validate(plan)).c_str());
        auto r = autoBalance(plan);
        QVERIFY2(r.ok(), dump(r.errors()).c_str());
        const BalancedSplit& b = r.value();
        QVERIFY(b.before.valid);
        QCOMPARE(b.before.split, std::string("embedding/loss in split"));
        QCOMPARE(b.after.split, std::string("layout"));
        QVERIFY(!b.plan.parallel.embeddingInSplit && !b.plan.parallel.lossInSplit);
        QVERIFY(b.after.slowestRankSeconds <= b.before.slowestRankSeconds);
        checkRoundTrip(b);
        // Deterministic: the same plan, the same layout.
        QCOMPARE(autoBalance(plan)->layout, b.layout);
    }

    // MTP layers stay on the last stage, before the loss (model.mtpLayers, Megatron-Core's mtp_block).
    void keepsMtpOnTheLastStage()
    {
        Plan plan = smallPlan(12, 4, 1, "1f1b");
        plan.model.mtpLayers = 1;
        auto r = autoBalance(plan);
        QVERIFY2(r.ok(), dump(r.errors()).c_str());
        QCOMPARE(r->mtpLayers, 1);
        QVERIFY2(r->layout.size() > 3 && r->layout.substr(r->layout.size() - 2) == "mL", r->layout.c_str());
        checkRoundTrip(r.value());
        QCOMPARE(virtualStages(r->plan).back().mtpLayers, 1);
    }

    void refusesWhatTakesNoLayout()
    {
        auto zbv = autoBalance(smallPlan(12, 4, 1, "zb-v"));
        QVERIFY(!zbv.ok());
        QCOMPARE(zbv.errors().front().path, std::string("training.schedule"));
        auto one = autoBalance(smallPlan(12, 1, 1, "1f1b"));
        QVERIFY(!one.ok());
        QCOMPARE(one.errors().front().path, std::string("parallel.pp"));
        // An invalid plan reports its own errors (tp 3 divides neither 16 heads nor 4 key/value heads).
        Plan bad = smallPlan(12, 4, 1, "1f1b");
        bad.parallel.tp = 3;
        auto invalid = autoBalance(bad);
        QVERIFY(!invalid.ok());
        QVERIFY(hasErrors(invalid.errors()));
    }

    // The split as text: each rank's chunks and the layer indices it holds (stage k on rank k mod pp).
    void splitText()
    {
        Plan plan = smallPlan(6, 2, 2, "interleaved-1f1b");
        plan.parallel.layout = "Et|tt|tt|tL";
        QVERIFY2(!hasErrors(validate(plan)), dump(validate(plan)).c_str());
        QCOMPARE(rankSplitTexts(plan), (std::vector<std::string> { "E1|2", "2|1L" }));
        QCOMPARE(rankLayerRanges(plan), (std::vector<std::string> { "0, 3-4", "1-2, 5" }));
        Plan one = smallPlan(13, 4, 1, "1f1b");
        one.parallel.layout = "Et*3|t*4|t*4|t*2L";
        QCOMPARE(rankSplitTexts(one), (std::vector<std::string> { "E3", "4", "4", "2L" }));
        QCOMPARE(rankLayerRanges(one), (std::vector<std::string> { "0-2", "3-6", "7-10", "11-12" }));
    }
};

QTEST_APPLESS_MAIN(TestAutoBalance)
#include "tst_auto_balance.moc"
