// Kineto trace import (core/trace/KinetoImport): counts, kept events by kind, lanes, steps, ranks and the GPU
// breakdown of the four real HTA traces in samples/traces, plain vs gzip detection, truncated, damaged and
// garbage input, text in memory with escapes, progress and cancellation, and the name parsers.
#include "TestUtil.h"

#include "trace/KinetoImport.h"

#include <QObject>
#include <QTemporaryDir>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>
#include <zlib.h>

using namespace planscope;

namespace {

std::string tracePath(const char* name) { return std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/" + name; }

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

// Expected values computed INDEPENDENTLY of this importer, with Python's gzip + json, in samples/traces:
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
// Kept events by kind and lanes (distinct (pid, tid, GPU?) of the kept events; a string pid counts as -1, a
// string tid as its trailing integer or -1), from the same json.load:
//   K=["kernel","gpu_memcpy","gpu_memset","gpu_user_annotation","cpu_op","user_annotation"];G=K[:4]
//   kept=[e for e in ev if e.get("ph")=="X" and e.get("cat") in K];print([sum(e["cat"]==c for e in kept) for c
//     in K]);n=lambda v,t:v if isinstance(v,int) else int(re.search(r"(\d+)$",v).group(1)) if t and
//     isinstance(v,str) and re.search(r"(\d+)$",v) else -1;print(len({(n(e.get("pid"),0),n(e.get("tid"),1),
//     e["cat"] in G) for e in kept}))
struct Expected {
    const char* file;
    std::int64_t events, kernels, ncclKernels;
    std::map<std::string, std::int64_t> collectives;
    std::int64_t memoryEvents;
    std::vector<std::string> steps;
    int rank, worldSize;
    std::int64_t computeNs, commNs, overlapNs, idleNs;
    std::vector<std::int64_t> byKind; // kernel, gpu_memcpy, gpu_memset, gpu_user_annotation, cpu_op, user_annotation
    std::size_t lanes;
};

const std::vector<Expected>& expected()
{
    static const std::vector<Expected> e {
        { "nccl_data.json.gz", 40573, 2700, 21, { { "AllReduce", 15 }, { "Broadcast", 6 } }, 0,
            { "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6" }, 0, 2, 115655847, 46876493, 7317025,
            505335690, { 2700, 960, 114, 30, 14346, 42 }, 4 },
        { "sampled_rank-0.json.gz", 4855, 1154, 10, { { "SendRecv", 10 } }, 0,
            { "ProfilerStep#551", "ProfilerStep#552" }, 0, 128, 210320000, 396199000, 59216000, 675515000,
            { 1154, 40, 10, 0, 2329, 73 }, 7 },
        { "sampled_rank-1.json.gz", 4720, 1104, 10, { { "SendRecv", 10 } }, 0,
            { "ProfilerStep#551", "ProfilerStep#552" }, 1, 128, 271973000, 379053000, 75530000, 655686000,
            { 1104, 40, 10, 0, 2302, 65 }, 7 },
        { "df_index_resolver.json.gz", 216092, 19370, 2020, { { "AllReduce", 2020 } }, 28010,
            { "ProfilerStep#2", "ProfilerStep#3", "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6" }, 1, 2,
            620516000, 357343000, 0, 755106000, { 19370, 2040, 880, 0, 56680, 2035 }, 4 },
    };
    return e;
}

bool closeNs(double seconds, std::int64_t ns) { return std::abs(seconds * 1e9 - double(ns)) < 0.5; }

std::int64_t countKind(const MeasuredRank& r, EventKind k)
{
    return std::count_if(r.eventList.begin(), r.eventList.end(), [&](const MeasuredEvent& e) { return e.kind == k; });
}

const MeasuredEvent* findEvent(const MeasuredRank& r, std::string_view name)
{
    for (const MeasuredEvent& e : r.eventList)
        if (r.nameOf(e) == name) return &e;
    return nullptr;
}

// Keys in unusual orders, escapes (\" \u00e9, a surrogate pair, \t, \/), a string tid, NCCL metadata on a kernel
// whose name names no collective, launches tying kernels to the step, an nccl:* and a PP: annotation, a [memory]
// event, a flow event, an array entry, and distributedInfo / deviceProperties after traceEvents.
const std::string kHandWritten = R"({"schemaVersion": 1, "traceEvents": [
  {"args": {"Process Group Name": "tp\u005f0", "dtype": "Half", "Group size": 4, "Out msg nelems": 1000,
            "In msg nelems": 250, "Collective name": "all_gather", "correlation": 7, "grid": [1, [2], {"x": null}]},
   "dur": 20, "ts": 5.5, "name": "ncclDevKernel_Generic", "tid": "stream 9", "pid": 0,
   "cat": "kernel", "ph": "X"},
)"
    // moc misreads \" inside raw strings: the lines with escaped quotes are ordinary literals.
    "  {\"name\": \"gemm \\\"fused\\\" \\u00e9\\ud83d\\ude00\\t\\/\", \"ph\": \"X\", \"ts\": 0, \"cat\": \"kernel\", \"dur\": 10,\n"
    R"(
   "pid": 0, "tid": 7, "args": {"correlation": 6}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1, "dur": 2, "pid": 1, "tid": 1,
   "args": {"correlation": 6}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 3, "dur": 1, "pid": 1, "tid": 1,
   "args": {"correlation": 7}},
  {"dur": 50, "name": "ProfilerStep#12", "ts": 0, "cat": "user_annotation", "ph": "X", "pid": 1, "tid": 1},
  {"ph": "X", "cat": "user_annotation", "name": "nccl:all_gather_into_tensor", "ts": 3, "dur": 4, "pid": 1, "tid": 1},
  {"ph": "X", "cat": "cpu_op", "name": "PP:0F1", "ts": 2.25, "dur": 1e1, "pid": 1, "tid": 1},
  {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "ts": 2, "pid": 1, "tid": 1,
   "args": {"Total Reserved": 4096, "Bytes": -512, "Device Id": 0, "Device Type": 1, "Total Allocated": 1024}},
  {"ph": "f", "cat": "ac2g", "id": 6, "ts": 5, "pid": 0, "tid": 7, "bp": "e", "name": "ac2g"},
  ["not", "an", "event"]
 ],
 "distributedInfo": {"world_size": 8, "backend": "nccl", "rank": 5},
 "baseTimeNanoseconds": 1700000000000000000,
)"
    " \"deviceProperties\": [{\"id\": 0, \"name\": \"H100 \\\"SXM\\\"\"}]}\n";

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
        static constexpr EventKind kinds[] = { EventKind::Kernel, EventKind::Memcpy, EventKind::Memset,
            EventKind::GpuAnnotation, EventKind::CpuOp, EventKind::CpuAnnotation };
        for (std::size_t k = 0; k < 6; ++k) QCOMPARE(countKind(r.value(), kinds[k]), x.byKind[k]);
        QCOMPARE(r->lanes.size(), x.lanes);
        std::int64_t onLanes = 0;
        for (const MeasuredLane& l : r->lanes) onLanes += l.events;
        QCOMPARE(onLanes, std::int64_t(r->eventList.size()));
        QVERIFY(std::is_sorted(r->eventList.begin(), r->eventList.end(),
            [](const MeasuredEvent& a, const MeasuredEvent& b) { return a.startNs < b.startNs; }));
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
        for (const auto& k : r->eventList) {
            if (k.kind != EventKind::Kernel || k.collective == CollectiveKind::None || k.comm < 0) continue;
            const CommInfo& c = r->comms[std::size_t(k.comm)];
            if (c.inMsgNelems >= 0 && c.dtype >= 0 && c.groupSize == 2 && c.processGroup >= 0
                && r->names[std::size_t(c.processGroup)] == "0")
                ++withMeta;
        }
        QCOMPARE(withMeta, 21);
        // README: deviceProperties lists 8 x NVIDIA A100-PG509-200.
        QCOMPARE(r->deviceNames, std::vector<std::string>(8, "NVIDIA A100-PG509-200"));
    }

    // ProfilerStep#4..6 of nccl_data, from the user_annotation text ("ts": 4458676416788.066, "dur": 222442.191,
    // ...): python3 -c 'import gzip,json;from decimal import Decimal as D;print([(e["name"],int(e["ts"]*1000),
    //   int(e["dur"]*1000)) for e in json.load(gzip.open("nccl_data.json.gz"),parse_float=D)["traceEvents"] if
    //   e.get("name","").startswith("ProfilerStep#")])'
    void stepSpansFromText()
    {
        auto r = importKinetoTrace(tracePath("nccl_data.json.gz"));
        QVERIFY(r.ok());
        QCOMPARE(r->stepSpans.size(), std::size_t(3));
        const std::int64_t start[] = { 4458676416788066, 4458676639291351, 4458676859077781 };
        const std::int64_t dur[] = { 222442191, 219726905, 224936243 };
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(r->stepSpans[i].name, "ProfilerStep#" + std::to_string(i + 4));
            QCOMPARE(r->stepSpans[i].number, std::int64_t(i + 4));
            QCOMPARE(r->stepSpans[i].startNs, start[i]);
            QCOMPARE(r->stepSpans[i].durNs, dur[i]);
        }
        // Every kernel is launched inside a step (Python: 900 per step, none outside; tst_trace_analysis.cpp).
        for (const MeasuredEvent& e : r->eventList)
            if (e.kind == EventKind::Kernel) QVERIFY(e.step >= 0);
    }

    // nccl:* annotations: python3 -c 'import gzip,json,sys,collections;print(collections.Counter((e.get("cat"),
    //   e["name"]) for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("name","").startswith(
    //   "nccl:")))' FILE.json.gz
    // -> nccl_data: 15 + 15 nccl:all_reduce and 6 + 6 nccl:broadcast (user_annotation + gpu_user_annotation);
    //    sampled_rank-0: 4 nccl:all_reduce, 4 nccl:all_to_all, 2 nccl:_all_gather_base (user_annotation).
    void ncclAnnotationsNameTheirCollective()
    {
        auto count = [](const MeasuredRank& r, EventKind kind, CollectiveKind c) {
            return std::count_if(r.eventList.begin(), r.eventList.end(), [&](const MeasuredEvent& e) {
                return e.kind == kind && e.collective == c && r.nameOf(e).substr(0, 5) == "nccl:";
            });
        };
        auto n = importKinetoTrace(tracePath("nccl_data.json.gz"));
        QVERIFY(n.ok());
        QCOMPARE(count(n.value(), EventKind::CpuAnnotation, CollectiveKind::AllReduce), 15);
        QCOMPARE(count(n.value(), EventKind::GpuAnnotation, CollectiveKind::AllReduce), 15);
        QCOMPARE(count(n.value(), EventKind::CpuAnnotation, CollectiveKind::Broadcast), 6);
        QCOMPARE(count(n.value(), EventKind::GpuAnnotation, CollectiveKind::Broadcast), 6);
        QCOMPARE(n->ncclKernels, std::int64_t(21)); // annotations are not kernels
        auto s = importKinetoTrace(tracePath("sampled_rank-0.json.gz"));
        QVERIFY(s.ok());
        QCOMPARE(count(s.value(), EventKind::CpuAnnotation, CollectiveKind::AllReduce), 4);
        QCOMPARE(count(s.value(), EventKind::CpuAnnotation, CollectiveKind::AllToAll), 4);
        QCOMPARE(count(s.value(), EventKind::CpuAnnotation, CollectiveKind::AllGather), 2);
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
        QCOMPARE(r->skipped->offset, std::int64_t(half.size())); // the first byte that is missing
        QCOMPARE(r->skipped->reason.english(), std::string("truncated: the file ends inside traceEvents"));
        QCOMPARE(r->skipped->file, path);
    }

    // Cut anywhere, the import never crashes and never stops past the cut; cuts near 1 MiB make tokens straddle
    // the file import's chunks.
    void truncatedAtManyOffsets()
    {
        for (std::size_t cut = 0; cut <= kHandWritten.rfind('}'); ++cut) {
            auto r = importKinetoText(std::string_view(kHandWritten).substr(0, cut), "cut");
            const std::int64_t at = r.ok() ? (r->skipped ? r->skipped->offset : -1) : r.errors().front().offset;
            QVERIFY2(at >= 0 && at <= std::int64_t(cut), qPrintable(QString("cut %1: offset %2").arg(cut).arg(at)));
        }
        QTemporaryDir dir;
        const std::string text = gunzip(tracePath("nccl_data.json.gz"));
        const std::size_t mib = std::size_t(1) << 20;
        std::vector<std::size_t> cuts { mib - 1, mib, mib + 1, mib + 7, 2 * mib + 3 };
        for (std::size_t i = 1; i < 20; ++i) cuts.push_back(text.size() * i / 20);
        for (std::size_t cut : cuts) {
            const std::string path = dir.path().toStdString() + "/cut.json";
            writeFile(path, text.substr(0, cut));
            auto r = importKinetoTrace(path);
            QVERIFY(r.ok()); // distributedInfo comes before traceEvents in this file
            QVERIFY(r->skipped);
            QVERIFY(r->skipped->offset <= std::int64_t(cut));
            QCOMPARE(importKinetoText(std::string_view(text).substr(0, cut), path)->events, r->events);
        }
    }

    void damagedText()
    {
        const std::string good = R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2}]})";
        auto ok = importKinetoText(good + " \n\t\r ", "ws");
        QVERIFY(ok.ok());
        QVERIFY(!ok->skipped); // whitespace after the top-level value is fine
        auto after = importKinetoText(good + " x", "garbage");
        QVERIFY(after.ok());
        QVERIFY(after->skipped);
        QCOMPARE(after->skipped->offset, std::int64_t(good.size() + 1));
        QCOMPARE(after->skipped->reason.english(), std::string("unexpected character 'x'"));
        QCOMPARE(after->kernels, std::int64_t(1));

        struct Bad {
            std::string text;
            std::int64_t offset;
            std::string reason;
        };
        // The offset is that of the first byte that cannot continue valid JSON, found with Python's str.index on
        // each text: t.index("tru}") + 3 = 40, t.index("\\q") + 1 = 42, t.index("G") = 45, t.index("\t") = 41,
        // t.index(b"\xc3") + 1 = 42, t.index("01") + 1 = 38, t.index("-}") + 1 = 38, t.index("1.}") + 2 = 39,
        // t.index(",,") + 1 = 29, t.index("2}") + 1 = 50.
        const std::vector<Bad> bad {
            { R"({"traceEvents": [{"ph": "X"}, {"ph": tru}]})", 40, "unexpected character '}'" },
            { R"({"traceEvents": [{"ph": "X"}, {"name": "a\qb"}]})", 42, "invalid escape in a string" },
            { R"({"traceEvents": [{"ph": "X"}, {"name": "a\u12G4"}]})", 45, "invalid \\u escape in a string" },
            { "{\"traceEvents\": [{\"ph\": \"X\"}, {\"name\": \"a\tb\"}]}", 41, "control character in a string" },
            { "{\"traceEvents\": [{\"ph\": \"X\"}, {\"name\": \"a\xc3\x28\"}]}", 42, "invalid UTF-8 in a string" },
            { R"({"traceEvents": [{"ph": "X"}, {"ts": 01}]})", 38, "unexpected character '1'" },
            { R"({"traceEvents": [{"ph": "X"}, {"ts": -}]})", 38, "unexpected character '}'" },
            { R"({"traceEvents": [{"ph": "X"}, {"ts": 1.}]})", 39, "unexpected character '}'" },
            { R"({"traceEvents": [{"ph": "X"},, {}]})", 29, "unexpected character ','" },
            { R"({"traceEvents": [{"ph": "X"}, {"args": {"a": [1, 2}}]})", 50, "unexpected character '}'" },
        };
        for (const Bad& b : bad) {
            auto r = importKinetoText(b.text, "bad");
            QVERIFY2(r.ok() && r->skipped, b.text.c_str()); // one event was read before the damage
            QCOMPARE(r->events, std::int64_t(1));
            QCOMPARE(r->skipped->offset, b.offset);
            QCOMPARE(r->skipped->reason.english(), b.reason);
        }
        // Nothing read before the damage: an error with the offset.
        auto none = importKinetoText(R"({"a": [1, 2,]})", "none");
        QVERIFY(!none.ok());
        QCOMPARE(none.errors().front().offset, std::int64_t(12));
        QCOMPARE(none.errors().front().message, std::string("unexpected character ']'"));
        auto empty = importKinetoText("", "empty");
        QVERIFY(!empty.ok());
        QCOMPARE(empty.errors().front().message, std::string("truncated: the file ends before the top-level object"));
        auto array = importKinetoText("[1, 2]", "array");
        QVERIFY(!array.ok());
        QCOMPARE(array.errors().front().message, std::string("not a Kineto trace: the top-level value is not an object"));
    }

    void handWrittenText()
    {
        auto r = importKinetoText(kHandWritten, "hand");
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QVERIFY(!r->skipped);
        QCOMPARE(r->file, std::string("hand"));
        QCOMPARE(r->rank, 5);
        QCOMPARE(r->worldSize, 8);
        QCOMPARE(*r->baseTimeNs, std::int64_t(1700000000000000000));
        QCOMPARE(r->deviceNames, std::vector<std::string> { "H100 \"SXM\"" });
        QCOMPARE(r->events, std::int64_t(10));
        QCOMPARE(r->kernels, std::int64_t(2));
        QCOMPARE(r->ncclKernels, std::int64_t(1));
        QVERIFY((r->collectives == std::map<std::string, std::int64_t> { { "AllGather", 1 } }));
        QCOMPARE(r->eventList.size(), std::size_t(5)); // 2 kernels, the step, nccl:*, PP:*; not the launches
        QCOMPARE(r->lanes.size(), std::size_t(3)); // (0, 9) and (0, 7) on the GPU, (1, 1) on the CPU

        const MeasuredEvent* gemm = findEvent(r.value(), "gemm \"fused\" \xc3\xa9\xf0\x9f\x98\x80\t/");
        QVERIFY(gemm);
        QVERIFY(gemm->collective == CollectiveKind::None);
        QCOMPARE(gemm->correlation, std::int64_t(6));
        QCOMPARE(gemm->step, std::int16_t(0));
        QCOMPARE(r->lanes[std::size_t(gemm->lane)].tid, std::int64_t(7));

        const MeasuredEvent* nccl = findEvent(r.value(), "ncclDevKernel_Generic");
        QVERIFY(nccl);
        QCOMPARE(nccl->startNs, std::int64_t(5500));
        QCOMPARE(nccl->durNs, std::int64_t(20000));
        QVERIFY(nccl->collective == CollectiveKind::AllGather); // from "Collective name": the name names none
        QCOMPARE(nccl->step, std::int16_t(0)); // launched at 3 us, inside ProfilerStep#12
        const MeasuredLane& lane = r->lanes[std::size_t(nccl->lane)];
        QCOMPARE(lane.pid, std::int64_t(0));
        QCOMPARE(lane.tid, std::int64_t(9)); // "stream 9"
        QVERIFY(lane.gpu);
        QCOMPARE(lane.events, std::int64_t(1));
        QVERIFY(nccl->comm >= 0);
        const CommInfo& c = r->comms[std::size_t(nccl->comm)];
        QCOMPARE(c.inMsgNelems, std::int64_t(250));
        QCOMPARE(c.outMsgNelems, std::int64_t(1000));
        QCOMPARE(c.groupSize, std::int64_t(4));
        QCOMPARE(r->names[std::size_t(c.dtype)], std::string("Half"));
        QCOMPARE(r->names[std::size_t(c.processGroup)], std::string("tp_0"));

        const MeasuredEvent* annotation = findEvent(r.value(), "nccl:all_gather_into_tensor");
        QVERIFY(annotation);
        QVERIFY(annotation->kind == EventKind::CpuAnnotation);
        QVERIFY(annotation->collective == CollectiveKind::AllGather);
        const MeasuredEvent* action = findEvent(r.value(), "PP:0F1");
        QVERIFY(action);
        QVERIFY(action->kind == EventKind::CpuOp);
        QCOMPARE(action->startNs, std::int64_t(2250));
        QCOMPARE(action->durNs, std::int64_t(10000)); // 1e1 us
        QCOMPARE(action->step, std::int16_t(0));

        QCOMPARE(r->stepSpans.size(), std::size_t(1));
        QCOMPARE(r->stepSpans[0].name, std::string("ProfilerStep#12"));
        QCOMPARE(r->stepSpans[0].number, std::int64_t(12));
        QCOMPARE(r->stepSpans[0].durNs, std::int64_t(50000));
        QCOMPARE(r->memoryList.size(), std::size_t(1));
        const MeasuredMemoryEvent& m = r->memoryList[0];
        QCOMPARE(m.tsNs, std::int64_t(2000));
        QCOMPARE(m.bytes, std::int64_t(-512));
        QCOMPARE(m.totalAllocated, std::int64_t(1024));
        QCOMPARE(m.totalReserved, std::int64_t(4096));
        QCOMPARE(m.deviceType, std::int16_t(1));
        QCOMPARE(m.deviceId, std::int16_t(0));
        // Sorted by start, file order among equal starts: gemm (0, 2nd in the file) before the step (0, 5th).
        QCOMPARE(r->nameOf(r->eventList[0]), r->nameOf(*gemm));
        QCOMPARE(std::string(r->nameOf(r->eventList[1])), std::string("ProfilerStep#12"));
    }

    // The same text from a plain file, a gzip file and memory imports the same.
    void fileGzipAndTextAgree()
    {
        QTemporaryDir dir;
        const std::string plain = dir.path().toStdString() + "/hand.json";
        const std::string gz = dir.path().toStdString() + "/hand.json.gz";
        writeFile(plain, kHandWritten);
        gzFile f = gzopen(gz.c_str(), "wb");
        gzwrite(f, kHandWritten.data(), unsigned(kHandWritten.size()));
        gzclose(f);
        auto a = importKinetoTrace(plain);
        auto b = importKinetoTrace(gz);
        auto c = importKinetoText(kHandWritten, "text");
        QVERIFY(a.ok() && b.ok() && c.ok());
        for (const MeasuredRank* r : { &a.value(), &b.value() }) {
            QCOMPARE(r->names, c->names);
            QCOMPARE(r->eventList.size(), c->eventList.size());
            for (std::size_t i = 0; i < c->eventList.size(); ++i) {
                QCOMPARE(r->eventList[i].startNs, c->eventList[i].startNs);
                QCOMPARE(r->eventList[i].name, c->eventList[i].name);
                QCOMPARE(r->eventList[i].step, c->eventList[i].step);
            }
        }
    }

    void progressAndCancel()
    {
        // Progress: bytes of the file on disk, never decreasing, ending with (size, size).
        const std::string gz = tracePath("df_index_resolver.json.gz");
        std::vector<std::pair<std::int64_t, std::int64_t>> calls;
        ImportControl progress;
        progress.progress = [&](std::int64_t done, std::int64_t total) { calls.emplace_back(done, total); };
        auto r = importKinetoTrace(gz, progress);
        QVERIFY(r.ok());
        const auto size = std::int64_t(slurp(gz).size());
        QVERIFY(calls.size() >= 6); // 53.7 MB uncompressed: every 8 MiB, and at the end
        QVERIFY(calls.back() == std::make_pair(size, size));
        for (std::size_t i = 1; i < calls.size(); ++i) QVERIFY(calls[i].first >= calls[i - 1].first);

        // Cancelled from the first progress call: it stops there, not at the end.
        std::atomic<bool> cancel { false };
        ImportControl stop;
        stop.cancel = &cancel;
        stop.progress = [&](std::int64_t, std::int64_t) { cancel = true; };
        auto c = importKinetoTrace(gz, stop);
        QVERIFY(!c.ok());
        QCOMPARE(c.errors().front().message, std::string("cancelled"));
        QVERIFY(c.errors().front().offset > 0 && c.errors().front().offset < 53733385);

        // Set before a small file's import: noticed at the end.
        std::atomic<bool> already { true };
        ImportControl before;
        before.cancel = &already;
        auto s = importKinetoTrace(tracePath("sampled_rank-0.json.gz"), before);
        QVERIFY(!s.ok());
        QCOMPARE(s.errors().front().message, std::string("cancelled"));
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
        QCOMPARE(r->skipped->reason.english(), std::string("gzip: unexpected end of file (the file ends inside traceEvents)"));
    }

    void garbageFailsCleanly()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/garbage.json";
        writeFile(path, std::string("\x01\x02this is not json {{{", 22));
        auto r = importKinetoTrace(path);
        QVERIFY(!r.ok());
        QVERIFY(!r.errors().empty());
        QCOMPARE(r.errors().front().offset, std::int64_t(0));
        QCOMPARE(r.errors().front().message, std::string("unexpected byte 0x01"));

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
        QCOMPARE(microsecondsTextToNs("-0.0005"), std::int64_t(-1));
        QCOMPARE(microsecondsTextToNs("1.5e3"), std::int64_t(1500000));
        QCOMPARE(collectiveFromKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), std::string("AllReduce"));
        QCOMPARE(collectiveFromKernelName("ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)"), std::string("SendRecv"));
        QCOMPARE(collectiveFromKernelName("ncclKernel_ReduceScatter_RING_LL_Sum_bf16"), std::string("ReduceScatter"));
        QCOMPARE(collectiveFromKernelName("ncclKernel_Reduce_RING_LL_Sum_bf16"), std::string("Reduce"));
        QCOMPARE(collectiveFromKernelName("volta_sgemm_128x64_nn"), std::string());
        QCOMPARE(collectiveFromArg("_allgather_base"), std::string("AllGather"));
        QCOMPARE(collectiveFromArg("allreduce"), std::string("AllReduce"));
        const std::pair<const char*, const char*> args[] = { { "all_reduce", "AllReduce" },
            { "allreduce_coalesced", "AllReduce" }, { "all_gather", "AllGather" },
            { "allgather_into_tensor_coalesced", "AllGather" }, { "_all_gather_base", "AllGather" },
            { "reduce_scatter", "ReduceScatter" }, { "_reduce_scatter_base", "ReduceScatter" },
            { "all_to_all", "AllToAll" }, { "all_to_all_single", "AllToAll" }, { "broadcast", "Broadcast" },
            { "reduce", "Reduce" }, { "send", "SendRecv" }, { "barrier", "" }, { "", "" } };
        for (const auto& [arg, op] : args) QCOMPARE(collectiveFromArg(arg), std::string(op));
        for (int c = 0; c <= int(CollectiveKind::Other); ++c)
            QVERIFY(collectiveKindFromString(toString(CollectiveKind(c))) == CollectiveKind(c));
        QCOMPARE(std::string(toString(CollectiveKind::None)), std::string());
        QVERIFY(collectiveKindFromString("allreduce") == CollectiveKind::None);
        QCOMPARE(std::string(toString(EventKind::Kernel)), std::string("kernel"));
        QCOMPARE(std::string(toString(EventKind::Memcpy)), std::string("gpu_memcpy"));
        QCOMPARE(std::string(toString(EventKind::Memset)), std::string("gpu_memset"));
        QCOMPARE(std::string(toString(EventKind::GpuAnnotation)), std::string("gpu_user_annotation"));
        QCOMPARE(std::string(toString(EventKind::CpuOp)), std::string("cpu_op"));
        QCOMPARE(std::string(toString(EventKind::CpuAnnotation)), std::string("user_annotation"));
        QVERIFY(isGpuKind(EventKind::GpuAnnotation) && !isGpuKind(EventKind::CpuOp));
    }

    void pipelineActions()
    {
        struct Case {
            const char* name;
            int stage;
            const char* kind;
            int microbatch;
        };
        const Case ok[] = { { "PP:0F1", 0, "F", 1 }, { "PP:3SEND_B0", 3, "SEND_B", 0 }, { "PP:1UNSHARD", 1, "UNSHARD", -1 },
            { "PP:12W7", 12, "W", 7 }, { "PP:2REDUCE_GRAD", 2, "REDUCE_GRAD", -1 }, { "PP:0RECV_F3", 0, "RECV_F", 3 },
            { "PP:5I10", 5, "I", 10 }, { "PP:4RESHARD2", 4, "RESHARD", 2 } };
        for (const Case& c : ok) {
            const auto a = parsePipelineAction(c.name);
            QVERIFY2(a, c.name);
            QCOMPARE(a->stage, c.stage);
            QCOMPARE(a->kind, std::string(c.kind));
            QCOMPARE(a->microbatch, c.microbatch);
        }
        for (const char* bad : { "0F1", "pp:0F1", "PP:", "PP:F1", "PP:0X1", "PP:0F1x", "PP:0F", "PP:0SEND_B",
                 "PP:1UNSHARDx", "PP:-1F1", "PP:0 F1", "PP:9999999999F1" })
            QVERIFY2(!parsePipelineAction(bad), bad);
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

    // A step seen only on the GPU side gets the GPU span; a CPU one wins wherever both exist.
    void gpuStepOnlyWithoutCpuStep()
    {
        auto r = importKinetoText(R"({"traceEvents": [
            {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "ts": 100, "dur": 30},
            {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#2", "ts": 200, "dur": 30},
            {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "ts": 150, "dur": 60},
            {"ph": "X", "cat": "kernel", "name": "k", "ts": 110, "dur": 5}]})",
            "gpu-steps");
        QVERIFY(r.ok());
        QCOMPARE(r->stepSpans.size(), std::size_t(2));
        QCOMPARE(r->stepSpans[0].startNs, std::int64_t(100000));
        QCOMPARE(r->stepSpans[0].durNs, std::int64_t(30000));
        QCOMPARE(r->stepSpans[1].startNs, std::int64_t(150000));
        QCOMPARE(r->stepSpans[1].durNs, std::int64_t(60000));
        QCOMPARE(findEvent(r.value(), "k")->step, std::int16_t(0)); // no launch: its own start
    }
};

QTEST_APPLESS_MAIN(TestTraceImport)
#include "tst_trace_import.moc"

