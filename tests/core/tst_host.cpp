// The host as a resource and the MoE layer as Megatron-Core runs it (issue 29, docs/MODEL.md sections 7.4 and 7.5):
// the default CPU issue cost read back from the real profiler traces the repo holds; the two-lane model (CPU issuing,
// GPU running) against the steady states worked out by hand for GPU-bound, host-bound, syncing and graphed passes;
// the MoE ops in the order of megatron/core/transformer/moe/token_dispatcher.py with their bytes and shapes; the
// fields (CUDA graphs, sync-free dispatch, imbalance, the all-to-all overlap) read, written and validated.
#include "../TestUtil.h"

#include "analysis/Analysis.h"
#include "cost/Evaluate.h"
#include "cost/Operators.h"
#include "io/PlanJson.h"
#include "spec/Validate.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <zlib.h>

using namespace planscope;
using namespace planscope::test;
using nlohmann::json;

namespace {

std::string gunzip(const std::string& path)
{
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return {};
    std::string out;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, std::size_t(n));
    gzclose(f);
    return out;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The median duration (seconds) of the trace's cpu_op events that enclose exactly one cudaLaunchKernel of their own
// thread: the CPU cost of issuing one kernel eagerly, as the profiler saw it.
double singleLaunchOpMedian(const std::string& path)
{
    const json j = json::parse(gunzip(path));
    std::map<std::pair<long long, long long>, std::vector<double>> launches;
    std::vector<const json*> ops;
    for (const json& e : j.at("traceEvents")) {
        if (!e.contains("cat") || !e.contains("dur")) continue;
        const std::string cat = e["cat"].get<std::string>();
        const auto key = std::make_pair(e["pid"].is_number() ? e["pid"].get<long long>() : 0LL,
            e["tid"].is_number() ? e["tid"].get<long long>() : 0LL);
        if (cat == "cuda_runtime" && e.value("name", "") == "cudaLaunchKernel") launches[key].push_back(e["ts"].get<double>());
        if (cat == "cpu_op") ops.push_back(&e);
    }
    for (auto& [k, v] : launches) std::sort(v.begin(), v.end());
    std::vector<double> durations;
    for (const json* e : ops) {
        const auto key = std::make_pair((*e)["pid"].is_number() ? (*e)["pid"].get<long long>() : 0LL,
            (*e)["tid"].is_number() ? (*e)["tid"].get<long long>() : 0LL);
        const auto it = launches.find(key);
        if (it == launches.end()) continue;
        const double ts = (*e)["ts"].get<double>(), dur = (*e)["dur"].get<double>();
        const auto lo = std::lower_bound(it->second.begin(), it->second.end(), ts);
        const auto hi = std::upper_bound(it->second.begin(), it->second.end(), ts + dur);
        if (hi - lo == 1) durations.push_back(dur * 1e-6);
    }
    return durations.empty() ? 0.0 : median(durations);
}

KernelOp op(const char* name, double gpuSeconds, int launches = 1)
{
    KernelOp o;
    o.name = name;
    o.kind = KernelKind::Memory;
    o.seconds = o.exposedSeconds = gpuSeconds;
    o.launches = launches;
    return o;
}

std::vector<std::size_t> all(const std::vector<KernelOp>& ops)
{
    std::vector<std::size_t> v(ops.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
    return v;
}

// Qwen3-30B-A3B as Megatron-Bridge benchmarks it on one node (8 GPUs, ep 8, dropless, force-balanced).
json qwen30b(json patch = json::object())
{
    json j = { { "schema", "planscope/plan/v1" }, { "name", "qwen3-30b-a3b" }, { "model", { { "preset", "qwen3-30b-a3b" } } },
        { "cluster", { { "gpu", "h100-sxm5-80gb" }, { "nodes", 1 }, { "gpusPerNode", 8 } } },
        { "parallel", { { "tp", 1 }, { "pp", 1 }, { "cp", 1 }, { "ep", 8 }, { "dp", 8 } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", 512 }, { "precision", "fp8" }, { "fp8Recipe", "current" },
                          { "recompute", "none" }, { "flashAttention", true } } } };
    j.merge_patch(patch);
    return j;
}

const KernelOp* find(const std::vector<KernelOp>& ops, std::string_view name, KernelPass pass = KernelPass::Forward)
{
    for (const KernelOp& o : ops)
        if (o.pass == pass && name == o.name) return &o;
    return nullptr;
}

} // namespace

class TestHost : public QObject {
    Q_OBJECT
private slots:
    // kDefaultKernelIssueSeconds is the median, over the four real traces in samples/traces, of each file's median
    // single-launch CPU op (docs/HARDWARE.md, "Host").
    void defaultIssueCostIsReadFromTheTraces()
    {
        std::vector<double> medians;
        for (const char* f : { "nccl_data", "df_index_resolver", "sampled_rank-0", "sampled_rank-1" }) {
            const double m = singleLaunchOpMedian(std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/" + f + ".json.gz");
            QVERIFY2(m > 0, f);
            medians.push_back(m);
        }
        QVERIFY2(std::abs(medians[0] - 100.8e-6) < 0.05e-6, qPrintable(num(medians[0])));
        QVERIFY2(std::abs(medians[1] - 36e-6) < 0.05e-6, qPrintable(num(medians[1])));
        QVERIFY2(std::abs(median(medians) - kDefaultKernelIssueSeconds) < 0.5e-6, qPrintable(num(median(medians))));
    }

    // GPU-bound: the CPU runs ahead and the GPU never waits; the pass takes the GPU's sum.
    void gpuBoundPassNeverWaits()
    {
        std::vector<KernelOp> ops { op("a", 100e-6), op("b", 200e-6), op("c", 50e-6, 2) };
        HostParams h;
        h.kernel = 10e-6;
        const double span = hostLane(ops, all(ops), h);
        QVERIFY2(near(span, 350e-6, 1e-12), qPrintable(num(span)));
        for (const KernelOp& o : ops) QCOMPARE(o.hostWaitSeconds, 0.0);
        QVERIFY(near(ops[2].hostSeconds, 20e-6, 1e-12));
    }

    // Host-bound: each op's GPU work (5 us) is shorter than its issue (41 us); in the steady state the pass takes the
    // CPU's sum and the GPU waits issue - work before each op.
    void hostBoundPassTakesTheCpuTime()
    {
        std::vector<KernelOp> ops { op("a", 5e-6), op("b", 5e-6), op("c", 5e-6), op("d", 5e-6) };
        HostParams h;
        const double span = hostLane(ops, all(ops), h);
        QVERIFY2(near(span, 4 * kDefaultKernelIssueSeconds, 1e-9), qPrintable(num(span)));
        for (const KernelOp& o : ops) QVERIFY2(near(o.hostWaitSeconds, kDefaultKernelIssueSeconds - 5e-6, 1e-9), qPrintable(num(o.hostWaitSeconds)));
        PassTotals t = sumPasses(ops);
        QVERIFY(near(t.forward, span, 1e-9));
        QVERIFY(near(t.hostWaitForward, span - 20e-6, 1e-9));
    }

    // A sync after op b: the CPU waits for the GPU to finish b, pays the sync, then issues c: the GPU idles the sync
    // and c's issue. 4 x 100 us of work + 10 us + 10 us.
    void syncExposesTheIssueOfTheNextOp()
    {
        std::vector<KernelOp> ops { op("a", 100e-6), op("b", 100e-6), op("c", 100e-6), op("d", 100e-6) };
        ops[1].syncAfter = true;
        HostParams h;
        h.kernel = h.sync = 10e-6;
        const double span = hostLane(ops, all(ops), h);
        QVERIFY2(near(span, 420e-6, 1e-9), qPrintable(num(span)));
        QVERIFY(near(ops[2].hostWaitSeconds, 20e-6, 1e-9));
        QCOMPARE(ops[3].hostWaitSeconds, 0.0);
        QCOMPARE(ops[0].hostWaitSeconds, 0.0);
    }

    // A CUDA graph issues its ops with one launch: the host-bound pass above becomes GPU-bound (4 x 5 us of work
    // after one 41 us graph launch, repeated: the launch of the next overlaps... it is the only CPU cost, 41 us > 20 us,
    // so the pass takes the launch).
    void graphedPassCostsOneLaunch()
    {
        std::vector<KernelOp> ops { op("a", 5e-6), op("b", 5e-6), op("c", 5e-6), op("d", 5e-6) };
        for (KernelOp& o : ops) o.graphed = true;
        HostParams h;
        const double span = hostLane(ops, all(ops), h);
        QVERIFY2(near(span, kDefaultKernelIssueSeconds, 1e-9), qPrintable(num(span)));
        QVERIFY(near(ops[0].hostSeconds, kDefaultKernelIssueSeconds, 1e-12));
        QCOMPARE(ops[1].hostSeconds, 0.0);
        // Longer work than the launch: GPU-bound, no wait.
        for (KernelOp& o : ops) o.seconds = o.exposedSeconds = 50e-6;
        QVERIFY(near(hostLane(ops, all(ops), h), 200e-6, 1e-9));
    }

    // The MoE layer's forward in Megatron-Core's order for the all-to-all dispatcher (token_dispatcher.py): router,
    // top-k, aux loss, the count all-gather (the host sync), permute, the dispatch and its probabilities, the sort by
    // local expert, fp8 padding, the grouped GEMMs, unpad, unsort, combine, unpermute.
    void moeForwardOpsInMegatronOrder()
    {
        const Plan plan = planFromText(qwen30b().dump());
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        std::vector<std::string> names;
        for (const KernelOp& o : pr.layerOps)
            if (o.pass == KernelPass::Forward && o.name != std::string_view("fp8_casts")) names.push_back(o.name);
        const std::vector<std::string> moe { "router", "router.topk", "router.aux_loss", "ep.token_counts", "moe.permute",
            "ep.dispatch", "ep.dispatch.probs", "moe.sort_chunks", "experts.fp8_pad", "experts.fc1", "experts.activation",
            "experts.fc2", "experts.fp8_unpad", "moe.unsort_chunks", "ep.combine", "moe.unpermute" };
        const auto at = std::find(names.begin(), names.end(), "router");
        QVERIFY(at != names.end());
        QVERIFY2(std::vector<std::string>(at, at + std::ptrdiff_t(moe.size())) == moe, qPrintable(QString::fromStdString([&] {
            std::string s;
            for (const auto& n : names) s += n + " ";
            return s;
        }())));
        // Shapes (sequence 4096, microbatch 1, ep 8: 16 local experts, 4096 * 8 copies, 2048 per expert, a multiple of 16).
        const double T = 4096, h = 2048, k = 8, e = 2;
        const KernelOp* fc1 = find(pr.layerOps, "experts.fc1");
        QCOMPARE(fc1->batch, 16LL);
        QCOMPARE(fc1->m, 2048LL);
        QCOMPARE(fc1->n, 2 * 768LL);
        QCOMPARE(fc1->k, 2048LL);
        QCOMPARE(fc1->launches, 16); // Transformer Engine GroupedLinear: one GEMM per local expert
        const KernelOp* permute = find(pr.layerOps, "moe.permute");
        QVERIFY(near(permute->bytes, e * T * h + e * T * k * h + 12 * T * k, 1e-12));
        QVERIFY(find(pr.layerOps, "ep.token_counts")->syncAfter);
        QCOMPARE(find(pr.layerOps, "ep.token_counts")->bytes, 8.0 * 128 * 8);
        // The backward mirrors it and has no sync.
        for (const KernelOp& o : pr.layerOps)
            if (o.pass != KernelPass::Forward) QVERIFY2(!o.syncAfter, o.name);
        QVERIFY(find(pr.layerOps, "moe.permute.bwd", KernelPass::BackwardInput));
        QVERIFY(find(pr.layerOps, "router.topk.bwd", KernelPass::BackwardInput));
    }

    // Expert padding to the fp8 alignment (16, 32 under MXFP8) and the imbalance allowance scale the busiest rank's
    // per-expert rows; bf16 does not pad.
    void paddingAndImbalanceScaleExpertRows()
    {
        auto fc1m = [](json patch) {
            const Prediction pr = evaluate(planFromText(qwen30b(patch).dump()));
            return find(pr.layerOps, "experts.fc1")->m;
        };
        // 4096 tokens * 8 / 16 local experts * 1.3 = 2662.4 rows -> 2672 (16) / 2688 (32) / 2663 (bf16: rounded up).
        QCOMPARE(fc1m({ { "model", { { "moe", { { "imbalance", 1.3 } } } } } }), 2672LL);
        QCOMPARE(fc1m({ { "model", { { "moe", { { "imbalance", 1.3 } } } } }, { "training", { { "fp8Recipe", "mxfp8" } } } }), 2688LL);
        QCOMPARE(fc1m({ { "model", { { "moe", { { "imbalance", 1.3 } } } } }, { "training", { { "precision", "bf16" } } } }), 2663LL);
        const Prediction pr = evaluate(planFromText(qwen30b({ { "training", { { "precision", "bf16" } } } }).dump()));
        QVERIFY(!find(pr.layerOps, "experts.fp8_pad"));
    }

    // Sync-free dispatch or capacity routing drop the host sync; the dropless dispatcher's sync costs time on a
    // host-bound layer; per-layer graphs and the full-iteration graph (once sync-free) cut the step.
    void syncsGraphsAndStepTime()
    {
        auto step = [](json patch) {
            const Prediction pr = evaluate(planFromText(qwen30b(patch).dump()));
            return pr.stepSeconds;
        };
        auto syncs = [](json patch) {
            const Prediction pr = evaluate(planFromText(qwen30b(patch).dump()));
            const KernelOp* c = find(pr.layerOps, "ep.token_counts");
            return c && c->syncAfter;
        };
        QVERIFY(syncs(json::object()));
        QVERIFY(!syncs({ { "model", { { "moe", { { "syncFree", true } } } } } }));
        QVERIFY(!syncs({ { "model", { { "moe", { { "capacityFactor", 1.0 } } } } } }));
        const double eager = step(json::object());
        const double syncFree = step({ { "model", { { "moe", { { "syncFree", true } } } } } });
        const double perLayer = step({ { "training", { { "host", { { "cudaGraphs", "per-layer" } } } } } });
        const double full = step({ { "model", { { "moe", { { "syncFree", true } } } } },
            { "training", { { "host", { { "cudaGraphs", "full-iteration" } } } } } });
        QVERIFY2(syncFree < eager, qPrintable(num(syncFree) + " vs " + num(eager)));
        QVERIFY2(perLayer < eager, qPrintable(num(perLayer) + " vs " + num(eager)));
        QVERIFY2(full < perLayer, qPrintable(num(full) + " vs " + num(perLayer)));
        // A fully graphed step has no CPU issue cost but the graph launches: the GPU never waits in a pass it holds.
        const Prediction pf = evaluate(planFromText(qwen30b({ { "model", { { "moe", { { "syncFree", true } } } } },
            { "training", { { "host", { { "cudaGraphs", "full-iteration" } } } } } }).dump()));
        double waits = 0;
        for (const KernelOp& o : pf.layerOps) waits += o.hostWaitSeconds;
        QVERIFY2(waits < 1e-4 * pf.opCosts.layerForward, qPrintable(num(waits)));
    }

    // A large dense layer is GPU-bound: no op waits for the host, and the explained layer time adds up with host 0.
    void denseLayerIsGpuBound()
    {
        const Plan plan = loadSample("gpt3-175b-1024xa100.plan.json");
        AnalysisOptions options;
        options.explain = true;
        const auto a = analyse(plan, options);
        const Prediction& pr = a->prediction;
        for (const KernelOp& o : pr.layerOps) QVERIFY2(o.hostWaitSeconds == 0, o.name);
        QVERIFY(a->explainer);
        const Explanation* x = a->explainer->find("time.layer.forwardSeconds");
        QVERIFY(x);
        double sum = 0;
        for (const auto& [name, v] : x->inputs) sum += v;
        QVERIFY(near(sum, x->value, 1e-12));
        QVERIFY(std::any_of(x->inputs.begin(), x->inputs.end(), [](const auto& in) { return in.first == "host"; }));
    }

    // The combined 1F1B's all-to-all overlap: each all-to-all of one microbatch beside the other's compute.
    void overlapMoeCommHidesTheAllToAlls()
    {
        // A GPU-bound layer (an issue cost of 1 ns) shows what the overlap hides; a host-bound one gains less.
        const json fast = { { "training", { { "host", { { "kernelSeconds", 1e-9 } } } } } };
        json on = fast;
        on["training"]["overlapMoeComm"] = true;
        const Prediction pr = evaluate(planFromText(qwen30b(on).dump()));
        const auto& ops = pr.layerOps;
        auto hiddenBy = [&](const char* name, KernelPass pass) {
            for (const KernelOp& o : ops)
                if (o.pass == pass && std::string_view(o.name) == name)
                    return o.hiddenBy >= 0 ? std::string(ops[std::size_t(o.hiddenBy)].name) : std::string("-");
            return std::string("?");
        };
        QCOMPARE(hiddenBy("ep.dispatch", KernelPass::Forward), std::string("experts.fc1.dgrad"));
        QCOMPARE(hiddenBy("ep.combine", KernelPass::Forward), std::string("attention.bwd"));
        QCOMPARE(hiddenBy("ep.combine.bwd", KernelPass::BackwardInput), std::string("attention"));
        QCOMPARE(hiddenBy("ep.dispatch.bwd", KernelPass::BackwardInput), std::string("experts.fc1"));
        const Prediction base = evaluate(planFromText(qwen30b(fast).dump()));
        QVERIFY(pr.opCosts.layerForward + pr.opCosts.layerBackward < base.opCosts.layerForward + base.opCosts.layerBackward);
    }

    // Muon (Megatron-Core TensorParallelMuon): one fp32 momentum instead of Adam's two moments for the 2-D weights,
    // Adam's second moment kept for the embedding and the output layer; the Newton-Schulz step written out from the
    // model's matrices: Llama-2 7B (h 4096, 32 heads of 128, MHA, SwiGLU f 11008) on the default plan's stages of 8
    // layers, ZeRO-1 over dp 2, so each matrix on one of the 2 ranks, 5 steps of 4 m^2 n + 2 m^3 in bf16 at the A100's
    // GEMM rate.
    void muonStateAndStep()
    {
        Plan adam = loadSample("default.plan.json");
        Plan muon = adam;
        muon.training.optimizer = Optimizer::Muon;
        const Prediction pa = evaluate(adam), pm = evaluate(muon);
        QVERIFY(pa.valid && pm.valid);
        // A middle stage: all of it Muon: (4 + 4) / (4 + 4 + 4) of Adam's state.
        const double middle = double(pa.stages[1].optimizerBytes) * 8.0 / 12.0;
        QVERIFY2(std::abs(double(pm.stages[1].optimizerBytes) - middle) <= 1.0, qPrintable(num(pm.stages[1].optimizerBytes)));
        // The first stage adds the embedding's second moment: 4 bytes * V*h/tp / dp.
        const double V = double(adam.model.vocab), h = 4096;
        const double first = double(pa.stages[0].optimizerBytes) * 8.0 / 12.0 + 4.0 * V * h / 2 / 2;
        QVERIFY2(std::abs(double(pm.stages[0].optimizerBytes) - first) <= 2.0, qPrintable(num(pm.stages[0].optimizerBytes) + " vs " + num(first)));
        auto ns = [](double a, double b) {
            const double m = std::min(a, b), n = std::max(a, b);
            return 5.0 * (4.0 * m * m * n + 2.0 * m * m * m);
        };
        const double f = 11008;
        const double perLayer = 4.0 * ns(h, h) + ns(2 * f, h) + ns(h, f);
        const double rate = adam.cluster.gpu.peakFlops.bf16 * adam.cluster.gpu.gemmEfficiency;
        const double expected = 8.0 * perLayer / 2.0 / rate;
        QVERIFY2(near(pm.stageTimes[1].newtonSchulzSeconds, expected, 1e-9), qPrintable(num(pm.stageTimes[1].newtonSchulzSeconds) + " vs " + num(expected)));
        QCOMPARE(pa.stageTimes[1].newtonSchulzSeconds, 0.0);
        QVERIFY(pm.stageTimes[1].optimizerSeconds > pa.stageTimes[1].optimizerSeconds);
        const Plan back = planFromText(serializePlan(muon));
        QVERIFY(back.training.optimizer == Optimizer::Muon);
    }

    // explain --ops: the CPU and wait columns, the flags, and a forward total (exposed + waits) equal to the pass sum.
    void operatorTableShowsTheHost()
    {
        const Prediction pr = evaluate(planFromText(qwen30b().dump()));
        const std::string table = formatOperatorTable(pr.layerOps);
        QVERIFY(table.find(" cpu ") != std::string::npos && table.find(" wait") != std::string::npos);
        QVERIFY(table.find("ep.token_counts [sync]") != std::string::npos);
        std::string totalLine;
        std::size_t at = table.find("total           forward");
        QVERIFY(at != std::string::npos);
        totalLine = table.substr(at, table.find('\n', at) - at);
        std::vector<double> nums;
        std::istringstream in(totalLine.substr(std::string("total           forward").size()));
        for (double x; in >> x;) nums.push_back(x);
        QCOMPARE(int(nums.size()), 4); // ms, exposed, cpu, wait
        QVERIFY2(std::abs(nums[1] - pr.opCosts.layerForward * 1e3) < 1.5e-3, qPrintable(QString::fromStdString(totalLine)));
        double wait = 0;
        for (const KernelOp& o : pr.layerOps)
            if (o.pass == KernelPass::Forward) wait += o.hostWaitSeconds;
        QVERIFY(std::abs(nums[3] - wait * 1e3) < 1.5e-3);
    }

    void fieldsRoundTripAndAreValidated()
    {
        const Plan plan = planFromText(qwen30b({ { "model", { { "moe", { { "syncFree", true }, { "imbalance", 1.2 } } } } },
            { "training", { { "overlapMoeComm", true },
                              { "host", { { "cudaGraphs", "per-layer" }, { "kernelSeconds", 2e-5 }, { "syncSeconds", 3e-5 },
                                            { "graphLaunchSeconds", 4e-6 }, { "launchQueue", 500 } } } } } }).dump());
        QVERIFY(plan.training.host.cudaGraphs == CudaGraphs::PerLayer);
        QCOMPARE(plan.training.host.launchQueue, 500);
        QCOMPARE(plan.model.moe.imbalance, 1.2);
        const Plan back = planFromText(serializePlan(plan));
        QVERIFY(back == plan);
        const HostParams h = hostParams(plan.training.host);
        QCOMPARE(h.kernel, 2e-5);
        QCOMPARE(h.sync, 3e-5);
        QCOMPARE(h.graphLaunch, 4e-6);
        // Bad values are named by field.
        const struct {
            json patch;
            const char* path;
        } bad[] = {
            { { { "model", { { "moe", { { "imbalance", 0.5 } } } } } }, "model.moe.imbalance" },
            { { { "training", { { "host", { { "cudaGraphs", "always" } } } } } }, "training.host.cudaGraphs" },
            { { { "training", { { "host", { { "kernelSeconds", -1 } } } } } }, "training.host.kernelSeconds" },
        };
        for (const auto& b : bad) {
            const auto r = parsePlan(qwen30b(b.patch).dump());
            bool named = false;
            for (const Issue& i : r.errors()) named = named || i.path == b.path;
            QVERIFY2(!r && named, b.path);
        }
        // An unknown key is a warning that names it.
        const auto unknown = parsePlan(qwen30b({ { "training", { { "host", { { "bogus", 1 } } } } } }).dump());
        QVERIFY(unknown);
        QVERIFY(std::any_of(unknown->warnings.begin(), unknown->warnings.end(),
            [](const Issue& i) { return i.path == "training.host.bogus"; }));
        // A full-iteration graph with the syncing dropless dispatcher is refused; the overlap without ep warns.
        const Plan full = planFromText(qwen30b({ { "training", { { "host", { { "cudaGraphs", "per-layer" } } } } } }).dump());
        Plan f = full;
        f.training.host.cudaGraphs = CudaGraphs::FullIteration;
        bool refused = false;
        for (const Issue& i : validate(f)) refused = refused || (i.path == "training.host.cudaGraphs" && i.severity == Severity::Error);
        QVERIFY(refused);
        f.model.moe.syncFree = true;
        for (const Issue& i : validate(f)) QVERIFY2(!(i.severity == Severity::Error), i.message.c_str());
        Plan o = full;
        o.parallel.ep = 1;
        o.training.overlapMoeComm = true;
        bool warned = false;
        for (const Issue& i : validate(o)) warned = warned || i.path == "training.overlapMoeComm";
        QVERIFY(warned);
    }
};

QTEST_APPLESS_MAIN(TestHost)
#include "tst_host.moc"
