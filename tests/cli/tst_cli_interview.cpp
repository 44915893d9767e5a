// planscope-cli lessons --interview TOPIC (docs/FORMATS.md section 10, schema planscope/interview/v1): the printed
// answer is what `planscope-cli evaluate --analytic` gives at the question's field for the printed plan, the same seed
// prints the same question, the text form puts the answer after a line "Answer:", and bad arguments are refused.
#include "CliRunner.h"
#include "TestUtil.h"

#include "lessons/Lessons.h"

#include <QObject>
#include <QStringList>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

class TestCliInterview : public QObject {
    Q_OBJECT
private slots:
    void answerIsTheModelsFigureForThePrintedPlan()
    {
        QTemporaryDir dir;
        const char* topics[] = { "pipeline-bubble", "zero-memory", "ring-allreduce", "data-parallel", "tensor-parallel" };
        for (const char* topic : topics) {
            const test::CliRun r = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview"),
                QString::fromLatin1(topic), QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--json") });
            QVERIFY2(r.code == 0, r.err.c_str());
            const json j = json::parse(r.out);
            QCOMPARE(j["schema"].get<std::string>(), std::string("planscope/interview/v1"));
            QCOMPARE(j["topic"].get<std::string>(), std::string(topic));
            QCOMPARE(j["seed"].get<int>(), 11);
            const json& q = j["question"];
            for (const char* key : { "text", "answer", "unit", "tolerance", "field", "solution" }) QVERIFY2(q.contains(key), key);
            QVERIFY(!q["text"]["en"].get<std::string>().empty() && !q["text"]["zh_CN"].get<std::string>().empty());

            const QString plan = dir.filePath(QString::fromLatin1(topic) + QStringLiteral(".plan.json"));
            std::ofstream(plan.toStdString()) << j["plan"].dump(2);
            const test::CliRun e = test::runCli({ QStringLiteral("evaluate"), plan, QStringLiteral("--analytic") });
            QVERIFY2(e.code == 0, e.err.c_str());
            const auto v = valueAtPath(json::parse(e.out), q["field"].get<std::string>());
            QVERIFY(v);
            QCOMPARE(q["answer"].get<double>(), *v);

            // The same seed, the same question.
            const test::CliRun again = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview"),
                QString::fromLatin1(topic), QStringLiteral("--seed=11"), QStringLiteral("--json") });
            QCOMPARE(again.out, r.out);
        }
    }

    // One plan, one answer: `planscope-cli lessons --json` analyses every lesson step's plan in one process; each
    // step's answer is what `evaluate` gives that plan alone, in another process (simulated or --analytic as the
    // question says).
    void everyLessonAnswerIsItsPlanAlone()
    {
        QTemporaryDir dir;
        const test::CliRun r = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--json") });
        QVERIFY2(r.code == 0, r.err.c_str());
        const json j = json::parse(r.out);
        int checked = 0;
        for (const json& lesson : j["lessons"])
            for (const json& step : lesson["steps"]) {
                if (!step.contains("question") || !step["question"].is_object()) continue;
                const json& q = step["question"];
                const QString plan = dir.filePath(QStringLiteral("step-%1.plan.json").arg(checked));
                std::ofstream(plan.toStdString()) << step["plan"].dump(2);
                QStringList args { QStringLiteral("evaluate"), plan };
                if (q["figure"] == "analytic") args << QStringLiteral("--analytic");
                const test::CliRun e = test::runCli(args);
                QVERIFY2(e.code == 0, e.err.c_str());
                const auto v = valueAtPath(json::parse(e.out), q["field"].get<std::string>());
                QVERIFY2(v, q["field"].get<std::string>().c_str());
                QVERIFY2(q["answer"].get<double>() == *v,
                    (lesson["id"].get<std::string>() + " " + q["field"].get<std::string>()).c_str());
                ++checked;
            }
        QVERIFY(checked >= 5);
        qInfo("%d lesson answers, each equal to evaluate of its plan alone", checked);
    }

    void textFormAndChinese()
    {
        const test::CliRun en = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview"),
            QStringLiteral("data-parallel"), QStringLiteral("--seed"), QStringLiteral("3") });
        QCOMPARE(en.code, 0);
        const std::size_t answer = en.out.find("\nAnswer: ");
        QVERIFY(answer != std::string::npos);
        QVERIFY(en.out.find("microbatches") < answer); // the question before the answer
        const std::size_t solution = en.out.find("m = B / (b x N_d)");
        QVERIFY(solution != std::string::npos && solution > answer); // the solution after it
        const test::CliRun zh = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview"),
            QStringLiteral("data-parallel"), QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--lang"), QStringLiteral("zh_CN") });
        QCOMPARE(zh.code, 0);
        QVERIFY(zh.out.find("全局批次") < zh.out.find("\nAnswer: "));
    }

    void badArguments()
    {
        const test::CliRun unknown = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview"), QStringLiteral("nope") });
        QCOMPARE(unknown.code, 1);
        QVERIFY(unknown.err.find("ring-allreduce") != std::string::npos); // the valid topics
        const test::CliRun noTopic = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview") });
        QCOMPARE(noTopic.code, 1);
        QVERIFY(noTopic.err.find("tensor-parallel") != std::string::npos);
        const test::CliRun badSeed = test::runCli({ QStringLiteral("lessons"), QStringLiteral("--interview"),
            QStringLiteral("zero-memory"), QStringLiteral("--seed"), QStringLiteral("-4") });
        QCOMPARE(badSeed.code, 1);
        QVERIFY(badSeed.err.find("--seed") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCliInterview)
#include "tst_cli_interview.moc"
