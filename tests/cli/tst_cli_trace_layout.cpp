// planscope-cli import --infer-plan: the layout the traces' process groups imply, printed and in --json's
// "inferredPlan", over a base plan and written with --out (docs/TRACES.md, "The plan the traces imply"). The traces
// are tests/data/process-groups (README.md there); each expected value is worked out from the layout they were written
// with (tests/core/tst_layout_inference.cpp has the same by hand).
#include "CliRunner.h"

#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace planscope::test;
using nlohmann::json;

namespace {
QString data(const char* name) { return QString::fromUtf8(PLANSCOPE_SOURCE_DIR) + "/tests/data/process-groups/" + name; }
QString sample(const char* path) { return QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/" + path; }

json parsed(const CliRun& r)
{
    const json j = json::parse(r.out, nullptr, false);
    if (j.is_discarded()) QTest::qFail(("not JSON: " + r.out.substr(0, 200)).c_str(), __FILE__, __LINE__);
    return j;
}
} // namespace

class TestCliTraceLayout : public QObject {
    Q_OBJECT
private slots:
    // 8 ranks, tp 2 x pp 2 x dp 2 in the default order: every field, with its basis and evidence.
    void inferredPlanInJson()
    {
        const CliRun r = runCli({ "import", data("megatron-tp2-pp2-dp2"), "--json" });
        QCOMPARE(r.code, 0);
        const json j = parsed(r);
        const json& ip = j.at("inferredPlan");
        QCOMPARE(ip.at("worldSize").get<int>(), 8);
        const json& f = ip.at("fields");
        for (const auto& [field, value] : { std::pair { "gpus", 8 }, { "tp", 2 }, { "pp", 2 }, { "dp", 2 }, { "cp", 1 },
                 { "ep", 1 }, { "etp", 2 } })
            QVERIFY2(f.at(field).at("value").get<int>() == value, field);
        QCOMPARE(f.at("order").at("value").get<std::string>(), std::string("tp-cp-ep-dp-pp"));
        QCOMPARE(f.at("order").at("basis").get<std::string>(), std::string("strides"));
        QCOMPARE(f.at("order").at("from").get<std::string>(), std::string("the strides of the groups: tp 1; dp 2; pp 4"));
        QCOMPARE(f.at("tp").at("basis").get<std::string>(), std::string("named"));
        QCOMPARE(f.at("tp").at("from").get<std::string>(), std::string("TENSOR_MODEL_PARALLEL_GROUP: groups of 2 (4 recorded)"));
        QCOMPARE(f.at("gpus").at("basis").get<std::string>(), std::string("recorded"));
        QVERIFY(ip.at("notInferred").empty());
        QVERIFY(ip.at("issues").empty());
        QVERIFY(ip.at("plan").is_null()); // no base plan
        // The distinct groups: 4 tensor groups of 2, the first [0, 1], recorded by ranks 0 and 1.
        int tensorGroups = 0;
        for (const json& g : ip.at("groups"))
            if (g.at("role") == "tp") {
                if (tensorGroups++ == 0) {
                    QVERIFY(g.at("members") == json({ 0, 1 }));
                    QCOMPARE(g.at("stride").get<int>(), 1);
                    QCOMPARE(g.at("traces").get<int>(), 2);
                    QCOMPARE(g.at("desc").get<std::string>(), std::string("TENSOR_MODEL_PARALLEL_GROUP"));
                }
            }
        QCOMPARE(tensorGroups, 4);
        // Each rank's records: rank 0's 20 groups, the default group first.
        const json& pg = j.at("ranks")[0].at("processGroups");
        QCOMPARE(pg.size(), std::size_t(20));
        QVERIFY(pg[0] == json({ { "name", "0" }, { "desc", "default_pg" }, { "backend", "cuda:nccl" }, { "size", 8 },
                            { "ranksListed", 8 }, { "ranksComplete", true }, { "source", "pg_config" } }));
        QVERIFY(j.at("ranks")[0].at("processGroupIssues").empty());
    }

    // The layout over a base plan, written with --out; the printed table names each field and its evidence.
    void writtenOverABasePlan()
    {
        QTemporaryDir dir;
        const QString outPath = dir.filePath(QStringLiteral("inferred.plan.json"));
        const CliRun r = runCli({ "import", data("megatron-tp2-cp2-pp2-dp2-ep2-ppfirst"), "--infer-plan", "--base",
            sample("plans/default.plan.json"), "--out", outPath });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.find("planscope-cli: wrote " + outPath.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY2(r.out.find("layout from the process groups (world of 16 ranks):\n") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("  tp     2                TENSOR_MODEL_PARALLEL_GROUP: groups of 2 (8 recorded)\n") != std::string::npos,
            r.out.c_str());
        QVERIFY2(r.out.find("  order  tp-cp-ep-pp-dp   the strides of the groups: tp 1; cp 2; pp 4; dp 8; etp 1; ep 2; pp 4; edp 8\n")
                != std::string::npos,
            r.out.c_str());
        QVERIFY(r.out.find("not inferred") == std::string::npos);
        std::ifstream in(outPath.toStdString());
        std::stringstream text;
        text << in.rdbuf();
        const json plan = json::parse(text.str(), nullptr, false);
        QVERIFY(plan.is_object());
        const json& p = plan.at("parallel");
        for (const auto& [field, value] : { std::pair { "tp", 2 }, { "pp", 2 }, { "dp", 2 }, { "cp", 2 }, { "ep", 2 }, { "etp", 2 } })
            QVERIFY2(p.at(field).get<int>() == value, field);
        QCOMPARE(p.at("order").get<std::string>(), std::string("tp-cp-ep-pp-dp"));
        // 16 ranks on the base's nodes of 8 GPUs: 2 nodes; the base's name marked.
        QCOMPARE(plan.at("cluster").at("nodes").get<int>(), 2);
        QCOMPARE(plan.at("cluster").at("gpusPerNode").get<int>(), 8);
        std::ifstream baseIn(sample("plans/default.plan.json").toStdString());
        const json base = json::parse(baseIn);
        QCOMPARE(plan.at("name").get<std::string>(), base.at("name").get<std::string>() + " (layout from traces)");

        // --json with the base: the same plan in inferredPlan.plan.
        const CliRun j = runCli({ "import", data("megatron-tp2-cp2-pp2-dp2-ep2-ppfirst"), "--base", sample("plans/default.plan.json"),
            "--json" });
        QCOMPARE(j.code, 0);
        QCOMPARE(parsed(j).at("inferredPlan").at("plan").at("parallel").at("order").get<std::string>(), std::string("tp-cp-ep-pp-dp"));
    }

    // What cannot be inferred says why; records that contradict each other are named.
    void notInferredAndIssues()
    {
        const CliRun ddp = runCli({ "import", data("default-pg-only"), "--infer-plan" });
        QCOMPARE(ddp.code, 0);
        QVERIFY2(ddp.out.find("  gpus   2                distributedInfo.world_size (2 of 2 traces)\n") != std::string::npos, ddp.out.c_str());
        QVERIFY2(ddp.out.find("  not inferred: tp (only the default group (default_pg) is recorded: the run made no subgroups, so one "
                              "dimension spans all 2 ranks, and the records do not say which)\n")
                != std::string::npos,
            ddp.out.c_str());
        QVERIFY(ddp.out.find("  not inferred: order (it needs the degrees of tp, pp, dp and cp)\n") != std::string::npos);

        const CliRun bad = runCli({ "import", data("inconsistent"), "--json" });
        QCOMPARE(bad.code, 0);
        const json ip = parsed(bad).at("inferredPlan");
        QCOMPARE(ip.at("fields").size(), std::size_t(1)); // gpus
        QVERIFY(ip.at("issues").back() == "tp 2 x pp 4 x dp 2 = 16, which does not divide the world of 4 ranks");
        QCOMPARE(ip.at("issues").size(), std::size_t(6));
        QVERIFY(ip.at("notInferred")[0] == json({ { "field", "tp" }, { "reason", "its groups disagree with each other or with the world size" } }));
    }

    // The sample traces import as before, with their process groups added: nccl_data.json.gz has the default group
    // [0, 1]; the sampled ranks none, so nothing beyond their world size is inferred.
    void sampleTracesStillImport()
    {
        const CliRun r = runCli({ "import", sample("traces/nccl_data.json.gz"), "--json" });
        QCOMPARE(r.code, 0);
        const json j = parsed(r);
        QCOMPARE(j.at("ranks")[0].at("events").get<std::int64_t>(), std::int64_t(40573));
        const json defaultGroup = { { "name", "0" }, { "desc", "default_pg" }, { "backend", "cuda:nccl" }, { "size", 2 },
            { "ranksListed", 2 }, { "ranksComplete", true }, { "source", "pg_config" } };
        QVERIFY(j.at("ranks")[0].at("processGroups") == json::array({ defaultGroup }));
        const json gpus = { { "value", 2 }, { "basis", "recorded" }, { "from", "distributedInfo.world_size (1 of 1 traces)" } };
        QVERIFY(j.at("inferredPlan").at("fields") == json({ { "gpus", gpus } }));

        const CliRun s = runCli({ "import", sample("traces/sampled_rank-0.json.gz"), sample("traces/sampled_rank-1.json.gz"), "--json" });
        QCOMPARE(s.code, 0);
        const json sj = parsed(s);
        QVERIFY(sj.at("ranks")[0].at("processGroups").empty());
        QCOMPARE(sj.at("inferredPlan").at("notInferred")[0].at("reason").get<std::string>(),
            std::string("no process group is recorded (distributedInfo.pg_config, or the Process Group args of NCCL events)"));
        // Without --infer-plan the printed output has no layout section.
        const CliRun table = runCli({ "import", sample("traces/nccl_data.json.gz") });
        QCOMPARE(table.code, 0);
        QVERIFY(table.out.find("layout from the process groups") == std::string::npos);
    }

    // --out needs a base plan (a trace records no model); a plan that implies nothing is not written.
    void outNeedsABaseAndAField()
    {
        QTemporaryDir dir;
        const QString outPath = dir.filePath(QStringLiteral("x.plan.json"));
        const CliRun noBase = runCli({ "import", data("megatron-tp2-pp2-dp2"), "--out", outPath });
        QCOMPARE(noBase.code, 1);
        QVERIFY2(noBase.err.find("--out needs a base plan") != std::string::npos, noBase.err.c_str());
        QVERIFY(!QFile::exists(outPath));

        const CliRun nothing = runCli({ "import", sample("traces/df_index_resolver.json.gz"), "--base",
            sample("plans/default.plan.json"), "--out", outPath });
        // df_index_resolver.json.gz records world_size 2: the world alone is a field, so the plan is written.
        QCOMPARE(nothing.code, 0);
        QVERIFY(QFile::exists(outPath));
        std::ifstream in(outPath.toStdString());
        const json plan = json::parse(in);
        QCOMPARE(plan.at("cluster").at("nodes").get<int>(), 1);
        QCOMPARE(plan.at("cluster").at("gpusPerNode").get<int>(), 2);
    }
};

QTEST_APPLESS_MAIN(TestCliTraceLayout)
#include "tst_cli_trace_layout.moc"
