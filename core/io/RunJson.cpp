#include "io/RunJson.h"

namespace planscope {

using nlohmann::json;

namespace {

json metricsJson(const RunRankMetrics& m)
{
    return { { "rank", m.rank }, { "node", m.node }, { "stepNs", m.stepNs }, { "computeNs", m.computeNs },
        { "exposedCommNs", m.exposedCommNs }, { "idleNs", m.idleNs }, { "waitNs", m.waitNs }, { "lagNs", m.lagNs },
        { "lastArrivals", m.lastArrivals }, { "matched", m.matched }, { "peakAllocatedBytes", m.peakAllocatedBytes } };
}

std::string_view causeName(SlowCause::Kind k)
{
    switch (k) {
    case SlowCause::Compute: return "compute";
    case SlowCause::Idle: return "idle";
    case SlowCause::ExposedComm: return "exposedComm";
    case SlowCause::ArrivesLast: return "arrivesLast";
    }
    return "";
}

json deltasJson(const std::vector<RunDelta>& v)
{
    json a = json::array();
    for (const RunDelta& d : v) a.push_back({ { "what", d.what }, { "a", d.a }, { "b", d.b }, { "delta", d.delta() } });
    return a;
}

} // namespace

json runSummaryJson(const MeasuredRun& run, std::size_t top)
{
    const std::vector<RunRankMetrics> metrics = rankMetrics(run);
    json slowest = json::array();
    for (const SlowRank& s : slowestRanks(run, metrics, top)) {
        json causes = json::array();
        for (const SlowCause& c : s.causes)
            causes.push_back({ { "kind", causeName(c.kind) }, { "value", c.valueNs }, { "median", c.medianNs }, { "group", c.group } });
        json o = metricsJson(s.metrics);
        o["causes"] = std::move(causes);
        o["why"] = s.why;
        slowest.push_back(std::move(o));
    }
    json groups = json::array();
    for (const GroupResult& g : run.groups) {
        json ops = json::array();
        for (const GroupOpStat& op : g.ops)
            ops.push_back({ { "op", toString(op.op) }, { "instances", op.instances }, { "medianBytes", op.medianBytes },
                { "medianDurNs", op.medianDurNs }, { "medianSpreadNs", op.medianSpreadNs }, { "maxSpreadNs", op.maxSpreadNs } });
        json a2a = json::array();
        for (const AllToAllImbalance& a : g.allToAll)
            a2a.push_back({ { "position", a.position }, { "instances", a.instances }, { "medianMaxOverMean", double(a.medianPermille) / 1000 },
                { "worstMaxOverMean", double(a.worstPermille) / 1000 }, { "heaviestRank", a.heaviestRank } });
        groups.push_back({ { "key", g.key }, { "label", groupLabel(g) }, { "size", g.size }, { "members", g.ranks.size() },
            { "scope", groupScope(g, run.gpusPerNode) }, { "unmatched", g.unmatched }, { "straggler", g.straggler },
            { "ops", std::move(ops) }, { "allToAll", std::move(a2a) } });
    }
    json failed = json::array(), excluded = json::array();
    for (const RunIssue& i : run.failed) failed.push_back({ { "file", i.file }, { "reason", i.reason } });
    for (const RunIssue& i : run.excluded) excluded.push_back({ { "file", i.file }, { "rank", i.rank }, { "reason", i.reason } });
    return { { "schema", "planscope/run-summary/v1" }, { "worldSize", run.worldSize }, { "ranks", run.ranks.size() },
        { "files", run.files }, { "bytesRead", run.bytesRead }, { "gpusPerNode", run.gpusPerNode },
        { "gpusPerNodeInferred", run.gpusPerNodeInferred }, { "median", metricsJson(medianMetrics(metrics)) },
        { "slowest", std::move(slowest) }, { "groups", std::move(groups) }, { "failed", std::move(failed) },
        { "excluded", std::move(excluded) } };
}

json runComparisonJson(const RunComparison& c)
{
    return { { "schema", "planscope/run-compare/v1" }, { "phases", deltasJson(c.phases) }, { "collectives", deltasJson(c.collectives) },
        { "ranks", deltasJson(c.ranks) }, { "onlyInA", c.onlyInA }, { "onlyInB", c.onlyInB }, { "biggest", c.biggest } };
}

} // namespace planscope
