// The planner (core/search/Search.h): a small space counted by hand, the cached evaluation equal to a fresh one over
// spaces that vary every knob, the best plan and the Pareto front equal to brute force, every listed plan
// re-evaluating to its figures, results independent of the thread count, cancel, the simulated re-rank and the
// cluster sizing.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "search/Search.h"
#include "spec/PipelineLayout.h"
#include "spec/Validate.h"

#include <QObject>
#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace planscope;
using nlohmann::json;

namespace {

// A 6-layer, 6-head model small enough that every plan of it fits an 80 GB GPU.
// A full-iteration CUDA graph: a model this small would otherwise be host-bound (tst_host.cpp), and these tests
// are about the search over degrees.
Plan tinyPlan(int gpus, std::int64_t globalBatch)
{
    const json j = {
        { "schema", "planscope/plan/v1" }, { "name", "tiny" },
        { "model", { { "layers", 6 }, { "hidden", 384 }, { "heads", 6 }, { "kvHeads", 6 }, { "ffnHidden", 1536 },
                       { "vocab", 1024 }, { "seqLength", 512 } } },
        { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 1 }, { "gpusPerNode", gpus } } },
        { "parallel", { { "dp", gpus }, { "tp", 1 }, { "pp", 1 } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", globalBatch }, { "schedule", "1f1b" }, { "tokens", 1e9 }, { "host", { { "cudaGraphs", "full-iteration" } } } } },
    };
    return test::planFromText(j.dump());
}

// A small Mixtral-like MoE model (8 experts, top 2, GQA) on two 8-GPU nodes.
Plan smallMoePlan()
{
    const json j = {
        { "schema", "planscope/plan/v1" }, { "name", "moe" },
        { "model", { { "layers", 8 }, { "hidden", 1024 }, { "heads", 16 }, { "kvHeads", 4 }, { "ffnHidden", 3584 },
                       { "vocab", 32000 }, { "seqLength", 4096 }, { "gatedMlp", true }, { "tiedEmbeddings", false },
                       { "norm", "rmsnorm" }, { "bias", false }, { "positionEmbedding", "rope" }, { "dropout", false },
                       { "moe", { { "experts", 8 }, { "topK", 2 }, { "expertFfnHidden", 3584 } } } } },
        { "cluster", { { "gpu", "h100-sxm5-80gb" }, { "nodes", 2 }, { "gpusPerNode", 8 } } },
        { "parallel", { { "dp", 4 }, { "tp", 2 }, { "pp", 2 }, { "ep", 2 }, { "sp", true } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", 32 }, { "schedule", "1f1b" }, { "recompute", "selective" },
                          { "flashAttention", true }, { "tokens", 1e10 } } },
    };
    return test::planFromText(j.dump());
}

SearchSpace spaceOf(const Plan& templ, std::vector<Knob> vary, std::vector<int> gpus = {})
{
    auto s = buildSpace(templ, vary, gpus);
    if (!s) QTest::qFail(("buildSpace: " + s.errors().front().message).c_str(), __FILE__, __LINE__);
    return s.value();
}

// Every plan of the space evaluated without the planner: valid and fitting plans that the search keeps (reasons
// other than "same plan:" are checked against validate() in rejectionsAreValidationErrors).
struct Brute {
    std::vector<SearchEntry> fit;
    double valid = 0;
};

SearchEntry entryOf(const Prediction& pr, const Candidate& c, std::int64_t index)
{
    SearchEntry e;
    e.index = index;
    e.candidate = c;
    e.stepSeconds = pr.stepSeconds;
    e.peakBytes = pr.peakBytes;
    e.tokensPerSecond = pr.tokensPerSecond;
    e.gpuHoursPerToken = pr.tokensPerSecond > 0 ? c.gpus / (3600.0 * pr.tokensPerSecond) : 0;
    return e;
}

Brute bruteForce(const SearchSpace& s)
{
    Brute b;
    const std::int64_t n = std::int64_t(s.size());
    for (std::int64_t i = 0; i < n; ++i) {
        Candidate c = candidateAt(s, i);
        if (rejectionBeforeEvaluation(s, c)) continue;
        const Prediction pr = evaluate(applyCandidate(s.templ, c));
        if (!pr.valid) continue;
        b.valid += 1;
        if (pr.fitsWithHeadroom) b.fit.push_back(entryOf(pr, c, i)); // the planner's fit: within the memory headroom
    }
    return b;
}

bool dominatedBy(const SearchEntry& q, const SearchEntry& p, bool gpus)
{
    const bool noWorse = q.stepSeconds <= p.stepSeconds && q.peakBytes <= p.peakBytes
        && (!gpus || q.candidate.gpus <= p.candidate.gpus);
    const bool better = q.stepSeconds < p.stepSeconds || q.peakBytes < p.peakBytes || (gpus && q.candidate.gpus < p.candidate.gpus);
    return noWorse && better;
}

} // namespace

class TestSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The knob table (core/search/Search.cpp): every knob once, its name read back, and the default list the command
    // line documents (docs/SEARCH.md: tp, pp, dp, cp, ep, vpp, sp, zero, microBatch, recompute, schedule).
    void knobTable()
    {
        std::vector<Knob> seen;
        for (const KnobInfo& k : planscope::knobTable()) {
            QVERIFY(std::find(seen.begin(), seen.end(), k.knob) == seen.end());
            seen.push_back(k.knob);
            QVERIFY(knobFromName(k.name) == k.knob);
            QCOMPARE(QString::fromLatin1(knobName(k.knob)), QString::fromLatin1(k.name));
        }
        QCOMPARE(int(seen.size()), kKnobCount);
        QStringList names;
        for (Knob k : defaultKnobs()) names << QString::fromLatin1(knobName(k));
        QCOMPARE(names.join(QLatin1Char(',')), QStringLiteral("tp,pp,dp,cp,ep,vpp,sp,zero,microBatch,recompute,schedule"));
        Candidate a, b;
        a.microBatch = 2;
        b.microBatch = 8;
        QVERIFY(knobInfo(Knob::MicroBatch).key(a) < knobInfo(Knob::MicroBatch).key(b));

        // The one text of a candidate (the CLI's search table; compact in the planner page's columns).
        Candidate c;
        c.dp = 16;
        c.tp = 2;
        c.pp = 32;
        c.cp = 4;
        c.sp = true;
        c.zero = 1;
        c.microBatch = 3;
        c.schedule = ScheduleKind::ZBH2;
        QCOMPARE(QString::fromStdString(candidateText(c)), QStringLiteral("dp16 tp2 pp32 cp4 vpp1 sp zero1 mb3 none zb-h2"));
        c.cp = 1;
        c.zero = 0;
        c.ep = 8;
        QCOMPARE(QString::fromStdString(candidateText(c, true)), QStringLiteral("dp16 tp2 pp32 ep8 sp mb3 none zb-h2"));
    }

    // 8 GPUs, tp and pp from the divisors of 8 capped at the 6 heads and 6 layers ({1, 2, 4} each), dp = 8/(tp*pp),
    // sp {off, on}, microbatches from the divisors of the global batch 16 ({1, 2, 4, 8, 16}): 3*3*2*5 = 90 plans.
    // (tp, pp) = (4, 4): 16 GPUs > 8 -> 2 sp x 5 mb = 10; (4, 1), (4, 2): 4 does not divide 6 heads -> 20. pp 4 does
    // not divide 6 layers, but 6 + embedding + loss = 8 does (Megatron-Core's split with both in it), so (1, 4) dp 2 and
    // (2, 4) dp 1 stay. Of (1,1) dp 8, (1,2) dp 4, (1,4) dp 2, (2,1) dp 4, (2,2) dp 2, (2,4) dp 1 the microbatch must
    // divide 16/dp: mb {4, 8, 16}, {8, 16}, {16}, {8, 16}, {16}, {} fail: (3+2+1+2+1+0)*2 sp = 18. Of the rest, tp 1
    // with sp on repeats sp off: 2 + 3 + 4 = 9. Valid: 9 (tp 1) + (3 + 4 + 5)*2 (tp 2) = 33, all fit.
    void handCountedSpace()
    {
        const SearchSpace s = spaceOf(tinyPlan(8, 16), { Knob::TP, Knob::PP, Knob::DP, Knob::SP, Knob::MicroBatch });
        QCOMPARE(s.tp, (std::vector<int> { 1, 2, 4 }));
        QCOMPARE(s.pp, (std::vector<int> { 1, 2, 4 }));
        QCOMPARE(s.microBatch, (std::vector<int> { 1, 2, 4, 8, 16 }));
        QCOMPARE(s.size(), 90.0);
        SearchOptions o;
        o.threads = 2;
        const SearchResult r = search(s, o);
        QCOMPARE(r.plans, 90.0);
        QCOMPARE(r.valid, 33.0);
        QCOMPARE(r.fit, 33.0);
        const std::map<std::string, double> expected = {
            { "tp*pp*cp does not divide the GPUs", 10 },
            { "tp does not divide heads", 20 },
            { "microBatch*dp does not divide the global batch", 18 },
            { "same plan: sp has no effect with tp 1", 9 },
        };
        QCOMPARE(r.rejected, expected);
        double sum = r.fit;
        for (const auto& [k, v] : r.rejected) sum += v;
        QCOMPARE(sum, r.plans);
        // The pp 4 plans split 6 layers + embedding + loss in 4 stages of 2; the others evenly.
        for (const SearchEntry& e : r.pareto)
            QVERIFY(e.candidate.split == (e.candidate.pp == 4 ? SplitChoice::EmbeddingAndLossInSplit : SplitChoice::Even));
        Candidate c = candidateAt(s, 0);
        c.tp = 1;
        c.pp = 4;
        c.dp = 2;
        QVERIFY(rejectionBeforeEvaluation(s, c) == nullptr);
        QVERIFY(c.split == SplitChoice::EmbeddingAndLossInSplit);
        const Plan p = applyCandidate(s.templ, c);
        QVERIFY(p.parallel.embeddingInSplit && p.parallel.lossInSplit);
        QVERIFY(!hasErrors(validate(p)));
    }

    // DeepSeek-V3's 61 layers (and one MTP layer) divide no pp of 1,024 GPUs but 1: the search splits them with a layout
    // string, the remainder on the middle stages, and every such plan validates and re-evaluates.
    void balancedSplit()
    {
        QCOMPARE(balancedLayout(61, 8, 1), std::string("Et*7|t*7|(t*8|)*5t*7mL"));
        QCOMPARE(balancedLayout(10, 4, 0), std::string("Et*2|(t*3|)*2t*2L"));
        QCOMPARE(balancedLayout(11, 4, 0), std::string("Et*3|(t*3|)*2t*2L")); // the middle full: the first stage next
        QCOMPARE(balancedLayout(5, 1, 1), std::string("Et*5mL"));
        for (int stages : { 2, 3, 8, 16, 32, 61 }) {
            const auto parsed = parsePipelineLayout(balancedLayout(61, stages, 1));
            QVERIFY(parsed.ok());
            QCOMPARE(int(parsed->stages.size()), stages);
            QCOMPARE(parsed->count('t'), 61);
            QCOMPARE(parsed->count('m'), 1);
            for (const auto& st : parsed->stages) {
                int t = 0;
                for (const LayoutSymbol& x : st) t += x.kind == 't';
                QVERIFY(t == 61 / stages || t == 61 / stages + 1);
            }
        }
        const Plan templ = test::loadSample("deepseek-v3-1024xh100-fp8.plan.json");
        const SearchSpace s = spaceOf(templ, { Knob::PP, Knob::DP, Knob::VPP, Knob::Schedule });
        QVERIFY(templ.parallel.layout.size() > 0 && s.templ.parallel.layout.empty()); // the template's layout dropped
        int balanced = 0;
        for (std::int64_t i = 0; i < std::int64_t(s.size()); ++i) {
            Candidate c = candidateAt(s, i);
            if (rejectionBeforeEvaluation(s, c) || c.split != SplitChoice::Balanced) continue;
            const Plan p = applyCandidate(s.templ, c);
            QCOMPARE(p.parallel.layout, c.layout);
            QVERIFY2(!hasErrors(validate(p)), p.parallel.layout.c_str());
            QVERIFY(evaluate(p).valid);
            ++balanced;
        }
        QVERIFY(balanced > 10);
        SearchOptions o;
        o.top = 5;
        const SearchResult r = search(s, o);
        for (const SearchEntry& e : r.best) {
            const Prediction pr = evaluate(applyCandidate(s.templ, e.candidate));
            QCOMPARE(pr.stepSeconds, e.stepSeconds);
            if (e.candidate.split == SplitChoice::Balanced) QVERIFY(!e.candidate.layout.empty());
        }
    }

    // Every "same plan:" rejection has its representative in the space; a "no framework:" rejection is a plan validate()
    // accepts with a warning on the field no framework runs so; every other rejection is an error of validate() on
    // that plan (the search never turns away a plan validate accepts without a word).
    void rejectionsAreValidationErrors()
    {
        for (const Plan& templ : { tinyPlan(8, 16), smallMoePlan() }) {
            const SearchSpace s = spaceOf(templ, { Knob::TP, Knob::PP, Knob::DP, Knob::CP, Knob::EP, Knob::VPP, Knob::SP,
                                                     Knob::MicroBatch, Knob::Schedule, Knob::Zero });
            const std::int64_t n = std::int64_t(s.size());
            int checked = 0, same = 0, framework = 0;
            for (std::int64_t i = 0; i < n; i += 7) {
                Candidate c = candidateAt(s, i);
                const char* why = rejectionBeforeEvaluation(s, c);
                if (!why) continue;
                const Plan p = applyCandidate(s.templ, c);
                if (std::string(why).rfind("same plan:", 0) == 0) {
                    ++same;
                    QVERIFY2(!hasErrors(validate(p)), why); // an ignored value, not an error
                    continue;
                }
                if (std::string(why).rfind("no framework:", 0) == 0) {
                    ++framework;
                    QVERIFY(c.zero >= 2 && c.pp > 1);
                    const auto issues = validate(p);
                    QVERIFY2(!hasErrors(issues), why); // valid in principle, warned about
                    QVERIFY(std::any_of(issues.begin(), issues.end(), [](const Issue& i) { return i.path == "parallel.zero"; }));
                    continue;
                }
                ++checked;
                QVERIFY2(hasErrors(validate(p)), (std::string(why) + " but validate() accepts the plan").c_str());
            }
            QVERIFY(checked > 100);
            QVERIFY(same > 10);
            QVERIFY(framework > 0);
        }
    }

    // Under flash attention, selective recompute of core attention alone is the plan without recompute: the search
    // counts it once, and the two evaluate to the same figures.
    void flashSelectiveCountedOnce()
    {
        Plan templ = test::loadSample("default.plan.json");
        templ.training.flashAttention = true;
        const SearchSpace s = spaceOf(templ, { Knob::TP, Knob::PP, Knob::DP, Knob::MicroBatch, Knob::Recompute });
        int checked = 0;
        for (std::int64_t i = 0; i < std::int64_t(s.size()); ++i) {
            Candidate c = candidateAt(s, i);
            const char* why = rejectionBeforeEvaluation(s, c);
            if (!why || std::string(why).find("flash") == std::string::npos) continue;
            QVERIFY(c.recompute.mode == Recompute::Selective);
            Candidate none = c;
            none.recompute = { Recompute::None, 0 };
            QVERIFY(rejectionBeforeEvaluation(s, none) == nullptr);
            const Prediction a = evaluate(applyCandidate(s.templ, c)), b = evaluate(applyCandidate(s.templ, none));
            QCOMPARE(a.stepSeconds, b.stepSeconds);
            QCOMPARE(a.peakBytes, b.peakBytes);
            QCOMPARE(a.hardwareFlopsPerStep, b.hardwareFlopsPerStep);
            ++checked;
        }
        QVERIFY(checked > 20);
        templ.training.flashAttention = false; // without flash attention it is a plan of its own
        const SearchResult r = search(spaceOf(templ, { Knob::TP, Knob::PP, Knob::DP, Knob::MicroBatch, Knob::Recompute }));
        for (const auto& [reason, n] : r.rejected) QVERIFY2(reason.find("flash") == std::string::npos, reason.c_str());
    }

    // The cache (EvaluateCache) gives exactly what a fresh evaluation gives, field for field, over plans that vary
    // every knob, visited in the planner's order (runs of neighbouring indices) so that hits and misses alternate.
    void cachedEvaluationEqualsFresh()
    {
        for (const Plan& templ : { test::loadSample("default.plan.json"), smallMoePlan() }) {
            std::vector<Knob> all = defaultKnobs();
            all.push_back(Knob::Overlap);
            all.push_back(Knob::Offload);
            const SearchSpace s = spaceOf(templ, all);
            EvaluateCache cache;
            const std::int64_t n = std::int64_t(s.size());
            int valid = 0, compared = 0;
            for (int run = 0; run < 40; ++run) {
                const std::int64_t start = (n / 40) * run + (run * 7919) % std::max<std::int64_t>(1, n / 40);
                for (std::int64_t i = start; i < std::min(n, start + 150); ++i) {
                    const Plan p = applyCandidate(s.templ, candidateAt(s, i));
                    const Prediction fresh = evaluate(p);
                    const Prediction cached = evaluate(p, cache);
                    QVERIFY2(fresh == cached, ("index " + std::to_string(i)).c_str());
                    ++compared;
                    valid += fresh.valid;
                }
            }
            QVERIFY(compared >= 5000);
            QVERIFY(valid > 200);
            QVERIFY(cache.hits() > 0);
            QVERIFY(cache.misses() > 0);
        }
    }

    // On spaces of a few thousand plans: the best by each objective and the whole Pareto front equal brute force,
    // and no point of the front is dominated by any fitting plan.
    void bestAndFrontEqualBruteForce()
    {
        const Plan templ = test::loadSample("default.plan.json");
        const SearchSpace s = spaceOf(templ, { Knob::TP, Knob::PP, Knob::DP, Knob::MicroBatch, Knob::Recompute, Knob::Schedule,
                                                 Knob::Zero });
        QVERIFY(s.size() >= 2000 && s.size() <= 40000);
        const Brute b = bruteForce(s);
        QVERIFY(b.fit.size() > 100);
        for (Objective o : { Objective::Time, Objective::Cost, Objective::Memory }) {
            SearchOptions opt;
            opt.objective = o;
            opt.top = 5;
            opt.threads = 2;
            const SearchResult r = search(s, opt);
            QCOMPARE(r.valid, b.valid);
            QCOMPARE(r.fit, double(b.fit.size()));
            QCOMPARE(int(r.best.size()), 5);
            double bestValue = std::numeric_limits<double>::infinity();
            for (const SearchEntry& e : b.fit) bestValue = std::min(bestValue, objectiveValue(o, e));
            QCOMPARE(objectiveValue(o, r.best.front()), bestValue);
            for (std::size_t i = 1; i < r.best.size(); ++i)
                QVERIFY(objectiveValue(o, r.best[i - 1]) <= objectiveValue(o, r.best[i]));
            // The front: exactly the fitting plans no other fitting plan dominates (equal figures: the first index).
            std::set<std::int64_t> front;
            for (const SearchEntry& p : b.fit) {
                bool dominated = false;
                for (const SearchEntry& q : b.fit)
                    if (dominatedBy(q, p, false)
                        || (q.stepSeconds == p.stepSeconds && q.peakBytes == p.peakBytes && q.index < p.index)) {
                        dominated = true;
                        break;
                    }
                if (!dominated) front.insert(p.index);
            }
            std::set<std::int64_t> got;
            for (const SearchEntry& e : r.pareto) got.insert(e.index);
            QCOMPARE(got, front);
            for (const SearchEntry& e : r.pareto)
                for (const SearchEntry& q : b.fit) QVERIFY(!dominatedBy(q, e, false));
        }
    }

    // Every best and Pareto plan, written back into the template, evaluates (and analyses, the app's path) to the
    // figures listed.
    void listedPlansReevaluate()
    {
        const Plan templ = test::loadSample("interview-175b-256xa100.plan.json");
        const SearchSpace s = spaceOf(templ, { Knob::TP, Knob::PP, Knob::DP, Knob::VPP, Knob::MicroBatch, Knob::Zero, Knob::Schedule });
        SearchOptions opt;
        opt.top = 8;
        const SearchResult r = search(s, opt);
        QVERIFY(!r.best.empty());
        QVERIFY(r.pareto.size() > 3);
        AnalysisOptions analytic;
        analytic.simulate = false;
        std::vector<SearchEntry> listed = r.best;
        listed.insert(listed.end(), r.pareto.begin(), r.pareto.end());
        for (const SearchEntry& e : listed) {
            const Plan p = applyCandidate(s.templ, e.candidate);
            const Prediction pr = evaluate(p);
            QVERIFY(pr.valid && pr.fits);
            QCOMPARE(pr.stepSeconds, e.stepSeconds);
            QCOMPARE(pr.peakBytes, e.peakBytes);
            QCOMPARE(pr.mfu, e.mfu);
            const auto a = analyse(p, analytic);
            QCOMPARE(a->prediction.stepSeconds, e.stepSeconds);
            QCOMPARE(a->prediction.peakBytes, e.peakBytes);
        }
        // The template's own figures and rank.
        const Prediction given = evaluate(s.templ);
        QCOMPARE(r.given.entry.stepSeconds, given.stepSeconds);
        QVERIFY(r.given.fits);
        QVERIFY(r.given.rankAmongFit >= 1 && r.given.rankAmongFit <= r.fit);
    }

    // The same results on 1 and 3 threads: counts, reasons, best, front and the sampled points.
    void independentOfThreads()
    {
        const SearchSpace s = spaceOf(smallMoePlan(), defaultKnobs());
        SearchOptions one, three;
        one.threads = 1;
        three.threads = 3;
        one.samplePoints = three.samplePoints = 500;
        const SearchResult a = search(s, one), b = search(s, three);
        QCOMPARE(a.plans, b.plans);
        QCOMPARE(a.valid, b.valid);
        QCOMPARE(a.fit, b.fit);
        QCOMPARE(a.rejected, b.rejected);
        QCOMPARE(a.best.size(), b.best.size());
        for (std::size_t i = 0; i < a.best.size(); ++i) QCOMPARE(a.best[i].index, b.best[i].index);
        QCOMPARE(a.pareto.size(), b.pareto.size());
        for (std::size_t i = 0; i < a.pareto.size(); ++i) QCOMPARE(a.pareto[i].index, b.pareto[i].index);
        QCOMPARE(a.points.size(), b.points.size());
        QCOMPARE(int(a.points.size()), int(std::min(500.0, a.fit)));
        for (std::size_t i = 0; i < a.points.size(); ++i) QCOMPARE(a.points[i].index, b.points[i].index);
        QCOMPARE(a.given.rankAmongFit, b.given.rankAmongFit);
    }

    // Cancel: set before the start nothing is evaluated; set from the first progress report, the search stops with
    // at most 64 plans per thread after the flag (the check interval), far short of the space.
    void cancelStops()
    {
        const SearchSpace s = spaceOf(test::loadSample("interview-175b-256xa100.plan.json"),
            { Knob::TP, Knob::PP, Knob::DP, Knob::CP, Knob::VPP, Knob::SP, Knob::Zero, Knob::MicroBatch, Knob::Recompute,
                Knob::Schedule, Knob::Overlap, Knob::Offload });
        std::atomic<bool> cancel { true };
        SearchOptions o;
        o.threads = 2;
        o.cancel = &cancel;
        const SearchResult before = search(s, o);
        QVERIFY(before.cancelled);
        QCOMPARE(before.evaluated, 0.0);

        cancel = false;
        std::atomic<double> doneAtCancel { -1 };
        o.progress = [&](double done, double) {
            if (!cancel.exchange(true)) doneAtCancel = done;
        };
        const SearchResult r = search(s, o);
        QVERIFY(r.cancelled);
        QVERIFY(doneAtCancel.load() >= 0);
        double seen = r.fit; // every plan looked at either fits or is counted under a reason
        for (const auto& [k, v] : r.rejected) seen += v;
        QVERIFY(seen > 0);
        QVERIFY(seen < r.plans / 10);
    }

    // --simulate-top: the first K entries carry the simulated figures (analyse() with the simulation, as `evaluate`
    // prints them) and stay sorted among themselves.
    void simulatedRerank()
    {
        const SearchSpace s = spaceOf(test::loadSample("default.plan.json"), { Knob::TP, Knob::PP, Knob::DP, Knob::MicroBatch,
                                                                                 Knob::Schedule });
        SearchOptions o;
        o.top = 6;
        o.simulateTop = 3;
        const SearchResult r = search(s, o);
        QCOMPARE(int(r.best.size()), 6);
        for (int i = 0; i < 3; ++i) {
            const SearchEntry& e = r.best[std::size_t(i)];
            QCOMPARE(e.source, std::string("simulation"));
            const auto a = analyse(applyCandidate(s.templ, e.candidate));
            QCOMPARE(a->prediction.stepSeconds, e.stepSeconds);
            if (i > 0) QVERIFY(r.best[std::size_t(i - 1)].stepSeconds <= e.stepSeconds);
        }
        QCOMPARE(r.best[3].source, std::string("analytic"));
    }

    // Sizing over 8, 16 and 32 GPUs: each row's days are the tokens over its fastest plan's tokens per second; the
    // answer is the fewest GPUs within the deadline, the cheapest the fewest GPU-hours.
    void sizing()
    {
        const Plan templ = tinyPlan(8, 64);
        const SearchSpace s = spaceOf(templ, { Knob::TP, Knob::PP, Knob::DP, Knob::MicroBatch }, { 8, 16, 32 });
        QCOMPARE(s.gpus, (std::vector<int> { 8, 16, 32 }));
        const SearchResult r = search(s);
        QCOMPARE(int(r.byGpus.size()), 3);
        const double tokens = 1e10;
        std::vector<double> days;
        for (const auto& row : r.byGpus) {
            QVERIFY(row.fastest.has_value());
            const Prediction pr = evaluate(applyCandidate(s.templ, row.fastest->candidate));
            QCOMPARE(pr.stepSeconds, row.fastest->stepSeconds);
            QCOMPARE(row.fastest->candidate.gpus, row.gpus);
            days.push_back(tokens / pr.tokensPerSecond / 86400.0);
        }
        // A deadline between the 16- and the 8-GPU times: 16 GPUs is the answer.
        QVERIFY(days[1] < days[0]);
        const double deadline = (days[0] + days[1]) / 2;
        const Sizing z = sizeCluster(r, tokens, deadline);
        QCOMPARE(z.rows[std::size_t(z.answer)].gpus, 16);
        for (std::size_t i = 0; i < 3; ++i) {
            QVERIFY(test::near(z.rows[i].days, days[i]));
            QVERIFY(test::near(z.rows[i].gpuHours, days[i] * 24 * r.byGpus[i].gpus));
        }
        std::size_t cheapest = 0;
        for (std::size_t i = 1; i < 3; ++i)
            if (z.rows[i].gpuHours < z.rows[cheapest].gpuHours) cheapest = i;
        QCOMPARE(z.cheapest, int(cheapest));
        QCOMPARE(z.smallest, 0); // the tiny model fits on 8 GPUs
        // Default counts for a sizing question: x1/4 .. x16 of the plan's, whole nodes or a divisor of one.
        QCOMPARE(sizingGpuCounts(test::loadSample("interview-175b-256xa100.plan.json")),
            (std::vector<int> { 64, 128, 256, 512, 1024, 2048, 4096 }));
        QCOMPARE(sizingGpuCounts(tinyPlan(4, 16)), (std::vector<int> { 1, 2, 4, 8, 16, 32, 64 }));
        QCOMPARE(sizeCluster(r, tokens, days[2] / 2).answer, -1);
    }

    // --fix: values set on the template; unknown keys and bad values named.
    void fixes()
    {
        Plan p = tinyPlan(8, 16);
        std::string message;
        std::vector<Knob> fixed;
        QVERIFY(applyFix(p, "tp=2", message, &fixed));
        QVERIFY(applyFix(p, "recompute=selective:core_attn,mlp", message, &fixed));
        QVERIFY(applyFix(p, "schedule=zb-h1", message, &fixed));
        QCOMPARE(p.parallel.tp, 2);
        QVERIFY(p.training.recompute == Recompute::Selective);
        QCOMPARE(p.training.recomputeModules, (std::vector<std::string> { "core_attn", "mlp" }));
        QVERIFY(p.training.schedule == ScheduleKind::ZBH1);
        QVERIFY(fixed == (std::vector<Knob> { Knob::TP, Knob::Recompute, Knob::Schedule }));
        QVERIFY(!applyFix(p, "tq=2", message));
        QVERIFY(message.find("tq") != std::string::npos);
        QVERIFY(!applyFix(p, "zero=5", message));
        QVERIFY(message.find("zero") != std::string::npos);
        QVERIFY(!applyFix(p, "recompute=full:mlp", message));
        const auto bad = buildSpace(p, { Knob::TP }, { 12 });
        QVERIFY(!bad.ok());
        QCOMPARE(bad.errors().front().path, std::string("gpus"));
        // A hand-built template without a degree or a batch has no space (the checks divide by them).
        Plan zero = tinyPlan(8, 16);
        zero.parallel.pp = 0;
        const auto none = buildSpace(zero, { Knob::TP });
        QVERIFY(!none.ok());
        QCOMPARE(none.errors().front().path, std::string("parallel.pp"));
        zero = tinyPlan(8, 16);
        zero.training.globalBatch = 0;
        QCOMPARE(buildSpace(zero, { Knob::MicroBatch }).errors().front().path, std::string("training.globalBatch"));
    }
};

QTEST_GUILESS_MAIN(TestSearch)
#include "tst_search.moc"
