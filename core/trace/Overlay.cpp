#include "trace/Overlay.h"

#include "cost/RankLayout.h"
#include "trace/Intervals.h"
#include "trace/TraceAnalysis.h"
#include "util/Units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace planscope {

namespace {

std::int64_t toNs(double seconds) { return std::llround(seconds * 1e9); }
double toSeconds(std::int64_t ns) { return double(ns) * 1e-9; }

// compute / comm intervals relative to the origin -> the decomposition over [0, last end].
StepDecomposition decompose(Intervals compute, Intervals comm)
{
    StepDecomposition d;
    std::int64_t end = 0;
    for (const Interval& iv : compute) end = std::max(end, iv.second);
    for (const Interval& iv : comm) end = std::max(end, iv.second);
    const auto cu = unionOf(std::move(compute)), mu = unionOf(std::move(comm));
    Intervals all = cu;
    all.insert(all.end(), mu.begin(), mu.end());
    d.windowNs = end;
    d.computeNs = lengthOf(cu);
    d.commNs = lengthOf(mu);
    d.exposedCommNs = d.commNs - intersectionOf(cu, mu);
    d.idleNs = end - lengthOf(unionOf(std::move(all)));
    return d;
}


bool inStep(const MeasuredEvent& e, int step) { return step < 0 || e.step == step; }

// Forward 0, backward (B, I, W) 1, optimizer 2; -1 for other work.
int phaseSlot(SpanKind k)
{
    switch (k) {
    case SpanKind::Forward: return 0;
    case SpanKind::Backward:
    case SpanKind::InputGrad:
    case SpanKind::WeightGrad: return 1;
    case SpanKind::OptimizerStep: return 2;
    default: return -1;
    }
}

// Forward, backward and optimizer time from each phase's intervals, so that they add up to at most the union of all:
// where phases run at once (kernels of two phases on two streams), the time is forward's, else backward's. Phases
// not marked are -1.
PhaseTimes phaseTimes(const std::array<Intervals, 3>& slots, const std::array<bool, 3>& marked)
{
    std::array<std::int64_t, 3> ns {};
    Intervals before; // the union of the earlier phases
    for (std::size_t i = 0; i < 3; ++i) {
        const Intervals u = unionOf(slots[i]);
        ns[i] = marked[i] ? lengthOf(u) - intersectionOf(u, before) : -1;
        before.insert(before.end(), u.begin(), u.end());
        before = unionOf(std::move(before));
    }
    return PhaseTimes { ns[0], ns[1], ns[2] };
}

// A phase annotation: its span in file time and its slot (phaseSlot).
struct PhaseMark {
    std::int64_t start = 0, end = 0;
    int slot = -1;
};

// The innermost mark holding t (the latest-starting one with start <= t < end); -1 for none. `marks` are sorted by
// start, `maxEnd[i]` is the largest end among marks[0..i].
int markHolding(const std::vector<PhaseMark>& marks, const std::vector<std::int64_t>& maxEnd, std::int64_t t)
{
    auto i = std::upper_bound(marks.begin(), marks.end(), t, [](std::int64_t v, const PhaseMark& m) { return v < m.start; })
        - marks.begin() - 1;
    for (; i >= 0 && maxEnd[std::size_t(i)] > t; --i)
        if (marks[std::size_t(i)].end > t) return marks[std::size_t(i)].slot;
    return -1;
}

// Measured forward, backward and optimizer time of one rank's step (docs/TRACES.md, "The overlay", item 5): the
// compute kernels of the step (those the decomposition counts as compute) go to the phase whose annotation holds
// the moment the CPU launched them, the innermost one where annotations nest, whatever thread opened it (autograd
// launches the backward kernels from its own thread while the main thread's "## backward ##" is open). A trace
// without CPU-side phase annotations is read from its GPU-side ones, by the kernel's start. A phase is marked when
// an annotation of it starts in the step.
PhaseTimes measuredPhaseTimes(const MeasuredRank& r, int step, std::int64_t origin)
{
    std::vector<PhaseMark> marks[2]; // [0] CPU-side, [1] GPU-side
    std::array<bool, 3> marked[2] {};
    for (const MeasuredEvent& e : r.eventList) {
        if (e.kind != EventKind::GpuAnnotation && e.kind != EventKind::CpuAnnotation) continue;
        SpanKind kind = SpanKind::Forward;
        const int slot = phaseOfName(r.nameOf(e), kind) ? phaseSlot(kind) : -1;
        if (slot < 0 || e.durNs <= 0) continue;
        const std::size_t side = e.kind == EventKind::CpuAnnotation ? 0 : 1;
        marks[side].push_back({ e.startNs, e.startNs + e.durNs, slot });
        if (inStep(e, step)) marked[side][std::size_t(slot)] = true;
    }
    const bool cpu = marked[0][0] || marked[0][1] || marked[0][2];
    const std::size_t side = cpu ? 0 : 1;
    std::vector<PhaseMark>& m = marks[side];
    std::stable_sort(m.begin(), m.end(), [](const PhaseMark& a, const PhaseMark& b) { return a.start < b.start; });
    std::vector<std::int64_t> maxEnd(m.size());
    for (std::size_t i = 0; i < m.size(); ++i) maxEnd[i] = std::max(i ? maxEnd[i - 1] : m[i].end, m[i].end);
    std::array<Intervals, 3> slots;
    for (const MeasuredEvent& e : r.eventList) {
        if (e.kind != EventKind::Kernel || e.collective != CollectiveKind::None || !inStep(e, step)) continue;
        const int slot = markHolding(m, maxEnd, cpu ? r.launchNs(e) : e.startNs);
        if (slot < 0) continue;
        const std::int64_t start = r.absoluteNs(e.startNs) - origin;
        slots[std::size_t(slot)].push_back({ start, start + e.durNs });
    }
    return phaseTimes(slots, marked[side]);
}

PhaseTimes predictedPhaseTimes(const Timeline& tl, int pipelineRank, std::int64_t originNs)
{
    // Cut at the step's end as predictedDecomposition cuts, so that the phases stay within its compute.
    const std::int64_t stepEnd = toNs(tl.stepSeconds) - originNs;
    std::array<Intervals, 3> slots;
    for (const Span& s : tl.spans) {
        const int slot = phaseSlot(s.kind);
        if (s.rank != pipelineRank || slot < 0 || isCommunicationStream(s.stream)) continue;
        const Interval iv { toNs(s.start) - originNs, std::min(toNs(s.end) - originNs, stepEnd) };
        if (iv.second > iv.first) slots[std::size_t(slot)].push_back(iv);
    }
    return phaseTimes(slots, { true, true, true });
}

StepDecomposition predictedDecomposition(const Timeline& tl, int pipelineRank, std::int64_t originNs)
{
    // Up to the step's end: the part of a ZeRO-1/2 parameter all-gather that overlaps the next step's first
    // forward belongs to the next step (Timeline::stepSeconds counts only the rest), as in a profiler's step.
    const std::int64_t stepEnd = toNs(tl.stepSeconds) - originNs;
    Intervals compute, comm;
    for (const Span& s : tl.spans) {
        if (s.rank != pipelineRank) continue;
        const Interval iv { toNs(s.start) - originNs, std::min(toNs(s.end) - originNs, stepEnd) };
        if (iv.second <= iv.first) continue;
        (isCommunicationStream(s.stream) ? comm : compute).push_back(iv);
    }
    return decompose(std::move(compute), std::move(comm));
}

// The step to align on: the requested index, else the median-length ProfilerStep; -1 without steps.
int chooseStep(const MeasuredRank& r, int requested)
{
    if (r.stepSpans.empty()) return -1;
    if (requested >= 0 && requested < int(r.stepSpans.size())) return requested;
    std::vector<int> order(r.stepSpans.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(),
        [&](int a, int b) { return r.stepSpans[std::size_t(a)].durNs < r.stepSpans[std::size_t(b)].durNs; });
    return order[(order.size() - 1) / 2];
}



char kindLetter(SpanKind k)
{
    switch (k) {
    case SpanKind::Forward: return 'F';
    case SpanKind::Backward: return 'B';
    case SpanKind::InputGrad: return 'I';
    case SpanKind::WeightGrad: return 'W';
    default: return 0;
    }
}

bool spanKindOfAction(const std::string& kind, SpanKind& out)
{
    static const std::pair<const char*, SpanKind> table[] = { { "F", SpanKind::Forward }, { "B", SpanKind::Backward },
        { "I", SpanKind::InputGrad }, { "W", SpanKind::WeightGrad }, { "SEND_F", SpanKind::SendActivation },
        { "SEND_B", SpanKind::SendGradient } };
    for (const auto& [k, s] : table)
        if (kind == k) {
            out = s;
            return true;
        }
    return false;
}

double meanOf(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? 0 : sum / double(v.size());
}

std::string usText(std::int64_t ns)
{
    char buf[48];
    const std::int64_t a = ns < 0 ? -ns : ns;
    std::snprintf(buf, sizeof buf, "%s%lld.%03lld", ns < 0 ? "-" : "", static_cast<long long>(a / 1000),
        static_cast<long long>(a % 1000));
    return buf;
}

} // namespace

bool phaseOfName(std::string_view name, SpanKind& kind)
{
    if (auto action = parsePipelineAction(name)) {
        static const std::pair<const char*, SpanKind> kinds[] = { { "F", SpanKind::Forward }, { "B", SpanKind::Backward },
            { "I", SpanKind::InputGrad }, { "W", SpanKind::WeightGrad }, { "SEND_F", SpanKind::SendActivation },
            { "RECV_F", SpanKind::SendActivation }, { "SEND_B", SpanKind::SendGradient }, { "RECV_B", SpanKind::SendGradient },
            { "UNSHARD", SpanKind::ParamGather }, { "RESHARD", SpanKind::ParamGather }, { "REDUCE_GRAD", SpanKind::GradReduce } };
        for (const auto& [k, s] : kinds)
            if (action->kind == k) {
                kind = s;
                return true;
            }
        return false;
    }
    auto has = [&](std::string_view s) { return name.find(s) != std::string_view::npos; };
    if (name.substr(0, 5) == "nccl:") kind = SpanKind::GradReduce;
    else if (has("## forward") || name == "forward" || (name.size() > 8 && name.substr(name.size() - 8) == ".forward"))
        kind = SpanKind::Forward;
    else if (has("## backward") || name == "backward") kind = SpanKind::Backward;
    else if (has("## optimizer") || name.substr(0, 15) == "Optimizer.step#") kind = SpanKind::OptimizerStep;
    else return false;
    return true;
}

std::int64_t predictedOriginNs(const Timeline& timeline)
{
    if (timeline.spans.empty()) return 0;
    double first = timeline.spans.front().start;
    for (const Span& s : timeline.spans) first = std::min(first, s.start);
    return toNs(first);
}

bool isCommunicationStream(Stream s) { return s == Stream::P2P || s == Stream::DataParallel || s == Stream::ZeroGather; }

int pipelineRankOf(const Plan& plan, int globalRank)
{
    const int pp = std::max(1, plan.parallel.pp);
    if (globalRank < 0) return 0;
    const int stride = std::max(1, rankLayout(plan).stridePp);
    return (globalRank / stride) % pp;
}

std::string pipelineActionText(const Span& s)
{
    if (s.microbatch < 0 || s.stage < 0) return {};
    if (s.stream == Stream::Compute) {
        const char k = kindLetter(s.kind);
        return k ? std::to_string(s.stage) + k + std::to_string(s.microbatch) : std::string();
    }
    if (s.kind == SpanKind::SendActivation) return std::to_string(s.stage) + "SEND_F" + std::to_string(s.microbatch);
    if (s.kind == SpanKind::SendGradient) return std::to_string(s.stage) + "SEND_B" + std::to_string(s.microbatch);
    return {};
}

Overlay buildOverlay(const std::vector<MeasuredRank>& ranks, const Plan& plan, const Timeline& timeline,
    const OverlayOptions& options)
{
    Overlay ov;
    const std::int64_t predictedOrigin = predictedOriginNs(timeline);

    // The step name the first rank aligns on; other ranks use the step of the same name where they have it.
    std::string stepName;
    bool cpuSideActions = false;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const MeasuredRank& r = ranks[i];
        int step = chooseStep(r, options.step);
        if (!stepName.empty())
            for (std::size_t k = 0; k < r.stepSpans.size(); ++k)
                if (r.stepSpans[k].name == stepName) step = int(k);
        OverlayRank o;
        o.source = i;
        o.rank = r.rank;
        o.pipelineRank = pipelineRankOf(plan, r.rank);
        o.step = step;
        bool any = false;
        for (const MeasuredEvent& e : r.eventList)
            if (e.kind == EventKind::Kernel && inStep(e, step)) {
                o.gpuStartNs = any ? std::min(o.gpuStartNs, r.absoluteNs(e.startNs)) : r.absoluteNs(e.startNs);
                any = true;
            }
        if (!any) {
            ov.notes.push_back({ OverlayNote::NoKernels, r.rank, 0, 0,
                "rank " + std::to_string(r.rank) + " (" + r.file + "): no GPU kernels in the step; left out" });
            continue;
        }
        if (stepName.empty() && step >= 0) stepName = r.stepSpans[std::size_t(step)].name;
        if (step < 0)
            ov.notes.push_back({ OverlayNote::NoSteps, r.rank, 0, 0,
                "rank " + std::to_string(r.rank) + ": no ProfilerStep; the whole trace is taken as one step" });
        ov.ranks.push_back(o);
    }
    ov.stepName = stepName;
    if (ov.ranks.empty()) {
        ov.summary = "Nothing to compare: no rank has GPU kernels.";
        return ov;
    }
    std::int64_t origin = ov.ranks.front().gpuStartNs;
    for (const OverlayRank& o : ov.ranks) origin = std::min(origin, o.gpuStartNs);

    // Predicted spans that a PP action can name, by (pipeline rank, kind, stage, microbatch).
    std::map<std::tuple<int, int, int, int>, std::uint32_t> actionSpans;
    for (std::size_t i = 0; i < timeline.spans.size(); ++i) {
        const Span& s = timeline.spans[i];
        if (!pipelineActionText(s).empty())
            actionSpans.emplace(std::make_tuple(s.rank, int(s.kind), s.stage, s.microbatch), std::uint32_t(i));
    }
    std::set<std::pair<int, std::uint32_t>> matched;
    std::set<int> pipelineRanks;
    std::map<int, StepDecomposition> predictedByPipelineRank;

    for (std::size_t oi = 0; oi < ov.ranks.size(); ++oi) {
        OverlayRank& o = ov.ranks[oi];
        const MeasuredRank& r = ranks[o.source];
        o.originNs = origin;
        pipelineRanks.insert(o.pipelineRank);
        Intervals compute, comm;
        bool gpuActions = false;
        for (const MeasuredEvent& e : r.eventList) {
            if (!inStep(e, o.step)) continue;
            if (e.kind == EventKind::Kernel) {
                const Interval iv { r.absoluteNs(e.startNs) - origin, r.absoluteNs(e.startNs) + e.durNs - origin };
                (e.collective != CollectiveKind::None ? comm : compute).push_back(iv);
            }
            if (e.kind == EventKind::GpuAnnotation && r.nameOf(e).substr(0, 3) == "PP:") gpuActions = true;
        }
        o.measured = decompose(std::move(compute), std::move(comm));
        auto pd = predictedByPipelineRank.find(o.pipelineRank);
        if (pd == predictedByPipelineRank.end())
            pd = predictedByPipelineRank.emplace(o.pipelineRank, predictedDecomposition(timeline, o.pipelineRank, predictedOrigin)).first;
        o.predicted = pd->second;

        // Pipeline actions: the GPU-side annotations when the trace has them, else the CPU-side ones.
        const EventKind actionKind = gpuActions ? EventKind::GpuAnnotation : EventKind::CpuAnnotation;
        for (std::size_t ei = 0; ei < r.eventList.size(); ++ei) {
            const MeasuredEvent& e = r.eventList[ei];
            if (e.kind != actionKind || !inStep(e, o.step)) continue;
            const auto action = parsePipelineAction(r.nameOf(e));
            if (!action) continue;
            ++ov.measuredActions;
            if (!gpuActions) cpuSideActions = true;
            SpanKind kind = SpanKind::Forward;
            auto it = spanKindOfAction(action->kind, kind)
                ? actionSpans.find(std::make_tuple(o.pipelineRank, int(kind), action->stage, action->microbatch))
                : actionSpans.end();
            if (it == actionSpans.end()) {
                ++ov.unmatchedMeasured;
                continue;
            }
            const Span& s = timeline.spans[it->second];
            OpDelta d;
            d.overlayRank = oi;
            d.event = std::uint32_t(ei);
            d.span = it->second;
            d.op = std::string(r.nameOf(e).substr(3));
            d.predictedStartNs = toNs(s.start) - predictedOrigin;
            d.predictedNs = toNs(s.end) - toNs(s.start);
            d.measuredStartNs = r.absoluteNs(e.startNs) - origin;
            d.measuredNs = e.durNs;
            ov.ops.push_back(std::move(d));
            matched.emplace(o.pipelineRank, it->second);
        }

        o.measuredPhases = measuredPhaseTimes(r, o.step, origin);
        o.predictedPhases = predictedPhaseTimes(timeline, o.pipelineRank, predictedOrigin);
    }
    std::stable_sort(ov.ops.begin(), ov.ops.end(), [](const OpDelta& a, const OpDelta& b) {
        return std::tie(a.overlayRank, a.predictedStartNs) < std::tie(b.overlayRank, b.predictedStartNs);
    });
    if (ov.measuredActions > 0)
        for (const auto& [key, span] : actionSpans)
            if (pipelineRanks.count(std::get<0>(key)) && !matched.count({ std::get<0>(key), span })) ++ov.unmatchedPredicted;

    std::map<std::string, std::vector<double>> ratios;
    for (const OpDelta& d : ov.ops) {
        if (d.predictedNs <= 0) continue;
        std::string kind = d.op;
        kind.erase(0, kind.find_first_not_of("0123456789"));
        kind.erase(kind.find_last_not_of("0123456789") + 1);
        ratios[kind].push_back(double(d.measuredNs) / double(d.predictedNs));
    }
    for (auto& [kind, v] : ratios) ov.opRatios.push_back(OpKindRatio { kind, std::int64_t(v.size()), medianOf(v) });

    // Phases: means over the ranks of each side's numbers, so that the rows add up as each rank's do (step = compute +
    // exposed communication + idle; forward + backward + optimizer <= compute), which medians taken row by row would
    // not. A marked phase (forward, backward, optimizer) is left out when some rank's trace does not mark it (its
    // measured value is -1).
    auto phase = [&](const char* name, auto pick) {
        std::vector<double> p, m;
        for (const OverlayRank& o : ov.ranks) {
            const auto [predicted, measured] = pick(o);
            if (measured < 0) return;
            p.push_back(toSeconds(predicted));
            m.push_back(toSeconds(measured));
        }
        PhaseDelta d { name, meanOf(p), meanOf(m), 0 };
        d.deltaSeconds = d.measuredSeconds - d.predictedSeconds;
        ov.phases.push_back(d);
    };
    auto decomposed = [](std::int64_t StepDecomposition::*f) {
        return [f](const OverlayRank& o) { return std::pair(o.predicted.*f, o.measured.*f); };
    };
    auto marked = [](std::int64_t PhaseTimes::*f) {
        return [f](const OverlayRank& o) { return std::pair(o.predictedPhases.*f, o.measuredPhases.*f); };
    };
    phase("compute", decomposed(&StepDecomposition::computeNs));
    phase("exposedComm", decomposed(&StepDecomposition::exposedCommNs));
    phase("idle", decomposed(&StepDecomposition::idleNs));
    phase("step", decomposed(&StepDecomposition::windowNs));
    phase("forward", marked(&PhaseTimes::forwardNs));
    phase("backward", marked(&PhaseTimes::backwardNs));
    phase("optimizer", marked(&PhaseTimes::optimizerNs));
    const PhaseDelta* biggest = nullptr;
    for (const PhaseDelta& p : ov.phases)
        if ((p.phase == "compute" || p.phase == "exposedComm" || p.phase == "idle")
            && (!biggest || std::abs(p.deltaSeconds) > std::abs(biggest->deltaSeconds)))
            biggest = &p;
    ov.biggestGap = biggest ? biggest->phase : "";

    const PhaseDelta& step = ov.phases[3];
    static const std::map<std::string, std::string> words { { "compute", "compute" },
        { "exposedComm", "exposed communication" }, { "idle", "idle time (bubbles and waits)" } };
    if (step.measuredSeconds > 0) {
        ov.stepError = step.predictedSeconds / step.measuredSeconds - 1;
        ov.verdict = std::abs(ov.stepError) < 0.005 ? Overlay::OnTarget : ov.stepError < 0 ? Overlay::Optimistic : Overlay::Pessimistic;
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.0f%%", std::abs(ov.stepError) * 100);
        ov.summary = "GPU step measured " + units::formatSeconds(step.measuredSeconds) + ", predicted " + units::formatSeconds(step.predictedSeconds)
            + ": the prediction is "
            + (ov.verdict == Overlay::OnTarget ? std::string("on target") : std::string(pct) + (ov.verdict == Overlay::Optimistic ? " optimistic" : " pessimistic"));
        if (biggest && std::abs(biggest->deltaSeconds) > 0)
            ov.summary += "; the largest gap is " + words.at(biggest->phase) + " (" + units::formatSignedSeconds(biggest->deltaSeconds) + " measured vs predicted)";
        ov.summary += ".";
    } else {
        ov.summary = "The aligned step has no measured GPU time.";
    }

    int worldSize = -1;
    for (const OverlayRank& o : ov.ranks) worldSize = std::max(worldSize, ranks[o.source].worldSize);
    if (worldSize > 0 && worldSize != plan.cluster.gpus())
        ov.notes.push_back({ OverlayNote::WorldSize, -1, worldSize, plan.cluster.gpus(),
            "the traces come from a job of " + std::to_string(worldSize) + " ranks and the plan has "
                + std::to_string(plan.cluster.gpus()) + " GPUs: ranks are mapped to pipeline ranks by the plan's order" });
    if (plan.parallel.tp > 1)
        ov.notes.push_back({ OverlayNote::TensorParallelInCompute, -1, 0, 0,
            "tensor-parallel collectives are inside the predicted compute spans, but are NCCL kernels (communication) in the trace" });
    if (cpuSideActions)
        ov.notes.push_back({ OverlayNote::CpuSideActions, -1, 0, 0,
            "the trace has CPU-side PP: annotations only; their times lead the GPU work they launch" });
    return ov;
}

std::vector<std::string> syntheticKinetoTraces(const Timeline& timeline, const Plan& plan, std::int64_t baseTimeNs)
{
    int rankCount = std::max(1, timeline.schedule.ranks);
    for (const Span& s : timeline.spans) rankCount = std::max(rankCount, s.rank + 1);
    const int stride = std::max(1, rankLayout(plan).stridePp);
    const int world = std::max(plan.cluster.gpus(), rankCount * stride);
    std::vector<std::string> out;
    std::int64_t correlation = 1;
    for (int r = 0; r < rankCount; ++r) {
        // The step as a profiler would record it: work past the step's end (an all-gather overlapping the next
        // step's forward) is the next step's.
        const std::int64_t stepEnd = toNs(timeline.stepSeconds);
        std::vector<const Span*> spans;
        for (const Span& s : timeline.spans)
            if (s.rank == r && toNs(s.start) < stepEnd) spans.push_back(&s);
        std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->start < b->start; });
        std::int64_t first = 0, last = 0;
        if (!spans.empty()) {
            first = toNs(spans.front()->start);
            for (const Span* s : spans) last = std::max(last, std::min(toNs(s->end), stepEnd));
        }
        std::string t;
        t += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"PlanScope prediction\"}],\n";
        t += "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + std::to_string(r * stride) + ", \"world_size\": " + std::to_string(world) + "},\n";
        t += "  \"baseTimeNanoseconds\": " + std::to_string(baseTimeNs) + ",\n  \"traceEvents\": [\n";
        auto event = [&](const std::string& cat, const std::string& name, int pid, int tid, std::int64_t ts,
                         std::int64_t dur, const std::string& args) {
            t += "    {\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name + "\", \"pid\": " + std::to_string(pid)
                + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + usText(ts) + ", \"dur\": " + usText(dur);
            if (!args.empty()) t += ", \"args\": {" + args + "}";
            t += "},\n";
        };
        const int cpu = 4242;
        event("user_annotation", "ProfilerStep#1", cpu, cpu, first - 1000, last - first + 2000, "");
        for (const Span* s : spans) {
            const std::int64_t start = toNs(s->start), dur = std::min(toNs(s->end), stepEnd) - start;
            int stream = 7;
            std::string name = "planscope::" + std::string(toString(s->kind)), collArgs;
            switch (s->stream) {
            case Stream::P2P:
                stream = 20;
                name = "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)";
                collArgs = ", \"Collective name\": \"send\", \"Group size\": 2";
                break;
            case Stream::DataParallel:
            case Stream::ZeroGather: {
                const bool gather = s->kind == SpanKind::ParamGather;
                stream = s->stream == Stream::ZeroGather ? 22 : 21;
                name = gather ? "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
                              : "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
                collArgs = gather ? ", \"Collective name\": \"_allgather_base\"" : ", \"Collective name\": \"allreduce\"";
                break;
            }
            default: break;
            }
            const std::string corr = "\"correlation\": " + std::to_string(correlation++);
            event("cuda_runtime", "cudaLaunchKernel", cpu, cpu, start, 0, corr);
            event("kernel", name, 0, stream, start, dur, corr + ", \"stream\": " + std::to_string(stream) + collArgs);
            const std::string action = pipelineActionText(*s);
            if (!action.empty()) event("gpu_user_annotation", "PP:" + action, 0, stream, start, dur, "");
        }
        if (t.size() >= 2 && t.compare(t.size() - 2, 2, ",\n") == 0) t.erase(t.size() - 2, 1);
        t += "  ],\n  \"traceName\": \"planscope-synthetic-rank" + std::to_string(r) + "\"\n}\n";
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace planscope
