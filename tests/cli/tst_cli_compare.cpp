// planscope-cli compare (docs/FORMATS.md section 8, schema planscope/compare/v1): every row's values are each plan's
// own `evaluate` figures at the row's field, `best` the better plan (lower or higher as the row says), `relative`
// each value over the best; invalid plans have no values; bad arguments are named.
#include "CliRunner.h"
#include "TestUtil.h"

#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace planscope;
using nlohmann::json;

namespace {

QString sample(const QString& f) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + f; }

// The value at a dotted field path ("memory.stages.0.totalBytes") of a prediction document.
const json* at(const json& doc, const std::string& field)
{
    const json* j = &doc;
    std::stringstream ss(field);
    std::string part;
    while (std::getline(ss, part, '.')) {
        if (j->is_array()) {
            const std::size_t i = std::stoul(part);
            if (i >= j->size()) return nullptr;
            j = &(*j)[i];
        } else if (j->contains(part)) {
            j = &(*j)[part];
        } else {
            return nullptr;
        }
    }
    return j;
}

} // namespace

class TestCliCompare : public QObject {
    Q_OBJECT
private slots:
    void rowsAreEachPlansFigures()
    {
        const QStringList files { sample(QStringLiteral("interview-175b-256xa100.plan.json")),
            sample(QStringLiteral("gpt3-175b-64xa100-search.plan.json")), sample(QStringLiteral("default.plan.json")) };
        const test::CliRun r = test::runCli(QStringList { QStringLiteral("compare") } + files + QStringList { QStringLiteral("--json") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/compare/v1"));
        QCOMPARE(j["plans"].size(), std::size_t(3));
        std::vector<json> evaluated;
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(j["plans"][i]["file"].get<std::string>(), files[i].toStdString());
            const test::CliRun e = test::runCli({ QStringLiteral("evaluate"), files[i] });
            QCOMPARE(e.code, 0);
            evaluated.push_back(json::parse(e.out));
            QCOMPARE(j["plans"][i]["prediction"]["time"]["stepSeconds"].get<double>(),
                evaluated.back()["time"]["stepSeconds"].get<double>());
        }
        std::set<std::string> fields;
        for (const json& row : j["rows"]) {
            const std::string field = row["field"].get<std::string>();
            fields.insert(field);
            const bool lower = row["lowerIsBetter"].get<bool>();
            int best = -1;
            for (int i = 0; i < 3; ++i) {
                const json* v = at(evaluated[std::size_t(i)], field);
                if (!v) { // a stage the plan does not have
                    QVERIFY2(row["values"][i].is_null(), field.c_str());
                    continue;
                }
                QCOMPARE(row["values"][i].get<double>(), v->get<double>());
                const double x = v->get<double>();
                if (best < 0 || (lower ? x < at(evaluated[std::size_t(best)], field)->get<double>()
                                       : x > at(evaluated[std::size_t(best)], field)->get<double>()))
                    best = i;
            }
            QCOMPARE(row["best"].get<int>(), best);
            const double b = row["values"][best].get<double>();
            for (int i = 0; i < 3; ++i)
                if (!row["values"][i].is_null() && b != 0)
                    QVERIFY(test::near(row["relative"][i].get<double>(), row["values"][i].get<double>() / b));
        }
        for (const char* f : { "time.stepSeconds", "time.tokensPerSecond", "time.mfu", "memory.peakBytes",
                 "memory.stages.0.totalBytes", "memory.stages.7.totalBytes", "time.bubbleFraction", "time.exposedCommSeconds",
                 "time.trainingDays" })
            QVERIFY2(fields.count(f), f);
        // The default plan has 4 stages: its stage-7 value is missing.
        for (const json& row : j["rows"])
            if (row["field"] == "memory.stages.7.totalBytes") QVERIFY(row["values"][2].is_null());
    }

    // One plan, one answer: each plan's whole prediction document in compare is the one `evaluate` prints for it alone,
    // whatever plan was analysed before it in the process: both orders of two plans that differ only in expert TP, and
    // one of them twice.
    void aPlansFiguresDoNotDependOnTheOthers()
    {
        QTemporaryDir dir;
        const test::PlanPair pair = test::writeExpertTpPair(dir.path());
        std::map<QString, json> alone;
        for (const QString& f : { pair.etp1, pair.etp2 }) {
            const test::CliRun e = test::runCli({ QStringLiteral("evaluate"), f });
            QCOMPARE(e.code, 0);
            alone[f] = json::parse(e.out);
        }
        QVERIFY(alone[pair.etp1]["time"]["stepSeconds"] != alone[pair.etp2]["time"]["stepSeconds"]);
        for (const QStringList& order : { QStringList { pair.etp1, pair.etp2 }, QStringList { pair.etp2, pair.etp1 },
                 QStringList { pair.etp2, pair.etp1, pair.etp2 } }) {
            const test::CliRun r = test::runCli(QStringList { QStringLiteral("compare") } + order + QStringList { QStringLiteral("--json") });
            QCOMPARE(r.code, 0);
            const json j = json::parse(r.out);
            QCOMPARE(j["plans"].size(), std::size_t(order.size()));
            for (int i = 0; i < order.size(); ++i) {
                const json& got = j["plans"][std::size_t(i)]["prediction"];
                const json& want = alone[order[i]];
                QVERIFY2(got == want, json::diff(want, got).dump().substr(0, 600).c_str());
                // And the rows hold the same figures.
                for (const json& row : j["rows"]) {
                    const json* v = at(want, row["field"].get<std::string>());
                    if (v) QCOMPARE(row["values"][std::size_t(i)].get<double>(), v->get<double>());
                }
            }
        }
    }

    void invalidPlanAndArguments()
    {
        QTemporaryDir dir;
        std::ifstream in(sample(QStringLiteral("default.plan.json")).toStdString());
        json plan = json::parse(in);
        plan["parallel"]["tp"] = 3; // does not divide the heads
        const QString bad = dir.filePath(QStringLiteral("bad.plan.json"));
        std::ofstream(bad.toStdString()) << plan.dump();
        const test::CliRun r = test::runCli({ QStringLiteral("compare"), sample(QStringLiteral("default.plan.json")), bad,
            QStringLiteral("--json") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QVERIFY(!j["plans"][1]["prediction"]["valid"].get<bool>());
        for (const json& row : j["rows"]) {
            QVERIFY(row["values"][1].is_null());
            QCOMPARE(row["best"].get<int>(), 0);
        }
        const test::CliRun one = test::runCli({ QStringLiteral("compare"), sample(QStringLiteral("default.plan.json")) });
        QCOMPARE(one.code, 1);
        QVERIFY(one.err.find("usage") != std::string::npos);
        const test::CliRun missing = test::runCli({ QStringLiteral("compare"), sample(QStringLiteral("default.plan.json")),
            dir.filePath(QStringLiteral("none.plan.json")) });
        QCOMPARE(missing.code, 1);
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"
