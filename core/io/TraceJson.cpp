#include "TraceJson.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;

namespace {

json numberOrNull(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

json decompositionToJson(const StepDecomposition& d)
{
    auto s = [](std::int64_t ns) { return double(ns) * 1e-9; };
    return json { { "windowSeconds", s(d.windowNs) }, { "computeSeconds", s(d.computeNs) }, { "commSeconds", s(d.commNs) },
        { "exposedCommSeconds", s(d.exposedCommNs) }, { "idleSeconds", s(d.idleNs) } };
}

} // namespace

json measuredRankToJson(const MeasuredRank& r)
{
    json collectives = json::object();
    for (const auto& [name, n] : r.collectives) collectives[name] = n;
    json j = json::object();
    j["rank"] = r.rank >= 0 ? json(r.rank) : json(nullptr);
    j["worldSize"] = r.worldSize >= 0 ? json(r.worldSize) : json(nullptr);
    j["file"] = r.file;
    j["events"] = r.events;
    j["kernels"] = r.kernels;
    j["ncclKernels"] = r.ncclKernels;
    j["collectives"] = collectives;
    j["memoryEvents"] = r.memoryEvents;
    j["steps"] = r.steps;
    j["breakdown"] = json { { "computeSeconds", r.breakdown.computeSeconds },
        { "commSeconds", r.breakdown.commSeconds }, { "overlapSeconds", r.breakdown.overlapSeconds },
        { "idleSeconds", r.breakdown.idleSeconds } };
    json stats = json::array();
    for (const CollectiveStat& c : collectiveStats(r))
        stats.push_back(json { { "op", c.op }, { "count", c.count }, { "bytes", c.bytes }, { "seconds", c.seconds },
            { "algBandwidth", c.algBandwidth }, { "busBandwidth", c.busBandwidth }, { "groupSize", c.groupSize } });
    j["collectiveStats"] = stats;
    json spans = json::array();
    for (const MeasuredStep& s : r.stepSpans) spans.push_back(json { { "name", s.name }, { "seconds", double(s.durNs) * 1e-9 } });
    j["stepSpans"] = spans;
    json steps = json::array();
    for (const StepBreakdown& s : stepBreakdowns(r))
        steps.push_back(json { { "name", s.name }, { "startNs", s.startNs }, { "seconds", double(s.durNs) * 1e-9 },
            { "gpuStartNs", s.gpuStartNs }, { "gpuEndNs", s.gpuEndNs }, { "computeSeconds", s.computeSeconds },
            { "commSeconds", s.commSeconds }, { "overlapSeconds", s.overlapSeconds }, { "idleSeconds", s.idleSeconds },
            { "kernels", s.kernels }, { "ncclKernels", s.ncclKernels } });
    j["stepBreakdowns"] = steps;
    json kernels = json::array();
    for (const KernelStat& k : topKernels(r, 10)) {
        json e { { "name", k.name }, { "count", k.count }, { "totalSeconds", k.totalSeconds }, { "share", k.share } };
        e["collective"] = k.collective == CollectiveKind::None ? json(nullptr) : json(toString(k.collective));
        kernels.push_back(e);
    }
    j["topKernels"] = kernels;
    json lanes = json::array();
    for (const MeasuredLane& l : r.lanes)
        lanes.push_back(json { { "pid", l.pid }, { "tid", l.tid }, { "gpu", l.gpu }, { "events", l.events } });
    j["lanes"] = lanes;
    json memory = json::array();
    for (const DeviceMemorySeries& d : memoryTimeline(r))
        memory.push_back(json { { "deviceType", d.deviceType }, { "deviceId", d.deviceId },
            { "points", d.points.size() }, { "peakAllocatedBytes", d.peakAllocated },
            { "peakReservedBytes", d.peakReserved } });
    j["memory"] = memory;
    // The process groups the trace records (distributedInfo.pg_config, then those only events name): how many member
    // ranks it lists rather than the ranks themselves, which the inferred plan's groups carry once per distinct group.
    json groups = json::array();
    for (const ProcessGroupRecord& g : r.processGroups)
        groups.push_back(json { { "name", g.name }, { "desc", g.desc }, { "backend", g.backend },
            { "size", g.size >= 0 ? json(g.size) : json(nullptr) }, { "ranksListed", g.ranks.size() },
            { "ranksComplete", g.ranksComplete },
            { "source", g.source == ProcessGroupRecord::Source::Config ? "pg_config" : "events" } });
    j["processGroups"] = groups;
    j["processGroupIssues"] = englishLines(r.processGroupIssues);
    return j;
}

json inferredLayoutToJson(const InferredLayout& layout)
{
    json fields = json::object();
    for (const InferredField& f : layout.fields)
        fields[f.field] = json { { "value", f.field == "order" ? json(f.order) : json(f.value) },
            { "basis", toString(f.basis) }, { "from", f.from.english() } };
    json notInferred = json::array();
    for (const NotInferredField& f : layout.notInferred) notInferred.push_back(json { { "field", f.field }, { "reason", f.reason.english() } });
    json groups = json::array();
    for (const LayoutGroup& g : layout.groups)
        groups.push_back(json { { "desc", g.desc }, { "role", toString(g.role) }, { "size", g.size },
            { "stride", g.stride > 0 ? json(g.stride) : json(nullptr) }, { "traces", g.traces }, { "members", g.members } });
    return json { { "worldSize", layout.worldSize > 0 ? json(layout.worldSize) : json(nullptr) }, { "fields", fields },
        { "notInferred", notInferred }, { "issues", englishLines(layout.issues) }, { "notes", englishLines(layout.notes) },
        { "groups", groups }, { "plan", layout.plan } };
}

json alignmentToJson(const Alignment& a)
{
    json ranks = json::array();
    for (const RankSkew& s : a.ranks) ranks.push_back(json { { "rank", s.rank }, { "medianSkewSeconds", s.medianSkewSeconds } });
    return json { { "matchedCollectives", a.matchedCollectives }, { "ranks", ranks },
        { "straggler", a.straggler >= 0 ? json(a.straggler) : json(nullptr) } };
}

json comparisonToJson(const Comparison& c)
{
    json phases = json::array();
    for (const PhaseComparison& p : c.phases)
        phases.push_back(json { { "phase", p.phase }, { "predictedSeconds", p.predictedSeconds },
            { "measuredSeconds", p.measuredSeconds }, { "error", numberOrNull(p.error) } });
    json ranks = json::array();
    for (const RankStepMeasure& r : c.ranks)
        ranks.push_back(json { { "rank", r.rank >= 0 ? json(r.rank) : json(nullptr) }, { "steps", r.steps },
            { "method", r.method }, { "stepSeconds", r.stepSeconds }, { "computeSeconds", r.computeSeconds },
            { "commSeconds", r.commSeconds }, { "exposedCommSeconds", r.exposedCommSeconds } });
    return json { { "plan", c.plan }, { "method", c.method }, { "predictedStepSeconds", c.predictedStepSeconds },
        { "measuredStepSeconds", c.measuredStepSeconds }, { "stepError", numberOrNull(c.stepError) },
        { "reading", c.reading }, { "phases", phases }, { "ranks", ranks }, { "biggestGap", c.biggestGap } };
}

json overlayToJson(const Overlay& ov, const std::vector<MeasuredRank>& ranks)
{
    json jr = json::array();
    for (const OverlayRank& o : ov.ranks)
        jr.push_back(json { { "rank", o.rank >= 0 ? json(o.rank) : json(nullptr) }, { "file", ranks[o.source].file },
            { "pipelineRank", o.pipelineRank }, { "step", o.step >= 0 ? json(ranks[o.source].stepSpans[std::size_t(o.step)].name) : json(nullptr) },
            { "measured", decompositionToJson(o.measured) }, { "predicted", decompositionToJson(o.predicted) } });
    json phases = json::array();
    for (const PhaseDelta& p : ov.phases)
        phases.push_back(json { { "phase", p.phase }, { "predictedSeconds", p.predictedSeconds },
            { "measuredSeconds", p.measuredSeconds }, { "deltaSeconds", p.deltaSeconds } });
    json kinds = json::array();
    for (const OpKindRatio& k : ov.opRatios)
        kinds.push_back(json { { "kind", k.kind }, { "count", k.count }, { "medianRatio", k.medianRatio } });
    std::vector<const OpDelta*> worst;
    for (const OpDelta& d : ov.ops) worst.push_back(&d);
    std::stable_sort(worst.begin(), worst.end(), [](const OpDelta* x, const OpDelta* y) {
        return std::llabs(x->durationDeltaNs()) > std::llabs(y->durationDeltaNs());
    });
    if (worst.size() > 20) worst.resize(20);
    json largest = json::array();
    for (const OpDelta* d : worst)
        largest.push_back(json { { "op", d->op }, { "rank", ov.ranks[d->overlayRank].rank },
            { "predictedStartSeconds", double(d->predictedStartNs) * 1e-9 }, { "predictedSeconds", double(d->predictedNs) * 1e-9 },
            { "measuredStartSeconds", double(d->measuredStartNs) * 1e-9 }, { "measuredSeconds", double(d->measuredNs) * 1e-9 },
            { "startDeltaSeconds", double(d->startDeltaNs()) * 1e-9 }, { "durationDeltaSeconds", double(d->durationDeltaNs()) * 1e-9 } });
    json notes = json::array();
    for (const OverlayNote& n : ov.notes) notes.push_back(n.text);
    std::int64_t nonZero = 0;
    for (const OpDelta& d : ov.ops) nonZero += d.startDeltaNs() != 0 || d.durationDeltaNs() != 0;
    return json { { "stepName", ov.stepName.empty() ? json(nullptr) : json(ov.stepName) }, { "ranks", jr }, { "phases", phases },
        { "stepError", ov.verdict == Overlay::Unmeasured ? json(nullptr) : json(ov.stepError) },
        { "biggestGap", ov.biggestGap }, { "summary", ov.summary }, { "notes", notes },
        { "ops", json { { "matched", ov.ops.size() }, { "withNonZeroDelta", nonZero }, { "measuredActions", ov.measuredActions },
                     { "unmatchedMeasured", ov.unmatchedMeasured }, { "unmatchedPredicted", ov.unmatchedPredicted },
                     { "byKind", kinds }, { "largestDurationDeltas", largest } } } };
}

json skippedToJson(const std::vector<SkippedRegion>& skipped)
{
    json a = json::array();
    for (const SkippedRegion& s : skipped) a.push_back(json { { "file", s.file }, { "offset", s.offset }, { "reason", s.reason.english() } });
    return a;
}

json jobsToJson(const TraceImport& traces)
{
    json a = json::array();
    for (std::size_t i = 0; i < traces.jobs.size(); ++i) {
        const TraceJob& j = traces.jobs[i];
        a.push_back(json { { "worldSize", j.worldSize >= 0 ? json(j.worldSize) : json(nullptr) }, { "ranks", j.ranks }, { "files", j.files },
            { "start", j.timed ? json(traceTimeText(j.startNs)) : json(nullptr) },
            { "startNs", j.timed ? json(j.startNs) : json(nullptr) }, { "endNs", j.timed ? json(j.endNs) : json(nullptr) },
            { "kept", int(i) == traces.job } });
    }
    return a;
}

json excludedToJson(const std::vector<ExcludedTrace>& excluded)
{
    json a = json::array();
    for (const ExcludedTrace& x : excluded) {
        json e { { "file", x.file }, { "reason", x.reason == ExcludedTrace::OtherJob ? "otherJob" : "duplicateRank" },
            { "rank", x.rank >= 0 ? json(x.rank) : json(nullptr) },
            { "worldSize", x.worldSize >= 0 ? json(x.worldSize) : json(nullptr) }, { "job", x.job }, { "message", x.text } };
        if (x.reason == ExcludedTrace::DuplicateRank) e["sameAs"] = x.sameAs;
        a.push_back(std::move(e));
    }
    return a;
}

json tallyToJson(const TraceFileTally& t)
{
    static constexpr const char* kKinds[] = { "refused", "damaged", "otherJob", "duplicateRank", "emptyFolder" };
    json reasons = json::array();
    for (const TraceFileTally::Reason& r : t.reasons)
        reasons.push_back(json { { "kind", kKinds[r.kind] }, { "reason", r.text }, { "files", r.count }, { "examples", r.examples } });
    return json { { "files", t.files }, { "read", t.read }, { "damaged", t.damaged }, { "refused", t.refused },
        { "excluded", t.excluded }, { "kept", t.kept }, { "notRead", t.notRead }, { "reasons", reasons } };
}

json importToJson(const TraceImport& traces, const Alignment& alignment, const Comparison* comparison, const Overlay* overlay)
{
    json doc = json::object();
    doc["schema"] = kImportSchema;
    doc["ranks"] = json::array();
    for (const auto& r : traces.ranks) doc["ranks"].push_back(measuredRankToJson(r));
    doc["comparison"] = comparison ? comparisonToJson(*comparison) : json::object();
    if (overlay) doc["comparison"]["overlay"] = overlayToJson(*overlay, traces.ranks);
    doc["alignment"] = alignmentToJson(alignment);
    doc["skipped"] = skippedToJson(traces.skipped);
    doc["jobs"] = jobsToJson(traces);
    doc["excluded"] = excludedToJson(traces.excluded);
    doc["files"] = tallyToJson(traces.tally);
    return doc;
}

} // namespace planscope
