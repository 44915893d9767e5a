#include "trace/RunSummary.h"

#include "trace/Intervals.h"
#include "trace/TraceAnalysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace planscope {

namespace {

std::int64_t toNs(double seconds) { return std::llround(seconds * 1e9); }

// The bytes of one collective as collectiveStats counts them: In msg nelems x dtype size (Out msg nelems for an
// all-gather); -1 without that metadata.
std::int64_t collectiveBytes(const MeasuredRank& r, const MeasuredEvent& e)
{
    if (e.comm < 0) return -1;
    const CommInfo& info = r.comms[std::size_t(e.comm)];
    const int size = info.dtype >= 0 ? dtypeSize(r.names[std::size_t(info.dtype)]) : 0;
    const std::int64_t nelems = e.collective == CollectiveKind::AllGather ? info.outMsgNelems : info.inMsgNelems;
    if (size <= 0 || nelems < 0) return -1;
    return nelems * size;
}

} // namespace

std::int64_t medianNs(std::vector<std::int64_t> v)
{
    if (v.empty()) return 0;
    const std::size_t m = (v.size() - 1) / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(m), v.end());
    return v[m];
}

RankSummary summarizeRank(const MeasuredRank& r, std::int64_t fileBytes)
{
    RankSummary s;
    s.rank = r.rank;
    s.worldSize = r.worldSize;
    s.file = r.file;
    s.fileBytes = fileBytes;
    if (!r.deviceNames.empty()) s.device = r.deviceNames.front();
    if (r.skipped)
        s.damaged = "byte " + std::to_string(r.skipped->offset) + ": " + r.skipped->reason.english();
    s.events = r.events;
    s.kernels = r.kernels;
    s.ncclKernels = r.ncclKernels;
    s.computeNs = toNs(r.breakdown.computeSeconds);
    s.commNs = toNs(r.breakdown.commSeconds);
    s.overlapNs = toNs(r.breakdown.overlapSeconds);
    s.idleNs = toNs(r.breakdown.idleSeconds);

    // The CUDA device: Kineto writes GPU events under the device index as pid; the GPU lane with the most events.
    std::int64_t most = -1;
    for (const MeasuredLane& l : r.lanes)
        if (l.gpu && l.events > most && l.pid >= 0 && l.pid < 1 << 16) {
            most = l.events;
            s.localDevice = int(l.pid);
        }

    const std::vector<StepBreakdown> steps = stepBreakdowns(r);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepBreakdown& b = steps[i];
        RankStep st;
        st.number = r.stepSpans[i].number;
        st.startNs = r.absoluteNs(b.startNs);
        st.durNs = b.durNs;
        st.computeNs = toNs(b.computeSeconds);
        st.commNs = toNs(b.commSeconds);
        st.overlapNs = toNs(b.overlapSeconds);
        st.idleNs = toNs(b.idleSeconds);
        st.kernels = b.kernels;
        s.steps.push_back(st);
    }

    // Top kernels in integer nanoseconds, one slot per interned name.
    std::vector<RankKernel> byName(r.names.size());
    bool anyKernel = false;
    std::int64_t first = 0, last = 0;
    for (const MeasuredEvent& e : r.eventList) {
        if (e.kind != EventKind::Kernel) continue;
        const std::int64_t a = r.absoluteNs(e.startNs), b = a + e.durNs;
        if (!anyKernel) first = a, last = b, anyKernel = true;
        first = std::min(first, a);
        last = std::max(last, b);
        if (e.name < 0) continue;
        RankKernel& k = byName[std::size_t(e.name)];
        if (k.count++ == 0) k.collective = e.collective;
        k.totalNs += e.durNs;
    }
    s.startNs = first;
    s.endNs = last;
    for (std::size_t i = 0; i < byName.size(); ++i)
        if (byName[i].count > 0) {
            byName[i].name = r.names[i];
            s.topKernels.push_back(std::move(byName[i]));
        }
    std::sort(s.topKernels.begin(), s.topKernels.end(), [](const RankKernel& a, const RankKernel& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    if (s.topKernels.size() > kSummaryTopKernels) s.topKernels.resize(kSummaryTopKernels);

    // Memory peaks per device, as memoryTimeline has them (the largest Total Allocated / Reserved), without its series.
    std::map<std::pair<int, int>, RankMemory> peaks;
    for (const MeasuredMemoryEvent& m : r.memoryList) {
        RankMemory& p = peaks[{ m.deviceType, m.deviceId }];
        p.deviceType = m.deviceType;
        p.deviceId = m.deviceId;
        p.peakAllocatedBytes = std::max(p.peakAllocatedBytes, m.totalAllocated);
        p.peakReservedBytes = std::max(p.peakReservedBytes, m.totalReserved);
    }
    for (const auto& [device, p] : peaks) s.memory.push_back(p);

    // PP: actions: the GPU-side annotations where the trace has them (they time the work itself), else the CPU ones.
    bool gpuActions = false;
    for (const MeasuredEvent& e : r.eventList)
        if (e.kind == EventKind::GpuAnnotation && parsePipelineAction(r.nameOf(e))) {
            gpuActions = true;
            break;
        }
    const EventKind actionKind = gpuActions ? EventKind::GpuAnnotation : EventKind::CpuAnnotation;
    for (const MeasuredEvent& e : r.eventList) {
        if (e.kind != actionKind) continue;
        const std::optional<PipelineAction> a = parsePipelineAction(r.nameOf(e));
        if (!a) continue;
        if (s.actions.size() >= kSummaryMaxActions) {
            ++s.actionsLeftOut;
            continue;
        }
        s.actions.push_back(RankAction { a->stage, a->kind, a->microbatch, r.absoluteNs(e.startNs), e.durNs });
    }

    // One record per NCCL kernel, by group.
    std::map<std::string, RankGroup> groups;
    std::map<std::pair<std::string, std::int64_t>, std::int32_t> nextSeq;
    std::size_t records = 0;
    for (const MeasuredEvent& e : r.eventList) {
        if (e.kind != EventKind::Kernel || e.collective == CollectiveKind::None) continue;
        if (records >= kSummaryMaxRecords) {
            ++s.recordsLeftOut;
            continue;
        }
        const CommInfo* info = e.comm >= 0 ? &r.comms[std::size_t(e.comm)] : nullptr;
        std::string key, name;
        if (info && info->processGroup >= 0) {
            name = r.names[std::size_t(info->processGroup)];
            key = "pg:" + name;
        } else {
            key = "op:" + std::string(toString(e.collective));
        }
        RankGroup& g = groups[key];
        if (g.key.empty()) {
            g.key = key;
            g.name = name;
            for (const ProcessGroupRecord& p : r.processGroups)
                if (!name.empty() && p.name == name) {
                    g.desc = p.desc;
                    g.size = int(p.size);
                    g.ranks = p.ranks;
                    break;
                }
        }
        if (g.size < 0 && info && info->groupSize > 0) g.size = int(info->groupSize);
        CollectiveRecord rec;
        rec.stepNumber = e.step >= 0 && std::size_t(e.step) < r.stepSpans.size() ? r.stepSpans[std::size_t(e.step)].number : -1;
        rec.seq = nextSeq[{ key, rec.stepNumber }]++;
        rec.op = e.collective;
        rec.startNs = r.absoluteNs(e.startNs);
        rec.endNs = rec.startNs + e.durNs;
        rec.bytes = collectiveBytes(r, e);
        g.records.push_back(rec);
        ++records;
    }
    for (auto& [key, g] : groups) s.groups.push_back(std::move(g));
    return s;
}

GroupResult matchGroup(const std::vector<GroupMember>& members)
{
    GroupResult out;
    if (members.empty()) return out;
    const RankGroup& head = *members.front().group;
    out.key = head.key;
    out.name = head.name;
    for (const GroupMember& m : members) {
        if (out.desc.empty()) out.desc = m.group->desc;
        if (out.size < 0) out.size = m.group->size;
        out.ranks.push_back(m.rank);
    }
    std::sort(out.ranks.begin(), out.ranks.end());

    const std::size_t n = members.size();
    // Every instance (step, seq) with each member's record, in (step, seq) order.
    std::map<std::pair<std::int64_t, std::int32_t>, std::vector<const CollectiveRecord*>> instances;
    for (std::size_t i = 0; i < n; ++i)
        for (const CollectiveRecord& r : members[i].group->records) {
            std::vector<const CollectiveRecord*>& slot = instances[{ r.stepNumber, r.seq }];
            if (slot.empty()) slot.assign(n, nullptr);
            slot[i] = &r;
        }

    struct OpSamples {
        std::int64_t instances = 0;
        std::vector<std::int64_t> bytes, durations, spreads;
    };
    std::map<CollectiveKind, OpSamples> ops;
    std::vector<std::vector<std::int64_t>> skews(n);
    out.members.resize(n);
    for (std::size_t i = 0; i < n; ++i) out.members[i].rank = members[i].rank;
    struct A2aSamples {
        std::int64_t instances = 0;
        std::vector<std::int64_t> permille;
        std::map<int, std::int64_t> heaviest;
    };
    std::map<std::int32_t, A2aSamples> a2a;
    std::map<std::int64_t, std::int32_t> a2aInStep;

    for (const auto& [id, slot] : instances) {
        bool complete = n >= 2 && slot.front();
        for (const CollectiveRecord* r : slot)
            if (!r || !slot.front() || r->op != slot.front()->op) complete = false;
        if (!complete) {
            ++out.unmatched;
            continue;
        }
        const CollectiveKind op = slot.front()->op;
        if (op == CollectiveKind::SendRecv && n > 2) continue;
        std::int64_t firstStart = slot[0]->startNs, lastStart = slot[0]->startNs;
        std::size_t lastMember = 0;
        for (std::size_t i = 1; i < n; ++i) {
            firstStart = std::min(firstStart, slot[i]->startNs);
            if (slot[i]->startNs > lastStart || (slot[i]->startNs == lastStart && members[i].rank < members[lastMember].rank)) {
                lastStart = slot[i]->startNs;
                lastMember = i;
            }
        }
        OpSamples& os = ops[op];
        ++os.instances;
        os.spreads.push_back(lastStart - firstStart);
        bool sized = true;
        std::int64_t sum = 0, max = -1;
        std::size_t heaviest = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const CollectiveRecord& r = *slot[i];
            MemberStat& m = out.members[i];
            ++m.matched;
            m.waitNs += lastStart - r.startNs;
            skews[i].push_back(r.startNs - firstStart);
            os.durations.push_back(r.endNs - r.startNs);
            if (r.bytes >= 0) os.bytes.push_back(r.bytes);
            else sized = false;
            sum += std::max<std::int64_t>(r.bytes, 0);
            if (r.bytes > max || (r.bytes == max && members[i].rank < members[heaviest].rank)) {
                max = r.bytes;
                heaviest = i;
            }
        }
        ++out.members[lastMember].lastArrivals;
        if (op == CollectiveKind::AllToAll) {
            const std::int32_t position = a2aInStep[id.first]++;
            if (sized && sum > 0) {
                A2aSamples& s = a2a[position];
                ++s.instances;
                s.permille.push_back(max * 1000 * std::int64_t(n) / sum);
                ++s.heaviest[members[heaviest].rank];
            }
        }
    }

    for (auto& [op, s] : ops) {
        GroupOpStat st;
        st.op = op;
        st.instances = s.instances;
        st.medianBytes = s.bytes.empty() ? -1 : medianNs(s.bytes);
        st.medianDurNs = medianNs(s.durations);
        st.medianSpreadNs = medianNs(s.spreads);
        st.maxSpreadNs = s.spreads.empty() ? 0 : *std::max_element(s.spreads.begin(), s.spreads.end());
        out.ops.push_back(st);
    }
    for (std::size_t i = 0; i < n; ++i) {
        out.members[i].medianSkewNs = medianNs(skews[i]);
        out.members[i].maxSkewNs = skews[i].empty() ? 0 : *std::max_element(skews[i].begin(), skews[i].end());
    }
    std::sort(out.members.begin(), out.members.end(), [](const MemberStat& a, const MemberStat& b) { return a.rank < b.rank; });
    const MemberStat* straggler = nullptr;
    for (const MemberStat& m : out.members) {
        if (m.lastArrivals == 0) continue;
        if (!straggler || m.lastArrivals > straggler->lastArrivals
            || (m.lastArrivals == straggler->lastArrivals && m.medianSkewNs > straggler->medianSkewNs))
            straggler = &m;
    }
    if (straggler && n >= 2) out.straggler = straggler->rank;
    for (auto& [position, s] : a2a) {
        AllToAllImbalance im;
        im.position = position;
        im.instances = s.instances;
        im.medianPermille = medianNs(s.permille);
        im.worstPermille = *std::max_element(s.permille.begin(), s.permille.end());
        std::int64_t best = -1;
        for (const auto& [rank, count] : s.heaviest)
            if (count > best) best = count, im.heaviestRank = rank;
        out.allToAll.push_back(im);
    }
    return out;
}

} // namespace planscope
