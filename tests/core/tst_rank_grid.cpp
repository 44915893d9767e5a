// RankGrid: every rank's coordinates, node and groups. Small plans are written out by hand from the rank
// order (first name fastest, docs/ARCHITECTURE.md section 3); the crossing flags must equal RankLayout's and the
// prediction's for every sample plan, and a few ranks of the 16K-GPU Llama 3 plan are worked out by hand.
#include "TestUtil.h"

#include "cost/Evaluate.h"
#include "cost/RankGrid.h"
#include "cost/RankLayout.h"

#include <QDir>
#include <QObject>
#include <set>

using namespace planscope;

Q_DECLARE_METATYPE(planscope::RankCoords)

namespace {

Plan smallPlan(int tp, int cp, int dp, int pp, int ep, const std::string& order, int gpusPerNode)
{
    Plan plan;
    plan.parallel.tp = tp;
    plan.parallel.cp = cp;
    plan.parallel.dp = dp;
    plan.parallel.pp = pp;
    plan.parallel.ep = ep;
    plan.parallel.order = order;
    plan.cluster.gpusPerNode = gpusPerNode;
    plan.cluster.nodes = tp * cp * dp * pp / gpusPerNode;
    return plan;
}

RankCoords rc(int rank, int tp, int cp, int dp, int pp, int ep, int edp, int node, int local)
{
    RankCoords c;
    c.rank = rank;
    c.tp = tp;
    c.cp = cp;
    c.dp = dp;
    c.pp = pp;
    c.ep = ep;
    c.expertDp = edp;
    c.node = node;
    c.localGpu = local;
    return c;
}

const GroupPlacement& layoutPlacement(const RankLayout& l, GroupKind kind)
{
    switch (kind) {
    case GroupKind::TP:
        return l.tp;
    case GroupKind::CP:
        return l.cp;
    case GroupKind::DPCP:
        return l.dpCp;
    case GroupKind::PP:
        return l.pp;
    case GroupKind::EP:
        return l.ep;
    case GroupKind::ExpertDP:
        return l.expertDp;
    }
    return l.tp;
}

QStringList samplePlans()
{
    return QDir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans"))
        .entryList({ QStringLiteral("*.plan.json") }, QDir::Files, QDir::Name);
}

} // namespace

class TestRankGrid : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // tp=2 cp=2 dp=2 pp=2 ep=2 on 4-GPU nodes, default order tp-cp-ep-dp-pp: strides tp 1, cp 2, dp 4, pp 8.
    // dp*cp index = cp + 2*dp (cp varies faster); ep = that index % 2, expert-dp = index / 2.
    void coordinatesDefaultOrder_data()
    {
        QTest::addColumn<RankCoords>("expected");
        QTest::newRow("0") << rc(0, 0, 0, 0, 0, 0, 0, 0, 0);
        QTest::newRow("1") << rc(1, 1, 0, 0, 0, 0, 0, 0, 1);
        QTest::newRow("2") << rc(2, 0, 1, 0, 0, 1, 0, 0, 2);
        QTest::newRow("5") << rc(5, 1, 0, 1, 0, 0, 1, 1, 1);
        QTest::newRow("7") << rc(7, 1, 1, 1, 0, 1, 1, 1, 3);
        QTest::newRow("13") << rc(13, 1, 0, 1, 1, 0, 1, 3, 1);
        QTest::newRow("14") << rc(14, 0, 1, 1, 1, 1, 1, 3, 2);
    }
    void coordinatesDefaultOrder()
    {
        QFETCH(RankCoords, expected);
        const RankGrid grid(smallPlan(2, 2, 2, 2, 2, "tp-cp-ep-dp-pp", 4));
        QCOMPARE(grid.gpus(), 16LL);
        QCOMPARE(grid.nodes(), 4LL);
        QCOMPARE(grid.coords(expected.rank), expected);
        QCOMPARE(grid.rankAt(expected.tp, expected.cp, expected.dp, expected.pp), expected.rank);
    }

    // The same degrees in the order dp-pp-tp-cp: strides dp 1, pp 2, tp 4, cp 8; dp now varies faster than
    // cp, so the dp*cp index is dp + 2*cp.
    void coordinatesOtherOrder_data()
    {
        QTest::addColumn<RankCoords>("expected");
        QTest::newRow("0") << rc(0, 0, 0, 0, 0, 0, 0, 0, 0);
        QTest::newRow("1") << rc(1, 0, 0, 1, 0, 1, 0, 0, 1);
        QTest::newRow("2") << rc(2, 0, 0, 0, 1, 0, 0, 0, 2);
        QTest::newRow("4") << rc(4, 1, 0, 0, 0, 0, 0, 1, 0);
        QTest::newRow("9") << rc(9, 0, 1, 1, 0, 1, 1, 2, 1);
        QTest::newRow("13") << rc(13, 1, 1, 1, 0, 1, 1, 3, 1);
        QTest::newRow("14") << rc(14, 1, 1, 0, 1, 0, 1, 3, 2);
    }
    void coordinatesOtherOrder()
    {
        QFETCH(RankCoords, expected);
        const RankGrid grid(smallPlan(2, 2, 2, 2, 2, "dp-pp-tp-cp", 4));
        QCOMPARE(grid.coords(expected.rank), expected);
        QCOMPARE(grid.rankAt(expected.tp, expected.cp, expected.dp, expected.pp), expected.rank);
    }

    void members()
    {
        const RankGrid a(smallPlan(2, 2, 2, 2, 2, "tp-cp-ep-dp-pp", 4));
        // Rank 13 = tp 1 + dp 1 (4) + pp 1 (8).
        QCOMPARE(a.members(GroupKind::TP, 13), (std::vector<int> { 12, 13 }));
        QCOMPARE(a.members(GroupKind::CP, 13), (std::vector<int> { 13, 15 }));
        QCOMPARE(a.members(GroupKind::DPCP, 13), (std::vector<int> { 9, 11, 13, 15 }));
        QCOMPARE(a.members(GroupKind::PP, 13), (std::vector<int> { 5, 13 }));
        QCOMPARE(a.members(GroupKind::EP, 13), (std::vector<int> { 13, 15 }));
        QCOMPARE(a.members(GroupKind::ExpertDP, 13), (std::vector<int> { 9, 13 }));
        QCOMPARE(a.indexInGroup(GroupKind::DPCP, 13), 2);

        const RankGrid b(smallPlan(2, 2, 2, 2, 2, "dp-pp-tp-cp", 4));
        // Rank 13 = dp 1 + tp 1 (4) + cp 1 (8).
        QCOMPARE(b.members(GroupKind::TP, 13), (std::vector<int> { 9, 13 }));
        QCOMPARE(b.members(GroupKind::CP, 13), (std::vector<int> { 5, 13 }));
        QCOMPARE(b.members(GroupKind::DPCP, 13), (std::vector<int> { 4, 5, 12, 13 }));
        QCOMPARE(b.members(GroupKind::PP, 13), (std::vector<int> { 13, 15 }));
        QCOMPARE(b.members(GroupKind::EP, 13), (std::vector<int> { 12, 13 }));
        QCOMPARE(b.members(GroupKind::ExpertDP, 13), (std::vector<int> { 5, 13 }));
        // On 4-GPU nodes the TP pair 9, 13 spans nodes 2 and 3.
        QVERIFY(b.placement(GroupKind::TP, 13).crossesNodes);
        QCOMPARE(b.placement(GroupKind::TP, 13).nodesSpanned, 2);
        QVERIFY(!b.placement(GroupKind::PP, 13).crossesNodes);

        // Every rank is in exactly one group of each kind, and its own group holds it at its index.
        for (GroupKind kind : kGroupKinds) {
            std::multiset<int> seen;
            for (int r = 0; r < 16; ++r) {
                const std::vector<int> m = a.members(kind, r);
                QCOMPARE(int(m.size()), a.size(kind));
                QCOMPARE(m[std::size_t(a.indexInGroup(kind, r))], r);
                if (a.indexInGroup(kind, r) == 0) seen.insert(m.begin(), m.end());
            }
            QCOMPARE(int(seen.size()), 16);
            QCOMPARE(int(std::set<int>(seen.begin(), seen.end()).size()), 16);
        }
    }

    // A plan whose TP group of 16 does not fit an 8-GPU node.
    void crossNodeTp()
    {
        const RankGrid grid(smallPlan(16, 1, 2, 2, 1, "tp-cp-ep-dp-pp", 8));
        QCOMPARE(grid.members(GroupKind::TP, 20).front(), 16);
        QCOMPARE(grid.members(GroupKind::TP, 20).back(), 31);
        QVERIFY(grid.placement(GroupKind::TP).crossesNodes);
        QCOMPARE(grid.placement(GroupKind::TP).nodesSpanned, 2);
        QCOMPARE(grid.placement(GroupKind::TP).perNode, 8);
        QCOMPARE(grid.maxNodesSpanned(GroupKind::TP), 2);
        QVERIFY(grid.anyGroupCrossesNodes(GroupKind::TP));
        const GroupPlacement layoutTp = rankLayout(smallPlan(16, 1, 2, 2, 1, "tp-cp-ep-dp-pp", 8)).tp;
        QCOMPARE(layoutTp.nodesSpanned, 2);
        QVERIFY(layoutTp.crossesNodes);
    }

    // Rank 0's groups, counted from RankGrid's members, equal RankLayout's placements.
    void agreesWithRankLayout_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("cp");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<QString>("order");
        QTest::addColumn<int>("perNode");
        QTest::newRow("megatron 8x4x4") << 8 << 1 << 4 << 4 << 1 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("tp16 on 8") << 16 << 1 << 2 << 4 << 1 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("tp4 cp4") << 4 << 4 << 2 << 2 << 1 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("moe ep8") << 2 << 1 << 16 << 2 << 8 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("moe cp ep") << 2 << 2 << 8 << 2 << 4 << QStringLiteral("tp-cp-ep-dp-pp") << 4;
        QTest::newRow("pp fast") << 2 << 1 << 4 << 4 << 1 << QStringLiteral("pp-tp-cp-dp") << 8;
        QTest::newRow("dp before cp") << 2 << 2 << 4 << 2 << 2 << QStringLiteral("tp-dp-cp-pp") << 8;
        QTest::newRow("llama order") << 8 << 1 << 8 << 4 << 1 << QStringLiteral("tp-cp-ep-pp-dp") << 8;
        QTest::newRow("tp3 odd") << 3 << 1 << 4 << 2 << 1 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("16 per node") << 4 << 2 << 8 << 2 << 4 << QStringLiteral("tp-cp-ep-dp-pp") << 16;
    }
    void agreesWithRankLayout()
    {
        QFETCH(int, tp);
        QFETCH(int, cp);
        QFETCH(int, dp);
        QFETCH(int, pp);
        QFETCH(int, ep);
        QFETCH(QString, order);
        QFETCH(int, perNode);
        const Plan plan = smallPlan(tp, cp, dp, pp, ep, order.toStdString(), perNode);
        const RankGrid grid(plan);
        const RankLayout layout = rankLayout(plan);
        for (GroupKind kind : kGroupKinds) {
            const GroupPlacement mine = grid.placement(kind);
            const GroupPlacement& theirs = layoutPlacement(layout, kind);
            const QByteArray what = QByteArray(toString(kind).data(), qsizetype(toString(kind).size()));
            QVERIFY2(mine.size == theirs.size, what.constData());
            QVERIFY2(mine.nodesSpanned == theirs.nodesSpanned, what.constData());
            QVERIFY2(mine.perNode == theirs.perNode, what.constData());
            QVERIFY2(mine.crossesNodes == theirs.crossesNodes, what.constData());
            // RankLayout's stride is its innermost dimension's; for one dimension that is the neighbours'
            // distance.
            if (mine.size > 1 && (kind == GroupKind::TP || kind == GroupKind::CP || kind == GroupKind::PP))
                QVERIFY2(mine.stride == theirs.stride, what.constData());
        }
    }

    void samplePlansAgree_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : samplePlans())
            QTest::newRow(qPrintable(f)) << f;
    }
    void samplePlansAgree()
    {
        QFETCH(QString, file);
        const Plan plan = test::loadSample(file.toUtf8().constData());
        const RankGrid grid(plan);
        const RankLayout layout = rankLayout(plan);
        QCOMPARE(grid.gpus(), 1LL * plan.cluster.gpus());
        for (GroupKind kind : kGroupKinds) {
            const GroupPlacement mine = grid.placement(kind);
            const GroupPlacement& theirs = layoutPlacement(layout, kind);
            QCOMPARE(mine.crossesNodes, theirs.crossesNodes);
            QCOMPARE(mine.nodesSpanned, theirs.nodesSpanned);
            QCOMPARE(mine.perNode, theirs.perNode);
        }
        // The prediction's communication groups cross nodes exactly where the grid says so.
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        for (const CommGroup& g : pr.comm) {
            GroupKind kind = GroupKind::TP;
            if (g.kind == "tp")
                kind = GroupKind::TP;
            else if (g.kind == "cp")
                kind = GroupKind::CP;
            else if (g.kind == "dp")
                kind = GroupKind::DPCP;
            else if (g.kind == "pp")
                kind = GroupKind::PP;
            else if (g.kind == "ep")
                kind = GroupKind::EP;
            else
                QFAIL(g.kind.c_str());
            QCOMPARE(grid.size(kind), g.size);
            QVERIFY2(grid.placement(kind).crossesNodes == g.crossesNodes, g.kind.c_str());
            QVERIFY2(grid.anyGroupCrossesNodes(kind) == g.crossesNodes, g.kind.c_str());
        }
    }

    // Llama 3 405B on 16,384 H100s: tp 8, pp 16, dp 128 in the order tp-cp-ep-pp-dp, 8 GPUs a node.
    // Strides: tp 1, pp 8, dp 128. Rank r: tp = r % 8, pp = (r / 8) % 16, dp = r / 128, node = r / 8.
    void llama16k()
    {
        const Plan plan = test::loadSample("llama3-405b-16k-h100.plan.json");
        const RankGrid grid(plan);
        QCOMPARE(grid.gpus(), 16384LL);
        QCOMPARE(grid.nodes(), 2048LL);
        // 12345 = 96*128 + 57; 57 = 7*8 + 1.
        QCOMPARE(grid.coords(12345), rc(12345, 1, 0, 96, 7, 0, 96, 1543, 1));
        // 1000 = 7*128 + 104; 104 = 13*8.
        QCOMPARE(grid.coords(1000), rc(1000, 0, 0, 7, 13, 0, 7, 125, 0));
        QCOMPARE(grid.coords(16383), rc(16383, 7, 0, 127, 15, 0, 127, 2047, 7));
        QCOMPARE(grid.rankAt(1, 0, 96, 7), 12345);
        // Its TP group is its node; its pipeline is 16 consecutive nodes; its DP group one GPU every 128.
        const std::vector<int> tpGroup = grid.members(GroupKind::TP, 12345);
        QCOMPARE(tpGroup.front(), 12344);
        QCOMPARE(tpGroup.back(), 12351);
        const std::vector<int> pipeline = grid.members(GroupKind::PP, 12345);
        QCOMPARE(pipeline.front(), 12289);
        QCOMPARE(pipeline.back(), 12289 + 15 * 8);
        const std::vector<int> dpGroup = grid.members(GroupKind::DPCP, 12345);
        QCOMPARE(int(dpGroup.size()), 128);
        QCOMPARE(dpGroup[0], 57);
        QCOMPARE(dpGroup[127], 57 + 127 * 128);
        QVERIFY(!grid.anyGroupCrossesNodes(GroupKind::TP));
        QCOMPARE(grid.placement(GroupKind::DPCP).nodesSpanned, 128);
        QCOMPARE(grid.placement(GroupKind::PP).nodesSpanned, 16);
    }
};

QTEST_GUILESS_MAIN(TestRankGrid)
#include "tst_rank_grid.moc"
