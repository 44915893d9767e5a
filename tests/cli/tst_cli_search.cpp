// planscope-cli search (docs/FORMATS.md section 7, schema planscope/search/v1): the contract's fields, every listed
// plan written back into the plan file re-evaluating to its figures with `evaluate` (--analytic where the source is
// analytic), the counts adding up, --fix, --csv, --gpus with --days, and bad arguments named.
#include "CliRunner.h"
#include "TestUtil.h"

#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <set>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

QString sample(const QString& f) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + f; }

json readJson(const QString& path)
{
    std::ifstream in(path.toStdString());
    return json::parse(in);
}

// The plan file with one listed entry's knobs written in, as a user (or a script) would.
QString writeEntry(const QTemporaryDir& dir, const QString& planPath, const json& e, int n)
{
    json plan = readJson(planPath);
    for (auto& [k, v] : e["parallel"].items()) plan["parallel"][k] = v;
    for (auto& [k, v] : e["training"].items()) plan["training"][k] = v;
    const int perNode = plan["cluster"].value("gpusPerNode", 8);
    plan["cluster"]["nodes"] = e["gpus"].get<int>() / perNode;
    const QString path = dir.filePath(QStringLiteral("entry%1.plan.json").arg(n));
    std::ofstream(path.toStdString()) << plan.dump(2);
    return path;
}

} // namespace

class TestCliSearch : public QObject {
    Q_OBJECT
private slots:
    void contractAndReevaluation()
    {
        const QString plan = sample(QStringLiteral("interview-175b-256xa100.plan.json"));
        const test::CliRun r = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--json"), QStringLiteral("--top"),
            QStringLiteral("4"), QStringLiteral("--vary"), QStringLiteral("tp,pp,dp,vpp,microBatch,zero,schedule,recompute"),
            QStringLiteral("--simulate-top"), QStringLiteral("2") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/search/v1"));
        for (const char* k : { "plans", "valid", "fit", "seconds", "threads" }) QVERIFY2(j["space"].contains(k), k);
        for (const char* k : { "rejected", "best", "pareto", "given" }) QVERIFY2(j.contains(k), k);
        QVERIFY(j["given"].contains("stepSeconds") && j["given"].contains("rankAmongValid"));

        // The space is the product of the knobs' value lists; every plan fits or has its reason.
        double product = 1;
        for (const char* k : { "gpus", "tp", "pp", "cp", "ep", "vpp", "zero", "microBatch", "sp", "recompute", "schedule",
                 "overlap", "offload" })
            product *= double(j["space"]["knobs"][k].size());
        QCOMPARE(j["space"]["plans"].get<double>(), product);
        QCOMPARE(j["space"]["knobs"]["recompute"].size(), std::size_t(4));
        QCOMPARE(j["space"]["knobs"]["schedule"].size(), std::size_t(8));
        double accounted = j["space"]["fit"].get<double>();
        for (auto& [reason, n] : j["rejected"].items()) accounted += n.get<double>();
        QCOMPARE(accounted, product);
        QVERIFY(j["rejected"].contains("out of memory"));
        QVERIFY(j["rejected"].contains("tp does not divide heads"));

        QTemporaryDir dir;
        const json& best = j["best"];
        QCOMPARE(best.size(), std::size_t(4));
        int n = 0;
        for (const json& e : best) {
            QCOMPARE(e["rank"].get<int>(), n + 1);
            for (const char* k : { "dp", "tp", "pp", "cp", "ep", "vpp", "sp", "zero" }) QVERIFY2(e["parallel"].contains(k), k);
            for (const char* k : { "microBatch", "recompute", "schedule" }) QVERIFY2(e["training"].contains(k), k);
            const std::string source = e["source"].get<std::string>();
            QCOMPARE(source, std::string(n < 2 ? "simulation" : "analytic"));
            QStringList args { QStringLiteral("evaluate"), writeEntry(dir, plan, e, n) };
            if (source == "analytic") args << QStringLiteral("--analytic");
            const test::CliRun ev = test::runCli(args);
            QCOMPARE(ev.code, 0);
            const json p = json::parse(ev.out);
            QCOMPARE(p["time"]["stepSeconds"].get<double>(), e["stepSeconds"].get<double>());
            QCOMPARE(p["memory"]["peakBytes"].get<std::int64_t>(), e["peakBytes"].get<std::int64_t>());
            QCOMPARE(p["time"]["mfu"].get<double>(), e["mfu"].get<double>());
            ++n;
        }
        QVERIFY(best[0]["stepSeconds"].get<double>() <= best[1]["stepSeconds"].get<double>());
        // Pareto points: none beats another on both figures, each re-evaluates.
        const json& pareto = j["pareto"];
        QVERIFY(pareto.size() >= 3);
        for (const json& a : pareto)
            for (const json& b : pareto)
                QVERIFY(!(a["stepSeconds"].get<double>() < b["stepSeconds"].get<double>()
                    && a["peakBytes"].get<std::int64_t>() < b["peakBytes"].get<std::int64_t>()));
        for (std::size_t i = 0; i < pareto.size(); i += std::max<std::size_t>(1, pareto.size() / 4)) {
            const test::CliRun ev = test::runCli({ QStringLiteral("evaluate"), writeEntry(dir, plan, pareto[i], 100 + int(i)),
                QStringLiteral("--analytic") });
            QCOMPARE(ev.code, 0);
            const json p = json::parse(ev.out);
            QCOMPARE(p["time"]["stepSeconds"].get<double>(), pareto[i]["stepSeconds"].get<double>());
            QCOMPARE(p["memory"]["peakBytes"].get<std::int64_t>(), pareto[i]["peakBytes"].get<std::int64_t>());
        }
        // The template as given: its own evaluate --analytic figure.
        const test::CliRun mine = test::runCli({ QStringLiteral("evaluate"), plan, QStringLiteral("--analytic") });
        QCOMPARE(json::parse(mine.out)["time"]["stepSeconds"].get<double>(), j["given"]["stepSeconds"].get<double>());
        QVERIFY(j["given"]["whyNot"].size() >= 5);
    }

    // BLOOM's 70 layers on 384 GPUs: the plan file splits them 5 | 6 x 10 | 5; the space splits evenly or with the
    // embedding and the loss in the split. Entries written back replace the file's split and re-evaluate; "given" is
    // the file's own plan.
    void splitReplacedInWrittenPlans()
    {
        const QString plan = sample(QStringLiteral("bloom-176b-384xa100.plan.json"));
        const test::CliRun r = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--json"), QStringLiteral("--top"),
            QStringLiteral("3"), QStringLiteral("--vary"), QStringLiteral("tp,pp,dp,microBatch,zero") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QVERIFY(j["given"]["valid"].get<bool>());
        const test::CliRun mine = test::runCli({ QStringLiteral("evaluate"), plan, QStringLiteral("--analytic") });
        QCOMPARE(json::parse(mine.out)["time"]["stepSeconds"].get<double>(), j["given"]["stepSeconds"].get<double>());
        QTemporaryDir dir;
        int n = 0, inSplit = 0;
        for (const json& e : j["best"]) {
            QCOMPARE(e["parallel"]["firstStageLayers"].get<int>(), 0);
            const int pp = e["parallel"]["pp"].get<int>();
            const bool in = e["parallel"]["embeddingInSplit"].get<bool>();
            QCOMPARE(in, 70 % pp != 0); // only where the even split does not divide
            inSplit += in;
            const test::CliRun ev = test::runCli({ QStringLiteral("evaluate"), writeEntry(dir, plan, e, n++), QStringLiteral("--analytic") });
            QCOMPARE(ev.code, 0);
            QCOMPARE(json::parse(ev.out)["time"]["stepSeconds"].get<double>(), e["stepSeconds"].get<double>());
        }
        QVERIFY(inSplit > 0);

        // DeepSeek-V3's 61 layers + MTP: pp 8 and more take a generated layout string, which replaces the file's.
        const QString ds = sample(QStringLiteral("deepseek-v3-1024xh100-fp8.plan.json"));
        const test::CliRun d = test::runCli({ QStringLiteral("search"), ds, QStringLiteral("--json"), QStringLiteral("--top"),
            QStringLiteral("3"), QStringLiteral("--vary"), QStringLiteral("pp,dp,vpp,schedule"), QStringLiteral("--fix"),
            QStringLiteral("zero=1") });
        QCOMPARE(d.code, 0);
        const json dj = json::parse(d.out);
        int layouts = 0;
        for (const json& e : dj["best"]) {
            const std::string layout = e["parallel"]["layout"].get<std::string>();
            layouts += !layout.empty();
            const test::CliRun ev = test::runCli({ QStringLiteral("evaluate"), writeEntry(dir, ds, e, n++), QStringLiteral("--analytic") });
            QCOMPARE(ev.code, 0);
            QCOMPARE(json::parse(ev.out)["time"]["stepSeconds"].get<double>(), e["stepSeconds"].get<double>());
        }
        QVERIFY(layouts > 0);
    }

    // A plan file with fsdp (which means ZeRO-3 to the loader): entries keep it with zero 3 and write "none" with the
    // other stages, so that every entry re-evaluates as listed.
    void fsdpFollowsZero()
    {
        QTemporaryDir dir;
        json plan = readJson(sample(QStringLiteral("interview-130b-256xa100-zero3.plan.json")));
        plan["parallel"]["fsdp"] = "hybrid";
        plan["parallel"]["zero"] = 3;
        const QString path = dir.filePath(QStringLiteral("hybrid.plan.json"));
        std::ofstream(path.toStdString()) << plan.dump(2);
        const test::CliRun r = test::runCli({ QStringLiteral("search"), path, QStringLiteral("--json"), QStringLiteral("--top"),
            QStringLiteral("12"), QStringLiteral("--vary"), QStringLiteral("zero,dp"), QStringLiteral("--fix"), QStringLiteral("pp=16") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        int n = 0;
        std::set<int> zeros;
        for (const json& e : j["best"]) {
            const int zero = e["parallel"]["zero"].get<int>();
            zeros.insert(zero);
            QCOMPARE(e["parallel"]["fsdp"].get<std::string>(), std::string(zero == 3 ? "hybrid" : "none"));
            const test::CliRun ev = test::runCli({ QStringLiteral("evaluate"), writeEntry(dir, path, e, n++), QStringLiteral("--analytic") });
            QCOMPARE(ev.code, 0);
            QCOMPARE(json::parse(ev.out)["time"]["stepSeconds"].get<double>(), e["stepSeconds"].get<double>());
        }
        QVERIFY(zeros.size() >= 2);
    }

    void fixCsvAndSizing()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("best.csv"));
        const test::CliRun r = test::runCli({ QStringLiteral("search"), sample(QStringLiteral("default.plan.json")),
            QStringLiteral("--json"), QStringLiteral("--fix"), QStringLiteral("tp=2"), QStringLiteral("--fix"),
            QStringLiteral("schedule=1f1b"), QStringLiteral("--csv"), csv, QStringLiteral("--gpus"), QStringLiteral("8,16,32"),
            QStringLiteral("--days"), QStringLiteral("20"), QStringLiteral("--tokens"), QStringLiteral("2e11") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QVERIFY(j["space"]["knobs"]["tp"] == json::array({ 2 }));
        QVERIFY(j["space"]["knobs"]["gpus"] == json::array({ 8, 16, 32 }));
        for (const json& e : j["best"]) {
            QCOMPARE(e["parallel"]["tp"].get<int>(), 2);
            QCOMPARE(e["training"]["schedule"].get<std::string>(), std::string("1f1b"));
        }
        // Sizing: the answer is the first row within 20 days; each row's days = tokens / its best's tokens/s.
        const json& z = j["sizing"];
        QCOMPARE(z["rows"].size(), std::size_t(3));
        int answer = -1;
        for (const json& row : z["rows"]) {
            if (row["best"].is_null()) continue;
            const double days = 2e11 / row["best"]["tokensPerSecond"].get<double>() / 86400.0;
            QVERIFY(test::near(row["days"].get<double>(), days));
            if (answer < 0 && days <= 20) answer = row["gpus"].get<int>();
        }
        QCOMPARE(z["answer"].is_null() ? -1 : z["answer"].get<int>(), answer);
        // The CSV: a header, then one row per best and Pareto plan.
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QVERIFY(lines.front().startsWith("list,rank,gpus,dp,tp,pp"));
        QVERIFY(lines.front().endsWith(",source,beyondEvidence"));
        QCOMPARE(qsizetype(lines.size()), qsizetype(1 + j["best"].size() + j["pareto"].size()));
        QVERIFY(lines[1].startsWith("best,1,"));
    }

    // Each listed plan says whether it is beyond what published runs reached on its GPU (samples/published/
    // mfu-ceilings.json, read here on its own): "mfu" where its MFU is above the best at its size, "memory" where it
    // leaves less than 6 % free; the text marks the same entries and says what they are held to.
    void beyondPublishedEvidence()
    {
        const QString plan = sample(QStringLiteral("gpt3-175b-64xa100-search.plan.json"));
        const QStringList args { QStringLiteral("search"), plan, QStringLiteral("--top"), QStringLiteral("5"),
            QStringLiteral("--vary"), QStringLiteral("tp,pp,microBatch") };
        const test::CliRun r = test::runCli(QStringList(args) << QStringLiteral("--json"));
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        double ceiling = 0;
        const json ceilings = readJson(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/published/mfu-ceilings.json"));
        for (const json& c : ceilings["ceilings"])
            if (c["gpu"] == "a100-sxm4-80gb" && c["precision"] == "bf16") ceiling = c["largeModel"]["mfu"].get<double>();
        QVERIFY(ceiling > 0);
        QCOMPARE(j["evidence"]["ceiling"]["mfu"].get<double>(), ceiling);
        QCOMPARE(j["evidence"]["largeModel"].get<bool>(), true); // 175B parameters
        QCOMPARE(j["evidence"]["memoryMargin"].get<double>(), 0.06);
        int flagged = 0;
        for (const json& e : j["best"]) {
            std::set<std::string> expected;
            if (e["mfu"].get<double>() > ceiling) expected.insert("mfu");
            const double free = double(e["capacityBytes"].get<std::int64_t>() - e["peakBytes"].get<std::int64_t>());
            if (free < 0.06 * e["capacityBytes"].get<double>()) expected.insert("memory");
            const std::vector<std::string> got = e["beyondEvidence"];
            QCOMPARE(std::set<std::string>(got.begin(), got.end()), expected);
            flagged += expected.empty() ? 0 : 1;
        }
        const test::CliRun text = test::runCli(args);
        QCOMPARE(text.code, 0);
        QCOMPARE(int(QString::fromStdString(text.out).count(QStringLiteral("[beyond published evidence]"))), flagged);
        QVERIFY(text.out.find("held to: the best published MFU on a100-sxm4-80gb in bf16 at 100B parameters or more") != std::string::npos);
    }

    void shardsMergeIntoOneSearch()
    {
        // The default plan's space with the sizing question (five GPU counts; six knobs, zero fixed: 56,448 plans) in
        // three shards, merged in another order: the same document as one process, but for time, threads and the
        // cache's counters.
        const QString plan = sample(QStringLiteral("default.plan.json"));
        const QStringList options { QStringLiteral("--top"), QStringLiteral("4"), QStringLiteral("--days"), QStringLiteral("30"),
            QStringLiteral("--objective"), QStringLiteral("cost"), QStringLiteral("--fix"), QStringLiteral("zero=1"), QStringLiteral("--vary"),
            QStringLiteral("tp,pp,dp,microBatch,recompute,schedule") };
        const test::CliRun one = test::runCli(QStringList { QStringLiteral("search"), plan, QStringLiteral("--json") } + options);
        QVERIFY2(one.code == 0, one.err.c_str());
        QTemporaryDir dir;
        QStringList shards;
        for (int i = 0; i < 3; ++i) {
            const QString out = dir.filePath(QStringLiteral("shard%1.json").arg(i));
            const test::CliRun r = test::runCli(QStringList { QStringLiteral("search"), plan, QStringLiteral("--shard"), QStringLiteral("%1/3").arg(i),
                                                    QStringLiteral("--out"), out, QStringLiteral("--threads"), QStringLiteral("1") }
                + options);
            QVERIFY2(r.code == 0, r.err.c_str());
            QVERIFY(r.out.find("shard " + std::to_string(i) + "/3: plans ") != std::string::npos);
            shards << out;
        }
        const test::CliRun merged = test::runCli({ QStringLiteral("search"), QStringLiteral("--merge"), shards[2], shards[0], shards[1], QStringLiteral("--json") });
        QVERIFY2(merged.code == 0, merged.err.c_str());
        json a = json::parse(one.out), b = json::parse(merged.out);
        for (json* d : { &a, &b })
            for (const char* k : { "seconds", "threads", "cacheHits", "cacheMisses" }) (*d)["space"].erase(k);
        QVERIFY(a == b);
        QVERIFY(!a["best"].empty());
        // The text as well.
        const test::CliRun text = test::runCli({ QStringLiteral("search"), QStringLiteral("--merge"), shards[0], shards[1], shards[2] });
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("best by cost") != std::string::npos);
        // A shard missing, a shard twice, a shard of another search: named.
        test::CliRun bad = test::runCli({ QStringLiteral("search"), QStringLiteral("--merge"), shards[0], shards[2] });
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.find("shards 1 of 3 are missing") != std::string::npos, bad.err.c_str());
        bad = test::runCli({ QStringLiteral("search"), QStringLiteral("--merge"), shards[0], shards[0], shards[1] });
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.find("twice") != std::string::npos);
        const QString other = dir.filePath(QStringLiteral("other.json"));
        QCOMPARE(test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--shard"), QStringLiteral("1/3"), QStringLiteral("--out"), other }).code, 0);
        bad = test::runCli({ QStringLiteral("search"), QStringLiteral("--merge"), shards[0], other, shards[2] });
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.find("another search") != std::string::npos);
        bad = test::runCli({ QStringLiteral("search"), QStringLiteral("--merge"), plan });
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.find("no search shard") != std::string::npos);
        bad = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--shard"), QStringLiteral("3/3"), QStringLiteral("--out"), other });
        QCOMPARE(bad.code, 1);
    }

    void badArguments()
    {
        const QString plan = sample(QStringLiteral("default.plan.json"));
        test::CliRun r = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--vary"), QStringLiteral("tp,pq") });
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.find("\"pq\"") != std::string::npos);
        r = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--fix"), QStringLiteral("zero=9") });
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.find("zero") != std::string::npos);
        r = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--gpus"), QStringLiteral("12") });
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("gpus") != std::string::npos);
        r = test::runCli({ QStringLiteral("search"), plan, QStringLiteral("--objective"), QStringLiteral("speed") });
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.find("speed") != std::string::npos);
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.plan.json"));
        std::ofstream(broken.toStdString()) << "{ \"schema\": \"planscope/plan/v1\", \"model\": ";
        r = test::runCli({ QStringLiteral("search"), broken, QStringLiteral("--json") });
        QCOMPARE(r.code, 2);
        QVERIFY(!json::parse(r.out)["valid"].get<bool>());
    }
};

QTEST_GUILESS_MAIN(TestCliSearch)
#include "tst_cli_search.moc"
