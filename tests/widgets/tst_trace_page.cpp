// The measured-run page: importing real traces in the background (progress, cancel, damaged files named with
// their byte offset), telling traces from plans on drop, the lanes and tables it shows, and a synthetic trace of
// the open plan's own prediction overlaying with zero deltas in the view as in core.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "document/PlanDocument.h"
#include "document/TraceSet.h"
#include "trace/TraceAnalysis.h"
#include "util/Units.h"
#include "pages/TracePage.h"
#include "timeline/TimelineView.h"
#include "timeline/TraceTimelineView.h"
#include "document/ViewState.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <fstream>
#include <set>

using namespace planscope;

namespace {
QString tracePath(const char* name) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/traces/") + QString::fromLatin1(name); }

// A page over a trace set over a document, wired as the main window wires them.
struct Wired {
    PlanDocument doc;
    TraceSet traces;
    TracePage page;
    Wired()
    {
        traces.setDocument(&doc);
        page.resize(1400, 900);
        page.setDocument(&doc);
        page.setTraceSet(&traces);
    }
};

void loadDefault(PlanDocument& doc)
{
    QVERIFY(test::loadSampleAndWait(doc, "default.plan.json"));
    QVERIFY(doc.timeline());
}
} // namespace

class TestTracePage : public QObject {
    Q_OBJECT
private slots:
    void ncclTraceShowsLanesCollectivesAndTheComparison()
    {
        Wired w;
        PlanDocument& doc = w.doc;
        TraceSet& traces = w.traces;
        TracePage& page = w.page;
        loadDefault(doc);
        QSignalSpy progress(&traces, &TraceSet::progress);
        traces.importPaths({ tracePath("nccl_data.json.gz") });
        traces.waitForImport();
        QVERIFY(traces.traces());
        QCOMPARE(traces.traces()->ranks.size(), std::size_t(1));
        QVERIFY(traces.overlay());
        QCoreApplication::processEvents();
        QVERIFY(progress.count() > 0);

        // The README: compute on stream 7, NCCL on stream 40 — both are GPU rows of rank 0, and the predicted ghost
        // rows of pipeline rank 0 come first.
        std::set<std::int64_t> streams;
        for (const TraceRow& r : page.timelineView()->rows())
            if (r.kind == TraceRow::GpuStream) streams.insert(r.tid);
        QVERIFY(streams.count(7) && streams.count(40));
        QCOMPARE(int(page.timelineView()->rows().front().kind), int(TraceRow::PredictedCompute));

        // The collectives table shows the all-reduces' bandwidth as core computes it (formula tested in core).
        const MeasuredRank& r = traces.traces()->ranks.front();
        const auto stats = collectiveStats(r);
        QVERIFY(!stats.empty());
        const QStringList rows = page.tableRows(QStringLiteral("collectives"));
        bool found = false;
        for (const QString& row : rows)
            if (row.startsWith(QLatin1String("AllReduce |"))
                && row.contains(QString::number(stats.front().busBandwidth / 1e9, 'f', 2) + QStringLiteral(" GB/s")))
                found = true;
        QVERIFY2(found, qPrintable(rows.join(QLatin1Char('\n'))));
        QVERIFY(page.summaryText().contains(QLatin1String("GPU step measured")));
        // The page shows what planscope-cli import --against computes: the overlay of the plan's own simulated step
        // (evaluate, simulate, as the CLI does), built here without the document.
        {
            const Plan plan = test::loadSample("default.plan.json");
            auto tl = simulate(plan, evaluate(plan));
            QVERIFY(tl.ok());
            const Overlay cli = buildOverlay(traces.traces()->ranks, plan, tl.value());
            QCOMPARE(cli.phases.size(), traces.overlay()->phases.size());
            for (std::size_t i = 0; i < cli.phases.size(); ++i) {
                QCOMPARE(cli.phases[i].predictedSeconds, traces.overlay()->phases[i].predictedSeconds);
                QCOMPARE(cli.phases[i].measuredSeconds, traces.overlay()->phases[i].measuredSeconds);
            }
            QCOMPARE(cli.summary, traces.overlay()->summary);
        }
        // Aligning at another step: ProfilerStep#6 is the third.
        traces.setStep(2);
        QCOMPARE(traces.overlay()->stepName, std::string("ProfilerStep#6"));
        QVERIFY(page.summaryText().contains(QLatin1String("ProfilerStep#6")));
        traces.setStep(-1);
        // compute, exposed communication, idle, step, and forward, backward, optimizer from the compute kernels launched
        // inside the trace's annotations; no PP: ops.
        QCOMPARE(page.tableRows(QStringLiteral("phases")).size(), 7);
        QVERIFY(!page.tableRows(QStringLiteral("kernels")).isEmpty());

        // Keys: + zooms in around the middle, F fits back.
        TraceTimelineView* view = page.timelineView();
        const TimeViewport fitted = view->viewport();
        QTest::keyClick(view, Qt::Key_Plus);
        QVERIFY(view->viewport().end - view->viewport().start < 0.81 * (fitted.end - fitted.start));
        QTest::keyClick(view, Qt::Key_F);
        QVERIFY(view->viewport() == fitted);

        // CPU threads on request: nccl_data's cpu_op / user_annotation events sit on (pid 2910249) threads 2910249 and
        // 2919752 (Python: {(e["pid"], e["tid"]) for e in traceEvents if e.get("cat") in ("cpu_op", "user_annotation")}).
        QVERIFY(!page.timelineView()->showCpu());
        page.timelineView()->setShowCpu(true);
        std::set<std::int64_t> threads;
        for (const TraceRow& row : page.timelineView()->rows())
            if (row.kind == TraceRow::CpuThread) threads.insert(row.tid);
        QVERIFY(threads == (std::set<std::int64_t> { 2910249, 2919752 }));
        page.timelineView()->setShowCpu(false);

        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("trace.png"));
        QString error;
        QVERIFY2(page.exportTo(png, {}, &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), page.size());
    }

    void twoRanksShowTheirStraggler()
    {
        // The sampled_rank pair: 10 NCCL SendRecv kernels each, matched in order; the CLI test (tst_cli_import) and
        // tst_trace_analysis find rank 1 the straggler.
        Wired w;
        w.traces.importPaths({ tracePath("sampled_rank-0.json.gz"), tracePath("sampled_rank-1.json.gz") });
        w.traces.waitForImport();
        QCOMPARE(w.traces.traces()->ranks.size(), std::size_t(2));
        QVERIFY2(w.page.summaryText().contains(QLatin1String("10 collectives matched; rank 1 starts them last")),
            qPrintable(w.page.summaryText()));
        // Both ranks have rows, in rank order.
        std::vector<int> ranks;
        for (const TraceRow& row : w.page.timelineView()->rows())
            if (row.firstOfRank) ranks.push_back(w.traces.traces()->ranks[row.rankIndex].rank);
        QVERIFY(ranks == (std::vector<int> { 0, 1 }));
    }

    // Eight ranks of a Megatron-Core run, tp 2 x pp 2 x dp 2 (tests/data/process-groups, written from
    // megatron/core/parallel_state.py's group names): the page says the layout, "Use This Plan" offers the open plan
    // with it, and asks for it by the signal the main window pushes as one undo step.
    void theTracesLayoutIsOfferedAsThePlan()
    {
        Wired w;
        loadDefault(w.doc);
        w.traces.importPaths({ QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/process-groups/megatron-tp2-pp2-dp2") });
        w.traces.waitForImport();
        QCOMPARE(w.traces.traces()->ranks.size(), std::size_t(8));
        const QString text = w.page.layoutText();
        QVERIFY2(text.contains(QLatin1String("tp 2")) && text.contains(QLatin1String("pp 2")) && text.contains(QLatin1String("dp 2")),
            qPrintable(text));
        QVERIFY(w.page.inferredPlan().has_value());
        QCOMPARE(w.page.inferredPlan()->parallel.tp, 2);
        QCOMPARE(w.page.inferredPlan()->parallel.pp, 2);
        QCOMPARE(w.page.inferredPlan()->parallel.dp, 2);
        QCOMPARE(w.page.inferredPlan()->model.layers, w.doc.plan().model.layers); // the open plan's model kept
        QVERIFY(w.page.usePlanButton()->isEnabled());
        QSignalSpy asked(&w.page, &TracePage::usePlanRequested);
        w.page.usePlanButton()->click();
        QCOMPARE(asked.count(), 1);

        // Only the default group recorded: what could not be inferred is named, nothing is offered that is not known.
        w.traces.importPaths({ QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/process-groups/default-pg-only") });
        w.traces.waitForImport();
        QVERIFY2(w.page.layoutText().contains(QLatin1String("Not inferred")), qPrintable(w.page.layoutText()));
    }

    // A folder of 2,000 rank files, some cut short, some of another run (tests/TestUtil.h): the status counts them
    // all and names the first few, not a line per file.
    void aFolderOfTwoThousandRanksIsCountedNotListed()
    {
        QTemporaryDir dir;
        planscope::test::writeTwoThousandRanks(dir.path().toStdString());
        Wired w;
        w.traces.importPaths({ dir.path() });
        w.traces.waitForImport();
        QCOMPARE(w.traces.traces()->ranks.size(), std::size_t(1700));
        const QString status = w.page.statusText();
        QVERIFY2(status.startsWith(QLatin1String("1700 rank(s) imported from 2000 file(s); 100 file(s) damaged, only their "
                                                 "head kept; 100 file(s) refused; 200 file(s) left out")),
            qPrintable(status.left(300)));
        QVERIFY2(status.contains(QStringLiteral("… and 392 more file(s) left out, damaged or refused")), qPrintable(status.right(300)));
        QVERIFY(status.count(QLatin1Char('\n')) <= 12);
        // With a plan, the overlay's notes name the ranks as ranges, one line for all of them.
        loadDefault(w.doc);
        QTRY_VERIFY_WITH_TIMEOUT(w.traces.overlay() != nullptr, 60000);
        const QString summary = w.page.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("1700 rank(s) (0–1699) have no ProfilerStep")), qPrintable(summary.left(600)));
        QVERIFY(summary.count(QStringLiteral("<br/>")) <= 6);
    }

    void aFolderOfSeveralJobsShowsOneAndNamesTheRest()
    {
        // samples/traces holds three jobs (tests/core/tst_trace_files.cpp): the 128-rank pair is shown, the other
        // two files are named as left out with their job, and the picker offers all three.
        Wired w;
        loadDefault(w.doc);
        w.traces.importPaths({ QStringLiteral(PLANSCOPE_SAMPLES_DIR "/traces") });
        w.traces.waitForImport();
        QCOMPARE(w.traces.traces()->ranks.size(), std::size_t(2));
        for (const MeasuredRank& r : w.traces.traces()->ranks) QCOMPARE(r.worldSize, 128);
        const QString status = w.page.statusText();
        QVERIFY2(status.contains(QLatin1String("df_index_resolver.json.gz: left out, from another job (world size 2, traced 2022-11-30 04:48:07 UTC)")),
            qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("nccl_data.json.gz: left out, from another job (world size 2, traced 2024-05-23 00:15:22 UTC)")),
            qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("3 different jobs")), qPrintable(status));
        QVERIFY(w.page.jobPicker()->isVisibleTo(&w.page));
        QCOMPARE(w.page.jobPicker()->count(), 3);
        QCOMPARE(w.page.jobPicker()->currentIndex(), 2);
        QCOMPARE(w.page.jobPicker()->currentText(), QStringLiteral("world size 128; ranks here: 2; traced 2023-04-28 23:51:38 UTC"));
        // One lane group per rank of that job, and a step of that job (ProfilerStep#551, about 0.6 s).
        std::vector<int> ranks;
        for (const TraceRow& row : w.page.timelineView()->rows())
            if (row.firstOfRank) ranks.push_back(w.traces.traces()->ranks[row.rankIndex].rank);
        QVERIFY(ranks == (std::vector<int> { 0, 1 }));
        QCOMPARE(w.traces.overlay()->stepName, std::string("ProfilerStep#551"));
        QVERIFY(w.traces.overlay()->phases[3].measuredSeconds < 1.0);

        // Picking the nccl_data job shows it alone and names the pair as left out.
        w.page.jobPicker()->activated(1);
        w.traces.waitForImport();
        QCOMPARE(w.traces.traces()->ranks.size(), std::size_t(1));
        QVERIFY(w.traces.traces()->ranks[0].file.ends_with("nccl_data.json.gz"));
        QCOMPARE(w.page.jobPicker()->currentIndex(), 1);
        QVERIFY(w.page.statusText().contains(QLatin1String("sampled_rank-0.json.gz: left out, from another job (world size 128")));

        // The same file twice: one rank, one lane group, the second file named.
        w.traces.importPaths({ tracePath("nccl_data.json.gz"), tracePath("nccl_data.json.gz") });
        w.traces.waitForImport();
        QCOMPARE(w.traces.traces()->ranks.size(), std::size_t(1));
        QVERIFY(!w.page.jobPicker()->isVisibleTo(&w.page));
        QVERIFY2(w.page.statusText().contains(QLatin1String("nccl_data.json.gz: left out, rank 0 is already shown from nccl_data.json.gz")),
            qPrintable(w.page.statusText()));
        int groups = 0;
        for (const TraceRow& row : w.page.timelineView()->rows()) groups += row.firstOfRank;
        QCOMPARE(groups, 1);
    }

    void topKernelsKeepTheirTimeColumnsInView_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1024x700") << QSize(1024, 700);
    }
    void topKernelsKeepTheirTimeColumnsInView()
    {
        // nccl_data's top kernels have names of up to 469 characters (vectorized_elementwise_kernel<4,
        // BinaryFunctor<...>>): the name column elides them, the full name in the tooltip, and the rank, count,
        // GPU time and share columns lie inside the table's viewport without scrolling.
        QFETCH(QSize, size);
        Wired w;
        w.page.resize(size);
        w.page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w.page));
        w.traces.importPaths({ tracePath("nccl_data.json.gz") });
        w.traces.waitForImport();
        w.page.tabs()->setCurrentIndex(2);
        QApplication::processEvents();
        QTableWidget* t = w.page.kernelTable();
        QVERIFY(t->isVisible());
        const std::vector<KernelStat> top = topKernels(w.traces.traces()->ranks.front(), 10);
        QCOMPARE(t->rowCount(), int(top.size()));
        QHeaderView* h = t->horizontalHeader();
        const int viewport = t->viewport()->width();
        QVERIFY(viewport > 0);
        for (int c = 1; c < t->columnCount(); ++c) {
            const int left = h->sectionViewportPosition(c);
            QVERIFY2(left >= 0 && left + h->sectionSize(c) <= viewport,
                qPrintable(QStringLiteral("column %1 at %2 + %3 of %4").arg(c).arg(left).arg(h->sectionSize(c)).arg(viewport)));
        }
        QCOMPARE(t->horizontalScrollBar()->maximum(), 0);
        int longest = 0;
        for (int r = 0; r < t->rowCount(); ++r) {
            const QString full = QString::fromStdString(top[std::size_t(r)].name);
            QCOMPARE(t->item(r, 0)->text(), full);
            QCOMPARE(t->item(r, 0)->toolTip(), full);
            longest = std::max(longest, t->fontMetrics().horizontalAdvance(full));
        }
        QVERIFY(h->sectionSize(0) < longest); // so the longest is drawn elided
        QCOMPARE(t->textElideMode(), Qt::ElideRight);
    }

    void nestedAnnotationsStackIntoDepthRows()
    {
        // "## forward ##" [0, 100] us holds PP:0F0 [10, 40] and PP:0F1 [50, 90]; one kernel on stream 7 [0, 100].
        // The annotations take two rows: the outer one alone, then the two actions side by side.
        const std::string text = "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": ["
                                 "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 0, \"dur\": 100},"
                                 "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"## forward ##\", \"pid\": 0, \"tid\": 7, \"ts\": 0, \"dur\": 100},"
                                 "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"PP:0F0\", \"pid\": 0, \"tid\": 7, \"ts\": 10, \"dur\": 30},"
                                 "{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"PP:0F1\", \"pid\": 0, \"tid\": 7, \"ts\": 50, \"dur\": 40}]}";
        auto rank = importKinetoText(text, "nested.json");
        QVERIFY(rank.ok());
        std::vector<MeasuredRank> ranks { std::move(rank.value()) };
        const Timeline none;
        const Overlay overlay = buildOverlay(ranks, Plan {}, none);
        const auto rows = buildTraceRows(ranks, overlay, nullptr, false);
        std::vector<std::size_t> annotationRows;
        for (const TraceRow& r : rows)
            if (r.kind == TraceRow::Annotations) annotationRows.push_back(r.items.size());
        QVERIFY(annotationRows == (std::vector<std::size_t> { 1, 2 }));
        // Each is coloured by the phase it names: forward for all three.
        for (const TraceRow& r : rows)
            if (r.kind == TraceRow::Annotations)
                for (const TraceItem& it : r.items) QVERIFY(it.color == TraceColor::Phase && it.kind == SpanKind::Forward);
        QCOMPARE(rows.back().kind, TraceRow::GpuStream);
        QCOMPARE(rows.back().tid, std::int64_t(7));
    }

    void oneItemLongerThanTheScreenIsDrawnAndTheRestCulled()
    {
        // Headless, on the timeline engine: one row whose items overlap (as the last depth row of annotations or the
        // predicted communication row can): an 8 ms item from 1 ms, and 2 us items every 10 us over [0, 10 ms).
        TraceRow row;
        row.kind = TraceRow::Annotations;
        for (std::int64_t k = 0; k < 1000; ++k)
            row.items.push_back({ k * 10'000, k * 10'000 + 2'000, std::uint32_t(k), TraceColor::Annotation, SpanKind::Forward, -1 });
        row.items.push_back({ 1'000'000, 9'000'000, 1000, TraceColor::Phase, SpanKind::Backward, -1 });
        std::stable_sort(row.items.begin(), row.items.end(), [](const TraceItem& a, const TraceItem& b) { return a.start < b.start; });
        const std::vector<TraceRow> rows { row };
        const TraceLanes source { rows };
        const LaneIndex index(source);
        LaneMetrics metrics;
        metrics.minSpanPx = 3;
        // The short items in [4, 5] ms: they end after 4 ms and start before 5 ms, k = 400 to 499.
        std::set<std::uint32_t> inside;
        for (const TraceItem& it : row.items)
            if (it.index != 1000 && it.end > 4'000'000 && it.start < 5'000'000) inside.insert(it.index);
        QCOMPARE(inside.size(), std::size_t(100));
        for (const int width : { 1000, 100 }) {
            // 1 us a pixel: each short item (2 px, 10 px apart) is drawn on its own; 10 us a pixel: they fold.
            const DrawList d = engine::layoutLanes(source, index, traceRowLanes(rows), TimeViewport { 4e-3, 5e-3, width }, metrics);
            std::size_t longRects = 0, folded = 0;
            std::set<std::uint32_t> drawn;
            for (const DrawRect& r : d.rects) {
                const TraceItem& it = row.items[r.span];
                if (it.index == 1000) {
                    ++longRects;
                    QCOMPARE(r.x, -1.0); // clipped to the screen
                    QCOMPARE(r.w, double(width) + 2);
                } else {
                    drawn.insert(it.index);
                }
            }
            for (const FoldedBlock& b : d.folds) {
                folded += b.count;
                for (std::size_t i = b.firstSpan; i < b.firstSpan + b.count; ++i) drawn.insert(row.items[i].index);
            }
            QCOMPARE(longRects, std::size_t(1));
            QVERIFY(drawn == inside); // short items outside culled, inside drawn or folded
            if (width == 1000) QVERIFY(d.folds.empty());
            else QVERIFY(folded == 100 && d.folds.size() == 1);
        }

        // Through the view: a trace whose stream 7 runs 2 us kernels every 10 us, but one kernel over [1, 9] ms, and
        // an annotation over [0.5, 9.5] ms holding 2 us marks every 10 us (which stack one row deeper).
        std::string text = "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": [";
        auto event = [&](const char* cat, const char* name, int ts, int dur) {
            text += "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name
                + "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur) + "},";
        };
        for (int k = 0; k < 1000; ++k)
            if (k * 10 < 1000 || k * 10 >= 9000) event("kernel", "short_kernel", k * 10, 2);
        event("kernel", "long_kernel", 1000, 8000);
        event("gpu_user_annotation", "long_annotation", 500, 9000);
        for (int k = 0; k < 1000; ++k) event("gpu_user_annotation", "mark", k * 10 + 1, 2);
        text.back() = ']';
        text += "}";
        auto rank = importKinetoText(text, "long.json");
        QVERIFY(rank.ok());
        auto traces = std::make_shared<TraceImport>();
        traces->ranks.push_back(std::move(rank.value()));
        auto overlay = std::make_shared<const Overlay>(buildOverlay(traces->ranks, Plan {}, Timeline {}));
        TraceTimelineView view;
        view.resize(1400, 600);
        view.setData(traces, overlay, nullptr);
        // The window: 1 ms in the middle of the long kernel (times from the overlay's origin).
        std::size_t gpuRow = view.rows().size();
        for (std::size_t i = 0; i < view.rows().size(); ++i)
            if (view.rows()[i].kind == TraceRow::GpuStream) gpuRow = i;
        QVERIFY(gpuRow < view.rows().size());
        const TraceItem* longKernel = nullptr;
        for (const TraceItem& it : view.rows()[gpuRow].items)
            if (it.end - it.start == 8'000'000) longKernel = &it;
        QVERIFY(longKernel);
        const double t0 = double(longKernel->start) * 1e-9 + 3e-3, t1 = t0 + 1e-3;
        view.setRange(t0, t1);
        view.layoutNow();
        const DrawList& d = view.drawList();
        const int width = view.timeArea().width();
        QCOMPARE(view.viewport().widthPx, width);
        // Per row: the items drawn one by one or folded, against the row's items that meet (t0, t1).
        for (std::size_t ri = 0; ri < view.rows().size(); ++ri) {
            const TraceRow& r = view.rows()[ri];
            std::set<std::size_t> want, got;
            for (std::size_t i = 0; i < r.items.size(); ++i)
                if (double(r.items[i].end) * 1e-9 > t0 && double(r.items[i].start) * 1e-9 < t1) want.insert(i);
            for (const DrawRect& x : d.rects)
                if (x.lane == ri) got.insert(x.span);
            for (const FoldedBlock& b : d.folds)
                if (b.lane == ri)
                    for (std::size_t i = b.firstSpan; i < b.firstSpan + b.count; ++i) got.insert(i);
            QVERIFY2(got == want, qPrintable(QStringLiteral("row %1: %2 shown, %3 in the window").arg(ri).arg(got.size()).arg(want.size())));
        }
        // The GPU row and the outer annotation row show one rect each, the long item clipped to the screen.
        std::size_t longOnes = 0;
        for (const DrawRect& x : d.rects) {
            const TraceItem& it = view.rows()[x.lane].items[x.span];
            if (it.end - it.start < 8'000'000) continue;
            ++longOnes;
            QCOMPARE(x.x, -1.0);
            QCOMPARE(x.w, double(width) + 2);
        }
        QCOMPARE(longOnes, std::size_t(2));
        // The marks inside the window (10 us apart, 100 of them) are there too, on the deeper annotation row.
        std::size_t marks = 0;
        for (const DrawRect& x : d.rects)
            if (view.rows()[x.lane].kind == TraceRow::Annotations && view.rows()[x.lane].depth == 1) ++marks;
        for (const FoldedBlock& b : d.folds)
            if (view.rows()[b.lane].kind == TraceRow::Annotations && view.rows()[b.lane].depth == 1) marks += b.count;
        QCOMPARE(marks, std::size_t(100));
        // Hovering the middle of the GPU row names the long kernel, found by binary search.
        const QRect area = view.timeArea();
        const QPoint mid(area.left() + width / 2, area.top() + int(view.rowTop(gpuRow)) + 4);
        QVERIFY2(view.describeAt(mid).startsWith(QLatin1String("long_kernel")), qPrintable(view.describeAt(mid)));
        // Hovering repaints without a new layout.
        const std::size_t layouts = view.layoutCount();
        QTest::mouseMove(&view, mid);
        view.grab();
        QCOMPARE(view.layoutCount(), layouts);
    }

    // The measured lanes and the predicted timeline are one LaneView each over one ViewState, as the window wires
    // them: what either shows, the other shows (the same seconds of the step), by the same gestures.
    void measuredAndPredictedShareTheViewState()
    {
        Wired w;
        ViewState state;
        TimelineView predicted;
        predicted.resize(1400, 600);
        predicted.setViewState(&state);
        predicted.setDocument(&w.doc);
        w.page.setViewState(&state);
        loadDefault(w.doc);
        w.traces.importPaths({ tracePath("nccl_data.json.gz") });
        w.traces.waitForImport();
        QCoreApplication::processEvents();
        TraceTimelineView* measured = w.page.timelineView();
        QVERIFY(!measured->rows().empty());
        QCOMPARE(measured->viewState(), &state);

        // New traces are fitted: from the origin to the end of the longer of the predicted and measured windows (the
        // overlay's), and the predicted timeline shows the same seconds: here its own step, the longer one.
        double window = 0;
        for (const OverlayRank& o : w.traces.overlay()->ranks)
            window = std::max({ window, double(o.measured.windowNs) * 1e-9, double(o.predicted.windowNs) * 1e-9 });
        QCOMPARE(state.viewStart(), 0.0);
        QVERIFY(test::near(state.viewEnd(), window, 1e-12));
        QVERIFY(test::near(window, predicted.timeline()->stepSeconds, 1e-3));
        auto same = [&] {
            return measured->viewport().start == predicted.viewport().start && measured->viewport().end == predicted.viewport().end
                && measured->viewport().start == state.viewStart() && measured->viewport().end == state.viewEnd();
        };
        QVERIFY(same());

        // A wheel notch over the measured lanes zooms both by 0.8 around the pointer, the time under it kept.
        const QRect area = measured->timeArea();
        const QPointF at(area.left() + area.width() / 3.0, area.top() + 10);
        const double tAt = measured->viewport().toTime(at.x() - area.left());
        const double before = state.viewEnd() - state.viewStart();
        QWheelEvent wheel(at, measured->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(measured, &wheel);
        QVERIFY(test::near(state.viewEnd() - state.viewStart(), 0.8 * before, 1e-9));
        QVERIFY(std::abs(measured->viewport().toTime(at.x() - area.left()) - tAt) < before * 1e-9);
        QVERIFY(same());

        // Keys on the predicted timeline move the measured lanes: the right arrow pans by a tenth of the window.
        const double start = state.viewStart(), width = state.viewEnd() - state.viewStart();
        QTest::keyClick(&predicted, Qt::Key_Right);
        QVERIFY(test::near(state.viewStart(), start + width / 10, 1e-9));
        QVERIFY(same());
        // A drag on the measured lanes pans both: 5 px to the left is 5 px of seconds later (zoomed in: there is room).
        const double spp = measured->viewport().secondsPerPixel(), dragStart = state.viewStart();
        const QPoint from(area.left() + 100, area.top() + 10), to(area.left() + 95, area.top() + 10);
        QTest::mousePress(measured, Qt::LeftButton, Qt::NoModifier, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), measured->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(measured, &move);
        QTest::mouseRelease(measured, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(test::near(state.viewStart(), dragStart + 5 * spp, 1e-9));
        QVERIFY(same());
        // F on the predicted timeline fits its step [0, step seconds]; the measured lanes show that too.
        QTest::keyClick(&predicted, Qt::Key_F);
        QCOMPARE(state.viewStart(), 0.0);
        QCOMPARE(state.viewEnd(), predicted.timeline()->stepSeconds);
        QVERIFY(same());
        // Space on the measured lanes plays the shared step.
        QVERIFY(!state.isPlaying());
        QTest::keyClick(measured, Qt::Key_Space);
        QVERIFY(state.isPlaying());
        state.setPlaying(false);
    }

    void cancelKeepsWhatWasThere()
    {
        TraceSet traces;
        traces.importPaths({ tracePath("df_index_resolver.json.gz") });
        traces.cancel();
        traces.waitForImport();
        QVERIFY(!traces.traces());
        QVERIFY(traces.statusText().contains(QLatin1String("cancelled")));
    }

    void damagedFileIsNamedWithItsOffset()
    {
        QTemporaryDir dir;
        QFile gz(tracePath("sampled_rank-0.json.gz"));
        QVERIFY(gz.open(QIODevice::ReadOnly));
        const QByteArray bytes = gz.readAll();
        const QString cut = dir.filePath(QStringLiteral("cut.json.gz"));
        QFile out(cut);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes.left(bytes.size() / 2)); // a gzip stream cut in half
        out.close();
        Wired w;
        TraceSet& traces = w.traces;
        traces.importPaths({ cut });
        traces.waitForImport();
        QVERIFY(traces.traces());
        QCOMPARE(traces.traces()->skipped.size(), std::size_t(1));
        QVERIFY(traces.traces()->skipped.front().offset > 0);
        QVERIFY(traces.statusText().contains(QLatin1String("damaged")));
        QCOMPARE(traces.traces()->ranks.size(), std::size_t(1)); // the head that parsed is kept
    }

    void emptyFolderAndNonTraceFilesAreNamed()
    {
        QTemporaryDir dir, empty;
        const QString notJson = dir.filePath(QStringLiteral("notes.json"));
        QFile f(notJson);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not JSON");
        f.close();
        Wired w;
        w.traces.importPaths({ empty.path(), notJson });
        w.traces.waitForImport();
        const auto& skipped = w.traces.traces()->skipped;
        QCOMPARE(skipped.size(), std::size_t(2));
        QVERIFY(skipped[0].reason.english().find("no .json or .json.gz") != std::string::npos);
        // "this": 't' may start the literal true, so the first byte that cannot continue valid JSON is the 'h'.
        QCOMPARE(skipped[1].offset, std::int64_t(1));
        QVERIFY(w.traces.traces()->ranks.empty());
        QVERIFY(w.page.summaryText().contains(QLatin1String("Drop PyTorch profiler traces")));
    }

    void syntheticTraceOfThePredictionOverlaysWithZeroDeltas()
    {
        Wired w;
        PlanDocument& doc = w.doc;
        TraceSet& traces = w.traces;
        TracePage& page = w.page;
        loadDefault(doc);
        QTemporaryDir dir;
        const auto texts = syntheticKinetoTraces(*doc.timeline(), doc.predictedPlan());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::ofstream f(dir.filePath(QStringLiteral("rank%1.json").arg(i)).toStdString());
            f << texts[i];
        }
        traces.importPaths({ dir.path() });
        traces.waitForImport();
        const auto overlay = traces.overlay();
        QVERIFY(overlay);
        QCOMPARE(overlay->ranks.size(), texts.size());
        QVERIFY(!overlay->ops.empty());
        for (const OpDelta& d : overlay->ops) QVERIFY(d.startDeltaNs() == 0 && d.durationDeltaNs() == 0);
        QVERIFY2(page.summaryText().contains(QLatin1String("on target")), qPrintable(page.summaryText()));
        QCOMPARE(page.tableRows(QStringLiteral("ops")).size(), int(overlay->ops.size()));

        // Hovering a matched action in the view tells its predicted span and a zero delta.
        TraceTimelineView* view = page.timelineView();
        const QRect area = view->timeArea();
        const TimeViewport vp = view->viewport();
        bool checked = false;
        const QString zero = QStringLiteral("+") + QString::fromStdString(units::formatSeconds(0));
        for (std::size_t ri = 0; ri < view->rows().size(); ++ri) {
            const TraceRow& row = view->rows()[ri];
            if (row.kind != TraceRow::Annotations || row.items.empty() || row.items.front().match < 0) continue;
            const TraceItem& it = row.items.front();
            const double mid = 0.5 * double(it.start + it.end) * 1e-9;
            const QPoint pos(area.left() + int(vp.toX(mid)), area.top() + int(view->rowTop(ri)) + 4);
            const QString text = view->describeAt(pos);
            QVERIFY2(text.contains(QLatin1String("predicted: starts")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("start %1, duration %1").arg(zero)), qPrintable(text));
            checked = true;
            break;
        }
        QVERIFY(checked);
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestTracePage)
#include "tst_trace_page.moc"
