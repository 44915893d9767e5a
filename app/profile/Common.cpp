#include "Common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace planscope::profile {

namespace {
bool gProgress = true;
}

void fail(int code, const std::string& message)
{
    throw Failure(code, message);
}

std::string cudaErrorShort(cudaError_t status)
{
    switch (status) {
    case cudaErrorInsufficientDriver: return "insufficient driver";
    case cudaErrorNoDevice: return "no CUDA-capable device";
    case cudaErrorStubLibrary: return "stub driver library";
    case cudaErrorDevicesUnavailable: return "devices unavailable";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorSystemDriverMismatch: return "driver mismatch";
    case cudaErrorCompatNotSupportedOnDevice: return "compatibility driver not supported";
    default: break;
    }
    const char* name = cudaGetErrorString(status);
    return name ? name : "unknown error";
}

void checkCuda(cudaError_t status, const char* what)
{
    if (status == cudaSuccess) return;
    fail(kExitNoGpu,
        std::string("CUDA error in ") + what + ": " + cudaErrorShort(status) + " (error " + std::to_string(int(status)) + ")");
}

void setProgressEnabled(bool enabled)
{
    gProgress = enabled;
}

void progress(double fraction, const std::string& message)
{
    if (!gProgress) return;
    fraction = std::clamp(fraction, 0.0, 1.0);
    std::fprintf(stderr, "progress %.3f %s\n", fraction, message.c_str());
    std::fflush(stderr);
}

void note(const std::string& message)
{
    if (!gProgress) return;
    std::fprintf(stderr, "planscope-profile: note: %s\n", message.c_str());
    std::fflush(stderr);
}

double median(std::vector<double> samples)
{
    if (samples.empty()) return 0;
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

std::string formatBytes(double bytes)
{
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, bytes == std::floor(bytes) ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

DeviceBuffer::DeviceBuffer(int device, std::size_t bytes) : device_(device), bytes_(bytes)
{
    PS_CUDA(cudaSetDevice(device));
    const cudaError_t status = cudaMalloc(&ptr_, bytes);
    if (status != cudaSuccess) {
        ptr_ = nullptr;
        (void)cudaGetLastError();
        fail(kExitNoGpu, "cannot allocate " + formatBytes(double(bytes)) + " on GPU " + std::to_string(device) + ": "
                + cudaErrorShort(status) + " (error " + std::to_string(int(status)) + ")");
    }
}

DeviceBuffer::~DeviceBuffer()
{
    release();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : device_(other.device_), ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0))
{
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        device_ = other.device_;
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void DeviceBuffer::release()
{
    if (!ptr_) return;
    int current = 0;
    if (cudaGetDevice(&current) == cudaSuccess && current != device_) (void)cudaSetDevice(device_);
    (void)cudaFree(ptr_);
    if (current != device_) (void)cudaSetDevice(current);
    ptr_ = nullptr;
    bytes_ = 0;
}

} // namespace planscope::profile
