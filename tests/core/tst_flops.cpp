// FLOPs, MFU, HFU and the reality check (docs/MODEL.md sections 5 and 8) against the published formulas:
// - Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM" (SC21),
//   eq. 3: model FLOPs per iteration 72*B*s*L*h^2*(1 + s/(6h) + V/(12*h*L)); with full activation recomputation
//   the executed FLOPs are 96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L)); eq. 4: training time ~ 8*T*P/(n*X);
// - PaLM (Chowdhery et al. 2022) appendix B: 6N + 12*L*H*Q*T per token (N without the input embedding);
// - MFU = model FLOPs / (time * GPUs * peak), HFU the same with executed FLOPs.
// Expected values are written out here from those formulas, not read from core/cost/*.cpp.
#include "TestUtil.h"

#include "cost/Parameters.h"
#include "cost/RealityCheck.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using planscope::test::gptModel;
using planscope::test::near;
using planscope::test::num;
using nlohmann::json;

namespace {

Plan makePlan(const json& model, int dp, int tp, int pp, int microBatch, std::int64_t globalBatch,
    const std::string& recompute, const std::string& precision = "bf16")
{
    const int gpus = dp * tp * pp;
    const int perNode = std::min(8, gpus);
    json j { { "schema", "planscope/plan/v1" }, { "name", "test" }, { "model", model },
        { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", gpus / perNode }, { "gpusPerNode", perNode } } },
        { "parallel", { { "dp", dp }, { "tp", tp }, { "pp", pp }, { "sp", tp > 1 }, { "zero", 1 } } },
        { "training",
            { { "microBatch", microBatch }, { "globalBatch", globalBatch }, { "precision", precision },
                { "gradDtype", "fp32" }, { "recompute", recompute }, { "schedule", "1f1b" },
                { "flashAttention", false }, { "tokens", 3e11 } } } };
    return planscope::test::planFromText(j.dump());
}

// Narayanan et al. eq. 3, per iteration.
double megatronModelFlops(double B, double s, double L, double h, double V)
{
    return 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * h * L));
}
double megatronFullRecomputeFlops(double B, double s, double L, double h, double V)
{
    return 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * h * L));
}


} // namespace

class TestFlops : public QObject {
    Q_OBJECT
private slots:
    // GPT-style shapes (Megatron Table 1 and GPT-3): per token 72*L*h^2 + 12*L*s*h + 6*V*h, i.e. eq. 3 / (B*s).
    void megatronEq3_data()
    {
        QTest::addColumn<int>("L");
        QTest::addColumn<qint64>("h");
        QTest::addColumn<int>("a");
        QTest::addColumn<qint64>("V");
        QTest::addColumn<qint64>("s");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("dp");
        QTest::addColumn<qint64>("B");
        QTest::addColumn<QString>("recompute");
        // Table 1 rows with their own (t, p, d, B) where they fit a GPU count we can build.
        QTest::newRow("1.7B t1 p1 d32 B512 full") << 24 << qint64(2304) << 24 << qint64(51200) << qint64(2048) << 1 << 1 << 32 << qint64(512) << "full";
        QTest::newRow("7.5B t2 p1 d64 B512 none") << 36 << qint64(4096) << 32 << qint64(51200) << qint64(2048) << 2 << 1 << 64 << qint64(512) << "none";
        QTest::newRow("18.4B t8 p1 d32 B1024 selective") << 40 << qint64(6144) << 48 << qint64(51200) << qint64(2048) << 8 << 1 << 32 << qint64(1024) << "selective";
        QTest::newRow("145.6B t8 p8 d24 B1536 full") << 80 << qint64(12288) << 96 << qint64(51200) << qint64(2048) << 8 << 8 << 24 << qint64(1536) << "full";
        QTest::newRow("gpt3 175B t8 p16 d8 B1536 full") << 96 << qint64(12288) << 96 << qint64(51200) << qint64(2048) << 8 << 16 << 8 << qint64(1536) << "full";
        QTest::newRow("gpt3 175B t8 p16 d8 B1536 none") << 96 << qint64(12288) << 96 << qint64(51200) << qint64(2048) << 8 << 16 << 8 << qint64(1536) << "none";
        QTest::newRow("530B t8 p35 d4 B280 full") << 105 << qint64(20480) << 128 << qint64(51200) << qint64(2048) << 8 << 35 << 4 << qint64(280) << "full";
        QTest::newRow("1.3B s1024 none") << 24 << qint64(2048) << 16 << qint64(50304) << qint64(1024) << 1 << 1 << 8 << qint64(64) << "none";
    }
    void megatronEq3()
    {
        QFETCH(int, L);
        QFETCH(qint64, h);
        QFETCH(int, a);
        QFETCH(qint64, V);
        QFETCH(qint64, s);
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, dp);
        QFETCH(qint64, B);
        QFETCH(QString, recompute);
        const Plan plan = makePlan(gptModel(L, h, a, V, s), dp, tp, pp, 1, B, recompute.toStdString());
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : (pr.errors.front().path + " " + pr.errors.front().message).c_str());
        const double dL = L, dh = double(h), dV = double(V), ds = double(s), dB = double(B);

        const double perToken = 72 * dL * dh * dh + 12 * dL * ds * dh + 6 * dV * dh;
        QVERIFY(near(perToken, megatronModelFlops(1, ds, dL, dh, dV) / ds, 1e-12)); // the algebra
        QVERIFY2(near(pr.modelFlopsPerToken, perToken, 1e-9),
            qPrintable(QStringLiteral("per token %1 expected %2 (ratio %3)").arg(num(pr.modelFlopsPerToken)).arg(num(perToken)).arg(pr.modelFlopsPerToken / perToken)));
        const double modelStep = megatronModelFlops(dB, ds, dL, dh, dV);
        QVERIFY2(near(pr.modelFlopsPerStep, modelStep, 1e-9), qPrintable(num(pr.modelFlopsPerStep / modelStep)));

        // Executed FLOPs: equal without recompute; eq. 3's 96-form with full recompute (one more forward:
        // 4 x 2*B*s*12*L*h^2 matrix FLOPs and 4 x 4*B*s^2*L*h attention, the logit layer not recomputed);
        // selective recompute re-runs only the attention-score forward (Korthikanti et al. section 5 and
        // appendix A): QK^T and scores x V, 2*B*s^2*h each per layer.
        double hardware = modelStep;
        if (recompute == QLatin1String("full")) hardware = megatronFullRecomputeFlops(dB, ds, dL, dh, dV);
        if (recompute == QLatin1String("selective")) hardware = modelStep + 4 * dB * ds * ds * dh * dL;
        QVERIFY2(near(pr.hardwareFlopsPerStep, hardware, 1e-9),
            qPrintable(QStringLiteral("hardware %1 expected %2 (ratio %3; hardware - model = %4 x B*s^2*h*L)")
                           .arg(num(pr.hardwareFlopsPerStep)).arg(num(hardware)).arg(pr.hardwareFlopsPerStep / hardware)
                           .arg((pr.hardwareFlopsPerStep - pr.modelFlopsPerStep) / (dB * ds * ds * dh * dL))));

        // MFU, HFU and throughput from the prediction's own fields (docs/MODEL.md section 5).
        const double gpus = plan.cluster.gpus();
        QCOMPARE(int(gpus), dp * tp * pp);
        const double peak = plan.cluster.gpu.peakFlops.forPrecision(plan.training.precision);
        QCOMPARE(peak, 312e12); // A100 bf16 dense
        QVERIFY(pr.stepSeconds > 0);
        QVERIFY2(near(pr.mfu, pr.modelFlopsPerStep / (pr.stepSeconds * gpus * peak), 1e-9), qPrintable(num(pr.mfu)));
        QVERIFY2(near(pr.hfu, pr.hardwareFlopsPerStep / (pr.stepSeconds * gpus * peak), 1e-9), qPrintable(num(pr.hfu)));
        QVERIFY(pr.mfu > 0 && pr.mfu <= pr.hfu && pr.hfu < 1);
        QVERIFY(near(pr.tokensPerSecond, dB * ds / pr.stepSeconds, 1e-9));
        // Training time for plan.training.tokens at that throughput.
        QVERIFY2(near(pr.trainingDays, plan.training.tokens / pr.tokensPerSecond / 86400, 1e-9), qPrintable(num(pr.trainingDays)));
    }

    // Megatron eq. 4: with full recompute the executed FLOPs are ~8*N per token (T*P*8/(n*X)), the 1 + s/(6h) and
    // V/(16hL) terms being small at GPT-3 scale: 175B is within 3%.
    void eq4RuleOfThumb()
    {
        const Plan plan = planscope::test::loadSample("gpt3-175b-1024xa100.plan.json");
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const double B = double(plan.training.globalBatch), s = double(plan.model.seqLength);
        const double perTokenExecuted = pr.hardwareFlopsPerStep / (B * s);
        const double ratio = perTokenExecuted / (8 * pr.paramsTotal);
        QVERIFY2(ratio > 1.0 && ratio < 1.03, qPrintable(num(ratio)));
        // The sample is Megatron's own 175B setup (full recompute): hardware FLOPs are eq. 3's 96-form exactly.
        const double L = plan.model.layers, h = double(plan.model.hidden), V = double(plan.model.vocab);
        QVERIFY2(near(pr.hardwareFlopsPerStep, megatronFullRecomputeFlops(B, s, L, h, V), 1e-9),
            qPrintable(num(pr.hardwareFlopsPerStep / megatronFullRecomputeFlops(B, s, L, h, V))));
        QVERIFY2(near(pr.modelFlopsPerStep, megatronModelFlops(B, s, L, h, V), 1e-9),
            qPrintable(num(pr.modelFlopsPerStep / megatronModelFlops(B, s, L, h, V))));
        QCOMPARE(plan.cluster.gpus(), 1024);
        QVERIFY(near(pr.mfu, pr.modelFlopsPerStep / (pr.stepSeconds * 1024 * 312e12), 1e-9));
        qInfo("gpt3-175b sample: step %.2f s, MFU %.3f, HFU %.3f, %.1f days for 300B tokens", pr.stepSeconds, pr.mfu,
            pr.hfu, pr.trainingDays);
    }

    // Non-GPT shapes: PaLM appendix B, 6*N_matmul + 12*L*h*s per token, N_matmul = the matrices a token passes
    // through (attention with GQA, the gated MLP, for MoE the router and the top-k experts) plus the output
    // projection V*h. No flash attention, so no causal halving.
    void palmForm_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("perLayerMatmul");
        QTest::addColumn<double>("L");
        QTest::addColumn<double>("h");
        QTest::addColumn<double>("V");
        QTest::addColumn<double>("s");
        {
            const double h = 4096, f = 11008;
            QTest::newRow("llama2-7b") << "llama2-7b" << 4 * h * h + 3 * h * f << 32.0 << h << 32000.0 << 4096.0;
        }
        {
            const double h = 8192, f = 28672, a = 64, kv = 8;
            QTest::newRow("llama2-70b") << "llama2-70b" << h * (h + 2 * h * kv / a) + h * h + 3 * h * f << 80.0 << h << 32000.0 << 4096.0;
        }
        {
            const double h = 4096, f = 14336, a = 32, kv = 8;
            QTest::newRow("mixtral-8x7b top-2") << "mixtral-8x7b" << h * (h + 2 * h * kv / a) + h * h + h * 8 + 2 * 3 * h * f << 32.0 << h
                                                << 32000.0 << 32768.0;
        }
    }
    void palmForm()
    {
        QFETCH(QString, preset);
        QFETCH(double, perLayerMatmul);
        QFETCH(double, L);
        QFETCH(double, h);
        QFETCH(double, V);
        QFETCH(double, s);
        const Plan plan = makePlan(json { { "preset", preset.toStdString() } }, 8, 1, 1, 1, 64, "none");
        QCOMPARE(double(plan.model.seqLength), s);
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const double expected = 6 * (L * perLayerMatmul + V * h) + 12 * L * h * s;
        QVERIFY2(near(pr.modelFlopsPerToken, expected, 1e-9),
            qPrintable(QStringLiteral("%1 vs %2 (ratio %3)").arg(num(pr.modelFlopsPerToken)).arg(num(expected)).arg(pr.modelFlopsPerToken / expected)));
        QVERIFY(near(pr.modelFlopsPerStep, expected * 64 * s, 1e-9));
    }

    // The reality check (docs/MODEL.md section 8, docs/FORMATS.md section 2b): required = model FLOPs per token * T; available =
    // GPUs * peak * MFU * days * 86400; shortBy = required/available where > 1.
    void realityCheck_data()
    {
        QTest::addColumn<double>("days");
        QTest::addColumn<double>("tokens");
        QTest::addColumn<double>("mfu");
        QTest::newRow("34 days 300B 0.45") << 34.0 << 3e11 << 0.45;
        QTest::newRow("5 days 300B 0.5 (impossible)") << 5.0 << 3e11 << 0.5;
        QTest::newRow("100 days 1T 0.3") << 100.0 << 1e12 << 0.3;
    }
    void realityCheck()
    {
        QFETCH(double, days);
        QFETCH(double, tokens);
        QFETCH(double, mfu);
        const Plan plan = planscope::test::loadSample("gpt3-175b-1024xa100.plan.json");
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const RealityCheck rc = planscope::realityCheck(plan, pr, days, tokens, mfu);
        const double required = pr.modelFlopsPerToken * tokens;
        const double available = 1024 * 312e12 * mfu * days * 86400;
        QVERIFY2(near(rc.requiredFlops, required, 1e-9), qPrintable(num(rc.requiredFlops)));
        QVERIFY2(near(rc.requiredFlops6NT, 6 * pr.paramsTotal * tokens, 1e-9), qPrintable(num(rc.requiredFlops6NT)));
        QVERIFY2(near(rc.availableFlops, available, 1e-9), qPrintable(num(rc.availableFlops)));
        QVERIFY(near(rc.shortBy, std::max(1.0, required / available), 1e-9));
        QCOMPARE(rc.possible, required <= available);
        QVERIFY(near(rc.daysNeeded, required / (1024 * 312e12 * mfu * 86400), 1e-9));
        // Megatron's paper: 175B on 1024 A100s for 300B tokens at 140 TFLOP/s per GPU takes ~34 days with
        // 8*T*P/(n*X) (executed FLOPs). At MFU 0.45 of 312 TFLOP/s (= 140 TFLOP/s) the model FLOPs need fewer days.
        if (days == 34.0) QVERIFY(rc.possible);
    }
};

QTEST_APPLESS_MAIN(TestFlops)
#include "tst_flops.moc"
