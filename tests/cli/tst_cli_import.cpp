// planscope-cli import: the docs/FORMATS.md section 5 JSON for a real Kineto trace, exit codes.
#include "CliRunner.h"
#include "TestUtil.h"

#include <QDir>
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using namespace planscope::test;
using nlohmann::json;

namespace {
QString trace(const char* name) { return QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/traces/" + name; }
}

class TestCliImport : public QObject {
    Q_OBJECT
private slots:
    void importJsonHasSchemaAndNumbers()
    {
        const CliRun r = runCli({ "import", trace("nccl_data.json.gz"), "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.at("schema").get<std::string>(), std::string("planscope/import/v1"));
        QVERIFY(j.at("skipped").is_array() && j.at("skipped").empty());
        QVERIFY(j.contains("comparison"));
        QCOMPARE(j.at("ranks").size(), std::size_t(1));
        const json& rk = j.at("ranks")[0];
        for (const char* key : { "rank", "worldSize", "file", "events", "kernels", "ncclKernels", "collectives",
                 "memoryEvents", "steps", "breakdown" })
            QVERIFY2(rk.contains(key), key);
        // Independent values: Python gzip+json (see tests/core/tst_trace_import.cpp).
        QCOMPARE(rk.at("rank").get<int>(), 0);
        QCOMPARE(rk.at("worldSize").get<int>(), 2);
        QCOMPARE(rk.at("events").get<std::int64_t>(), std::int64_t(40573));
        QCOMPARE(rk.at("kernels").get<std::int64_t>(), std::int64_t(2700));
        QCOMPARE(rk.at("ncclKernels").get<std::int64_t>(), std::int64_t(21));
        QCOMPARE(rk.at("collectives").at("AllReduce").get<int>(), 15);
        QCOMPARE(rk.at("collectives").at("Broadcast").get<int>(), 6);
        QCOMPARE(rk.at("memoryEvents").get<int>(), 0);
        QVERIFY(rk.at("steps") == json({ "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6" }));
        const json& b = rk.at("breakdown");
        for (const char* key : { "computeSeconds", "commSeconds", "overlapSeconds", "idleSeconds" })
            QVERIFY2(b.contains(key) && b.at(key).is_number(), key);
        QVERIFY(std::abs(b.at("computeSeconds").get<double>() - 0.115655847) < 1e-9);
        QVERIFY(std::abs(b.at("commSeconds").get<double>() - 0.046876493) < 1e-9);
        QVERIFY(std::abs(b.at("overlapSeconds").get<double>() - 0.007317025) < 1e-9);
        QVERIFY(std::abs(b.at("idleSeconds").get<double>() - 0.50533569) < 1e-9);

        // Per-collective bandwidth (medians; Python values in tests/core/tst_trace_analysis.cpp).
        const json& cs = rk.at("collectiveStats");
        QCOMPARE(cs.size(), std::size_t(2));
        for (const char* key : { "op", "count", "bytes", "seconds", "algBandwidth", "busBandwidth", "groupSize" })
            QVERIFY2(cs[0].contains(key), key);
        QCOMPARE(cs[0].at("op").get<std::string>(), std::string("AllReduce"));
        QCOMPARE(cs[0].at("count").get<int>(), 15);
        QCOMPARE(cs[0].at("groupSize").get<int>(), 2);
        QCOMPARE(cs[0].at("bytes").get<double>(), 26255360.0);
        QVERIFY(std::abs(cs[0].at("seconds").get<double>() / 0.002520607 - 1) < 1e-9);
        QVERIFY(std::abs(cs[0].at("busBandwidth").get<double>() / 5755381376.522053 - 1) < 1e-9);
        QCOMPARE(cs[1].at("op").get<std::string>(), std::string("Broadcast"));
        QVERIFY(std::abs(cs[1].at("algBandwidth").get<double>() / 3457582457.8466234 - 1) < 1e-9);
        // One rank: nothing aligned.
        QCOMPARE(j.at("alignment").at("matchedCollectives").get<int>(), 0);
        QVERIFY(j.at("alignment").at("straggler").is_null());

        // Steps, their breakdowns, top kernels and lanes (Python values in tests/core/tst_trace_import.cpp and
        // tst_trace_analysis.cpp; lanes in order of first appearance, with their kept events).
        const json& spans = rk.at("stepSpans");
        QCOMPARE(spans.size(), std::size_t(3));
        QCOMPARE(spans[0].at("name").get<std::string>(), std::string("ProfilerStep#4"));
        QVERIFY(std::abs(spans[0].at("seconds").get<double>() - 0.222442191) < 1e-12);
        const json& sb = rk.at("stepBreakdowns");
        QCOMPARE(sb.size(), std::size_t(3));
        for (const char* key : { "name", "startNs", "seconds", "gpuStartNs", "gpuEndNs", "computeSeconds", "commSeconds",
                 "overlapSeconds", "idleSeconds", "kernels", "ncclKernels" })
            QVERIFY2(sb[2].contains(key), key);
        QCOMPARE(sb[2].at("kernels").get<int>(), 900);
        QCOMPARE(sb[2].at("ncclKernels").get<int>(), 7);
        QCOMPARE(sb[2].at("gpuStartNs").get<std::int64_t>(), std::int64_t(4458676864667147));
        QVERIFY(std::abs(sb[2].at("commSeconds").get<double>() - 0.022587443) < 1e-12);
        const json& top = rk.at("topKernels");
        QCOMPARE(top.size(), std::size_t(10));
        QCOMPARE(top[0].at("count").get<int>(), 15);
        QCOMPARE(top[0].at("collective").get<std::string>(), std::string("AllReduce"));
        QVERIFY(std::abs(top[0].at("share").get<double>() - 0.2877098736165369) < 1e-12);
        QVERIFY(top[1].at("collective").is_null());
        const json lanes = json::parse(R"([{"pid": 2910249, "tid": 2919752, "gpu": false, "events": 7200},
            {"pid": 2910249, "tid": 2910249, "gpu": false, "events": 7188}, {"pid": 0, "tid": 7, "gpu": true, "events": 3762},
            {"pid": 0, "tid": 40, "gpu": true, "events": 42}])");
        QVERIFY2(rk.at("lanes") == lanes, rk.at("lanes").dump().c_str());
        QVERIFY(rk.at("memory").is_array() && rk.at("memory").empty());
    }

    // [memory] events per device (Python values in tests/core/tst_trace_analysis.cpp).
    void importJsonMemory()
    {
        const CliRun r = runCli({ "import", trace("df_index_resolver.json.gz"), "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        const json& memory = j.at("ranks")[0].at("memory");
        const json expected = json::parse(R"([
            {"deviceType": 0, "deviceId": -1, "points": 1240, "peakAllocatedBytes": 8, "peakReservedBytes": 0},
            {"deviceType": 1, "deviceId": 1, "points": 26770, "peakAllocatedBytes": 6629508096,
             "peakReservedBytes": 12782141440}])");
        QVERIFY2(memory == expected, memory.dump().c_str());
        QCOMPARE(j.at("ranks")[0].at("stepBreakdowns").size(), std::size_t(5));
    }

    void folderParallelSortedByRankWithDuplicates()
    {
        QTemporaryDir dir;
        const QString d = dir.path();
        // File names sort opposite to the ranks; a third file repeats rank 0; other files are not traces.
        QVERIFY(QFile::copy(trace("sampled_rank-1.json.gz"), d + "/a_first.json.gz"));
        QVERIFY(QFile::copy(trace("sampled_rank-0.json.gz"), d + "/b_second.json.gz"));
        QVERIFY(QFile::copy(trace("sampled_rank-0.json.gz"), d + "/c_again.json.gz"));
        std::ofstream((d + "/notes.txt").toStdString()) << "not a trace";
        QVERIFY(QDir(d).mkdir("sub.json"));
        const CliRun r = runCli({ "import", d, "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.at("ranks").size(), std::size_t(2));
        QCOMPARE(j.at("ranks")[0].at("rank").get<int>(), 0);
        QCOMPARE(j.at("ranks")[1].at("rank").get<int>(), 1);
        QVERIFY(j.at("ranks")[0].at("file").get<std::string>().find("b_second") != std::string::npos);
        QVERIFY(j.at("ranks")[1].at("file").get<std::string>().find("a_first") != std::string::npos);
        QVERIFY(j.at("ranks")[0].at("collectiveStats").empty()); // no collective metadata in these files
        QVERIFY(j.at("skipped").empty());
        QCOMPARE(j.at("excluded").size(), std::size_t(1));
        const json& again = j.at("excluded")[0];
        QVERIFY(again.at("file").get<std::string>().find("c_again") != std::string::npos);
        QCOMPARE(again.at("reason").get<std::string>(), std::string("duplicateRank"));
        QCOMPARE(again.at("rank").get<int>(), 0);
        QVERIFY(again.at("sameAs").get<std::string>().find("b_second") != std::string::npos);
        QVERIFY(again.at("message").get<std::string>().starts_with("duplicate rank 0"));
        QCOMPARE(j.at("jobs").size(), std::size_t(1));

        // Cross-rank alignment (Python values in tests/core/tst_trace_analysis.cpp).
        const json& al = j.at("alignment");
        QCOMPARE(al.at("matchedCollectives").get<int>(), 10);
        QCOMPARE(al.at("ranks").size(), std::size_t(2));
        QCOMPARE(al.at("ranks")[0].at("rank").get<int>(), 0);
        QCOMPARE(al.at("ranks")[0].at("medianSkewSeconds").get<double>(), 0.0);
        QVERIFY(std::abs(al.at("ranks")[1].at("medianSkewSeconds").get<double>() / 0.012815 - 1) < 1e-9);
        QCOMPARE(al.at("straggler").get<int>(), 1);

        // A folder and a file mixed give the same ranks; an empty folder is reported.
        QTemporaryDir empty;
        const CliRun mixed = runCli({ "import", trace("sampled_rank-1.json.gz"), empty.path(),
            trace("sampled_rank-0.json.gz"), "--json" });
        QCOMPARE(mixed.code, 0);
        const json m = json::parse(mixed.out, nullptr, false);
        QCOMPARE(m.at("ranks")[0].at("rank").get<int>(), 0);
        QCOMPARE(m.at("skipped").size(), std::size_t(1));
        QCOMPARE(runCli({ "import", empty.path() }).code, 2);

        const CliRun table = runCli({ "import", d });
        QVERIFY(table.out.find("alignment: 10 matched collectives") != std::string::npos);
        QVERIFY(table.out.find("straggler rank 1") != std::string::npos);
    }

    // A folder of 2,000 rank files, some cut short, some of another run (tests/TestUtil.h writeTwoThousandRanks): the
    // command says what it read and refused in a few lines, not a line per file, and --json counts every file.
    void aFolderOfTwoThousandRanksIsSummedUp()
    {
        QTemporaryDir dir;
        planscope::test::writeTwoThousandRanks(dir.path().toStdString());
        const CliRun r = runCli({ "import", dir.path() });
        QCOMPARE(r.code, 0);
        const QStringList lines = QString::fromStdString(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(lines.size() <= 8, r.err.c_str());
        QVERIFY2(r.err.find("planscope-cli: 2000 files: 1900 read (100 damaged, only their head kept), 100 refused, 200 left out; "
                            "1700 ranks in the set") != std::string::npos, r.err.c_str());
        QVERIFY(r.err.find("truncated: the file ends inside the top-level object") != std::string::npos);
        const CliRun j = runCli({ "import", dir.path(), "--json" });
        QCOMPARE(j.code, 0);
        const nlohmann::json files = nlohmann::json::parse(j.out)["files"];
        QCOMPARE(files["files"].get<int>(), 2000);
        QCOMPARE(files["read"].get<int>() + files["refused"].get<int>(), 2000);
    }

    // A plan "file" that is a FIFO nobody writes, a device or a folder: refused at once by what it is, exit 1 (a file
    // that cannot be read), never read or waited on.
    void aPlanThatIsNoFileIsRefusedByWhatItIs()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("plan.fifo"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        for (const QString& path : { fifo, QStringLiteral("/dev/zero"), dir.path() }) {
            const CliRun r = runCli({ "evaluate", path });
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.find(path.toStdString() + ": is ") != std::string::npos && r.err.find("; not read") != std::string::npos,
                r.err.c_str());
        }
    }

    void aFolderOfSeveralJobsKeepsOne()
    {
        // samples/traces: three jobs (tests/core/tst_trace_files.cpp has their ranks and times). The pair of the
        // 128-rank job is kept; the other two files are in "excluded" with the job they belong to; --job picks another.
        const CliRun r = runCli({ "import", QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/traces", "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j.at("ranks").size(), std::size_t(2));
        for (const json& rank : j.at("ranks")) QCOMPARE(rank.at("worldSize").get<int>(), 128);
        const json& jobs = j.at("jobs");
        QCOMPARE(jobs.size(), std::size_t(3));
        QCOMPARE(jobs[2].at("kept").get<bool>(), true);
        QCOMPARE(jobs[2].at("worldSize").get<int>(), 128);
        QVERIFY(jobs[2].at("ranks") == json::parse("[0, 1]"));
        QCOMPARE(jobs[2].at("start").get<std::string>(), std::string("2023-04-28 23:51:38 UTC"));
        QCOMPARE(jobs[0].at("kept").get<bool>(), false);
        QCOMPARE(jobs[1].at("start").get<std::string>(), std::string("2024-05-23 00:15:22 UTC"));
        const json& excluded = j.at("excluded");
        QCOMPARE(excluded.size(), std::size_t(2));
        QVERIFY(excluded[0].at("file").get<std::string>().ends_with("df_index_resolver.json.gz"));
        QCOMPARE(excluded[0].at("reason").get<std::string>(), std::string("otherJob"));
        QCOMPARE(excluded[0].at("job").get<int>(), 0);
        QVERIFY(excluded[1].at("file").get<std::string>().ends_with("nccl_data.json.gz"));
        QCOMPARE(excluded[1].at("job").get<int>(), 1);
        QVERIFY(excluded[1].at("message").get<std::string>().starts_with("from another job (world size 2"));
        QVERIFY(r.err.find("nccl_data.json.gz: left out: from another job") != std::string::npos);

        // Against a plan the overlay has one lane per rank of the one job and a step of that job (ProfilerStep#551:
        // about 0.6 s), not days between jobs.
        const QString plan = QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/plans/default.plan.json";
        const CliRun against = runCli({ "import", QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/traces", "--against", plan, "--json" });
        QCOMPARE(against.code, 0);
        const json ov = json::parse(against.out).at("comparison").at("overlay");
        QCOMPARE(ov.at("ranks").size(), std::size_t(2));
        QCOMPARE(ov.at("ranks")[0].at("rank").get<int>(), 0);
        QCOMPARE(ov.at("ranks")[1].at("rank").get<int>(), 1);
        for (const json& p : ov.at("phases"))
            if (p.at("phase") == "step") QVERIFY(p.at("measuredSeconds").get<double>() < 1.0);

        // --job 1 keeps nccl_data alone.
        const CliRun one = runCli({ "import", QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/traces", "--job", "1", "--json" });
        QCOMPARE(one.code, 0);
        const json oj = json::parse(one.out);
        QCOMPARE(oj.at("ranks").size(), std::size_t(1));
        QVERIFY(oj.at("ranks")[0].at("file").get<std::string>().ends_with("nccl_data.json.gz"));
        QCOMPARE(oj.at("excluded").size(), std::size_t(3));
        QCOMPARE(oj.at("jobs")[1].at("kept").get<bool>(), true);
    }

    void againstPlan()
    {
        const QString plan = QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/plans/default.plan.json";
        const CliRun r = runCli({ "import", trace("nccl_data.json.gz"), "--against", plan, "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        const json& c = j.at("comparison");
        for (const char* key : { "plan", "method", "predictedStepSeconds", "measuredStepSeconds", "stepError", "reading",
                 "phases", "ranks", "biggestGap" })
            QVERIFY2(c.contains(key), key);
        QCOMPARE(c.at("plan").get<std::string>(), std::string("Llama 2 7B on 16 x A100-80GB"));
        // The step is the median ProfilerStep duration: ProfilerStep#4..6 last 222.442191, 219.726905 and
        // 224.936243 ms (tests/core/tst_trace_import.cpp) -> 0.222442191 s.
        QCOMPARE(c.at("method").get<std::string>(), std::string("profilerStep"));
        const double measured = c.at("measuredStepSeconds").get<double>();
        const double predicted = c.at("predictedStepSeconds").get<double>();
        QVERIFY(std::abs(measured - 0.222442191) < 1e-12);
        QVERIFY(predicted > 0);
        QVERIFY(std::abs(c.at("stepError").get<double>() - (predicted / measured - 1)) < 1e-9);
        const bool optimistic = c.at("stepError").get<double>() < 0;
        QVERIFY(c.at("reading").get<std::string>().find(optimistic ? "optimistic" : "pessimistic") != std::string::npos);
        const json& phases = c.at("phases");
        QCOMPARE(phases.size(), std::size_t(3));
        QCOMPARE(phases[0].at("phase").get<std::string>(), std::string("compute"));
        QCOMPARE(phases[1].at("phase").get<std::string>(), std::string("exposedComm"));
        QCOMPARE(phases[2].at("phase").get<std::string>(), std::string("step"));
        for (const json& p : phases)
            for (const char* key : { "predictedSeconds", "measuredSeconds", "error" }) QVERIFY2(p.contains(key), key);
        // Medians over the steps of each step's breakdown (Python values in tests/core/tst_trace_analysis.cpp):
        // compute 38506406, 38429422, 38720019 ns -> 0.038506406 s; exposed (comm - overlap) 10163762, 10539609,
        // 18856097 ns -> 0.010539609 s.
        QVERIFY(std::abs(phases[0].at("measuredSeconds").get<double>() - 0.038506406) < 1e-12);
        QVERIFY(std::abs(phases[1].at("measuredSeconds").get<double>() - 0.010539609) < 1e-12);
        QVERIFY(std::abs(phases[2].at("measuredSeconds").get<double>() - measured) < 1e-12);
        double worst = -1;
        std::string gap;
        for (const json& p : phases) {
            const double d = std::abs(p.at("predictedSeconds").get<double>() - p.at("measuredSeconds").get<double>());
            if (d > worst) {
                worst = d;
                gap = p.at("phase").get<std::string>();
            }
        }
        QCOMPARE(c.at("biggestGap").get<std::string>(), gap);

        // --against=PLAN works the same; the table shows the reading.
        const CliRun eq = runCli({ "import", trace("nccl_data.json.gz"), "--against=" + plan, "--json" });
        QCOMPARE(eq.code, 0);
        QVERIFY(json::parse(eq.out).at("comparison") == c);
        const CliRun table = runCli({ "import", trace("nccl_data.json.gz"), "--against", plan });
        QCOMPARE(table.code, 0);
        QVERIFY(table.out.find(c.at("reading").get<std::string>()) != std::string::npos);
        QVERIFY(table.out.find("exposedComm") != std::string::npos);

        // An invalid plan: exit 2 with its errors.
        QTemporaryDir dir;
        const std::string badPlan = dir.path().toStdString() + "/bad.plan.json";
        std::ofstream(badPlan) << R"({"schema": "planscope/plan/v1", "parallel": {"tp": 0}})";
        const CliRun bad = runCli({ "import", trace("nccl_data.json.gz"), "--against", QString::fromStdString(badPlan), "--json" });
        QCOMPARE(bad.code, 2);
        const json bj = json::parse(bad.out, nullptr, false);
        QVERIFY(!bj.is_discarded());
        QVERIFY(!bj.at("errors").empty());
        QVERIFY(!bad.err.empty());
    }

    void overlayOfARealTrace()
    {
        // nccl_data against the default plan, aligned at the median ProfilerStep (#4: 222.442191 ms of 219.73,
        // 222.44, 224.94). Expected values from Python over the gzip + json (parse_float=Decimal, ts/dur x 1000 as
        // integers): kernels whose cudaLaunchKernel (same args.correlation) starts inside ProfilerStep#4's
        // user_annotation span -> 900 kernels, window (last end - first start) 215769424 ns, union of non-NCCL
        // kernels 38506406, NCCL 11989021, exposed (NCCL minus overlap) 10163762, idle 167099256.
        const QString plan = QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/plans/default.plan.json";
        const CliRun r = runCli({ "import", trace("nccl_data.json.gz"), "--against", plan, "--json" });
        QCOMPARE(r.code, 0);
        const json ov = json::parse(r.out).at("comparison").at("overlay");
        QCOMPARE(ov.at("stepName").get<std::string>(), std::string("ProfilerStep#4"));
        const json& m = ov.at("ranks")[0].at("measured");
        QVERIFY(std::abs(m.at("windowSeconds").get<double>() - 0.215769424) < 1e-12);
        QVERIFY(std::abs(m.at("computeSeconds").get<double>() - 0.038506406) < 1e-12);
        QVERIFY(std::abs(m.at("commSeconds").get<double>() - 0.011989021) < 1e-12);
        QVERIFY(std::abs(m.at("exposedCommSeconds").get<double>() - 0.010163762) < 1e-12);
        QVERIFY(std::abs(m.at("idleSeconds").get<double>() - 0.167099256) < 1e-12);
        // Forward, backward and optimizer are the step's compute kernels launched inside the CPU-side annotations that
        // name them (Python as above; the latest-starting "## forward ##" / "DistributedDataParallel.forward",
        // "## backward ##", "## optimizer ##" / "Optimizer.step#SGD.step" span holding each kernel's launch, from any
        // thread: autograd's own thread launches the backward kernels while the main thread's "## backward ##" is
        // open). They add up to no more than compute (38506406 ns): 12649602 + 25163659 + 693145 = 38506406.
        const json& phases = ov.at("phases");
        QCOMPARE(phases.size(), std::size_t(7));
        const std::pair<const char*, double> marked[] = { { "forward", 0.012649602 }, { "backward", 0.025163659 },
            { "optimizer", 0.000693145 } };
        double sum = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(phases[4 + i].at("phase").get<std::string>(), std::string(marked[i].first));
            QVERIFY(std::abs(phases[4 + i].at("measuredSeconds").get<double>() - marked[i].second) < 1e-12);
            sum += phases[4 + i].at("measuredSeconds").get<double>();
        }
        QVERIFY(sum <= phases[0].at("measuredSeconds").get<double>() + 1e-12);
        QCOMPARE(ov.at("ops").at("measuredActions").get<int>(), 0); // a DDP job: no PP: actions
        // The rank was mapped through the plan (world 2 vs 16 GPUs is said).
        bool noted = false;
        for (const json& n : ov.at("notes")) noted = noted || n.get<std::string>().find("2 ranks") != std::string::npos;
        QVERIFY(noted);
        // --step picks another step: ProfilerStep#6 is index 2.
        const CliRun six = runCli({ "import", trace("nccl_data.json.gz"), "--against", plan, "--step", "2", "--json" });
        QCOMPARE(json::parse(six.out).at("comparison").at("overlay").at("stepName").get<std::string>(), std::string("ProfilerStep#6"));
    }

    void syntheticTracesOfThePlanRoundTrip()
    {
        // simulate --kineto-traces writes what the profiler would record if the run went as predicted; importing it
        // against the same plan matches every PP: action with zero deltas. default.plan.json: pp 4, 32 microbatches
        // per replica (globalBatch 64 / (microBatch 1 x dp 2)), 1F1B: every rank runs 32 F and 32 B; ranks 0-2 send
        // 32 activations, ranks 1-3 send 32 gradients -> 4 x 64 + 3 x 32 + 3 x 32 = 448 actions.
        QTemporaryDir dir;
        const QString plan = QString::fromUtf8(PLANSCOPE_SAMPLES_DIR) + "/plans/default.plan.json";
        const CliRun sim = runCli({ "simulate", plan, "--kineto-traces", dir.path() });
        QCOMPARE(sim.code, 0);
        QCOMPARE(json::parse(sim.out).at("timeline").at("kinetoTraces").size(), std::size_t(4));
        const CliRun r = runCli({ "import", dir.path(), "--against", plan, "--json" });
        QCOMPARE(r.code, 0);
        const json ops = json::parse(r.out).at("comparison").at("overlay").at("ops");
        QCOMPARE(ops.at("matched").get<int>(), 448);
        QCOMPARE(ops.at("withNonZeroDelta").get<int>(), 0);
        QCOMPARE(ops.at("unmatchedMeasured").get<int>(), 0);
        QCOMPARE(ops.at("unmatchedPredicted").get<int>(), 0);
        // The document outlives the loop (a range-for over a member of a temporary reads freed memory).
        const json self = json::parse(r.out);
        for (const json& p : self.at("comparison").at("overlay").at("phases"))
            QCOMPARE(p.at("deltaSeconds").get<double>(), 0.0);
    }

    void readableTableAndExitCodes()
    {
        const CliRun table = runCli({ "import", trace("sampled_rank-0.json.gz"), trace("sampled_rank-1.json.gz") });
        QCOMPARE(table.code, 0);
        QVERIFY(table.out.find("rank 0 of 128") != std::string::npos);
        QVERIFY(table.out.find("rank 1 of 128") != std::string::npos);
        QVERIFY(table.out.find("SendRecv 10") != std::string::npos);

        QTemporaryDir dir;
        const std::string garbage = dir.path().toStdString() + "/garbage.json";
        std::ofstream(garbage) << "not json at all";
        const CliRun bad = runCli({ "import", QString::fromStdString(garbage), "--json" });
        QCOMPARE(bad.code, 2);
        const json j = json::parse(bad.out, nullptr, false);
        QVERIFY(!j.is_discarded());
        QVERIFY(j.at("ranks").empty());
        QCOMPARE(j.at("skipped").size(), std::size_t(1));
        QVERIFY(j.at("skipped")[0].contains("offset"));
        QVERIFY(j.at("skipped")[0].contains("reason"));

        // One good rank with one bad file: still 0, the bad one in "skipped".
        const CliRun mixed = runCli({ "import", trace("sampled_rank-1.json.gz"), QString::fromStdString(garbage), "--json" });
        QCOMPARE(mixed.code, 0);
        QCOMPARE(runCli({ "import" }).code, 1);
    }
};

QTEST_APPLESS_MAIN(TestCliImport)
#include "tst_cli_import.moc"
