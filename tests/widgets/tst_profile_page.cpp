// The profile page: profiling unavailable without the binary (and says why), a profile opened from a file
// shows its curves and the default-vs-calibrated table, and "Use this calibration" re-predicts the document.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "document/PlanDocument.h"
#include "calib/Profile.h"
#include "cost/Collective.h"
#include "pages/ProfilePage.h"

#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace planscope;

namespace {
// A profile of a slower machine than the A100 preset: AllReduce on 8 GPUs with alpha 10 us and busBw 150 GB/s
// (the preset's NVLink gives 0.77 x 300 = 231 GB/s), bf16 GEMMs at 200 TFLOP/s (0.64 of the 312 peak).
Profile slowProfile()
{
    Profile p;
    p.host = "test-node";
    p.source = "generated";
    const LinkSpec link { 150e9, 10e-6, 1.0 };
    for (double s = 1 << 20; s <= double(1ll << 30); s *= 4) {
        CollectiveSample c;
        c.op = "AllReduce";
        c.ranks = 8;
        c.nodes = 1;
        c.bytes = s;
        c.seconds = ringSeconds(Collective::AllReduce, 8, s, link);
        c.algBandwidth = s / c.seconds;
        c.busBandwidth = c.algBandwidth * busBandwidthFactor(Collective::AllReduce, 8);
        p.collectives.push_back(c);
    }
    for (std::int64_t n : { 4096, 8192 }) {
        GemmSample g { n, n, n, "bf16", 0, 200.0 };
        g.seconds = 2.0 * double(n) * double(n) * double(n) / (g.tflops * 1e12);
        p.gemm.push_back(g);
    }
    return p;
}
} // namespace

class TestProfilePage : public QObject {
    Q_OBJECT
private slots:
    void calibrationFromAFile()
    {
        PlanDocument doc;
        ProfilePage page;
        page.resize(1400, 900);
        page.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json")));
        QVERIFY(spy.count() > 0 || spy.wait(20000));
        const double defaultStep = doc.prediction()->stepSeconds;

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("slow.profile.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(profileToJson(slowProfile()).dump(2)));
        }
        QVERIFY2(page.openProfile(path), qPrintable(page.statusText()));
        QVERIFY(page.profile());
        QCOMPARE(page.profile()->collectives.size(), std::size_t(6));
        QVERIFY(page.curveCount() >= 2); // measured points and the fitted model
        // Both sides come from the one analysis, off the GUI thread: the default side is the step the app shows.
        QTRY_VERIFY_WITH_TIMEOUT(page.defaultAnalysis() && page.calibratedAnalysis(), 20000);
        QCOMPARE(page.defaultAnalysis()->stepSeconds(), defaultStep);
        QVERIFY(page.calibratedAnalysis()->stepSeconds() > defaultStep); // the profile's GEMMs are slower
        const QStringList rows = page.comparisonRows();
        QCOMPARE(rows.size(), 4);
        QVERIFY(rows[0].startsWith(tr("Step time")) || rows[0].contains(QLatin1String("|")));

        // Apply: the document re-predicts with the measured (slower) GEMMs: the step gets longer.
        spy.clear();
        page.useBox()->setChecked(true);
        QVERIFY(spy.count() > 0 || spy.wait(20000));
        QVERIFY(doc.calibration());
        QVERIFY(!doc.calibration()->terms.empty());
        QVERIFY(doc.prediction()->stepSeconds > defaultStep);
        bool said = false;
        for (const Issue& w : doc.prediction()->warnings) said |= w.message.rfind("calibrated: ", 0) == 0;
        QVERIFY(said);
        // And off again: back to the defaults.
        spy.clear();
        page.useBox()->setChecked(false);
        QVERIFY(spy.count() > 0 || spy.wait(20000));
        QCOMPARE(doc.prediction()->stepSeconds, defaultStep);
    }

    // Issue 31: an H100's nccl-tests run (tests/data/nccl-tests/README.md) opened on an A100 plan is not applied: the
    // page names both GPUs and offers "Apply to another GPU"; ticked, it applies and every prediction says so; a plan
    // of H100s then takes it as it is, fitted again to that plan.
    void anotherGpusProfileIsRefusedUntilAppliedAnyway()
    {
        PlanDocument doc;
        ProfilePage page;
        page.resize(1400, 900);
        page.setDocument(&doc);
        QVERIFY(test::loadSampleAndWait(doc, "default.plan.json"));
        const double defaultStep = doc.prediction()->stepSeconds;
        QVERIFY(page.openProfile(QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/a3mega-h100-2x8-all_reduce_perf.txt")));
        QVERIFY2(page.statusText().contains(
                     QLatin1String("Measured on NVIDIA H100 80GB HBM3, not this plan's NVIDIA A100-SXM4-80GB: not applied")),
            qPrintable(page.statusText()));
        QVERIFY(page.anyGpuBox()->isVisibleTo(&page));
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        page.useBox()->setChecked(true);
        QVERIFY(test::waitForPrediction(spy));
        QVERIFY(doc.calibration() && !doc.calibration()->refused.empty());
        QCOMPARE(doc.prediction()->stepSeconds, defaultStep);
        const auto has = [&](const char* start) {
            for (const Issue& w : doc.prediction()->warnings)
                if (issueLine(w).rfind(start, 0) == 0) return true;
            return false;
        };
        QVERIFY(has("calibration: calibration: not applied: the profile was measured on NVIDIA H100 80GB HBM3 and the "
                    "plan's GPU is NVIDIA A100-SXM4-80GB"));
        spy.clear();
        page.anyGpuBox()->setChecked(true);
        QVERIFY(test::waitForCurrentPrediction(doc));
        QVERIFY(doc.calibration()->refused.empty());
        QVERIFY(has("calibration: calibration: applied to another GPU than it measured"));
        QVERIFY(page.statusText().contains(QLatin1String("applied anyway")));
        // A plan of H100s: fitted again to it, the same GPU, nothing refused, nothing to apply anyway.
        page.anyGpuBox()->setChecked(false);
        QVERIFY(test::loadSampleAndWait(doc, "llama3-70b-fp8-64xh100.plan.json"));
        QVERIFY(test::waitForCurrentPrediction(doc));
        QCOMPARE(doc.calibration()->gpu.match, GpuIdentity::Match::Same);
        QVERIFY(doc.calibration()->refused.empty());
        QVERIFY(!page.anyGpuBox()->isVisibleTo(&page));
    }

    // nccl-tests output as published (tests/data/nccl-tests/README.md): the busbw the file printed, out-of-place and
    // in-place, the fit, and what the import inferred, said on the page.
    void publishedNcclTestsOutput()
    {
        ProfilePage page;
        page.resize(1400, 900);
        const QString data = QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/");
        QVERIFY2(page.openProfile(data + QStringLiteral("gb200-nvl72-18x4-all_reduce_perf-coreweave.txt")), qPrintable(page.statusText()));
        QCOMPARE(page.profile()->collectives.size(), std::size_t(5));
        QCOMPARE(page.profile()->collectives.back().busBandwidth, 834.57e9);
        QCOMPARE(page.curveCount(), 3); // out-of-place points, in-place points, the fit (no plan: no preset curve)
        QVERIFY2(page.statusText().contains(QLatin1String("18 nodes inferred from 1 of 72 rank lines")), qPrintable(page.statusText()));
        QVERIFY(page.statusText().contains(QLatin1String("line 4")));

        // The rank count cannot be told: no fit, but the printed bandwidths still show, and the page says why.
        QVERIFY(page.openProfile(data + QStringLiteral("v100-8x8-all_reduce_perf-issue78.txt")));
        QVERIFY(page.profile()->fits.empty());
        QCOMPARE(page.curveCount(), 2); // out-of-place and in-place points
        QVERIFY2(page.statusText().contains(QLatin1String("the rank count cannot be told")), qPrintable(page.statusText()));
    }

    void badFilesSayWhy()
    {
        ProfilePage page;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.profile.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": \"planscope/profile/v1\", \"gemm\": [");
        f.close();
        QVERIFY(!page.openProfile(path));
        QVERIFY(page.statusText().contains(QLatin1String("broken.profile.json")));
        QVERIFY(!page.profile());
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestProfilePage)
#include "tst_profile_page.moc"
