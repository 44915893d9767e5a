// The guided lessons (core/lessons/Lessons.h): every answer is the model's figure at the question's field for the step's
// own plan, and equals the hand-derived value of the textbook formula: the pipeline bubble (p-1)/(m+p-1) (Huang et al.,
// GPipe, 2019; Narayanan et al. 2021), ZeRO's per-GPU model states 2/2/12 bytes per parameter divided by N_d stage by
// stage (Rajbhandari et al., ZeRO, SC 2020, section 5), and the ring all-reduce's 2(N-1)/N x S bytes sent per GPU
// (Patarasuk and Yuan, JPDC 2009), and the Zero Bubble schedules' idle time (Qi et al., ICLR 2024). Every text has its
// Chinese.
#include "TestUtil.h"

#include "cost/Parameters.h"
#include "lessons/Lessons.h"
#include "util/Units.h"

#include <QObject>
#include <QString>

using namespace planscope;
using nlohmann::json;

namespace {

const Lesson* find(const std::vector<Lesson>& ls, const std::string& id)
{
    for (const Lesson& l : ls)
        if (l.id == id) return &l;
    return nullptr;
}

bool hasCjk(const std::string& s)
{
    for (QChar c : QString::fromStdString(s))
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

// Parameters of the step's plan, counted by the parameter model (checked against published totals in tst_parameters).
double psi(const LessonStep& s) { return countParameters(test::planFromText(s.plan.dump()).model).total; }

} // namespace

class TestLessons : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void answersComeFromTheStepsPlan()
    {
        const auto ls = builtinLessons();
        QVERIFY(ls.ok());
        int questions = 0;
        for (const Lesson& l : ls.value())
            for (const LessonStep& s : l.steps) {
                if (!s.question) continue;
                ++questions;
                const Prediction p = evaluate(test::planFromText(s.plan.dump()));
                QVERIFY(p.valid);
                QVERIFY2(s.question->answer > 0, s.question->field.c_str());
            }
        QVERIFY(questions >= 19);
        QCOMPARE(int(ls->size()), 9);
    }

    void bubble()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "pipeline-bubble");
        QVERIFY(l);
        int checked = 0;
        for (const LessonStep& s : l->steps) {
            if (!s.question) continue;
            const int p = s.plan["parallel"]["pp"].get<int>();
            const double m = double(s.plan["training"]["globalBatch"].get<int>())
                / (s.plan["training"]["microBatch"].get<int>() * s.plan["parallel"]["dp"].get<int>());
            QVERIFY(test::near(s.question->answer, (p - 1) / (m + p - 1), 1e-12));
            ++checked;
        }
        QCOMPARE(checked, 2); // 3/11 and 3/35
    }

    void zero()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "zero-memory");
        QVERIFY(l);
        QCOMPARE(int(l->steps.size()), 4);
        for (const LessonStep& s : l->steps) {
            const int zeroStage = s.plan["parallel"]["zero"].get<int>();
            const double nd = s.plan["parallel"]["dp"].get<int>(), P = psi(s);
            double expected = 0;
            if (s.question->field == "memory.stages.0.optimizerBytes") expected = 12 * P / (zeroStage >= 1 ? nd : 1);
            else if (s.question->field == "memory.stages.0.gradientsBytes") expected = 2 * P / (zeroStage >= 2 ? nd : 1);
            else if (s.question->field == "memory.stages.0.weightsBytes") expected = 2 * P / (zeroStage >= 3 ? nd : 1);
            else QFAIL(s.question->field.c_str());
            QVERIFY2(std::abs(s.question->answer - expected) <= 8, (s.question->field + " zero " + std::to_string(zeroStage)).c_str());
        }
    }

    void ring()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "ring-allreduce");
        QVERIFY(l);
        for (const LessonStep& s : l->steps) {
            const double n = s.plan["parallel"]["dp"].get<int>();
            const double S = 2 * psi(s); // fp16 gradients
            QVERIFY(test::near(s.question->answer, 2 * (n - 1) / n * S, 1e-9));
        }
    }

    // Gradient accumulation: m = B / (b x dp).
    void dataParallel()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "data-parallel");
        QVERIFY(l);
        for (const LessonStep& s : l->steps)
            QCOMPARE(s.question->answer, double(s.plan["training"]["globalBatch"].get<int>())
                    / (s.plan["training"]["microBatch"].get<int>() * s.plan["parallel"]["dp"].get<int>()));
    }

    // Megatron's TP all-reduces per microbatch: 4 per layer and 1 for the vocabulary-parallel embedding, of b*s*h
    // 16-bit activations, and the vocabulary-parallel cross entropy's 3 of b*s fp32 values; a ring sends 2(t-1)/t of
    // each buffer.
    void tensorParallel()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "tensor-parallel");
        QVERIFY(l);
        const LessonStep& s = l->steps.front();
        const Plan p = test::planFromText(s.plan.dump());
        const double t = p.parallel.tp, L = p.model.layers, h = double(p.model.hidden), seq = double(p.model.seqLength),
                     b = p.training.microBatch, m = double(p.microbatches());
        const double expected = m * 2 * (t - 1) / t * ((4 * L + 1) * 2 * b * seq * h + 3 * 4 * b * seq);
        QVERIFY(test::near(s.question->answer, expected, 1e-12));
    }

    // GPipe holds all m microbatches on rank 0; 1F1B holds p - rank.
    void gpipeVs1f1b()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "gpipe-vs-1f1b");
        QVERIFY(l);
        const LessonStep& gpipe = l->steps[0];
        const LessonStep& onefoneb = l->steps[1];
        QCOMPARE(gpipe.plan["training"]["schedule"].get<std::string>(), std::string("gpipe"));
        QCOMPARE(gpipe.question->answer, double(test::planFromText(gpipe.plan.dump()).microbatches()));
        QCOMPARE(onefoneb.plan["training"]["schedule"].get<std::string>(), std::string("1f1b"));
        QCOMPARE(onefoneb.question->answer, double(onefoneb.plan["parallel"]["pp"].get<int>()));
    }

    // Interleaved 1F1B: (p-1)/(v*m + p-1).
    void interleaved()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "interleaved-1f1b");
        QVERIFY(l);
        const LessonStep& s = l->steps.front();
        const Plan p = test::planFromText(s.plan.dump());
        const double pp = p.parallel.pp, v = p.parallel.vpp, m = double(p.microbatches());
        QVERIFY(test::near(s.question->answer, (pp - 1) / (v * m + pp - 1), 1e-12));
    }

    // Zero Bubble (Qi et al., ICLR 2024, section 3): with the backward split into I (input gradient) and W (weight
    // gradient), ZB-H1 idles (p-1)(F + I - W) and ZB-H2 (p-1)(F + I - 2W) against 1F1B's (p-1)(F + B), B = I + W. F, B
    // and W are the slowest stage's passes as the model costs them (each pipeline send shared between F and I), and the
    // share is the bubble over m slots plus the bubble.
    void zeroBubble()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "zero-bubble");
        QVERIFY(l);
        QCOMPARE(int(l->steps.size()), 3);
        const char* schedules[] = { "1f1b", "zb-h1", "zb-h2" };
        double bubbleSeconds[3] = {};
        for (int k = 0; k < 3; ++k) {
            const LessonStep& s = l->steps[std::size_t(k)];
            QCOMPARE(s.plan["training"]["schedule"].get<std::string>(), std::string(schedules[k]));
            const Plan plan = test::planFromText(s.plan.dump());
            const Prediction pr = evaluate(plan);
            QVERIFY(pr.valid && pr.fits);
            const double p = plan.parallel.pp, m = double(plan.microbatches());
            QCOMPARE(p, 4.0);
            QCOMPARE(m, 16.0);
            const StageTime* slow = nullptr;
            for (const StageTime& t : pr.stageTimes)
                if (!slow || t.forwardSeconds + t.backwardSeconds + t.p2pSeconds > slow->forwardSeconds + slow->backwardSeconds + slow->p2pSeconds)
                    slow = &t;
            const double F = slow->forwardSeconds + slow->p2pSeconds / 2, B = slow->backwardSeconds + slow->p2pSeconds / 2;
            const double W = slow->weightGradSeconds, I = B - W;
            const double idle = k == 0 ? (p - 1) * (F + B) : k == 1 ? (p - 1) * (F + I - W) : (p - 1) * (F + I - 2 * W);
            bubbleSeconds[k] = idle;
            const double share = idle / (m * (F + B) + idle);
            QVERIFY2(test::near(s.question->answer, share, 1e-9),
                qPrintable(test::num(s.question->answer) + QStringLiteral(" vs ") + test::num(share)));
            if (k == 0) QVERIFY(test::near(s.question->answer, 3.0 / 19.0, 1e-12)); // (p-1)/(m+p-1)
            // The worked solution quotes the model's numbers: nothing is left unfilled.
            QVERIFY(s.question->solution.en.find('{') == std::string::npos);
            QVERIFY(s.question->solution.zh_CN.find('{') == std::string::npos);
        }
        // What the ZB-H1 solution says: more than the third it would be with F = I = W (W is shorter here), less than half.
        QVERIFY(bubbleSeconds[1] > bubbleSeconds[0] / 3 && bubbleSeconds[1] < bubbleSeconds[0] / 2);
        QVERIFY(bubbleSeconds[2] > 0 && bubbleSeconds[2] < bubbleSeconds[1]);
        QVERIFY(l->steps[1].question->solution.en.find(units::formatSeconds(bubbleSeconds[1])) != std::string::npos);
    }

    void fillNumbersFromADocument()
    {
        const json doc = { { "time", { { "stepSeconds", 1.5 }, { "microbatches", 8 } } }, { "name", "1F1B" },
            { "memory", { { "weightsBytes", 3.0 * 1024 * 1024 * 1024 } } } };
        QCOMPARE(fillNumbers("{time.stepSeconds}, m = {time.microbatches}, {name}, {memory.weightsBytes}, {missing}", doc),
            std::string("1.500 s, m = 8, 1F1B, 3.00 GiB, {missing}"));
        QCOMPARE(fillNumbers("no braces {", doc), std::string("no braces {"));
    }

    // GPT-3 175B: Megatron's model FLOPs per token 72 L h^2 (1 + s/(6h) + V/(12 h L)) (tied embeddings, f = 4h), and the
    // days for the tokens from the predicted tokens per second.
    void plan175b()
    {
        const auto ls = builtinLessons();
        const Lesson* l = find(ls.value(), "plan-175b");
        QVERIFY(l);
        const Plan p = test::planFromText(l->steps[0].plan.dump());
        const double L = p.model.layers, h = double(p.model.hidden), seq = double(p.model.seqLength), V = double(p.model.vocab);
        QVERIFY(test::near(l->steps[0].question->answer, 72 * L * h * h * (1 + seq / (6 * h) + V / (12 * h * L)), 1e-12));
        const Prediction pr = evaluate(test::planFromText(l->steps[1].plan.dump()));
        QVERIFY(test::near(l->steps[1].question->answer, p.training.tokens / pr.tokensPerSecond / 86400.0, 1e-12));
        QVERIFY(l->steps[1].question->answer > 14); // the claim is not possible with this plan
    }

    void bothLanguages()
    {
        const auto ls = builtinLessons();
        for (const Lesson& l : ls.value()) {
            QVERIFY(!l.title.en.empty() && hasCjk(l.title.zh_CN));
            for (const LessonStep& s : l.steps) {
                QVERIFY(!s.text.en.empty() && hasCjk(s.text.zh_CN));
                QVERIFY(!s.view.empty());
                if (!s.question) continue;
                QVERIFY(!s.question->text.en.empty() && hasCjk(s.question->text.zh_CN));
                QVERIFY(!s.question->solution.en.empty() && !s.question->solution.zh_CN.empty());
            }
        }
        const json j = lessonsToJson(ls.value());
        QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/lessons/v1"));
        QVERIFY(j["lessons"][0]["steps"][0]["question"].contains("answer"));
        QVERIFY(j["lessons"][0]["title"].contains("zh_CN"));
    }

    void paths()
    {
        const json doc = { { "a", { { "b", json::array({ 1.5, 2.5 }) } } },
            { "g", json::array({ { { "kind", "tp" }, { "x", 3 } }, { { "kind", "dp" }, { "x", 7 } } }) } };
        QCOMPARE(*valueAtPath(doc, "a.b.1"), 2.5);
        QCOMPARE(*valueAtPath(doc, "g[kind=dp].x"), 7.0);
        QVERIFY(!valueAtPath(doc, "g[kind=pp].x"));
        QVERIFY(!valueAtPath(doc, "a.b.9"));
        QVERIFY(!valueAtPath(doc, "a"));
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
