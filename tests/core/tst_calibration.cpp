// Profiles (docs/FORMATS.md section 6), nccl-tests import, alpha-beta fits of collectives and the calibration of a
// plan from them (docs/MODEL.md sections 6 and 7). Expected numbers are written out from the formulas here:
// t = steps*alpha + factor*S/busBw with steps 2(n-1) all-reduce, n-1 all-gather/reduce-scatter/all-to-all/
// broadcast/reduce, 1 send/recv, and factor from nccl-tests doc/PERFORMANCE.md.
#include "TestUtil.h"

#include "calib/Profile.h"
#include "cost/Collective.h"

#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

using namespace planscope;
using nlohmann::json;
using planscope::test::near;

namespace {

std::string dataPath(const char* name) { return std::string(PLANSCOPE_SOURCE_DIR) + "/tests/data/nccl-tests/" + name; }

std::string readData(const char* name)
{
    auto t = readTextFile(dataPath(name));
    if (!t) QTest::qFail(("cannot read " + dataPath(name)).c_str(), __FILE__, __LINE__);
    return t ? t.value() : std::string();
}

double steps(const std::string& op, int n)
{
    if (op == "AllReduce") return 2.0 * (n - 1);
    if (op == "SendRecv") return 1.0;
    return n - 1.0;
}

double factor(const std::string& op, int n)
{
    if (op == "AllReduce") return 2.0 * (n - 1) / n;
    if (op == "AllGather" || op == "ReduceScatter" || op == "AllToAll") return double(n - 1) / n;
    return 1.0;
}

// Samples 1 KiB .. 8 GiB (x2) from the alpha-beta model, each time scaled by (1 + noise * u), u uniform in
// [-1, 1], and the sizes listed in `outliers` taken 5x slower.
std::vector<CollectiveSample> synthetic(const std::string& op, int n, int nodes, double alpha, double busBw,
    double noise = 0, std::vector<int> outliers = {})
{
    std::mt19937 rng(12345);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<CollectiveSample> out;
    for (int e = 10, i = 0; e <= 33; ++e, ++i) {
        CollectiveSample s;
        s.op = op;
        s.ranks = n;
        s.nodes = nodes;
        s.bytes = std::ldexp(1.0, e);
        s.seconds = (steps(op, n) * alpha + factor(op, n) * s.bytes / busBw) * (1 + noise * u(rng));
        for (int o : outliers)
            if (o == i) s.seconds *= 5;
        s.algBandwidth = s.bytes / s.seconds;
        s.busBandwidth = s.algBandwidth * factor(op, n);
        out.push_back(s);
    }
    return out;
}

Profile fullProfile()
{
    Profile p;
    p.host = "dgx-01";
    p.cuda = "12.4";
    p.nccl = "2.21.5";
    p.driver = "550.54.15";
    p.source = "planscope-profile";
    p.gpus = { { 0, "NVIDIA H100 80GB HBM3", 85520809984, "0000:18:00.0" }, { 1, "NVIDIA H100 80GB HBM3", 85520809984, "0000:2a:00.0" } };
    p.links = { { 0, 1, "nvlink", 18, 4.5e11 }, { 1, 0, "nvlink", 18, 4.5e11 } };
    p.gemm = { { 8192, 8192, 8192, "bf16", 0.00171, 643.0 }, { 4096, 4096, 4096, "fp8", 0.000123456789, 1113.25 } };
    p.hbmBandwidth = 2.9e12 + 0.123;
    p.collectives = synthetic("AllReduce", 8, 1, 6e-6, 3.6e11);
    p.fits = { { "AllReduce", 8, "intra", 6.1e-6, 3.59e11, 24, 1 }, { "AllGather", 16, "inter", 1.2e-5, 4.1e11, 20, 2 } };
    return p;
}

const std::string kSchema = R"("schema": "planscope/profile/v1")";

// A short nccl-tests table (shaped after NVIDIA/nccl-tests output): `prefix` goes before every line.
std::string table(const std::string& binary, const std::string& prefix = "", bool rankLines = true)
{
    std::string t;
    auto line = [&](const std::string& l) { t += prefix + l + "\n"; };
    line("# nccl-tests version 2.14.1 nccl-headers=22106 nccl-library=22106");
    if (!binary.empty()) line("# Collective test starting: " + binary);
    line("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1073741824 step: 4(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0");
    line("#");
    line("# Using devices");
    if (rankLines)
        for (int r = 0; r < 4; ++r)
            line("#  Rank  " + std::to_string(r) + " Group  0 Pid  1234 on    node" + std::to_string(r / 2) + " device  "
                + std::to_string(r % 2) + " [0x1" + std::to_string(r) + "] NVIDIA A100-SXM4-80GB");
    line("#");
    line("#                                                              out-of-place                       in-place          ");
    line("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong");
    line("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ");
    // 4 ranks: all-reduce factor 1.5, all-gather 0.75.
    line("     1048576        262144     float     sum      -1    60.00   17.48   26.21      0    59.00   17.77   26.66      0");
    line("     4194304       1048576     float     sum      -1   140.00   29.96   44.94    N/A   139.00   30.17   45.26    N/A");
    line("    16777216       4194304     float     sum      -1   460.00   36.47   54.71      0   455.00   36.87   55.31      0");
    line("    67108864      16777216     float     sum      -1      N/A     N/A     N/A      0  1750.00   38.35   57.52      0");
    line("   268435456      67108864     float     sum      -1  6940.00   38.68   58.02      0  6930.00   38.74   58.10      0");
    line("  1073741824     268435456     float     sum      -1 27700.00   38.76   58.15      0 27650.00   38.83   58.25      0");
    line("# Out of bounds values : 0 OK");
    line("# Avg bus bandwidth    : 48.2 ");
    line("#");
    if (!binary.empty()) line("# Collective test concluded: " + binary);
    return t;
}

} // namespace

class TestCalibration : public QObject {
    Q_OBJECT
private slots:
    // ------------------------------------------------------------------ profile JSON
    void roundTrip()
    {
        const Profile p = fullProfile();
        const json j = profileToJson(p);
        QCOMPARE(j["schema"].get<std::string>(), std::string(kProfileSchema));
        for (const char* k : { "schema", "host", "versions", "gpus", "links", "gemm", "collectives", "fits", "hbmBandwidth", "source" })
            QVERIFY2(j.contains(k), k);
        for (const char* k : { "cuda", "nccl", "driver" }) QVERIFY2(j["versions"].contains(k), k);
        for (const char* k : { "index", "name", "memory", "busId" }) QVERIFY2(j["gpus"][0].contains(k), k);
        for (const char* k : { "m", "n", "k", "dtype", "seconds", "tflops" }) QVERIFY2(j["gemm"][0].contains(k), k);
        for (const char* k : { "op", "ranks", "nodes", "bytes", "seconds", "algBandwidth", "busBandwidth" })
            QVERIFY2(j["collectives"][0].contains(k), k);
        for (const char* k : { "op", "ranks", "linkClass", "alpha", "busBandwidth" }) QVERIFY2(j["fits"][0].contains(k), k);

        auto back = parseProfile(j.dump(2));
        QVERIFY(back.ok());
        QVERIFY(back.value() == p);
        QVERIFY(back->warnings.empty());
        // And once more through text: stable.
        QCOMPARE(profileToJson(back.value()).dump(), j.dump());
        // An empty profile round-trips too.
        auto empty = profileFromJson(profileToJson(Profile {}));
        QVERIFY(empty.ok());
        QVERIFY(empty.value() == Profile {});
    }

    void errorsNameTheField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("path");
        QTest::newRow("wrong schema") << R"({"schema": "planscope/profile/v9"})" << "schema";
        QTest::newRow("gemm m not a number") << R"({"gemm": [{"m": "big"}]})" << "gemm.0.m";
        QTest::newRow("negative bytes") << R"({"collectives": [{"op": "AllReduce", "ranks": 8, "bytes": -1}]})" << "collectives.0.bytes";
        QTest::newRow("ranks fractional") << R"({"collectives": [{}, {"ranks": 2.5}]})" << "collectives.1.ranks";
        QTest::newRow("gpus not an array") << R"({"gpus": {"index": 0}})" << "gpus";
        QTest::newRow("gpu row not an object") << R"({"gpus": [3]})" << "gpus.0";
        QTest::newRow("link class") << R"({"fits": [{"op": "AllReduce", "linkClass": "rack"}]})" << "fits.0.linkClass";
        QTest::newRow("versions not an object") << R"({"versions": "12.4"})" << "versions";
        QTest::newRow("hbm string") << R"({"hbmBandwidth": "3 TB/s"})" << "hbmBandwidth";
        QTest::newRow("nccl row time negative") << R"({"collectives": [{"size": 8, "out_of_place": {"time": -3}}]})"
                                                << "collectives.0.out_of_place.time";
        QTest::newRow("top level array") << "[1, 2]" << "";
    }
    void errorsNameTheField()
    {
        QFETCH(QString, text);
        QFETCH(QString, path);
        auto r = parseProfile(text.toStdString());
        QVERIFY(!r.ok());
        bool found = false;
        for (const Issue& i : r.errors()) {
            QVERIFY(i.severity == Severity::Error);
            if (i.path == path.toStdString()) found = true;
        }
        QVERIFY2(found, qPrintable(QString::fromStdString(r.errors().front().path + ": " + r.errors().front().message)));
    }

    void syntaxErrorHasOffset()
    {
        auto r = parseProfile("{\"host\": \"a\",\n \"gpus\": [}");
        QVERIFY(!r.ok());
        QVERIFY(r.errors().front().offset > 10);
    }

    void unknownFieldsAreWarnings()
    {
        auto r = parseProfile("{" + kSchema + R"(, "hots": "typo", "gemm": [{"m": 1024, "n": 1024, "k": 1024, "dtype": "bf16",
            "seconds": 0.001, "flops": 3}], "versions": {"rocm": "6.4"}})");
        QVERIFY(r.ok());
        std::vector<std::string> paths;
        for (const Issue& w : r->warnings) {
            QVERIFY(w.severity == Severity::Warning);
            paths.push_back(w.path);
        }
        for (const char* p : { "hots", "gemm.0.flops", "versions.rocm" })
            QVERIFY2(std::find(paths.begin(), paths.end(), p) != paths.end(), p);
        // tflops left out: computed from the shape and the time.
        QVERIFY(near(r->gemm[0].tflops, 2.0 * 1024 * 1024 * 1024 / 0.001 / 1e12));
        // A missing schema is a warning, not an error.
        auto noSchema = parseProfile(R"({"host": "x"})");
        QVERIFY(noSchema.ok());
        QCOMPARE(noSchema->warnings.size(), std::size_t(1));
        QCOMPARE(noSchema->warnings[0].path, std::string("schema"));
    }

    // nccl-tests -J result rows load through the same reader as the profile's own rows.
    void ncclJsonRowsInAProfile()
    {
        auto r = parseProfile("{" + kSchema + R"(, "collectives": [{"op": "AllGather", "ranks": 8, "size": 1048576,
            "count": 262144, "type": "float", "redop": "none", "root": "    -1",
            "out_of_place": {"time": 25.5, "alg_bw": 41.12, "bus_bw": 35.98, "nwrong": 0.0}}]})");
        QVERIFY(r.ok());
        QCOMPARE(r->collectives.size(), std::size_t(1));
        const CollectiveSample& c = r->collectives[0];
        QCOMPARE(c.bytes, 1048576.0);
        QVERIFY(near(c.seconds, 25.5e-6));
        QVERIFY(near(c.algBandwidth, 41.12e9));
        QVERIFY(near(c.busBandwidth, 35.98e9));
        QVERIFY(r->warnings.empty());
    }

    // Whatever JSON comes in, the reader answers with a profile or errors: random documents and random
    // mutations of a valid one.
    void nothingCrashes()
    {
        std::mt19937 rng(7);
        std::function<json(int)> randomValue = [&](int depth) -> json {
            static const char* keys[] = { "schema", "host", "gpus", "links", "gemm", "collectives", "fits", "versions",
                "hbmBandwidth", "op", "ranks", "bytes", "seconds", "m", "n", "k", "dtype", "size", "out_of_place",
                "time", "alg_bw", "linkClass", "alpha", "busBandwidth", "index", "memory", "results", "config", "args" };
            switch (rng() % (depth > 3 ? 6 : 8)) {
            case 0: return nullptr;
            case 1: return bool(rng() % 2);
            case 2: return int(rng() % 2000) - 1000;
            case 3: return std::ldexp(double(rng() % 1000) - 500.5, int(rng() % 80) - 40);
            case 4: return std::string("planscope/profile/v1").substr(0, rng() % 21);
            case 5: return 1e308 * 10; // inf is written as null by nlohmann; keep the case anyway
            case 6: {
                json a = json::array();
                for (int i = int(rng() % 4); i > 0; --i) a.push_back(randomValue(depth + 1));
                return a;
            }
            default: {
                json o = json::object();
                for (int i = int(rng() % 6); i > 0; --i) o[keys[rng() % std::size(keys)]] = randomValue(depth + 1);
                return o;
            }
            }
        };
        for (int i = 0; i < 3000; ++i) {
            const json j = randomValue(0);
            auto r = profileFromJson(j);
            QVERIFY(r.ok() || !r.errors().empty());
            auto imported = importNcclTests(j.dump());
            QVERIFY(imported.ok() || !imported.errors().empty());
        }
        const std::string valid = profileToJson(fullProfile()).dump();
        for (int i = 0; i < 1500; ++i) {
            std::string t = valid;
            for (int k = int(rng() % 4) + 1; k > 0; --k) {
                const std::size_t at = rng() % t.size();
                switch (rng() % 3) {
                case 0: t[at] = "{}[]\":,-0e9.ax "[rng() % 15]; break;
                case 1: t.erase(at, rng() % 12); break;
                default: t.insert(at, std::string(1, "{}[]\":,-0e9.ax "[rng() % 15])); break;
                }
            }
            auto r = parseProfile(t);
            QVERIFY(r.ok() || !r.errors().empty());
            auto imported = importNcclTests(t);
            QVERIFY(imported.ok() || !imported.errors().empty());
        }
    }

    // ------------------------------------------------------------------ nccl-tests import
    void importPublishedOutputs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("rows");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("busId");
        QTest::addColumn<double>("lastBusBw"); // the busbw printed on the largest row, GB/s
        // tests/data/nccl-tests/README.md says where each file came from.
        QTest::newRow("H100 2x8 (a3mega)") << "a3mega-h100-2x8-all_reduce_perf.txt" << "AllReduce" << 16 << 2 << 31
                                           << "ztan-mig-235z" << "NVIDIA H100 80GB HBM3" << "0000:04:00" << 338.82;
        QTest::newRow("MI300X 1x8") << "mi300x-1x8-all_reduce_perf.txt" << "AllReduce" << 8 << 1 << 31
                                    << "1942ef50-8240-449e-82ca-4ce7993f70b4-78bfb5d4f4-4z9xh" << "AMD Instinct MI300X"
                                    << "0000:05:00" << 315.69;
        QTest::newRow("MI300X 2x8") << "mi300x-2x8-all_reduce_perf.txt" << "AllReduce" << 16 << 2 << 32 << "gpu-53"
                                    << "AMD Instinct MI300X" << "0000:05:00.0" << 357.46;
    }
    void importPublishedOutputs()
    {
        QFETCH(QString, file);
        QFETCH(QString, op);
        QFETCH(int, ranks);
        QFETCH(int, nodes);
        QFETCH(int, rows);
        QFETCH(QString, host);
        QFETCH(QString, gpu);
        QFETCH(QString, busId);
        QFETCH(double, lastBusBw);
        const std::string text = readData(file.toUtf8().constData());
        auto r = importNcclTests(text); // the op from the text, no hint
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        const Profile& p = r.value();
        QCOMPARE(p.source, std::string("nccl-tests"));
        QCOMPARE(int(p.collectives.size()), rows);
        QCOMPARE(p.host, host.toStdString());
        QCOMPARE(int(p.gpus.size()), 8); // the GPUs of the first host
        QCOMPARE(p.gpus[0].name, gpu.toStdString());
        QCOMPARE(p.gpus[0].busId, busId.toStdString());
        QCOMPARE(p.gpus[7].index, 7);
        for (const CollectiveSample& c : p.collectives) {
            QCOMPARE(c.op, op.toStdString());
            QCOMPARE(c.ranks, ranks);
            QCOMPARE(c.nodes, nodes);
            QVERIFY(c.seconds > 0);
            // Every bandwidth is printed, so none is computed; the printed ones agree with S / t and the factor to
            // their rounding (0.01 GB/s, times to 4 or 5 digits).
            QVERIFY(c.derived.empty());
            QVERIFY2(std::abs(c.algBandwidth - c.bytes / c.seconds) <= 0.006e9 + 1e-3 * c.algBandwidth,
                qPrintable(test::num(c.bytes)));
            QVERIFY2(std::abs(c.busBandwidth - c.algBandwidth * factor(op.toStdString(), ranks)) <= 0.02e9 + 1e-3 * c.busBandwidth,
                qPrintable(test::num(c.bytes)));
            QVERIFY(c.inPlace && c.inPlace->seconds > 0);
            QCOMPARE(c.dtype, std::string("float"));
        }
        // Units: size bytes, time us, busbw GB/s, taken as printed.
        QCOMPARE(p.collectives.front().bytes, 8.0);
        QVERIFY(near(p.collectives.back().busBandwidth, lastBusBw * 1e9, 1e-12));
        // One fit for the one group; its model stays within 25% of every size from 256 MiB up (the large-message
        // regime, where a published run is close to alpha-beta) and alpha is a few microseconds.
        QCOMPARE(p.fits.size(), std::size_t(1));
        const LinkFit& f = p.fits[0];
        QCOMPARE(f.linkClass, std::string(nodes > 1 ? "inter" : "intra"));
        QCOMPARE(f.ranks, ranks);
        QCOMPARE(f.nodes, nodes);
        QVERIFY(f.points >= rows / 2);
        QVERIFY2(f.alpha > 0.1e-6 && f.alpha < 20e-6, qPrintable(test::num(f.alpha)));
        for (const CollectiveSample& c : p.collectives) {
            if (c.bytes < 256.0 * 1048576) continue;
            const double model = steps(op.toStdString(), ranks) * f.alpha + factor(op.toStdString(), ranks) * c.bytes / f.busBandwidth;
            QVERIFY2(std::abs(model / c.seconds - 1) < 0.25, qPrintable(test::num(c.bytes) + " " + test::num(model / c.seconds)));
        }
    }

    // Outputs as published (tests/data/nccl-tests/README.md names each source): the op, the rank count from the
    // highest rank index (or the ratio the printed digits allow, or unknown = 0), the nodes from the host names (or
    // the device indexes of the lines kept, or unknown = 0), and the busbw of the largest row as printed in each half.
    void importAsPublished_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("rows");
        QTest::addColumn<double>("largest");  // bytes of the last row
        QTest::addColumn<double>("busOut");   // GB/s, out-of-place busbw printed on it
        QTest::addColumn<double>("busIn");    // GB/s, in-place
        QTest::addColumn<QString>("nccl");
        QTest::addColumn<QString>("warning"); // a warning that must be given ("" none of rank or node counts)
        QTest::newRow("GB200 NVL72, 72 ranks, only rank 71's line")
            << "gb200-nvl72-18x4-all_reduce_perf-coreweave.txt" << "AllReduce" << 72 << 18 << 5 << 8589934592.0 << 834.57
            << 846.82 << "" << "18 nodes inferred from 1 of 72 rank lines";
        QTest::newRow("GB200 2 racks, rank lines and ratio disagree")
            << "gb200-2rack-all_reduce_perf-coreweave.txt" << "AllReduce" << 144 << 36 << 6 << 17179869184.0 << 810.41
            << 820.36 << "" << "is the factor for 128 ranks, not for the 144 the rank lines say";
        QTest::newRow("GB200 20 racks, 1440 ranks")
            << "gb200-20rack-360x4-all_reduce_perf-coreweave.txt" << "AllReduce" << 1440 << 360 << 6 << 17179869184.0
            << 405.74 << 404.77 << "" << "360 nodes inferred";
        QTest::newRow("GB200 32x4, newest format")
            << "gb200-32x4-all_reduce_perf-oci.txt" << "AllReduce" << 128 << 32 << 33 << 34359738368.0 << 683.57 << 683.49
            << "2.29.2+cuda13.1" << "32 nodes inferred";
        QTest::newRow("GB200 alltoall, hand-edited rows")
            << "gb200-16x4-alltoall_perf-oci-handedited.txt" << "AllToAll" << 64 << 0 << 2 << 8589934592.0 << 622.92
            << 623.60 << "" << "64 ranks from AllToAll busbw / algbw";
        QTest::newRow("GB300 alltoall, elided rank lines")
            << "gb300-16x4-alltoall_perf-oci-elided-ranks.txt" << "AllToAll" << 64 << 16 << 2 << 17179869184.0 << 666.92
            << 661.51 << "2.28.7+cuda13.0" << "16 nodes inferred from 4 of 64 rank lines";
        QTest::newRow("H100 2x8 OCI, all rank lines")
            << "h100-2x8-all_reduce_perf-oci.txt" << "AllReduce" << 16 << 2 << 5 << 17179869184.0 << 464.57 << 464.79 << ""
            << "";
        QTest::newRow("H100 2x8 p5, srun -l")
            << "h100-2x8-all_reduce_perf-aws-p5-srun-prefix.txt" << "AllReduce" << 16 << 0 << 32 << 17179869184.0 << 487.09
            << 487.26 << "" << "16 ranks from AllReduce busbw / algbw";
        QTest::newRow("A100 2x8 p4de, srun -l")
            << "a100-80gb-2x8-all_reduce_perf-aws-p4de-srun-prefix.txt" << "AllReduce" << 16 << 0 << 29 << 2147483648.0
            << 78.33 << 78.33 << "" << "the node count is unknown";
        QTest::newRow("H100 2x8 EKS, Open MPI tags and elided rows")
            << "h100-2x8-all_reduce_perf-aws-p5-eks-ompi-prefix-excerpt.txt" << "AllReduce" << 16 << 0 << 7 << 2147483648.0
            << 437.79 << 437.89 << "" << "16 ranks from";
        QTest::newRow("H100 AWS Batch, 8 ranks")
            << "h100-1x8-all_reduce_perf-aws-batch-ompi-prefix.txt" << "AllReduce" << 8 << 0 << 32 << 17179869184.0 << 483.05
            << 483.35 << "" << "8 ranks from";
        QTest::newRow("H100 96 ranks, kubectl session")
            << "h100-96rank-all_reduce_perf-coreweave.txt" << "AllReduce" << 96 << 0 << 5 << 8589934592.0 << 386.56 << 385.56
            << "" << "96 ranks from";
        QTest::newRow("A100 1x8, one process -g 8")
            << "a100-40gb-1x8-all_reduce_perf-oci-threads.txt" << "AllReduce" << 8 << 1 << 1 << 10737418240.0 << 235.43
            << 235.59 << "" << "";
        QTest::newRow("A100 2x8, two processes -g 8")
            << "a100-40gb-2x8-all_reduce_perf-oci-2proc-g8.txt" << "AllReduce" << 16 << 2 << 1 << 10737418240.0 << 164.07
            << 165.21 << "" << "";
        QTest::newRow("V100 1x8, oldest format")
            << "v100-1x8-all_reduce_perf-konnase.txt" << "AllReduce" << 8 << 1 << 25 << 134217728.0 << 129.14 << 128.92
            << "" << "";
        QTest::newRow("V100 8x8, ratio too coarse")
            << "v100-8x8-all_reduce_perf-issue78.txt" << "AllReduce" << 0 << 0 << 2 << 536870912.0 << 4.32 << 4.32 << ""
            << "allows 59 to 79 ranks";
        QTest::newRow("V100 8x8 alltoall, empty redop")
            << "v100-8x8-alltoall_perf-issue78.txt" << "AllToAll" << 0 << 0 << 2 << 536870912.0 << 0.51 << 0.51 << ""
            << "the rank count cannot be told";
    }
    void importAsPublished()
    {
        QFETCH(QString, file);
        QFETCH(QString, op);
        QFETCH(int, ranks);
        QFETCH(int, nodes);
        QFETCH(int, rows);
        QFETCH(double, largest);
        QFETCH(double, busOut);
        QFETCH(double, busIn);
        QFETCH(QString, nccl);
        QFETCH(QString, warning);
        // The file name as the hint, as planscope-cli and the app pass it (its binary name counts where the text names none).
        auto r = importNcclTests(readData(file.toUtf8().constData()), file.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QCOMPARE(int(r->collectives.size()), rows);
        for (const CollectiveSample& c : r->collectives) {
            QCOMPARE(c.op, op.toStdString());
            QCOMPARE(c.ranks, ranks);
            QCOMPARE(c.nodes, nodes);
            QVERIFY(c.derived.empty()); // every row prints algbw and busbw in both halves
            QVERIFY(c.inPlace);
        }
        const CollectiveSample& last = r->collectives.back();
        QCOMPARE(last.bytes, largest);
        QVERIFY(near(last.busBandwidth, busOut * 1e9, 1e-12));
        QVERIFY(near(last.inPlace->busBandwidth, busIn * 1e9, 1e-12));
        QCOMPARE(r->nccl, nccl.toStdString());
        std::string said;
        for (const Issue& w : r->warnings) said += w.path + ": " + w.message + "\n";
        if (warning.isEmpty()) QVERIFY2(r->warnings.empty(), said.c_str());
        else QVERIFY2(said.find(warning.toStdString()) != std::string::npos, said.c_str());
        // Fitted where the rank count is known; a link class only where the node count is.
        if (ranks == 0) {
            QVERIFY(r->fits.empty());
        } else {
            QCOMPARE(r->fits.size(), std::size_t(1));
            QCOMPARE(r->fits[0].linkClass, std::string(nodes == 0 ? "unknown" : nodes == 1 ? "intra" : "inter"));
        }
        // What was imported writes and reads back the same.
        auto back = parseProfile(profileToJson(r.value()).dump());
        QVERIFY2(back.ok(), back.ok() ? "" : back.errors().front().message.c_str());
        QVERIFY(back->collectives == r->collectives);
        QVERIFY(back->fits == r->fits);
    }

    // The v100 alltoall rows leave the redop field empty: "536870912 2097152 float <empty> 1041974 0.52 0.51 0e+00
    // 1041299 0.52 0.51 1e+00". The cells must land under time, algbw, busbw and error all the same.
    void importEmptyRedop()
    {
        auto r = importNcclTests(readData("v100-8x8-alltoall_perf-issue78.txt"), "alltoall_perf");
        QVERIFY(r.ok());
        const CollectiveSample& c = r->collectives.back();
        QCOMPARE(c.seconds, 1041974e-6);
        QCOMPARE(c.algBandwidth, 0.52e9);
        QCOMPARE(c.busBandwidth, 0.51e9);
        QCOMPARE(c.error, 0.0);
        QCOMPARE(c.inPlace->seconds, 1041299e-6);
        QCOMPARE(c.inPlace->error, 1.0);
        QCOMPARE(c.dtype, std::string("float"));
        QCOMPARE(c.wrong, std::int64_t(-1)); // this version prints error, not #wrong
    }

    // What the output cannot tell, the user gives: issue #78's comment says 8 nodes of 8 V100.
    void importWithGivenCounts()
    {
        NcclTestsHints hints;
        hints.ranks = 64;
        hints.nodes = 8;
        hints.op = "AllReduce";
        auto r = importNcclTests(readData("v100-8x8-all_reduce_perf-issue78.txt"), hints);
        QVERIFY(r.ok());
        for (const CollectiveSample& c : r->collectives) {
            QCOMPARE(c.ranks, 64);
            QCOMPARE(c.nodes, 8);
        }
        // 64 is within what the printed ratio allows (59 to 79): nothing to warn about.
        QVERIFY(r->warnings.empty());
        QCOMPARE(r->fits.size(), std::size_t(1));
        QCOMPARE(r->fits[0].linkClass, std::string("inter"));
        // A count the ratio rules out is kept (the user said so) but warned about.
        hints.ranks = 16;
        auto wrong = importNcclTests(readData("v100-8x8-all_reduce_perf-issue78.txt"), hints);
        QVERIFY(wrong.ok());
        QCOMPARE(wrong->collectives[0].ranks, 16);
        QVERIFY(!wrong->warnings.empty());
        QVERIFY(wrong->warnings[0].message.find("not for the 16 ranks given") != std::string::npos);
    }

    // Where a bandwidth column is missing, it is computed and the row says so: busbw = algbw * 2(n-1)/n.
    void importDerivesOnlyWhatIsMissing()
    {
        const std::string text = "# Collective test starting: all_reduce_perf\n"
                                 "#  Rank  0 Group  0 Pid  1 on a device  0 [0x01] GPU\n"
                                 "#  Rank  1 Group  0 Pid  2 on a device  1 [0x02] GPU\n"
                                 "#       size         count      type   redop    root     time   algbw #wrong\n"
                                 "     1048576        262144     float     sum      -1    50.00   20.97      0\n";
        auto r = importNcclTests(text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        const CollectiveSample& c = r->collectives[0];
        QCOMPARE(c.algBandwidth, 20.97e9); // printed
        QVERIFY(near(c.busBandwidth, 20.97e9 * 2 * (2 - 1) / 2.0, 1e-12)); // computed from it
        QCOMPARE(c.derived, std::vector<std::string> { "busBandwidth" });
        QVERIFY(!c.inPlace);
        QCOMPARE(c.ranks, 2);
        QCOMPARE(c.nodes, 1);
    }

    // A table whose binary is named nowhere: an all-reduce tells itself (a reduction, no root, busbw above algbw:
    // 2(n-1)/n > 1 for no other collective); the rest fit more than one collective, and the error names the line.
    void importWithoutABinaryName()
    {
        auto r = importNcclTests(readData("gb200-nvl72-18x4-all_reduce_perf-coreweave.txt"));
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QCOMPARE(r->collectives[0].op, std::string("AllReduce"));
        QVERIFY(!r->warnings.empty());
        QVERIFY(r->warnings[0].message.find("AllReduce from the rows") != std::string::npos);
        QCOMPARE(r->warnings[0].path, std::string("line 4"));

        auto a2a = importNcclTests(readData("v100-8x8-alltoall_perf-issue78.txt"));
        QVERIFY(!a2a.ok());
        QCOMPARE(a2a.errors().front().path, std::string("line 3"));
        QVERIFY(a2a.errors().front().message.find("cannot tell which collective the table at line 3 (rows: 2)") != std::string::npos);

        auto unnamed = importNcclTests(table("")); // the table helper's all-reduce rows, the binary named nowhere
        QVERIFY(unnamed.ok());
        QCOMPARE(unnamed->collectives[0].op, std::string("AllReduce"));
        // A word ending in _perf that is no nccl-tests binary (a folder in a pasted prompt) names nothing.
        auto folder = importNcclTests("$ cd ~/cluster_perf && ./run.sh\n" + table(""));
        QVERIFY2(folder.ok(), folder.ok() ? "" : folder.errors().front().message.c_str());
        QCOMPARE(folder->collectives[0].op, std::string("AllReduce"));
    }

    void importJsonOutput()
    {
        auto r = importNcclTests(readData("constructed-2x4-all_gather_perf.json"));
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QCOMPARE(r->collectives.size(), std::size_t(6)); // the "nan" row is left out, with a warning
        QVERIFY(!r->warnings.empty());
        QCOMPARE(r->nccl, std::string("2.27.3"));
        QCOMPARE(r->host, std::string("node-a"));
        for (const CollectiveSample& c : r->collectives) {
            QCOMPARE(c.op, std::string("AllGather"));
            QCOMPARE(c.ranks, 8); // 2 processes x 4 GPUs
            QCOMPARE(c.nodes, 2);
        }
        // The first result as -J wrote it: out_of_place {time 88.35008 us, alg_bw 11.868422, bus_bw 10.384869,
        // nwrong 0}, in_place {89.233581, 11.750912, 10.282048, 0}: both halves kept as written.
        const CollectiveSample& first = r->collectives[0];
        QCOMPARE(first.seconds, 88.35008e-6);
        QCOMPARE(first.algBandwidth, 11.868422e9);
        QCOMPARE(first.busBandwidth, 10.384869e9);
        QCOMPARE(first.wrong, std::int64_t(0));
        QCOMPARE(first.dtype, std::string("float"));
        QVERIFY(first.derived.empty());
        QVERIFY(first.inPlace);
        QCOMPARE(first.inPlace->seconds, 89.233581e-6);
        QCOMPARE(first.inPlace->busBandwidth, 10.282048e9);
        QCOMPARE(r->fits.size(), std::size_t(1));
        QVERIFY(near(r->fits[0].alpha, 10e-6, 1e-3));
        QVERIFY(near(r->fits[0].busBandwidth, 50e9, 1e-3));
    }

    void importVariants_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("hint");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("rows");
        const auto q = [](const std::string& s) { return QString::fromStdString(s); };
        QTest::newRow("plain") << q(table("all_reduce_perf")) << "" << "AllReduce" << 4 << 2 << 5;
        QTest::newRow("mpi binary name") << q(table("all_gather_perf_mpi")) << "" << "AllGather" << 4 << 2 << 5;
        QTest::newRow("op from the file name") << q(table("")) << "reduce_scatter_perf.txt" << "ReduceScatter" << 4 << 2 << 5;
        QTest::newRow("file name does not override the text") << q(table("all_reduce_perf")) << "alltoall_perf.log" << "AllReduce" << 4 << 2 << 5;
        QTest::newRow("explicit op overrides the text") << q(table("all_reduce_perf")) << "AllToAll" << "AllToAll" << 4 << 2 << 5;
        QTest::newRow("open mpi --tag-output") << q(table("broadcast_perf", "[1,0]<stdout>:")) << "" << "Broadcast" << 4 << 2 << 5;
        QTest::newRow("srun -l") << q(table("sendrecv_perf", " 0: ")) << "" << "SendRecv" << 4 << 2 << 5;
        QTest::newRow("CRLF") << q([&] {
            std::string t = table("all_reduce_perf"), out;
            for (char c : t) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
            return out;
        }()) << "" << "AllReduce" << 4 << 2 << 5;
        // No rank lines: n from the printed busbw/algbw ratio (1.5 = 2(n-1)/n -> n = 4); the node count is not told (0).
        QTest::newRow("no rank lines") << q(table("all_reduce_perf", "", false)) << "" << "AllReduce" << 4 << 0 << 5;
        // A row wrapped onto two lines (a narrow terminal, a web page).
        QTest::newRow("wrapped row") << q([&] {
            std::string t = table("all_reduce_perf");
            const std::string row = "    16777216       4194304     float     sum      -1    460.00   36.47";
            const auto at = t.find(row);
            t.insert(at + row.size(), "\n    ");
            return t;
        }()) << "" << "AllReduce" << 4 << 2 << 5;
        // The older header (no root column, an error column), as in NVIDIA/nccl issue #340.
        QTest::newRow("old header") << "# Using devices\n"
                                       "#   Rank  0 Pid  1 on host device  0 [0x3b] GeForce RTX 2080 Ti\n"
                                       "#   Rank  1 Pid  1 on host device  1 [0xaf] GeForce RTX 2080 Ti\n"
                                       "#\n"
                                       "#                                                     out-of-place                       in-place\n"
                                       "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
                                       "#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
                                       "     1048576        262144   float     sum    47.38   22.13   22.13  0e+00    46.84   22.39   22.39  0e+00\n"
                                       "     4194304       1048576   float     sum    120.1   34.92   34.92  0e+00    115.5   36.31   36.31  0e+00\n"
                                       "    16777216       4194304   float     sum    418.5   40.09   40.09  0e+00    414.0   40.52   40.52  0e+00\n"
                                       "# Out of bounds values : 0 OK\n"
                                       "# Avg bus bandwidth    : 32.4 \n"
                                    << "all_reduce_perf.txt" << "AllReduce" << 2 << 1 << 3;
    }
    void importVariants()
    {
        QFETCH(QString, text);
        QFETCH(QString, hint);
        QFETCH(QString, op);
        QFETCH(int, ranks);
        QFETCH(int, nodes);
        QFETCH(int, rows);
        auto r = importNcclTests(text.toStdString(), hint.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QCOMPARE(int(r->collectives.size()), rows);
        for (const CollectiveSample& c : r->collectives) {
            QCOMPARE(c.op, op.toStdString());
            QCOMPARE(c.ranks, ranks);
            QCOMPARE(c.nodes, nodes);
        }
        QCOMPARE(r->fits.size(), std::size_t(1));
    }

    void importLeavesOutNA()
    {
        auto r = importNcclTests(table("all_reduce_perf"));
        QVERIFY(r.ok());
        // The 64 MiB row prints N/A for its out-of-place time: left out (not taken from the in-place half).
        for (const CollectiveSample& c : r->collectives) QVERIFY(c.bytes != 67108864.0);
        QVERIFY(!r->warnings.empty());
        // 1 MiB: "60.00 17.48 26.21 0 | 59.00 17.77 26.66 0" as printed, both halves.
        const CollectiveSample& first = r->collectives[0];
        QCOMPARE(first.seconds, 60e-6);
        QCOMPARE(first.algBandwidth, 17.48e9);
        QCOMPARE(first.busBandwidth, 26.21e9);
        QCOMPARE(first.wrong, std::int64_t(0));
        QVERIFY(first.inPlace);
        QCOMPARE(first.inPlace->seconds, 59e-6);
        QCOMPARE(first.inPlace->algBandwidth, 17.77e9);
        QCOMPARE(first.inPlace->busBandwidth, 26.66e9);
        QVERIFY(first.derived.empty());
        // The 4 MiB row's #wrong is N/A in both halves: not printed (-1), not zero.
        QCOMPARE(r->collectives[1].wrong, std::int64_t(-1));
        QCOMPARE(r->collectives[1].inPlace->wrong, std::int64_t(-1));
        QCOMPARE(r->gpus.size(), std::size_t(2)); // node0's two GPUs
        QCOMPARE(r->gpus[1].busId, std::string("0x11"));
    }

    void importSeveralRuns()
    {
        auto r = importNcclTests(table("all_reduce_perf") + table("all_gather_perf"));
        QVERIFY(r.ok());
        QCOMPARE(r->collectives.size(), std::size_t(10));
        QCOMPARE(r->fits.size(), std::size_t(2));
        QCOMPARE(r->fits[0].op, std::string("AllGather")); // sorted by op
        QCOMPARE(r->fits[1].op, std::string("AllReduce"));
    }

    void importFailures_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("hint");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "" << "no nccl-tests table";
        QTest::newRow("not nccl-tests") << "hello\nworld\n" << "" << "no nccl-tests table";
        // Rows without a reduction and without a root: an all-gather or an all-to-all; nothing names which.
        QTest::newRow("no op") << QString::fromStdString(table("")).replace("     sum ", "    none ") << ""
                               << "cannot tell which collective the table at line 11 (rows: 5) measured";
        QTest::newRow("unknown binary") << QString::fromStdString(table("hypercube_perf")) << ""
                                        << "the table at line 12 (rows: 5) is from hypercube_perf, not a collective";
        QTest::newRow("header but no rows") << "#  size  count  type  redop  root  time  algbw  busbw  #wrong\n# Avg bus bandwidth : 0\n"
                                            << "all_reduce_perf" << "no result rows";
        QTest::newRow("json without results") << R"({"version": 3})" << "" << "results";
        QTest::newRow("unfinished json") << R"({"version": 3, "results": [{"size": 8)" << "" << "does not parse";
    }
    void importFailures()
    {
        QFETCH(QString, text);
        QFETCH(QString, hint);
        QFETCH(QString, message);
        auto r = importNcclTests(text.toStdString(), hint.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.errors().front().message).contains(message),
            r.errors().front().message.c_str());
    }

    // ------------------------------------------------------------------ fits
    void fitRecoversAlphaBeta_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("busBw");
        QTest::addColumn<double>("noise");
        QTest::addColumn<QList<int>>("outliers");
        QTest::newRow("AllReduce 8, exact") << "AllReduce" << 8 << 1 << 5e-6 << 2.3e11 << 0.0 << QList<int> {};
        QTest::newRow("AllReduce 8, 3 outliers 5x") << "AllReduce" << 8 << 1 << 5e-6 << 2.3e11 << 0.0 << QList<int> { 2, 11, 20 };
        QTest::newRow("AllReduce 8, 1% noise + 4 outliers") << "AllReduce" << 8 << 1 << 5e-6 << 2.3e11 << 0.01 << QList<int> { 0, 7, 15, 23 };
        QTest::newRow("AllReduce 64 inter, outliers") << "AllReduce" << 64 << 8 << 1.2e-5 << 4.0e10 << 0.005 << QList<int> { 3, 4, 18 };
        QTest::newRow("AllGather 16, outliers") << "AllGather" << 16 << 2 << 8e-6 << 1.8e11 << 0.0 << QList<int> { 1, 9, 22 };
        QTest::newRow("ReduceScatter 4") << "ReduceScatter" << 4 << 1 << 3e-6 << 9e10 << 0.0 << QList<int> { 5 };
        QTest::newRow("AllToAll 8") << "AllToAll" << 8 << 1 << 4e-6 << 1.5e11 << 0.0 << QList<int> { 12, 13 };
        QTest::newRow("Broadcast 8") << "Broadcast" << 8 << 1 << 2e-6 << 1.1e11 << 0.0 << QList<int> { 6 };
        QTest::newRow("SendRecv 2, outliers") << "SendRecv" << 2 << 2 << 2.5e-5 << 2.4e10 << 0.0 << QList<int> { 0, 10, 21 };
    }
    void fitRecoversAlphaBeta()
    {
        QFETCH(QString, op);
        QFETCH(int, n);
        QFETCH(int, nodes);
        QFETCH(double, alpha);
        QFETCH(double, busBw);
        QFETCH(double, noise);
        QFETCH(QList<int>, outliers);
        auto samples = synthetic(op.toStdString(), n, nodes, alpha, busBw, noise, std::vector<int>(outliers.begin(), outliers.end()));
        // Sizes whose time is not positive are ignored, not fitted.
        CollectiveSample bad = samples[5];
        bad.seconds = 0;
        samples.push_back(bad);
        bad.seconds = -1e-3;
        samples.push_back(bad);
        const auto fits = fitCollectives(samples);
        QCOMPARE(fits.size(), std::size_t(1));
        const LinkFit& f = fits[0];
        QCOMPARE(f.op, op.toStdString());
        QCOMPARE(f.ranks, n);
        QCOMPARE(f.nodes, nodes);
        QCOMPARE(f.linkClass, std::string(nodes > 1 ? "inter" : "intra"));
        QVERIFY2(std::abs(f.alpha / alpha - 1) < 0.02, qPrintable("alpha " + test::num(f.alpha)));
        QVERIFY2(std::abs(f.busBandwidth / busBw - 1) < 0.02, qPrintable("busBw " + test::num(f.busBandwidth)));
        QVERIFY(f.points <= 24 - int(outliers.size()) || noise > 0);
        QVERIFY(f.points >= 12);

        // The fitted link, priced by ringSeconds (the cost model), gives back the generating times.
        Collective c;
        QVERIFY(fromString(f.op, c));
        const LinkSpec link { f.busBandwidth, f.alpha, 1.0 };
        const double S = 256.0 * 1048576;
        QVERIFY(near(ringSeconds(c, n, S, link), steps(f.op, n) * alpha + factor(f.op, n) * S / busBw, 0.02));
    }

    void fitGroupsAndClamps()
    {
        // Two groups in one call; a negative intercept (times that grow faster than linearly at small sizes)
        // clamps alpha at 0.
        auto samples = synthetic("AllReduce", 8, 1, 5e-6, 2e11);
        for (const auto& s : synthetic("AllReduce", 16, 2, 1e-5, 1e11)) samples.push_back(s);
        std::vector<CollectiveSample> noLatency;
        for (int e = 20; e <= 30; ++e) {
            CollectiveSample s;
            s.op = "AllGather";
            s.ranks = 8;
            s.bytes = std::ldexp(1.0, e);
            s.seconds = 0.875 * s.bytes / 1e11 - 1e-6; // a negative intercept
            samples.push_back(s);
        }
        CollectiveSample junk;
        junk.op = "Gather"; // not a collective PlanScope models
        junk.ranks = 8;
        junk.bytes = 1e6;
        junk.seconds = 1e-3;
        samples.push_back(junk);
        junk.op = "AllReduce";
        junk.ranks = 1; // one rank moves nothing
        samples.push_back(junk);
        const auto fits = fitCollectives(samples);
        QCOMPARE(fits.size(), std::size_t(3));
        QCOMPARE(fits[0].op, std::string("AllGather"));
        QCOMPARE(fits[0].alpha, 0.0);
        QVERIFY(std::abs(fits[0].busBandwidth / 1e11 - 1) < 0.02);
        QCOMPARE(fits[1].ranks, 8);
        QCOMPARE(fits[2].ranks, 16);
        QCOMPARE(fits[2].linkClass, std::string("inter"));
        QVERIFY(fitCollectives({}).empty());
    }

    // ------------------------------------------------------------------ calibration
    void emptyProfileChangesNothing()
    {
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const Calibration cal = calibrationFromProfile(Profile {}, plan);
        QVERIFY(!cal.intraNode && !cal.interNode && !cal.gemmEfficiency && !cal.hbmBandwidth);
        QVERIFY(cal.terms.empty());
        QVERIFY(applyCalibration(plan, cal) == plan);
        QVERIFY(evaluate(applyCalibration(plan, cal)) == evaluate(plan));
    }

    void slowerLinksSlowComm_data()
    {
        QTest::addColumn<double>("share"); // measured busBw as a share of the plan's link bandwidth
        QTest::newRow("half") << 0.5;
        QTest::newRow("a fifth") << 0.2;
    }
    void slowerLinksSlowComm()
    {
        QFETCH(double, share);
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const double intraBw = plan.cluster.intraNode.bandwidth, interBw = plan.cluster.interNode.bandwidth;
        Profile p;
        p.source = "test";
        p.collectives = synthetic("AllReduce", 8, 1, 8e-6, share * intraBw);
        // Across 2 nodes x 8: NCCL's ring runs over all 8 NICs of a node at once, so the group's bus bandwidth is
        // 8 x one NIC's (8 x 200 Gb/s HDR -> ~200 GB/s), here at `share` of it, with alpha 20 us.
        for (const auto& s : synthetic("AllReduce", 16, 2, 2e-5, share * 8 * interBw)) p.collectives.push_back(s);
        const Calibration cal = calibrationFromProfile(p, plan);
        QVERIFY(cal.intraNode && cal.interNode);
        QCOMPARE(cal.terms.size(), std::size_t(2));
        QVERIFY(QString::fromStdString(issueLine(cal.terms[0])).startsWith("cluster.intraNode: AllReduce on 8 GPUs"));
        QVERIFY(QString::fromStdString(issueLine(cal.terms[1])).startsWith("cluster.interNode: AllReduce on 16 GPUs (2 nodes)"));

        // Inside a node: efficiency = busBw / bandwidth, latency = alpha, and ringSeconds reproduces the run.
        QVERIFY(near(cal.intraNode->efficiency, share, 0.02));
        QVERIFY(near(cal.intraNode->latency, 8e-6, 0.02));
        QCOMPARE(cal.intraNode->bandwidth, intraBw);
        for (double S : { 1e6, 1e8, 4e9 })
            QVERIFY(near(ringSeconds(Collective::AllReduce, 8, S, *cal.intraNode), 14 * 8e-6 + 1.75 * S / (share * intraBw), 0.02));
        // Across nodes: the share of the per-GPU NIC speed, busBw / (8 GPUs per node x bandwidth), latency alpha;
        // a ring with one GPU per node then runs at that share of one NIC.
        QVERIFY2(near(cal.interNode->efficiency, share, 0.02), qPrintable(test::num(cal.interNode->efficiency)));
        QVERIFY(near(cal.interNode->latency, 2e-5, 0.02));
        QCOMPARE(cal.interNode->bandwidth, interBw);
        QVERIFY(near(ringSeconds(Collective::AllReduce, 8, 1e9, *cal.interNode), 14 * 2e-5 + 1.75e9 / (share * interBw), 0.02));
        QVERIFY(QString::fromStdString(issueLine(cal.terms[1])).contains("8 GPUs per node"));
        // Against the same links at their preset efficiencies, flat (a fit is a flat alpha-beta model, so it is
        // compared with the flat model: the presets' size curves slow mid-size messages more than half-speed links).
        Plan flat = plan;
        flat.cluster.intraNode.busBandwidthCurve.clear();
        flat.cluster.interNode.busBandwidthCurve.clear();
        const Prediction before = evaluate(flat);
        const Prediction after = evaluate(applyCalibration(plan, cal));
        QVERIFY(before.valid && after.valid);
        QCOMPARE(before.comm.size(), after.comm.size());
        double commBefore = 0, commAfter = 0;
        for (std::size_t i = 0; i < before.comm.size(); ++i) {
            QVERIFY2(after.comm[i].seconds >= before.comm[i].seconds, toString(before.comm[i].kind).data());
            commBefore += before.comm[i].seconds;
            commAfter += after.comm[i].seconds;
        }
        QVERIFY(commAfter > commBefore);
        QVERIFY(after.stepSeconds >= before.stepSeconds);
        // Compute is untouched but for what the slower collectives take from the GEMMs beside them (docs/MODEL.md
        // section 7.2): every GEMM's own time is the same, its contention no smaller; every stage's forward and
        // backward without its collectives no faster. (computeSeconds is the slowest slot's, and slower sends can make
        // another rank the slowest: the middle ranks send twice per chunk.)
        const Plan calibrated = applyCalibration(plan, cal);
        const OperatorList opsBefore = operatorList(flat, rankLayout(flat)), opsAfter = operatorList(calibrated, rankLayout(calibrated));
        QCOMPARE(opsBefore.layer.size(), opsAfter.layer.size());
        for (std::size_t i = 0; i < opsBefore.layer.size(); ++i) {
            const KernelOp &b = opsBefore.layer[i], &a = opsAfter.layer[i];
            if (b.kind != KernelKind::Gemm) continue;
            QVERIFY2(near(a.seconds - a.contentionSeconds, b.seconds - b.contentionSeconds, 1e-12), b.name);
            QVERIFY2(a.contentionSeconds >= b.contentionSeconds, b.name);
        }
        QCOMPARE(before.stageTimes.size(), after.stageTimes.size());
        for (std::size_t r = 0; r < before.stageTimes.size(); ++r) {
            const StageTime &b = before.stageTimes[r], &a = after.stageTimes[r];
            QVERIFY2(a.forwardSeconds + a.backwardSeconds - a.layerCommSeconds
                    >= (b.forwardSeconds + b.backwardSeconds - b.layerCommSeconds) * (1 - 1e-12),
                qPrintable(QStringLiteral("stage %1").arg(r)));
        }
    }

    void gemmAndHbm()
    {
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const double peak = plan.cluster.gpu.peakFlops.forPrecision(plan.training.precision);
        const double old = plan.cluster.gpu.gemmEfficiency;
        const double target = std::min(0.95, old + 0.1);
        Profile p;
        const std::string dtype(toString(plan.training.precision));
        // Counted: large shapes in the plan's dtype (the best of three, the presets' maximum-achievable figure).
        p.gemm.push_back({ 4096, 4096, 4096, dtype, 0, (target - 0.02) * peak / 1e12 });
        p.gemm.push_back({ 8192, 8192, 8192, dtype, 0, (target - 0.01) * peak / 1e12 });
        p.gemm.push_back({ 16384, 8192, 1024, dtype, 0, target * peak / 1e12 });
        // Not counted: a small shape, another dtype.
        p.gemm.push_back({ 512, 8192, 8192, dtype, 0, 0.1 * peak / 1e12 });
        p.gemm.push_back({ 8192, 8192, 8192, "fp32", 0, 0.05 * peak / 1e12 });
        p.hbmBandwidth = 1.7e12;
        const Calibration cal = calibrationFromProfile(p, plan);
        QVERIFY(cal.gemmEfficiency);
        QVERIFY(near(*cal.gemmEfficiency, target, 1e-9));
        QVERIFY(cal.hbmBandwidth && *cal.hbmBandwidth == 1.7e12);
        QVERIFY(!cal.intraNode && !cal.interNode);
        QCOMPARE(cal.terms.size(), std::size_t(3));
        QVERIFY(QString::fromStdString(issueLine(cal.terms[0])).contains("best "));
        QVERIFY(QString::fromStdString(issueLine(cal.terms[0])).contains("over 3 "));
        // Every timed shape in the plan's dtype is kept for the ops of exactly that shape (the small one too).
        QCOMPARE(cal.gemms.size(), std::size_t(4));

        const Plan calibrated = applyCalibration(plan, cal);
        QCOMPARE(calibrated.cluster.gpu.gemmEfficiency, *cal.gemmEfficiency);
        QCOMPARE(calibrated.cluster.gpu.hbmBandwidth, 1.7e12);
        QCOMPARE(calibrated.cluster.gpu.hbmEfficiency, 1.0);
        QVERIFY(calibrated.cluster.intraNode == plan.cluster.intraNode);
        const Prediction before = evaluate(plan), after = evaluate(calibrated);
        QVERIFY(after.computeSeconds < before.computeSeconds);
        QVERIFY(after.stepSeconds < before.stepSeconds);

        // A measured rate above the dense peak is reported, not applied.
        Profile odd;
        odd.gemm.push_back({ 8192, 8192, 8192, dtype, 0, 1.5 * peak / 1e12 });
        const Calibration c2 = calibrationFromProfile(odd, plan);
        QVERIFY(!c2.gemmEfficiency);
        QVERIFY(c2.gemms.empty());
        QCOMPARE(c2.terms.size(), std::size_t(1));
    }

    // A GPU's model token, from NVML's and nccl-tests' names and from the presets' ids and names.
    void gpuModelTokens_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("token");
        QTest::newRow("nvml h100") << "NVIDIA H100 80GB HBM3" << "H100";
        QTest::newRow("nvml a100") << "NVIDIA A100-SXM4-80GB" << "A100";
        QTest::newRow("nvml h200") << "NVIDIA H200" << "H200";
        QTest::newRow("nvml gb200") << "NVIDIA GB200" << "GB200";
        QTest::newRow("v100") << "Tesla V100-SXM2-32GB" << "V100";
        QTest::newRow("rocm") << "AMD Instinct MI300X" << "MI300X";
        QTest::newRow("l40s") << "NVIDIA L40S" << "L40S";
        QTest::newRow("preset id") << "h100-sxm5-80gb" << "H100";
        QTest::newRow("preset id gb200") << "gb200" << "GB200";
        QTest::newRow("preset name") << "NVIDIA B200 (HGX/DGX B200, SXM)" << "B200";
        QTest::newRow("no model") << "NVIDIA Graphics Device" << "";
        QTest::newRow("consumer") << "NVIDIA GeForce RTX 4090" << "";
        QTest::newRow("empty") << "" << "";
    }
    void gpuModelTokens()
    {
        QFETCH(QString, name);
        QFETCH(QString, token);
        QCOMPARE(QString::fromStdString(gpuModelToken(name.toStdString())), token);
    }

    // Issue 31: an H100 profile (3,000 GB/s copy, 330 GB/s all-reduce busBw on 8 GPUs) is not an A100's. Refused by
    // default with both names; applied anyway, each number is held to the A100's physical bounds (Profile.h): the
    // copy above 2,039 GB/s x 1.10 and the busBw above 300 GB/s x 1.05 (an A100's NVSwitch does not reduce in the
    // switch) are refused by name and change nothing.
    void anotherGpusProfileIsRefusedAndBounded()
    {
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        QCOMPARE(plan.cluster.intraNode.allReduceEfficiency, 0.0);
        Profile p;
        p.source = "test";
        for (int i = 0; i < 8; ++i) p.gpus.push_back({ i, "NVIDIA H100 80GB HBM3", 85520809984, "" });
        p.hbmBandwidth = 3.0e12;
        p.collectives = synthetic("AllReduce", 8, 1, 8e-6, 3.3e11);
        const Calibration refused = calibrationFromProfile(p, plan);
        QCOMPARE(refused.gpu.match, GpuIdentity::Match::Different);
        QCOMPARE(refused.refused.size(), std::size_t(1));
        QCOMPARE(issueLine(refused.refused[0]),
            std::string("calibration: not applied: the profile was measured on NVIDIA H100 80GB HBM3 and the plan's GPU is NVIDIA "
                        "A100-SXM4-80GB"));
        QVERIFY(applyCalibration(plan, refused) == plan);
        QVERIFY(evaluate(applyCalibration(plan, refused)) == evaluate(plan));

        const Calibration anyway = calibrationFromProfile(p, plan, OtherGpu::Apply);
        QVERIFY(anyway.refused.empty());
        QVERIFY(!anyway.hbmBandwidth && !anyway.intraNode);
        QCOMPARE(anyway.terms.size(), std::size_t(2));
        QVERIFY(anyway.terms[0].message.starts_with("not applied: AllReduce on 8 GPUs"));
        QVERIFY(anyway.terms[0].message.find("x the plan's link bandwidth 300.0 GB/s, more than such a link carries (at most 1.05 x)")
            != std::string::npos);
        QCOMPARE(anyway.terms[1].message,
            std::string("not applied: 3000.0 GB/s measured by a device copy is more than the plan's GPU's 2039.0 GB/s datasheet "
                        "bandwidth x 1.10"));
        bool said = false;
        for (const Issue& w : anyway.warnings) said |= w.message.starts_with("applied to another GPU than it measured");
        QVERIFY(said);
        // Within the bounds it applies: a 1,900 GB/s copy and a 240 GB/s all-reduce.
        p.hbmBandwidth = 1.9e12;
        p.collectives = synthetic("AllReduce", 8, 1, 8e-6, 2.4e11);
        const Calibration within = calibrationFromProfile(p, plan, OtherGpu::Apply);
        QVERIFY(within.hbmBandwidth && within.intraNode);
        QVERIFY(near(within.intraNode->efficiency, 2.4e11 / 3e11, 0.02));
    }

    // The same GPU (an H100 plan; its NVSwitch reduces in the switch): an all-reduce may exceed the wire up to twice
    // (NVLS), an all-gather may not exceed it; a 40 GB A100 is not an 80 GB one.
    void boundsFollowTheLink()
    {
        const Plan h100 = test::loadSample("llama3-70b-fp8-64xh100.plan.json");
        QVERIFY(h100.cluster.intraNode.allReduceEfficiency > 0);
        const double wire = h100.cluster.intraNode.bandwidth;
        Profile p;
        p.gpus.push_back({ 0, "NVIDIA H100 80GB HBM3", 85520809984, "" });
        p.collectives = synthetic("AllReduce", 8, 1, 8e-6, 1.5 * wire);
        Calibration c = calibrationFromProfile(p, h100);
        QCOMPARE(c.gpu.match, GpuIdentity::Match::Same);
        QVERIFY(c.intraNode);
        QVERIFY(c.terms[0].message.find("(above the wire speed: NVLS/in-switch reduction)") != std::string::npos);
        p.collectives = synthetic("AllReduce", 8, 1, 8e-6, 2.2 * wire);
        QVERIFY(!calibrationFromProfile(p, h100).intraNode);
        p.collectives = synthetic("AllGather", 8, 1, 8e-6, 1.2 * wire);
        c = calibrationFromProfile(p, h100);
        QVERIFY(!c.intraNode);
        QVERIFY(c.terms[0].message.find("(at most 1.05 x)") != std::string::npos);

        const Plan a100 = test::loadSample("gpt3-175b-1024xa100.plan.json");
        Profile small;
        small.gpus.push_back({ 0, "NVIDIA A100-SXM4-40GB", 42505273344, "" });
        QCOMPARE(compareProfileGpu(small, a100.cluster.gpu).match, GpuIdentity::Match::Different);
        small.gpus[0] = { 0, "NVIDIA A100-SXM4-80GB", 85198045184, "" };
        QCOMPARE(compareProfileGpu(small, a100.cluster.gpu).match, GpuIdentity::Match::Same);
    }

    // All-gather and all-reduce measured on the same node: each collective takes its own measured share.
    void collectivesKeepTheirOwnBandwidth()
    {
        const Plan plan = test::loadSample("llama3-405b-8k-h100.plan.json");
        const double bw = plan.cluster.intraNode.bandwidth;
        LinkFit ar { "AllReduce", 8, "intra", 2e-6, 470e9, 10, 1 };
        LinkFit ag { "AllGather", 8, "intra", 2e-6, 355e9, 10, 1 };
        Profile p;
        p.fits = { ag, ar };
        const Calibration cal = calibrationFromProfile(p, plan);
        QVERIFY(cal.intraNode);
        QVERIFY(near(cal.intraNode->allReduceEfficiency, 470e9 / bw));
        QVERIFY(near(cal.intraNode->efficiency, 355e9 / bw));
        QVERIFY(cal.intraNode->busBandwidthCurve.empty());
        // A large message then runs at the measured bus bandwidth of its own kind.
        const double S = 4e9;
        const double tAr = ringSeconds(Collective::AllReduce, 8, S, *cal.intraNode);
        const double tAg = ringSeconds(Collective::AllGather, 8, S, *cal.intraNode);
        QVERIFY(near(tAr, 14 * 2e-6 + 1.75 * S / 470e9, 1e-9));
        QVERIFY(near(tAg, 7 * 2e-6 + 0.875 * S / 355e9, 1e-9));
        // Only an all-reduce measured on a link whose all-reduce has its own (NVLS) share: the measurement replaces
        // that share; the other collectives keep the preset's (0.80 on H100 nodes).
        Profile only;
        only.fits = { ar };
        const Calibration c2 = calibrationFromProfile(only, plan);
        QVERIFY(c2.intraNode && near(c2.intraNode->allReduceEfficiency, 470e9 / bw));
        QCOMPARE(c2.intraNode->efficiency, plan.cluster.intraNode.efficiency);
        QVERIFY(plan.cluster.intraNode.allReduceEfficiency > 0);
    }

    // The timed shapes replace exactly the operators of those shapes; every other op keeps the model's time.
    void measuredGemmsReplaceTheirOps()
    {
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const std::string dtype(toString(plan.training.precision));
        Profile p;
        // GPT-3 175B at TP=8: the QKV GEMM (2048 x 4608 x 12288) and the fc1 input gradient (2048 x 12288 x 6144),
        // timed at 1.5 ms and 2.5 ms; a shape no op has.
        p.gemm.push_back({ 2048, 4608, 12288, dtype, 1.5e-3, 0 });
        p.gemm.push_back({ 2048, 12288, 6144, dtype, 2.5e-3, 0 });
        p.gemm.push_back({ 777, 777, 777, dtype, 1e-3, 0 });
        Calibration cal = calibrationFromProfile(p, plan);
        QCOMPARE(cal.gemms.size(), std::size_t(3));
        cal.gemmEfficiency.reset(); // only the table: the op model's maximum stays the preset's
        const Prediction before = evaluate(plan), after = evaluate(applyCalibration(plan, cal));
        QCOMPARE(before.layerOps.size(), after.layerOps.size());
        int replaced = 0;
        for (std::size_t i = 0; i < before.layerOps.size(); ++i) {
            const KernelOp& b = before.layerOps[i];
            const KernelOp& a = after.layerOps[i];
            const bool qkv = b.kind == KernelKind::Gemm && b.m == 2048 && b.n == 4608 && b.k == 12288;
            const bool fc1 = b.kind == KernelKind::Gemm && b.m == 2048 && b.n == 12288 && b.k == 6144;
            if (qkv || fc1) {
                QVERIFY2(a.measured && a.seconds == (qkv ? 1.5e-3 : 2.5e-3), a.name);
                ++replaced;
            } else {
                QVERIFY2(!a.measured && a.seconds == b.seconds, a.name);
            }
        }
        // qkv in forward and recompute, fc1.dgrad in backward; fc2 shares fc1.dgrad's shape in both of its passes
        // (2048 x 12288 x 6144): five ops.
        QCOMPARE(replaced, 5);
    }

    // Found by tests/fuzz/fuzz_profile: a GPU name with a byte that is not UTF-8 (0xA0, a Latin-1 no-break space)
    // made the imported profile unwritable (nlohmann::json's dump throws type_error 316), so import-nccl-tests ended
    // in std::terminate. Such bytes become U+FFFD and the profile writes and reads back.
    void ncclTestsNamesThatAreNotUtf8()
    {
        std::string text = readData("mi300x-1x8-all_reduce_perf.txt");
        const std::string name = "[0000:05:00] AMD Instinct MI300X";
        const auto at = text.find(name);
        QVERIFY(at != std::string::npos);
        text.insert(at + name.size(), "\xA0");
        auto r = importNcclTests(text);
        QVERIFY(r.ok());
        QCOMPARE(r->gpus[0].name, std::string("AMD Instinct MI300X\xEF\xBF\xBD"));
        QCOMPARE(r->gpus[1].name, std::string("AMD Instinct MI300X"));
        auto back = parseProfile(profileToJson(r.value()).dump());
        QVERIFY(back.ok());
        QCOMPARE(back->gpus[0].name, r->gpus[0].name);
    }

    void ncclTestsDevicesTheProfileCannotHold()
    {
        // fuzz_profile: a rank line with device 1777216 imported into a profile that could not be read back (a
        // profile's GPU index is 0..1e6). Such a GPU is left out; the rest stays.
        std::string text = readData("mi300x-1x8-all_reduce_perf.txt");
        const std::string line = "device  1 [0000:25:00]";
        const auto at = text.find(line);
        QVERIFY(at != std::string::npos);
        text.replace(at, line.size(), "device 1777216 [0000:25:00]");
        auto r = importNcclTests(text);
        QVERIFY(r.ok());
        QCOMPARE(int(r->gpus.size()), 7);
        for (const ProfileGpu& g : r->gpus) QVERIFY(g.index != 1777216);
        QVERIFY(parseProfile(profileToJson(r.value()).dump()).ok());

        // The -J JSON: a device index out of range and names of another type are left out, never thrown.
        auto j = json::parse(readData("constructed-2x4-all_gather_perf.json"));
        j["config"]["devices"][0]["device"] = std::int64_t(1) << 40;
        j["config"]["devices"][1]["device_info"] = 5;
        j["config"]["devices"][1]["hostname"] = json::array();
        auto r2 = importNcclTests(j.dump());
        QVERIFY(r2.ok());
        QVERIFY(r2->gpus.empty());
        QVERIFY(parseProfile(profileToJson(r2.value()).dump()).ok());

        // fuzz_profile: a garbled row (the input libFuzzer made of a3mega-h100-2x8-all_reduce_perf.txt, kept as it was)
        // put "-1", the root column, under the size: a negative size imported and the profile could not be read back.
        auto r3 = importNcclTests(readData("fuzz-a3mega-negative-size.txt"));
        QVERIFY(r3.ok());
        QVERIFY(!r3->collectives.empty());
        for (const CollectiveSample& c : r3->collectives) QVERIFY(c.bytes >= 0 && c.seconds > 0 && c.algBandwidth >= 0);
        QVERIFY(parseProfile(profileToJson(r3.value()).dump()).ok());
    }

    // NCCL's version where the output prints it: "NCCL version 2.29.2+cuda13.1" (newest nccl-tests, un-commented),
    // "# nccl-tests version ... nccl-library=22106" (the library's version code). fuzz_profile found a line ending in
    // "nccl-library=" reading the first of no tokens (undefined behaviour): it tells no version.
    void ncclVersionLines()
    {
        auto r = importNcclTests(table("all_reduce_perf"));
        QVERIFY(r.ok());
        QCOMPARE(r->nccl, std::string("2.21.6"));
        std::string text = table("all_reduce_perf");
        text.replace(text.find("nccl-library=22106"), 18, "nccl-library=");
        auto cut = importNcclTests(text);
        QVERIFY(cut.ok());
        QCOMPARE(cut->nccl, std::string());
        auto found = importNcclTests(readData("gb200-32x4-all_reduce_perf-oci.txt"), "all_reduce_perf");
        QVERIFY(found.ok());
        QCOMPARE(found->nccl, std::string("2.29.2+cuda13.1"));
    }

    // The GB200 NVL72 rack's all-reduce crosses 18 hosts but never a NIC (one NVLink domain): applied to a plan whose
    // nodes talk over InfiniBand, its busBw is several times what those NICs carry, and the calibration says so.
    void nvlinkDomainOverHostsIsSaid()
    {
        auto r = importNcclTests(readData("gb200-nvl72-18x4-all_reduce_perf-coreweave.txt"), "all_reduce_perf");
        QVERIFY(r.ok());
        QCOMPARE(r->fits[0].linkClass, std::string("inter"));
        const Plan plan = test::loadSample("llama3-70b-fp8-64xh100.plan.json");
        // The file's GPUs call themselves "NVIDIA Graphics Device" (a driver before the GB200's name): no model to
        // compare with the plan's H100, so it is applied as the plan's GPU, and the calibration says so.
        const Calibration cal = calibrationFromProfile(r.value(), plan);
        QCOMPARE(cal.gpu.match, GpuIdentity::Match::Unknown);
        QCOMPARE(cal.gpu.measured, std::string("NVIDIA Graphics Device"));
        bool unknown = false;
        for (const Issue& w : cal.warnings) unknown |= w.message.starts_with("the profile's GPU NVIDIA Graphics Device cannot be compared");
        QVERIFY(unknown);
        // The inter-node fit is beyond what the plan's NICs carry: efficiency = busBw / (4 GPUs per node x the NIC
        // bandwidth per GPU) > kLinkMargin, so it is refused by name and the plan's network stays.
        const double expected = r->fits[0].busBandwidth / (4 * plan.cluster.interNode.bandwidth);
        QVERIFY(expected > kLinkMargin);
        QVERIFY(!cal.interNode);
        bool said = false;
        for (const Issue& t : cal.terms)
            said |= t.path == "cluster.interNode" && t.message.starts_with("not applied: the measured busBw is")
                && t.message.find("did not talk over such a network") != std::string::npos;
        QVERIFY(said);
        QVERIFY(applyCalibration(plan, cal).cluster.interNode == plan.cluster.interNode);
    }

    // ------------------------------------------------------------------ numbers no machine measures
    // Issue 28, item 4: zero, negative, NaN, infinite and 1e308 efficiencies, bandwidths, latencies and TFLOP/s are
    // refused naming the field, so that no prediction is calibrated with them. JSON has no NaN or inf literal
    // (RFC 8259 section 6): tools write them as strings, and 1e400 parses past a double's range; both are named.
    // Where 0 means "not measured" (docs/FORMATS.md section 6: hbmBandwidth, a link's bandwidth, a row's printed
    // bandwidths) it stays accepted and changes nothing.
    void absurdMeasurementsAreRefusedByField_data()
    {
        QTest::addColumn<QString>("fields");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        const QString gemm = QStringLiteral(R"("gemm": [{"m": 4096, "n": 4096, "k": 4096, "dtype": "bf16", %1}])");
        const QString row = QStringLiteral(R"("collectives": [{"op": "AllReduce", "ranks": 8, "nodes": 1, "bytes": 1048576, %1}])");
        const QString fit = QStringLiteral(R"("fits": [{"op": "AllReduce", "ranks": 8, "nodes": 1, "linkClass": "intra", %1}])");
        QTest::newRow("hbm negative") << R"("hbmBandwidth": -1)" << "hbmBandwidth" << "must be a finite number >= 0, found -1";
        QTest::newRow("hbm 1e308") << R"("hbmBandwidth": 1e308)" << "hbmBandwidth" << "must be between 0 and 1e+14, found 1e+308";
        QTest::newRow("hbm \"NaN\"") << R"("hbmBandwidth": "NaN")" << "hbmBandwidth" << R"(must be a number, found string "NaN")";
        QTest::newRow("hbm 1e400")
            << R"("hbmBandwidth": 1e400)" << "hbmBandwidth"
            << "the number 1e400 is beyond the range of a double (about 1.8e308); write a finite value";
        QTest::newRow("link bandwidth 1e308") << R"("links": [{"from": 0, "to": 1, "kind": "nvlink", "bandwidth": 1e308}])"
                                              << "links.0.bandwidth" << "must be between 0 and 1e+14, found 1e+308";
        QTest::newRow("gemm tflops 1e308") << gemm.arg(R"("tflops": 1e308)") << "gemm.0.tflops"
                                           << "must be between 0 and 100000, found 1e+308";
        QTest::newRow("gemm tflops negative") << gemm.arg(R"("tflops": -5)") << "gemm.0.tflops" << "must be a finite number >= 0, found -5";
        QTest::newRow("gemm tflops \"inf\"") << gemm.arg(R"("tflops": "inf")") << "gemm.0.tflops" << R"(must be a number, found string "inf")";
        QTest::newRow("gemm seconds 1e308") << gemm.arg(R"("seconds": 1e308)") << "gemm.0.seconds"
                                            << "must be between 0 and 1000000000, found 1e+308";
        QTest::newRow("gemm seconds 1e-300") << gemm.arg(R"("seconds": 1e-300)") << "gemm.0.seconds"
                                             << "is too short for the shape: 2*m*n*k / seconds is more than 100000 TFLOP/s, beyond any GPU";
        QTest::newRow("gemm seconds and tflops 0") << gemm.arg(R"("seconds": 0, "tflops": 0)") << "gemm.0"
                                                   << "needs seconds > 0 or tflops > 0: a GEMM without a time measured nothing";
        QTest::newRow("row seconds 0") << row.arg(R"("seconds": 0)") << "collectives.0.seconds" << "must be > 0 (the out-of-place time in seconds)";
        QTest::newRow("row seconds negative") << row.arg(R"("seconds": -1e-5)") << "collectives.0.seconds"
                                              << "must be a finite number >= 0, found -1e-05";
        QTest::newRow("row seconds 1e308") << row.arg(R"("seconds": 1e308)") << "collectives.0.seconds"
                                           << "must be between 0 and 1000000000, found 1e+308";
        QTest::newRow("row seconds \"nan\"") << row.arg(R"("seconds": "nan")") << "collectives.0.seconds"
                                             << R"(must be a number, found string "nan")";
        QTest::newRow("row busBandwidth negative") << row.arg(R"("seconds": 1e-4, "busBandwidth": -3)") << "collectives.0.busBandwidth"
                                                   << "must be a finite number >= 0, found -3";
        QTest::newRow("row busBandwidth 1e308") << row.arg(R"("seconds": 1e-4, "busBandwidth": 1e308)") << "collectives.0.busBandwidth"
                                                << "must be between 0 and 1e+14, found 1e+308";
        QTest::newRow("row bytes 1e308") << row.arg(R"("seconds": 1e-4, "bytes": 1e308)") << "collectives.0.bytes"
                                         << "must be between 0 and 9.007199255e+15, found 1e+308";
        QTest::newRow("row in-place seconds 0") << row.arg(R"("seconds": 1e-4, "inPlace": {"seconds": 0})") << "collectives.0.inPlace.seconds"
                                                << "must be > 0 (the in-place time in seconds)";
        QTest::newRow("nccl row time 1e308") << R"("collectives": [{"op": "AllReduce", "ranks": 8, "size": 8, "out_of_place": {"time": 1e308}}])"
                                             << "collectives.0.out_of_place.time" << "must be between 0 and 1e+15, found 1e+308";
        QTest::newRow("nccl row bus_bw 1e400")
            << R"("collectives": [{"op": "AllReduce", "ranks": 8, "size": 8, "out_of_place": {"time": 5, "bus_bw": 1e400}}])"
            << "collectives.0.out_of_place.bus_bw" << "the number 1e400 is beyond the range of a double (about 1.8e308); write a finite value";
        QTest::newRow("fit alpha 1e308") << fit.arg(R"("alpha": 1e308, "busBandwidth": 1e11)") << "fits.0.alpha"
                                         << "must be between 0 and 1, found 1e+308";
        QTest::newRow("fit alpha negative") << fit.arg(R"("alpha": -1e-6, "busBandwidth": 1e11)") << "fits.0.alpha"
                                            << "must be a finite number >= 0, found -1e-06";
        QTest::newRow("fit busBandwidth 0") << fit.arg(R"("alpha": 1e-5, "busBandwidth": 0)") << "fits.0.busBandwidth" << "must be > 0 (bytes/s)";
        QTest::newRow("fit busBandwidth 1e308") << fit.arg(R"("alpha": 1e-5, "busBandwidth": 1e308)") << "fits.0.busBandwidth"
                                                << "must be between 0 and 1e+14, found 1e+308";
    }
    void absurdMeasurementsAreRefusedByField()
    {
        QFETCH(QString, fields);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const std::string text = "{" + kSchema + ", " + fields.toStdString() + "}";
        auto r = parseProfile(text);
        QVERIFY(!r.ok());
        QCOMPARE(r.errors().front().path, path.toStdString());
        QCOMPARE(r.errors().front().message, message.toStdString());
        // 1e400 is named at the byte where it starts.
        if (fields.contains(QStringLiteral("1e400")))
            QCOMPARE(r.errors().front().offset, std::int64_t(text.find("1e400")));

        // Through the file reader the evaluation uses (evaluate --calibration, the Profile page): the same error, not
        // "neither a profile nor nccl-tests output", and so no calibration at all.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("m.profile.json"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(text));
        }
        auto loaded = loadMeasurements(file.toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.errors().front().path, path.toStdString());
        QCOMPARE(loaded.errors().front().message, message.toStdString());
    }

    void zeroWhereItMeansNotMeasuredChangesNothing()
    {
        // hbmBandwidth 0, a link bandwidth 0 and a row's printed bandwidths 0 (nccl-tests prints 0.00 GB/s for its
        // smallest sizes) load, and the plan keeps its preset values for what they stand for.
        auto r = parseProfile("{" + kSchema + R"(, "hbmBandwidth": 0, "links": [{"from": 0, "to": 1, "kind": "nvlink",
            "bandwidth": 0}], "collectives": [{"op": "AllReduce", "ranks": 8, "nodes": 1, "bytes": 8, "seconds": 2e-5,
            "algBandwidth": 0, "busBandwidth": 0}]})");
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const Calibration cal = calibrationFromProfile(r.value(), plan);
        QVERIFY(!cal.hbmBandwidth);
        QCOMPARE(applyCalibration(plan, cal).cluster.gpu.hbmBandwidth, plan.cluster.gpu.hbmBandwidth);
        // Rows without a time measured nothing to fit: left out and counted.
        auto untimed = parseProfile("{" + kSchema + R"(, "collectives": [{"op": "AllReduce", "ranks": 8, "bytes": 8},
            {"op": "AllReduce", "ranks": 8, "bytes": 16}, {"op": "AllReduce", "ranks": 8, "size": 32,
            "out_of_place": {"time": "nan"}}]})");
        QVERIFY(untimed.ok());
        QVERIFY(untimed->collectives.empty());
        QCOMPARE(untimed->warnings.size(), std::size_t(1));
        QCOMPARE(untimed->warnings[0].path, std::string("collectives.0"));
        QCOMPARE(untimed->warnings[0].message, std::string("3 collective row(s) without a time left out: nothing to fit"));
    }

    void absurdNumbersBuiltInCodeAreNeverApplied()
    {
        // A profile built in code (the readers above refuse these in a file): each absurd value is passed over, and
        // the plan keeps its preset link, GEMM and HBM figures.
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
        for (const double bad : { 0.0, -1.0, nan, inf, 1e308 }) {
            Profile p;
            p.hbmBandwidth = bad;
            p.fits.push_back({ "AllReduce", 8, "intra", 1e-5, bad, 10, 1 });
            p.fits.push_back({ "AllGather", 8, "intra", bad == 0 ? -1.0 : bad, 1e11, 10, 1 });
            p.fits.push_back({ "AllReduce", 16, "inter", bad == 0 ? -1.0 : bad, 5e10, 10, 2 });
            p.gemm.push_back({ 4096, 4096, 4096, "bf16", bad, 0 });
            p.gemm.push_back({ 8192, 8192, 8192, "bf16", 0, bad });
            const Calibration cal = calibrationFromProfile(p, plan);
            QVERIFY2(!cal.intraNode && !cal.interNode && !cal.gemmEfficiency && !cal.hbmBandwidth && cal.gemms.empty(),
                qPrintable(QString::number(bad)));
            const Plan after = applyCalibration(plan, cal);
            QVERIFY(after.cluster.intraNode == plan.cluster.intraNode);
            QVERIFY(after.cluster.interNode == plan.cluster.interNode);
            QCOMPARE(after.cluster.gpu.gemmEfficiency, plan.cluster.gpu.gemmEfficiency);
            QCOMPARE(after.cluster.gpu.hbmBandwidth, plan.cluster.gpu.hbmBandwidth);
            // Samples with such a time or size fit nothing.
            CollectiveSample s { "AllReduce", 8, 1, 1048576, bad, 0, 0, {}, -1, -1, {}, {} };
            QVERIFY(fitCollectives({ s, s, s }).empty());
            s.seconds = 1e-4;
            s.bytes = bad == 0 ? -1.0 : bad;
            QVERIFY(fitCollectives({ s, s, s }).empty());
        }
    }

    void ncclTestsRowsWithoutAUsableTimeOrBandwidthAreCounted()
    {
        // A published table (a3mega-h100-2x8, 31 rows) with four times that are none (0, negative, inf, nan) and four
        // bandwidths that are none (negative, inf, nan, 1e300 GB/s): the four rows are left out and counted, the four
        // others keep their time and get the bandwidth computed from it, and the fit rests on the 27 rows left.
        const std::string original = readData("a3mega-h100-2x8-all_reduce_perf.txt");
        auto clean = importNcclTests(original, "all_reduce_perf");
        QVERIFY(clean.ok());
        QCOMPARE(clean->collectives.size(), std::size_t(31));
        std::string text;
        int row = 0;
        std::size_t start = 0;
        while (start < original.size()) {
            std::size_t end = original.find('\n', start);
            if (end == std::string::npos) end = original.size();
            std::string line = original.substr(start, end - start);
            std::istringstream in(line);
            std::vector<std::string> t;
            for (std::string w; in >> w;) t.push_back(w);
            if (t.size() == 13 && std::isdigit(static_cast<unsigned char>(t[0][0])) && t[2] == "float") {
                ++row;
                // Columns: size count type redop root time algbw busbw #wrong time algbw busbw #wrong.
                const std::map<int, std::pair<int, const char*>> damage { { 3, { 5, "0" } }, { 4, { 5, "-5.0" } },
                    { 5, { 5, "inf" } }, { 6, { 5, "nan" } }, { 7, { 7, "-1.00" } }, { 8, { 7, "inf" } }, { 9, { 7, "nan" } },
                    { 10, { 7, "1e300" } } };
                if (const auto d = damage.find(row); d != damage.end()) t[std::size_t(d->second.first)] = d->second.second;
                line.clear();
                for (const std::string& w : t) line += "  " + w;
            }
            text += line + "\n";
            start = end + 1;
        }
        QCOMPARE(row, 31);
        auto r = importNcclTests(text, "all_reduce_perf");
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QCOMPARE(r->collectives.size(), std::size_t(27));
        std::vector<std::string> said;
        for (const Issue& w : r->warnings) said.push_back(w.path + ": " + w.message);
        const auto has = [&](const std::string& s) { return std::find(said.begin(), said.end(), s) != said.end(); };
        QVERIFY(has("line 34: 4 row(s) without a usable time (N/A, garbled or cut short) left out"));
        QVERIFY(has("line 38: 4 row(s) print an algbw or busbw that is no bandwidth (negative, inf, nan, or above 100000 GB/s): "
                    "computed from the time instead where the rank count allows (listed in derived)"));
        for (const CollectiveSample& c : r->collectives) {
            QVERIFY(c.seconds > 0 && std::isfinite(c.seconds));
            QVERIFY(c.busBandwidth >= 0 && c.busBandwidth <= 1e14);
        }
        // Rows 7..10 of the table are the 3rd..6th kept: their busBw is algBw x 2(n-1)/n for 16 ranks.
        for (std::size_t i = 2; i < 6; ++i) {
            const CollectiveSample& c = r->collectives[i];
            QVERIFY2(std::find(c.derived.begin(), c.derived.end(), "busBandwidth") != c.derived.end(), qPrintable(QString::number(i)));
            QVERIFY(near(c.busBandwidth, c.algBandwidth * 2.0 * 15 / 16));
        }
        QCOMPARE(r->fits.size(), std::size_t(1));
        QCOMPARE(r->fits[0].points, 27);
        QVERIFY(r->fits[0].busBandwidth > 0 && std::isfinite(r->fits[0].busBandwidth));

        // The -J JSON output: a time of 1e308 us or a negative bandwidth is refused at its field; "nan" is no time
        // (the row left out, counted).
        json j = json::parse(readData("constructed-2x4-all_gather_perf.json"));
        j["results"][1]["out_of_place"]["time"] = 1e308;
        auto huge = importNcclTests(j.dump());
        QVERIFY(!huge.ok());
        QCOMPARE(huge.errors().front().path, std::string("results.1.out_of_place.time"));
        QCOMPARE(huge.errors().front().message, std::string("must be between 0 and 1e+15, found 1e+308"));
        j = json::parse(readData("constructed-2x4-all_gather_perf.json"));
        j["results"][2]["in_place"]["bus_bw"] = -4.0;
        auto negative = importNcclTests(j.dump());
        QVERIFY(!negative.ok());
        QCOMPARE(negative.errors().front().path, std::string("results.2.in_place.bus_bw"));
        std::string overflow = readData("constructed-2x4-all_gather_perf.json");
        const std::size_t at = overflow.find("\"bus_bw\":10.384869");
        QVERIFY(at != std::string::npos);
        overflow.replace(at, 19, "\"bus_bw\":1e400");
        auto beyond = importNcclTests(overflow);
        QVERIFY(!beyond.ok());
        QCOMPARE(beyond.errors().front().path, std::string("results.0.out_of_place.bus_bw"));
        QCOMPARE(beyond.errors().front().offset, std::int64_t(at + 9));
    }

    void tenThousandWarningsAreCountedNotListed()
    {
        // 10,000 GEMM rows with an unknown field each, and 10,000 wrong "derived" names: a hundred warnings listed,
        // the rest counted in one (io/JsonReader.h, capIssues).
        json j = json::parse("{" + kSchema + "}");
        for (int i = 0; i < 10000; ++i)
            j["gemm"].push_back({ { "m", 1024 }, { "n", 1024 }, { "k", 1024 }, { "dtype", "bf16" }, { "seconds", 1e-3 }, { "flops", i } });
        auto r = profileFromJson(j);
        QVERIFY(r.ok());
        QCOMPARE(r->gemm.size(), std::size_t(10000));
        QCOMPARE(r->warnings.size(), std::size_t(101));
        QCOMPARE(r->warnings[99].path, std::string("gemm.99.flops"));
        QCOMPARE(r->warnings.back().message, std::string("9900 more unknown fields, ignored (only the first 100 warnings are listed)"));
        j = json::parse("{" + kSchema + R"(, "collectives": [{"op": "AllReduce", "ranks": 8, "nodes": 1, "bytes": 8,
            "seconds": 2e-5, "derived": []}]})");
        for (int i = 0; i < 10000; ++i) j["collectives"][0]["derived"].push_back("speed" + std::to_string(i));
        auto d = profileFromJson(j);
        QVERIFY(d.ok());
        QCOMPARE(d->warnings.size(), std::size_t(101));
        QCOMPARE(d->warnings.back().message, std::string("9900 more warnings, not listed: only the first 100 are"));
    }

    // A published run through the whole chain: import, fit, calibrate, evaluate.
    void publishedRunCalibratesAPlan()
    {
        auto r = importNcclTests(readData("mi300x-1x8-all_reduce_perf.txt"), "mi300x-1x8-all_reduce_perf.txt");
        QVERIFY(r.ok());
        // MI300X measurements on an A100 plan: refused unless applied anyway (the GPU is the chain's only mismatch).
        const Plan plan = test::loadSample("gpt3-175b-1024xa100.plan.json");
        QCOMPARE(calibrationFromProfile(r.value(), plan).refused.size(), std::size_t(1));
        const Calibration cal = calibrationFromProfile(r.value(), plan, OtherGpu::Apply);
        QVERIFY(cal.intraNode && !cal.interNode);
        QVERIFY(near(cal.intraNode->efficiency, r->fits[0].busBandwidth / plan.cluster.intraNode.bandwidth));
        QCOMPARE(cal.intraNode->latency, r->fits[0].alpha);
        QVERIFY(!cal.terms.empty());
        QVERIFY(cal.source.find("nccl-tests") != std::string::npos);
        QVERIFY(evaluate(applyCalibration(plan, cal)).valid);
        // Fits stored in the profile are used as they are.
        Profile stored = r.value();
        stored.fits[0].busBandwidth = 1e11;
        QVERIFY(near(calibrationFromProfile(stored, plan, OtherGpu::Apply).intraNode->efficiency, 1e11 / plan.cluster.intraNode.bandwidth));
    }
};

QTEST_APPLESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
