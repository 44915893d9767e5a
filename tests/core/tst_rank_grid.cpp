// RankGrid: every rank's coordinates, node and groups. Small plans are written out by hand from the rank
// order (first name fastest, docs/ARCHITECTURE.md section 3); the crossing flags must equal RankLayout's and the
// prediction's for every sample plan, and a few ranks of the 16K-GPU Llama 3 plan are worked out by hand.
#include "TestUtil.h"

#include "cost/Evaluate.h"
#include "cost/RankGrid.h"
#include "cost/RankLayout.h"
#include "spec/Validate.h"

#include <QDir>
#include <QObject>
#include <map>
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

// The worst group of `kind` counted by brute force: every group's members from RankGrid, every node they
// touch (most nodes spanned; among those, the fewest members on the fullest node).
GroupPlacement bruteWorst(const RankGrid& grid, GroupKind kind)
{
    GroupPlacement worst;
    worst.size = grid.size(kind);
    worst.perNode = worst.size;
    if (worst.size <= 1) {
        worst.perNode = 1;
        return worst;
    }
    for (long long r = 0; r < grid.gpus(); ++r) {
        const std::vector<int> m = grid.members(kind, int(r));
        if (m.front() != r) continue; // each group once, from its lowest rank
        std::map<int, int> perNode;
        for (int x : m) ++perNode[x / grid.gpusPerNode()];
        int fullest = 0;
        for (auto [node, count] : perNode) fullest = std::max(fullest, count);
        const int nodes = int(perNode.size());
        if (nodes > worst.nodesSpanned || (nodes == worst.nodesSpanned && fullest < worst.perNode)) {
            worst.nodesSpanned = nodes;
            worst.perNode = fullest;
        }
    }
    worst.crossesNodes = worst.nodesSpanned > 1;
    return worst;
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

    // RankLayout's placement of each kind is the worst of every group of that kind, counted by brute force
    // from RankGrid's members (the arithmetic in RankLayout never enumerates the ranks).
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
        QTest::newRow("tp5") << 5 << 1 << 8 << 1 << 1 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("tp6 pp2") << 6 << 1 << 2 << 2 << 1 << QStringLiteral("tp-cp-ep-dp-pp") << 8;
        QTest::newRow("tp3 cp apart") << 3 << 2 << 4 << 1 << 2 << QStringLiteral("tp-dp-pp-cp") << 8;
        QTest::newRow("cp3 ep2 (no translation)") << 1 << 3 << 4 << 2 << 2 << QStringLiteral("tp-cp-pp-dp") << 8;
        QTest::newRow("cp3 ep4 (no translation)") << 2 << 3 << 4 << 1 << 4 << QStringLiteral("cp-tp-dp-pp") << 8;
        QTest::newRow("dp6 cp2 ep3") << 1 << 2 << 6 << 2 << 3 << QStringLiteral("tp-dp-cp-pp") << 8;
        QTest::newRow("pp7 on 8") << 1 << 1 << 8 << 7 << 1 << QStringLiteral("pp-tp-cp-dp") << 8;
        QTest::newRow("72 per node") << 3 << 2 << 12 << 2 << 6 << QStringLiteral("tp-cp-ep-dp-pp") << 72;
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
            const GroupPlacement mine = bruteWorst(grid, kind);
            const GroupPlacement& theirs = layoutPlacement(layout, kind);
            const QByteArray what = QByteArray(toString(kind).data(), qsizetype(toString(kind).size())) + " nodes "
                + QByteArray::number(theirs.nodesSpanned) + " vs " + QByteArray::number(mine.nodesSpanned) + ", per node "
                + QByteArray::number(theirs.perNode) + " vs " + QByteArray::number(mine.perNode);
            QVERIFY2(mine.size == theirs.size, what.constData());
            QVERIFY2(mine.nodesSpanned == theirs.nodesSpanned, what.constData());
            QVERIFY2(mine.perNode == theirs.perNode, what.constData());
            QVERIFY2(mine.crossesNodes == theirs.crossesNodes, what.constData());
            QVERIFY2(grid.anyGroupCrossesNodes(kind) == mine.crossesNodes, what.constData());
            QVERIFY2(grid.maxNodesSpanned(kind) == mine.nodesSpanned, what.constData());
            // RankLayout's stride is its innermost dimension's; for one dimension that is the neighbours'
            // distance.
            if (mine.size > 1 && (kind == GroupKind::TP || kind == GroupKind::CP || kind == GroupKind::PP))
                QVERIFY2(grid.placement(kind).stride == theirs.stride, what.constData());
        }
        QCOMPARE(layout.ppNeighboursCrossNodes, bruteWorst(grid, GroupKind::PP).crossesNodes);
    }

    // tp = 3, 5, 6 on 8-GPU nodes (validation allows them when the heads divide): rank 0's TP group stays in
    // node 0, others straddle a node boundary. The TP groups and their nodes are written out by hand; the
    // cost model, the grid and validation must all report the straddling ones.
    void oddTpAgainstHandMadeTable_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<QList<QList<int>>>("groups"); // every TP group, in rank order
        QTest::addColumn<int>("nodesSpanned");
        QTest::addColumn<int>("perNode");
        // 24 GPUs, nodes 0-7 | 8-15 | 16-23: {6,7,8} is 2+1, {15,16,17} 1+2.
        QTest::newRow("tp3 dp8") << 3 << 8 << 1
                                 << QList<QList<int>> { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 9, 10, 11 }, { 12, 13, 14 },
                                        { 15, 16, 17 }, { 18, 19, 20 }, { 21, 22, 23 } }
                                 << 2 << 2;
        // 40 GPUs, 5 nodes: {5..9} is 3+2, {15..19} 1+4, {20..24} 4+1, {30..34} 2+3: the worst keeps 3 on its
        // fullest node (more of the group's traffic leaves the node than with 4).
        QTest::newRow("tp5 dp8") << 5 << 8 << 1
                                 << QList<QList<int>> { { 0, 1, 2, 3, 4 }, { 5, 6, 7, 8, 9 }, { 10, 11, 12, 13, 14 },
                                        { 15, 16, 17, 18, 19 }, { 20, 21, 22, 23, 24 }, { 25, 26, 27, 28, 29 },
                                        { 30, 31, 32, 33, 34 }, { 35, 36, 37, 38, 39 } }
                                 << 2 << 3;
        // 24 GPUs as tp 6 x dp 2 x pp 2: {6..11} is 2+4, {12..17} 4+2.
        QTest::newRow("tp6 dp2 pp2") << 6 << 2 << 2
                                     << QList<QList<int>> { { 0, 1, 2, 3, 4, 5 }, { 6, 7, 8, 9, 10, 11 },
                                            { 12, 13, 14, 15, 16, 17 }, { 18, 19, 20, 21, 22, 23 } }
                                     << 2 << 4;
    }
    void oddTpAgainstHandMadeTable()
    {
        QFETCH(int, tp);
        QFETCH(int, dp);
        QFETCH(int, pp);
        QFETCH(QList<QList<int>>, groups);
        QFETCH(int, nodesSpanned);
        QFETCH(int, perNode);
        const int gpus = tp * dp * pp;
        nlohmann::json j = {
            { "schema", "planscope/plan/v1" },
            { "model", test::gptModel(4, 1920, 30, 32000, 1024) }, // 30 heads: tp 3, 5 and 6 divide them
            { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", gpus / 8 }, { "gpusPerNode", 8 } } },
            { "parallel", { { "dp", dp }, { "tp", tp }, { "pp", pp }, { "order", "tp-cp-ep-dp-pp" } } },
            { "training", { { "microBatch", 1 }, { "globalBatch", 8 * dp }, { "tokens", 1e9 } } },
        };
        const Plan plan = test::planFromText(j.dump());
        // The grid's TP groups are the table's.
        const RankGrid grid(plan);
        QList<QList<int>> mine;
        for (int r = 0; r < gpus; ++r) {
            const std::vector<int> m = grid.members(GroupKind::TP, r);
            if (m.front() == r) mine.push_back(QList<int>(m.begin(), m.end()));
        }
        QCOMPARE(mine, groups);
        // Rank 0's group is inside node 0: judging by it alone would miss the crossing.
        QVERIFY(!grid.placement(GroupKind::TP, 0).crossesNodes);
        // Worst over the table, by hand: nodes spanned and the fullest node of the crossing groups.
        QVERIFY(grid.anyGroupCrossesNodes(GroupKind::TP));
        QCOMPARE(grid.maxNodesSpanned(GroupKind::TP), nodesSpanned);
        QCOMPARE(grid.worstPlacement(GroupKind::TP).perNode, perNode);
        const RankLayout layout = rankLayout(plan);
        QVERIFY(layout.tp.crossesNodes);
        QCOMPARE(layout.tp.nodesSpanned, nodesSpanned);
        QCOMPARE(layout.tp.perNode, perNode);
        // The cost model prices the TP group as crossing, with the same placement.
        const Prediction p = evaluate(plan);
        QVERIFY2(p.valid, p.errors.empty() ? "" : p.errors.front().message.c_str());
        const CommGroup* tpGroup = nullptr;
        for (const CommGroup& g : p.comm)
            if (g.kind == GroupKind::TP) tpGroup = &g;
        QVERIFY(tpGroup);
        QVERIFY(tpGroup->crossesNodes);
        QCOMPARE(tpGroup->nodesSpanned, nodesSpanned);
        QCOMPARE(tpGroup->perNode, perNode);
        QCOMPARE(tpGroup->linkBandwidth, plan.cluster.interNode.bandwidth);
        // Validation warns about it.
        bool warned = false;
        for (const Issue& i : validate(plan))
            warned = warned
                || (i.severity == Severity::Warning && i.path == "parallel.tp"
                    && i.message.find("spans " + std::to_string(nodesSpanned) + " nodes") != std::string::npos);
        QVERIFY(warned);
        // tp 2 or 4 or 8 on the same nodes: no TP group crosses, and nobody says so.
        j["parallel"]["tp"] = 2;
        j["parallel"]["dp"] = gpus / 2 / pp;
        j["model"] = test::gptModel(4, 1920, 30, 32000, 1024);
        const Plan even = test::planFromText(j.dump());
        QVERIFY(!rankLayout(even).tp.crossesNodes);
        for (const Issue& i : validate(even)) QVERIFY(i.path != "parallel.tp" || i.message.find("spans") == std::string::npos);
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
            const GroupPlacement mine = bruteWorst(grid, kind);
            const GroupPlacement& theirs = layoutPlacement(layout, kind);
            QCOMPARE(mine.crossesNodes, theirs.crossesNodes);
            QCOMPARE(mine.nodesSpanned, theirs.nodesSpanned);
            QCOMPARE(mine.perNode, theirs.perNode);
        }
        // The prediction's communication groups cross nodes exactly where the grid says so.
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        for (const CommGroup& g : pr.comm) {
            const GroupKind kind = g.kind;
            QCOMPARE(grid.size(kind), g.size);
            QVERIFY2(grid.anyGroupCrossesNodes(kind) == g.crossesNodes, toString(kind).data());
            QCOMPARE(grid.maxNodesSpanned(kind), g.nodesSpanned);
            QCOMPARE(grid.worstPlacement(kind).perNode, g.perNode);
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
