// Where the members of the parallel groups sit, from the rank order (Megatron's default tp-cp-ep-dp-pp: the
// first name varies fastest). Dense layers use the order without ep; expert layers carve ep out of the
// data-parallel ranks (dp*cp, the faster of the two first), as Megatron's expert rank generator does.
//
// One rule for node crossing, used by the cost model, the GPU grid (RankGrid), the communication view and
// validation: for each kind, every group of that kind is looked at and the worst one is reported (the most
// nodes spanned; among those, the fewest members on its fullest node). A group is base + offsets, where the
// offsets are the same for every group of a kind and only base % gpusPerNode decides where a node boundary
// falls, so each kind costs at most gpusPerNode passes over one group, not one pass over every rank.
#pragma once

#include "GroupKind.h"
#include "spec/Plan.h"
#include "util/Text.h"

#include <string>
#include <vector>

namespace planscope {

enum class Dim { TP, CP, EP, DP, PP };

struct GroupPlacement {
    int size = 1;
    int stride = 1;           // distance in ranks between neighbours of the innermost dim
    int nodesSpanned = 1;
    int perNode = 1;          // members on one node (the fullest node)
    bool crossesNodes = false;
    // The same at the NVLink-domain tier (ClusterSpec::nvlinkDomainNodes nodes each); equal to the node values where
    // the node is the domain.
    int domainsSpanned = 1;
    int perDomain = 1;
    bool crossesDomains = false;
    bool operator==(const GroupPlacement&) const = default;

    // The group as the links see it: NVLink reaches the whole domain, so its "nodes" are the NVLink domains. The cost
    // of a collective (groupSeconds, the explained formulas, NCCL's connections) takes this view.
    GroupPlacement fabric() const
    {
        GroupPlacement f = *this;
        f.nodesSpanned = domainsSpanned;
        f.perNode = perDomain;
        f.crossesNodes = crossesDomains;
        return f;
    }
};

struct RankLayout {
    int strideTp = 1, strideCp = 1, strideDp = 1, stridePp = 1;
    bool cpFasterThanDp = true; // which of cp and dp varies faster inside the combined dp*cp index
    int epDegree = 1;           // the plan's ep, or 1 when it does not divide dp*cp
    // The worst group of each kind (see above).
    GroupPlacement tp, cp, dpCp, pp, ep, expertDp;
    bool ppNeighboursCrossNodes = false; // some stage boundary of some pipeline crosses a node
    bool ppNeighboursCrossDomains = false; // ... an NVLink domain

    const GroupPlacement& of(GroupKind kind) const;
    bool operator==(const RankLayout&) const = default;
};

// Everything a RankLayout is computed from, and its memo's key (core/util/Memo.h): the degrees, the expert tensor
// parallelism (etp 0 = tp), the node size and the rank order.
struct LayoutInputs {
    int tp = 1, cp = 1, dp = 1, pp = 1, ep = 1, etp = 0;
    int gpusPerNode = 8;
    std::string order = "tp-cp-ep-dp-pp";
    int nvlinkDomainNodes = 1;
    bool operator==(const LayoutInputs&) const = default;
};
LayoutInputs layoutInputs(const Plan& plan);

// Parses "tp-cp-ep-dp-pp"-style orders; false and the reason when a name is missing, repeated or unknown.
bool parseOrder(const std::string& order, std::vector<Dim>& dims, Text& why);

// The layout of those inputs alone; the last one per thread is kept.
RankLayout rankLayout(const LayoutInputs& inputs);
RankLayout rankLayout(const Plan& plan); // rankLayout(layoutInputs(plan))

// Nodes spanned and members per node of a group given its global ranks (any order).
GroupPlacement placeRanks(std::vector<long> ranks, int gpusPerNode);

} // namespace planscope
