// What a file holds, told by content (core/io/FileKind.h), and a set of ranks from files and folders
// (core/trace/TraceFiles.h): the one rule the app's drop/open and planscope-cli import share. Expected ranks,
// world sizes and event counts were read with Python's gzip + json from samples/traces (distributedInfo.rank,
// distributedInfo.world_size, len(traceEvents)).
#include "TestUtil.h"

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

using test::rankTrace;
using test::writeFile;
using test::writeTwoThousandRanks;
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
        // Launch configs: a Megatron-LM line, torchtitan's TOML, a Megatron-Bridge / NeMo YAML, a DeepSpeed JSON.
        const std::string launches = std::string(PLANSCOPE_SOURCE_DIR) + "/tests/data/launch-configs/";
        for (const char* f : { "gpt-175b-megatron.sh", "torchtitan-llama3_8b.toml", "nemo-megatron_llama_config.yaml",
                 "bridge-llama32_1b_pretrain.yaml", "bridge-llama3-70b-run-config.yaml", "deepspeed-zero3.json" })
            QVERIFY2(kindOf(launches + f) == "launch-config", f);
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

    void aFolderOfSeveralJobsKeepsOneAndSaysWhy()
    {
        // samples/traces holds three jobs (samples/traces/README.md): df_index_resolver (rank 1 of 2, traced from
        // 2022-11-30 04:48:07 UTC), nccl_data (rank 0 of 2, from 2024-05-23 00:15:22 UTC: baseTimeNanoseconds
        // 1711964646000000000 + 4458676416788.066 us) and the sampled_rank pair (ranks 0 and 1 of 128, from
        // 2023-04-28 23:51:38 UTC). First kept event and last end, in epoch ns, from Python (gzip + json with
        // parse_float=Decimal over the ph "X" events of the kept categories and the [memory] events).
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
        QVERIFY(set.skipped.empty());
        QCOMPARE(set.jobs.size(), std::size_t(3));
        QCOMPARE(set.jobs[0].worldSize, 2);
        QVERIFY(set.jobs[0].ranks == std::vector<int> { 1 });
        QCOMPARE(set.jobs[0].startNs, std::int64_t(1669783687384669000));
        QCOMPARE(set.jobs[0].endNs, std::int64_t(1669783689122571000));
        QCOMPARE(set.jobs[1].worldSize, 2);
        QVERIFY(set.jobs[1].ranks == std::vector<int> { 0 });
        QCOMPARE(set.jobs[1].startNs, std::int64_t(1716423322416788066));
        QCOMPARE(set.jobs[1].endNs, std::int64_t(1716423323084014024));
        QCOMPARE(set.jobs[2].worldSize, 128);
        QVERIFY((set.jobs[2].ranks == std::vector<int> { 0, 1 }));
        QCOMPARE(set.jobs[2].startNs, std::int64_t(1682725898079292000));
        QCOMPARE(set.jobs[2].endNs, std::int64_t(1682725899318077000));
        QCOMPARE(set.jobs[2].files.size(), std::size_t(2));

        // The job with the most ranks is kept, in rank order; each other file is named with its job.
        QCOMPARE(set.job, 2);
        QCOMPARE(set.ranks.size(), std::size_t(2));
        QCOMPARE(set.ranks[0].rank, 0);
        QCOMPARE(set.ranks[0].events, std::int64_t(4855));
        QCOMPARE(set.ranks[1].rank, 1);
        QCOMPARE(set.ranks[1].events, std::int64_t(4720));
        QCOMPARE(set.excluded.size(), std::size_t(2));
        QVERIFY(set.excluded[0].file.ends_with("df_index_resolver.json.gz"));
        QCOMPARE(int(set.excluded[0].reason), int(ExcludedTrace::OtherJob));
        QCOMPARE(set.excluded[0].job, std::size_t(0));
        QCOMPARE(set.excluded[0].text,
            std::string("from another job (world size 2, traced 2022-11-30 04:48:07 UTC); the set keeps the job of world "
                        "size 128, traced 2023-04-28 23:51:38 UTC with 2 ranks"));
        QVERIFY(set.excluded[1].file.ends_with("nccl_data.json.gz"));
        QCOMPARE(set.excluded[1].job, std::size_t(1));
        QCOMPARE(set.excluded[1].rank, 0);
        QCOMPARE(set.excluded[1].worldSize, 2);
        QVERIFY(set.excluded[1].text.starts_with("from another job (world size 2, traced 2024-05-23 00:15:22 UTC)"));
        QVERIFY(!fractions.empty());
        QCOMPARE(*std::max_element(fractions.begin(), fractions.end()), 1.0);

        // The job the user picks is kept instead, and the pair is named as left out.
        TraceSetControl pick;
        pick.job = 1;
        const TraceImport picked = importTraces({ kTraces }, pick);
        QCOMPARE(picked.job, 1);
        QCOMPARE(picked.ranks.size(), std::size_t(1));
        QVERIFY(picked.ranks[0].file.ends_with("nccl_data.json.gz"));
        QCOMPARE(picked.excluded.size(), std::size_t(3));
        for (const ExcludedTrace& x : picked.excluded) QCOMPARE(int(x.reason), int(ExcludedTrace::OtherJob));

        // The same world size and complementary ranks do not make one job: nccl_data (rank 0 of 2) and
        // df_index_resolver (rank 1 of 2) were traced 540 days apart. Equal rank counts: the first file's job wins.
        const TraceImport apart = importTraces({ kTraces + "/nccl_data.json.gz", kTraces + "/df_index_resolver.json.gz" });
        QCOMPARE(apart.jobs.size(), std::size_t(2));
        QCOMPARE(apart.job, 0);
        QCOMPARE(apart.ranks.size(), std::size_t(1));
        QVERIFY(apart.ranks[0].file.ends_with("nccl_data.json.gz"));
        QCOMPARE(apart.excluded.size(), std::size_t(1));
        QVERIFY(apart.excluded[0].file.ends_with("df_index_resolver.json.gz"));
    }

    void oneJobIsOrderedByRankWithOneFilePerRank()
    {
        // One job given as two files: both ranks, in rank order whatever the order given.
        const TraceImport job = importTraces({ kTraces + "/sampled_rank-1.json.gz", kTraces + "/sampled_rank-0.json.gz" });
        QCOMPARE(job.jobs.size(), std::size_t(1));
        QCOMPARE(job.ranks.size(), std::size_t(2));
        QCOMPARE(job.ranks[0].rank, 0);
        QCOMPARE(job.ranks[0].events, std::int64_t(4855));
        QCOMPARE(job.ranks[1].rank, 1);
        QCOMPARE(job.ranks[1].events, std::int64_t(4720));
        QVERIFY(job.skipped.empty());
        QVERIFY(job.excluded.empty());

        // The same rank of the same job twice: the second file is left out and says which one it repeats.
        const std::string nccl = kTraces + "/nccl_data.json.gz";
        const TraceImport twice = importTraces({ nccl, nccl });
        QCOMPARE(twice.jobs.size(), std::size_t(1));
        QCOMPARE(twice.ranks.size(), std::size_t(1));
        QVERIFY(twice.skipped.empty());
        QCOMPARE(twice.excluded.size(), std::size_t(1));
        QCOMPARE(int(twice.excluded[0].reason), int(ExcludedTrace::DuplicateRank));
        QCOMPARE(twice.excluded[0].sameAs, nccl);
        QCOMPARE(twice.excluded[0].text, "duplicate rank 0 (already imported from " + nccl + ")");
    }

    void filesWithoutARankOrWorldSize()
    {
        // Traces without distributedInfo: a second copy of one (as many events over the same time) is left out, a
        // different one is kept; a file of unknown world size joins the job it overlaps in time.
        auto trace = [](const char* info, int ts, const char* label) {
            const std::string text = std::string("{") + info + "\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", "
                "\"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) + ", \"dur\": 10}]}";
            auto r = importKinetoText(text, label);
            return std::move(r).value();
        };
        std::vector<MeasuredRank> ranks;
        ranks.push_back(trace("", 100, "a.json"));
        ranks.push_back(trace("", 100, "copy of a.json"));
        ranks.push_back(trace("", 200, "b.json"));
        ranks.push_back(trace("\"distributedInfo\": {\"rank\": 3, \"world_size\": 4}, ", 150, "r3.json"));
        const TraceImport set = selectJob(std::move(ranks));
        QCOMPARE(set.jobs.size(), std::size_t(1));
        QCOMPARE(set.jobs[0].worldSize, 4);
        QCOMPARE(set.jobs[0].rankCount(), std::size_t(4)); // rank 3 and three files without a rank
        QCOMPARE(set.ranks.size(), std::size_t(3));
        QCOMPARE(set.ranks[0].rank, 3);
        QCOMPARE(set.ranks[1].file, std::string("a.json"));
        QCOMPARE(set.ranks[2].file, std::string("b.json"));
        QCOMPARE(set.excluded.size(), std::size_t(1));
        QCOMPARE(set.excluded[0].text, std::string("duplicate trace (already imported from a.json)"));

        // Times that do not count from the epoch are written in seconds; epoch ones as a UTC date.
        QCOMPARE(traceTimeText(12'345'000'000), std::string("12.345 s"));
        QCOMPARE(traceTimeText(1682725898079292000), std::string("2023-04-28 23:51:38 UTC"));
        // More than kSameJobSlackNs apart: two jobs, even of one world size.
        std::vector<MeasuredRank> late;
        late.push_back(trace("\"distributedInfo\": {\"rank\": 0, \"world_size\": 2}, ", 0, "early.json"));
        late.push_back(trace("\"distributedInfo\": {\"rank\": 1, \"world_size\": 2}, ", 61'000'000, "late.json"));
        QCOMPARE(selectJob(std::move(late)).jobs.size(), std::size_t(2));
    }

    void twoThousandRanksSomeDamagedSomeOfAnotherRun()
    {
        // Issue 28, item 4: a folder of 2,000 rank files, some cut short, some of another run. Every file is
        // accounted for: read, damaged (its head kept), refused or left out, each reason once with its count and
        // first files, and the summary stays a few lines.
        QTemporaryDir dir;
        writeTwoThousandRanks(dir.path().toStdString());
        TraceSetControl control;
        control.threads = 2;
        const TraceImport set = importTraces({ dir.path().toStdString() }, control);
        QVERIFY(!set.cancelled);
        const TraceFileTally& t = set.tally;
        QCOMPARE(t.files, std::size_t(2000));
        QCOMPARE(t.read, std::size_t(1900));
        QCOMPARE(t.damaged, std::size_t(100));
        QCOMPARE(t.refused, std::size_t(100));
        QCOMPARE(t.excluded, std::size_t(200));
        QCOMPARE(t.kept, std::size_t(1700));
        QCOMPARE(t.notRead, std::size_t(0));
        // The run of 1,700 readable ranks is kept, in rank order; the other run (world size 8) is one job.
        QCOMPARE(set.jobs.size(), std::size_t(2));
        QCOMPARE(set.job, 1);
        QCOMPARE(set.jobs[1].worldSize, 1800);
        QCOMPARE(set.ranks.size(), std::size_t(1700));
        QCOMPARE(set.ranks.front().rank, 0);
        QCOMPARE(set.ranks.back().rank, 1699);
        QCOMPARE(set.ranks[1650].events, std::int64_t(1)); // cut after its first event
        // Per file, as before: 200 skipped (100 damaged, 100 refused) and 200 left out.
        QCOMPARE(set.skipped.size(), std::size_t(200));
        QCOMPARE(set.excluded.size(), std::size_t(200));

        QCOMPARE(t.reasons.size(), std::size_t(3));
        using Reason = TraceFileTally::Reason;
        QCOMPARE(int(t.reasons[0].kind), int(Reason::OtherJob));
        QCOMPARE(t.reasons[0].count, std::size_t(200));
        QCOMPARE(t.reasons[0].text, std::string("from another job (world size 8, traced 1000.000 s); the set keeps the job of "
                                                "world size 1800, traced 1.000 s with 1700 ranks"));
        QCOMPARE(int(t.reasons[1].kind), int(Reason::Damaged));
        QCOMPARE(t.reasons[1].count, std::size_t(100));
        QCOMPARE(t.reasons[1].text, std::string("truncated: the file ends inside traceEvents"));
        QCOMPARE(int(t.reasons[2].kind), int(Reason::Refused));
        QCOMPARE(t.reasons[2].count, std::size_t(100));
        QCOMPARE(t.reasons[2].text, std::string("truncated: the file ends inside the top-level object"));
        for (const Reason& r : t.reasons) QCOMPARE(r.examples.size(), kTallyExamples);
        QCOMPARE(t.reasons[2].examples[0], dir.filePath(QStringLiteral("rank-1700.json")).toStdString());

        const std::vector<std::string> lines = tallyText(t);
        QCOMPARE(lines.size(), std::size_t(4));
        QCOMPARE(lines[0], std::string("2000 files: 1900 read (100 damaged, only their head kept), 100 refused, 200 left out; "
                                       "1700 ranks in the set"));
        QCOMPARE(tallyText(t, 1).size(), std::size_t(3)); // the counts, the largest reason, and the rest counted
        QCOMPARE(tallyText(t, 1).back(), std::string("  ... and 2 more reasons, 200 files"));
    }

    void cancelAfterSomeOfTwoThousandFiles()
    {
        // Cancel once the first N files' bytes are read (the progress is the share of all bytes): the import stops
        // there, keeps no ranks, and its tally says how far it got. With one thread the files are read in name order;
        // the file whose end brings the progress to N files' bytes may itself be stopped at its last check for a
        // cancel (core/trace/KinetoImport.cpp, "the last chance to cancel").
        QTemporaryDir dir;
        const std::vector<std::int64_t> sizes = writeTwoThousandRanks(dir.path().toStdString());
        std::int64_t total = 0;
        for (std::int64_t s : sizes) total += s;
        for (const std::size_t n : { std::size_t(1), std::size_t(500), std::size_t(1999) }) {
            std::int64_t first = 0;
            for (std::size_t i = 0; i < n; ++i) first += sizes[i];
            std::atomic<bool> cancel { false };
            std::atomic<int> reportsAfter { 0 };
            TraceSetControl control;
            control.threads = 1;
            control.cancel = &cancel;
            control.progress = [&](double f) {
                if (cancel) ++reportsAfter;
                if (f * double(total) >= double(first) - 0.5) cancel = true;
            };
            const TraceImport set = importTraces({ dir.path().toStdString() }, control);
            QVERIFY(set.cancelled);
            QVERIFY(set.ranks.empty());
            const TraceFileTally& t = set.tally;
            QCOMPARE(t.files, std::size_t(2000));
            const std::size_t done = t.read + t.refused;
            QVERIFY2(done == n || done + 1 == n, qPrintable(QStringLiteral("%1 files done after a cancel at %2").arg(done).arg(n)));
            QCOMPARE(t.notRead, 2000 - done);
            // Nothing more was read after the cancel: at most the one report of the file it stopped.
            QVERIFY(reportsAfter <= 2);
        }
        // With two threads, a cancel half way stops both.
        std::atomic<bool> cancel { false };
        TraceSetControl control;
        control.threads = 2;
        control.cancel = &cancel;
        control.progress = [&](double f) {
            if (f >= 0.5) cancel = true;
        };
        const TraceImport set = importTraces({ dir.path().toStdString() }, control);
        QVERIFY(set.cancelled);
        QVERIFY(set.tally.read + set.tally.refused < 2000);
        QVERIFY(set.tally.notRead > 0);
    }

    void cancelledBeforeItStarts()
    {
        std::atomic<bool> cancel { true };
        TraceSetControl control;
        control.cancel = &cancel;
        const TraceImport set = importTraces({ kTraces }, control);
        QVERIFY(set.cancelled);
        QVERIFY(set.ranks.empty());
        QCOMPARE(set.tally.files, std::size_t(4));
        QCOMPARE(set.tally.notRead, std::size_t(4));
    }
};

QTEST_APPLESS_MAIN(TestTraceFiles)
#include "tst_trace_files.moc"
