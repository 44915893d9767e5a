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
    for (const MeasuredKernel& k : r.kernelList) {
        if (k.collective.empty() || k.durNs <= 0 || k.groupSize <= 0) continue;
        Collective c = Collective::AllReduce;
        if (!fromString(k.collective, c)) continue;
        const int size = dtypeSize(k.dtype);
        const std::int64_t nelems = c == Collective::AllGather ? k.outMsgNelems : k.inMsgNelems;
        if (size <= 0 || nelems < 0) continue;
        const double bytes = double(nelems) * size;
        const double seconds = double(k.durNs) * 1e-9;
        const double alg = bytes / seconds;
        Samples& s = groups[{ k.collective, int(k.groupSize) }];
        s.bytes.push_back(bytes);
        s.seconds.push_back(seconds);
        s.alg.push_back(alg);
        s.bus.push_back(alg * busBandwidthFactor(c, int(k.groupSize)));
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
        const std::int64_t base = r->baseTimeNs.value_or(0);
        for (const MeasuredKernel& k : r->kernelList)
            if (!k.collective.empty()) byOp[k.collective].push_back(base + k.startNs);
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

} // namespace planscope
