#include "Collectives.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace planscope::profile {

namespace {
// Elements are floats for the reductions and bytes (ncclInt8) for the data movers, so that every size from
// 8 B fits; a size is rounded down to what the group can split evenly.
bool isReduction(Collective op)
{
    return op == Collective::AllReduce || op == Collective::ReduceScatter;
}

std::size_t elementBytes(Collective op)
{
    return isReduction(op) ? 4 : 1;
}

// Ops whose buffer S is split into n equal parts.
bool splitsBuffer(Collective op)
{
    return op == Collective::AllGather || op == Collective::ReduceScatter || op == Collective::AllToAll;
}

std::uint64_t usableBytes(Collective op, int n, std::uint64_t bytes)
{
    const std::uint64_t unit = elementBytes(op) * (splitsBuffer(op) ? std::uint64_t(n) : 1);
    return bytes / unit * unit;
}

// Enqueues one op of S bytes for one member (inside an NCCL group).
void enqueue(Collective op, const LocalRank& m, int n, void* send, void* recv, std::uint64_t bytes)
{
    const ncclDataType_t type = isReduction(op) ? ncclFloat : ncclInt8;
    const std::size_t count = std::size_t(bytes / elementBytes(op));
    ncclResult_t st = ncclSuccess;
    switch (op) {
    case Collective::AllReduce:
        st = ncclAllReduce(send, recv, count, type, ncclSum, m.comm, m.stream);
        break;
    case Collective::AllGather:
        st = ncclAllGather(send, recv, count / std::size_t(n), type, m.comm, m.stream);
        break;
    case Collective::ReduceScatter:
        st = ncclReduceScatter(send, recv, count / std::size_t(n), type, ncclSum, m.comm, m.stream);
        break;
    case Collective::Broadcast:
    case Collective::Reduce:
        st = ncclBroadcast(send, recv, count, type, 0, m.comm, m.stream);
        break;
    case Collective::AllToAll: {
        const std::size_t chunk = count / std::size_t(n);
        auto* s = static_cast<char*>(send);
        auto* r = static_cast<char*>(recv);
        for (int p = 0; p < n && st == ncclSuccess; ++p) {
            st = ncclSend(s + std::size_t(p) * chunk, chunk, type, p, m.comm, m.stream);
            if (st == ncclSuccess) st = ncclRecv(r + std::size_t(p) * chunk, chunk, type, p, m.comm, m.stream);
        }
        break;
    }
    case Collective::SendRecv: {
        const int next = (m.rank + 1) % n;
        const int prev = (m.rank - 1 + n) % n;
        st = ncclSend(send, count, type, next, m.comm, m.stream);
        if (st == ncclSuccess) st = ncclRecv(recv, count, type, prev, m.comm, m.stream);
        break;
    }
    }
    checkNccl(st, std::string(toString(op)).c_str(), m.comm);
}

struct RankBuffers {
    DeviceBuffer send, recv;
};

// One op for every member as one NCCL group; waits until NCCL has enqueued it.
void launch(Collective op, const Group& g, std::vector<RankBuffers>& buffers, std::uint64_t bytes, double timeout,
    const std::string& what)
{
    PS_NCCL(ncclGroupStart());
    for (std::size_t i = 0; i < g.members.size(); ++i) {
        PS_CUDA(cudaSetDevice(g.members[i].device));
        try {
            enqueue(op, g.members[i], g.size, buffers[i].send.get(), buffers[i].recv.get(), bytes);
        } catch (...) {
            (void)ncclGroupEnd();
            throw;
        }
    }
    checkNccl(ncclGroupEnd(), ("ncclGroupEnd (" + what + ")").c_str());
    waitReady(g.comms(), timeout, what);
}

std::vector<cudaEvent_t> recordAll(const Group& g, std::vector<std::vector<cudaEvent_t>>& events, std::size_t index)
{
    std::vector<cudaEvent_t> out;
    for (std::size_t i = 0; i < g.members.size(); ++i) {
        PS_CUDA(cudaSetDevice(g.members[i].device));
        PS_CUDA(cudaEventRecord(events[i][index], g.members[i].stream));
        out.push_back(events[i][index]);
    }
    return out;
}

// Values each rank puts in and expects back in the check: small integers, exact in float.
float sendValue(Collective op, int rank, int n, std::size_t chunk, std::size_t i)
{
    const std::size_t part = chunk ? i / chunk : 0; // which of the n parts element i is in
    const auto idx = float(i % 997);
    switch (op) {
    case Collective::AllReduce: return float(rank + 1);
    case Collective::AllGather: return float(rank + 1) * 1000.0f + idx;
    case Collective::ReduceScatter: return float(rank + 1) * float(part + 1);
    case Collective::Broadcast:
    case Collective::Reduce: return rank == 0 ? 7.0f + float(i % 13) : -1.0f;
    case Collective::AllToAll: return float(rank) * 4096.0f + float(part);
    case Collective::SendRecv: return float(rank + 1) + float(i % 5) * 1000.0f;
    }
    (void)n;
    return 0;
}

float expectedValue(Collective op, int rank, int n, std::size_t chunk, std::size_t i)
{
    const std::size_t part = chunk ? i / chunk : 0;
    const float tri = float(n) * float(n + 1) / 2.0f;
    switch (op) {
    case Collective::AllReduce: return tri;
    case Collective::AllGather: return float(part + 1) * 1000.0f + float((i % chunk) % 997);
    case Collective::ReduceScatter: return float(rank + 1) * tri;
    case Collective::Broadcast:
    case Collective::Reduce: return 7.0f + float(i % 13);
    case Collective::AllToAll: return float(part) * 4096.0f + float(rank);
    case Collective::SendRecv: return float((rank - 1 + n) % n + 1) + float(i % 5) * 1000.0f;
    }
    return 0;
}

// Runs the op once on rank-valued buffers and compares; returns the number of wrong elements here.
double checkOnce(Collective op, const Group& g, std::vector<RankBuffers>& buffers, double timeout)
{
    const int n = g.size;
    const std::size_t chunk = 1024;                    // floats per part
    const std::size_t floats = chunk * std::size_t(n); // the whole buffer S, in floats
    const std::uint64_t bytes = floats * 4;
    // Sizes in floats of what each rank sends and receives.
    const std::size_t sendFloats = op == Collective::AllGather ? chunk : floats;
    const std::size_t recvFloats = op == Collective::ReduceScatter ? chunk : floats;
    for (std::size_t i = 0; i < g.members.size(); ++i) {
        const LocalRank& m = g.members[i];
        std::vector<float> host(sendFloats);
        for (std::size_t e = 0; e < sendFloats; ++e) host[e] = sendValue(op, m.rank, n, chunk, e);
        PS_CUDA(cudaSetDevice(m.device));
        PS_CUDA(cudaMemcpy(buffers[i].send.get(), host.data(), sendFloats * 4, cudaMemcpyHostToDevice));
        PS_CUDA(cudaMemset(buffers[i].recv.get(), 0, recvFloats * 4));
    }
    // Data movers count bytes; the reductions count floats (enqueue divides by the element size).
    const std::string what = std::string(toString(op)) + " check on " + std::to_string(n) + " ranks";
    launch(op, g, buffers, bytes, timeout, what);
    std::vector<std::vector<cudaEvent_t>> done(g.members.size(), std::vector<cudaEvent_t>(1));
    for (std::size_t i = 0; i < g.members.size(); ++i) {
        PS_CUDA(cudaSetDevice(g.members[i].device));
        PS_CUDA(cudaEventCreateWithFlags(&done[i][0], cudaEventDisableTiming));
    }
    waitEvents(recordAll(g, done, 0), g.comms(), timeout, what);
    double wrong = 0;
    for (std::size_t i = 0; i < g.members.size(); ++i) {
        const LocalRank& m = g.members[i];
        std::vector<float> host(recvFloats);
        PS_CUDA(cudaSetDevice(m.device));
        PS_CUDA(cudaMemcpy(host.data(), buffers[i].recv.get(), recvFloats * 4, cudaMemcpyDeviceToHost));
        for (std::size_t e = 0; e < recvFloats; ++e)
            if (host[e] != expectedValue(op, m.rank, n, chunk, e)) ++wrong;
        (void)cudaEventDestroy(done[i][0]);
    }
    return wrong;
}

// Per-iteration seconds of this process's slowest member; zeros where this process is not in the group.
std::vector<double> timeIterations(Collective op, const Group& g, std::vector<RankBuffers>& buffers,
    std::uint64_t bytes, int warmup, int iterations, std::vector<std::vector<cudaEvent_t>>& start,
    std::vector<std::vector<cudaEvent_t>>& end, double timeout, const std::string& what)
{
    std::vector<double> seconds(std::size_t(iterations), 0.0);
    if (g.members.empty()) return seconds;
    for (int i = 0; i < warmup; ++i) launch(op, g, buffers, bytes, timeout, what);
    for (int i = 0; i < iterations; ++i) {
        recordAll(g, start, std::size_t(i));
        launch(op, g, buffers, bytes, timeout, what);
        recordAll(g, end, std::size_t(i));
    }
    std::vector<cudaEvent_t> last;
    for (auto& e : end) last.push_back(e[std::size_t(iterations - 1)]);
    waitEvents(last, g.comms(), timeout, what);
    for (std::size_t m = 0; m < g.members.size(); ++m)
        for (std::size_t i = 0; i < std::size_t(iterations); ++i) {
            float ms = 0;
            PS_CUDA(cudaEventElapsedTime(&ms, start[m][i], end[m][i]));
            seconds[i] = std::max(seconds[i], double(ms) * 1e-3);
        }
    return seconds;
}
} // namespace

std::vector<std::uint64_t> collectiveSizes(std::uint64_t minBytes, std::uint64_t maxBytes, bool quick)
{
    std::vector<std::uint64_t> out;
    const std::uint64_t step = quick ? 8 : 2;
    for (std::uint64_t s = minBytes; s <= maxBytes; s *= step) {
        out.push_back(s);
        if (s > maxBytes / step) break;
    }
    if (out.empty() || out.back() != maxBytes) out.push_back(maxBytes);
    return out;
}

std::vector<int> groupSizes(const World& world)
{
    if (world.size <= 1) return { 1 };
    int perNode = 0;
    for (int r = 0; r < world.size; ++r)
        if (world.nodeOfRank[std::size_t(r)] == world.nodeOfRank[0]) ++perNode;
    std::vector<int> out;
    for (int g = 2; g <= perNode; g *= 2) out.push_back(g);
    if (perNode >= 2 && (out.empty() || out.back() != perNode)) out.push_back(perNode);
    if (world.nodes > 1) {
        for (int g = std::max(2, perNode * 2); g < world.size; g *= 2) out.push_back(g);
        if (out.empty() || out.back() != world.size) out.push_back(world.size);
    }
    return out;
}

int warmupIterations(bool quick)
{
    return quick ? 2 : 5;
}

int timedIterations(std::uint64_t bytes, bool quick)
{
    if (quick) return bytes >= (std::uint64_t(64) << 20) ? 5 : 10;
    return bytes >= (std::uint64_t(256) << 20) ? 10 : 20;
}

std::vector<CollectiveSample> measureCollectives(World& world, const CollectivePlan& plan, double p0, double p1)
{
    std::vector<CollectiveSample> out;
    if (plan.ops.empty() || plan.sizes.empty()) return out;
    const std::vector<int> groups = groupSizes(world);
    if (world.size == 1)
        note("one GPU: multi-rank groups skipped (they need 2 or more GPUs); single-rank rows (local copies) are "
             "recorded but not fitted");

    // Buffers: send and recv of the largest size on every local rank (smaller where memory is short).
    std::uint64_t maxBytes = plan.sizes.back();
    for (const LocalRank& m : world.local) {
        PS_CUDA(cudaSetDevice(m.device));
        std::size_t freeBytes = 0, totalBytes = 0;
        PS_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
        while (maxBytes > (std::uint64_t(1) << 20) && 2 * maxBytes + (std::uint64_t(1) << 30) > freeBytes) maxBytes /= 2;
    }
    // Every rank must agree on the sizes: take the smallest cap over the world.
    {
        const std::vector<double> cap = worldMax(world, std::vector<std::vector<double>>(world.local.size(),
            std::vector<double>{ -double(maxBytes) }));
        if (!cap.empty()) maxBytes = std::uint64_t(-cap[0]);
    }
    std::vector<std::uint64_t> sizes;
    for (auto s : plan.sizes)
        if (s <= maxBytes) sizes.push_back(s);
    if (sizes.size() < plan.sizes.size()) note("collective sizes capped at " + formatBytes(double(maxBytes)) + " (free GPU memory)");
    const std::uint64_t checkBytes = std::uint64_t(1024) * 4 * std::uint64_t(world.size);
    const std::uint64_t bufferBytes = std::max(maxBytes, checkBytes);

    std::vector<RankBuffers> buffers;
    for (const LocalRank& m : world.local) {
        RankBuffers b;
        b.send = DeviceBuffer(m.device, bufferBytes);
        b.recv = DeviceBuffer(m.device, bufferBytes);
        buffers.push_back(std::move(b));
    }
    int maxIterations = 0;
    for (auto s : sizes) maxIterations = std::max(maxIterations, timedIterations(s, plan.quick));
    std::vector<std::vector<cudaEvent_t>> start(world.local.size()), end(world.local.size());
    for (std::size_t i = 0; i < world.local.size(); ++i) {
        PS_CUDA(cudaSetDevice(world.local[i].device));
        for (int k = 0; k < maxIterations; ++k) {
            cudaEvent_t a = nullptr, b = nullptr;
            PS_CUDA(cudaEventCreate(&a));
            PS_CUDA(cudaEventCreate(&b));
            start[i].push_back(a);
            end[i].push_back(b);
        }
    }

    const double units = double(groups.size() * plan.ops.size());
    int unit = 0;
    for (const int size : groups) {
        Group g = splitGroup(world, size);
        // This process's members in the group's order, as indices into world.local; their buffers and events
        // move into the group's view for the duration (no copies of 1 GiB buffers).
        std::vector<std::size_t> index;
        for (const LocalRank& m : g.members)
            for (std::size_t i = 0; i < world.local.size(); ++i)
                if (world.local[i].device == m.device) index.push_back(i);
        std::vector<RankBuffers> view;
        std::vector<std::vector<cudaEvent_t>> gStart, gEnd;
        for (const std::size_t i : index) {
            view.push_back(std::move(buffers[i]));
            gStart.push_back(start[i]);
            gEnd.push_back(end[i]);
        }
        std::vector<RankBuffers>* use = &view;
        for (const Collective op : plan.ops) {
            const std::string groupName = std::string(toString(op)) + " on " + std::to_string(size)
                + (size == 1 ? " GPU" : " GPUs") + (g.nodes > 1 ? " (" + std::to_string(g.nodes) + " nodes)" : "");
            progress(p0 + (p1 - p0) * unit / units, groupName + ": checking");
            ++unit;
            // Check once; every rank learns whether any rank saw a wrong value.
            const double wrongHere = g.members.empty() ? 0.0 : checkOnce(op, g, *use, world.timeout);
            const std::vector<double> wrong = worldMax(world, std::vector<std::vector<double>>(
                std::max<std::size_t>(1, world.local.size()), std::vector<double>{ wrongHere }));
            if (!wrong.empty() && wrong[0] > 0)
                fail(kExitNccl, groupName + " gave wrong results (" + std::to_string(long(wrong[0]))
                        + " elements wrong on the worst rank)");
            for (const std::uint64_t requested : sizes) {
                const std::uint64_t bytes = usableBytes(op, size, requested);
                if (bytes == 0) continue;
                const int iterations = timedIterations(requested, plan.quick);
                const std::string what = groupName + ", " + formatBytes(double(bytes));
                std::vector<double> local = timeIterations(op, g, *use, bytes, warmupIterations(plan.quick), iterations,
                    gStart, gEnd, world.timeout, what);
                const std::vector<double> all = worldMax(world, std::vector<std::vector<double>>(
                    std::max<std::size_t>(1, world.local.size()), local));
                const double t = median(all);
                if (!(t > 0)) continue;
                CollectiveSample s;
                s.op = std::string(toString(op));
                s.ranks = size;
                s.nodes = g.nodes;
                s.bytes = double(bytes);
                s.seconds = t;
                s.algBandwidth = double(bytes) / t;
                s.busBandwidth = s.algBandwidth * busBandwidthFactor(op, size);
                out.push_back(s);
            }
        }
        for (std::size_t k = 0; k < index.size(); ++k) buffers[index[k]] = std::move(view[k]);
        destroyGroup(g, world.timeout);
    }
    for (std::size_t i = 0; i < world.local.size(); ++i) {
        (void)cudaSetDevice(world.local[i].device);
        for (auto e : start[i]) (void)cudaEventDestroy(e);
        for (auto e : end[i]) (void)cudaEventDestroy(e);
    }
    return out;
}

} // namespace planscope::profile
