// evaluate(): the analytic cost model, in stages that each compute their numbers and, when an Explainer is
// passed, record how right beside the arithmetic, from the same local values. Every formula recorded is
// arithmetic over its own inputs (cost/Formula.h) and evaluates to the value it explains; prose goes in the
// note. Without an Explainer no string is built.
#include "Evaluate.h"

#include "evaluate/Stages.h"
#include "spec/Validate.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace planscope {

double inFlightMicrobatches(ScheduleKind kind, int p, std::int64_t m, int v, int r)
{
    const double md = double(m);
    switch (kind) {
    case ScheduleKind::GPipe:
    case ScheduleKind::LoopedBFS: return md; // every chunk holds all m microbatches
    case ScheduleKind::OneFOneB: return std::min(double(p - r), md);
    case ScheduleKind::Interleaved1F1B: {
        // With one chunk per rank Megatron runs the plain 1F1B schedule.
        if (v <= 1) return std::min(double(p - r), md);
        // Megatron's warm-up 2(p-r-1) + (v-1)p forwards plus the first steady forward, in chunk units.
        const double warm = 2.0 * (p - r - 1) + double(v - 1) * p + 1.0;
        return std::min(warm, md * v) / v;
    }
    case ScheduleKind::ZBH1: return std::min(double(p), md);
    case ScheduleKind::ZBH2: return std::min(2.0 * p - 1.0, md);
    case ScheduleKind::ZBV: return std::min(double(p), md);
    case ScheduleKind::DualPipe: return std::min(double(p + 1), md) / 2.0;     // P+1 chunks of half the rank
    case ScheduleKind::DualPipeV: return std::min(2.0 * p + 1.0, 2.0 * md) / 2.0; // 2P+1 chunks of half the rank
    }
    return md;
}

LayerActivations layerActivations(const Plan& plan) { return layerActivations(layerInputs(plan, rankLayout(plan))); }

LayerActivations layerActivations(const LayerInputs& in)
{
    const ModelSpec& M = in.model;
    const LayerParallel& P = in.parallel;
    const LayerTraining& T = in.training;
    LayerActivations a;
    const double e = T.precision == Precision::FP32 ? 4.0 : 2.0; // 16-bit activations
    // Transformer Engine saves the fp8 cast of each fp8 GEMM's input for the weight gradient (1 byte, plus one e8m0
    // scale per 32 elements under MXFP8) instead of the 16-bit tensor.
    const bool fp8 = T.precision == Precision::FP8;
    const double f8 = fp8 ? (T.fp8Recipe == Fp8Recipe::MxFp8 ? 1.0 + 1.0 / 32.0 : 1.0) : e;
    const double mask = M.dropout ? 1.0 : 0.0;                     // dropout masks: one byte per element
    const double h = double(M.hidden);
    const double heads = double(M.heads);
    const double kv = double(M.kvHeads > 0 ? M.kvHeads : M.heads);
    const double d = double(M.headDimension());
    const double s = double(M.seqLength) / P.cp;
    const double b = T.microBatch;
    const double t = P.tp;
    const double etp = std::max(1, P.expertTp());
    const double tokens = s * b;
    const double spDiv = P.sp ? t : 1.0;
    const double up = M.gatedMlp ? 2.0 : 1.0;
    std::vector<ActivationTerm>& terms = a.terms;
    // Per token bytes `perToken`, divided by `div` (t for tensors TP splits, the SP divisor for the norm region).
    auto add = [&](const char* name, const char* module, double perToken, double div, bool isFp8 = false) {
        terms.push_back({ name, module, tokens * perToken / div, false, isFp8 && fp8 });
    };
    double nonPar = 0, par = 0, rep = 0; // coefficients in s*b*h units (docs/MODEL.md section 3)
    auto nonParallel = [&](const char* name, const char* module, double perH, bool isFp8 = false) {
        add(name, module, perH * h, spDiv, isFp8);
        nonPar += perH;
    };
    auto parallel = [&](const char* name, const char* module, double perToken, double div, bool isFp8 = false) {
        add(name, module, perToken, div, isFp8);
        par += perToken / h * (t / div);
    };
    // Attention block (Korthikanti et al. 2023, section 4.1: 11sbh + 5as^2b for MHA with f = 4h).
    nonParallel("input_norm.input", "", e);
    nonParallel("qkv.input", "layernorm", f8, true);
    double vWidth = heads * d;
    if (M.mla.enabled()) {
        // MLA: the gathered latents (q and kv, their norms' inputs, the shared rope key) on every tp rank; Q, K, V after
        // the up projections split by tp (Megatron-Core recomputes the up projections under mla_up_proj).
        const MlaSpec& x = M.mla;
        const double latents = e * (2.0 * x.qLoraRank + 2.0 * x.kvLoraRank + x.qkRopeHeadDim);
        add("mla.latents", "", latents, 1.0);
        rep += latents / h;
        const double qk = double(x.qkNopeHeadDim + x.qkRopeHeadDim);
        parallel("q.k.v", "mla_up_proj", e * heads * (2.0 * qk + x.vHeadDim), t);
        vWidth = heads * x.vHeadDim;
    } else {
        parallel("q.k.v", "", e * (heads * d + 2.0 * kv * d), t);
    }
    const double scores = e + (M.dropout ? 1.0 + e : 0.0); // softmax output (+ dropout mask and output)
    double scoreBytes = 0;
    if (T.flashAttention) {
        scoreBytes = 4.0 * heads * s * b / t; // the fp32 log-sum-exp
        terms.push_back({ "attention.lse", "", scoreBytes, false, false });
    } else {
        scoreBytes = scores * heads * s * s * b / t;
        terms.push_back({ "attention.scores", "core_attn", scoreBytes, false, false });
    }
    parallel("proj.input", "", f8 * vWidth, t, true);
    nonParallel("attention.dropout_mask", "", mask);
    nonParallel("post_attn_norm.input", "", e);
    // MLP block (19sbh for f = 4h).
    if (M.isMoe()) {
        const MoeSpec& moe = M.moe;
        const double fe = double(moe.expertFfnHidden);
        const double k = double(moe.topK);
        // Token copies one GPU's experts hold: T*topK*etp/t after the expert-tp all-gather (balanced routing), times
        // the capacity factor when tokens are padded to capacity.
        const double cf = moe.capacityFactor > 0 ? moe.capacityFactor : 1.0;
        const double copies = k * cf * etp / t;
        nonParallel("moe.input", "layernorm", e);
        add("router.logits", "moe", 4.0 * moe.experts, spDiv);
        nonPar += 4.0 * moe.experts / h;
        add("experts.fc1.input", "moe", f8 * h * copies, 1.0, true);
        add("experts.fc1.output", "moe", e * up * fe / etp * copies, 1.0);
        add("experts.fc2.input", "moe_act", f8 * fe / etp * copies, 1.0, true);
        par += (f8 * h + e * up * fe / etp + f8 * fe / etp) * copies / h * t;
        if (moe.sharedExperts > 0) {
            const double fs = double(moe.sharedExperts) * double(moe.sharedExpertFfnHidden);
            parallel("shared.fc1.output", "shared_experts", e * up * fs, t);
            parallel("shared.fc2.input", "shared_experts", f8 * fs, t, true);
        }
    } else {
        const double f = double(M.ffnHidden);
        nonParallel("fc1.input", "layernorm", f8, true);
        parallel("fc1.output", "mlp", e * up * f, t);
        parallel("fc2.input", "mlp", f8 * f, t, true);
    }
    nonParallel("mlp.dropout_mask", "", mask);
    a.nonParallelCoeff = nonPar;
    a.parallelCoeff = par;
    a.replicatedCoeff = rep;
    a.scoresCoeff = T.flashAttention ? 0.0 : scores;
    a.scoresFullCoeff = a.scoresCoeff;
    a.input = e * tokens * h / spDiv;
    for (const ActivationTerm& term : terms) a.full += term.bytes;

    // Selective recompute: the modules Megatron-Core re-runs in backward (--recompute-modules; core_attn alone is
    // Korthikanti et al.'s selective recompute). "moe" re-runs the whole MoE layer, shared experts included.
    std::vector<std::string> modules = T.recomputeModules;
    if (modules.empty()) modules.push_back("core_attn");
    auto dropped = [&](const std::string& module) {
        if (module.empty()) return false;
        for (const std::string& m : modules)
            if (m == module || (m == "moe" && (module == "moe_act" || module == "shared_experts"))) return true;
        return false;
    };
    switch (T.recompute) {
    case Recompute::None: a.stored = a.full; break;
    case Recompute::Selective:
        for (ActivationTerm& term : terms) {
            term.recomputed = dropped(term.module);
            if (!term.recomputed) a.stored += term.bytes;
        }
        if (dropped("core_attn")) a.scoresCoeff = 0.0;
        break;
    case Recompute::Full: a.stored = a.input; break; // only the layer input is checkpointed
    }
    return a;
}

namespace {

using namespace evaluation;

Prediction evaluateWith(const Plan& plan, Explainer* ex, EvaluateCache* cache)
{
    Prediction out;
    for (Issue& i : validate(plan))
        (i.severity == Severity::Error ? out.errors : out.warnings).push_back(std::move(i));
    if (!out.errors.empty()) return out;
    out.valid = true;

    Inputs in(plan, cache);
    out.microbatches = in.m;
    parameterStage(in, out, ex);
    const LayerTimes lt = computeStage(in, out, ex);

    // Per pipeline stage: memory, then the time of one microbatch.
    const int p = in.p;
    out.capacityBytes = plan.cluster.gpu.memoryBytes;
    out.stages.resize(std::size_t(p));
    out.stageTimes.resize(std::size_t(p));
    out.paramsPerStage.resize(std::size_t(p));
    const RankLayout& layout = in.layout;
    int groupsOfRank = 0;
    for (const GroupPlacement* gp : { &layout.dpCp, &layout.tp, &layout.pp, &layout.cp })
        if (gp->size > 1) ++groupsOfRank;
    if (in.M.isMoe() && in.ep > 1) ++groupsOfRank;
    if (in.M.isMoe() && in.nExpert > 1 && in.nExpert != in.dpcp) ++groupsOfRank;
    for (int r = 0; r < p; ++r) {
        memoryStage(in, r, groupsOfRank, out, ex);
        timeStage(in, lt, r, out, ex);
    }
    memorySummary(in, out, ex);
    flopsStage(in, out, ex);
    const StepTerms step = stepStage(in, out, ex);
    commStage(in, lt, step, out, ex);

    out.warnings.push_back(issue(Severity::Warning, "",
        Text(PS_TEXT("CoreText", "not modelled: stragglers, data loading, the embedding lookup, the tied-embedding "
                                 "gradient all-reduce between the first and last stage, the memory-bandwidth share "
                                 "communication kernels take from the GEMMs beside them (their SMs are counted)"))));
    // One line per distinct warning (the first and last stage can raise the same one): the same field and English.
    Issues unique;
    for (auto& w : out.warnings)
        if (std::none_of(unique.begin(), unique.end(),
                [&](const Issue& u) { return u.path == w.path && u.message == w.message; }))
            unique.push_back(std::move(w));
    out.warnings = std::move(unique);
    return out;
}

} // namespace

Prediction evaluate(const Plan& plan, Explainer* ex) { return evaluateWith(plan, ex, nullptr); }

Prediction evaluate(const Plan& plan, EvaluateCache& cache) { return evaluateWith(plan, nullptr, &cache); }

// ---------------------------------------------------------------------------------------------- the cache

struct EvaluateCache::Slot {
    LayerInputs key;
    std::unique_ptr<Entry> entry;
};

EvaluateCache::EvaluateCache(std::size_t entries) : slots_(std::max<std::size_t>(1, entries)) {}
EvaluateCache::~EvaluateCache() = default;

const EvaluateCache::Entry& EvaluateCache::lookup(const LayerInputs& inputs)
{
    // Most recent first: the planner varies the layer's fields in its outer loops.
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        Slot& s = slots_[(next_ + slots_.size() - 1 - i) % slots_.size()];
        if (s.entry && s.key == inputs) {
            ++hits_;
            return *s.entry;
        }
    }
    ++misses_;
    Slot& s = slots_[next_];
    next_ = (next_ + 1) % slots_.size();
    if (!s.entry) s.entry = std::make_unique<Entry>();
    s.key = inputs;
    computeEntry(s.key, *s.entry);
    return *s.entry;
}

BubbleFormulas bubbleFormulas(ScheduleKind kind)
{
    switch (kind) {
    case ScheduleKind::GPipe:
    case ScheduleKind::OneFOneB: return { "(p-1)/(m+p-1)", "(p-1)/m", true };
    case ScheduleKind::Interleaved1F1B:
    case ScheduleKind::LoopedBFS: return { "(p-1)/(v*m+p-1)", "(p-1)/(v*m)", true };
    default: return { "bubble/(m*slot+bubble)", "bubble/(m*slot)", false };
    }
}

} // namespace planscope

