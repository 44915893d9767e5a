#include "Inventory.h"

#include "Common.h"
#include "Nccl.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

namespace planscope::profile {

namespace {
// The few NVML declarations used, as nvml.h has them (no nvml.h is needed to build).
using nvmlReturn_t = int;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
using nvmlDevice_t = struct nvmlDevice_st*;
using nvmlEnableState_t = int;
constexpr int NVML_FEATURE_ENABLED = 1;
constexpr int NVML_NVLINK_DEVICE_TYPE_GPU = 0;
constexpr int NVML_NVLINK_DEVICE_TYPE_SWITCH = 2;
constexpr unsigned kMaxNvLinks = 32; // NVML_NVLINK_MAX_LINKS is 18 today; stop at the first invalid link
struct nvmlPciInfo_t {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
};

struct Nvml {
    void* lib = nullptr;
    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    nvmlReturn_t (*byBusId)(const char*, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*linkState)(nvmlDevice_t, unsigned, nvmlEnableState_t*) = nullptr;
    nvmlReturn_t (*remotePci)(nvmlDevice_t, unsigned, nvmlPciInfo_t*) = nullptr;
    nvmlReturn_t (*remoteType)(nvmlDevice_t, unsigned, int*) = nullptr; // optional
    nvmlReturn_t (*pcieGen)(nvmlDevice_t, unsigned*) = nullptr;
    nvmlReturn_t (*pcieWidth)(nvmlDevice_t, unsigned*) = nullptr;

    template <typename F> bool load(F& f, const char* name)
    {
        f = reinterpret_cast<F>(::dlsym(lib, name));
        return f != nullptr;
    }
    bool open(std::string& why)
    {
        lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            why = "NVML (libnvidia-ml.so.1) not found: links not measured";
            return false;
        }
        const bool ok = load(init, "nvmlInit_v2") && load(shutdown, "nvmlShutdown")
            && load(byBusId, "nvmlDeviceGetHandleByPciBusId_v2") && load(linkState, "nvmlDeviceGetNvLinkState")
            && load(remotePci, "nvmlDeviceGetNvLinkRemotePciInfo_v2")
            && load(pcieGen, "nvmlDeviceGetMaxPcieLinkGeneration") && load(pcieWidth, "nvmlDeviceGetMaxPcieLinkWidth");
        load(remoteType, "nvmlDeviceGetNvLinkRemoteDeviceType");
        if (!ok) {
            why = "NVML lacks a function used here: links not measured";
            return false;
        }
        if (init() != NVML_SUCCESS) {
            why = "NVML did not initialise: links not measured";
            return false;
        }
        return true;
    }
    ~Nvml()
    {
        if (lib && shutdown) shutdown();
        // The library stays loaded: unloading NVML while CUDA runs is not worth the risk.
    }
};

struct Pci {
    unsigned domain = 0, bus = 0, device = 0;
    bool operator==(const Pci&) const = default;
};

bool parsePci(const std::string& busId, Pci& pci)
{
    unsigned d = 0, b = 0, dev = 0;
    if (std::sscanf(busId.c_str(), "%x:%x:%x", &d, &b, &dev) != 3) return false;
    pci = { d, b, dev };
    return true;
}

// Bytes/s per direction of one NVLink lane, by GPU architecture.
double nvlinkLaneBandwidth(int major, int minor)
{
    if (major <= 6) return 20e9;                 // NVLink 1 (P100)
    if (major == 8 && minor >= 6) return 14.0625e9; // GA10x: NVLink 3 with 4 narrow links
    if (major <= 9) return 25e9;                 // NVLink 2 (V100), 3 (A100), 4 (H100/H200)
    return 50e9;                                 // NVLink 5 (B200) and later
}

// Bytes/s per direction per lane of a PCIe generation.
double pcieLaneBandwidth(unsigned gen)
{
    switch (gen) {
    case 1: return 0.25e9;
    case 2: return 0.5e9;
    case 3: return 0.985e9;
    case 4: return 1.969e9;
    case 5: return 3.938e9;
    default: return gen >= 6 ? 7.563e9 : 0.0;
    }
}

std::string field(const std::string& record, std::size_t offset, std::size_t size)
{
    std::string s = record.substr(offset, size);
    s.resize(std::strlen(s.c_str()));
    return s;
}

void putField(std::string& record, std::size_t offset, std::size_t size, const std::string& value)
{
    const std::size_t n = std::min(value.size(), size - 1);
    record.replace(offset, n, value.substr(0, n));
}
} // namespace

std::string hostName()
{
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

GpuInfo gpuInfo(int device)
{
    GpuInfo info;
    info.host = hostName();
    info.device = device;
    cudaDeviceProp prop {};
    PS_CUDA(cudaGetDeviceProperties(&prop, device));
    info.name = prop.name;
    info.memory = static_cast<long long>(prop.totalGlobalMem);
    info.major = prop.major;
    info.minor = prop.minor;
    char bus[64] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus - 1, device) == cudaSuccess) info.busId = bus;
    else (void)cudaGetLastError();
    return info;
}

// Layout: host 0..95, name 96..191, busId 192..223, memory 224..239 (decimal), device 240..243, cc 244..251.
std::string toRecord(const GpuInfo& info)
{
    std::string r(kGpuRecordBytes, '\0');
    putField(r, 0, 96, info.host);
    putField(r, 96, 96, info.name);
    putField(r, 192, 32, info.busId);
    putField(r, 224, 16, std::to_string(info.memory));
    putField(r, 240, 4, std::to_string(info.device));
    putField(r, 244, 8, std::to_string(info.major) + "." + std::to_string(info.minor));
    return r;
}

GpuInfo fromRecord(const std::string& record)
{
    std::string r = record;
    r.resize(kGpuRecordBytes, '\0');
    GpuInfo info;
    info.host = field(r, 0, 96);
    info.name = field(r, 96, 96);
    info.busId = field(r, 192, 32);
    info.memory = std::atoll(field(r, 224, 16).c_str());
    info.device = std::atoi(field(r, 240, 4).c_str());
    std::sscanf(field(r, 244, 8).c_str(), "%d.%d", &info.major, &info.minor);
    return info;
}

void fillVersions(Profile& profile)
{
    auto cudaVersion = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
    int runtime = 0, driver = 0;
    profile.cuda = cudaRuntimeGetVersion(&runtime) == cudaSuccess ? cudaVersion(runtime) : "unknown";
    profile.driver = cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0 ? cudaVersion(driver) : "none";
    profile.nccl = ncclVersionString();
}

std::vector<ProfileLink> nvmlLinks(const std::vector<std::pair<int, GpuInfo>>& gpus, std::string& why)
{
    std::vector<ProfileLink> links;
    if (gpus.size() < 2) return links;
    Nvml nvml;
    if (!nvml.open(why)) return links;
    const std::size_t n = gpus.size();
    std::vector<nvmlDevice_t> handles(n, nullptr);
    std::vector<Pci> pci(n);
    for (std::size_t i = 0; i < n; ++i) {
        parsePci(gpus[i].second.busId, pci[i]);
        if (nvml.byBusId(gpus[i].second.busId.c_str(), &handles[i]) != NVML_SUCCESS) handles[i] = nullptr;
    }
    // Lanes from each GPU straight to each other GPU, and lanes into NVSwitches.
    std::vector<std::vector<int>> direct(n, std::vector<int>(n, 0));
    std::vector<int> switchLanes(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (!handles[i]) continue;
        for (unsigned l = 0; l < kMaxNvLinks; ++l) {
            nvmlEnableState_t active = 0;
            const nvmlReturn_t st = nvml.linkState(handles[i], l, &active);
            if (st != NVML_SUCCESS) {
                if (st == 2 /* NVML_ERROR_INVALID_ARGUMENT: past the last link */ || st == 3 /* NOT_SUPPORTED */) break;
                continue;
            }
            if (active != NVML_FEATURE_ENABLED) continue;
            nvmlPciInfo_t remote {};
            if (nvml.remotePci(handles[i], l, &remote) != NVML_SUCCESS) continue;
            const Pci rp { remote.domain, remote.bus, remote.device };
            int type = -1;
            if (nvml.remoteType && nvml.remoteType(handles[i], l, &type) != NVML_SUCCESS) type = -1;
            bool matched = false;
            if (type == -1 || type == NVML_NVLINK_DEVICE_TYPE_GPU)
                for (std::size_t j = 0; j < n; ++j)
                    if (j != i && pci[j] == rp) {
                        ++direct[i][j];
                        matched = true;
                        break;
                    }
            if (!matched && (type == NVML_NVLINK_DEVICE_TYPE_SWITCH || type == -1)) ++switchLanes[i];
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            ProfileLink link;
            link.from = gpus[i].first;
            link.to = gpus[j].first;
            const int lanes = std::max(direct[i][j], direct[j][i]) + std::min(switchLanes[i], switchLanes[j]);
            if (lanes > 0) {
                link.kind = "nvlink";
                link.count = lanes;
                link.bandwidth = lanes * nvlinkLaneBandwidth(gpus[i].second.major, gpus[i].second.minor);
            } else {
                link.kind = "pcie";
                double bw = 0;
                if (handles[i] && handles[j]) {
                    unsigned gi = 0, wi = 0, gj = 0, wj = 0;
                    if (nvml.pcieGen(handles[i], &gi) == NVML_SUCCESS && nvml.pcieWidth(handles[i], &wi) == NVML_SUCCESS
                        && nvml.pcieGen(handles[j], &gj) == NVML_SUCCESS && nvml.pcieWidth(handles[j], &wj) == NVML_SUCCESS)
                        bw = std::min(pcieLaneBandwidth(gi) * wi, pcieLaneBandwidth(gj) * wj);
                }
                link.bandwidth = bw;
            }
            links.push_back(link);
        }
    return links;
}

} // namespace planscope::profile
