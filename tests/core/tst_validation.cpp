// Every validation rule names the field it is about (docs/FORMATS.md section 1, docs/ARCHITECTURE.md section 5).
#include "TestUtil.h"

#include "sim/Timeline.h"
#include "spec/Validate.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {
// A valid GPT-style base: 16 x A100 (2 nodes), dp=2 tp=2 pp=4.
json basePlan()
{
    return json::parse(R"({
      "schema": "planscope/plan/v1", "name": "base",
      "model": { "layers": 32, "hidden": 4096, "heads": 32, "kvHeads": 8, "ffnHidden": 11008, "vocab": 32000,
                 "seqLength": 4096, "gatedMlp": true, "tiedEmbeddings": false, "norm": "rmsnorm", "bias": false,
                 "positionEmbedding": "rope", "dropout": false },
      "cluster": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpusPerNode": 8 },
      "parallel": { "dp": 2, "tp": 2, "pp": 4 },
      "training": { "microBatch": 1, "globalBatch": 64, "tokens": 1e12 }
    })");
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
} // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void baseIsValid()
    {
        const Plan plan = test::planFromText(basePlan().dump());
        const Issues issues = validate(plan);
        QVERIFY2(!hasErrors(issues), dump(issues).c_str());
        const Prediction p = evaluate(plan);
        QVERIFY(p.valid);
        QCOMPARE(p.microbatches, 32); // 64 / (1 * 2)
    }

    void errors_data()
    {
        QTest::addColumn<QString>("patch"); // JSON merge patch applied to the base plan
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("degrees do not multiply") << R"({"parallel": {"dp": 4}})" << "parallel" << "but the cluster has";
        QTest::newRow("tp does not divide heads") << R"({"model": {"heads": 30, "kvHeads": 30, "hidden": 3840}, "parallel": {"tp": 4, "dp": 1}})"
                                                  << "parallel.tp" << "attention heads";
        QTest::newRow("tp does not divide kv heads") << R"({"model": {"kvHeads": 2}, "parallel": {"tp": 4, "dp": 1}})"
                                                     << "parallel.tp" << "key/value heads";
        QTest::newRow("kv heads do not divide heads") << R"({"model": {"kvHeads": 5}})" << "model.kvHeads" << "must divide heads";
        QTest::newRow("layers not divisible by pp") << R"({"model": {"layers": 30}})" << "parallel.pp" << "not divisible";
        QTest::newRow("layers not divisible by pp*vpp")
            << R"({"parallel": {"vpp": 3}, "training": {"schedule": "interleaved-1f1b"}})" << "parallel.vpp" << "not divisible";
        QTest::newRow("batch not divisible") << R"({"training": {"globalBatch": 63}})" << "training.globalBatch"
                                             << "not divisible by microBatch*dp";
        QTest::newRow("interleaving needs m multiple of pp")
            << R"({"parallel": {"vpp": 2}, "training": {"schedule": "interleaved-1f1b", "globalBatch": 20}})"
            << "training.globalBatch" << "multiple of pp";
        QTest::newRow("cp does not divide sequence") << R"({"model": {"seqLength": 4095}, "parallel": {"cp": 2, "dp": 1}})"
                                                     << "parallel.cp" << "does not divide the sequence";
        QTest::newRow("ep without experts") << R"({"parallel": {"ep": 2}})" << "parallel.ep" << "needs a MoE model";
        QTest::newRow("ep does not divide experts")
            << R"({"model": {"moe": {"experts": 6, "topK": 2, "expertFfnHidden": 2048}}, "parallel": {"ep": 4, "dp": 2, "tp": 1, "pp": 8}})"
            << "parallel.ep" << "does not divide the 6 experts";
        QTest::newRow("ep does not divide dp*cp")
            << R"({"model": {"moe": {"experts": 8, "topK": 2, "expertFfnHidden": 2048}}, "parallel": {"ep": 4}})"
            << "parallel.ep" << "must divide dp*cp";
        QTest::newRow("bad order") << R"({"parallel": {"order": "tp-dp-pp"}})" << "parallel.order" << "missing";
        QTest::newRow("dualpipe odd pp") << R"({"parallel": {"pp": 1, "dp": 8}, "model": {"layers": 32}, "training": {"schedule": "dualpipe"}})"
                                         << "parallel.pp" << "even pp";
        QTest::newRow("dualpipe too few microbatches") << R"({"training": {"schedule": "dualpipe", "globalBatch": 8}})"
                                                       << "training.globalBatch" << "at least 2*pp";
        QTest::newRow("zb-h1 rounds") << R"({"training": {"schedule": "zb-h1", "globalBatch": 18}})" << "training.globalBatch"
                                      << "multiple of the number of rounds";
        QTest::newRow("zb-v vpp") << R"({"parallel": {"vpp": 4}, "training": {"schedule": "zb-v"}})" << "parallel.vpp"
                                  << "two chunks per rank";
        QTest::newRow("uneven stages do not add up")
            << R"({"parallel": {"firstStageLayers": 7, "lastStageLayers": 6}})" << "parallel.firstStageLayers"
            << "cannot be spread evenly";
        QTest::newRow("fp8 on A100") << R"({"training": {"precision": "fp8"}})" << "training.precision" << "no fp8";
        QTest::newRow("bf16 on V100") << R"({"cluster": {"gpu": "v100-sxm2-32gb"}})" << "training.precision" << "no bf16";
    }

    void errors()
    {
        QFETCH(QString, patch);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        json j = basePlan();
        j.merge_patch(json::parse(patch.toStdString()));
        auto loaded = parsePlan(j.dump());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.errors().front().message.c_str());
        const Issues issues = validate(loaded->plan);
        QVERIFY2(hasIssue(issues, Severity::Error, path.toStdString(), fragment.toStdString()), dump(issues).c_str());
        // evaluate() refuses it too, with the same error, and no numbers.
        const Prediction p = evaluate(loaded->plan);
        QVERIFY(!p.valid);
        QVERIFY(!p.errors.empty());
        QCOMPARE(p.stages.size(), std::size_t(0));
    }

    void warnings_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("zero-2 with pp (DeepSpeed refuses)") << R"({"parallel": {"zero": 2}})" << "parallel.zero"
                                                             << "DeepSpeed's pipeline engine refuses";
        QTest::newRow("zero-3 with pp") << R"({"parallel": {"zero": 3}})" << "parallel.zero" << "DeepSpeed";
        QTest::newRow("sp without tp") << R"({"parallel": {"sp": true, "tp": 1, "dp": 4}})" << "parallel.sp" << "no effect";
        QTest::newRow("1f1b with m < p") << R"({"training": {"globalBatch": 4}})" << "training.globalBatch" << "Schedule1F1B";
        QTest::newRow("tp wider than a node") << R"({"parallel": {"tp": 16, "dp": 1, "pp": 1}, "model": {"kvHeads": 16}})"
                                              << "parallel.tp" << "larger than a node";
    }

    void warnings()
    {
        QFETCH(QString, patch);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        json j = basePlan();
        j.merge_patch(json::parse(patch.toStdString()));
        const Plan plan = test::planFromText(j.dump());
        const Issues issues = validate(plan);
        QVERIFY2(!hasErrors(issues), dump(issues).c_str());
        QVERIFY2(hasIssue(issues, Severity::Warning, path.toStdString(), fragment.toStdString()), dump(issues).c_str());
    }

    void interleavedWithOneChunkIsPlain1F1B()
    {
        json j = basePlan();
        j.merge_patch(json::parse(R"({"training": {"schedule": "interleaved-1f1b", "globalBatch": 20}})"));
        const Plan interleaved = test::planFromText(j.dump());
        const Issues issues = validate(interleaved);
        QVERIFY2(!hasErrors(issues), dump(issues).c_str()); // m = 10 is not a multiple of pp: fine without interleaving
        QVERIFY(hasIssue(issues, Severity::Warning, "parallel.vpp", "plain 1F1B"));
        j["training"]["schedule"] = "1f1b";
        const Prediction a = evaluate(interleaved), b = evaluate(test::planFromText(j.dump()));
        QVERIFY(a.valid && b.valid);
        for (std::size_t r = 0; r < a.stages.size(); ++r)
            QCOMPARE(a.stages[r].inFlightMicrobatches, b.stages[r].inFlightMicrobatches);
        auto ta = simulate(interleaved, a);
        QVERIFY(ta.ok());
        QCOMPARE(ta->schedule.kind == ScheduleKind::OneFOneB, true);
    }

    void crossNodeTpTurnsUp()
    {
        // TP=16 on 8-GPU nodes: the TP group spans 2 nodes and evaluate() says so.
        json j = basePlan();
        j.merge_patch(json::parse(R"({"parallel": {"tp": 16, "dp": 1, "pp": 1}, "model": {"kvHeads": 16}})"));
        const Prediction p = evaluate(test::planFromText(j.dump()));
        QVERIFY(p.valid);
        bool found = false;
        for (const CommGroup& g : p.comm)
            if (g.kind == GroupKind::TP) {
                found = true;
                QVERIFY(g.crossesNodes);
                QCOMPARE(g.nodesSpanned, 2);
                QCOMPARE(g.perNode, 8);
            }
        QVERIFY(found);
    }

    void rankOrderDecidesWhoCrossesNodes()
    {
        // Same degrees, order dp first: the TP pair is no longer adjacent (stride dp = 4, still one node), but with
        // dp = 8 first, TP neighbours sit 8 ranks apart: on different nodes.
        json j = basePlan();
        j.merge_patch(json::parse(R"({"cluster": {"nodes": 4}, "parallel": {"dp": 8, "tp": 2, "pp": 2, "order": "dp-tp-cp-ep-pp"}, "training": {"globalBatch": 64}})"));
        const Prediction p = evaluate(test::planFromText(j.dump()));
        QVERIFY(p.valid);
        for (const CommGroup& g : p.comm) {
            if (g.kind == GroupKind::TP) QVERIFY(g.crossesNodes);
            if (g.kind == GroupKind::DPCP) QVERIFY(!g.crossesNodes);
        }
        j["parallel"]["order"] = "tp-cp-ep-dp-pp";
        const Prediction q = evaluate(test::planFromText(j.dump()));
        for (const CommGroup& g : q.comm) {
            if (g.kind == GroupKind::TP) QVERIFY(!g.crossesNodes);
            if (g.kind == GroupKind::DPCP) QVERIFY(g.crossesNodes); // dp 8 x tp 2 = 16 ranks: two nodes
        }
    }
};

QTEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
