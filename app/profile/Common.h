// Shared pieces of planscope-profile: exit codes, failures, progress lines, medians and deadlines.
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace planscope::profile {

// Exit codes of planscope-profile (also printed by --help):
//   0  the profile was written
//   1  an unexpected internal error
//   2  usage: an unknown option, a bad value, or a launcher environment that cannot work
//   3  no usable GPU: no driver, no device, or a CUDA/cuBLASLt failure that leaves the GPU unusable
//   4  NCCL failure or timeout (rendezvous, communicator set-up, a collective, a wrong result)
//   5  the output file cannot be written
enum ExitCode : int {
    kExitOk = 0,
    kExitInternal = 1,
    kExitUsage = 2,
    kExitNoGpu = 3,
    kExitNccl = 4,
    kExitWrite = 5,
};

// A failure that ends the run with `code` after printing "planscope-profile: <what>" on stderr.
class Failure : public std::runtime_error {
public:
    Failure(int code, const std::string& what) : std::runtime_error(what), code_(code) { }
    int code() const { return code_; }

private:
    int code_;
};

[[noreturn]] void fail(int code, const std::string& message);

// Throws Failure(kExitNoGpu) naming the call and the CUDA error.
void checkCuda(cudaError_t status, const char* what);
#define PS_CUDA(call) ::planscope::profile::checkCuda((call), #call)

// A short human name for CUDA's errors around a missing GPU ("insufficient driver" for 35).
std::string cudaErrorShort(cudaError_t status);

// Progress on stderr as "progress <fraction> <message>" (the GUI parses these); silent where disabled
// (every rank but 0 in a multi-process run).
void setProgressEnabled(bool enabled);
void progress(double fraction, const std::string& message);
// "planscope-profile: note: ..." on stderr, where progress is enabled.
void note(const std::string& message);

// Median of the samples (mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> samples);

std::string formatBytes(double bytes);

class Deadline {
public:
    explicit Deadline(double seconds)
        : end_(std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(seconds)))
    {
    }
    bool expired() const { return std::chrono::steady_clock::now() >= end_; }
    double secondsLeft() const
    {
        return std::chrono::duration<double>(end_ - std::chrono::steady_clock::now()).count();
    }

private:
    std::chrono::steady_clock::time_point end_;
};

// A device buffer freed on destruction (on the device it was allocated on).
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(int device, std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    void* get() const { return ptr_; }
    std::size_t size() const { return bytes_; }

private:
    void release();
    int device_ = 0;
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace planscope::profile
