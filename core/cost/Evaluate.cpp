// evaluate(): the analytic cost model, in stages that each compute their numbers and, when an Explainer is
// passed, record how right beside the arithmetic, from the same local values. Every formula recorded is
// arithmetic over its own inputs (cost/Formula.h) and evaluates to the value it explains; prose goes in the
// note. Without an Explainer no string is built.
#include "Evaluate.h"

#include "spec/ScheduleTraits.h"
#include "Collective.h"
#include "Formula.h"
#include "Kernels.h"
#include "Operators.h"
#include "Parameters.h"
#include "RankLayout.h"
#include "Runtime.h"
#include "spec/Validate.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace planscope {

namespace {

// ---------------------------------------------------------------------------------------------- helpers

const char* algorithmName(const GroupPlacement& placed)
{
    const GroupPlacement g = placed.fabric();
    if (!g.crossesNodes) return "ring (intra-node)";
    return g.perNode > 1 ? "hierarchical (intra ring + inter-node ring)" : "ring (inter-node)";
}

double slowestLink(const GroupPlacement& g, const ClusterSpec& cl)
{
    return g.crossesDomains ? cl.interNode.bandwidth : cl.intraNode.bandwidth;
}

// A formula and the inputs it names.
struct Term {
    std::string formula;
    FormulaInputs inputs;
};

// One flat ring (ringSeconds in Collective.cpp): latency steps * alpha + bytes on the wire / bandwidth, or the wire
// time over the link's measured bandwidth share q at this size where that is slower; over names n (ranks), S (bytes),
// alpha, bw and q (empty: no size curve).
std::string ringFormula(Collective c, const std::string& n, const std::string& S, const std::string& alpha,
    const std::string& bw, const std::string& q = "")
{
    std::string steps, wire;
    switch (c) {
    case Collective::AllReduce:
        steps = "2*(" + n + "-1)*" + alpha;
        wire = "2*(" + n + "-1)/" + n + "*" + S + "/" + bw;
        break;
    case Collective::SendRecv:
        steps = alpha;
        wire = S + "/" + bw;
        break;
    case Collective::Broadcast:
    case Collective::Reduce:
        steps = "(" + n + "-1)*" + alpha;
        wire = S + "/" + bw;
        break;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
        steps = "(" + n + "-1)*" + alpha;
        wire = "(" + n + "-1)/" + n + "*" + S + "/" + bw;
        break;
    }
    if (q.empty()) return steps + " + " + wire;
    return "max(" + steps + " + " + wire + ", " + wire + "/" + q + ")";
}

// The size-share name of a link for a buffer of `bytes` and its input, or nothing where the link is flat.
std::string shareName(const LinkSpec& link, double bytes, const std::string& name, FormulaInputs& in)
{
    if (link.busBandwidthCurve.empty()) return "";
    in.emplace_back(name, sizeShare(bytes, link));
    return name;
}

// groupSeconds() written out: the alpha-beta terms of one collective on a group (Thakur et al.), its input
// names suffixed with `tag` so that two collectives can share one formula.
Term collectiveTerm(Collective c, const GroupPlacement& placed, double bytes, const ClusterSpec& cl, const std::string& tag = "")
{
    const GroupPlacement g = placed.fabric();
    if (g.size <= 1 || bytes <= 0) return { "0", {} };
    const std::string n = "n" + tag, S = "S" + tag;
    const int nodes = g.crossesNodes && g.perNode > 1 ? (g.size + g.perNode - 1) / g.perNode : 1;
    if (!g.crossesNodes || g.perNode <= 1 || nodes <= 1) {
        const LinkSpec& link = g.crossesNodes && g.perNode <= 1 ? cl.interNode : cl.intraNode;
        const std::string a = "alpha" + tag, bw = "bw" + tag;
        FormulaInputs in { { n, double(g.size) }, { S, bytes }, { a, link.latency }, { bw, collectiveBandwidth(c, link) } };
        const std::string q = shareName(link, bytes, "q" + tag, in);
        return { ringFormula(c, n, S, a, bw, q), in };
    }
    const std::string gp = "g" + tag, k = "k" + tag, aI = "alphaIntra" + tag, bI = "bwIntra" + tag,
                      aX = "alphaInter" + tag, bX = "bwInter" + tag;
    // The intra-node phases of a hierarchical all-reduce are a reduce-scatter and an all-gather.
    const Collective intraOp = c == Collective::AllReduce ? Collective::ReduceScatter : c;
    FormulaInputs in { { n, double(g.size) }, { gp, double(g.perNode) }, { k, double(nodes) }, { S, bytes },
        { aI, cl.intraNode.latency }, { bI, collectiveBandwidth(intraOp, cl.intraNode) }, { aX, cl.interNode.latency },
        { bX, collectiveBandwidth(c, cl.interNode) } };
    const std::string sI = shareName(cl.intraNode, bytes, "qIntra" + tag, in),
                      sX = shareName(cl.interNode, bytes, "qInter" + tag, in);
    const std::string shard = S + "/" + gp;
    switch (c) {
    case Collective::AllReduce:
        return { "max(" + ringFormula(Collective::ReduceScatter, gp, S, aI, bI, sI) + " + "
                + ringFormula(Collective::AllGather, gp, S, aI, bI, sI) + ", "
                + ringFormula(Collective::AllReduce, k, shard, aX, bX, sX) + ")",
            in };
    case Collective::ReduceScatter:
        return { "max(" + ringFormula(c, gp, S, aI, bI, sI) + ", " + ringFormula(c, k, shard, aX, bX, sX) + ")", in };
    case Collective::AllGather:
        return { "max(" + ringFormula(c, k, shard, aX, bX, sX) + ", " + ringFormula(c, gp, S, aI, bI, sI) + ")", in };
    case Collective::AllToAll: {
        const std::string remote = S + "*(" + n + "-" + gp + ")/" + n + "/" + bX;
        const std::string local = S + "*(" + gp + "-1)/" + n + "/" + bI;
        const std::string remoteTerm = "(" + n + "-1)*" + aX + " + " + remote;
        return { "max(" + remoteTerm + (sX.empty() ? "" : ", " + remote + "/" + sX) + ", " + local
                + (sI.empty() ? "" : "/" + sI) + ")",
            in };
    }
    default: return { ringFormula(c, n, S, aX, bX, sX), in };
    }
}

// "a + b" of two terms, dropping a zero term.
Term sumTerms(Term a, Term b)
{
    if (b.formula == "0") return a;
    if (a.formula == "0") return b;
    a.formula += " + " + b.formula;
    a.inputs.insert(a.inputs.end(), b.inputs.begin(), b.inputs.end());
    return a;
}

std::string linkNote(const GroupPlacement& g)
{
    return std::string(algorithmName(g))
        + (g.crossesDomains ? (g.domainsSpanned < g.nodesSpanned ? ", the group crosses NVLink domains" : ", the group crosses nodes")
                            : (g.crossesNodes ? ", inside one NVLink domain" : ", inside one node"))
        + ". alpha: seconds per step; bw: bytes/s per GPU per direction times the link's efficiency (the all-reduce's or "
          "all-to-all's own where the link has one); q: the share of that bus bandwidth the link's published curve gives a "
          "buffer of S bytes; hierarchical: g GPUs of the group per node, k = ceil(n/g) nodes, the NVLink and NIC phases "
          "pipelined (the slower sets the time).";
}

} // namespace

// What EvaluateCache keeps per key: the operator lists and the activations of a layer (see Evaluate.h).
struct EvaluateCache::Entry {
    OperatorList ops;      // one layer (an MoE layer of an MoE model) and the output layer
    OperatorList denseOps; // an MoE model's dense-MLP layers (empty otherwise)
    LayerActivations act;
    LayerActivations actDense;
};

namespace {

// The entry of these inputs, from them alone.
void computeEntry(const LayerInputs& in, EvaluateCache::Entry& e)
{
    e.ops = operatorList(in);
    e.act = layerActivations(in);
    if (in.model.isMoe()) {
        const LayerInputs dense = denseLayerInputs(in);
        e.actDense = layerActivations(dense);
        if (in.model.moe.denseLayers > 0) e.denseOps = operatorList(dense);
        else e.denseOps = {};
    } else {
        e.actDense = e.act;
        e.denseOps = {};
    }
}

// Everything the stages share: the plan's sizes, the per-parameter byte counts and the GPU's rates.
struct Inputs {
    const Plan& plan;
    const ModelSpec& M;
    const ParallelSpec& P;
    const TrainingSpec& T;
    const ClusterSpec& C;
    int p, t, cp, ep, v;
    std::int64_t m;
    double b, s, sl, h, L, V, kvRatio;
    ParameterCounts pc;
    std::vector<VirtualStage> stages;
    std::vector<RankShape> shapes;
    RankLayout layout;
    std::unique_ptr<EvaluateCache::Entry> own; // without a cache
    const EvaluateCache::Entry& layer;
    const LayerActivations& act;      // an MoE layer of an MoE model, else the dense layer
    const LayerActivations& actDense; // a layer with the dense MLP
    int etp = 1;
    double attnWidth = 0;      // a*(d_qk + d_v)/2: the attention's FLOPs per token and key as Megatron's h (= h for MHA)
    double layerDenseGpu = 0, layerExpertGpu = 0; // one layer's parameters on one GPU (the non-expert and expert parts)
    double denseLayerGpu = 0;                      // one dense-MLP layer's parameters on one GPU
    double mtpDenseGpu = 0, mtpExpertGpu = 0;      // one MTP module's
    double layerF8Gpu = 0, denseF8Gpu = 0, mtpF8Gpu = 0; // of them, the weights of GEMMs that run in fp8
    double fp8Cache = 0;       // bytes per fp8 GEMM weight of Transformer Engine's fp8 copies (0 unless fp8)
    double pcie = 0, hostBandwidth = 0; // host link bytes/s per direction and host memory bytes/s per GPU (offload)
    double moment = 4;         // bytes per Adam moment (optimizerStateDtype)
    double w = 0, g = 0, master = 0, o = 0;        // bytes per weight, gradient, optimizer state
    int dpcp = 1, nShard = 1, nExpert = 1;
    double peak = 0, eff = 0, rate = 0, hbm = 0, e = 0;

    Inputs(const Plan& pl, EvaluateCache* cache)
        : plan(pl), M(pl.model), P(pl.parallel), T(pl.training), C(pl.cluster), p(P.pp), t(P.tp), cp(P.cp), ep(P.ep),
          v(pl.chunksPerRank()), m(pl.microbatches()), b(T.microBatch), s(double(M.seqLength)), sl(s / cp),
          h(double(M.hidden)), L(M.layers), V(double(M.vocab)), kvRatio(double(M.kvHeads) / M.heads),
          pc(countParameters(M)), stages(virtualStages(pl)), shapes(rankShapes(pl, stages)), layout(rankLayout(pl)),
          own(cache ? nullptr : std::make_unique<EvaluateCache::Entry>()),
          layer(cache ? cache->lookup(layerInputs(pl, layout)) : (computeEntry(layerInputs(pl, layout), *own), *own)),
          act(layer.act),
          actDense(layer.actDense), etp(std::max(1, P.expertTp()))
    {
        const double a = double(std::max(1, M.heads));
        attnWidth = M.mla.enabled() ? a * (M.mla.qkNopeHeadDim + M.mla.qkRopeHeadDim + M.mla.vHeadDim) / 2.0
                                    : a * double(M.headDimension());
    }
};

// The host link of a GPU, per direction: PCIe 5.0 x16 (32 GT/s, 128b/130b: 63 GB/s) on H100/H200/B200/MI300X, PCIe 4.0
// x16 (31.5 GB/s) on A100, PCIe 3.0 x16 (15.75 GB/s) on V100 (PCI-SIG base specifications; NVIDIA and AMD datasheets).
double defaultPcieBandwidth(const GpuSpec& gpu)
{
    const std::string& id = gpu.id;
    auto has = [&](const char* s) { return id.find(s) != std::string::npos; };
    if (has("h100") || has("h200") || has("b200") || has("b300") || has("mi300") || has("gh200")) return 63.0e9;
    if (has("v100")) return 15.75e9;
    return 31.5e9;
}
// Host memory bandwidth one GPU's offloaded optimizer gets: one socket's 8 channels of DDR5-4800 (8 bytes x 4.8e9
// transfers x 8 = 307.2 GB/s, JEDEC JESD79-5) shared by the 4 GPUs of a 2-socket, 8-GPU node. An assumption, editable as
// training.offload.hostBandwidth.
constexpr double kDefaultHostBandwidth = 307.2e9 / 4.0;

// Steps of amax history delayed scaling keeps (NeMo and Megatron-Bridge fp8 recipes: fp8_amax_history_len 1024).
constexpr double kAmaxHistory = 1024;

FormulaInputs with(FormulaInputs a, const FormulaInputs& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Calls f on each virtual stage pipeline rank r holds, in forward order (DualPipe: its own stage and the mirrored
// one). Chunk c of rank r is stage r + c*p in loop placement; V placement and layouts follow virtualStages, so the
// stages are walked in steps of p from r's first (every rank holds exactly one stage of each group of p).
template<typename F>
void forEachRankStage(const Inputs& in, int r, F&& f)
{
    if (traits(in.T.schedule).bidirectional) {
        f(in.stages[std::size_t(r)]);
        f(in.stages[std::size_t(in.p - 1 - r)]);
        return;
    }
    for (std::size_t base = 0; base < in.stages.size(); base += std::size_t(std::max(1, in.p)))
        for (std::size_t k = base; k < std::min(in.stages.size(), base + std::size_t(std::max(1, in.p))); ++k)
            if (in.stages[k].rank == r) {
                f(in.stages[k]);
                break;
            }
}

// Dense and expert parameters one GPU of pipeline rank r holds (after tp and ep, before ZeRO).
struct StageParams {
    double dense = 0, expert = 0;
    double outMatrix = 0; // the output projection this rank keeps
};

StageParams stageParams(const Inputs& in, int r)
{
    const RankShape& sh = in.shapes[std::size_t(r)];
    StageParams sp;
    // The output projection this rank keeps: its own (untied), a copy of the embedding (tied, embedding elsewhere),
    // or nothing (tied, embedding on this rank).
    sp.outMatrix = in.M.tiedEmbeddings ? (sh.embedding ? 0.0 : in.pc.embedding) : in.pc.outputLayer;
    const int moeLayers = sh.layersHeld - sh.denseLayersHeld;
    sp.dense = moeLayers * in.layerDenseGpu + sh.denseLayersHeld * in.denseLayerGpu + sh.mtpHeld * in.mtpDenseGpu;
    if (sh.embedding) sp.dense += in.pc.embedding / in.t + in.pc.positions + in.pc.embeddingNorm;
    if (sh.output) sp.dense += sp.outMatrix / in.t + in.pc.finalNorm;
    sp.expert = moeLayers * in.layerExpertGpu + sh.mtpHeld * in.mtpExpertGpu;
    return sp;
}

} // namespace
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

// ---------------------------------------------------------------------------------------------- parameters

void parameterStage(Inputs& in, Prediction& out, Explainer* ex)
{
    const ParameterCounts& pc = in.pc;
    out.paramsTotal = pc.total;
    out.paramsActive = pc.active;
    if (ex) {
        const LayerParameters& l = pc.layer;
        const LayerParameters& d = pc.denseLayer;
        ex->add({ "params.total", pc.total, "parameters",
            "moeLayers*(attn + attnRep + shared + colBiases + rowBiases + norms + router + experts) + denseLayers*dense "
            "+ mtp*mtpModule + embedding + positions + embeddingNorm + outputLayer + finalNorm",
            { { "moeLayers", double(pc.moeLayers) }, { "attn", l.attentionMatrices }, { "attnRep", l.attentionReplicated },
                { "shared", l.mlpMatrices }, { "colBiases", l.columnBiases }, { "rowBiases", l.rowBiases },
                { "norms", l.norms }, { "router", l.router }, { "experts", l.routedExperts },
                { "denseLayers", double(pc.denseLayers) }, { "dense", d.total() }, { "mtp", double(in.M.mtpLayers) },
                { "mtpModule", pc.mtpModule }, { "embedding", pc.embedding }, { "positions", pc.positions },
                { "embeddingNorm", pc.embeddingNorm }, { "outputLayer", pc.outputLayer }, { "finalNorm", pc.finalNorm } },
            sources::kMegatronParams, {},
            std::string(in.M.mla.enabled()
                    ? "attn = q_up + kv_up + O = q*a*(dn + dr) + kv*a*(dn + dv) + a*dv*h and attnRep = the down projections "
                      "h*q + h*(kv + dr) and their latent norms (MLA, DeepSeek-V2 section 2.1; q = qLoraRank, kv = "
                      "kvLoraRank, dn/dr = qk nope/rope head dims, dv = v head dim); "
                    : "attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V)"
                        + std::string(in.M.qkNorm ? ", attnRep = 2*d (the per-head q/k norms)" : "") + "; ")
                + "a dense layer's MLP is " + (in.M.gatedMlp ? "3" : "2") + "*h*f; an MoE layer holds E routed experts of "
                + (in.M.gatedMlp ? "3" : "2") + "*h*f_e each (sharded by ep x etp), shared experts as a dense MLP, the "
                  "router h*E; an MTP module is two norms, the 2h x h projection, one layer and a norm (DeepSeek-V3 "
                  "section 2.2; embedding and output head shared). embedding = V*h; outputLayer = V*h when untied. "
                  "Megatron's GPT form N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) is the case f = 4h, LayerNorm with "
                  "biases, learned positions, tied embeddings (plus the final norm, 2h)."
                + (in.M.isMoe() ? " Active per token: " + units::formatCount(pc.active) + " (with the embedding)." : std::string()) });
    }
    // Per GPU: tp splits the column/row matrices and biases; MLA's down projections, norms and the router are
    // replicated; routed experts are split by ep x etp.
    auto nonExpertGpu = [&](const LayerParameters& l) {
        return (l.attentionMatrices + l.mlpMatrices + l.columnBiases) / in.t + l.attentionReplicated + l.rowBiases + l.norms
            + l.router;
    };
    in.layerDenseGpu = nonExpertGpu(pc.layer);
    in.denseLayerGpu = nonExpertGpu(pc.denseLayer);
    in.layerExpertGpu = pc.layer.routedExperts / (double(in.ep) * in.etp);
    const bool mtpMoe = in.M.isMoe() && pc.moeLayers > 0;
    const double normParams = in.M.norm == NormKind::LayerNorm ? 2.0 * in.h : in.h;
    in.mtpDenseGpu = 3.0 * normParams + 2.0 * in.h * in.h / in.t + (mtpMoe ? in.layerDenseGpu : in.denseLayerGpu);
    in.mtpExpertGpu = mtpMoe ? in.layerExpertGpu : 0.0;
    // Transformer Engine runs the layers' linear layers in fp8 (attention projections, MLP, experts); the embedding,
    // the output layer, the router and the norms stay in bf16.
    auto fp8Gpu = [&](const LayerParameters& l) {
        return (l.attentionMatrices + l.mlpMatrices) / in.t + l.attentionReplicated + l.routedExperts / (double(in.ep) * in.etp);
    };
    in.layerF8Gpu = fp8Gpu(pc.layer);
    in.denseF8Gpu = fp8Gpu(pc.denseLayer);
    in.mtpF8Gpu = 2.0 * in.h * in.h / in.t + (mtpMoe ? in.layerF8Gpu : in.denseF8Gpu);

    // Bytes per parameter and the ZeRO shard counts.
    const TrainingSpec& T = in.T;
    in.w = T.precision == Precision::FP32 ? 4.0 : 2.0; // fp8 training keeps bf16 weights (unless fp8ParamGather)
    in.g = bytesPerElement(T.gradDtype);
    in.master = in.w < 4.0 ? 4.0 : 0.0;
    in.moment = bytesPerElement(T.optimizerStateDtype);
    in.o = in.master + (T.optimizer == Optimizer::Adam ? 2.0 : 1.0) * in.moment; // Muon: master + momentum (+ Adam's second moment on its Adam share)
    if (T.precision == Precision::FP8) {
        // Transformer Engine keeps, for every fp8 GEMM weight, its fp8 cast for the forward and a transposed fp8 copy
        // for the backward's dgrad (Hopper's fp8 tensor cores take only the TN layout); with fp8ParamGather the
        // parameter itself is the forward copy. MXFP8 keeps rowwise and columnwise copies with one e8m0 scale per 32
        // elements (Transformer Engine user guide, "FP8 and MXFP8"; NVIDIA Transformer Engine docs).
        const double copy = T.fp8Recipe == Fp8Recipe::MxFp8 ? 1.0 + 1.0 / 32.0 : 1.0;
        in.fp8Cache = (T.fp8ParamGather ? 1.0 : 2.0) * copy;
    }
    in.pcie = T.offload.pcieBandwidth > 0 ? T.offload.pcieBandwidth : defaultPcieBandwidth(in.C.gpu);
    in.hostBandwidth = T.offload.hostBandwidth > 0 ? T.offload.hostBandwidth : kDefaultHostBandwidth;
    in.dpcp = in.P.dp * in.cp;
    in.nShard = in.dpcp;
    if (in.P.fsdp == Fsdp::Hybrid) in.nShard = std::max(1, std::min(in.dpcp, in.layout.dpCp.perNode));
    // The expert data-parallel group: the ranks holding the same experts, tp*dp*cp/(etp*ep) (Megatron-Core's
    // expert_data_parallel group); with etp = tp it is dp*cp/ep.
    in.nExpert = std::max(1, int((1LL * in.t * in.dpcp) / std::max(1LL, 1LL * in.etp * std::max(1, in.ep))));
}

// ---------------------------------------------------------------------------------------------- compute time

// One transformer layer (and the output layer) for one microbatch on one GPU: the sums of the operator list
// (Operators.h), each op the slower of its compute and memory plus a launch, collectives exposed unless overlapped.
struct LayerTimes {
    const OperatorList& ops;         // with its per-pass totals (layerTotals, outputTotals)
    const OperatorList& denseOps;    // an MoE model's dense-MLP layers (empty otherwise)
    double ppBytes = 0, p2p = 0;
    const LinkSpec* ppLink = nullptr;
};

// time.layer.*: one pass of one layer as the sum of its ops by kind, with each op listed in the note.
void explainLayer(Explainer& ex, const OperatorList& ops)
{
    struct Pass {
        const char* field;
        std::vector<KernelPass> passes;
        const char* what;
    };
    const Pass passes[] = {
        { "time.layer.forwardSeconds", { KernelPass::Forward }, "The forward of one layer for one microbatch on one GPU." },
        { "time.layer.backwardSeconds", { KernelPass::Recompute, KernelPass::BackwardInput, KernelPass::BackwardWeight },
            "The backward of one layer: recomputed forward ops, input gradients, weight gradients." },
        { "time.layer.weightGradSeconds", { KernelPass::BackwardWeight }, "The weight-gradient GEMMs of one layer." },
    };
    for (const Pass& pass : passes) {
        double gemm = 0, attention = 0, memory = 0, comm = 0, host = 0, cpu = 0;
        std::string list;
        for (const KernelOp& op : ops.layer) {
            if (std::find(pass.passes.begin(), pass.passes.end(), op.pass) == pass.passes.end()) continue;
            host += op.hostWaitSeconds;
            cpu += op.hostSeconds;
            switch (op.kind) {
            case KernelKind::Gemm: gemm += op.exposedSeconds; break;
            case KernelKind::Attention: attention += op.exposedSeconds; break;
            case KernelKind::Memory: memory += op.exposedSeconds; break;
            case KernelKind::Collective: comm += op.exposedSeconds; break;
            }
            list += std::string(list.empty() ? "" : "; ") + (op.pass == KernelPass::Recompute ? "recompute " : "") + op.name + " "
                + units::formatSeconds(op.exposedSeconds) + " (" + std::string(toString(op.bound))
                + (op.efficiency > 0 ? ", " + units::formatNumber(std::round(op.efficiency * 1000) / 10) + "% of peak" : "") + ")";
        }
        ex.add({ pass.field, gemm + attention + memory + comm + host, "seconds", "gemm + attention + memory + comm + host",
            { { "gemm", gemm }, { "attention", attention }, { "memory", memory }, { "comm", comm }, { "host", host } },
            "docs/MODEL.md section 7; NVIDIA Matrix Multiplication Background User's Guide (GEMM waves); docs/HARDWARE.md",
            {},
            std::string(pass.what) + " Each op takes the slower of its FLOPs at the shape's achievable rate and its bytes "
                "at the achievable HBM bandwidth, plus a launch; comm counts only what overlap leaves exposed; host is the "
                "GPU's wait for the CPU to issue the next kernel (the CPU spends " + units::formatSeconds(cpu)
                + " issuing this pass; docs/MODEL.md section 7.4). Ops: " + list + "." });
    }
}

LayerTimes computeStage(Inputs& in, Prediction& out, Explainer* ex)
{
    const TrainingSpec& T = in.T;
    const GpuSpec& gpu = in.C.gpu;
    in.peak = gpu.peakFlops.forPrecision(T.precision);
    in.eff = T.precision == Precision::FP8 && gpu.gemmEfficiencyFp8 > 0 ? gpu.gemmEfficiencyFp8 : gpu.gemmEfficiency;
    if (in.eff <= 0) {
        in.eff = 0.75;
        out.warnings.push_back(issue(Severity::Warning, "cluster.gpu.gemmEfficiency",
            Text(PS_TEXT("CoreText", "no measured GEMM efficiency for \"%1\"; assuming 0.75 (run planscope-profile to "
                                     "measure it)"),
                gpu.id)));
    }
    if (gpu.hbmEfficiency <= 0)
        out.warnings.push_back(issue(Severity::Warning, "cluster.gpu.hbmEfficiency",
            Text(PS_TEXT("CoreText", "no measured HBM efficiency for \"%1\"; assuming %2 of the datasheet bandwidth"),
                gpu.id, units::formatNumber(kernels::kDefaultHbmEfficiency))));
    if (T.flashAttention && gpu.attentionFlops.empty())
        out.warnings.push_back(issue(Severity::Warning, "cluster.gpu.attentionFlops",
            Text(PS_TEXT("CoreText", "no flash-attention benchmark for \"%1\"; assuming %2 of the GEMM rate"), gpu.id,
                units::formatNumber(kernels::kDefaultAttentionShare))));
    in.rate = in.peak * in.eff;
    in.hbm = kernels::achievableHbm(gpu);
    in.e = T.precision == Precision::FP32 ? 4.0 : 2.0;

    LayerTimes lt { in.layer.ops, in.layer.denseOps };
    const PassTotals& L = lt.ops.layerTotals;
    const PassTotals& O = lt.ops.outputTotals;
    // Pipeline p2p: one activation tensor per microbatch per chunk boundary each way (/t with SP).
    lt.ppBytes = in.e * in.b * in.sl * in.h / (in.P.sp ? in.t : 1);
    lt.ppLink = in.layout.ppNeighboursCrossDomains ? &in.C.interNode : &in.C.intraNode;
    lt.p2p = in.p > 1 ? p2pSeconds(lt.ppBytes, in.layout.ppNeighboursCrossDomains, in.C) : 0.0;
    out.opCosts = { L.forward, L.backward(), L.backwardWeight, O.forward, O.backward(), O.backwardWeight, lt.p2p,
        L.forward, L.backward(), L.backwardWeight };
    if (in.M.isMoe() && (in.pc.denseLayers > 0)) {
        // An MoE model's first layers carry the dense MLP: their own operator list.
        const PassTotals& D = lt.denseOps.layerTotals;
        out.opCosts.denseLayerForward = D.forward;
        out.opCosts.denseLayerBackward = D.backward();
        out.opCosts.denseLayerWeightGrad = D.backwardWeight;
    }
    if (T.recompute == Recompute::Full && T.recomputeBlock && T.recomputeLayers > 0) {
        // --recompute-method block: only the first N layers of each chunk re-run their forward.
        double rec = 0, all = 0;
        for (const VirtualStage& v : in.stages) {
            rec += std::min(T.recomputeLayers, v.layers);
            all += v.layers;
        }
        const double skip = all > 0 ? 1.0 - rec / all : 0.0;
        out.opCosts.layerBackward -= skip * L.recompute;
        out.opCosts.denseLayerBackward -= skip * (lt.denseOps.layer.empty() ? L.recompute : lt.denseOps.layerTotals.recompute);
    }
    out.layerOps = lt.ops.layer;
    out.outputOps = lt.ops.output;
    if (ex) explainLayer(*ex, lt.ops);
    return lt;
}

// Muon (Megatron-Core TensorParallelMuon over the emerging_optimizers package, docs/MODEL.md section 2 and 7.3):
// the FLOPs of its Newton-Schulz orthogonalisation of one m x n matrix, 5 quintic steps of X X^T, A A and B X in
// bf16: steps*(4 m^2 n + 2 m^3) with m <= n.
constexpr int kMuonNewtonSchulzSteps = 5;
double newtonSchulzFlops(double rows, double cols)
{
    const double m = std::min(rows, cols), n = std::max(rows, cols);
    return kMuonNewtonSchulzSteps * (4.0 * m * m * n + 2.0 * m * m * m);
}

// The orthogonalised matrices of one layer, whole (the default tp mode, duplicated, all-gathers each shard and runs
// the full matrix on every tp rank): Q, K and V apart (--muon-split-qkv), the output projection, a gated fc1 as one
// matrix, fc2; an MoE layer's router and shared experts with the dense part, each routed expert's fc1 and fc2 apart.
struct NewtonSchulz {
    double dense = 0;     // FLOPs of the layer's non-expert matrices
    double perExpert = 0; // FLOPs of one routed expert's two matrices
};
NewtonSchulz newtonSchulzLayer(const ModelSpec& M, bool moeLayer)
{
    NewtonSchulz ns;
    const double h = double(M.hidden), a = double(M.heads), kv = double(M.kvHeads > 0 ? M.kvHeads : M.heads);
    const double d = double(M.headDimension()), up = M.gatedMlp ? 2.0 : 1.0;
    if (M.mla.enabled()) {
        const MlaSpec& x = M.mla;
        const double dq = x.qkNopeHeadDim + x.qkRopeHeadDim;
        if (x.qLoraRank > 0) ns.dense += newtonSchulzFlops(x.qLoraRank, h) + newtonSchulzFlops(a * dq, x.qLoraRank);
        else ns.dense += newtonSchulzFlops(a * dq, h);
        ns.dense += newtonSchulzFlops(x.kvLoraRank + x.qkRopeHeadDim, h)
            + newtonSchulzFlops(a * (x.qkNopeHeadDim + x.vHeadDim), x.kvLoraRank) + newtonSchulzFlops(h, a * x.vHeadDim);
    } else {
        ns.dense += newtonSchulzFlops(a * d, h) + 2.0 * newtonSchulzFlops(kv * d, h) + newtonSchulzFlops(h, a * d);
    }
    if (!moeLayer || !M.isMoe()) {
        const double f = double(M.ffnHidden);
        ns.dense += newtonSchulzFlops(up * f, h) + newtonSchulzFlops(h, f);
        return ns;
    }
    const double fe = double(M.moe.expertFfnHidden), fs = double(M.moe.sharedExperts) * double(M.moe.sharedExpertFfnHidden);
    ns.dense += newtonSchulzFlops(double(M.moe.experts), h);
    if (fs > 0) ns.dense += newtonSchulzFlops(up * fs, h) + newtonSchulzFlops(h, fs);
    ns.perExpert = newtonSchulzFlops(up * fe, h) + newtonSchulzFlops(h, fe);
    return ns;
}

// The parameters Muon leaves to Adam on one GPU of stage r: the embedding (first stage) and the output layer (last
// stage; a tied embedding's copy there when pp > 1), after tp. Norms and biases (well under 0.1% of a layer) are counted
// with Muon's state.
double muonAdamParams(const Inputs& in, int r)
{
    const RankShape& sh = in.shapes[std::size_t(r)];
    const ParameterCounts& pc = in.pc;
    double a = sh.embedding ? pc.embedding + pc.positions : 0.0;
    if (sh.output) a += in.M.tiedEmbeddings ? (in.p > 1 ? pc.embedding : 0.0) : pc.outputLayer;
    return a / in.t;
}

// ---------------------------------------------------------------------------------------------- memory (per stage)

void memoryStage(const Inputs& in, int r, int groupsOfRank, Prediction& out, Explainer* ex)
{
    const ModelSpec& M = in.M;
    const ParallelSpec& P = in.P;
    const TrainingSpec& T = in.T;
    const ParameterCounts& pc = in.pc;
    const RankShape& sh = in.shapes[std::size_t(r)];
    const double w = in.w, g = in.g, o = in.o, e = in.e, sl = in.sl, b = in.b, h = in.h, V = in.V;
    const int t = in.t;
    StageMemory& st = out.stages[std::size_t(r)];
    st.stage = r;
    st.layers = sh.layersHeld;
    st.embedding = sh.embedding;
    st.output = sh.output;

    // Parameters: the stage's layers, plus the embedding on the first, the output layer on the last (a tied
    // embedding is kept as a second copy on the last stage when the two are on different ranks).
    const double embParams = pc.embedding + pc.positions + pc.embeddingNorm;
    const double ownOutput = M.tiedEmbeddings ? 0.0 : pc.outputLayer;
    out.paramsPerStage[std::size_t(r)] = pc.layersOf(sh.layersHeld, sh.denseLayersHeld) + sh.mtpHeld * pc.mtpModule
        + (sh.embedding ? embParams : 0.0) + (sh.output ? ownOutput + pc.finalNorm : 0.0);
    st.denseLayers = sh.denseLayersHeld;
    st.mtpLayers = sh.mtpHeld;
    if (ex)
        ex->add({ "params.perStage." + std::to_string(r), out.paramsPerStage[std::size_t(r)], "parameters",
            "(layers - dense)*layer + dense*denseLayer + mtp*mtpModule + first*(embedding + positions + embeddingNorm) "
            "+ last*(outputLayer + finalNorm)",
            { { "layers", double(sh.layersHeld) }, { "layer", pc.layer.total() }, { "dense", double(sh.denseLayersHeld) },
                { "denseLayer", pc.denseLayer.total() }, { "mtp", double(sh.mtpHeld) }, { "mtpModule", pc.mtpModule },
                { "first", sh.embedding ? 1.0 : 0.0 },
                { "embedding", pc.embedding }, { "positions", pc.positions }, { "embeddingNorm", pc.embeddingNorm },
                { "last", sh.output ? 1.0 : 0.0 }, { "outputLayer", ownOutput }, { "finalNorm", pc.finalNorm } },
            sources::kMegatronParams, {},
            "All parameters of this pipeline stage across its tp ranks (first, last: 1 when the stage holds the "
            "embedding, the output layer); memory below is per GPU." });

    const StageParams sp = stageParams(in, r);
    const double Pd = sp.dense, Pe = sp.expert;
    st.parameters = Pd + Pe;
    const bool fp8 = T.precision == Precision::FP8;
    const double shardW = P.zero >= 3 ? Pd / in.nShard + Pe / in.nExpert : Pd + Pe;
    const double shardG = P.zero >= 2 ? Pd / in.nShard + Pe / in.nExpert : Pd + Pe;
    const double shardO = P.zero >= 1 ? Pd / in.nShard + Pe / in.nExpert : Pd + Pe;
    // The weights of this rank's fp8 GEMMs (per GPU, before ZeRO), and of one of its layers.
    const int moeHeld = sh.layersHeld - sh.denseLayersHeld;
    const double Pf8 = moeHeld * in.layerF8Gpu + sh.denseLayersHeld * in.denseF8Gpu + sh.mtpHeld * in.mtpF8Gpu;
    const double shardF8 = P.zero >= 3 ? Pf8 * shardW / std::max(1.0, Pd + Pe) : Pf8;
    const double paramBytes = fp8 && T.fp8ParamGather ? w * shardW - (w - 1.0) * shardF8 : w * shardW;
    // Under ZeRO-3 the fp8 copies exist for the gathered layers only: the current one and the prefetched next.
    const int units = sh.layersHeld + sh.mtpHeld;
    const double cachedF8 = P.zero >= 3 ? (units > 0 ? std::min(2.0, double(units)) * Pf8 / units : 0.0) : Pf8;
    st.fp8WeightCacheBytes = std::llround(in.fp8Cache * cachedF8);
    // Scaling state: delayed scaling keeps an amax history (1024 steps in NeMo's and Megatron-Bridge's fp8 recipes)
    // plus scale and inverse scale for the input, weight and gradient of every fp8 GEMM; current scaling only the
    // scales; blockwise one fp32 scale per 128x128 weight block (DeepSeek-V3, arXiv 2412.19437, section 3.3.1);
    // MXFP8's e8m0 scales travel with its copies (counted there).
    const double localExperts = M.isMoe() ? double(M.moe.experts) / std::max(1, in.ep) : 0.0;
    const double gemmsPerLayer = (M.mla.enabled() ? (M.mla.qLoraRank > 0 ? 5.0 : 4.0) : 2.0) + 2.0;
    const double fp8Gemms = fp8 ? units * gemmsPerLayer + (moeHeld + (M.isMoe() ? sh.mtpHeld : 0)) * 2.0 * localExperts : 0.0;
    double scaling = 0;
    if (fp8) {
        switch (T.fp8Recipe) {
        case Fp8Recipe::Delayed: scaling = fp8Gemms * 3.0 * (kAmaxHistory + 2.0) * 4.0; break;
        case Fp8Recipe::Current: scaling = fp8Gemms * 3.0 * 2.0 * 4.0; break;
        case Fp8Recipe::Blockwise: scaling = cachedF8 / (128.0 * 128.0) * 4.0 * (T.fp8ParamGather ? 1.0 : 2.0); break;
        case Fp8Recipe::MxFp8: break;
        }
    }
    st.fp8ScalingBytes = std::llround(scaling);
    st.weightsBytes = std::llround(paramBytes) + st.fp8WeightCacheBytes + st.fp8ScalingBytes;
    st.gradientsBytes = std::llround(g * shardG);
    // Optimizer state, a share of it on the host (Megatron-Core's hybrid device optimizer, --optimizer-cpu-offload
    // with --optimizer-offload-fraction; ZeRO-Offload, Ren et al., USENIX ATC 2021): the host also keeps an fp32 copy
    // of the offloaded share's gradients.
    const double off = std::clamp(T.offload.optimizerFraction, 0.0, 1.0);
    // Muon keeps Adam's second moment for what it leaves to Adam (the embedding, the output layer).
    const double adamShare = T.optimizer == Optimizer::Muon ? muonAdamParams(in, r) / (P.zero >= 1 ? in.nShard : 1) : 0.0;
    const double moment2 = T.optimizer == Optimizer::Muon ? in.moment : 0.0;
    st.optimizerBytes = std::llround((1.0 - off) * (o * shardO + moment2 * adamShare));
    st.offloadedOptimizerBytes = std::llround(off * o * shardO);
    st.hostBytes = std::llround(off * (o + 4.0) * shardO);
    // Explanations are recorded under memory.stages.<r>. (built only when explaining).
    auto fieldBase = [r] { return "memory.stages." + std::to_string(r) + "."; };
    if (ex) {
        const std::string base = fieldBase();
        const FormulaInputs inputs { { "w", w }, { "g", g }, { "o", o }, { "P", Pd }, { "Pe", Pe },
            { "n", double(in.nShard) }, { "ne", double(in.nExpert) } };
        // floor(x + 0.5): the byte count is rounded to a whole byte.
        auto shard = [](bool sharded, const char* bytes) {
            return std::string(bytes) + (sharded ? "*(P/n + Pe/ne)" : "*(P + Pe)");
        };
        const std::string zeroNote = "ZeRO-" + std::to_string(P.zero) + " over n = " + std::to_string(in.nShard)
            + " ranks (dp*cp, or the node under hybrid sharding): stage 1 shards optimizer states, 2 also gradients, "
              "3 also weights; (w+g+o), w+g+o/n, w+(g+o)/n, (w+g+o)/n. P = dense parameters on this GPU after tp ("
            + std::to_string(t) + "), Pe = routed-expert parameters after ep*etp (" + std::to_string(in.ep) + "*"
            + std::to_string(in.etp) + "), ne = the expert data-parallel size tp*dp*cp/(etp*ep) (Megatron-Core shards "
              "expert optimizer states over that group, not the dense one).";
        if (fp8) {
            ex->add({ base + "fp8WeightCacheBytes", double(st.fp8WeightCacheBytes), "bytes", "floor(c*F + 0.5)",
                { { "c", in.fp8Cache }, { "F", cachedF8 } }, sources::kTransformerEngineFp8, {},
                "F: weights of this GPU's fp8 GEMMs (attention projections, MLP, experts; not the embedding, output "
                "layer, router or norms)" + std::string(P.zero >= 3 ? ", for the two gathered layers under ZeRO-3" : "")
                    + "; c: bytes of fp8 copies per weight (2: the forward cast and the transposed copy for dgrad; 1 with "
                      "fp8ParamGather, where the parameter is the forward copy; MXFP8 adds 1/32 per copy for its "
                      "block scales). The copies live from the first microbatch to the optimizer step." });
            ex->add({ base + "fp8ScalingBytes", double(st.fp8ScalingBytes), "bytes",
                T.fp8Recipe == Fp8Recipe::Delayed ? "floor(G*3*(H + 2)*4 + 0.5)"
                    : T.fp8Recipe == Fp8Recipe::Current ? "floor(G*3*2*4 + 0.5)"
                    : T.fp8Recipe == Fp8Recipe::Blockwise ? "floor(F/16384*4*k + 0.5)" : "0",
                { { "G", fp8Gemms }, { "H", kAmaxHistory }, { "F", cachedF8 }, { "k", T.fp8ParamGather ? 1.0 : 2.0 } },
                sources::kTransformerEngineFp8, {},
                "G: fp8 GEMMs on this GPU (per layer the attention projections and fc1/fc2, per local expert its two "
                "GEMMs); each keeps the scale, the inverse scale and (delayed scaling) an amax history of H steps for its "
                "input, weight and gradient, fp32." });
        }
        ex->add({ base + "weightsBytes", double(st.weightsBytes), "bytes",
            "floor(" + std::string(fp8 && T.fp8ParamGather ? shard(P.zero >= 3, "w") + " - (w - 1)*F8" : shard(P.zero >= 3, "w"))
                + " + 0.5) + fp8Cache + fp8Scaling",
            { { "w", w }, { "P", Pd }, { "Pe", Pe }, { "n", double(in.nShard) }, { "ne", double(in.nExpert) },
                { "F8", shardF8 }, { "fp8Cache", double(st.fp8WeightCacheBytes) }, { "fp8Scaling", double(st.fp8ScalingBytes) } },
            sources::kZero, {},
            "w = " + units::formatNumber(w) + " bytes per weight (" + std::string(toString(T.precision))
                + (fp8 ? ": Transformer Engine keeps bf16 parameters unless fp8ParamGather, where the fp8 GEMMs' weights "
                         "F8 are stored in fp8" : "")
                + "). " + zeroNote });
        ex->add({ base + "gradientsBytes", double(st.gradientsBytes), "bytes", "floor(" + shard(P.zero >= 2, "g") + " + 0.5)",
            inputs, sources::kZero, {}, "g = " + units::formatNumber(g) + " bytes per gradient (gradDtype "
                + std::string(toString(T.gradDtype)) + "; Megatron keeps fp32 main grads under bf16). " + zeroNote });
        const bool muon = T.optimizer == Optimizer::Muon;
        ex->add({ base + "optimizerBytes", double(st.optimizerBytes), "bytes",
            muon ? "floor((1 - f)*(" + shard(P.zero >= 1, "o") + " + m2*A) + 0.5)" : "floor((1 - f)*" + shard(P.zero >= 1, "o") + " + 0.5)",
            muon ? with(inputs, { { "f", off }, { "m2", moment2 }, { "A", adamShare } }) : with(inputs, { { "f", off } }),
            std::string(sources::kZero) + "; " + sources::kMegatronOptimizer, {},
            (muon ? std::string("Muon (Megatron-Core TensorParallelMuon): one momentum per 2-D weight; the embedding and the "
                                "output layer take Adam, whose second moment m2 adds for their A parameters on this GPU "
                                "(after tp and ZeRO). ")
                  : std::string())
                + "o = " + units::formatNumber(in.master) + " (fp32 master weights) + "
                + (T.optimizer == Optimizer::Adam ? "2 Adam moments" : muon ? "1 Muon momentum" : "1 SGD momentum") + " of "
                + units::formatNumber(in.moment) + " bytes (optimizerStateDtype " + std::string(toString(T.optimizerStateDtype))
                + (T.optimizerStateDtype != Precision::FP32 ? ": Megatron-Core's precision-aware optimizer, --exp-avg-dtype" : "")
                + "); f = the share offloaded to the host (training.offload.optimizerFraction). " + zeroNote });

    }

    // Activations: per microbatch, the layers of this rank's chunks (dense and MoE layers, MTP modules), with full
    // recompute of N layers (uniform groups or the first N of each chunk) and activation offload of a chunk's first
    // layers; held for `inflight` microbatch-equivalents.
    const double inflight = inFlightMicrobatches(T.schedule, in.p, in.m, in.v, r);
    st.inFlightMicrobatches = inflight;
    st.activationsPerLayerBytes = std::llround(in.act.stored);
    st.denseActivationsPerLayerBytes = std::llround(in.actDense.stored);
    const double spDiv = P.sp ? t : 1.0;
    const double embAct = sh.embedding
        ? (M.dropout ? 1.0 : 0.0) * sl * b * h / spDiv + (M.embeddingNorm ? e * sl * b * h / spDiv : 0.0)
        : 0.0;
    const double headAct = 2.0 * e * sl * b * h / spDiv + 4.0 * sl * b * V / t; // final norm, output input, fp32 logits
    const double outAct = sh.output ? headAct : 0.0;
    // An MTP module keeps its layer's tensors, the two norms' inputs and the 2h-wide projection input, and its own head.
    const LayerActivations& mtpLayerAct = M.isMoe() && in.pc.moeLayers > 0 ? in.act : in.actDense;
    const double mtpAct = mtpLayerAct.stored + 4.0 * e * sl * b * h / spDiv + headAct;
    st.mtpActivationBytes = sh.mtpHeld > 0 ? std::llround(mtpAct) : 0;
    const bool fullRecompute = T.recompute == Recompute::Full;
    const int N = T.recomputeLayers;
    double perMicrobatch = 0, offloaded = 0, workspace = 0;
    forEachRankStage(in, r, [&](const VirtualStage& vs) {
        const int Lc = vs.layers, Dc = vs.denseLayers, Mc = Lc - Dc;
        const double stored = Mc * in.act.stored + Dc * in.actDense.stored;
        const double fullBytes = Mc * in.act.full + Dc * in.actDense.full;
        const double avgFull = Lc > 0 ? fullBytes / Lc : 0.0;
        const double maxFull = std::max(Mc > 0 ? in.act.full : 0.0, Dc > 0 ? in.actDense.full : 0.0);
        double chunk = stored;
        if (fullRecompute && Lc > 0) {
            if (T.recomputeBlock) {
                // --recompute-method block: the first N layers of each chunk keep only their input, the rest all.
                const int rec = N > 0 ? std::min(N, Lc) : Lc;
                chunk = rec * in.act.input + (Lc - rec) * avgFull;
                workspace = std::max(workspace, maxFull);
            } else {
                // --recompute-method uniform: groups of N layers keep their input; a group is rebuilt at once.
                const int group = std::max(1, N);
                chunk = std::ceil(double(Lc) / group) * in.act.input;
                workspace = std::max(workspace, std::min(group, Lc) * maxFull);
            }
        }
        // Activation offload (Transformer Engine, Megatron --cpu-offloading-num-layers): the first layers of a chunk
        // wait in host memory; the last stays for the first backward.
        const int Lo = std::min(T.offload.activationLayers, std::max(0, Lc - 1));
        const double perLayer = Lc > 0 ? chunk / Lc : 0.0;
        offloaded += Lo * perLayer;
        perMicrobatch += chunk - Lo * perLayer + vs.mtpLayers * mtpAct;
        st.chunkActivationBytes.push_back(std::llround(chunk - Lo * perLayer + vs.mtpLayers * mtpAct
            + (vs.embedding ? embAct : 0.0) + (vs.loss ? headAct : 0.0)));
    });
    const double activations = inflight * (perMicrobatch + embAct + outAct) + workspace;
    st.activationsBytes = std::llround(activations);
    st.offloadedActivationBytes = std::llround(inflight * offloaded);
    st.hostBytes += st.offloadedActivationBytes;
    st.embeddingActivationBytes = std::llround(embAct);
    st.outputActivationBytes = std::llround(outAct);
    st.recomputeWorkspaceBytes = std::llround(workspace);
    if (ex) {
        const std::string base = fieldBase();
        const ScheduleKind k = T.schedule;
        const char* inflightFormula = k == ScheduleKind::GPipe || k == ScheduleKind::LoopedBFS ? "m"
            : k == ScheduleKind::OneFOneB || (k == ScheduleKind::Interleaved1F1B && in.v <= 1) ? "min(p - r, m)"
            : k == ScheduleKind::Interleaved1F1B ? "min(2*(p-r-1) + (v-1)*p + 1, m*v)/v"
            : k == ScheduleKind::ZBH2            ? "min(2*p - 1, m)"
            : k == ScheduleKind::DualPipe        ? "min(p + 1, m)/2"
            : k == ScheduleKind::DualPipeV       ? "min(2*p + 1, 2*m)/2"
                                                 : "min(p, m)";
        ex->add({ base + "inFlightMicrobatches", inflight, "microbatches", inflightFormula,
            { { "p", double(in.p) }, { "r", double(r) }, { "m", double(in.m) }, { "v", double(in.v) } },
            "docs/SCHEDULES.md section 1.7 and the schedule's own section", {},
            "Microbatch-equivalents of activations held at the peak; a chunk counts 1/v. GPipe holds all m, 1F1B "
            "holds p - r: the same bubble, less memory." });
        std::string terms;
        for (const ActivationTerm& term : in.act.terms)
            terms += std::string(terms.empty() ? "" : "; ") + term.name + " " + units::formatBytes(term.bytes)
                + (term.fp8 ? " (fp8)" : "") + (term.recomputed ? " (recomputed: " + term.module + ")" : "");
        std::string layerFormula;
        if (fullRecompute)
            layerFormula = P.sp ? "e*s*b*h/t" : "e*s*b*h";
        else {
            layerFormula = P.sp ? "s*b*h*(c1 + c2)/t" : "s*b*h*(c1 + c2/t)";
            if (in.act.replicatedCoeff > 0) layerFormula += " + s*b*h*c3";
            if (T.flashAttention) layerFormula += " + 4*a*s*b/t";
            else layerFormula += " + k*a*s*s*b/t";
            if (T.recompute == Recompute::Selective) layerFormula += " - recomputed";
        }
        double recomputed = 0;
        for (const ActivationTerm& term : in.act.terms)
            if (term.recomputed) recomputed += term.bytes;
        ex->add({ base + "activationsPerLayerBytes", double(st.activationsPerLayerBytes), "bytes",
            "floor(" + layerFormula + " + 0.5)",
            { { "s", sl }, { "b", b }, { "h", h }, { "a", double(M.heads) }, { "t", double(t) },
                { "c1", in.act.nonParallelCoeff }, { "c2", in.act.parallelCoeff }, { "c3", in.act.replicatedCoeff },
                { "k", in.act.scoresFullCoeff }, { "e", e }, { "recomputed", recomputed } },
            sources::kKorthikanti, {},
            "Per layer, per microbatch, per GPU (s = seqLength/cp)" + std::string(M.isMoe() ? ", an MoE layer" : "")
                + ". Korthikanti's Table 2 has c1 = 10, c2 = 24, k = 5 for f = 4h with dropout; here each saved tensor is "
                  "derived from the block: " + terms + ". Flash attention keeps the fp32 logsumexp instead of the "
                  "scores; selective recompute drops the tensors of the modules it re-runs (--recompute-modules, "
                  "core_attn by default); under fp8 Transformer Engine saves GEMM inputs as fp8; full recompute keeps "
                  "only the layer input (divided by t under sequence parallelism)." });
        ex->add({ base + "activationsBytes", double(st.activationsBytes), "bytes",
            "floor(inflight*(layers*perLayer + mtp + firstExtra + lastExtra) + workspace + 0.5)",
            { { "inflight", inflight }, { "layers", double(sh.layersHeld) },
                { "perLayer", sh.layersHeld > 0 ? (perMicrobatch - sh.mtpHeld * mtpAct) / sh.layersHeld : 0.0 },
                { "mtp", sh.mtpHeld * mtpAct },
                { "firstExtra", embAct }, { "lastExtra", outAct }, { "workspace", workspace } },
            sources::kKorthikanti, { base + "inFlightMicrobatches", base + "activationsPerLayerBytes" },
            "perLayer: one microbatch's bytes per layer, averaged over this rank's " + std::to_string(sh.layersHeld)
                + " layers ("
                + std::to_string(sh.denseLayersHeld) + " with the dense MLP at "
                + units::formatBytes(in.actDense.stored) + " each" + (fullRecompute
                    ? std::string("; full recompute ") + (T.recomputeBlock ? "of the first N of each chunk" : "in groups of N")
                        + ", N = " + std::to_string(std::max(1, N))
                    : std::string())
                + (T.offload.activationLayers > 0 ? "; less the offloaded layers" : "")
                + "); mtp: MTP modules (a layer, the projection input and their own fp32 logits); firstExtra: embedding "
                  "dropout mask and embedding norm input; lastExtra: final norm and output-layer inputs plus fp32 "
                  "logits 4*s*b*V/t for the loss; workspace: the full activations of what is recomputed at once." });
        if (st.hostBytes > 0)
            ex->add({ base + "hostBytes", double(st.hostBytes), "bytes", "floor(f*(o + 4)*(P/n + Pe/ne) + 0.5) + offloadedActivations",
                { { "f", off }, { "o", o }, { "P", Pd }, { "Pe", Pe }, { "n", double(P.zero >= 1 ? in.nShard : 1) },
                    { "ne", double(P.zero >= 1 ? in.nExpert : 1) }, { "offloadedActivations", double(st.offloadedActivationBytes) } },
                sources::kZeroOffload, {},
                "Host memory this GPU's offload takes: the offloaded optimizer share's master weights and moments (o bytes "
                "per parameter) and an fp32 copy of its gradients (4), and the activations waiting on the host." });
        if (T.offload.activationLayers > 0)
            ex->add({ base + "offloadedActivationBytes", double(st.offloadedActivationBytes), "bytes",
                "floor(inflight*offloaded + 0.5)", { { "inflight", inflight }, { "offloaded", offloaded } },
                sources::kActivationOffload, {},
                "offloaded: the saved activations of min(activationLayers, layers - 1) layers of each chunk for one "
                "microbatch; they occupy host memory instead of the GPU." });
    }

    // Buffers, temporaries and the allocator (core/cost/Runtime.h, docs/MODEL.md section 4).
    const RuntimeInputs rt { in.plan, in.layout, r, sh.embedding, sh.output, sh.layersHeld > 0, groupsOfRank, Pd + Pe,
        in.layerDenseGpu + in.layerExpertGpu, w, g, e, sl, b, V, t };
    runtimeBuffers(rt, st, ex, fieldBase());
}

// ---------------------------------------------------------------------------------------------- time (per stage)

// The data-parallel collectives of one rank: the dense group (dp*cp) and the expert-data-parallel group.
struct DpTerms {
    double gradD = 0, gradE = 0, weightD = 0, weightE = 0; // bytes of one full gradient / weight buffer
};

DpTerms dpTerms(const Inputs& in, const StageParams& sp)
{
    return { in.g * sp.dense, in.g * sp.expert, in.w * sp.dense, in.w * sp.expert };
}

// Data-parallel traffic goes in buckets (Megatron-Core DDP: max(4e7, 1e6*dp) elements; DeepSpeed ZeRO-2/3:
// reduce_bucket_size and allgather_bucket_size, 5e8 elements), each a collective of its own: the size curve
// applies to a bucket, not to the whole gradient.
double bucketElements(const Inputs& in)
{
    return in.P.zero >= 2 ? 5.0e8 : std::max(4.0e7, 1.0e6 * in.dpcp);
}

// One rank's DP collective over the dense group and the expert group: S/Sb buckets of Sb bytes each.
double dpSeconds(const Inputs& in, Collective c, double bytesD, double bytesE, double elementBytes)
{
    const double bucket = bucketElements(in) * elementBytes;
    double t = 0;
    for (auto [bytes, group] : { std::pair { bytesD, &in.layout.dpCp }, std::pair { bytesE, &in.layout.expertDp } }) {
        if (bytes <= 0) continue;
        const double sb = std::min(bytes, bucket);
        t += bytes / sb * groupSeconds(c, *group, sb, in.C);
    }
    return t;
}

Term dpTerm(const Inputs& in, Collective c, double bytesD, double bytesE, double elementBytes)
{
    const double bucket = bucketElements(in) * elementBytes;
    auto one = [&](double bytes, const GroupPlacement& g, const std::string& tag) -> Term {
        if (bytes <= 0) return { "0", {} };
        const double sb = std::min(bytes, bucket);
        Term t = collectiveTerm(c, g, sb, in.C, tag);
        if (t.formula == "0" || sb >= bytes) return t;
        t.formula = "nb" + tag + "*(" + t.formula + ")";
        t.inputs.emplace_back("nb" + tag, bytes / sb);
        return t;
    };
    return sumTerms(one(bytesD, in.layout.dpCp, ""), one(bytesE, in.layout.expertDp, "E"));
}

// Parameters the optimizer of pipeline rank r updates on one GPU (its ZeRO shard from stage 1 on).
double optimizerParams(const Inputs& in, int r)
{
    const StageParams sp = stageParams(in, r);
    return in.P.zero >= 1 ? sp.dense / in.nShard + sp.expert / in.nExpert : sp.dense + sp.expert;
}

// The share of a rank's layers one microbatch passes through: 1, except for DualPipe's two copies (1/2).
double zeroShare(const RankShape& sh)
{
    return sh.layersHeld > 0 ? std::min(1.0, sh.layersPerMicrobatch / sh.layersHeld) : 1.0;
}

// Megatron-Core's DDP reduces gradients in buckets as backward produces them; the last bucket is reduced after the
// backward ends and cannot hide (megatron/core/distributed: bucket_size = max(40,000,000, 1,000,000 * dp) elements).
// The share of a rank's gradient that is in its last bucket.
double lastBucketShare(const Inputs& in, int r)
{
    const StageParams sp = stageParams(in, r);
    const double params = sp.dense + sp.expert;
    return params > 0 ? std::min(1.0, bucketElements(in) / params) : 1.0;
}

void timeStage(const Inputs& in, const LayerTimes& lt, int r, Prediction& out, Explainer* ex)
{
    const ParallelSpec& P = in.P;
    const TrainingSpec& T = in.T;
    const RankShape& sh = in.shapes[std::size_t(r)];
    const double layers = sh.layersPerMicrobatch;
    StageTime& tm = out.stageTimes[std::size_t(r)];
    tm.stage = r;
    const PassTotals& L = lt.ops.layerTotals;
    const PassTotals& D = lt.denseOps.layer.empty() ? L : lt.denseOps.layerTotals;
    const PassTotals O = sh.output ? lt.ops.outputTotals : PassTotals {};
    const double dense = sh.denseLayersPerMicrobatch, mtp = sh.mtpPerMicrobatch;
    const OpCosts& c = out.opCosts;
    tm.forwardSeconds = c.forward(layers, dense, mtp, sh.output);
    tm.backwardSeconds = c.backward(layers, dense, mtp, sh.output);
    tm.weightGradSeconds = c.weightGrad(layers, dense, mtp, sh.output);
    // Sends per microbatch: an activation forward and a gradient back per chunk, except where the neighbour is no
    // other rank: the first stage sends no gradient, the last no activation; in a V the two middle stages share
    // the last rank (docs/SCHEDULES.md).
    double sends = 0;
    if (in.p > 1) {
        if (traits(T.schedule).vShaped)
            sends = (r == 0 || r == in.p - 1) ? 2.0 : 4.0;
        else
            sends = 2.0 * in.v - (r == 0 ? 1.0 : 0.0) - (r == in.p - 1 ? 1.0 : 0.0);
    }
    tm.p2pSendSeconds = in.p > 1 ? lt.p2p : 0.0;
    tm.p2pTransferSeconds = sends * lt.p2p;
    // The closed form charges the sends to the slots either way: blocking, the sender waits for them; overlapped,
    // 1F1B's steady state still waits for each gradient's round trip (a rank's next backward needs the next rank's
    // backward of a microbatch it sent one forward earlier). The simulation shows what overlapping saves.
    tm.p2pSeconds = tm.p2pTransferSeconds;
    const PassTotals& Oall = lt.ops.outputTotals;
    tm.layerCommSeconds = (layers - dense + mtp) * (L.commForward + L.commBackward) + dense * (D.commForward + D.commBackward)
        + mtp * (Oall.commForward + Oall.commBackward) + O.commForward + O.commBackward;
    if (ex) {
        const std::string tb = "time.stages." + std::to_string(r) + ".";
        const char* formula = "(layers - dense)*layer + dense*denseLayer + mtp*(layer + head) + output";
        const double head = Oall.forward;
        ex->add({ tb + "forwardSeconds", tm.forwardSeconds, "seconds", formula,
            { { "layers", layers }, { "dense", dense }, { "layer", L.forward }, { "denseLayer", D.forward }, { "mtp", mtp },
                { "head", head }, { "output", O.forward } },
            "docs/MODEL.md section 7.1", { "time.layer.forwardSeconds" },
            "layers: transformer layers one microbatch runs through on this rank (dense: those with the dense MLP of an "
            "MoE model); layer: one layer's forward ops; mtp: MTP modules, each a layer and an output head; output: "
            "the final norm, output projection and loss on the last stage." });
        ex->add({ tb + "backwardSeconds", tm.backwardSeconds, "seconds", formula,
            { { "layers", layers }, { "dense", dense }, { "layer", L.backward() }, { "denseLayer", D.backward() },
                { "mtp", mtp }, { "head", Oall.backward() }, { "output", O.backward() } },
            "docs/MODEL.md section 7.1", { "time.layer.backwardSeconds" },
            "Input- and weight-gradient ops of one layer, with the forward ops recomputation repeats." });
        ex->add({ tb + "weightGradSeconds", tm.weightGradSeconds, "seconds", formula,
            { { "layers", layers }, { "dense", dense }, { "layer", L.backwardWeight }, { "denseLayer", D.backwardWeight },
                { "mtp", mtp }, { "head", Oall.backwardWeight }, { "output", O.backwardWeight } },
            "docs/MODEL.md section 7.1", { "time.layer.weightGradSeconds" },
            "The weight-gradient GEMMs (the W of the zero-bubble schedules)." });
    }
    // Data parallel: ZeRO-0/1 reduce once per step; ZeRO-2/3 (DeepSpeed, FSDP) every microbatch.
    const DpTerms d = dpTerms(in, stageParams(in, r));
    const double lastBucket = lastBucketShare(in, r);
    tm.dpLastBucketShare = lastBucket;
    if (P.zero <= 1) {
        if (P.zero == 0) {
            tm.dpSeconds = tm.dpReduceSeconds = dpSeconds(in, Collective::AllReduce, d.gradD, d.gradE, in.g);
            tm.dpExposedSeconds = T.overlapGradReduce
                ? std::max(lastBucket * tm.dpSeconds, tm.dpSeconds - tm.backwardSeconds)
                : tm.dpSeconds;
        } else {
            const double rs = dpSeconds(in, Collective::ReduceScatter, d.gradD, d.gradE, in.g);
            const double ag = dpSeconds(in, Collective::AllGather, d.weightD, d.weightE, in.w);
            tm.dpSeconds = rs + ag;
            tm.dpReduceSeconds = rs;
            tm.dpGatherSeconds = ag;
            tm.dpExposedSeconds = T.overlapGradReduce
                ? std::max(lastBucket * rs, rs - tm.backwardSeconds) + std::max(lastBucket * ag, ag - tm.forwardSeconds)
                : tm.dpSeconds;
        }
    } else {
        const double rs = dpSeconds(in, Collective::ReduceScatter, d.gradD, d.gradE, in.g);
        tm.zeroGatherSeconds = P.zero >= 3 ? dpSeconds(in, Collective::AllGather, d.weightD, d.weightE, in.w) : 0.0;
        // A microbatch passes u of the rank's layers (1, or 1/2 for DualPipe's two copies): it reduces and gathers
        // those layers' share.
        const double perMb = zeroShare(sh) * (rs + 2.0 * tm.zeroGatherSeconds);
        tm.dpSeconds = double(in.m) * perMb;
        tm.dpReduceSeconds = rs;
        tm.zeroExposedSeconds = std::max(0.0, perMb - (tm.forwardSeconds + tm.backwardSeconds));
        if (P.zero == 2) {
            // After the sharded optimizer step every rank gathers the updated weights (ZeRO section 7.2.1).
            const double ag = dpSeconds(in, Collective::AllGather, d.weightD, d.weightE, in.w);
            tm.dpSeconds += ag;
            tm.dpGatherSeconds = ag;
            tm.dpExposedSeconds = T.overlapGradReduce ? std::max(lastBucket * ag, ag - tm.forwardSeconds) : ag;
        }
    }
    // Compute beside a collective runs on the SMs the collective's channels leave it (kernels::smShare): charged on
    // the seconds each overlapped collective hides behind the compute, per microbatch for ZeRO-2/3 (with the exposure
    // it adds to every backward) and per step otherwise (with the exposed tail).
    const double share = kernels::smShare(in.C.gpu, in.plan.overheads.ncclChannels);
    if (share > 0) {
        double hiddenPerMb = 0, hiddenPerStep = 0;
        if (P.zero >= 2) {
            const double perMb = zeroShare(sh) * (tm.dpReduceSeconds + 2.0 * tm.zeroGatherSeconds);
            hiddenPerMb = std::min(perMb, tm.forwardSeconds + tm.backwardSeconds);
            if (P.zero == 2) hiddenPerStep = std::max(0.0, tm.dpGatherSeconds - tm.dpExposedSeconds);
        } else {
            hiddenPerStep = std::max(0.0, tm.dpSeconds - tm.dpExposedSeconds);
        }
        tm.zeroContentionSeconds = share * hiddenPerMb;
        tm.zeroExposedSeconds += tm.zeroContentionSeconds;
        tm.contentionSeconds = share * hiddenPerStep;
        tm.dpExposedSeconds += tm.contentionSeconds;
        const std::string base = "time.stages." + std::to_string(r) + ".";
        const FormulaInputs kS { { "k", double(in.plan.overheads.ncclChannels) }, { "S", double(in.C.gpu.sms) } };
        if (ex && tm.zeroContentionSeconds > 0)
            ex->add({ base + "zeroContentionSeconds", tm.zeroContentionSeconds, "seconds", "min(k, S)/S*hidden",
                with(kS, { { "hidden", hiddenPerMb } }), sources::kContention, {},
                "hidden: the ZeRO-2/3 reduce-scatter and gathers of one microbatch that run beside its forward and "
                "backward (at most F + B); charged to every backward, in zeroExposedSeconds." });
        if (ex && tm.contentionSeconds > 0)
            ex->add({ base + "contentionSeconds", tm.contentionSeconds, "seconds", "min(k, S)/S*hidden",
                with(kS, { { "hidden", hiddenPerStep } }), sources::kContention, {},
                "hidden: the seconds of the step's gradient reduction and parameter gather that run beside the backward "
                "and forward; charged to the exposed data-parallel tail (dpExposedSeconds)." });
    }
    // The optimizer step reads and writes its state, the weights and the gradients at the GPU's HBM rate; an offloaded
    // share f runs on the host at the same time (Megatron-Core's hybrid device optimizer): its gradients down and
    // its weights up over PCIe, the update at the host's memory bandwidth.
    const double params = optimizerParams(in, r);
    const double f = std::clamp(T.offload.optimizerFraction, 0.0, 1.0);
    double onGpu = (1.0 - f) * params * (2.0 * in.o + 2.0 * in.w + in.g) / in.hbm;
    if (T.optimizer == Optimizer::Muon) {
        // Newton-Schulz on this rank's matrices: with the distributed optimizer (ZeRO >= 1: Megatron-Core's
        // LayerWiseDistributedOptimizer) each matrix on one rank of the data-parallel group (the expert
        // data-parallel group for experts), else every rank runs all of its own; whole matrices on every tp rank
        // (tp mode duplicated). In bf16 at the GEMM rate.
        const RankShape& sh = in.shapes[std::size_t(r)];
        const NewtonSchulz moe = newtonSchulzLayer(in.M, true), dense = newtonSchulzLayer(in.M, false);
        const int moeHeld = sh.layersHeld - sh.denseLayersHeld;
        const double localExperts = in.M.isMoe() ? double(in.M.moe.experts) / std::max(1, in.ep) : 0.0;
        const double denseFlops = moeHeld * moe.dense + sh.denseLayersHeld * dense.dense
            + sh.mtpHeld * ((in.M.isMoe() ? moe.dense : dense.dense) + newtonSchulzFlops(in.h, 2.0 * in.h));
        const double expertFlops = (moeHeld + (in.M.isMoe() ? sh.mtpHeld : 0)) * localExperts * moe.perExpert;
        const bool spread = P.zero >= 1;
        const double flops = denseFlops / (spread ? in.nShard : 1) + expertFlops / (spread ? in.nExpert : 1);
        const GpuSpec& gpu = in.C.gpu;
        const double rate = gpu.peakFlops.forPrecision(Precision::BF16) * (gpu.gemmEfficiency > 0 ? gpu.gemmEfficiency : 0.75);
        tm.newtonSchulzSeconds = (1.0 - f) * flops / (rate > 0 ? rate : 1.0);
        onGpu += tm.newtonSchulzSeconds;
        if (ex)
            ex->add({ "time.stages." + std::to_string(r) + ".newtonSchulzSeconds", tm.newtonSchulzSeconds, "seconds",
                "(1 - f)*(D/n + X/ne)/rate",
                { { "f", f }, { "D", denseFlops }, { "n", double(spread ? in.nShard : 1) }, { "X", expertFlops },
                    { "ne", double(spread ? in.nExpert : 1) }, { "rate", rate } },
                "Megatron-Core megatron/core/optimizer/emerging_optimizers.py (TensorParallelMuon) and layer_wise_optimizer.py; "
                "Jordan et al., Muon (2024): 5 quintic Newton-Schulz steps of X X^T, A A and B X",
                {},
                "D: FLOPs of this stage's non-expert matrices, 5*(4*m^2*n + 2*m^3) each (m <= n): Q, K, V apart, the output "
                "projection, fc1 and fc2, the router and shared experts; X: the local experts' fc1 and fc2. With the "
                "distributed optimizer each matrix is orthogonalised on one rank of the data-parallel group (n) or the "
                "expert data-parallel group (ne); whole matrices on every tp rank (tp mode duplicated, whose all-gather of "
                "the momentum is not counted). rate: the bf16 GEMM rate (peak x gemmEfficiency)." });
    }
    tm.offloadTransferSeconds = f * params * (in.g + in.w) / in.pcie;
    tm.hostOptimizerSeconds = f * params * (2.0 * in.o + 2.0 * 4.0) / in.hostBandwidth;
    tm.optimizerSeconds = std::max(onGpu, tm.offloadTransferSeconds + tm.hostOptimizerSeconds);
    if (ex && f > 0)
        ex->add({ "time.stages." + std::to_string(r) + ".optimizerSeconds", tm.optimizerSeconds, "seconds",
            "max((1 - f)*P*(2*o + 2*w + g)/hbm + ns, f*P*(g + w)/pcie + f*P*(2*o + 8)/host)",
            { { "f", f }, { "P", params }, { "o", in.o }, { "w", in.w }, { "g", in.g }, { "hbm", in.hbm }, { "ns", tm.newtonSchulzSeconds },
                { "pcie", in.pcie }, { "host", in.hostBandwidth } },
            sources::kZeroOffload, {},
            "The GPU steps its share while the host steps the offloaded one: gradients down and weights up over PCIe "
            "(pcie: bytes/s per direction, training.offload.pcieBandwidth), the update reading and writing master "
            "weights, moments and an fp32 gradient at host memory bandwidth (training.offload.hostBandwidth per GPU). "
            "A roofline: CPU Adam may run below the memory bandwidth." });
    // Activation offload: each offloaded layer's tensors go to the host during the forward and come back before its
    // backward, beside the compute; what the transfer does not hide lands on the backward.
    const StageMemory& mem = out.stages[std::size_t(r)];
    if (mem.offloadedActivationBytes > 0 && mem.inFlightMicrobatches > 0) {
        const double bytes = double(mem.offloadedActivationBytes) / mem.inFlightMicrobatches;
        const double transfer = bytes / in.pcie;
        tm.offloadExposedSeconds = std::max(0.0, transfer - tm.forwardSeconds) + std::max(0.0, transfer - tm.backwardSeconds);
        tm.backwardSeconds += tm.offloadExposedSeconds;
    }
}

// ---------------------------------------------------------------------------------------------- memory summary, FLOPs

void memorySummary(const Inputs& in, Prediction& out, Explainer* ex)
{
    const GpuSpec& gpu = in.C.gpu;
    for (const StageMemory& st : out.stages)
        if (st.totalBytes > out.peakBytes) {
            out.peakBytes = st.totalBytes;
            out.peakStage = st.stage;
        }
    out.fits = out.peakBytes <= out.capacityBytes;
    const double headroom = std::clamp(in.plan.overheads.headroom, 0.0, 1.0);
    out.usableBytes = std::llround(double(out.capacityBytes) * (1.0 - headroom));
    out.fitsWithHeadroom = out.peakBytes <= out.usableBytes;
    std::int64_t host = 0;
    for (const StageMemory& st : out.stages) host = std::max(host, st.hostBytes);
    out.hostBytesPerNode = host * in.C.gpusPerNode;
    if (ex && host > 0)
        ex->add({ "memory.hostBytesPerNode", double(out.hostBytesPerNode), "bytes", "gpusPerNode*max(hostBytes)",
            { { "gpusPerNode", double(in.C.gpusPerNode) }, { "hostBytes", double(host) } }, sources::kZeroOffload, {},
            "Host memory the offloaded optimizer share (with its fp32 gradients) and offloaded activations take on one "
            "node, from the stage that offloads most." });
    if (!out.fits)
        out.warnings.push_back(issue(Severity::Warning, "memory",
            Text(PS_TEXT("CoreText", "stage %1 needs %2, more than the %3 of a %4 by %5"), out.peakStage,
                units::formatBytes(double(out.peakBytes)), units::formatBytes(double(out.capacityBytes)), gpu.id,
                units::formatBytes(double(out.peakBytes - out.capacityBytes)))));
    else if (!out.fitsWithHeadroom)
        out.warnings.push_back(issue(Severity::Warning, "memory",
            Text(PS_TEXT("CoreText", "stage %1 leaves %2 free, less than the %3 headroom (memoryOverheads.headroom) that "
                                     "covers the memory model's measured error; the planner does not count it as fitting"),
                out.peakStage, units::formatBytes(double(out.capacityBytes - out.peakBytes)),
                units::formatBytes(double(out.capacityBytes - out.usableBytes)))));
    if (!ex) return;
    ex->add({ "memory.capacityBytes", double(out.capacityBytes), "bytes", "memoryBytes",
        { { "memoryBytes", double(gpu.memoryBytes) } }, "GPU preset \"" + gpu.id + "\" (see resources/presets/gpus.json)",
        {}, "The GPU's memory (cluster.gpu.memoryBytes)." });
    ex->add({ "memory.usableBytes", double(out.usableBytes), "bytes", "floor(capacity*(1 - headroom) + 0.5)",
        { { "capacity", double(out.capacityBytes) }, { "headroom", headroom } }, "docs/MEMORY-ACCURACY.md (the headroom)",
        { "memory.capacityBytes" },
        "The peak a plan may reach and still leave the headroom (memoryOverheads.headroom) that covers what the memory "
        "model missed on published runs; the planner counts a plan as fitting only below it." });
    std::vector<double> totals;
    for (const StageMemory& st : out.stages) totals.push_back(double(st.totalBytes));
    auto [formula, inputs] = maxOverFormula("stage", totals);
    ex->add({ "memory.peakBytes", double(out.peakBytes), "bytes", formula, inputs, "docs/MODEL.md sections 2-4",
        { "memory.stages." + std::to_string(out.peakStage) + ".totalBytes" },
        "stageN: totalBytes of pipeline stage N. Stage " + std::to_string(out.peakStage) + " holds the most." });
}

// Returns the recomputed FLOPs per token.
double flopsStage(const Inputs& in, Prediction& out, Explainer* ex)
{
    const TrainingSpec& T = in.T;
    const ParameterCounts& pc = in.pc;
    const double s = in.s, h = in.h, V = in.V;
    // Attention runs in every layer and every MTP module; w = a*(d_qk + d_v)/2 is Megatron's h for multi-head
    // attention with d = h/a (QK^T and PV cost 2*s*a*d_qk and 2*s*a*d_v per token forward).
    const double L = in.L + std::max(0, in.M.mtpLayers), w = in.attnWidth;
    const double heads = 1.0 + std::max(0, in.M.mtpLayers); // output projections
    const double tokensPerStep = double(T.globalBatch) * s;
    const double attnPerToken = 12.0 * L * s * w;
    out.modelFlopsPerToken = 6.0 * pc.matmulActivePerToken + attnPerToken;
    // Recompute re-runs forwards (2 FLOPs per weight per token): every layer's under full recompute; under
    // selective, the attention scores (core_attn without flash attention) and the GEMMs of the modules re-run.
    double extraPerToken = 0;
    double modules = 0; // weights per token the selective modules multiply with again
    if (T.recompute == Recompute::Full) {
        extraPerToken = 2.0 * (pc.matmulActivePerToken - heads * V * h) + 4.0 * L * s * w;
    } else if (T.recompute == Recompute::Selective) {
        std::vector<std::string> mods = T.recomputeModules;
        if (mods.empty()) mods.push_back("core_attn");
        auto on = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
        const LayerParameters& l = pc.layer;
        const double moeL = pc.moeLayers, denseL = pc.denseLayers;
        if (on("mlp")) modules += (in.M.isMoe() ? denseL : in.L) * pc.denseLayer.mlpMatrices;
        if (on("moe")) modules += moeL * (l.activeExperts + l.router + l.mlpMatrices);
        else if (on("shared_experts")) modules += moeL * l.mlpMatrices;
        if (on("mla_up_proj") && in.M.mla.enabled()) {
            const MlaSpec& x = in.M.mla;
            const double a = double(in.M.heads);
            modules += in.L * ((x.qLoraRank > 0 ? double(x.qLoraRank) : h) * a * (x.qkNopeHeadDim + x.qkRopeHeadDim)
                + double(x.kvLoraRank) * a * (x.qkNopeHeadDim + x.vHeadDim));
        }
        extraPerToken = 2.0 * modules + (on("core_attn") && !T.flashAttention ? 4.0 * L * s * w : 0.0);
    }
    out.modelFlopsPerStep = out.modelFlopsPerToken * tokensPerStep;
    out.hardwareFlopsPerStep = (out.modelFlopsPerToken + extraPerToken) * tokensPerStep;
    if (!ex) return extraPerToken;
    ex->add({ "flops.modelPerToken", out.modelFlopsPerToken, "FLOP", "6*N + 12*L*s*w",
        { { "N", pc.matmulActivePerToken }, { "L", L }, { "s", s }, { "w", w } },
        std::string(sources::kPalmFlops) + "; " + sources::kMegatronFlops, {},
        "N counts the matrices a token multiplies with (layers, MTP modules and each output projection, active experts "
        "only); L counts layers and MTP modules; w = a*(d_qk + d_v)/2 (= h for multi-head attention with d = h/a). For "
        "GPT this equals Megatron's 72*s*L*h^2*(1 + s/(6h) + V/(12*h*L)) per sequence / s. The rule of thumb 6*N*T "
        "ignores the attention term." });
    ex->add({ "flops.modelPerStep", out.modelFlopsPerStep, "FLOP", "modelPerToken*B*s",
        { { "modelPerToken", out.modelFlopsPerToken }, { "B", double(T.globalBatch) }, { "s", s } },
        sources::kMegatronFlops, { "flops.modelPerToken" }, "Model FLOPs exclude recompute (for MFU)." });
    const char* recomputeFormula = T.recompute == Recompute::Full ? "(modelPerToken + 2*(N - k*V*h) + 4*L*s*w)*B*s"
        : T.recompute == Recompute::Selective ? (T.flashAttention ? "(modelPerToken + 2*M)*B*s" : "(modelPerToken + 2*M + 4*L*s*w)*B*s")
                                              : "modelPerToken*B*s";
    ex->add({ "flops.hardwarePerStep", out.hardwareFlopsPerStep, "FLOP", recomputeFormula,
        { { "modelPerToken", out.modelFlopsPerToken }, { "N", pc.matmulActivePerToken }, { "k", heads }, { "V", V },
            { "h", h }, { "M", modules }, { "L", L }, { "s", s }, { "w", w }, { "B", double(T.globalBatch) } },
        std::string(sources::kMegatronFlops) + "; " + sources::kKorthikantiFlops, { "flops.modelPerToken" },
        "Full recompute re-runs every layer's forward (Megatron: 96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L))); "
        "selective re-runs the attention scores (4*L*s*w per token; flash attention recomputes inside its kernel, "
        "counted as no extra) and the GEMMs of the other --recompute-modules (M weights per token: mlp, moe, "
        "shared_experts, mla_up_proj)." });
    return extraPerToken;
}

// ---------------------------------------------------------------------------------------------- schedule and step

struct StepTerms {
    int rb = 0;          // the slowest rank (its microbatch slot sets the pace)
    double slotMax = 0;
    double bubble = 0;
    double dpTail = 0;   // the most exposed data-parallel communication after the pipeline
    double optimizer = 0;
};

StepTerms stepStage(const Inputs& in, Prediction& out, Explainer* ex)
{
    const TrainingSpec& T = in.T;
    const int p = in.p, v = in.v;
    const std::int64_t m = in.m;
    StepTerms st;
    st.slotMax = -1;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        const double slot = tm.forwardSeconds + tm.backwardSeconds + tm.p2pSeconds + tm.zeroExposedSeconds;
        if (slot > st.slotMax) {
            st.slotMax = slot;
            st.rb = r;
        }
    }
    const StageTime& bt = out.stageTimes[std::size_t(st.rb)];
    const double F = bt.forwardSeconds + bt.p2pSeconds / 2, B = bt.backwardSeconds + bt.p2pSeconds / 2;
    const double W = bt.weightGradSeconds, Z = bt.zeroExposedSeconds;
    const double slotMax = st.slotMax;
    double bubble = 0;
    const char* bubbleFormula = "0";
    switch (T.schedule) {
    case ScheduleKind::GPipe:
    case ScheduleKind::OneFOneB:
        bubble = (p - 1) * slotMax;
        bubbleFormula = "(p-1)*(F + B + Z)";
        break;
    case ScheduleKind::Interleaved1F1B:
    case ScheduleKind::LoopedBFS:
        bubble = (p - 1) * slotMax / v;
        bubbleFormula = "(p-1)*(F + B + Z)/v";
        break;
    case ScheduleKind::ZBH1:
        bubble = (p - 1) * std::max(0.0, F + (B - W) - W);
        bubbleFormula = "(p-1)*max(0, F + (B - W) - W)";
        break;
    case ScheduleKind::ZBH2:
        bubble = (p - 1) * std::max(0.0, F + (B - W) - 2 * W);
        bubbleFormula = "(p-1)*max(0, F + (B - W) - 2*W)";
        break;
    case ScheduleKind::ZBV:
        bubble = (p - 1) * std::max(0.0, (F + (B - W) - 2 * W) / 2);
        bubbleFormula = "(p-1)*max(0, (F + (B - W) - 2*W)/2)";
        break;
    case ScheduleKind::DualPipe:
        bubble = (p / 2.0 - 1) * std::max(0.0, (F + B) + B - 3 * W);
        bubbleFormula = "(p/2 - 1)*max(0, (F + B) + B - 3*W)";
        break;
    case ScheduleKind::DualPipeV:
        bubble = (p - 1) * std::max(0.0, ((F + B) + B - 3 * W) / 2);
        bubbleFormula = "(p-1)*max(0, ((F + B) + B - 3*W)/2)";
        break;
    }
    if (p == 1) {
        bubble = 0;
        bubbleFormula = "0";
    }
    st.bubble = bubble;
    const double slotComm = bt.p2pSeconds + bt.zeroExposedSeconds;
    const double pipeline = double(m) * slotMax + bubble;
    int rTail = 0, rOptimizer = 0;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        if (tm.dpExposedSeconds > st.dpTail) {
            st.dpTail = tm.dpExposedSeconds;
            rTail = r;
        }
        if (tm.optimizerSeconds > st.optimizer) {
            st.optimizer = tm.optimizerSeconds;
            rOptimizer = r;
        }
    }
    const double dpTail = st.dpTail, optimizer = st.optimizer;
    out.bubbleSeconds = bubble;
    out.computeSeconds = double(m) * (slotMax - slotComm - bt.layerCommSeconds);
    out.exposedCommSeconds = double(m) * (slotComm + bt.layerCommSeconds) + dpTail;
    out.optimizerSeconds = optimizer;
    out.stepSeconds = pipeline + dpTail + optimizer;
    out.analyticStepSeconds = out.stepSeconds;
    out.bubbleFraction = pipeline > 0 ? bubble / pipeline : 0.0;
    out.bubbleOverhead = m > 0 && slotMax > 0 ? bubble / (double(m) * slotMax) : 0.0;
    // Idle of all causes in the closed form: each rank works m slots of its own and waits the rest of the pipeline.
    double busyAll = 0;
    out.idleSeconds = 0;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        const double busyR = double(m) * (tm.forwardSeconds + tm.backwardSeconds + tm.p2pSeconds + tm.zeroExposedSeconds);
        busyAll += busyR;
        out.idleSeconds = std::max(out.idleSeconds, pipeline - busyR);
    }
    out.idleFraction = pipeline > 0 && p > 0 ? std::max(0.0, 1.0 - busyAll / (double(p) * pipeline)) : 0.0;
    out.imbalanceIdleFraction = out.idleFraction - out.bubbleFraction;
    const double gpus = in.C.gpus();
    const double tokensPerStep = double(T.globalBatch) * in.s;
    out.mfu = out.modelFlopsPerStep / (out.stepSeconds * gpus * in.peak);
    out.hfu = out.hardwareFlopsPerStep / (out.stepSeconds * gpus * in.peak);
    out.tokensPerSecond = tokensPerStep / out.stepSeconds;
    out.trainingDays = T.tokens > 0 ? T.tokens / out.tokensPerSecond / units::kSecondsPerDay : 0.0;
    if (T.tokens <= 0)
        out.warnings.push_back(
            issue(Severity::Warning, "training.tokens", Text(PS_TEXT("CoreText", "not set; trainingDays is 0"))));
    if (!ex) return st;

    const std::string slowest = "time.stages." + std::to_string(st.rb) + ".";
    const FormulaInputs slotInputs { { "m", double(m) }, { "F", F }, { "B", B }, { "Z", Z } };
    auto withBubble = [&](FormulaInputs v) {
        v.emplace_back("bubble", bubble);
        return v;
    };
    ex->add({ "time.bubbleFraction", out.bubbleFraction, "1", "bubble/(m*(F + B + Z) + bubble)", withBubble(slotInputs),
        sources::kPipeline, { "time.bubbleSeconds" },
"The schedule's bubble as a share of the pipeline time, every rank taken at the slowest rank's slot; F, B: the "
        "slowest rank's forward and backward of one microbatch with its "
        "p2p sends, Z: its exposed ZeRO communication. For GPipe/1F1B with equal stages (p-1)/(m+p-1) = "
            + units::formatNumber(double(p - 1) / double(m + p - 1))
            + ". The other definition, idle over ideal compute, is bubbleOverhead = (p-1)/m = "
            + units::formatNumber(m > 0 ? double(p - 1) / double(m) : 0.0)
            + " (the Megatron-LM paper's 'bubble time fraction'). Papers disagree because they divide by different things. "
              "Idle of every cause, unequal stages included, is time.idleFraction." });
    ex->add({ "time.idleFraction", out.idleFraction, "1", "1 - busy/(p*pipeline)",
        { { "busy", busyAll }, { "p", double(p) }, { "pipeline", pipeline } }, sources::kPipeline, { "time.bubbleFraction" },
        "Idle share of all ranks, whatever the cause; busy: every rank's m slots (its forward, backward, sends and "
        "exposed ZeRO traffic per microbatch). Ranks faster than the slowest wait for it in every slot on top of the "
        "schedule's bubble." });
    ex->add({ "time.idleSeconds", out.idleSeconds, "seconds", "pipeline - m*slotMin",
        { { "pipeline", pipeline }, { "m", double(m) }, { "slotMin", m > 0 ? (pipeline - out.idleSeconds) / double(m) : 0.0 } },
        sources::kPipeline, {}, "The most idle rank's idle time: the schedule's bubble plus its waits on the slowest rank." });
    ex->add({ "time.imbalanceIdleFraction", out.imbalanceIdleFraction, "1", "idleFraction - bubbleFraction",
        { { "idleFraction", out.idleFraction }, { "bubbleFraction", out.bubbleFraction } }, sources::kPipeline,
        { "time.idleFraction", "time.bubbleFraction" },
        "Idle the schedule's bubble does not explain: stages of unequal time (uneven layers, the output layer on the "
        "last stage) leave the faster ranks waiting for the slowest in every slot." });
    ex->add({ "time.bubbleOverhead", out.bubbleOverhead, "1", "bubble/(m*(F + B + Z))", withBubble(slotInputs),
        sources::kPipeline, { "time.bubbleSeconds" },
        "Idle time over ideal compute; (p-1)/m for GPipe/1F1B, (p-1)/(v*m) interleaved." });
    ex->add({ "time.bubbleSeconds", bubble, "seconds", bubbleFormula,
        { { "p", double(p) }, { "v", double(v) }, { "F", F }, { "B", B }, { "W", W }, { "Z", Z } },
        !traits(T.schedule).splitBackward ? sources::kPipeline
            : T.schedule == ScheduleKind::DualPipe || T.schedule == ScheduleKind::DualPipeV ? sources::kDualPipe
                                                                                            : sources::kZeroBubble,
        { slowest + "forwardSeconds", slowest + "backwardSeconds" },
        "F, B: forward and full backward of one microbatch on the slowest rank (" + std::to_string(st.rb)
            + "), each with half its p2p sends; W: the weight-gradient part of B; Z: its exposed ZeRO-2/3 communication "
              "per microbatch. B here is the full backward; the Zero Bubble paper's B is the input-gradient part "
              "I = B - W; DualPipe's F&B (an overlapped forward and backward) is F + B." });
    ex->add({ "time.computeSeconds", out.computeSeconds, "seconds", "m*(F + B - layerComm)",
        { { "m", double(m) }, { "F", bt.forwardSeconds }, { "B", bt.backwardSeconds }, { "layerComm", bt.layerCommSeconds } },
        sources::kMegatronFlops, { slowest + "forwardSeconds", slowest + "backwardSeconds" },
        "The slowest rank's microbatches back to back, without the TP/EP/CP collectives inside F and B." });
    ex->add({ "time.exposedCommSeconds", out.exposedCommSeconds, "seconds", "m*(layerComm + p2p + zeroExposed) + dpTail",
        { { "m", double(m) }, { "layerComm", bt.layerCommSeconds }, { "p2p", bt.p2pSeconds },
            { "zeroExposed", bt.zeroExposedSeconds }, { "dpTail", dpTail } },
        sources::kAlphaBeta, {},
        "dpTail: the data-parallel communication not hidden, on the stage where it is largest (" + std::to_string(rTail)
            + "); gradient reduction overlaps the last backward when overlapGradReduce is on." });
    const StageParams sp = stageParams(in, rOptimizer);
    ex->add({ "time.optimizerSeconds", optimizer, "seconds",
        in.P.zero >= 1 ? "(P/n + Pe/ne)*(2*o + 2*w + g)/hbm" : "(P + Pe)*(2*o + 2*w + g)/hbm",
        { { "P", sp.dense }, { "Pe", sp.expert }, { "n", double(in.nShard) }, { "ne", double(in.nExpert) }, { "o", in.o },
            { "w", in.w }, { "g", in.g }, { "hbm", in.hbm } },
        "Memory-bound optimizer step: read weights, grads and states, write weights and states", {},
        "On stage " + std::to_string(rOptimizer) + ", the slowest; P, Pe: its dense and expert parameters per GPU, "
            "sharded over n and ne from ZeRO-1 on." });
    ex->add({ "time.stepSeconds", out.stepSeconds, "seconds", "compute + bubble + exposedComm + optimizer",
        { { "compute", out.computeSeconds }, { "bubble", bubble }, { "exposedComm", out.exposedCommSeconds },
            { "optimizer", optimizer } },
        "docs/MODEL.md section 7",
        { "time.computeSeconds", "time.bubbleSeconds", "time.exposedCommSeconds", "time.optimizerSeconds" },
        "Each GEMM at its own shape's efficiency (the operator table, time.layerOps), at most "
            + units::formatNumber(in.eff) + " of the dense " + std::string(toString(T.precision)) + " peak "
            + units::formatFlops(in.peak) + "/s for large shapes." });
    ex->add({ "time.mfu", out.mfu, "1", "modelPerStep/(step*G*peak)",
        { { "modelPerStep", out.modelFlopsPerStep }, { "step", out.stepSeconds }, { "G", gpus }, { "peak", in.peak } },
        sources::kMfu, { "flops.modelPerStep", "time.stepSeconds" },
        "Peak is the dense datasheet number for the dtype (never the 'with sparsity' one)." });
    ex->add({ "time.hfu", out.hfu, "1", "hardwarePerStep/(step*G*peak)",
        { { "hardwarePerStep", out.hardwareFlopsPerStep }, { "step", out.stepSeconds }, { "G", gpus }, { "peak", in.peak } },
        sources::kMfu, { "flops.hardwarePerStep", "time.stepSeconds" }, "HFU counts recomputed FLOPs too." });
    ex->add({ "time.tokensPerSecond", out.tokensPerSecond, "tokens/s", "B*s/step",
        { { "B", double(T.globalBatch) }, { "s", in.s }, { "step", out.stepSeconds } }, "definition",
        { "time.stepSeconds" }, "" });
    ex->add({ "time.trainingDays", out.trainingDays, "days", T.tokens > 0 ? "T/tokensPerSecond/86400" : "0",
        { { "T", T.tokens }, { "tokensPerSecond", out.tokensPerSecond } }, "docs/MODEL.md section 5",
        { "time.tokensPerSecond" }, "Megatron's rule of thumb 8*T*N/(n*X) assumes full recompute." });
    return st;
}

// ---------------------------------------------------------------------------------------------- communication

// One group's figures with, when explaining, how each was computed.
struct Figure {
    double value = 0;
    Term term;             // filled only when explaining
    std::vector<std::string> children;
    std::string note;
};

// The one place a communication group is assembled: where it sits, what runs on it, the bytes each GPU sends
// per step, the time its operations take and the part on the critical path, recorded side by side.
void addGroup(Prediction& out, Explainer* ex, GroupKind kind, int size, const GroupPlacement& where, double link,
    std::string collective, std::string algorithm, const Figure& bytes, const Figure& seconds, const Figure& exposed,
    const char* bytesSource)
{
    CommGroup gr;
    gr.kind = kind;
    gr.size = size;
    gr.crossesNodes = where.crossesNodes;
    gr.nodesSpanned = where.nodesSpanned;
    gr.perNode = where.perNode;
    gr.crossesDomains = where.crossesDomains;
    gr.domainsSpanned = where.domainsSpanned;
    gr.perDomain = where.perDomain;
    gr.collective = std::move(collective);
    gr.algorithm = std::move(algorithm);
    gr.linkBandwidth = link;
    gr.bytesPerStep = bytes.value;
    gr.seconds = seconds.value;
    gr.exposedSeconds = exposed.value;
    if (ex) {
        const std::string base = "comm.groups." + std::to_string(out.comm.size()) + ".";
        ex->add({ base + "bytesPerStep", gr.bytesPerStep, "bytes", bytes.term.formula, bytes.term.inputs,
            std::string(sources::kNcclTests) + "; " + bytesSource, bytes.children,
            "Bytes one GPU sends per step on its " + std::string(toString(kind)) + " group of n = " + std::to_string(size)
                + ". Ring volumes: all-reduce sends 2(n-1)/n of the buffer, all-gather, reduce-scatter and all-to-all "
                  "(n-1)/n. " + bytes.note });
        ex->add({ base + "seconds", gr.seconds, "seconds", seconds.term.formula, seconds.term.inputs, sources::kAlphaBeta,
            seconds.children, "Algorithm: " + gr.algorithm + (gr.crossesNodes ? "; the group crosses nodes" : "; inside one node")
                + ". " + seconds.note });
        ex->add({ base + "exposedSeconds", gr.exposedSeconds, "seconds", exposed.term.formula, exposed.term.inputs,
            "docs/MODEL.md section 6 (overlap)", exposed.children, exposed.note });
    }
    out.comm.push_back(std::move(gr));
}

// Records one collective's alpha-beta time under `field`, for a group figure to name as a child.
void explainCollective(Explainer& ex, const std::string& field, double value, Term term, const GroupPlacement& where)
{
    ex.add({ field, value, "seconds", term.formula, term.inputs, sources::kAlphaBeta, {}, linkNote(where) });
}

// The collectives of one group kind in an op list, per layer (or per output layer): bytes one GPU sends, seconds,
// exposed seconds, and a line naming each op.
struct GroupSums {
    double bytes = 0, seconds = 0, exposed = 0;
    std::string ops;
};

GroupSums sumGroup(const std::vector<KernelOp>& ops, GroupKind kind, bool describe)
{
    GroupSums g;
    for (const KernelOp& op : ops) {
        if (op.kind != KernelKind::Collective || op.group != kind) continue;
        g.bytes += op.repeat * ringBytesPerRank(op.collective, op.groupSize, op.bytes);
        g.seconds += op.seconds;
        g.exposed += op.exposedSeconds;
        if (describe)
            g.ops += std::string(g.ops.empty() ? "" : "; ") + op.name + " " + std::string(toString(op.collective)) + " of "
                + units::formatBytes(op.bytes) + (op.repeat > 1 ? " x" + std::to_string(op.repeat) : "") + " "
                + units::formatSeconds(op.seconds) + (op.hiddenBy >= 0 ? " (overlapped, " + units::formatSeconds(op.exposedSeconds) + " exposed)" : "");
    }
    return g;
}

void commStage(const Inputs& in, const LayerTimes& lt, const StepTerms& step, Prediction& out, Explainer* ex)
{
    const ParallelSpec& P = in.P;
    const TrainingSpec& T = in.T;
    const ClusterSpec& C = in.C;
    const RankLayout& layout = in.layout;
    const int p = in.p, t = in.t, cp = in.cp, ep = in.ep, v = in.v;
    const double md = double(in.m), e = in.e, b = in.b, sl = in.sl, h = in.h;
    const RankShape& shB = in.shapes[std::size_t(step.rb)];
    const double layersAll = shB.layersPerMicrobatch;
    const StageTime& bt = out.stageTimes[std::size_t(step.rb)];
    out.comm.reserve(5);
    auto base = [&] { return "comm.groups." + std::to_string(out.comm.size()) + "."; };
    // tp, cp and ep: the collectives of the operator list, in every layer of every microbatch on the slowest rank.
    auto layerGroup = [&](GroupKind kind, int n, const GroupPlacement& where, const char* collective, const char* algorithm,
                          double layersB) {
        const GroupSums L = sumGroup(lt.ops.layer, kind, ex != nullptr);
        const GroupSums O = shB.output ? sumGroup(lt.ops.output, kind, ex != nullptr) : GroupSums {};
        Figure bytes { md * (layersB * L.bytes + O.bytes), {}, {}, {} };
        Figure seconds { md * (layersB * L.seconds + O.seconds), {}, {}, {} };
        Figure exposed { md * (layersB * L.exposed + O.exposed), {}, {}, {} };
        if (ex) {
            const FormulaInputs mL { { "m", md }, { "layers", layersB } };
            const std::string ops = "Per layer: " + (L.ops.empty() ? std::string("none") : L.ops)
                + (O.ops.empty() ? std::string() : ". Output layer: " + O.ops) + ".";
            bytes.term = { "m*(layers*perLayer + output)", with(mL, { { "perLayer", L.bytes }, { "output", O.bytes } }) };
            bytes.note = "The ring volumes of the operator list's collectives on this group. " + ops;
            seconds.term = { "m*(layers*perLayer + output)", with(mL, { { "perLayer", L.seconds }, { "output", O.seconds } }) };
            seconds.note = "layers: per microbatch on the slowest rank (" + std::to_string(step.rb) + "). " + ops;
            exposed.term = { "m*(layers*perLayer + output)", with(mL, { { "perLayer", L.exposed }, { "output", O.exposed } }) };
            exposed.note = "What the GEMMs they overlap with do not hide (Megatron-Core overlaps the column-parallel "
                           "backward's all-gather and input-gradient reduction with the GEMMs beside them; tpCommOverlap "
                           "overlaps the rest; ring attention overlaps its K/V exchange with the block in hand).";
        }
        addGroup(out, ex, kind, n, where, slowestLink(where, C), collective, algorithm, bytes, seconds, exposed,
            sources::kMegatronFlops);
    };

    // Every layer and MTP module carries the tp and cp collectives (a dense-MLP layer's tp volume taken as an MoE
    // layer's); the ep collectives run in the MoE layers only.
    const double allLayers = layersAll + shB.mtpPerMicrobatch;
    const double moeLayersB = layersAll - shB.denseLayersPerMicrobatch + (in.M.isMoe() ? shB.mtpPerMicrobatch : 0.0);
    if (t > 1)
        layerGroup(GroupKind::TP, t, layout.tp, P.sp ? "AllGather+ReduceScatter" : "AllReduce", algorithmName(layout.tp),
            allLayers);
    if (cp > 1) layerGroup(GroupKind::CP, cp, layout.cp, "SendRecv (ring attention K/V)", "ring p2p", allLayers);
    if (ep > 1 && in.M.isMoe())
        layerGroup(GroupKind::EP, ep, layout.ep, in.M.moe.dispatcher == MoeDispatcher::AllGather ? "AllGather+ReduceScatter" : "AllToAll",
            algorithmName(layout.ep), moeLayersB);
    if (p > 1) {
        Figure bytes { md * 2.0 * v * lt.ppBytes, {}, {}, {} };
        Figure seconds { md * bt.p2pTransferSeconds, {}, {}, {} };
        Figure exposed { md * bt.p2pSeconds, {}, {}, {} };
        if (ex) {
            exposed.note = T.overlapP2pComm
                ? "Sends run beside the next op (overlapP2pComm); 1F1B's steady state still waits for each gradient's round trip."
                : "Every send holds its rank until it completes (Megatron-Core's default, overlap_p2p_comm off).";
            const FormulaInputs pp { { "m", md }, { "v", double(v) }, { "e", e }, { "b", b }, { "s", sl }, { "h", h },
                { "spDiv", P.sp ? double(t) : 1.0 } };
            const char* note = "Per microbatch and chunk one activation forward and one gradient back; spDiv = t with "
                               "sequence parallelism, else 1; bw: the link's bandwidth times its efficiency.";
            bytes.term = { "m*2*v*e*b*s*h/spDiv", pp };
            bytes.note = note;
            const double n = bt.p2pSendSeconds > 0 ? std::round(bt.p2pTransferSeconds / bt.p2pSendSeconds) : 0.0;
            seconds.term = { "m*n*(alpha + e*b*s*h/spDiv/bw)",
                with(pp, { { "n", n }, { "alpha", lt.ppLink->latency }, { "bw", collectiveBandwidth(Collective::SendRecv, *lt.ppLink) } }) };
            seconds.note = "n: the sends per microbatch of the slowest rank (" + std::to_string(step.rb) + "), 2*v less "
                           "one where it holds the first stage (no gradient to send) or the last (no activation); spDiv = t "
                           "with sequence parallelism, else 1; bw: the link's bandwidth times its efficiency.";
            exposed.term = { "seconds", { { "seconds", seconds.value } } };
        }
        addGroup(out, ex, GroupKind::PP, p, layout.pp, lt.ppLink->bandwidth, "SendRecv", "p2p", bytes, seconds, exposed,
            sources::kMegatronFlops);
    }
    if (in.dpcp > 1) {
        // Report the rank whose gradient reduction is most exposed.
        int rd = 0;
        for (int r = 0; r < p; ++r)
            if (out.stageTimes[std::size_t(r)].dpExposedSeconds + in.m * out.stageTimes[std::size_t(r)].zeroExposedSeconds
                > out.stageTimes[std::size_t(rd)].dpExposedSeconds + in.m * out.stageTimes[std::size_t(rd)].zeroExposedSeconds)
                rd = r;
        const StageMemory& st = out.stages[std::size_t(rd)];
        const StageTime& tm = out.stageTimes[std::size_t(rd)];
        const double Pgpu = st.parameters;
        const double g = in.g, w = in.w;
        const double f = double(in.dpcp - 1) / in.dpcp;
        std::string collective;
        Figure bytes, seconds { tm.dpSeconds, {}, {}, {} }, exposed { tm.dpExposedSeconds + md * tm.zeroExposedSeconds, {}, {}, {} };
        const char* bytesFormula = "";
        switch (P.zero) {
        case 0:
            collective = "AllReduce";
            bytes.value = 2.0 * f * g * Pgpu;
            bytesFormula = "2*(n-1)/n*g*P";
            break;
        case 1:
            collective = "ReduceScatter+AllGather";
            bytes.value = f * (g + w) * Pgpu;
            bytesFormula = "(n-1)/n*(g + w)*P";
            break;
        case 2:
            collective = "ReduceScatter per microbatch + AllGather";
            bytes.value = md * f * g * Pgpu + f * w * Pgpu;
            bytesFormula = "m*(n-1)/n*g*P + (n-1)/n*w*P";
            break;
        default:
            collective = "AllGather x2 + ReduceScatter per microbatch";
            bytes.value = md * f * (g + 2.0 * w) * Pgpu;
            bytesFormula = "m*(n-1)/n*(g + 2*w)*P";
            break;
        }
        if (ex) {
            bytes.term = { bytesFormula,
                { { "m", md }, { "n", double(in.dpcp) }, { "g", g }, { "w", w }, { "P", Pgpu } } };
            bytes.note = "P: parameters per GPU of stage " + std::to_string(rd) + " (dense and expert); ZeRO-"
                + std::to_string(P.zero) + ".";
            const DpTerms d = dpTerms(in, stageParams(in, rd));
            const std::string reduceField = base() + "reduceSeconds", gatherField = base() + "gatherSeconds";
            const Collective reduceOp = P.zero == 0 ? Collective::AllReduce : Collective::ReduceScatter;
            explainCollective(*ex, reduceField, tm.dpReduceSeconds, dpTerm(in, reduceOp, d.gradD, d.gradE, in.g), layout.dpCp);
            const double gather = P.zero >= 3 ? tm.zeroGatherSeconds : tm.dpGatherSeconds;
            const std::string groups = " S: the gradient (or weight) bytes of the dense parameters over dp*cp = n; "
                                       "nE, SE: the expert parameters over their expert-data-parallel group.";
            if (P.zero >= 1)
                explainCollective(*ex, gatherField, gather, dpTerm(in, Collective::AllGather, d.weightD, d.weightE, in.w), layout.dpCp);
            const FormulaInputs terms { { "m", md }, { "reduce", tm.dpReduceSeconds }, { "gather", gather },
                { "F", tm.forwardSeconds }, { "B", tm.backwardSeconds }, { "q", lastBucketShare(in, rd) },
                { "u", zeroShare(in.shapes[std::size_t(rd)]) }, { "c", tm.contentionSeconds },
                { "cz", tm.zeroContentionSeconds } };
            seconds.term.inputs = exposed.term.inputs = terms;
            seconds.children = exposed.children = P.zero >= 1 ? std::vector<std::string> { reduceField, gatherField }
                                                               : std::vector<std::string> { reduceField };
            const bool overlap = T.overlapGradReduce;
            switch (P.zero) {
            case 0:
                seconds.term.formula = "reduce";
                exposed.term.formula = overlap ? "max(q*reduce, reduce - B) + c" : "reduce";
                break;
            case 1:
                seconds.term.formula = "reduce + gather";
                exposed.term.formula = overlap ? "max(q*reduce, reduce - B) + max(q*gather, gather - F) + c" : "reduce + gather";
                break;
            case 2:
                seconds.term.formula = "m*u*reduce + gather";
                exposed.term.formula = overlap ? "max(q*gather, gather - F) + c + m*(max(0, u*reduce - (F + B)) + cz)"
                                               : "gather + c + m*(max(0, u*reduce - (F + B)) + cz)";
                break;
            default:
                seconds.term.formula = "m*u*(reduce + 2*gather)";
                exposed.term.formula = "m*(max(0, u*(reduce + 2*gather) - (F + B)) + cz)";
                break;
            }
            seconds.note = "ZeRO-0/1 reduce once per step, ZeRO-2/3 every microbatch (u: the share of the rank's layers a "
                           "microbatch passes, 1/2 for DualPipe's two copies); ZeRO-3 gathers the weights "
                           "before every forward and every backward." + groups;
            exposed.note = "F, B: stage " + std::to_string(rd)
                + "'s forward and backward of one microbatch. Gradient reduction overlaps the backward of the last "
                  "microbatch bucket by bucket when overlapGradReduce is on, except the last bucket, q of the gradient "
                  "(Megatron-Core DDP: buckets of max(4e7, 1e6*dp) elements); the parameter all-gather overlaps the "
                  "next forward the same way; ZeRO-2/3's per-microbatch traffic hides behind F + B. c, cz: the compute "
                  "the hidden part slows, per step and per microbatch (docs/MODEL.md section 7.3).";
        }
        addGroup(out, ex, GroupKind::DPCP, in.dpcp, layout.dpCp, slowestLink(layout.dpCp, C), collective, algorithmName(layout.dpCp),
            bytes, seconds, exposed, sources::kZeroComm);
    }
    // Groups across nodes are warned about by validate(), from the same RankLayout.
}

} // namespace

namespace {

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
