// PyTorch pipelining's CSV (compute_only and compute_comms) for every generator: export, import, equality.
#include "TestUtil.h"

#include "schedule/Schedule.h"
#include "sim/ScheduleRun.h"

#include <QObject>

using namespace planscope;

namespace {
std::vector<std::string> split(const std::string& row)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= row.size()) {
        std::size_t end = row.find(',', pos);
        if (end == std::string::npos) end = row.size();
        out.push_back(row.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}
} // namespace

class TestScheduleCsv : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::newRow("gpipe") << "gpipe" << 4 << 6 << 1;
        QTest::newRow("1f1b") << "1f1b" << 4 << 8 << 1;
        QTest::newRow("interleaved") << "interleaved-1f1b" << 4 << 8 << 2;
        QTest::newRow("looped-bfs") << "looped-bfs" << 3 << 5 << 2;
        QTest::newRow("zb-h1") << "zb-h1" << 4 << 8 << 1;
        QTest::newRow("zb-h2") << "zb-h2" << 4 << 8 << 1;
        QTest::newRow("zb-v") << "zb-v" << 4 << 8 << 2;
        QTest::newRow("dualpipe") << "dualpipe" << 4 << 8 << 2;
        QTest::newRow("dualpipe-v") << "dualpipe-v" << 4 << 10 << 2;
    }
    void roundTrip()
    {
        QFETCH(QString, kind);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        ScheduleRequest req;
        QVERIFY(fromString(kind.toStdString(), req.kind));
        req.ranks = p;
        req.microbatches = m;
        req.chunks = v;
        auto s = generateSchedule(req);
        QVERIFY2(s.ok(), s.ok() ? "" : s.errors().front().message.c_str());
        const std::string csv = scheduleToCsv(s.value());
        auto back = scheduleFromCsv(csv, req.kind);
        QVERIFY2(back.ok(), back.ok() ? "" : back.errors().front().message.c_str());
        QVERIFY(back->rankOps == s->rankOps);
        QVERIFY(back->stageToRank == s->stageToRank);
        // The imported schedule runs to the same makespan.
        auto a = runSchedule(s.value(), unitDurations());
        auto b = runSchedule(back.value(), unitDurations());
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->makespan, b->makespan);
        // compute_comms: every cross-rank hand-off has one send and one receive; reading it back skips them.
        const std::string comms = scheduleToCsv(s.value(), true);
        auto again = scheduleFromCsv(comms, req.kind);
        QVERIFY(again.ok());
        QVERIFY(again->rankOps == s->rankOps);
        int sendF = 0, recvF = 0, sendB = 0, recvB = 0;
        std::size_t pos = 0;
        while (pos < comms.size()) {
            const std::size_t end = comms.find('\n', pos);
            for (const std::string& cell : split(comms.substr(pos, end - pos))) {
                sendF += cell.find("SEND_F") != std::string::npos;
                recvF += cell.find("RECV_F") != std::string::npos;
                sendB += cell.find("SEND_B") != std::string::npos;
                recvB += cell.find("RECV_B") != std::string::npos;
            }
            pos = end + 1;
        }
        // Cross-rank boundaries per microbatch and pipeline, counted from the placement.
        int crossing = 0;
        for (int st = 0; st < s->stages; ++st) {
            const int next = s->nextStage(st);
            if (next >= 0 && s->stageToRank[std::size_t(next)] != s->stageToRank[std::size_t(st)]) ++crossing;
        }
        const int expected = crossing * s->microbatches;
        QCOMPARE(sendF, expected);
        QCOMPARE(recvF, expected);
        QCOMPARE(sendB, expected);
        QCOMPARE(recvB, expected);
    }

    void commsAreNextToTheirOps()
    {
        // GPipe p = 2, m = 1: rank 0 sends the activation after 0F0 and receives the gradient before 0B0.
        ScheduleRequest req { ScheduleKind::GPipe, 2, 1, 1, "", 0 };
        auto s = generateSchedule(req);
        QVERIFY(s.ok());
        QCOMPARE(scheduleToCsv(s.value(), true), std::string("0F0,0SEND_F0,0RECV_B0,0B0\n1RECV_F0,1F0,1B0,1SEND_B0\n"));
        // The V turn (stage p-1 -> p on the same rank) needs no message.
        ScheduleRequest v { ScheduleKind::ZBV, 2, 4, 2, "", 0 };
        auto zbv = generateSchedule(v);
        QVERIFY(zbv.ok());
        const std::string comms = scheduleToCsv(zbv.value(), true);
        QVERIFY(comms.find("1SEND_F") == std::string::npos); // stage 1 feeds stage 2 on rank 1 itself
        QVERIFY(comms.find("2RECV_F") == std::string::npos);
    }

    void badCsvNamesRowAndColumn()
    {
        auto r = scheduleFromCsv("0F0,0B0\n1F0,1X0\n");
        QVERIFY(!r.ok());
        QCOMPARE(r.errors().front().path, std::string("row 2, column 2"));
        auto missing = scheduleFromCsv("0F0\n1F0,1B0\n");
        QVERIFY(!missing.ok()); // 0B0 never appears
        QVERIFY(!scheduleFromCsv("").ok());
    }

    // A few bytes naming a huge stage or microbatch are refused before anything is sized by them (the file holds
    // 2 compute actions; a schedule of stage 10^9 needs 10^9 forwards), and numbers beyond int are named.
    void hugeNumbersAreRefusedNotAllocated()
    {
        auto huge = scheduleFromCsv("0F0,1000000000B0\n");
        QVERIFY(!huge.ok());
        QVERIFY(huge.errors().front().message.find("holds only 2 compute actions") != std::string::npos);
        auto manyMb = scheduleFromCsv("0F0,0F999999999\n0B0\n");
        QVERIFY(!manyMb.ok());
        QVERIFY(manyMb.errors().front().message.find("microbatch 999999999") != std::string::npos);
        auto beyondInt = scheduleFromCsv("0F0,99999999999F0\n");
        QVERIFY(!beyondInt.ok());
        QCOMPARE(beyondInt.errors().front().path, std::string("row 1, column 2"));
        QVERIFY(beyondInt.errors().front().message.find("out of range") != std::string::npos);
        QVERIFY(!scheduleFromCsv("0F99999999999999999999\n").ok());
        // Found by tests/fuzz/fuzz_schedule_csv: a negative microbatch made the size check pass (stages * 0 actions)
        // and the import then laid out 316,033,311 stages. Microbatches are digits only.
        auto negative = scheduleFromCsv("316033310F-6");
        QVERIFY(!negative.ok());
        QCOMPARE(negative.errors().front().path, std::string("row 1, column 1"));
        QVERIFY(negative.errors().front().message.find("expected a microbatch number") != std::string::npos);
        Op op;
        std::string error;
        QVERIFY(!parseOpText("0F-1", op, error));
        QVERIFY(!parseOpText("0B+1", op, error));
    }
};

QTEST_APPLESS_MAIN(TestScheduleCsv)
#include "tst_schedule_csv.moc"
