// Big and hostile inputs (issue 16, item 4): each either works or is refused with a message naming the field or the
// size, never a hang or an allocation sized by the input. The heavy cases (a 2 GB trace, a 100 MB plan through the
// binaries) are scripts/hostile-inputs.sh; docs/RELIABILITY.md records both.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "schedule/Schedule.h"

#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {
json defaultPlan()
{
    auto text = readTextFile(test::samplePath("default.plan.json"));
    return text ? json::parse(text.value()) : json();
}

// The default sample plan with other parallel degrees and global batch.
Plan defaultPlanWith(int pp, int tp, int dp, std::int64_t globalBatch)
{
    json plan = defaultPlan();
    plan["parallel"]["pp"] = pp;
    plan["parallel"]["tp"] = tp;
    plan["parallel"]["dp"] = dp;
    plan["training"]["globalBatch"] = globalBatch;
    return test::planFromText(plan.dump());
}

// The first issue of a failed load, as "path: message".
std::string firstError(const Result<LoadedPlan>& r)
{
    return r ? std::string() : r.errors().front().path + ": " + r.errors().front().message;
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::int64_t countCompute(const Timeline& t)
{
    std::int64_t n = 0;
    for (const Span& s : t.spans) n += s.stream == Stream::Compute ? 1 : 0;
    return n;
}
} // namespace

class TestHostileInputs : public QObject {
    Q_OBJECT
private slots:
    void aPlanFileOverTheLimitIsRefusedBeforeItIsRead()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("huge.plan.json")).toStdString();
        json plan = defaultPlan();
        plan["description"] = std::string(std::size_t(kMaxPlanFileBytes), 'x'); // the text alone is the limit
        std::ofstream(path) << plan.dump();
        const auto size = std::filesystem::file_size(path);
        QVERIFY(std::int64_t(size) > kMaxPlanFileBytes);
        auto r = loadPlanFile(path);
        QVERIFY(!r);
        QCOMPARE(r.errors().front().path, path);
        // 16 MiB of description and the rest of the plan: a little over 16.0 MiB.
        QCOMPARE(r.errors().front().message,
            "is " + std::to_string(size) + " bytes (16.0 MiB), more than the 16.0 MiB this kind of file may have; not read");

        // Just under the limit it loads (a long description is no reason to refuse a plan).
        plan["description"] = std::string(std::size_t(kMaxPlanFileBytes) - 4096, 'x');
        std::ofstream(path, std::ios::trunc) << plan.dump();
        auto fits = loadPlanFile(path);
        QVERIFY2(fits.ok(), firstError(fits).c_str());
        QCOMPARE(fits->plan.description.size(), std::size_t(kMaxPlanFileBytes) - 4096);
    }

    void aStreamWithoutASizeIsCutAtTheLimit()
    {
        // /dev/zero never ends and has no size to check first: the read stops one piece past the limit.
        auto r = readTextFile("/dev/zero", 100000);
        QVERIFY(!r);
        QCOMPARE(r.errors().front().message,
            std::string("has more than 100000 bytes (97.7 KiB), the most this kind of file may have; not read"));
    }

    void absurdNumbersNameTheirField()
    {
        json plan = defaultPlan();
        plan["model"]["layers"] = 1000000000;
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("model.layers: must be between 1 and 1000000, found 1000000000"));
        plan = defaultPlan();
        plan["training"]["globalBatch"] = 1e30;
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("training.globalBatch: must be between 1 and 1e+12, found 1e+30"));
        plan = defaultPlan();
        plan["training"]["tokens"] = 1e300; // once printed as 291 digits of training days
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("training.tokens: must be between 0 and 1e+18, found 1e+300"));
        plan = defaultPlan();
        plan["cluster"]["nodes"] = 1e9;
        QCOMPARE(firstError(parsePlan(plan.dump())), std::string("cluster.nodes: must be between 1 and 1000000, found 1000000000.0"));
    }

    void deeplyNestedJsonIsReadWithoutRecursion()
    {
        // A million levels: nlohmann::json parses and frees them without recursion; the reader names the field.
        const std::size_t depth = 1000000;
        std::string text = defaultPlan().dump();
        const std::string batch = "\"globalBatch\":64";
        QVERIFY(text.find(batch) != std::string::npos);
        std::string asBatch = text;
        asBatch.replace(asBatch.find(batch), batch.size(), "\"globalBatch\":" + nested(depth));
        QCOMPARE(firstError(parsePlan(asBatch)), std::string("training.globalBatch: must be an integer, found array"));
        QCOMPARE(firstError(parsePlan(nested(depth))), std::string(": must be an object, found array"));

        // An unknown field, however deep, is a warning and the plan loads.
        std::string extra = text;
        extra.insert(extra.size() - 1, ",\"extra\":" + nested(depth));
        auto r = parsePlan(extra);
        QVERIFY2(r.ok(), firstError(r).c_str());
        bool warned = false;
        for (const Issue& w : r->warnings) warned = warned || w.path == "extra";
        QVERIFY(warned);
    }

    void aHundredThousandMicrobatchesAreSimulated()
    {
        // pp 2 x 100,000 microbatches x (forward, backward) = 400,000 compute ops, under the simulation's limit.
        const auto a = analyse(defaultPlanWith(2, 8, 1, 100000));
        QVERIFY(a->valid());
        QCOMPARE(a->prediction.microbatches, std::int64_t(100000));
        QVERIFY(a->timeline);
        QCOMPARE(countCompute(*a->timeline), std::int64_t(2 * 100000 * 2));
        // 1F1B's step is (m + p - 1) microbatch slots: the simulation agrees with the closed form to a percent.
        QVERIFY(std::abs(a->prediction.stepSeconds / a->analytic.stepSeconds - 1) < 0.01);
    }

    void pastTheSimulationLimitTheClosedFormStands()
    {
        // pp 16 x 100,000 microbatches x 2 = 3,200,000 ops: no timeline, the closed form, and the reason named.
        const Plan p = defaultPlanWith(16, 1, 1, 100000);
        QCOMPARE(simulatedOpCount(p, 100000), 3200000.0);
        const auto a = analyse(p);
        QVERIFY(a->valid());
        QVERIFY(!a->timeline);
        QCOMPARE(a->timelineErrors.size(), std::size_t(1));
        QCOMPARE(a->timelineErrors.front().path, std::string("training.globalBatch"));
        QVERIFY(a->timelineErrors.front().message.find("3200000 ops") != std::string::npos);
        QCOMPARE(a->prediction.stepSeconds, a->analytic.stepSeconds);
    }

    void aScheduleTooLargeToLayOutIsRefusedByItsCount()
    {
        // 1,000 ranks x 100,000 microbatches of 1F1B: 200,000,000 ops (planscope-cli schedule aborted on bad_alloc
        // before the limit). The count is computed, nothing is allocated.
        ScheduleRequest r;
        r.kind = ScheduleKind::OneFOneB;
        r.ranks = 1000;
        r.microbatches = 100000;
        QCOMPARE(scheduleOpCount(r), 2e8);
        auto s = generateSchedule(r);
        QVERIFY(!s);
        QCOMPARE(s.errors().front().path, std::string("microbatches"));
        QCOMPARE(s.errors().front().message,
            std::string("the schedule would have 200000000 compute ops (ranks x chunks x microbatches x passes), more than "
                        "the 4194304 laid out"));
        // ZB-V: 2 chunks x 3 passes. 32 x 2 x 21,846 x 3 = 4,194,432 > 2^22; one microbatch fewer fits.
        r.kind = ScheduleKind::ZBV;
        r.chunks = 2; // as torch requires of ZB-V (planscope-cli schedule sets it)
        r.ranks = 32;
        r.microbatches = 21846;
        QCOMPARE(scheduleOpCount(r), 4194432.0);
        QVERIFY(!generateSchedule(r));
        r.microbatches = 21845;
        QCOMPARE(scheduleOpCount(r), 4194240.0);
        auto fits = generateSchedule(r);
        QVERIFY2(fits.ok(), fits ? "" : fits.errors().front().message.c_str());
    }

    void aCsvWithMoreActionsThanTheLimitStopsAtTheAction()
    {
        // One rank, 2^22 + 1 compute actions: refused at the action past the limit, by row and column.
        std::string csv;
        csv.reserve(std::size_t(kMaxScheduleOps + 1) * 4);
        for (std::int64_t i = 0; i <= kMaxScheduleOps; ++i) csv += i % 2 == 0 ? "0F0," : "0B0,";
        auto s = scheduleFromCsv(csv);
        QVERIFY(!s);
        QCOMPARE(s.errors().front().path, "row 1, column " + std::to_string(kMaxScheduleOps + 1));
        QCOMPARE(s.errors().front().message, std::string("more than 4194304 compute actions, the most laid out"));
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "tst_hostile_inputs.moc"
