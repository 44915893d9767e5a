// Every global rank of a plan: its coordinates along each parallel dimension, its node and GPU on the node,
// and the members of each group it belongs to. The same mapping as RankLayout (the rank order, first name
// fastest; ep carved out of the fastest part of dp*cp), whose strides it uses, for any rank; node crossing
// per kind is RankLayout's (the worst group of every kind), the one rule the cost model also uses.
// Coordinates are arithmetic (O(1) per rank) and members are generated on demand for one rank, so a
// 16K-GPU plan costs nothing until a view asks about a GPU.
#pragma once

#include "RankLayout.h"
#include "spec/Plan.h"

#include <array>
#include <string_view>
#include <vector>

namespace planscope {

struct RankCoords {
    int rank = 0;
    int tp = 0, cp = 0, dp = 0, pp = 0;
    int ep = 0; // index in the expert-parallel group
    int expertDp = 0; // index in the expert-data-parallel group
    int node = 0; // rank / gpusPerNode
    int localGpu = 0; // rank % gpusPerNode
    bool operator==(const RankCoords&) const = default;
};

class RankGrid {
public:
    RankGrid() = default;
    explicit RankGrid(const Plan& plan);

    // dp * tp * pp * cp: the ranks the plan uses (may differ from the cluster's GPUs in an invalid plan).
    long long gpus() const { return m_gpus; }
    int gpusPerNode() const { return m_gpusPerNode; }
    // Nodes the ranks occupy: ceil(gpus / gpusPerNode).
    long long nodes() const { return m_gpusPerNode > 0 ? (m_gpus + m_gpusPerNode - 1) / m_gpusPerNode : 1; }
    const std::vector<Dim>& order() const { return m_order; }
    const RankLayout& layout() const { return m_layout; }

    int tp() const { return m_tp; }
    int cp() const { return m_cp; }
    int dp() const { return m_dp; }
    int pp() const { return m_pp; }
    int ep() const { return m_ep; } // 1 when the plan's ep does not divide dp*cp (as RankLayout)

    int size(GroupKind kind) const;
    RankCoords coords(int rank) const;
    // The global rank at these dense coordinates.
    int rankAt(int tp, int cp, int dp, int pp) const;
    // This rank's position in its group of `kind` (the ring or pipeline order of members()).
    int indexInGroup(GroupKind kind, int rank) const;
    // The members of the group of `kind` holding `rank`, in group order (index 0 first); ranks ascend.
    std::vector<int> members(GroupKind kind, int rank) const;
    // Where the group of `kind` holding `rank` sits, counted from its members.
    GroupPlacement placement(GroupKind kind, int rank = 0) const;
    // The worst group of `kind` (RankLayout: every group looked at): what the cost model and validation use.
    const GroupPlacement& worstPlacement(GroupKind kind) const { return m_layout.of(kind); }
    // True when some group of `kind` spans more than one node.
    bool anyGroupCrossesNodes(GroupKind kind) const { return m_layout.of(kind).crossesNodes; }
    // The largest number of nodes one group of `kind` spans.
    int maxNodesSpanned(GroupKind kind) const { return m_layout.of(kind).nodesSpanned; }

private:
    int dpcpIndex(int dp, int cp) const;
    void splitDpcp(int index, int& dp, int& cp) const;

    std::vector<Dim> m_order;
    RankLayout m_layout;
    int m_tp = 1, m_cp = 1, m_dp = 1, m_pp = 1, m_ep = 1;
    int m_etp = 1; // expert tensor parallelism: the expert grid etp x ep x edp over the tp x (dp*cp) block
    int m_strideTp = 1, m_strideCp = 1, m_strideDp = 1, m_stridePp = 1;
    bool m_cpFasterThanDp = true; // which of dp and cp varies faster inside the combined dp*cp index
    long long m_gpus = 1;
    int m_gpusPerNode = 8;
};

} // namespace planscope
