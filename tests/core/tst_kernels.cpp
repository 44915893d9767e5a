// Kernel and collective times against the published microbenchmarks they come from (docs/HARDWARE.md): the cuBLAS
// sweeps of Azure/AI-benchmarking-guide (Azure_Results, ND A100 FP16, ND H100 and ND H200 FP8), the FlashAttention-2
// forward+backward benchmarks, and the nccl-tests all-reduce curves of 8 x A100 (Azure) and 8 x H100 (NVIDIA
// dgxc-benchmarking). The GEMM model's three constants were read off the same sweeps: these tests are its check, and
// its limits (small shapes) are stated, not hidden.
#include "TestUtil.h"

#include "cost/Collective.h"
#include "cost/Kernels.h"
#include "spec/Presets.h"

#include <QtTest>
#include <cmath>

using namespace planscope;

namespace {

GpuSpec gpu(const char* id)
{
    const auto* p = PresetCatalog::builtin().gpu(id);
    if (!p) QTest::qFail(qPrintable(QStringLiteral("no GPU preset %1").arg(QLatin1String(id))), __FILE__, __LINE__);
    return p ? p->spec : GpuSpec {};
}

const NodePreset* nodePreset(const char* node)
{
    const auto* n = PresetCatalog::builtin().node(node);
    if (!n) QTest::qFail(qPrintable(QStringLiteral("no node preset %1").arg(QLatin1String(node))), __FILE__, __LINE__);
    return n;
}

LinkSpec intraLink(const char* node)
{
    const auto* n = nodePreset(node);
    return n ? n->intraNode : LinkSpec {};
}

LinkSpec interLink(const char* node)
{
    const auto* n = nodePreset(node);
    return n ? n->interNode : LinkSpec {};
}

double tflops(const KernelTime& k, double m, double n, double kk) { return 2.0 * m * n * kk / k.seconds / 1e12; }

} // namespace

class TestKernels : public QObject {
    Q_OBJECT
private slots:
    void gemmAgainstPublishedSweeps_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("k");
        QTest::addColumn<double>("measured"); // TFLOP/s
        // Azure/AI-benchmarking-guide, Azure_Results/ND_A100_v4 (cuBLASLt FP16), ND_H100_v5 and ND_H200_v5 (FP8).
        struct Row {
            const char* gpu;
            const char* precision;
            qint64 m, n, k;
            double a100, h100, h200;
        };
        const Row rows[] = {
            { "", "", 1024, 1024, 1024, 119.4, 274.1, 290.8 },
            { "", "", 2048, 2048, 2048, 221.8, 1011.3, 1013.4 },
            { "", "", 4096, 4096, 4096, 228.0, 1216.9, 1249.1 },
            { "", "", 8192, 8192, 8192, 253.7, 1290.1, 1300.6 },
            { "", "", 6144, 12288, 12288, 250.8, 1351.4, 1318.0 },
            { "", "", 802816, 192, 768, 157.8, 663.8, 717.5 },
        };
        for (const Row& r : rows) {
            const QString shape = QStringLiteral("%1x%2x%3").arg(r.m).arg(r.n).arg(r.k);
            QTest::newRow(qPrintable("A100 fp16 " + shape)) << "a100-sxm4-80gb" << "fp16" << r.m << r.n << r.k << r.a100;
            QTest::newRow(qPrintable("H100 fp8 " + shape)) << "h100-sxm5-80gb" << "fp8" << r.m << r.n << r.k << r.h100;
            QTest::newRow(qPrintable("H200 fp8 " + shape)) << "h200-sxm-141gb" << "fp8" << r.m << r.n << r.k << r.h200;
        }
    }
    void gemmAgainstPublishedSweeps()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, precision);
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        QFETCH(qint64, k);
        QFETCH(double, measured);
        Precision p;
        QVERIFY(fromString(precision.toStdString(), p));
        const KernelTime t = kernels::gemm(::gpu(gpu.toUtf8().constData()), p, m, n, k);
        const double predicted = tflops(t, double(m), double(n), double(k));
        // Shapes whose every dimension is at least 4096 within 6%; the small and skinny ones within 22% (the model
        // has no split-K and one tile penalty: 2048^3 comes out about 17% low, 1024^3 in fp8 on H100, a 2 GFLOP
        // kernel set by its launch, 21% high).
        const bool large = std::min({ m, n, k }) >= 4096;
        const double tolerance = large ? 0.06 : 0.22;
        QVERIFY2(std::abs(predicted / measured - 1) <= tolerance,
            qPrintable(QStringLiteral("predicted %1 TFLOP/s, published %2").arg(predicted).arg(measured)));
    }

    // Grouped and small-M FP8 GEMMs on H800 against DeepGEMM's published tables (deepseek-ai/DeepGEMM README.md at
    // commit 327ec92f6977e7fee022cb76a8f273b75483c3d8, "Performance": H800 SXM5, NVCC 12.8, normal GEMMs and grouped
    // GEMMs in the contiguous and masked layouts), each row with its speedup over DeepSeek's CUTLASS 3.6 kernels: the
    // CUTLASS figure (TFLOPS / speedup) is what a library kernel reaches, as Transformer Engine's grouped GEMMs are.
    // The model (tiles, waves, one efficiency) lands within 30% of DeepGEMM on every row and never below 0.9 of the
    // CUTLASS figure; it is optimistic on the small per-expert M of the masked layout (256 rows: +26% on DeepGEMM, +38%
    // on CUTLASS) and below DeepGEMM on skinny shapes (M = 128), where DeepGEMM beats CUTLASS most (docs/HARDWARE.md).
    void groupedGemmAgainstDeepGemm_data()
    {
        QTest::addColumn<qint64>("groups");
        QTest::addColumn<qint64>("m");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("k");
        QTest::addColumn<double>("deepgemm");
        QTest::addColumn<double>("speedup");
        struct Row {
            qint64 g, m, n, k;
            double tflops, speedup;
        };
        const Row rows[] = {
            // contiguous layout
            { 4, 8192, 4096, 7168, 1346, 1.3 }, { 4, 8192, 7168, 2048, 1214, 1.3 }, { 8, 4096, 4096, 7168, 1346, 1.3 },
            { 8, 4096, 7168, 2048, 1214, 1.2 },
            // masked layout
            { 1, 1024, 4096, 7168, 1233, 1.2 }, { 1, 1024, 7168, 2048, 925, 1.2 }, { 2, 512, 4096, 7168, 1040, 1.2 },
            { 2, 512, 7168, 2048, 916, 1.2 }, { 4, 256, 4096, 7168, 932, 1.1 }, { 4, 256, 7168, 2048, 815, 1.2 },
            // normal GEMMs
            { 1, 128, 2112, 7168, 352, 2.4 }, { 1, 128, 24576, 1536, 535, 1.6 }, { 1, 128, 7168, 2048, 510, 1.7 },
            { 1, 4096, 2112, 7168, 1127, 1.2 }, { 1, 4096, 24576, 1536, 1212, 1.2 }, { 1, 4096, 7168, 16384, 1520, 1.4 },
            { 1, 4096, 4096, 7168, 1410, 1.3 }, { 1, 4096, 7168, 2048, 1168, 1.2 },
        };
        for (const Row& r : rows)
            QTest::newRow(qPrintable(QStringLiteral("%1 x %2x%3x%4").arg(r.g).arg(r.m).arg(r.n).arg(r.k)))
                << r.g << r.m << r.n << r.k << r.tflops << r.speedup;
    }
    void groupedGemmAgainstDeepGemm()
    {
        QFETCH(qint64, groups);
        QFETCH(qint64, m);
        QFETCH(qint64, n);
        QFETCH(qint64, k);
        QFETCH(double, deepgemm);
        QFETCH(double, speedup);
        const KernelTime t = kernels::gemm(::gpu("h800-sxm5-80gb"), Precision::FP8, m, n, k, groups);
        const double predicted = tflops(t, double(m), double(n), double(k) * double(groups));
        const double cutlass = deepgemm / speedup;
        QVERIFY2(std::abs(predicted / deepgemm - 1) <= 0.30,
            qPrintable(QStringLiteral("predicted %1 TFLOP/s, DeepGEMM %2").arg(predicted).arg(deepgemm)));
        QVERIFY2(predicted >= 0.9 * cutlass,
            qPrintable(QStringLiteral("predicted %1 TFLOP/s, CUTLASS %2").arg(predicted).arg(cutlass)));
    }

    void waveQuantisation()
    {
        // NVIDIA's Matrix Multiplication Background guide, section 3.2: with 108 SMs, 108 output tiles run in one
        // wave and 109 in two. With 256 x 128 tiles, N = 128*108 = 13824 at M = 256 is one full wave; one more tile
        // column adds a nearly empty wave. The model picks the best of the usual tile shapes, as cuBLAS does, which
        // softens the drop (128 x 128 tiles fill two waves better), but a drop of more than 15% stays.
        const GpuSpec a100 = gpu("a100-sxm4-80gb");
        QCOMPARE(a100.sms, 108);
        const KernelTime full = kernels::gemm(a100, Precision::BF16, 256, 128 * 108, 8192);
        const KernelTime over = kernels::gemm(a100, Precision::BF16, 256, 128 * 108 + 128, 8192);
        const double effFull = full.efficiency, effOver = over.efficiency;
        QVERIFY2(effOver < 0.85 * effFull, qPrintable(QStringLiteral("%1 vs %2").arg(effOver).arg(effFull)));
        // The best shapes reach the preset's measured maximum (ml-engineering MAMF: 0.869 of 312 TFLOP/s) minus
        // the fill and launch terms, never more.
        const KernelTime big = kernels::gemm(a100, Precision::BF16, 16384, 16384, 16384);
        QVERIFY(big.efficiency <= a100.gemmEfficiency);
        QVERIFY(big.efficiency > 0.9 * a100.gemmEfficiency);
        QVERIFY(big.bound == OpBound::Compute);
    }

    void tensorParallelShrinksEfficiency()
    {
        // GPT-3 175B's QKV GEMM for one 2048-token microbatch (h = 12288): at TP = 8 each GPU multiplies 2048 x 12288
        // by 12288 x 4608; at TP = 4 by 12288 x 9216. The smaller shape runs at a lower share of the peak.
        const GpuSpec a100 = gpu("a100-sxm4-80gb");
        const KernelTime tp4 = kernels::gemm(a100, Precision::BF16, 2048, 3 * 12288 / 4, 12288);
        const KernelTime tp8 = kernels::gemm(a100, Precision::BF16, 2048, 3 * 12288 / 8, 12288);
        QVERIFY2(tp8.efficiency < tp4.efficiency, qPrintable(QStringLiteral("%1 vs %2").arg(tp8.efficiency).arg(tp4.efficiency)));
        QVERIFY(tp8.seconds > tp4.seconds / 2);
    }

    void memoryBoundOps()
    {
        // A streaming op moves its bytes at the BabelStream copy share of the datasheet bandwidth (Azure results:
        // H100 2.90 of 3.35 TB/s), plus the launch.
        const GpuSpec h100 = gpu("h100-sxm5-80gb");
        QVERIFY(test::near(h100.hbmEfficiency, 2.90 / 3.35, 1e-3));
        const KernelTime t = kernels::memoryOp(h100, 1e9);
        QVERIFY(test::near(t.seconds, 1e9 / 2.90e12 + kernels::kLaunchSeconds, 1e-3));
        QVERIFY(t.bound == OpBound::Memory);
        QVERIFY(kernels::memoryOp(h100, 1e3).bound == OpBound::Latency);
        // A skinny GEMM whose operands outweigh its FLOPs is memory-bound (K = 128 attention-score products).
        const KernelTime skinny = kernels::gemm(h100, Precision::BF16, 8192, 128, 8192, 16);
        QVERIFY(skinny.bound == OpBound::Memory);
    }

    void flashAttentionTable()
    {
        // FlashAttention-2 forward+backward, causal, head dim 128 (Dao-AILab/flash-attention benchmark assets):
        // A100 155 TFLOP/s at 2k and 173 at 4k; in between, interpolated in log2 of the length.
        const GpuSpec a100 = gpu("a100-sxm4-80gb");
        QVERIFY(test::near(kernels::attentionFlops(a100, Precision::BF16, 2048), 155e12));
        QVERIFY(test::near(kernels::attentionFlops(a100, Precision::BF16, 4096), 173e12));
        QVERIFY(test::near(kernels::attentionFlops(a100, Precision::BF16, 2048 * std::sqrt(2.0)), 164e12, 1e-6));
        QVERIFY(test::near(kernels::attentionFlops(a100, Precision::BF16, 131072), 189e12)); // clamped at 16k
        // Forward of b = 1, s = 4096, h = 2048 (non-causal count 4*s*s*h): causal halves it, at 173 TFLOP/s.
        const double flops = 4.0 * 4096 * 4096 * 2048;
        const KernelTime f = kernels::flashAttention(a100, Precision::BF16, flops, 0, 4096, true, false);
        QVERIFY(test::near(f.seconds, 0.5 * flops / 173e12 + kernels::kLaunchSeconds, 1e-9));
        QVERIFY(test::near(f.efficiency, 0.5 * flops / (f.seconds * 312e12), 1e-9));
        const KernelTime b = kernels::flashAttention(a100, Precision::BF16, flops, 0, 4096, true, true);
        QVERIFY(test::near(b.seconds, 2.5 * 0.5 * flops / 173e12 + kernels::kLaunchSeconds, 1e-9));
    }

    void allReduceAgainstNcclTests_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("busBw"); // GB/s
        const double MiB = 1 << 20;
        // 8 x A100 (Azure/AI-benchmarking-guide ND A100 nccl-tests) and 8 x H100 (NVIDIA dgxc-benchmarking).
        const double sizes[] = { MiB, 16 * MiB, 128 * MiB, 1024 * MiB, 8192 * MiB };
        const double a100[] = { 36.22, 109.22, 174.18, 228.10, 231.58 };
        const double h100[] = { 67.04, 237.21, 400.53, 466.33, 480.16 };
        for (int i = 0; i < 5; ++i) {
            QTest::newRow(qPrintable(QStringLiteral("A100 %1 MiB").arg(sizes[i] / MiB))) << "dgx-a100-80gb" << sizes[i] << a100[i];
            QTest::newRow(qPrintable(QStringLiteral("H100 %1 MiB").arg(sizes[i] / MiB))) << "dgx-h100" << sizes[i] << h100[i];
        }
    }
    void allReduceAgainstNcclTests()
    {
        QFETCH(QString, node);
        QFETCH(double, bytes);
        QFETCH(double, busBw);
        const LinkSpec link = intraLink(node.toUtf8().constData());
        const double t = ringSeconds(Collective::AllReduce, 8, bytes, link);
        // nccl-tests: busBw = S/t * 2(n-1)/n.
        const double predicted = bytes / t * busBandwidthFactor(Collective::AllReduce, 8) / 1e9;
        // The curve is the measurement, so every row within 2%, except 1 MiB on 8 x A100 where the ring's latency
        // steps (14 x 3.4 us, NCCL's tuning table; no smallest-message time is published for it) set the time,
        // within 15%.
        const double tolerance = bytes < (2 << 20) ? 0.15 : 0.02;
        QVERIFY2(std::abs(predicted / busBw - 1) <= tolerance,
            qPrintable(QStringLiteral("predicted busBw %1 GB/s, nccl-tests %2").arg(predicted).arg(busBw)));
    }

    // Across nodes, against nccl-tests over InfiniBand (8 x H100 per node, one 400 Gb/s ConnectX-7 per GPU;
    // NVIDIA/nccl-tests issue 309, the runs with NCCL_ALGO=Ring that NVIDIA's reply asks for: 2 nodes, and 8 nodes
    // with NCCL_MIN_CTAS=24). The NVLink phases and the NIC phase run pipelined; summed one after the other they
    // would predict 255 GB/s on 2 nodes and 213 on 8 where the ring measured 392 and 391.
    void interNodeAllReduceAgainstNcclTests_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("busBw"); // GB/s
        const double MiB = 1 << 20;
        QTest::newRow("2 nodes 128 MiB") << 2 << 128 * MiB << 316.24;
        QTest::newRow("2 nodes 1 GiB") << 2 << 1024 * MiB << 384.49;
        QTest::newRow("2 nodes 8 GiB") << 2 << 8192 * MiB << 392.69;
        QTest::newRow("8 nodes 1 GiB") << 8 << 1024 * MiB << 374.81;
        QTest::newRow("8 nodes 8 GiB") << 8 << 8192 * MiB << 391.37;
    }
    void interNodeAllReduceAgainstNcclTests()
    {
        QFETCH(int, nodes);
        QFETCH(double, bytes);
        QFETCH(double, busBw);
        const int n = 8 * nodes;
        const double t = hierarchicalSeconds(Collective::AllReduce, n, 8, bytes, intraLink("dgx-h100"), interLink("dgx-h100"));
        const double predicted = bytes / t * busBandwidthFactor(Collective::AllReduce, n) / 1e9;
        QVERIFY2(std::abs(predicted / busBw - 1) <= 0.06,
            qPrintable(QStringLiteral("predicted busBw %1 GB/s, nccl-tests %2").arg(predicted).arg(busBw)));
    }

    // NCCL's all-to-all on 2 x 8 A100 over HDR InfiniBand (Azure NDmv4, NCCL 2.17.1): 37.80 and 37.81 GB/s busbw at
    // 1 GiB and 4 GiB in place (microsoft/mscclpp, docs/performance-ndmv4.md). Half of each GPU's buffer crosses the
    // NICs; the preset's all-to-all share of the NIC (0.82) comes from the 4 GiB row, so the 1 GiB row checks the rest.
    void interNodeAllToAllAgainstNcclTests_data()
    {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("busBw");
        QTest::newRow("1 GiB") << double(1ull << 30) << 37.80;
        QTest::newRow("4 GiB") << double(4ull << 30) << 37.81;
    }
    void interNodeAllToAllAgainstNcclTests()
    {
        QFETCH(double, bytes);
        QFETCH(double, busBw);
        const double t = hierarchicalSeconds(Collective::AllToAll, 16, 8, bytes, intraLink("dgx-a100-80gb"), interLink("dgx-a100-80gb"));
        const double predicted = bytes / t * busBandwidthFactor(Collective::AllToAll, 16) / 1e9;
        QVERIFY2(std::abs(predicted / busBw - 1) <= 0.04,
            qPrintable(QStringLiteral("predicted busBw %1 GB/s, mscclpp's NCCL row %2").arg(predicted).arg(busBw)));
        // The all-to-all's own share is below the link's: it is what makes the NIC part slower than an all-gather's.
        const LinkSpec x = interLink("dgx-a100-80gb");
        QVERIFY(x.allToAllEfficiency > 0 && x.allToAllEfficiency < x.efficiency);
    }

    // A bigger message never takes less time: on every node preset's links, for the ring and the two-level collectives,
    // from 64 KiB to 16 GiB in steps of a quarter octave (the size curves are interpolated between their points).
    void timeGrowsWithTheMessage()
    {
        for (const NodePreset& n : PresetCatalog::builtin().nodes()) {
            for (Collective c : { Collective::AllReduce, Collective::AllGather, Collective::AllToAll }) {
                double ringBefore = 0, twoBefore = 0;
                for (double S = 65536; S <= 17179869184.0; S *= 1.189207115) {
                    const double ring = ringSeconds(c, 16, S, n.interNode);
                    const double two = hierarchicalSeconds(c, 16, 8, S, n.intraNode, n.interNode);
                    const QString where = QStringLiteral("%1 %2 at %3 bytes").arg(QString::fromStdString(n.id)).arg(int(c)).arg(S);
                    QVERIFY2(ring >= ringBefore * (1 - 1e-12), qPrintable(where));
                    QVERIFY2(two >= twoBefore * (1 - 1e-12), qPrintable(where));
                    ringBefore = ring;
                    twoBefore = two;
                }
            }
        }
    }

    void allGatherSlowerThanNvlsAllReduce()
    {
        // On NVSwitch systems NCCL's all-reduce reduces in the switch (NVLS): 8 x H200 at 16 GiB all-reduce 480.0
        // GB/s busbw, all-gather 361.4, reduce-scatter 362.9 (ml-engineering, network/README.md). Per byte of buffer
        // an all-gather plus a reduce-scatter (sequence parallelism) then costs more than one all-reduce.
        const LinkSpec link = intraLink("hgx-h200");
        const double S = 16.0 * (1ull << 30);
        const double ar = S / ringSeconds(Collective::AllReduce, 8, S, link) * busBandwidthFactor(Collective::AllReduce, 8);
        const double ag = S / ringSeconds(Collective::AllGather, 8, S, link) * busBandwidthFactor(Collective::AllGather, 8);
        QVERIFY2(std::abs(ar / 480.0e9 - 1) < 0.02, qPrintable(QString::number(ar / 1e9)));
        QVERIFY2(std::abs(ag / 361.4e9 - 1) < 0.02, qPrintable(QString::number(ag / 1e9)));
        QVERIFY(ringSeconds(Collective::AllGather, 8, S, link) + ringSeconds(Collective::ReduceScatter, 8, S, link)
            > ringSeconds(Collective::AllReduce, 8, S, link));
    }
};

QTEST_GUILESS_MAIN(TestKernels)
#include "tst_kernels.moc"
