// Beyond published evidence (core/search/Evidence.h): the ceilings built into the program are the file
// samples/published/mfu-ceilings.json read here on its own; a plan is held to its GPU's and precision's ceiling (a
// precision with the same dense peak in resources/presets/gpus.json shares it; 100B parameters or more take the
// large-model best); the flags follow the MFU and the free memory at their bounds; the search marks every listed plan
// by those rules; a malformed ceilings file is refused by field.
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "search/Evidence.h"
#include "search/Search.h"

#include <QObject>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

json readJson(const std::string& path)
{
    std::ifstream in(path);
    return json::parse(in, nullptr, false);
}

json ceilingsFile() { return readJson(std::string(PLANSCOPE_SAMPLES_DIR) + "/published/mfu-ceilings.json"); }

// The file's entry of a GPU and precision (null when there is none).
json fileCeiling(const std::string& gpu, const std::string& precision)
{
    const json file = ceilingsFile();
    for (const json& c : file["ceilings"])
        if (c["gpu"] == gpu && c["precision"] == precision) return c;
    return nullptr;
}

// A GPU's dense peak of a precision, read from the presets file.
double presetPeak(const std::string& gpu, const std::string& precision)
{
    const json presets = readJson(std::string(PLANSCOPE_SOURCE_DIR) + "/resources/presets/gpus.json");
    for (const json& g : presets["gpus"])
        if (g["id"] == gpu) return g["peakFlops"].value(precision, 0.0);
    return 0;
}

} // namespace

class TestEvidence : public QObject {
    Q_OBJECT
private slots:
    void builtInCeilingsAreTheFile()
    {
        const json file = ceilingsFile();
        QVERIFY(file.is_object());
        const std::vector<MfuCeiling>& built = mfuCeilings();
        QCOMPARE(built.size(), file["ceilings"].size());
        QVERIFY(!built.empty());
        for (std::size_t i = 0; i < built.size(); ++i) {
            const json& c = file["ceilings"][i];
            QCOMPARE(built[i].gpu, c["gpu"].get<std::string>());
            QCOMPARE(built[i].precision, c["precision"].get<std::string>());
            QCOMPARE(built[i].any.mfu, c["any"]["mfu"].get<double>());
            QCOMPARE(built[i].largeModel.mfu, c["largeModel"]["mfu"].get<double>());
            QCOMPARE(built[i].largeModel.source, c["largeModel"]["source"].get<std::string>());
            QCOMPARE(built[i].any.run, c["any"]["run"].get<std::string>());
        }
    }

    // Which best a plan is held to, for samples of each size, GPU and precision.
    void ceilingOfAPlan_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("precision"); // "" keeps the sample's
        QTest::addColumn<QString>("ceilingPrecision"); // "" = no ceiling
        QTest::addColumn<bool>("large");
        // A 10B model (12 * layers * hidden^2 < 100B) on A100 in bf16; in fp16 (the same dense peak) too.
        QTest::newRow("10b a100 bf16") << "interview-10b-8xa100.plan.json" << "" << "bf16" << false;
        QTest::newRow("10b a100 fp16") << "interview-10b-8xa100.plan.json" << "fp16" << "bf16" << false;
        QTest::newRow("10b a100 fp32") << "interview-10b-8xa100.plan.json" << "fp32" << "" << false;
        QTest::newRow("175b a100") << "gpt3-175b-64xa100-search.plan.json" << "" << "bf16" << true;
        QTest::newRow("70b h100 fp8") << "llama3-70b-fp8-64xh100.plan.json" << "" << "fp8" << false;
        QTest::newRow("405b h100 bf16") << "llama3-405b-8k-h100.plan.json" << "" << "bf16" << true;
    }
    void ceilingOfAPlan()
    {
        QFETCH(QString, sample);
        QFETCH(QString, precision);
        QFETCH(QString, ceilingPrecision);
        QFETCH(bool, large);
        Plan plan = test::loadSample(sample.toStdString().c_str());
        if (!precision.isEmpty()) QVERIFY(fromString(precision.toStdString(), plan.training.precision));
        const std::string gpu = plan.cluster.gpu.id;
        if (!ceilingPrecision.isEmpty() && ceilingPrecision != precision && !precision.isEmpty())
            QCOMPARE(presetPeak(gpu, precision.toStdString()), presetPeak(gpu, ceilingPrecision.toStdString()));
        const PublishedEvidence ev = publishedEvidence(plan);
        QCOMPARE(ev.gpu, gpu);
        QCOMPARE(ev.largeModel, large);
        QCOMPARE(ev.memoryMargin, kDefaultMemoryHeadroom);
        const json c = ceilingPrecision.isEmpty() ? json(nullptr) : fileCeiling(gpu, ceilingPrecision.toStdString());
        QCOMPARE(ev.hasCeiling, !c.is_null());
        if (c.is_null()) {
            QVERIFY(evidenceText(ev).english().find("no published run on " + gpu) == 0);
            return;
        }
        QCOMPARE(ev.precision, ceilingPrecision.toStdString());
        const json& best = c[large ? "largeModel" : "any"];
        QCOMPARE(ev.best.mfu, best["mfu"].get<double>());
        QCOMPARE(ev.best.source, best["source"].get<std::string>());
        QVERIFY(evidenceText(ev).english().find(best["run"].get<std::string>()) != std::string::npos);
    }

    // A GPU no published run covers has no ceiling: nothing is flagged for its MFU, memory still is.
    void noCeilingFlagsOnlyMemory()
    {
        Plan plan = test::loadSample("interview-10b-8xa100.plan.json");
        plan.cluster.gpu.id = "a-gpu-of-my-own";
        const PublishedEvidence ev = publishedEvidence(plan);
        QVERIFY(!ev.hasCeiling);
        QCOMPARE(beyondEvidence(ev, 0.99, 0, 80), 0u);
        QCOMPARE(beyondEvidence(ev, 0.99, 79, 80), unsigned(kBeyondMemory));
        QCOMPARE(stepAtCeiling(ev, 1.0, 0.5), 0.0);
    }

    // The flags at their bounds: MFU above the best (not at it); free memory under the margin (not at it).
    void flagsAtTheirBounds()
    {
        const PublishedEvidence ev = publishedEvidence(test::loadSample("gpt3-175b-64xa100-search.plan.json"));
        QVERIFY(ev.hasCeiling);
        const double best = fileCeiling("a100-sxm4-80gb", "bf16")["largeModel"]["mfu"].get<double>();
        const std::int64_t capacity = 80LL << 30;
        // The fewest free bytes that are not less than capacity * margin: within; one byte more used: beyond.
        const std::int64_t atMargin = capacity - std::int64_t(std::ceil(double(capacity) * kDefaultMemoryHeadroom));
        QVERIFY(double(capacity - atMargin) >= double(capacity) * kDefaultMemoryHeadroom);
        QVERIFY(double(capacity - atMargin - 1) < double(capacity) * kDefaultMemoryHeadroom);
        QCOMPARE(beyondEvidence(ev, best, atMargin, capacity), 0u);
        QCOMPARE(beyondEvidence(ev, best + 1e-9, atMargin, capacity), unsigned(kBeyondMfu));
        QCOMPARE(beyondEvidence(ev, best, atMargin + 1, capacity), unsigned(kBeyondMemory));
        QCOMPARE(beyondEvidence(ev, 0.9, capacity, capacity), unsigned(kBeyondMfu | kBeyondMemory));
        QCOMPARE(beyondEvidenceNames(kBeyondMfu | kBeyondMemory), (std::vector<std::string> { "mfu", "memory" }));
        const std::string why = beyondEvidenceText(ev, kBeyondMfu | kBeyondMemory, 0.9, capacity, capacity).english();
        QVERIFY2(why.find("MFU 90.0 % is above the best a published run of 100B parameters or more") == 0, why.c_str());
        QVERIFY2(why.find("leaves 0 B of the 80.00 GiB free, less than the 6.0 %") != std::string::npos, why.c_str());
        QVERIFY(beyondEvidenceText(ev, 0, best, atMargin, capacity).empty());
    }

    // The step time at the ceiling: model FLOPs per step / (G x the dense peak x the ceiling's MFU).
    void stepAtTheCeiling()
    {
        const Plan plan = test::loadSample("interview-10b-8xa100.plan.json");
        const Prediction pr = evaluate(plan);
        QVERIFY(pr.valid);
        const PublishedEvidence ev = publishedEvidence(plan);
        const double peak = presetPeak("a100-sxm4-80gb", "bf16");
        const double expected = pr.modelFlopsPerStep / (plan.cluster.gpus() * peak * ev.best.mfu);
        QVERIFY(test::near(stepAtCeiling(ev, pr.stepSeconds, pr.mfu), expected));
    }

    // Every plan a search lists carries the flags of its own figures, against the file's ceiling.
    void searchMarksEveryListedPlan()
    {
        const Plan plan = test::loadSample("gpt3-175b-64xa100-search.plan.json");
        auto space = buildSpace(plan, { Knob::TP, Knob::PP, Knob::MicroBatch, Knob::Recompute });
        QVERIFY(space.ok());
        SearchOptions o;
        o.top = 20;
        const SearchResult r = search(space.value(), o);
        QVERIFY(!r.best.empty());
        QCOMPARE(r.evidence, publishedEvidence(plan));
        const double best = fileCeiling("a100-sxm4-80gb", "bf16")["largeModel"]["mfu"].get<double>();
        auto expected = [&](const SearchEntry& e) {
            unsigned f = e.mfu > best ? unsigned(kBeyondMfu) : 0u;
            if (double(e.capacityBytes - e.peakBytes) < kDefaultMemoryHeadroom * double(e.capacityBytes)) f |= kBeyondMemory;
            return f;
        };
        for (const SearchEntry& e : r.best) QCOMPARE(e.beyond, expected(e));
        for (const SearchEntry& e : r.pareto) QCOMPARE(e.beyond, expected(e));
        for (const auto& g : r.byGpus)
            if (g.fastest) QCOMPARE(g.fastest->beyond, expected(*g.fastest));
        if (r.given.valid) QCOMPARE(r.given.entry.beyond, expected(r.given.entry));
    }

    void malformedCeilingsNameTheField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("path");
        const std::string best = R"({"mfu": 0.5, "run": "r", "source": "s", "configuration": "c"})";
        auto doc = [&](const std::string& entry) {
            return QString::fromStdString(R"({"schema": "planscope/mfu-ceilings/v1", "ceilings": [)" + entry + "]}");
        };
        QTest::newRow("not json") << "{" << "";
        QTest::newRow("schema") << R"({"schema": "x", "ceilings": []})" << "schema";
        QTest::newRow("no list") << R"({"schema": "planscope/mfu-ceilings/v1"})" << "ceilings";
        QTest::newRow("mfu above 1") << doc(R"({"gpu": "g", "precision": "bf16", "any": {"mfu": 1.5, "run": "r", "source": "s", "configuration": "c"}, "largeModel": )" + best + "}") << "ceilings[0].any.mfu";
        QTest::newRow("mfu zero") << doc(R"({"gpu": "g", "precision": "bf16", "any": )" + best + R"(, "largeModel": {"mfu": 0, "run": "r", "source": "s", "configuration": "c"}})") << "ceilings[0].largeModel.mfu";
        QTest::newRow("no source") << doc(R"({"gpu": "g", "precision": "bf16", "any": {"mfu": 0.5, "run": "r", "configuration": "c"}, "largeModel": )" + best + "}") << "ceilings[0].any.source";
        QTest::newRow("precision") << doc(R"({"gpu": "g", "precision": "bf17", "any": )" + best + R"(, "largeModel": )" + best + "}") << "ceilings[0].precision";
        QTest::newRow("no largeModel") << doc(R"({"gpu": "g", "precision": "bf16", "any": )" + best + "}") << "ceilings[0].largeModel";
    }
    void malformedCeilingsNameTheField()
    {
        QFETCH(QString, text);
        QFETCH(QString, path);
        const auto r = parseMfuCeilings(text.toStdString());
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.errors().front().path), path);
    }
};

QTEST_GUILESS_MAIN(TestEvidence)
#include "tst_evidence.moc"
