// The allocator and the runtime (docs/MODEL.md section 4, core/cost/Runtime.h): each term against its formula,
// written out here from its source, and the simulated peak inside the step against a hand count.
// - NCCL buffers: NCCL user guide, environment variables: NCCL_BUFFSIZE (4 MiB) per channel per connection;
//   a ring has 2 connections per channel, NCCL's tree 3 more where the group spans nodes; point-to-point
//   communicators open NCCL_NCHANNELS_PER_NET_PEER (2) channels per peer.
// - workspaces: cuBLAS documentation, cublasSetWorkspace(): 32 MiB on Hopper, 4 MiB before; PyTorch keeps a cuBLAS
//   and a cuBLASLt workspace, Transformer Engine its own (4 more for grouped GEMMs).
// - logits: Megatron-LM cross_entropy.py casts the s x b x V/t logits to fp32; the 16-bit copy (or its gradient)
//   is the temporary beside it.
// - allocator: reserved = allocated + a * (allocated - persistent) + 22 MiB (the newest 2 MiB and 20 MiB
//   segments of PyTorch's caching allocator), or (1 + f) * allocated where the plan gives f.
// The default plan: Llama 2 7B (h 4096, f 11008, 32 layers, V 32000, s 4096, untied embeddings, no biases) on
// 2 nodes of 8 A100-80GB (no fp8), tp 2, pp 4, dp 2, ZeRO-1, 1F1B over 64/(1*2) = 32 microbatches.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "cost/RankLayout.h"
#include "cost/Runtime.h"
#include "io/PredictionJson.h"
#include "sim/Timeline.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

constexpr std::int64_t MiB = 1 << 20;

json defaultJson()
{
    auto text = readTextFile(test::samplePath("default.plan.json"));
    return text ? json::parse(text.value()) : json();
}

Plan withChanges(std::initializer_list<std::pair<const char*, json>> changes)
{
    json j = defaultJson();
    for (const auto& [pointer, value] : changes) j[json::json_pointer(pointer)] = value;
    return test::planFromText(j.dump());
}

// Reserved - allocated by the documented rule, computed here.
std::int64_t slack(double a, std::int64_t allocated, std::int64_t persistent)
{
    return std::llround(a * double(allocated - persistent) + double(22 * MiB));
}

std::int64_t persistentOf(const StageMemory& s)
{
    return s.weightsBytes + s.gradientsBytes + s.optimizerBytes + s.buffers.cublasWorkspaceBytes
        + s.buffers.teWorkspaceBytes + s.buffers.zeroBucketBytes;
}

} // namespace

class TestRuntimeMemory : public QObject {
    Q_OBJECT
private slots:
    void ncclBuffersPerCommunicator()
    {
        const Plan plan = test::loadSample("default.plan.json");
        QVERIFY(!plan.model.tiedEmbeddings); // Llama 2: no embedding group
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        // Megatron's order tp-cp-ep-dp-pp on 8-GPU nodes: tp = {0,1} and dp = {0,2} inside a node, the pipeline
        // {0,4,8,12} across the two nodes. Stage 0 and 3: tp ring + dp ring + one pipeline peer; stages 1, 2: two.
        const std::int64_t buff = 4 * MiB;
        const std::int64_t ring = buff * 16 * 2;
        const std::int64_t ends = ring + ring + buff * 2 * 1, middle = ring + ring + buff * 2 * 2;
        QCOMPARE(pr.stages[0].buffers.ncclBytes, ends);
        QCOMPARE(pr.stages[1].buffers.ncclBytes, middle);
        QCOMPARE(pr.stages[2].buffers.ncclBytes, middle);
        QCOMPARE(pr.stages[3].buffers.ncclBytes, ends);
        QCOMPARE(pr.stages[0].buffers.ncclCommunicators, 3);
        const auto comms = rankCommunicators(plan, rankLayout(plan), 1);
        QCOMPARE(int(comms.size()), 3);
        for (const Communicator& c : comms) QCOMPARE(c.bytes, c.p2p ? buff * 2 * 2 : ring);

        // NCCL's settings from the plan: 2 MiB buffers, 8 channels.
        const Prediction small = evaluate(withChanges({ { "/memoryOverheads/ncclBuffSize", 2 * MiB },
            { "/memoryOverheads/ncclChannels", 8 } }));
        QCOMPARE(small.stages[1].buffers.ncclBytes, 2 * MiB * 8 * 2 * 2 + 2 * MiB * 2 * 2);
        // A flat size per group given in the plan wins: 3 groups of size > 1 (tp, dp, pp) of 100 MiB.
        const Prediction flat = evaluate(withChanges({ { "/memoryOverheads/ncclBufferBytesPerGroup", 100 * MiB } }));
        for (const StageMemory& s : flat.stages) QCOMPARE(s.buffers.ncclBytes, 3 * 100 * MiB);

        // A tied embedding adds Megatron's embedding group on the first and last stage: a 2-rank ring across the
        // nodes (stage 0 on node 0, stage 3 on node 1) with the tree's 3 connections: 16 * 5 channels-connections.
        const Prediction tied = evaluate(withChanges({ { "/model/tiedEmbeddings", true } }));
        QCOMPARE(tied.stages[0].buffers.ncclBytes, ends + buff * 16 * 5);
        QCOMPARE(tied.stages[1].buffers.ncclBytes, middle);
    }

    void workspacesByGpu()
    {
        const Prediction a100 = evaluate(test::loadSample("default.plan.json"));
        for (const StageMemory& s : a100.stages) {
            QCOMPARE(s.buffers.cublasWorkspaceBytes, 2 * 4 * MiB); // A100: no fp8, 4 MiB each
            QCOMPARE(s.buffers.teWorkspaceBytes, 4 * MiB);
            QCOMPARE(s.buffers.cudaContextBytes, std::int64_t(768) * MiB);
        }
        const Prediction h100 = evaluate(withChanges({ { "/cluster/gpu", "h100-sxm5-80gb" } }));
        QCOMPARE(h100.stages[0].buffers.cublasWorkspaceBytes, 2 * 32 * MiB);
        QCOMPARE(h100.stages[0].buffers.teWorkspaceBytes, 32 * MiB);
        const Prediction given = evaluate(withChanges({ { "/memoryOverheads/workspaceBytes", 8 * MiB },
            { "/memoryOverheads/cudaContextBytes", 512 * MiB } }));
        QCOMPARE(given.stages[0].buffers.cublasWorkspaceBytes, 16 * MiB);
        QCOMPARE(given.stages[0].buffers.cudaContextBytes, 512 * MiB);
    }

    void logitsOnTheLastStage()
    {
        const Prediction pr = evaluate(test::loadSample("default.plan.json"));
        // bf16 logits: e * s * b * V / t = 2 * 4096 * 1 * 32000 / 2.
        const std::int64_t logits = std::int64_t(2) * 4096 * 1 * 32000 / 2;
        QCOMPARE(pr.stages[3].buffers.logitsBytes, logits);
        for (int r = 0; r < 3; ++r) QCOMPARE(pr.stages[std::size_t(r)].buffers.logitsBytes, std::int64_t(0));
        // With cp = 2 the sequence on a rank halves.
        const Prediction cp = evaluate(withChanges({ { "/parallel/cp", 2 }, { "/parallel/dp", 1 },
            { "/training/flashAttention", true } }));
        QVERIFY(cp.valid);
        QCOMPARE(cp.stages[3].buffers.logitsBytes, logits / 2);
    }

    void zero3GatherIsATemporary()
    {
        const Prediction pr = evaluate(withChanges({ { "/parallel/zero", 3 } }));
        QVERIFY(pr.valid);
        // One Llama 2 7B layer on a GPU of tp 2: (Q, K, V, O 4h^2 + gated MLP 3hf)/t + two RMSNorms 2h.
        const double h = 4096, f = 11008;
        const double layer = (4 * h * h + 3 * h * f) / 2 + 2 * h;
        for (const StageMemory& s : pr.stages) {
            QCOMPARE(s.buffers.zeroGatherBytes, std::llround(2 * layer * 2 + layer * 4)); // 2 bf16 layers + fp32 grad
            QCOMPARE(s.steadyBytes, s.totalBytes - s.buffers.zeroGatherBytes - s.buffers.logitsBytes - s.buffers.fragmentationBytes);
        }
    }

    void reservedFromAllocated()
    {
        const Prediction pr = evaluate(test::loadSample("default.plan.json"));
        for (const StageMemory& s : pr.stages) {
            const BufferTerms& b = s.buffers;
            const std::int64_t allocated = s.weightsBytes + s.gradientsBytes + s.optimizerBytes + s.activationsBytes
                + b.cublasWorkspaceBytes + b.teWorkspaceBytes + b.zeroBucketBytes + b.zeroGatherBytes + b.logitsBytes;
            QCOMPARE(s.allocatedBytes, allocated);
            QCOMPARE(b.fragmentationBytes, slack(0.1, allocated, persistentOf(s)));
            QCOMPARE(s.reservedBytes, allocated + b.fragmentationBytes);
            QVERIFY(s.reservedBytes >= s.allocatedBytes);
            QCOMPARE(s.totalBytes, s.reservedBytes + b.cudaContextBytes + b.ncclBytes);
            QCOMPARE(s.totalBytes, s.weightsBytes + s.gradientsBytes + s.optimizerBytes + s.activationsBytes + s.buffersBytes);
        }
        // The user's flat share wins.
        const Prediction flat = evaluate(withChanges({ { "/memoryOverheads/fragmentation", 0.05 } }));
        for (const StageMemory& s : flat.stages)
            QCOMPARE(s.buffers.fragmentationBytes, std::llround(0.05 * double(s.allocatedBytes)));
        // And the model's share is the plan's.
        const Prediction tight = evaluate(withChanges({ { "/memoryOverheads/allocatorSlack", 0.0 } }));
        for (const StageMemory& s : tight.stages) QCOMPARE(s.buffers.fragmentationBytes, 22 * MiB);
    }

    void simulatedPeakInsideTheStep()
    {
        const Plan plan = test::loadSample("default.plan.json");
        AnalysisOptions options;
        const auto a = analyse(plan, options);
        QVERIFY(a->valid() && a->timeline);
        const Timeline& tl = *a->timeline;
        const int p = 4;
        for (int r = 0; r < p; ++r) {
            const StageMemory& s = a->prediction.stages[std::size_t(r)];
            const BufferTerms& b = s.buffers;
            // 1F1B: stage r holds p - r microbatches at its peak; a microbatch on a stage is its 8 layers plus the
            // embedding's extra (first) or the loss's (last); the last stage's logits are held during its ops.
            const std::int64_t chunk = 8 * s.activationsPerLayerBytes + (r == 0 ? s.embeddingActivationBytes : 0)
                + (r == p - 1 ? s.outputActivationBytes : 0);
            const std::int64_t allocatedPeak = persistentOf(s) + (p - r) * chunk + (r == p - 1 ? b.logitsBytes : 0);
            const std::int64_t outside = b.cudaContextBytes + b.ncclBytes;
            const RankMetrics& m = tl.ranks[std::size_t(r)];
            QCOMPARE(m.staticBytes, outside + persistentOf(s));
            QCOMPARE(m.allocatedPeakBytes, allocatedPeak);
            QCOMPARE(m.inUsePeakBytes, outside + allocatedPeak);
            QCOMPARE(m.reservedPeakBytes, allocatedPeak + slack(0.1, allocatedPeak, persistentOf(s)));
            QCOMPARE(m.peakBytes, m.reservedPeakBytes + outside);
            QCOMPARE(s.simulatedPeakBytes, m.peakBytes); // carried by the one analysis's prediction
            // The steady state holds the same microbatches without the temporaries and the slack.
            QVERIFY(s.steadyBytes < m.peakBytes);
            // The analytic peak counts the same terms; they differ only by rounding the per-layer bytes.
            QVERIFY2(std::llabs(m.peakBytes - s.totalBytes) <= 64,
                qPrintable(QStringLiteral("stage %1: %2 vs %3").arg(r).arg(m.peakBytes).arg(s.totalBytes)));
        }
        // The last stage's logits show in its memory over time while its ops run, and nowhere else.
        const StageMemory& last = a->prediction.stages[3];
        bool seen = false;
        for (const MemoryPoint& mp : tl.memory[3]) {
            QVERIFY(mp.temporaryBytes == 0 || mp.temporaryBytes == last.buffers.logitsBytes);
            seen = seen || mp.temporaryBytes == last.buffers.logitsBytes;
        }
        QVERIFY(seen);
        for (const MemoryPoint& mp : tl.memory[0]) QCOMPARE(mp.temporaryBytes, std::int64_t(0));
    }

    void recomputeWorkspaceDuringBackward()
    {
        // Full recompute: one layer's full activations are held while a backward recomputes it. Stage 0's peak
        // is its p = 4 checkpointed microbatches plus that workspace (during the first backward).
        const Plan plan = withChanges({ { "/training/recompute", "full" } });
        const auto a = analyse(plan);
        QVERIFY(a->valid() && a->timeline);
        const StageMemory& s = a->prediction.stages[0];
        QVERIFY(s.recomputeWorkspaceBytes > 0);
        const std::int64_t chunk = 8 * s.activationsPerLayerBytes + s.embeddingActivationBytes;
        const std::int64_t allocatedPeak = persistentOf(s) + 4 * chunk + s.recomputeWorkspaceBytes;
        QCOMPARE(a->timeline->ranks[0].allocatedPeakBytes, allocatedPeak);
        // Between ops nothing temporary is held: the memory's last point is the static terms.
        QCOMPARE(a->timeline->memory[0].back().bytes, a->timeline->ranks[0].staticBytes);
    }

    void predictionJsonCarriesTheNewFields()
    {
        const auto a = analyse(test::loadSample("default.plan.json"));
        const json j = predictionToJson(a->prediction);
        const json& s = j["memory"]["stages"][3];
        for (const char* k : { "allocatedBytes", "reservedBytes", "steadyBytes", "simulatedPeakBytes", "totalBytes" })
            QVERIFY2(s.contains(k), k);
        QCOMPARE(s["simulatedPeakBytes"].get<std::int64_t>(), a->timeline->ranks[3].peakBytes);
        for (const char* k : { "cudaContextBytes", "cublasWorkspaceBytes", "teWorkspaceBytes", "ncclBytes", "zeroBucketBytes",
                 "zeroGatherBytes", "logitsBytes", "fragmentationBytes" })
            QVERIFY2(s["buffers"].contains(k), k);
        // Without a simulation there is no simulated peak.
        QVERIFY(predictionToJson(a->analytic)["memory"]["stages"][3]["simulatedPeakBytes"].is_null());
    }
};

QTEST_GUILESS_MAIN(TestRuntimeMemory)
#include "tst_runtime_memory.moc"
