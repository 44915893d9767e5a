// Memory per GPU (docs/MODEL.md sections 2 and 3) against the papers:
// - model states under ZeRO: Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter
//   Models", SC20, section 3 and Figure 1 (fp16 weights and gradients, Adam K = 12, Psi = 7.5B, Nd = 64:
//   baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB);
// - what a pipeline/tensor-parallel rank holds: Megatron-LM (`theoretical_memory_usage.py`, VocabParallelEmbedding,
//   RowParallelLinear keeps its bias whole, LayerNorm replicated);
// - activations per layer: Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models",
//   MLSys 2023, Table 2;
// - micro-batches in flight per schedule: docs/SCHEDULES.md section 1.7 and section 3.
// Expected values are written out from those sources, not read from core/cost/*.cpp.
#include "TestUtil.h"

#include "cost/Parameters.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using planscope::test::gptModel;
using planscope::test::near;
using planscope::test::num;
using nlohmann::json;

namespace {

struct PlanArgs {
    json model;
    int dp = 1, tp = 1, pp = 1, vpp = 1;
    bool sp = false;
    int zero = 0;
    std::string fsdp = "none";
    int gpusPerNode = 8;
    int microBatch = 1;
    std::int64_t microbatches = 8; // m
    std::string precision = "bf16";
    std::string gradDtype = "fp32";
    std::string recompute = "none";
    std::string schedule = "1f1b";
    bool flash = false;
};

Plan makePlan(const PlanArgs& a)
{
    const int gpus = a.dp * a.tp * a.pp;
    const int perNode = std::min(a.gpusPerNode, gpus);
    json j { { "schema", "planscope/plan/v1" }, { "name", "test" }, { "model", a.model },
        { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", gpus / perNode }, { "gpusPerNode", perNode } } },
        { "parallel",
            { { "dp", a.dp }, { "tp", a.tp }, { "pp", a.pp }, { "cp", 1 }, { "ep", 1 }, { "vpp", a.vpp },
                { "sp", a.sp }, { "zero", a.zero }, { "fsdp", a.fsdp } } },
        { "training",
            { { "microBatch", a.microBatch }, { "globalBatch", std::int64_t(a.microBatch) * a.dp * a.microbatches },
                { "precision", a.precision }, { "gradDtype", a.gradDtype }, { "optimizer", "adam" },
                { "recompute", a.recompute }, { "schedule", a.schedule }, { "flashAttention", a.flash },
                { "tokens", 1e9 } } } };
    return planscope::test::planFromText(j.dump());
}


} // namespace

class TestMemory : public QObject {
    Q_OBJECT
private slots:
    // ZeRO paper section 3 / Figure 1: with mixed-precision Adam the model states take 2Psi (fp16 weights) +
    // 2Psi (fp16 gradients) + K*Psi (K = 12: fp32 master weights, momentum, variance). Per GPU:
    // baseline (2 + 2 + K)*Psi; P_os 2Psi + 2Psi + K*Psi/Nd; P_os+g 2Psi + (2 + K)*Psi/Nd; P_os+g+p (2 + 2 + K)*Psi/Nd.
    void zeroStages_data()
    {
        QTest::addColumn<int>("zero");
        QTest::addColumn<QString>("fsdp");
        QTest::addColumn<double>("wPerParam"); // bytes per parameter per GPU, as a function of Nd = 64
        QTest::addColumn<double>("gPerParam");
        QTest::addColumn<double>("oPerParam");
        QTest::addColumn<double>("figureGB"); // Figure 1 for Psi = 7.5B
        const double Nd = 64;
        QTest::newRow("baseline") << 0 << "none" << 2.0 << 2.0 << 12.0 << 120.0;
        QTest::newRow("stage1 P_os") << 1 << "none" << 2.0 << 2.0 << 12.0 / Nd << 31.4;
        QTest::newRow("stage2 P_os+g") << 2 << "none" << 2.0 << 2.0 / Nd << 12.0 / Nd << 16.6;
        QTest::newRow("stage3 P_os+g+p") << 3 << "none" << 2.0 / Nd << 2.0 / Nd << 12.0 / Nd << 1.9;
        // docs/MODEL.md section 2: FSDP full shard = stage 3.
        QTest::newRow("fsdp full") << 0 << "full" << 2.0 / Nd << 2.0 / Nd << 12.0 / Nd << 1.9;
        // Hybrid shard: stage 3 inside a node of 8 GPUs, replicated across the 8 nodes.
        QTest::newRow("fsdp hybrid (8/node)") << 0 << "hybrid" << 2.0 / 8 << 2.0 / 8 << 12.0 / 8 << 0.0;
    }
    void zeroStages()
    {
        QFETCH(int, zero);
        QFETCH(QString, fsdp);
        QFETCH(double, wPerParam);
        QFETCH(double, gPerParam);
        QFETCH(double, oPerParam);
        QFETCH(double, figureGB);
        // Megatron Table 1's 7.5B shape: Psi = 7.468e9.
        PlanArgs a;
        a.model = gptModel(36, 4096, 32, 51200, 2048);
        a.dp = 64;
        a.zero = zero;
        a.fsdp = fsdp.toStdString();
        a.precision = "fp16";
        a.gradDtype = "fp16";
        a.recompute = "full";
        const Plan plan = makePlan(a);
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        QCOMPARE(int(pr.stages.size()), 1);
        const StageMemory& s = pr.stages[0];
        const double psi = pr.paramsTotal;
        // tp = pp = 1: the one rank holds every parameter before ZeRO.
        QVERIFY2(near(s.parameters, psi, 1e-12), qPrintable(num(s.parameters) + " vs " + num(psi)));

        QVERIFY2(near(double(s.weightsBytes), wPerParam * psi, 1e-6), qPrintable(num(s.weightsBytes / psi)));
        QVERIFY2(near(double(s.gradientsBytes), gPerParam * psi, 1e-6), qPrintable(num(s.gradientsBytes / psi)));
        QVERIFY2(near(double(s.optimizerBytes), oPerParam * psi, 1e-6), qPrintable(num(s.optimizerBytes / psi)));
        const double modelStates = double(s.weightsBytes + s.gradientsBytes + s.optimizerBytes);
        if (figureGB > 0) {
            // Scaled to Psi = 7.5e9 it is Figure 1's number (printed to 0.1 GB).
            const double scaled = modelStates / psi * 7.5e9 / 1e9;
            QVERIFY2(std::abs(scaled - figureGB) <= 0.05 + 1e-9, qPrintable(num(scaled)));
        }
    }

    // docs/MODEL.md section 2 / docs/FORMATS.md section 1: bytes per parameter at ZeRO-0 by precision and gradient dtype, with Adam.
    void bytesPerParameter_data()
    {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("gradDtype");
        QTest::addColumn<double>("w");
        QTest::addColumn<double>("g");
        QTest::addColumn<double>("o");
        // ZeRO's fp16 setup: 2 + 2 + 12 = 16.
        QTest::newRow("fp16 + fp16 grads") << "fp16" << "fp16" << 2.0 << 2.0 << 12.0;
        // Megatron bf16 with fp32 main grads: 2 + 4 + 12 = 18.
        QTest::newRow("bf16 + fp32 grads") << "bf16" << "fp32" << 2.0 << 4.0 << 12.0;
        QTest::newRow("bf16 + bf16 grads") << "bf16" << "bf16" << 2.0 << 2.0 << 12.0;
        // fp32 training: no separate master copy, Adam m and v: 4 + 4 + 8 = 16.
        QTest::newRow("fp32 + fp32 grads") << "fp32" << "fp32" << 4.0 << 4.0 << 8.0;
    }
    void bytesPerParameter()
    {
        QFETCH(QString, precision);
        QFETCH(QString, gradDtype);
        QFETCH(double, w);
        QFETCH(double, g);
        QFETCH(double, o);
        PlanArgs a;
        a.model = gptModel(24, 2048, 16, 51200, 2048);
        a.dp = 8;
        a.precision = precision.toStdString();
        a.gradDtype = gradDtype.toStdString();
        a.recompute = "full";
        const Prediction pr = evaluate(makePlan(a));
        QVERIFY(pr.valid);
        const StageMemory& s = pr.stages[0];
        const double P = s.parameters;
        QVERIFY2(near(s.weightsBytes / P, w, 1e-6), qPrintable(num(s.weightsBytes / P)));
        QVERIFY2(near(s.gradientsBytes / P, g, 1e-6), qPrintable(num(s.gradientsBytes / P)));
        QVERIFY2(near(s.optimizerBytes / P, o, 1e-6), qPrintable(num(s.optimizerBytes / P)));
    }

    // ZeRO with TP and PP: the same per-parameter rules applied to each stage's own per-GPU parameters,
    // over the data-parallel group d only (docs/MODEL.md section 2).
    void zeroWithModelParallel_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("zero");
        for (int zero : { 0, 1, 2, 3 }) {
            QTest::newRow(qPrintable(QStringLiteral("t2 p2 d16 z%1").arg(zero))) << 2 << 2 << 16 << zero;
            QTest::newRow(qPrintable(QStringLiteral("t8 p4 d4 z%1").arg(zero))) << 8 << 4 << 4 << zero;
        }
    }
    void zeroWithModelParallel()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, dp);
        QFETCH(int, zero);
        PlanArgs a;
        a.model = gptModel(24, 2048, 16, 51200, 2048);
        a.tp = tp;
        a.pp = pp;
        a.dp = dp;
        a.zero = zero;
        a.recompute = "full";
        a.precision = "bf16";
        a.gradDtype = "fp32";
        const Prediction pr = evaluate(makePlan(a));
        QVERIFY(pr.valid);
        QCOMPARE(int(pr.stages.size()), pp);
        const double d = dp;
        const double w = 2, g = 4, o = 12;
        for (const StageMemory& s : pr.stages) {
            const double P = s.parameters;
            const double ew = zero >= 3 ? w * P / d : w * P;
            const double eg = zero >= 2 ? g * P / d : g * P;
            const double eo = zero >= 1 ? o * P / d : o * P;
            QVERIFY2(near(double(s.weightsBytes), ew, 1e-6), qPrintable(QStringLiteral("stage %1 w %2 vs %3").arg(s.stage).arg(s.weightsBytes).arg(ew)));
            QVERIFY2(near(double(s.gradientsBytes), eg, 1e-6), qPrintable(QStringLiteral("stage %1 g %2 vs %3").arg(s.stage).arg(s.gradientsBytes).arg(eg)));
            QVERIFY2(near(double(s.optimizerBytes), eo, 1e-6), qPrintable(QStringLiteral("stage %1 o %2 vs %3").arg(s.stage).arg(s.optimizerBytes).arg(eo)));
        }
    }

    // What one GPU of each stage holds (docs/MODEL.md section 2, Megatron-LM): a layer's matrices and QKV/fc1 biases are
    // split by t (column-parallel), the proj/fc2 biases (row-parallel) and the LayerNorms are whole; the word
    // embedding is vocab-parallel (V*h/t) on the first stage; learned positions (s*h) are a plain embedding,
    // not split; the final LayerNorm is on the last stage. With tied embeddings and p > 1, Megatron's last stage
    // keeps its own copy of the word embedding as the output layer (V*h/t; `theoretical_memory_usage.py`
    // counts "+ embedding_size" on the most loaded shard for the same reason); untied: the output layer V*h/t.
    void stageParameters_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<bool>("tied");
        for (bool tied : { true, false })
            for (auto [t, p] : { std::pair { 1, 1 }, { 2, 1 }, { 1, 4 }, { 4, 4 }, { 8, 2 } })
                QTest::newRow(qPrintable(QStringLiteral("t%1 p%2 %3").arg(t).arg(p).arg(tied ? "tied" : "untied")))
                    << t << p << tied;
    }
    void stageParameters()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(bool, tied);
        const int L = 24;
        const double h = 2048, V = 51200, s = 2048;
        PlanArgs a;
        a.model = gptModel(L, 2048, 16, 51200, 2048);
        a.model["tiedEmbeddings"] = tied;
        a.tp = tp;
        a.pp = pp;
        a.recompute = "full";
        const Prediction pr = evaluate(makePlan(a));
        QVERIFY(pr.valid);
        QCOMPARE(int(pr.stages.size()), pp);
        const double t = tp;
        const double perLayer = (12 * h * h + 7 * h) / t + 2 * h + 4 * h;
        for (const StageMemory& st : pr.stages) {
            double expected = (L / pp) * perLayer;
            if (st.stage == 0) expected += V * h / t + s * h;
            if (st.stage == pp - 1) {
                expected += 2 * h;                          // final LayerNorm
                if (!tied || pp > 1) expected += V * h / t; // output layer (Megatron's tied copy when p > 1)
            }
            QCOMPARE(st.layers, L / pp);
            QVERIFY2(near(st.parameters, expected, 1e-12),
                qPrintable(QStringLiteral("stage %1: %2 expected %3 (diff %4 = %5 V*h/t)")
                               .arg(st.stage).arg(st.parameters, 0, 'f', 0).arg(expected, 0, 'f', 0)
                               .arg(st.parameters - expected, 0, 'f', 0).arg((st.parameters - expected) / (V * h / t))));
        }
    }

    // Korthikanti et al. Table 2, activation bytes per transformer layer (16-bit activations, 1-byte dropout
    // masks, f = 4h, MHA, non-gated MLP, dropout on; no flash attention):
    //   no parallelism             s*b*h*(34 + 5*a*s/h)
    //   tensor parallel            s*b*h*(10 + 24/t + 5*a*s/(h*t))
    //   tensor + sequence parallel s*b*h*(34 + 5*a*s/h)/t
    //   + selective recompute      drop the 5*a*s/h term
    //   full recompute             2*s*b*h (the layer input), /t with sequence parallelism
    void layerActivationsTable2_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<QString>("recompute");
        QTest::addColumn<int>("b");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<double>("expected");
        const double s = 2048, h = 2048, a = 16;
        for (int b : { 1, 4 }) {
            const double sbh = s * b * h;
            const QString bs = QStringLiteral(" b=%1").arg(b);
            QTest::newRow(qPrintable("none t=1" + bs)) << 1 << false << "none" << b << false << sbh * (34 + 5 * a * s / h);
            for (int t : { 2, 4, 8 }) {
                const QString ts = QStringLiteral(" t=%1").arg(t);
                QTest::newRow(qPrintable("none TP" + ts + bs)) << t << false << "none" << b << false
                                                               << sbh * (10 + 24.0 / t + 5 * a * s / (h * t));
                QTest::newRow(qPrintable("none TP+SP" + ts + bs)) << t << true << "none" << b << false
                                                                  << sbh * (34 + 5 * a * s / h) / t;
                QTest::newRow(qPrintable("selective TP" + ts + bs)) << t << false << "selective" << b << false
                                                                    << sbh * (10 + 24.0 / t);
                QTest::newRow(qPrintable("selective TP+SP" + ts + bs)) << t << true << "selective" << b << false
                                                                       << sbh * 34 / t;
                QTest::newRow(qPrintable("full TP" + ts + bs)) << t << false << "full" << b << false << 2 * sbh;
                QTest::newRow(qPrintable("full TP+SP" + ts + bs)) << t << true << "full" << b << false << 2 * sbh / t;
                // docs/MODEL.md section 3: flash attention keeps no s x s scores, like selective recompute; it keeps the fp32
                // softmax logsumexp per head and row instead (Dao, FlashAttention-2, Algorithm 1/2: L in R^N):
                // 4*a*s*b/t bytes, 1/32 of s*b*h here.
                QTest::newRow(qPrintable("flash TP+SP" + ts + bs)) << t << true << "none" << b << true
                                                                   << sbh * 34 / t + 4 * a * s * b / t;
            }
            QTest::newRow(qPrintable("selective t=1" + bs)) << 1 << false << "selective" << b << false << sbh * 34;
            QTest::newRow(qPrintable("full t=1" + bs)) << 1 << false << "full" << b << false << 2 * sbh;
            QTest::newRow(qPrintable("flash t=1" + bs)) << 1 << false << "none" << b << true << sbh * 34 + 4 * a * s * b;
        }
    }
    void layerActivationsTable2()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(QString, recompute);
        QFETCH(int, b);
        QFETCH(bool, flash);
        QFETCH(double, expected);
        PlanArgs a;
        a.model = gptModel(24, 2048, 16, 51200, 2048);
        a.tp = tp;
        a.sp = sp;
        a.recompute = recompute.toStdString();
        a.microBatch = b;
        a.flash = flash;
        const Plan plan = makePlan(a);
        const LayerActivations act = layerActivations(plan);
        QVERIFY2(near(act.stored, expected, 1e-12),
            qPrintable(QStringLiteral("stored %1 expected %2 (in sbh: %3 vs %4)")
                           .arg(act.stored, 0, 'f', 0).arg(expected, 0, 'f', 0)
                           .arg(act.stored / (2048.0 * b * 2048)).arg(expected / (2048.0 * b * 2048))));
        // The coefficients behind it (Evaluate.h): 10 sbh not split by TP, 24 sbh split, 5 a s^2 b scores. (The
        // scores coefficient reads 0 under selective recompute but 5 under full recompute, so it is only checked
        // without recompute: 5, or 0 with flash attention.)
        QVERIFY2(near(act.nonParallelCoeff, 10, 1e-12), qPrintable(num(act.nonParallelCoeff)));
        QVERIFY2(near(act.parallelCoeff, 24, 1e-12), qPrintable(num(act.parallelCoeff)));
        if (recompute == QLatin1String("none"))
            QVERIFY2(near(act.scoresCoeff, flash ? 0 : 5, 1e-12), qPrintable(num(act.scoresCoeff)));
        // `full` is the no-recompute working set of one layer under the same parallelism.
        const double s = 2048, h = 2048, heads = 16, t = tp, sbh = s * b * h;
        const double scores = flash ? 4 * heads * s * b / t : 5 * heads * s * s * b / t;
        const double fullExpected = sp ? (34 * sbh) / t + scores : (10 + 24 / t) * sbh + scores;
        QVERIFY2(near(act.full, fullExpected, 1e-12), qPrintable(num(act.full) + " vs " + num(fullExpected)));
    }

    // docs/MODEL.md section 3 derives the terms from the block (attention 11sbh + 5as^2b, MLP 19sbh, norms 4sbh). The 34
    // splits as: attention QKV input 2, Q and K 4, V 2, proj input 2, dropout mask 1 (= 11); MLP fc1 input 2,
    // fc1 output 2f/h, GeLU output 2f/h, dropout mask 1 (= 19 at f = 4h); LayerNorm inputs 2 + 2. Scores: softmax
    // output 2, dropout mask 1, dropout output 2 (a*s^2*b units). These rows are this test's derivation (no table
    // in the paper covers them), single GPU, no recompute.
    void layerActivationsDerived_data()
    {
        QTest::addColumn<qint64>("ffn");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<bool>("dropout");
        QTest::addColumn<double>("sbhCoeff");
        QTest::addColumn<double>("scoresCoeff");
        const double h = 2048, a = 16;
        QTest::newRow("gpt (paper)") << qint64(4 * 2048) << 16 << true << 34.0 << 5.0;
        // No dropout: no masks (2 sbh, 1 as^2b) and no dropout output on the scores (2 as^2b).
        QTest::newRow("no dropout") << qint64(4 * 2048) << 16 << false << 32.0 << 2.0;
        // f = 8h: MLP 3 + 4f/h = 35.
        QTest::newRow("f=8h") << qint64(8 * 2048) << 16 << true << 4 + 11 + 3 + 4 * 8.0 << 5.0;
        // f = 2.5h.
        QTest::newRow("f=2.5h") << qint64(5120) << 16 << true << 4 + 11 + 3 + 4 * 2.5 << 5.0;
        // GQA a_kv = 4 of 16: K and V shrink to 2*kv/a each: attention 7 + 4*kv/a.
        QTest::newRow("gqa kv=4") << qint64(4 * 2048) << 4 << true << 4 + (7 + 4 * 4 / a) + 19 << 5.0;
        Q_UNUSED(h);
    }
    void layerActivationsDerived()
    {
        QFETCH(qint64, ffn);
        QFETCH(int, kvHeads);
        QFETCH(bool, dropout);
        QFETCH(double, sbhCoeff);
        QFETCH(double, scoresCoeff);
        PlanArgs a;
        a.model = gptModel(24, 2048, 16, 51200, 2048);
        a.model["ffnHidden"] = ffn;
        a.model["kvHeads"] = kvHeads;
        a.model["dropout"] = dropout;
        const LayerActivations act = layerActivations(makePlan(a));
        const double s = 2048, h = 2048, heads = 16;
        const double expected = s * h * sbhCoeff + scoresCoeff * heads * s * s;
        QVERIFY2(near(act.stored, expected, 1e-12),
            qPrintable(QStringLiteral("sbh coeff %1 (expected %2), scores coeff %3 (expected %4)")
                           .arg(act.nonParallelCoeff + act.parallelCoeff).arg(sbhCoeff).arg(act.scoresCoeff).arg(scoresCoeff)));
    }

    // Micro-batches in flight at a rank's peak (docs/SCHEDULES.md sections 1.7, 2.x and section 3; docs/MODEL.md section 3).
    void inFlight_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<int>("rank");
        QTest::addColumn<double>("expected");
        // 1F1B: rank r holds min(p - r, m).
        for (auto [p, m] : { std::pair { 4, qint64(8) }, { 8, qint64(32) }, { 8, qint64(4) }, { 16, qint64(16) } })
            for (int r = 0; r < p; ++r)
                QTest::newRow(qPrintable(QStringLiteral("1f1b p%1 m%2 r%3").arg(p).arg(m).arg(r)))
                    << "1f1b" << p << m << 1 << r << double(std::min<qint64>(p - r, m));
        // GPipe: all m on every rank.
        for (int r : { 0, 3 }) QTest::newRow(qPrintable(QStringLiteral("gpipe p4 m8 r%1").arg(r))) << "gpipe" << 4 << qint64(8) << 1 << r << 8.0;
        QTest::newRow("gpipe p8 m64 r5") << "gpipe" << 8 << qint64(64) << 1 << 5 << 64.0;
        // Interleaved 1F1B, stage 0: p*(1 + (p-1)/(p*v)) = p + (p-1)/v (Narayanan et al.; docs/SCHEDULES.md section 2.3).
        for (auto [p, v] : { std::pair { 4, 2 }, { 4, 4 }, { 8, 2 }, { 8, 3 }, { 16, 4 } })
            QTest::newRow(qPrintable(QStringLiteral("interleaved p%1 v%2 r0").arg(p).arg(v)))
                << "interleaved-1f1b" << p << qint64(4 * p) << v << 0 << p * (1 + double(p - 1) / (p * v));
        // Interleaved other ranks (g = p, m a multiple of p): (2(p-r-1) + (v-1)p + 1)/v (docs/SCHEDULES.md section 2.3).
        for (int r : { 1, 2, 3 })
            QTest::newRow(qPrintable(QStringLiteral("interleaved p4 v2 r%1").arg(r)))
                << "interleaved-1f1b" << 4 << qint64(16) << 2 << r << (2.0 * (4 - r - 1) + (2 - 1) * 4 + 1) / 2;
        // ZB-H1: p on every rank; ZB-H2: 2p - 1 (Qi et al., ICLR'24; docs/SCHEDULES.md section 2.6).
        for (int r : { 0, 1, 3 })
            QTest::newRow(qPrintable(QStringLiteral("zb-h1 p4 m8 r%1").arg(r))) << "zb-h1" << 4 << qint64(8) << 1 << r << 4.0;
        QTest::newRow("zb-h1 p8 m32 r7") << "zb-h1" << 8 << qint64(32) << 1 << 7 << 8.0;
        QTest::newRow("zb-h2 p4 m8 r0") << "zb-h2" << 4 << qint64(8) << 1 << 0 << 7.0;
        QTest::newRow("zb-h2 p8 m32 r0") << "zb-h2" << 8 << qint64(32) << 1 << 0 << 15.0;
    }
    void inFlight()
    {
        QFETCH(QString, schedule);
        QFETCH(int, p);
        QFETCH(qint64, m);
        QFETCH(int, v);
        QFETCH(int, rank);
        QFETCH(double, expected);
        ScheduleKind kind;
        QVERIFY(fromString(schedule.toStdString(), kind));
        const double got = inFlightMicrobatches(kind, p, m, v, rank);
        QVERIFY2(near(got, expected, 1e-12), qPrintable(num(got) + " expected " + num(expected)));
    }

    // evaluate(): a GPT 1F1B plan's stages hold min(p - r, m) microbatches of their L/p layers, so stage 0 holds
    // at least L layers' worth (docs/MODEL.md section 3), plus the first stage's embedding extras; activations fall with r.
    void pipelineActivations_data()
    {
        QTest::addColumn<int>("pp");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<QString>("recompute");
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::newRow("p4 m8 none") << 4 << qint64(8) << "none" << 1 << false;
        QTest::newRow("p4 m8 selective t2 sp") << 4 << qint64(8) << "selective" << 2 << true;
        QTest::newRow("p8 m16 none") << 8 << qint64(16) << "none" << 1 << false;
        QTest::newRow("p8 m4 none (m < p)") << 8 << qint64(4) << "none" << 1 << false;
        QTest::newRow("p4 m8 full") << 4 << qint64(8) << "full" << 1 << false;
    }
    void pipelineActivations()
    {
        QFETCH(int, pp);
        QFETCH(qint64, m);
        QFETCH(QString, recompute);
        QFETCH(int, tp);
        QFETCH(bool, sp);
        const int L = 24;
        PlanArgs a;
        a.model = gptModel(L, 2048, 16, 51200, 2048);
        a.pp = pp;
        a.tp = tp;
        a.sp = sp;
        a.microbatches = m;
        a.recompute = recompute.toStdString();
        const Plan plan = makePlan(a);
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const LayerActivations act = layerActivations(plan);
        QCOMPARE(int(pr.stages.size()), pp);
        for (const StageMemory& st : pr.stages) {
            const double inflight = std::min<double>(pp - st.stage, double(m));
            QVERIFY2(near(st.inFlightMicrobatches, inflight, 1e-12), qPrintable(QStringLiteral("stage %1: %2").arg(st.stage).arg(st.inFlightMicrobatches)));
            QVERIFY(std::abs(double(st.activationsPerLayerBytes) - act.stored) <= 1.0);
            // At least in-flight * layers * per-layer bytes.
            const double layersWorth = inflight * (L / pp) * act.stored;
            QVERIFY2(double(st.activationsBytes) >= layersWorth * (1 - 1e-9),
                qPrintable(QStringLiteral("stage %1: %2 < %3").arg(st.stage).arg(st.activationsBytes).arg(layersWorth)));
            const double sbh = 2048.0 * 2048; // s*b*h with s = h = 2048, b = 1
            if (st.stage == 0) {
                // 1F1B stage 0 (m >= p) holds p * L/p = L layers' worth for one microbatch.
                if (m >= pp) QVERIFY(near(layersWorth, L * act.stored, 1e-12));
                // Plus, per in-flight microbatch, the embedding's dropout mask, s*b*h bytes (/t with SP) (Megatron
                // theoretical_memory_usage.py: "Dropout in embedding layer" s*b*h*pp; it also counts the int64 token
                // ids, 8*s*b*pp, which are 0.4% of that and within the tolerance), and under full recompute the
                // working set of the one layer being recomputed (`full`).
                const double extras = inflight * sbh / (sp ? tp : 1) + (recompute == QLatin1String("full") ? act.full : 0.0);
                QVERIFY2(near(double(st.activationsBytes), layersWorth + extras, 1e-4),
                    qPrintable(QStringLiteral("stage 0: %1 expected %2 (layers %3 + extras %4)")
                                   .arg(st.activationsBytes).arg(layersWorth + extras, 0, 'f', 0).arg(layersWorth, 0, 'f', 0).arg(extras, 0, 'f', 0)));
            }
            if (st.stage == pp - 1) {
                // docs/MODEL.md section 3: the last stage also holds the logits, s*b*V in fp32 for the loss (vocab-parallel: /t).
                const double logits = 4.0 * 2048 * 51200 / tp;
                QVERIFY2(double(st.activationsBytes) >= layersWorth + logits,
                    qPrintable(QStringLiteral("last stage %1 < layers %2 + logits %3").arg(st.activationsBytes).arg(layersWorth).arg(logits)));
            }
        }
        // Stages 0..p-2 hold strictly less as r grows (the last stage adds the logits, so it is left out).
        for (int r = 1; r + 1 < pp; ++r)
            if (std::min<qint64>(pp - r, m) < std::min<qint64>(pp - r + 1, m))
                QVERIFY2(pr.stages[r].activationsBytes < pr.stages[r - 1].activationsBytes,
                    qPrintable(QStringLiteral("stage %1 %2 >= stage %3 %4").arg(r).arg(pr.stages[r].activationsBytes).arg(r - 1).arg(pr.stages[r - 1].activationsBytes)));
    }

    // Megatron's interleaved schedule: stage 0 holds p*(1 + (p-1)/(p*v)) microbatches of its L/p layers.
    void interleavedStageZero()
    {
        const int L = 24, p = 4, v = 2;
        PlanArgs a;
        a.model = gptModel(L, 2048, 16, 51200, 2048);
        a.pp = p;
        a.vpp = v;
        a.schedule = "interleaved-1f1b";
        a.microbatches = 8;
        const Plan plan = makePlan(a);
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const double inflight = p * (1 + double(p - 1) / (p * v)); // 5.5
        QVERIFY2(near(pr.stages[0].inFlightMicrobatches, inflight, 1e-12), qPrintable(num(pr.stages[0].inFlightMicrobatches)));
        const double act = layerActivations(plan).stored;
        QVERIFY(pr.stages[0].activationsBytes >= inflight * (L / p) * act * (1 - 1e-9));
    }

    // MoE (docs/MODEL.md section 2): routed experts are split by ep (and expert-tp = tp), and their ZeRO shards are taken over
    // the expert-data-parallel group dp*cp/ep, not the dense group dp (Megatron-LM's expert_data_parallel group;
    // the bug its own estimator had: NVIDIA/Megatron-LM#2439). Mixtral 8x7B shape, tp = pp = 1, dp = 16.
    void moeExpertSharding_data()
    {
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("zero");
        for (int ep : { 1, 2, 4, 8 })
            for (int zero : { 0, 1, 2, 3 })
                QTest::newRow(qPrintable(QStringLiteral("ep%1 z%2").arg(ep).arg(zero))) << ep << zero;
    }
    void moeExpertSharding()
    {
        QFETCH(int, ep);
        QFETCH(int, zero);
        PlanArgs a;
        a.model = json { { "preset", "mixtral-8x7b" }, { "seqLength", 4096 } };
        a.dp = 16;
        a.zero = zero;
        a.recompute = "full";
        Plan plan = makePlan(a);
        plan.parallel.ep = ep;
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const double L = 32, h = 4096, f = 14336, E = 8, V = 32000, heads = 32, kv = 8;
        const double dense = L * (h * (h + 2 * h * kv / heads) + h * h + h * E + 2 * h) + 2 * V * h + h;
        const double expertsLocal = L * (E / ep) * 3 * h * f;
        const double d = 16, de = 16.0 / ep;
        const StageMemory& st = pr.stages[0];
        QVERIFY2(near(st.parameters, dense + expertsLocal, 1e-12), qPrintable(num(st.parameters) + " vs " + num(dense + expertsLocal)));
        const double w = 2, g = 4, o = 12;
        const double ew = zero >= 3 ? w * (dense / d + expertsLocal / de) : w * (dense + expertsLocal);
        const double eg = zero >= 2 ? g * (dense / d + expertsLocal / de) : g * (dense + expertsLocal);
        const double eo = zero >= 1 ? o * (dense / d + expertsLocal / de) : o * (dense + expertsLocal);
        QVERIFY2(near(double(st.weightsBytes), ew, 1e-6), qPrintable(num(st.weightsBytes) + " vs " + num(ew)));
        QVERIFY2(near(double(st.gradientsBytes), eg, 1e-6), qPrintable(num(st.gradientsBytes) + " vs " + num(eg)));
        QVERIFY2(near(double(st.optimizerBytes), eo, 1e-6), qPrintable(num(st.optimizerBytes) + " vs " + num(eo)));
    }

    // Schedules that place more than one stage per rank (docs/SCHEDULES.md sections 2.6, 2.7 and section 3): ZB-V holds p
    // stage-microbatches (2p chunks of half a rank) on every rank; DualPipe holds two full stages per rank
    // (parameters 2x) and P+1 stage-microbatches of activations; DualPipeV 2p+1 chunks of half a rank.
    void multiChunkSchedules_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("pp");
        QTest::addColumn<double>("layersHeldFactor"); // layers held per rank / (L/p)
        QTest::addColumn<double>("stageMicrobatches"); // activations held in units of (L/p) layers x one microbatch
        QTest::newRow("zb-v p4") << "zb-v" << 4 << 1.0 << 4.0;
        QTest::newRow("dualpipe p4") << "dualpipe" << 4 << 2.0 << 5.0;
        QTest::newRow("dualpipe p8") << "dualpipe" << 8 << 2.0 << 9.0;
        QTest::newRow("dualpipe-v p4") << "dualpipe-v" << 4 << 1.0 << 4.5;
    }
    void multiChunkSchedules()
    {
        QFETCH(QString, schedule);
        QFETCH(int, pp);
        QFETCH(double, layersHeldFactor);
        QFETCH(double, stageMicrobatches);
        const int L = 48;
        PlanArgs a;
        a.model = gptModel(L, 2048, 16, 51200, 2048);
        a.pp = pp;
        a.schedule = schedule.toStdString();
        a.microbatches = 4 * pp;
        const Plan plan = makePlan(a);
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const double perLayer = layerActivations(plan).stored;
        for (const StageMemory& st : pr.stages) {
            QVERIFY2(near(st.layers, layersHeldFactor * L / pp, 1e-12), qPrintable(QStringLiteral("stage %1 layers %2").arg(st.stage).arg(st.layers)));
            const double layerActs = st.inFlightMicrobatches * st.layers * perLayer;
            const double expected = stageMicrobatches * (L / pp) * perLayer;
            QVERIFY2(near(layerActs, expected, 1e-9),
                qPrintable(QStringLiteral("stage %1: in flight %2 x %3 layers = %4 stage-microbatches, expected %5")
                               .arg(st.stage).arg(st.inFlightMicrobatches).arg(st.layers)
                               .arg(layerActs / ((L / pp) * perLayer)).arg(stageMicrobatches)));
            QVERIFY(double(st.activationsBytes) >= expected * (1 - 1e-9));
        }
    }
};

QTEST_APPLESS_MAIN(TestMemory)
#include "tst_memory.moc"
