// planscope-cli import: the SCHEMA.md section 5 JSON for a real Kineto trace, exit codes.
#include "CliRunner.h"

#include <QDir>
#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace planscope::test;
using nlohmann::json;

namespace {
QString trace(const char* name) { return QString::fromUtf8(PLANSCOPE_SHARED_DIR) + "/traces/" + name; }
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
        QCOMPARE(j.at("skipped").size(), std::size_t(1));
        QVERIFY(j.at("skipped")[0].at("file").get<std::string>().find("c_again") != std::string::npos);
        QVERIFY(j.at("skipped")[0].at("reason").get<std::string>().find("duplicate rank 0") != std::string::npos);

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
