// Collective costs (docs/MODEL.md section 6) against the alpha-beta formulas and nccl-tests' conventions
// (NVIDIA/nccl-tests doc/PERFORMANCE.md: algBw = S/t; busBw = algBw * 2(n-1)/n for all-reduce, (n-1)/n for
// all-gather, reduce-scatter and all-to-all, 1 for broadcast, reduce and send/recv). Every expected number is
// written out from those formulas here, not taken from core/cost/Collective.cpp.
#include "TestUtil.h"

#include "cost/Collective.h"
#include "cost/Evaluate.h"
#include "cost/Operators.h"
#include "cost/RankLayout.h"
#include "spec/Validate.h"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace planscope;
using planscope::test::near;

Q_DECLARE_METATYPE(planscope::Collective)

namespace {
LinkSpec link(double bandwidth, double latency)
{
    LinkSpec l;
    l.bandwidth = bandwidth;
    l.latency = latency;
    return l;
}

// nccl-tests doc/PERFORMANCE.md, written out per collective.
double ncclBusFactor(Collective c, int n)
{
    switch (c) {
    case Collective::AllReduce: return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return double(n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv: return 1.0;
    }
    return -1;
}

const Collective kAll[] = { Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
    Collective::AllToAll, Collective::Broadcast, Collective::Reduce, Collective::SendRecv };
} // namespace

class TestCollective : public QObject {
    Q_OBJECT
private slots:
    void busBandwidthFactor_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("factor");
        for (Collective c : kAll)
            for (int n : { 2, 4, 8, 16, 64 })
                QTest::newRow(qPrintable(QStringLiteral("%1 n=%2").arg(QString::fromUtf8(toString(c).data(), int(toString(c).size()))).arg(n)))
                    << c << n << ncclBusFactor(c, n);
        // Spot values from the same table: all-reduce on 8 GPUs 1.75, all-gather on 8 GPUs 0.875.
        QTest::newRow("AllReduce 8 = 1.75") << Collective::AllReduce << 8 << 1.75;
        QTest::newRow("AllGather 8 = 0.875") << Collective::AllGather << 8 << 0.875;
        QTest::newRow("AllReduce 64 = 1.96875") << Collective::AllReduce << 64 << 1.96875;
    }
    void busBandwidthFactor()
    {
        QFETCH(Collective, collective);
        QFETCH(int, n);
        QFETCH(double, factor);
        QVERIFY2(near(planscope::busBandwidthFactor(collective, n), factor, 1e-15),
            qPrintable(QString::number(planscope::busBandwidthFactor(collective, n), 'g', 17)));
    }

    // The bytes one rank puts on the wire in a ring are busBw's factor times S: that is what makes busBw
    // comparable with the link speed (NVIDIA/nccl-tests doc/PERFORMANCE.md: "busBw ... reflects how optimally the hardware is used").
    void ringBytes_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        for (Collective c : { Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter })
            for (int n : { 2, 4, 8, 16, 64 })
                QTest::newRow(qPrintable(QStringLiteral("%1 n=%2").arg(QString::fromUtf8(toString(c).data(), int(toString(c).size()))).arg(n)))
                    << c << n;
    }
    void ringBytes()
    {
        QFETCH(Collective, collective);
        QFETCH(int, n);
        const double S = 1.5e9;
        QVERIFY(near(ringBytesPerRank(collective, n, S), ncclBusFactor(collective, n) * S, 1e-12));
    }

    // Ring alpha-beta (docs/MODEL.md section 6): all-reduce 2(n-1)*alpha + 2(n-1)/n * S/B; reduce-scatter and all-gather
    // (n-1)*alpha + (n-1)/n * S/B.
    void ringSeconds_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("bandwidth");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("expected");
        const double B = 3e11, a = 5e-6;
        for (int n : { 2, 4, 8, 16, 64 }) {
            for (double S : { 1e3, 1e6, 1e9 }) {
                const QString tag = QStringLiteral("n=%1 S=%2").arg(n).arg(S, 0, 'g', 3);
                QTest::newRow(qPrintable("AllReduce " + tag)) << Collective::AllReduce << n << S << B << a
                                                             << 2.0 * (n - 1) * a + 2.0 * (n - 1) / n * S / B;
                QTest::newRow(qPrintable("ReduceScatter " + tag)) << Collective::ReduceScatter << n << S << B << a
                                                                 << (n - 1) * a + double(n - 1) / n * S / B;
                QTest::newRow(qPrintable("AllGather " + tag)) << Collective::AllGather << n << S << B << a
                                                             << (n - 1) * a + double(n - 1) / n * S / B;
            }
        }
        // A worked number: 8 x A100 all-reduce of 1 GiB at 300 GB/s per direction, alpha 5 us:
        // 14 * 5e-6 + 1.75 * 1073741824 / 3e11 = 7e-5 + 6.2635e-3 = 6.3335e-3 s.
        QTest::newRow("8xA100 1GiB") << Collective::AllReduce << 8 << 1073741824.0 << 3e11 << 5e-6
                                     << 14 * 5e-6 + 1.75 * 1073741824.0 / 3e11;
        // Latency dominated: 1 byte over a 1e30 B/s link leaves 2(n-1)*alpha (S = 0 is not used: an empty
        // collective is never launched, and the implementation returns 0 for it).
        QTest::newRow("AllReduce latency n=16") << Collective::AllReduce << 16 << 1.0 << 1e30 << a << 30 * a;
        QTest::newRow("AllGather latency n=16") << Collective::AllGather << 16 << 1.0 << 1e30 << a << 15 * a;
    }
    void ringSeconds()
    {
        QFETCH(Collective, collective);
        QFETCH(int, n);
        QFETCH(double, bytes);
        QFETCH(double, bandwidth);
        QFETCH(double, alpha);
        QFETCH(double, expected);
        const double got = planscope::ringSeconds(collective, n, bytes, link(bandwidth, alpha));
        QVERIFY2(near(got, expected, 1e-12), qPrintable(QStringLiteral("%1 vs %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    }

    // Without latency, every collective's ring time is busBw's factor * S / B (the definition of busBw with
    // busBw = the link bandwidth).
    void ringSecondsBandwidthTerm_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        for (Collective c : kAll)
            for (int n : { 2, 8, 64 })
                QTest::newRow(qPrintable(QStringLiteral("%1 n=%2").arg(QString::fromUtf8(toString(c).data(), int(toString(c).size()))).arg(n)))
                    << c << n;
    }
    void ringSecondsBandwidthTerm()
    {
        QFETCH(Collective, collective);
        QFETCH(int, n);
        const double S = 2e9, B = 2.5e10;
        const double got = planscope::ringSeconds(collective, n, S, link(B, 0));
        QVERIFY2(near(got, ncclBusFactor(collective, n) * S / B, 1e-12), qPrintable(QString::number(got, 'g', 17)));
        // And nccl-tests' own identity: busBw = (S / t) * factor equals B.
        QVERIFY(near(S / got * ncclBusFactor(collective, n), B, 1e-12));
    }

    // Tree all-reduce: same bandwidth term, ~2*log2(n) latency steps instead of 2(n-1) (docs/MODEL.md section 6).
    void treeAllReduce_data()
    {
        QTest::addColumn<int>("n");
        for (int n : { 2, 4, 8, 16, 64, 1024 }) QTest::newRow(qPrintable(QStringLiteral("n=%1").arg(n))) << n;
    }
    void treeAllReduce()
    {
        QFETCH(int, n);
        const double S = 1e8, B = 2.5e10, a = 1e-5;
        // Bandwidth term equals the ring's.
        QVERIFY(near(treeAllReduceSeconds(n, S, link(B, 0)), 2.0 * (n - 1) / n * S / B, 1e-12));
        // Latency term 2*log2(n)*alpha for powers of two.
        const double latencyOnly = treeAllReduceSeconds(n, 1.0, link(1e30, a));
        QVERIFY2(near(latencyOnly, 2 * std::log2(double(n)) * a, 1e-9), qPrintable(QString::number(latencyOnly / a)));
        // So for small messages on many ranks, tree beats ring.
        if (n >= 8) QVERIFY(treeAllReduceSeconds(n, 1e3, link(B, a)) < planscope::ringSeconds(Collective::AllReduce, n, 1e3, link(B, a)));
    }

    // Two-level all-reduce (docs/MODEL.md section 6): intra-node reduce-scatter over g, inter-node all-reduce of S/g over
    // the n/g nodes, intra-node all-gather; reduce-scatter/all-gather run only their half. NCCL pipelines the chunks
    // through both tiers, so the slower tier's phases set the time.
    void hierarchical_data()
    {
        QTest::addColumn<Collective>("collective");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("g");
        for (Collective c : { Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather })
            for (auto [n, g] : { std::pair { 16, 8 }, { 64, 8 }, { 1024, 8 }, { 32, 4 }, { 16, 2 } })
                QTest::newRow(qPrintable(QStringLiteral("%1 n=%2 g=%3").arg(QString::fromUtf8(toString(c).data(), int(toString(c).size()))).arg(n).arg(g)))
                    << c << n << g;
    }
    void hierarchical()
    {
        QFETCH(Collective, collective);
        QFETCH(int, n);
        QFETCH(int, g);
        const double S = 4e9;
        const double Bi = 3e11, ai = 3.4e-6, Be = 2.5e10, ae = 1.4e-5;
        const int nodes = n / g;
        // Written out, not composed from ringSeconds().
        const double intraHalf = (g - 1) * ai + double(g - 1) / g * S / Bi;                 // RS or AG over g ranks of S
        const double interAr = 2.0 * (nodes - 1) * ae + 2.0 * (nodes - 1) / nodes * (S / g) / Be; // AR of S/g
        const double interHalf = (nodes - 1) * ae + double(nodes - 1) / nodes * (S / g) / Be;      // RS or AG of S/g
        double expected = 0;
        switch (collective) {
        case Collective::AllReduce: expected = std::max(intraHalf + intraHalf, interAr); break;
        case Collective::ReduceScatter:
        case Collective::AllGather: expected = std::max(intraHalf, interHalf); break;
        default: QFAIL("row");
        }
        const double got = hierarchicalSeconds(collective, n, g, S, link(Bi, ai), link(Be, ae));
        QVERIFY2(near(got, expected, 1e-12), qPrintable(QStringLiteral("%1 vs %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        // With NVLink 12x faster than the NIC, hierarchy beats a flat ring run at the NIC's speed.
        if (collective == Collective::AllReduce)
            QVERIFY(got < planscope::ringSeconds(Collective::AllReduce, n, S, link(Be, ae)));
    }

    // Parameter server (docs/MODEL.md section 6): every worker sends S to and receives S from the servers, so the servers'
    // links carry n*S each way (n*S/k per server with k servers); send and receive use opposite directions.
    void parameterServer_data()
    {
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("servers");
        for (auto [n, k] : { std::pair { 8, 1 }, { 64, 1 }, { 64, 4 }, { 64, 64 }, { 16, 2 } })
            QTest::newRow(qPrintable(QStringLiteral("n=%1 servers=%2").arg(n).arg(k))) << n << k;
    }
    void parameterServer()
    {
        QFETCH(int, workers);
        QFETCH(int, servers);
        const double S = 1e9, B = 2.5e10;
        const double got = parameterServerSeconds(workers, servers, S, link(B, 0));
        const double expected = double(workers) * S / servers / B;
        QVERIFY2(near(got, expected, 1e-12), qPrintable(QStringLiteral("%1 vs %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        // The bottleneck the ring removes: with one server PS is n/(2(n-1)/n) = n^2/(2(n-1)) times slower.
        if (servers == 1) {
            const double ring = planscope::ringSeconds(Collective::AllReduce, workers, S, link(B, 0));
            QVERIFY(near(got / ring, double(workers) * workers / (2.0 * (workers - 1)), 1e-12));
        }
        // Latency can only add.
        QVERIFY(parameterServerSeconds(workers, servers, S, link(B, 1e-5)) >= got);
    }

    // Volumes per step (docs/MODEL.md section 6), read from evaluate()'s comm groups ("bytes one GPU sends per step"), with
    // g = gradient bytes (fp32 here), w = weight bytes (bf16), P = a GPU's parameters, f = (d-1)/d:
    // - ZeRO-0: all-reduce of the gradients, 2f*g*P;
    // - ZeRO-1 (Rajbhandari et al. section 7.2.1): reduce-scatter of the gradients + all-gather of the updated
    //   parameters, f*(g + w)*P (= DP's volume when g = w, the paper's point);
    // - ZeRO-2: the same reduce-scatter and all-gather; DeepSpeed reduce-scatters every microbatch under gradient
    //   accumulation (the gradient shard is all a rank keeps), so m*f*g*P + f*w*P: the updated parameters must
    //   still be all-gathered once after the sharded optimizer step (section 7.2.1 applies to P_os+g too);
    // - ZeRO-3 (section 7.2.2): per microbatch all-gather of the weights in forward and in backward and a
    //   reduce-scatter of the gradients, m*f*(g + 2w)*P (1.5x DP with g = w, m = 1);
    // - PP: one b*s*h activation forward and one gradient backward per microbatch per boundary (/t with SP);
    // - TP: per layer per microbatch 4 all-reduces of b*s*h 16-bit elements (2 forward, 2 backward; Shoeybi et al.
    //   Megatron-LM 2019 section 3), each sending 2(t-1)/t of it; with SP the same bytes as AG + RS.
    // GPT 24 x 2048, s 2048, b 1, m 8, t 4, p 2, d 4 on 4 nodes of 8, no recompute.
    void volumesPerStep_data()
    {
        QTest::addColumn<int>("zero");
        QTest::addColumn<bool>("sp");
        for (int zero : { 0, 1, 2, 3 }) QTest::newRow(qPrintable(QStringLiteral("zero %1").arg(zero))) << zero << false;
        QTest::newRow("zero 1 sp") << 1 << true;
    }
    void volumesPerStep()
    {
        QFETCH(int, zero);
        QFETCH(bool, sp);
        using nlohmann::json;
        const json model { { "name", "gpt" }, { "layers", 24 }, { "hidden", 2048 }, { "heads", 16 }, { "kvHeads", 16 },
            { "ffnHidden", 8192 }, { "vocab", 51200 }, { "seqLength", 2048 }, { "gatedMlp", false },
            { "tiedEmbeddings", true }, { "positionEmbedding", "learned" }, { "norm", "layernorm" }, { "bias", true },
            { "dropout", true } };
        const json j { { "schema", "planscope/plan/v1" }, { "name", "volumes" }, { "model", model },
            { "cluster", { { "gpu", "a100-sxm4-80gb" }, { "nodes", 4 }, { "gpusPerNode", 8 } } },
            { "parallel", { { "dp", 4 }, { "tp", 4 }, { "pp", 2 }, { "sp", sp }, { "zero", zero } } },
            { "training",
                { { "microBatch", 1 }, { "globalBatch", 32 }, { "precision", "bf16" }, { "gradDtype", "fp32" },
                    { "recompute", "none" }, { "schedule", "1f1b" }, { "tokens", 1e9 } } } };
        const Plan plan = planscope::test::planFromText(j.dump());
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        QCOMPARE(pr.microbatches, std::int64_t(8));
        const CommGroup* dp = nullptr;
        const CommGroup* tp = nullptr;
        const CommGroup* pp = nullptr;
        for (const CommGroup& g : pr.comm) {
            if (g.kind == GroupKind::DPCP) dp = &g;
            if (g.kind == GroupKind::TP) tp = &g;
            if (g.kind == GroupKind::PP) pp = &g;
        }
        QVERIFY(dp && tp && pp);
        QCOMPARE(dp->size, 4);
        QCOMPARE(tp->size, 4);
        QVERIFY(!tp->crossesNodes); // tp innermost: 4 consecutive ranks in a node of 8

        const double b = 1, s = 2048, h = 2048, m = 8, t = 4, d = 4, layersPerStage = 12;
        // Per layer and microbatch (Shoeybi et al. 2019; Korthikanti et al. 2023, section 4.2.2): without SP two
        // all-reduces of the b*s*h activation in forward and two in backward, 2(t-1)/t of it each on the wire; with SP
        // an all-gather and a reduce-scatter in place of each forward all-reduce, and in backward the all-gathers of
        // the row-parallel gradients, the column-parallel inputs gathered again and their gradients reduce-scattered:
        // ten (t-1)/t volumes. The last stage (the slowest, which the group reports) adds the output layer: its
        // input-gradient all-reduce (SP: the forward all-gather, the re-gather and the reduce-scatter) and the loss's
        // three fp32 all-reduces of one value per token.
        const double S = b * s * h * 2, ring = (t - 1) / t;
        const double perLayer = sp ? 10 * ring * S : 4 * 2 * ring * S;
        const double output = (sp ? 3 * ring * S : 2 * ring * S) + 3 * 2 * ring * 4 * b * s;
        const double tpBytes = m * (layersPerStage * perLayer + output);
        QVERIFY2(near(tp->bytesPerStep, tpBytes, 1e-6), qPrintable(QStringLiteral("tp %1 expected %2 (ratio %3)").arg(tp->bytesPerStep).arg(tpBytes).arg(tp->bytesPerStep / tpBytes)));

        const double ppBytes = m * 2 * (b * s * h * 2) / (sp ? t : 1);
        QVERIFY2(near(pp->bytesPerStep, ppBytes, 1e-6), qPrintable(QStringLiteral("pp %1 expected %2").arg(pp->bytesPerStep).arg(ppBytes)));

        // Gradient bytes of the heaviest stage (fp32 grads), as the group's per-GPU volume.
        double gradBytes = 0, gradBytesMin = 1e300;
        for (const StageMemory& st : pr.stages) {
            gradBytes = std::max(gradBytes, 4 * st.parameters);
            gradBytesMin = std::min(gradBytesMin, 4 * st.parameters);
        }
        // Per gradient byte (g = 4, w = 2).
        const double f = (d - 1) / d, g = 4, w = 2;
        const double factor = zero == 0 ? 2 * f
            : zero == 1                 ? f * (g + w) / g
            : zero == 2                 ? m * f + f * w / g
                                        : m * f * (g + 2 * w) / g;
        const bool ok = dp->bytesPerStep <= factor * gradBytes * (1 + 1e-6) && dp->bytesPerStep >= factor * gradBytesMin * (1 - 1e-6);
        QVERIFY2(ok, qPrintable(QStringLiteral("dp %1 expected %2 .. %3 (ratio to max %4)").arg(dp->bytesPerStep).arg(factor * gradBytesMin).arg(factor * gradBytes).arg(dp->bytesPerStep / (factor * gradBytes))));
    }

    // The NVLink-domain tier (issue 29): on GB200 NVL72 (4-GPU trays, 18 per domain) an expert-parallel group of 64
    // spans 16 trays but one domain, and its all-to-all runs over NVLink as a ring inside a node would: the same
    // seconds as a flat ring of 64 on the NVLink link. With domains of 16 trays every group is one domain; with 18
    // some straddle two and the group goes hierarchical over the NICs.
    void nvlinkDomainTier()
    {
        auto plan = [](int domainNodes) {
            nlohmann::json j = { { "schema", "planscope/plan/v1" }, { "name", "nvl72" }, { "model", { { "preset", "deepseek-v3" }, { "mtpLayers", 0 } } },
                { "cluster", { { "gpu", "gb200" }, { "node", "gb200-nvl72" }, { "nodes", 64 }, { "gpusPerNode", 4 },
                                 { "nvlinkDomainNodes", domainNodes } } },
                { "parallel", { { "dp", 64 }, { "tp", 1 }, { "pp", 4 }, { "vpp", 4 }, { "ep", 64 }, { "etp", 1 }, { "layout", "Et*3|(t*4|)*14ttL" } } },
                { "training", { { "microBatch", 1 }, { "globalBatch", 4096 }, { "precision", "bf16" }, { "flashAttention", true },
                                  { "schedule", "interleaved-1f1b" } } } };
            return test::planFromText(j.dump());
        };
        const Plan p16 = plan(16), p18 = plan(18);
        QCOMPARE(p18.cluster.nvlinkDomainNodes, 18); // the node preset's value is overridden by the file
        const RankLayout l16 = rankLayout(p16), l18 = rankLayout(p18);
        QVERIFY(l16.ep.crossesNodes && l16.ep.nodesSpanned == 16 && l16.ep.perNode == 4);
        QVERIFY(!l16.ep.crossesDomains);
        QCOMPARE(l16.ep.perDomain, 64);
        QVERIFY(l18.ep.crossesDomains);
        QCOMPARE(l18.ep.domainsSpanned, 2);
        // The worst group (RankLayout's rule: the most domains, then the fewest on its fullest): ranks 192-255 put 24 in
        // the domain of ranks 144-215 and 40 in the next.
        QCOMPARE(l18.ep.perDomain, 40);
        const double S = 256e6;
        const LinkSpec& nv = p16.cluster.intraNode;
        QVERIFY(near(groupSeconds(Collective::AllToAll, l16.ep, S, p16.cluster), planscope::ringSeconds(Collective::AllToAll, 64, S, nv), 1e-12));
        QVERIFY(near(groupSeconds(Collective::AllToAll, l18.ep, S, p18.cluster),
            planscope::hierarchicalSeconds(Collective::AllToAll, 64, 40, S, nv, p18.cluster.interNode), 1e-12));
        // Inside a domain the pipeline's neighbours (64 ranks apart, 16 trays) cross domains only with pp ranks in
        // other racks: the p2p link follows the domain, not the tray.
        QVERIFY(l16.ppNeighboursCrossNodes && l16.ppNeighboursCrossDomains);
        // The validator names the domain, not the node, when a group leaves it.
        bool named = false;
        for (const Issue& i : validate(p18))
            named = named || (i.path == "parallel.ep" && i.message.find("NVLink domain") != std::string::npos);
        QVERIFY(named);
        for (const Issue& i : validate(p16)) QVERIFY2(i.path != "parallel.ep", i.message.c_str());
        // The JSON says both.
        const Prediction pr = evaluate(p16);
        bool found = false;
        for (const CommGroup& g : pr.comm)
            if (g.kind == GroupKind::EP) {
                found = true;
                QVERIFY(g.crossesNodes && !g.crossesDomains);
            }
        QVERIFY(found);
    }

    void names()
    {
        for (Collective c : kAll) {
            Collective back;
            QVERIFY(fromString(toString(c), back));
            QVERIFY(back == c);
        }
        Collective c;
        QVERIFY(!fromString("AllSmash", c));
    }
};

QTEST_APPLESS_MAIN(TestCollective)
#include "tst_collective.moc"
