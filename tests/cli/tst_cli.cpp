// planscope-cli end to end on every sample: the JSON of docs/FORMATS.md, exit codes, explain and check.
#include "CliRunner.h"
#include "TestUtil.h"
#include "util/Units.h"

#include "cost/Parameters.h"

#include <QDir>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {
using Run = test::CliRun;
Run cli(const QStringList& args) { return test::runCli(args); }

QStringList samples()
{
    return QDir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans")).entryList({ "*.plan.json" });
}

QString sample(const QString& f) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + f; }
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void evaluateEverySample_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : samples()) QTest::newRow(qPrintable(f)) << f;
    }
    void evaluateEverySample()
    {
        QFETCH(QString, file);
        const Run r = cli({ "evaluate", sample(file) });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/prediction/v1"));
        QVERIFY(j["valid"].get<bool>());
        QVERIFY(j["errors"].empty());
        // Every key docs/FORMATS.md section 2 names is there.
        for (const char* k : { "warnings", "params", "memory", "flops", "time", "comm" }) QVERIFY2(j.contains(k), k);
        for (const char* k : { "total", "perStage" }) QVERIFY2(j["params"].contains(k), k);
        for (const char* k : { "capacityBytes", "stages", "peakBytes", "fits" }) QVERIFY2(j["memory"].contains(k), k);
        for (const char* k : { "modelPerStep", "hardwarePerStep", "modelPerToken" }) QVERIFY2(j["flops"].contains(k), k);
        for (const char* k : { "stepSeconds", "bubbleFraction", "bubbleOverhead", "mfu", "hfu", "tokensPerSecond", "trainingDays" })
            QVERIFY2(j["time"].contains(k), k);
        QVERIFY(j["comm"].contains("groups"));

        // The numbers agree with the core library called directly, and with themselves.
        const Plan plan = test::loadSample(file.toUtf8().constData());
        const Prediction p = evaluate(plan);
        QCOMPARE(j["params"]["total"].get<double>(), countParameters(plan.model).total);
        const json& stages = j["memory"]["stages"];
        QCOMPARE(int(stages.size()), plan.parallel.pp);
        std::int64_t peak = 0;
        for (std::size_t i = 0; i < stages.size(); ++i) {
            const json& s = stages[i];
            QCOMPARE(s["stage"].get<int>(), int(i));
            const std::int64_t sum = s["weightsBytes"].get<std::int64_t>() + s["gradientsBytes"].get<std::int64_t>()
                + s["optimizerBytes"].get<std::int64_t>() + s["activationsBytes"].get<std::int64_t>()
                + s["buffersBytes"].get<std::int64_t>();
            QCOMPARE(s["totalBytes"].get<std::int64_t>(), sum);
            QCOMPARE(s["totalBytes"].get<std::int64_t>(), p.stages[i].totalBytes);
            QVERIFY(s["inFlightMicrobatches"].get<double>() > 0);
            peak = std::max(peak, sum);
        }
        QCOMPARE(j["memory"]["peakBytes"].get<std::int64_t>(), peak);
        QCOMPARE(j["memory"]["fits"].get<bool>(), peak <= j["memory"]["capacityBytes"].get<std::int64_t>());
        QCOMPARE(j["memory"]["capacityBytes"].get<std::int64_t>(), plan.cluster.gpu.memoryBytes);
        // Model FLOPs per step = per token * tokens per step.
        QVERIFY(test::near(j["flops"]["modelPerStep"].get<double>(),
            j["flops"]["modelPerToken"].get<double>() * double(plan.training.globalBatch) * double(plan.model.seqLength)));
        QVERIFY(j["flops"]["hardwarePerStep"].get<double>() >= j["flops"]["modelPerStep"].get<double>());
        // MFU and tokens/s from the step time.
        const double step = j["time"]["stepSeconds"].get<double>();
        QVERIFY(step > 0);
        const double peakFlops = plan.cluster.gpu.peakFlops.forPrecision(plan.training.precision);
        QVERIFY(test::near(j["time"]["mfu"].get<double>(),
            j["flops"]["modelPerStep"].get<double>() / (step * plan.cluster.gpus() * peakFlops)));
        QVERIFY(j["time"]["mfu"].get<double>() > 0 && j["time"]["mfu"].get<double>() < 1);
        QVERIFY(test::near(j["time"]["tokensPerSecond"].get<double>(),
            double(plan.training.globalBatch) * double(plan.model.seqLength) / step));
        for (const json& g : j["comm"]["groups"]) {
            const std::string kind = g["kind"].get<std::string>();
            QVERIFY(kind == "dp" || kind == "tp" || kind == "pp" || kind == "cp" || kind == "ep");
            for (const char* k : { "size", "crossesNodes", "bytesPerStep", "seconds", "exposedSeconds" }) QVERIFY2(g.contains(k), k);
            QVERIFY(g["exposedSeconds"].get<double>() <= g["seconds"].get<double>() * (1 + 1e-9));
        }
    }

    void invalidPlanExitsTwoWithFieldPath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.plan.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model":{"preset":"gpt3-175b"},"cluster":{"gpu":"a100-sxm4-80gb","nodes":2},"parallel":{"dp":1,"tp":8,"pp":3}})");
        f.close();
        const Run r = cli({ "evaluate", path });
        QCOMPARE(r.code, 2);
        const json j = json::parse(r.out);
        QCOMPARE(j["valid"].get<bool>(), false);
        QVERIFY(!j.contains("memory")); // never a partial result as if valid
        bool named = false;
        for (const json& e : j["errors"]) named |= e["path"] == "parallel";
        QVERIFY(named);
    }

    void malformedFileExitsTwoWithOffset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.plan.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"model\": {\"preset\": \"gpt3-175b\",,}}");
        f.close();
        const Run r = cli({ "evaluate", path });
        QCOMPARE(r.code, 2);
        const json j = json::parse(r.out);
        QCOMPARE(j["errors"][0]["offset"].get<int>(), 33);
        QVERIFY(r.err.find("byte offset 33") != std::string::npos);
    }

    void missingFileAndUsage()
    {
        QCOMPARE(cli({ "evaluate", "/nonexistent/plan.json" }).code, 1);
        QCOMPARE(cli({}).code, 1);
        QCOMPARE(cli({ "frobnicate" }).code, 1);
        QCOMPARE(cli({ "--help" }).code, 0);
    }

    void explainShowsFormulaInputsAndSource()
    {
        const Run r = cli({ "explain", sample("default.plan.json"), "--field", "memory.stages.0.activationsBytes", "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["field"].get<std::string>(), std::string("memory.stages.0.activationsBytes"));
        QVERIFY(!j["formula"].get<std::string>().empty());
        QVERIFY(j["source"].get<std::string>().find("Korthikanti") != std::string::npos);
        QCOMPARE(j["unit"].get<std::string>(), std::string("bytes"));
        // The value is the evaluate() number, and it equals its formula with its inputs.
        const Prediction p = evaluate(test::loadSample("default.plan.json"));
        QCOMPARE(j["value"].get<double>(), double(p.stages[0].activationsBytes));
        const json& in = j["inputs"];
        const double recomputed = in["inflight"].get<double>()
                * (in["layers"].get<double>() * in["perLayer"].get<double>() + in["firstExtra"].get<double>()
                    + in["lastExtra"].get<double>())
            + in["workspace"].get<double>();
        QVERIFY(std::abs(recomputed - j["value"].get<double>()) <= 1.0);
        // Its children are the in-flight count and the per-layer bytes.
        QCOMPARE(j["children"].size(), std::size_t(2));
        QCOMPARE(j["children"][0]["field"].get<std::string>(), std::string("memory.stages.0.inFlightMicrobatches"));
        QCOMPARE(j["children"][0]["value"].get<double>(), 4.0); // 1F1B stage 0 with p = 4
    }

    void explainEveryPredictionLeaf()
    {
        // Every number docs/FORMATS.md lists under memory.stages and time can be explained.
        const Prediction p = evaluate(test::loadSample("gpt3-175b-1024xa100.plan.json"));
        for (const char* f : { "memory.stages.0.weightsBytes", "memory.stages.0.gradientsBytes", "memory.stages.0.optimizerBytes",
                 "memory.stages.0.activationsBytes", "memory.stages.0.buffersBytes", "memory.stages.0.totalBytes",
                 "memory.stages.15.totalBytes", "memory.peakBytes", "flops.modelPerStep", "flops.hardwarePerStep",
                 "flops.modelPerToken", "time.stepSeconds", "time.bubbleFraction", "time.bubbleOverhead", "time.mfu",
                 "time.hfu", "time.tokensPerSecond", "time.trainingDays", "params.total", "comm.groups.0.seconds" }) {
            const Run r = cli({ "explain", sample("gpt3-175b-1024xa100.plan.json"), "--field", f, "--json" });
            QVERIFY2(r.code == 0, f);
            const json j = json::parse(r.out);
            QVERIFY2(!j["source"].get<std::string>().empty(), f);
            QVERIFY2(!j["formula"].get<std::string>().empty(), f);
        }
        const Run text = cli({ "explain", sample("default.plan.json"), "--field", "time.bubbleFraction" });
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("(p-1)/(m+p-1)") != std::string::npos);
        QVERIFY(text.out.find("(p-1)/m") != std::string::npos);
        QCOMPARE(cli({ "explain", sample("default.plan.json"), "--field", "no.such.field" }).code, 1);
    }

    void checkTheInterviewClaim()
    {
        // The interview claim "1T tokens in 14 days" on 256 A100 for 130B at ~45% MFU: 6*N*T = 7.8e23 FLOP against
        // 256 * 312e12 * 0.45 * 14 * 86400 = 4.3e22, about 18 times short.
        const Run r = cli({ "check", sample("interview-130b-256xa100-zero3.plan.json"), "--days", "14", "--tokens", "1e12",
            "--mfu", "0.45", "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["possible"].get<bool>(), false);
        const Plan plan = test::loadSample("interview-130b-256xa100-zero3.plan.json");
        const Prediction p = evaluate(plan);
        const double required = p.modelFlopsPerToken * 1e12;
        const double available = 256 * 312e12 * 0.45 * 14 * 86400;
        QVERIFY(test::near(j["requiredFlops"].get<double>(), required));
        QVERIFY(test::near(j["availableFlops"].get<double>(), available));
        QVERIFY(test::near(j["shortBy"].get<double>(), required / available));
        QVERIFY(j["shortBy"].get<double>() > 17 && j["shortBy"].get<double>() < 19);
        // The rule of thumb 6*N*T is there too.
        QVERIFY(test::near(j["requiredFlops6NT"].get<double>(), 6 * countParameters(plan.model).total * 1e12));
        // A possible claim reports shortBy 1.
        const Run ok = cli({ "check", sample("interview-130b-256xa100-zero3.plan.json"), "--days", "400", "--tokens", "1e12",
            "--mfu", "0.45", "--json" });
        const json k = json::parse(ok.out);
        QCOMPARE(k["possible"].get<bool>(), true);
        QCOMPARE(k["shortBy"].get<double>(), 1.0);
        QCOMPARE(cli({ "check", sample("default.plan.json"), "--mfu", "abc" }).code, 1);
    }

    void validateAndPresets()
    {
        const Run v = cli({ "validate", sample("default.plan.json") });
        QCOMPARE(v.code, 0);
        QCOMPARE(json::parse(v.out)["valid"].get<bool>(), true);
        const Run p = cli({ "presets", "gpus", "--json" });
        QCOMPARE(p.code, 0);
        // One entry per GPU of the preset file the binary embeds.
        std::ifstream presetFile(std::string(PLANSCOPE_SOURCE_DIR) + "/resources/presets/gpus.json");
        const json presets = json::parse(presetFile);
        QCOMPARE(json::parse(p.out)["gpus"].size(), presets["gpus"].size());
        QVERIFY(presets["gpus"].size() >= 11);
        const Run s = cli({ "summary", sample("default.plan.json") });
        QCOMPARE(s.code, 0);
        QVERIFY(s.out.find("peak") != std::string::npos);
        // The same step as evaluate prints (the simulated one), with the closed form beside it.
        const json e = json::parse(cli({ "evaluate", sample("default.plan.json") }).out);
        const std::string line = "step " + units::formatSeconds(e["time"]["stepSeconds"].get<double>())
            + " simulated (the closed form gives " + units::formatSeconds(e["time"]["analyticStepSeconds"].get<double>()) + ")";
        QVERIFY2(s.out.find(line) != std::string::npos, s.out.c_str());
        // One layer's forward and backward: the sums of evaluate's own op list by pass.
        double forward = 0, backward = 0;
        for (const auto& op : e["time"]["layerOps"])
            (op["pass"].get<std::string>() == "forward" ? forward : backward) += op["exposedSeconds"].get<double>();
        const std::string layer = "one layer: forward " + units::formatSeconds(forward) + ", backward " + units::formatSeconds(backward);
        QVERIFY2(s.out.find(layer) != std::string::npos, (layer + "\n" + s.out).c_str());
    }

    void pipelineSplitInSummary()
    {
        // Llama 3.1 405B on pp 8 x vpp 8 with the embedding and the loss in the split (docs/PLAN-FILE.md):
        // validate accepts it, evaluate gives 15/16/.../16/15 layers, summary lists each rank's chunks.
        const QString plan = sample("llama31-405b-pp8-vp8-h100.plan.json");
        const Run v = cli({ "validate", plan });
        QCOMPARE(v.code, 0);
        QCOMPARE(json::parse(v.out)["valid"].get<bool>(), true);
        const json e = json::parse(cli({ "evaluate", plan }).out);
        const int layers[] = { 15, 16, 16, 16, 16, 16, 16, 15 };
        for (int r = 0; r < 8; ++r) QCOMPARE(e["memory"]["stages"][r]["layers"].get<int>(), layers[r]);
        const Run s = cli({ "summary", plan });
        QCOMPARE(s.code, 0);
        QVERIFY2(s.out.find("pipeline split: embedding/loss in split") != std::string::npos, s.out.c_str());
        QVERIFY2(s.out.find("  E1|2|2|2|2|2|2|2\n") != std::string::npos, s.out.c_str());
        QVERIFY2(s.out.find("  2|2|2|2|2|2|2|2\n") != std::string::npos, s.out.c_str());
        QVERIFY2(s.out.find("  2|2|2|2|2|2|2|1L\n") != std::string::npos, s.out.c_str());
    }

    void scheduleJsonAsSchema()
    {
        // docs/FORMATS.md section 3: 1F1B, p = 4, m = 8, unit F = B = 1: makespan 22, busy 16, idle 6 per rank.
        const Run r = cli({ "schedule", "--kind", "1f1b", "--stages", "4", "--microbatches", "8", "--forward", "1",
            "--backward", "1", "--weight", "0", "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/schedule/v1"));
        QCOMPARE(j["kind"].get<std::string>(), std::string("1f1b"));
        QCOMPARE(j["stages"].get<int>(), 4);
        QCOMPARE(j["microbatches"].get<int>(), 8);
        QCOMPARE(j["makespan"].get<double>(), 22.0);
        QVERIFY(test::near(j["bubbleFraction"].get<double>(), 6.0 / 22.0));
        QVERIFY(test::near(j["bubbleOverhead"].get<double>(), 6.0 / 16.0));
        QCOMPARE(j["ranks"].size(), std::size_t(4));
        const std::vector<std::string> rank0 { "0F0", "0F1", "0F2", "0F3", "0B0", "0F4", "0B1", "0F5", "0B2", "0F6", "0B3",
            "0F7", "0B4", "0B5", "0B6", "0B7" };
        QCOMPARE(j["ranks"][0]["ops"].get<std::vector<std::string>>(), rank0);
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(j["ranks"][k]["busy"].get<double>(), 16.0);
            QCOMPARE(j["ranks"][k]["idle"].get<double>(), 6.0);
            QCOMPARE(j["ranks"][k]["peakInFlight"].get<double>(), double(4 - k));
        }
        // Default durations are F = 1, B = 2: makespan (m + p - 1)(F + B) = 33.
        const Run h = cli({ "schedule", "--kind", "1f1b", "--stages", "4", "--microbatches", "8", "--json" });
        QCOMPARE(json::parse(h.out)["makespan"].get<double>(), 33.0);
        // Text grid and CSV.
        const Run text = cli({ "schedule", "--kind", "1f1b", "--stages", "2", "--microbatches", "2" });
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("rank 1") != std::string::npos);
        const Run csv = cli({ "schedule", "--kind", "gpipe", "--stages", "2", "--microbatches", "2", "--csv" });
        QCOMPARE(csv.out, std::string("0F0,0F1,0B0,0B1\n1F0,1F1,1B0,1B1\n"));
        // Refused shapes exit 2 with the reason.
        const Run bad = cli({ "schedule", "--kind", "dualpipe", "--stages", "3", "--microbatches", "8", "--json" });
        QCOMPARE(bad.code, 2);
        QCOMPARE(json::parse(bad.out)["valid"].get<bool>(), false);
        QCOMPARE(cli({ "schedule", "--kind", "3f3b" }).code, 1);
    }

    void interleavedIsMegatronsOrder()
    {
        // Megatron with p = 4, v = 2, m = 8 (g = p): rank 0's forwards run microbatches 0-3 on chunk 0, then
        // 0-3 on chunk 1 (stage 4), then 4-7 on chunk 0: warm-up 2(p-1) + (v-1)p = 10 forwards.
        const Run r = cli({ "schedule", "--kind", "interleaved-1f1b", "--stages", "4", "--microbatches", "8", "--vpp", "2",
            "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        const auto ops = j["ranks"][0]["ops"].get<std::vector<std::string>>();
        const std::vector<std::string> warmup { "0F0", "0F1", "0F2", "0F3", "4F0", "4F1", "4F2", "4F3", "0F4", "0F5" };
        QCOMPARE(std::vector<std::string>(ops.begin(), ops.begin() + 10), warmup);
        QCOMPARE(ops[10], std::string("0F6")); // first steady forward, then the first backward (last chunk first)
        QCOMPARE(ops[11], std::string("4B0"));
        QCOMPARE(j["vpp"].get<int>(), 2);
        // Peak in flight on rank 0: p + (p-1)/v = 5.5 stage units.
        QCOMPARE(j["ranks"][0]["peakInFlight"].get<double>(), 5.5);
    }

    void simulateWritesAChromeTrace()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath("gpt3.trace.json");
        const Run r = cli({ "simulate", sample("gpt3-175b-1024xa100.plan.json"), "--chrome-trace", trace });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/prediction/v1"));
        QCOMPARE(j["time"]["source"].get<std::string>(), std::string("simulation"));
        QVERIFY(j.contains("timeline"));
        QCOMPARE(j["timeline"]["ranks"].get<int>(), 16);
        QVERIFY(j["timeline"]["stepSeconds"].get<double>() >= j["timeline"]["pipelineSeconds"].get<double>());
        QVERIFY(test::near(j["time"]["stepSeconds"].get<double>(), j["timeline"]["stepSeconds"].get<double>()));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const json t = json::parse(f.readAll().toStdString());
        QVERIFY(t["traceEvents"].size() > std::size_t(2 * 192 * 32)); // every F and B of 192 microbatches on 32 chunks
        // evaluate reports the simulated step by default, the figure the app shows; --analytic the closed form.
        // Both figures are in time.* either way.
        const Run e = cli({ "evaluate", sample("gpt3-175b-1024xa100.plan.json") });
        QCOMPARE(e.code, 0);
        const json ej = json::parse(e.out);
        QCOMPARE(ej["time"]["source"].get<std::string>(), std::string("simulation"));
        QCOMPARE(ej["time"]["stepSeconds"].get<double>(), j["time"]["stepSeconds"].get<double>());
        QCOMPARE(ej["time"]["simulatedStepSeconds"].get<double>(), j["timeline"]["stepSeconds"].get<double>());
        const Run an = cli({ "evaluate", sample("gpt3-175b-1024xa100.plan.json"), "--analytic" });
        QCOMPARE(an.code, 0);
        const json aj = json::parse(an.out);
        QCOMPARE(aj["time"]["source"].get<std::string>(), std::string("analytic"));
        QCOMPARE(aj["time"]["stepSeconds"].get<double>(), ej["time"]["analyticStepSeconds"].get<double>());
        QCOMPARE(aj["time"]["simulatedStepSeconds"].get<double>(), ej["time"]["stepSeconds"].get<double>());
        QVERIFY(aj["time"]["stepSeconds"].get<double>() != ej["time"]["stepSeconds"].get<double>());
        // MFU follows the figure shown: modelPerStep / (step * GPUs * peak), 1024 A100s at 312 TFLOP/s bf16 dense.
        for (const json* d : { &ej, &aj })
            QVERIFY(test::near((*d)["time"]["mfu"].get<double>(),
                (*d)["flops"]["modelPerStep"].get<double>() / ((*d)["time"]["stepSeconds"].get<double>() * 1024 * 312e12)));
        // explain follows the same rule: the simulated step by default, the closed form with --analytic.
        const json ex = json::parse(cli({ "explain", sample("gpt3-175b-1024xa100.plan.json"), "--json" }).out);
        QCOMPARE(ex["value"].get<double>(), ej["time"]["stepSeconds"].get<double>());
        const json exa
            = json::parse(cli({ "explain", sample("gpt3-175b-1024xa100.plan.json"), "--json", "--analytic" }).out);
        QCOMPARE(exa["value"].get<double>(), aj["time"]["stepSeconds"].get<double>());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
