// The accuracy benchmark (scripts/accuracy.sh, samples/published/runs.json, docs/ACCURACY.md) kept honest:
// every run's plan loads and validates, every published figure names its source and what it counts, and the
// script's predicted figures are evaluate's JSON converted as the script's header documents. No thresholds on
// the error: the model is known to be optimistic (docs/ACCURACY.md), and this test must not encode by how much.
#include "CliRunner.h"

#include <QFile>
#include <QObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>

using nlohmann::json;

namespace {

QString root() { return QStringLiteral(PLANSCOPE_SOURCE_DIR); }

json readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return json();
    return json::parse(f.readAll().toStdString(), nullptr, false);
}

json runs() { return readJson(root() + QStringLiteral("/samples/published/runs.json"))["runs"]; }

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

} // namespace

class TestAccuracy : public QObject {
    Q_OBJECT
    json script_; // scripts/accuracy.sh --json, run once

private slots:
    void initTestCase()
    {
        // scripts/deps.sh installs python3, so the script runs wherever the suite does.
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty(), "python3 not found");
        QProcess p;
        p.setWorkingDirectory(root());
        p.start(QStringLiteral("bash"),
            { root() + QStringLiteral("/scripts/accuracy.sh"), QStringLiteral("--json"), QStringLiteral("--cli"),
                QStringLiteral(PLANSCOPE_CLI) });
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        script_ = json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
        QVERIFY(!script_.is_discarded());
        QCOMPARE(script_["schema"].get<std::string>(), std::string("planscope/accuracy/v1"));
    }

    // The public set of issue 11: each entry has a plan that loads and validates, a metric the script converts
    // to, a positive published value, and a source.
    void everyRunIsSourcedAndValid_data()
    {
        QTest::addColumn<int>("index");
        const json r = runs();
        QVERIFY(r.is_array() && r.size() >= 6);
        for (std::size_t i = 0; i < r.size(); ++i)
            QTest::newRow(r[i].value("id", std::string("?")).c_str()) << int(i);
    }
    void everyRunIsSourcedAndValid()
    {
        QFETCH(int, index);
        const json e = runs()[std::size_t(index)];
        for (const char* k : { "id", "name", "plan", "gpu", "metric", "source", "note" }) {
            QVERIFY2(e.contains(k) && e[k].is_string() && !e[k].get<std::string>().empty(), k);
        }
        const std::string metric = e["metric"];
        QVERIFY2(metric == "tflopsPerGpu" || metric == "mfu" || metric == "tokensPerSecond" || metric == "tokensPerSecondPerGpu",
            metric.c_str());
        if (metric == "tflopsPerGpu") {
            const std::string flops = e.value("flops", std::string());
            QVERIFY2(flops == "hardware" || flops == "model", "tflopsPerGpu says which FLOPs the source counts");
        }
        QVERIFY(e["value"].is_number() && e["value"].get<double>() > 0);
        if (e.contains("range")) {
            QVERIFY(e["range"].is_array() && e["range"].size() == 2);
            QVERIFY(e["range"][0].get<double>() <= e["value"].get<double>());
            QVERIFY(e["value"].get<double>() <= e["range"][1].get<double>());
        }
        const QString plan = root() + QLatin1Char('/') + QString::fromStdString(e["plan"].get<std::string>());
        QVERIFY2(QFile::exists(plan), qPrintable(plan));
        const json p = readJson(plan);
        QVERIFY2(p.is_object() && !p.value("source", std::string()).empty(), "the plan cites its source");
        const planscope::test::CliRun v = planscope::test::runCli({ QStringLiteral("validate"), plan });
        QCOMPARE(v.code, 0);
        QVERIFY(json::parse(v.out)["valid"].get<bool>());
    }

    // The script reports every run of runs.json, in order, with the published figure as given there, and its
    // summary is the mean of its rows' absolute errors.
    void scriptCoversEveryRun()
    {
        const json r = runs();
        const json& rows = script_["runs"];
        QCOMPARE(rows.size(), r.size());
        double sum = 0;
        for (std::size_t i = 0; i < r.size(); ++i) {
            QCOMPARE(rows[i]["id"].get<std::string>(), r[i]["id"].get<std::string>());
            QCOMPARE(rows[i]["published"].get<double>(), r[i]["value"].get<double>());
            const double err = rows[i]["error"].get<double>();
            QVERIFY(near(err, (rows[i]["predicted"].get<double>() - rows[i]["published"].get<double>())
                    / rows[i]["published"].get<double>()));
            QCOMPARE(rows[i]["side"].get<std::string>(),
                std::string(err > 0 ? "optimistic" : err < 0 ? "pessimistic" : "exact"));
            sum += std::abs(err);
        }
        QVERIFY(near(script_["summary"]["all"]["meanAbsError"].get<double>(), sum / double(r.size())));
    }

    // The documented conversion, redone here from evaluate's JSON: hardware TFLOP/s per GPU for GPT-3 175B
    // (Narayanan et al. count recomputation), and MFU for Llama 3 405B (model FLOPs over the BF16 peak).
    void predictedIsEvaluateConverted_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("tflops, hardware") << QStringLiteral("gpt3-175b-1024xa100");
        QTest::newRow("mfu") << QStringLiteral("llama3-405b-8k-h100");
        QTest::newRow("tokens/s/GPU") << QStringLiteral("bridge-2511-b200-qwen3-30b-a3b-mxfp8");
    }
    void predictedIsEvaluateConverted()
    {
        QFETCH(QString, id);
        json row, entry;
        for (const json& x : script_["runs"])
            if (x["id"] == id.toStdString()) row = x;
        for (const json& x : runs())
            if (x["id"] == id.toStdString()) entry = x;
        QVERIFY(row.is_object() && entry.is_object());
        const QString planPath = root() + QLatin1Char('/') + QString::fromStdString(entry["plan"].get<std::string>());
        const json plan = readJson(planPath);
        const planscope::test::CliRun r = planscope::test::runCli({ QStringLiteral("evaluate"), planPath });
        QCOMPARE(r.code, 0);
        const json pred = json::parse(r.out);
        const double gpus = plan["cluster"]["nodes"].get<double>() * plan["cluster"]["gpusPerNode"].get<double>();
        const double sim = pred["time"]["stepSeconds"].get<double>(); // the simulated step
        const double ana = pred["time"]["analyticStepSeconds"].get<double>();
        double perSim = 0, perAna = 0;
        if (entry["metric"] == "tflopsPerGpu") {
            const double f = pred["flops"][entry["flops"] == "hardware" ? "hardwarePerStep" : "modelPerStep"];
            perSim = f / sim / gpus / 1e12;
            perAna = f / ana / gpus / 1e12;
        } else if (entry["metric"] == "tokensPerSecondPerGpu") {
            // globalBatch * seqLength tokens per step, over the step and the GPUs (Megatron-Bridge's tokens/sec/GPU).
            const double tokens = plan["training"]["globalBatch"].get<double>() * plan["model"]["seqLength"].get<double>();
            perSim = tokens / sim / gpus;
            perAna = tokens / ana / gpus;
        } else {
            QCOMPARE(entry["metric"].get<std::string>(), std::string("mfu"));
            const planscope::test::CliRun g = planscope::test::runCli({ QStringLiteral("presets"), QStringLiteral("gpus"), QStringLiteral("--json") });
            QCOMPARE(g.code, 0);
            double peak = 0;
            const json presets = json::parse(g.out);
            for (const json& x : presets["gpus"])
                if (x["id"] == plan["cluster"]["gpu"]) peak = x["peakFlops"][plan["training"].value("precision", std::string("bf16"))];
            QVERIFY(peak > 0);
            const double f = pred["flops"]["modelPerStep"];
            perSim = f / sim / gpus / peak;
            perAna = f / ana / gpus / peak;
            // the same as evaluate's own MFU of the simulated step
            QVERIFY(near(perSim, pred["time"]["mfu"].get<double>()));
        }
        QVERIFY2(near(row["predicted"].get<double>(), perSim), qPrintable(QString::number(row["predicted"].get<double>())));
        QVERIFY(near(row["predictedAnalytic"].get<double>(), perAna));
    }

    // scripts/first-choice.sh (docs/ACCURACY.md, "The planner's first choice"): its row for a sample is the plan
    // `search --top 1` ranks first, with the MFU and the free memory of that entry, and the ceilings as
    // samples/published/mfu-ceilings.json gives them for the plan's GPU and precision, each with a source.
    void firstChoiceIsTheSearchsFirst()
    {
        const json ceilings = readJson(root() + QStringLiteral("/samples/published/mfu-ceilings.json"));
        QVERIFY(ceilings["ceilings"].is_array() && !ceilings["ceilings"].empty());
        for (const json& c : ceilings["ceilings"])
            for (const char* k : { "any", "largeModel" }) {
                QVERIFY(c[k]["mfu"].get<double>() > 0 && c[k]["mfu"].get<double>() < 1);
                QVERIFY(!c[k]["source"].get<std::string>().empty() && !c[k]["run"].get<std::string>().empty());
            }
        const QString plan = root() + QStringLiteral("/samples/plans/interview-10b-8xa100.plan.json");
        QProcess p;
        p.setWorkingDirectory(root());
        p.start(QStringLiteral("bash"), { root() + QStringLiteral("/scripts/first-choice.sh"), QStringLiteral("--json"),
                                            QStringLiteral("--cli"), QStringLiteral(PLANSCOPE_CLI), plan });
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
        const json out = json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
        QVERIFY(!out.is_discarded());
        QCOMPARE(out["schema"].get<std::string>(), std::string("planscope/first-choice/v1"));
        QCOMPARE(out["rows"].size(), std::size_t(1));
        const json row = out["rows"][0];
        const planscope::test::CliRun s
            = planscope::test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--top"), QStringLiteral("1"), QStringLiteral("--json") });
        QCOMPARE(s.code, 0);
        const json best = json::parse(s.out)["best"][0];
        QVERIFY(near(row["mfu"].get<double>(), best["mfu"].get<double>()));
        QCOMPARE(row["freeBytes"].get<double>(), double(best["capacityBytes"].get<std::int64_t>() - best["peakBytes"].get<std::int64_t>()));
        for (const json& c : ceilings["ceilings"])
            if (c["gpu"] == row["gpu"] && c["precision"] == "bf16") {
                QVERIFY(near(row["ceilingAny"].get<double>(), c["any"]["mfu"].get<double>()));
                QVERIFY(near(row["ceilingLarge"].get<double>(), c["largeModel"]["mfu"].get<double>()));
            }
        QVERIFY(row.contains("ceilingAny")); // an fp16 A100 plan is held to the bf16 ceiling (the same dense peak)
    }
};

QTEST_GUILESS_MAIN(TestAccuracy)
#include "tst_accuracy.moc"
