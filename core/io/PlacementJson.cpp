#include "io/PlacementJson.h"

namespace planscope {

using nlohmann::json;

namespace {

json spanJson(const TierSpan& t) { return { { "most", t.most }, { "fewest", t.fewest }, { "needed", t.needed } }; }

} // namespace

json placementJson(const Plan& plan, const std::vector<KindPlacement>& rows)
{
    json kinds = json::array();
    for (const KindPlacement& k : rows)
        kinds.push_back({ { "kind", toString(k.kind) }, { "size", k.size }, { "groups", k.groups }, { "nodes", spanJson(k.nodes) },
            { "domains", spanJson(k.domains) }, { "pods", spanJson(k.pods) }, { "tier", toString(k.tier) },
            { "neededTier", toString(k.neededTier) }, { "avoidable", k.avoidable }, { "bytesPerStep", k.bytesPerStep } });
    const ClusterSpec& c = plan.cluster;
    return { { "schema", "planscope/placement/v1" }, { "plan", plan.name }, { "order", plan.parallel.order },
        { "cluster", { { "nodes", c.nodes }, { "gpusPerNode", c.gpusPerNode }, { "nvlinkDomainNodes", c.nvlinkDomainNodes },
                         { "podNodes", c.podNodes }, { "gpus", c.gpus() } } },
        { "kinds", std::move(kinds) } };
}

} // namespace planscope
