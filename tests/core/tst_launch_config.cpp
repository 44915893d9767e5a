// Plans from launch configs (core/io/LaunchConfig.h): shell text as launch scripts write it (continuation lines,
// comments, quotes, arrays and variables) read into words; a Megatron-LM argument list applied to a plan, each value
// checked against the number written in the file (tests/data/launch-configs, written from the documented argument
// names); every argument not modelled listed by name, none dropped; values that do not parse and conflicts named.
#include "TestUtil.h"

#include "cost/Evaluate.h"
#include "io/LaunchConfig.h"
#include "io/PlanJson.h"

#include <QDir>
#include <QObject>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace planscope;
using nlohmann::json;
using namespace std::string_literals;

namespace {

std::string readData(const char* name)
{
    std::ifstream in(std::string(PLANSCOPE_SOURCE_DIR) + "/tests/data/launch-configs/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

json h100Base()
{
    return { { "schema", kPlanSchema }, { "name", "base" },
        { "cluster", { { "gpu", "h100-sxm5-80gb" }, { "nodes", 1 }, { "gpusPerNode", 8 } } } };
}

bool hasIssue(const ImportedLaunch& r, const std::string& path, Severity severity)
{
    for (const Issue& i : r.issues)
        if (i.path == path && i.severity == severity) return true;
    return false;
}

// Every option the text gives ("--name" words) is applied or listed as not modelled: none is dropped.
void everyOptionIsAccountedFor(const std::vector<std::string>& words, const ImportedLaunch& r, std::size_t from)
{
    std::set<std::string> named(r.ignored.begin(), r.ignored.end());
    for (const std::string& a : r.applied) named.insert(a.substr(0, a.find_first_of(" :")));
    for (std::size_t i = from; i < words.size(); ++i) {
        if (words[i].rfind("--", 0) != 0) continue;
        std::string name = words[i].substr(0, words[i].find('='));
        std::replace(name.begin() + 2, name.end(), '_', '-');
        QVERIFY2(named.count(name), name.c_str());
    }
}

} // namespace

class TestLaunchConfig : public QObject {
    Q_OBJECT
private slots:
    void shellWordsAreTheShells()
    {
        const std::string text = "A=1\nLIST=(--x $A \"two words\" # a comment\n  --y)\n"
                                 "run \\\n  ${LIST[@]} --z=\"$A\" 'lit $A' $UNSET ; echo done\n";
        // Unquoted, ${LIST[@]} splits its items at blanks as the shell does; quoted, "${LIST[@]}" keeps them whole.
        const std::vector<std::string> expected { "run", "--x", "1", "two", "words", "--y", "--z=1", "lit $A", "$UNSET", "echo",
            "done" };
        QCOMPARE(shellWords(text), expected);
        QCOMPARE(shellWords("L=(a \"b c\")\nrun \"${L[@]}\""), (std::vector<std::string> { "run", "a", "b c" }));
        QCOMPARE(shellWords("export B=\"a b\"\nc $B \"$B\""), (std::vector<std::string> { "c", "a", "b", "a b" }));
    }

    // A torchrun script of GPT-3 175B: 16 nodes of 8 GPUs from its launcher; the values of the file's arguments.
    void aTorchrunScript()
    {
        const std::string text = readData("gpt-175b-megatron.sh");
        const ImportedLaunch r = importMegatronArgs(text, h100Base());
        QVERIFY2(!hasErrors(r.issues), issueLines(r.issues).empty() ? "" : issueLines(r.issues).front().c_str());
        const json& p = r.plan;
        QCOMPARE(p["cluster"]["nodes"].get<int>(), 16);
        QCOMPARE(p["cluster"]["gpusPerNode"].get<int>(), 8);
        QCOMPARE(p["model"]["layers"].get<int>(), 96);
        QCOMPARE(p["model"]["hidden"].get<int>(), 12288);
        QCOMPARE(p["model"]["heads"].get<int>(), 96);
        QCOMPARE(p["model"]["kvHeads"].get<int>(), 96); // no --group-query-attention
        QCOMPARE(p["model"]["seqLength"].get<int>(), 2048);
        QCOMPARE(p["model"]["vocab"].get<int>(), 51200);
        // Megatron-LM's defaults where the script says nothing: tied embeddings, biases, LayerNorm, learned positions.
        QCOMPARE(p["model"]["tiedEmbeddings"].get<bool>(), true);
        QCOMPARE(p["model"]["bias"].get<bool>(), true);
        QCOMPARE(p["model"]["norm"].get<std::string>(), std::string("layernorm"));
        QCOMPARE(p["model"]["positionEmbedding"].get<std::string>(), std::string("learned"));
        QCOMPARE(p["parallel"]["tp"].get<int>(), 8);
        QCOMPARE(p["parallel"]["pp"].get<int>(), 8);
        QCOMPARE(p["parallel"]["dp"].get<int>(), 128 / 64);
        QCOMPARE(p["parallel"]["vpp"].get<int>(), 96 / (8 * 4)); // layers / (pp x layers per virtual stage)
        QCOMPARE(p["parallel"]["sp"].get<bool>(), true);
        QCOMPARE(p["parallel"]["zero"].get<int>(), 1);
        QCOMPARE(p["training"]["schedule"].get<std::string>(), std::string("interleaved-1f1b"));
        QCOMPARE(p["training"]["microBatch"].get<int>(), 1);
        QCOMPARE(p["training"]["globalBatch"].get<int>(), 1536);
        QCOMPARE(p["training"]["precision"].get<std::string>(), std::string("bf16"));
        QCOMPARE(p["training"]["gradDtype"].get<std::string>(), std::string("bf16"));
        QCOMPARE(p["training"]["recompute"].get<std::string>(), std::string("selective"));
        QCOMPARE(p["training"]["overlapGradReduce"].get<bool>(), true);
        QCOMPARE(p["training"]["flashAttention"].get<bool>(), true);
        QCOMPARE(p["training"]["tokens"].get<double>(), 500000.0 * 1536 * 2048);
        // Not modelled, by name; the rampup's three values and the data path with them.
        for (const char* name : { "--lr", "--min-lr", "--lr-decay-style", "--weight-decay", "--clip-grad", "--data-path",
                 "--split", "--log-interval", "--save-interval", "--rampup-batch-size", "--overlap-param-gather" })
            QVERIFY2(std::find(r.ignored.begin(), r.ignored.end(), name) != r.ignored.end(), name);
        QVERIFY(std::find(r.launcher.begin(), r.launcher.end(), "torchrun") != r.launcher.end());
        const std::vector<std::string> words = shellWords(text);
        everyOptionIsAccountedFor(words, r, std::size_t(std::find(words.begin(), words.end(), "pretrain_gpt.py") - words.begin()));
        // The plan reads and runs.
        auto plan = parsePlan(r.plan.dump());
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.errors().front().message.c_str());
        QVERIFY(evaluate(plan->plan).valid);
        // --nodes given to the import wins over the launcher's.
        const ImportedLaunch bigger = importMegatronArgs(text, h100Base(), LaunchOverrides { 64, 0 });
        QCOMPARE(bigger.plan["parallel"]["dp"].get<int>(), 64 * 8 / 64);
    }

    // An MoE run under srun: GQA, SwiGLU, RMSNorm, RoPE, shared experts, a dense first layer, FP8 blockwise.
    void anSrunMoeLine()
    {
        const std::string text = readData("moe-megatron-srun.txt");
        const ImportedLaunch r = importMegatronArgs(text, h100Base());
        QVERIFY(!hasErrors(r.issues));
        const json& m = r.plan["model"];
        QCOMPARE(r.plan["cluster"]["nodes"].get<int>(), 32);
        QCOMPARE(r.plan["cluster"]["gpusPerNode"].get<int>(), 8);
        QCOMPARE(m["kvHeads"].get<int>(), 4);
        QCOMPARE(m["ffnHidden"].get<int>(), 8192);
        QCOMPARE(m["gatedMlp"].get<bool>(), true);
        QCOMPARE(m["norm"].get<std::string>(), std::string("rmsnorm"));
        QCOMPARE(m["positionEmbedding"].get<std::string>(), std::string("rope"));
        QCOMPARE(m["bias"].get<bool>(), false);
        QCOMPARE(m["tiedEmbeddings"].get<bool>(), false);
        QCOMPARE(m["dropout"].get<bool>(), false);
        QCOMPARE(m["moe"]["experts"].get<int>(), 64);
        QCOMPARE(m["moe"]["topK"].get<int>(), 6);
        QCOMPARE(m["moe"]["expertFfnHidden"].get<int>(), 1408);
        QCOMPARE(m["moe"]["sharedExperts"].get<int>(), 1);
        QCOMPARE(m["moe"]["sharedExpertFfnHidden"].get<int>(), 2816);
        QCOMPARE(m["moe"]["denseLayers"].get<int>(), 1);
        QCOMPARE(m["moe"]["groupedGemm"].get<bool>(), true);
        QCOMPARE(r.plan["parallel"]["ep"].get<int>(), 8);
        QCOMPARE(r.plan["parallel"]["dp"].get<int>(), 32 * 8 / 4);
        QCOMPARE(r.plan["training"]["precision"].get<std::string>(), std::string("fp8"));
        QCOMPARE(r.plan["training"]["fp8Recipe"].get<std::string>(), std::string("blockwise"));
        QVERIFY(r.plan["training"]["recomputeModules"] == json::array({ "moe_act", "layernorm" }));
        QCOMPARE(r.plan["training"]["tokens"].get<double>(), 1e6 * 4096);
        QVERIFY(std::find(r.ignored.begin(), r.ignored.end(), "--my-own-flag") != r.ignored.end());
        QCOMPARE(r.launcher.front(), std::string("srun"));
        const std::vector<std::string> words = shellWords(text);
        everyOptionIsAccountedFor(words, r, std::size_t(std::find(words.begin(), words.end(), "pretrain_gpt.py") - words.begin()));
        auto plan = parsePlan(r.plan.dump());
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.errors().front().message.c_str());
        QVERIFY(evaluate(plan->plan).valid);
    }

    // What cannot be read is named: a value that is no number, an argument given twice, two precisions, a world the
    // model-parallel size does not divide; an argument list without a launcher takes the base plan's cluster.
    void badArgumentsAreNamed()
    {
        const json base = h100Base();
        ImportedLaunch r = importMegatronArgs("--num-layers ninety-six --hidden-size 1024 --num-attention-heads 8", base);
        QVERIFY(hasIssue(r, "--num-layers", Severity::Error));
        r = importMegatronArgs("--num-layers 8 --tensor-model-parallel-size 8 --tensor-model-parallel-size 4", base);
        QVERIFY(hasIssue(r, "--tensor-model-parallel-size", Severity::Error));
        QVERIFY(r.issues.front().message.find("8 and 4") != std::string::npos);
        r = importMegatronArgs("--num-layers 8 --bf16 --fp16", base);
        QVERIFY(hasIssue(r, "--fp16", Severity::Error));
        r = importMegatronArgs("--num-layers 8 --tensor-model-parallel-size 16 --pipeline-model-parallel-size 2", base);
        QVERIFY(hasIssue(r, "parallel.dp", Severity::Error)); // 8 GPUs, tp x pp = 32
        r = importMegatronArgs("--num-layers 8 --hidden-size 1024 --num-attention-heads 8 --tensor-model-parallel-size 2", base);
        QVERIFY(!hasErrors(r.issues));
        QCOMPARE(r.plan["parallel"]["dp"].get<int>(), 4); // the base's 8 GPUs / tp 2
        QVERIFY(hasIssue(r, "model.vocab", Severity::Warning)); // from the tokenizer, not the arguments
        QCOMPARE(r.plan["training"]["precision"].get<std::string>(), std::string("fp32")); // Megatron-LM's default
        // Iterations without a sequence length: no tokens to count, said as such (not a bad value).
        r = importMegatronArgs("--num-layers 8 --hidden-size 1024 --num-attention-heads 8 --train-iters 100", base);
        QVERIFY(!hasErrors(r.issues));
        QVERIFY(hasIssue(r, "--train-iters", Severity::Warning));
        QVERIFY(!r.plan["training"].contains("tokens"));
        // --swiglu without --ffn-hidden-size: Megatron-LM's int(4h x 2/3 / 64) x 64.
        r = importMegatronArgs("--num-layers 8 --hidden-size 4096 --num-attention-heads 32 --swiglu", base);
        QCOMPARE(r.plan["model"]["ffnHidden"].get<int>(), int(4 * 4096 * 2 / 3 / 64) * 64);
    }

    // Hostile and odd text: never a throw or a crash, and each problem named. A degree of 0 (a division by zero), a
    // device that is no string, a pipe into tee and a redirection after the command, the next line's command, a
    // shell default, a splice inside an array, a variable doubled forty times.
    void oddTextIsReadOrNamed()
    {
        const json base = h100Base();
        ImportedLaunch r = importMegatronArgs("--num-layers 8 --tensor-model-parallel-size 0", base);
        QVERIFY(hasIssue(r, "--tensor-model-parallel-size", Severity::Error));
        r = importMegatronArgs("--num-layers 4 --pipeline-model-parallel-size 0 --num-layers-per-virtual-pipeline-stage 1", base);
        QVERIFY(hasIssue(r, "--pipeline-model-parallel-size", Severity::Error));
        r = importMegatronArgs("--tensor-model-parallel-size 4294967296 --pipeline-model-parallel-size 4294967296", base);
        QVERIFY(hasIssue(r, "--tensor-model-parallel-size", Severity::Error));
        r = importDeepSpeedConfig(R"({"zero_optimization": {"stage": 4294967297, "offload_optimizer": {"device": 1}}})", base);
        QVERIFY(hasIssue(r, "zero_optimization.stage", Severity::Error));
        const std::string script = "NN=${NNODES:-2}\nA=(--tensor-model-parallel-size 2)\nB=(\"${A[@]}\" --pipeline-model-parallel-size 2)\n"
                                   "torchrun --nnodes $NN --nproc-per-node 8 pretrain_gpt.py ${B[@]} --num-layers 8 --seq-length 512 --train-iters 10 2>&1 | tee log.txt\n"
                                   "echo --num-layers 99 > done.txt\n";
        r = importMegatronArgs(script, base);
        QVERIFY2(!hasErrors(r.issues), issueLines(r.issues).empty() ? "" : issueLines(r.issues).front().c_str());
        QCOMPARE(r.plan["cluster"]["nodes"].get<int>(), 2);
        QCOMPARE(r.plan["parallel"]["tp"].get<int>(), 2);
        QCOMPARE(r.plan["parallel"]["pp"].get<int>(), 2);
        QCOMPARE(r.plan["model"]["layers"].get<int>(), 8); // not the next line's 99
        std::string doubling = "A=x\n";
        for (int i = 0; i < 40; ++i) doubling += "A=\"$A$A\"\n";
        QVERIFY(shellWords(doubling + "run $A").size() <= (std::size_t(1) << 20));
        // Lone and unterminated constructs end.
        for (const char* odd : { "$", "${", "'open", "\"open", "A=(", "x \\", "--a=${B", "))))", ";;;&&|" })
            (void)importMegatronArgs(odd, base);
        // Exported text runs nothing it does not mean: a name with a line end stays a comment.
        Plan p = test::loadSample("default.plan.json");
        p.name = "two\nlines $(rm -rf /)";
        const std::string text = exportMegatronArgs(p);
        QCOMPARE(text.find('\n'), text.find(": written by"s) + std::string(": written by planscope-cli export-config for Megatron-LM (pretrain_gpt.py)").size());
    }

    // A DeepSpeed config over a base plan's model and 64 GPUs: its batch, ZeRO stage, offload and precisions; the
    // other keys by path; "auto" named; an inconsistent batch and a JSON error named.
    void aDeepSpeedConfig()
    {
        json base = planToJson(test::loadSample("interview-10b-8xa100.plan.json"));
        const std::string text = readData("deepspeed-zero3.json");
        const ImportedLaunch r = importLaunchConfig(text, base, LaunchOverrides { 8, 8 });
        QCOMPARE(r.format, std::string("deepspeed"));
        QVERIFY(!hasErrors(r.issues));
        QCOMPARE(r.plan["parallel"]["dp"].get<int>(), 64);
        QCOMPARE(r.plan["parallel"]["tp"].get<int>(), 1);
        QCOMPARE(r.plan["parallel"]["zero"].get<int>(), 3);
        QCOMPARE(r.plan["training"]["microBatch"].get<int>(), 4);
        QCOMPARE(r.plan["training"]["globalBatch"].get<int>(), 512); // = 4 x 2 x 64, as DeepSpeed checks
        QCOMPARE(r.plan["training"]["precision"].get<std::string>(), std::string("bf16"));
        QCOMPARE(r.plan["training"]["gradDtype"].get<std::string>(), std::string("fp32"));
        QCOMPARE(r.plan["training"]["offload"]["optimizerFraction"].get<double>(), 1.0);
        QVERIFY(r.plan["model"] == base["model"]); // a DeepSpeed config names no model
        for (const char* path : { "gradient_clipping", "steps_per_print", "zero_optimization.overlap_comm",
                 "zero_optimization.reduce_bucket_size", "optimizer", "wall_clock_breakdown" })
            QVERIFY2(std::find(r.ignored.begin(), r.ignored.end(), path) != r.ignored.end(), path);
        auto plan = parsePlan(r.plan.dump());
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.errors().front().message.c_str());
        QVERIFY(evaluate(plan->plan).valid);

        ImportedLaunch a = importLaunchConfig(R"({"train_micro_batch_size_per_gpu": "auto", "train_batch_size": 100,
            "gradient_accumulation_steps": 1})", base, LaunchOverrides { 1, 8 });
        QVERIFY(hasIssue(a, "train_micro_batch_size_per_gpu", Severity::Warning));
        a = importLaunchConfig(R"({"train_micro_batch_size_per_gpu": 4, "train_batch_size": 100, "gradient_accumulation_steps": 1})",
            base, LaunchOverrides { 1, 8 });
        QVERIFY(hasIssue(a, "train_batch_size", Severity::Error)); // 4 x 1 x 8 = 32
        a = importLaunchConfig("{ \"bf16\": { \"enabled\": true }, }", base);
        QVERIFY(hasErrors(a.issues));
        QVERIFY(a.issues.front().offset > 0);
    }

    // export-config, then import-config: every sample plan comes back the same in every field a Megatron-LM argument
    // carries (the GPU, the links and the overheads stay the base's; a schedule or ZeRO stage Megatron-LM has no
    // argument for is said in a comment and not compared).
    void exportThenImportIsThePlan_data()
    {
        QTest::addColumn<QString>("sample");
        for (const QString& f : QDir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans")).entryList({ QStringLiteral("*.plan.json") }))
            QTest::newRow(qPrintable(f)) << f;
    }
    void exportThenImportIsThePlan()
    {
        QFETCH(QString, sample);
        const Plan a = test::loadSample(sample.toStdString().c_str());
        const std::string text = exportMegatronArgs(a);
        // The base holds the cluster only: every other field comes from the text.
        const json base = { { "schema", kPlanSchema }, { "name", a.name }, { "cluster", planToJson(a)["cluster"] } };
        const ImportedLaunch r = importMegatronArgs(text, base);
        QVERIFY2(!hasErrors(r.issues), (text + "\n" + (r.issues.empty() ? std::string() : issueLines(r.issues).front())).c_str());
        QVERIFY2(r.ignored.empty(), r.ignored.empty() ? "" : r.ignored.front().c_str()); // it reads all it wrote
        auto parsed = parsePlan(r.plan.dump());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.errors().front().message.c_str());
        const Plan& b = parsed->plan;
        const ModelSpec &ma = a.model, &mb = b.model;
        QCOMPARE(mb.layers, ma.layers);
        QCOMPARE(mb.hidden, ma.hidden);
        QCOMPARE(mb.heads, ma.heads);
        QCOMPARE(mb.kvHeads, ma.kvHeads);
        QCOMPARE(mb.ffnHidden, ma.ffnHidden);
        QCOMPARE(mb.seqLength, ma.seqLength);
        QCOMPARE(mb.vocab, ma.vocab);
        QCOMPARE(mb.headDim, ma.headDim);
        QCOMPARE(mb.gatedMlp, ma.gatedMlp);
        QCOMPARE(mb.tiedEmbeddings, ma.tiedEmbeddings);
        QCOMPARE(mb.bias, ma.bias);
        QVERIFY2(mb.norm == (ma.norm), "mb.norm");
        if (ma.positionEmbedding != PositionEmbedding::Alibi) QVERIFY2(mb.positionEmbedding == (ma.positionEmbedding), "mb.positionEmbedding");
        QCOMPARE(mb.dropout, ma.dropout);
        QCOMPARE(mb.qkNorm, ma.qkNorm);
        QCOMPARE(mb.mtpLayers, ma.mtpLayers);
        QVERIFY2(mb.mla == (ma.mla), "mb.mla");
        QCOMPARE(mb.moe.experts, ma.moe.experts);
        if (ma.isMoe()) {
            QCOMPARE(mb.moe.topK, ma.moe.topK);
            QCOMPARE(mb.moe.expertFfnHidden, ma.moe.expertFfnHidden > 0 ? ma.moe.expertFfnHidden : ma.ffnHidden);
            QCOMPARE(mb.moe.denseLayers, ma.moe.denseLayers);
            QVERIFY2(mb.moe.dispatcher == (ma.moe.dispatcher), "mb.moe.dispatcher");
            QCOMPARE(mb.moe.groupedGemm, ma.moe.groupedGemm);
            QCOMPARE(mb.moe.routerBias, ma.moe.routerBias);
            QCOMPARE(mb.moe.capacityFactor, ma.moe.capacityFactor);
            QCOMPARE(mb.moe.sharedExperts > 0, ma.moe.sharedExperts > 0);
        }
        QCOMPARE(b.cluster.nodes, a.cluster.nodes);
        QCOMPARE(b.cluster.gpusPerNode, a.cluster.gpusPerNode);
        const ParallelSpec &pa = a.parallel, &pb = b.parallel;
        QCOMPARE(pb.tp, pa.tp);
        QCOMPARE(pb.pp, pa.pp);
        QCOMPARE(pb.cp, pa.cp);
        QCOMPARE(pb.dp, pa.dp);
        if (ma.isMoe()) QCOMPARE(pb.ep, pa.ep);
        QCOMPARE(pb.etp, pa.etp);
        QCOMPARE(pb.sp, pa.sp);
        QCOMPARE(pb.zero, std::min(pa.zero, 1));
        QCOMPARE(pb.layout, pa.layout);
        QCOMPARE(pb.firstStageLayers, pa.firstStageLayers);
        QCOMPARE(pb.lastStageLayers, pa.lastStageLayers);
        QCOMPARE(pb.embeddingInSplit, pa.embeddingInSplit);
        QCOMPARE(pb.lossInSplit, pa.lossInSplit);
        const TrainingSpec &ta = a.training, &tb = b.training;
        if (ta.schedule == ScheduleKind::OneFOneB || ta.schedule == ScheduleKind::Interleaved1F1B) {
            QVERIFY2(tb.schedule == (ta.schedule), "tb.schedule");
            QCOMPARE(pb.vpp, pa.vpp);
        }
        QCOMPARE(tb.microBatch, ta.microBatch);
        QCOMPARE(tb.globalBatch, ta.globalBatch);
        QVERIFY2(tb.precision == (ta.precision), "tb.precision");
        QVERIFY2(tb.gradDtype == (ta.precision == Precision::FP32 ? Precision::FP32 : ta.gradDtype), "tb.gradDtype");
        if (ta.precision == Precision::FP8) {
            QVERIFY2(tb.fp8Recipe == (ta.fp8Recipe), "tb.fp8Recipe");
            QCOMPARE(tb.fp8ParamGather, ta.fp8ParamGather);
        }
        QVERIFY2(tb.recompute == (ta.recompute), "tb.recompute");
        if (ta.recompute == Recompute::Full) {
            QCOMPARE(tb.recomputeBlock, ta.recomputeBlock);
            // The same layers recomputed: uniform groups of max(1, N); block the first N (0: all) of a chunk.
            if (ta.recomputeBlock)
                QCOMPARE(std::min(tb.recomputeLayers, ma.layers), ta.recomputeLayers > 0 ? std::min(ta.recomputeLayers, ma.layers) : ma.layers);
            else
                QCOMPARE(std::max(1, tb.recomputeLayers), std::max(1, ta.recomputeLayers));
        }
        if (ta.recompute == Recompute::Selective) QCOMPARE(tb.recomputeModules, ta.recomputeModules);
        QCOMPARE(tb.overlapGradReduce, ta.overlapGradReduce);
        QCOMPARE(tb.tpCommOverlap, ta.tpCommOverlap);
        QCOMPARE(tb.overlapP2pComm, ta.overlapP2pComm);
        QCOMPARE(tb.overlapMoeComm, ta.overlapMoeComm);
        QCOMPARE(tb.flashAttention, ta.flashAttention);
        QVERIFY2(tb.optimizer == (ta.optimizer), "tb.optimizer");
        QCOMPARE(tb.offload.optimizerFraction, ta.offload.optimizerFraction);
        // Tokens as whole samples of the sequence length.
        QVERIFY(std::abs(tb.tokens - ta.tokens) <= double(ma.seqLength));
    }
};

QTEST_GUILESS_MAIN(TestLaunchConfig)
#include "tst_launch_config.moc"
