// The memory page follows the ViewState: moving the playhead changes the bars (at-playhead mode) and the
// over-time plot's marker; the over-time lines are the simulated memory of each stage.
#include "TestUtil.h"

#include "MemoryBarsView.h"
#include "PlanDocument.h"
#include "ViewState.h"
#include "sim/Timeline.h"
#include "views/MemoryPage.h"
#include "views/MemoryTimelineView.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace planscope;

class TestMemoryPage : public QObject {
    Q_OBJECT
private slots:
    void playheadMovesTheBars()
    {
        PlanDocument doc;
        ViewState state;
        MemoryPage page;
        page.resize(1200, 900);
        page.setDocument(&doc);
        page.setViewState(&state);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json")));
        QVERIFY(spy.count() > 0 || spy.wait(20000));
        const auto tl = doc.timeline();
        const auto pr = doc.prediction();
        QVERIFY(tl && pr && pr->valid);
        state.setDuration(tl->stepSeconds);
        page.bars()->setMode(MemoryBarsView::Mode::AtPlayhead);

        // Independently: activations at time t = the rank's memory step function minus its static terms.
        auto expected = [&](int stage, double t) {
            const StageMemory& st = pr->stages[std::size_t(stage)];
            const std::int64_t fixed = st.weightsBytes + st.gradientsBytes + st.optimizerBytes + st.buffersBytes;
            return double(std::max<std::int64_t>(0, memoryAt(tl->memory[std::size_t(stage)], t) - fixed)) / 1073741824.0;
        };
        for (double fraction : { 0.1, 0.45, 0.8 }) {
            const double t = fraction * tl->pipelineSeconds;
            state.setPlayhead(t);
            for (int s = 0; s < int(pr->stages.size()); ++s)
                QCOMPARE(page.bars()->plottedGiB(MemorySegment::Activations, s), expected(s, t));
            QCOMPARE(page.overTime()->playheadSeconds(), t);
        }
        // In the 1F1B steady state (middle of the step) stage 0 holds p microbatches, the last stage one.
        state.setPlayhead(0.45 * tl->pipelineSeconds);
        QVERIFY(page.bars()->plottedGiB(MemorySegment::Activations, 0) > page.bars()->plottedGiB(MemorySegment::Activations, 3));
        // After the last backward nothing is held.
        state.setPlayhead(tl->stepSeconds);
        for (int s = 0; s < int(pr->stages.size()); ++s) QCOMPARE(page.bars()->plottedGiB(MemorySegment::Activations, s), 0.0);
        // Peak mode shows the analytic peak again.
        page.bars()->setMode(MemoryBarsView::Mode::Peak);
        QCOMPARE(page.bars()->plottedGiB(MemorySegment::Activations, 0), double(pr->stages[0].activationsBytes) / 1073741824.0);
        // The over-time plot: one line per stage, its value at a time is the simulated memory.
        QCOMPARE(page.overTime()->lineCount(), int(pr->stages.size()));
        const double t = 0.3 * tl->pipelineSeconds;
        QCOMPARE(page.overTime()->valueAt(1, t), double(memoryAt(tl->memory[1], t)) / 1073741824.0);

        QTemporaryDir dir;
        for (const char* ext : { "png", "svg", "pdf" }) {
            const QString path = dir.filePath(QStringLiteral("memory.") + QLatin1String(ext));
            QString error;
            QVERIFY2(page.exportTo(path, QSize(1200, 900), &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }
};

QTEST_MAIN(TestMemoryPage)
#include "tst_memory_page.moc"
