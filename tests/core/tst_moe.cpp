// MoE as Megatron-Core runs it, MLA, MTP, FP8, offload and per-module recompute (issue 13): parameter totals against
// counts derived by hand from each model's published config.json and against the published totals; per-rank weight,
// gradient and optimizer bytes under expert tensor parallelism and the expert data-parallel group; the fp8 weight
// caches, bf16 moments, optimizer offload and selective recompute modules against their formulas (docs/MODEL.md).
#include "../TestUtil.h"

#include "cost/Parameters.h"
#include "spec/PipelineLayout.h"

#include <QtTest>
#include <cmath>

using namespace planscope;
using namespace planscope::test;
using nlohmann::json;

namespace {

// A plan around a model preset on H100 nodes; `patch` is merged over it.
Plan presetPlan(const char* preset, json patch = json::object())
{
    json j = { { "schema", "planscope/plan/v1" }, { "name", "test" }, { "model", { { "preset", preset } } },
        { "cluster", { { "gpu", "h100-sxm5-80gb" }, { "nodes", 8 }, { "gpusPerNode", 8 } } },
        { "parallel", { { "tp", 1 }, { "pp", 1 }, { "cp", 1 }, { "ep", 1 }, { "dp", 64 } } },
        { "training", { { "microBatch", 1 }, { "globalBatch", 512 }, { "precision", "bf16" }, { "recompute", "none" },
                          { "flashAttention", true } } } };
    j.merge_patch(patch);
    return planFromText(j.dump());
}

} // namespace

class TestMoe : public QObject {
    Q_OBJECT
private slots:
    // Totals derived from the published config.json of each model (the formula written out here, independently of
    // core/cost/Parameters.cpp), and the published totals within their rounding.
    void totalsMatchConfigsAndPublishedCounts_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("handCount");   // main model (no MTP) from config.json
        QTest::addColumn<double>("handActive");  // per token, with the input embedding
        QTest::addColumn<double>("published");
        QTest::addColumn<double>("publishedRel"); // the published figure's rounding
        {
            // DeepSeek-V3: MLA (q 1536, kv 512, nope 128, rope 64, v 128, 128 heads), 3 dense layers of 18432,
            // 58 MoE layers of 256 experts x 2048 plus 1 shared, router 256 x h plus a 256 bias, vocab 129280 untied.
            const double h = 7168, a = 128, qr = 1536, kr = 512, dn = 128, dr = 64, dv = 128, V = 129280;
            const double attn = h * qr + qr + qr * a * (dn + dr) + h * (kr + dr) + kr + kr * a * (dn + dv) + a * dv * h;
            const double norms = 2 * h;
            const double denseL = attn + norms + 3 * h * 18432;
            const double expert = 3 * h * 2048;
            const double moeL = attn + norms + 256 * expert + expert + h * 256 + 256;
            const double moeActive = attn + norms + 8 * expert + expert + h * 256 + 256;
            const double outer = 2 * V * h + h;
            QTest::newRow("deepseek-v3") << "deepseek-v3" << 3 * denseL + 58 * moeL + outer
                                         << 3 * denseL + 58 * moeActive + outer << 671e9 << 0.001;
        }
        {
            // Mixtral 8x22B: 56 layers, h 6144, 48 heads, 8 kv heads of 128, 8 experts x 16384, top-2, vocab 32768.
            const double h = 6144, d = 128, V = 32768;
            const double attn = h * 48 * d + 2 * h * 8 * d + 48 * d * h;
            const double expert = 3 * h * 16384;
            const double layer = attn + 2 * h + 8 * expert + h * 8;
            const double active = attn + 2 * h + 2 * expert + h * 8;
            QTest::newRow("mixtral-8x22b") << "mixtral-8x22b" << 56 * layer + 2 * V * h + h << 56 * active + 2 * V * h + h
                                           << 141e9 << 0.005;
        }
        {
            // Qwen3-235B-A22B: 94 layers, h 4096, 64 q heads and 4 kv heads of 128, q/k norms of 128, 128 experts x
            // 1536, top-8, vocab 151936.
            const double h = 4096, d = 128, V = 151936;
            const double attn = h * 64 * d + 2 * h * 4 * d + 64 * d * h + 2 * d;
            const double expert = 3 * h * 1536;
            const double layer = attn + 2 * h + 128 * expert + h * 128;
            const double active = attn + 2 * h + 8 * expert + h * 128;
            QTest::newRow("qwen3-235b-a22b") << "qwen3-235b-a22b" << 94 * layer + 2 * V * h + h
                                             << 94 * active + 2 * V * h + h << 235e9 << 0.005;
        }
        {
            // gpt-oss-120b: 36 layers, h 2880, 64 q heads and 8 kv heads of 64, biased q/k/v/o, a sink per head,
            // 128 experts x 2880 with biases (gate_up 2f, down h), router with bias, top-4, vocab 201088.
            const double h = 2880, d = 64, f = 2880, V = 201088;
            const double attn = h * 64 * d + 64 * d + 2 * (h * 8 * d + 8 * d) + 64 * d * h + h + 64;
            const double expert = 3 * h * f + 2 * f + h;
            const double layer = attn + 2 * h + 128 * expert + h * 128 + 128;
            const double active = attn + 2 * h + 4 * expert + h * 128 + 128;
            QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 36 * layer + 2 * V * h + h << 36 * active + 2 * V * h + h
                                          << 116.83e9 << 0.0005;
        }
    }
    void totalsMatchConfigsAndPublishedCounts()
    {
        QFETCH(QString, preset);
        QFETCH(double, handCount);
        QFETCH(double, handActive);
        QFETCH(double, published);
        QFETCH(double, publishedRel);
        const auto* p = PresetCatalog::builtin().model(preset.toStdString());
        QVERIFY(p);
        ModelSpec m = p->spec;
        m.mtpLayers = 0; // the published totals are of the main model
        const ParameterCounts c = countParameters(m);
        QVERIFY2(near(c.total, handCount, 1e-12), qPrintable(num(c.total) + " vs " + num(handCount)));
        QVERIFY2(near(c.active, handActive, 1e-12), qPrintable(num(c.active) + " vs " + num(handActive)));
        QVERIFY2(std::abs(c.total / published - 1) <= publishedRel, qPrintable(num(c.total) + " vs " + num(published)));
    }

    // DeepSeek-V3's MTP module: two norms, the 2h x h projection, one MoE layer and its norm (the weights
    // documentation of github.com/deepseek-ai/DeepSeek-V3: 11.5B unique parameters), and the activated count without the embedding (36.6B published, head included).
    void deepseekMtpAndActive()
    {
        const ModelSpec m = PresetCatalog::builtin().model("deepseek-v3")->spec;
        QCOMPARE(m.mtpLayers, 1);
        const ParameterCounts c = countParameters(m);
        const double h = 7168;
        QVERIFY(near(c.mtpModule, 3 * h + 2 * h * h + c.layer.total(), 1e-12));
        QVERIFY2(std::abs(c.mtpModule / 11.5e9 - 1) < 0.01, qPrintable(num(c.mtpModule)));
        ModelSpec main = m;
        main.mtpLayers = 0;
        const double activeNoEmbedding = countParameters(main).active - 129280.0 * h;
        QVERIFY2(std::abs(activeNoEmbedding / 36.6e9 - 1) < 0.002, qPrintable(num(activeNoEmbedding)));
    }

    // Mixtral 8x22B as Megatron-Core's functional test runs it: tp 2, pp 8, ep 8, expert tp 1, the distributed
    // optimizer (ZeRO-1), dp 8 on 128 GPUs. A middle stage holds 7 layers; per GPU the dense part is split by tp and
    // sharded over dp*cp = 8, the experts are split by ep*etp = 8 and their optimizer sharded over the expert
    // data-parallel group tp*dp*cp/(etp*ep) = 2.
    void mixtralPerRankBytesWithExpertTp()
    {
        const Plan plan = presetPlan("mixtral-8x22b",
            { { "cluster", { { "nodes", 16 } } },
                { "parallel", { { "tp", 2 }, { "pp", 8 }, { "ep", 8 }, { "etp", 1 }, { "dp", 8 }, { "sp", true }, { "zero", 1 } } } });
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const double h = 6144, d = 128;
        const double attn = h * 48 * d + 2 * h * 8 * d + 48 * d * h;
        const double dense = 7 * (attn / 2 + 2 * h + h * 8);
        const double expert = 7 * (8 * 3 * h * 16384) / 8;
        const StageMemory& st = pr.stages[3];
        QCOMPARE(st.layers, 7);
        QVERIFY2(near(st.parameters, dense + expert, 1e-12), qPrintable(num(st.parameters) + " vs " + num(dense + expert)));
        QCOMPARE(double(st.weightsBytes), std::round(2 * (dense + expert)));
        QCOMPARE(double(st.gradientsBytes), std::round(4 * (dense + expert)));
        QCOMPARE(double(st.optimizerBytes), std::round(12 * (dense / 8 + expert / 2)));

        // With expert tp = tp (2) the experts are split 16 ways and their optimizer over dp*cp/ep = 1 rank.
        Plan same = plan;
        same.parallel.etp = 0;
        const StageMemory s2 = evaluate(same).stages[3]; // a copy: the prediction is a temporary
        const double expert2 = 7 * (8 * 3 * h * 16384) / 16;
        QCOMPARE(double(s2.optimizerBytes), std::round(12 * (dense / 8 + expert2 / 1)));
    }

    // DeepSeek-V3 on Megatron-Core: the first 3 layers are dense and the MTP module sits on the last stage;
    // parameters per stage follow the layer kinds each stage holds and add up to the model.
    void deepseekStagesHoldDenseLayersAndMtp()
    {
        const Plan plan = presetPlan("deepseek-v3",
            { { "cluster", { { "nodes", 256 } } },
                { "parallel", { { "tp", 2 }, { "pp", 16 }, { "ep", 64 }, { "etp", 1 }, { "dp", 64 }, { "sp", true },
                                  { "zero", 1 }, { "firstStageLayers", 3 }, { "lastStageLayers", 2 } } },
                { "training", { { "globalBatch", 8192 } } } });
        const std::vector<VirtualStage> stages = virtualStages(plan);
        QCOMPARE(int(stages.size()), 16);
        // 3 + 14*4 + 2 layers: the first stage holds exactly the dense ones.
        int dense = 0, mtp = 0, layers = 0;
        for (const VirtualStage& v : stages) {
            dense += v.denseLayers;
            mtp += v.mtpLayers;
            layers += v.layers;
        }
        QCOMPARE(layers, 61);
        QCOMPARE(dense, 3);
        QCOMPARE(mtp, 1); // DeepSeek-V3's one multi-token-prediction module, all of it on the last stage
        QCOMPARE(stages.front().layers, 3);
        QCOMPARE(stages.front().denseLayers, 3);
        QCOMPARE(stages[1].denseLayers, 0);
        QCOMPARE(stages.back().mtpLayers, 1);
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const ParameterCounts c = countParameters(plan.model);
        double sum = 0;
        for (double x : pr.paramsPerStage) sum += x;
        QVERIFY2(near(sum, c.total, 1e-12), qPrintable(num(sum) + " vs " + num(c.total)));
        QVERIFY(near(pr.paramsTotal, c.total, 1e-12));

        // Stage 1 holds 4 MoE layers. Per GPU (tp 2, ep 64, etp 1): MLA's up and output projections and the shared
        // expert split by tp, its down projections, latent norms, the layer norms and the router whole; 256/64 = 4
        // routed experts. ZeRO-1 shards the dense part over dp*cp = 64 and the experts over the expert data-parallel
        // group tp*dp*cp/(etp*ep) = 2; Adam with fp32 master weights and moments: 12 bytes.
        const double h = 7168, a = 128;
        const double split = 1536 * a * 192 + 512 * a * 256 + a * 128 * h + 3 * h * 2048;
        const double whole = h * 1536 + 1536 + h * 576 + 512 + 2 * h + h * 256 + 256;
        const double nonExpert = 4 * (split / 2 + whole);
        const double expert = 4 * (256 * 3 * h * 2048) / 64;
        const StageMemory& st = pr.stages[1];
        QCOMPARE(st.layers, 4);
        QCOMPARE(st.denseLayers, 0);
        QVERIFY2(near(st.parameters, nonExpert + expert, 1e-12),
            qPrintable(num(st.parameters) + " vs " + num(nonExpert + expert)));
        QCOMPARE(double(st.weightsBytes), std::round(2 * (nonExpert + expert)));
        QCOMPARE(double(st.gradientsBytes), std::round(4 * (nonExpert + expert)));
        QCOMPARE(double(st.optimizerBytes), std::round(12 * (nonExpert / 64 + expert / 2)));
    }

    // Transformer Engine fp8 (delayed scaling): weights stay bf16, the fp8 GEMM weights get a forward cast and a
    // transposed copy (2 bytes), and every fp8 GEMM keeps scales and a 1024-step amax history for its input, weight
    // and gradient; with fp8ParamGather the parameter is the forward copy (1 byte) and only the transpose is added.
    void fp8WeightCachesAndScaling()
    {
        const Plan plan = presetPlan("llama3-70b",
            { { "parallel", { { "tp", 8 }, { "pp", 1 }, { "dp", 8 }, { "sp", true }, { "zero", 1 } } },
                { "training", { { "precision", "fp8" }, { "fp8Recipe", "delayed" } } } });
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const ModelSpec& m = plan.model;
        const double h = double(m.hidden), d = double(m.headDimension()), L = m.layers;
        const double attn = h * m.heads * d + 2 * h * m.kvHeads * d + m.heads * d * h;
        const double mlp = 3 * h * double(m.ffnHidden);
        const double f8 = L * (attn + mlp) / 8;
        const StageMemory& st = pr.stages[0];
        QCOMPARE(double(st.fp8WeightCacheBytes), std::round(2 * f8));
        QCOMPARE(double(st.fp8ScalingBytes), std::round(L * 4 * 3 * (1024 + 2) * 4.0));
        QCOMPARE(st.weightsBytes, std::llround(2 * st.parameters) + st.fp8WeightCacheBytes + st.fp8ScalingBytes);

        Plan gather = plan;
        gather.training.fp8ParamGather = true;
        gather.training.fp8Recipe = Fp8Recipe::Current;
        const StageMemory g = evaluate(gather).stages[0]; // a copy: the prediction is a temporary
        QCOMPARE(double(g.fp8WeightCacheBytes), std::round(f8));
        QCOMPARE(double(g.fp8ScalingBytes), std::round(L * 4 * 3 * 2 * 4.0));
        QCOMPARE(double(g.weightsBytes - g.fp8WeightCacheBytes - g.fp8ScalingBytes),
            std::round(2 * g.parameters - f8));
    }

    // Megatron's precision-aware optimizer with bf16 moments: 4 (fp32 master) + 2*2 bytes per parameter; offloading a
    // share f of it to the host leaves (1 - f) on the GPU and puts f*(o + 4) on the host (its fp32 gradients too).
    void bf16MomentsAndOptimizerOffload()
    {
        const Plan plan = presetPlan("llama3-8b",
            { { "parallel", { { "tp", 1 }, { "pp", 1 }, { "dp", 64 }, { "zero", 1 } } },
                { "training", { { "optimizerStateDtype", "bf16" }, { "offload", { { "optimizerFraction", 0.25 } } } } } });
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const StageMemory& st = pr.stages[0];
        const double P = st.parameters / 64;
        QCOMPARE(double(st.optimizerBytes), std::round(0.75 * 8 * P));
        QCOMPARE(double(st.offloadedOptimizerBytes), std::round(0.25 * 8 * P));
        QCOMPARE(double(st.hostBytes), std::round(0.25 * 12 * P));
        // The step: the GPU's share at HBM speed beside the host's share over PCIe 5 and host memory.
        const StageTime& tm = pr.stageTimes[0];
        QVERIFY(near(tm.offloadTransferSeconds, 0.25 * P * (4 + 2) / 63.0e9, 1e-9));
        QVERIFY(near(tm.hostOptimizerSeconds, 0.25 * P * (2 * 8 + 8) / (307.2e9 / 4), 1e-9));
    }

    // --recompute-modules: core_attn drops the attention scores, mlp the MLP's inner tensors (fc1 output and fc2
    // input), layernorm the two norm outputs; the FLOPs re-run are 4*L*s*h for the scores and 2 per MLP weight.
    void selectiveRecomputeModules()
    {
        Plan plan = presetPlan("gpt3-175b",
            { { "cluster", { { "nodes", 16 } } },
                { "parallel", { { "tp", 8 }, { "pp", 16 }, { "dp", 1 }, { "sp", false } } },
                { "training", { { "recompute", "selective" }, { "flashAttention", false }, { "globalBatch", 64 } } } });
        const LayerActivations base = layerActivations(plan);
        const double s = 2048, b = 1, h = 12288, a = 96, t = 8, f = 4 * h;
        QVERIFY(near(base.full - base.stored, 5 * a * s * s * b / t, 1e-12));
        plan.training.recomputeModules = { "core_attn", "mlp", "layernorm" };
        const LayerActivations mods = layerActivations(plan);
        const double mlpInner = s * b * (2 * f + 2 * f) / t; // fc1 output and fc2 input, bf16, split by tp
        const double normOut = s * b * (2 * h + 2 * h);       // QKV and fc1 inputs, not split without SP
        QVERIFY2(near(mods.full - mods.stored, 5 * a * s * s * b / t + mlpInner + normOut, 1e-12),
            qPrintable(num(mods.full - mods.stored)));
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const double extra = pr.hardwareFlopsPerStep - pr.modelFlopsPerStep;
        const double perToken = 4.0 * 96 * s * h + 2.0 * 96 * 2 * h * f;
        QVERIFY2(near(extra, perToken * 64 * s, 1e-9), qPrintable(num(extra) + " vs " + num(perToken * 64 * s)));
    }

    // Full recompute of N layers, block method: the first N layers of each chunk keep only their input, the others
    // everything; uniform: groups of N layers keep one input each.
    void recomputeLayersBlockAndUniform()
    {
        Plan plan = presetPlan("llama3-8b",
            { { "parallel", { { "tp", 1 }, { "pp", 4 }, { "dp", 16 } } },
                { "training", { { "recompute", "full" }, { "recomputeLayers", 3 }, { "recomputeMethod", "block" },
                                  { "globalBatch", 64 } } } });
        const LayerActivations act = layerActivations(plan);
        Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        // Stage 1 of 1F1B holds p - 1 = 3 microbatches of 8 layers: 3 recomputed, 5 kept whole; one layer's
        // working set while it is rebuilt.
        const StageMemory& st = pr.stages[1];
        QCOMPARE(st.layers, 8);
        const double expected = 3 * (3 * act.input + 5 * act.full) + act.full;
        QVERIFY2(std::abs(double(st.activationsBytes) - expected) <= 1.0, qPrintable(num(st.activationsBytes) + " vs " + num(expected)));

        plan.training.recomputeBlock = false;
        pr = evaluate(plan);
        const double uniform = 3 * std::ceil(8.0 / 3.0) * act.input + 3 * act.full;
        QVERIFY2(std::abs(double(pr.stages[1].activationsBytes) - uniform) <= 1.0, qPrintable(num(pr.stages[1].activationsBytes)));
    }

    // Plan files carry every new field and read back equal.
    void newFieldsRoundTrip()
    {
        Plan plan = presetPlan("deepseek-v3",
            { { "cluster", { { "nodes", 256 } } },
                { "parallel", { { "tp", 2 }, { "pp", 16 }, { "ep", 64 }, { "etp", 1 }, { "dp", 64 }, { "sp", true }, { "zero", 1 } } },
                { "training", { { "precision", "fp8" }, { "fp8Recipe", "blockwise" }, { "fp8ParamGather", true },
                                  { "optimizerStateDtype", "bf16" }, { "recompute", "selective" },
                                  { "recomputeModules", { "mla_up_proj", "moe_act", "layernorm" } },
                                  { "offload", { { "optimizerFraction", 0.5 }, { "activationLayers", 1 } } } } } });
        plan.model.moe.capacityFactor = 1.25;
        plan.model.moe.dispatcher = MoeDispatcher::AllGather;
        const Plan back = planFromText(serializePlan(plan));
        QVERIFY(back == plan);
        QCOMPARE(back.model.mla.kvLoraRank, 512);
        QCOMPARE(back.parallel.etp, 1);
    }

    // Bad values name their field.
    void badFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("path");
        QTest::newRow("module") << R"({"training":{"recomputeModules":["attn"]}})" << "training.recomputeModules[0]";
        QTest::newRow("method") << R"({"training":{"recomputeMethod":"blocks"}})" << "training.recomputeMethod";
        QTest::newRow("recipe") << R"({"training":{"fp8Recipe":"late"}})" << "training.fp8Recipe";
        QTest::newRow("fraction") << R"({"training":{"offload":{"optimizerFraction":2}}})" << "training.offload.optimizerFraction";
        QTest::newRow("dispatcher") << R"({"model":{"moe":{"dispatcher":"ring"}}})" << "model.moe.dispatcher";
        QTest::newRow("moments") << R"({"training":{"optimizerStateDtype":"fp8"}})" << "training.optimizerStateDtype";
    }
    void badFieldsAreNamed()
    {
        QFETCH(QString, patch);
        QFETCH(QString, path);
        json j = { { "schema", "planscope/plan/v1" }, { "name", "bad" }, { "model", { { "preset", "mixtral-8x22b" } } },
            { "cluster", { { "gpu", "h100-sxm5-80gb" }, { "nodes", 1 } } }, { "parallel", { { "tp", 8 } } },
            { "training", { { "globalBatch", 8 } } } };
        j.merge_patch(json::parse(patch.toStdString()));
        const auto r = parsePlan(j.dump());
        QVERIFY(!r);
        bool named = false;
        for (const Issue& i : r.errors()) named = named || i.path == path.toStdString();
        QVERIFY2(named, qPrintable(QString::fromStdString(r.errors().front().path + ": " + r.errors().front().message)));
    }
};

QTEST_APPLESS_MAIN(TestMoe)
#include "tst_moe.moc"
