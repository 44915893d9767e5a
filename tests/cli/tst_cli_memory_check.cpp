// planscope-cli memory-check (docs/FORMATS.md section 12): a PyTorch CUDA memory snapshot beside a plan's
// stage. The measured peaks are those counted by hand in tests/core/tst_memory_snapshot.cpp for
// tests/data/memory-snapshots/simple.pickle (allocated 12 MiB, reserved 18 MiB); the predicted figures are
// read from `planscope-cli evaluate` of the same plan; a pickle that would run code exits 2 naming the
// opcode, usage errors 1.
#include "CliRunner.h"

#include <QObject>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

constexpr std::int64_t MiB = 1 << 20;

QString data(const char* name)
{
    return QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/memory-snapshots/") + QLatin1String(name);
}
QString plan(const char* name)
{
    return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + QLatin1String(name);
}

bool has(const std::string& text, const std::string& words)
{
    return text.find(words) != std::string::npos;
}

} // namespace

class TestCliMemoryCheck : public QObject {
    Q_OBJECT
private slots:
    void jsonBesideTheEvaluation()
    {
        const test::CliRun r = test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json"),
            data("simple.pickle"), QStringLiteral("--json") });
        QVERIFY2(r.code == 0, r.err.c_str());
        const json doc = json::parse(r.out);
        QCOMPARE(doc["schema"].get<std::string>(), std::string("planscope/memory-check/v1"));
        QVERIFY(doc["valid"].get<bool>());
        QVERIFY(doc["hasTrace"].get<bool>());
        const json& c = doc["check"];
        QCOMPARE(c["stage"].get<int>(), 0);
        QCOMPARE(c["device"].get<int>(), 0);
        QCOMPARE(c["measured"]["allocatedPeakBytes"].get<std::int64_t>(), 12 * MiB);
        QCOMPARE(c["measured"]["reservedPeakBytes"].get<std::int64_t>(), 18 * MiB);
        QCOMPARE(c["measured"]["fragmentationBytes"].get<std::int64_t>(), 6 * MiB);
        QVERIFY(!c["measured"]["peakIsLowerBound"].get<bool>());

        // The predicted figures are the evaluation's stage 0.
        const test::CliRun ev = test::runCli({ QStringLiteral("evaluate"), plan("default.plan.json") });
        QCOMPARE(ev.code, 0);
        const json evaluation = json::parse(ev.out);
        const json& stage = evaluation["memory"]["stages"][0];
        const std::int64_t allocated = stage["allocatedBytes"].get<std::int64_t>();
        const std::int64_t reserved = stage["reservedBytes"].get<std::int64_t>();
        const std::int64_t total = stage["totalBytes"].get<std::int64_t>();
        QCOMPARE(c["predicted"]["allocatedBytes"].get<std::int64_t>(), allocated);
        QCOMPARE(c["predicted"]["reservedBytes"].get<std::int64_t>(), reserved);
        QCOMPARE(c["predicted"]["totalBytes"].get<std::int64_t>(), total);
        QCOMPARE(
            c["predicted"]["weightsBytes"].get<std::int64_t>(), stage["weightsBytes"].get<std::int64_t>());
        QCOMPARE(c["predicted"]["outsideAllocatorBytes"].get<std::int64_t>(),
            stage["buffers"]["cudaContextBytes"].get<std::int64_t>()
                + stage["buffers"]["ncclBytes"].get<std::int64_t>());

        // Rows: predicted - measured, and that over measured in percent.
        const json& rows = c["rows"];
        QCOMPARE(rows.size(), std::size_t(4));
        const std::int64_t want[][3] = { { allocated, 12 * MiB, 0 }, { reserved, 18 * MiB, 0 },
            { stage["buffers"]["fragmentationBytes"].get<std::int64_t>(), 6 * MiB, 0 },
            { total, 18 * MiB, 0 } };
        const char* figures[] = { "allocated", "reserved", "fragmentation", "total" };
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(rows[i]["figure"].get<std::string>(), std::string(figures[i]));
            QCOMPARE(rows[i]["predictedBytes"].get<std::int64_t>(), want[i][0]);
            QCOMPARE(rows[i]["measuredBytes"].get<std::int64_t>(), want[i][1]);
            QCOMPARE(rows[i]["differenceBytes"].get<std::int64_t>(), want[i][0] - want[i][1]);
            const double percent = double(want[i][0] - want[i][1]) / double(want[i][1]) * 100;
            QVERIFY(std::abs(rows[i]["differencePercent"].get<double>() - percent)
                < 1e-9 * std::max(1.0, std::abs(percent)));
        }
        // Every device of the snapshot, with its events counted.
        QCOMPARE(doc["devices"].size(), std::size_t(1));
        QCOMPARE(doc["devices"][0]["events"]["total"].get<int>(), 11);
        QCOMPARE(doc["devices"][0]["events"]["oom"].get<int>(), 1);
        QCOMPARE(doc["devices"][0]["largestBlocks"][0]["size"].get<std::int64_t>(), 6 * MiB);
    }

    void textTableAndLowerBounds()
    {
        const test::CliRun r = test::runCli(
            { QStringLiteral("memory-check"), plan("default.plan.json"), data("simple-tail.pickle") });
        QVERIFY2(r.code == 0, r.err.c_str());
        for (const char* words : { "figure", "predicted", "measured", "difference", "allocated", "reserved",
                 "fragmentation", "12.0 MiB", "18.0 MiB", "peaks (lower bounds)", "ring buffer", "7 events" })
            QVERIFY2(has(r.out, words), (std::string(words) + " in\n" + r.out).c_str());
        // Another stage and device: the last stage of a pipelined plan against device 1 of a two-device
        // snapshot.
        const test::CliRun two = test::runCli({ QStringLiteral("memory-check"),
            plan("llama31-405b-pp8-vp8-h100.plan.json"), data("random.pickle"), QStringLiteral("--stage"),
            QStringLiteral("7"), QStringLiteral("--device"), QStringLiteral("1"), QStringLiteral("--json") });
        QVERIFY2(two.code == 0, two.err.c_str());
        const json doc = json::parse(two.out);
        QCOMPARE(doc["check"]["stage"].get<int>(), 7);
        QCOMPARE(doc["check"]["device"].get<int>(), 1);
        QCOMPARE(doc["devices"].size(), std::size_t(2));
    }

    void refusalsAndUsage()
    {
        // Code in the pickle: exit 2, the opcode and its offset named (STACK_GLOBAL at byte 34, python3 -m
        // pickletools).
        const test::CliRun code = test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json"),
            data("refused-fraction.pickle"), QStringLiteral("--json") });
        QCOMPARE(code.code, 2);
        QVERIFY2(has(code.err, "(byte offset 34): STACK_GLOBAL at byte 34 is refused"), code.err.c_str());
        QVERIFY(!json::parse(code.out)["valid"].get<bool>());
        // No snapshot: exit 2 naming the field.
        const test::CliRun bad = test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json"),
            data("bad-segments-not-a-list.pickle") });
        QCOMPARE(bad.code, 2);
        QVERIFY2(has(bad.err, "error at segments: must be an array, found number"), bad.err.c_str());
        // Usage and files: exit 1.
        QCOMPARE(test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json") }).code, 1);
        const test::CliRun missing = test::runCli(
            { QStringLiteral("memory-check"), plan("default.plan.json"), data("no-such.pickle") });
        QCOMPARE(missing.code, 1);
        QVERIFY2(has(missing.err, "cannot open file"), missing.err.c_str());
        const test::CliRun stage = test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json"),
            data("simple.pickle"), QStringLiteral("--stage"), QStringLiteral("99") });
        QCOMPARE(stage.code, 1);
        QVERIFY2(has(stage.err, "stage 99 is not a pipeline stage of the plan"), stage.err.c_str());
        const test::CliRun device = test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json"),
            data("simple.pickle"), QStringLiteral("--device"), QStringLiteral("2") });
        QCOMPARE(device.code, 1);
        QVERIFY2(has(device.err, "device 2 is not in the snapshot, which has device 0"), device.err.c_str());
        QCOMPARE(test::runCli({ QStringLiteral("memory-check"), plan("default.plan.json"),
                                  data("simple.pickle"), QStringLiteral("--stage"), QStringLiteral("x") })
                     .code,
            1);
    }
};

QTEST_GUILESS_MAIN(TestCliMemoryCheck)
#include "tst_cli_memory_check.moc"
