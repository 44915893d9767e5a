#include "trace/RunAnalysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace planscope {

std::vector<bool> keptRanks(const std::vector<RankIdentity>& ids, std::vector<std::string>& reasons)
{
    std::map<int, std::size_t> sizes;
    for (const RankIdentity& id : ids)
        if (id.worldSize > 0) ++sizes[id.worldSize];
    int world = -1;
    std::size_t most = 0;
    for (const auto& [size, count] : sizes)
        if (count > most) most = count, world = size;
    std::vector<bool> kept(ids.size(), false);
    reasons.assign(ids.size(), std::string());
    std::map<int, std::size_t> taken;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const RankIdentity& id = ids[i];
        if (id.worldSize > 0 && id.worldSize != world) {
            reasons[i] = "world size " + std::to_string(id.worldSize) + ", the run's is " + std::to_string(world);
            continue;
        }
        if (id.rank < 0) {
            reasons[i] = "the trace names no rank (distributedInfo.rank)";
            continue;
        }
        if (world > 0 && id.rank >= world) {
            reasons[i] = "rank " + std::to_string(id.rank) + " is outside world size " + std::to_string(world);
            continue;
        }
        auto [it, fresh] = taken.emplace(id.rank, i);
        if (!fresh) {
            reasons[i] = "rank " + std::to_string(id.rank) + " again (an earlier file has it)";
            continue;
        }
        kept[i] = true;
    }
    return kept;
}

int inferGpusPerNode(const std::vector<RankSummary>& ranks)
{
    int most = -1;
    for (const RankSummary& r : ranks) most = std::max(most, r.localDevice);
    return most + 1;
}

MeasuredRun runFromParts(std::vector<RankSummary> ranks, std::vector<GroupResult> groups, std::vector<RunIssue> failed,
    std::vector<RunIssue> excluded, std::int64_t files, std::int64_t bytesRead, int gpusPerNode, bool gpusPerNodeInferred)
{
    MeasuredRun run;
    run.files = files;
    run.bytesRead = bytesRead;
    run.failed = std::move(failed);
    run.excluded = std::move(excluded);
    run.ranks = std::move(ranks);
    for (RankSummary& r : run.ranks) r.groups.clear();
    std::sort(run.ranks.begin(), run.ranks.end(), [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
    for (const RankSummary& r : run.ranks)
        if (r.worldSize > 0) run.worldSize = r.worldSize;
    run.groups = std::move(groups);
    std::sort(run.groups.begin(), run.groups.end(), [](const GroupResult& a, const GroupResult& b) { return a.key < b.key; });
    run.gpusPerNode = gpusPerNode;
    run.gpusPerNodeInferred = gpusPerNodeInferred;
    return run;
}

MeasuredRun assembleRun(std::vector<RankSummary> summaries, std::vector<RunIssue> failed, std::int64_t files,
    std::int64_t bytesRead, int gpusPerNode)
{
    std::vector<RankIdentity> ids;
    for (const RankSummary& s : summaries) ids.push_back({ s.rank, s.worldSize });
    std::vector<std::string> reasons;
    const std::vector<bool> kept = keptRanks(ids, reasons);
    std::vector<RankSummary> ranks;
    std::vector<RunIssue> excluded;
    for (std::size_t i = 0; i < summaries.size(); ++i) {
        if (kept[i]) ranks.push_back(std::move(summaries[i]));
        else excluded.push_back({ summaries[i].file, summaries[i].rank, reasons[i] });
    }
    std::sort(ranks.begin(), ranks.end(), [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
    std::map<std::string, std::vector<GroupMember>> byKey;
    for (const RankSummary& r : ranks)
        for (const RankGroup& g : r.groups) byKey[g.key].push_back({ r.rank, &g });
    std::vector<GroupResult> groups;
    for (const auto& [key, members] : byKey) groups.push_back(matchGroup(members));
    const int perNode = gpusPerNode > 0 ? gpusPerNode : inferGpusPerNode(ranks);
    return runFromParts(std::move(ranks), std::move(groups), std::move(failed), std::move(excluded), files, bytesRead, perNode,
        gpusPerNode <= 0);
}

std::string groupScope(const GroupResult& g, int gpusPerNode)
{
    if (gpusPerNode <= 0 || g.ranks.empty()) return "";
    for (int r : g.ranks)
        if (r / gpusPerNode != g.ranks.front() / gpusPerNode) return "inter-node";
    return "intra-node";
}

std::string groupLabel(const GroupResult& g)
{
    if (!g.desc.empty() && g.desc != "undefined") return g.desc + " (" + g.name + ")";
    return g.key;
}

std::string_view toString(RunMetric m)
{
    switch (m) {
    case RunMetric::Step: return "step";
    case RunMetric::Compute: return "compute";
    case RunMetric::ExposedComm: return "exposedComm";
    case RunMetric::Idle: return "idle";
    case RunMetric::Wait: return "wait";
    case RunMetric::Lag: return "lag";
    case RunMetric::Memory: return "memory";
    }
    return "";
}

std::int64_t metricValue(const RunRankMetrics& m, RunMetric metric)
{
    switch (metric) {
    case RunMetric::Step: return m.stepNs;
    case RunMetric::Compute: return m.computeNs;
    case RunMetric::ExposedComm: return m.exposedCommNs;
    case RunMetric::Idle: return m.idleNs;
    case RunMetric::Wait: return m.waitNs;
    case RunMetric::Lag: return m.lagNs;
    case RunMetric::Memory: return m.peakAllocatedBytes;
    }
    return 0;
}

std::vector<RunRankMetrics> rankMetrics(const MeasuredRun& run)
{
    std::vector<RunRankMetrics> out;
    out.reserve(run.ranks.size());
    std::map<int, std::size_t> index;
    for (const RankSummary& r : run.ranks) {
        RunRankMetrics m;
        m.rank = r.rank;
        m.node = run.gpusPerNode > 0 && r.rank >= 0 ? r.rank / run.gpusPerNode : -1;
        if (r.steps.empty()) {
            m.stepNs = r.endNs - r.startNs;
            m.computeNs = r.computeNs;
            m.exposedCommNs = r.commNs - r.overlapNs;
            m.idleNs = r.idleNs;
        } else {
            std::vector<std::int64_t> step, compute, exposed, idle;
            for (const RankStep& s : r.steps) {
                step.push_back(s.durNs);
                compute.push_back(s.computeNs);
                exposed.push_back(s.commNs - s.overlapNs);
                idle.push_back(s.idleNs);
            }
            m.stepNs = medianNs(step);
            m.computeNs = medianNs(compute);
            m.exposedCommNs = medianNs(exposed);
            m.idleNs = medianNs(idle);
        }
        for (const RankMemory& mem : r.memory)
            if (mem.deviceType == 1) m.peakAllocatedBytes = std::max(m.peakAllocatedBytes, mem.peakAllocatedBytes);
        index[r.rank] = out.size();
        out.push_back(m);
    }
    for (const GroupResult& g : run.groups)
        for (const MemberStat& s : g.members) {
            auto it = index.find(s.rank);
            if (it == index.end()) continue;
            RunRankMetrics& m = out[it->second];
            m.waitNs += s.waitNs;
            m.lagNs = std::max(m.lagNs, s.medianSkewNs);
            m.lastArrivals += s.lastArrivals;
            m.matched += s.matched;
        }
    return out;
}

RunRankMetrics medianMetrics(const std::vector<RunRankMetrics>& ranks)
{
    RunRankMetrics med;
    auto median = [&](auto field) {
        std::vector<std::int64_t> v;
        v.reserve(ranks.size());
        for (const RunRankMetrics& m : ranks) v.push_back(m.*field);
        return medianNs(std::move(v));
    };
    med.stepNs = median(&RunRankMetrics::stepNs);
    med.computeNs = median(&RunRankMetrics::computeNs);
    med.exposedCommNs = median(&RunRankMetrics::exposedCommNs);
    med.idleNs = median(&RunRankMetrics::idleNs);
    med.waitNs = median(&RunRankMetrics::waitNs);
    med.lagNs = median(&RunRankMetrics::lagNs);
    med.lastArrivals = median(&RunRankMetrics::lastArrivals);
    med.matched = median(&RunRankMetrics::matched);
    med.peakAllocatedBytes = median(&RunRankMetrics::peakAllocatedBytes);
    return med;
}

namespace {

std::string msText(std::int64_t ns)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f ms", double(ns) * 1e-6);
    return buf;
}

std::string causeText(const SlowCause& c)
{
    switch (c.kind) {
    case SlowCause::Compute: return "compute " + msText(c.valueNs) + " against a median " + msText(c.medianNs) + " (a slower GPU or more work)";
    case SlowCause::Idle: return "GPU idle " + msText(c.valueNs) + " against a median " + msText(c.medianNs) + " (its CPU launches late)";
    case SlowCause::ExposedComm: return "exposed communication " + msText(c.valueNs) + " against a median " + msText(c.medianNs);
    case SlowCause::ArrivesLast:
        return "last to arrive at " + std::to_string(c.valueNs) + " of " + std::to_string(c.medianNs) + " collectives of " + c.group;
    }
    return "";
}

} // namespace

std::vector<SlowRank> slowestRanks(const MeasuredRun& run, const std::vector<RunRankMetrics>& metrics, std::size_t top)
{
    const RunRankMetrics med = medianMetrics(metrics);
    std::vector<const RunRankMetrics*> order;
    for (const RunRankMetrics& m : metrics)
        if (m.lagNs > med.lagNs || m.stepNs > med.stepNs) order.push_back(&m);
    std::sort(order.begin(), order.end(), [](const RunRankMetrics* a, const RunRankMetrics* b) {
        if (a->lagNs != b->lagNs) return a->lagNs > b->lagNs;
        if (a->stepNs != b->stepNs) return a->stepNs > b->stepNs;
        return a->rank < b->rank;
    });
    if (order.size() > top) order.resize(top);

    std::vector<SlowRank> out;
    for (const RunRankMetrics* m : order) {
        SlowRank s;
        s.metrics = *m;
        // A cause counts where the rank is above the median by more than 1% of the median step (noise below that).
        const std::int64_t floor = std::max<std::int64_t>(med.stepNs / 100, 1);
        std::vector<std::pair<std::int64_t, SlowCause>> ranked;
        auto add = [&](SlowCause::Kind kind, std::int64_t value, std::int64_t median) {
            if (value - median > floor) ranked.push_back({ value - median, SlowCause { kind, value, median, {} } });
        };
        add(SlowCause::Compute, m->computeNs, med.computeNs);
        add(SlowCause::Idle, m->idleNs, med.idleNs);
        add(SlowCause::ExposedComm, m->exposedCommNs, med.exposedCommNs);
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (auto& [excess, cause] : ranked) s.causes.push_back(std::move(cause));
        // The groups where it is the straggler, most last arrivals first.
        std::vector<std::pair<std::int64_t, SlowCause>> last;
        for (const GroupResult& g : run.groups) {
            if (g.straggler != m->rank) continue;
            for (const MemberStat& ms : g.members)
                if (ms.rank == m->rank) last.push_back({ ms.lastArrivals, SlowCause { SlowCause::ArrivesLast, ms.lastArrivals, ms.matched, groupLabel(g) } });
        }
        std::stable_sort(last.begin(), last.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t i = 0; i < last.size() && i < 2; ++i) s.causes.push_back(last[i].second);
        for (const SlowCause& c : s.causes) s.why += (s.why.empty() ? "" : "; ") + causeText(c);
        if (s.why.empty()) s.why = "no cause above 1% of the median step in its own trace";
        out.push_back(std::move(s));
    }
    return out;
}

RunComparison compareRuns(const MeasuredRun& a, const MeasuredRun& b)
{
    RunComparison c;
    const std::vector<RunRankMetrics> ma = rankMetrics(a), mb = rankMetrics(b);
    const RunRankMetrics meda = medianMetrics(ma), medb = medianMetrics(mb);
    for (RunMetric m : { RunMetric::Step, RunMetric::Compute, RunMetric::ExposedComm, RunMetric::Idle, RunMetric::Wait, RunMetric::Lag })
        c.phases.push_back({ std::string(toString(m)), metricValue(meda, m), metricValue(medb, m) });

    auto collectives = [](const MeasuredRun& run) {
        std::map<std::string, std::vector<std::int64_t>> byLabel;
        for (const GroupResult& g : run.groups)
            for (const GroupOpStat& op : g.ops)
                byLabel[(g.desc.empty() || g.desc == "undefined" ? g.key : g.desc) + " " + std::string(toString(op.op))].push_back(op.medianDurNs);
        std::map<std::string, std::int64_t> out;
        for (auto& [label, v] : byLabel) out[label] = medianNs(std::move(v));
        return out;
    };
    const auto ca = collectives(a), cb = collectives(b);
    for (const auto& [label, ns] : ca) {
        auto it = cb.find(label);
        if (it == cb.end()) c.onlyInA.push_back(label);
        else c.collectives.push_back({ label, ns, it->second });
    }
    for (const auto& [label, ns] : cb)
        if (!ca.count(label)) c.onlyInB.push_back(label);

    std::map<int, std::int64_t> stepA;
    for (const RunRankMetrics& m : ma) stepA[m.rank] = m.stepNs;
    std::vector<RunDelta> ranks;
    for (const RunRankMetrics& m : mb) {
        auto it = stepA.find(m.rank);
        if (it != stepA.end()) ranks.push_back({ "rank " + std::to_string(m.rank), it->second, m.stepNs });
    }
    std::stable_sort(ranks.begin(), ranks.end(), [](const RunDelta& x, const RunDelta& y) {
        return std::llabs(x.delta()) > std::llabs(y.delta());
    });
    if (ranks.size() > 10) ranks.resize(10);
    c.ranks = std::move(ranks);

    const RunDelta* biggest = nullptr;
    for (const RunDelta& d : c.phases)
        if ((d.what == "compute" || d.what == "exposedComm" || d.what == "idle")
            && (!biggest || std::llabs(d.delta()) > std::llabs(biggest->delta())))
            biggest = &d;
    if (biggest) {
        char buf[96];
        const double ms = double(biggest->delta()) * 1e-6;
        if (biggest->a > 0)
            std::snprintf(buf, sizeof buf, "%s %+.2f ms (%+.0f%%)", biggest->what.c_str(), ms, 100.0 * double(biggest->delta()) / double(biggest->a));
        else
            std::snprintf(buf, sizeof buf, "%s %+.2f ms", biggest->what.c_str(), ms);
        c.biggest = buf;
    }
    return c;
}

} // namespace planscope
