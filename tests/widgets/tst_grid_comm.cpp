// The GPU grid and the communication view against core: ranks, groups and crossing flags from RankGrid,
// busy GPUs from the simulated timeline, chart values from the alpha-beta functions of Collective.h.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "cost/Collective.h"
#include "cost/RankGrid.h"
#include "sim/Timeline.h"
#include "util/Units.h"
#include "charts/CommRingAllReduce.h"
#include "pages/CommView.h"
#include "pages/GpuGridView.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace planscope;
using namespace planscope::test;

namespace {

// 175B on 256 A100s with TP 16 on 8-GPU nodes: every TP group spans two nodes.
Plan tp16Plan()
{
    Plan plan = test::loadSample("interview-175b-256xa100.plan.json");
    plan.name = "175B, TP 16 across two nodes";
    plan.parallel.tp = 16;
    plan.parallel.dp = 2;
    return plan;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Pixels that are neither white nor the window background: something was drawn.
int inkPixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb c = image.pixel(x, y);
            if (qRed(c) < 235 || qGreen(c) < 235 || qBlue(c) < 235) ++n;
        }
    return n;
}

bool busyAt(const Timeline& tl, int stage, double t)
{
    for (const Span& s : tl.spans)
        if (s.rank == stage && s.stream == Stream::Compute && s.start <= t && t < s.end) return true;
    return false;
}

// A grid view over a sample's analysis, following its own view state.
struct GridOn {
    ViewState state;
    GpuGridView view;
    std::shared_ptr<const Analysis> analysis;
    GridOn(const char* plan, QSize size) : analysis(analyseSample(plan))
    {
        view.resize(size);
        view.setViewState(&state);
        view.setAnalysis(analysis);
    }
};

QStringList samplePlans()
{
    return QDir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans"))
        .entryList({ QStringLiteral("*.plan.json") }, QDir::Files, QDir::Name);
}

} // namespace

class TestGridComm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("planscope-grid-comm-tests"));
    }

    void gridRendersEverySample_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& f : samplePlans())
            QTest::newRow(qPrintable(f)) << f;
    }
    void gridRendersEverySample()
    {
        QFETCH(QString, file);
        ViewState state;
        GpuGridView view;
        view.resize(1200, 800);
        view.setViewState(&state);
        const auto analysis = analyseSample(file.toUtf8().constData());
        QVERIFY(analysis->valid());
        view.setAnalysis(analysis);
        const Plan plan = test::loadSample(file.toUtf8().constData());
        QCOMPARE(view.gpuCount(), 1LL * plan.cluster.gpus());
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY2(inkPixels(image) > 2000, qPrintable(QString::number(inkPixels(image))));
        // A 16K-GPU plan fits by folding each node into one cell; small plans show every GPU.
        QCOMPARE(view.isAggregated(), plan.cluster.gpus() > 4096);
        // Every sample keeps TP inside a node; a CP group larger than a node (Llama 3 405B's CP 16, as published)
        // or an EP group larger than a node (DeepSeek-V3's EP 64 over 8 nodes, as NVIDIA runs it) crosses nodes,
        // and each is one warning. Otherwise no warning.
        const RankGrid grid(plan);
        QVERIFY(!grid.placement(GroupKind::TP).crossesNodes);
        QStringList expected;
        if (grid.placement(GroupKind::CP).crossesNodes) expected << QStringLiteral("CP group of");
        if (plan.model.isMoe() && grid.placement(GroupKind::EP).crossesNodes) expected << QStringLiteral("EP group of");
        QCOMPARE(view.warnings().size(), expected.size());
        for (int i = 0; i < expected.size(); ++i)
            QVERIFY2(view.warnings().at(i).startsWith(expected.at(i)), qPrintable(view.warnings().join(QLatin1Char('\n'))));

        CommView comm;
        comm.resize(1400, 900);
        comm.setAnalysis(analysis);
        QCOMPARE(comm.groupTable()->rowCount(), qMax(1, int(analysis->prediction.comm.size())));
        QVERIFY(inkPixels(comm.grab().toImage()) > 2000);
    }

    void nvl72DomainsFrameTheirTrays()
    {
        // DeepSeek-V3 on 1,152 GB200: 288 trays of 4 GPUs in 16 NVL72 domains of 18 trays; EP 32 (8 trays) fits
        // a domain, but groups that straddle a domain boundary cross the network.
        Plan plan = test::loadSample("published/bridge-2511-gb200-deepseek-v3-bf16.plan.json");
        plan.cluster.nodes = 288;
        plan.cluster.nvlinkDomainNodes = 18;
        plan.parallel.dp = 1152 / (plan.parallel.tp * plan.parallel.pp * plan.parallel.cp);
        plan.parallel.ep = 32;
        plan.training.globalBatch = 4608;
        GpuGridView view;
        view.resize(1600, 1000);
        const auto analysis = analyse(plan, PlanDocument::analysisOptions({}));
        QVERIFY(analysis->valid());
        view.setAnalysis(analysis);
        QCOMPARE(view.gpuCount(), 1152LL);
        QCOMPARE(view.domainNodes(), 18);
        const QImage image = view.grab().toImage();
        const GridGeometry& g = view.geometry();
        QVERIFY(g.hasDomains());
        QCOMPARE(g.domains(), 16LL);
        QCOMPARE(view.paintedDomainFrames(), 16);
        // Every tray inside its own domain's frame (and no other), under the label strip; the frames apart.
        for (long long n = 0; n < g.nodes(); ++n) {
            const QRectF tray = g.nodeRect(n);
            for (long long d = 0; d < g.domains(); ++d) {
                QCOMPARE(g.domainRect(d).contains(tray), d == n / 18);
                if (d == n / 18) QVERIFY(tray.top() >= g.domainLabelRect(d).bottom() - 1e-9);
            }
            QCOMPARE(g.nodeAt(tray.center()), n);
        }
        for (long long a = 0; a < g.domains(); ++a)
            for (long long b = a + 1; b < g.domains(); ++b)
                QVERIFY(!g.domainRect(a).intersects(g.domainRect(b)));
        // At 1600 x 1000 every GPU is drawn (no aggregation) in cells of whole pixels at least 8 px tall.
        QVERIFY(!view.isAggregated());
        QVERIFY(g.cellSize().height() >= 8);
        QCOMPARE(view.geometry().cellRect(0).toAlignedRect(), view.cellRect(0));
        // Frames are painted: the top edge of every domain frame is darker than the paper around it.
        for (long long d = 0; d < g.domains(); ++d) {
            const QRectF r = g.domainRect(d);
            const QPointF edge(std::round(r.center().x()), std::round(r.top()));
            const QPoint at = view.canvas()->mapTo(&view, edge.toPoint());
            QVERIFY2(qGray(image.pixel(at)) < 160, qPrintable(QString::number(d)));
        }
        // Crossings: inside a domain over NVLink, between domains over the network (and only those warn).
        QVERIFY(!view.nvlinkCrossings().empty());
        QVERIFY(!view.networkCrossings().empty());
        for (const auto& [a, b] : view.nvlinkCrossings()) QCOMPARE(a / 18, b / 18);
        for (const auto& [a, b] : view.networkCrossings()) QVERIFY(a / 18 != b / 18);
        QCOMPARE(view.warnings().size(), 1);
        QVERIFY2(view.warnings().front().startsWith(QStringLiteral("EP group of 32 spans 2 NVLink domains")),
            qPrintable(view.warnings().front()));
        // The export at another size fits the domains again.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("nvl72.png"));
        QVERIFY(view.exportTo(out, QSize(1600, 1000)));
        QCOMPARE(QImage(out).size(), QSize(1600, 1000));
    }

    void hoverHighlightsGpu()
    {
        GridOn on("interview-175b-256xa100.plan.json", QSize(1000, 700));
        QVERIFY(on.analysis->valid());
        ViewState& state = on.state;
        GpuGridView& view = on.view;
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy spy(&state, &ViewState::highlightedGpuChanged);
        for (int rank : { 0, 13, 100, 255 }) {
            const QRect cell = view.cellRect(rank);
            QVERIFY(cell.isValid());
            QTest::mouseMove(view.canvas(), cell.center());
            QTRY_COMPARE(state.highlightedGpu(), rank);
            QCOMPARE(view.highlightedGpu(), rank);
        }
        QVERIFY(spy.count() >= 4);
        // Zoomed in, a cell is bigger and still maps back to its rank.
        const int before = view.cellRect(100).width();
        view.setZoom(3.0);
        int visible = -1;
        for (int r = 0; r < 256 && visible < 0; ++r)
            if (view.canvas()->rect().contains(view.cellRect(r)) && r != 255) visible = r;
        QVERIFY(visible >= 0);
        const QRect cell = view.cellRect(visible);
        QVERIFY(cell.width() > 2 * before);
        QTest::mouseMove(view.canvas(), cell.center() + QPoint(1, 0));
        QTRY_COMPARE(state.highlightedGpu(), visible);
        state.setHighlightedGpu(13);
        // The CommView following the same state names the hovered GPU's groups.
        CommView comm;
        comm.setViewState(&state);
        comm.setAnalysis(on.analysis);
        QVERIFY2(comm.highlightText().startsWith(QStringLiteral("GPU 13 on node 1")),
            qPrintable(comm.highlightText()));
    }

    void crossNodeTpIsRed()
    {
        const Plan plan = tp16Plan();
        const RankGrid grid(plan);
        QVERIFY(grid.placement(GroupKind::TP).crossesNodes);
        GpuGridView view;
        view.resize(1200, 800);
        const auto analysis = analyse(plan, PlanDocument::analysisOptions({}));
        QVERIFY(analysis->valid());
        view.setAnalysis(analysis);
        QCOMPARE(view.warnings().size(), 1);
        QVERIFY2(view.warnings().front().startsWith(QStringLiteral(
                     "TP group of 16 spans 2 nodes: every layer's all-reduce crosses InfiniBand")),
            qPrintable(view.warnings().front()));
        // The prediction agrees: its TP group crosses nodes.
        bool tpCrosses = false;
        for (const CommGroup& g : analysis->prediction.comm)
            if (g.kind == GroupKind::TP) tpCrosses = g.crossesNodes;
        QVERIFY(tpCrosses);
        // ... and the table writes it in red.
        CommView comm;
        comm.setAnalysis(analysis);
        bool red = false;
        for (int r = 0; r < comm.groupTable()->rowCount(); ++r)
            if (comm.groupTable()->item(r, 0)->text() == QLatin1String("TP"))
                red = comm.groupTable()->item(r, 2)->text().startsWith(QStringLiteral("yes"));
        QVERIFY(red);
    }

    void busyFollowsPlayhead()
    {
        GridOn on("default.plan.json", QSize(1000, 700));
        ViewState& state = on.state;
        GpuGridView& view = on.view;
        const auto& analysis = on.analysis;
        QVERIFY(analysis->valid());
        const std::shared_ptr<const Timeline> tl = analysis->timeline;
        QVERIFY(tl);
        QVERIFY(view.hasTimeline());
        state.setDuration(tl->stepSeconds);
        const RankGrid grid(analysis->plan);
        QList<QList<int>> seen;
        for (double share : { 0.0, 0.02, 0.2, 0.5, 0.8, 0.97 }) {
            const double t = share * tl->pipelineSeconds;
            state.setPlayhead(t);
            QList<int> busy;
            for (int r = 0; r < grid.gpus(); ++r) {
                QCOMPARE(view.isBusy(r), busyAt(*tl, grid.coords(r).pp, t));
                if (view.isBusy(r)) busy << r;
            }
            QCOMPARE(view.busyGpuCount(), int(busy.size()));
            seen << busy;
        }
        // At the start only stage 0 computes; later others do: the grid changes as the playhead moves.
        QCOMPARE(seen.front().size(), int(grid.gpus() / grid.pp()));
        for (int r : seen.front())
            QCOMPARE(grid.coords(r).pp, 0);
        QVERIFY(seen[2] != seen[0] || seen[3] != seen[0]);
        QVERIFY(view.statusText().contains(QStringLiteral("pipeline stages computing")));
        // At the end of the step no stage computes: the grid then lights the first moment the most stages compute,
        // found here by trying every compute span's start, and says so; inside the step it follows the playhead.
        state.setPlayhead(tl->stepSeconds);
        double best = -1;
        int most = 0;
        std::vector<double> starts;
        for (const Span& sp : tl->spans)
            if (sp.stream == Stream::Compute) starts.push_back(sp.start);
        std::sort(starts.begin(), starts.end());
        for (double t : starts) {
            int busy = 0;
            for (int stage = 0; stage < grid.pp(); ++stage) busy += busyAt(*tl, stage, t) ? 1 : 0;
            if (busy > most) {
                most = busy;
                best = t;
            }
        }
        QCOMPARE(view.shownTime(), best);
        QCOMPARE(view.busyGpuCount(), most * int(grid.gpus() / grid.pp()));
        QVERIFY2(view.statusText().contains(QLatin1String("the busiest moment")), qPrintable(view.statusText()));
        state.setPlayhead(tl->stepSeconds / 3);
        QCOMPARE(view.shownTime(), tl->stepSeconds / 3);
        QVERIFY(view.statusText().startsWith(QLatin1String("Playhead")));
    }

    // DeepSeek-V3 on 1,024 H100 (EP 64 over 8 nodes): the crossing is the EP kind's, with the traffic the prediction
    // gives its group, named in the headline; every one of the 1,024 GPUs carries its rank in the picture.
    void aLargeMoeGridNamesItsCrossingAndLabelsEveryGpu()
    {
        GpuGridView view;
        view.resize(1400, 900);
        const auto analysis = analyseSample("deepseek-v3-1024xh100-fp8.plan.json");
        QVERIFY(analysis->valid());
        view.setAnalysis(analysis);
        QCOMPARE(view.crossings().size(), std::size_t(1));
        const GpuGridView::Crossing& ep = view.crossings().front();
        QVERIFY(ep.kind == GroupKind::EP);
        double bytes = 0;
        for (const CommGroup& g : analysis->prediction.comm)
            if (g.kind == GroupKind::EP) bytes = std::max(bytes, g.bytesPerStep);
        QVERIFY(bytes > 0);
        QCOMPARE(ep.bytesPerStep, bytes);
        QVERIFY(!ep.links.empty());
        QVERIFY(ep.links == view.networkCrossings());
        QCOMPARE(view.warnings().size(), 1);
        QVERIFY2(view.warnings().front().contains(QString::fromStdString(units::formatBytes(bytes)) + QLatin1String(" per GPU per step")),
            qPrintable(view.warnings().front()));
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("grid.svg"));
        QVERIFY(view.exportTo(svg, QSize(1400, 900)));
        const QByteArray text = readAll(svg);
        for (const char* rank : { ">0<", ">99<", ">100<", ">517<", ">1023<" }) QVERIFY2(text.contains(rank), rank);
        // The legend wraps instead of dropping what does not fit: at 1280 x 800 and 1920 x 1080 it holds the crossing
        // with its traffic and the links' bandwidths.
        for (const QSize size : { QSize(1280, 800), QSize(1920, 1080) }) {
            QVERIFY(view.exportTo(svg, size));
            const QByteArray legend = readAll(svg);
            QVERIFY(legend.contains(("EP group crossing nodes: " + units::formatBytes(bytes) + " per GPU per step").c_str()));
            QVERIFY(legend.contains("inter-node network: "));
            QVERIFY(legend.contains("computing at the playhead"));
        }
    }

    // A header line too long for a narrow grid (the compare page's columns) is cut in the middle, not at its end, and
    // hovering it shows the whole line: the title's start ("1,024 GPUs") and end ("rank order ...") stay on screen.
    void aCutHeaderLineIsWholeOnHover()
    {
        GpuGridView view;
        view.setCompact(true);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(360, 320);
        view.setAnalysis(analyseSample("deepseek-v3-1024xh100-fp8.plan.json"));
        view.show();
        view.canvas()->repaint();
        const QStringList cut = view.cutHeaderLines();
        QVERIFY(!cut.isEmpty());
        const QString title = cut.front();
        QVERIFY2(title.startsWith(QLatin1String("1,024 GPUs")) && title.contains(QLatin1String("rank order")), qPrintable(title));
        // The first line's place: its text whole on hover; far below the header, nothing.
        QCOMPARE(view.headerToolTipAt(QPointF(20, 10)), title);
        QVERIFY(view.headerToolTipAt(QPointF(20, view.canvas()->height() - 2)).isEmpty());
        // Wide enough, nothing is cut.
        view.resize(2400, 900);
        view.canvas()->repaint();
        QVERIFY2(view.cutHeaderLines().isEmpty(), qPrintable(view.cutHeaderLines().join(QLatin1Char('\n'))));
    }

    void chartsEqualCoreFunctions()
    {
        CommView view;
        const auto analysis = analyseSample("interview-175b-256xa100.plan.json");
        QVERIFY(analysis->valid());
        view.setAnalysis(analysis);
        const Plan& plan = analysis->plan;
        const ClusterSpec& C = plan.cluster;
        // The buffer: the largest stage's parameters in the gradient dtype.
        double S = 0;
        for (const StageMemory& st : analysis->prediction.stages)
            S = std::max(S, st.parameters * bytesPerElement(plan.training.gradDtype));
        QCOMPARE(view.gradientBytes(), S);
        auto link = [&](int n) { return n <= C.gpusPerNode ? C.intraNode : C.interNode; };
        auto value = [](const QList<QPointF>& series, double x) {
            for (const QPointF& p : series)
                if (p.x() == x) return p.y();
            return -1.0;
        };
        const auto ring = view.plottedSeries(CommChart::GpuCount, CommAlgorithm::Ring);
        const auto tree = view.plottedSeries(CommChart::GpuCount, CommAlgorithm::Tree);
        const auto hier = view.plottedSeries(CommChart::GpuCount, CommAlgorithm::Hierarchical);
        const auto ps = view.plottedSeries(CommChart::GpuCount, CommAlgorithm::ParameterServer);
        QCOMPARE(ring.front().x(), 2.0);
        QCOMPARE(ring.back().x(), 1024.0);
        for (int n : { 2, 8, 16, 64, 1024 }) {
            QCOMPARE(value(ring, n), ringSeconds(Collective::AllReduce, n, S, link(n)));
            QCOMPARE(value(tree, n), treeAllReduceSeconds(n, S, link(n)));
            QCOMPARE(value(hier, n),
                hierarchicalSeconds(Collective::AllReduce, n, C.gpusPerNode, S, C.intraNode, C.interNode));
            QCOMPARE(value(ps, n), parameterServerSeconds(n, 1, S, link(n)));
        }
        // Across nodes the hierarchical all-reduce beats the flat ring over the NICs.
        QVERIFY(value(hier, 64) < value(ring, 64));

        for (int n : { 4, 32 }) {
            view.setRingSize(n);
            const auto sRing = view.plottedSeries(CommChart::MessageSize, CommAlgorithm::Ring);
            const auto sTree = view.plottedSeries(CommChart::MessageSize, CommAlgorithm::Tree);
            const auto sHier = view.plottedSeries(CommChart::MessageSize, CommAlgorithm::Hierarchical);
            const auto sPs = view.plottedSeries(CommChart::MessageSize, CommAlgorithm::ParameterServer);
            QCOMPARE(sRing.front().x(), 1024.0);
            // Up to 4 GiB, or on to the plan's gradient buffer when that is larger.
            QCOMPARE(sRing.back().x(), std::max(4.0 * 1073741824.0, std::exp2(std::ceil(std::log2(S)))));
            // n = 4 is the plan's DP group, one GPU on each of 4 nodes (TP = 8 fills a node), so its curves run on
            // the inter-node link as the table says; no group has 32 GPUs, so those sit side by side.
            const CommGroup* g = view.messageSizeGroup();
            QCOMPARE(g != nullptr, n == 4);
            if (g) QVERIFY(g->crossesNodes && g->perNode == 1);
            const LinkSpec sLink = g ? (g->crossesNodes ? C.interNode : C.intraNode) : link(n);
            const int sPerNode = g ? g->perNode : C.gpusPerNode;
            for (double bytes : { 1024.0, 1048576.0, 1073741824.0, 4.0 * 1073741824.0 }) {
                QCOMPARE(value(sRing, bytes), ringSeconds(Collective::AllReduce, n, bytes, sLink));
                QCOMPARE(value(sTree, bytes), treeAllReduceSeconds(n, bytes, sLink));
                QCOMPARE(value(sHier, bytes),
                    hierarchicalSeconds(Collective::AllReduce, n, sPerNode, bytes, C.intraNode, C.interNode));
                QCOMPARE(value(sPs, bytes), parameterServerSeconds(n, 1, bytes, sLink));
            }
            // Small messages: the tree's 2 log2 n latency steps beat the ring's 2(n-1).
            QVERIFY(value(sTree, 1024.0) < value(sRing, 1024.0));
        }
    }

    void ringAnimationSteps_data()
    {
        QTest::addColumn<int>("n");
        for (int n : { 2, 3, 5, 8, 16 })
            QTest::newRow(qPrintable(QString::number(n))) << n;
    }
    void ringAnimationSteps()
    {
        QFETCH(int, n);
        const CommRingAllReduce ring(n);
        QCOMPARE(ring.stepCount(), 2 * (n - 1));
        // Reduce-scatter adds, all-gather forwards only complete chunks, and the end is all complete.
        for (int step = 1; step <= ring.stepCount(); ++step) {
            const auto before = ring.stateAfter(step - 1);
            for (const auto& t : ring.transfers(step)) {
                QCOMPARE(t.to, (t.from + 1) % n);
                if (ring.isAllGather(step)) QCOMPARE(before[std::size_t(t.from)][std::size_t(t.chunk)], n);
            }
        }
        const auto rs = ring.stateAfter(n - 1);
        for (int i = 0; i < n; ++i)
            QCOMPARE(rs[std::size_t(i)][std::size_t((i + 1) % n)], n);
        for (const auto& gpu : ring.stateAfter(ring.stepCount()))
            for (int c : gpu)
                QCOMPARE(c, n);
        QCOMPARE(ring.bytesSentPerGpu(1000.0), 2.0 * (n - 1) / n * 1000.0);

        CommView view;
        view.setRingSize(n);
        QCOMPARE(view.ringStepCount(), 2 * (n - 1));
        QCOMPARE(view.ringStep(), 0);
        int steps = 0;
        while (view.stepRing())
            ++steps;
        QCOMPARE(steps, 2 * (n - 1));
        QVERIFY2(view.ringCaption().contains(QStringLiteral("2(n−1)/n × S")), qPrintable(view.ringCaption()));
        view.resetRing();
        QCOMPARE(view.ringStep(), 0);
        if (n >= 3) {
            view.stepRing();
            view.stepRing();
            QVERIFY2(view.ringCaption().startsWith(
                         QStringLiteral("reduce-scatter step 2/%1: each GPU sends 1/%2 of the buffer")
                             .arg(n - 1)
                             .arg(n)),
                qPrintable(view.ringCaption()));
        }
    }

    void ringPlays()
    {
        CommView view;
        view.setRingSize(3);
        view.playRing(true);
        QTRY_VERIFY_WITH_TIMEOUT(view.ringStep() >= 1, 5000);
        view.playRing(false);
    }

    void exportWritesFiles_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG", 4);
        QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<svg");
        QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF");
    }
    void exportWritesFiles()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        GpuGridView grid;
        CommView comm;
        const auto analysis = analyse(tp16Plan(), PlanDocument::analysisOptions({}));
        QVERIFY(analysis->valid());
        grid.setAnalysis(analysis);
        comm.setAnalysis(analysis);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (QWidget* view : { static_cast<QWidget*>(&grid), static_cast<QWidget*>(&comm) }) {
            const QString path
                = dir.filePath((view == &grid ? QStringLiteral("grid.") : QStringLiteral("comm.")) + suffix);
            QString error;
            const bool ok = view == &grid ? grid.exportTo(path, QSize(1100, 700), &error)
                                          : comm.exportTo(path, QSize(1100, 700), &error);
            QVERIFY2(ok, qPrintable(error));
            const QByteArray bytes = readAll(path);
            QVERIFY2(bytes.size() > 1000, qPrintable(QString::number(bytes.size())));
            QVERIFY(
                suffix == QLatin1String("svg") ? bytes.left(400).contains(magic) : bytes.startsWith(magic));
            // The size asked for; the communication page grows taller where its content needs more (an export
            // has no scroll bar).
            if (suffix == QLatin1String("png") && view == &grid) QCOMPARE(QImage(path).size(), QSize(1100, 700));
            if (suffix == QLatin1String("png") && view == &comm) {
                QCOMPARE(QImage(path).width(), 1100);
                QVERIFY(QImage(path).height() >= 700);
            }
            if (suffix == QLatin1String("svg") && view == &grid)
                QVERIFY(bytes.contains("TP group of 16 spans 2 nodes")); // text stays text
        }
        QString error;
        QVERIFY(!grid.exportTo(dir.filePath(QStringLiteral("grid.bmpx")), {}, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!comm.exportTo(dir.filePath(QStringLiteral("comm.bmpx")), {}, &error));
    }

};

PLANSCOPE_GUI_TEST_MAIN(TestGridComm)

#include "tst_grid_comm.moc"
