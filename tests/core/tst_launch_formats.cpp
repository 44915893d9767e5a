// Launch configs in TOML and YAML (core/io/LaunchConfig.h): torchtitan job configs as torchtitan ships them and
// Megatron-Bridge / NeMo YAML (tests/data/launch-configs: copied with their licences, or written from the documented
// key names), each field checked against the number in the file; every key applied or listed; bad text named by line
// and byte offset; export as torchtitan, then import, gives the plan back in every field both sides have.
#include "TestUtil.h"

#include "cost/Evaluate.h"
#include "io/LaunchConfig.h"
#include "io/PlanJson.h"

#include <QDir>
#include <QObject>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace planscope;
using nlohmann::json;
using namespace std::string_literals;

namespace {

const std::string kDataDir = std::string(PLANSCOPE_SOURCE_DIR) + "/tests/data/launch-configs";

std::string readData(const std::string& name)
{
    std::ifstream in(kDataDir + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

json cluster(const char* gpu, int nodes, int perNode)
{
    return { { "schema", kPlanSchema }, { "name", "base" }, { "cluster", { { "gpu", gpu }, { "nodes", nodes }, { "gpusPerNode", perNode } } } };
}

bool listed(const ImportedLaunch& r, const std::string& key)
{
    return std::find(r.ignored.begin(), r.ignored.end(), key) != r.ignored.end();
}

bool appliedFrom(const ImportedLaunch& r, const std::string& key)
{
    return std::any_of(r.applied.begin(), r.applied.end(), [&](const std::string& a) { return a.rfind(key + " ", 0) == 0 || a.rfind(key + ":", 0) == 0; });
}

bool hasIssue(const Issues& issues, const std::string& path, Severity severity)
{
    return std::any_of(issues.begin(), issues.end(), [&](const Issue& i) { return i.path == path && i.severity == severity; });
}

Plan parsed(const ImportedLaunch& r)
{
    auto p = parsePlan(r.plan.dump());
    if (!p) qFatal("%s", p.errors().front().message.c_str());
    return p->plan;
}

} // namespace

class TestLaunchFormats : public QObject {
    Q_OBJECT

private slots:
    void formatsAreToldByContent()
    {
        QCOMPARE(launchConfigFormat(readData("torchtitan-llama3_8b.toml")), "torchtitan"s);
        QCOMPARE(launchConfigFormat(readData("nemo-megatron_llama_config.yaml")), "megatron-bridge"s);
        QCOMPARE(launchConfigFormat(readData("bridge-llama3-70b-run-config.yaml")), "megatron-bridge"s);
        QCOMPARE(launchConfigFormat(readData("deepspeed-zero3.json")), "deepspeed"s);
        QCOMPARE(launchConfigFormat(readData("gpt-175b-megatron.sh")), "megatron"s);
        QCOMPARE(launchConfigFormat(readData("moe-megatron-srun.txt")), "megatron"s);
        QCOMPARE(launchConfigFormat("# comment\nNNODES=4\ntorchrun --nnodes $NNODES pretrain_gpt.py --num-layers 2\n"), "megatron"s);
        QCOMPARE(launchConfigFormat("seed = 1\n[training]\n"), "torchtitan"s);
        QCOMPARE(launchConfigFormat("---\nmodel:\n  num_layers: 2\n"), "megatron-bridge"s); // a YAML document marker
        // A format given by name wins; an unknown one is named.
        const ImportedLaunch r = importLaunchConfig("--num-layers 2", cluster("h100-sxm5-80gb", 1, 8), {}, "xml");
        QVERIFY(hasIssue(r.issues, "format", Severity::Error));
    }

    // torchtitan's Llama 3 8B preset (its comment: 64 A100): FSDP over all 64 ranks, local batch 1, 8,192 tokens, 1,000
    // steps, bf16 parameters with fp32 reduction, op-level selective recompute; the model by name and flavor.
    void torchtitanLlama3_8b()
    {
        const ImportedLaunch r = importLaunchConfig(readData("torchtitan-llama3_8b.toml"), cluster("a100-sxm4-80gb", 8, 8));
        QCOMPARE(r.format, "torchtitan"s);
        QVERIFY(!hasErrors(r.issues));
        QCOMPARE(r.hfAssets, "./assets/hf/Llama-3.1-8B"s);
        const Plan p = parsed(r);
        QCOMPARE(p.model.preset, "llama3-8b"s);
        QCOMPARE(p.model.seqLength, 8192);
        QCOMPARE(p.parallel.dp, 64);
        QCOMPARE(p.parallel.tp, 1);
        QCOMPARE(p.parallel.pp, 1);
        QVERIFY(p.parallel.fsdp == Fsdp::Full);
        QCOMPARE(p.parallel.zero, 3);
        QCOMPARE(p.training.microBatch, 1);
        QCOMPARE(p.training.globalBatch, 64);                  // global_batch_size -1: local 1 x dp 64
        QCOMPARE(p.training.tokens, 1000.0 * 64 * 8192);       // steps x global batch x sequence
        QVERIFY(p.training.precision == Precision::BF16);
        QVERIFY(p.training.gradDtype == Precision::FP32);
        QVERIFY(p.training.recompute == Recompute::Selective);
        QVERIFY(p.training.optimizer == Optimizer::Adam);
        for (const char* key : { "optimizer.lr", "compile.enable", "checkpoint.interval", "training.max_norm", "validation.freq" })
            QVERIFY2(listed(r, key), key);
        for (const char* key : { "training.seq_len", "parallelism.data_parallel_shard_degree", "activation_checkpoint.selective_ac_option" })
            QVERIFY2(appliedFrom(r, key), key);
        QVERIFY(evaluate(p).valid);
    }

    // The 405B preset (128 H100): TP 8 with async TP, FSDP over the other 16, float8 with fp8 all-gather, full
    // recompute, the older batch_size key.
    void torchtitanLlama3_405b()
    {
        const ImportedLaunch r = importLaunchConfig(readData("torchtitan-llama3_405b.toml"), cluster("h100-sxm5-80gb", 16, 8));
        QVERIFY(!hasErrors(r.issues));
        const Plan p = parsed(r);
        QCOMPARE(p.model.preset, "llama3-405b"s);
        QCOMPARE(p.parallel.tp, 8);
        QVERIFY(p.parallel.sp);
        QCOMPARE(p.parallel.dp, 16);
        QVERIFY(p.parallel.fsdp == Fsdp::Full);
        QVERIFY(p.training.tpCommOverlap);
        QVERIFY(p.training.precision == Precision::FP8);
        QVERIFY(p.training.fp8Recipe == Fp8Recipe::Current);
        QVERIFY(p.training.fp8ParamGather);
        QVERIFY(p.training.recompute == Recompute::Full);
        QCOMPARE(p.training.microBatch, 2);
        QCOMPARE(p.training.globalBatch, 2 * 16);
        QCOMPARE(p.training.tokens, 3000.0 * 32 * 8192);
    }

    // A written config: pipeline of 4 with Interleaved1F1B and 10 layers per stage (80 / 10 = 8 stages, 2 per rank),
    // microbatches of 2, HSDP 2 x 2, TP 8 on 128 GPUs.
    void torchtitanPipelineAndHsdp()
    {
        const ImportedLaunch r = importLaunchConfig(readData("torchtitan-pp-hsdp.toml"), cluster("h100-sxm5-80gb", 16, 8));
        QVERIFY(!hasErrors(r.issues));
        const Plan p = parsed(r);
        QCOMPARE(p.parallel.pp, 4);
        QCOMPARE(p.parallel.tp, 8);
        QCOMPARE(p.parallel.dp, 4);
        QVERIFY(p.training.schedule == ScheduleKind::Interleaved1F1B);
        QCOMPARE(p.parallel.vpp, 2);
        QVERIFY(p.parallel.fsdp == Fsdp::Hybrid);
        QVERIFY(!p.parallel.embeddingInSplit); // first_stage_less_layers = 0
        QCOMPARE(p.training.microBatch, 2);
        QCOMPARE(p.training.globalBatch, 16 * 4); // local 16 per data-parallel rank
        // HSDP of 2 shards where a node holds one data-parallel rank (TP 8): said, not silently changed.
        QVERIFY(hasIssue(r.issues, "parallelism.data_parallel_shard_degree", Severity::Warning));
        QVERIFY(listed(r, "compile.enable"));
        // Experts without expert_tensor_parallel_degree: torchtitan's default 1, not tp.
        const ImportedLaunch moe = importLaunchConfig("[model]\nname = \"qwen3\"\nflavor = \"30B-A3B\"\n[parallelism]\n"
                                                      "tensor_parallel_degree = 2\nexpert_parallel_degree = 4\n",
            cluster("h100-sxm5-80gb", 1, 8));
        QVERIFY(!hasErrors(moe.issues));
        QCOMPARE(parsed(moe).parallel.expertTp(), 1);

        // The same on 12 nodes: 96 / (8 x 4) = 3 data-parallel ranks, which 2 replicas do not divide.
        const ImportedLaunch bad = importLaunchConfig(readData("torchtitan-pp-hsdp.toml"), cluster("h100-sxm5-80gb", 12, 8));
        QVERIFY(hasIssue(bad.issues, "parallelism.data_parallel_shard_degree", Severity::Error));
    }

    // NeMo 1's Megatron Llama config as NeMo ships it: the model's shape, NeMo's names for recompute and activation,
    // the world from the trainer, ${.encoder_seq_length} resolved.
    void nemoLlamaYaml()
    {
        const ImportedLaunch r = importLaunchConfig(readData("nemo-megatron_llama_config.yaml"), cluster("h100-sxm5-80gb", 1, 8));
        QCOMPARE(r.format, "nemo"s);
        QVERIFY(!hasErrors(r.issues));
        const Plan p = parsed(r);
        QCOMPARE(p.model.layers, 32);
        QCOMPARE(p.model.hidden, std::int64_t(4096));
        QCOMPARE(p.model.ffnHidden, std::int64_t(11008));
        QCOMPARE(p.model.heads, 32);
        QCOMPARE(p.model.kvHeads, 32); // num_query_groups 32
        QCOMPARE(p.model.seqLength, 4096);
        QVERIFY(p.model.norm == NormKind::RMSNorm);
        QVERIFY(p.model.positionEmbedding == PositionEmbedding::Rope);
        QVERIFY(p.model.gatedMlp);       // activation: fast-swiglu
        QVERIFY(!p.model.bias);          // bias: False
        QVERIFY(!p.model.tiedEmbeddings); // share_embeddings_and_output_weights: False
        QCOMPARE(p.cluster.nodes, 1);     // trainer.num_nodes
        QCOMPARE(p.cluster.gpusPerNode, 1); // trainer.devices
        QCOMPARE(p.training.microBatch, 4);
        QCOMPARE(p.training.globalBatch, 8);
        QVERIFY(p.training.precision == Precision::FP32); // trainer.precision: 32
        QVERIFY(!p.training.overlapP2pComm);
        QCOMPARE(p.training.tokens, 100000.0 * 8 * 4096); // trainer.max_steps
        QVERIFY(!hasIssue(r.issues, "model.max_position_embeddings", Severity::Warning)); // resolved, within the sequence
        for (const char* key : { "model.optim.lr", "model.tokenizer.library", "exp_manager.name", "model.init_method_std" })
            QVERIFY2(listed(r, key), key);
    }

    // A Megatron-Bridge ConfigContainer: TransformerConfig's names, GQA by num_query_groups alone, the distributed
    // optimizer, mixed_precision by recipe name; Hydra's _target_ is no setting.
    void bridgeRunConfig()
    {
        const ImportedLaunch r = importLaunchConfig(readData("bridge-llama3-70b-run-config.yaml"), cluster("h100-sxm5-80gb", 8, 8));
        QCOMPARE(r.format, "megatron-bridge"s);
        QVERIFY(!hasErrors(r.issues));
        const Plan p = parsed(r);
        QCOMPARE(p.model.layers, 80);
        QCOMPARE(p.model.hidden, std::int64_t(8192));
        QCOMPARE(p.model.kvHeads, 8);
        QCOMPARE(p.model.vocab, std::int64_t(128256));
        QVERIFY(!p.model.dropout);
        QCOMPARE(p.parallel.tp, 4);
        QCOMPARE(p.parallel.pp, 4);
        QCOMPARE(p.parallel.vpp, 5);
        QCOMPARE(p.parallel.dp, 4); // 64 / (4 x 4)
        QVERIFY(p.parallel.sp);
        QCOMPARE(p.parallel.zero, 1);
        QVERIFY(p.training.schedule == ScheduleKind::Interleaved1F1B);
        QVERIFY(p.training.overlapGradReduce);
        QVERIFY(p.training.precision == Precision::BF16);
        QVERIFY(p.training.gradDtype == Precision::FP32);
        QVERIFY(p.training.recompute == Recompute::Selective);
        QCOMPARE(p.training.recomputeModules, std::vector<std::string> { "core_attn" });
        QCOMPARE(p.training.globalBatch, 128);
        for (const char* key : { "optimizer.lr", "ddp.overlap_param_gather", "model.rotary_base", "logger.log_interval" })
            QVERIFY2(listed(r, key), key);
        QVERIFY(!listed(r, "model._target_"));
        // NeMo's other gated activations are the same gated MLP (said); gelu is not gated.
        const ImportedLaunch geglu = importLaunchConfig("trainer:\n  devices: 8\nmodel:\n  num_layers: 2\n  hidden_size: 256\n"
                                                        "  num_attention_heads: 4\n  encoder_seq_length: 128\n  activation: geglu\n",
            cluster("h100-sxm5-80gb", 1, 8));
        QVERIFY(!hasErrors(geglu.issues));
        QVERIFY(parsed(geglu).model.gatedMlp);
        QVERIFY(hasIssue(geglu.issues, "model.activation", Severity::Warning));
        QVERIFY(evaluate(p).valid);
    }

    // Megatron-Bridge's tutorial override file names no model: the base's model, its batch and sequence applied.
    void bridgeOverrideOverABase()
    {
        json base = planToJson(test::loadSample("interview-10b-8xa100.plan.json"));
        const ImportedLaunch r = importLaunchConfig(readData("bridge-llama32_1b_pretrain.yaml"), base);
        QVERIFY(!hasErrors(r.issues));
        const Plan p = parsed(r);
        QCOMPARE(p.model.layers, test::loadSample("interview-10b-8xa100.plan.json").model.layers);
        QCOMPARE(p.model.seqLength, 4096);
        QCOMPARE(p.training.globalBatch, 8);
        QCOMPARE(p.training.microBatch, 1);
        QCOMPARE(p.training.tokens, 100.0 * 8 * 4096);
        for (const char* key : { "scheduler.lr_warmup_iters", "checkpoint.save", "rng.seed", "train.eval_interval" })
            QVERIFY2(listed(r, key), key);
    }

    // A Hugging Face folder the torchtitan config names (hf_assets_path, beside the file): the model is its config.json.
    void hfAssetsNamedByTheLaunch()
    {
        LaunchImportBase base;
        base.plan = cluster("a100-sxm4-80gb", 8, 8);
        base.directory = kDataDir;
        const LaunchImport r = importLaunchPlan(readData("torchtitan-llama3_8b.toml"), base);
        QVERIFY(!r.failed());
        QCOMPARE(r.plan->model.vocab, std::int64_t(128256)); // config.json vocab_size
        QCOMPARE(r.plan->model.kvHeads, 8);                 // num_key_value_heads
        QCOMPARE(r.plan->model.ffnHidden, std::int64_t(14336));
        QCOMPARE(r.plan->model.seqLength, 8192);            // the launch's seq_len over the config's positions
        // Not found: said, and the preset stands.
        base.directory = "/nonexistent";
        const LaunchImport missing = importLaunchPlan(readData("torchtitan-llama3_8b.toml"), base);
        QVERIFY(!missing.failed());
        QVERIFY(hasIssue(missing.issues, "model.hf_assets_path", Severity::Warning));
        QCOMPARE(missing.plan->model.preset, "llama3-8b"s);
        // No base: an H100 node, said.
        const LaunchImport bare = importLaunchPlan("torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --num-layers 2 "
                                                   "--hidden-size 256 --num-attention-heads 4 --seq-length 128 --vocab-size 1000",
            LaunchImportBase {});
        QVERIFY(!bare.failed());
        QVERIFY(hasIssue(bare.issues, "cluster.gpu", Severity::Warning));
        QCOMPARE(bare.plan->parallel.dp, 16);
    }

    // Bad text: named by line and byte offset; deep nesting and alias chains bounded; never a throw.
    void badTextIsNamed()
    {
        const json base = cluster("h100-sxm5-80gb", 1, 8);
        ImportedLaunch r = importLaunchConfig("[training]\nseq_len = = 4\n", base, {}, "torchtitan");
        QVERIFY(hasErrors(r.issues));
        QVERIFY(r.issues.front().offset >= 11); // on the second line
        QVERIFY(r.issues.front().message.find("line 2") != std::string::npos);
        r = importLaunchConfig("model:\n  num_layers: [1, 2\n", base, {}, "megatron-bridge");
        QVERIFY(hasErrors(r.issues));
        QVERIFY(r.issues.front().offset > 0);
        r = importLaunchConfig("model: " + std::string(200, '[') + std::string(200, ']') + "\n", base, {}, "megatron-bridge");
        QVERIFY(hasErrors(r.issues));
        // Each alias doubles what the one before holds: 2^40 values if expanded.
        std::string bomb = "a0: &a0 [x, x]\n";
        for (int i = 1; i <= 40; ++i)
            bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + "]\n";
        bomb += "model:\n  num_layers: 2\n";
        r = importLaunchConfig(bomb, base, {}, "megatron-bridge");
        QVERIFY(r.issues.size() < 100);
        r = importLaunchConfig("- a\n- b\n", base, {}, "megatron-bridge");
        QVERIFY(hasErrors(r.issues));
        r = importLaunchConfig("[parallelism]\ntensor_parallel_degree = \"eight\"\npipeline_parallel_schedule = 3\n", base, {}, "torchtitan");
        QVERIFY(hasIssue(r.issues, "parallelism.tensor_parallel_degree", Severity::Error));
        r = importLaunchConfig("[activation_checkpoint]\nmode = \"sometimes\"\n", base, {}, "torchtitan");
        QVERIFY(hasIssue(r.issues, "activation_checkpoint.mode", Severity::Error));
        r = importLaunchConfig("model:\n  tensor_model_parallel_size: 0\n", base, {}, "megatron-bridge");
        QVERIFY(hasIssue(r.issues, "model.tensor_model_parallel_size", Severity::Error));
        // A dotted key 30,000 parts deep: refused before the parser recurses (it would overflow the stack).
        std::string dotted = "x";
        for (int i = 0; i < 30000; ++i) dotted += ".a";
        r = importLaunchConfig(dotted + " = 1\n", base, {}, "torchtitan");
        QVERIFY(hasErrors(r.issues));
        r = importLaunchConfig("[" + dotted + "]\n", base, {}, "torchtitan");
        QVERIFY(hasErrors(r.issues));
        // Degrees whose product passes 64 bits: no world they divide, named, no arithmetic fault.
        r = importLaunchConfig("[parallelism]\ntensor_parallel_degree = 1073741824\npipeline_parallel_degree = 1073741824\n"
                               "context_parallel_degree = 16\n",
            base, LaunchOverrides { 1000000, 1000000, {} }, "torchtitan");
        QVERIFY(hasErrors(r.issues));
        // Bad pipeline split values are named, not dropped.
        r = importLaunchConfig("[parallelism]\npipeline_parallel_degree = 2\npipeline_parallel_layers_per_stage = 0\n"
                               "pipeline_parallel_first_stage_less_layers = -3\n",
            base, {}, "torchtitan");
        QVERIFY(hasIssue(r.issues, "parallelism.pipeline_parallel_layers_per_stage", Severity::Error));
        QVERIFY(hasIssue(r.issues, "parallelism.pipeline_parallel_first_stage_less_layers", Severity::Error));
    }

    // export-config --as torchtitan, then import: every sample plan comes back in every field a torchtitan key carries.
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
        const std::string text = exportTorchtitanToml(a);
        QCOMPARE(launchConfigFormat(text), "torchtitan"s);
        // The base holds the plan's model (a torchtitan flavor is a preset, or the model stays the base's) and cluster.
        const json base = planToJson(a);
        const ImportedLaunch r = importTorchtitanToml(text, base);
        QVERIFY2(!hasErrors(r.issues), (text + "\n" + (r.issues.empty() ? std::string() : r.issues.front().message)).c_str());
        const Plan b = parsed(r);
        QCOMPARE(b.model.layers, a.model.layers);
        QCOMPARE(b.model.seqLength, a.model.seqLength);
        const ParallelSpec &pa = a.parallel, &pb = b.parallel;
        QCOMPARE(pb.tp, pa.tp);
        QCOMPARE(pb.pp, pa.pp);
        QCOMPARE(pb.cp, pa.cp);
        QCOMPARE(pb.dp, pa.dp);
        if (a.model.isMoe()) QCOMPARE(pb.ep, pa.ep);
        QVERIFY(pb.fsdp == pa.fsdp);
        const TrainingSpec &ta = a.training, &tb = b.training;
        QCOMPARE(tb.microBatch, ta.microBatch);
        QCOMPARE(tb.globalBatch, ta.globalBatch);
        if (ta.precision != Precision::FP16) QVERIFY(tb.precision == ta.precision);
        QVERIFY(tb.recompute == ta.recompute);
        if (pa.tp > 1) QCOMPARE(tb.tpCommOverlap, ta.tpCommOverlap);
        if (pa.pp > 1) {
            if (ta.schedule == ScheduleKind::OneFOneB || ta.schedule == ScheduleKind::Interleaved1F1B || ta.schedule == ScheduleKind::GPipe
                || ta.schedule == ScheduleKind::ZBV || ta.schedule == ScheduleKind::DualPipeV)
                QVERIFY(tb.schedule == ta.schedule);
            QCOMPARE(pb.embeddingInSplit, pa.embeddingInSplit);
            QCOMPARE(pb.lossInSplit, pa.lossInSplit);
            const int effective = a.model.layers + (pa.embeddingInSplit ? 1 : 0) + (pa.lossInSplit ? 1 : 0);
            if (ta.schedule == ScheduleKind::Interleaved1F1B && effective % (pa.pp * pa.vpp) == 0) QCOMPARE(pb.vpp, pa.vpp);
        }
        if (ta.tokens > 0 && ta.globalBatch > 0 && a.model.seqLength > 0)
            QVERIFY(std::abs(tb.tokens - ta.tokens) <= double(ta.globalBatch) * a.model.seqLength); // whole steps
    }
};

QTEST_GUILESS_MAIN(TestLaunchFormats)
#include "tst_launch_formats.moc"
