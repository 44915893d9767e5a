#include "Kernels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace planscope {

std::string_view toString(OpBound b)
{
    switch (b) {
    case OpBound::Compute: return "compute";
    case OpBound::Memory: return "memory";
    case OpBound::Communication: return "communication";
    case OpBound::Latency: return "latency";
    }
    return "?";
}

namespace kernels {

namespace {

double gemmRate(const GpuSpec& gpu, Precision precision)
{
    double eff = gpu.gemmEfficiency > 0 ? gpu.gemmEfficiency : 0.75;
    if (precision == Precision::FP8 && gpu.gemmEfficiencyFp8 > 0) eff = gpu.gemmEfficiencyFp8;
    return gpu.peakFlops.forPrecision(precision) * eff;
}

KernelTime finish(double compute, double memory, double flops, double peak)
{
    KernelTime k;
    k.computeSeconds = compute;
    k.memorySeconds = memory;
    k.seconds = std::max(compute, memory) + kLaunchSeconds;
    k.bound = compute >= memory ? OpBound::Compute : OpBound::Memory;
    if (std::max(compute, memory) < kLaunchSeconds) k.bound = OpBound::Latency;
    k.efficiency = peak > 0 && flops > 0 ? flops / (k.seconds * peak) : 0.0;
    return k;
}

} // namespace

double hbmEfficiency(const GpuSpec& gpu)
{
    return gpu.hbmEfficiency > 0 ? gpu.hbmEfficiency : kDefaultHbmEfficiency;
}

double achievableHbm(const GpuSpec& gpu)
{
    return (gpu.hbmBandwidth > 0 ? gpu.hbmBandwidth : 1e12) * hbmEfficiency(gpu);
}

double gemmOperandBytes(Precision p)
{
    switch (p) {
    case Precision::FP32: return 4.0;
    case Precision::FP8: return 1.0;
    case Precision::FP16:
    case Precision::BF16: break;
    }
    return 2.0;
}

double smShare(const GpuSpec& gpu, int blocks)
{
    if (gpu.sms <= 0 || blocks <= 0) return 0.0;
    return double(std::min(blocks, gpu.sms)) / gpu.sms;
}

KernelTime gemm(const GpuSpec& gpu, Precision precision, std::int64_t m, std::int64_t n, std::int64_t k,
    std::int64_t batch, int reservedSms)
{
    const double peak = gpu.peakFlops.forPrecision(precision);
    const double rate = gemmRate(gpu, precision);
    const double M = double(std::max<std::int64_t>(m, 1)), N = double(std::max<std::int64_t>(n, 1)),
                 K = double(std::max<std::int64_t>(k, 1)), B = double(std::max<std::int64_t>(batch, 1));
    const double flops = 2.0 * M * N * K * B;
    double compute = flops / (rate > 0 ? rate : 1.0);
    if (gpu.sms > 0 && rate > 0) {
        // Tile shapes cuBLAS and CUTLASS pick among on Ampere and Hopper; the smallest time wins.
        // {tm, tn, throughput share}: kSmallTilePenalty per halving of the area below 128 x 128.
        static constexpr std::array<std::array<double, 3>, 6> kTiles { { { 256, 128, 1.0 }, { 128, 256, 1.0 },
            { 128, 128, 1.0 }, { 128, 64, kSmallTilePenalty }, { 64, 128, kSmallTilePenalty },
            { 64, 64, kSmallTilePenalty * kSmallTilePenalty } } };
        const double perSm = rate / gpu.sms;
        const double sms = double(std::max(1, gpu.sms - std::max(0, reservedSms)));
        compute = std::numeric_limits<double>::infinity();
        for (const auto& [tm, tn, share] : kTiles) {
            const double tileRate = perSm * share;
            const double tiles = std::ceil(M / tm) * std::ceil(N / tn) * B;
            const double waves = std::ceil(tiles / sms);
            compute = std::min(compute, waves * 2.0 * tm * tn * (K + kTileFillK) / tileRate);
        }
    }
    const double e = gemmOperandBytes(precision);
    // A and B read once, C written once (in the activation dtype: 2 bytes for fp8 GEMMs too).
    const double out = precision == Precision::FP32 ? 4.0 : 2.0;
    const double bytes = B * (e * (M * K + K * N) + out * M * N);
    KernelTime t = finish(compute, bytes / achievableHbm(gpu), flops, peak);
    t.bytes = bytes;
    if (batch <= 1)
        for (const MeasuredGemm& g : gpu.measuredGemms)
            if (g.m == m && g.n == n && g.k == k && g.precision == precision && g.seconds > 0) {
                t.seconds = g.seconds;
                t.computeSeconds = g.seconds;
                t.efficiency = peak > 0 ? flops / (g.seconds * peak) : 0.0;
                t.bound = OpBound::Compute;
                t.measured = true;
                break;
            }
    return t;
}

double attentionFlops(const GpuSpec& gpu, Precision precision, double sequence)
{
    const auto& t = gpu.attentionFlops;
    if (t.empty()) return kDefaultAttentionShare * gemmRate(gpu, precision == Precision::FP8 ? Precision::BF16 : precision);
    if (sequence <= t.front().first) return t.front().second;
    if (sequence >= t.back().first) return t.back().second;
    for (std::size_t i = 1; i < t.size(); ++i) {
        if (sequence > t[i].first) continue;
        const double x0 = std::log2(t[i - 1].first), x1 = std::log2(t[i].first);
        const double f = x1 > x0 ? (std::log2(sequence) - x0) / (x1 - x0) : 0.0;
        return t[i - 1].second + f * (t[i].second - t[i - 1].second);
    }
    return t.back().second;
}

KernelTime flashAttention(const GpuSpec& gpu, Precision precision, double flops, double bytes, double sequence,
    bool causal, bool backward)
{
    // Flash attention runs in bf16 under fp8 training (Transformer Engine's default): its peak is the bf16 one.
    const Precision p = precision == Precision::FP8 ? Precision::BF16 : precision;
    const double work = (causal ? 0.5 : 1.0) * flops * (backward ? 2.5 : 1.0);
    const double rate = attentionFlops(gpu, p, sequence);
    // Efficiency of the work the kernel does (the causal half), as the FlashAttention benchmarks count it.
    return finish(work / (rate > 0 ? rate : 1.0), bytes / achievableHbm(gpu), work, gpu.peakFlops.forPrecision(p));
}

KernelTime memoryOp(const GpuSpec& gpu, double bytes)
{
    KernelTime k = finish(0.0, bytes / achievableHbm(gpu), 0.0, 0.0);
    if (k.bound == OpBound::Compute) k.bound = OpBound::Memory;
    return k;
}

} // namespace kernels
} // namespace planscope
