// What a file holds, told by content (core/io/FileKind.h), and a set of ranks from files and folders
// (core/trace/TraceFiles.h): the one rule the app's drop/open and planscope-cli import share. Expected ranks,
// world sizes and event counts were read with Python's gzip + json from samples/traces (distributedInfo.rank,
// distributedInfo.world_size, len(traceEvents)).
#include "calib/Profile.h"
#include "io/FileKind.h"
#include "trace/TraceFiles.h"

#include <QTemporaryDir>
#include <nlohmann/json.hpp>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <algorithm>
#include <atomic>
#include <string>

using namespace planscope;

namespace {
const std::string kTraces = PLANSCOPE_SAMPLES_DIR "/traces";
const std::string kNccl = PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/";

// The kind's name, so a failure prints which kind it was.
std::string kindOf(const std::string& path) { return std::string(toString(fileKindOf(path))); }
std::string kindOfHead(std::string_view head) { return std::string(toString(fileKindOfHead(head))); }

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}
} // namespace

class TestTraceFiles : public QObject {
    Q_OBJECT
private slots:
    void filesAreToldApartByContent()
    {
        QCOMPARE(kindOf(kTraces + "/nccl_data.json.gz"), std::string("trace")); // gzip
        QCOMPARE(kindOf(kTraces), std::string("trace"));                         // a folder of ranks
        QCOMPARE(kindOf(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json"), std::string("plan"));
        QCOMPARE(kindOf(kNccl + "a3mega-h100-2x8-all_reduce_perf.txt"), std::string("nccl-tests")); // text table
        QCOMPARE(kindOf(kNccl + "constructed-2x4-all_gather_perf.json"), std::string("nccl-tests")); // -J JSON
        QCOMPARE(kindOf(kTraces + "/no such file.json"), std::string("unreadable"));

        QTemporaryDir dir;
        const std::string plain = dir.filePath("rank0.json").toStdString();
        writeFile(plain, "{\"schemaVersion\": 1, \"traceEvents\": []}");
        QCOMPARE(kindOf(plain), std::string("trace"));
        const std::string profile = dir.filePath("m.profile.json").toStdString();
        writeFile(profile, profileToJson(Profile {}).dump(2));
        QCOMPARE(kindOf(profile), std::string("profile"));
        // A plan that mentions traceEvents in its name is still a plan: the schema decides first.
        QCOMPARE(kindOfHead("{\"schema\": \"planscope/plan/v1\", \"name\": \"traceEvents\"}"), std::string("plan"));
        // Anything else is handed to the plan reader, which names the byte where it stops.
        QCOMPARE(kindOfHead("not json"), std::string("plan"));
    }

    void aFolderStandsForItsTraces()
    {
        std::vector<SkippedRegion> skipped;
        const auto files = expandTracePaths({ kTraces }, skipped);
        // The four .json.gz, sorted; README.md and the licence are not traces.
        QCOMPARE(files.size(), std::size_t(4));
        QVERIFY(files[0].ends_with("df_index_resolver.json.gz"));
        QVERIFY(files[3].ends_with("sampled_rank-1.json.gz"));
        QVERIFY(skipped.empty());

        QTemporaryDir empty;
        expandTracePaths({ empty.path().toStdString() }, skipped);
        QCOMPARE(skipped.size(), std::size_t(1));
        QCOMPARE(skipped[0].offset, std::int64_t(-1));
    }

    void aSetIsOrderedByRankWithOneFilePerRank()
    {
        // Ranks (rank, world size): df_index_resolver (1, 2), nccl_data (0, 2), sampled_rank-0 (0, 128),
        // sampled_rank-1 (1, 128). Two jobs of two files each: the first file's world (2) is kept, sorted by rank;
        // the other job's files are skipped and say why.
        std::vector<double> fractions;
        std::mutex lock;
        TraceSetControl control;
        control.threads = 2;
        control.progress = [&](double f) {
            std::lock_guard<std::mutex> g(lock);
            fractions.push_back(f);
        };
        const TraceImport set = importTraces({ kTraces }, control);
        QVERIFY(!set.cancelled);
        QCOMPARE(set.ranks.size(), std::size_t(2));
        QVERIFY(set.ranks[0].file.ends_with("nccl_data.json.gz"));
        QCOMPARE(set.ranks[0].events, std::int64_t(40573));
        QVERIFY(set.ranks[1].file.ends_with("df_index_resolver.json.gz"));
        QCOMPARE(set.ranks[1].events, std::int64_t(216092));
        QCOMPARE(set.skipped.size(), std::size_t(2));
        for (const SkippedRegion& s : set.skipped) {
            QVERIFY(s.file.find("sampled_rank-") != std::string::npos);
            QCOMPARE(s.reason, std::string("from another job: world size 128, the set's is 2"));
        }
        QVERIFY(!fractions.empty());
        QCOMPARE(*std::max_element(fractions.begin(), fractions.end()), 1.0);

        // One job given as two files: both ranks, in rank order whatever the order given.
        const TraceImport job = importTraces({ kTraces + "/sampled_rank-1.json.gz", kTraces + "/sampled_rank-0.json.gz" });
        QCOMPARE(job.ranks.size(), std::size_t(2));
        QCOMPARE(job.ranks[0].rank, 0);
        QCOMPARE(job.ranks[0].events, std::int64_t(4855));
        QCOMPARE(job.ranks[1].rank, 1);
        QCOMPARE(job.ranks[1].events, std::int64_t(4720));
        QVERIFY(job.skipped.empty());

        // The same rank of the same world twice: the second file is skipped and says which one it repeats.
        const TraceImport twice = importTraces({ kTraces + "/nccl_data.json.gz", kTraces + "/nccl_data.json.gz" });
        QCOMPARE(twice.ranks.size(), std::size_t(1));
        QCOMPARE(twice.skipped.size(), std::size_t(1));
        QVERIFY(twice.skipped[0].reason.starts_with("duplicate rank 0"));
    }

    void cancelledBeforeItStarts()
    {
        std::atomic<bool> cancel { true };
        TraceSetControl control;
        control.cancel = &cancel;
        const TraceImport set = importTraces({ kTraces }, control);
        QVERIFY(set.cancelled);
        QVERIFY(set.ranks.empty());
    }
};

QTEST_APPLESS_MAIN(TestTraceFiles)
#include "tst_trace_files.moc"
