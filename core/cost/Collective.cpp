#include "Collective.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace planscope {

namespace {
constexpr std::array<std::pair<Collective, std::string_view>, 7> kNames { {
    { Collective::AllReduce, "AllReduce" },
    { Collective::AllGather, "AllGather" },
    { Collective::ReduceScatter, "ReduceScatter" },
    { Collective::AllToAll, "AllToAll" },
    { Collective::Broadcast, "Broadcast" },
    { Collective::Reduce, "Reduce" },
    { Collective::SendRecv, "SendRecv" },
} };

// Latency steps of the ring algorithm.
double ringSteps(Collective c, int n)
{
    switch (c) {
    case Collective::AllReduce: return 2.0 * (n - 1);
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
    case Collective::Broadcast:
    case Collective::Reduce: return double(n - 1);
    case Collective::SendRecv: return 1.0;
    }
    return 1.0;
}
} // namespace

std::string_view toString(Collective c)
{
    for (const auto& [k, v] : kNames)
        if (k == c) return v;
    return "?";
}

bool fromString(std::string_view s, Collective& c)
{
    for (const auto& [k, v] : kNames)
        if (v == s) {
            c = k;
            return true;
        }
    return false;
}

double busBandwidthFactor(Collective c, int n)
{
    if (n <= 1) return c == Collective::SendRecv || c == Collective::Broadcast || c == Collective::Reduce ? 1.0 : 0.0;
    switch (c) {
    case Collective::AllReduce: return 2.0 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return double(n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv: return 1.0;
    }
    return 1.0;
}

double ringBytesPerRank(Collective c, int n, double bytes)
{
    if (c == Collective::SendRecv) return bytes;
    if (n <= 1) return 0.0;
    return busBandwidthFactor(c, n) * bytes;
}

double collectiveBandwidth(Collective c, const LinkSpec& link)
{
    const double bw = link.effectiveBandwidth(c == Collective::AllReduce, c == Collective::AllToAll);
    return bw > 0 ? bw : 1.0;
}

double sizeShare(double bytes, const LinkSpec& link)
{
    const auto& c = link.busBandwidthCurve;
    if (c.empty() || bytes <= 0) return 1.0;
    if (bytes <= c.front().first) return c.front().second;
    if (bytes >= c.back().first) return c.back().second;
    for (std::size_t i = 1; i < c.size(); ++i) {
        if (bytes > c[i].first) continue;
        const double x0 = std::log2(c[i - 1].first), x1 = std::log2(c[i].first);
        const double f = x1 > x0 ? (std::log2(bytes) - x0) / (x1 - x0) : 0.0;
        // Log-log: between two measured sizes the share grows as a power of S below 1 wherever the measured time
        // grows, so the time never falls as the message grows (a share linear in log S would let it fall).
        const double y0 = c[i - 1].second, y1 = c[i].second;
        return y0 > 0 && y1 > 0 ? y0 * std::pow(y1 / y0, f) : y0 + f * (y1 - y0);
    }
    return c.back().second;
}

namespace {
// One ring phase moving `bytes` on `link`, its bandwidth share looked up at the collective's whole buffer `whole`
// (the size nccl-tests measured the curve by).
double ringPhase(Collective c, int n, double bytes, const LinkSpec& link, double whole)
{
    if (n <= 1 && c != Collective::SendRecv) return 0.0;
    if (bytes <= 0) return 0.0;
    const double wire = ringBytesPerRank(c, n, bytes) / collectiveBandwidth(c, link);
    return std::max(ringSteps(c, n) * link.latency + wire, wire / sizeShare(whole, link));
}
} // namespace

double ringSeconds(Collective c, int n, double bytes, const LinkSpec& link)
{
    return ringPhase(c, n, bytes, link, bytes);
}

double treeAllReduceSeconds(int n, double bytes, const LinkSpec& link)
{
    if (n <= 1 || bytes <= 0) return 0.0;
    const double wire = 2.0 * (n - 1) / n * bytes / collectiveBandwidth(Collective::AllReduce, link);
    return std::max(2.0 * std::log2(double(n)) * link.latency + wire, wire / sizeShare(bytes, link));
}

double hierarchicalSeconds(Collective c, int n, int perNode, double bytes, const LinkSpec& intra,
    const LinkSpec& inter)
{
    if (n <= 1 || bytes <= 0) return 0.0;
    if (perNode <= 1) return ringSeconds(c, n, bytes, inter);
    const int nodes = (n + perNode - 1) / perNode;
    if (nodes <= 1) return ringSeconds(c, n, bytes, intra);
    const double shard = bytes / perNode;
    // NCCL pipelines a collective's chunks through both tiers at once, so the NVLink phases and the NIC phase
    // overlap: the slower tier sets the time (docs/MODEL.md section 6, "Two levels").
    switch (c) {
    case Collective::AllReduce:
        return std::max(ringPhase(Collective::ReduceScatter, perNode, bytes, intra, bytes)
                + ringPhase(Collective::AllGather, perNode, bytes, intra, bytes),
            ringPhase(Collective::AllReduce, nodes, shard, inter, bytes));
    case Collective::ReduceScatter:
    case Collective::AllGather:
        return std::max(ringPhase(c, perNode, bytes, intra, bytes), ringPhase(c, nodes, shard, inter, bytes));
    case Collective::AllToAll: {
        // The share addressed to other nodes crosses the NICs while the rest moves over NVLink.
        const double remote = bytes * double(n - perNode) / n / collectiveBandwidth(c, inter);
        const double local = bytes * double(perNode - 1) / n / collectiveBandwidth(c, intra);
        return std::max(
            { (n - 1) * inter.latency + remote, remote / sizeShare(bytes, inter), local / sizeShare(bytes, intra) });
    }
    default: return ringSeconds(c, n, bytes, inter);
    }
}

double parameterServerSeconds(int workers, int servers, double bytes, const LinkSpec& link)
{
    if (workers <= 0 || servers <= 0 || bytes <= 0) return 0.0;
    const double bw = collectiveBandwidth(Collective::SendRecv, link);
    // Push gradients then pull parameters; the servers' links carry workers*S/servers each way.
    return 2.0 * link.latency + double(workers) * bytes / servers / bw;
}

} // namespace planscope
