#include "Nccl.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

namespace planscope::profile {

namespace {
std::mutex gCommsMutex;
std::vector<ncclComm_t> gComms; // live communicators

void registerComm(ncclComm_t comm)
{
    if (!comm) return;
    std::lock_guard lock(gCommsMutex);
    gComms.push_back(comm);
}

void unregisterComm(ncclComm_t comm)
{
    std::lock_guard lock(gCommsMutex);
    gComms.erase(std::remove(gComms.begin(), gComms.end(), comm), gComms.end());
}

ncclConfig_t nonblockingConfig()
{
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    return config;
}

void pause(int round)
{
    if (round < 100) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(round < 1000 ? 50 : 500));
}

void checkAsync(const std::vector<ncclComm_t>& comms, const std::string& what, bool& inProgress)
{
    inProgress = false;
    for (ncclComm_t comm : comms) {
        if (!comm) continue;
        ncclResult_t state = ncclSuccess;
        checkNccl(ncclCommGetAsyncError(comm, &state), "ncclCommGetAsyncError", comm);
        if (state == ncclInProgress) inProgress = true;
        else if (state != ncclSuccess) {
            const char* last = ncclGetLastError(comm);
            fail(kExitNccl, "NCCL error during " + what + ": " + ncclGetErrorString(state)
                    + (last && *last ? std::string(" (") + last + ")" : std::string()));
        }
    }
}

std::string timeoutMessage(const std::string& what, double seconds)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", seconds);
    return "timed out after " + std::string(buf) + " s waiting for " + what
        + " (communicators aborted; a rank missing, a network problem, or raise --timeout)";
}
} // namespace

std::string ncclVersionString()
{
    int v = 0;
    if (ncclGetVersion(&v) != ncclSuccess) return "unknown";
    // NCCL_VERSION(X,Y,Z): X*10000 + Y*100 + Z since 2.9, X*1000 + Y*100 + Z before.
    const int major = v >= 10000 ? v / 10000 : v / 1000;
    const int rest = v >= 10000 ? v % 10000 : v % 1000;
    return std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
}

void checkNccl(ncclResult_t status, const char* what, ncclComm_t comm)
{
    if (status == ncclSuccess || status == ncclInProgress) return;
    const char* last = comm ? ncclGetLastError(comm) : ncclGetLastError(nullptr);
    fail(kExitNccl, std::string("NCCL error in ") + what + ": " + ncclGetErrorString(status)
            + (last && *last ? std::string(" (") + last + ")" : std::string()));
}

void abortAllComms()
{
    std::vector<ncclComm_t> comms;
    {
        std::lock_guard lock(gCommsMutex);
        comms.swap(gComms);
    }
    for (ncclComm_t comm : comms) (void)ncclCommAbort(comm);
}

void waitReady(const std::vector<ncclComm_t>& comms, double timeoutSeconds, const std::string& what)
{
    const Deadline deadline(timeoutSeconds);
    for (int round = 0;; ++round) {
        bool inProgress = false;
        checkAsync(comms, what, inProgress);
        if (!inProgress) return;
        if (deadline.expired()) fail(kExitNccl, timeoutMessage(what, timeoutSeconds));
        pause(round);
    }
}

void waitEvents(const std::vector<cudaEvent_t>& events, const std::vector<ncclComm_t>& comms, double timeoutSeconds,
    const std::string& what)
{
    const Deadline deadline(timeoutSeconds);
    std::vector<bool> done(events.size(), false);
    for (int round = 0;; ++round) {
        bool all = true;
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (done[i]) continue;
            const cudaError_t status = cudaEventQuery(events[i]);
            if (status == cudaSuccess) done[i] = true;
            else if (status == cudaErrorNotReady) all = false;
            else checkCuda(status, ("cudaEventQuery during " + what).c_str());
        }
        bool inProgress = false;
        checkAsync(comms, what, inProgress);
        if (all) return;
        if (deadline.expired()) fail(kExitNccl, timeoutMessage(what, timeoutSeconds));
        pause(round);
    }
}

std::vector<ncclComm_t> Group::comms() const
{
    std::vector<ncclComm_t> out;
    for (const LocalRank& m : members) out.push_back(m.comm);
    return out;
}

std::vector<ncclComm_t> World::comms() const
{
    std::vector<ncclComm_t> out;
    for (const LocalRank& m : local) out.push_back(m.comm);
    return out;
}

Group World::all() const
{
    Group g;
    g.size = size;
    g.nodes = nodes;
    g.members = local;
    g.owned = false;
    return g;
}

int World::nodesSpanned(int firstRanks) const
{
    std::set<int> seen;
    for (int r = 0; r < firstRanks && r < int(nodeOfRank.size()); ++r) seen.insert(nodeOfRank[std::size_t(r)]);
    return std::max<int>(1, int(seen.size()));
}

void setNodes(World& world, const std::vector<std::string>& hostOfRank)
{
    std::vector<std::string> hosts;
    world.nodeOfRank.clear();
    for (const std::string& h : hostOfRank) {
        auto it = std::find(hosts.begin(), hosts.end(), h);
        if (it == hosts.end()) {
            hosts.push_back(h);
            it = hosts.end() - 1;
        }
        world.nodeOfRank.push_back(int(it - hosts.begin()));
    }
    world.nodes = std::max<int>(1, int(hosts.size()));
}

World initWorld(const ncclUniqueId& id, int worldSize, const std::vector<std::pair<int, int>>& deviceAndRank,
    bool multiProcess, double timeoutSeconds)
{
    World w;
    w.multiProcess = multiProcess;
    w.size = worldSize;
    w.timeout = timeoutSeconds;
    for (const auto& [device, rank] : deviceAndRank) {
        LocalRank m;
        m.device = device;
        m.rank = rank;
        PS_CUDA(cudaSetDevice(device));
        PS_CUDA(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
        w.local.push_back(m);
    }
    ncclConfig_t config = nonblockingConfig();
    PS_NCCL(ncclGroupStart());
    for (LocalRank& m : w.local) {
        PS_CUDA(cudaSetDevice(m.device));
        const ncclResult_t status = ncclCommInitRankConfig(&m.comm, worldSize, id, m.rank, &config);
        if (status != ncclSuccess && status != ncclInProgress) {
            (void)ncclGroupEnd();
            checkNccl(status, "ncclCommInitRankConfig");
        }
    }
    const ncclResult_t end = ncclGroupEnd();
    for (LocalRank& m : w.local) registerComm(m.comm);
    checkNccl(end, "ncclGroupEnd (communicator set-up)");
    waitReady(w.comms(), timeoutSeconds, "NCCL communicator set-up over " + std::to_string(worldSize) + " ranks");
    w.nodeOfRank.assign(std::size_t(worldSize), 0);
    if (multiProcess) w.scratch = std::make_shared<DeviceBuffer>(w.local.front().device, std::size_t(1) << 16);
    return w;
}

Group splitGroup(const World& world, int size)
{
    if (size >= world.size) return world.all();
    Group g;
    g.size = size;
    g.nodes = world.nodesSpanned(size);
    g.owned = true;
    ncclConfig_t config = nonblockingConfig();
    std::vector<ncclComm_t> children(world.local.size(), nullptr);
    PS_NCCL(ncclGroupStart());
    for (std::size_t i = 0; i < world.local.size(); ++i) {
        const LocalRank& m = world.local[i];
        PS_CUDA(cudaSetDevice(m.device));
        const int color = m.rank < size ? 0 : NCCL_SPLIT_NOCOLOR;
        const ncclResult_t status = ncclCommSplit(m.comm, color, m.rank, &children[i], &config);
        if (status != ncclSuccess && status != ncclInProgress) {
            (void)ncclGroupEnd();
            checkNccl(status, "ncclCommSplit", m.comm);
        }
    }
    const ncclResult_t end = ncclGroupEnd();
    for (ncclComm_t c : children) registerComm(c);
    checkNccl(end, "ncclGroupEnd (ncclCommSplit)");
    std::vector<ncclComm_t> wait = world.comms();
    for (ncclComm_t c : children)
        if (c) wait.push_back(c);
    waitReady(wait, world.timeout, "a communicator of " + std::to_string(size) + " ranks (ncclCommSplit)");
    for (std::size_t i = 0; i < world.local.size(); ++i) {
        if (!children[i]) continue;
        LocalRank m = world.local[i];
        m.comm = children[i];
        int rank = 0;
        PS_NCCL(ncclCommUserRank(m.comm, &rank));
        m.rank = rank;
        g.members.push_back(m);
    }
    return g;
}

namespace {
void finalizeAndDestroy(const std::vector<ncclComm_t>& comms, double timeoutSeconds, const std::string& what)
{
    for (ncclComm_t c : comms)
        if (c) checkNccl(ncclCommFinalize(c), "ncclCommFinalize", c);
    waitReady(comms, timeoutSeconds, what);
    for (ncclComm_t c : comms) {
        if (!c) continue;
        unregisterComm(c);
        (void)ncclCommDestroy(c);
    }
}
} // namespace

void destroyGroup(Group& group, double timeoutSeconds)
{
    if (!group.owned) {
        group.members.clear();
        return;
    }
    finalizeAndDestroy(group.comms(), timeoutSeconds, "closing a communicator of " + std::to_string(group.size) + " ranks");
    group.members.clear();
}

void destroyWorld(World& world)
{
    finalizeAndDestroy(world.comms(), world.timeout, "closing the NCCL communicators");
    world.scratch.reset();
    for (LocalRank& m : world.local) {
        (void)cudaSetDevice(m.device);
        (void)cudaStreamDestroy(m.stream);
        m.comm = nullptr;
        m.stream = nullptr;
    }
}

namespace {
// Waits (with the deadline) until everything enqueued on the rank's stream has run.
void drain(const World& world, const LocalRank& m, const std::string& what)
{
    cudaEvent_t done = nullptr;
    PS_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    PS_CUDA(cudaEventRecord(done, m.stream));
    try {
        waitEvents({ done }, { m.comm }, world.timeout, what);
    } catch (...) {
        (void)cudaEventDestroy(done);
        throw;
    }
    (void)cudaEventDestroy(done);
}
} // namespace

std::vector<double> worldMax(const World& world, const std::vector<std::vector<double>>& perLocal)
{
    std::vector<double> result;
    for (const auto& v : perLocal) {
        if (result.empty()) result = v;
        for (std::size_t i = 0; i < v.size() && i < result.size(); ++i) result[i] = std::max(result[i], v[i]);
    }
    if (!world.multiProcess || result.empty()) return result;
    // Across processes: one rank per process, an all-reduce (max) of doubles on the world communicator.
    const LocalRank& m = world.local.front();
    const std::size_t bytes = result.size() * sizeof(double);
    DeviceBuffer local;
    void* buffer = nullptr;
    if (world.scratch && world.scratch->size() >= bytes) {
        buffer = world.scratch->get();
    } else {
        local = DeviceBuffer(m.device, bytes);
        buffer = local.get();
    }
    PS_CUDA(cudaSetDevice(m.device));
    PS_CUDA(cudaMemcpyAsync(buffer, result.data(), bytes, cudaMemcpyHostToDevice, m.stream));
    checkNccl(ncclAllReduce(buffer, buffer, result.size(), ncclDouble, ncclMax, m.comm, m.stream),
        "ncclAllReduce (max)", m.comm);
    waitReady({ m.comm }, world.timeout, "an all-reduce of results");
    drain(world, m, "an all-reduce of results");
    PS_CUDA(cudaMemcpy(result.data(), buffer, bytes, cudaMemcpyDeviceToHost));
    return result;
}

std::vector<std::string> worldGather(const World& world, const std::vector<std::string>& perLocal, std::size_t bytes)
{
    std::vector<std::string> out(std::size_t(world.size), std::string(bytes, '\0'));
    if (!world.multiProcess) {
        for (std::size_t i = 0; i < perLocal.size() && i < world.local.size(); ++i) {
            std::string record = perLocal[i];
            record.resize(bytes, '\0');
            out[std::size_t(world.local[i].rank)] = record;
        }
        return out;
    }
    const LocalRank& m = world.local.front();
    std::string mine = perLocal.empty() ? std::string() : perLocal.front();
    mine.resize(bytes, '\0');
    DeviceBuffer send(m.device, bytes);
    DeviceBuffer recv(m.device, bytes * std::size_t(world.size));
    PS_CUDA(cudaMemcpyAsync(send.get(), mine.data(), bytes, cudaMemcpyHostToDevice, m.stream));
    checkNccl(ncclAllGather(send.get(), recv.get(), bytes, ncclChar, m.comm, m.stream), "ncclAllGather", m.comm);
    waitReady({ m.comm }, world.timeout, "gathering the ranks' GPUs");
    drain(world, m, "gathering the ranks' GPUs");
    std::string all(bytes * std::size_t(world.size), '\0');
    PS_CUDA(cudaMemcpy(all.data(), recv.get(), all.size(), cudaMemcpyDeviceToHost));
    for (int r = 0; r < world.size; ++r) out[std::size_t(r)] = all.substr(std::size_t(r) * bytes, bytes);
    return out;
}

} // namespace planscope::profile
