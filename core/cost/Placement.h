// Where each kind of parallel group sits on the cluster's tiers (issue 34's placement questions): how many nodes,
// NVLink domains and pods one group spans (the most and the fewest over every group of the kind, against the fewest a
// group of its size could span), the slowest tier its members cross, and whether a rank order could keep it on a
// faster one. Tiers from fastest: NVLink (inside a node or an NVLink domain), the network inside a pod (one set of
// leaf switches), the network across pods (spine). planscope-cli placement prints it; docs/FORMATS.md section 15.
#pragma once

#include "cost/GroupKind.h"
#include "cost/Prediction.h"
#include "spec/Plan.h"

#include <string_view>
#include <vector>

namespace planscope {

enum class LinkTier { None, NvLink, Network, Spine };
std::string_view toString(LinkTier t); // "none", "nvlink", "network", "spine"

struct TierSpan {
    int most = 1; // the most units one group of the kind spans
    int fewest = 1; // the fewest any group spans
    int needed = 1; // the fewest units a group of its size could span: ceil(size / GPUs per unit)
    bool operator==(const TierSpan&) const = default;
};

struct KindPlacement {
    GroupKind kind = GroupKind::TP;
    int size = 1;
    long long groups = 0;
    TierSpan nodes, domains, pods; // domains: nodes where the node is the domain; pods: 1 where the plan has none
    LinkTier tier = LinkTier::None; // the slowest tier some group's members cross
    LinkTier neededTier = LinkTier::None; // the fastest tier a group of its size can stay on
    bool avoidable = false; // tier is slower than neededTier: another rank order would keep the groups faster
    double bytesPerStep = 0; // bytes one GPU sends per step over the groups of this kind (the prediction's)
    bool operator==(const KindPlacement&) const = default;
};

// One row per group kind of size above 1 (expert kinds only for MoE models), in GroupKind order; every group of every
// kind is looked at (O(GPUs) per kind). Plans whose degrees do not multiply to the cluster's GPUs give none.
std::vector<KindPlacement> placementOf(const Plan& plan, const Prediction& prediction);

} // namespace planscope
