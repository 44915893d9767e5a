// Time of one kernel on one GPU (docs/MODEL.md section 7.2): a GEMM of a given shape, a flash-attention kernel, a
// memory-bound element-wise op. Each is the slower of its compute and its memory traffic, plus a fixed cost per
// kernel. The constants below come from published microbenchmarks (docs/HARDWARE.md), never from training runs.
#pragma once

#include "spec/Plan.h"

#include <cstdint>

namespace planscope {

enum class OpBound { Compute, Memory, Communication, Latency };
std::string_view toString(OpBound b);

struct KernelTime {
    double seconds = 0;        // what the op takes: max(compute, memory) + launch
    double computeSeconds = 0; // FLOPs at the shape's achievable rate
    double memorySeconds = 0;  // bytes at the achievable HBM bandwidth
    double efficiency = 0;     // achieved FLOP/s over the dense peak (0 for memory-bound ops without FLOPs)
    double bytes = 0;          // HBM traffic counted (GEMM operands and result)
    bool measured = false;     // the time is a calibration profile's measurement of this exact shape
    OpBound bound = OpBound::Compute;
};

namespace kernels {

// Fixed cost of one kernel (launch and tail), and the K-equivalent a tile spends filling and draining its
// pipeline: with them a tile-quantised GEMM model reproduces the published cuBLAS sweeps (Azure/AI-benchmarking-
// guide's A100 FP16, H100 and H200 FP8 tables: square 1024-8192, 6144x12288x12288, 802816x192x768) within 22%,
// the shapes >= 4096 within 6% (tests/core/tst_kernels.cpp).
inline constexpr double kLaunchSeconds = 4e-6;
inline constexpr double kTileFillK = 512;
// Throughput of a tile smaller than 128 x 128, per halving of its area (smaller tiles reuse operands less).
inline constexpr double kSmallTilePenalty = 0.95;
// Assumed where a preset has no measurement: the mean of the BabelStream copy shares of A100, H100 and H200
// (docs/HARDWARE.md); flash attention at this share of the GEMM efficiency (the H100 ratio at 8k).
inline constexpr double kDefaultHbmEfficiency = 0.83;
inline constexpr double kDefaultAttentionShare = 0.4;

double hbmEfficiency(const GpuSpec& gpu);
double achievableHbm(const GpuSpec& gpu);

// Bytes of one GEMM operand element for the training precision: fp8 GEMMs read 1-byte operands.
double gemmOperandBytes(Precision p);

// C[m x n] = A[m x k] B[k x n], `batch` independent products (batched GEMM). The best of the usual CUTLASS/cuBLAS
// tile shapes: waves = ceil(tiles/SMs), each wave 2*tm*tn*(k + kTileFillK) FLOPs per SM at peak*gemmEfficiency/SMs
// (NVIDIA, Matrix Multiplication Background User's Guide, DU-09799-001, sections 2.3, 3.1, 3.2). Without an SM
// count, flops/(peak*gemmEfficiency). A shape the GPU's measuredGemms hold (batch 1, same dtype) takes its measured time.
// reservedSms: SMs a communication kernel holds beside the GEMM (Transformer Engine's set_sm_margin); the GEMM's waves
// run on the others.
KernelTime gemm(const GpuSpec& gpu, Precision precision, std::int64_t m, std::int64_t n, std::int64_t k,
    std::int64_t batch = 1, int reservedSms = 0);

// The share of a GPU's SMs a communication kernel of `blocks` CUDA blocks (one per NCCL channel, or Transformer
// Engine's num_sm) takes from the compute beside it: min(blocks, S)/S; 0 without an SM count. The SMs alone: the
// memory-bandwidth contention Lee et al. (arXiv 2507.03114) measure on top (18.9 % average slowdown of overlapped
// compute) is not counted, so this is a lower bound.
double smShare(const GpuSpec& gpu, int blocks);

// Flash attention over `flops` (the non-causal count 4*b*s_q*s_kv*h/t of the forward) at the preset's measured
// forward+backward throughput for this sequence length (interpolated in log2 of the length); a causal mask halves
// the work. Backward does 2.5x the forward's FLOPs (FlashAttention-2 benchmark convention).
KernelTime flashAttention(const GpuSpec& gpu, Precision precision, double flops, double bytes, double sequence,
    bool causal, bool backward);

// The attention throughput (FLOP/s) the preset gives at `sequence`, or the default share of the GEMM rate.
double attentionFlops(const GpuSpec& gpu, Precision precision, double sequence);

KernelTime memoryOp(const GpuSpec& gpu, double bytes);

} // namespace kernels
} // namespace planscope
