// HBM bandwidth: a device-to-device cudaMemcpy of `bytes` (1 GiB), warm-up then N runs each timed with CUDA
// events; bandwidth = 2 * bytes / median seconds (each byte read once and written once).
#pragma once

#include <cstdint>

namespace planscope::profile {

struct HbmPlan {
    std::uint64_t bytes = std::uint64_t(1) << 30;
    int warmup = 5;
    int iterations = 30;
};

HbmPlan hbmPlan(bool quick);

// Bytes/s; Failure(kExitNoGpu) where CUDA fails.
double measureHbm(int device, const HbmPlan& plan);

} // namespace planscope::profile
