// Trace analyses (core/trace/TraceAnalysis): dtype sizes, medians, per-collective bandwidth of nccl_data's NCCL
// kernels (collective metadata) and cross-rank alignment of the sampled_rank-0/1 pair, against values computed
// independently with Python; synthetic ranks for all-gather's S, baseTimeNs and the straggler.
#include "TestUtil.h"

#include "trace/KinetoImport.h"
#include "trace/TraceAnalysis.h"

#include <QObject>
#include <string>
#include <vector>

using namespace planscope;
using planscope::test::near;

namespace {

std::string tracePath(const char* name) { return std::string(PLANSCOPE_SHARED_DIR) + "/traces/" + name; }

MeasuredKernel nccl(const char* op, std::int64_t startNs, std::int64_t durNs, std::int64_t in, std::int64_t outN,
    int group, const char* dtype)
{
    MeasuredKernel k;
    k.startNs = startNs;
    k.durNs = durNs;
    k.collective = op;
    k.inMsgNelems = in;
    k.outMsgNelems = outN;
    k.groupSize = group;
    k.dtype = dtype;
    return k;
}

} // namespace

class TestTraceAnalysis : public QObject {
    Q_OBJECT
private slots:
    void dtypeSizesAndMedian()
    {
        QCOMPARE(dtypeSize("Float"), 4);
        QCOMPARE(dtypeSize("Half"), 2);
        QCOMPARE(dtypeSize("BFloat16"), 2);
        QCOMPARE(dtypeSize("Double"), 8);
        QCOMPARE(dtypeSize("Long"), 8);
        QCOMPARE(dtypeSize("Int"), 4);
        QCOMPARE(dtypeSize("Byte"), 1);
        QCOMPARE(dtypeSize("Char"), 1);
        QCOMPARE(dtypeSize("Bool"), 1);
        QCOMPARE(dtypeSize("float"), 0);
        QCOMPARE(dtypeSize(""), 0);
        std::vector<double> odd { 3, 1, 2 }, even { 4, 1, 3, 2 }, none;
        QCOMPARE(medianOf(odd), 2.0);
        QCOMPARE(medianOf(even), 2.5);
        QCOMPARE(medianOf(none), 0.0);
    }

    // Expected medians computed independently with Python's gzip + json in shared/traces (statistics.median,
    // which averages the middle two like medianOf):
    //   python3 -c 'import gzip,json,statistics as s;d=json.load(gzip.open("nccl_data.json.gz"));k=[e for e in
    //     d["traceEvents"] if e.get("cat")=="kernel" and e["name"].startswith("ncclKernel_") and "In msg nelems" in
    //     e["args"]];sz={"Float":4,"Long":8};f=lambda op,n:{"allreduce":2*(n-1)/n,"broadcast":1.0}[op]
    //   for op in ["allreduce","broadcast"]:
    //     g=[e for e in k if e["args"]["Collective name"]==op];n=g[0]["args"]["Group size"];B=[e["args"]["In msg
    //     nelems"]*sz[e["args"]["dtype"]] for e in g];T=[e["dur"]*1e-6 for e in g];A=[b/t for b,t in zip(B,T)];
    //     print(op,len(g),n,s.median(B),s.median(T),s.median(A),s.median([a*f(op,n) for a in A]))'
    // -> allreduce 15 2 26255360 0.002520607 5755381376.522053 5755381376.522053
    //    broadcast 6 2 106452.0 1.8544e-05 3457582457.8466234 3457582457.8466234   (dtypes Float and Long)
    void ncclDataCollectiveStats()
    {
        auto r = importKinetoTrace(tracePath("nccl_data.json.gz"));
        QVERIFY(r.ok());
        const auto stats = collectiveStats(r.value());
        QCOMPARE(stats.size(), std::size_t(2));
        QCOMPARE(stats[0].op, std::string("AllReduce"));
        QCOMPARE(stats[0].count, std::int64_t(15));
        QCOMPARE(stats[0].groupSize, 2);
        QCOMPARE(stats[0].bytes, 26255360.0);
        QVERIFY(near(stats[0].seconds, 0.002520607));
        QVERIFY(near(stats[0].algBandwidth, 5755381376.522053));
        QVERIFY(near(stats[0].busBandwidth, 5755381376.522053)); // 2(n-1)/n = 1 for n = 2
        QCOMPARE(stats[1].op, std::string("Broadcast"));
        QCOMPARE(stats[1].count, std::int64_t(6));
        QCOMPARE(stats[1].groupSize, 2);
        QCOMPARE(stats[1].bytes, 106452.0);
        QVERIFY(near(stats[1].seconds, 1.8544e-05));
        QVERIFY(near(stats[1].algBandwidth, 3457582457.8466234));
        QVERIFY(near(stats[1].busBandwidth, 3457582457.8466234));

        // No collective metadata: no stats.
        auto s0 = importKinetoTrace(tracePath("sampled_rank-0.json.gz"));
        QVERIFY(s0.ok());
        QVERIFY(collectiveStats(s0.value()).empty());
    }

    void syntheticBandwidthConventions()
    {
        MeasuredRank r;
        // All-gather: S = Out msg nelems x size; busBw = algBw (n-1)/n.
        r.kernelList.push_back(nccl("AllGather", 0, 1000000, 250, 1000, 4, "Half")); // S = 2000 B in 1 ms
        // All-reduce over 8 ranks, BFloat16: S = 1e6 x 2 B in 2 ms -> algBw 1e9, busBw 1.75e9.
        r.kernelList.push_back(nccl("AllReduce", 0, 2000000, 1000000, 1000000, 8, "BFloat16"));
        // Left out: unknown dtype, no metadata, zero duration, compute kernel.
        r.kernelList.push_back(nccl("AllReduce", 0, 1000, 10, 10, 8, "Mystery"));
        r.kernelList.push_back(nccl("AllReduce", 0, 1000, -1, -1, -1, ""));
        r.kernelList.push_back(nccl("AllReduce", 0, 0, 10, 10, 8, "Float"));
        r.kernelList.push_back(nccl("", 0, 1000, 10, 10, 8, "Float"));
        const auto stats = collectiveStats(r);
        QCOMPARE(stats.size(), std::size_t(2));
        QCOMPARE(stats[0].op, std::string("AllGather"));
        QCOMPARE(stats[0].bytes, 2000.0);
        QVERIFY(near(stats[0].algBandwidth, 2e6));
        QVERIFY(near(stats[0].busBandwidth, 2e6 * 3 / 4));
        QCOMPARE(stats[1].op, std::string("AllReduce"));
        QCOMPARE(stats[1].count, std::int64_t(1));
        QVERIFY(near(stats[1].algBandwidth, 1e9));
        QVERIFY(near(stats[1].busBandwidth, 1.75e9));
    }

    // Expected values computed independently with Python (kernels matched in start order, ts integer µs):
    //   python3 -c 'import gzip,json,statistics as s;S=[sorted(e["ts"] for e in json.load(gzip.open(
    //     f"sampled_rank-{r}.json.gz"))["traceEvents"] if e.get("cat")=="kernel" and e["name"].startswith(
    //     "ncclKernel_SendRecv")) for r in (0,1)];m=[min(a,b) for a,b in zip(*S)];print(len(m),[s.median([(x[i]-
    //     m[i])*1e-6 for i in range(len(m))]) for x in S])'
    // -> 10 [0.0, 0.012815]. Rank 1 starts later on 7 of the 10 (35.5, 109.3, 3.3, 164.2, 0.08, 45.3, 1.3 ms) and
    // earlier on 3; the SendRecv kernels' starts are NOT within 1 ms of each other.
    void sampledPairAlignment()
    {
        std::vector<MeasuredRank> ranks;
        for (const char* f : { "sampled_rank-1.json.gz", "sampled_rank-0.json.gz" }) {
            auto r = importKinetoTrace(tracePath(f));
            QVERIFY(r.ok());
            ranks.push_back(std::move(r).value());
        }
        const Alignment a = alignRanks(ranks);
        QCOMPARE(a.worldSize, 128);
        QCOMPARE(a.matchedCollectives, std::int64_t(10));
        QCOMPARE(a.ranks.size(), std::size_t(2));
        QCOMPARE(a.ranks[0].rank, 0);
        QCOMPARE(a.ranks[0].medianSkewSeconds, 0.0);
        QCOMPARE(a.ranks[1].rank, 1);
        QVERIFY(near(a.ranks[1].medianSkewSeconds, 0.012815));
        QCOMPARE(a.straggler, 1);
    }

    void syntheticAlignment()
    {
        // Three ranks of one job, one relative to baseTimeNs; a rank of another job and one without a rank ignored.
        auto rank = [](int id, int world, std::optional<std::int64_t> base, std::vector<std::int64_t> starts) {
            MeasuredRank r;
            r.rank = id;
            r.worldSize = world;
            r.baseTimeNs = base;
            for (std::int64_t s : starts) r.kernelList.push_back(nccl("AllReduce", s, 10, 1, 1, world, "Float"));
            r.kernelList.push_back(nccl("Broadcast", starts.back() + 100, 10, 1, 1, world, "Float"));
            r.kernelList.push_back(nccl("", 5, 10, -1, -1, -1, "")); // compute: not matched
            return r;
        };
        std::vector<MeasuredRank> ranks { rank(2, 3, std::nullopt, { 1000, 2000, 3000 }),
            rank(0, 3, 500, { 500, 1500 }), // absolute 1000, 2000 (its third AllReduce is missing)
            rank(1, 3, std::nullopt, { 1300, 2100, 3100 }), rank(5, 8, std::nullopt, { 0 }),
            rank(-1, 3, std::nullopt, { 0 }) };
        const Alignment a = alignRanks(ranks);
        QCOMPARE(a.worldSize, 3);
        QCOMPARE(a.matchedCollectives, std::int64_t(3)); // 2 AllReduce + 1 Broadcast
        QCOMPARE(a.ranks.size(), std::size_t(3));
        // Broadcast starts: rank 2 at 3100, rank 0 at 2100, rank 1 at 3200 -> skews 1000, 0, 1100 ns.
        // rank 0: {0, 0, 0}; rank 1: {300, 100, 1100} -> 300; rank 2: {0, 0, 1000} -> 0.
        QCOMPARE(a.ranks[0].rank, 0);
        QCOMPARE(a.ranks[0].medianSkewSeconds, 0.0);
        QVERIFY(near(a.ranks[1].medianSkewSeconds, 300e-9));
        QCOMPARE(a.ranks[2].medianSkewSeconds, 0.0);
        QCOMPARE(a.straggler, 1);

        // One rank: nothing to align.
        const Alignment one = alignRanks({ rank(0, 2, std::nullopt, { 1 }) });
        QCOMPARE(one.matchedCollectives, std::int64_t(0));
        QCOMPARE(one.straggler, -1);
    }
};

QTEST_APPLESS_MAIN(TestTraceAnalysis)
#include "tst_trace_analysis.moc"
