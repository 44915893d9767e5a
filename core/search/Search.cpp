#include "Search.h"
#include "SearchShard.h"

#include "spec/ScheduleTraits.h"
#include "analysis/Analysis.h"
#include "cost/Evaluate.h"
#include "util/Units.h"

#include <algorithm>
#include <limits>
#include <chrono>
#include <cmath>
#include <mutex>
#include <numeric>
#include <queue>
#include <thread>

namespace planscope {

namespace {

// { knob, name, varied by default, order key }
constexpr KnobInfo kKnobs[] = {
    { Knob::TP, "tp", true, [](const Candidate& c) { return double(c.tp); } },
    { Knob::PP, "pp", true, [](const Candidate& c) { return double(c.pp); } },
    { Knob::DP, "dp", true, [](const Candidate& c) { return double(c.dp); } },
    { Knob::CP, "cp", true, [](const Candidate& c) { return double(c.cp); } },
    { Knob::EP, "ep", true, [](const Candidate& c) { return double(c.ep); } },
    { Knob::VPP, "vpp", true, [](const Candidate& c) { return double(c.vpp); } },
    { Knob::SP, "sp", true, [](const Candidate& c) { return c.sp ? 1.0 : 0.0; } },
    { Knob::Zero, "zero", true, [](const Candidate& c) { return double(c.zero); } },
    { Knob::MicroBatch, "microBatch", true, [](const Candidate& c) { return double(c.microBatch); } },
    { Knob::Recompute, "recompute", true,
        [](const Candidate& c) { return double(int(c.recompute.mode) * 256 + c.recompute.modules); } },
    { Knob::Schedule, "schedule", true, [](const Candidate& c) { return double(int(c.schedule)); } },
    { Knob::Overlap, "overlap", false, [](const Candidate& c) { return double(c.overlap); } },
    { Knob::Offload, "offload", false, [](const Candidate& c) { return c.offload; } },
    { Knob::Gpus, "gpus", false, [](const Candidate& c) { return double(c.gpus); } },
};
static_assert(std::size(kKnobs) == kKnobCount);

std::vector<int> divisors(std::int64_t n, std::int64_t cap)
{
    std::vector<int> out;
    for (std::int64_t d = 1; d <= n && d <= cap; ++d)
        if (n % d == 0) out.push_back(int(d));
    return out;
}

std::vector<int> unionOf(const std::vector<std::vector<int>>& lists)
{
    std::vector<int> out;
    for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

int overlapMask(const TrainingSpec& t)
{
    return (t.overlapGradReduce ? kOverlapGradReduce : 0) | (t.tpCommOverlap ? kOverlapTpComm : 0)
        | (t.overlapP2pComm ? kOverlapP2p : 0);
}

int moduleBit(std::string_view m)
{
    for (int i = 0; i < int(std::size(kRecomputeModules)); ++i)
        if (m == kRecomputeModules[i]) return i;
    return -1;
}

RecomputeChoice choiceOf(const TrainingSpec& t)
{
    RecomputeChoice c { t.recompute, 0 };
    if (t.recompute == Recompute::Selective)
        for (const std::string& m : t.recomputeModules)
            if (moduleBit(m) >= 0) c.modules |= std::uint8_t(1u << moduleBit(m));
    return c;
}

bool parseRecompute(std::string_view text, RecomputeChoice& c)
{
    const std::size_t colon = text.find(':');
    Recompute mode;
    if (!fromString(text.substr(0, colon), mode)) return false;
    c = { mode, 0 };
    if (colon != std::string_view::npos) {
        if (mode != Recompute::Selective) return false;
        std::string_view rest = text.substr(colon + 1);
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            const int bit = moduleBit(rest.substr(0, comma));
            if (bit < 0) return false;
            c.modules |= std::uint8_t(1u << bit);
            rest = comma == std::string_view::npos ? std::string_view {} : rest.substr(comma + 1);
        }
    }
    return true;
}

bool customSplit(const ParallelSpec& p)
{
    return !p.layout.empty() || p.firstStageLayers > 0 || p.lastStageLayers > 0 || p.embeddingInSplit || p.lossInSplit;
}

// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): the sample of
// scatter points keeps the plans with the smallest hashes of their index, whatever thread saw them.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

std::vector<std::string> RecomputeChoice::moduleNames() const
{
    std::vector<std::string> out;
    if (mode != Recompute::Selective) return out;
    for (int i = 0; i < int(std::size(kRecomputeModules)); ++i)
        if (modules & (1u << i)) out.emplace_back(kRecomputeModules[i]);
    return out;
}

std::string RecomputeChoice::label() const
{
    std::string s(toString(mode));
    const std::vector<std::string> names = moduleNames();
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? "," : ":") + names[i];
    return s;
}

std::span<const KnobInfo> knobTable() { return kKnobs; }

std::string candidateText(const Candidate& c, bool compact)
{
    std::string s = "dp" + std::to_string(c.dp) + " tp" + std::to_string(c.tp) + " pp" + std::to_string(c.pp);
    if (!compact || c.cp > 1) s += " cp" + std::to_string(c.cp);
    if (c.ep > 1) s += " ep" + std::to_string(c.ep);
    if (!compact || c.vpp > 1) s += " vpp" + std::to_string(c.vpp);
    if (c.sp) s += " sp";
    if (!compact || c.zero > 0) s += " zero" + std::to_string(c.zero);
    return s + " mb" + std::to_string(c.microBatch) + " " + c.recompute.label() + " " + std::string(toString(c.schedule));
}

const KnobInfo& knobInfo(Knob k)
{
    for (const KnobInfo& i : kKnobs)
        if (i.knob == k) return i;
    return kKnobs[0];
}

const char* knobName(Knob k) { return knobInfo(k).name; }

std::optional<Knob> knobFromName(std::string_view name)
{
    for (const KnobInfo& i : kKnobs)
        if (name == i.name) return i.knob;
    if (name == "microbatch" || name == "mb") return Knob::MicroBatch;
    return std::nullopt;
}

std::vector<Knob> defaultKnobs()
{
    std::vector<Knob> out;
    for (const KnobInfo& i : kKnobs)
        if (i.byDefault) out.push_back(i.knob);
    return out;
}

const char* toString(Objective o)
{
    switch (o) {
    case Objective::Time: return "time";
    case Objective::Cost: return "cost";
    case Objective::Memory: return "memory";
    }
    return "time";
}

bool fromString(std::string_view s, Objective& o)
{
    for (Objective x : { Objective::Time, Objective::Cost, Objective::Memory })
        if (s == toString(x)) {
            o = x;
            return true;
        }
    return false;
}

double SearchSpace::size() const
{
    double n = 1;
    for (std::int64_t r : radices()) n *= double(r);
    return n;
}

std::vector<std::int64_t> SearchSpace::radices() const
{
    return { std::int64_t(gpus.size()), std::int64_t(tp.size()), std::int64_t(cp.size()), std::int64_t(ep.size()),
        std::int64_t(sp.size()), std::int64_t(microBatch.size()), std::int64_t(recompute.size()), std::int64_t(overlap.size()),
        std::int64_t(schedule.size()), std::int64_t(pp.size()), std::int64_t(dp.size()), std::int64_t(vpp.size()),
        std::int64_t(zero.size()), std::int64_t(offload.size()) };
}

Result<SearchSpace> buildSpace(const Plan& templIn, const std::vector<Knob>& vary, const std::vector<int>& gpuCounts)
{
    SearchSpace s;
    s.templ = templIn;
    s.original = templIn;
    Plan& t = s.templ;
    const ModelSpec& M = t.model;
    const int perNode = std::max(1, t.cluster.gpusPerNode);
    auto varies = [&](Knob k) { return std::find(vary.begin(), vary.end(), k) != vary.end(); };
    // The checks divide by the degrees and the batch: a template without them has no space (the plan loader and the
    // editor keep them >= 1; a caller building a Plan by hand may not).
    const struct { const char* path; std::int64_t v; } positive[] = { { "parallel.tp", t.parallel.tp },
        { "parallel.pp", t.parallel.pp }, { "parallel.cp", t.parallel.cp }, { "parallel.dp", t.parallel.dp },
        { "parallel.ep", t.parallel.ep }, { "parallel.vpp", t.parallel.vpp }, { "training.microBatch", t.training.microBatch },
        { "training.globalBatch", t.training.globalBatch }, { "model.layers", M.layers }, { "model.heads", M.heads },
        { "model.seqLength", M.seqLength }, { "cluster.gpusPerNode", t.cluster.gpusPerNode }, { "cluster.nodes", t.cluster.nodes } };
    for (const auto& x : positive)
        if (x.v < 1)
            return Result<SearchSpace>::failure(x.path, Text(PS_TEXT("CoreText", "must be >= 1 for a search, got %1"), x.v));

    // GPU counts: whole nodes, or one node of fewer GPUs.
    if (!gpuCounts.empty()) {
        for (int g : gpuCounts) {
            if (g < 1 || (g % perNode != 0 && perNode % g != 0))
                return Result<SearchSpace>::failure("gpus",
                    Text(PS_TEXT("CoreText", "a GPU count must be a multiple of the node's %1 GPUs (or divide it), got %2"),
                        perNode, g));
            s.gpus.push_back(g);
        }
        std::sort(s.gpus.begin(), s.gpus.end());
        s.gpus.erase(std::unique(s.gpus.begin(), s.gpus.end()), s.gpus.end());
    } else {
        s.gpus = { t.cluster.gpus() };
    }
    auto degreeValues = [&](std::int64_t cap) {
        std::vector<std::vector<int>> each;
        for (int g : s.gpus) each.push_back(divisors(g, cap));
        return unionOf(each);
    };

    s.tp = varies(Knob::TP) ? degreeValues(std::max(1, M.heads)) : std::vector<int> { t.parallel.tp };
    s.pp = varies(Knob::PP) ? degreeValues(std::max(1, M.layers)) : std::vector<int> { t.parallel.pp };
    s.cp = varies(Knob::CP) ? degreeValues(std::max<std::int64_t>(1, M.seqLength)) : std::vector<int> { t.parallel.cp };
    s.ep = varies(Knob::EP) && M.isMoe() ? degreeValues(M.moe.experts) : std::vector<int> { t.parallel.ep };
    s.dpDerived = varies(Knob::DP);
    s.dp = s.dpDerived ? std::vector<int> { 0 } : std::vector<int> { t.parallel.dp };
    if (varies(Knob::VPP)) {
        s.vpp = divisors(std::max(1, M.layers), std::max(1, M.layers));
    } else {
        s.vpp = { t.parallel.vpp };
    }
    s.zero = varies(Knob::Zero) ? std::vector<int> { 0, 1, 2, 3 } : std::vector<int> { t.parallel.zero };
    s.sp = varies(Knob::SP) ? std::vector<bool> { false, true } : std::vector<bool> { t.parallel.sp };
    // Microbatches of up to 64 sequences: the global batch's divisors (docs/SEARCH.md); --fix takes any value.
    s.microBatch = varies(Knob::MicroBatch) ? divisors(std::max<std::int64_t>(1, t.training.globalBatch), 64)
                                            : std::vector<int> { t.training.microBatch };
    if (varies(Knob::Recompute)) {
        // Megatron-Core --recompute-modules beyond the default core_attn: the MLP for dense layers, the experts'
        // activation function for MoE layers.
        RecomputeChoice more;
        parseRecompute(M.isMoe() ? "selective:core_attn,moe_act" : "selective:core_attn,mlp", more);
        s.recompute = { { Recompute::None, 0 }, { Recompute::Selective, 0 }, more, { Recompute::Full, 0 } };
    } else {
        s.recompute = { choiceOf(t.training) };
    }
    if (varies(Knob::Overlap)) {
        s.overlap.resize(8);
        std::iota(s.overlap.begin(), s.overlap.end(), 0);
    } else {
        s.overlap = { overlapMask(t.training) };
    }
    s.schedule = { t.training.schedule };
    if (varies(Knob::Schedule)) {
        s.schedule.clear();
        for (const ScheduleTraits& st : scheduleTraits())
            if (st.searched) s.schedule.push_back(st.kind);
    }
    s.offload = varies(Knob::Offload) ? std::vector<double> { 0.0, 0.5, 1.0 } : std::vector<double> { t.training.offload.optimizerFraction };

    if ((s.pp.size() > 1 || s.vpp.size() > 1 || s.schedule.size() > 1 || s.gpus.size() > 1) && customSplit(t.parallel)) {
        t.parallel.layout.clear();
        t.parallel.firstStageLayers = t.parallel.lastStageLayers = 0;
        t.parallel.embeddingInSplit = t.parallel.lossInSplit = false;
        s.notes.push_back(Text(PS_TEXT("CoreText", "the template's pipeline split (layout, first/last stage layers) is "
                                                   "dropped: the stages vary, so every plan splits its layers evenly, or "
                                                   "with the embedding and the loss counted as layers where only that "
                                                   "divides (run planscope-cli balance on the chosen plan)")));
    }
    return s;
}

namespace {

// The knobs of one digit vector (Knob order) of the enumeration.
Candidate fromDigits(const SearchSpace& s, const std::int64_t* d)
{
    Candidate c;
    c.gpus = s.gpus[std::size_t(d[int(Knob::Gpus)])];
    c.tp = s.tp[std::size_t(d[int(Knob::TP)])];
    c.cp = s.cp[std::size_t(d[int(Knob::CP)])];
    c.ep = s.ep[std::size_t(d[int(Knob::EP)])];
    c.sp = s.sp[std::size_t(d[int(Knob::SP)])];
    c.microBatch = s.microBatch[std::size_t(d[int(Knob::MicroBatch)])];
    c.recompute = s.recompute[std::size_t(d[int(Knob::Recompute)])];
    c.overlap = s.overlap[std::size_t(d[int(Knob::Overlap)])];
    c.schedule = s.schedule[std::size_t(d[int(Knob::Schedule)])];
    c.pp = s.pp[std::size_t(d[int(Knob::PP)])];
    c.vpp = s.vpp[std::size_t(d[int(Knob::VPP)])];
    c.zero = s.zero[std::size_t(d[int(Knob::Zero)])];
    c.offload = s.offload[std::size_t(d[int(Knob::Offload)])];
    // The plan file's fsdp means ZeRO-3 (the loader sets zero 3 under it): kept with zero 3, none otherwise.
    c.fsdp = c.zero == 3 ? s.templ.parallel.fsdp : Fsdp::None;
    const int model = c.tp * c.pp * c.cp;
    c.dp = s.dpDerived ? (model > 0 && c.gpus % model == 0 ? c.gpus / model : 0) : s.dp[std::size_t(d[int(Knob::DP)])];
    return c;
}

void digitsOf(const std::vector<std::int64_t>& radix, std::int64_t index, std::int64_t* d)
{
    for (int k = kKnobCount - 1; k >= 0; --k) {
        d[k] = index % radix[std::size_t(k)];
        index /= radix[std::size_t(k)];
    }
}

} // namespace

Candidate candidateAt(const SearchSpace& s, std::int64_t index)
{
    std::int64_t d[kKnobCount];
    digitsOf(s.radices(), index, d);
    Candidate c = fromDigits(s, d);
    rejectionBeforeEvaluation(s, c); // sets the split as the search does
    if (c.split == SplitChoice::Balanced) c.layout = applyCandidate(s.templ, c).parallel.layout;
    return c;
}

namespace {

void setCluster(Plan& p, int gpus, int perNode)
{
    if (gpus % perNode == 0) {
        p.cluster.nodes = gpus / perNode;
        p.cluster.gpusPerNode = perNode;
    } else {
        p.cluster.nodes = 1;
        p.cluster.gpusPerNode = gpus;
    }
}

void writeCandidate(Plan& p, const Candidate& c, int perNode)
{
    if (c.gpus != p.cluster.gpus()) setCluster(p, c.gpus, perNode);
    ParallelSpec& P = p.parallel;
    P.tp = c.tp;
    P.cp = c.cp;
    P.ep = c.ep;
    P.pp = c.pp;
    P.dp = c.dp;
    P.vpp = c.vpp;
    P.zero = c.zero;
    P.sp = c.sp;
    P.fsdp = c.fsdp;
    TrainingSpec& T = p.training;
    T.microBatch = c.microBatch;
    T.recompute = c.recompute.mode;
    T.schedule = c.schedule;
    T.overlapGradReduce = c.overlap & kOverlapGradReduce;
    T.tpCommOverlap = c.overlap & kOverlapTpComm;
    T.overlapP2pComm = c.overlap & kOverlapP2p;
    T.offload.optimizerFraction = c.offload;
    if (c.split != SplitChoice::Template) {
        if (c.split == SplitChoice::Balanced) {
            // The layout of this pp x chunks (the plan's string is reused when it is the same split).
            const int stages = c.pp * p.chunksPerRank();
            const std::string text = balancedLayout(p.model.layers, stages, p.model.mtpLayers);
            if (P.layout != text) P.layout = text;
        } else if (!P.layout.empty()) {
            P.layout.clear();
        }
        P.firstStageLayers = P.lastStageLayers = 0;
        P.embeddingInSplit = P.lossInSplit = c.split == SplitChoice::EmbeddingAndLossInSplit;
    }
}

} // namespace

Plan applyCandidate(const Plan& templ, const Candidate& c)
{
    Plan p = templ;
    writeCandidate(p, c, std::max(1, templ.cluster.gpusPerNode));
    p.training.recomputeModules = c.recompute.moduleNames();
    return p;
}

bool applyFix(Plan& t, const std::string& kv, std::string& message, std::vector<Knob>* fixed)
{
    const std::size_t eq = kv.find('=');
    if (eq == std::string::npos) {
        message = "--fix needs KEY=VALUE, got \"" + kv + "\"";
        return false;
    }
    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
    const std::optional<Knob> knob = knobFromName(key);
    if (!knob || *knob == Knob::Gpus) {
        message = "--fix: unknown knob \"" + key + "\" (tp, pp, dp, cp, ep, vpp, sp, zero, microBatch, recompute, schedule, "
                  "overlap, offload)";
        return false;
    }
    auto integer = [&](int& out, int lo) {
        try {
            std::size_t used = 0;
            const long v = std::stol(value, &used);
            if (used != value.size() || v < lo || v > 1 << 24) return false;
            out = int(v);
            return true;
        } catch (...) {
            return false;
        }
    };
    bool ok = true;
    switch (*knob) {
    case Knob::TP: ok = integer(t.parallel.tp, 1); break;
    case Knob::PP: ok = integer(t.parallel.pp, 1); break;
    case Knob::DP: ok = integer(t.parallel.dp, 1); break;
    case Knob::CP: ok = integer(t.parallel.cp, 1); break;
    case Knob::EP: ok = integer(t.parallel.ep, 1); break;
    case Knob::VPP: ok = integer(t.parallel.vpp, 1); break;
    case Knob::Zero: ok = integer(t.parallel.zero, 0) && t.parallel.zero <= 3; break;
    case Knob::MicroBatch: ok = integer(t.training.microBatch, 1); break;
    case Knob::SP:
        ok = value == "true" || value == "false" || value == "1" || value == "0";
        t.parallel.sp = value == "true" || value == "1";
        break;
    case Knob::Recompute: {
        RecomputeChoice c;
        ok = parseRecompute(value, c);
        if (ok) {
            t.training.recompute = c.mode;
            t.training.recomputeModules = c.moduleNames();
        }
        break;
    }
    case Knob::Schedule: ok = fromString(value, t.training.schedule); break;
    case Knob::Overlap: {
        int mask = 0;
        ok = integer(mask, 0) && mask < 8;
        if (ok) {
            t.training.overlapGradReduce = mask & kOverlapGradReduce;
            t.training.tpCommOverlap = mask & kOverlapTpComm;
            t.training.overlapP2pComm = mask & kOverlapP2p;
        }
        break;
    }
    case Knob::Offload:
        try {
            std::size_t used = 0;
            const double f = std::stod(value, &used);
            ok = used == value.size() && f >= 0 && f <= 1;
            if (ok) t.training.offload.optimizerFraction = f;
        } catch (...) {
            ok = false;
        }
        break;
    case Knob::Gpus: break;
    }
    if (!ok) {
        message = "--fix " + key + ": \"" + value + "\" is not a valid value";
        return false;
    }
    if (fixed) fixed->push_back(*knob);
    return true;
}

double objectiveValue(Objective o, const SearchEntry& e)
{
    switch (o) {
    case Objective::Time: return e.stepSeconds;
    case Objective::Cost: return e.gpuHoursPerToken;
    case Objective::Memory: return double(e.peakBytes);
    }
    return e.stepSeconds;
}

namespace {

// The reasons a plan is turned away before evaluate(), checked in this order (the first that applies is counted).
enum Reason : int {
    kGpuSplit,
    kGpuCount,
    kTpHeads,
    kTpKvHeads,
    kTpFfn,
    kCpSequence,
    kEpDense,
    kEpExperts,
    kEpDpCp,
    kEtpEp,
    kLayersSplit,
    kBatchSplit,
    kInterleavedPp,
    kInterleavedMicrobatches,
    kZbh1Rounds,
    kVChunks,
    kDualPipeVMicrobatches,
    kDualPipePp,
    kDualPipeMicrobatches,
    kSameSp,
    kSameVpp,
    kSameInterleaved,
    kSameVVpp,
    kSameTpOverlap,
    kSameOneStage,
    kSameFlashSelective,
    kZeroWithPp,
    kOutOfMemory,
    kUnderHeadroom,
    kReasonCount
};

// Each a template of core/util/Text.h without arguments: the English is the key of SearchResult::rejected, and
// the GUI translates that key.
// A plan evaluate() finds invalid, counted by the field of its first error.
constexpr TextTemplate kInvalidAt = PS_TEXT("CoreText", "invalid: %1");

constexpr TextTemplate kReasonText[kReasonCount] = {
    PS_TEXT("CoreText", "tp*pp*cp does not divide the GPUs"),
    PS_TEXT("CoreText", "dp*tp*pp*cp is not the GPU count"),
    PS_TEXT("CoreText", "tp does not divide heads"),
    PS_TEXT("CoreText", "tp does not divide kv heads"),
    PS_TEXT("CoreText", "tp does not divide the FFN"),
    PS_TEXT("CoreText", "cp does not divide the sequence"),
    PS_TEXT("CoreText", "ep > 1 needs an MoE model"),
    PS_TEXT("CoreText", "ep does not divide the experts"),
    PS_TEXT("CoreText", "ep does not divide dp*cp"),
    PS_TEXT("CoreText", "etp*ep does not divide tp*dp*cp"),
    PS_TEXT("CoreText", "more stages than layers, or an uneven split under a schedule that takes no layout"),
    PS_TEXT("CoreText", "microBatch*dp does not divide the global batch"),
    PS_TEXT("CoreText", "interleaved-1f1b needs pp >= 2"),
    PS_TEXT("CoreText", "interleaved-1f1b needs microbatches divisible by pp"),
    PS_TEXT("CoreText", "zb-h1 needs microbatches divisible by max(1, m/pp)"),
    PS_TEXT("CoreText", "zb-v and dualpipe-v hold two chunks per rank (vpp 2)"),
    PS_TEXT("CoreText", "dualpipe-v needs at least 2*pp microbatches"),
    PS_TEXT("CoreText", "dualpipe needs an even pp"),
    PS_TEXT("CoreText", "dualpipe needs an even number of microbatches, at least 2*pp"),
    PS_TEXT("CoreText", "same plan: sp has no effect with tp 1"),
    PS_TEXT("CoreText", "same plan: vpp has no effect with one chunk per rank"),
    PS_TEXT("CoreText", "same plan: interleaved-1f1b with vpp 1 is 1f1b"),
    PS_TEXT("CoreText", "same plan: zb-v and dualpipe-v always hold two chunks"),
    PS_TEXT("CoreText", "same plan: tp comm overlap needs tp > 1 with sp"),
    PS_TEXT("CoreText", "same plan: one pipeline stage runs no pipeline schedule"),
    PS_TEXT("CoreText", "same plan: selective recompute of core attention is none under flash attention"),
    PS_TEXT("CoreText", "no framework: ZeRO-2/3 with pp > 1 as modelled"),
    PS_TEXT("CoreText", "out of memory"),
    PS_TEXT("CoreText", "less free memory than the headroom (memoryOverheads.headroom)"),
};

// Template facts the checks read.
struct Facts {
    int heads = 0, kvHeads = 0, layers = 0, experts = 0, etpTemplate = 0;
    std::int64_t ffn = 0, seq = 0, globalBatch = 0;
    bool moe = false, customSplit = false;
    bool firstSpIsOff = true;     // the sp list starts with false
    int firstVpp = 1;             // the vpp list's first value
    int firstV = 1;               // the first of {1, 2} in the vpp list (V schedules), 0 if neither
    bool has1f1b = false;
    ScheduleKind onePpSchedule = ScheduleKind::OneFOneB; // the schedule kept for pp 1: 1f1b where listed, else the first
    bool flashSelectiveIsNone = false; // flash attention keeps no scores: recompute of core_attn alone saves nothing
    bool tpOverlapOffListed = false; // some listed overlap mask without the TP bit
};

int quickReject(Candidate& c, const Facts& f, const SearchSpace& s)
{
    const int model = c.tp * c.pp * c.cp;
    if (s.dpDerived) {
        if (c.dp <= 0) return kGpuSplit;
    } else if (std::int64_t(c.dp) * model != c.gpus) {
        return kGpuCount;
    }
    if (f.heads > 0 && f.heads % c.tp != 0) return kTpHeads;
    if (f.kvHeads > 0 && f.kvHeads % c.tp != 0) return kTpKvHeads;
    if (f.ffn > 0 && f.ffn % c.tp != 0) return kTpFfn;
    if (f.seq > 0 && f.seq % c.cp != 0) return kCpSequence;
    if (c.ep > 1 && !f.moe) return kEpDense;
    if (f.moe && f.experts % c.ep != 0) return kEpExperts;
    const int etp = f.etpTemplate > 0 ? f.etpTemplate : c.tp;
    if (c.ep > 1 && etp == c.tp && (c.dp * c.cp) % c.ep != 0) return kEpDpCp;
    if (f.etpTemplate > 0 && etp != c.tp && (std::int64_t(c.tp) * c.dp * c.cp) % (std::int64_t(etp) * c.ep) != 0) return kEtpEp;
    const ScheduleKind k = c.schedule;
    const ScheduleTraits& st = traits(k);
    if (st.vShaped && c.vpp > 2) return kVChunks;
    const int chunks = st.chunksPerRank(c.vpp);
    if (f.customSplit) {
        c.split = SplitChoice::Template;
    } else if (f.layers % (c.pp * chunks) == 0) {
        c.split = SplitChoice::Even;
    } else if (c.pp > 1 && st.customSplit() && (f.layers + 2) % (c.pp * chunks) == 0) {
        c.split = SplitChoice::EmbeddingAndLossInSplit; // Megatron-Core's way to split 70 layers over 12 stages
    } else if (c.pp > 1 && st.customSplit() && c.pp * chunks <= f.layers) {
        c.split = SplitChoice::Balanced; // a layout string: the middle stages take the remainder
    } else {
        return kLayersSplit;
    }
    const std::int64_t per = std::int64_t(c.microBatch) * c.dp;
    if (f.globalBatch % per != 0) return kBatchSplit;
    const std::int64_t m = f.globalBatch / per;
    switch (k) {
    case ScheduleKind::Interleaved1F1B:
        if (c.vpp < 2) break;
        if (c.pp < 2) return kInterleavedPp;
        if (m % c.pp != 0) return kInterleavedMicrobatches;
        break;
    case ScheduleKind::ZBH1:
        if (c.pp > 1) {
            const std::int64_t rounds = std::max<std::int64_t>(1, m / c.pp);
            if (m % rounds != 0) return kZbh1Rounds;
        }
        break;
    case ScheduleKind::DualPipeV:
        if (m < 2LL * c.pp) return kDualPipeVMicrobatches;
        break;
    case ScheduleKind::DualPipe:
        if (c.pp % 2 != 0) return kDualPipePp;
        if (m < 2LL * c.pp || m % 2 != 0) return kDualPipeMicrobatches;
        break;
    default: break;
    }
    // Values the plan ignores: one of each such family is kept (the first listed value).
    if (c.tp == 1 && c.sp != !f.firstSpIsOff) return kSameSp;
    if (!st.vShaped && !st.usesVpp && c.vpp != f.firstVpp) return kSameVpp;
    if (k == ScheduleKind::Interleaved1F1B && c.vpp < 2 && f.has1f1b) return kSameInterleaved;
    if (st.vShaped && c.vpp != f.firstV && f.firstV != 0) return kSameVVpp;
    if ((c.overlap & kOverlapTpComm) && !(c.sp && c.tp > 1) && f.tpOverlapOffListed) return kSameTpOverlap;
    // With one stage every schedule is gradient accumulation, one microbatch's forward then its backward: 1f1b.
    if (c.pp == 1 && k != f.onePpSchedule) return kSameOneStage;
    // Flash attention saves no scores and recomputes inside its kernel: selective recompute of core_attn alone keeps
    // and runs exactly what no recompute does (docs/MODEL.md section 3).
    constexpr std::uint8_t coreAttn = 1; // bit 0: kRecomputeModules[0] = "core_attn"
    if (f.flashSelectiveIsNone && c.recompute.mode == Recompute::Selective && (c.recompute.modules & ~coreAttn) == 0)
        return kSameFlashSelective;
    // ZeRO-2/3 under a pipeline as modelled (weights and gradients sharded, gathered and reduced every microbatch) is
    // run by no framework: DeepSpeed's pipeline engine refuses ZeRO-2/3, Megatron-Core offers the distributed optimizer
    // (ZeRO-1), and torch.distributed.pipelining with FSDP (torchtitan) keeps the weights gathered from a microbatch's
    // forward to its backward and the gradients whole until the last backward (validate() warns on parallel.zero).
    if (c.zero >= 2 && c.pp > 1) return kZeroWithPp;
    return -1;
}

Facts factsOf(const SearchSpace& space)
{
    const Plan& templ = space.templ;
    Facts f;
    const ModelSpec& M = templ.model;
    f.heads = M.heads;
    f.kvHeads = M.kvHeads;
    f.layers = M.layers;
    f.moe = M.isMoe();
    f.experts = M.moe.experts;
    f.etpTemplate = templ.parallel.etp;
    f.ffn = !M.isMoe() ? M.ffnHidden
        : M.moe.sharedExperts > 0 ? M.moe.sharedExperts * M.moe.sharedExpertFfnHidden
        : M.moe.denseLayers > 0 ? M.ffnHidden
        : templ.parallel.etp > 0 ? 0
                                 : M.moe.expertFfnHidden;
    f.seq = M.seqLength;
    f.globalBatch = templ.training.globalBatch;
    f.customSplit = customSplit(templ.parallel);
    f.firstSpIsOff = !space.sp.front();
    f.firstVpp = space.vpp.front();
    f.firstV = 0;
    for (int v : space.vpp)
        if (v == 1 || v == 2) {
            f.firstV = v;
            break;
        }
    f.has1f1b = std::find(space.schedule.begin(), space.schedule.end(), ScheduleKind::OneFOneB) != space.schedule.end();
    f.onePpSchedule = f.has1f1b ? ScheduleKind::OneFOneB : space.schedule.front();
    f.flashSelectiveIsNone = templ.training.flashAttention
        && std::find(space.recompute.begin(), space.recompute.end(), RecomputeChoice { Recompute::None, 0 }) != space.recompute.end();
    for (int mask : space.overlap)
        if (!(mask & kOverlapTpComm)) f.tpOverlapOffListed = true;

    return f;
}

struct EntryOrder {
    Objective objective;
    bool operator()(const SearchEntry& a, const SearchEntry& b) const
    {
        const double x = objectiveValue(objective, a), y = objectiveValue(objective, b);
        if (x != y) return x < y;
        if (a.stepSeconds != b.stepSeconds) return a.stepSeconds < b.stepSeconds;
        return a.index < b.index;
    }
};

// a dominates b: no worse in step time, peak memory and GPUs, and better in one; equal figures: the lower index.
bool dominates(const SearchEntry& a, const SearchEntry& b, bool withGpus)
{
    const int ga = withGpus ? a.candidate.gpus : 0, gb = withGpus ? b.candidate.gpus : 0;
    if (a.stepSeconds > b.stepSeconds || a.peakBytes > b.peakBytes || ga > gb) return false;
    if (a.stepSeconds < b.stepSeconds || a.peakBytes < b.peakBytes || ga < gb) return true;
    return a.index < b.index;
}

void addToFront(std::vector<SearchEntry>& front, const SearchEntry& e, bool withGpus)
{
    for (const SearchEntry& q : front)
        if (dominates(q, e, withGpus)) return;
    front.erase(std::remove_if(front.begin(), front.end(), [&](const SearchEntry& q) { return dominates(e, q, withGpus); }),
        front.end());
    front.push_back(e);
}

struct Sampled {
    std::uint64_t hash;
    SearchPoint point;
    bool operator<(const Sampled& o) const { return hash < o.hash || (hash == o.hash && point.index < o.point.index); }
};

struct Worker {
    Plan plan;
    std::uint8_t modules = 0; // plan.training.recomputeModules as a set
    EvaluateCache cache;
    double counts[kReasonCount] = {};
    std::map<std::string, double> other;
    double valid = 0, fit = 0, evaluated = 0, done = 0;
    double betterValid = 0, betterFit = 0;
    std::vector<SearchEntry> top;     // sorted, at most K
    std::vector<SearchEntry> front;
    std::priority_queue<Sampled> sample; // max-heap on the hash: the N smallest
    std::vector<SearchResult::PerGpus> byGpus;
};

SearchEntry entryOf(const Prediction& pr, const Candidate& c, std::int64_t index)
{
    SearchEntry e;
    e.index = index;
    e.candidate = c;
    e.stepSeconds = pr.stepSeconds;
    e.tokensPerSecond = pr.tokensPerSecond;
    e.mfu = pr.mfu;
    e.peakBytes = pr.peakBytes;
    e.capacityBytes = pr.capacityBytes;
    e.usableBytes = pr.usableBytes;
    e.gpuHoursPerToken = pr.tokensPerSecond > 0 ? double(c.gpus) / (3600.0 * pr.tokensPerSecond) : 0.0;
    e.trainingDays = pr.trainingDays;
    e.source = pr.timeSource;
    return e;
}

Text outOfMemoryText(const Prediction& pr)
{
    const StageMemory& st = pr.stages[std::size_t(pr.peakStage)];
    return Text(PS_TEXT("CoreText", "out of memory on stage %1 by %2 (%3 of %4)"), pr.peakStage,
        units::formatBytes(double(st.totalBytes - pr.capacityBytes)), units::formatBytes(double(st.totalBytes)),
        units::formatBytes(double(pr.capacityBytes)));
}

Text underHeadroomText(const Prediction& pr)
{
    return Text(PS_TEXT("CoreText", "stage %1 leaves %2 free, less than the %3 headroom"), pr.peakStage,
        units::formatBytes(double(pr.capacityBytes - pr.peakBytes)),
        units::formatBytes(double(pr.capacityBytes - pr.usableBytes)));
}

// The template as it is, judged as a plan of the space ("given": valid, fits, and why not).
SearchResult::Given judgeGiven(const SearchSpace& space)
{
    SearchResult::Given given;
    const Plan& templ = space.original;
    const Prediction pr = evaluate(templ);
    Candidate c;
    c.gpus = templ.cluster.gpus();
    c.tp = templ.parallel.tp;
    c.cp = templ.parallel.cp;
    c.ep = templ.parallel.ep;
    c.pp = templ.parallel.pp;
    c.dp = templ.parallel.dp;
    c.vpp = templ.parallel.vpp;
    c.zero = templ.parallel.zero;
    c.fsdp = templ.parallel.fsdp;
    c.sp = templ.parallel.sp;
    c.microBatch = templ.training.microBatch;
    c.recompute = choiceOf(templ.training);
    c.schedule = templ.training.schedule;
    c.overlap = overlapMask(templ.training);
    c.offload = templ.training.offload.optimizerFraction;
    given.valid = pr.valid;
    given.fits = pr.valid && pr.fitsWithHeadroom;
    given.entry = entryOf(pr, c, -1);
    if (!pr.valid)
        given.reason = pr.errors.empty()
            ? Text(PS_TEXT("CoreText", "invalid"))
            : Text(PS_TEXT("CoreText", "%1: %2"), pr.errors.front().path, issueText(pr.errors.front()));
    else if (!pr.fits) given.reason = outOfMemoryText(pr);
    else if (!pr.fitsWithHeadroom) given.reason = underHeadroomText(pr);
    return given;
}

// The context every worker of one search reads, and the phase each runs: candidates by index, each either turned
// away before evaluation (quickReject), invalid, out of memory, or kept in the worker's top K, front, sample and
// per-GPU-count rows.
struct Scan {
    const SearchSpace& space;
    const SearchOptions& options;
    const Facts facts;
    const std::vector<std::int64_t> radix;
    std::int64_t total = 1;
    int perNode = 1;
    bool withGpus = false;
    EntryOrder order;
    std::size_t K = 1;
    std::size_t samples = 0;
    bool rankGiven = false;
    double givenValue = 0;
    std::int64_t first = 0, last = 0; // the index range this scan covers
    std::atomic<std::int64_t> next { 0 };
    std::atomic<std::int64_t> doneAll { 0 };
    std::atomic<bool> stopped { false };
    std::mutex progressMutex;

    Scan(const SearchSpace& s, const SearchOptions& o, const SearchResult::Given& given, std::int64_t from, std::int64_t to)
        : space(s), options(o), facts(factsOf(s)), radix(s.radices()), order { o.objective }
    {
        for (std::int64_t r : radix) total *= std::max<std::int64_t>(1, r);
        first = std::clamp<std::int64_t>(from, 0, total);
        last = std::clamp<std::int64_t>(to, first, total);
        next = first;
        perNode = std::max(1, s.templ.cluster.gpusPerNode);
        withGpus = s.gpus.size() > 1;
        K = std::size_t(std::max(1, o.top));
        samples = std::size_t(std::max(0, o.samplePoints));
        rankGiven = given.valid;
        givenValue = objectiveValue(o.objective, given.entry);
    }
    bool cancelled() const { return options.cancel && options.cancel->load(std::memory_order_relaxed); }

    // One candidate, the plan at `index` whose knob digits are `digits`.
    void consider(Worker& w, std::int64_t index, const std::int64_t* digits)
    {
        const Facts& f = facts;
        const Objective objective = options.objective;
        Candidate c = fromDigits(space, digits);
        const int reason = quickReject(c, f, space);
        if (reason >= 0) {
            w.counts[reason] += 1;
            return;
        }
        writeCandidate(w.plan, c, perNode);
        if (c.recompute.modules != w.modules) {
            w.modules = c.recompute.modules;
            w.plan.training.recomputeModules = c.recompute.moduleNames();
        }
        w.evaluated += 1;
        const Prediction pr = evaluate(w.plan, w.cache);
        SearchResult::PerGpus& row = w.byGpus[std::size_t(digits[int(Knob::Gpus)])];
        if (!pr.valid) {
            w.other[Text(kInvalidAt, pr.errors.empty() ? std::string("plan") : pr.errors.front().path).english()] += 1;
            return;
        }
        w.valid += 1;
        row.valid += 1;
        if (c.split == SplitChoice::Balanced) c.layout = w.plan.parallel.layout;
        SearchEntry e = entryOf(pr, c, index);
        const double value = objectiveValue(objective, e);
        if (rankGiven && value < givenValue) w.betterValid += 1;
        if (!pr.fitsWithHeadroom) { // within capacity less the headroom, so within capacity too
            w.counts[pr.fits ? kUnderHeadroom : kOutOfMemory] += 1;
            return;
        }
        if (rankGiven && value < givenValue) w.betterFit += 1;
        w.fit += 1;
        row.fit += 1;
        if (!row.fastest || e.stepSeconds < row.fastest->stepSeconds
            || (e.stepSeconds == row.fastest->stepSeconds && e.index < row.fastest->index))
            row.fastest = e;
        if (w.top.size() < K || order(e, w.top.back())) {
            w.top.insert(std::upper_bound(w.top.begin(), w.top.end(), e, order), e);
            if (w.top.size() > K) w.top.pop_back();
        }
        addToFront(w.front, e, withGpus);
        if (samples > 0) {
            const Sampled sp { mix(std::uint64_t(index)), { index, e.stepSeconds, e.peakBytes } };
            if (w.sample.size() < samples) w.sample.push(sp);
            else if (sp < w.sample.top()) {
                w.sample.pop();
                w.sample.push(sp);
            }
        }
    }

    // Blocks of 4096 indexes taken in turn until the space or the time is out.
    void run(Worker& w)
    {
        using Clock = std::chrono::steady_clock;
        const std::int64_t block = 4096;
        auto lastReport = Clock::now();
        std::int64_t digits[kKnobCount];
        for (;;) {
            const std::int64_t begin = next.fetch_add(block);
            if (begin >= last || stopped.load(std::memory_order_relaxed)) break;
            if (cancelled()) {
                stopped = true;
                break;
            }
            const std::int64_t end = std::min(last, begin + block);
            digitsOf(radix, begin, digits);
            for (std::int64_t index = begin; index < end; ++index) {
                if (index != begin) {
                    for (int k = kKnobCount - 1; k >= 0; --k) {
                        if (++digits[k] < radix[std::size_t(k)]) break;
                        digits[k] = 0;
                    }
                }
                if (((index - begin) & 63) == 63 && cancelled()) {
                    stopped = true;
                    break;
                }
                consider(w, index, digits);
            }
            const std::int64_t did = end - begin;
            w.done += double(did);
            const std::int64_t all = doneAll.fetch_add(did) + did;
            if (options.progress && Clock::now() - lastReport > std::chrono::milliseconds(20)) {
                lastReport = Clock::now();
                std::lock_guard<std::mutex> lock(progressMutex);
                options.progress(double(std::min(all, last - first)), double(last - first));
            }
        }
    }
};

// One GPU count's row of a worker or shard added to the total: the counts, and the fastest (ties: the lower index).
void addRow(SearchResult::PerGpus& row, const SearchResult::PerGpus& part)
{
    row.valid += part.valid;
    row.fit += part.fit;
    if (part.fastest && (!row.fastest || part.fastest->stepSeconds < row.fastest->stepSeconds
                            || (part.fastest->stepSeconds == row.fastest->stepSeconds && part.fastest->index < row.fastest->index)))
        row.fastest = part.fastest;
}

// The workers' sums, top K, front and sample as one shard, each independent of which thread saw what.
SearchShard shardOf(const Scan& scan, std::vector<std::unique_ptr<Worker>>& workers)
{
    SearchShard shard;
    shard.first = scan.first;
    shard.last = scan.last;
    const SearchSpace& space = scan.space;
    for (std::size_t g = 0; g < space.gpus.size(); ++g) shard.byGpus.push_back({ space.gpus[g], 0, 0, std::nullopt });
    std::vector<Sampled> sampled;
    for (auto& wp : workers) {
        Worker& w = *wp;
        shard.valid += w.valid;
        shard.fit += w.fit;
        shard.evaluated += w.evaluated;
        shard.betterValid += w.betterValid;
        shard.betterFit += w.betterFit;
        for (int r = 0; r < kReasonCount; ++r)
            if (w.counts[r] > 0) shard.rejected[kReasonText[r].pattern] += w.counts[r];
        for (const auto& [k, v] : w.other) shard.rejected[k] += v;
        for (const SearchEntry& e : w.top) shard.top.push_back(e);
        for (const SearchEntry& e : w.front) addToFront(shard.front, e, scan.withGpus);
        while (!w.sample.empty()) {
            shard.sample.push_back(w.sample.top().point);
            w.sample.pop();
        }
        for (std::size_t g = 0; g < w.byGpus.size(); ++g) addRow(shard.byGpus[g], w.byGpus[g]);
        shard.cacheHits += w.cache.hits();
        shard.cacheMisses += w.cache.misses();
    }
    std::sort(shard.top.begin(), shard.top.end(), scan.order);
    if (shard.top.size() > scan.K) shard.top.resize(scan.K);
    shard.cancelled = scan.stopped.load();
    return shard;
}

// The shards' sums, then the top K, the front and the sample over them all, each independent of which shard (and
// thread) saw what: the one merge of every search.
void mergeShards(const SearchSpace& space, const SearchOptions& options, std::vector<SearchShard>& shards, SearchResult& result)
{
    const bool withGpus = space.gpus.size() > 1;
    const EntryOrder order { options.objective };
    const std::size_t K = std::size_t(std::max(1, options.top)), samples = std::size_t(std::max(0, options.samplePoints));
    std::vector<Sampled> sampled;
    for (std::size_t g = 0; g < space.gpus.size(); ++g) result.byGpus.push_back({ space.gpus[g], 0, 0, std::nullopt });
    double betterValid = 0, betterFit = 0;
    for (SearchShard& sh : shards) {
        result.valid += sh.valid;
        result.fit += sh.fit;
        result.evaluated += sh.evaluated;
        betterValid += sh.betterValid;
        betterFit += sh.betterFit;
        for (const auto& [k, v] : sh.rejected) result.rejected[k] += v;
        for (const SearchEntry& e : sh.top) result.best.push_back(e);
        for (const SearchEntry& e : sh.front) addToFront(result.pareto, e, withGpus);
        for (const SearchPoint& p : sh.sample) sampled.push_back(Sampled { mix(std::uint64_t(p.index)), p });
        for (std::size_t g = 0; g < sh.byGpus.size() && g < result.byGpus.size(); ++g) addRow(result.byGpus[g], sh.byGpus[g]);
        result.cacheHits += sh.cacheHits;
        result.cacheMisses += sh.cacheMisses;
        result.cancelled = result.cancelled || sh.cancelled;
        result.threads = std::max(result.threads, sh.threads);
    }
    std::sort(result.best.begin(), result.best.end(), order);
    if (result.best.size() > K) result.best.resize(K);
    std::sort(result.pareto.begin(), result.pareto.end(), [](const SearchEntry& a, const SearchEntry& b) {
        if (a.stepSeconds != b.stepSeconds) return a.stepSeconds < b.stepSeconds;
        if (a.peakBytes != b.peakBytes) return a.peakBytes < b.peakBytes;
        if (a.candidate.gpus != b.candidate.gpus) return a.candidate.gpus < b.candidate.gpus;
        return a.index < b.index;
    });
    std::sort(sampled.begin(), sampled.end());
    if (sampled.size() > samples) sampled.resize(samples);
    for (const Sampled& s : sampled) result.points.push_back(s.point);
    std::sort(result.points.begin(), result.points.end(),
        [](const SearchPoint& a, const SearchPoint& b) { return a.index < b.index; });
    result.given.rankAmongValid = result.given.valid ? betterValid + 1 : 0;
    result.given.rankAmongFit = result.given.fits ? betterFit + 1 : 0;
}

// The best re-ranked with the schedule simulation (the figures `evaluate` prints without --analytic).
void rerankBySimulation(const SearchSpace& space, const SearchOptions& options, const EntryOrder& order, SearchResult& result)
{
    const Plan& templ = space.templ;
    const int simulate = std::min<int>(options.simulateTop, int(result.best.size()));
    if (simulate > 0 && !result.cancelled) {
        AnalysisOptions ao;
        ao.simulate = true;
        for (int i = 0; i < simulate; ++i) {
            SearchEntry& e = result.best[std::size_t(i)];
            const auto a = analyse(applyCandidate(templ, e.candidate), ao);
            const Prediction& pr = a->prediction;
            SearchEntry s = entryOf(pr, e.candidate, e.index);
            e = s;
        }
        std::stable_sort(result.best.begin(), result.best.begin() + simulate, order);
    }
}

} // namespace

SearchShard searchShard(const SearchSpace& space, const SearchOptions& options, std::int64_t first, std::int64_t last)
{
    const auto start = std::chrono::steady_clock::now();
    const SearchResult::Given given = judgeGiven(space);
    Scan scan(space, options, given, first, last);
    const int threads = std::max(1, options.threads > 0 ? options.threads : int(std::thread::hardware_concurrency()));
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < threads; ++i) {
        auto w = std::make_unique<Worker>();
        w->plan = space.templ;
        w->modules = choiceOf(space.templ.training).modules;
        w->plan.training.recomputeModules = choiceOf(space.templ.training).moduleNames();
        for (int g : space.gpus) w->byGpus.push_back({ g, 0, 0, std::nullopt });
        workers.push_back(std::move(w));
    }
    if (threads == 1) {
        scan.run(*workers.front());
    } else {
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i) pool.emplace_back([&scan, &workers, i] { scan.run(*workers[std::size_t(i)]); });
        for (std::thread& t : pool) t.join();
    }
    SearchShard shard = shardOf(scan, workers);
    shard.threads = threads;
    if (options.progress) options.progress(double(scan.doneAll.load()), double(scan.last - scan.first));
    shard.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return shard;
}

SearchResult mergeSearchShards(const SearchSpace& space, const SearchOptions& options, std::vector<SearchShard> shards)
{
    SearchResult result;
    result.space = space;
    result.notes = space.notes;
    result.given = judgeGiven(space);
    double plans = 1;
    for (std::int64_t r : space.radices()) plans *= double(std::max<std::int64_t>(1, r));
    result.plans = plans;
    result.threads = 0;
    mergeShards(space, options, shards, result);
    result.threads = std::max(1, result.threads);
    // The simulated re-ranking of the best, then each listed plan against the published runs (search/Evidence.h).
    rerankBySimulation(space, options, EntryOrder { options.objective }, result);
    result.evidence = publishedEvidence(space.templ);
    auto mark = [&result](SearchEntry& e) {
        e.beyond = beyondEvidence(result.evidence, e.mfu, e.peakBytes, e.capacityBytes);
    };
    for (SearchEntry& e : result.best) mark(e);
    for (SearchEntry& e : result.pareto) mark(e);
    for (SearchResult::PerGpus& g : result.byGpus)
        if (g.fastest) mark(*g.fastest);
    if (result.given.valid) mark(result.given.entry);
    for (const SearchShard& sh : shards) result.seconds = std::max(result.seconds, sh.seconds);
    return result;
}

SearchResult search(const SearchSpace& space, const SearchOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<SearchShard> one;
    one.push_back(searchShard(space, options, 0, std::numeric_limits<std::int64_t>::max()));
    SearchResult result = mergeSearchShards(space, options, std::move(one));
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

const char* rejectionBeforeEvaluation(const SearchSpace& space, Candidate& c)
{
    const int r = quickReject(c, factsOf(space), space);
    return r >= 0 ? kReasonText[r].pattern : nullptr;
}

Text rejectionText(const std::string& key)
{
    for (const TextTemplate& t : kReasonText)
        if (key == t.pattern) return Text(t);
    const std::string invalid = Text(kInvalidAt, "").english();
    if (key.size() > invalid.size() && key.compare(0, invalid.size(), invalid) == 0)
        return Text(kInvalidAt, key.substr(invalid.size()));
    return Text::verbatim(key);
}

std::vector<TermDifference> compareTerms(const Prediction& a, const Prediction& b)
{
    auto byDifference = [](std::vector<TermDifference>& v) {
        std::stable_sort(v.begin(), v.end(), [](const TermDifference& x, const TermDifference& y) {
            return std::abs(x.mine - x.best) > std::abs(y.mine - y.best);
        });
    };
    // The step's terms (stepSeconds = compute + bubble + exposed communication + optimizer, docs/MODEL.md section 6).
    std::vector<TermDifference> step = {
        { "time.computeSeconds", Text(PS_TEXT("CoreText", "compute (m x the slowest rank's microbatch)")), false,
            a.computeSeconds, b.computeSeconds, "s" },
        { "time.bubbleSeconds", Text(PS_TEXT("CoreText", "pipeline bubble")), false, a.bubbleSeconds, b.bubbleSeconds, "s" },
        { "time.exposedCommSeconds", Text(PS_TEXT("CoreText", "exposed communication")), false, a.exposedCommSeconds,
            b.exposedCommSeconds, "s" },
        { "time.optimizerSeconds", Text(PS_TEXT("CoreText", "optimizer step")), false, a.optimizerSeconds,
            b.optimizerSeconds, "s" },
    };
    byDifference(step);
    // The exposed communication by group, under its line.
    std::vector<TermDifference> groups;
    auto exposedOf = [](const Prediction& p, GroupKind kind) {
        for (const CommGroup& g : p.comm)
            if (g.kind == kind) return g.exposedSeconds;
        return 0.0;
    };
    std::vector<GroupKind> kinds;
    for (const Prediction* p : { &a, &b })
        for (const CommGroup& g : p->comm)
            if (std::find(kinds.begin(), kinds.end(), g.kind) == kinds.end()) kinds.push_back(g.kind);
    for (GroupKind k : kinds)
        groups.push_back({ "comm." + std::string(toString(k)) + ".exposedSeconds",
            Text(PS_TEXT("CoreText", "of which %1"), toString(k)), true, exposedOf(a, k), exposedOf(b, k), "s" });
    byDifference(groups);
    std::vector<TermDifference> out;
    for (const TermDifference& t : step) {
        out.push_back(t);
        if (t.field == "time.exposedCommSeconds") out.insert(out.end(), groups.begin(), groups.end());
    }
    // The peak stage's memory by kind.
    auto peakOf = [](const Prediction& p) -> const StageMemory* {
        return p.stages.empty() ? nullptr : &p.stages[std::size_t(std::clamp(p.peakStage, 0, int(p.stages.size()) - 1))];
    };
    const StageMemory* sa = peakOf(a);
    const StageMemory* sb = peakOf(b);
    if (sa && sb) {
        std::vector<TermDifference> memory = {
            { "memory.peak.weightsBytes", Text(PS_TEXT("CoreText", "weights at the peak stage")), false,
                double(sa->weightsBytes), double(sb->weightsBytes), "B" },
            { "memory.peak.gradientsBytes", Text(PS_TEXT("CoreText", "gradients at the peak stage")), false,
                double(sa->gradientsBytes), double(sb->gradientsBytes), "B" },
            { "memory.peak.optimizerBytes", Text(PS_TEXT("CoreText", "optimizer state at the peak stage")), false,
                double(sa->optimizerBytes), double(sb->optimizerBytes), "B" },
            { "memory.peak.activationsBytes", Text(PS_TEXT("CoreText", "activations at the peak stage")), false,
                double(sa->activationsBytes), double(sb->activationsBytes), "B" },
            { "memory.peak.buffersBytes", Text(PS_TEXT("CoreText", "buffers at the peak stage")), false,
                double(sa->buffersBytes), double(sb->buffersBytes), "B" },
        };
        byDifference(memory);
        out.insert(out.end(), memory.begin(), memory.end());
    }
    return out;
}

Sizing sizeCluster(const SearchResult& r, double tokens, double days)
{
    Sizing s;
    s.tokens = tokens;
    s.days = days;
    double cheapestHours = 0;
    for (const SearchResult::PerGpus& g : r.byGpus) {
        SizingRow row;
        row.gpus = g.gpus;
        row.fit = g.fit;
        row.best = g.fastest;
        if (g.fastest && g.fastest->tokensPerSecond > 0) {
            const double seconds = tokens / g.fastest->tokensPerSecond;
            row.days = seconds / 86400.0;
            row.gpuHours = seconds * g.gpus / 3600.0;
        }
        s.rows.push_back(row);
        const int i = int(s.rows.size()) - 1;
        if (row.best && s.answer < 0 && days > 0 && row.days <= days) s.answer = i;
        if (row.best && s.smallest < 0) s.smallest = i;
        if (row.best && (s.cheapest < 0 || row.gpuHours < cheapestHours)) {
            s.cheapest = i;
            cheapestHours = row.gpuHours;
        }
    }
    return s;
}

std::vector<int> sizingGpuCounts(const Plan& plan)
{
    const int g = plan.cluster.gpus(), perNode = std::max(1, plan.cluster.gpusPerNode);
    std::vector<int> out;
    for (double f : { 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0 }) {
        const double n = g * f;
        if (n < 1 || n != std::floor(n) || n > double(1 << 22)) continue;
        const int c = int(n);
        if (c % perNode == 0 || perNode % c == 0) out.push_back(c);
    }
    return out;
}

SearchVerdict searchVerdict(const SearchSpace& space, const SearchResult& r, std::optional<double> days,
    std::optional<double> tokens)
{
    SearchVerdict v;
    if (!r.best.empty() && r.given.valid) {
        const Prediction mine = evaluate(space.original);
        const Prediction best = evaluate(applyCandidate(space.templ, r.best.front().candidate));
        v.whyNot = compareTerms(mine, best);
    }
    if (days) v.sizing = sizeCluster(r, tokens ? *tokens : space.original.training.tokens, *days);
    return v;
}

std::string balancedLayout(int layers, int stages, int mtp)
{
    stages = std::max(1, stages);
    const int base = layers / stages, extra = layers % stages;
    // The remainder goes to the stages after the first (which also holds the embedding) and before the last (the loss
    // and the output layer), from the middle outwards: the two ends carry the extra work. (extra < stages, so at most
    // the first stage, then the last, take what the middle ones cannot.)
    std::vector<int> n(std::size_t(stages), base);
    const int middle = std::max(0, stages - 2);
    for (int i = 0; i < extra; ++i) {
        if (i < middle) n[std::size_t(1 + (middle / 2 + (i % 2 ? -(i + 1) / 2 : i / 2) + middle) % middle)] += 1;
        else n[std::size_t(i == middle ? 0 : stages - 1)] += 1; // every middle stage has one: the first, then the last
    }
    // Runs of equal middle stages as Megatron-Core's (...)*N repetition, so that 84 stages stay one line.
    auto body = [&](int k) { return n[std::size_t(k)] > 0 ? "t*" + std::to_string(n[std::size_t(k)]) : std::string(); };
    const std::string tail = std::string(std::size_t(std::max(0, mtp)), 'm') + "L";
    if (stages == 1) return "E" + body(0) + tail;
    std::string out = "E" + body(0) + "|";
    for (int k = 1; k < stages - 1;) {
        int run = 1;
        while (k + run < stages - 1 && n[std::size_t(k + run)] == n[std::size_t(k)]) ++run;
        out += run > 1 ? "(" + body(k) + "|)*" + std::to_string(run) : body(k) + "|";
        k += run;
    }
    out += body(stages - 1) + tail;
    return out;
}

} // namespace planscope
