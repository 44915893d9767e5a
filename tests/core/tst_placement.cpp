// Each group kind on the cluster's tiers (core/cost/Placement.h), against spans worked out by hand from the rank order
// (the order's first name varies fastest: Megatron-Core's RankGenerator) and the cluster's tiers: the default plan
// (Llama 2 7B, tp 2 x dp 2 x pp 4 on two 8-GPU nodes, order tp-cp-ep-dp-pp) and Llama 3 405B on 16,384 H100s (tp 8 x pp
// 16 x dp 128, order tp-cp-ep-pp-dp; DGX H100 pods of 32 nodes from the node preset). Also the pod field read and
// written, and a pod that splits NVLink domains warned about.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "cost/Placement.h"
#include "io/PlanJson.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;

namespace planscope::test {

const KindPlacement* row(const std::vector<KindPlacement>& rows, GroupKind kind)
{
    for (const KindPlacement& k : rows)
        if (k.kind == kind) return &k;
    return nullptr;
}

} // namespace planscope::test

using namespace planscope::test;

class TestPlacement : public QObject {
    Q_OBJECT
private slots:
    void defaultPlan()
    {
        const auto a = analyse(loadSample("default.plan.json"));
        QVERIFY(a->valid());
        const std::vector<KindPlacement> rows = placementOf(a->plan, a->prediction);
        QCOMPARE(rows.size(), std::size_t(3)); // tp, dp, pp (cp 1, no experts)
        // tp {2i, 2i+1}: 8 groups, each on one node.
        const KindPlacement* tp = row(rows, GroupKind::TP);
        QVERIFY(tp && tp->size == 2 && tp->groups == 8 && tp->nodes.most == 1 && tp->tier == LinkTier::NvLink && !tp->avoidable);
        // dp: ranks 2 apart inside a block of 4: on one node.
        const KindPlacement* dp = row(rows, GroupKind::DPCP);
        QVERIFY(dp && dp->size == 2 && dp->groups == 8 && dp->nodes.most == 1);
        // pp: ranks 4 apart, {0, 4, 8, 12}: nodes 0, 0, 1, 1, though 4 GPUs fit one node.
        const KindPlacement* pp = row(rows, GroupKind::PP);
        QVERIFY(pp && pp->size == 4 && pp->groups == 4);
        QCOMPARE(pp->nodes.most, 2);
        QCOMPARE(pp->nodes.fewest, 2);
        QCOMPARE(pp->nodes.needed, 1);
        QVERIFY(pp->tier == LinkTier::Network && pp->neededTier == LinkTier::NvLink && pp->avoidable);
        // No pod tier on this cluster: one pod.
        QCOMPARE(a->plan.cluster.podNodes, 0);
        QCOMPARE(pp->pods.most, 1);
        // Traffic: the prediction's group of each kind.
        double tpBytes = 0;
        for (const CommGroup& g : a->prediction.comm)
            if (g.kind == GroupKind::TP) tpBytes += g.bytesPerStep;
        QVERIFY(tpBytes > 0);
        QCOMPARE(tp->bytesPerStep, tpBytes);
    }

    void llama405bOnSixteenThousandGpus()
    {
        const auto a = analyse(loadSample("llama3-405b-16k-h100.plan.json"));
        QVERIFY(a->valid());
        QCOMPARE(a->plan.cluster.podNodes, 32); // the dgx-h100 preset: SUs of 32 DGX H100 systems
        const std::vector<KindPlacement> rows = placementOf(a->plan, a->prediction);
        const KindPlacement* tp = row(rows, GroupKind::TP);
        QVERIFY(tp && tp->groups == 2048 && tp->nodes.most == 1 && tp->tier == LinkTier::NvLink);
        // pp: ranks 8 apart, 16 stages = 128 GPUs = 16 nodes, inside one pod of 256 GPUs.
        const KindPlacement* pp = row(rows, GroupKind::PP);
        QVERIFY(pp && pp->groups == 1024);
        QCOMPARE(pp->nodes.most, 16);
        QCOMPARE(pp->nodes.needed, 2);
        QCOMPARE(pp->pods.most, 1);
        QVERIFY(pp->tier == LinkTier::Network && !pp->avoidable);
        // dp: ranks 128 apart, 128 members on 128 nodes, two in each of the 64 pods; 128 GPUs would fit 16 nodes of one pod.
        const KindPlacement* dp = row(rows, GroupKind::DPCP);
        QVERIFY(dp && dp->groups == 128);
        QCOMPARE(dp->nodes.most, 128);
        QCOMPARE(dp->nodes.needed, 16);
        QCOMPARE(dp->pods.most, 64);
        QCOMPARE(dp->pods.fewest, 64);
        QCOMPARE(dp->pods.needed, 1);
        QVERIFY(dp->tier == LinkTier::Spine && dp->neededTier == LinkTier::Network && dp->avoidable);
    }

    void thePodFieldReadsAndWrites()
    {
        nlohmann::json j = planToJson(loadSample("llama3-405b-16k-h100.plan.json"));
        QCOMPARE(j["cluster"]["podNodes"].get<int>(), 32);
        j["cluster"]["podNodes"] = 0; // not known: the cluster is one pod
        auto back = planFromJson(j);
        QVERIFY(back.ok());
        QCOMPARE(back->plan.cluster.podNodes, 0);
        QVERIFY(!planToJson(back->plan)["cluster"].contains("podNodes"));
        j["cluster"]["podNodes"] = -3;
        QVERIFY(!planFromJson(j).ok());
        // A GB200 NVL72 cluster whose pods of 100 trays split its 18-tray NVLink domains: a warning names the field.
        nlohmann::json g = { { "schema", "planscope/plan/v1" }, { "name", "gb200" }, { "model", { { "preset", "llama3-8b" } } },
            { "cluster", { { "gpu", "gb200" }, { "node", "gb200-nvl72" }, { "nodes", 36 }, { "podNodes", 100 } } },
            { "parallel", { { "dp", 144 } } }, { "training", { { "globalBatch", 1152 } } } };
        auto gb = analyse(planFromText(g.dump()));
        bool warned = false;
        for (const Issue& w : gb->prediction.warnings) warned |= w.path == "cluster.podNodes";
        QVERIFY(warned);
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "tst_placement.moc"
