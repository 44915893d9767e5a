// planscope-cli balance (docs/FORMATS.md section 2c): the JSON (schema planscope/balance/v1) agrees with
// autoBalance() called directly, --write saves a plan that loads and validates with the layout, and an invalid
// plan exits 2 with {"valid": false, "errors"}, a plan no split fits exits 1 without writing.
#include "CliRunner.h"
#include "TestUtil.h"

#include "cost/AutoBalance.h"
#include "spec/PipelineLayout.h"
#include "spec/Validate.h"

#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

QString sample(const QString& f) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + f; }

// The default sample with its JSON changed by `edit`, written to `dir`.
QString editedSample(const QTemporaryDir& dir, const char* name, const std::function<void(json&)>& edit)
{
    std::ifstream in(sample("default.plan.json").toStdString());
    json j = json::parse(in);
    edit(j);
    const QString path = dir.filePath(QString::fromLatin1(name));
    std::ofstream(path.toStdString()) << j.dump(2);
    return path;
}

} // namespace

class TestCliBalance : public QObject {
    Q_OBJECT
private slots:
    void jsonMatchesCore()
    {
        const test::CliRun r = test::runCli({ "balance", sample("default.plan.json"), "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/balance/v1"));
        QVERIFY(j["valid"].get<bool>());
        for (const char* k : { "layout", "fits", "capacityBytes", "mtpLayers", "stages", "ranks", "before", "after" })
            QVERIFY2(j.contains(k), k);

        const Plan plan = test::loadSample("default.plan.json");
        const auto b = autoBalance(plan);
        QVERIFY(b.ok());
        QCOMPARE(j["layout"].get<std::string>(), b->layout);
        QCOMPARE(j["fits"].get<bool>(), b->fits);
        QCOMPARE(j["after"]["slowestRankSeconds"].get<double>(), b->after.slowestRankSeconds);
        QCOMPARE(j["after"]["peakBytes"].get<std::int64_t>(), b->after.peakBytes);
        QCOMPARE(j["before"]["split"].get<std::string>(), std::string("even"));
        QCOMPARE(j["before"]["slowestRankSeconds"].get<double>(), b->before.slowestRankSeconds);
        // Llama 2 7B: 32 layers over pp = 4 stages, the layout read back gives the per-stage counts.
        QCOMPARE(j["stages"].size(), std::size_t(4));
        QCOMPARE(j["ranks"].size(), std::size_t(4));
        auto parsed = parsePipelineLayout(j["layout"].get<std::string>());
        QVERIFY(parsed.ok());
        int total = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            int t = 0;
            for (const LayoutSymbol& s : parsed->stages[k]) t += s.kind == 't';
            QCOMPARE(j["stages"][k]["layers"].get<int>(), t);
            QCOMPARE(j["ranks"][k]["layers"].get<int>(), t);
            total += t;
        }
        QCOMPARE(total, plan.model.layers);
        QCOMPARE(j["ranks"][0]["chunks"].get<std::string>().substr(0, 1), std::string("E"));
        QCOMPARE(j["ranks"][3]["chunks"].get<std::string>().back(), 'L');

        // The text form names the layout and both figures.
        const test::CliRun t = test::runCli({ "balance", sample("default.plan.json") });
        QCOMPARE(t.code, 0);
        QVERIFY2(t.out.find("layout " + b->layout) != std::string::npos, t.out.c_str());
        QVERIFY2(t.out.find("before") != std::string::npos && t.out.find("after") != std::string::npos, t.out.c_str());
    }

    void writesThePlan()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString out = dir.filePath(QStringLiteral("balanced.plan.json"));
        const test::CliRun r = test::runCli({ "balance", sample("default.plan.json"), "--json", "--write", out });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["written"].get<std::string>(), out.toStdString());
        auto loaded = loadPlanFile(out.toStdString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->plan.parallel.layout, j["layout"].get<std::string>());
        QVERIFY(!hasErrors(validate(loaded->plan)));
        QCOMPARE(evaluate(loaded->plan).peakBytes, j["after"]["peakBytes"].get<std::int64_t>());
        const test::CliRun v = test::runCli({ "validate", out });
        QCOMPARE(v.code, 0);
    }

    void invalidPlanExitsTwo()
    {
        QTemporaryDir dir;
        // tp 3 divides neither the 32 heads of Llama 2 7B nor its FFN size.
        const QString bad = editedSample(dir, "bad.plan.json", [](json& j) { j["parallel"]["tp"] = 3; });
        const test::CliRun r = test::runCli({ "balance", bad, "--json" });
        QCOMPARE(r.code, 2);
        const json j = json::parse(r.out);
        QCOMPARE(j["valid"].get<bool>(), false);
        QVERIFY(!j["errors"].empty());
        // A schedule that takes no layout.
        const QString zbv = editedSample(dir, "zbv.plan.json", [](json& j) { j["training"]["schedule"] = "zb-v"; });
        const test::CliRun z = test::runCli({ "balance", zbv });
        QCOMPARE(z.code, 2);
        QCOMPARE(json::parse(z.out)["errors"][0]["path"].get<std::string>(), std::string("training.schedule"));
    }

    void nothingFitsIsNotWritten()
    {
        QTemporaryDir dir;
        // 2 GB per GPU: the CUDA context and NCCL's buffers alone take most of it.
        const QString tiny = editedSample(dir, "tiny.plan.json", [](json& j) {
            j["cluster"]["gpu"] = { { "preset", "a100-sxm4-80gb" }, { "memory", 2000000000 } };
        });
        const QString out = dir.filePath(QStringLiteral("never.plan.json"));
        const test::CliRun r = test::runCli({ "balance", tiny, "--json", "--write", out });
        QCOMPARE(r.code, 1);
        const json j = json::parse(r.out);
        QCOMPARE(j["fits"].get<bool>(), false);
        QVERIFY(!j.contains("written"));
        QVERIFY(!QFile::exists(out));
        QVERIFY2(r.err.find("not written") != std::string::npos, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliBalance)
#include "tst_cli_balance.moc"
