// Pictures for slides and what a new user sees first: a timeline export shows the step done (nothing pending, no
// playback bar), the Metrics export has no scroll bar and shows every row, pending spans cannot be taken for a kind,
// a newly loaded plan opens with the playhead at its end, the message-size chart describes the group the table
// lists, and the memory bars' labels never collide with each other or the capacity's name.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "charts/MemoryBarsView.h"
#include "pages/CommView.h"
#include "pages/SummaryPage.h"
#include "pages/TimelinePage.h"
#include "timeline/PlaybackBar.h"
#include "timeline/TimelineLegend.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineView.h"
#include "Theme.h"
#include "WidgetExporter.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPainter>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <cmath>
#include <qcustomplot.h>

using namespace planscope;

namespace {

const QColor kMarker(0xFF, 0x00, 0xFF); // painted by the style sheet on the controls that must not be exported

int countColour(const QImage& image, const QColor& colour)
{
    int n = 0;
    const QRgb want = colour.rgb() & 0xFFFFFF;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += (image.pixel(x, y) & 0xFFFFFF) == want ? 1 : 0;
    return n;
}

bool loadInto(PlanDocument& doc, const char* plan)
{
    return test::loadSampleAndWait(doc, plan) && doc.prediction() && doc.prediction()->valid && doc.timeline();
}

// CIE L*a*b* of an sRGB colour (D65), for colour differences (CIE76 delta E).
std::array<double, 3> lab(const QColor& c)
{
    auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double r = lin(c.redF()), g = lin(c.greenF()), b = lin(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
    return { 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)) };
}

double deltaE(const QColor& a, const QColor& b)
{
    const auto p = lab(a), q = lab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

// Chroma (colourfulness) in L*a*b*.
double chroma(const QColor& c)
{
    const auto p = lab(c);
    return std::hypot(p[1], p[2]);
}

} // namespace

class TestExports : public QObject {
    Q_OBJECT
private slots:
    void timelineExportIsTheFinalStepWithoutControls()
    {
        const auto analysis = test::analyseSample("default.plan.json");
        QVERIFY(analysis->valid() && analysis->timeline);
        // The playback slider painted magenta: on screen it shows, in the export it must not.
        qApp->setStyleSheet(QStringLiteral("planscope--PlaybackBar QSlider { background: #ff00ff; }"));
        ViewState state;
        TimelinePage page;
        page.setAttribute(Qt::WA_DontShowOnScreen);
        page.setAnalysis(analysis);
        page.setViewState(&state);
        page.resize(1280, 700);
        page.show();
        state.setPlayhead(analysis->timeline->stepSeconds * 0.4); // mid-step: on screen most spans are pending
        QApplication::processEvents();

        const QImage screen = page.grab().toImage();
        QVERIFY2(countColour(screen, kMarker) > 100, "the marker paints the slider on screen");
        QVERIFY(page.legend()->showsPending());
        int pendingOnScreen = 0;
        for (SpanKind kind : TimelinePalette::kinds)
            pendingOnScreen += countColour(screen, TimelinePalette::pendingColor(kind));
        QVERIFY(pendingOnScreen > 1000);

        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("timeline.png"));
        QString error;
        QVERIFY2(page.exportTo(png, QSize(), &error), qPrintable(error));
        const QImage exported(png);
        QCOMPARE(exported.size(), QSize(1280, 700));
        QCOMPARE(countColour(exported, kMarker), 0); // no playback bar
        // Nothing pending: no pixel of a pending fill (a pure grey one, the optimizer's, also occurs in the edges of
        // text, so it is told by the layout below).
        for (SpanKind kind : TimelinePalette::kinds)
            QVERIFY2(TimelinePalette::pendingColor(kind).hslSaturation() == 0
                    || countColour(exported, TimelinePalette::pendingColor(kind)) == 0,
                qPrintable(QStringLiteral("%1: %2 px").arg(TimelinePalette::name(kind)).arg(countColour(exported, TimelinePalette::pendingColor(kind)))));
        QVERIFY(countColour(exported, TimelinePalette::color(SpanKind::Forward)) > 1000);

        // The page exported is laid out without the bar: the timeline starts right under the title.
        const auto copy = page.exportPage(QSize(1280, 700));
        QVERIFY(copy->playbackBar()->isHidden());
        QVERIFY(copy->view()->isFinalState());
        QVERIFY(!copy->legend()->showsPending());
        QVERIFY(!copy->view()->drawList().rects.empty());
        for (const DrawRect& r : copy->view()->drawList().rects)
            QVERIFY(!(copy->view()->paintFlags(r.flags, r.end) & DrawPending));
        QVERIFY(copy->view()->geometry().top() < page.view()->geometry().top());
        // The page on screen is as it was: the playhead where it was, the bar shown, still pending.
        QCOMPARE(state.playhead(), analysis->timeline->stepSeconds * 0.4);
        QVERIFY(page.playbackBar()->isVisible());
        QVERIFY(!page.view()->isFinalState());
        qApp->setStyleSheet(QString());
    }

    void pendingIsNotAKindColour_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void pendingIsNotAKindColour()
    {
        QFETCH(bool, dark);
        Theme::instance()->setMode(dark ? ThemeMode::Dark : ThemeMode::Light);
        for (SpanKind pendingKind : TimelinePalette::kinds) {
            const QColor pending = TimelinePalette::pendingColor(pendingKind);
            // Nearly grey, where every kind but the optimizer is a clear colour...
            QVERIFY2(chroma(pending) < 12, qPrintable(TimelinePalette::name(pendingKind)));
            // ...and far from every colour of the legend (delta E 20: plainly another colour side by side).
            for (SpanKind kind : TimelinePalette::kinds)
                QVERIFY2(deltaE(pending, TimelinePalette::color(kind)) > 20,
                    qPrintable(QStringLiteral("pending %1 vs %2: %3")
                                   .arg(TimelinePalette::name(pendingKind), TimelinePalette::name(kind))
                                   .arg(deltaE(pending, TimelinePalette::color(kind)))));
            // It keeps its kind in the outline.
            QCOMPARE(TimelinePalette::pendingOutline(pendingKind), TimelinePalette::color(pendingKind));
        }
        Theme::instance()->setMode(ThemeMode::Light);
    }

    void aNewPlanOpensAtTheEndOfItsStep()
    {
        PlanDocument doc;
        ViewState state;
        TimelinePage page;
        page.setDocument(&doc);
        page.setViewState(&state);
        QVERIFY(loadInto(doc, "default.plan.json"));
        QCOMPARE(state.playhead(), doc.timeline()->stepSeconds);
        // Scrubbed to near the start, then a different plan: it opens whole, playback stopped.
        state.setPlayhead(doc.timeline()->stepSeconds * 0.1);
        state.setPlaying(true);
        QVERIFY(loadInto(doc, "interview-175b-256xa100.plan.json"));
        QVERIFY(!state.isPlaying());
        QCOMPARE(state.duration(), doc.timeline()->stepSeconds);
        QCOMPARE(state.playhead(), doc.timeline()->stepSeconds);
        QVERIFY(!page.legend()->showsPending());
        for (const DrawRect& r : page.view()->drawList().rects)
            QVERIFY(!(page.view()->paintFlags(r.flags, r.end) & DrawPending));
        // An edit is not a new plan: the playhead stays.
        state.setPlayhead(doc.timeline()->stepSeconds * 0.5);
        const double before = state.playhead();
        Plan edited = doc.plan();
        edited.training.globalBatch *= 2;
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        doc.setPlan(edited);
        QVERIFY(spy.wait(60000));
        QCOMPARE(state.playhead(), before);
    }

    void metricsExportHasNoScrollBarAndEveryRow()
    {
        const auto analysis = test::analyseSample("gpt3-175b-1024xa100.plan.json");
        QVERIFY(analysis->valid() && analysis->timeline);
        qApp->setStyleSheet(QStringLiteral("QScrollBar { background: #ff00ff; }"));
        SummaryPage page;
        page.setAttribute(Qt::WA_DontShowOnScreen);
        page.setAnalysis(analysis);
        page.resize(1000, 700);
        page.show();
        page.selectField(QStringLiteral("time.stepSeconds")); // a long derivation
        QApplication::processEvents();
        QVERIFY2(countColour(page.grab().toImage(), kMarker) > 100, "the page scrolls on screen");

        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("metrics.png"));
        QString error;
        QVERIFY2(page.exportTo(png, QSize(), &error), qPrintable(error));
        const QImage exported(png);
        QCOMPARE(exported.width(), 1000);
        QVERIFY2(exported.height() > 700, qPrintable(QString::number(exported.height()))); // grown to the content
        QCOMPARE(countColour(exported, kMarker), 0);
        // Back as it was.
        QCOMPARE(page.size(), QSize(1000, 700));
        QVERIFY(countColour(page.grab().toImage(), kMarker) > 100);
        qApp->setStyleSheet(QString());
    }

    void messageSizeChartDescribesTheTablesGroup()
    {
        PlanDocument doc;
        CommView comm;
        comm.setDocument(&doc);
        QVERIFY(loadInto(doc, "interview-175b-256xa100.plan.json"));
        // TP = 8 fills a node, so the DP group of 4 has one GPU on each of 4 nodes (the table's row).
        QCOMPARE(comm.ringSize(), 4);
        const CommGroup* group = comm.messageSizeGroup();
        QVERIFY(group);
        QVERIFY(group->kind == GroupKind::DPCP);
        QVERIFY(group->crossesNodes);
        QCOMPARE(group->nodesSpanned, 4);
        int row = -1;
        for (int r = 0; r < comm.groupTable()->rowCount(); ++r)
            if (comm.groupTable()->item(r, 0)->text() == QLatin1String("DP")) row = r;
        QVERIFY(row >= 0);
        QCOMPARE(comm.groupTable()->item(row, 2)->text(), QStringLiteral("yes (4 nodes)"));
        const QString link = comm.groupTable()->item(row, 5)->text(); // "25.0"
        const QString title = comm.chartTitle(CommChart::MessageSize);
        QVERIFY2(title.contains(QLatin1String("DP group")), qPrintable(title));
        QVERIFY2(title.contains(QLatin1String("across 4 nodes")), qPrintable(title));
        QVERIFY2(title.contains(link + QLatin1String(" GB/s")), qPrintable(title));
        QVERIFY2(!title.contains(QLatin1String("inside one node")), qPrintable(title));
        // The ring curve is the inter-node ring the table times: 2(n-1) steps of alpha plus 2(n-1)/n x S / B.
        const LinkSpec inter = doc.predictedPlan().cluster.interNode;
        const QList<QPointF> ring = comm.plottedSeries(CommChart::MessageSize, CommAlgorithm::Ring);
        QVERIFY(!ring.isEmpty());
        const double S = ring.back().x();
        const double expected = 6 * inter.latency + 1.5 * S / (inter.bandwidth * inter.efficiency);
        QVERIFY2(std::abs(ring.back().y() - expected) < 1e-6 * expected,
            qPrintable(QStringLiteral("%1 vs %2").arg(ring.back().y()).arg(expected)));

        // TP = 8 inside one node: the chart says so too.
        comm.setRingSize(8);
        QVERIFY(comm.messageSizeGroup() && comm.messageSizeGroup()->kind == GroupKind::TP);
        QVERIFY(comm.chartTitle(CommChart::MessageSize).contains(QLatin1String("TP group")));
        QVERIFY(comm.chartTitle(CommChart::MessageSize).contains(QLatin1String("inside one node")));
        // No group of 5: five GPUs side by side, in one node of 8.
        comm.setRingSize(5);
        QVERIFY(!comm.messageSizeGroup());
        QVERIFY(comm.chartTitle(CommChart::MessageSize).contains(QLatin1String("inside one node")));
    }

    void messageSizeTicksNeverTouch()
    {
        const auto analysis = test::analyseSample("llama3-405b-8k-h100.plan.json");
        QVERIFY(analysis->valid() && analysis->timeline);
        CommView comm;
        comm.setAttribute(Qt::WA_DontShowOnScreen);
        comm.setAnalysis(analysis);
        for (const int width : { 800, 1000, 1400 }) {
            comm.resize(width, 900);
            comm.show();
            QApplication::processEvents();
            QCustomPlot* plot = comm.messageSizePlot();
            plot->replot();
            const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->xAxis->ticker());
            QVERIFY(ticker && ticker->ticks().size() >= 3);
            const QFontMetricsF fm(plot->xAxis->tickLabelFont());
            double lastRight = -1e9;
            for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it) {
                const double x = plot->xAxis->coordToPixel(it.key());
                const double w = fm.horizontalAdvance(it.value());
                QVERIFY2(x - w / 2 > lastRight + 2,
                    qPrintable(QStringLiteral("%1 touches the label before it at width %2").arg(it.value()).arg(width)));
                lastRight = x + w / 2;
            }
        }
    }

    void memoryLabelsNeverOverlap_data()
    {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<double>("capacityGiB");
        QTest::addColumn<int>("width");
        QTest::newRow("16 stages, 1280") << QStringLiteral("gpt3-175b-1024xa100.plan.json") << 0.0 << 880;
        QTest::newRow("16 stages, narrow") << QStringLiteral("gpt3-175b-1024xa100.plan.json") << 0.0 << 520;
        QTest::newRow("16 stages over capacity") << QStringLiteral("llama3-405b-8k-h100.plan.json") << 24.0 << 880;
        QTest::newRow("8 stages over capacity") << QStringLiteral("interview-175b-256xa100.plan.json") << 30.0 << 1000;
    }
    void memoryLabelsNeverOverlap()
    {
        QFETCH(QString, plan);
        QFETCH(double, capacityGiB);
        QFETCH(int, width);
        PlanDocument doc;
        QVERIFY(loadInto(doc, qPrintable(plan)));
        std::shared_ptr<const Prediction> prediction = doc.prediction();
        if (capacityGiB > 0) {
            // The same prediction on a smaller GPU: some stages overflow.
            auto smaller = std::make_shared<Prediction>(*prediction);
            smaller->capacityBytes = std::int64_t(capacityGiB * 1073741824.0);
            prediction = smaller;
        }
        MemoryBarsView view;
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.setPrediction(prediction);
        view.resize(width, 460);
        view.show();
        QApplication::processEvents();
        view.plot()->replot();
        if (capacityGiB > 0) QVERIFY(!view.overflowLabels().isEmpty());
        const QList<QRectF> labels = view.barLabelRects();
        const QList<QRectF> bars = view.barRects();
        QCOMPARE(bars.size(), int(prediction->stages.size()));
        QVERIFY(!labels.isEmpty());
        const QRectF chart = view.plot()->axisRect()->rect();
        for (int i = 0; i < labels.size(); ++i) {
            QVERIFY2(chart.adjusted(-1, -1, 1, 1).contains(labels[i]), qPrintable(QStringLiteral("label %1 leaves the chart").arg(i)));
            for (int j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].intersects(labels[j]), qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(i).arg(j)));
            for (const QRectF& bar : bars)
                QVERIFY(!labels[i].adjusted(0, 0, 0, -1).intersects(bar));
        }
        // Every overflow is written where there is room for all of them.
        if (capacityGiB > 0 && width >= 880) {
            int alarms = 0;
            for (const StageMemory& st : prediction->stages)
                alarms += st.totalBytes > prediction->capacityBytes ? 1 : 0;
            QVERIFY(labels.size() >= alarms);
        }
        // The capacity is named on the right axis, outside the bars, at the capacity's height.
        QCPAxis* right = view.plot()->yAxis2;
        QVERIFY(right->visible());
        const auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(right->ticker());
        QVERIFY(ticks && ticks->ticks().size() == 1);
        QCOMPARE(ticks->ticks().first(), view.capacityLabel());
        QVERIFY(std::abs(ticks->ticks().firstKey() - view.capacityGiB()) < 1e-9);
        QVERIFY(view.capacityLabel().contains(QLatin1String("GPU capacity")));
        QCOMPARE(right->tickLabelSide(), QCPAxis::lsOutside);
        for (const QCPAbstractItem* item : view.plot()->findChildren<QCPAbstractItem*>())
            if (auto* text = qobject_cast<const QCPItemText*>(item))
                QVERIFY(!text->text().contains(QLatin1String("GPU capacity")));
    }

    // An export that fails part way (the painting gives up) leaves the file that was there byte for byte; one that
    // succeeds replaces it whole. Every format goes through QSaveFile.
    void aFailedExportLeavesTheOldFile()
    {
        QTemporaryDir dir;
        for (const QString& suffix : WidgetExporter::supportedSuffixes()) {
            const QString path = dir.filePath(QStringLiteral("view.") + suffix);
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the picture from yesterday");
            old.close();
            QString error;
            const bool written = WidgetExporter::exportPainted(path, QSize(200, 100),
                [](QPaintDevice* device, const QRectF&) {
                    QPainter painter(device);
                    painter.fillRect(QRect(0, 0, 50, 50), Qt::red);
                    return false; // gave up half way
                },
                &error);
            QVERIFY(!written);
            QVERIFY(!error.isEmpty());
            QVERIFY(old.open(QIODevice::ReadOnly));
            QCOMPARE(old.readAll(), QByteArray("the picture from yesterday"));
            old.close();
            QVERIFY(WidgetExporter::exportPainted(path, QSize(200, 100), [](QPaintDevice* device, const QRectF&) {
                QPainter painter(device);
                painter.fillRect(QRect(0, 0, 50, 50), Qt::red);
                return painter.end();
            }));
            QVERIFY(old.open(QIODevice::ReadOnly));
            QVERIFY(old.readAll() != QByteArray("the picture from yesterday"));
            old.close();
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left beside it
            QFile::remove(path);
        }
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestExports)
#include "tst_exports.moc"
