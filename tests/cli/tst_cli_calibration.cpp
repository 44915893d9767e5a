// planscope-cli end to end for profiles: import-nccl-tests, profile-fit, evaluate --calibration (docs/FORMATS.md
// sections 2 and 6), on published nccl-tests outputs (tests/data/nccl-tests/README.md).
#include "CliRunner.h"
#include "TestUtil.h"

#include "calib/Profile.h"

#include <QFile>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {
using Run = test::CliRun;
Run cli(const QStringList& args) { return test::runCli(args); }

QString data(const char* f) { return QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/") + QString::fromUtf8(f); }
QString plan(const char* f) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + QString::fromUtf8(f); }

bool writeFile(const QString& path, const std::string& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(text.data(), qint64(text.size())) == qint64(text.size());
}
} // namespace

class TestCliCalibration : public QObject {
    Q_OBJECT
private slots:
    void usageNamesTheVerbs()
    {
        const Run r = cli({ "--help" });
        QCOMPARE(r.code, 0);
        for (const char* s : { "--calibration", "import-nccl-tests", "profile-fit" })
            QVERIFY2(r.out.find(s) != std::string::npos, s);
    }

    void importToStdout_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rows");
        QTest::addColumn<QString>("linkClass");
        QTest::newRow("H100 2x8") << "a3mega-h100-2x8-all_reduce_perf.txt" << 31 << "inter";
        QTest::newRow("MI300X 1x8") << "mi300x-1x8-all_reduce_perf.txt" << 31 << "intra";
        QTest::newRow("-J JSON") << "constructed-2x4-all_gather_perf.json" << 6 << "inter";
    }
    void importToStdout()
    {
        QFETCH(QString, file);
        QFETCH(int, rows);
        QFETCH(QString, linkClass);
        const Run r = cli({ "import-nccl-tests", data(file.toUtf8().constData()) });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/profile/v1"));
        QCOMPARE(int(j["collectives"].size()), rows);
        QCOMPARE(j["fits"].size(), std::size_t(1));
        QCOMPARE(j["fits"][0]["linkClass"].get<std::string>(), linkClass.toStdString());
        QVERIFY(j["source"].get<std::string>().find(file.toStdString()) != std::string::npos);
        // What it prints loads back as a profile.
        auto back = parseProfile(r.out);
        QVERIFY(back.ok());
        QVERIFY(back->warnings.empty());
    }

    void importSeveralFilesToOut()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("m.profile.json");
        const Run r = cli({ "import-nccl-tests", data("mi300x-1x8-all_reduce_perf.txt"), data("mi300x-2x8-all_reduce_perf.txt"),
            "--out", out });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.empty());
        QVERIFY(r.err.find("63 measurements, 2 fit(s)") != std::string::npos);
        auto p = loadProfileFile(out.toStdString());
        QVERIFY(p.ok());
        QCOMPARE(p->collectives.size(), std::size_t(63));
        QCOMPARE(p->fits.size(), std::size_t(2));
        QCOMPARE(p->host, std::string("1942ef50-8240-449e-82ca-4ce7993f70b4-78bfb5d4f4-4z9xh"));
    }

    void importOpOverride()
    {
        const Run r = cli({ "import-nccl-tests", data("mi300x-1x8-all_reduce_perf.txt"), "--op", "AllGather" });
        QCOMPARE(r.code, 0);
        QCOMPARE(json::parse(r.out)["collectives"][0]["op"].get<std::string>(), std::string("AllGather"));
    }

    // The GB200 NVL72 run (tests/data/nccl-tests/README.md): 72 ranks from its one rank line (Rank 71), 18 nodes from
    // that line's device index (71 mod 4 = 3), and every row's busbw as printed: 834.57 GB/s at 8 GiB out-of-place,
    // 846.82 in-place.
    void importAsPublished()
    {
        const Run r = cli({ "import-nccl-tests", data("gb200-nvl72-18x4-all_reduce_perf-coreweave.txt") });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["collectives"].size(), std::size_t(5));
        for (const json& c : j["collectives"]) {
            QCOMPARE(c["op"].get<std::string>(), std::string("AllReduce"));
            QCOMPARE(c["ranks"].get<int>(), 72);
            QCOMPARE(c["nodes"].get<int>(), 18);
            QVERIFY(!c.contains("derived"));
        }
        const json& last = j["collectives"][4];
        QCOMPARE(last["bytes"].get<double>(), 8589934592.0);
        QCOMPARE(last["seconds"].get<double>(), 20299e-6);
        QCOMPARE(last["algBandwidth"].get<double>(), 423.16e9);
        QCOMPARE(last["busBandwidth"].get<double>(), 834.57e9);
        QCOMPARE(last["inPlace"]["seconds"].get<double>(), 20006e-6);
        QCOMPARE(last["inPlace"]["busBandwidth"].get<double>(), 846.82e9);
        QCOMPARE(last["wrong"].get<int>(), 0);
        QCOMPARE(last["dtype"].get<std::string>(), std::string("float"));
        QCOMPARE(j["fits"][0]["linkClass"].get<std::string>(), std::string("inter"));
        // What it inferred is said, naming the line.
        QVERIFY2(r.err.find("line 4: 18 nodes inferred from 1 of 72 rank lines") != std::string::npos, r.err.c_str());
    }

    // What an output does not print, the user gives: issue #78's V100 run (8 nodes x 8) has no rank lines and a ratio
    // too coarse to tell the rank count.
    void importGivenCounts()
    {
        Run r = cli({ "import-nccl-tests", data("v100-8x8-all_reduce_perf-issue78.txt") });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.find("the rank count cannot be told") != std::string::npos, r.err.c_str());
        QVERIFY(r.err.find("--ranks N") != std::string::npos);
        QCOMPARE(json::parse(r.out)["fits"].size(), std::size_t(0));

        r = cli({ "import-nccl-tests", data("v100-8x8-all_reduce_perf-issue78.txt"), "--ranks", "64", "--nodes", "8" });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.empty(), r.err.c_str());
        const json j = json::parse(r.out);
        QCOMPARE(j["collectives"][0]["ranks"].get<int>(), 64);
        QCOMPARE(j["collectives"][0]["nodes"].get<int>(), 8);
        QCOMPARE(j["fits"][0]["linkClass"].get<std::string>(), std::string("inter"));

        for (const QStringList& bad : { QStringList { "--ranks", "0" }, QStringList { "--nodes", "x" },
                 QStringList { "--ranks", "4", "--nodes", "8" } }) {
            r = cli(QStringList { "import-nccl-tests", data("v100-8x8-all_reduce_perf-issue78.txt") } + bad);
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.find(bad[0].toStdString()) != std::string::npos, r.err.c_str());
        }
    }

    // A table whose collective neither the output, the file name nor --op tells: the error names its line.
    void importNamesTheLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.txt");
        QFile in(data("v100-8x8-alltoall_perf-issue78.txt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QVERIFY(writeFile(path, in.readAll().toStdString()));
        const Run r = cli({ "import-nccl-tests", path });
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("error at line 3: cannot tell which collective the table at line 3 (rows: 2) measured")
                != std::string::npos, r.err.c_str());
        QCOMPARE(cli({ "import-nccl-tests", path, "--op", "AllToAll" }).code, 0);
    }

    void importFailures()
    {
        QTemporaryDir dir;
        const QString junk = dir.filePath("notes.txt");
        QVERIFY(writeFile(junk, "nothing to see\n"));
        Run r = cli({ "import-nccl-tests", junk });
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.empty());
        QVERIFY(r.err.find("no nccl-tests table") != std::string::npos);
        r = cli({ "import-nccl-tests", dir.filePath("missing.txt") });
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.find("cannot open") != std::string::npos);
        r = cli({ "import-nccl-tests" });
        QCOMPARE(r.code, 1);
    }

    void profileFit()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("h.profile.json");
        QCOMPARE(cli({ "import-nccl-tests", data("a3mega-h100-2x8-all_reduce_perf.txt"), "--out", out }).code, 0);
        Run r = cli({ "profile-fit", out });
        QCOMPARE(r.code, 0);
        for (const char* s : { "AllReduce", "inter", "alpha", "busBw" }) QVERIFY2(r.out.find(s) != std::string::npos, s);
        r = cli({ "profile-fit", out, "--json" });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["fits"].size(), std::size_t(1));
        for (const char* k : { "op", "ranks", "linkClass", "alpha", "busBandwidth" }) QVERIFY2(j["fits"][0].contains(k), k);
        QCOMPARE(j["fits"][0]["ranks"].get<int>(), 16);
        // nccl-tests output is accepted as it is.
        r = cli({ "profile-fit", data("mi300x-1x8-all_reduce_perf.txt") });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("intra") != std::string::npos);
    }

    void evaluateWithCalibration_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("asProfile"); // imported first, or the nccl-tests output given directly
        QTest::addColumn<QString>("planFile");
        QTest::addColumn<bool>("otherGpu"); // the file measured another GPU than the plan's
        const QString a100 = QStringLiteral("gpt3-175b-1024xa100.plan.json"), h100 = QStringLiteral("llama3-70b-fp8-64xh100.plan.json");
        QTest::newRow("profile, intra") << "mi300x-1x8-all_reduce_perf.txt" << true << a100 << true;
        QTest::newRow("profile, inter") << "a3mega-h100-2x8-all_reduce_perf.txt" << true << h100 << false;
        QTest::newRow("nccl-tests text") << "mi300x-1x8-all_reduce_perf.txt" << false << a100 << true;
        QTest::newRow("nccl-tests -J") << "constructed-2x4-all_gather_perf.json" << false << a100 << true;
    }
    void evaluateWithCalibration()
    {
        QFETCH(QString, file);
        QFETCH(bool, asProfile);
        QFETCH(QString, planFile);
        QFETCH(bool, otherGpu);
        QTemporaryDir dir;
        QString profile = data(file.toUtf8().constData());
        if (asProfile) {
            profile = dir.filePath("c.profile.json");
            QCOMPARE(cli({ "import-nccl-tests", data(file.toUtf8().constData()), "--out", profile }).code, 0);
        }
        // A file that measured another GPU than the plan's is applied only when asked, and then said.
        const QString p = plan(planFile.toUtf8().constData());
        const Run base = cli({ "evaluate", p });
        QCOMPARE(cli({ "evaluate", p, "--calibration", profile }).code, otherGpu ? 1 : 0);
        QStringList args { "evaluate", p, "--calibration", profile };
        if (otherGpu) args << "--calibration-any-gpu";
        const Run r = cli(args);
        QCOMPARE(base.code, 0);
        QCOMPARE(r.code, 0);
        const json jb = json::parse(base.out), j = json::parse(r.out);
        QVERIFY(j["valid"].get<bool>());
        QVERIFY(!jb.contains("calibration"));
        QVERIFY(j.contains("calibration"));
        const json& c = j["calibration"];
        if (otherGpu) {
            QCOMPARE(c["gpu"]["match"].get<std::string>(), std::string("different"));
            QCOMPARE(c["gpu"]["planned"].get<std::string>(), std::string("NVIDIA A100-SXM4-80GB"));
            bool saidOther = false;
            for (const json& w : j["warnings"])
                saidOther = saidOther || w.get<std::string>().find("calibration: calibration: applied to another GPU than it measured") == 0;
            QVERIFY2(saidOther, j["warnings"].dump().c_str());
        }
        QVERIFY(c.contains("source") && c["source"].is_string());
        QCOMPARE(c["file"].get<std::string>(), profile.toStdString());
        QVERIFY(c["terms"].is_array() && !c["terms"].empty());
        // One warning line per calibrated term, same text.
        for (const json& t : c["terms"]) {
            bool found = false;
            for (const json& w : j["warnings"]) found = found || w.get<std::string>() == "calibrated: " + t.get<std::string>();
            QVERIFY2(found, t.get<std::string>().c_str());
        }
        // Everything else of the prediction is still there, and the communication changed.
        for (const char* k : { "params", "memory", "flops", "time", "comm" }) QVERIFY2(j.contains(k), k);
        double commBase = 0, comm = 0;
        for (const json& g : jb["comm"]["groups"]) commBase += g["seconds"].get<double>();
        for (const json& g : j["comm"]["groups"]) comm += g["seconds"].get<double>();
        QVERIFY(comm != commBase);
        // --analytic composes with it.
        const Run sim = cli(args + QStringList { "--analytic" });
        QCOMPARE(sim.code, 0);
        QVERIFY(json::parse(sim.out).contains("calibration"));
    }

    // A profile names the GPU it ran on (nccl-tests' device lines: "NVIDIA H100 80GB HBM3"): on a plan of another
    // GPU it is refused with both names, exit 1, nothing printed on stdout; on a plan of the same GPU it applies.
    void calibrationOfAnotherGpuIsRefused()
    {
        const QString h100 = data("a3mega-h100-2x8-all_reduce_perf.txt");
        Run r = cli({ "evaluate", plan("gpt3-175b-1024xa100.plan.json"), "--calibration", h100 });
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.empty());
        QVERIFY2(r.err.find("not applied: the profile was measured on NVIDIA H100 80GB HBM3 and the plan's GPU is NVIDIA "
                            "A100-SXM4-80GB")
                != std::string::npos,
            r.err.c_str());
        QVERIFY(r.err.find("--calibration-any-gpu") != std::string::npos);
        r = cli({ "evaluate", plan("llama3-70b-fp8-64xh100.plan.json"), "--calibration", h100 });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QCOMPARE(j["calibration"]["gpu"]["match"].get<std::string>(), std::string("same"));
        QVERIFY(j["calibration"]["refused"].empty());
        QVERIFY(!j["calibration"]["terms"].empty());
    }

    void evaluateCalibrationErrors()
    {
        QTemporaryDir dir;
        const QString p = plan("gpt3-175b-1024xa100.plan.json");
        Run r = cli({ "evaluate", p, "--calibration", dir.filePath("missing.profile.json") });
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.empty());
        QVERIFY(r.err.find("cannot open") != std::string::npos);

        const QString bad = dir.filePath("bad.profile.json");
        QVERIFY(writeFile(bad, R"({"schema": "planscope/profile/v1", "gemm": [{"m": "large"}]})"));
        r = cli({ "evaluate", p, "--calibration", bad });
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.empty());
        QVERIFY2(r.err.find("gemm.0.m") != std::string::npos, r.err.c_str());

        // A valid profile that measured nothing the plan uses: the plan's numbers, said so.
        const QString empty = dir.filePath("empty.profile.json");
        QVERIFY(writeFile(empty, R"({"schema": "planscope/profile/v1", "host": "h", "extra": 1})"));
        r = cli({ "evaluate", p, "--calibration", empty });
        QCOMPARE(r.code, 0);
        const json j = json::parse(r.out);
        QVERIFY(j["calibration"]["terms"].empty());
        const json base = json::parse(cli({ "evaluate", p }).out);
        QCOMPARE(j["time"]["stepSeconds"].get<double>(), base["time"]["stepSeconds"].get<double>());
        bool said = false, unknown = false;
        for (const json& w : j["warnings"]) {
            said = said || w.get<std::string>().find("measured nothing") != std::string::npos;
            unknown = unknown || w.get<std::string>().find("calibration: extra") != std::string::npos;
        }
        QVERIFY(said && unknown);

        // An invalid plan is still exit 2 with the plan's errors, calibration or not.
        const QString badPlan = dir.filePath("bad.plan.json");
        QVERIFY(writeFile(badPlan, R"({"schema": "planscope/plan/v1", "parallel": {"tp": "eight"}})"));
        r = cli({ "evaluate", badPlan, "--calibration", empty });
        QCOMPARE(r.code, 2);
        QVERIFY(!json::parse(r.out)["valid"].get<bool>());
    }
};

QTEST_APPLESS_MAIN(TestCliCalibration)
#include "tst_cli_calibration.moc"
