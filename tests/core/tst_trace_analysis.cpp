// Trace analyses (core/trace/TraceAnalysis): dtype sizes, medians, per-collective bandwidth of nccl_data's NCCL
// kernels (collective metadata), cross-rank alignment of the sampled_rank-0/1 pair, per-step breakdowns, top
// kernels and memory timelines, against values computed independently with Python; synthetic ranks for
// all-gather's S, baseTimeNs, the straggler and a step without kernels.
#include "TestUtil.h"

#include "trace/KinetoImport.h"
#include "trace/TraceAnalysis.h"

#include <QObject>
#include <string>
#include <vector>

using namespace planscope;
using planscope::test::near;

namespace {

std::string tracePath(const char* name) { return std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/" + name; }

// Appends a kernel (NCCL's unless op is None) with collective metadata, none when in, group and dtype are unset.
void addKernel(MeasuredRank& r, CollectiveKind op, std::int64_t startNs, std::int64_t durNs, std::int64_t in,
    std::int64_t outN, int group, const char* dtype)
{
    MeasuredEvent k;
    k.kind = EventKind::Kernel;
    k.startNs = startNs;
    k.durNs = durNs;
    k.collective = op;
    if (in >= 0 || group >= 0 || *dtype) {
        CommInfo c;
        c.inMsgNelems = in;
        c.outMsgNelems = outN;
        c.groupSize = group;
        if (*dtype) {
            c.dtype = std::int32_t(r.names.size());
            r.names.emplace_back(dtype);
        }
        k.comm = std::int32_t(r.comms.size());
        r.comms.push_back(c);
    }
    r.eventList.push_back(k);
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

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

    // Expected medians computed independently with Python's gzip + json in samples/traces (statistics.median,
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
        addKernel(r, CollectiveKind::AllGather, 0, 1000000, 250, 1000, 4, "Half"); // S = 2000 B in 1 ms
        // All-reduce over 8 ranks, BFloat16: S = 1e6 x 2 B in 2 ms -> algBw 1e9, busBw 1.75e9.
        addKernel(r, CollectiveKind::AllReduce, 0, 2000000, 1000000, 1000000, 8, "BFloat16");
        // Left out: unknown dtype, no metadata, zero duration, compute kernel, unknown collective.
        addKernel(r, CollectiveKind::AllReduce, 0, 1000, 10, 10, 8, "Mystery");
        addKernel(r, CollectiveKind::AllReduce, 0, 1000, -1, -1, -1, "");
        addKernel(r, CollectiveKind::AllReduce, 0, 0, 10, 10, 8, "Float");
        addKernel(r, CollectiveKind::None, 0, 1000, 10, 10, 8, "Float");
        addKernel(r, CollectiveKind::Other, 0, 1000, 10, 10, 8, "Float");
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
            for (std::int64_t s : starts) addKernel(r, CollectiveKind::AllReduce, s, 10, 1, 1, world, "Float");
            addKernel(r, CollectiveKind::Broadcast, starts.back() + 100, 10, 1, 1, world, "Float");
            addKernel(r, CollectiveKind::None, 5, 10, -1, -1, -1, ""); // compute: not matched
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

    // Expected values computed independently with Python from the real traces (json.load with parse_float=Decimal,
    // ts/dur as exact ns). A kernel's step is the ProfilerStep (CPU user_annotation) span that holds the start of
    // the cuda_runtime launch with its correlation; per step: first start / last end of its kernels, the unions of
    // its NCCL and other kernels, their intersection and (last end - first start) - union of all:
    //   N=lambda x:int((D(str(x))*1000).to_integral_value(ROUND_HALF_UP))
    //   launch={}; [launch.setdefault(e["args"]["correlation"],N(e["ts"])) for e in ev if e.get("ph")=="X" and
    //     e.get("cat") in ("cuda_runtime","cuda_driver") and "correlation" in e.get("args",{})]
    //   spans=[(e["name"],N(e["ts"]),N(e["dur"])) for e in ev if e.get("ph")=="X" and e.get("cat")==
    //     "user_annotation" and e["name"].startswith("ProfilerStep#")]
    //   step=lambda t:next((i for i,(n,s,d) in enumerate(spans) if s<=t<s+d),-1)
    //   ks=[(N(e["ts"]),N(e["dur"]),e["name"].startswith("ncclKernel_"),step(launch.get(e["args"].get(
    //     "correlation"),N(e["ts"])))) for e in ev if e.get("ph")=="X" and e.get("cat")=="kernel"]
    // nccl_data -> 900 kernels per step (7 NCCL), none outside a step:
    //   #4 gpu 4458676422880181..4458676638649605 compute 38506406 comm 11989021 overlap 1825259 idle 167099256
    //   #5 gpu 4458676644934992..4458676858467742 compute 38429422 comm 12300029 overlap 1760420 idle 164563719
    //   #6 gpu 4458676864667147..4458677083431186 compute 38720019 comm 22587443 overlap 3731346 idle 161187923
    // df_index_resolver -> 3874 kernels per step (404 NCCL); #6 gpu 1669783688790548000..1669783689122289000
    //   compute 124031000 comm 119069000 overlap 0 idle 88641000.
    void stepBreakdownsMatchPython()
    {
        auto r = importKinetoTrace(tracePath("nccl_data.json.gz"));
        QVERIFY(r.ok());
        const std::vector<StepBreakdown> steps = stepBreakdowns(r.value());
        QCOMPARE(steps.size(), std::size_t(3));
        struct Step {
            std::int64_t start, dur, gpuStart, gpuEnd, compute, comm, overlap, idle;
        };
        const Step x[] = { { 4458676416788066, 222442191, 4458676422880181, 4458676638649605, 38506406, 11989021,
                               1825259, 167099256 },
            { 4458676639291351, 219726905, 4458676644934992, 4458676858467742, 38429422, 12300029, 1760420, 164563719 },
            { 4458676859077781, 224936243, 4458676864667147, 4458677083431186, 38720019, 22587443, 3731346, 161187923 } };
        for (std::size_t i = 0; i < 3; ++i) {
            const StepBreakdown& s = steps[i];
            QCOMPARE(s.name, "ProfilerStep#" + std::to_string(i + 4));
            QCOMPARE(s.startNs, x[i].start);
            QCOMPARE(s.durNs, x[i].dur);
            QCOMPARE(s.gpuStartNs, x[i].gpuStart);
            QCOMPARE(s.gpuEndNs, x[i].gpuEnd);
            QVERIFY2(near(s.computeSeconds, double(x[i].compute) * 1e-9), qPrintable(test::num(s.computeSeconds)));
            QVERIFY(near(s.commSeconds, double(x[i].comm) * 1e-9));
            QVERIFY(near(s.overlapSeconds, double(x[i].overlap) * 1e-9));
            QVERIFY(near(s.idleSeconds, double(x[i].idle) * 1e-9));
            QCOMPARE(s.kernels, std::int64_t(900));
            QCOMPARE(s.ncclKernels, std::int64_t(7));
        }

        auto df = importKinetoTrace(tracePath("df_index_resolver.json.gz"));
        QVERIFY(df.ok());
        const std::vector<StepBreakdown> ds = stepBreakdowns(df.value());
        QCOMPARE(ds.size(), std::size_t(5));
        for (const StepBreakdown& s : ds) {
            QCOMPARE(s.kernels, std::int64_t(3874));
            QCOMPARE(s.ncclKernels, std::int64_t(404));
        }
        QCOMPARE(ds[4].gpuStartNs, std::int64_t(1669783688790548000));
        QCOMPARE(ds[4].gpuEndNs, std::int64_t(1669783689122289000));
        QVERIFY(near(ds[4].computeSeconds, 0.124031));
        QVERIFY(near(ds[4].commSeconds, 0.119069));
        QCOMPARE(ds[4].overlapSeconds, 0.0);
        QVERIFY(near(ds[4].idleSeconds, 0.088641));
    }

    void stepWithoutKernels()
    {
        MeasuredRank r;
        r.stepSpans = { MeasuredStep { "ProfilerStep#1", 1, 0, 100 }, MeasuredStep { "ProfilerStep#2", 2, 100, 100 } };
        // Step 0: compute [10, 30), comm [20, 50): compute 20, comm 30, overlap 10, idle 0 over [10, 50).
        addKernel(r, CollectiveKind::None, 10, 20, -1, -1, -1, "");
        addKernel(r, CollectiveKind::AllReduce, 20, 30, -1, -1, -1, "");
        r.eventList.back().step = r.eventList.front().step = 0;
        const auto steps = stepBreakdowns(r);
        QCOMPARE(steps.size(), std::size_t(2));
        QCOMPARE(steps[0].gpuStartNs, std::int64_t(10));
        QCOMPARE(steps[0].gpuEndNs, std::int64_t(50));
        QVERIFY(near(steps[0].computeSeconds, 20e-9));
        QVERIFY(near(steps[0].commSeconds, 30e-9));
        QVERIFY(near(steps[0].overlapSeconds, 10e-9));
        QCOMPARE(steps[0].idleSeconds, 0.0);
        QCOMPARE(steps[0].ncclKernels, std::int64_t(1));
        QCOMPARE(steps[1].name, std::string("ProfilerStep#2"));
        QCOMPARE(steps[1].kernels, std::int64_t(0));
        QCOMPARE(steps[1].gpuStartNs, std::int64_t(0));
        QCOMPARE(steps[1].computeSeconds, 0.0);
    }

    // Expected values from Python (same json.load; kernels grouped by name, share of the summed durations):
    //   t=collections.defaultdict(lambda:[0,0])
    //   for e in ev:
    //     if e.get("ph")=="X" and e.get("cat")=="kernel": t[e["name"]][0]+=1; t[e["name"]][1]+=N(e["dur"])
    //   a=sum(v[1] for v in t.values());print(len(t),[(n,c,d,d/a) for n,(c,d) in sorted(t.items(),key=lambda x:
    //     (-x[1][1],x[0]))[:3]])
    // nccl_data -> 70 names; ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*) 15 x,
    //   46762159 ns, 0.2877098736165369; void cudnn::ops::nchwToNhwcKernel<float, float, float, false... 474 x,
    //   12616974 ns, 0.07762746786270351; void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128,... 33 x,
    //   9592287 ns, 0.05901771302868094.  sampled_rank-0 -> the SendRecv kernel first: 10 x, 396199000 ns,
    //   0.6532342762551544.
    void topKernelsMatchPython()
    {
        auto r = importKinetoTrace(tracePath("nccl_data.json.gz"));
        QVERIFY(r.ok());
        const auto top = topKernels(r.value(), 3);
        QCOMPARE(top.size(), std::size_t(3));
        QCOMPARE(top[0].name, std::string("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"));
        QCOMPARE(top[0].count, std::int64_t(15));
        QVERIFY(near(top[0].totalSeconds, 0.046762159));
        QVERIFY(near(top[0].share, 0.2877098736165369));
        QVERIFY(top[0].collective == CollectiveKind::AllReduce);
        QVERIFY(startsWith(top[1].name, "void cudnn::ops::nchwToNhwcKernel<float, float, float, false"));
        QCOMPARE(top[1].count, std::int64_t(474));
        QVERIFY(near(top[1].totalSeconds, 0.012616974));
        QVERIFY(near(top[1].share, 0.07762746786270351));
        QVERIFY(top[1].collective == CollectiveKind::None);
        QVERIFY(startsWith(top[2].name, "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128,"));
        QCOMPARE(top[2].count, std::int64_t(33));
        QVERIFY(near(top[2].share, 0.05901771302868094));
        const auto all = topKernels(r.value(), 1000);
        QCOMPARE(all.size(), std::size_t(70));
        double shares = 0;
        for (const KernelStat& k : all) shares += k.share;
        QVERIFY(near(shares, 1.0, 1e-12));

        auto s = importKinetoTrace(tracePath("sampled_rank-0.json.gz"));
        QVERIFY(s.ok());
        const auto first = topKernels(s.value(), 1);
        QCOMPARE(first.size(), std::size_t(1));
        QVERIFY(startsWith(first[0].name, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t"));
        QCOMPARE(first[0].count, std::int64_t(10));
        QVERIFY(near(first[0].totalSeconds, 0.396199));
        QVERIFY(near(first[0].share, 0.6532342762551544));
        QVERIFY(topKernels(MeasuredRank {}, 10).empty());
    }

    // Expected values from Python (the [memory] events of df_index_resolver by (Device Type, Device Id), sorted by
    // ts; Total Allocated and Total Reserved):
    //   m=collections.defaultdict(list);[m[(e["args"]["Device Type"],e["args"]["Device Id"])].append((e["ts"]*1000,
    //     e["args"]["Total Allocated"],e["args"]["Total Reserved"])) for e in ev if e.get("name")=="[memory]"]
    //   for k in sorted(m): p=sorted(m[k],key=lambda x:x[0]);print(k,len(p),max(x[1] for x in p),max(x[2] for x
    //     in p),p[0],p[-1])
    // -> (0, -1) 1240 8 0 (1669783687405327000, 8, 0) (1669783688960943000, 0, 0)
    //    (1, 1) 26770 6629508096 12782141440 (1669783687404093000, 4121780224, 12782141440)
    //           (1669783689122558000, 4096614400, 12782141440)
    void memoryTimelineMatchesPython()
    {
        auto r = importKinetoTrace(tracePath("df_index_resolver.json.gz"));
        QVERIFY(r.ok());
        const auto series = memoryTimeline(r.value());
        QCOMPARE(series.size(), std::size_t(2));
        const DeviceMemorySeries& cpu = series[0];
        QCOMPARE(cpu.deviceType, 0);
        QCOMPARE(cpu.deviceId, -1);
        QCOMPARE(cpu.points.size(), std::size_t(1240));
        QCOMPARE(cpu.peakAllocated, std::int64_t(8));
        QCOMPARE(cpu.peakReserved, std::int64_t(0));
        QCOMPARE(cpu.points.front().tsNs, std::int64_t(1669783687405327000));
        QCOMPARE(cpu.points.back().tsNs, std::int64_t(1669783688960943000));
        const DeviceMemorySeries& gpu = series[1];
        QCOMPARE(gpu.deviceType, 1);
        QCOMPARE(gpu.deviceId, 1);
        QCOMPARE(gpu.points.size(), std::size_t(26770));
        QCOMPARE(gpu.peakAllocated, std::int64_t(6629508096));
        QCOMPARE(gpu.peakReserved, std::int64_t(12782141440));
        QCOMPARE(gpu.points.front().tsNs, std::int64_t(1669783687404093000));
        QCOMPARE(gpu.points.front().allocatedBytes, std::int64_t(4121780224));
        QCOMPARE(gpu.points.front().reservedBytes, std::int64_t(12782141440));
        QCOMPARE(gpu.points.back().tsNs, std::int64_t(1669783689122558000));
        QCOMPARE(gpu.points.back().allocatedBytes, std::int64_t(4096614400));
        for (std::size_t i = 1; i < gpu.points.size(); ++i) QVERIFY(gpu.points[i - 1].tsNs <= gpu.points[i].tsNs);
        QVERIFY(memoryTimeline(MeasuredRank {}).empty());
    }
};

QTEST_APPLESS_MAIN(TestTraceAnalysis)
#include "tst_trace_analysis.moc"
