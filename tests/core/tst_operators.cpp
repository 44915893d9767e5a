// The operator list of a layer against shapes derived by hand for GPT-3 175B (h = 12288, 96 heads, f = 4h,
// s = 2048, micro-batch 1) at TP = 8, with and without sequence parallelism: Megatron's column-parallel QKV and
// fc1, row-parallel projection and fc2 (Shoeybi et al. 2019, section 3), the collectives sequence parallelism puts in
// place of the all-reduces (Korthikanti et al. 2023, section 4.2.2), the backward's input and weight gradients, and
// recompute as the forward again.
#include "TestUtil.h"

#include "cost/Evaluate.h"
#include "cost/Kernels.h"
#include "cost/Operators.h"
#include "cost/Parameters.h"
#include "cost/RankLayout.h"

#include <QtTest>
#include <algorithm>
#include <string>

using namespace planscope;

namespace {

Plan gpt3(bool sp, const char* recompute = "full", bool flash = false)
{
    nlohmann::json j = nlohmann::json::parse(R"({
      "schema": "planscope/plan/v1", "name": "gpt3 ops",
      "model": { "preset": "gpt3-175b" },
      "cluster": { "gpu": "a100-sxm4-80gb", "nodes": 128, "gpusPerNode": 8 },
      "parallel": { "dp": 8, "tp": 8, "pp": 16, "zero": 0 },
      "training": { "microBatch": 1, "globalBatch": 1536, "precision": "bf16", "schedule": "1f1b" } })");
    j["parallel"]["sp"] = sp;
    j["training"]["recompute"] = recompute;
    j["training"]["flashAttention"] = flash;
    return test::planFromText(j.dump());
}

const KernelOp* find(const std::vector<KernelOp>& ops, const char* name, KernelPass pass)
{
    for (const KernelOp& op : ops)
        if (std::string(op.name) == name && op.pass == pass) return &op;
    return nullptr;
}

std::vector<std::string> names(const std::vector<KernelOp>& ops, KernelKind kind, KernelPass pass)
{
    std::vector<std::string> out;
    for (const KernelOp& op : ops)
        if (op.kind == kind && op.pass == pass) out.push_back(op.name);
    return out;
}

QString join(const std::vector<std::string>& v)
{
    QStringList l;
    for (const auto& s : v) l << QString::fromStdString(s);
    return l.join(QStringLiteral(", "));
}

} // namespace

class TestOperators : public QObject {
    Q_OBJECT
private slots:
    void gemmShapes_data()
    {
        QTest::addColumn<bool>("sp");
        QTest::newRow("tp8") << false;
        QTest::newRow("tp8 sp") << true;
    }
    void gemmShapes()
    {
        QFETCH(bool, sp);
        const Plan plan = gpt3(sp);
        QCOMPARE(plan.model.hidden, std::int64_t(12288));
        QCOMPARE(plan.model.heads, 96);
        QCOMPARE(plan.model.seqLength, std::int64_t(2048));
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        const auto& L = ops.layer;
        struct Shape {
            const char* name;
            KernelPass pass;
            std::int64_t m, n, k, batch;
        };
        // T = b*s = 2048 tokens, h/t = 1536, 3h/t = 4608, f/t = 6144, 96/8 = 12 heads of 128 on each GPU. Sequence
        // parallelism gathers the full sequence before each column-parallel GEMM, so the shapes are the same.
        const Shape expected[] = {
            { "qkv", KernelPass::Forward, 2048, 4608, 12288, 1 },
            { "attn.scores", KernelPass::Forward, 2048, 2048, 128, 12 },
            { "attn.values", KernelPass::Forward, 2048, 128, 2048, 12 },
            { "proj", KernelPass::Forward, 2048, 12288, 1536, 1 },
            { "fc1", KernelPass::Forward, 2048, 6144, 12288, 1 },
            { "fc2", KernelPass::Forward, 2048, 12288, 6144, 1 },
            // dX = dY W^T: (T x N)(N x K); dW = X^T dY: (K x T)(T x N).
            { "qkv.dgrad", KernelPass::BackwardInput, 2048, 12288, 4608, 1 },
            { "qkv.wgrad", KernelPass::BackwardWeight, 12288, 4608, 2048, 1 },
            { "proj.dgrad", KernelPass::BackwardInput, 2048, 1536, 12288, 1 },
            { "proj.wgrad", KernelPass::BackwardWeight, 1536, 12288, 2048, 1 },
            { "fc1.dgrad", KernelPass::BackwardInput, 2048, 12288, 6144, 1 },
            { "fc1.wgrad", KernelPass::BackwardWeight, 12288, 6144, 2048, 1 },
            { "fc2.dgrad", KernelPass::BackwardInput, 2048, 6144, 12288, 1 },
            { "fc2.wgrad", KernelPass::BackwardWeight, 6144, 12288, 2048, 1 },
            // Attention's batched products: dP = dO V^T, dV = P^T dO, dQ = dS K, dK = dS^T Q.
            { "attn.values.dgrad", KernelPass::BackwardInput, 2048, 2048, 128, 12 },
            { "attn.values.dvgrad", KernelPass::BackwardInput, 2048, 128, 2048, 12 },
            { "attn.scores.dqgrad", KernelPass::BackwardInput, 2048, 128, 2048, 12 },
            { "attn.scores.dkgrad", KernelPass::BackwardInput, 2048, 128, 2048, 12 },
        };
        for (const Shape& e : expected) {
            const KernelOp* op = find(L, e.name, e.pass);
            QVERIFY2(op, e.name);
            QVERIFY(op->kind == KernelKind::Gemm);
            QVERIFY2(op->m == e.m && op->n == e.n && op->k == e.k && op->batch == e.batch,
                qPrintable(QStringLiteral("%1: %2 x %3x%4x%5").arg(QLatin1String(e.name)).arg(op->batch).arg(op->m).arg(op->n).arg(op->k)));
            QVERIFY(test::near(op->flops, 2.0 * e.m * e.n * e.k * e.batch));
        }
        // Forward FLOPs per GPU: 2*T*(matrices per layer)/t + 4*b*s*s*h/t (Narayanan et al. 2021, appendix), the
        // backward twice that, and full recompute one forward again.
        const ParameterCounts pc = countParameters(plan.model);
        const double forward = 2.0 * 2048 * pc.layer.matmulActive() / 8 + 4.0 * 2048 * 2048 * 12288 / 8;
        double f = 0, r = 0, b = 0;
        for (const KernelOp& op : L) {
            if (op.kind != KernelKind::Gemm && op.kind != KernelKind::Attention) continue;
            (op.pass == KernelPass::Forward ? f : op.pass == KernelPass::Recompute ? r : b) += op.flops;
        }
        QVERIFY2(test::near(f, forward, 1e-9), qPrintable(QStringLiteral("%1 vs %2").arg(f).arg(forward)));
        QVERIFY(test::near(r, forward, 1e-9));
        QVERIFY(test::near(b, 2 * forward, 1e-9));
    }

    void collectivesWithoutSequenceParallelism()
    {
        const Plan plan = gpt3(false, "none");
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        const auto& L = ops.layer;
        // Forward: the row-parallel outputs are all-reduced (g); backward: the column-parallel input gradients (f'),
        // each behind the weight-gradient GEMM of its layer (Megatron-Core's async all-reduce).
        QCOMPARE(join(names(L, KernelKind::Collective, KernelPass::Forward)), QStringLiteral("tp.allreduce.proj, tp.allreduce.mlp"));
        QCOMPARE(join(names(L, KernelKind::Collective, KernelPass::BackwardInput)),
            QStringLiteral("tp.allreduce.mlp.dgrad, tp.allreduce.qkv.dgrad"));
        const double S = 2.0 * 2048 * 12288; // b*s*h bf16 elements
        for (const KernelOp& op : L) {
            if (op.kind != KernelKind::Collective) continue;
            QVERIFY(op.collective == Collective::AllReduce);
            QVERIFY(op.group == GroupKind::TP);
            QCOMPARE(op.groupSize, 8);
            QCOMPARE(op.bytes, S);
            if (op.pass == KernelPass::Forward) {
                QCOMPARE(op.hiddenBy, -1);
                QCOMPARE(op.exposedSeconds, op.seconds);
            } else {
                QVERIFY(op.hiddenBy >= 0);
                const KernelOp& behind = L[std::size_t(op.hiddenBy)];
                QVERIFY(std::string(behind.name).find(".wgrad") != std::string::npos);
                QVERIFY(test::near(op.exposedSeconds, std::max(0.0, op.seconds - behind.seconds)));
            }
        }
        // No recompute: no recompute ops.
        QVERIFY(names(L, KernelKind::Gemm, KernelPass::Recompute).empty());
    }

    void collectivesWithSequenceParallelism()
    {
        const Plan plan = gpt3(true, "none");
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        const auto& L = ops.layer;
        QCOMPARE(join(names(L, KernelKind::Collective, KernelPass::Forward)),
            QStringLiteral("tp.allgather.qkv, tp.reducescatter.proj, tp.allgather.mlp, tp.reducescatter.mlp"));
        QCOMPARE(join(names(L, KernelKind::Collective, KernelPass::BackwardInput)),
            QStringLiteral("tp.allgather.mlp.bwd, tp.allgather.mlp.input, tp.reducescatter.mlp.dgrad, tp.allgather.proj.bwd, "
                           "tp.allgather.qkv.input, tp.reducescatter.qkv.dgrad"));
        // The re-gathered inputs hide behind the input-gradient GEMM, the reduce-scatters behind the weight gradient.
        for (auto [name, behind] : { std::pair { "tp.allgather.mlp.input", "fc1.dgrad" }, { "tp.reducescatter.mlp.dgrad", "fc1.wgrad" },
                 { "tp.allgather.qkv.input", "qkv.dgrad" }, { "tp.reducescatter.qkv.dgrad", "qkv.wgrad" } }) {
            const KernelOp* op = find(L, name, KernelPass::BackwardInput);
            QVERIFY2(op && op->hiddenBy >= 0, name);
            QCOMPARE(std::string(L[std::size_t(op->hiddenBy)].name), std::string(behind));
        }
        // Norms and dropout run on the sequence shard: s/t tokens. LayerNorm reads and writes b*s/t*h bf16 values.
        const KernelOp* norm = find(L, "input_norm", KernelPass::Forward);
        QVERIFY(norm);
        QCOMPARE(norm->bytes, 2.0 * 2.0 * 2048 / 8 * 12288);
        const KernelOp* noSpNorm = find(operatorList(gpt3(false, "none"), rankLayout(gpt3(false, "none"))).layer, "input_norm",
            KernelPass::Forward);
        QVERIFY(noSpNorm);
        QCOMPARE(noSpNorm->bytes, 8 * norm->bytes);
    }

    void tpCommOverlapHidesTheForward()
    {
        Plan plan = gpt3(true, "none");
        plan.training.tpCommOverlap = true;
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        for (const KernelOp& op : ops.layer)
            if (op.kind == KernelKind::Collective) QVERIFY2(op.hiddenBy >= 0, op.name);
        QVERIFY(ops.layerTotals.commForward < sumPasses(operatorList(gpt3(true, "none"), rankLayout(gpt3(true, "none"))).layer).commForward);
    }

    // Transformer Engine's userbuffers defaults (transformer_engine/pytorch/module/base.py, get_default_config): ring
    // exchange for the all-gathers before qkv and fc1 (num_splits = tp, copy engines), pipeline for the reduce-scatters
    // after proj and fc2 (4 splits, 16 SMs held by the communication kernel), bulk beside the backward's dgrad and
    // wgrad (16 SMs). Each GEMM is the GEMM model at the split shape on the SMs left.
    void tpCommOverlapRunsTransformerEngineSplits()
    {
        Plan plan = gpt3(true, "none");
        plan.training.tpCommOverlap = true;
        const GpuSpec& gpu = plan.cluster.gpu;
        const int t = plan.parallel.tp;
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        struct Row { const char* name; KernelPass pass; int splits, sms; };
        const KernelPass f = KernelPass::Forward, bi = KernelPass::BackwardInput, bw = KernelPass::BackwardWeight;
        for (const Row& r : { Row { "qkv", f, t, 0 }, Row { "fc1", f, t, 0 }, Row { "proj", f, 4, 16 }, Row { "fc2", f, 4, 16 },
                 Row { "proj.dgrad", bi, t, 0 }, Row { "fc2.dgrad", bi, t, 0 }, Row { "qkv.dgrad", bi, 1, 16 },
                 Row { "fc1.dgrad", bi, 1, 16 }, Row { "qkv.wgrad", bw, 1, 16 }, Row { "fc1.wgrad", bw, 1, 16 } }) {
            const KernelOp* op = find(ops.layer, r.name, r.pass);
            QVERIFY2(op, r.name);
            QCOMPARE(op->splits, r.splits);
            QCOMPARE(op->reservedSms, r.sms);
            const double one = kernels::gemm(gpu, Precision::BF16, op->m / r.splits, op->n, op->k, op->batch, r.sms).seconds;
            QVERIFY2(test::near(op->seconds, r.splits * one, 1e-12), r.name);
            QCOMPARE(op->contentionSeconds, 0.0); // copy engines, or SMs already held for the whole GEMM
        }
        // Under fp8 the overlapped all-gathers carry one byte an element (TE's fp8_buf), the reduce-scatters two.
        Plan fp8 = plan;
        fp8.training.precision = Precision::FP8;
        fp8.training.fp8Recipe = Fp8Recipe::Current;
        const OperatorList f8 = operatorList(fp8, rankLayout(fp8));
        const double tokens = double(plan.training.microBatch) * double(plan.model.seqLength), h = double(plan.model.hidden);
        QCOMPARE(find(f8.layer, "tp.allgather.qkv", f)->bytes, tokens * h);
        QCOMPARE(find(f8.layer, "tp.allgather.mlp.bwd", bi)->bytes, tokens * h);
        QCOMPARE(find(f8.layer, "tp.reducescatter.proj", f)->bytes, 2.0 * tokens * h);
        QCOMPARE(find(ops.layer, "tp.allgather.qkv", f)->bytes, 2.0 * tokens * h);
        // The split GEMMs cost more than the whole ones: the overlap is not free.
        const OperatorList plain = operatorList(gpt3(true, "none"), rankLayout(gpt3(true, "none")));
        QVERIFY(find(ops.layer, "fc1", f)->seconds > find(plain.layer, "fc1", f)->seconds);
        QVERIFY(find(ops.layer, "proj", f)->seconds > find(plain.layer, "proj", f)->seconds);
    }

    // Without TE's overlap, Megatron-Core still hides the backward's input all-gather behind the input-gradient GEMM and
    // the gradient's reduce-scatter behind the weight-gradient GEMM, as NCCL kernels of one CUDA block per channel: the
    // GEMM loses k/S of the SMs for the seconds they overlap.
    void hiddenNcclCollectivesSlowTheirGemm()
    {
        const Plan plan = gpt3(true, "none");
        const GpuSpec& gpu = plan.cluster.gpu;
        const double k = plan.overheads.ncclChannels, S = gpu.sms;
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        int checked = 0;
        for (const KernelOp& c : ops.layer) {
            if (c.kind != KernelKind::Collective || c.hiddenBy < 0) continue;
            const KernelOp& g = ops.layer[std::size_t(c.hiddenBy)];
            QVERIFY(g.kind == KernelKind::Gemm);
            const double alone = kernels::gemm(gpu, Precision::BF16, g.m, g.n, g.k, g.batch).seconds;
            QVERIFY2(test::near(g.contentionSeconds, k / S * std::min(c.seconds, alone), 1e-9), g.name);
            QVERIFY(test::near(g.seconds, alone + g.contentionSeconds, 1e-12));
            QVERIFY(test::near(c.exposedSeconds, std::max(0.0, c.seconds - g.seconds), 1e-12));
            ++checked;
        }
        QCOMPARE(checked, 4); // qkv and fc1: the input regathered behind dgrad, the reduce-scatter behind wgrad
    }

    void recompute()
    {
        // Full: the whole forward again, collectives included. Selective (unfused attention): the attention core,
        // its two batched GEMMs, softmax and dropout (Korthikanti et al. 2023, section 5). Selective with flash
        // attention: nothing (the kernel recomputes inside its backward).
        const Plan full = gpt3(false, "full");
        const OperatorList f = operatorList(full, rankLayout(full));
        std::vector<std::string> fwd, rec;
        for (const KernelOp& op : f.layer) {
            if (op.pass == KernelPass::Forward) fwd.push_back(op.name);
            if (op.pass == KernelPass::Recompute) rec.push_back(op.name);
        }
        QCOMPARE(join(rec), join(fwd));
        QVERIFY(test::near(f.layerTotals.recompute, f.layerTotals.forward));

        const Plan sel = gpt3(false, "selective");
        const OperatorList s = operatorList(sel, rankLayout(sel));
        std::vector<std::string> selRec;
        for (const KernelOp& op : s.layer)
            if (op.pass == KernelPass::Recompute) selRec.push_back(op.name);
        QCOMPARE(join(selRec), QStringLiteral("attn.scores, attn.softmax, attn.dropout, attn.values"));

        const Plan flash = gpt3(false, "selective", true);
        const OperatorList fl = operatorList(flash, rankLayout(flash));
        QCOMPARE(fl.layerTotals.recompute, 0.0);
        const KernelOp* att = find(fl.layer, "attention", KernelPass::Forward);
        QVERIFY(att && att->kind == KernelKind::Attention);
        // What the kernel executes: half of 4*b*s*s*h/t under the causal mask (the model FLOPs count it whole).
        QVERIFY(test::near(att->flops, 0.5 * 4.0 * 2048 * 2048 * 12288 / 8));
        QVERIFY(test::near(att->efficiency, att->flops / (att->seconds * 312e12)));
        const KernelOp* attB = find(fl.layer, "attention.bwd", KernelPass::BackwardInput);
        QVERIFY(attB && test::near(attB->flops, 2.5 * att->flops));
    }

    void shapesToMeasure()
    {
        // What planscope-profile --plan times: every distinct batch-1 GEMM of the layer and the output layer. For
        // GPT-3 175B at TP 8 (V = 51200 padded, V/t = 6400): QKV, projection, fc1, fc2 and logits, each forward,
        // input gradient and weight gradient, where fc1's input gradient has fc2's forward shape and fc2's input
        // gradient fc1's: 15 - 2 = 13 shapes; the attention products are batched and left out.
        const Plan plan = gpt3(false);
        QCOMPARE(plan.model.vocab, std::int64_t(51200));
        const auto shapes = distinctGemmShapes(plan);
        const std::vector<std::array<std::int64_t, 3>> expected { { 2048, 4608, 12288 }, { 2048, 12288, 1536 },
            { 2048, 6144, 12288 }, { 2048, 12288, 6144 }, { 6144, 12288, 2048 }, { 12288, 6144, 2048 },
            { 2048, 1536, 12288 }, { 1536, 12288, 2048 }, { 2048, 12288, 4608 }, { 12288, 4608, 2048 },
            { 2048, 6400, 12288 }, { 2048, 12288, 6400 }, { 12288, 6400, 2048 } };
        QCOMPARE(shapes.size(), expected.size());
        for (const auto& e : expected)
            QVERIFY2(std::find(shapes.begin(), shapes.end(), e) != shapes.end(),
                qPrintable(QStringLiteral("%1x%2x%3").arg(e[0]).arg(e[1]).arg(e[2])));
    }

    void mixtureOfExperts()
    {
        // Mixtral 8x7B (h = 4096, 8 experts of f = 14336, top-2, gated), s = 32768, TP 2 with SP, EP 4. Megatron-
        // Core's all-to-all dispatcher: each GPU routes its T/t = 16384 tokens, the all-to-all moves 16384*2 token
        // copies of h bf16 values over EP, the expert-TP group all-gathers them to T*topK = 65536 copies; each GPU
        // holds 8/4 = 2 experts with 32768 tokens each (balanced routing) and f/t of their width. Before the dispatch
        // the per-expert counts are all-gathered, beside it the routing probabilities (token_dispatcher.py).
        nlohmann::json j = nlohmann::json::parse(R"({
          "schema": "planscope/plan/v1", "name": "mixtral ops",
          "model": { "preset": "mixtral-8x7b" },
          "cluster": { "gpu": "h100-sxm5-80gb", "nodes": 8, "gpusPerNode": 8 },
          "parallel": { "dp": 32, "tp": 2, "pp": 1, "ep": 4, "sp": true },
          "training": { "microBatch": 1, "globalBatch": 256, "precision": "bf16", "flashAttention": true } })");
        const Plan plan = test::planFromText(j.dump());
        QCOMPARE(plan.model.seqLength, std::int64_t(32768));
        QCOMPARE(plan.model.hidden, std::int64_t(4096));
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        const auto& L = ops.layer;
        QCOMPARE(join(names(L, KernelKind::Collective, KernelPass::Forward)),
            QStringLiteral("tp.allgather.qkv, tp.reducescatter.proj, ep.token_counts, ep.dispatch, ep.dispatch.probs, "
                           "tp.allgather.experts, tp.reducescatter.experts, ep.combine"));
        const KernelOp* router = find(L, "router", KernelPass::Forward);
        QVERIFY(router && router->m == 16384 && router->n == 8 && router->k == 4096);
        const KernelOp* dispatch = find(L, "ep.dispatch", KernelPass::Forward);
        QVERIFY(dispatch && dispatch->collective == Collective::AllToAll && dispatch->group == GroupKind::EP);
        QCOMPARE(dispatch->groupSize, 4);
        QCOMPARE(dispatch->bytes, 2.0 * 16384 * 2 * 4096);
        const KernelOp* gather = find(L, "tp.allgather.experts", KernelPass::Forward);
        QVERIFY(gather && gather->group == GroupKind::TP);
        QCOMPARE(gather->bytes, 2.0 * 32768 * 2 * 4096);
        const KernelOp* fc1 = find(L, "experts.fc1", KernelPass::Forward);
        QVERIFY(fc1 && fc1->batch == 2 && fc1->m == 32768 && fc1->n == 14336 && fc1->k == 4096);
        const KernelOp* fc2 = find(L, "experts.fc2", KernelPass::Forward);
        QVERIFY(fc2 && fc2->batch == 2 && fc2->m == 32768 && fc2->n == 4096 && fc2->k == 7168);
        // QKV with GQA (8 of 32 heads for K and V): N = (4096 + 2*1024)/2 = 3072.
        const KernelOp* qkv = find(L, "qkv", KernelPass::Forward);
        QVERIFY(qkv && qkv->m == 32768 && qkv->n == 3072 && qkv->k == 4096);
        // Backward mirrors the dispatcher: combine, all-gather, experts, reduce-scatter, dispatch.
        QCOMPARE(join(names(L, KernelKind::Collective, KernelPass::BackwardInput)),
            QStringLiteral("tp.allgather.proj.bwd, tp.allgather.qkv.input, tp.reducescatter.qkv.dgrad")
                .prepend(QStringLiteral("ep.combine.bwd, tp.allgather.experts.bwd, tp.reducescatter.experts.bwd, ep.dispatch.bwd, ep.dispatch.probs.bwd, ")));
    }

    void contextParallel()
    {
        // GPT-3 at TP 8, CP 2, flash attention: each GPU holds s/cp = 1024 tokens; ring attention passes its K and V,
        // 2*e*T*h/t bytes (no GQA), in cp - 1 = 1 step, hidden behind the attention kernel.
        nlohmann::json j = nlohmann::json::parse(R"({
          "schema": "planscope/plan/v1", "name": "gpt3 cp",
          "model": { "preset": "gpt3-175b" },
          "cluster": { "gpu": "a100-sxm4-80gb", "nodes": 128, "gpusPerNode": 8 },
          "parallel": { "dp": 4, "tp": 8, "pp": 16, "cp": 2, "sp": true },
          "training": { "microBatch": 1, "globalBatch": 1536, "precision": "bf16", "flashAttention": true } })");
        const Plan plan = test::planFromText(j.dump());
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        const KernelOp* qkv = find(ops.layer, "qkv", KernelPass::Forward);
        QVERIFY(qkv && qkv->m == 1024 && qkv->n == 4608 && qkv->k == 12288);
        const KernelOp* kv = find(ops.layer, "cp.kv", KernelPass::Forward);
        QVERIFY(kv && kv->collective == Collective::SendRecv && kv->group == GroupKind::CP);
        QCOMPARE(kv->bytes, 2.0 * 2 * 1024 * 12288 / 8);
        QCOMPARE(kv->repeat, 1);
        QVERIFY(kv->hiddenBy >= 0);
        QCOMPARE(std::string(ops.layer[std::size_t(kv->hiddenBy)].name), std::string("attention"));
        // Attention FLOPs: each GPU's 1024 queries against all 2048 keys, half under the causal mask.
        const KernelOp* att = find(ops.layer, "attention", KernelPass::Forward);
        QVERIFY(att && test::near(att->flops, 0.5 * 4.0 * 1024 * 2048 * 12288 / 8));
    }

    void fp8RunsOnlyTransformerEngineGemms()
    {
        // Under fp8 the layer's linear GEMMs run in fp8; the output layer (a plain ColumnParallelLinear in Megatron),
        // the router and the unfused attention products stay in bf16, so their times do not change with the precision.
        Plan bf = gpt3(false, "none");
        Plan f8 = bf;
        bf.cluster.gpu = f8.cluster.gpu = test::loadSample("llama3-405b-8k-h100.plan.json").cluster.gpu;
        f8.training.precision = Precision::FP8;
        const OperatorList a = operatorList(bf, rankLayout(bf)), b = operatorList(f8, rankLayout(f8));
        QCOMPARE(a.layer.size() + 2, b.layer.size()); // fp8 adds the forward and backward casts
        const KernelOp* logitsA = find(a.output, "logits", KernelPass::Forward);
        const KernelOp* logitsB = find(b.output, "logits", KernelPass::Forward);
        QVERIFY(logitsA && logitsB && !logitsB->fp8);
        QCOMPARE(logitsB->seconds, logitsA->seconds);
        const KernelOp* scoresB = find(b.layer, "attn.scores", KernelPass::Forward);
        QVERIFY(scoresB && !scoresB->fp8 && scoresB->seconds == find(a.layer, "attn.scores", KernelPass::Forward)->seconds);
        const KernelOp* qkvA = find(a.layer, "qkv", KernelPass::Forward);
        const KernelOp* qkvB = find(b.layer, "qkv", KernelPass::Forward);
        QVERIFY(qkvB && qkvB->fp8 && qkvB->seconds < qkvA->seconds);
        // Casts: forward inputs of QKV, proj, fc1, fc2 (h + h/t + h + f/t per token), read in bf16 and written in fp8.
        const KernelOp* casts = find(b.layer, "fp8_casts", KernelPass::Forward);
        QVERIFY(casts);
        QCOMPARE(casts->bytes, 3.0 * 2048 * (12288 + 12288 / 8 + 12288 + 49152 / 8));
    }

    void splitBackwardExposesTheReductions()
    {
        // Zero-bubble schedules run the weight gradient later, so the input-gradient all-reduce has no GEMM to hide
        // behind.
        Plan plan = gpt3(false, "none");
        plan.training.schedule = ScheduleKind::ZBH1;
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        for (const char* name : { "tp.allreduce.mlp.dgrad", "tp.allreduce.qkv.dgrad" }) {
            const KernelOp* op = find(ops.layer, name, KernelPass::BackwardInput);
            QVERIFY2(op && op->hiddenBy == -1 && op->exposedSeconds == op->seconds, name);
        }
    }

    void startTimesFollowTheCriticalPath()
    {
        // Ops one after another by their exposed time; a hidden collective starts with the GEMM that hides it; the
        // layer ends at the sum of the exposed times (the pass totals), unless a hidden collective outlasts its GEMM.
        const Plan plan = gpt3(true, "none");
        const OperatorList ops = operatorList(plan, rankLayout(plan));
        double end = 0;
        const std::vector<double> start = opStartTimes(ops.layer, &end);
        QCOMPARE(start.size(), ops.layer.size());
        const PassTotals t = ops.layerTotals;
        const double exposed = t.forward + t.recompute + t.backwardInput + t.backwardWeight;
        double cursor = 0;
        for (std::size_t i = 0; i < ops.layer.size(); ++i) {
            const KernelOp& op = ops.layer[i];
            if (isOverlapped(ops.layer, i)) {
                QCOMPARE(start[i], start[std::size_t(op.hiddenBy)]);
                continue;
            }
            QVERIFY2(test::near(start[i], cursor, 1e-12), op.name);
            cursor += op.exposedSeconds;
            for (std::size_t j = 0; j < ops.layer.size(); ++j)
                if (ops.layer[j].hiddenBy == int(i)) cursor += ops.layer[j].exposedSeconds;
        }
        QVERIFY(test::near(cursor, exposed, 1e-12));
        QVERIFY(end >= exposed * (1 - 1e-12));
    }

    void evaluateSumsTheOps()
    {
        // The stage times are the op sums: forward = layers*layerForward (+ the output layer on the last stage).
        const Plan plan = gpt3(true);
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const PassTotals t = sumPasses(pr.layerOps);
        QVERIFY(test::near(pr.opCosts.layerForward, t.forward));
        QVERIFY(test::near(pr.opCosts.layerBackward, t.recompute + t.backwardInput + t.backwardWeight));
        QVERIFY(test::near(pr.opCosts.layerWeightGrad, t.backwardWeight));
        const StageTime& first = pr.stageTimes.front();
        QVERIFY(test::near(first.forwardSeconds, 96.0 / 16 * t.forward));
        const PassTotals o = sumPasses(pr.outputOps);
        QVERIFY(test::near(pr.stageTimes.back().forwardSeconds, 96.0 / 16 * t.forward + o.forward));
    }
};

QTEST_GUILESS_MAIN(TestOperators)
#include "tst_operators.moc"
