// planscope-profile: measures a machine for PlanScope and writes one profile JSON (docs/FORMATS.md section 6,
// schema planscope/profile/v1): GEMM throughput (cuBLASLt bf16, fp8 on sm >= 89), HBM bandwidth, NCCL
// collectives with alpha-beta fits (fitCollectives), the GPUs, their links, the versions and the host.
//
// Exit codes (also in --help):
//   0  the profile was written
//   1  an unexpected internal error
//   2  usage error (unknown option, bad value, an unusable launcher environment)
//   3  no usable GPU: no driver, no device ("planscope-profile: no GPU found (CUDA: insufficient driver,
//      error 35)"), or a CUDA/cuBLASLt failure
//   4  NCCL failure or timeout: every NCCL wait polls ncclCommGetAsyncError against --timeout and aborts the
//      communicators; a collective that returns a wrong result counts as a failure
//   5  the output file cannot be written
// Progress goes to stderr as "progress <fraction 0..1> <message>" (rank 0 only), the last line is
// "wrote FILE".
#include "Collectives.h"
#include "Common.h"
#include "Gemm.h"
#include "Hbm.h"
#include "Inventory.h"
#include "Launcher.h"
#include "Nccl.h"
#include "Options.h"

#include "calib/Profile.h"
#include "cost/Operators.h"
#include "io/PlanJson.h"
#include "spec/Validate.h"
#include "util/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#ifndef PLANSCOPE_VERSION
#define PLANSCOPE_VERSION "0.0.0"
#endif

using namespace planscope;
using namespace planscope::profile;

namespace {

// Fails with exit 5 now, before minutes of measuring, where the output cannot be created.
void checkWritable(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) fail(kExitWrite, "cannot write " + path + ": it is a directory");
    if (fs::exists(p, ec)) {
        if (::access(path.c_str(), W_OK) != 0) fail(kExitWrite, "cannot write " + path + ": " + std::strerror(errno));
        return;
    }
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) fail(kExitWrite, "cannot write " + path + ": no directory " + dir.string());
    if (::access(dir.c_str(), W_OK) != 0) fail(kExitWrite, "cannot write " + path + ": " + std::strerror(errno));
}

// Atomically (util/AtomicFile.h): a pass killed while writing leaves the previous profile whole.
void writeProfile(const Profile& profile, const std::string& path)
{
    if (std::string error; !writeFileAtomically(path, profileToJson(profile).dump(2) + "\n", error))
        fail(kExitWrite, "cannot write " + path + ": " + error);
}

// The local GPUs, or exit 3 with one line saying why there are none.
int visibleGpus()
{
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        (void)cudaGetLastError();
        fail(kExitNoGpu, "no GPU found (CUDA: " + cudaErrorShort(status) + ", error " + std::to_string(int(status)) + ")");
    }
    if (count <= 0) fail(kExitNoGpu, "no GPU found (CUDA: no devices)");
    return count;
}

// The GEMM shapes of --plan's layers (docs/MODEL.md section 7.1), read before any GPU work so that a bad plan is a
// usage error on any machine.
std::vector<GemmShape> planGemmShapes(const std::string& path)
{
    std::vector<GemmShape> shapes;
    if (path.empty()) return shapes;
    const auto loaded = loadPlanFile(path);
    if (!loaded) {
        const Issue& i = loaded.errors().front();
        fail(kExitUsage, "--plan " + path + ": " + (i.path.empty() ? "" : i.path + ": ") + i.message);
    }
    if (!validate(loaded->plan).empty())
        for (const Issue& i : validate(loaded->plan))
            if (i.severity == Severity::Error) fail(kExitUsage, "--plan " + path + ": " + i.path + ": " + i.message);
    for (const auto& [m, n, k] : distinctGemmShapes(loaded->plan)) shapes.push_back({ m, n, k });
    return shapes;
}

int run(const Options& options)
{
    const std::vector<GemmShape> planShapes = planGemmShapes(options.plan);
    const Launch launch = detectLaunch();
    setProgressEnabled(launch.rank == 0);
    const int count = visibleGpus();

    // Which GPUs this process drives, and as which ranks.
    std::vector<std::pair<int, int>> deviceAndRank;
    if (launch.multiProcess()) {
        if (options.gpus) note("--gpus is ignored under a launcher (one GPU per process)");
        if (launch.localRank >= count)
            fail(kExitUsage, "local rank " + std::to_string(launch.localRank) + " but only " + std::to_string(count)
                    + " GPU(s) visible to this process");
        deviceAndRank.emplace_back(launch.localRank, launch.rank);
    } else {
        const int n = options.gpus.value_or(count);
        if (n > count)
            fail(kExitUsage, "--gpus " + std::to_string(n) + " but only " + std::to_string(count) + " GPU(s) visible");
        for (int d = 0; d < n; ++d) deviceAndRank.emplace_back(d, d);
    }
    for (const auto& [device, rank] : deviceAndRank) {
        PS_CUDA(cudaSetDevice(device));
        PS_CUDA(cudaFree(nullptr)); // creates the context: a broken GPU fails here, clearly
    }

    Profile profile;
    profile.host = hostName();
    profile.source = "planscope-profile";
    fillVersions(profile);
    const std::string out = options.out.empty() ? profile.host + ".profile.json" : options.out;
    if (launch.rank == 0) checkWritable(out);
    progress(0.01, std::to_string(deviceAndRank.size()) + " GPU(s) in this process, world of "
            + std::to_string(launch.multiProcess() ? launch.worldSize : int(deviceAndRank.size())) + ", launcher "
            + launch.launcher + ", CUDA " + profile.cuda + ", driver " + profile.driver + ", NCCL " + profile.nccl);

    // NCCL: the world communicator(s), then who is where.
    ncclUniqueId id {};
    if (launch.multiProcess()) {
        progress(0.02, "rendezvous of " + std::to_string(launch.worldSize) + " ranks");
        id = bootstrapUniqueId(launch, options.timeoutSeconds);
    } else {
        PS_NCCL(ncclGetUniqueId(&id));
    }
    const int worldSize = launch.multiProcess() ? launch.worldSize : int(deviceAndRank.size());
    World world = initWorld(id, worldSize, deviceAndRank, launch.multiProcess(), options.timeoutSeconds);
    progress(0.04, "NCCL communicators ready on " + std::to_string(worldSize) + " rank(s)");

    std::vector<std::string> records;
    for (const auto& [device, rank] : deviceAndRank) records.push_back(toRecord(gpuInfo(device)));
    const std::vector<std::string> all = worldGather(world, records, kGpuRecordBytes);
    std::vector<GpuInfo> infos;
    std::vector<std::string> hosts;
    for (const std::string& r : all) {
        infos.push_back(fromRecord(r));
        hosts.push_back(infos.back().host);
    }
    setNodes(world, hosts);
    for (int r = 0; r < worldSize; ++r) {
        const GpuInfo& g = infos[std::size_t(r)];
        ProfileGpu gpu;
        gpu.index = launch.multiProcess() ? r : g.device;
        gpu.name = g.name;
        gpu.memory = g.memory;
        gpu.busId = world.nodes > 1 ? g.host + "/" + g.busId : g.busId;
        profile.gpus.push_back(gpu);
    }
    if (launch.rank == 0) {
        std::vector<std::pair<int, GpuInfo>> here;
        for (int r = 0; r < worldSize; ++r)
            if (world.nodeOfRank[std::size_t(r)] == world.nodeOfRank[0]) here.emplace_back(profile.gpus[std::size_t(r)].index, infos[std::size_t(r)]);
        std::string why;
        profile.links = nvmlLinks(here, why);
        if (!why.empty() && here.size() > 1) note(why);
        if (world.nodes > 1) note("links: only rank 0's node is described (NVML sees one node)");
    }

    // Collectives.
    CollectivePlan plan;
    plan.ops = options.ops;
    plan.quick = options.quick;
    plan.sizes = collectiveSizes(options.minBytes, options.maxBytes, options.quick);
    profile.collectives = measureCollectives(world, plan, 0.05, 0.75);
    destroyWorld(world);
    if (launch.rank != 0) return kExitOk; // rank 0 measures the GEMMs and HBM and writes the profile

    const int device = deviceAndRank.front().first;
    profile.gemm = measureGemm(device, gemmPlan(options.quick, planShapes), 0.75, 0.93);
    progress(0.94, "HBM: device-to-device copy of " + formatBytes(double(hbmPlan(options.quick).bytes)));
    profile.hbmBandwidth = measureHbm(device, hbmPlan(options.quick));

    progress(0.97, "fitting alpha and bus bandwidth");
    std::vector<CollectiveSample> fittable;
    for (const CollectiveSample& s : profile.collectives)
        if (s.ranks >= 2) fittable.push_back(s);
    profile.fits = fitCollectives(fittable);

    writeProfile(profile, out);
    progress(1.0, "done: " + std::to_string(profile.gemm.size()) + " GEMM, " + std::to_string(profile.collectives.size())
            + " collective samples, " + std::to_string(profile.fits.size()) + " fits");
    std::fprintf(stderr, "wrote %s\n", out.c_str());
    return kExitOk;
}

} // namespace

int main(int argc, char** argv)
{
    // A write past the file size limit (ulimit -f, setrlimit(2) RLIMIT_FSIZE) fails with EFBIG and is reported, the
    // old file kept, instead of SIGXFSZ ending the process (signal(7)).
    std::signal(SIGXFSZ, SIG_IGN);
    std::string error;
    const std::optional<Options> options = parseOptions(argc, argv, error);
    if (!options) {
        std::fprintf(stderr, "planscope-profile: %s (see --help)\n", error.c_str());
        return kExitUsage;
    }
    if (options->help) {
        std::fputs(helpText().c_str(), stdout);
        return kExitOk;
    }
    if (options->version) {
        std::printf("planscope-profile %s (built with CUDA %d.%d, NCCL %d.%d.%d)\n", PLANSCOPE_VERSION,
            CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10, NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH);
        return kExitOk;
    }
    try {
        return run(*options);
    } catch (const Failure& f) {
        abortAllComms();
        std::fprintf(stderr, "planscope-profile: %s\n", f.what());
        return f.code();
    } catch (const std::exception& e) {
        abortAllComms();
        std::fprintf(stderr, "planscope-profile: internal error: %s\n", e.what());
        return kExitInternal;
    }
}
