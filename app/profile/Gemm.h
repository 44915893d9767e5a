// GEMM throughput with cuBLASLt: bf16 everywhere, fp8 (e4m3 inputs, bf16 output) where the GPU has it
// (sm >= 89). Square shapes m = n = k, and with --plan the plan's own GEMM shapes; random inputs; a warm-up that brings the clocks up, then per shape a
// few untimed runs and N runs each timed by its own pair of CUDA events; the sample is the median.
#pragma once

#include "calib/Profile.h"

#include <cstdint>
#include <vector>

namespace planscope::profile {

struct GemmShape {
    std::int64_t m = 0, n = 0, k = 0;
    bool operator==(const GemmShape&) const = default;
};

struct GemmPlan {
    std::vector<GemmShape> shapes;    // the square sweep, then any plan shapes
    int warmup = 10;
    int iterations = 50;
    double spinUpSeconds = 0.3;       // the largest bf16 shape, before any timing
};

// The square sweep, plus `extra` shapes (a plan's, from distinctGemmShapes) not already in it.
GemmPlan gemmPlan(bool quick, const std::vector<GemmShape>& extra = {});

// Measures on `device`; progress from p0 to p1. Failures of CUDA or cuBLASLt throw Failure(kExitNoGpu); a
// dtype that cuBLASLt has no algorithm for is skipped with a note.
std::vector<GemmSample> measureGemm(int device, const GemmPlan& plan, double p0, double p1);

} // namespace planscope::profile
