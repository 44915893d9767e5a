// Pipeline bubbles (docs/MODEL.md section 8, docs/SCHEDULES.md section 1.6 and section 3) against the papers' formulas, for plans whose
// stages are equal (vocab 8 and rotary positions, so the first and last stage carry no measurable extra work;
// free point-to-point links, so nothing but the schedule shapes the step):
// - GPipe (Huang et al.) and 1F1B/PipeDream-Flush: idle/makespan (p-1)/(m+p-1); idle/ideal compute (p-1)/m
//   (Narayanan et al. SC21 section 2.2.1, "bubble time fraction");
// - interleaved 1F1B with v chunks per rank: (p-1)/(m*v+p-1) and (p-1)/(v*m) (Narayanan et al. section 2.2.2);
// - ZB-H1 / ZB-H2 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR'24, section 3): per-rank idle
//   (p-1)(T_F + T_B - T_W) and (p-1)(T_F + T_B - 2T_W) in the paper's notation (T_B = input-gradient only).
// Expected values are written out here, not read from core/cost/*.cpp.
#include "TestUtil.h"

#include <QObject>
#include <nlohmann/json.hpp>

using namespace planscope;
using planscope::test::near;
using nlohmann::json;

namespace {

Plan equalStagesPlan(int layers, int pp, std::int64_t m, const std::string& schedule, int vpp = 1)
{
    const json model { { "name", "equal-stages" }, { "layers", layers }, { "hidden", 2048 }, { "heads", 16 },
        { "kvHeads", 16 }, { "ffnHidden", 8192 }, { "vocab", 8 }, { "seqLength", 2048 }, { "gatedMlp", false },
        { "tiedEmbeddings", true }, { "positionEmbedding", "rope" }, { "norm", "layernorm" }, { "bias", true },
        { "dropout", true } };
    const int perNode = std::min(pp, 8);
    // Free links and a full-iteration CUDA graph (no per-op host cost): the schedule alone sets the step.
    const json free { { "bandwidth", 1e18 }, { "latency", 0.0 } };
    json j { { "schema", "planscope/plan/v1" }, { "name", "pipeline" }, { "model", model },
        { "cluster",
            { { "gpu", "a100-sxm4-80gb" }, { "nodes", pp / perNode }, { "gpusPerNode", perNode }, { "intraNode", free },
                { "interNode", free } } },
        { "parallel", { { "dp", 1 }, { "tp", 1 }, { "pp", pp }, { "vpp", vpp }, { "zero", 0 } } },
        { "training",
            { { "microBatch", 1 }, { "globalBatch", m }, { "precision", "bf16" }, { "recompute", "none" },
                { "schedule", schedule }, { "tokens", 1e9 }, { "host", { { "cudaGraphs", "full-iteration" } } } } } };
    return planscope::test::planFromText(j.dump());
}

QString num(double v) { return QString::number(v, 'g', 10); }

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT
private slots:
    void flushSchedules_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<qint64>("m");
        for (const char* kind : { "gpipe", "1f1b" })
            for (auto [p, m] : { std::pair { 2, qint64(4) }, { 4, qint64(4) }, { 4, qint64(8) }, { 4, qint64(16) },
                     { 8, qint64(8) }, { 8, qint64(32) }, { 16, qint64(64) } })
                QTest::newRow(qPrintable(QStringLiteral("%1 p%2 m%3").arg(kind).arg(p).arg(m))) << kind << p << m;
    }
    void flushSchedules()
    {
        QFETCH(QString, schedule);
        QFETCH(int, p);
        QFETCH(qint64, m);
        const Plan plan = equalStagesPlan(32, p, m, schedule.toStdString());
        QCOMPARE(plan.microbatches(), m);
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        QCOMPARE(pr.microbatches, m);
        const double fraction = double(p - 1) / double(m + p - 1);
        const double overhead = double(p - 1) / double(m);
        QVERIFY2(near(pr.bubbleFraction, fraction, 1e-3), qPrintable(num(pr.bubbleFraction) + " expected " + num(fraction)));
        QVERIFY2(near(pr.bubbleOverhead, overhead, 1e-3), qPrintable(num(pr.bubbleOverhead) + " expected " + num(overhead)));
        // The two definitions are the same idle time over different denominators: overhead = f / (1 - f).
        QVERIFY(near(pr.bubbleOverhead, pr.bubbleFraction / (1 - pr.bubbleFraction), 1e-6));
        // In seconds: idle = (p-1)(F+B), ideal compute = m(F+B) for the (equal) stages; the last stage also runs the
        // output layer (a few small kernels), so F+B is the slowest stage's.
        const StageTime& st = pr.stageTimes.back();
        const double fb = st.forwardSeconds + st.backwardSeconds;
        QVERIFY2(near(pr.computeSeconds, double(m) * fb, 1e-3), qPrintable(num(pr.computeSeconds / fb)));
        QVERIFY2(near(pr.bubbleSeconds, double(p - 1) * fb, 1e-3), qPrintable(num(pr.bubbleSeconds / fb)));
    }

    void interleaved_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<int>("v");
        for (auto [p, m, v] : { std::tuple { 4, qint64(8), 2 }, { 4, qint64(16), 4 }, { 4, qint64(4), 2 },
                 { 8, qint64(16), 2 }, { 8, qint64(32), 4 }, { 2, qint64(8), 2 } })
            QTest::newRow(qPrintable(QStringLiteral("p%1 m%2 v%3").arg(p).arg(m).arg(v))) << p << m << v;
    }
    void interleaved()
    {
        QFETCH(int, p);
        QFETCH(qint64, m);
        QFETCH(int, v);
        const Plan plan = equalStagesPlan(32, p, m, "interleaved-1f1b", v);
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const double fraction = double(p - 1) / double(m * v + p - 1);
        const double overhead = double(p - 1) / double(v * m);
        QVERIFY2(near(pr.bubbleFraction, fraction, 1e-3), qPrintable(num(pr.bubbleFraction) + " expected " + num(fraction)));
        QVERIFY2(near(pr.bubbleOverhead, overhead, 1e-3), qPrintable(num(pr.bubbleOverhead) + " expected " + num(overhead)));
        // Interleaving cuts 1F1B's bubble by v on the same plan.
        const Prediction plain = evaluate(equalStagesPlan(32, p, m, "1f1b"));
        QVERIFY(near(plain.bubbleOverhead / pr.bubbleOverhead, double(v), 1e-3));
    }

    // Zero Bubble (Qi et al. section 3): the idle per rank is (p-1)(T_F + T_I - T_W) for ZB-H1 and
    // (p-1)(T_F + T_I - 2T_W) for ZB-H2 (not below 0), with T_I the input-gradient and T_W the weight-gradient time;
    // the busy time is m(T_F + T_I + T_W). The times are the prediction's own per-stage ones.
    void zeroBubble_data()
    {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<qint64>("m");
        for (const char* kind : { "zb-h1", "zb-h2" })
            for (auto [p, m] : { std::pair { 4, qint64(8) }, { 4, qint64(16) }, { 8, qint64(32) } })
                QTest::newRow(qPrintable(QStringLiteral("%1 p%2 m%3").arg(kind).arg(p).arg(m))) << kind << p << m;
    }
    void zeroBubble()
    {
        QFETCH(QString, schedule);
        QFETCH(int, p);
        QFETCH(qint64, m);
        const Plan plan = equalStagesPlan(32, p, m, schedule.toStdString());
        const Prediction pr = evaluate(plan);
        QVERIFY2(pr.valid, pr.errors.empty() ? "" : pr.errors.front().message.c_str());
        const StageTime& st = pr.stageTimes.front();
        const double F = st.forwardSeconds, W = st.weightGradSeconds, I = st.backwardSeconds - W;
        QVERIFY(W > 0 && I > 0);
        const double perRankIdle = schedule == QLatin1String("zb-h1") ? (p - 1) * (F + I - W) : std::max(0.0, (p - 1) * (F + I - 2 * W));
        const double busy = double(m) * (F + I + W);
        const double overhead = perRankIdle / busy;
        const double fraction = perRankIdle / (busy + perRankIdle);
        qInfo("F %.4g I %.4g W %.4g: overhead %.5f (expected %.5f), 1F1B would be %.5f", F, I, W, pr.bubbleOverhead,
            overhead, double(p - 1) / m);
        QVERIFY2(near(pr.bubbleOverhead, overhead, 1e-2) || std::abs(pr.bubbleOverhead - overhead) < 1e-4,
            qPrintable(num(pr.bubbleOverhead) + " expected " + num(overhead)));
        QVERIFY2(near(pr.bubbleFraction, fraction, 1e-2) || std::abs(pr.bubbleFraction - fraction) < 1e-4,
            qPrintable(num(pr.bubbleFraction) + " expected " + num(fraction)));
        // Both beat 1F1B.
        QVERIFY(pr.bubbleOverhead < double(p - 1) / m);
    }

    // Unequal stages: the default plan of a real model puts the embedding on the first and the output layer
    // and loss on the last stage (docs/MODEL.md section 2), so the slowest stage sets the pace and the bubble grows beyond
    // the equal-stage formula only through that imbalance: check the formula still bounds from below.
    void realVocabIsNotFaster()
    {
        const Plan equal = equalStagesPlan(32, 4, 8, "1f1b");
        Plan heavy = equal;
        heavy.model.vocab = 51200;
        const Prediction a = evaluate(equal), b = evaluate(heavy);
        QVERIFY(a.valid && b.valid);
        QVERIFY(b.stepSeconds > a.stepSeconds);
        QVERIFY(b.bubbleFraction >= 3.0 / 11.0 * (1 - 1e-3));
    }
};

QTEST_APPLESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
