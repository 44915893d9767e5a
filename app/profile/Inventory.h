// What the machine is: the GPUs (CUDA), their links (NVML, opened at run time with dlopen so that there is no
// link-time dependency on the driver), the software versions and the host name.
#pragma once

#include "calib/Profile.h"

#include <string>
#include <utility>
#include <vector>

namespace planscope::profile {

// One GPU as a rank sees it; a fixed-size record so that ranks can all-gather it.
struct GpuInfo {
    std::string host;
    std::string name;
    std::string busId;         // as cudaDeviceGetPCIBusId writes it, e.g. "0000:3B:00.0"
    long long memory = 0;      // bytes
    int device = 0;            // CUDA ordinal in its process
    int major = 0, minor = 0;  // compute capability
};

std::string hostName();
GpuInfo gpuInfo(int device);
inline constexpr std::size_t kGpuRecordBytes = 256;
std::string toRecord(const GpuInfo& info);
GpuInfo fromRecord(const std::string& record);

// cuda (runtime), driver (the CUDA version the driver supports), nccl.
void fillVersions(Profile& profile);

// Links between the GPUs of this node, by NVML: NVLink lanes between each pair (direct, or through NVSwitch)
// with bandwidth = lanes x per-lane speed of the architecture, else PCIe at the lower of the two GPUs' maximum
// link generation x width. `gpus` pairs the index used in the profile with the GPU's PCI bus id. Without NVML
// (no driver) returns none and says why in `why`.
std::vector<ProfileLink> nvmlLinks(const std::vector<std::pair<int, GpuInfo>>& gpus, std::string& why);

} // namespace planscope::profile
