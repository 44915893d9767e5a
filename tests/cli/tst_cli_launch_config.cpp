// planscope-cli import-config and export-config (docs/FORMATS.md section 11): a Megatron-LM launch script becomes a
// plan file that evaluates, with what was not modelled named on stderr; the GPU given with --gpu; an exported launch
// line reads back into the same layout; a conflict exits 2 naming the argument.
#include "CliRunner.h"
#include "TestUtil.h"

#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

QString data(const char* name) { return QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/launch-configs/") + QLatin1String(name); }

} // namespace

class TestCliLaunchConfig : public QObject {
    Q_OBJECT
private slots:
    void importAScriptAndEvaluateIt()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("imported.plan.json"));
        const test::CliRun r = test::runCli({ QStringLiteral("import-config"), data("gpt-175b-megatron.sh"), QStringLiteral("--gpu"),
            QStringLiteral("a100-sxm4-80gb"), QStringLiteral("--out"), out });
        QVERIFY2(r.code == 0, r.err.c_str());
        // What was not modelled, by name, on stderr.
        QVERIFY2(r.err.find("not modelled") != std::string::npos && r.err.find("--lr") != std::string::npos, r.err.c_str());
        std::ifstream in(out.toStdString());
        const json plan = json::parse(in);
        QCOMPARE(plan["cluster"]["gpu"]["preset"].get<std::string>(), std::string("a100-sxm4-80gb"));
        QCOMPARE(plan["cluster"]["nodes"].get<int>(), 16);
        QCOMPARE(plan["parallel"]["tp"].get<int>(), 8);
        QCOMPARE(plan["parallel"]["pp"].get<int>(), 8);
        QCOMPARE(plan["parallel"]["dp"].get<int>(), 2);
        const test::CliRun ev = test::runCli({ QStringLiteral("evaluate"), out, QStringLiteral("--analytic") });
        QCOMPARE(ev.code, 0);
        QVERIFY(json::parse(ev.out)["valid"].get<bool>());

        // --json: the lists and the plan together.
        const test::CliRun j = test::runCli({ QStringLiteral("import-config"), data("moe-megatron-srun.txt"), QStringLiteral("--json") });
        QCOMPARE(j.code, 0);
        const json doc = json::parse(j.out);
        QCOMPARE(doc["schema"].get<std::string>(), std::string("planscope/import-config/v1"));
        QVERIFY(doc["valid"].get<bool>());
        QVERIFY(doc["ignored"].get<std::vector<std::string>>() == std::vector<std::string> { "--my-own-flag" });
        QCOMPARE(doc["plan"]["model"]["moe"]["experts"].get<int>(), 64);
        // No GPU named: the one assumed is said.
        bool assumed = false;
        for (const json& i : doc["issues"]) assumed = assumed || i["path"] == "cluster.gpu";
        QVERIFY(assumed);
    }

    // A DeepSpeed config is told by its content: JSON over the base plan's model, the world given.
    void aDeepSpeedConfigOverABasePlan()
    {
        const test::CliRun r = test::runCli({ QStringLiteral("import-config"), data("deepspeed-zero3.json"), QStringLiteral("--base"),
            QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-10b-8xa100.plan.json"), QStringLiteral("--nodes"), QStringLiteral("8"),
            QStringLiteral("--json") });
        QVERIFY2(r.code == 0, r.err.c_str());
        const json doc = json::parse(r.out);
        QCOMPARE(doc["format"].get<std::string>(), std::string("deepspeed"));
        QCOMPARE(doc["plan"]["parallel"]["zero"].get<int>(), 3);
        QCOMPARE(doc["plan"]["parallel"]["dp"].get<int>(), 64);
        QCOMPARE(doc["plan"]["training"]["globalBatch"].get<int>(), 512);
        // Without a base: one H100 node assumed (said), the batch that does not add up on 8 GPUs and the model the
        // config does not name are errors by field (exit 2).
        const test::CliRun none = test::runCli({ QStringLiteral("import-config"), data("deepspeed-zero3.json") });
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.find("warning at cluster.gpu") != std::string::npos, none.err.c_str());
        QVERIFY2(none.err.find("error at train_batch_size: 512 is not micro-batch 4 x accumulation 2 x 8 GPUs") != std::string::npos, none.err.c_str());
        QVERIFY2(none.err.find("error at model") != std::string::npos, none.err.c_str());
    }

    void exportedLinesReadBack()
    {
        QTemporaryDir dir;
        const QString plan = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/llama31-405b-pp8-vp8-h100.plan.json");
        const QString script = dir.filePath(QStringLiteral("launch.sh"));
        const test::CliRun e = test::runCli({ QStringLiteral("export-config"), plan, QStringLiteral("--as"), QStringLiteral("megatron"),
            QStringLiteral("--out"), script });
        QCOMPARE(e.code, 0);
        const test::CliRun r = test::runCli({ QStringLiteral("import-config"), script, QStringLiteral("--base"), plan, QStringLiteral("--json") });
        QVERIFY2(r.code == 0, r.err.c_str());
        const json back = json::parse(r.out);
        QVERIFY(back["ignored"].empty());
        std::ifstream in(plan.toStdString());
        const json original = json::parse(in);
        for (const char* k : { "tp", "pp", "dp", "cp", "vpp" })
            QCOMPARE(back["plan"]["parallel"][k].get<int>(), original["parallel"].value(k, 1));
        QCOMPARE(test::runCli({ QStringLiteral("export-config"), plan, QStringLiteral("--as"), QStringLiteral("deepspeed") }).code, 1);
    }

    // A torchtitan TOML read by its content, the model from the Hugging Face folder it names (found beside the file);
    // then the plan written back as TOML reads back to the same layout.
    void aTorchtitanConfigAndBack()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("tt.plan.json"));
        const test::CliRun r = test::runCli({ QStringLiteral("import-config"), data("torchtitan-llama3_8b.toml"), QStringLiteral("--gpu"),
            QStringLiteral("a100-sxm4-80gb"), QStringLiteral("--nodes"), QStringLiteral("8"), QStringLiteral("--out"), out });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.err.find("optimizer.lr") != std::string::npos, r.err.c_str()); // not modelled, by its key
        std::ifstream in(out.toStdString());
        const json plan = json::parse(in);
        QCOMPARE(plan["parallel"]["dp"].get<int>(), 64);
        QCOMPARE(plan["parallel"]["fsdp"].get<std::string>(), std::string("full"));
        QCOMPARE(plan["model"]["vocab"].get<int>(), 128256); // assets/hf/Llama-3.1-8B/config.json
        const test::CliRun t = test::runCli({ QStringLiteral("export-config"), out, QStringLiteral("--as"), QStringLiteral("torchtitan") });
        QVERIFY2(t.code == 0, t.err.c_str());
        QVERIFY2(t.out.find("data_parallel_shard_degree = 64\n") != std::string::npos, t.out.c_str());
        QVERIFY2(t.out.find("seq_len = 8192\n") != std::string::npos, t.out.c_str());
        // --hf-config gives the model where the launch names none; --format names the format.
        const test::CliRun y = test::runCli({ QStringLiteral("import-config"), data("bridge-llama32_1b_pretrain.yaml"), QStringLiteral("--format"),
            QStringLiteral("megatron-bridge"), QStringLiteral("--hf-config"), data("assets/hf/Llama-3.1-8B/config.json"), QStringLiteral("--json") });
        QVERIFY2(y.code == 0, y.err.c_str());
        const json doc = json::parse(y.out);
        QCOMPARE(doc["format"].get<std::string>(), std::string("megatron-bridge"));
        QCOMPARE(doc["plan"]["model"]["layers"].get<int>(), 32);
        QCOMPARE(doc["plan"]["model"]["seqLength"].get<int>(), 4096);
        // A format no importer has: exit 2, named.
        const test::CliRun bad = test::runCli({ QStringLiteral("import-config"), data("torchtitan-llama3_8b.toml"), QStringLiteral("--format"), QStringLiteral("xml") });
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.find("format") != std::string::npos, bad.err.c_str());
    }

    void aConflictIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.txt"));
        std::ofstream(path.toStdString()) << "--num-layers 8 --hidden-size 512 --num-attention-heads 8 --bf16 --fp16\n";
        const test::CliRun r = test::runCli({ QStringLiteral("import-config"), path });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("error at --fp16: given with --bf16") != std::string::npos, r.err.c_str());
        QVERIFY(r.out.empty());
    }
};

QTEST_GUILESS_MAIN(TestCliLaunchConfig)
#include "tst_cli_launch_config.moc"
