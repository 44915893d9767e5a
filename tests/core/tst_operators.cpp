// The operator list of a layer against shapes derived by hand for GPT-3 175B (h = 12288, 96 heads, f = 4h,
// s = 2048, micro-batch 1) at TP = 8, with and without sequence parallelism: Megatron's column-parallel QKV and
// fc1, row-parallel projection and fc2 (Shoeybi et al. 2019, section 3), the collectives sequence parallelism puts in
// place of the all-reduces (Korthikanti et al. 2023, section 4.2.2), the backward's input and weight gradients, and
// recompute as the forward again.
#include "TestUtil.h"

#include "cost/Evaluate.h"
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
