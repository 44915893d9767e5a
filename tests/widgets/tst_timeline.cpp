// The timeline engine: the pure layout (viewport maths, culling, folding, labels, bubbles, the pixel bound on
// work) on hand-made timelines, then the widgets on the default sample (paint, export, playhead, selection,
// playback).
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "sim/Timeline.h"
#include "timeline/PlaybackBar.h"
#include "SyntheticTimeline.h"
#include "timeline/TimelineLayout.h"
#include "timeline/TimelineLegend.h"
#include "pages/TimelinePage.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <map>
#include <set>

using namespace planscope;
using namespace planscope::test;

namespace {

QString samplePlan(const char* name)
{
    return QString::fromStdString(test::samplePath(name));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

Span span(int rank, Stream stream, SpanKind kind, int mb, double start, double end)
{
    Span s;
    s.rank = rank;
    s.stream = stream;
    s.kind = kind;
    s.stage = rank;
    s.chunk = 0;
    s.microbatch = mb;
    s.start = start;
    s.end = end;
    return s;
}

// Sorts the spans as Timeline requires and fills the per-rank busy/idle from the compute spans.
Timeline makeTimeline(std::vector<Span> spans, double pipelineSeconds)
{
    Timeline tl;
    std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        if (a.rank != b.rank) return a.rank < b.rank;
        if (a.stream != b.stream) return a.stream < b.stream;
        return a.start < b.start;
    });
    tl.spans = std::move(spans);
    tl.pipelineSeconds = pipelineSeconds;
    tl.stepSeconds = pipelineSeconds;
    int ranks = 0;
    for (const Span& s : tl.spans)
        ranks = std::max(ranks, s.rank + 1);
    tl.ranks.resize(std::size_t(ranks));
    for (const Span& s : tl.spans)
        if (s.stream == Stream::Compute) tl.ranks[std::size_t(s.rank)].busy += s.end - s.start;
    for (RankMetrics& r : tl.ranks)
        r.idle = pipelineSeconds - r.busy;
    return tl;
}

// Two ranks of a tiny 1F1B: rank 0 F0 [0, .1], B0 [.2, .4]; rank 1 F0 [.12, .22], B0 [.22, .32] (widths in a
// 1000 px window over [0, .5]: 2000 px per second).
Timeline twoRanks()
{
    return makeTimeline({ span(0, Stream::Compute, SpanKind::Forward, 0, 0.0, 0.1),
                            span(0, Stream::Compute, SpanKind::Backward, 0, 0.2, 0.4),
                            span(0, Stream::P2P, SpanKind::SendActivation, 0, 0.1, 0.12),
                            span(1, Stream::Compute, SpanKind::Forward, 0, 0.12, 0.22),
                            span(1, Stream::Compute, SpanKind::Backward, 0, 0.22, 0.32),
                            span(1, Stream::P2P, SpanKind::SendGradient, 0, 0.32, 0.34) },
        0.5);
}

LaneGeometry geometry()
{
    LaneGeometry g;
    g.computeHeight = 24;
    g.streamHeight = 14;
    g.rankGap = 6;
    g.subLaneGap = 1;
    g.minSpanPx = 3;
    g.charWidth = 7;
    g.labelPadding = 3;
    g.kindLabels[std::size_t(SpanKind::GradReduce)] = "all-reduce";
    return g;
}

const DrawRect* rectOf(const DrawList& d, std::size_t spanIndex)
{
    for (const DrawRect& r : d.rects)
        if (r.span == spanIndex) return &r;
    return nullptr;
}

// Items per lane (by y), rects + folds + labels + bubbles.
std::map<double, std::size_t> itemsPerLane(const DrawList& d)
{
    std::map<double, std::size_t> n;
    for (const DrawRect& r : d.rects)
        ++n[r.y];
    for (const FoldedBlock& b : d.folds)
        ++n[b.y];
    for (const LabelItem& l : d.labels)
        ++n[l.y];
    for (const BubbleRect& b : d.bubbles)
        ++n[b.y];
    return n;
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QCoreApplication::setApplicationName(QStringLiteral("planscope-timeline-tests")); }

    // ---- Pure layout -------------------------------------------------------------------------------------

    // Without a timeline the view says why, and never waits forever: an invalid plan names its errors, a schedule too
    // large to lay out says so, and "Simulating" shows only while an evaluation runs.
    void emptyTimelineSaysWhy()
    {
        PlanDocument doc;
        TimelineView view;
        view.setDocument(&doc);
        QCOMPARE(view.emptyText(), QStringLiteral("No timeline: load a plan"));
        QVERIFY(loadAndWait(doc, samplePlan("default.plan.json")));
        QVERIFY(view.emptyText().isEmpty()); // it draws the step

        Plan bad = doc.plan();
        bad.parallel.pp = 3; // 32 layers do not split over 3 stages, and 12 GPUs are not 16
        QSignalSpy published(&doc, &PlanDocument::predictionChanged);
        doc.setPlan(bad);
        // While it evaluates, the previous step stays drawn (the window marks it as computing).
        if (doc.isEvaluating()) QVERIFY(published.wait(20000));
        QVERIFY(!doc.isEvaluating());
        const QString text = view.emptyText();
        QVERIFY2(text.startsWith(QLatin1String("No timeline: the plan cannot run.")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("parallel.pp")), qPrintable(text));

        Plan huge = doc.plan();
        huge.parallel.pp = 4;
        huge.training.globalBatch = 2'000'000; // 1,000,000 microbatches: 8,000,000 ops on 4 ranks
        published.clear();
        doc.setPlan(huge);
        QVERIFY(published.count() > 0 || published.wait(20000));
        QVERIFY(doc.prediction()->valid);
        QVERIFY2(view.emptyText().contains(QLatin1String("8000000 ops")), qPrintable(view.emptyText()));
    }

    void viewportRoundTrip_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::addColumn<int>("width");
        QTest::newRow("fit 0.5 s in 1000 px") << 0.0 << 0.5 << 1000;
        QTest::newRow("10x") << 0.1 << 0.15 << 1000;
        QTest::newRow("1000x at 1920 px") << 0.2 << 0.2005 << 1920;
        QTest::newRow("1 ns window") << 1.0e-3 << 1.0e-3 + 1e-9 << 800;
        QTest::newRow("a day in 300 px") << 0.0 << 86400.0 << 300;
    }
    void viewportRoundTrip()
    {
        QFETCH(double, start);
        QFETCH(double, end);
        QFETCH(int, width);
        const TimeViewport vp { start, end, width };
        QCOMPARE(vp.toX(start), 0.0);
        QVERIFY(test::near(vp.toX(end), double(width), 1e-9));
        QVERIFY(test::near(vp.secondsPerPixel(), (end - start) / width));
        for (double f : { 0.0, 0.125, 0.5, 0.9, 1.0, 1.5 }) {
            const double t = start + f * (end - start);
            QVERIFY2(std::abs(vp.toTime(vp.toX(t)) - t) <= 1e-12 * std::max(1.0, std::abs(t)),
                qPrintable(test::num(vp.toTime(vp.toX(t)) - t)));
            const double x = f * width;
            QVERIFY2(std::abs(vp.toX(vp.toTime(x)) - x) <= 1e-6, qPrintable(test::num(vp.toX(vp.toTime(x)))));
        }
        QVERIFY(test::near(vp.toX(start + (end - start) / 4), width / 4.0, 1e-9));
    }

    void lanesAndRectsAreExact()
    {
        const Timeline tl = twoRanks();
        const DrawList d = layoutTimeline(tl, TimeViewport { 0, 0.5, 1000 }, geometry(), Selection {});

        // Lanes: rank 0 compute, rank 0 p2p, rank 1 compute, rank 1 p2p; empty streams left out.
        QCOMPARE(d.lanes.size(), std::size_t(4));
        QCOMPARE(int(d.lanes[0].stream), int(Stream::Compute));
        QCOMPARE(d.lanes[0].y, 0.0);
        QCOMPARE(d.lanes[0].h, 24.0);
        QCOMPARE(int(d.lanes[1].stream), int(Stream::P2P));
        QCOMPARE(d.lanes[1].y, 25.0);
        QCOMPARE(d.lanes[1].h, 14.0);
        QCOMPARE(d.lanes[2].rank, 1);
        QVERIFY(d.lanes[2].firstOfRank);
        QCOMPARE(d.lanes[2].y, 25.0 + 14 + 6);
        QCOMPARE(d.contentHeight, 45.0 + 24 + 1 + 14);

        // Spans in (rank, stream, start) order: 0 F0, 1 B0, 2 send (rank 0), 3 F0, 4 B0, 5 send (rank 1).
        struct Want {
            std::size_t span;
            double x, w, y;
            SpanKind kind;
        };
        for (const Want& w :
            { Want { 0, 0, 200, 0, SpanKind::Forward }, Want { 1, 400, 400, 0, SpanKind::Backward },
                Want { 2, 200, 40, 25, SpanKind::SendActivation },
                Want { 3, 240, 200, 45, SpanKind::Forward }, Want { 4, 440, 200, 45, SpanKind::Backward },
                Want { 5, 640, 40, 70, SpanKind::SendGradient } }) {
            const DrawRect* r = rectOf(d, w.span);
            QVERIFY2(r, qPrintable(QString::number(w.span)));
            QVERIFY2(test::near(r->x, w.x, 1e-9) || std::abs(r->x - w.x) < 1e-9, qPrintable(test::num(r->x)));
            QVERIFY2(test::near(r->w, w.w, 1e-9), qPrintable(test::num(r->w)));
            QCOMPARE(r->y, w.y);
            QCOMPARE(int(r->kind), int(w.kind));
            QCOMPARE(r->microbatch, 0);
            QCOMPARE(r->flags, std::uint8_t(0));
        }
        QCOMPARE(d.rects.size(), std::size_t(6));
        QVERIFY(d.folds.empty());
    }

    void bubblesAreIdleGaps()
    {
        const Timeline tl = twoRanks();
        const DrawList d = layoutTimeline(tl, TimeViewport { 0, 0.5, 1000 }, geometry(), Selection {});
        // Rank 0 idles in [.1, .2] and [.4, .5]; rank 1 in [0, .12] and [.32, .5].
        std::vector<std::pair<double, double>> r0, r1;
        for (const BubbleRect& b : d.bubbles)
            (b.rank == 0 ? r0 : r1).push_back({ b.start, b.end });
        QCOMPARE(r0, (std::vector<std::pair<double, double>> { { 0.1, 0.2 }, { 0.4, 0.5 } }));
        QCOMPARE(r1, (std::vector<std::pair<double, double>> { { 0.0, 0.12 }, { 0.32, 0.5 } }));
        for (const BubbleRect& b : d.bubbles) {
            QCOMPARE(b.h, 24.0);
            QVERIFY(test::near(b.x, b.start * 2000) || b.start == 0);
            QVERIFY(test::near(b.w, (b.end - b.start) * 2000, 1e-9));
        }
        // The idle share written per lane is the timeline's own.
        QVERIFY(test::near(d.lanes[0].idleShare, 0.2 / 0.5));
        QVERIFY(test::near(d.lanes[2].idleShare, tl.ranks[1].idle / tl.pipelineSeconds));
        QVERIFY(test::near(d.lanes[2].idleShare, 0.3 / 0.5));
        QCOMPARE(d.lanes[1].idleShare, -1.0);
    }

    void bubblesMatchSimulatedIdle_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("default (1f1b, pp=4)") << QStringLiteral("default.plan.json");
        QTest::newRow("gpt3 (interleaved, pp=16)") << QStringLiteral("gpt3-175b-1024xa100.plan.json");
    }
    void bubblesMatchSimulatedIdle()
    {
        QFETCH(QString, file);
        const Plan plan = test::loadSample(file.toUtf8().constData());
        const Prediction pred = evaluate(plan);
        auto result = simulate(plan, pred);
        QVERIFY(result);
        const Timeline* tl = &result.value();
        // Wide enough that nothing folds: every gap is a bubble of its own.
        const TimeViewport vp { 0, tl->pipelineSeconds, 50'000'000 };
        const DrawList d = layoutTimeline(*tl, vp, geometry(), Selection {});
        QVERIFY(d.folds.empty());
        std::vector<double> idle(tl->ranks.size(), 0.0);
        for (const BubbleRect& b : d.bubbles)
            idle[std::size_t(b.rank)] += b.end - b.start;
        for (std::size_t r = 0; r < tl->ranks.size(); ++r)
            QVERIFY2(std::abs(idle[r] - tl->ranks[r].idle) <= 1e-9 * tl->pipelineSeconds,
                qPrintable(QStringLiteral("rank %1: %2 vs %3").arg(r).arg(idle[r]).arg(tl->ranks[r].idle)));
        double share = 0;
        int lanes = 0;
        for (const LaneItem& l : d.lanes)
            if (l.idleShare >= 0) {
                QVERIFY(test::near(l.idleShare, tl->ranks[std::size_t(l.rank)].idle / tl->pipelineSeconds));
                share += l.idleShare;
                ++lanes;
            }
        QCOMPARE(lanes, int(tl->ranks.size()));
        QVERIFY(test::near(share / lanes, tl->bubbleFraction, 1e-6));
    }

    void culling_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::addColumn<QList<int>>("visibleSpans");
        QTest::newRow("inside B0 of rank 0") << 0.25 << 0.3 << QList<int> { 1, 4 };
        QTest::newRow("F0 of rank 0 only") << 0.0 << 0.09 << QList<int> { 0 };
        QTest::newRow("after every span") << 0.6 << 0.7 << QList<int> {};
        QTest::newRow("the send gap") << 0.341 << 0.399 << QList<int> { 1 };
    }
    void culling()
    {
        QFETCH(double, start);
        QFETCH(double, end);
        QFETCH(QList<int>, visibleSpans);
        const Timeline tl = twoRanks();
        const DrawList d = layoutTimeline(tl, TimeViewport { start, end, 1000 }, geometry(), Selection {});
        QList<int> drawn;
        for (const DrawRect& r : d.rects)
            drawn << int(r.span);
        std::sort(drawn.begin(), drawn.end());
        QCOMPARE(drawn, visibleSpans);
        for (const DrawRect& r : d.rects) {
            QVERIFY(r.x >= -1 && r.x + r.w <= 1001);
            const Span& s = tl.spans[r.span];
            QVERIFY(s.end > start && s.start < end);
        }
        for (const BubbleRect& b : d.bubbles)
            QVERIFY(b.start >= start && b.end <= std::min(end, tl.pipelineSeconds));
        if (visibleSpans.isEmpty()) {
            QVERIFY(d.labels.empty());
            QVERIFY(d.bubbles.empty()); // past the pipeline part: no idle to show either
        }
    }

    void folding_data()
    {
        QTest::addColumn<int>("clusters");
        QTest::addColumn<double>("viewEnd");
        QTest::addColumn<int>("wantFolds");
        QTest::addColumn<int>("wantRects");
        // 10,000 spans of 1 us.
        QTest::newRow("back to back, 0.1 px each") << 1 << 0.01 << 1 << 0;
        QTest::newRow("10 clusters 100 px apart") << 10 << 0.02 << 10 << 0;
        QTest::newRow("zoomed in: 10 px each, no folds") << 1 << 1.055e-4 << 0 << 106;
    }
    void folding()
    {
        QFETCH(int, clusters);
        QFETCH(double, viewEnd);
        QFETCH(int, wantFolds);
        QFETCH(int, wantRects);
        std::vector<Span> spans;
        const int n = 10000, perCluster = n / clusters;
        for (int i = 0; i < n; ++i) {
            const double start = (i % perCluster) * 1e-6 + (i / perCluster) * 2e-3;
            spans.push_back(span(0, Stream::Compute, i % 2 ? SpanKind::Backward : SpanKind::Forward, i / 2,
                start, start + 1e-6));
        }
        const Timeline tl = makeTimeline(spans, perCluster * 1e-6 + (clusters - 1) * 2e-3);
        const DrawList d = layoutTimeline(tl, TimeViewport { 0, viewEnd, 1000 }, geometry(), Selection {});
        QCOMPARE(int(d.folds.size()), wantFolds);
        QCOMPARE(int(d.rects.size()), wantRects);
        if (wantFolds > 0) {
            std::uint64_t total = 0;
            for (const FoldedBlock& b : d.folds) {
                total += b.count;
                // A cluster of perCluster us: its exact width.
                QVERIFY2(
                    test::near(b.w, perCluster * 1e-6 * 1000 / viewEnd, 1e-6), qPrintable(test::num(b.w)));
                QCOMPARE(b.count, std::uint32_t(perCluster));
                QVERIFY(b.kind == SpanKind::Forward || b.kind == SpanKind::Backward);
                QVERIFY(b.kind != b.kind2); // F and B alternate: both halves shown
            }
            QCOMPARE(total, std::uint64_t(n));
            // The gaps between clusters are bubbles, those inside a cluster are not.
            QCOMPARE(int(d.bubbles.size()), clusters - 1);
        }
    }

    void labelsOnlyWhereTheyFit_data()
    {
        QTest::addColumn<double>("widthPx");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("microbatch");
        QTest::addColumn<QString>("label");
        // charWidth 7, padding 3 each side: "F12" needs 27 px, "12" 20 px; "all-reduce" 76 px.
        QTest::newRow("100 px: kind and microbatch")
            << 100.0 << int(SpanKind::Forward) << 12 << QStringLiteral("F12");
        QTest::newRow("27 px: just fits F12")
            << 27.0 << int(SpanKind::Forward) << 12 << QStringLiteral("F12");
        QTest::newRow("25 px: the microbatch")
            << 25.0 << int(SpanKind::Backward) << 12 << QStringLiteral("12");
        QTest::newRow("15 px: nothing") << 15.0 << int(SpanKind::Backward) << 12 << QString();
        QTest::newRow("4 px: nothing") << 4.0 << int(SpanKind::Forward) << 1 << QString();
        QTest::newRow("send: number only")
            << 30.0 << int(SpanKind::SendActivation) << 7 << QStringLiteral("7");
        QTest::newRow("all-reduce, wide")
            << 100.0 << int(SpanKind::GradReduce) << -1 << QStringLiteral("all-reduce");
        QTest::newRow("all-reduce, narrow") << 50.0 << int(SpanKind::GradReduce) << -1 << QString();
    }
    void labelsOnlyWhereTheyFit()
    {
        QFETCH(double, widthPx);
        QFETCH(int, kind);
        QFETCH(int, microbatch);
        QFETCH(QString, label);
        const Timeline tl = makeTimeline(
            { span(0, Stream::Compute, SpanKind(kind), microbatch, 0.5, 0.5 + widthPx / 1000) }, 1.0);
        const DrawList d = layoutTimeline(tl, TimeViewport { 0, 1, 1000 }, geometry(), Selection {});
        QCOMPARE(d.rects.size(), std::size_t(1));
        if (label.isEmpty()) {
            QVERIFY(d.labels.empty());
        } else {
            QCOMPARE(d.labels.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(d.labels[0].text), label);
            QVERIFY(textColumns(d.labels[0].text) * 7 + 6 <= d.labels[0].w);
            QVERIFY(test::near(d.labels[0].x, 500, 1e-9));
        }
    }

    void textColumnsCountsWideCharacters()
    {
        QCOMPARE(textColumns("F12"), 3.0);
        QCOMPARE(textColumns("all-reduce"), 10.0);
        QCOMPARE(textColumns("\xE4\xBC\x98\xE5\x8C\x96\xE5\x99\xA8"), 6.0); // three CJK characters
        QCOMPARE(textColumns("\xC3\x97"
                             "3"),
            2.0); // multiplication sign, then 3
    }

    void selectionAndPlayheadFlags()
    {
        const Timeline tl = makeTimeline({ span(0, Stream::Compute, SpanKind::Forward, 0, 0.0, 0.1),
                                             span(0, Stream::Compute, SpanKind::Forward, 1, 0.1, 0.2),
                                             span(0, Stream::Compute, SpanKind::Backward, 0, 0.2, 0.4),
                                             span(0, Stream::Compute, SpanKind::Backward, 1, 0.4, 0.6) },
            0.6);
        Selection sel;
        sel.microbatch = 1;
        sel.playhead = 0.3;
        const DrawList d = layoutTimeline(tl, TimeViewport { 0, 0.6, 600 }, geometry(), sel);
        QCOMPARE(d.rects.size(), std::size_t(4));
        for (const DrawRect& r : d.rects) {
            const Span& s = tl.spans[r.span];
            QCOMPARE(bool(r.flags & DrawSelected), s.microbatch == 1);
            QCOMPARE(bool(r.flags & DrawDimmed), s.microbatch != 1);
            QCOMPARE(bool(r.flags & DrawPending), s.end > 0.3);
        }
        for (const LabelItem& l : d.labels)
            QVERIFY(l.flags != 0);
    }

    void selectedMicrobatchSurvivesFolding()
    {
        // 1,000 spans of 1 us in a 1000 px window over 0.1 s: all fold; microbatch 500's spans are drawn
        // anyway.
        std::vector<Span> spans;
        for (int i = 0; i < 1000; ++i)
            spans.push_back(span(0, Stream::Compute, SpanKind::Forward, i, i * 1e-6, (i + 1) * 1e-6));
        const Timeline tl = makeTimeline(spans, 0.1);
        Selection sel;
        sel.microbatch = 500;
        const DrawList d = layoutTimeline(tl, TimeViewport { 0, 0.1, 1000 }, geometry(), sel);
        QCOMPARE(d.folds.size(), std::size_t(1));
        QVERIFY(d.folds[0].flags & DrawDimmed);
        QCOMPARE(d.rects.size(), std::size_t(1));
        QCOMPARE(d.rects[0].microbatch, 500);
        QCOMPARE(d.rects[0].flags & DrawSelected, int(DrawSelected));
        QCOMPARE(d.rects[0].w, 2.0);
    }

    void hitTestFindsSpans_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::addColumn<int>("span");
        QTest::newRow("middle of F0, rank 0") << 100.0 << 12.0 << 0;
        QTest::newRow("middle of B0, rank 0") << 600.0 << 5.0 << 1;
        QTest::newRow("rank 0 idle") << 300.0 << 12.0 << -1;
        QTest::newRow("1 px after F0") << 201.0 << 12.0 << 0;
        QTest::newRow("p2p lane") << 220.0 << 30.0 << 2;
        QTest::newRow("rank 1 F0") << 300.0 << 50.0 << 3;
        QTest::newRow("between ranks") << 300.0 << 42.0 << -1;
    }
    void hitTestFindsSpans()
    {
        QFETCH(double, x);
        QFETCH(double, y);
        QFETCH(int, span);
        const Timeline tl = twoRanks();
        const TimelineIndex index(tl);
        QCOMPARE(int(hitTest(tl, index, TimeViewport { 0, 0.5, 1000 }, geometry(), x, y)), span);
    }

    void fitTextCutsWithAnEllipsis()
    {
        QCOMPARE(fitText("abc", 3), std::string("abc"));
        QCOMPARE(fitText("ncclKernel_AllReduce", 8), std::string("ncclKer\u2026")); // 7 characters and the ellipsis
        QCOMPARE(fitText("abcdef", 1), std::string());
        // Wide characters count two columns: two of them (4 columns) and the ellipsis fit in 5.
        QCOMPARE(fitText("\u6d41\u6c34\u7ebf\u5e76\u884c", 5), std::string("\u6d41\u6c34\u2026"));
        QCOMPARE(textColumns(fitText("\u6d41\u6c34\u7ebf\u5e76\u884c", 5)), 5.0);
    }

    void oneSpanLongerThanTheScreenIsOneClippedRect()
    {
        // A p2p lane whose spans overlap: a send over [0.1, 0.4] s, and 20,000 sends of 4 us every 10 us from 0.1 s,
        // so from the long send on the running maximum of ends is 0.4 s. Window [0.2, 0.3] s at 1000 px (100 us a
        // pixel, so the short sends fold).
        std::vector<Span> spans { span(0, Stream::Compute, SpanKind::Forward, 0, 0.0, 0.05),
            span(0, Stream::P2P, SpanKind::SendActivation, 0, 0.1, 0.4) };
        for (int k = 0; k < 20000; ++k)
            spans.push_back(span(0, Stream::P2P, SpanKind::SendGradient, k, 0.1 + 1e-5 * k + 1e-6, 0.1 + 1e-5 * k + 5e-6));
        const Timeline tl = makeTimeline(spans, 0.5);
        const TimelineIndex index(tl);
        const DrawList d = layoutTimeline(tl, index, TimeViewport { 0.2, 0.3, 1000 }, geometry(), Selection {});
        std::size_t longSend = tl.spans.size();
        for (std::size_t i = 0; i < tl.spans.size(); ++i)
            if (tl.spans[i].kind == SpanKind::SendActivation) longSend = i;
        // The long send: one rect, clipped to the screen ([-1, width + 1]).
        const DrawRect* r = rectOf(d, longSend);
        QVERIFY(r);
        QCOMPARE(r->x, -1.0);
        QCOMPARE(r->w, 1002.0);
        // The short sends in the window (end after 0.2, start before 0.3: k = 10,000 to 19,999) are all folded or
        // drawn, and none outside it.
        std::size_t inWindow = 0;
        for (const Span& sp : tl.spans)
            if (sp.kind == SpanKind::SendGradient && sp.end > 0.2 && sp.start < 0.3) ++inWindow;
        QCOMPARE(inWindow, std::size_t(10000));
        std::size_t shown = 0;
        for (const DrawRect& x : d.rects)
            if (tl.spans[x.span].kind == SpanKind::SendGradient) {
                QVERIFY(tl.spans[x.span].end > 0.2 && tl.spans[x.span].start < 0.3);
                ++shown;
            }
        for (const FoldedBlock& b : d.folds) {
            QVERIFY(b.x >= -1 && b.x + b.w <= 1001);
            shown += b.count;
        }
        QCOMPARE(shown, inWindow);
        // 10,000 sends in 1000 px: a handful of blocks, not one per send.
        QVERIFY(d.folds.size() <= 10);
    }

    void axisTicksAreRound_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("count");
        QTest::newRow("0.5 s in 1000 px") << 0.0 << 0.5 << 0.05 << 11;
        QTest::newRow("10x") << 0.1 << 0.15 << 0.005 << 11;
        QTest::newRow("1 ms at an offset") << 0.2003 << 0.2013 << 0.0001 << 11;
    }
    void axisTicksAreRound()
    {
        QFETCH(double, start);
        QFETCH(double, end);
        QFETCH(double, step);
        QFETCH(int, count);
        double got = 0;
        const auto ticks = axisTicks(TimeViewport { start, end, 1000 }, 90, &got);
        QVERIFY2(test::near(got, step, 1e-9), qPrintable(test::num(got)));
        QCOMPARE(int(ticks.size()), count);
        for (double t : ticks) {
            QVERIFY(t >= start - 1e-12 && t <= end + 1e-12);
            QVERIFY(std::abs(t / step - std::round(t / step)) < 1e-6);
        }
    }

    // The one axis formatter of both timelines (LaneView::axisLabel): the unit is the window's largest time's
    // (s from 1 s, ms from 1 ms, else µs), the decimals those of the tick step in that unit (ceil(-log10(step)),
    // none for steps of a whole unit or more), and the origin never reads "-0".
    void axisLabelsHaveOneFormatter_data()
    {
        QTest::addColumn<double>("t");
        QTest::addColumn<double>("step");
        QTest::addColumn<double>("magnitude");
        QTest::addColumn<QString>("label");
        QTest::newRow("100 us apart at 1.6 s") << 1.6313 << 1e-4 << 1.7 << QStringLiteral("1.6313 s");
        QTest::newRow("half seconds") << 2.5 << 0.5 << 5.9 << QStringLiteral("2.5 s");
        QTest::newRow("whole seconds") << 3.0 << 1.0 << 10.0 << QStringLiteral("3 s");
        QTest::newRow("ms window") << 0.0025 << 5e-4 << 0.004 << QStringLiteral("2.5 ms");
        QTest::newRow("ms, 20 ms steps") << 0.12 << 0.02 << 0.2159 << QStringLiteral("120 ms");
        QTest::newRow("us window") << 2e-6 << 1e-6 << 5e-6 << QStringLiteral("2 µs");
        QTest::newRow("before the origin") << -0.006 << 0.002 << 0.2 << QStringLiteral("-6 ms");
        QTest::newRow("origin from rounding") << -1e-15 << 0.1 << 1.0 << QStringLiteral("0.0 s");
    }

    void axisLabelsHaveOneFormatter()
    {
        QFETCH(double, t);
        QFETCH(double, step);
        QFETCH(double, magnitude);
        QFETCH(QString, label);
        QCOMPARE(LaneView::axisLabel(t, step, magnitude), label);
    }

    void boundariesStep()
    {
        const Timeline tl = twoRanks();
        const std::vector<double> b = spanBoundaries(tl);
        QCOMPARE(b, (std::vector<double> { 0.0, 0.1, 0.12, 0.2, 0.22, 0.32, 0.34, 0.4 }));
        QCOMPARE(stepBoundary(b, 0.0, +1), 0.1);
        QCOMPARE(stepBoundary(b, 0.1, +1), 0.12);
        QCOMPARE(stepBoundary(b, 0.15, -1), 0.12);
        QCOMPARE(stepBoundary(b, 0.12, -1), 0.1);
        QCOMPARE(stepBoundary(b, 0.4, +1), 0.4); // nothing after the last: stay
        QCOMPARE(stepBoundary(b, 0.0, -1), 0.0);
    }

    void bigTimelineIsBoundedByPixels_data()
    {
        QTest::addColumn<double>("zoom");
        QTest::newRow("fit") << 1.0;
        QTest::newRow("10x") << 10.0;
        QTest::newRow("1000x") << 1000.0;
        QTest::newRow("100000x") << 100000.0;
    }
    void bigTimelineIsBoundedByPixels()
    {
        QFETCH(double, zoom);
        static const Timeline tl = makeSyntheticTimeline(8, 2'000'000);
        static const TimelineIndex index(tl);
        QCOMPARE(tl.spans.size(), std::size_t(2'000'000));
        const double mid = tl.stepSeconds * 0.37, half = tl.stepSeconds / zoom / 2;
        const TimeViewport vp { std::max(0.0, mid - half), mid + half, 1000 };
        QElapsedTimer clock;
        clock.start();
        const DrawList d = layoutTimeline(tl, index, vp, geometry(), Selection {});
        const qint64 ms = clock.elapsed();
        QCOMPARE(d.lanes.size(), std::size_t(16));
        std::size_t folded = 0;
        for (const FoldedBlock& b : d.folds)
            folded += b.count;
        for (const auto& [y, items] : itemsPerLane(d))
            QVERIFY2(items <= 2000, qPrintable(QStringLiteral("lane at y=%1: %2 items").arg(y).arg(items)));
        QVERIFY2(d.itemCount() <= 16 * 2000, qPrintable(QString::number(d.itemCount())));
        // Everything in view is accounted for: drawn one by one or counted in a fold.
        QVERIFY(d.rects.size() + folded > 0);
        if (zoom == 1.0) QVERIFY(folded > 1'000'000);
        qInfo("zoom %gx: %zu rects, %zu folds (%zu spans), %zu labels, %zu bubbles in %lld ms", zoom,
            d.rects.size(), d.folds.size(), folded, d.labels.size(), d.bubbles.size(), ms);
        QVERIFY2(ms < 200, qPrintable(QString::number(ms)));
    }

    // ---- Widgets
    // -------------------------------------------------------------------------------------------

    void viewPaintsDefaultSample()
    {
        PlanDocument doc;
        TimelineView view;
        view.resize(1200, 500);
        view.setDocument(&doc);
        QVERIFY(loadAndWait(doc, samplePlan("default.plan.json")));
        QVERIFY(doc.timeline());
        QCOMPARE(view.timeline(), doc.timeline());
        QCOMPARE(view.viewState()->duration(), doc.timeline()->stepSeconds);
        QCOMPARE(view.viewport().start, 0.0);
        QVERIFY(test::near(view.viewport().end, doc.timeline()->stepSeconds));
        QVERIFY(!view.drawList().rects.empty());
        QVERIFY(!view.drawList().labels.empty());
        QVERIFY(!view.drawList().bubbles.empty()); // 1F1B with pp=4 has a bubble
        const QImage image = view.grab().toImage();
        QCOMPARE(image.size(), QSize(1200, 500));
        // The forward colour is on screen, and so is the backward colour.
        int forward = 0, backward = 0;
        const QRgb f = TimelinePalette::color(SpanKind::Forward).rgb();
        const QRgb b = TimelinePalette::color(SpanKind::Backward).rgb();
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) {
                const QRgb c = image.pixel(x, y);
                forward += c == f;
                backward += c == b;
            }
        QVERIFY2(
            forward > 200 && backward > 200, qPrintable(QStringLiteral("%1 %2").arg(forward).arg(backward)));
    }

    void picturesFitEveryRank()
    {
        // 16 ranks with four stream lanes each need more than 500 px: on screen the view scrolls (some ranks are
        // culled), a picture squeezes all 16 in.
        std::vector<Span> spans;
        for (int r = 0; r < 16; ++r) {
            spans.push_back(span(r, Stream::Compute, SpanKind::Forward, 0, 0.01 * r, 0.01 * r + 0.1));
            spans.push_back(span(r, Stream::P2P, SpanKind::SendActivation, 0, 0.01 * r + 0.1, 0.01 * r + 0.11));
            spans.push_back(span(r, Stream::DataParallel, SpanKind::GradReduce, -1, 0.3, 0.4));
            spans.push_back(span(r, Stream::Optimizer, SpanKind::OptimizerStep, -1, 0.4, 0.45));
        }
        TimelineView view;
        view.resize(1200, 500);
        view.setTimeline(std::make_shared<const Timeline>(makeTimeline(spans, 0.5)));
        auto ranksDrawn = [&] {
            std::set<int> ranks;
            for (const LaneItem& l : view.drawList().lanes) ranks.insert(l.rank);
            return ranks.size();
        };
        QVERIFY(ranksDrawn() < 16);
        view.setFitAllLanes(true);
        QCOMPARE(ranksDrawn(), std::size_t(16));
        view.setFitAllLanes(false);
        QVERIFY(ranksDrawn() < 16);
    }

    void exportWritesFiles_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::addColumn<bool>("page");
        QTest::newRow("view png") << QStringLiteral("png") << QByteArray("\x89PNG", 4) << false;
        QTest::newRow("view svg") << QStringLiteral("svg") << QByteArray("<svg") << false;
        QTest::newRow("view pdf") << QStringLiteral("pdf") << QByteArray("%PDF") << false;
        QTest::newRow("page png") << QStringLiteral("png") << QByteArray("\x89PNG", 4) << true;
        QTest::newRow("page svg") << QStringLiteral("svg") << QByteArray("<svg") << true;
        QTest::newRow("page pdf") << QStringLiteral("pdf") << QByteArray("%PDF") << true;
    }
    void exportWritesFiles()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        QFETCH(bool, page);
        TimelinePage timelinePage;
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->timeline);
        timelinePage.setAnalysis(analysis);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("timeline.") + suffix);
        QString error;
        const QSize size(1300, 700);
        const bool ok = page ? timelinePage.exportTo(path, size, &error)
                             : timelinePage.view()->exportTo(path, size, &error);
        QVERIFY2(ok, qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY2(bytes.size() > 2000, qPrintable(QString::number(bytes.size())));
        QVERIFY(suffix == QLatin1String("svg") ? bytes.contains(magic) : bytes.startsWith(magic));
        if (suffix == QLatin1String("png")) QCOMPARE(QImage(path).size(), size);
        if (suffix == QLatin1String("svg")) {
            // Text stays text: a lane header, and on the page the legend.
            QVERIFY(bytes.contains("rank 0"));
            if (page) QVERIFY(bytes.contains(TimelinePalette::name(SpanKind::WeightGrad).toUtf8()));
        }
        QVERIFY(!timelinePage.exportTo(dir.filePath(QStringLiteral("timeline.bmpx")), size, &error));
        QVERIFY(!error.isEmpty());
    }

    void playheadFadesUnfinishedSpans()
    {
        ViewState state;
        TimelineView view;
        view.resize(1200, 500);
        view.setViewState(&state);
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->timeline);
        view.setAnalysis(analysis);
        const Timeline& tl = *analysis->timeline;
        view.grab();
        // The playhead is painted over the layout: moving it lays nothing out again (checked at the end).
        const std::size_t layouts = view.layoutCount();
        QVERIFY(layouts > 0);
        const std::size_t rects = view.drawList().rects.size();
        auto pending = [&] {
            int n = 0;
            for (const DrawRect& r : view.drawList().rects) {
                const bool shouldFade = tl.spans[r.span].end > state.playhead();
                if (bool(view.paintFlags(r.flags, r.end) & DrawPending) != shouldFade) return -1;
                n += shouldFade;
            }
            return n;
        };
        // A plan opens with the playhead at the end of its step: the whole plan shows as done.
        QCOMPARE(state.playhead(), tl.stepSeconds);
        for (const DrawRect& r : view.drawList().rects)
            QVERIFY(!(view.paintFlags(r.flags, r.end) & DrawPending));
        state.setPlayhead(tl.stepSeconds * 0.25);
        const int quarter = pending();
        state.setPlayhead(tl.stepSeconds * 0.75);
        const int threeQuarters = pending();
        state.setPlayhead(tl.stepSeconds);
        const int end = pending();
        QVERIFY2(quarter > threeQuarters && threeQuarters > end && quarter > 0,
            qPrintable(QStringLiteral("%1 %2 %3").arg(quarter).arg(threeQuarters).arg(end)));
        QCOMPARE(end, 0);
        // Faded spans really are painted in the faded colour.
        state.setPlayhead(tl.stepSeconds * 0.25);
        const QImage image = view.grab().toImage();
        const QRect area = view.timeArea();
        const double playheadX = view.viewport().toX(state.playhead());
        int checked = 0;
        for (const DrawRect& r : view.drawList().rects) {
            // A corner of the span, away from its centred label and from the playhead line.
            if (r.w < 8 || r.kind != SpanKind::Forward || std::abs(r.x + 2 - playheadX) < 4) continue;
            const QPoint centre(area.left() + int(r.x) + 2, area.top() + int(r.y) + 2);
            ++checked;
            const QColor want = (view.paintFlags(r.flags, r.end) & DrawPending) ? TimelinePalette::pendingColor(r.kind)
                                                        : TimelinePalette::color(r.kind);
            QCOMPARE(image.pixelColor(centre).rgb(), want.rgb());
        }
        QVERIFY(checked > 4);
        // Ten playback ticks, each painted: the pending set follows the playhead from the same layout.
        state.setPlaying(true);
        for (int k = 1; k <= 10; ++k) {
            state.setPlayhead(tl.stepSeconds * k / 10.0);
            view.grab();
            QVERIFY(pending() >= 0);
        }
        state.setPlaying(false);
        view.grab();
        QCOMPARE(view.layoutCount(), layouts);
        QCOMPARE(view.drawList().rects.size(), rects);
        // A new range does lay out again, once.
        state.setViewRange(0, tl.stepSeconds / 2);
        view.grab();
        QCOMPARE(view.layoutCount(), layouts + 1);
    }

    void clickSelectsMicrobatch()
    {
        ViewState state;
        TimelineView view;
        view.resize(1400, 600);
        view.setViewState(&state);
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->timeline);
        view.setAnalysis(analysis);
        const Timeline& tl = *analysis->timeline;
        // A wide forward span of microbatch 3 on rank 1.
        std::size_t target = tl.spans.size();
        for (std::size_t i = 0; i < tl.spans.size(); ++i)
            if (tl.spans[i].rank == 1 && tl.spans[i].kind == SpanKind::Forward && tl.spans[i].microbatch == 3)
                target = i;
        QVERIFY(target < tl.spans.size());
        const QRectF r = view.spanRect(target);
        QVERIFY2(r.width() > 4, qPrintable(QString::number(r.width())));
        QTest::mouseClick(&view, Qt::LeftButton, {}, r.center().toPoint());
        QCOMPARE(state.selectedMicrobatch(), 3);
        QCOMPARE(state.selectedRank(), 1);
        QCOMPARE(state.selectedStage(), tl.spans[target].stage);
        // Microbatch 3 is highlighted on every compute lane, the rest dimmed.
        std::set<int> ranksWithSelection;
        for (const DrawRect& d : view.drawList().rects) {
            const Span& s = tl.spans[d.span];
            const bool mine = s.microbatch == 3 || s.microbatch2 == 3;
            QCOMPARE(bool(d.flags & DrawSelected), mine);
            QCOMPARE(bool(d.flags & DrawDimmed), !mine);
            if (mine && s.stream == Stream::Compute) ranksWithSelection.insert(s.rank);
        }
        QCOMPARE(int(ranksWithSelection.size()), tl.schedule.ranks);
        // Clicking idle space clears it.
        const QRect area = view.timeArea();
        QVERIFY(!view.drawList().bubbles.empty());
        const BubbleRect& idle = view.drawList().bubbles.front();
        QVERIFY(idle.w > 10);
        QTest::mouseClick(&view, Qt::LeftButton, {},
            QPoint(area.left() + int(idle.x + idle.w / 2), area.top() + int(idle.y + idle.h / 2)));
        QCOMPARE(state.selectedMicrobatch(), -1);
    }

    void wheelAndKeysZoom()
    {
        ViewState state;
        TimelineView view;
        view.resize(1200, 500);
        view.setViewState(&state);
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->timeline);
        view.setAnalysis(analysis);
        const double duration = state.duration();
        const QRect area = view.timeArea();
        const QPointF at(area.left() + area.width() / 4.0, area.top() + 10);
        const double tAt = view.viewport().toTime(at.x() - area.left());
        QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(state.viewEnd() - state.viewStart() < duration * 0.9);
        // The time under the pointer stays put.
        QVERIFY(std::abs(view.viewport().toTime(at.x() - area.left()) - tAt) < duration * 1e-9);
        QTest::keyClick(&view, Qt::Key_F);
        QCOMPARE(state.viewStart(), 0.0);
        QCOMPARE(state.viewEnd(), duration);
        // Shift+drag zooms to the box.
        const int x0 = area.left() + 100, x1 = area.left() + 300;
        const double t0 = view.viewport().toTime(100), t1 = view.viewport().toTime(300);
        QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, area.top() + 20));
        QMouseEvent move(QEvent::MouseMove, QPointF(x1, area.top() + 20),
            view.mapToGlobal(QPointF(x1, area.top() + 20)), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(&view, &move);
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, area.top() + 20));
        QVERIFY(test::near(state.viewStart(), t0, 1e-9));
        QVERIFY(test::near(state.viewEnd(), t1, 1e-9));
    }

    // The whole step shown stays shown when the step changes (an edit, another plan); a playhead the user put
    // inside the step stays where it is unless the step got shorter.
    void playheadAtTheEndFollowsTheStep()
    {
        ViewState state;
        state.setDuration(2.0);
        QCOMPARE(state.playhead(), 2.0);
        state.setDuration(3.0);
        QCOMPARE(state.playhead(), 3.0);
        state.setDuration(1.5);
        QCOMPARE(state.playhead(), 1.5);
        state.setPlayhead(1.0);
        state.setDuration(4.0);
        QCOMPARE(state.playhead(), 1.0);
        state.setDuration(0.5);
        QCOMPARE(state.playhead(), 0.5);
    }

    void playbackAdvancesAndStops()
    {
        ViewState state;
        PlaybackBar bar;
        bar.setViewState(&state);
        state.setDuration(1.0);
        bar.setSpeedFactor(8); // the whole step in 10 s / 8
        QCOMPARE(bar.speedFactor(), 8.0);
        QVERIFY(test::near(state.speed(), 0.8));
        bar.playButton()->click();
        QVERIFY(state.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(state.playhead() > 0.05, 3000);
        QVERIFY(bar.slider()->value() > 0);
        QVERIFY(bar.timeLabel()->text().contains(QStringLiteral("ms")));
        bar.playButton()->click(); // pause
        QVERIFY(!state.isPlaying());
        const double paused = state.playhead();
        QTest::qWait(100);
        QCOMPARE(state.playhead(), paused);

        // Long steps in the step's unit: seconds past 10 s, hours past 10 h (not "20986110.6 ms").
        state.setDuration(20986.111);
        state.setPlayhead(3600);
        QCOMPARE(bar.timeLabel()->text(), QStringLiteral("3600.0 / 20986.1 s"));
        state.setDuration(75600);
        state.setPlayhead(37800);
        QCOMPARE(bar.timeLabel()->text(), QStringLiteral("10.50 / 21.00 h"));

        // At the end it stops there.
        state.setDuration(0.05);
        state.setPlayhead(0.0);
        state.setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(!state.isPlaying(), 3000);
        QCOMPARE(state.playhead(), 0.05);
        QVERIFY(!bar.playButton()->isChecked());
    }

    void playbackStepsToBoundaries()
    {
        ViewState state;
        TimelinePage page;
        page.setViewState(&state);
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->timeline);
        page.setAnalysis(analysis);
        const std::vector<double> b = spanBoundaries(*analysis->timeline);
        QCOMPARE(state.playhead(), analysis->timeline->stepSeconds); // a loaded plan opens at the end of its step
        state.setPlayhead(0.0);
        page.playbackBar()->stepToBoundary(+1);
        QCOMPARE(state.playhead(), b[1]);
        page.playbackBar()->stepToBoundary(+1);
        QCOMPARE(state.playhead(), b[2]);
        page.playbackBar()->stepToBoundary(-1);
        QCOMPARE(state.playhead(), b[1]);
        // The slider scrubs the playhead.
        page.playbackBar()->slider()->setValue(5000);
        QVERIFY(test::near(state.playhead(), state.duration() / 2, 1e-3));
    }

    void legendNamesEveryKind()
    {
        TimelineLegend legend;
        const QStringList names = legend.entries();
        QCOMPARE(names.size(), 11);
        QCOMPARE(names.first(), TimelinePalette::name(SpanKind::Forward));
        QVERIFY(names.last().contains(QStringLiteral("bubble")));
        // Wraps to more rows when narrow, never clipped.
        QVERIFY(legend.heightForWidth(300) > legend.heightForWidth(3000));
        // Colours are distinct, so every kind can be told apart.
        QSet<QRgb> colours;
        for (SpanKind k : TimelinePalette::kinds)
            colours.insert(TimelinePalette::color(k).rgb());
        QCOMPARE(colours.size(), int(TimelinePalette::kinds.size()));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
