#include "cost/Placement.h"

#include "cost/RankGrid.h"

#include <algorithm>

namespace planscope {

std::string_view toString(LinkTier t)
{
    switch (t) {
    case LinkTier::None: return "none";
    case LinkTier::NvLink: return "nvlink";
    case LinkTier::Network: return "network";
    case LinkTier::Spine: return "spine";
    }
    return "none";
}

namespace {

// Distinct units (rank / unitGpus) among ascending ranks.
int unitsSpanned(const std::vector<int>& members, long long unitGpus)
{
    int units = 0;
    long long last = -1;
    for (int r : members) {
        const long long u = r / unitGpus;
        if (u != last) ++units, last = u;
    }
    return units;
}

void widen(TierSpan& t, int units, bool first)
{
    t.most = first ? units : std::max(t.most, units);
    t.fewest = first ? units : std::min(t.fewest, units);
}

} // namespace

std::vector<KindPlacement> placementOf(const Plan& plan, const Prediction& prediction)
{
    std::vector<KindPlacement> out;
    const ClusterSpec& cl = plan.cluster;
    const RankGrid grid(plan);
    if (grid.gpus() != cl.gpus() || grid.gpus() <= 0 || grid.gpus() > (long long)(1) << 30) return out;
    const long long nodeGpus = std::max(1, cl.gpusPerNode);
    const long long domainGpus = nodeGpus * std::max(1, cl.nvlinkDomainNodes);
    const bool pods = cl.podNodes > 0;
    const long long podGpus = pods ? nodeGpus * cl.podNodes : grid.gpus();
    for (GroupKind kind : kGroupKinds) {
        const int size = grid.size(kind);
        if (size <= 1) continue;
        if ((kind == GroupKind::EP || kind == GroupKind::ExpertDP) && !plan.model.isMoe()) continue;
        KindPlacement k;
        k.kind = kind;
        k.size = size;
        for (int rank = 0; rank < int(grid.gpus()); ++rank) {
            if (grid.indexInGroup(kind, rank) != 0) continue;
            const std::vector<int> members = grid.members(kind, rank);
            const bool first = k.groups == 0;
            widen(k.nodes, unitsSpanned(members, nodeGpus), first);
            widen(k.domains, unitsSpanned(members, domainGpus), first);
            widen(k.pods, unitsSpanned(members, podGpus), first);
            ++k.groups;
        }
        k.nodes.needed = int((size + nodeGpus - 1) / nodeGpus);
        k.domains.needed = int((size + domainGpus - 1) / domainGpus);
        k.pods.needed = int((size + podGpus - 1) / podGpus);
        k.tier = k.pods.most > 1 ? LinkTier::Spine : k.domains.most > 1 ? LinkTier::Network : LinkTier::NvLink;
        k.neededTier = k.pods.needed > 1 ? LinkTier::Spine : k.domains.needed > 1 ? LinkTier::Network : LinkTier::NvLink;
        k.avoidable = k.tier > k.neededTier;
        for (const CommGroup& g : prediction.comm)
            if (g.kind == kind) k.bytesPerStep += g.bytesPerStep;
        out.push_back(k);
    }
    return out;
}

} // namespace planscope
