// Every explanation is honest: its formula is arithmetic over its own inputs (cost/Formula.h) and evaluates
// to the value it explains. Checked for every field of every sample plan, analytic and after the schedule
// simulation, and for variants of the samples that reach the other branches of the cost model (schedules,
// ZeRO stages, recompute, context and expert parallelism, groups across nodes). The evaluator itself is
// checked on hand-written expressions.
#include "TestUtil.h"

#include "cost/Formula.h"
#include "sim/Timeline.h"

#include <QDir>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

json sampleJson(const std::string& name)
{
    auto text = readTextFile(test::samplePath(name.c_str()));
    if (!text) return json();
    return json::parse(text.value());
}

// Checks every entry; returns the number checked, and fails the test with the first dishonest one.
int checkAll(const Explainer& ex, const QString& what)
{
    int checked = 0;
    for (const auto& [field, e] : ex.entries()) {
        const QString where = what + " " + QString::fromStdString(field) + ": \"" + QString::fromStdString(e.formula) + "\"";
        if (e.formula.empty()) {
            QTest::qFail(qPrintable(where + " has no formula"), __FILE__, __LINE__);
            return -1;
        }
        // Every name the formula uses is among its inputs.
        for (const std::string& name : formulaNames(e.formula)) {
            bool found = false;
            for (const auto& in : e.inputs) found = found || in.first == name;
            if (!found) {
                QTest::qFail(qPrintable(where + " uses \"" + QString::fromStdString(name) + "\", not an input"),
                    __FILE__, __LINE__);
                return -1;
            }
        }
        const Result<double> r = evaluateFormula(e.formula, e.inputs);
        if (!r) {
            QTest::qFail(qPrintable(where + ": " + QString::fromStdString(r.errors().front().message)), __FILE__, __LINE__);
            return -1;
        }
        const double tolerance = std::max(1e-9 * std::abs(e.value), 1e-15);
        if (!(std::abs(r.value() - e.value) <= tolerance)) {
            QTest::qFail(qPrintable(where + " gives " + QString::number(r.value(), 'g', 17) + ", the value is "
                             + QString::number(e.value, 'g', 17) + " (substituted: "
                             + QString::fromStdString(substitute(e)) + ")"),
                __FILE__, __LINE__);
            return -1;
        }
        ++checked;
    }
    return checked;
}

void checkPlan(const Plan& plan, const QString& what)
{
    Explainer ex;
    Prediction pred = evaluate(plan, &ex);
    QVERIFY2(pred.valid, qPrintable(what + ": not valid"));
    // Each headline number has its explanation.
    for (const char* field : { "params.total", "memory.peakBytes", "memory.capacityBytes", "flops.modelPerStep",
             "flops.hardwarePerStep", "time.stepSeconds", "time.bubbleSeconds", "time.bubbleFraction", "time.mfu",
             "time.tokensPerSecond", "time.trainingDays", "time.optimizerSeconds", "time.exposedCommSeconds" })
        QVERIFY2(ex.find(field), qPrintable(what + ": " + field + " not explained"));
    for (std::size_t i = 0; i < pred.comm.size(); ++i)
        for (const char* f : { "bytesPerStep", "seconds", "exposedSeconds" })
            QVERIFY2(ex.find("comm.groups." + std::to_string(i) + "." + f), qPrintable(what + ": comm group " + f));
    QVERIFY(ex.find("time.stepSeconds")->value == pred.stepSeconds);
    const int analytic = checkAll(ex, what + " (analytic)");
    QVERIFY(analytic > 20);

    auto tl = simulate(plan, pred);
    QVERIFY2(tl.ok(), qPrintable(what + ": simulation failed"));
    applySimulation(pred, plan, tl.value(), &ex);
    QVERIFY(ex.find("time.stepSeconds")->value == pred.stepSeconds);
    QVERIFY(ex.find("time.bubbleSeconds")->value == pred.bubbleSeconds);
    QVERIFY(ex.find("time.mfu")->value == pred.mfu);
    // The bubble stays the schedule's (its formula's value); the idle of every cause is the simulation's.
    const Prediction closed = evaluate(plan);
    QCOMPARE(pred.bubbleFraction, closed.bubbleFraction);
    QCOMPARE(pred.bubbleSeconds, closed.bubbleSeconds);
    QVERIFY(ex.find("time.idleFraction")->value == pred.idleFraction);
    QCOMPARE(pred.idleFraction, tl->bubbleFraction);
    QVERIFY(ex.find("time.imbalanceIdleFraction")->value == pred.idleFraction - pred.bubbleFraction);
    const Explanation* analyticStep = ex.find("time.analyticStepSeconds");
    QVERIFY(analyticStep);
    QVERIFY(std::find(analyticStep->children.begin(), analyticStep->children.end(), "time.bubbleSeconds")
        != analyticStep->children.end());
    QVERIFY(checkAll(ex, what + " (simulated)") >= analytic);
}

} // namespace

class TestExplainFormulas : public QObject {
    Q_OBJECT
private slots:
    void evaluator_data()
    {
        QTest::addColumn<QString>("formula");
        QTest::addColumn<double>("expected");
        // a = 2, b = 3, pp = 4, x_1 = 0.5
        QTest::newRow("precedence") << "a + b*pp" << 14.0;
        QTest::newRow("parentheses") << "(a + b)*pp" << 20.0;
        QTest::newRow("left to right") << "pp/a/a" << 1.0;
        QTest::newRow("subtraction") << "pp - a - b" << -1.0;
        QTest::newRow("power right-assoc") << "a^b^a" << 512.0;
        QTest::newRow("unary minus binds below power") << "-a^2" << -4.0;
        QTest::newRow("negative exponent") << "a^-1" << 0.5;
        QTest::newRow("numbers") << "1.5e3 + .5 + 2E-1" << 1500.7;
        QTest::newRow("min max") << "max(a, b, pp) - min(b, a)" << 2.0;
        QTest::newRow("ceil floor") << "ceil(b/a) + floor(b/a) + floor(-x_1)" << 2.0;
        QTest::newRow("log2") << "log2(pp*a)" << 3.0;
        QTest::newRow("pipeline bubble") << "(pp-1)/(b*pp + pp - 1)" << 3.0 / 15.0;
        QTest::newRow("names are whole words") << "a*pp + x_1" << 8.5;
    }
    void evaluator()
    {
        QFETCH(QString, formula);
        QFETCH(double, expected);
        const FormulaInputs in { { "a", 2 }, { "b", 3 }, { "pp", 4 }, { "x_1", 0.5 } };
        const Result<double> r = evaluateFormula(formula.toStdString(), in);
        QVERIFY2(r.ok(), r.ok() ? "" : r.errors().front().message.c_str());
        QVERIFY2(std::abs(r.value() - expected) < 1e-12, qPrintable(QString::number(r.value(), 'g', 17)));
    }

    void evaluatorErrors_data()
    {
        QTest::addColumn<QString>("formula");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown name") << "a + c" << "\"c\" is not among the inputs";
        QTest::newRow("prose") << "sum of alpha" << "\"sum\" is not among the inputs";
        QTest::newRow("unknown function") << "sqrt(a)" << "unknown function \"sqrt\"";
        QTest::newRow("open parenthesis") << "(a + 1" << "missing ')'";
        QTest::newRow("dangling operator") << "a *" << "unexpected end of formula";
        QTest::newRow("conditional") << "(a ? 1 : 0)" << "missing ')'";
        QTest::newRow("max of one") << "max(a)" << "max takes two or more arguments";
        QTest::newRow("empty") << "" << "unexpected end of formula";
    }
    void evaluatorErrors()
    {
        QFETCH(QString, formula);
        QFETCH(QString, message);
        const Result<double> r = evaluateFormula(formula.toStdString(), { { "a", 2 } });
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.errors().front().message).contains(message),
            r.errors().front().message.c_str());
    }

    void names()
    {
        QCOMPARE(formulaNames("max(p, q) + 2*p/log2(n_1)"), (std::vector<std::string> { "p", "q", "n_1" }));
        QVERIFY(formulaNames("p +").empty());
    }

    void substituteStillFillsIn()
    {
        Explanation e;
        e.formula = "(p-1)/(m+p-1)";
        e.inputs = { { "p", 8 }, { "m", 32 } };
        QCOMPARE(substitute(e), std::string("(8-1)/(32+8-1)"));
    }

    // Every sample plan in samples/plans.
    void everySample()
    {
        const QStringList files = QDir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans"))
                                      .entryList({ QStringLiteral("*.plan.json") }, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 8);
        for (const QString& f : files) {
            checkPlan(test::loadSample(f.toUtf8().constData()), f);
            if (QTest::currentTestFailed()) return;
        }
    }

    // The branches the samples do not reach: other schedules, ZeRO stages, recompute settings, context and
    // expert parallelism, tensor and data parallel groups across nodes (hierarchical collectives).
    void variants_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("patch");
        const QString dflt = QStringLiteral("default.plan.json");
        const QString moe = QStringLiteral("interview-10b-8xa100.plan.json");
        QTest::newRow("gpipe") << dflt << R"({"training":{"schedule":"gpipe"}})";
        QTest::newRow("interleaved") << dflt << R"({"parallel":{"vpp":2},"training":{"schedule":"interleaved-1f1b"}})";
        QTest::newRow("looped-bfs") << dflt << R"({"parallel":{"vpp":2},"training":{"schedule":"looped-bfs"}})";
        QTest::newRow("zb-h1") << dflt << R"({"training":{"schedule":"zb-h1"}})";
        QTest::newRow("zb-h2") << dflt << R"({"training":{"schedule":"zb-h2"}})";
        QTest::newRow("zb-v") << dflt << R"({"training":{"schedule":"zb-v"}})";
        QTest::newRow("dualpipe") << dflt << R"({"training":{"schedule":"dualpipe"}})";
        QTest::newRow("dualpipe-v") << dflt << R"({"training":{"schedule":"dualpipe-v"}})";
        QTest::newRow("zero0 no overlap") << dflt << R"({"parallel":{"zero":0},"training":{"overlapGradReduce":false}})";
        QTest::newRow("zero1 no overlap") << dflt << R"({"training":{"overlapGradReduce":false}})";
        QTest::newRow("zero2") << dflt << R"({"parallel":{"zero":2}})";
        QTest::newRow("zero3") << dflt << R"({"parallel":{"zero":3}})";
        QTest::newRow("fsdp hybrid") << dflt << R"({"parallel":{"fsdp":"hybrid"}})";
        QTest::newRow("no recompute, no flash") << dflt << R"({"training":{"recompute":"none","flashAttention":false}})";
        QTest::newRow("selective, no flash") << dflt << R"({"training":{"flashAttention":false}})";
        QTest::newRow("full recompute, no sp") << dflt << R"({"parallel":{"sp":false},"training":{"recompute":"full"}})";
        QTest::newRow("context parallel") << dflt << R"({"parallel":{"dp":1,"cp":2}})";
        QTest::newRow("tp across nodes") << dflt << R"({"parallel":{"dp":1,"tp":16,"pp":1}})";
        QTest::newRow("dp across nodes, zero0") << dflt << R"({"parallel":{"dp":16,"tp":1,"pp":1,"zero":0}})";
        QTest::newRow("fp32 sgd") << dflt << R"({"training":{"precision":"fp32","optimizer":"sgd"}})";
        QTest::newRow("moe ep4") << moe
                                 << R"({"model":{"moe":{"experts":8,"topK":2,"expertFfnHidden":5120}},"parallel":{"ep":4}})";
        QTest::newRow("moe ep16 across nodes")
            << moe
            << R"({"model":{"moe":{"experts":16,"topK":2,"expertFfnHidden":5120}},"cluster":{"nodes":2},"parallel":{"dp":16,"ep":16}})";
        QTest::newRow("moe zero1 edp") << moe
                                       << R"({"model":{"moe":{"experts":8,"topK":2,"expertFfnHidden":5120}},"parallel":{"ep":2,"zero":1}})";
    }
    void variants()
    {
        QFETCH(QString, sample);
        QFETCH(QString, patch);
        json j = sampleJson(sample.toStdString());
        QVERIFY(!j.is_null());
        j.merge_patch(json::parse(patch.toStdString()));
        checkPlan(test::planFromText(j.dump()), QString::fromUtf8(QTest::currentDataTag()));
    }
};

QTEST_APPLESS_MAIN(TestExplainFormulas)
#include "tst_explain_formulas.moc"
