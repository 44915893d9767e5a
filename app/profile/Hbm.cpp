#include "Hbm.h"

#include "Common.h"

namespace planscope::profile {

HbmPlan hbmPlan(bool quick)
{
    HbmPlan p;
    p.warmup = quick ? 3 : 5;
    p.iterations = quick ? 10 : 30;
    return p;
}

double measureHbm(int device, const HbmPlan& plan)
{
    PS_CUDA(cudaSetDevice(device));
    std::size_t freeBytes = 0, totalBytes = 0;
    PS_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
    std::uint64_t bytes = plan.bytes;
    while (bytes > (std::uint64_t(64) << 20) && 2 * bytes + (std::uint64_t(256) << 20) > freeBytes) bytes /= 2;
    if (bytes != plan.bytes) note("HBM copy reduced to " + formatBytes(double(bytes)) + " (free GPU memory)");
    DeviceBuffer src(device, bytes), dst(device, bytes);
    PS_CUDA(cudaMemset(src.get(), 0x5a, bytes));
    PS_CUDA(cudaMemset(dst.get(), 0, bytes));
    cudaStream_t stream = nullptr;
    PS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int i = 0; i < plan.warmup; ++i) PS_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream));
    std::vector<cudaEvent_t> start(std::size_t(plan.iterations)), end(std::size_t(plan.iterations));
    for (std::size_t i = 0; i < start.size(); ++i) {
        PS_CUDA(cudaEventCreate(&start[i]));
        PS_CUDA(cudaEventCreate(&end[i]));
    }
    for (std::size_t i = 0; i < start.size(); ++i) {
        PS_CUDA(cudaEventRecord(start[i], stream));
        PS_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream));
        PS_CUDA(cudaEventRecord(end[i], stream));
    }
    PS_CUDA(cudaStreamSynchronize(stream));
    std::vector<double> seconds;
    for (std::size_t i = 0; i < start.size(); ++i) {
        float ms = 0;
        PS_CUDA(cudaEventElapsedTime(&ms, start[i], end[i]));
        seconds.push_back(double(ms) * 1e-3);
        (void)cudaEventDestroy(start[i]);
        (void)cudaEventDestroy(end[i]);
    }
    (void)cudaStreamDestroy(stream);
    const double t = median(seconds);
    return t > 0 ? 2.0 * double(bytes) / t : 0.0;
}

} // namespace planscope::profile
