#include "RankLayout.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace planscope {

bool parseOrder(const std::string& order, std::vector<Dim>& dims, std::string& message)
{
    dims.clear();
    std::size_t start = 0;
    while (start <= order.size()) {
        std::size_t end = order.find('-', start);
        if (end == std::string::npos) end = order.size();
        const std::string_view name(order.data() + start, end - start);
        Dim d;
        if (name == "tp") d = Dim::TP;
        else if (name == "cp") d = Dim::CP;
        else if (name == "ep") d = Dim::EP;
        else if (name == "dp") d = Dim::DP;
        else if (name == "pp") d = Dim::PP;
        else {
            message = "unknown name \"" + std::string(name) + "\"; use tp, cp, ep, dp and pp joined by '-'";
            return false;
        }
        if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
            message = "\"" + std::string(name) + "\" appears twice";
            return false;
        }
        dims.push_back(d);
        start = end + 1;
    }
    for (auto [d, name] : std::array { std::pair { Dim::TP, "tp" }, std::pair { Dim::CP, "cp" },
             std::pair { Dim::DP, "dp" }, std::pair { Dim::PP, "pp" } })
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
            message = std::string("\"") + name + "\" is missing";
            return false;
        }
    return true;
}

namespace {

// Members of the group that contains rank 0 along one or two strided dimensions; ranks ascend, so node
// changes are counted in one pass.
GroupPlacement place(int innerSize, int innerStride, int outerSize, int outerStride, int gpusPerNode)
{
    GroupPlacement g;
    g.size = innerSize * outerSize;
    g.stride = innerStride;
    if (g.size <= 1 || gpusPerNode <= 0) return g;
    // Fast paths that hold for any regular layout.
    const long span = long(innerSize - 1) * innerStride + long(outerSize - 1) * outerStride + 1;
    if (span <= gpusPerNode) {
        g.nodesSpanned = 1;
        g.perNode = g.size;
        return g;
    }
    std::vector<long> ranks;
    ranks.reserve(std::size_t(g.size));
    for (int o = 0; o < outerSize; ++o)
        for (int i = 0; i < innerSize; ++i) ranks.push_back(long(o) * outerStride + long(i) * innerStride);
    const GroupPlacement placed = placeRanks(std::move(ranks), gpusPerNode);
    g.nodesSpanned = placed.nodesSpanned;
    g.perNode = placed.perNode;
    g.crossesNodes = placed.crossesNodes;
    return g;
}

} // namespace

GroupPlacement placeRanks(std::vector<long> ranks, int gpusPerNode)
{
    GroupPlacement g;
    g.size = int(ranks.size());
    if (ranks.size() <= 1 || gpusPerNode <= 0) return g;
    std::sort(ranks.begin(), ranks.end());
    long node = -1;
    int nodes = 0, run = 0, maxRun = 0;
    for (long r : ranks) {
        const long n = r / gpusPerNode;
        if (n != node) {
            node = n;
            ++nodes;
            run = 0;
        }
        maxRun = std::max(maxRun, ++run);
    }
    g.nodesSpanned = nodes;
    g.perNode = maxRun;
    g.crossesNodes = nodes > 1;
    return g;
}

RankLayout rankLayout(const Plan& plan)
{
    const ParallelSpec& p = plan.parallel;
    std::vector<Dim> dims;
    std::string message;
    if (!parseOrder(p.order, dims, message)) dims = { Dim::TP, Dim::CP, Dim::EP, Dim::DP, Dim::PP };
    RankLayout out;
    int stride = 1;
    for (Dim d : dims) {
        switch (d) {
        case Dim::TP: out.strideTp = stride; stride *= p.tp; break;
        case Dim::CP: out.strideCp = stride; stride *= p.cp; break;
        case Dim::DP: out.strideDp = stride; stride *= p.dp; break;
        case Dim::PP: out.stridePp = stride; stride *= p.pp; break;
        case Dim::EP: break; // not a dense dimension: carved out of dp*cp below
        }
    }
    const int g = plan.cluster.gpusPerNode;
    out.tp = place(p.tp, out.strideTp, 1, 1, g);
    out.cp = place(p.cp, out.strideCp, 1, 1, g);
    out.pp = place(p.pp, out.stridePp, 1, 1, g);
    // The gradient-reduction (and ZeRO) group is data parallel times context parallel (Megatron's
    // data_parallel_group_with_context_parallel).
    if (out.strideCp <= out.strideDp)
        out.dpCp = place(p.cp, out.strideCp, p.dp, out.strideDp, g);
    else
        out.dpCp = place(p.dp, out.strideDp, p.cp, out.strideCp, g);
    // Experts: ep takes the fastest-varying part of the dp*cp ranks, the expert-data-parallel group the rest.
    const int dpcp = p.dp * p.cp;
    const int ep = p.ep > 0 && dpcp % p.ep == 0 ? p.ep : 1;
    const int inner = std::min(out.strideCp, out.strideDp);
    out.ep = place(ep, inner, 1, 1, g);
    out.expertDp = place(dpcp / ep, inner * ep, 1, 1, g);
    // Any stage boundary that lands on a node boundary makes the pipeline's slowest hop an inter-node one.
    out.ppNeighboursCrossNodes = false;
    for (int s = 0; s + 1 < p.pp && g > 0; ++s)
        if ((long(s) * out.stridePp) / g != (long(s + 1) * out.stridePp) / g) {
            out.ppNeighboursCrossNodes = true;
            break;
        }
    return out;
}

} // namespace planscope
