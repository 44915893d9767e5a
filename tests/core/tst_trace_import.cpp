// Kineto trace import (core/trace/KinetoImport): counts, steps, ranks and the GPU breakdown of the four real
// HTA traces in shared/traces, plain vs gzip detection, truncated and garbage files.
#include "TestUtil.h"

#include "trace/KinetoImport.h"

#include <QObject>
#include <QTemporaryDir>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>
#include <zlib.h>

using namespace planscope;

namespace {

std::string tracePath(const char* name) { return std::string(PLANSCOPE_SHARED_DIR) + "/traces/" + name; }

// The whole uncompressed text of a gzip file.
std::string gunzip(const std::string& path)
{
    std::string text;
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return text;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, std::size_t(n));
    gzclose(f);
    return text;
}

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

// Expected values computed INDEPENDENTLY of this importer, with Python's gzip + json, in shared/traces:
//   python3 -c 'import gzip,json,re,sys;d=json.load(gzip.open(sys.argv[1]));ev=d["traceEvents"];k=[e for e in ev
//     if e.get("cat")=="kernel"];nk=[e for e in k if e["name"].startswith(("ncclKernel_","ncclDevKernel_"))];
//     print(len(ev),len(k),len(nk),{n:sum(1 for e in nk if re.match(r"nccl(?:Dev)?Kernel_"+n+"[_(]",e["name"]))
//     for n in ["AllReduce","Broadcast","SendRecv"]},sum(e.get("name")=="[memory]" for e in ev),list(dict.fromkeys(
//     e["name"] for e in ev if e.get("name","").startswith("ProfilerStep#"))),d["distributedInfo"]["rank"],
//     d["distributedInfo"]["world_size"])' FILE.json.gz
// The breakdown (integer ns) came from the same json.load with parse_float=Decimal, ts/dur * 1000 as int, then
// interval unions of non-NCCL and NCCL kernels, their intersection, and (last end - first start) - union of all.
// The README's facts agree (nccl_data 40,573 events, 15 AllReduce + 6 Broadcast, rank 0 of 2; sampled_rank-0
// 4,855 events, 1,154 kernels, 10 SendRecv, rank 0 of 128; sampled_rank-1 4,720 events, 1,104 kernels;
// df_index_resolver 216,092 events, 2,020 AllReduce, 28,010 [memory] events, rank 1 of 2).
struct Expected {
    const char* file;
    std::int64_t events, kernels, ncclKernels;
    std::map<std::string, std::int64_t> collectives;
    std::int64_t memoryEvents;
    std::vector<std::string> steps;
    int rank, worldSize;
    std::int64_t computeNs, commNs, overlapNs, idleNs;
};

const std::vector<Expected>& expected()
{
    static const std::vector<Expected> e {
        { "nccl_data.json.gz", 40573, 2700, 21, { { "AllReduce", 15 }, { "Broadcast", 6 } }, 0,
            { "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6" }, 0, 2, 115655847, 46876493, 7317025,
            505335690 },
        { "sampled_rank-0.json.gz", 4855, 1154, 10, { { "SendRecv", 10 } }, 0,
            { "ProfilerStep#551", "ProfilerStep#552" }, 0, 128, 210320000, 396199000, 59216000, 675515000 },
        { "sampled_rank-1.json.gz", 4720, 1104, 10, { { "SendRecv", 10 } }, 0,
            { "ProfilerStep#551", "ProfilerStep#552" }, 1, 128, 271973000, 379053000, 75530000, 655686000 },
        { "df_index_resolver.json.gz", 216092, 19370, 2020, { { "AllReduce", 2020 } }, 28010,
            { "ProfilerStep#2", "ProfilerStep#3", "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6" }, 1, 2,
            620516000, 357343000, 0, 755106000 },
    };
    return e;
}

bool closeNs(double seconds, std::int64_t ns) { return std::abs(seconds * 1e9 - double(ns)) < 0.5; }

} // namespace

class TestTraceImport : public QObject {
    Q_OBJECT
private slots:
    void realTracesMatchIndependentCounts_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(expected().size()); ++i) QTest::newRow(expected()[std::size_t(i)].file) << i;
    }
    void realTracesMatchIndependentCounts()
    {
        QFETCH(int, index);
        const Expected& x = expected()[std::size_t(index)];
        auto r = importKinetoTrace(tracePath(x.file));
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QVERIFY(!r->skipped);
        QCOMPARE(r->events, x.events);
        QCOMPARE(r->kernels, x.kernels);
        QCOMPARE(r->ncclKernels, x.ncclKernels);
        QVERIFY(r->collectives == x.collectives);
        QCOMPARE(r->memoryEvents, x.memoryEvents);
        QVERIFY(r->steps == x.steps);
        QCOMPARE(r->rank, x.rank);
        QCOMPARE(r->worldSize, x.worldSize);
        QCOMPARE(std::int64_t(r->kernelList.size()), x.kernels);
        QVERIFY2(closeNs(r->breakdown.computeSeconds, x.computeNs), qPrintable(test::num(r->breakdown.computeSeconds)));
        QVERIFY2(closeNs(r->breakdown.commSeconds, x.commNs), qPrintable(test::num(r->breakdown.commSeconds)));
        QVERIFY2(closeNs(r->breakdown.overlapSeconds, x.overlapNs), qPrintable(test::num(r->breakdown.overlapSeconds)));
        QVERIFY2(closeNs(r->breakdown.idleSeconds, x.idleNs), qPrintable(test::num(r->breakdown.idleSeconds)));
    }

    void collectiveMetadataAndBaseTime()
    {
        auto r = importKinetoTrace(tracePath("nccl_data.json.gz"));
        QVERIFY(r.ok());
        QCOMPARE(*r->baseTimeNs, std::int64_t(1711964646000000000));
        int withMeta = 0;
        for (const auto& k : r->kernelList)
            if (!k.collective.empty() && k.inMsgNelems >= 0 && !k.dtype.empty() && k.groupSize == 2) ++withMeta;
        QCOMPARE(withMeta, 21);
    }

    void memoryEventsKeepDeviceType()
    {
        auto r = importKinetoTrace(tracePath("df_index_resolver.json.gz"));
        QVERIFY(r.ok());
        int cuda = 0, cpu = 0;
        for (const auto& m : r->memoryList) (m.deviceType == 1 ? cuda : cpu) += 1;
        // README: 26,770 on CUDA (Device Type 1) and 1,240 on CPU.
        QCOMPARE(cuda, 26770);
        QCOMPARE(cpu, 1240);
    }

    // Plain JSON is detected by content, not by the name: an uncompressed copy named .json.gz imports the same.
    void plainJsonDetectedByMagicNotName()
    {
        QTemporaryDir dir;
        const std::string plain = dir.path().toStdString() + "/plain-named.json.gz";
        writeFile(plain, gunzip(tracePath("sampled_rank-1.json.gz")));
        auto r = importKinetoTrace(plain);
        QVERIFY(r.ok());
        QCOMPARE(r->events, std::int64_t(4720));
        QCOMPARE(r->kernels, std::int64_t(1104));
        QCOMPARE(r->rank, 1);
    }

    void truncatedJsonImportsItsHead()
    {
        QTemporaryDir dir;
        const std::string text = gunzip(tracePath("nccl_data.json.gz"));
        QVERIFY(text.size() > 1000);
        const std::string half = text.substr(0, text.size() / 2);
        const std::string path = dir.path().toStdString() + "/half.json";
        writeFile(path, half);
        auto r = importKinetoTrace(path);
        QVERIFY(r.ok());
        QVERIFY(r->skipped.has_value());
        QVERIFY(r->events > 0);
        QVERIFY(r->events < 40573);
        QVERIFY(r->skipped->offset > 0);
        QVERIFY(r->skipped->offset <= std::int64_t(half.size()));
        QVERIFY(!r->skipped->reason.empty());
        QCOMPARE(r->skipped->file, path);
    }

    void truncatedGzipImportsItsHead()
    {
        QTemporaryDir dir;
        const std::string bytes = slurp(tracePath("sampled_rank-0.json.gz"));
        const std::string path = dir.path().toStdString() + "/cut.json.gz";
        writeFile(path, bytes.substr(0, bytes.size() / 2));
        auto r = importKinetoTrace(path);
        QVERIFY(r.ok());
        QVERIFY(r->skipped.has_value());
        QVERIFY(r->events > 0 && r->events < 4855);
        QCOMPARE(r->rank, 0);
    }

    void garbageFailsCleanly()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/garbage.json";
        writeFile(path, std::string("\x01\x02this is not json {{{", 22));
        auto r = importKinetoTrace(path);
        QVERIFY(!r.ok());
        QVERIFY(!r.errors().empty());
        QVERIFY(r.errors().front().offset >= 0);

        const std::string notTrace = dir.path().toStdString() + "/other.json";
        writeFile(notTrace, "{\"schema\": \"planscope/plan/v1\"}");
        QVERIFY(!importKinetoTrace(notTrace).ok());

        QVERIFY(!importKinetoTrace(dir.path().toStdString() + "/missing.json").ok());
    }

    void timestampsAndNames()
    {
        QCOMPARE(microsecondsTextToNs("1.5"), std::int64_t(1500));
        QCOMPARE(microsecondsTextToNs("12.3456"), std::int64_t(12346));
        QCOMPARE(microsecondsTextToNs("1711964646123.001"), std::int64_t(1711964646123001));
        QCOMPARE(microsecondsTextToNs("7"), std::int64_t(7000));
        QCOMPARE(microsecondsTextToNs("-2.25"), std::int64_t(-2250));
        QCOMPARE(microsecondsTextToNs("1.5e3"), std::int64_t(1500000));
        QCOMPARE(collectiveFromKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), std::string("AllReduce"));
        QCOMPARE(collectiveFromKernelName("ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)"), std::string("SendRecv"));
        QCOMPARE(collectiveFromKernelName("ncclKernel_ReduceScatter_RING_LL_Sum_bf16"), std::string("ReduceScatter"));
        QCOMPARE(collectiveFromKernelName("ncclKernel_Reduce_RING_LL_Sum_bf16"), std::string("Reduce"));
        QCOMPARE(collectiveFromKernelName("volta_sgemm_128x64_nn"), std::string());
        QCOMPARE(collectiveFromArg("_allgather_base"), std::string("AllGather"));
        QCOMPARE(collectiveFromArg("allreduce"), std::string("AllReduce"));
    }

    void smallHandWrittenTrace()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/tiny.json";
        // compute [0,10us) and [20,30us); comm [5,25us): compute 20us, comm 20us, overlap 10us, idle 0.
        writeFile(path, "{\"distributedInfo\": {\"rank\": 3, \"world_size\": 4}, \"traceEvents\": [ "
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"ts\": 0.0, \"dur\": 10, \"tid\": 7, \"pid\": 0}, "
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllGather_RING_LL_Sum_bf16\", \"ts\": 5, \"dur\": 20.000, \"tid\": 9}, "
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"ts\": 20.0004, \"dur\": 9.9995, \"tid\": 7}, "
            "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"ts\": 0, \"dur\": 40}, "
            "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"ts\": 1, \"args\": {\"Device Type\": 1, \"Bytes\": 512}}, "
            "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"ProfilerStep#1\", \"ts\": 0, \"dur\": 40}]}");
        auto r = importKinetoTrace(path);
        QVERIFY(r.ok());
        QCOMPARE(r->rank, 3);
        QCOMPARE(r->worldSize, 4);
        QCOMPARE(r->events, std::int64_t(6));
        QCOMPARE(r->kernels, std::int64_t(3));
        QCOMPARE(r->ncclKernels, std::int64_t(1));
        QCOMPARE(r->collectives.at("AllGather"), std::int64_t(1));
        QCOMPARE(r->memoryEvents, std::int64_t(1));
        QCOMPARE(r->memoryList.front().bytes, std::int64_t(512));
        QVERIFY(r->steps == std::vector<std::string> { "ProfilerStep#1" });
        QVERIFY(closeNs(r->breakdown.computeSeconds, 20000));
        QVERIFY(closeNs(r->breakdown.commSeconds, 20000));
        QVERIFY(closeNs(r->breakdown.overlapSeconds, 10000));
        QVERIFY(closeNs(r->breakdown.idleSeconds, 0));
    }
};

QTEST_APPLESS_MAIN(TestTraceImport)
#include "tst_trace_import.moc"
