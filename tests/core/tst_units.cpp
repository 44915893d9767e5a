// Units and the traps of docs/MODEL.md section 8: GB (1e9) vs GiB (2^30), bits vs bytes on the network,
// bidirectional NVLink figures vs the per-direction bandwidth the model uses, dense vs sparse peaks.
// Expected values are the definitions themselves, written out, not taken from core/util/Units.cpp.
#include "TestUtil.h"

#include "spec/Presets.h"
#include "util/Units.h"

#include <QObject>
#include <QStringList>

using namespace planscope;
using planscope::test::near;

class TestUnits : public QObject {
    Q_OBJECT
private slots:
    void byteUnits_data()
    {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("gb");
        QTest::addColumn<double>("gib");
        // GB = 1e9 bytes, GiB = 2^30 = 1073741824 bytes (docs/MODEL.md section 8).
        QTest::newRow("1 GB") << 1e9 << 1.0 << 1e9 / 1073741824.0;
        QTest::newRow("1 GiB") << 1073741824.0 << 1.073741824 << 1.0;
        // The A100-80GB / H100-80GB capacity: 80 GiB = 85,899,345,920 bytes = 85.9 GB.
        QTest::newRow("80 GiB") << 85899345920.0 << 85.89934592 << 80.0;
        // ZeRO paper Figure 1, 7.5B params, baseline 16 bytes/param: 120 GB = 111.76 GiB.
        QTest::newRow("120 GB") << 120e9 << 120.0 << 120e9 / 1073741824.0;
        QTest::newRow("0") << 0.0 << 0.0 << 0.0;
    }
    void byteUnits()
    {
        QFETCH(double, bytes);
        QFETCH(double, gb);
        QFETCH(double, gib);
        QCOMPARE(units::kGB, 1e9);
        QCOMPARE(units::kGiB, 1073741824.0);
        QCOMPARE(units::kMiB, 1048576.0);
        QVERIFY2(near(units::toGB(bytes), gb, 1e-12), qPrintable(QString::number(units::toGB(bytes), 'g', 17)));
        QVERIFY2(near(units::toGiB(bytes), gib, 1e-12), qPrintable(QString::number(units::toGiB(bytes), 'g', 17)));
        // The two differ by 7.4% at this scale: a GiB is 1.073741824 GB.
        if (bytes > 0) QVERIFY(near(units::toGB(bytes) / units::toGiB(bytes), 1.073741824, 1e-12));
    }

    void gigabitsToBytes_data()
    {
        QTest::addColumn<double>("gbit");
        QTest::addColumn<double>("bytesPerSecond");
        // "IB 200" (HDR) = 200 Gb/s = 200e9 / 8 = 25 GB/s = 2.5e10 B/s per port (docs/MODEL.md section 8, docs/FORMATS.md section 1).
        QTest::newRow("HDR IB 200") << 200.0 << 2.5e10;
        // NDR 400 Gb/s = 5e10 B/s (the DGX H100 per-GPU NIC).
        QTest::newRow("NDR IB 400") << 400.0 << 5e10;
        // EDR 100 Gb/s = 1.25e10 B/s.
        QTest::newRow("EDR IB 100") << 100.0 << 1.25e10;
        QTest::newRow("25 GbE") << 25.0 << 3.125e9;
        QTest::newRow("zero") << 0.0 << 0.0;
    }
    void gigabitsToBytes()
    {
        QFETCH(double, gbit);
        QFETCH(double, bytesPerSecond);
        QVERIFY(near(units::gigabitsToBytesPerSecond(gbit), bytesPerSecond, 1e-15));
        // Reading the bit figure as bytes would be 8x too fast.
        if (gbit > 0) QVERIFY(near(gbit * 1e9 / units::gigabitsToBytesPerSecond(gbit), 8.0, 1e-15));
    }

    void bidirectional_data()
    {
        QTest::addColumn<double>("quoted");
        QTest::addColumn<double>("perDirection");
        // A100 "NVLink 600 GB/s" counts both directions: 300 GB/s each way = 3e11 (docs/MODEL.md section 8).
        QTest::newRow("A100 NVLink3 600 GB/s") << 600e9 << 3e11;
        // H100 "NVLink 900 GB/s": 450 GB/s each way.
        QTest::newRow("H100 NVLink4 900 GB/s") << 900e9 << 4.5e11;
        // V100 "NVLink 300 GB/s": 150 GB/s each way.
        QTest::newRow("V100 NVLink2 300 GB/s") << 300e9 << 1.5e11;
        // B200 "NVLink 1.8 TB/s": 900 GB/s each way.
        QTest::newRow("B200 NVLink5 1.8 TB/s") << 1.8e12 << 9e11;
    }
    void bidirectional()
    {
        QFETCH(double, quoted);
        QFETCH(double, perDirection);
        QVERIFY(near(units::bidirectionalToPerDirection(quoted), perDirection, 1e-15));
    }

    // The node presets' links must be stored per direction in bytes/s, i.e. the converted figures.
    void nodePresetLinks_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<double>("intra");
        QTest::addColumn<double>("inter");
        // DGX A100: NVLink 3 "600 GB/s" bidirectional, one HDR 200 Gb/s NIC per GPU.
        QTest::newRow("dgx-a100-80gb") << "dgx-a100-80gb" << units::bidirectionalToPerDirection(600e9)
                                       << units::gigabitsToBytesPerSecond(200);
        QTest::newRow("dgx-a100-40gb") << "dgx-a100-40gb" << units::bidirectionalToPerDirection(600e9)
                                       << units::gigabitsToBytesPerSecond(200);
        // DGX H100: NVLink 4 "900 GB/s", one NDR 400 Gb/s NIC per GPU.
        QTest::newRow("dgx-h100") << "dgx-h100" << units::bidirectionalToPerDirection(900e9)
                                  << units::gigabitsToBytesPerSecond(400);
        // DGX-1 V100: NVLink 2 "300 GB/s"; 4 x EDR 100 Gb/s for 8 GPUs = 50 Gb/s per GPU.
        QTest::newRow("dgx-v100") << "dgx-v100" << units::bidirectionalToPerDirection(300e9)
                                  << units::gigabitsToBytesPerSecond(4 * 100.0 / 8);
    }
    void nodePresetLinks()
    {
        QFETCH(QString, node);
        QFETCH(double, intra);
        QFETCH(double, inter);
        const NodePreset* n = PresetCatalog::builtin().node(node.toStdString());
        QVERIFY2(n, qPrintable(node));
        QVERIFY2(near(n->intraNode.bandwidth, intra, 1e-12), qPrintable(QString::number(n->intraNode.bandwidth)));
        QVERIFY2(near(n->interNode.bandwidth, inter, 1e-12), qPrintable(QString::number(n->interNode.bandwidth)));
    }

    // A plan file's link bandwidth is already bytes/s per direction: no conversion on load (docs/FORMATS.md section 1).
    void planLinksAreTakenAsBytesPerDirection()
    {
        const Plan p = planscope::test::planFromText(R"({
          "schema": "planscope/plan/v1",
          "model": { "preset": "llama2-7b" },
          "cluster": { "gpu": "a100-sxm4-80gb", "nodes": 2, "gpusPerNode": 8,
                       "intraNode": { "bandwidth": 3.0e11, "latency": 5e-6 },
                       "interNode": { "bandwidth": 2.5e10, "latency": 1e-5 } },
          "parallel": { "tp": 8, "pp": 2, "dp": 1 }
        })");
        QCOMPARE(p.cluster.intraNode.bandwidth, 3.0e11);
        QCOMPARE(p.cluster.interNode.bandwidth, 2.5e10);
        QCOMPARE(p.cluster.intraNode.latency, 5e-6);
        QCOMPARE(p.cluster.interNode.latency, 1e-5);
    }

    // GPU capacities are GiB-based byte counts, and peaks are the dense datasheet numbers (docs/MODEL.md sections 5, 8):
    // H100 SXM bf16 dense is 989 TFLOP/s, not the 1979 "with sparsity".
    void gpuPresets_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("memoryGiB");
        QTest::addColumn<double>("bf16Dense");
        QTest::newRow("a100-80") << "a100-sxm4-80gb" << 80.0 << 312e12;
        QTest::newRow("a100-40") << "a100-sxm4-40gb" << 40.0 << 312e12;
        QTest::newRow("h100") << "h100-sxm5-80gb" << 80.0 << 989.4e12;
    }
    void gpuPresets()
    {
        QFETCH(QString, gpu);
        QFETCH(double, memoryGiB);
        QFETCH(double, bf16Dense);
        const GpuPreset* g = PresetCatalog::builtin().gpu(gpu.toStdString());
        QVERIFY(g);
        QVERIFY(near(units::toGiB(double(g->spec.memoryBytes)), memoryGiB, 1e-12));
        QVERIFY2(near(g->spec.peakFlops.forPrecision(Precision::BF16), bf16Dense, 2e-3),
            qPrintable(QString::number(g->spec.peakFlops.bf16)));
        // Never the sparse figure (2x dense).
        QVERIFY(g->spec.peakFlops.bf16 < 1.5 * bf16Dense);
    }

    // Display formats (Units.h comments): the number and the unit must be right. The exact digit count is
    // not asserted: the header's examples ("1.23 s", "456 ms", "175.0 B") show fewer digits than the
    // implementation prints ("1.230 s", "456.00 ms", "175.00 B"), which is cosmetic.
    void formatting_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("number");
        QTest::addColumn<QString>("unit");
        QTest::newRow("bytes GiB") << QString::fromStdString(units::formatBytes(12.34 * 1073741824.0)) << 12.34 << "GiB";
        QTest::newRow("1e9 bytes is not 1 GiB") << QString::fromStdString(units::formatBytes(1e9)) << 953.674 << "MiB";
        QTest::newRow("seconds") << QString::fromStdString(units::formatSeconds(1.23)) << 1.23 << "s";
        QTest::newRow("milliseconds") << QString::fromStdString(units::formatSeconds(0.456)) << 456.0 << "ms";
        QTest::newRow("microseconds") << QString::fromStdString(units::formatSeconds(12.3e-6)) << 12.3 << "us";
        QTest::newRow("flops") << QString::fromStdString(units::formatFlops(3.14e15)) << 3.14 << "PFLOP";
        QTest::newRow("count B") << QString::fromStdString(units::formatCount(175.0e9)) << 175.0 << "B";
        QTest::newRow("count M") << QString::fromStdString(units::formatCount(12.3e6)) << 12.3 << "M";
    }
    void formatting()
    {
        QFETCH(QString, text);
        QFETCH(double, number);
        QFETCH(QString, unit);
        const QStringList parts = text.split(QLatin1Char(' '));
        QVERIFY2(parts.size() == 2, qPrintable(text));
        bool ok = false;
        const double shown = parts[0].toDouble(&ok);
        QVERIFY2(ok && near(shown, number, 1e-3), qPrintable(text));
        QCOMPARE(parts[1], unit);
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
