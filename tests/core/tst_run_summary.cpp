// The reduce of a measured run (core/trace/RunSummary.h, RunAnalysis.h, core/io/RunFile.h): a rank's summary of a
// real trace, collectives matched across members by hand-worked numbers, which files are the run, the split into
// shards, and the run and shard files read back to the same bytes; damaged files name the line and field.
// Expected values for samples/traces/nccl_data.json.gz were read with Python's gzip + json: 21 NCCL kernels, all
// on Process Group Name "0" (default_pg, ranks [0, 1]), In msg nelems x dtype as listed in bytesOfNcclData below;
// ProfilerStep#4, #5, #6.
#include "TestUtil.h"

#include "io/FileKind.h"
#include "io/RunFile.h"
#include "trace/KinetoImport.h"
#include "trace/RunAnalysis.h"

#include <QTest>
#include <numeric>

using namespace planscope;

namespace planscope::test {

CollectiveRecord record(std::int64_t step, std::int32_t seq, CollectiveKind op, std::int64_t start, std::int64_t end, std::int64_t bytes)
{
    CollectiveRecord r;
    r.stepNumber = step;
    r.seq = seq;
    r.op = op;
    r.startNs = start;
    r.endNs = end;
    r.bytes = bytes;
    return r;
}

RankGroup group(std::vector<CollectiveRecord> records)
{
    RankGroup g;
    g.key = "pg:5";
    g.name = "5";
    g.desc = "DATA_PARALLEL_GROUP";
    g.size = 3;
    g.ranks = { 3, 7, 9 };
    g.records = std::move(records);
    return g;
}

} // namespace planscope::test

using namespace planscope::test;

class TestRunSummary : public QObject {
    Q_OBJECT
private slots:
    void summaryOfARealTrace()
    {
        auto r = importKinetoTrace(PLANSCOPE_SAMPLES_DIR "/traces/nccl_data.json.gz");
        QVERIFY(r.ok());
        const RankSummary s = summarizeRank(r.value(), 749757);
        QCOMPARE(s.rank, 0);
        QCOMPARE(s.worldSize, 2);
        QCOMPARE(s.fileBytes, std::int64_t(749757));
        QCOMPARE(s.steps.size(), std::size_t(3));
        QCOMPARE(s.steps[0].number, std::int64_t(4));
        QCOMPARE(s.steps[2].number, std::int64_t(6));
        QCOMPARE(s.localDevice, 0);
        QCOMPARE(s.device, std::string("NVIDIA A100-PG509-200"));
        QCOMPARE(s.groups.size(), std::size_t(1));
        const RankGroup& g = s.groups[0];
        QCOMPARE(g.key, std::string("pg:0"));
        QCOMPARE(g.desc, std::string("default_pg"));
        QCOMPARE(g.size, 2);
        QVERIFY(g.ranks == std::vector<int>({ 0, 1 }));
        QCOMPARE(g.records.size(), std::size_t(21));
        // Every record inside a step (the kernels are launched from the ProfilerStep spans), seq counting from 0 in each.
        std::int64_t bytes = 0, allReduce = 0;
        for (const CollectiveRecord& c : g.records) {
            QVERIFY(c.stepNumber >= 4 && c.stepNumber <= 6);
            QVERIFY(c.endNs >= c.startNs);
            bytes += c.bytes;
            allReduce += c.op == CollectiveKind::AllReduce;
        }
        // Each of the seven collectives three times: five Float all-reduces, a Float and a Long broadcast.
        const std::int64_t bytesOfNcclData = 3 * (4 * (6637568 + 2431040 + 2049000 + 7875584 + 6563840 + 53120) + 8 * 53);
        QCOMPARE(bytes, bytesOfNcclData);
        QCOMPARE(allReduce, std::int64_t(15));
        QCOMPARE(g.records.front().seq, 0);
        // The summary is small beside the trace (the bound the issue sets: 1 MB per GB of trace).
        const std::size_t kept = rankSummaryLine(s, true).size();
        QVERIFY2(kept < 749757 / 20, std::to_string(kept).c_str());
        // Top kernels: at most ten, most time first.
        QCOMPARE(s.topKernels.size(), kSummaryTopKernels);
        for (std::size_t i = 1; i < s.topKernels.size(); ++i) QVERIFY(s.topKernels[i - 1].totalNs >= s.topKernels[i].totalNs);
    }

    void collectivesAreMatchedAcrossMembers()
    {
        // Three members; starts in ns. Instance (10,0): 1000, 1500, 1200; (10,1) an all-to-all of 100, 300, 200 bytes;
        // (11,0): 5000, 5000, 5600; (11,1) only ranks 3 and 7 have it.
        const RankGroup g3 = group({ record(10, 0, CollectiveKind::AllReduce, 1000, 2000, 800), record(10, 1, CollectiveKind::AllToAll, 3000, 3400, 100),
            record(11, 0, CollectiveKind::AllReduce, 5000, 6000, 800), record(11, 1, CollectiveKind::AllReduce, 7000, 7100, 800) });
        const RankGroup g7 = group({ record(10, 0, CollectiveKind::AllReduce, 1500, 2000, 800), record(10, 1, CollectiveKind::AllToAll, 3100, 3400, 300),
            record(11, 0, CollectiveKind::AllReduce, 5000, 6000, 800), record(11, 1, CollectiveKind::AllReduce, 7050, 7100, 800) });
        const RankGroup g9 = group({ record(10, 0, CollectiveKind::AllReduce, 1200, 2000, 800), record(10, 1, CollectiveKind::AllToAll, 3050, 3400, 200),
            record(11, 0, CollectiveKind::AllReduce, 5600, 6000, 800) });
        const GroupResult r = matchGroup({ { 3, &g3 }, { 7, &g7 }, { 9, &g9 } });
        QCOMPARE(r.key, std::string("pg:5"));
        QVERIFY(r.ranks == std::vector<int>({ 3, 7, 9 }));
        QCOMPARE(r.unmatched, std::int64_t(1));
        QCOMPARE(r.members.size(), std::size_t(3));
        // Waits: the last start minus one's own. Rank 3: 500 + 100 + 600; rank 7: 0 + 0 + 600; rank 9: 300 + 50 + 0.
        QCOMPARE(r.members[0].waitNs, std::int64_t(1200));
        QCOMPARE(r.members[1].waitNs, std::int64_t(600));
        QCOMPARE(r.members[2].waitNs, std::int64_t(350));
        // Skews (start minus the earliest): rank 7 {500, 100, 0}, rank 9 {200, 50, 600}; medians 100 and 200.
        QCOMPARE(r.members[1].medianSkewNs, std::int64_t(100));
        QCOMPARE(r.members[1].maxSkewNs, std::int64_t(500));
        QCOMPARE(r.members[2].medianSkewNs, std::int64_t(200));
        QCOMPARE(r.members[2].maxSkewNs, std::int64_t(600));
        QCOMPARE(r.members[0].lastArrivals, std::int64_t(0));
        QCOMPARE(r.members[1].lastArrivals, std::int64_t(2));
        QCOMPARE(r.members[2].lastArrivals, std::int64_t(1));
        QCOMPARE(r.members[0].matched, std::int64_t(3));
        QCOMPARE(r.straggler, 7);
        QCOMPARE(r.ops.size(), std::size_t(2));
        const GroupOpStat& ar = r.ops[0];
        QVERIFY(ar.op == CollectiveKind::AllReduce);
        QCOMPARE(ar.instances, std::int64_t(2));
        QCOMPARE(ar.medianSpreadNs, std::int64_t(500)); // spreads 500 and 600: the lower middle
        QCOMPARE(ar.maxSpreadNs, std::int64_t(600));
        QCOMPARE(ar.medianDurNs, std::int64_t(800)); // durations 1000, 500, 800, 1000, 1000, 400
        QCOMPARE(ar.medianBytes, std::int64_t(800));
        // The all-to-all: 300 over a mean of 200 is 1.5; rank 7 sends the most.
        QCOMPARE(r.allToAll.size(), std::size_t(1));
        QCOMPARE(r.allToAll[0].position, 0);
        QCOMPARE(r.allToAll[0].medianPermille, std::int64_t(1500));
        QCOMPARE(r.allToAll[0].heaviestRank, 7);
        // The order members are given in does not matter.
        const GroupResult again = matchGroup({ { 9, &g9 }, { 3, &g3 }, { 7, &g7 } });
        QVERIFY(again == r);
    }

    void theRunIsOneWorldSizeOneFilePerRank()
    {
        std::vector<std::string> reasons;
        const std::vector<bool> kept = keptRanks({ { 0, 4 }, { 1, 4 }, { 1, 4 }, { 0, 8 }, { 5, 4 }, { -1, 4 }, { 2, -1 } }, reasons);
        QVERIFY(kept == std::vector<bool>({ true, true, false, false, false, false, true }));
        QVERIFY(reasons[2].find("again") != std::string::npos);
        QVERIFY(reasons[3].find("world size 8") != std::string::npos);
        QVERIFY(reasons[4].find("outside") != std::string::npos);
        QVERIFY(reasons[5].find("no rank") != std::string::npos);
    }

    void shardsSplitTheFilesContiguously()
    {
        for (std::int64_t count : { std::int64_t(0), std::int64_t(1), std::int64_t(10), std::int64_t(4096), std::int64_t(10007) })
            for (int shards : { 1, 2, 3, 7, 64 }) {
                std::int64_t next = 0, smallest = count, largest = 0;
                for (int i = 0; i < shards; ++i) {
                    const auto [first, last] = shardRange(count, i, shards);
                    QCOMPARE(first, next);
                    next = last;
                    smallest = std::min(smallest, last - first);
                    largest = std::max(largest, last - first);
                }
                QCOMPARE(next, count);
                QVERIFY(largest - smallest <= 1);
            }
        QCOMPARE(shardRange(10, 0, 3), std::make_pair(std::int64_t(0), std::int64_t(4)));
        QCOMPARE(shardRange(10, 2, 3), std::make_pair(std::int64_t(7), std::int64_t(10)));
    }

    void filesReadBackToTheSameBytes()
    {
        std::vector<ReducedFile> reduced;
        for (const char* name : { "sampled_rank-0.json.gz", "sampled_rank-1.json.gz", "nccl_data.json.gz" })
            reduced.push_back(reduceFile(std::string(PLANSCOPE_SAMPLES_DIR "/traces/") + name));
        reduced.push_back(reduceFile(std::string(PLANSCOPE_SAMPLES_DIR "/traces/README.md")));
        QVERIFY(!reduced.back().summary);
        QVERIFY(!reduced.back().error.empty());
        RunShard shard;
        shard.files = 4;
        shard.reduced = reduced;
        const std::string text = shardText(shard);
        auto parsed = parseShard(text);
        QVERIFY(parsed.ok());
        QCOMPARE(shardText(parsed.value()), text);
        QVERIFY(parsed->reduced[0].summary == reduced[0].summary);

        const MeasuredRun run = runFromReduced(reduced, {}, 4, 0);
        // sampled_rank-0/1 are ranks 0 and 1 of 128; nccl_data is rank 0 of 2: another world size, left out.
        QCOMPARE(run.ranks.size(), std::size_t(2));
        QCOMPARE(run.worldSize, 128);
        QCOMPARE(run.excluded.size(), std::size_t(1));
        QCOMPARE(run.failed.size(), std::size_t(1));
        const std::string runFile = runText(run);
        auto back = parseRun(runFile);
        QVERIFY(back.ok());
        QVERIFY(back.value() == run);
        QCOMPARE(runText(back.value()), runFile);
        // Told apart from plans and traces by its first bytes, also when its lists of files are long.
        QVERIFY(fileKindOfHead(runFile) == FileKind::Run);
        QVERIFY(fileKindOfHead(text) == FileKind::Run);
        MeasuredRun many = run;
        for (int i = 0; i < 4000; ++i) many.failed.push_back({ "/a/long/path/to/a/trace/of/a/rank/that/failed/rank-" + std::to_string(i) + ".json.gz", -1, "cannot open file" });
        QVERIFY(runText(many).find('\n') > 64 * 1024);
        QVERIFY(fileKindOfHead(runText(many).substr(0, 64 * 1024)) == FileKind::Run);
        // A shard of one is a run of its own.
        auto fromShard = parseRun(text);
        QVERIFY(fromShard.ok());
        QCOMPARE(runText(fromShard.value()), runFile);
    }

    void damagedFilesNameTheLineAndField()
    {
        RunShard shard;
        shard.files = 1;
        shard.reduced.push_back(reduceFile(PLANSCOPE_SAMPLES_DIR "/traces/sampled_rank-0.json.gz"));
        const std::string text = runText(runFromReduced(shard.reduced, {}, 1, 0));
        // Cut after the header: the header promises a rank the file does not have.
        const std::string header = text.substr(0, text.find('\n') + 1);
        auto cut = parseRun(header);
        QVERIFY(!cut.ok());
        QVERIFY(cut.errors().front().message.find("cut short") != std::string::npos);
        // A field of the wrong type on line 2.
        std::string wrong = text;
        const std::size_t at = wrong.find("\"computeNs\":", wrong.find('\n'));
        wrong.replace(at, 12, "\"computeNs\":\"x\",\"was\":");
        auto bad = parseRun(wrong);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.errors().front().path, std::string("line 2: computeNs"));
        // Bytes that are no JSON: the byte offset in the file.
        auto junk = parseRun(header + "{\"type\": \"rank\", oops\n");
        QVERIFY(!junk.ok());
        QVERIFY2(junk.errors().front().message.find("byte ") != std::string::npos, junk.errors().front().message.c_str());
        // Another format altogether.
        auto other = parseRun("{\"schema\": \"planscope/plan/v1\"}\n");
        QVERIFY(!other.ok());
        QCOMPARE(other.errors().front().path, std::string("line 1: format"));
        // A shard of several is not a run: merge first.
        RunShard half = shard;
        half.shards = 2;
        auto notRun = parseRun(shardText(half));
        QVERIFY(!notRun.ok());
        QVERIFY(notRun.errors().front().message.find("merge") != std::string::npos);
        // Merging names the missing and the repeated shard.
        auto missing = mergeShards({ half }, 0);
        QVERIFY(!missing.ok());
        QVERIFY(missing.errors().front().message.find("shards 1 of 2 are missing") != std::string::npos);
        auto twice = mergeShards({ half, half }, 0);
        QVERIFY(!twice.ok());
        QVERIFY(twice.errors().front().message.find("twice") != std::string::npos);
    }

    void slowestRanksAndComparison()
    {
        // Two ranks of one group: rank 1 arrives 3 ms late at each of four collectives and computes 5 ms more a step.
        auto summary = [](int rank, std::int64_t compute, std::int64_t late) {
            RankSummary s;
            s.rank = rank;
            s.worldSize = 4;
            for (int step = 0; step < 3; ++step)
                s.steps.push_back(RankStep { step, step * 100'000'000, 100'000'000, compute, 10'000'000, 2'000'000, 1'000'000, 10 });
            RankGroup g;
            g.key = "pg:1";
            g.name = "1";
            g.desc = "DATA_PARALLEL_GROUP";
            for (int i = 0; i < 4; ++i) g.records.push_back(record(1, i, CollectiveKind::AllReduce, 10'000'000 * i + late, 10'000'000 * i + 5'000'000, 64));
            s.groups.push_back(g);
            return s;
        };
        const MeasuredRun run = assembleRun({ summary(0, 50'000'000, 0), summary(1, 55'000'000, 3'000'000), summary(2, 50'000'000, 0),
                                               summary(3, 50'000'000, 0) },
            {}, 4, 0, 2);
        QCOMPARE(run.groups.size(), std::size_t(1));
        QCOMPARE(groupScope(run.groups[0], 2), std::string("inter-node"));
        const std::vector<RunRankMetrics> m = rankMetrics(run);
        QCOMPARE(m[1].lagNs, std::int64_t(3'000'000));
        QCOMPARE(m[1].node, 0);
        QCOMPARE(m[3].node, 1);
        QCOMPARE(m[0].waitNs, std::int64_t(4 * 3'000'000));
        const std::vector<SlowRank> slow = slowestRanks(run, m, 10);
        QCOMPARE(slow.size(), std::size_t(1));
        QCOMPARE(slow[0].metrics.rank, 1);
        QCOMPARE(slow[0].causes.size(), std::size_t(2));
        QVERIFY(slow[0].causes[0].kind == SlowCause::Compute);
        QCOMPARE(slow[0].causes[0].valueNs - slow[0].causes[0].medianNs, std::int64_t(5'000'000));
        QVERIFY(slow[0].causes[1].kind == SlowCause::ArrivesLast);
        QCOMPARE(slow[0].causes[1].valueNs, std::int64_t(4));

        // Against a run where nobody is late: the lag and compute differences are named.
        const MeasuredRun even = assembleRun({ summary(0, 50'000'000, 0), summary(1, 50'000'000, 0), summary(2, 50'000'000, 0),
                                                summary(3, 50'000'000, 0) },
            {}, 4, 0, 2);
        const RunComparison c = compareRuns(run, even);
        QCOMPARE(c.phases.size(), std::size_t(6));
        QCOMPARE(c.phases[0].what, std::string("step"));
        QCOMPARE(c.phases[0].delta(), std::int64_t(0));
        QCOMPARE(c.ranks.front().what, std::string("rank 0")); // no step changed: the first rank
        QCOMPARE(c.collectives.size(), std::size_t(1));
        QCOMPARE(c.collectives[0].what, std::string("DATA_PARALLEL_GROUP AllReduce"));
        // Median kernel time: 5 ms on the punctual ranks in both runs; the late rank's 2 ms does not move the median.
        QCOMPARE(c.collectives[0].a, std::int64_t(5'000'000));
        QCOMPARE(c.collectives[0].b, std::int64_t(5'000'000));
        QVERIFY(c.biggest.empty() || c.biggest.rfind("compute", 0) == 0 || c.biggest.rfind("exposedComm", 0) == 0
            || c.biggest.rfind("idle", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TestRunSummary)
#include "tst_run_summary.moc"
