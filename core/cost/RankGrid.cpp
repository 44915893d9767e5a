#include "RankGrid.h"

#include <algorithm>

namespace planscope {

std::string_view toString(GroupKind kind)
{
    switch (kind) {
    case GroupKind::TP:
        return "tp";
    case GroupKind::CP:
        return "cp";
    case GroupKind::DPCP:
        return "dp";
    case GroupKind::PP:
        return "pp";
    case GroupKind::EP:
        return "ep";
    case GroupKind::ExpertDP:
        return "edp";
    }
    return "?";
}

RankGrid::RankGrid(const Plan& plan)
    : m_layout(rankLayout(plan))
{
    const ParallelSpec& p = plan.parallel;
    std::string message;
    if (!parseOrder(p.order, m_order, message)) m_order = { Dim::TP, Dim::CP, Dim::EP, Dim::DP, Dim::PP };
    m_tp = std::max(1, p.tp);
    m_cp = std::max(1, p.cp);
    m_dp = std::max(1, p.dp);
    m_pp = std::max(1, p.pp);
    const int dpcp = m_dp * m_cp;
    m_ep = p.ep > 0 && dpcp % p.ep == 0 ? p.ep : 1;
    m_gpus = 1LL * m_tp * m_cp * m_dp * m_pp;
    m_gpusPerNode
        = plan.cluster.gpusPerNode > 0 ? plan.cluster.gpusPerNode : int(std::min(m_gpus, 1LL << 30));
    // Strides from the order, first name fastest; ep is not a dense dimension (RankLayout does the same).
    int stride = 1;
    for (Dim d : m_order) {
        switch (d) {
        case Dim::TP:
            m_strideTp = stride;
            stride *= m_tp;
            break;
        case Dim::CP:
            m_strideCp = stride;
            stride *= m_cp;
            break;
        case Dim::DP:
            m_strideDp = stride;
            stride *= m_dp;
            break;
        case Dim::PP:
            m_stridePp = stride;
            stride *= m_pp;
            break;
        case Dim::EP:
            break;
        }
    }
    m_cpFasterThanDp = m_strideCp <= m_strideDp;
}

int RankGrid::size(GroupKind kind) const
{
    switch (kind) {
    case GroupKind::TP:
        return m_tp;
    case GroupKind::CP:
        return m_cp;
    case GroupKind::DPCP:
        return m_dp * m_cp;
    case GroupKind::PP:
        return m_pp;
    case GroupKind::EP:
        return m_ep;
    case GroupKind::ExpertDP:
        return m_dp * m_cp / m_ep;
    }
    return 1;
}

// The combined data-parallel index counts the faster of dp and cp first, so that ep (its fastest part)
// takes neighbouring ranks, as RankLayout's placement of ep and expert-dp assumes.
int RankGrid::dpcpIndex(int dp, int cp) const
{
    return m_cpFasterThanDp ? cp + m_cp * dp : dp + m_dp * cp;
}

void RankGrid::splitDpcp(int index, int& dp, int& cp) const
{
    if (m_cpFasterThanDp) {
        cp = index % m_cp;
        dp = index / m_cp;
    } else {
        dp = index % m_dp;
        cp = index / m_dp;
    }
}

RankCoords RankGrid::coords(int rank) const
{
    RankCoords c;
    c.rank = rank;
    c.tp = (rank / m_strideTp) % m_tp;
    c.cp = (rank / m_strideCp) % m_cp;
    c.dp = (rank / m_strideDp) % m_dp;
    c.pp = (rank / m_stridePp) % m_pp;
    const int combined = dpcpIndex(c.dp, c.cp);
    c.ep = combined % m_ep;
    c.expertDp = combined / m_ep;
    c.node = rank / m_gpusPerNode;
    c.localGpu = rank % m_gpusPerNode;
    return c;
}

int RankGrid::rankAt(int tp, int cp, int dp, int pp) const
{
    return tp * m_strideTp + cp * m_strideCp + dp * m_strideDp + pp * m_stridePp;
}

int RankGrid::indexInGroup(GroupKind kind, int rank) const
{
    const RankCoords c = coords(rank);
    switch (kind) {
    case GroupKind::TP:
        return c.tp;
    case GroupKind::CP:
        return c.cp;
    case GroupKind::DPCP:
        return dpcpIndex(c.dp, c.cp);
    case GroupKind::PP:
        return c.pp;
    case GroupKind::EP:
        return c.ep;
    case GroupKind::ExpertDP:
        return c.expertDp;
    }
    return 0;
}

std::vector<int> RankGrid::members(GroupKind kind, int rank) const
{
    const RankCoords c = coords(rank);
    std::vector<int> out;
    const int n = size(kind);
    out.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
        switch (kind) {
        case GroupKind::TP:
            out.push_back(rankAt(i, c.cp, c.dp, c.pp));
            break;
        case GroupKind::CP:
            out.push_back(rankAt(c.tp, i, c.dp, c.pp));
            break;
        case GroupKind::PP:
            out.push_back(rankAt(c.tp, c.cp, c.dp, i));
            break;
        case GroupKind::DPCP:
        case GroupKind::EP:
        case GroupKind::ExpertDP: {
            const int combined = kind == GroupKind::DPCP ? i
                : kind == GroupKind::EP                  ? i + m_ep * c.expertDp
                                                         : c.ep + m_ep * i;
            int dp = 0, cp = 0;
            splitDpcp(combined, dp, cp);
            out.push_back(rankAt(c.tp, cp, dp, c.pp));
            break;
        }
        }
    }
    return out;
}

GroupPlacement RankGrid::placement(GroupKind kind, int rank) const
{
    const std::vector<int> ranks = members(kind, rank);
    GroupPlacement g = placeRanks(std::vector<long>(ranks.begin(), ranks.end()), m_gpusPerNode);
    g.stride = ranks.size() > 1 ? ranks[1] - ranks[0] : 1;
    return g;
}

int RankGrid::maxNodesSpanned(GroupKind kind) const
{
    if (size(kind) <= 1) return 1;
    int most = 1;
    // Every group once: visit the ranks that are index 0 of their group.
    for (long long r = 0; r < m_gpus; ++r) {
        if (indexInGroup(kind, int(r)) != 0) continue;
        int nodes = 0, node = -1;
        for (int m : members(kind, int(r))) // ascending
            if (m / m_gpusPerNode != node) {
                node = m / m_gpusPerNode;
                ++nodes;
            }
        most = std::max(most, nodes);
    }
    return most;
}

bool RankGrid::anyGroupCrossesNodes(GroupKind kind) const
{
    return maxNodesSpanned(kind) > 1;
}

} // namespace planscope
