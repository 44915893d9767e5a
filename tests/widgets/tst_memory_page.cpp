// The memory page follows the ViewState: moving the playhead changes the bars (at-playhead mode) and the
// over-time plot's marker; the over-time lines are the simulated memory of each stage.
#include "GuiTestMain.h"
#include "TestUtil.h"

#include "charts/MemoryBarsView.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "sim/Timeline.h"
#include "pages/MemoryPage.h"
#include "charts/MemoryTimelineView.h"
#include "util/Units.h"
#include <QSpinBox>

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace planscope;

class TestMemoryPage : public QObject {
    Q_OBJECT
private slots:
    // A PyTorch memory snapshot beside the prediction (tests/data/memory-snapshots/simple.pickle, written by
    // make_snapshot.py: allocated peak 12 MiB, reserved peak 18 MiB): the measured column holds those peaks, the
    // predicted one the stage's allocated and reserved bytes; a file that is no snapshot is refused by name.
    void aMemorySnapshotIsSetBesideThePrediction()
    {
        PlanDocument doc;
        MemoryPage page;
        page.resize(1200, 900);
        page.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json")));
        QVERIFY(spy.count() > 0 || spy.wait(20000));
        const auto pr = doc.prediction();
        QVERIFY(pr && pr->valid);
        QString error;
        QVERIFY2(page.openSnapshot(QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/memory-snapshots/simple.pickle"), &error), qPrintable(error));
        const QStringList rows = page.measuredRows();
        QCOMPARE(rows.size(), 4);
        const int stage = page.stagePicker()->value();
        const StageMemory& st = pr->stages.at(std::size_t(stage));
        auto bytes = [](double b) { return QString::fromStdString(units::formatBytes(b)); };
        QVERIFY2(rows[0].startsWith(QLatin1String("Allocated (peak) | ") + bytes(double(st.allocatedBytes)) + QLatin1String(" | ") + bytes(12582912.0)),
            qPrintable(rows[0]));
        QVERIFY2(rows[1].startsWith(QLatin1String("Reserved (peak) | ") + bytes(double(st.reservedBytes)) + QLatin1String(" | ") + bytes(18874368.0)),
            qPrintable(rows[1]));
        QVERIFY2(page.measuredNote().contains(QLatin1String("simple.pickle")), qPrintable(page.measuredNote()));
        // Not a snapshot: refused, named; the one shown stays.
        QVERIFY(!page.openSnapshot(QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/memory-snapshots/bad-not-a-dict.pickle"), &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(page.measuredRows().size(), 4);
    }

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

        // Independently: activations at time t = the rank's memory step function minus its static terms (model
        // states, the CUDA context and workspaces, NCCL and ZeRO buffers) and the running op's temporaries.
        auto expected = [&](int stage, double t) {
            const StageMemory& st = pr->stages[std::size_t(stage)];
            const std::int64_t fixed = st.weightsBytes + st.gradientsBytes + st.optimizerBytes
                + st.buffers.cudaContextBytes + st.buffers.cublasWorkspaceBytes + st.buffers.teWorkspaceBytes
                + st.buffers.ncclBytes + st.buffers.zeroBucketBytes;
            const auto& points = tl->memory[std::size_t(stage)];
            auto it = std::upper_bound(points.begin(), points.end(), t, [](double v, const MemoryPoint& p) { return v < p.time; });
            const MemoryPoint now = it == points.begin() ? points.front() : *std::prev(it);
            if (now.bytes != memoryAt(points, t)) return -1.0; // the step function read two ways disagrees
            return double(std::max<std::int64_t>(0, now.bytes - fixed - now.temporaryBytes)) / 1073741824.0;
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
        // Each bar carries the simulated peak inside the step: the highest in-use point of its memory over time plus
        // the allocator's slack (allocatedPeak = in use - context - NCCL).
        const QList<double> marks = page.bars()->simulatedPeakMarks();
        QCOMPARE(marks.size(), int(pr->stages.size()));
        for (int s = 0; s < int(pr->stages.size()); ++s) {
            const RankMetrics& m = tl->ranks[std::size_t(s)];
            std::int64_t inUse = 0;
            for (const MemoryPoint& mp : tl->memory[std::size_t(s)]) inUse = std::max(inUse, mp.bytes);
            QCOMPARE(m.inUsePeakBytes, inUse);
            QCOMPARE(m.peakBytes, inUse + (m.reservedPeakBytes - m.allocatedPeakBytes));
            QCOMPARE(marks[s], double(m.peakBytes) / 1073741824.0);
        }
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

    void longStepsAreDrawnFromTheirEnvelope()
    {
        // A sawtooth of 100,000 points (one per microsecond, period 7): thinned to 4 points a slice at most,
        // every kept point on the original step function, the highest and lowest kept, each slice's ends kept.
        std::vector<MemoryPoint> saw;
        for (int i = 0; i < 100000; ++i) saw.push_back({ i * 1e-6, std::int64_t(1000 + (i % 7) * 10 + (i == 54321) * 5000) });
        const int buckets = 512;
        const auto env = memoryEnvelope(saw, 0.0, 0.1, buckets);
        QVERIFY(env.size() <= std::size_t(4 * buckets));
        QVERIFY(env.size() >= std::size_t(2 * buckets));
        std::int64_t hi = 0, lo = INT64_MAX;
        for (std::size_t k = 0; k < env.size(); ++k) {
            QCOMPARE(env[k].bytes, memoryAt(saw, env[k].time)); // a point of the original, at its own time
            if (k > 0) QVERIFY(env[k].time > env[k - 1].time);
            hi = std::max(hi, env[k].bytes);
            lo = std::min(lo, env[k].bytes);
        }
        QCOMPARE(hi, std::int64_t(1000 + (54321 % 7) * 10 + 5000)); // the one spike survives
        QCOMPARE(lo, std::int64_t(1000));
        QCOMPARE(env.front().time, saw.front().time);
        QCOMPARE(env.back().time, saw.back().time);
        // Short series are drawn as they are.
        const std::vector<MemoryPoint> few(saw.begin(), saw.begin() + 100);
        QCOMPARE(memoryEnvelope(few, 0.0, 1e-4, buckets).size(), few.size());

        // A long simulated step (GLM-130B on 64 GPUs, 4,224 microbatches): each line stays a few thousand points
        // and still reaches the stage's simulated peak.
        PlanDocument doc;
        MemoryTimelineView view;
        view.resize(1200, 600);
        view.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-130b-64xa100.plan.json")));
        QVERIFY(spy.count() > 0 || spy.wait(60000));
        const auto tl = doc.timeline();
        QVERIFY(tl);
        QVERIFY(tl->memory[0].size() > std::size_t(4 * 1024)); // long enough to be thinned
        QVERIFY(view.pointCount(0) <= 4 * 1024 + 1);
        std::int64_t peak = 0;
        for (const MemoryPoint& p : tl->memory[0]) peak = std::max(peak, p.bytes);
        const double peakGiB = double(peak) / 1073741824.0;
        double drawn = 0;
        for (double t = 0; t <= tl->stepSeconds; t += tl->stepSeconds / 4096) drawn = std::max(drawn, view.valueAt(0, t));
        QVERIFY(drawn <= peakGiB);
        // The peak is held for a while in the steady state, so sampling finds it on the drawn line too.
        QCOMPARE(drawn, peakGiB);
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestMemoryPage)
#include "tst_memory_page.moc"
