// Where the members of a parallel group sit, from the rank order (Megatron's default tp-cp-ep-dp-pp: the
// first name varies fastest). Dense layers use the order without ep; expert layers carve ep out of the
// data-parallel ranks, as Megatron's expert rank generator does.
#pragma once

#include "spec/Plan.h"

#include <string>
#include <vector>

namespace planscope {

enum class Dim { TP, CP, EP, DP, PP };

struct GroupPlacement {
    int size = 1;
    int stride = 1;           // distance in ranks between neighbours of the innermost dim
    int nodesSpanned = 1;
    int perNode = 1;          // members on one node (max over nodes)
    bool crossesNodes = false;
};

struct RankLayout {
    int strideTp = 1, strideCp = 1, strideDp = 1, stridePp = 1;
    GroupPlacement tp, cp, dpCp, pp, ep, expertDp;
    bool ppNeighboursCrossNodes = false; // some stage boundary (rank 0's pipeline) crosses a node
};

// Parses "tp-cp-ep-dp-pp"-style orders; false and a message when a name is missing, repeated or unknown.
bool parseOrder(const std::string& order, std::vector<Dim>& dims, std::string& message);

RankLayout rankLayout(const Plan& plan);

// Nodes spanned and members per node of a group given its global ranks (any order).
GroupPlacement placeRanks(std::vector<long> ranks, int gpusPerNode);

} // namespace planscope
