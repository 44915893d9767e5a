// The pipeline split (core/spec/PipelineLayout.h): Megatron-Core's layout strings
// (megatron/core/transformer/pipeline_parallel_layer_layout.py in NVIDIA/Megatron-LM), the embedding and the loss
// counted in the split (megatron/core/transformer/transformer_block.py, get_num_layers_to_build), and the
// per-stage parameters, memory and simulated durations that follow from them.
#include "TestUtil.h"

#include "cost/Parameters.h"
#include "io/PlanJson.h"
#include "sim/Timeline.h"
#include "spec/PipelineLayout.h"
#include "spec/Validate.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

std::string firstError(std::string_view text)
{
    auto r = parsePipelineLayout(text);
    return r ? std::string() : r.errors().front().path + ": " + r.errors().front().message;
}

// Transformer layers of each expanded stage, "E"/"L" marked: "E1,2,2,1L".
std::string describe(const ParsedLayout& lay)
{
    std::string s;
    for (const auto& stage : lay.stages) {
        int t = 0, m = 0;
        bool e = false, l = false;
        for (const LayoutSymbol& x : stage) {
            t += x.kind == 't';
            m += x.kind == 'm';
            e = e || x.kind == 'E';
            l = l || x.kind == 'L';
        }
        if (!s.empty()) s += ",";
        s += (e ? "E" : "") + std::to_string(t) + (m ? "+" + std::to_string(m) + "m" : "") + (l ? "L" : "");
    }
    return s;
}

bool hasIssue(const Issues& issues, Severity sev, const std::string& path, const std::string& fragment)
{
    for (const Issue& i : issues)
        if (i.severity == sev && i.path == path && i.message.find(fragment) != std::string::npos) return true;
    return false;
}

std::string dump(const Issues& issues)
{
    std::string s;
    for (const Issue& i : issues) s += (i.severity == Severity::Error ? "E " : "W ") + i.path + ": " + i.message + "\n";
    return s;
}

// A small Llama-style plan: 14 layers on pp=4, interleaved with vpp=2 (8 virtual stages); 14 + 2 = 16 = 8 x 2.
json smallPlan()
{
    return json::parse(R"({
      "schema": "planscope/plan/v1", "name": "small",
      "model": { "layers": 14, "hidden": 1024, "heads": 16, "kvHeads": 4, "ffnHidden": 4096, "vocab": 32000,
                 "seqLength": 2048, "gatedMlp": true, "tiedEmbeddings": false, "norm": "rmsnorm", "bias": false,
                 "positionEmbedding": "rope", "dropout": false },
      "cluster": { "gpu": "a100-sxm4-80gb", "nodes": 1, "gpusPerNode": 8 },
      "parallel": { "dp": 2, "tp": 1, "pp": 4, "vpp": 2 },
      "training": { "microBatch": 1, "globalBatch": 16, "schedule": "interleaved-1f1b", "tokens": 1e9 }
    })");
}

Plan planOf(const json& j) { return test::planFromText(j.dump()); }

} // namespace

class TestPipelineLayout : public QObject {
    Q_OBJECT
private slots:
    void parsesValidStrings_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("stages");
        QTest::newRow("plain") << "Ett|tt|ttL" << "E2,2,2L";
        QTest::newRow("letter count") << "Et*3|t*2L" << "E3,2L";
        // Megatron-Core's own docstring example: "Ettt|(tt|)*29,m|L" -> E+3t, 29 x 2t, m, L.
        QTest::newRow("megatron docstring") << "Ettt|(tt|)*29,m|L"
                                            << "E3," + QString("2,").repeated(29) + "0+1m,0L";
        QTest::newRow("commas ignored") << "E,t,t|t,tL" << "E2,2L";
        QTest::newRow("count inside group") << "E|(t*3|)*2L" << "E0,3,3,0L";
        QTest::newRow("separator repeated") << "Et|*2tL" << "E1,0,1L";
        QTest::newRow("empty stages") << "E||tL" << "E0,0,1L";
    }
    void parsesValidStrings()
    {
        QFETCH(QString, layout);
        QFETCH(QString, stages);
        auto r = parsePipelineLayout(layout.toStdString());
        QVERIFY2(r.ok(), firstError(layout.toStdString()).c_str());
        QCOMPARE(QString::fromStdString(describe(r.value())), stages);
    }

    void namesTheBadCharacter_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("message");
        QTest::newRow("stray close") << "Et|tt|)t" << "parallel.layout: unexpected ')' at character 7";
        QTest::newRow("unknown letter") << "Et|tx|tL" << "parallel.layout: unexpected 'x' at character 5";
        QTest::newRow("space") << "Et| tL" << "parallel.layout: unexpected ' ' at character 4";
        QTest::newRow("digit without star") << "Et3|tL" << "parallel.layout: unexpected '3' at character 3";
        QTest::newRow("star without count") << "Et*|tL" << "parallel.layout: expected a count after '*' at character 3";
        QTest::newRow("leading star") << "*2Et|tL" << "parallel.layout: unexpected '*' at character 1";
        QTest::newRow("unclosed group") << "E(tt|*3L" << "parallel.layout: '(' at character 2 is not closed";
        QTest::newRow("nested group") << "E((t|)*2)*2L" << "parallel.layout: unexpected '(' at character 3 (groups do not nest)";
        QTest::newRow("group without count") << "E(tt|)L" << "parallel.layout: expected '*' and a count after ')' at character 6";
        QTest::newRow("empty group") << "E()*3tL" << "parallel.layout: empty group '()' at character 2";
        QTest::newRow("too large") << "E(t|)*999999tL" << "parallel.layout: the repetition at character 2 expands to more than 1000000 layers";
        // Found by tests/fuzz/fuzz_layout (a 30 s timeout under ASan): 313,679 x (L|t) is 941,037 symbols, within the
        // symbol limit, but 313,680 stages; more than parallel.pp's limit of 100,000.
        QTest::newRow("too many stages") << "(L|t)*313679" << "parallel.layout: expands to 313680 stages, more than 100000";
    }
    void namesTheBadCharacter()
    {
        QFETCH(QString, layout);
        QFETCH(QString, message);
        QCOMPARE(QString::fromStdString(firstError(layout.toStdString())), message);
    }

    void deepSeekV3Layout()
    {
        // DeepSeek-V3's style: the embedding with one layer, 30 stages of two, the MTP layer with the loss:
        // 32 stages, 1 + 60 = 61 transformer layers (DeepSeek-V3's count).
        auto r = parsePipelineLayout("Et|(tt|)*30mL");
        QVERIFY(r.ok());
        const ParsedLayout& lay = r.value();
        QCOMPARE(lay.stages.size(), std::size_t(32));
        QCOMPARE(lay.count('t'), 61);
        QCOMPARE(lay.count('m'), 1);
        QCOMPARE(QString::fromStdString(describe(lay)), "E1," + QString("2,").repeated(30) + "0+1mL");
        // In a plan with pp = 16, vpp = 2 the stages sit on rank k mod 16 as its chunk k / 16; the MTP layer is in
        // rank 15's last chunk, which Megatron-Core allows. The model must declare it (mtpLayers 1): a layout whose
        // 'm' count differs from model.mtpLayers is an error.
        json j = smallPlan();
        j["model"]["layers"] = 61;
        j["cluster"]["nodes"] = 4;
        j["parallel"] = { { "dp", 2 }, { "tp", 1 }, { "pp", 16 }, { "vpp", 2 }, { "layout", "Et|(tt|)*30mL" } };
        j["training"]["globalBatch"] = 64;
        const Issues mismatch = validate(planOf(j));
        QVERIFY(hasIssue(mismatch, Severity::Error, "parallel.layout", "the layout places 1 MTP layers ('m') but model.mtpLayers is 0"));
        j["model"]["mtpLayers"] = 1;
        const Plan plan = planOf(j);
        const Issues issues = validate(plan);
        QVERIFY2(!hasErrors(issues), dump(issues).c_str());
        const auto stages = virtualStages(plan);
        QCOMPARE(stages.size(), std::size_t(32));
        QCOMPARE(stages[0].rank, 0);
        QCOMPARE(stages[0].chunk, 0);
        QCOMPARE(stages[0].layers, 1);
        QVERIFY(stages[0].embedding);
        QCOMPARE(stages[17].rank, 1);
        QCOMPARE(stages[17].chunk, 1);
        QCOMPARE(stages[17].layers, 2);
        QCOMPARE(stages[31].rank, 15);
        QCOMPARE(stages[31].chunk, 1);
        QCOMPARE(stages[31].layers, 0);
        QCOMPARE(stages[31].mtpLayers, 1);
        QVERIFY(stages[31].loss);
        // Rank 15 holds stage 15 (2 layers) and stage 31 (MTP and loss only).
        const auto shapes = rankShapes(plan);
        QCOMPARE(shapes[15].layersHeld, 2);
        QCOMPARE(shapes[15].mtpHeld, 1);
        QVERIFY(shapes[15].output);
        QCOMPARE(shapes[0].layersHeld, 3);
    }

    void layoutValidation()
    {
        auto issuesFor = [](const std::string& layout, int pp = 4, int vpp = 2) {
            json j = smallPlan();
            j["parallel"]["pp"] = pp;
            j["parallel"]["vpp"] = vpp;
            j["parallel"]["layout"] = layout;
            return validate(planOf(j));
        };
        // 8 stages, 14 transformer layers, E first, L last: valid.
        const std::string good = "Et|(tt|)*6tL";
        QVERIFY2(!hasErrors(issuesFor(good)), dump(issuesFor(good)).c_str());
        // A parse error reaches validation with its character.
        QVERIFY(hasIssue(issuesFor("Et|(tt|)*6t)L"), Severity::Error, "parallel.layout", "unexpected ')' at character 12"));
        // Stage count against pp*vpp.
        QVERIFY(hasIssue(issuesFor("Et|(tt|)*5tttL"), Severity::Error, "parallel.layout",
            "the layout has 7 stages but pp*chunks = 8 are needed (pp 4, vpp 2)"));
        // Transformer layers against model.layers.
        QVERIFY(hasIssue(issuesFor("Et|(tt|)*6ttL"), Severity::Error, "parallel.layout",
            "the layout has 15 transformer layers ('t') but model.layers is 14"));
        // E only first in the first stage, L only last in the last.
        QVERIFY(hasIssue(issuesFor("t|Et|(tt|)*5ttL"), Severity::Error, "parallel.layout",
            "embedding 'E' at character 3 (stage 1): 'E' must be the first layer of the first stage"));
        QVERIFY(hasIssue(issuesFor("Et|(tt|)*6Lt"), Severity::Error, "parallel.layout",
            "loss 'L' at character 11 (stage 7): 'L' must be the last layer of the last stage"));
        QVERIFY(hasIssue(issuesFor("t|(tt|)*6tL"), Severity::Error, "parallel.layout", "no embedding 'E'"));
        QVERIFY(hasIssue(issuesFor("Et|(tt|)*6tt"), Severity::Error, "parallel.layout", "no loss 'L'"));
        QVERIFY(hasIssue(issuesFor("EEt|(tt|)*6tL"), Severity::Error, "parallel.layout", "a second embedding 'E' at character 2"));
        // MTP layers come after every transformer layer (Megatron-Core validate_layer_layout).
        QVERIFY(hasIssue(issuesFor("Et|(tt|)*5tm|tL"), Severity::Error, "parallel.layout",
            "transformer layer 't' at character 14 (stage 7) after an MTP layer"));
        // A layout with another split option is refused, as Megatron-Core's TransformerConfig does.
        json j = smallPlan();
        j["parallel"]["layout"] = good;
        j["parallel"]["embeddingInSplit"] = true;
        QVERIFY(hasIssue(validate(planOf(j)), Severity::Error, "parallel.layout", "cannot be combined"));
        // V-shaped schedules place stages their own way.
        j = smallPlan();
        j["parallel"]["vpp"] = 1;
        j["parallel"]["layout"] = good;
        j["training"]["schedule"] = "zb-v";
        QVERIFY(hasIssue(validate(planOf(j)), Severity::Error, "parallel.layout", "not supported with the zb-v schedule"));
    }

    void layoutSetsStageLayers()
    {
        // An uneven layout: rank 0 holds E+3 and 1, rank 3 holds 2 and 1+L.
        json j = smallPlan();
        j["parallel"]["layout"] = "Ettt|tt|tt|tt|t|tt|t|tL";
        const Plan plan = planOf(j);
        QVERIFY2(!hasErrors(validate(plan)), dump(validate(plan)).c_str());
        const auto stages = virtualStages(plan);
        const int expected[] = { 3, 2, 2, 2, 1, 2, 1, 1 };
        for (int k = 0; k < 8; ++k) {
            QCOMPARE(stages[std::size_t(k)].layers, expected[k]);
            QCOMPARE(stages[std::size_t(k)].rank, k % 4);
            QCOMPARE(stages[std::size_t(k)].chunk, k / 4);
        }
        const auto shapes = rankShapes(plan);
        QCOMPARE(shapes[0].layersHeld, 4);
        QCOMPARE(shapes[1].layersHeld, 4);
        QCOMPARE(shapes[2].layersHeld, 3);
        QCOMPARE(shapes[3].layersHeld, 3);
        QVERIFY(shapes[0].embedding && !shapes[0].output);
        QVERIFY(shapes[3].output && !shapes[3].embedding);
        // The plan round-trips through its JSON.
        auto back = parsePlan(planToJson(plan).dump());
        QVERIFY(back.ok());
        QCOMPARE(back->plan.parallel.layout, plan.parallel.layout);
    }

    void embeddingAndLossInSplitSmall()
    {
        // 14 + 1 + 1 = 16 over pp*vpp = 8: 2 per virtual stage, stage 0 and stage 7 one fewer.
        json j = smallPlan();
        j["parallel"]["embeddingInSplit"] = true;
        j["parallel"]["lossInSplit"] = true;
        const Plan plan = planOf(j);
        QVERIFY2(!hasErrors(validate(plan)), dump(validate(plan)).c_str());
        const auto stages = virtualStages(plan);
        const int expected[] = { 1, 2, 2, 2, 2, 2, 2, 1 };
        for (int k = 0; k < 8; ++k) QCOMPARE(stages[std::size_t(k)].layers, expected[k]);
        // Only the embedding: 15 over 8 does not divide.
        j["parallel"]["lossInSplit"] = false;
        QVERIFY(hasIssue(validate(planOf(j)), Severity::Error, "parallel.vpp",
            "layers 14 + embedding = 15 are not divisible by pp*chunks = 8"));
        // Megatron-Core refuses it beside first/last stage layers.
        j["parallel"]["lossInSplit"] = true;
        j["parallel"]["firstStageLayers"] = 4;
        QVERIFY(hasIssue(validate(planOf(j)), Severity::Error, "parallel.embeddingInSplit", "cannot be combined"));
    }

    void llama405bSplit()
    {
        // samples/plans/llama31-405b-pp8-vp8-h100.plan.json: 126 layers, pp 8, vpp 8, embedding and loss in the
        // split. Megatron-Core transformer_block.py get_num_layers_to_build: num_layers = 126 + 1 + 1 = 128,
        // per pipeline rank 128 / 8 = 16, per virtual stage 16 / 8 = 2; the first virtual stage of pp rank 0 builds
        // 2 - 1 = 1 (embedding), the last virtual stage of pp rank 7 builds 2 - 1 = 1 (loss). Stage k of the layout
        // order is vp_stage k / 8 on pp rank k mod 8.
        const Plan plan = test::loadSample("llama31-405b-pp8-vp8-h100.plan.json");
        const Issues issues = validate(plan);
        QVERIFY2(!hasErrors(issues), dump(issues).c_str());
        // Without the flags Megatron-Core (and PlanScope) refuse the split.
        Plan even = plan;
        even.parallel.embeddingInSplit = even.parallel.lossInSplit = false;
        QVERIFY(hasIssue(validate(even), Severity::Error, "parallel.vpp", "layers 126 are not divisible by pp*chunks = 64"));

        const auto stages = virtualStages(plan);
        QCOMPARE(stages.size(), std::size_t(64));
        for (int k = 0; k < 64; ++k) {
            const VirtualStage& v = stages[std::size_t(k)];
            QCOMPARE(v.rank, k % 8);
            QCOMPARE(v.chunk, k / 8);
            QCOMPARE(v.layers, k == 0 || k == 63 ? 1 : 2);
            QCOMPARE(v.embedding, k == 0);
            QCOMPARE(v.loss, k == 63);
        }
        const auto shapes = rankShapes(plan);
        const int held[] = { 15, 16, 16, 16, 16, 16, 16, 15 };
        for (int r = 0; r < 8; ++r) QCOMPARE(shapes[std::size_t(r)].layersHeld, held[r]);

        // Parameters per stage by hand (docs/MODEL.md section 1; h 16384, a 128, kv 8, f 53248, V 128256, RMSNorm,
        // no biases, untied): a layer 16384*(16384 + 2*16384*8/128) + 16384^2 + 3*16384*53248 + 2*16384
        // = 570,425,344 + 2,617,245,696 + 32,768 = 3,187,703,808; embedding = output = 128256*16384 = 2,101,346,304.
        const double layer = 3187703808.0, emb = 2101346304.0, finalNorm = 16384.0;
        const Prediction pred = evaluate(plan);
        QVERIFY(pred.valid);
        QCOMPARE(pred.paramsPerStage.size(), std::size_t(8));
        QCOMPARE(pred.paramsPerStage[0], 15 * layer + emb);                    // 49,916,903,424
        for (int r = 1; r < 7; ++r) QCOMPARE(pred.paramsPerStage[std::size_t(r)], 16 * layer); // 51,003,260,928
        QCOMPARE(pred.paramsPerStage[7], 15 * layer + emb + finalNorm);        // 49,916,919,808
        double sum = 0;
        for (double x : pred.paramsPerStage) sum += x;
        QCOMPARE(sum, 405853388800.0);
        // Weights per GPU (bf16, ZeRO-1 keeps them whole; tp 8 splits the matrices, the norms are replicated):
        // a layer (570,425,344 + 2,617,245,696) / 8 + 32,768 = 398,491,648 parameters.
        const double layerGpu = 398491648.0;
        QCOMPARE(pred.stages[0].layers, 15);
        QCOMPARE(pred.stages[0].weightsBytes, std::int64_t(2 * (15 * layerGpu + emb / 8)));             // 12,480,086,016
        QCOMPARE(pred.stages[3].weightsBytes, std::int64_t(2 * (16 * layerGpu)));                        // 12,751,732,736
        QCOMPARE(pred.stages[7].weightsBytes, std::int64_t(2 * (15 * layerGpu + emb / 8 + finalNorm)));  // 12,480,118,784
        // Activations follow the layers held: ranks 0 and 7 keep 15 layers' worth, not 16.
        QVERIFY(pred.stages[0].activationsBytes < pred.stages[1].activationsBytes);

        // The simulation's per-chunk durations: 1 layer in stages 0 and 63 (plus the output layer in 63), 2 elsewhere.
        auto tl = simulate(plan, pred);
        QVERIFY(tl.ok());
        const OpCosts& c = pred.opCosts;
        bool seen0 = false, seen8 = false, seen63 = false;
        for (const Span& s : tl->spans) {
            if (s.stream != Stream::Compute || s.kind != SpanKind::Forward || s.microbatch != 0) continue;
            const double d = s.end - s.start;
            if (s.stage == 0) seen0 = test::near(d, c.layerForward, 1e-9);
            if (s.stage == 8) seen8 = test::near(d, 2 * c.layerForward, 1e-9);
            if (s.stage == 63) seen63 = test::near(d, c.layerForward + c.outputForward, 1e-9);
        }
        QVERIFY(seen0);
        QVERIFY(seen8);
        QVERIFY(seen63);
    }

    void legacySplitsUnchanged()
    {
        // firstStageLayers/lastStageLayers still give each rank's count, spread over its chunks (the Llama 3 paper's
        // one layer fewer on the first and last stage: 7 + 14 x 8 + 7 = 126 on pp 16, vpp 8).
        const Plan plan = test::loadSample("llama3-405b-8k-h100.plan.json");
        const auto stages = virtualStages(plan);
        QCOMPARE(stages.size(), std::size_t(128));
        QCOMPARE(stages[0].layers, 1);   // rank 0 chunk 0
        QCOMPARE(stages[112].layers, 0); // rank 0 chunk 7: 7 layers over 8 chunks
        QCOMPARE(stages[127].layers, 0); // rank 15 chunk 7
        QCOMPARE(stages[1].layers, 1);
        QCOMPARE(rankShapes(plan)[0].layersHeld, 7);
        QCOMPARE(rankShapes(plan)[1].layersHeld, 8);
        QCOMPARE(QString::fromStdString(splitSource(plan)), QStringLiteral("first/last stage layers"));
    }
};

QTEST_GUILESS_MAIN(TestPipelineLayout)
#include "tst_pipeline_layout.moc"
