#include "RankGrid.h"

#include <algorithm>

namespace planscope {

RankGrid::RankGrid(const Plan& plan)
    : m_layout(rankLayout(plan))
{
    const ParallelSpec& p = plan.parallel;
    Text why;
    if (!parseOrder(p.order, m_order, why)) m_order = { Dim::TP, Dim::CP, Dim::EP, Dim::DP, Dim::PP };
    m_tp = std::max(1, p.tp);
    m_cp = std::max(1, p.cp);
    m_dp = std::max(1, p.dp);
    m_pp = std::max(1, p.pp);
    m_ep = m_layout.epDegree;
    m_etp = std::max(1, p.expertTp());
    m_gpus = 1LL * m_tp * m_cp * m_dp * m_pp;
    m_gpusPerNode
        = plan.cluster.gpusPerNode > 0 ? plan.cluster.gpusPerNode : int(std::min(m_gpus, 1LL << 30));
    // Strides from the order, first name fastest (RankLayout's).
    m_strideTp = m_layout.strideTp;
    m_strideCp = m_layout.strideCp;
    m_strideDp = m_layout.strideDp;
    m_stridePp = m_layout.stridePp;
    m_cpFasterThanDp = m_layout.cpFasterThanDp;
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
        return m_tp * m_dp * m_cp / (m_etp * m_ep);
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
    // Megatron-Core's expert grid: etp fastest, then ep, then the expert data-parallel index, over the block
    // tp + t*(dp*cp index) one pipeline stage spans (with etp = tp, ep is the fastest part of the dp*cp index).
    const int block = c.tp + m_tp * dpcpIndex(c.dp, c.cp);
    c.ep = (block / m_etp) % m_ep;
    c.expertDp = block / (m_etp * m_ep);
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
        case GroupKind::DPCP: {
            int dp = 0, cp = 0;
            splitDpcp(i, dp, cp);
            out.push_back(rankAt(c.tp, cp, dp, c.pp));
            break;
        }
        case GroupKind::EP:
        case GroupKind::ExpertDP: {
            const int etpIndex = (c.tp + m_tp * dpcpIndex(c.dp, c.cp)) % m_etp;
            const int block = etpIndex
                + m_etp * (kind == GroupKind::EP ? i + m_ep * c.expertDp : c.ep + m_ep * i);
            int dp = 0, cp = 0;
            splitDpcp(block / m_tp, dp, cp);
            out.push_back(rankAt(block % m_tp, cp, dp, c.pp));
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

} // namespace planscope
