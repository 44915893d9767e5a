// DualPipe and DualPipeV generators (docs/SCHEDULES.md section 2.7) against:
// - op lists written out by hand from the 8 loops of deepseek-ai/DualPipe's step() (dualpipe.py, dualpipev.py);
// - a transcription of torch's ScheduleDualPipeV._calculate_single_rank_operations (per-(stage, type) counters,
//   a FIFO weight queue), which must give the same lists (docs/SCHEDULES.md section 1.8 invariant 5);
// - the structural invariants of docs/SCHEDULES.md sections 1.3 / 1.8 over many shapes;
// - the [sim] closed forms of docs/SCHEDULES.md section 2.7 (time model Z with F&B = 3: F = 1, B = 2, I = W = 1).
#include "TestUtil.h"

#include "schedule/Generators.h"
#include "sim/ScheduleRun.h"

#include <QObject>
#include <algorithm>
#include <deque>
#include <map>
#include <sstream>

using namespace planscope;
using planscope::test::near;
using planscope::test::num;

namespace {

ScheduleRequest request(ScheduleKind kind, int p, int m)
{
    ScheduleRequest r;
    r.kind = kind;
    r.ranks = p;
    r.microbatches = m;
    r.chunks = 2;
    return r;
}

std::string joined(const std::vector<Op>& ops)
{
    std::string out;
    for (const Op& op : ops) out += (out.empty() ? "" : " ") + opText(op);
    return out;
}

std::string firstError(const Issues& issues)
{
    return issues.empty() ? std::string() : issues.front().path + ": " + issues.front().message;
}

// torch ScheduleDualPipeV._calculate_single_rank_operations, transcribed: (stage, type) counters where a full
// backward uses (and bumps) the I and W counters, a FIFO queue of pending weight actions, and overlapped pairs.
std::vector<std::vector<Op>> torchDualPipeV(int numRanks, int numChunks)
{
    std::vector<std::vector<Op>> out;
    for (int rank = 0; rank < numRanks; ++rank) {
        std::vector<Op> actions;
        std::map<std::pair<int, char>, int> counters;
        std::deque<std::pair<int, int>> weightQueue;
        const int stage0 = rank, stage1 = 2 * numRanks - 1 - rank; // generate_rank_to_stage_mapping(style="v")
        auto get = [&](int s, char t) { return counters[{ s, t }]; };
        auto addAction = [&](int s, char type) {
            const char key = type == 'B' ? 'I' : type;
            const int mb = get(s, key);
            actions.push_back(type == 'F' ? Op::f(s, mb) : type == 'B' ? Op::b(s, mb) : Op::i(s, mb));
            if (type == 'B') {
                ++counters[{ s, 'I' }];
                ++counters[{ s, 'W' }];
            } else {
                if (type == 'I') weightQueue.emplace_back(s, mb);
                counters[{ s, key }] = mb + 1;
            }
        };
        auto addOverlap = [&](int fs, int bs) {
            const int fmb = get(fs, 'F'), bmb = get(bs, 'I');
            actions.push_back(Op::overlap(fs, fmb, bs, bmb));
            counters[{ fs, 'F' }] = fmb + 1;
            ++counters[{ bs, 'I' }];
            ++counters[{ bs, 'W' }];
        };
        auto addWeight = [&] {
            if (weightQueue.empty()) return;
            const auto [s, mb] = weightQueue.front();
            weightQueue.pop_front();
            actions.push_back(Op::w(s, mb));
            ++counters[{ s, 'W' }];
        };
        for (int i = 0; i < (numRanks - rank - 1) * 2; ++i) addAction(stage0, 'F');
        for (int i = 0; i < rank + 1; ++i) {
            addAction(stage0, 'F');
            addAction(stage1, 'F');
        }
        for (int i = 0; i < numRanks - rank - 1; ++i) {
            addAction(stage1, 'I');
            addWeight();
            addAction(stage1, 'F');
        }
        const int step4 = numChunks - numRanks * 2 + rank + 1;
        for (int i = 0; i < step4; ++i) {
            if (i == 0 && rank == numRanks - 1) {
                addAction(stage0, 'F');
                addAction(stage1, 'B');
            } else {
                addOverlap(stage0, stage1);
            }
            addOverlap(stage1, stage0);
        }
        for (int i = 0; i < numRanks - rank - 1; ++i) {
            addAction(stage1, 'B');
            addOverlap(stage1, stage0);
        }
        const int step6 = rank + 1;
        bool zb = false;
        for (int i = 0; i < step6; ++i) {
            if (i == step6 / 2 && rank % 2 == 1) zb = true;
            addAction(stage1, zb ? 'I' : 'B');
            if (i == step6 / 2 && rank % 2 == 0) zb = true;
            addAction(stage0, zb ? 'I' : 'B');
        }
        for (int i = 0; i < numRanks - rank - 1; ++i) {
            addWeight();
            addAction(stage0, zb ? 'I' : 'B');
        }
        for (int i = 0; i < rank + 1; ++i) addWeight();
        out.push_back(std::move(actions));
    }
    return out;
}

// Time model Z with F&B = 3 (docs/SCHEDULES.md section 1.5): F = 1, B = 2, I = W = 1, an overlapped pair 3.
OpDuration modelZ() { return unitDurations(1, 2, 1, 3); }

} // namespace

class TestSchedulesDualPipe : public QObject {
    Q_OBJECT
private slots:
    // DeepSeek's asserts: DualPipe num_ranks % 2 == 0, num_chunks % 2 == 0, num_chunks >= 2 num_ranks;
    // DualPipeV num_chunks >= 2 num_ranks (torch: n_microbatches >= num_stages).
    void shapes_data()
    {
        QTest::addColumn<bool>("v");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("path");
        QTest::newRow("dualpipe p4 m8") << false << 4 << 8 << true << "";
        QTest::newRow("dualpipe p2 m4") << false << 2 << 4 << true << "";
        QTest::newRow("dualpipe p8 m20") << false << 8 << 20 << true << "";
        QTest::newRow("dualpipe odd p3 m6") << false << 3 << 6 << false << "stages";
        QTest::newRow("dualpipe odd p5 m20") << false << 5 << 20 << false << "stages";
        QTest::newRow("dualpipe p1 m2") << false << 1 << 2 << false << "stages";
        QTest::newRow("dualpipe odd m9") << false << 4 << 9 << false << "microbatches";
        QTest::newRow("dualpipe m6 < 2p") << false << 4 << 6 << false << "microbatches";
        QTest::newRow("dualpipe m2 < 2p") << false << 2 << 2 << false << "microbatches";
        QTest::newRow("dualpipev p4 m8") << true << 4 << 8 << true << "";
        QTest::newRow("dualpipev odd p3 m7") << true << 3 << 7 << true << "";
        QTest::newRow("dualpipev p1 m2") << true << 1 << 2 << true << "";
        QTest::newRow("dualpipev p4 m7") << true << 4 << 7 << false << "microbatches";
        QTest::newRow("dualpipev p1 m1") << true << 1 << 1 << false << "microbatches";
    }
    void shapes()
    {
        QFETCH(bool, v);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(bool, accepted);
        QFETCH(QString, path);
        const auto kind = v ? ScheduleKind::DualPipeV : ScheduleKind::DualPipe;
        const auto s = generateSchedule(request(kind, p, m));
        QCOMPARE(s.ok(), accepted);
        if (!accepted) {
            QCOMPARE(QString::fromStdString(s.errors().front().path), path);
            return;
        }
        QVERIFY(s->kind == kind);
        QCOMPARE(s->ranks, p);
        QCOMPARE(s->stages, 2 * p);
        QCOMPARE(s->chunksPerRank, 2);
        QCOMPARE(s->pipelines, v ? 1 : 2);
        QCOMPARE(s->microbatches, v ? m : m / 2);
        QVERIFY(s->placement == (v ? Placement::VShape : Placement::Bidirectional));
        // Rank r holds stages r and 2p-1-r in both.
        for (int r = 0; r < p; ++r) {
            QCOMPARE(s->stageToRank[std::size_t(r)], r);
            QCOMPARE(s->stageToRank[std::size_t(2 * p - 1 - r)], r);
        }
        // The request's default chunk count (1) is accepted as "not given"; anything but 2 otherwise is refused.
        auto one = request(kind, p, m);
        one.chunks = 1;
        QVERIFY(generateSchedule(one).ok());
        auto three = request(kind, p, m);
        three.chunks = 3;
        QVERIFY(!generateSchedule(three).ok());
    }

    // Written out by hand from the loops (docs/SCHEDULES.md section 2.7), not from the generator.
    void handWritten_data()
    {
        QTest::addColumn<bool>("v");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<QStringList>("expected");
        // DualPipe p=2, m=4: rank 0 holds down stage 0 and up stage 3; rank 1 (second half, phases flipped) up
        // stage 2 (its loops' phase 0) and down stage 1. Both are "middle" ranks: F0 and B1 not overlapped at i=0.
        QTest::newRow("dualpipe p2 m4") << false << 2 << 4
                                        << QStringList {
                                               "0F0 3F0 0F1 3B0 (3F1;0B0)OVERLAP_F_B 3B1 0I1 0W1",
                                               "2F0 1F0 2F1 1B0 (1F1;2B0)OVERLAP_F_B 1B1 2I1 2W1",
                                           };
        // DualPipe p=4, m=8 (M=4 per direction): rank r holds stages r and 7-r; ranks 1, 2 are the middle ranks.
        QTest::newRow("dualpipe p4 m8")
            << false << 4 << 8
            << QStringList {
                   "0F0 0F1 0F2 7F0 7I0 7W0 7F1 (0F3;7B1)OVERLAP_F_B (7F2;0B0)OVERLAP_F_B 7B2 (7F3;0B1)OVERLAP_F_B 7B3 "
                   "0I2 0W2 0I3 0W3",
                   "1F0 6F0 1F1 6F1 1F2 6B0 (6F2;1B0)OVERLAP_F_B (1F3;6B1)OVERLAP_F_B (6F3;1B1)OVERLAP_F_B 6B2 1B2 "
                   "6I3 1I3 6W3 1W3",
                   "5F0 2F0 5F1 2F1 5F2 2B0 (2F2;5B0)OVERLAP_F_B (5F3;2B1)OVERLAP_F_B (2F3;5B1)OVERLAP_F_B 2B2 5B2 "
                   "2I3 5I3 2W3 5W3",
                   "4F0 4F1 4F2 3F0 3I0 3W0 3F1 (4F3;3B1)OVERLAP_F_B (3F2;4B0)OVERLAP_F_B 3B2 (3F3;4B1)OVERLAP_F_B 3B3 "
                   "4I2 4W2 4I3 4W3",
               };
        // DualPipeV p=2, m=4: rank 0 holds stages 0 and 3, rank 1 (the V's turn: the last rank) stages 1 and 2.
        QTest::newRow("dualpipev p2 m4")
            << true << 2 << 4
            << QStringList {
                   "0F0 0F1 0F2 3F0 3I0 3W0 3F1 (0F3;3B1)OVERLAP_F_B (3F2;0B0)OVERLAP_F_B 3B2 (3F3;0B1)OVERLAP_F_B 3B3 "
                   "0I2 0W2 0I3 0W3",
                   "1F0 2F0 1F1 2F1 1F2 2B0 (2F2;1B0)OVERLAP_F_B (1F3;2B1)OVERLAP_F_B (2F3;1B1)OVERLAP_F_B 2B2 1B2 "
                   "2I3 1I3 2W3 1W3",
               };
    }
    void handWritten()
    {
        QFETCH(bool, v);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(QStringList, expected);
        const auto s = generateSchedule(request(v ? ScheduleKind::DualPipeV : ScheduleKind::DualPipe, p, m));
        QVERIFY2(s.ok(), s.ok() ? "" : firstError(s.errors()).c_str());
        QCOMPARE(int(s->rankOps.size()), expected.size());
        for (int r = 0; r < p; ++r) QCOMPARE(QString::fromStdString(joined(s->rankOps[std::size_t(r)])), expected[r]);
        // The lists read back through the op-text parser.
        for (int r = 0; r < p; ++r) {
            const QStringList words = expected[r].split(' ');
            QCOMPARE(std::size_t(words.size()), s->rankOps[std::size_t(r)].size());
            for (int k = 0; k < words.size(); ++k) {
                Op op;
                std::string error;
                QVERIFY2(parseOpText(words[k].toStdString(), op, error), error.c_str());
                QVERIFY(op == s->rankOps[std::size_t(r)][std::size_t(k)]);
            }
        }
    }

    // DualPipeV, 4 devices, m=10: device 0 as in DeepSeek's README figure (forwards 0..6 of its first chunk,
    // then "0 0 0 1 1 1 2 2 2 3" = F, then I/W/F triples of the second chunk, then "7&3").
    void readmeDevice0()
    {
        const auto s = generateSchedule(request(ScheduleKind::DualPipeV, 4, 10));
        QVERIFY(s.ok());
        const std::string expected = "0F0 0F1 0F2 0F3 0F4 0F5 0F6 "
                                     "7F0 7I0 7W0 7F1 7I1 7W1 7F2 7I2 7W2 7F3 "
                                     "(0F7;7B3)OVERLAP_F_B (7F4;0B0)OVERLAP_F_B (0F8;7B4)OVERLAP_F_B (7F5;0B1)OVERLAP_F_B "
                                     "(0F9;7B5)OVERLAP_F_B (7F6;0B2)OVERLAP_F_B "
                                     "7B6 (7F7;0B3)OVERLAP_F_B 7B7 (7F8;0B4)OVERLAP_F_B 7B8 (7F9;0B5)OVERLAP_F_B "
                                     "7B9 0I6 0W6 0I7 0W7 0I8 0W8 0I9 0W9";
        QCOMPARE(QString::fromStdString(joined(s->rankOps[0])), QString::fromStdString(expected));
        // The picture's microbatch labels: the first 17 ops' microbatches.
        std::string labels;
        for (std::size_t k = 0; k < 17; ++k) labels += std::to_string(s->rankOps[0][k].microbatch);
        QCOMPARE(QString::fromStdString(labels), QStringLiteral("01234560001112223"));
        // The last rank (the V's turn) runs its first F0 and B1 apart.
        const auto& last = s->rankOps[3];
        const auto firstPair = std::find_if(last.begin(), last.end(), [](const Op& o) { return o.kind == OpKind::OverlapFB; });
        QVERIFY(firstPair - last.begin() >= 2);
        QVERIFY(*(firstPair - 2) == Op::f(3, 4));
        QVERIFY(*(firstPair - 1) == Op::b(4, 0));
        // Timed (model Z, F&B = 3): "7&3" runs 17..20, then device 0 waits 3 slots for the next pair.
        const auto run = runSchedule(s.value(), modelZ());
        QVERIFY(run.ok());
        QCOMPARE(run->ranks[0][17].start, 17.0);
        QCOMPARE(run->ranks[0][17].end, 20.0);
        QCOMPARE(run->ranks[0][18].start, 23.0);
    }

    // DualPipeV is DualPipe "cut in half": DualPipe's first P/2 ranks run DualPipeV(P/2 devices, m/2)'s loops,
    // with DualPipe's up stage 2P-1-r in the place of DualPipeV's stage P-1-r, and their timelines agree.
    void cutInHalf_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p = 2; p <= 8; p += 2)
            for (int m = 2 * p; m <= 24; m += 2) QTest::newRow(qPrintable(QStringLiteral("P%1 m%2").arg(p).arg(m))) << p << m;
    }
    void cutInHalf()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        const auto d = generateSchedule(request(ScheduleKind::DualPipe, p, m));
        const auto v = generateSchedule(request(ScheduleKind::DualPipeV, p / 2, m / 2));
        QVERIFY(d.ok() && v.ok());
        auto toV = [&](int stage) { return stage < p ? stage : stage - p; };
        const auto dr = runSchedule(d.value(), modelZ()), vr = runSchedule(v.value(), modelZ());
        QVERIFY(dr.ok() && vr.ok());
        QCOMPARE(dr->makespan, vr->makespan);
        for (int r = 0; r < p / 2; ++r) {
            const auto& ops = d->rankOps[std::size_t(r)];
            QCOMPARE(ops.size(), v->rankOps[std::size_t(r)].size());
            for (std::size_t k = 0; k < ops.size(); ++k) {
                Op mapped = ops[k];
                mapped.stage = toV(mapped.stage);
                if (mapped.kind == OpKind::OverlapFB) mapped.stage2 = toV(mapped.stage2);
                QVERIFY2(mapped == v->rankOps[std::size_t(r)][k], qPrintable(QStringLiteral("rank %1 op %2").arg(r).arg(k)));
                QCOMPARE(dr->ranks[std::size_t(r)][k].start, vr->ranks[std::size_t(r)][k].start);
            }
        }
    }

    // docs/SCHEDULES.md section 1.8 invariant 5: torch's port builds the same lists.
    void matchesTorch_data()
    {
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p = 1; p <= 8; ++p)
            for (int m = 2 * p; m <= std::max(24, 2 * p + 3); ++m)
                QTest::newRow(qPrintable(QStringLiteral("p%1 m%2").arg(p).arg(m))) << p << m;
    }
    void matchesTorch()
    {
        QFETCH(int, p);
        QFETCH(int, m);
        const auto s = generateSchedule(request(ScheduleKind::DualPipeV, p, m));
        QVERIFY(s.ok());
        const auto torch = torchDualPipeV(p, m);
        for (int r = 0; r < p; ++r)
            QCOMPARE(QString::fromStdString(joined(s->rankOps[std::size_t(r)])),
                QString::fromStdString(joined(torch[std::size_t(r)])));
    }

    void properties_data()
    {
        QTest::addColumn<bool>("v");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        for (int p = 2; p <= 8; p += 2)
            for (int m = 2 * p; m <= 24; m += 2)
                QTest::newRow(qPrintable(QStringLiteral("dualpipe p%1 m%2").arg(p).arg(m))) << false << p << m;
        for (int p = 1; p <= 8; ++p)
            for (int m = 2 * p; m <= 24; ++m)
                QTest::newRow(qPrintable(QStringLiteral("dualpipev p%1 m%2").arg(p).arg(m))) << true << p << m;
    }
    void properties()
    {
        QFETCH(bool, v);
        QFETCH(int, p);
        QFETCH(int, m);
        const auto s = generateSchedule(request(v ? ScheduleKind::DualPipeV : ScheduleKind::DualPipe, p, m));
        QVERIFY2(s.ok(), s.ok() ? "" : firstError(s.errors()).c_str());
        const Issues issues = checkSchedule(s.value());
        QVERIFY2(issues.empty(), firstError(issues).c_str());

        // Every rank does the same work: 2 chunks x (microbatches per chunk) forwards and backwards.
        const int perChunk = v ? m : m / 2;
        for (int r = 0; r < p; ++r) {
            int f = 0, b = 0, i = 0, w = 0, pairs = 0;
            for (const Op& op : s->rankOps[std::size_t(r)]) {
                f += op.kind == OpKind::F || op.kind == OpKind::OverlapFB;
                b += op.kind == OpKind::B || op.kind == OpKind::OverlapFB;
                i += op.kind == OpKind::I;
                w += op.kind == OpKind::W;
                pairs += op.kind == OpKind::OverlapFB;
            }
            QCOMPARE(f, 2 * perChunk);
            QCOMPARE(b + i, 2 * perChunk);
            QCOMPARE(i, w);
            // Steps 3 and 7 split n-h-1 backwards each, step 6 another h+1.
            const int n = v ? p : p / 2, h = v ? r : std::min(r, p - 1 - r);
            QCOMPARE(i, 2 * (n - h - 1) + h + 1);
            // Steps 4 and 5: 2 step4 + (n-h-1) pairs, less the middle/last rank's un-overlapped first pair.
            QCOMPARE(pairs, 2 * (perChunk - 2 * n + h + 1) + (n - h - 1) - (h == n - 1 ? 1 : 0));
        }

        const OpDuration dur = modelZ();
        const auto run = runSchedule(s.value(), dur);
        QVERIFY2(run.ok(), run.ok() ? "" : firstError(run.errors()).c_str());
        double busyTotal = 0, idleTotal = 0;
        for (int r = 0; r < p; ++r) {
            const auto& timed = run->ranks[std::size_t(r)];
            QCOMPARE(timed.size(), s->rankOps[std::size_t(r)].size());
            double busy = 0, last = 0;
            int level = 0, peak = 0;
            std::vector<std::pair<double, int>> events;
            for (const TimedOp& t : timed) {
                QVERIFY(near(t.end - t.start, dur(t.op)));
                QVERIFY(t.start >= last - 1e-12); // list order on the rank
                last = t.end;
                busy += t.end - t.start;
                if (t.op.kind == OpKind::F || t.op.kind == OpKind::OverlapFB) events.push_back({ t.start, +1 });
                if (t.op.kind == OpKind::B || t.op.kind == OpKind::W || t.op.kind == OpKind::OverlapFB)
                    events.push_back({ t.end, -1 });
            }
            std::sort(events.begin(), events.end());
            for (const auto& e : events) {
                level += e.second;
                peak = std::max(peak, level);
                QVERIFY(level >= 0);
            }
            QCOMPARE(level, 0); // in-flight activations return to 0
            QCOMPARE(double(peak), run->peakInFlightChunks[std::size_t(r)]);
            QVERIFY(near(run->busy[std::size_t(r)], busy));
            QVERIFY(near(busy, 2 * perChunk * (1 + 2.0))); // F + B per chunk-microbatch
            QVERIFY(near(run->idle[std::size_t(r)], run->makespan - busy));
            busyTotal += busy;
            idleTotal += run->idle[std::size_t(r)];
        }
        QVERIFY(near(idleTotal, p * run->makespan - busyTotal));
        // Cross-rank communication delays slow it down but cannot deadlock it.
        const auto slow = runSchedule(s.value(), dur, 0.5);
        QVERIFY2(slow.ok(), slow.ok() ? "" : firstError(slow.errors()).c_str());
        QVERIFY(slow->makespan >= run->makespan);
        QVERIFY(near(run->bubbleFraction, idleTotal / (p * run->makespan)));

        // The README's closed forms hold for every shape, with PP = stages per pipeline (DualPipe: P; DualPipeV:
        // 2 x devices): idle (PP/2-1)(F&B + B - 3W) on every rank when F&B = F + B, and PP+1 chunk activations at
        // the peak on every rank.
        const int pp = v ? 2 * p : p;
        for (int r = 0; r < p; ++r) {
            QVERIFY2(near(run->idle[std::size_t(r)], (pp / 2 - 1) * (3 + 2 - 3.0)),
                qPrintable(QStringLiteral("rank %1 idle %2").arg(r).arg(num(run->idle[std::size_t(r)]))));
            QCOMPARE(run->peakInFlightChunks[std::size_t(r)], double(pp + 1));
        }
        // With some overlap gain (F&B = 2.5) the formula is the bottleneck rank's idle (DualPipe's middle ranks,
        // DualPipeV's last rank): the largest idle of any rank.
        const auto gain = runSchedule(s.value(), unitDurations(1, 2, 1, 2.5));
        QVERIFY(gain.ok());
        const double worst = *std::max_element(gain->idle.begin(), gain->idle.end());
        QVERIFY2(near(worst, (pp / 2 - 1) * (2.5 + 2 - 3.0)), qPrintable(num(worst)));
        QVERIFY(near(gain->idle[std::size_t(v ? p - 1 : p / 2)], worst));
    }

    // docs/SCHEDULES.md section 2.7 [sim], model Z with F&B = 3.
    void closedForms_data()
    {
        QTest::addColumn<bool>("v");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<double>("makespan"); // < 0: not checked
        QTest::addColumn<double>("idle");     // per rank, every rank
        QTest::addColumn<int>("peak");        // chunk-microbatches, every rank
        // DualPipe: idle (P/2-1)(F&B + B - 3W) = 3 (3 + 2 - 3) = 6 for P=8; peak P+1.
        QTest::newRow("dualpipe P8 m20") << false << 8 << 20 << -1.0 << 6.0 << 9;
        QTest::newRow("dualpipe P4 m8") << false << 4 << 8 << -1.0 << 2.0 << 5;
        // DualPipeV: 4 devices (8 stages), m=10: makespan 66, idle 6 = (8/2-1)(3+2-3) per rank, peak 2p+1 chunks.
        QTest::newRow("dualpipev 4 m10") << true << 4 << 10 << 66.0 << 6.0 << 9;
    }
    void closedForms()
    {
        QFETCH(bool, v);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(double, makespan);
        QFETCH(double, idle);
        QFETCH(int, peak);
        const auto s = generateSchedule(request(v ? ScheduleKind::DualPipeV : ScheduleKind::DualPipe, p, m));
        QVERIFY(s.ok());
        const auto run = runSchedule(s.value(), modelZ());
        QVERIFY(run.ok());
        if (makespan >= 0) QVERIFY2(near(run->makespan, makespan), qPrintable(num(run->makespan)));
        // Busy 2 chunks x microbatches per chunk x (F + B) = makespan - idle on every rank.
        const int perChunk = v ? m : m / 2;
        QVERIFY2(near(run->makespan, 2 * perChunk * 3.0 + idle), qPrintable(num(run->makespan)));
        for (int r = 0; r < p; ++r) {
            QVERIFY2(near(run->idle[std::size_t(r)], idle), qPrintable(QStringLiteral("rank %1 idle %2").arg(r).arg(num(run->idle[std::size_t(r)]))));
            QVERIFY2(run->peakInFlightChunks[std::size_t(r)] == peak,
                qPrintable(QStringLiteral("rank %1 peak %2").arg(r).arg(num(run->peakInFlightChunks[std::size_t(r)]))));
        }
    }
};

QTEST_APPLESS_MAIN(TestSchedulesDualPipe)
#include "tst_schedules_dualpipe.moc"
