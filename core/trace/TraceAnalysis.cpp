#include "TraceAnalysis.h"

#include "cost/Collective.h"

#include <algorithm>
#include <map>
#include <utility>

namespace planscope {

int dtypeSize(std::string_view n)
{
    static const std::pair<std::string_view, int> sizes[] = { { "Float", 4 }, { "Double", 8 }, { "Half", 2 },
        { "BFloat16", 2 }, { "Long", 8 }, { "Int", 4 }, { "Short", 2 }, { "Byte", 1 }, { "Char", 1 }, { "Bool", 1 },
        { "ComplexFloat", 8 }, { "ComplexDouble", 16 }, { "ComplexHalf", 4 }, { "Float8_e4m3fn", 1 },
        { "Float8_e5m2", 1 }, { "Float8_e4m3fnuz", 1 }, { "Float8_e5m2fnuz", 1 }, { "UInt16", 2 }, { "UInt32", 4 },
        { "UInt64", 8 }, { "QInt8", 1 }, { "QUInt8", 1 }, { "QInt32", 4 } };
    for (const auto& [name, size] : sizes)
        if (name == n) return size;
    return 0;
}

double medianOf(std::vector<double>& v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::vector<CollectiveStat> collectiveStats(const MeasuredRank& r)
{
    struct Samples {
        std::vector<double> bytes, seconds, alg, bus;
    };
    std::map<std::pair<std::string, int>, Samples> groups;
    for (const MeasuredEvent& k : r.eventList) {
        if (k.kind != EventKind::Kernel || k.collective == CollectiveKind::None || k.comm < 0 || k.durNs <= 0)
            continue;
        const CommInfo& info = r.comms[std::size_t(k.comm)];
        Collective c = Collective::AllReduce;
        if (info.groupSize <= 0 || !fromString(toString(k.collective), c)) continue;
        const int size = info.dtype >= 0 ? dtypeSize(r.names[std::size_t(info.dtype)]) : 0;
        const std::int64_t nelems = c == Collective::AllGather ? info.outMsgNelems : info.inMsgNelems;
        if (size <= 0 || nelems < 0) continue;
        const double bytes = double(nelems) * size;
        const double seconds = double(k.durNs) * 1e-9;
        const double alg = bytes / seconds;
        Samples& s = groups[{ std::string(toString(k.collective)), int(info.groupSize) }];
        s.bytes.push_back(bytes);
        s.seconds.push_back(seconds);
        s.alg.push_back(alg);
        s.bus.push_back(alg * busBandwidthFactor(c, int(info.groupSize)));
    }
    std::vector<CollectiveStat> out;
    for (auto& [key, s] : groups) {
        CollectiveStat st;
        st.op = key.first;
        st.groupSize = key.second;
        st.count = std::int64_t(s.bytes.size());
        st.bytes = medianOf(s.bytes);
        st.seconds = medianOf(s.seconds);
        st.algBandwidth = medianOf(s.alg);
        st.busBandwidth = medianOf(s.bus);
        out.push_back(std::move(st));
    }
    return out;
}

Alignment alignRanks(const std::vector<MeasuredRank>& ranks)
{
    Alignment a;
    // The job: the largest set of ranks with one worldSize (ties: the smaller worldSize), one file per rank.
    std::map<int, std::map<int, const MeasuredRank*>> jobs;
    for (const MeasuredRank& r : ranks)
        if (r.rank >= 0 && r.worldSize > 0) jobs[r.worldSize].emplace(r.rank, &r);
    const std::map<int, const MeasuredRank*>* job = nullptr;
    for (const auto& [ws, members] : jobs)
        if (!job || members.size() > job->size()) {
            job = &members;
            a.worldSize = ws;
        }
    if (!job || job->size() < 2) return a;

    // Per rank: absolute NCCL kernel starts by collective, in start order.
    std::vector<std::map<std::string, std::vector<std::int64_t>>> starts;
    std::vector<int> rankIds;
    for (const auto& [rank, r] : *job) {
        std::map<std::string, std::vector<std::int64_t>> byOp;
        for (const MeasuredEvent& k : r->eventList)
            if (k.kind == EventKind::Kernel && k.collective != CollectiveKind::None)
                byOp[std::string(toString(k.collective))].push_back(r->absoluteNs(k.startNs));
        for (auto& [op, v] : byOp) std::sort(v.begin(), v.end());
        starts.push_back(std::move(byOp));
        rankIds.push_back(rank);
    }
    std::vector<std::vector<double>> skews(starts.size());
    for (const auto& [op, first] : starts.front()) {
        std::size_t n = first.size();
        for (const auto& s : starts) {
            const auto it = s.find(op);
            n = std::min(n, it == s.end() ? std::size_t(0) : it->second.size());
        }
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t earliest = starts.front().at(op)[i];
            for (const auto& s : starts) earliest = std::min(earliest, s.at(op)[i]);
            for (std::size_t r = 0; r < starts.size(); ++r)
                skews[r].push_back(double(starts[r].at(op)[i] - earliest) * 1e-9);
        }
        a.matchedCollectives += std::int64_t(n);
    }
    if (a.matchedCollectives == 0) return a;
    double worst = -1;
    for (std::size_t r = 0; r < starts.size(); ++r) {
        const double m = medianOf(skews[r]);
        a.ranks.push_back(RankSkew { rankIds[r], m });
        if (m > worst) {
            worst = m;
            a.straggler = rankIds[r];
        }
    }
    return a;
}

std::vector<StepBreakdown> stepBreakdowns(const MeasuredRank& r)
{
    std::vector<std::vector<MeasuredEvent>> kernels(r.stepSpans.size());
    for (const MeasuredEvent& e : r.eventList)
        if (e.kind == EventKind::Kernel && e.step >= 0 && std::size_t(e.step) < kernels.size())
            kernels[std::size_t(e.step)].push_back(e);
    std::vector<StepBreakdown> out;
    for (std::size_t i = 0; i < r.stepSpans.size(); ++i) {
        const MeasuredStep& step = r.stepSpans[i];
        StepBreakdown s;
        s.name = step.name;
        s.startNs = step.startNs;
        s.durNs = step.durNs;
        const std::vector<MeasuredEvent>& ks = kernels[i];
        if (!ks.empty()) {
            s.gpuStartNs = ks.front().startNs;
            s.gpuEndNs = ks.front().startNs + ks.front().durNs;
            for (const MeasuredEvent& k : ks) {
                s.gpuStartNs = std::min(s.gpuStartNs, k.startNs);
                s.gpuEndNs = std::max(s.gpuEndNs, k.startNs + k.durNs);
                if (k.collective != CollectiveKind::None) ++s.ncclKernels;
            }
            s.kernels = std::int64_t(ks.size());
            const MeasuredBreakdown b = kernelBreakdown(ks);
            s.computeSeconds = b.computeSeconds;
            s.commSeconds = b.commSeconds;
            s.overlapSeconds = b.overlapSeconds;
            s.idleSeconds = b.idleSeconds;
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<KernelStat> topKernels(const MeasuredRank& r, std::size_t n)
{
    // By name index: names are interned, so one slot per distinct name.
    std::vector<KernelStat> byName(r.names.size());
    std::int64_t totalNs = 0;
    for (const MeasuredEvent& e : r.eventList) {
        if (e.kind != EventKind::Kernel || e.name < 0) continue;
        KernelStat& k = byName[std::size_t(e.name)];
        if (k.count++ == 0) k.collective = e.collective;
        k.totalSeconds += double(e.durNs);
        totalNs += e.durNs;
    }
    std::vector<KernelStat> out;
    for (std::size_t i = 0; i < byName.size(); ++i) {
        if (byName[i].count == 0) continue;
        KernelStat k = byName[i];
        k.name = r.names[i];
        k.share = totalNs > 0 ? k.totalSeconds / double(totalNs) : 0;
        k.totalSeconds *= 1e-9;
        out.push_back(std::move(k));
    }
    const auto first = [](const KernelStat& a, const KernelStat& b) {
        return a.totalSeconds != b.totalSeconds ? a.totalSeconds > b.totalSeconds : a.name < b.name;
    };
    if (out.size() > n) {
        std::partial_sort(out.begin(), out.begin() + std::ptrdiff_t(n), out.end(), first);
        out.resize(n);
    } else {
        std::sort(out.begin(), out.end(), first);
    }
    return out;
}

std::vector<DeviceMemorySeries> memoryTimeline(const MeasuredRank& r)
{
    std::map<std::pair<int, int>, DeviceMemorySeries> devices;
    for (const MeasuredMemoryEvent& m : r.memoryList) {
        DeviceMemorySeries& d = devices[{ m.deviceType, m.deviceId }];
        d.deviceType = m.deviceType;
        d.deviceId = m.deviceId;
        d.points.push_back(MeasuredMemoryPoint { m.tsNs, m.totalAllocated, m.totalReserved });
    }
    std::vector<DeviceMemorySeries> out;
    for (auto& [key, d] : devices) {
        std::stable_sort(d.points.begin(), d.points.end(),
            [](const MeasuredMemoryPoint& a, const MeasuredMemoryPoint& b) { return a.tsNs < b.tsNs; });
        for (const MeasuredMemoryPoint& p : d.points) {
            d.peakAllocated = std::max(d.peakAllocated, p.allocatedBytes);
            d.peakReserved = std::max(d.peakReserved, p.reservedBytes);
        }
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace planscope
