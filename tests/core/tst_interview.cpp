// The interview-question generator (core/lessons/InterviewQuestions.h): for many seeds of every topic, the answer the
// model gives for the generated plan equals the textbook formula computed here from that plan's own numbers: the
// pipeline bubble (p-1)/(m+p-1) (Huang et al., GPipe, 2019), ZeRO's 2 + 2 + 12 bytes per parameter divided by N_d stage by
// stage (Rajbhandari et al., ZeRO, SC 2020, section 5) with the GPT parameter count 12Lh^2 + 13Lh + (V+s)h + 2h
// (Narayanan et al., SC 2021, eq. 2, plus the final LayerNorm), the ring all-reduce's 2(N-1)/N x S (Patarasuk and Yuan,
// JPDC 2009), gradient accumulation's B/(b x N_d), and Megatron-LM's TP all-reduces (Shoeybi et al. 2019, section 3).
// The same seed gives the same question; every text has its Chinese.
#include "TestUtil.h"

#include "lessons/InterviewQuestions.h"

#include <QObject>
#include <QString>
#include <set>

using namespace planscope;
using nlohmann::json;

namespace {

constexpr int kSeeds = 24;

bool hasCjk(const std::string& s)
{
    for (QChar c : QString::fromStdString(s))
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

GeneratedQuestion generated(const char* topic, std::uint64_t seed)
{
    auto g = generateQuestion(topic, seed);
    if (!g) {
        QTest::qFail((std::string(topic) + ": " + g.errors().front().message).c_str(), __FILE__, __LINE__);
        return {};
    }
    return g.value();
}

// Megatron eq. 2 plus the final LayerNorm's 2h, from the plan's model fields (a GPT-style model: f = 4h, biases,
// learned positions, tied embeddings).
double gptParameters(const json& plan)
{
    const json& m = plan["model"];
    if (m["ffnHidden"].get<double>() != 4 * m["hidden"].get<double>() || !m["tiedEmbeddings"].get<bool>())
        QTest::qFail("not the GPT shape of Megatron's formula", __FILE__, __LINE__);
    const double L = m["layers"].get<double>(), h = m["hidden"].get<double>(), V = m["vocab"].get<double>(),
                 s = m["seqLength"].get<double>();
    return L * (12 * h * h + 13 * h) + (V + s) * h + 2 * h;
}

double microbatches(const json& plan)
{
    return plan["training"]["globalBatch"].get<double>()
        / (plan["training"]["microBatch"].get<double>() * plan["parallel"]["dp"].get<double>());
}

QString where(const char* topic, int seed, double answer, double expected)
{
    return QStringLiteral("%1 seed %2: answer %3, formula %4").arg(QLatin1String(topic)).arg(seed).arg(test::num(answer), test::num(expected));
}

} // namespace

class TestInterview : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topics()
    {
        const std::vector<std::string> t = interviewTopics();
        for (const char* name : { "pipeline-bubble", "zero-memory", "ring-allreduce", "data-parallel", "tensor-parallel" })
            QVERIFY(std::find(t.begin(), t.end(), name) != t.end());
        const auto bad = generateQuestion("no-such-topic", 1);
        QVERIFY(!bad.ok());
        QVERIFY(bad.errors().front().message.find("pipeline-bubble") != std::string::npos); // names the topics
    }

    void pipelineBubble()
    {
        for (int seed = 0; seed < kSeeds; ++seed) {
            const GeneratedQuestion g = generated("pipeline-bubble", std::uint64_t(seed));
            const double p = g.plan["parallel"]["pp"].get<double>(), m = microbatches(g.plan);
            const double expected = (p - 1) / (m + p - 1);
            QVERIFY2(test::near(g.question.answer, expected, 1e-12), qPrintable(where("bubble", seed, g.question.answer, expected)));
            QVERIFY(g.question.text.en.find("p = " + std::to_string(int(p))) != std::string::npos);
            QVERIFY(g.question.text.en.find("m = " + std::to_string(int(m))) != std::string::npos);
        }
    }

    void zeroMemory()
    {
        std::set<int> stages;
        for (int seed = 0; seed < kSeeds; ++seed) {
            const GeneratedQuestion g = generated("zero-memory", std::uint64_t(seed));
            const double psi = gptParameters(g.plan), nd = g.plan["parallel"]["dp"].get<double>();
            const int zero = g.plan["parallel"]["zero"].get<int>();
            stages.insert(zero);
            QCOMPARE(g.plan["training"]["gradDtype"].get<std::string>(), std::string("fp16"));
            double expected = 0;
            if (g.question.field == "memory.stages.0.weightsBytes") expected = 2 * psi / (zero >= 3 ? nd : 1);
            else if (g.question.field == "memory.stages.0.gradientsBytes") expected = 2 * psi / (zero >= 2 ? nd : 1);
            else if (g.question.field == "memory.stages.0.optimizerBytes") expected = 12 * psi / (zero >= 1 ? nd : 1);
            else QFAIL(g.question.field.c_str());
            // Shards are whole bytes: within a few bytes of the division.
            QVERIFY2(std::abs(g.question.answer - expected) <= 16, qPrintable(where("zero", seed, g.question.answer, expected)));
            QCOMPARE(g.question.unit, std::string("B"));
        }
        QVERIFY(stages.size() >= 3); // the seeds reach different ZeRO stages
    }

    void ringAllReduce()
    {
        for (int seed = 0; seed < kSeeds; ++seed) {
            const GeneratedQuestion g = generated("ring-allreduce", std::uint64_t(seed));
            const double n = g.plan["parallel"]["dp"].get<double>(), S = 2 * gptParameters(g.plan); // fp16 gradients
            const double expected = 2 * (n - 1) / n * S;
            QVERIFY2(test::near(g.question.answer, expected, 1e-9), qPrintable(where("ring", seed, g.question.answer, expected)));
        }
    }

    void dataParallel()
    {
        for (int seed = 0; seed < kSeeds; ++seed) {
            const GeneratedQuestion g = generated("data-parallel", std::uint64_t(seed));
            QCOMPARE(g.question.answer, microbatches(g.plan));
        }
    }

    // Per microbatch 4L + 1 all-reduces of b*s*h bf16 activations and 3 of b*s fp32 values; a ring sends 2(t-1)/t of each.
    void tensorParallel()
    {
        for (int seed = 0; seed < kSeeds; ++seed) {
            const GeneratedQuestion g = generated("tensor-parallel", std::uint64_t(seed));
            const json& m = g.plan["model"];
            const double t = g.plan["parallel"]["tp"].get<double>(), L = m["layers"].get<double>(), h = m["hidden"].get<double>(),
                         s = m["seqLength"].get<double>(), b = g.plan["training"]["microBatch"].get<double>(),
                         mb = microbatches(g.plan);
            QCOMPARE(g.plan["parallel"]["sp"].get<bool>(), false);
            const double expected = mb * 2 * (t - 1) / t * ((4 * L + 1) * 2 * b * s * h + 3 * 4 * b * s);
            QVERIFY2(test::near(g.question.answer, expected, 1e-12), qPrintable(where("tp", seed, g.question.answer, expected)));
        }
    }

    // Same seed, same question; the seeds give different plans; each plan validates, fits, and its texts are complete.
    void deterministicAndComplete()
    {
        for (const std::string& topic : interviewTopics()) {
            std::set<std::string> plans;
            for (int seed = 0; seed < kSeeds; ++seed) {
                const GeneratedQuestion a = generated(topic.c_str(), std::uint64_t(seed));
                const GeneratedQuestion b = generated(topic.c_str(), std::uint64_t(seed));
                QCOMPARE(interviewToJson(a).dump(), interviewToJson(b).dump());
                plans.insert(a.plan.dump());
                const Prediction p = evaluate(test::planFromText(a.plan.dump()));
                QVERIFY(p.valid && p.fits);
                for (const Bilingual* text : { &a.question.text, &a.question.solution }) {
                    QVERIFY(!text->en.empty());
                    QVERIFY2(hasCjk(text->zh_CN), text->zh_CN.c_str());
                    QVERIFY2(text->en.find('{') == std::string::npos, text->en.c_str()); // every number filled in
                    QVERIFY2(text->zh_CN.find('{') == std::string::npos, text->zh_CN.c_str());
                }
                QVERIFY(a.question.answer > 0);
                QVERIFY(a.question.tolerance > 0 && a.question.tolerance < 0.1);
            }
            QVERIFY2(plans.size() >= kSeeds / 3, topic.c_str());
        }
    }

    void toJson()
    {
        const GeneratedQuestion g = generated("ring-allreduce", 42);
        const nlohmann::json j = interviewToJson(g);
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/interview/v1"));
        QCOMPARE(j["topic"].get<std::string>(), std::string("ring-allreduce"));
        QCOMPARE(j["seed"].get<std::uint64_t>(), std::uint64_t(42));
        QVERIFY(j["plan"] == g.plan);
        QCOMPARE(j["question"]["answer"].get<double>(), g.question.answer);
        QCOMPARE(j["question"]["field"].get<std::string>(), std::string("comm.groups[kind=dp].bytesPerStep"));
        QVERIFY(j["question"]["text"].contains("zh_CN") && j["question"]["solution"].contains("en"));
    }
};

QTEST_GUILESS_MAIN(TestInterview)
#include "tst_interview.moc"
