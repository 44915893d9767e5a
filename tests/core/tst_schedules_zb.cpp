// Zero Bubble schedule generators (docs/SCHEDULES.md section 2.6): ZB-H1 and ZB-V against the op orders of PyTorch's
// torch/distributed/pipelining/schedules.py (_get_1f1b_rank_ops with enable_zero_bubble=True as
// ScheduleInterleavedZeroBubble calls it with one stage per rank; ScheduleZBVZeroBubble), ZB-H2 against the shape
// the Zero Bubble paper (Qi et al., ICLR'24) describes. The expected op lists below were worked out by hand from
// the frameworks' rules, not produced by the generators; the closed forms are the paper's and docs/SCHEDULES.md's.
#include "TestUtil.h"

#include "schedule/Generators.h"
#include "sim/ScheduleRun.h"

#include <QObject>

using namespace planscope;
using planscope::test::near;
using planscope::test::num;

namespace {

ScheduleRequest request(ScheduleKind kind, int p, int m, int chunks = 1)
{
    ScheduleRequest r;
    r.kind = kind;
    r.ranks = p;
    r.microbatches = m;
    r.chunks = chunks;
    return r;
}

int chunksFor(ScheduleKind kind) { return kind == ScheduleKind::ZBV ? 2 : 1; }

std::string rankText(const Schedule& s, int r)
{
    std::string out;
    for (const Op& op : s.rankOps[std::size_t(r)]) out += (out.empty() ? "" : " ") + opText(op);
    return out;
}

// torch ScheduleInterleavedZeroBubble: number_of_rounds = max(1, m // p) must divide m.
bool torchZbAccepts(int p, int m) { return m % std::max(1, m / p) == 0; }

// Plain 1F1B (torch Schedule1F1B order: min(m, p - r) - 1 warm-up forwards, then F/B alternation), written here
// as the baseline the ZB-H1 bubble is compared with.
Schedule oneFOneBByHand(int p, int m)
{
    Schedule s = schedules::makeSchedule(ScheduleKind::OneFOneB, Placement::Linear, p, 1, 1, m);
    for (int r = 0; r < p; ++r) {
        const int w = std::min(p - 1 - r, m);
        for (int k = 0; k < w; ++k) s.rankOps[std::size_t(r)].push_back(Op::f(r, k));
        for (int j = 0; j < m; ++j) {
            if (w + j < m) s.rankOps[std::size_t(r)].push_back(Op::f(r, w + j));
            s.rankOps[std::size_t(r)].push_back(Op::b(r, j));
        }
    }
    return s;
}

const OpDuration modelZ = unitDurations(1, 2, 1); // F = I = W = 1

} // namespace

class TestSchedulesZb : public QObject {
    Q_OBJECT
private slots:
    // Invariants of docs/SCHEDULES.md section 1.8 for every accepted shape, under several time models.
    void properties_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (ScheduleKind kind : { ScheduleKind::ZBH1, ScheduleKind::ZBH2, ScheduleKind::ZBV })
            for (int p = 1; p <= 8; ++p)
                for (int m = 1; m <= 24; ++m)
                    QTest::newRow(qPrintable(QStringLiteral("%1 p%2 m%3").arg(QString::fromUtf8(toString(kind).data(), qsizetype(toString(kind).size()))).arg(p).arg(m)))
                        << int(kind) << p << m;
    }
    void properties()
    {
        QFETCH(int, kind);
        QFETCH(int, p);
        QFETCH(int, m);
        const auto k = ScheduleKind(kind);
        auto sched = generateSchedule(request(k, p, m, chunksFor(k)));
        if (k == ScheduleKind::ZBH1 && !torchZbAccepts(p, m)) {
            QVERIFY(!sched);
            QCOMPARE(QString::fromStdString(sched.errors().front().path), QStringLiteral("microbatches"));
            QVERIFY(sched.errors().front().message.find("multiple of the number of rounds") != std::string::npos);
            return;
        }
        QVERIFY2(sched.ok(), sched.ok() ? "" : sched.errors().front().message.c_str());
        const Schedule& s = sched.value();
        QVERIFY(s.kind == k);
        QCOMPARE(s.ranks, p);
        QCOMPARE(s.microbatches, m);
        QCOMPARE(s.chunksPerRank, chunksFor(k));
        QVERIFY(s.placement == (k == ScheduleKind::ZBV ? Placement::VShape : Placement::Linear));
        const Issues issues = checkSchedule(s);
        QVERIFY2(issues.empty(), issues.empty() ? "" : (issues.front().path + ": " + issues.front().message).c_str());
        // Every op is split (no full B) and each rank runs 3 ops per (stage, microbatch) it holds.
        for (int r = 0; r < p; ++r) {
            QCOMPARE(int(s.rankOps[std::size_t(r)].size()), 3 * m * s.chunksPerRank);
            for (const Op& op : s.rankOps[std::size_t(r)]) QVERIFY(op.kind == OpKind::F || op.kind == OpKind::I || op.kind == OpKind::W);
        }

        // Stage-unit bound on in-flight activations: ZB-H1 p (1F1B's rank 0), ZB-H2 2p-1, ZB-V p (2p chunks).
        const double bound = k == ScheduleKind::ZBH2 ? 2 * p - 1 : p;
        struct Model {
            OpDuration d;
            double comm;
        };
        for (const Model& model : { Model { modelZ, 0.0 }, Model { unitDurations(1, 2, 1), 0.5 },
                 Model { unitDurations(1, 3, 1), 0.0 }, Model { unitDurations(2, 3, 2), 0.25 } }) {
            auto run = runSchedule(s, model.d, model.comm);
            QVERIFY2(run.ok(), run.ok() ? "" : run.errors().front().message.c_str());
            const ScheduleRun& t = run.value();
            double busyTotal = 0, idleTotal = 0;
            for (int r = 0; r < p; ++r) {
                double sum = 0;
                for (const Op& op : s.rankOps[std::size_t(r)]) sum += model.d(op);
                QVERIFY(near(t.busy[std::size_t(r)], sum));
                QVERIFY(near(t.idle[std::size_t(r)] + t.busy[std::size_t(r)], t.makespan));
                QVERIFY(t.internalIdle[std::size_t(r)] >= -1e-9);
                QVERIFY(t.internalIdle[std::size_t(r)] <= t.idle[std::size_t(r)] + 1e-9);
                QVERIFY2(t.peakInFlight[std::size_t(r)] <= bound + 1e-9,
                    qPrintable(QStringLiteral("rank %1 peak %2 > %3").arg(r).arg(num(t.peakInFlight[std::size_t(r)])).arg(bound)));
                busyTotal += t.busy[std::size_t(r)];
                idleTotal += t.idle[std::size_t(r)];
            }
            QVERIFY(near(idleTotal, p * t.makespan - busyTotal));
            // In flight returns to 0: every F is matched by a W that ends within the run.
            for (int r = 0; r < p; ++r) {
                int level = 0;
                for (const TimedOp& op : t.ranks[std::size_t(r)]) level += op.op.kind == OpKind::F ? 1 : op.op.kind == OpKind::W ? -1 : 0;
                QCOMPARE(level, 0);
            }
        }
    }

    void rejections()
    {
        // torch ScheduleZBVZeroBubble: "ZBV requires exactly 2 stages per rank".
        for (int v : { 1, 3, 4 }) {
            auto r = generateSchedule(request(ScheduleKind::ZBV, 4, 8, v));
            QVERIFY(!r);
            QCOMPARE(QString::fromStdString(r.errors().front().path), QStringLiteral("vpp"));
            QCOMPARE(QString::fromStdString(r.errors().front().message),
                QStringLiteral("ZBV requires exactly 2 stages per rank, but got %1.").arg(v));
        }
        // torch ScheduleInterleavedZeroBubble (which runs ZB-H1 with one stage per rank): rounds must divide m.
        auto h1 = generateSchedule(request(ScheduleKind::ZBH1, 4, 9));
        QVERIFY(!h1);
        QCOMPARE(QString::fromStdString(h1.errors().front().message),
            QStringLiteral("Zero bubble requires the number of microbatches to be a multiple of the number of rounds (2), but got 9."));
        QVERIFY(generateSchedule(request(ScheduleKind::ZBH1, 4, 10)).ok()); // 2 rounds of 5
        QVERIFY(generateSchedule(request(ScheduleKind::ZBH1, 4, 3)).ok());  // m < p is accepted by torch's ZB
        QVERIFY(!generateSchedule(request(ScheduleKind::ZBH1, 4, 8, 2)));
        QVERIFY(!generateSchedule(request(ScheduleKind::ZBH2, 4, 8, 2)));
        QVERIFY(!schedules::zbH1(request(ScheduleKind::ZBH1, 0, 8)));
        QVERIFY(!schedules::zbV(request(ScheduleKind::ZBV, 4, 0, 2)));
    }

    // Op lists worked out by hand from torch's _get_1f1b_rank_ops(enable_zero_bubble=True) and
    // ScheduleZBVZeroBubble._calculate_single_rank_operations, and from the ZB-H2 rule in ZeroBubble.cpp.
    void exactOrders_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<QStringList>("ranks");
        // ZB-H1 p=2 m=3: rank 0 warm-up 1, W right after each I; rank 1 no warm-up, W one step late.
        QTest::newRow("zb-h1 p2 m3") << int(ScheduleKind::ZBH1) << 2 << 3
                                     << QStringList { "0F0 0F1 0I0 0W0 0F2 0I1 0W1 0I2 0W2",
                                            "1F0 1I0 1F1 1I1 1W0 1F2 1I2 1W1 1W2" };
        QTest::newRow("zb-h1 p4 m4") << int(ScheduleKind::ZBH1) << 4 << 4
                                     << QStringList { "0F0 0F1 0F2 0F3 0I0 0W0 0I1 0W1 0I2 0W2 0I3 0W3",
                                            "1F0 1F1 1F2 1I0 1F3 1I1 1W0 1I2 1W1 1I3 1W2 1W3",
                                            "2F0 2F1 2I0 2F2 2I1 2F3 2I2 2W0 2I3 2W1 2W2 2W3",
                                            "3F0 3I0 3F1 3I1 3F2 3I2 3F3 3I3 3W0 3W1 3W2 3W3" };
        // m < p: warm-up capped at m, torch accepts it.
        QTest::newRow("zb-h1 p4 m2") << int(ScheduleKind::ZBH1) << 4 << 2
                                     << QStringList { "0F0 0F1 0I0 0W0 0I1 0W1", "1F0 1F1 1I0 1I1 1W0 1W1",
                                            "2F0 2F1 2I0 2I1 2W0 2W1", "3F0 3I0 3F1 3I1 3W0 3W1" };
        // ZB-V p=2 m=4 (n = max(3, 4) = 4): rank 0 holds stages 0 and 3, rank 1 stages 1 and 2.
        QTest::newRow("zb-v p2 m4") << int(ScheduleKind::ZBV) << 2 << 4
                                    << QStringList { "0F0 0F1 0F2 3F0 3I0 3W0 3F1 3I1 3W1 0F3 0I0 0W0 3F2 3I2 3W2 0I1 0W1 "
                                                     "3F3 3I3 3W3 0I2 0W2 0I3 0W3",
                                           "1F0 2F0 1F1 2F1 2I0 2W0 1F2 1I0 1W0 2F2 2I1 2W1 1F3 1I1 1W1 2F3 2I2 2W2 "
                                           "1I2 2I3 1I3 1W2 2W3 1W3" };
        // ZB-V p=2 m=2: padded to n = 3 microbatches, microbatch 2 dropped afterwards.
        QTest::newRow("zb-v p2 m2") << int(ScheduleKind::ZBV) << 2 << 2
                                    << QStringList { "0F0 0F1 3F0 3I0 3W0 3F1 3I1 3W1 0I0 0W0 0I1 0W1",
                                           "1F0 2F0 1F1 2F1 2I0 2W0 1I0 1W0 2I1 2W1 1I1 1W1" };
        // ZB-H2 p=2 m=3 stepped by hand with the rule (I > F under 2p-1 = 3 in flight > W, unit times).
        QTest::newRow("zb-h2 p2 m3") << int(ScheduleKind::ZBH2) << 2 << 3
                                     << QStringList { "0F0 0F1 0F2 0I0 0W0 0I1 0W1 0I2 0W2",
                                            "1F0 1I0 1F1 1I1 1F2 1I2 1W0 1W1 1W2" };
    }
    void exactOrders()
    {
        QFETCH(int, kind);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(QStringList, ranks);
        const auto k = ScheduleKind(kind);
        auto sched = generateSchedule(request(k, p, m, chunksFor(k)));
        QVERIFY2(sched.ok(), sched.ok() ? "" : sched.errors().front().message.c_str());
        QCOMPARE(int(sched->rankOps.size()), ranks.size());
        for (int r = 0; r < p; ++r) QCOMPARE(QString::fromStdString(rankText(sched.value(), r)), ranks[r]);
        // The CSV round trip (torch's compute_only format) gives the same schedule back.
        auto back = scheduleFromCsv(scheduleToCsv(sched.value()), k);
        QVERIFY(back.ok());
        QVERIFY(back->rankOps == sched->rankOps);
        QVERIFY(back->stageToRank == sched->stageToRank);
    }

    // ZB-H1 under model Z: idle (p-1)(F + I - W) on every rank, in flight exactly p on every rank (m >= p).
    void zbH1ClosedForms_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p = 1; p <= 8; ++p)
            for (int m = p; m <= 24; ++m)
                if (torchZbAccepts(p, m)) QTest::newRow(qPrintable(QStringLiteral("p%1 m%2").arg(p).arg(m))) << p << m;
    }
    void zbH1ClosedForms()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        auto sched = schedules::zbH1(request(ScheduleKind::ZBH1, p, m));
        QVERIFY(sched.ok());
        auto run = runSchedule(sched.value(), modelZ);
        QVERIFY(run.ok());
        const double F = 1, I = 1, W = 1;
        QVERIFY2(near(run->makespan, 3.0 * m + (p - 1) * (F + I - W)), qPrintable(num(run->makespan)));
        for (int r = 0; r < p; ++r) {
            QVERIFY2(near(run->idle[std::size_t(r)], (p - 1) * (F + I - W)),
                qPrintable(QStringLiteral("rank %1 idle %2").arg(r).arg(num(run->idle[std::size_t(r)]))));
            QCOMPARE(run->peakInFlight[std::size_t(r)], double(p));
        }
    }

    void zbH1VersusOneFOneB()
    {
        auto zb = runSchedule(schedules::zbH1(request(ScheduleKind::ZBH1, 4, 8)).value(), modelZ);
        auto base = runSchedule(oneFOneBByHand(4, 8), modelZ);
        QVERIFY(zb.ok() && base.ok());
        QCOMPARE(zb->makespan, 27.0);
        QCOMPARE(base->makespan, 33.0);
        // A third of 1F1B's bubble when F = I = W: (p-1)(F+I-W) = 3 vs (p-1)(F+I+W) = 9 per rank.
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(zb->idle[std::size_t(r)], 3.0);
            QCOMPARE(base->idle[std::size_t(r)], 9.0);
        }
    }

    // ZB-H2 under model Z: no idle between a rank's first and last op once m >= 2p-1 (rank 0 needs 2p-1
    // forwards to fill its warm-up), warm-up 2(p-r)-1 forwards, peak 2p-1 in flight.
    void zbH2ClosedForms_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p = 1; p <= 8; ++p)
            for (int m = 2 * p - 1; m <= 24; ++m) QTest::newRow(qPrintable(QStringLiteral("p%1 m%2").arg(p).arg(m))) << p << m;
    }
    void zbH2ClosedForms()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        auto sched = schedules::zbH2(request(ScheduleKind::ZBH2, p, m));
        QVERIFY(sched.ok());
        auto run = runSchedule(sched.value(), modelZ);
        QVERIFY(run.ok());
        // Parallelogram: rank r runs from r to r + 3m; the makespan carries only the p-1 start stagger.
        QCOMPARE(run->makespan, 3.0 * m + (p - 1));
        for (int r = 0; r < p; ++r) {
            QCOMPARE(run->internalIdle[std::size_t(r)], 0.0);
            QCOMPARE(run->ranks[std::size_t(r)].front().start, double(r));
            QCOMPARE(run->peakInFlight[std::size_t(r)], double(2 * p - 1));
            int warmup = 0;
            for (const Op& op : sched->rankOps[std::size_t(r)]) {
                if (op.kind != OpKind::F) break;
                ++warmup;
            }
            QCOMPARE(warmup, 2 * (p - r) - 1);
        }
    }

    // ZB-V p=4 m=8 under model Z in chunk units (docs/SCHEDULES.md section 2.6 [sim]).
    void zbVFourRanks()
    {
        auto sched = schedules::zbV(request(ScheduleKind::ZBV, 4, 8, 2));
        QVERIFY(sched.ok());
        QVERIFY(sched->stageToRank == (std::vector<int> { 0, 1, 2, 3, 3, 2, 1, 0 }));
        auto run = runSchedule(sched.value(), modelZ);
        QVERIFY(run.ok());
        QCOMPARE(run->makespan, 51.0);
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(run->busy[std::size_t(r)], 48.0);
            QCOMPARE(run->internalIdle[std::size_t(r)], 0.0);
            QCOMPARE(run->idle[std::size_t(r)], 3.0);
            QCOMPARE(run->peakInFlightChunks[std::size_t(r)], 8.0);
            QCOMPARE(run->peakInFlight[std::size_t(r)], 4.0);
        }
    }

    // ZB-V zero internal bubble under model Z holds for every p once m >= 2p - 1 (torch pads smaller m).
    void zbVZeroBubble_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p = 1; p <= 8; ++p)
            for (int m = 2 * p - 1; m <= 24; ++m) QTest::newRow(qPrintable(QStringLiteral("p%1 m%2").arg(p).arg(m))) << p << m;
    }
    void zbVZeroBubble()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        auto run = runSchedule(schedules::zbV(request(ScheduleKind::ZBV, p, m, 2)).value(), modelZ);
        QVERIFY(run.ok());
        for (int r = 0; r < p; ++r) {
            QVERIFY2(run->internalIdle[std::size_t(r)] == 0.0,
                qPrintable(QStringLiteral("rank %1 internal idle %2").arg(r).arg(num(run->internalIdle[std::size_t(r)]))));
            QCOMPARE(run->peakInFlightChunks[std::size_t(r)], double(2 * p));
        }
    }
};

QTEST_APPLESS_MAIN(TestSchedulesZb)
#include "tst_schedules_zb.moc"
