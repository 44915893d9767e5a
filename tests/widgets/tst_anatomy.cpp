// The layer anatomy page and the metrics page's operator table, on GPT-3 175B (TP 8, full recompute) loaded
// through PlanDocument: one bar per op of Prediction::layerOps, as long as the op takes (one scale for all),
// placed on the critical path (an overlapped collective beside the op it overlaps with), coloured by what
// bounds it, in the picture too; the output layer behind the switch; PNG, SVG and PDF; and the table's rows
// are the same ops. The CPU lanes: on Qwen3-30B-A3B (MoE, B200, no CUDA graphs) one CPU bar per op at the
// op's hostStart, as long as its hostSeconds, the syncs, the GPU's waits and the host-bound caption; the
// dense GPT-3 plan is not host-bound.
#include "GuiTestMain.h"
#include "ImageUtil.h"
#include "TestUtil.h"

#include "Palette.h"
#include "Theme.h"
#include "charts/LayerAnatomyView.h"
#include "charts/OperatorText.h"
#include "document/PlanDocument.h"
#include "pages/AnatomyPage.h"
#include "pages/SummaryPage.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <set>

using namespace planscope;

namespace {

QColor expectedColour(OpBound bound)
{
    switch (bound) {
    case OpBound::Compute:
        return palette::blue();
    case OpBound::Memory:
        return palette::orange();
    case OpBound::Communication:
        return palette::bluishGreen();
    case OpBound::Latency:
        return palette::reddishPurple();
    }
    return {};
}

} // namespace

class TestAnatomy : public QObject {
    Q_OBJECT
private:
    PlanDocument* m_doc = nullptr;
    AnatomyPage* m_page = nullptr;
    SummaryPage* m_metrics = nullptr;

    const std::vector<KernelOp>& layerOps() const { return m_doc->prediction()->layerOps; }

private slots:
    void initTestCase()
    {
        Theme::instance()->setMode(ThemeMode::Light);
        m_doc = new PlanDocument(this);
        m_page = new AnatomyPage;
        m_metrics = new SummaryPage;
        m_page->setDocument(m_doc);
        m_metrics->setDocument(m_doc);
        QSignalSpy spy(m_doc, &PlanDocument::predictionChanged);
        QVERIFY(m_doc->load(QString::fromStdString(test::samplePath("gpt3-175b-1024xa100.plan.json"))));
        QVERIFY(spy.count() > 0 || spy.wait(60000));
        QVERIFY(m_doc->prediction() && m_doc->prediction()->valid);
        QVERIFY(layerOps().size() > 20);
        QVERIFY(!m_doc->prediction()->outputOps.empty());
        m_page->resize(1400, 900);
    }

    void cleanupTestCase()
    {
        delete m_page;
        delete m_metrics;
    }

    void showsTheDocumentsOpsAsTheyAre()
    {
        QCOMPARE(m_page->pageName(), QStringLiteral("anatomy"));
        // The prediction's own list, not a copy computed again.
        QCOMPARE(&m_page->view()->ops(), &layerOps());
    }

    void oneBarPerOpAsLongAsItTakes()
    {
        const std::vector<KernelOp>& ops = layerOps();
        const LayerAnatomyView::Layout L = m_page->view()->layoutFor(QRectF(0, 0, 1400, 900));
        QCOMPARE(L.bars.size(), ops.size());
        QVERIFY(L.pixelsPerSecond > 0);
        QVERIFY(L.rowHeight >= 12);
        double exposed = 0;
        std::set<OpBound> bounds;
        int overlapped = 0;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const AnatomyBar& b = L.bars[i];
            const KernelOp& op = ops[i];
            QCOMPARE(b.op, int(i));
            QCOMPARE(b.seconds, op.seconds);
            // One scale: width / seconds is the same for every bar.
            QVERIFY2(test::near(b.rect.width(), op.seconds * L.pixelsPerSecond, 1e-9), op.name);
            QCOMPARE(b.color, expectedColour(op.bound));
            QCOMPARE(b.color, OperatorText::boundColor(op.bound));
            bounds.insert(op.bound);
            // Rows in execution order, top to bottom, inside the chart.
            if (i > 0) QVERIFY(b.rect.top() > L.bars[i - 1].rect.top());
            QVERIFY2(L.chart.adjusted(-0.01, -0.01, 0.01, 0.01).contains(b.rect), op.name);
            if (op.hiddenBy >= 0) {
                // Beside the op it overlaps with: on the same time range.
                ++overlapped;
                QVERIFY(b.hidden);
                QCOMPARE(b.start, L.bars[std::size_t(op.hiddenBy)].start);
                QVERIFY(test::near(b.rect.left(), L.bars[std::size_t(op.hiddenBy)].rect.left()));
            } else {
                // On the critical path: where the exposed time of the ops before it ends.
                QVERIFY(!b.hidden);
                QVERIFY2(test::near(b.start, exposed, 1e-9), op.name);
            }
            exposed += op.exposedSeconds;
        }
        QVERIFY(overlapped > 0);
        QVERIFY(bounds.count(OpBound::Compute) && bounds.count(OpBound::Memory)
            && bounds.count(OpBound::Communication));
        // The chart spans the layer's exposed time, the sum of core's per-pass totals.
        const PassTotals t = sumPasses(layerOps());
        QVERIFY(test::near(L.span, t.forward + t.recompute + t.backwardInput + t.backwardWeight, 1e-9));
        QVERIFY(test::near(L.span, exposed, 1e-9));
    }

    void barsArePaintedInTheirColours()
    {
        QImage image(1400, 900, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            m_page->view()->paint(p, QRectF(0, 0, 1400, 900));
        }
        const LayerAnatomyView::Layout L = m_page->view()->layoutFor(QRectF(0, 0, 1400, 900), &image);
        int sampled = 0;
        for (const AnatomyBar& b : L.bars) {
            if (b.hidden || b.rect.width() < 6) continue;
            const QPoint centre(int(b.rect.left() + 2), int(b.rect.center().y()));
            QCOMPARE(image.pixelColor(centre).rgb(), b.color.rgb());
            ++sampled;
        }
        QVERIFY(sampled > 10);
        QVERIFY(test::distinctColours(image) > 8);
    }

    void outputLayerBehindTheSwitch()
    {
        m_page->opsChoice()->setCurrentIndex(1);
        QCOMPARE(&m_page->view()->ops(), &m_doc->prediction()->outputOps);
        const LayerAnatomyView::Layout L = m_page->view()->layoutFor(QRectF(0, 0, 1400, 900));
        QCOMPARE(L.bars.size(), m_doc->prediction()->outputOps.size());
        for (const AnatomyBar& b : L.bars)
            QCOMPARE(b.color, expectedColour(m_doc->prediction()->outputOps[std::size_t(b.op)].bound));
        m_page->opsChoice()->setCurrentIndex(0);
        QCOMPARE(&m_page->view()->ops(), &layerOps());
    }

    void exportsPngSvgPdf()
    {
        QTemporaryDir dir;
        for (const char* suffix : { "png", "svg", "pdf" }) {
            const QString out = dir.filePath(QStringLiteral("anatomy.%1").arg(QLatin1String(suffix)));
            QString error;
            QVERIFY2(m_page->exportTo(out, QSize(1400, 900), &error), qPrintable(error));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            if (qstrcmp(suffix, "png") == 0) {
                const QImage image(out);
                QCOMPARE(image.width(), 1400);
                QVERIFY(image.height() >= 900);
                QVERIFY(test::distinctColours(image) > 8);
            } else if (qstrcmp(suffix, "pdf") == 0) {
                QVERIFY(bytes.startsWith("%PDF"));
            } else {
                QVERIFY(bytes.contains("<?xml"));
                QVERIFY(bytes.contains("fc1.wgrad")); // names stay text
            }
        }
    }

    void denseLargePlanIsNotHostBound()
    {
        const LayerAnatomyView* view = m_page->view();
        QVERIFY(view->hostBoundCaption().isEmpty());
        const LayerAnatomyView::Layout L = view->layoutFor(QRectF(0, 0, 1400, 900));
        // Its lanes are there (the host issues every op), one per pass, under the pass's rows.
        std::size_t passes = 0;
        for (std::size_t i = 0; i < layerOps().size(); ++i)
            passes += i == 0
                || OperatorText::phase(layerOps()[i].pass) != OperatorText::phase(layerOps()[i - 1].pass);
        QCOMPARE(L.hostLanes.size(), passes);
        QCOMPARE(L.rows, int(layerOps().size() + L.hostLanes.size()));
        for (const AnatomyHostLane& lane : L.hostLanes) QVERIFY(L.chart.contains(lane.rect.center()));
    }

    void cpuLanesOfAHostBoundMoePlan()
    {
        Plan plan = test::loadSample("published/bridge-2511-b200-qwen3-30b-a3b-mxfp8.plan.json");
        plan.training.host.cudaGraphs = CudaGraphs::None;
        PlanDocument doc;
        AnatomyPage page;
        page.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        doc.setPlan(plan);
        QVERIFY(spy.count() > 0 || spy.wait(60000));
        QVERIFY(doc.prediction() && doc.prediction()->valid);
        page.resize(1400, 900);
        const LayerAnatomyView* view = page.view();
        const std::vector<KernelOp>& ops = view->ops();
        QCOMPARE(&ops, &doc.prediction()->layerOps);
        const LayerAnatomyView::Layout L = view->layoutFor(QRectF(0, 0, 1400, 900));
        QVERIFY(!L.hostLanes.empty());

        // One CPU bar per op (no graphs), at the op's hostStart from its pass's start, hostSeconds long, on
        // the GPU bars' scale, in the lane under the op's pass.
        std::size_t next = 0, syncs = 0;
        for (const AnatomyHostLane& lane : L.hostLanes) {
            for (const AnatomyHostBar& b : lane.bars) {
                QCOMPARE(b.op, int(next));
                QCOMPARE(b.lastOp, b.op);
                const KernelOp& op = ops[next];
                QVERIFY(!b.graph && !op.graphed);
                QCOMPARE(b.hostStart, op.hostStart);
                QCOMPARE(b.seconds, op.hostSeconds);
                QVERIFY(op.hostSeconds > 0);
                QVERIFY2(test::near(b.rect.width(), op.hostSeconds * L.pixelsPerSecond, 1e-9), op.name);
                QVERIFY(test::near(b.rect.left(), L.chart.left() + b.start * L.pixelsPerSecond, 1e-9));
                QVERIFY(b.rect.top() > L.bars[next].rect.top()); // under the op's own row
                QCOMPARE(OperatorText::phase(op.pass), OperatorText::Phase(lane.phase));
                ++next;
            }
            for (const AnatomySync& s : lane.syncs) {
                QVERIFY(ops[std::size_t(s.op)].syncAfter);
                QVERIFY(s.gpuEnd >= s.cpuEnd - 1e-12); // the CPU waits for the GPU
                ++syncs;
            }
            // The CPU issues the pass's ops in order: each bar starts where the one before it ends, or later.
            for (std::size_t k = 1; k < lane.bars.size(); ++k)
                if (ops[std::size_t(lane.bars[k].op)].pass == ops[std::size_t(lane.bars[k - 1].op)].pass)
                    QVERIFY(lane.bars[k].start >= lane.bars[k - 1].start + lane.bars[k - 1].seconds - 1e-12);
        }
        QCOMPARE(next, ops.size());
        QCOMPARE(syncs, std::size_t(std::count_if(ops.begin(), ops.end(), [](const KernelOp& op) { return op.syncAfter; })));
        QVERIFY(syncs > 0); // the dropless dispatcher waits for its token counts

        // The forward's first op starts its pass: its CPU bar begins at the chart's time of its GPU start
        // less the GPU's wait, plus its hostStart.
        const AnatomyHostBar& first = L.hostLanes.front().bars.front();
        QVERIFY(std::abs(first.start - (L.bars[0].start - ops[0].hostWaitSeconds + ops[0].hostStart)) < 1e-12);

        // The GPU's waits: one grey gap per op that waits, ending where the op starts.
        double waited = 0;
        for (const AnatomyWait& w : L.waits) {
            QCOMPARE(w.seconds, ops[std::size_t(w.op)].hostWaitSeconds);
            QVERIFY(test::near(w.start + w.seconds, L.bars[std::size_t(w.op)].start, 1e-9));
            waited += w.seconds;
        }
        const PassTotals t = sumPasses(ops);
        QVERIFY(test::near(waited, t.hostWaitForward + t.hostWaitBackward, 1e-9));
        QVERIFY(t.hostWaitForward > 0.05 * t.forward); // host-bound

        // The caption says so, and the picture has it.
        const QString caption = view->hostBoundCaption();
        QVERIFY2(caption.contains(QStringLiteral("Host-bound")), qPrintable(caption));
        QVERIFY(caption.contains(OperatorText::milliseconds(t.hostWaitForward)));
        QVERIFY(caption.contains(OperatorText::milliseconds(t.forward)));
        QImage image(1400, 900, QImage::Format_ARGB32_Premultiplied);
        {
            QPainter p(&image);
            view->paint(p, QRectF(0, 0, 1400, 900));
        }
        // A CPU bar wide enough is painted light and hatched: mostly not in the GPU bar's solid colour.
        int sampled = 0;
        for (const AnatomyHostLane& lane : L.hostLanes)
            for (const AnatomyHostBar& b : lane.bars) {
                if (b.rect.width() < 12 || b.start < 0 || b.rect.right() > L.chart.right()) continue;
                int solid = 0, all = 0;
                const QRect inner = b.rect.toAlignedRect().adjusted(2, 2, -2, -2);
                for (int y = inner.top(); y <= inner.bottom(); ++y)
                    for (int x = inner.left(); x <= inner.right(); ++x, ++all)
                        solid += image.pixelColor(x, y).rgb() == b.color.rgb();
                QVERIFY2(all > 0 && solid < all / 2, ops[std::size_t(b.op)].name);
                ++sampled;
            }
        QVERIFY(sampled > 0);
    }

    void metricsTableRowsAreTheOps()
    {
        const QTableWidget* table = m_metrics->opsTable();
        QVERIFY(table);
        const Prediction& pr = *m_doc->prediction();
        for (int which : { 0, 1 }) {
            const std::vector<KernelOp>& ops = which == 0 ? pr.layerOps : pr.outputOps;
            std::size_t next = 0;
            double totalExposed[4] = {};
            for (int row = 0; row < table->rowCount(); ++row) {
                const QTableWidgetItem* name = table->item(row, SummaryPage::OpNameColumn);
                if (!name || name->data(SummaryPage::OpListRole).toInt() != which) continue;
                const int index = name->data(SummaryPage::OpIndexRole).toInt();
                const QTableWidgetItem* ms = table->item(row, SummaryPage::OpMillisecondsColumn);
                const QTableWidgetItem* exposed = table->item(row, SummaryPage::OpExposedColumn);
                if (index < 0) {
                    // A total per pass: the sum of the exposed seconds, as core's sumPasses gives it.
                    const int pass
                        = table->item(row, SummaryPage::OpPassColumn)->data(SummaryPage::OpPassRole).toInt();
                    totalExposed[pass] = exposed->data(SummaryPage::OpSecondsRole).toDouble();
                    continue;
                }
                QCOMPARE(std::size_t(index), next); // in execution order, none left out
                const KernelOp& op = ops[next];
                QCOMPARE(name->text(), QString::fromUtf8(op.name));
                QCOMPARE(ms->data(SummaryPage::OpSecondsRole).toDouble(), op.seconds);
                QCOMPARE(ms->text(), QString::number(op.seconds * 1e3, 'f', 3));
                QCOMPARE(exposed->data(SummaryPage::OpSecondsRole).toDouble(), op.exposedSeconds);
                QCOMPARE(
                    table->item(row, SummaryPage::OpBoundColumn)->text(), OperatorText::boundName(op.bound));
                QCOMPARE(table->item(row, SummaryPage::OpGflopColumn)->text(),
                    QString::number(op.flops / 1e9, 'f', 1));
                ++next;
            }
            QCOMPARE(next, ops.size());
            const PassTotals t = sumPasses(ops);
            QCOMPARE(totalExposed[int(KernelPass::Forward)], t.forward);
            QCOMPARE(totalExposed[int(KernelPass::Recompute)], t.recompute);
            QCOMPARE(totalExposed[int(KernelPass::BackwardInput)], t.backwardInput);
            QCOMPARE(totalExposed[int(KernelPass::BackwardWeight)], t.backwardWeight);
        }
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestAnatomy)
#include "tst_anatomy.moc"
