// GPipe, 1F1B, interleaved 1F1B and Looped BFS generators (docs/SCHEDULES.md sections 2.1-2.4, 2.11, section 3).
// Expected op orders are written out by hand from the frameworks' rules:
// - torch.distributed.pipelining schedules.py: ScheduleGPipe, Schedule1F1B, ScheduleInterleaved1F1B
//   (_get_warmup_ops, _get_1f1b_rank_ops, flexible rounds), ScheduleLoopedBFS;
// - Megatron-LM pipeline_parallel/schedules.py: forward_backward_pipelining_without_interleaving,
//   get_schedule_table, get_pp_rank_microbatches and the microbatch_group_size_per_vp_stage docstring
//   examples (model_parallel_config.py), plus the pre-Nov-2024 chunk rule (k mod p*v) div p.
// Warm-up counts used for the memory bounds are re-derived here from those rules, not read from the
// generators.
#include "TestUtil.h"

#include "schedule/Generators.h"
#include "spec/ScheduleTraits.h"
#include "sim/ScheduleRun.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <sstream>

using namespace planscope;
using planscope::test::near;
using planscope::test::num;

namespace {

Result<Schedule> generate(
    ScheduleKind kind, int p, int m, int v = 1, const std::string& variant = {}, int g = 0)
{
    ScheduleRequest r;
    r.kind = kind;
    r.ranks = p;
    r.microbatches = m;
    r.chunks = v;
    r.variant = variant;
    r.groupSize = g;
    return generateSchedule(r);
}

QStringList texts(const std::vector<Op>& ops)
{
    QStringList out;
    for (const Op& op : ops)
        out << QString::fromStdString(opText(op));
    return out;
}

QStringList words(const char* text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// The microbatches of a rank's forwards, in order (the Megatron docstring's notation).
QList<int> forwardMicrobatches(const std::vector<Op>& ops)
{
    QList<int> out;
    for (const Op& op : ops)
        if (op.kind == OpKind::F) out << op.microbatch;
    return out;
}

// QVERIFY2 builds its message before testing the condition, so this must work on empty lists.
QString firstIssue(const Issues& issues)
{
    return issues.empty() ? QString()
                          : QString::fromStdString(issues.front().path + ": " + issues.front().message);
}

QString shape(int p, int m, int v)
{
    return QStringLiteral("p=%1 m=%2 v=%3").arg(p).arg(m).arg(v);
}

// Whether the framework accepts the shape, from its stated rules.
bool accepts(ScheduleKind kind, const std::string& variant, int p, int m, int g)
{
    switch (kind) {
    case ScheduleKind::OneFOneB:
        return variant != "torch" || m >= p;
    case ScheduleKind::Interleaved1F1B:
        if (variant == "torch") return m % std::max(1, m / p) == 0;
        if (p < 2) return false;
        if (variant == "megatron-legacy") return m % p == 0;
        return g >= p && g <= m && (m % g == 0 || m % g >= p);
    default:
        return true;
    }
}

// Warm-up forwards of rank r for interleaved 1F1B (T = m*v virtual microbatches).
int interleavedWarmup(const std::string& variant, int p, int m, int v, int g, int r)
{
    const int total = m * v;
    if (variant == "torch") {
        const int perRound = m / std::max(1, m / p);
        return std::min(total, (v - 1) * perRound + 2 * (p - 1 - r));
    }
    if (variant == "megatron-legacy") return m == p ? total : std::min(total, 2 * (p - r - 1) + (v - 1) * p);
    return std::min(total, 2 * (p - r - 1) + (v - 1) * g);
}

// Peak in-flight chunk-microbatches on rank r per the schedule's documented bound (docs/SCHEDULES.md sections 2.1-2.4).
int peakBoundChunks(ScheduleKind kind, const std::string& variant, int p, int m, int v, int g, int r)
{
    switch (kind) {
    case ScheduleKind::GPipe:
        return m;
    case ScheduleKind::OneFOneB:
        return std::min(p - r, m);
    case ScheduleKind::LoopedBFS:
        return m * v;
    case ScheduleKind::Interleaved1F1B:
        return std::min(interleavedWarmup(variant, p, m, v, g, r) + 1, m * v);
    default:
        return 0;
    }
}

const char* kindName(ScheduleKind k)
{
    switch (k) {
    case ScheduleKind::GPipe:
        return "gpipe";
    case ScheduleKind::OneFOneB:
        return "1f1b";
    case ScheduleKind::Interleaved1F1B:
        return "interleaved";
    case ScheduleKind::LoopedBFS:
        return "bfs";
    default:
        return "other";
    }
}

} // namespace

Q_DECLARE_METATYPE(planscope::ScheduleKind)

class TestSchedulesFlush : public QObject {
    Q_OBJECT
private slots:
    // Invariants of docs/SCHEDULES.md section 1.8 over many shapes; rejected shapes are exactly the frameworks'
    // rejections.
    // The schedule table (core/spec/ScheduleTraits.cpp) against what each generator lays out: every kind once, its name
    // read back, the stages a rank holds, whether the backward is split into I and W, the V and the two directions.
    void traitsMatchTheGenerators()
    {
        std::vector<ScheduleKind> seen;
        for (const ScheduleTraits& t : scheduleTraits()) {
            QVERIFY(std::find(seen.begin(), seen.end(), t.kind) == seen.end());
            seen.push_back(t.kind);
            ScheduleKind parsed {};
            QVERIFY(fromString(t.name, parsed) && parsed == t.kind);
            QVERIFY(toString(t.kind) == t.name);

            ScheduleRequest r;
            r.kind = t.kind;
            r.ranks = 4;
            r.chunks = t.stagesPerRank(2);
            r.microbatches = 16;
            const auto s = generateSchedule(r);
            QVERIFY2(s.ok(), t.name.data());
            QCOMPARE(s->stages / s->ranks, t.stagesPerRank(2));
            QCOMPARE(s->pipelines, t.bidirectional ? 2 : 1);
            QCOMPARE(s->placement == Placement::VShape, t.vShaped);
            bool split = false;
            for (const auto& ops : s->rankOps)
                for (const Op& op : ops) split |= op.kind == OpKind::I || op.kind == OpKind::W;
            QCOMPARE(split, t.splitBackward);
            // scheduleOpCount() sizes by the same table: F and B, or F, I and W, per stage and microbatch (an overlapped
            // F&B pair is one op, so DualPipe's schedules hold fewer).
            std::size_t ops = 0;
            bool paired = false;
            for (const auto& rank : s->rankOps) {
                ops += rank.size();
                for (const Op& op : rank) paired |= op.kind == OpKind::OverlapFB;
            }
            QVERIFY(double(ops) <= scheduleOpCount(r));
            if (!paired) QCOMPARE(double(ops), scheduleOpCount(r));
        }
        QCOMPARE(int(seen.size()), int(ScheduleKind::DualPipeV) + 1);
        // The effective schedule: interleaved with one chunk runs as 1F1B.
        QVERIFY(effectiveSchedule(ScheduleKind::Interleaved1F1B, 1) == ScheduleKind::OneFOneB);
        QVERIFY(effectiveSchedule(ScheduleKind::Interleaved1F1B, 2) == ScheduleKind::Interleaved1F1B);
    }

    void properties_data()
    {
        QTest::addColumn<ScheduleKind>("kind");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("v");
        QTest::addColumn<int>("g"); // interleaved megatron group size; 0 = p
        for (const char* variant : { "", "torch" }) {
            QTest::newRow(qPrintable(QStringLiteral("gpipe %1").arg(variant)))
                << ScheduleKind::GPipe << variant << 1 << 0;
            QTest::newRow(qPrintable(QStringLiteral("1f1b %1").arg(variant)))
                << ScheduleKind::OneFOneB << variant << 1 << 0;
        }
        for (int v = 1; v <= 4; ++v) {
            QTest::newRow(qPrintable(QStringLiteral("bfs v%1").arg(v)))
                << ScheduleKind::LoopedBFS << "" << v << 0;
            for (const char* variant : { "megatron", "megatron-legacy", "torch" })
                QTest::newRow(qPrintable(QStringLiteral("interleaved %1 v%2").arg(variant).arg(v)))
                    << ScheduleKind::Interleaved1F1B << variant << v << 0;
            for (int g : { 5, 8 })
                QTest::newRow(qPrintable(QStringLiteral("interleaved megatron g%1 v%2").arg(g).arg(v)))
                    << ScheduleKind::Interleaved1F1B << "megatron" << v << g;
        }
    }
    void properties()
    {
        QFETCH(ScheduleKind, kind);
        QFETCH(QString, variant);
        QFETCH(int, v);
        QFETCH(int, g);
        const std::string var = variant.toStdString();
        const bool chunked = kind == ScheduleKind::Interleaved1F1B || kind == ScheduleKind::LoopedBFS;
        int accepted = 0;
        for (int p = 1; p <= 8; ++p)
            for (int m = 1; m <= 24; ++m) {
                const int group = g > 0 ? g : p;
                const auto res = generate(kind, p, m, v, var, g);
                const bool expected = accepts(kind, var, p, m, group);
                QVERIFY2(res.ok() == expected,
                    qPrintable(shape(p, m, v)
                        + (res.ok() ? QStringLiteral(" accepted")
                                    : " rejected: " + firstIssue(res.errors()))));
                if (!res.ok()) {
                    QVERIFY(!res.errors().front().message.empty());
                    continue;
                }
                ++accepted;
                const Schedule& s = res.value();
                const int chunks = chunked ? v : 1;
                QVERIFY(s.kind == kind);
                QVERIFY(!s.variant.empty());
                QCOMPARE(s.ranks, p);
                QCOMPARE(s.chunksPerRank, chunks);
                QCOMPARE(s.stages, p * chunks);
                QCOMPARE(s.microbatches, m);
                QVERIFY(s.placement == (chunked ? Placement::Loop : Placement::Linear));
                const Issues issues = checkSchedule(s);
                QVERIFY2(issues.empty(), qPrintable(shape(p, m, v) + " " + firstIssue(issues)));
                const auto run = runSchedule(s, unitDurations());
                QVERIFY2(run.ok(), qPrintable(shape(p, m, v) + " deadlock: " + firstIssue(run.errors())));
                double busyTotal = 0, idleTotal = 0;
                for (int r = 0; r < p; ++r) {
                    // F = 1, B = 2 per chunk, m*v of each on every rank.
                    QCOMPARE(run->busy[std::size_t(r)], double(m * chunks * (1 + 2)));
                    QVERIFY(near(run->idle[std::size_t(r)], run->makespan - run->busy[std::size_t(r)]));
                    QVERIFY(run->idle[std::size_t(r)] >= -1e-9);
                    busyTotal += run->busy[std::size_t(r)];
                    idleTotal += run->idle[std::size_t(r)];
                    const int bound = peakBoundChunks(kind, var, p, m, v, group, r);
                    // The bound is reached: every rank holds its warm-up plus the steady step's forward.
                    QVERIFY2(run->peakInFlightChunks[std::size_t(r)] == bound,
                        qPrintable(shape(p, m, v)
                            + QStringLiteral(" rank %1 peak %2 bound %3")
                                  .arg(r)
                                  .arg(run->peakInFlightChunks[std::size_t(r)])
                                  .arg(bound)));
                    QVERIFY(near(run->peakInFlight[std::size_t(r)], double(bound) / chunks));
                }
                QVERIFY(near(idleTotal, p * run->makespan - busyTotal));
            }
        QVERIFY(accepted > 0);
    }

    // Closed forms of docs/SCHEDULES.md section 3 under model U (F = B = 1) and H (F = 1, B = 2).
    void flushMakespan_data()
    {
        QTest::addColumn<ScheduleKind>("kind");
        QTest::addColumn<double>("b");
        for (double b : { 1.0, 2.0 }) {
            QTest::newRow(qPrintable(QStringLiteral("gpipe B=%1").arg(b))) << ScheduleKind::GPipe << b;
            QTest::newRow(qPrintable(QStringLiteral("1f1b B=%1").arg(b))) << ScheduleKind::OneFOneB << b;
        }
    }
    void flushMakespan()
    {
        QFETCH(ScheduleKind, kind);
        QFETCH(double, b);
        const double f = 1;
        for (int p = 1; p <= 8; ++p)
            for (int m = 1; m <= 24; ++m) {
                // docs/SCHEDULES.md states it for m >= p; Megatron's capped warm-up (m < p) keeps it as well.
                const auto s = generate(kind, p, m);
                QVERIFY(s.ok());
                const auto run = runSchedule(s.value(), unitDurations(f, b, 0));
                QVERIFY(run.ok());
                QVERIFY2(near(run->makespan, (m + p - 1) * (f + b)),
                    qPrintable(QStringLiteral("%1 p=%2 m=%3 makespan %4")
                                   .arg(kindName(kind))
                                   .arg(p)
                                   .arg(m)
                                   .arg(num(run->makespan))));
                for (int r = 0; r < p; ++r)
                    QVERIFY(near(run->idle[std::size_t(r)], (p - 1) * (f + b)));
                QVERIFY(near(run->bubbleFraction, double(p - 1) / double(m + p - 1)));
            }
    }

    // Blocking sends (Megatron-Core's overlap_p2p_comm off): a rank is free only when its send has completed. 1F1B,
    // p = 2, m = 2, F = 1, B = 2, a send takes c, by hand (rank 0: F0 F1 B0 B1; rank 1: F0 B0 F1 B1):
    //   async:    r0 F0 [0,1] F1 [1,2];  r1 F0 [1+c,2+c] B0 [2+c,4+c] F1 [4+c,5+c] B1 [5+c,7+c];
    //             r0 B0 [4+2c,6+2c] B1 [7+2c,9+2c]                                         -> makespan 9+2c
    //   blocking: r0 F0 [0,1] (free 1+c) F1 [1+c,2+c] (free 2+2c);  r1 F0 [1+c,2+c] B0 [2+c,4+c] (free 4+2c)
    //             F1 [4+2c,5+2c] B1 [5+2c,7+2c] (free 7+3c);  r0 B0 [4+2c,6+2c] B1 [7+3c,9+3c] -> makespan 9+3c
    void blockingSends()
    {
        const double c = 0.25;
        const auto s = generate(ScheduleKind::OneFOneB, 2, 2);
        QVERIFY(s.ok());
        const auto async = runSchedule(s.value(), unitDurations(1, 2, 0), c, false);
        const auto blocking = runSchedule(s.value(), unitDurations(1, 2, 0), c, true);
        QVERIFY(async.ok() && blocking.ok());
        QVERIFY(near(async->makespan, 9 + 2 * c));
        QVERIFY(near(blocking->makespan, 9 + 3 * c));
        auto starts = [](const ScheduleRun& run, int r) {
            std::vector<double> v;
            for (const TimedOp& t : run.ranks[std::size_t(r)]) v.push_back(t.start);
            return v;
        };
        const std::vector<double> r0 { 0, 1 + c, 4 + 2 * c, 7 + 3 * c }, r1 { 1 + c, 2 + c, 4 + 2 * c, 5 + 2 * c };
        const auto b0 = starts(blocking.value(), 0), b1 = starts(blocking.value(), 1);
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY2(near(b0[i], r0[i]), qPrintable(QStringLiteral("rank 0 op %1 starts at %2").arg(i).arg(num(b0[i]))));
            QVERIFY2(near(b1[i], r1[i]), qPrintable(QStringLiteral("rank 1 op %1 starts at %2").arg(i).arg(num(b1[i]))));
        }
        // Each rank sends twice (rank 0 its activations, rank 1 its gradients): 2c waiting, neither busy nor idle.
        for (int r = 0; r < 2; ++r) {
            QVERIFY(near(blocking->sendBlocked[std::size_t(r)], 2 * c));
            QVERIFY(near(blocking->busy[std::size_t(r)], 6));
            QVERIFY(near(blocking->idle[std::size_t(r)], blocking->makespan - 6 - 2 * c));
            QVERIFY(near(async->sendBlocked[std::size_t(r)], 0));
        }
        // Longer pipelines: every cross-rank send of a rank is waited on, c each (first and last rank m sends,
        // the middle ones 2m).
        const int p = 4, m = 8;
        const auto deep = generate(ScheduleKind::OneFOneB, p, m);
        QVERIFY(deep.ok());
        const auto run = runSchedule(deep.value(), unitDurations(1, 2, 0), c, true);
        QVERIFY(run.ok());
        for (int r = 0; r < p; ++r)
            QVERIFY(near(run->sendBlocked[std::size_t(r)], (r == 0 || r == p - 1 ? m : 2 * m) * c));
        // Never faster than the same sends run beside the compute.
        const auto deepAsync = runSchedule(deep.value(), unitDurations(1, 2, 0), c, false);
        QVERIFY(run->makespan >= deepAsync->makespan);
    }

    // Interleaved and looped BFS: per-rank idle (p-1)(f+b) in chunk time, bubble fraction (p-1)/(m*v+p-1).
    void interleavedBubble_data()
    {
        QTest::addColumn<ScheduleKind>("kind");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<double>("b");
        for (double b : { 1.0, 2.0 }) {
            for (const char* variant : { "megatron", "megatron-legacy", "torch" })
                QTest::newRow(qPrintable(QStringLiteral("interleaved %1 B=%2").arg(variant).arg(b)))
                    << ScheduleKind::Interleaved1F1B << variant << b;
            QTest::newRow(qPrintable(QStringLiteral("bfs B=%1").arg(b)))
                << ScheduleKind::LoopedBFS << "" << b;
        }
    }
    void interleavedBubble()
    {
        QFETCH(ScheduleKind, kind);
        QFETCH(QString, variant);
        QFETCH(double, b);
        const double f = 1;
        int checked = 0;
        for (int p = 2; p <= 8; ++p)
            for (int v = 2; v <= 4; ++v)
                for (int m = p; m <= 24; ++m) // the formula assumes m >= p
                    for (int g : { 0, 5, 6, 7, 8 }) { // Megatron group sizes; 0 = p
                        if (g > 0 && variant != QLatin1String("megatron")) continue;
                        // Legacy Megatron with m == p runs everything as warm-up (a GPipe-like order).
                        if (variant == QLatin1String("megatron-legacy") && m == p) continue;
                        const auto s = generate(kind, p, m, v, variant.toStdString(), g);
                        if (!s.ok()) continue; // shapes the framework rejects (see properties)
                        ++checked;
                        const auto run = runSchedule(s.value(), unitDurations(f, b, 0));
                        QVERIFY(run.ok());
                        for (int r = 0; r < p; ++r)
                            QVERIFY2(near(run->idle[std::size_t(r)], (p - 1) * (f + b)),
                                qPrintable(shape(p, m, v)
                                    + QStringLiteral(" g=%1 rank %2 idle %3")
                                          .arg(g)
                                          .arg(r)
                                          .arg(num(run->idle[std::size_t(r)]))));
                        QVERIFY(near(run->bubbleFraction, double(p - 1) / double(m * v + p - 1)));
                    }
        QVERIFY(checked > 50);
    }

    // The 1F1B op text of docs/FORMATS.md section 3 (p = 4, m = 8), every rank; Megatron and torch give the same
    // list.
    void oneFOneBOrder_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::newRow("megatron") << "megatron";
        QTest::newRow("default") << "";
        QTest::newRow("torch") << "torch";
    }
    void oneFOneBOrder()
    {
        QFETCH(QString, variant);
        const auto s = generate(ScheduleKind::OneFOneB, 4, 8, 1, variant.toStdString());
        QVERIFY(s.ok());
        QCOMPARE(QString::fromStdString(s->variant),
            variant == QLatin1String("torch") ? QStringLiteral("torch") : QStringLiteral("megatron"));
        // Rank r: p-r-1 warm-up forwards, then F(w+i) B(i), then the last w backwards.
        QCOMPARE(
            texts(s->rankOps[0]), words("0F0 0F1 0F2 0F3 0B0 0F4 0B1 0F5 0B2 0F6 0B3 0F7 0B4 0B5 0B6 0B7"));
        QCOMPARE(
            texts(s->rankOps[1]), words("1F0 1F1 1F2 1B0 1F3 1B1 1F4 1B2 1F5 1B3 1F6 1B4 1F7 1B5 1B6 1B7"));
        QCOMPARE(
            texts(s->rankOps[2]), words("2F0 2F1 2B0 2F2 2B1 2F3 2B2 2F4 2B3 2F5 2B4 2F6 2B5 2F7 2B6 2B7"));
        QCOMPARE(
            texts(s->rankOps[3]), words("3F0 3B0 3F1 3B1 3F2 3B2 3F3 3B3 3F4 3B4 3F5 3B5 3F6 3B6 3F7 3B7"));
        const auto csv = scheduleToCsv(s.value());
        QVERIFY(csv.rfind("0F0,0F1,0F2,0F3,0B0,0F4,", 0) == 0);
    }

    void oneFOneBEdges()
    {
        // m < p: Megatron caps the warm-up at m (min(p - r - 1, m)).
        const auto capped = generate(ScheduleKind::OneFOneB, 4, 2);
        QVERIFY(capped.ok());
        QCOMPARE(texts(capped->rankOps[0]), words("0F0 0F1 0B0 0B1"));
        QCOMPARE(texts(capped->rankOps[1]), words("1F0 1F1 1B0 1B1"));
        QCOMPARE(texts(capped->rankOps[2]), words("2F0 2F1 2B0 2B1"));
        QCOMPARE(texts(capped->rankOps[3]), words("3F0 3B0 3F1 3B1"));
        // torch Schedule1F1B.__init__: ValueError for m < p.
        const auto torch = generate(ScheduleKind::OneFOneB, 4, 2, 1, "torch");
        QVERIFY(!torch.ok());
        QCOMPARE(QString::fromStdString(torch.errors().front().path), QStringLiteral("microbatches"));
        QVERIFY(torch.errors().front().message.find(
                    "Number of microbatches (2) must be greater than or equal to the number of stages (4)")
            != std::string::npos);
        // m = 1: every rank runs F0 then B0.
        const auto single = generate(ScheduleKind::OneFOneB, 3, 1);
        QVERIFY(single.ok());
        for (int r = 0; r < 3; ++r)
            QCOMPARE(texts(single->rankOps[std::size_t(r)]),
                QStringList({ QStringLiteral("%1F0").arg(r), QStringLiteral("%1B0").arg(r) }));
        // p = 1: no warm-up, F and B alternate (torch accepts it too: m >= 1 = p).
        for (const char* variant : { "megatron", "torch" }) {
            const auto one = generate(ScheduleKind::OneFOneB, 1, 3, 1, variant);
            QVERIFY(one.ok());
            QCOMPARE(texts(one->rankOps[0]), words("0F0 0B0 0F1 0B1 0F2 0B2"));
        }
        // m = p: torch accepts the boundary.
        QVERIFY(generate(ScheduleKind::OneFOneB, 4, 4, 1, "torch").ok());
    }

    void gpipeOrder()
    {
        // torch ScheduleGPipe: all forwards, then all backwards, both in increasing microbatch order.
        const auto s = generate(ScheduleKind::GPipe, 3, 2);
        QVERIFY(s.ok());
        QCOMPARE(QString::fromStdString(s->variant), QStringLiteral("torch"));
        QCOMPARE(texts(s->rankOps[0]), words("0F0 0F1 0B0 0B1"));
        QCOMPARE(texts(s->rankOps[1]), words("1F0 1F1 1B0 1B1"));
        QCOMPARE(texts(s->rankOps[2]), words("2F0 2F1 2B0 2B1"));
        const auto one = generate(ScheduleKind::GPipe, 1, 1);
        QVERIFY(one.ok());
        QCOMPARE(texts(one->rankOps[0]), words("0F0 0B0"));
    }

    void loopedBfsOrder()
    {
        // torch ScheduleLoopedBFS: local stages ascending, all microbatches forward; then local stages
        // descending, microbatches descending.
        const auto s = generate(ScheduleKind::LoopedBFS, 2, 3, 2);
        QVERIFY(s.ok());
        QCOMPARE(texts(s->rankOps[0]), words("0F0 0F1 0F2 2F0 2F1 2F2 2B2 2B1 2B0 0B2 0B1 0B0"));
        QCOMPARE(texts(s->rankOps[1]), words("1F0 1F1 1F2 3F0 3F1 3F2 3B2 3B1 3B0 1B2 1B1 1B0"));
        QVERIFY(s->placement == Placement::Loop);
        QCOMPARE(s->stageToRank, std::vector<int>({ 0, 1, 0, 1 }));
        // m < p is accepted (rank 0 then waits between loops).
        QVERIFY(generate(ScheduleKind::LoopedBFS, 4, 2, 2).ok());
    }

    // Megatron model_parallel_config.py docstring of microbatch_group_size_per_vp_stage, PP=2 VP=2.
    void megatronDocstring_data()
    {
        QTest::addColumn<int>("g");
        QTest::addColumn<int>("m");
        QTest::addColumn<QList<int>>("order");
        QTest::newRow("g2 m4") << 2 << 4 << QList<int>({ 0, 1, 0, 1, 2, 3, 2, 3 });
        QTest::newRow("g3 m5") << 3 << 5 << QList<int>({ 0, 1, 2, 0, 1, 2, 3, 4, 3, 4 });
    }
    void megatronDocstring()
    {
        QFETCH(int, g);
        QFETCH(int, m);
        QFETCH(QList<int>, order);
        const auto s = generate(ScheduleKind::Interleaved1F1B, 2, m, 2, "megatron", g);
        QVERIFY(s.ok());
        QCOMPARE(QString::fromStdString(s->variant), QStringLiteral("megatron"));
        QCOMPARE(forwardMicrobatches(s->rankOps[0]), order);
        QCOMPARE(forwardMicrobatches(s->rankOps[1]), order);
    }

    void megatronFullOrder()
    {
        // PP=2 VP=2 g=2 m=4. Table: (0,c0)(1,c0)(0,c1)(1,c1)(2,c0)(3,c0)(2,c1)(3,c1); backward chunk = 1 - c.
        // Rank 0 (stages 0, 2): w = min(8, 2*1 + 1*2) = 4; rank 1 (stages 1, 3): w = min(8, 0 + 2) = 2.
        const auto s = generate(ScheduleKind::Interleaved1F1B, 2, 4, 2, "megatron", 2);
        QVERIFY(s.ok());
        QCOMPARE(
            texts(s->rankOps[0]), words("0F0 0F1 2F0 2F1 0F2 2B0 0F3 2B1 2F2 0B0 2F3 0B1 2B2 2B3 0B2 0B3"));
        QCOMPARE(
            texts(s->rankOps[1]), words("1F0 1F1 3F0 3B0 3F1 3B1 1F2 1B0 1F3 1B1 3F2 3B2 3F3 3B3 1B2 1B3"));
        QCOMPARE(s->stageToRank, std::vector<int>({ 0, 1, 0, 1 }));
        // The default group size is p.
        const auto byDefault = generate(ScheduleKind::Interleaved1F1B, 2, 4, 2);
        QVERIFY(byDefault.ok());
        QCOMPARE(byDefault->rankOps, s->rankOps);
    }

    void megatronLegacy()
    {
        // m == p: every virtual microbatch is warm-up (old get_forward_backward_func path).
        const auto legacy = generate(ScheduleKind::Interleaved1F1B, 2, 2, 2, "megatron-legacy");
        QVERIFY(legacy.ok());
        QCOMPARE(texts(legacy->rankOps[0]), words("0F0 0F1 2F0 2F1 2B0 2B1 0B0 0B1"));
        QCOMPARE(texts(legacy->rankOps[1]), words("1F0 1F1 3F0 3F1 3B0 3B1 1B0 1B1"));
        // The current schedule keeps rank 1's warm-up at 2(p-r-1) + (v-1)g = 2.
        const auto current = generate(ScheduleKind::Interleaved1F1B, 2, 2, 2, "megatron");
        QVERIFY(current.ok());
        QCOMPARE(texts(current->rankOps[0]), words("0F0 0F1 2F0 2F1 2B0 2B1 0B0 0B1"));
        QCOMPARE(texts(current->rankOps[1]), words("1F0 1F1 3F0 3B0 3F1 3B1 1B0 1B1"));
        // Chunk (k mod p*v) div p, microbatch (k div p*v)*p + k mod p: p=3 v=2 m=6, forward order of rank 2.
        const auto chunkRule = generate(ScheduleKind::Interleaved1F1B, 3, 6, 2, "megatron-legacy");
        QVERIFY(chunkRule.ok());
        QStringList forwards;
        for (const Op& op : chunkRule->rankOps[2])
            if (op.kind == OpKind::F) forwards << QString::fromStdString(opText(op));
        QCOMPARE(forwards, words("2F0 2F1 2F2 5F0 5F1 5F2 2F3 2F4 2F5 5F3 5F4 5F5"));
        // For m a multiple of p other than p, the legacy order is the current one with g = p.
        for (int p = 2; p <= 8; ++p)
            for (int v = 1; v <= 4; ++v)
                for (int m = 2 * p; m <= 24; m += p) {
                    const auto a = generate(ScheduleKind::Interleaved1F1B, p, m, v, "megatron-legacy");
                    const auto b = generate(ScheduleKind::Interleaved1F1B, p, m, v, "megatron");
                    QVERIFY(a.ok() && b.ok());
                    QVERIFY2(a->rankOps == b->rankOps, qPrintable(shape(p, m, v)));
                }
    }

    void torchInterleavedOrder()
    {
        // p=2 m=3 v=2: rounds = max(1, 3 // 2) = 1, 3 per round. w = min(6, 1*3 + 2(1-r)): rank 0 5, rank
        // 1 3. Forward chunk (k div 3) mod 2; backward chunk 1 - that; microbatches counted per stage.
        const auto s = generate(ScheduleKind::Interleaved1F1B, 2, 3, 2, "torch");
        QVERIFY(s.ok());
        QCOMPARE(QString::fromStdString(s->variant), QStringLiteral("torch"));
        QCOMPARE(texts(s->rankOps[0]), words("0F0 0F1 0F2 2F0 2F1 2F2 2B0 2B1 2B2 0B0 0B1 0B2"));
        QCOMPARE(texts(s->rankOps[1]), words("1F0 1F1 1F2 3F0 3B0 3F1 3B1 3F2 3B2 1B0 1B1 1B2"));
        // m < p (p=4 m=3 v=2): one round of 3; w = min(6, 3 + 2(3-r)) = 6, 6, 5, 3.
        const auto few = generate(ScheduleKind::Interleaved1F1B, 4, 3, 2, "torch");
        QVERIFY(few.ok());
        QCOMPARE(texts(few->rankOps[0]), words("0F0 0F1 0F2 4F0 4F1 4F2 4B0 4B1 4B2 0B0 0B1 0B2"));
        QCOMPARE(texts(few->rankOps[1]), words("1F0 1F1 1F2 5F0 5F1 5F2 5B0 5B1 5B2 1B0 1B1 1B2"));
        QCOMPARE(texts(few->rankOps[2]), words("2F0 2F1 2F2 6F0 6F1 6F2 6B0 6B1 6B2 2B0 2B1 2B2"));
        QCOMPARE(texts(few->rankOps[3]), words("3F0 3F1 3F2 7F0 7B0 7F1 7B1 7F2 7B2 3B0 3B1 3B2"));
        // m = 1 (p=3 v=2): one round of 1; w = min(2, 1 + 2(2-r)) = 2, 2, 1.
        const auto single = generate(ScheduleKind::Interleaved1F1B, 3, 1, 2, "torch");
        QVERIFY(single.ok());
        QCOMPARE(texts(single->rankOps[0]), words("0F0 3F0 3B0 0B0"));
        QCOMPARE(texts(single->rankOps[2]), words("2F0 5F0 5B0 2B0"));
        // p = 1 (v=2 m=2): rounds 2, 1 per round, w = min(4, 1) = 1.
        const auto one = generate(ScheduleKind::Interleaved1F1B, 1, 2, 2, "torch");
        QVERIFY(one.ok());
        QCOMPARE(texts(one->rankOps[0]), words("0F0 1F0 1B0 0F1 0B0 1F1 1B1 0B1"));
    }

    // torch's flexible rounds equal Megatron's groups of g = m / max(1, m // p) wherever Megatron accepts
    // that g: g = p when p divides m, and e.g. g = 5 for p = 4, m = 10 (docs/SCHEDULES.md section 2.3).
    void torchEqualsMegatron()
    {
        for (int v = 1; v <= 4; ++v) {
            const auto t = generate(ScheduleKind::Interleaved1F1B, 4, 10, v, "torch");
            const auto g5 = generate(ScheduleKind::Interleaved1F1B, 4, 10, v, "megatron", 5);
            QVERIFY(t.ok() && g5.ok());
            QVERIFY2(t->rankOps == g5->rankOps, qPrintable(shape(4, 10, v)));
            // Megatron's default g = p = 4 rejects m = 10 (remainder 2 < 4).
            QVERIFY(!generate(ScheduleKind::Interleaved1F1B, 4, 10, v).ok());
        }
        int compared = 0;
        for (int p = 2; p <= 8; ++p)
            for (int v = 1; v <= 4; ++v)
                for (int m = p; m <= 24; ++m) {
                    const auto t = generate(ScheduleKind::Interleaved1F1B, p, m, v, "torch");
                    if (!t.ok()) continue;
                    const int g = m / std::max(1, m / p);
                    const auto meg
                        = generate(ScheduleKind::Interleaved1F1B, p, m, v, "megatron", m % p == 0 ? 0 : g);
                    QVERIFY2(meg.ok(), qPrintable(shape(p, m, v)));
                    QVERIFY2(t->rankOps == meg->rankOps,
                        qPrintable(shape(p, m, v) + QStringLiteral(" g=%1").arg(g)));
                    ++compared;
                }
        QVERIFY(compared > 100);
    }

    void interleavedRejections_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("g");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("megatron g > m") << "megatron" << 4 << 3 << 0 << "microbatches"
                                        << "should range in [PP=4 , M=3]";
        QTest::newRow("megatron g < p") << "megatron" << 4 << 8 << 3 << "groupSize"
                                        << "should range in [PP=4 , M=8]";
        QTest::newRow("megatron remainder")
            << "megatron" << 4 << 6 << 0 << "microbatches"
            << "should be 0, or larger than or equal to the pipeline-parallel size, but it is 2";
        QTest::newRow("megatron remainder g5") << "megatron" << 4 << 11 << 5 << "microbatches"
                                               << "but it is 1";
        QTest::newRow("megatron p=1") << "megatron" << 1 << 4 << 0 << "stages"
                                      << "should be greater than 1";
        QTest::newRow("legacy divisible")
            << "megatron-legacy" << 4 << 10 << 0 << "microbatches"
            << "number of microbatches (10) is not divisible by pipeline-model-parallel-size (4)";
        QTest::newRow("torch rounds") << "torch" << 4 << 9 << 0 << "microbatches"
                                      << "multiple of the number of rounds (2), but got 9";
        QTest::newRow("torch rounds p2") << "torch" << 2 << 5 << 0 << "microbatches"
                                         << "multiple of the number of rounds (2), but got 5";
        QTest::newRow("unknown variant") << "deepspeed" << 4 << 8 << 0 << "variant"
                                         << "unknown interleaved";
    }
    void interleavedRejections()
    {
        QFETCH(QString, variant);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, g);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const auto s = generate(ScheduleKind::Interleaved1F1B, p, m, 2, variant.toStdString(), g);
        QVERIFY(!s.ok());
        QCOMPARE(QString::fromStdString(s.errors().front().path), path);
        QVERIFY2(QString::fromStdString(s.errors().front().message).contains(message),
            qPrintable(firstIssue(s.errors())));
    }

    void interleavedAccepts()
    {
        // Megatron: the remainder may be >= p (g = 5, m = 14: groups 5, 5, 4 with p = 4).
        const auto s = generate(ScheduleKind::Interleaved1F1B, 4, 14, 2, "megatron", 5);
        QVERIFY(s.ok());
        QCOMPARE(forwardMicrobatches(s->rankOps[0]).mid(0, 10), QList<int>({ 0, 1, 2, 3, 4, 0, 1, 2, 3, 4 }));
        QCOMPARE(forwardMicrobatches(s->rankOps[0]).mid(20), QList<int>({ 10, 11, 12, 13, 10, 11, 12, 13 }));
        // torch: p = 4, m = 7 is one round of 7.
        QVERIFY(generate(ScheduleKind::Interleaved1F1B, 4, 7, 2, "torch").ok());
        // Interleaved placement: rank r chunk c is stage c*p + r.
        const auto v3 = generate(ScheduleKind::Interleaved1F1B, 3, 6, 3);
        QVERIFY(v3.ok());
        QCOMPARE(v3->stageToRank, std::vector<int>({ 0, 1, 2, 0, 1, 2, 0, 1, 2 }));
        QVERIFY(v3->placement == Placement::Loop);
    }
};

QTEST_APPLESS_MAIN(TestSchedulesFlush)
#include "tst_schedules_flush.moc"
