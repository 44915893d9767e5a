// The operator list of a layer (docs/MODEL.md section 7.1). Shapes follow Megatron-Core's layers: column-parallel
// QKV and fc1, row-parallel output projection and fc2 (Shoeybi et al. 2019, section 3); sequence parallelism turns
// each all-reduce into an all-gather before the column-parallel GEMM and a reduce-scatter after the row-parallel
// one, and the column-parallel backward gathers its input again for the weight gradient (Korthikanti et al. 2023,
// section 4.2.2; megatron/core/tensor_parallel/layers.py, LinearWithGradAccumulationAndAsyncCommunication, which
// also overlaps the input-gradient all-reduce or reduce-scatter with the weight-gradient GEMM).
#include "Operators.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace planscope {

std::string_view toString(KernelKind k)
{
    switch (k) {
    case KernelKind::Gemm: return "gemm";
    case KernelKind::Attention: return "attention";
    case KernelKind::Memory: return "memory";
    case KernelKind::Collective: return "collective";
    }
    return "?";
}

std::string_view toString(KernelPass p)
{
    switch (p) {
    case KernelPass::Forward: return "forward";
    case KernelPass::Recompute: return "recompute";
    case KernelPass::BackwardInput: return "backward-input";
    case KernelPass::BackwardWeight: return "backward-weight";
    }
    return "?";
}

double groupSeconds(Collective c, const GroupPlacement& placed, double bytes, const ClusterSpec& cl)
{
    const GroupPlacement g = placed.fabric();
    if (g.size <= 1 || bytes <= 0) return 0.0;
    if (!g.crossesNodes) return ringSeconds(c, g.size, bytes, cl.intraNode);
    return hierarchicalSeconds(c, g.size, g.perNode, bytes, cl.intraNode, cl.interNode);
}

double p2pSeconds(double bytes, bool crossesNodes, const ClusterSpec& cl)
{
    if (bytes <= 0) return 0.0;
    // Not slowed by the link's bus-bandwidth curve: that curve measures collectives (docs/HARDWARE.md).
    const LinkSpec& link = crossesNodes ? cl.interNode : cl.intraNode;
    return link.latency + bytes / collectiveBandwidth(Collective::SendRecv, link);
}

namespace {

constexpr double kLatencyBoundBytes = 1 << 20;

struct Shape {
    const LayerInputs& in;
    const RankLayout& layout;
    Precision prec;
    double e;           // bytes of an activation element
    double T;           // tokens of one microbatch on this GPU (b * s / cp)
    double Tn;          // tokens in the norm/dropout region (T / t under sequence parallelism)
    double h, a, kv, d, s, sl, b;
    int t, cp, ep;
    bool sp, flash, dropout, splitBackward = false, causal = true;
    int etp = 1;        // expert tensor parallelism
    double dq = 0, dv = 0; // query/key and value head dims (d, or MLA's nope + rope and v)
    // Total widths of Q, K, V and the attention output over all heads (before tp): a*dq, kv*dq (MLA: a*dq), ...
    double qWidth = 0, kWidth = 0, vWidth = 0, oWidth = 0;
};

// Transformer Engine's userbuffers defaults (transformer_engine/pytorch/module/base.py, get_default_config).
constexpr int kTePipelineSplits = 4;
constexpr int kTeCommSms = 16;

class Builder {
public:
    Builder(const Shape& sh, std::vector<KernelOp>& ops) : S(sh), ops(ops) { }

    // fp8: whether the GEMM runs in fp8 under an fp8 plan (Transformer Engine layers do; the output layer, the
    // router and the unfused attention products stay in bf16).
    int gemm(const char* name, KernelPass pass, double m, double n, double k, double batch = 1, bool fp8 = true,
        int repeat = 1)
    {
        KernelOp op = make(name, KernelKind::Gemm, pass, 2.0 * m * n * k * batch * repeat, 0.0);
        op.fp8 = fp8;
        op.repeat = repeat;
        op.m = std::llround(std::max(1.0, m));
        op.n = std::llround(std::max(1.0, n));
        op.k = std::llround(std::max(1.0, k));
        op.batch = std::llround(std::max(1.0, batch));
        return push(op);
    }
    int memory(const char* name, KernelPass pass, double bytes) { return push(make(name, KernelKind::Memory, pass, 0.0, bytes)); }
    int attention(const char* name, KernelPass pass, double flops, double bytes)
    {
        return push(make(name, KernelKind::Attention, pass, flops, bytes));
    }
    int collective(const char* name, KernelPass pass, Collective c, GroupKind g, int size, double bytes, int hiddenBy = -1,
        int repeat = 1)
    {
        if (size <= 1 || bytes <= 0) return -1;
        KernelOp op = make(name, KernelKind::Collective, pass, 0.0, bytes);
        op.collective = c;
        op.group = g;
        op.groupSize = size;
        op.hiddenBy = hiddenBy;
        op.repeat = repeat;
        op.launches = std::max(1, repeat);
        return push(op);
    }
    int size() const { return int(ops.size()); }
    // Transformer Engine's default TP overlap for a GEMM and the collective it hides (transformer_engine/pytorch/
    // module/base.py, initialize_ub, get_default_config): ring exchange runs tp GEMMs of the shard each rank holds
    // while copy engines pass the shards on (num_splits = tp, use_ce); pipeline runs 4 GEMMs and bulk one, each on the
    // SMs the 16 SMs of the communication kernel leave (num_sm 16, set_sm_margin); the all-gathers carry fp8 under an
    // fp8 recipe (fp8_buf).
    enum class TeOverlap { RingExchange, Pipeline, Bulk };
    void teOverlap(int gemmIndex, int collectiveIndex, TeOverlap method)
    {
        if (gemmIndex < 0) return;
        KernelOp& g = ops[std::size_t(gemmIndex)];
        switch (method) {
        case TeOverlap::RingExchange: g.splits = std::max(1, S.t); break;
        case TeOverlap::Pipeline:
            g.splits = kTePipelineSplits;
            g.reservedSms = kTeCommSms;
            break;
        case TeOverlap::Bulk: g.reservedSms = kTeCommSms; break;
        }
        g.launches = std::max(g.launches, g.splits);
        if (collectiveIndex >= 0) {
            KernelOp& c = ops[std::size_t(collectiveIndex)];
            c.hiddenBy = gemmIndex;
            c.commSms = 0;
            // Under fp8 the all-gathered inputs travel quantised, one byte an element (TE: "AllGather buffers use fp8
            // when using fp8 recipe"); the reduce-scatters stay in the activation dtype.
            if (c.collective == Collective::AllGather && S.prec == Precision::FP8 && S.e > 1) c.bytes /= S.e;
        }
    }
    // Sets the kernels the CPU issues for op i (from the op as Megatron-Core and Transformer Engine run it) and its
    // capture region; i < 0 (an op not added) is ignored.
    int launches(int i, int n, OpRegion region = OpRegion::Layer)
    {
        if (i >= 0) {
            ops[std::size_t(i)].launches = std::max(1, n);
            ops[std::size_t(i)].region = region;
        }
        return i;
    }
    int region(int i, OpRegion region)
    {
        if (i >= 0) ops[std::size_t(i)].region = region;
        return i;
    }

    const Shape& S;
    std::vector<KernelOp>& ops;

private:
    static KernelOp make(const char* name, KernelKind kind, KernelPass pass, double flops, double bytes)
    {
        KernelOp op;
        op.name = name;
        op.kind = kind;
        op.pass = pass;
        op.flops = flops;
        op.bytes = bytes;
        return op;
    }
    int push(const KernelOp& op)
    {
        ops.push_back(op);
        return int(ops.size()) - 1;
    }
};

// Names of a GEMM's three passes.
struct GemmNames {
    const char* fwd;
    const char* dgrad;
    const char* wgrad;
};

// The op names of one tensor-parallel MLP (the dense MLP, or MoE shared experts beside the routed ones).
struct MlpNames {
    const char *gather, *fc1, *act, *fc2, *reduceScatter, *allReduce;
    const char *gatherBwd, *fc2Dgrad, *fc2Wgrad, *actBwd, *regather, *fc1Dgrad, *fc1Wgrad, *reduceScatterBwd, *allReduceBwd;
};
constexpr MlpNames kDenseMlp { "tp.allgather.mlp", "fc1", "activation", "fc2", "tp.reducescatter.mlp", "tp.allreduce.mlp",
    "tp.allgather.mlp.bwd", "fc2.dgrad", "fc2.wgrad", "activation.bwd", "tp.allgather.mlp.input", "fc1.dgrad", "fc1.wgrad",
    "tp.reducescatter.mlp.dgrad", "tp.allreduce.mlp.dgrad" };
constexpr MlpNames kSharedExperts { "tp.allgather.shared", "shared.fc1", "shared.activation", "shared.fc2",
    "tp.reducescatter.shared", "tp.allreduce.shared", "tp.allgather.shared.bwd", "shared.fc2.dgrad", "shared.fc2.wgrad",
    "shared.activation.bwd", "tp.allgather.shared.input", "shared.fc1.dgrad", "shared.fc1.wgrad",
    "tp.reducescatter.shared.dgrad", "tp.allreduce.shared.dgrad" };

// Elements per token that Transformer Engine casts to fp8 around the layer's four GEMMs (QKV, proj, fc1, fc2):
// their inputs in forward, their output gradients in backward; MoE experts see topK copies of each token.
double fp8CastWidths(const Shape& S, bool backward)
{
    const ModelSpec& M = S.in.model;
    const double t = S.t, h = S.h;
    const double k = M.isMoe() ? double(M.moe.topK) : 1.0;
    const double f = M.isMoe() ? double(M.moe.expertFfnHidden) : double(M.ffnHidden);
    const double up = M.gatedMlp ? 2.0 : 1.0;
    const double qkvWidth = (S.qWidth + S.kWidth + S.vWidth) / t;
    if (!backward) return h + S.oWidth / t + k * h + k * f / t;
    return qkvWidth + h + k * up * f / t + k * h;
}

// A column-parallel fc1 (gated: 2f/t wide), its activation, a row-parallel fc2, with SP's all-gather before and
// reduce-scatter after (all-reduce without SP), each hidden by its GEMM under tpCommOverlap.
void mlpForward(Builder& B, KernelPass pass, double f, const MlpNames& n)
{
    const Shape& S = B.S;
    const bool tpOverlap = S.in.training.tpCommOverlap && S.sp;
    const double t = S.t, T = S.T, h = S.h, e = S.e;
    const bool gated = S.in.model.gatedMlp;
    const int gather = S.sp ? B.collective(n.gather, pass, Collective::AllGather, GroupKind::TP, S.t, e * T * h) : -1;
    const int fc1 = B.gemm(n.fc1, pass, T, (gated ? 2.0 : 1.0) * f / t, h);
    if (gather >= 0 && tpOverlap) B.teOverlap(fc1, gather, Builder::TeOverlap::RingExchange);
    B.memory(n.act, pass, (gated ? 3.0 : 2.0) * e * T * f / t);
    const int fc2 = B.gemm(n.fc2, pass, T, h, f / t);
    const int reduce = B.collective(S.sp ? n.reduceScatter : n.allReduce, pass,
        S.sp ? Collective::ReduceScatter : Collective::AllReduce, GroupKind::TP, S.t, e * T * h);
    if (tpOverlap) B.teOverlap(fc2, reduce, Builder::TeOverlap::Pipeline);
}

// The projections into Q, K and V. Standard attention: one column-parallel GEMM (after SP's all-gather) and rotary.
// MLA (DeepSeek-V2 section 2.1; Megatron-Core multi_latent_attention.py): the down projections to the q and kv latents
// on this GPU's own (sequence-parallel) tokens, their norms, an all-gather of the latents over tp, then the
// column-parallel up projections, and rotary on the rope part of q and the shared rope key.
void qkvForward(Builder& B, KernelPass pass)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const bool tpOverlap = S.in.training.tpCommOverlap && S.sp;
    const double t = S.t, T = S.T, Tn = S.Tn, h = S.h, e = S.e;
    if (M.mla.enabled()) {
        const MlaSpec& x = M.mla;
        const double qr = x.qLoraRank, kr = x.kvLoraRank, dr = x.qkRopeHeadDim;
        if (qr > 0) B.gemm("mla.q_down", pass, Tn, qr, h);
        B.gemm("mla.kv_down", pass, Tn, kr + dr, h);
        B.memory("mla.latent_norms", pass, 2.0 * e * Tn * (qr + kr));
        if (S.sp) B.collective("tp.allgather.mla_latents", pass, Collective::AllGather, GroupKind::TP, S.t, e * T * (qr + kr + dr));
        if (qr > 0) {
            B.gemm("mla.q_up", pass, T, S.qWidth / t, qr);
        } else {
            if (S.sp) B.collective("tp.allgather.q", pass, Collective::AllGather, GroupKind::TP, S.t, e * T * h);
            B.gemm("mla.q", pass, T, S.qWidth / t, h);
        }
        B.gemm("mla.kv_up", pass, T, S.a * (x.qkNopeHeadDim + x.vHeadDim) / t, kr);
        B.memory("rotary", pass, 2.0 * e * T * (S.a * dr / t + dr));
        return;
    }
    int gather = -1;
    if (S.sp) gather = B.collective("tp.allgather.qkv", pass, Collective::AllGather, GroupKind::TP, S.t, e * T * h);
    const int qkv = B.gemm("qkv", pass, T, (S.qWidth + S.kWidth + S.vWidth) / t, h);
    if (gather >= 0 && tpOverlap) B.teOverlap(qkv, gather, Builder::TeOverlap::RingExchange);
    if (M.qkNorm) B.memory("qk_norm", pass, 2.0 * e * T * (S.qWidth + S.kWidth) / t);
    if (M.positionEmbedding == PositionEmbedding::Rope) B.memory("rotary", pass, 2.0 * e * T * (S.qWidth + S.kWidth) / t);
}

// The routed experts of an MoE layer as Megatron-Core runs them (megatron/core/transformer/moe: router.py,
// token_dispatcher.py, experts.py, moe_utils.py; docs/MODEL.md section 7.5): the router on this GPU's own
// (sequence-parallel) tokens (the gating GEMM, the score function and top-k, the auxiliary loss), the dispatcher's
// preprocess (each expert's token count, all-gathered over ep, copied to the host: a dropless dispatcher's sync), the
// permutation of topK copies of every token by expert, the dispatch over ep (an all-to-all of the copies and of their
// probabilities, or an all-gather of every rank's tokens), the expert-tp all-gather, the sort of the received chunks
// by local expert, the fp8 padding of every expert's tokens to the quantisation alignment, the local experts' grouped
// GEMMs (Transformer Engine GroupedLinear: one GEMM per local expert), and the mirror image back to the unpermute.
// Under capacity routing the experts take cf times the balanced share (padded to capacity); dropless, the busiest
// rank's experts take imbalance times it (1 = the force-balanced routing of the published benchmarks).
struct MoeShape {
    double local, perExpert, copies, routed, gathered, dispatch, fe, cf, load, experts;
    int etp;
    bool grouped, allGather, syncs;
};

// Transformer Engine pads each expert's tokens to this many rows for fp8 GEMMs: 16, 32 under MXFP8
// (megatron/core/transformer/moe/moe_utils.py get_align_size_for_quantization).
double fp8Align(const Shape& S)
{
    if (S.prec != Precision::FP8) return 1.0;
    return S.in.training.fp8Recipe == Fp8Recipe::MxFp8 ? 32.0 : 16.0;
}

MoeShape moeShape(const Shape& S)
{
    const MoeSpec& moe = S.in.model.moe;
    MoeShape m {};
    m.cf = moe.capacityFactor > 0 ? moe.capacityFactor : 1.0;
    m.load = moe.capacityFactor > 0 ? moe.capacityFactor : std::max(1.0, moe.imbalance);
    m.etp = S.etp;
    m.fe = double(moe.expertFfnHidden);
    m.experts = double(moe.experts);
    m.local = std::max(1.0, double(moe.experts) / S.ep);
    m.copies = S.Tn * moe.topK * m.etp * m.load;      // token copies the busiest GPU's experts compute on
    const double align = fp8Align(S);
    m.perExpert = std::ceil(m.copies / m.local / align) * align;
    m.routed = S.e * S.Tn * moe.topK * S.h * m.load;  // one GPU's dispatched copies (what the busiest receives)
    m.gathered = S.e * m.copies * S.h;                // after the expert-tp all-gather
    m.allGather = moe.dispatcher == MoeDispatcher::AllGather;
    m.dispatch = m.allGather ? S.e * S.Tn * S.ep * S.h : m.routed;
    m.grouped = moe.groupedGemm;
    m.syncs = moeSyncsHost(moe);
    return m;
}

void moeForward(Builder& B, KernelPass pass)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const MoeShape m = moeShape(S);
    const OpRegion X = OpRegion::Experts;
    const double e = S.e, h = S.h, up = M.gatedMlp ? 2.0 : 1.0, act = M.gatedMlp ? 3.0 : 2.0;
    const double Tn = S.Tn, k = double(M.moe.topK), E = m.experts, copies = m.copies;
    const int batch = m.grouped ? int(m.local) : 1, repeat = m.grouped ? 1 : int(m.local);
    const int perExpertLaunches = int(m.local); // GroupedLinear issues one GEMM per local expert
    const bool recompute = pass == KernelPass::Recompute;
    B.gemm("router", pass, Tn, E, h, 1, false);
    // fp32 scores: read the logits, write the scores, top-k reads them; the routing map and probabilities written.
    B.launches(B.memory("router.topk", pass, 4.0 * Tn * E * 3.0 + Tn * E * 5.0), 4);
    // The load-balancing loss recomputes the scores over all experts and sums them and the counts per expert.
    B.launches(B.memory("router.aux_loss", pass, 4.0 * Tn * E * 2.0), 5);
    int counts = -1;
    if (!m.allGather && S.ep * m.etp > 1) {
        counts = B.collective("ep.token_counts", pass, Collective::AllGather, GroupKind::EP, S.ep, 8.0 * E * S.ep);
        if (counts >= 0 && m.syncs && !recompute) B.ops[std::size_t(counts)].syncAfter = true;
    }
    // The permutation gathers topK copies of every token (and their probabilities) into expert order.
    B.launches(B.memory("moe.permute", pass, e * Tn * h + e * copies / m.etp * h + 12.0 * Tn * k), 3, X);
    const int dispatch = B.region(B.collective("ep.dispatch", pass, m.allGather ? Collective::AllGather : Collective::AllToAll,
        GroupKind::EP, S.ep, m.dispatch), X);
    if (m.allGather && dispatch >= 0 && m.syncs && !recompute) B.ops[std::size_t(dispatch)].syncAfter = true;
    if (!m.allGather) B.region(B.collective("ep.dispatch.probs", pass, Collective::AllToAll, GroupKind::EP, S.ep, 4.0 * Tn * k * m.load), X);
    B.region(B.collective("tp.allgather.experts", pass, Collective::AllGather, GroupKind::TP, m.etp, m.gathered), X);
    const bool sorts = m.local > 1 && S.ep > 1;
    if (sorts) B.launches(B.memory("moe.sort_chunks", pass, 2.0 * e * copies * h), 1, X);
    if (fp8Align(S) > 1) B.launches(B.memory("experts.fp8_pad", pass, 2.0 * e * copies * h), 2, X);
    B.launches(B.gemm("experts.fc1", pass, m.perExpert, up * m.fe / m.etp, h, batch, true, repeat), perExpertLaunches, X);
    B.launches(B.memory("experts.activation", pass, act * e * copies * m.fe / m.etp), 1, X);
    B.launches(B.gemm("experts.fc2", pass, m.perExpert, h, m.fe / m.etp, batch, true, repeat), perExpertLaunches, X);
    if (fp8Align(S) > 1) B.launches(B.memory("experts.fp8_unpad", pass, 2.0 * e * copies * h), 2, X);
    if (sorts) B.launches(B.memory("moe.unsort_chunks", pass, 2.0 * e * copies * h), 1, X);
    B.region(B.collective("tp.reducescatter.experts", pass, Collective::ReduceScatter, GroupKind::TP, m.etp, m.gathered), X);
    B.region(B.collective("ep.combine", pass, m.allGather ? Collective::ReduceScatter : Collective::AllToAll, GroupKind::EP, S.ep,
        m.dispatch), X);
    // The unpermute scatter-adds the copies back to their tokens.
    B.launches(B.memory("moe.unpermute", pass, e * copies / m.etp * h + 2.0 * e * Tn * h), 2, X);
}

// The forward of one layer, appended with `pass` (Forward, or Recompute when re-run in backward).
void layerForward(Builder& B, KernelPass pass)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const bool tpOverlap = S.in.training.tpCommOverlap && S.sp; // Megatron-Core needs SP for it (validation warns)
    const double t = S.t, T = S.T, Tn = S.Tn, h = S.h, e = S.e;
    const double mask = S.dropout ? 1.0 : 0.0;
    B.memory("input_norm", pass, 2.0 * e * Tn * h);
    qkvForward(B, pass);
    int core = -1;
    if (S.flash) {
        // QK^T over a*dq and PV over a*dv per query and key (4*b*s*s*h/t for multi-head attention with d = h/a).
        const double flops = 2.0 * S.b * S.sl * S.s * (S.qWidth + S.oWidth) / t;
        const double bytes = e * T * (S.qWidth + S.oWidth + S.kWidth + S.vWidth) / t;
        core = B.attention("attention", pass, flops, bytes);
    } else {
        const double heads = S.b * S.a / t, scores = heads * S.sl * S.s;
        core = B.gemm("attn.scores", pass, S.sl, S.s, S.dq, heads, false);
        B.memory("attn.softmax", pass, 2.0 * e * scores);
        if (S.dropout) B.memory("attn.dropout", pass, (2.0 * e + 1.0) * scores);
        B.gemm("attn.values", pass, S.sl, S.dv, S.s, heads, false);
    }
    if (S.cp > 1) {
        // Ring attention: cp-1 steps each passing this rank's K and V blocks, overlapped with the block in hand.
        B.collective("cp.kv", pass, Collective::SendRecv, GroupKind::CP, S.cp, e * T * (S.kWidth + S.vWidth) / t, core,
            S.cp - 1);
    }
    const int proj = B.gemm("proj", pass, T, h, S.oWidth / t);
    const int projReduce = B.collective(S.sp ? "tp.reducescatter.proj" : "tp.allreduce.proj", pass,
        S.sp ? Collective::ReduceScatter : Collective::AllReduce, GroupKind::TP, S.t, e * T * h);
    if (tpOverlap) B.teOverlap(proj, projReduce, Builder::TeOverlap::Pipeline);
    B.memory("bias_dropout_add", pass, (3.0 * e + mask) * Tn * h);
    B.memory("post_attn_norm", pass, 2.0 * e * Tn * h);
    if (M.isMoe()) {
        // MoE with tp needs sequence parallelism in Megatron-Core, so Tn = T/t there. Shared experts are a dense MLP
        // beside the routed ones, with the usual tp collectives.
        moeForward(B, pass);
        const int first = B.size();
        if (M.moe.sharedExperts > 0)
            mlpForward(B, pass, double(M.moe.sharedExperts) * double(M.moe.sharedExpertFfnHidden), kSharedExperts);
        for (int i = first; i < B.size(); ++i) B.region(i, OpRegion::Experts);
    } else {
        mlpForward(B, pass, double(M.ffnHidden), kDenseMlp);
    }
    B.memory("bias_dropout_add", pass, (3.0 * e + mask) * Tn * h);
    if (S.in.training.precision == Precision::FP8) {
        // Transformer Engine casts each GEMM input to fp8 (read 2 bytes, write 1): QKV, proj, fc1, fc2 inputs.
        B.launches(B.memory("fp8_casts", pass, 3.0 * T * fp8CastWidths(S, false)), 4);
    }
}

// Backward of one GEMM of the forward: the input gradient dX = dY W^T (M x K from M x N times N x K) and the
// weight gradient dW = X^T dY (K x N from K x M times M x N).
struct LinearBwd {
    int dgrad = -1, wgrad = -1;
};
LinearBwd linearBackward(Builder& B, const char* dgradName, const char* wgradName, double m, double n, double k,
    double batch = 1, bool fp8 = true)
{
    LinearBwd r;
    r.dgrad = B.gemm(dgradName, KernelPass::BackwardInput, m, k, n, batch, fp8);
    r.wgrad = B.gemm(wgradName, KernelPass::BackwardWeight, k, n, m, batch, fp8);
    return r;
}

// Backward of a column-parallel linear, in the order Megatron-Core issues it: with SP, the input gathered again
// (hidden by the input-gradient GEMM), the input gradient, its reduce-scatter (hidden by the weight-gradient GEMM),
// the weight gradient; without SP the input gradient's all-reduce behind the weight gradient.
LinearBwd columnBackward(Builder& B, const char* dgradName, const char* wgradName, const char* regather, const char* reduce,
    double m, double n, double k, double batch = 1, bool fp8 = true)
{
    const Shape& S = B.S;
    const double bytes = S.e * S.T * S.h;
    const int gather = S.sp ? B.collective(regather, KernelPass::BackwardInput, Collective::AllGather, GroupKind::TP, S.t, bytes)
                            : -1;
    LinearBwd r;
    r.dgrad = B.gemm(dgradName, KernelPass::BackwardInput, m, k, n, batch, fp8);
    const bool teBulk = S.in.training.tpCommOverlap && S.sp;
    if (gather >= 0 && teBulk) B.teOverlap(r.dgrad, gather, Builder::TeOverlap::Bulk);
    else if (gather >= 0) B.ops[std::size_t(gather)].hiddenBy = r.dgrad;
    const int red = B.collective(reduce, KernelPass::BackwardInput, S.sp ? Collective::ReduceScatter : Collective::AllReduce,
        GroupKind::TP, S.t, bytes);
    r.wgrad = B.gemm(wgradName, KernelPass::BackwardWeight, k, n, m, batch, fp8);
    // Schedules that split the backward (zero bubble, DualPipe) run the weight gradient later: nothing hides the
    // reduction then.
    if (red >= 0 && !S.splitBackward && teBulk) B.teOverlap(r.wgrad, red, Builder::TeOverlap::Bulk);
    else if (red >= 0 && !S.splitBackward) B.ops[std::size_t(red)].hiddenBy = r.wgrad;
    return r;
}

// mlpForward's backward: SP's all-gather of the output gradient (hidden by fc2's input gradient under
// tpCommOverlap), fc2, the activation, and fc1 as a column-parallel layer.
void mlpBackward(Builder& B, double f, const MlpNames& n)
{
    const Shape& S = B.S;
    const bool tpOverlap = S.in.training.tpCommOverlap && S.sp;
    const double t = S.t, T = S.T, h = S.h, e = S.e;
    const bool gated = S.in.model.gatedMlp;
    const KernelPass bi = KernelPass::BackwardInput;
    const int back = S.sp ? B.collective(n.gatherBwd, bi, Collective::AllGather, GroupKind::TP, S.t, e * T * h) : -1;
    const LinearBwd fc2 = linearBackward(B, n.fc2Dgrad, n.fc2Wgrad, T, h, f / t);
    if (back >= 0 && tpOverlap) B.teOverlap(fc2.dgrad, back, Builder::TeOverlap::RingExchange);
    // Element-wise backward reads the saved input and the incoming gradient and writes the input gradient.
    B.memory(n.actBwd, bi, (gated ? 5.0 : 3.0) * e * T * f / t);
    columnBackward(B, n.fc1Dgrad, n.fc1Wgrad, n.regather, S.sp ? n.reduceScatterBwd : n.allReduceBwd, T,
        (gated ? 2.0 : 1.0) * f / t, h);
}

// qkvForward's backward, in reverse order.
void qkvBackward(Builder& B)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const KernelPass bi = KernelPass::BackwardInput;
    const double t = S.t, T = S.T, Tn = S.Tn, h = S.h, e = S.e;
    if (M.mla.enabled()) {
        const MlaSpec& x = M.mla;
        const double qr = x.qLoraRank, kr = x.kvLoraRank, dr = x.qkRopeHeadDim;
        B.memory("rotary.bwd", bi, 2.0 * e * T * (S.a * dr / t + dr));
        linearBackward(B, "mla.kv_up.dgrad", "mla.kv_up.wgrad", T, S.a * (x.qkNopeHeadDim + x.vHeadDim) / t, kr);
        if (qr > 0) {
            linearBackward(B, "mla.q_up.dgrad", "mla.q_up.wgrad", T, S.qWidth / t, qr);
        } else {
            columnBackward(B, "mla.q.dgrad", "mla.q.wgrad", "tp.allgather.q.input",
                S.sp ? "tp.reducescatter.q.dgrad" : "tp.allreduce.q.dgrad", T, S.qWidth / t, h);
        }
        if (S.sp)
            B.collective("tp.reducescatter.mla_latents", bi, Collective::ReduceScatter, GroupKind::TP, S.t, e * T * (qr + kr + dr));
        B.memory("mla.latent_norms.bwd", bi, 3.0 * e * Tn * (qr + kr));
        linearBackward(B, "mla.kv_down.dgrad", "mla.kv_down.wgrad", Tn, kr + dr, h);
        if (qr > 0) linearBackward(B, "mla.q_down.dgrad", "mla.q_down.wgrad", Tn, qr, h);
        return;
    }
    if (M.positionEmbedding == PositionEmbedding::Rope) B.memory("rotary.bwd", bi, 2.0 * e * T * (S.qWidth + S.kWidth) / t);
    if (M.qkNorm) B.memory("qk_norm.bwd", bi, 3.0 * e * T * (S.qWidth + S.kWidth) / t);
    columnBackward(B, "qkv.dgrad", "qkv.wgrad", "tp.allgather.qkv.input",
        S.sp ? "tp.reducescatter.qkv.dgrad" : "tp.allreduce.qkv.dgrad", T, (S.qWidth + S.kWidth + S.vWidth) / t, h);
}

void moeBackward(Builder& B)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const MoeShape m = moeShape(S);
    const OpRegion X = OpRegion::Experts;
    const KernelPass bi = KernelPass::BackwardInput, bw = KernelPass::BackwardWeight;
    const double e = S.e, h = S.h, up = M.gatedMlp ? 2.0 : 1.0, actBwd = M.gatedMlp ? 5.0 : 3.0;
    const double Tn = S.Tn, k = double(M.moe.topK), E = m.experts, copies = m.copies;
    const int batch = m.grouped ? int(m.local) : 1, repeat = m.grouped ? 1 : int(m.local);
    const int perExpertLaunches = int(m.local);
    // The unpermute's backward gathers each token's gradient to its copies.
    B.launches(B.memory("moe.unpermute.bwd", bi, e * Tn * h + e * copies / m.etp * h), 1, X);
    B.region(B.collective("ep.combine.bwd", bi, m.allGather ? Collective::AllGather : Collective::AllToAll, GroupKind::EP, S.ep,
        m.dispatch), X);
    B.region(B.collective("tp.allgather.experts.bwd", bi, Collective::AllGather, GroupKind::TP, m.etp, m.gathered), X);
    const bool sorts = m.local > 1 && S.ep > 1;
    if (sorts) B.launches(B.memory("moe.sort_chunks.bwd", bi, 2.0 * e * copies * h), 1, X);
    if (fp8Align(S) > 1) B.launches(B.memory("experts.fp8_pad.bwd", bi, 2.0 * e * copies * h), 2, X);
    B.launches(B.gemm("experts.fc2.dgrad", bi, m.perExpert, m.fe / m.etp, h, batch, true, repeat), perExpertLaunches, X);
    B.launches(B.gemm("experts.fc2.wgrad", bw, m.fe / m.etp, h, m.perExpert, batch, true, repeat), perExpertLaunches, X);
    B.launches(B.memory("experts.activation.bwd", bi, actBwd * e * copies * m.fe / m.etp), 1, X);
    B.launches(B.gemm("experts.fc1.dgrad", bi, m.perExpert, h, up * m.fe / m.etp, batch, true, repeat), perExpertLaunches, X);
    B.launches(B.gemm("experts.fc1.wgrad", bw, h, up * m.fe / m.etp, m.perExpert, batch, true, repeat), perExpertLaunches, X);
    if (fp8Align(S) > 1) B.launches(B.memory("experts.fp8_unpad.bwd", bi, 2.0 * e * copies * h), 2, X);
    if (sorts) B.launches(B.memory("moe.unsort_chunks.bwd", bi, 2.0 * e * copies * h), 1, X);
    B.region(B.collective("tp.reducescatter.experts.bwd", bi, Collective::ReduceScatter, GroupKind::TP, m.etp, m.gathered), X);
    B.region(B.collective("ep.dispatch.bwd", bi, m.allGather ? Collective::ReduceScatter : Collective::AllToAll, GroupKind::EP,
        S.ep, m.dispatch), X);
    if (!m.allGather) B.region(B.collective("ep.dispatch.probs.bwd", bi, Collective::AllToAll, GroupKind::EP, S.ep, 4.0 * Tn * k * m.load), X);
    // The permutation's backward scatter-adds the copies' gradients to their tokens.
    B.launches(B.memory("moe.permute.bwd", bi, e * copies / m.etp * h + 2.0 * e * Tn * h), 2, X);
    B.launches(B.memory("router.aux_loss.bwd", bi, 4.0 * Tn * E * 2.0), 3);
    B.launches(B.memory("router.topk.bwd", bi, 4.0 * Tn * E * 3.0), 3);
    linearBackward(B, "router.dgrad", "router.wgrad", S.Tn, M.moe.experts, h, 1, false);
}

void layerBackward(Builder& B)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const bool tpOverlap = S.in.training.tpCommOverlap && S.sp; // Megatron-Core needs SP for it (validation warns)
    const KernelPass bi = KernelPass::BackwardInput;
    const double t = S.t, T = S.T, Tn = S.Tn, h = S.h, e = S.e;
    const double mask = S.dropout ? 1.0 : 0.0;
    if (S.in.training.precision == Precision::FP8) {
        // In backward the output gradients of the same GEMMs are cast.
        B.launches(B.memory("fp8_casts.bwd", bi, 3.0 * T * fp8CastWidths(S, true)), 4);
    }
    B.memory("bias_dropout_add.bwd", bi, (2.0 * e + mask) * Tn * h);
    // The row-parallel output's reduce-scatter (SP) comes back as an all-gather of the gradient; an all-reduce's
    // backward is the identity.
    int back = -1;
    if (M.isMoe()) {
        // The dispatcher's collectives in reverse, shared experts as a dense MLP.
        const int first = B.size();
        if (M.moe.sharedExperts > 0)
            mlpBackward(B, double(M.moe.sharedExperts) * double(M.moe.sharedExpertFfnHidden), kSharedExperts);
        for (int i = first; i < B.size(); ++i) B.region(i, OpRegion::Experts);
        moeBackward(B);
    } else {
        mlpBackward(B, double(M.ffnHidden), kDenseMlp);
    }
    B.memory("post_attn_norm.bwd", bi, 3.0 * e * Tn * h);
    B.memory("bias_dropout_add.bwd", bi, (2.0 * e + mask) * Tn * h);
    back = -1;
    if (S.sp) back = B.collective("tp.allgather.proj.bwd", bi, Collective::AllGather, GroupKind::TP, S.t, e * T * h);
    const LinearBwd proj = linearBackward(B, "proj.dgrad", "proj.wgrad", T, h, S.oWidth / t);
    if (back >= 0 && tpOverlap) B.teOverlap(proj.dgrad, back, Builder::TeOverlap::RingExchange);
    int core = -1;
    if (S.flash) {
        const double flops = 2.0 * S.b * S.sl * S.s * (S.qWidth + S.oWidth) / t;
        // Reads Q, K, V, O, dO and the log-sum-exp; writes dQ, dK, dV.
        const double bytes = e * T * (S.qWidth + 2.0 * S.oWidth + S.kWidth + S.vWidth) / t
            + e * T * (S.qWidth + S.kWidth + S.vWidth) / t;
        // Three kernels: the softmax statistics' preprocess, the main pass, the query gradient's conversion
        // (FlashAttention-2's backward).
        core = B.launches(B.attention("attention.bwd", bi, flops, bytes), 3);
    } else {
        const double heads = S.b * S.a / t, scores = heads * S.sl * S.s;
        // O = P V: dP = dO V^T (sl x s, inner d), dV = P^T dO (s x d, inner sl).
        core = B.gemm("attn.values.dgrad", bi, S.sl, S.s, S.dv, heads, false);
        B.gemm("attn.values.dvgrad", bi, S.s, S.dv, S.sl, heads, false);
        if (S.dropout) B.memory("attn.dropout.bwd", bi, (2.0 * e + 1.0) * scores);
        B.memory("attn.softmax.bwd", bi, 3.0 * e * scores);
        // S = Q K^T: dQ = dS K (sl x d, inner s), dK = dS^T Q (s x d, inner sl).
        B.gemm("attn.scores.dqgrad", bi, S.sl, S.dq, S.s, heads, false);
        B.gemm("attn.scores.dkgrad", bi, S.s, S.dq, S.sl, heads, false);
    }
    if (S.cp > 1)
        B.collective("cp.kv.bwd", bi, Collective::SendRecv, GroupKind::CP, S.cp, 2.0 * e * T * (S.kWidth + S.vWidth) / t, core,
            S.cp - 1);
    qkvBackward(B);
    B.memory("input_norm.bwd", bi, 3.0 * e * Tn * h);
}

// Selective recomputation: Korthikanti et al. 2023 (section 5) re-run the attention core's softmax, dropout and the
// two batched GEMMs around them (flash attention recomputes inside its own backward instead); Megatron-Core's
// --recompute-modules add the norms (layernorm), the MLA up projections (mla_up_proj), the dense MLP (mlp), the whole
// MoE layer (moe), the experts' activation (moe_act) and the shared experts (shared_experts).
void selectiveRecompute(Builder& B)
{
    const Shape& S = B.S;
    const ModelSpec& M = S.in.model;
    const KernelPass rc = KernelPass::Recompute;
    std::vector<std::string> mods = S.in.training.recomputeModules;
    if (mods.empty()) mods.push_back("core_attn");
    auto on = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
    if (on("layernorm")) {
        B.memory("input_norm", rc, 2.0 * S.e * S.Tn * S.h);
        B.memory("post_attn_norm", rc, 2.0 * S.e * S.Tn * S.h);
    }
    if (on("mla_up_proj") && M.mla.enabled()) {
        const MlaSpec& x = M.mla;
        if (x.qLoraRank > 0) B.gemm("mla.q_up", rc, S.T, S.qWidth / S.t, x.qLoraRank);
        B.gemm("mla.kv_up", rc, S.T, S.a * (x.qkNopeHeadDim + x.vHeadDim) / S.t, x.kvLoraRank);
    }
    if (on("core_attn") && !S.flash) {
        const double heads = S.b * S.a / S.t, scores = heads * S.sl * S.s;
        B.gemm("attn.scores", rc, S.sl, S.s, S.dq, heads, false);
        B.memory("attn.softmax", rc, 2.0 * S.e * scores);
        if (S.dropout) B.memory("attn.dropout", rc, (2.0 * S.e + 1.0) * scores);
        B.gemm("attn.values", rc, S.sl, S.dv, S.s, heads, false);
    }
    if (!M.isMoe()) {
        if (on("mlp")) mlpForward(B, rc, double(M.ffnHidden), kDenseMlp);
        return;
    }
    const double shared = double(M.moe.sharedExperts) * double(M.moe.sharedExpertFfnHidden);
    if (on("moe")) {
        moeForward(B, rc);
        if (shared > 0) mlpForward(B, rc, shared, kSharedExperts);
        return;
    }
    if (on("moe_act")) {
        const MoeShape m = moeShape(S);
        B.memory("experts.activation", rc, (M.gatedMlp ? 3.0 : 2.0) * S.e * m.copies * m.fe / m.etp);
    }
    if (on("shared_experts") && shared > 0) mlpForward(B, rc, shared, kSharedExperts);
}

void outputLayer(Builder& B)
{
    const Shape& S = B.S;
    const double t = S.t, T = S.T, Tn = S.Tn, h = S.h, e = S.e, V = double(S.in.model.vocab);
    const KernelPass f = KernelPass::Forward, bi = KernelPass::BackwardInput;
    B.memory("final_norm", f, 2.0 * e * Tn * h);
    if (S.sp) B.collective("tp.allgather.logits", f, Collective::AllGather, GroupKind::TP, S.t, e * T * h);
    B.gemm("logits", f, T, V / t, h, 1, false);
    // Vocab-parallel cross entropy (megatron/core/tensor_parallel/cross_entropy.py): logits to fp32, max, exp and sum
    // over the local vocabulary, three small all-reduces over TP (max, predicted logit, sum of exponentials).
    B.launches(B.memory("cross_entropy", f, e * T * V / t + 3.0 * 4.0 * T * V / t), 8);
    B.collective("tp.allreduce.loss", f, Collective::AllReduce, GroupKind::TP, S.t, 4.0 * T, -1, 3);
    B.launches(B.memory("cross_entropy.bwd", bi, (4.0 + e) * T * V / t), 4);
    columnBackward(B, "logits.dgrad", "logits.wgrad", "tp.allgather.logits.input",
        S.sp ? "tp.reducescatter.logits.dgrad" : "tp.allreduce.logits.dgrad", T, V / t, h, 1, false);
    B.memory("final_norm.bwd", bi, 3.0 * e * Tn * h);
}

void cost(std::vector<KernelOp>& ops, const Shape& S)
{
    const ClusterSpec& C = S.in.cluster;
    const Precision prec = S.prec;
    for (KernelOp& op : ops) {
        KernelTime k;
        switch (op.kind) {
        case KernelKind::Gemm: {
            // Experts without grouped GEMM run one GEMM (and one launch) each; TE's TP overlap runs `splits` GEMMs of
            // m/splits rows, beside `reservedSms` SMs of communication.
            const int splits = std::max(1, op.splits);
            const std::int64_t rows = std::max<std::int64_t>(1, std::llround(double(op.m) / splits));
            k = kernels::gemm(C.gpu, prec == Precision::FP8 && !op.fp8 ? Precision::BF16 : prec, rows, op.n, op.k, op.batch,
                op.reservedSms);
            const double times = double(op.repeat) * splits;
            k.seconds *= times;
            k.computeSeconds *= times;
            k.memorySeconds *= times;
            k.bytes *= times;
            op.bytes = k.bytes;
            break;
        }
        case KernelKind::Attention:
            // op.flops holds the forward's non-causal count until costed; then what the kernel executes: half of it
            // under the causal mask, and 2.5 times that in backward.
            // Under context parallelism each ring step is a block of s/cp queries against s/cp keys: the kernel's
            // throughput is the one at that length.
            k = kernels::flashAttention(C.gpu, prec, op.flops, op.bytes, S.sl, S.causal, op.pass == KernelPass::BackwardInput);
            op.flops *= (S.causal ? 0.5 : 1.0) * (op.pass == KernelPass::BackwardInput ? 2.5 : 1.0);
            break;
        case KernelKind::Memory: k = kernels::memoryOp(C.gpu, op.bytes); break;
        case KernelKind::Collective: {
            const GroupPlacement& g = S.layout.of(op.group);
            const double one = op.collective == Collective::SendRecv ? p2pSeconds(op.bytes, g.crossesDomains, C)
                                                                     : groupSeconds(op.collective, g, op.bytes, C);
            k.seconds = op.repeat * one;
            // Below the published curves' first point (1 MiB) a collective's time is its latency steps.
            k.bound = op.bytes < kLatencyBoundBytes ? OpBound::Latency : OpBound::Communication;
            break;
        }
        }
        op.seconds = k.seconds;
        op.computeSeconds = k.computeSeconds;
        op.memorySeconds = k.memorySeconds;
        op.efficiency = k.efficiency;
        op.bound = k.bound;
        op.measured = k.measured;
        op.exposedSeconds = op.seconds;
    }
    // A collective hidden behind an op runs beside it on SMs of its own (NCCL: one CUDA block per channel), so the op
    // loses that share of the GPU while they overlap (docs/MODEL.md section 7.2); then the collective shows what the
    // slowed op does not hide.
    for (KernelOp& op : ops) {
        if (op.kind != KernelKind::Collective || op.hiddenBy < 0) continue;
        KernelOp& host = ops[std::size_t(op.hiddenBy)];
        const double share = kernels::smShare(C.gpu, op.commSms < 0 ? S.in.training.ncclChannels : op.commSms);
        const double extra = share * std::min(op.seconds, host.seconds);
        host.contentionSeconds += extra;
        host.seconds += extra;
        host.exposedSeconds += extra;
    }
    for (KernelOp& op : ops)
        if (op.kind == KernelKind::Collective && op.hiddenBy >= 0)
            op.exposedSeconds = std::max(0.0, op.seconds - ops[std::size_t(op.hiddenBy)].seconds);
}

// CUDA-graph capture (Megatron-Core --cuda-graph-impl, --cuda-graph-modules): a per-layer graph holds the layer's
// ops but, where the MoE dispatcher syncs with the host, not the experts' part from the permutation to the
// unpermute (the scopes "attn moe_router moe_preprocess" Megatron-Core recommends for dropless MoE); a full-iteration
// graph holds every op. The output layer is not a transformer layer: only a full-iteration graph holds it.
void markGraphs(std::vector<KernelOp>& ops, CudaGraphs graphs, bool layer, bool syncs)
{
    for (KernelOp& op : ops) {
        switch (graphs) {
        case CudaGraphs::None: op.graphed = false; break;
        case CudaGraphs::PerLayer: op.graphed = layer && !(syncs && op.region == OpRegion::Experts); break;
        case CudaGraphs::FullIteration: op.graphed = true; break;
        }
    }
}

// --overlap-moe-expert-parallel-comm (Megatron-Core's combined 1F1B, docs/MODEL.md section 7.5): the forward of one
// microbatch runs beside the backward of another, layer by layer, each all-to-all of one beside the other's compute:
// the forward's dispatch beside the backward's expert GEMMs, its combine beside the backward's attention, the
// backward's combine beside the forward's attention, its dispatch beside the forward's expert GEMMs.
void overlapMoeComm(std::vector<KernelOp>& ops)
{
    auto find = [&](const char* name, KernelPass pass) {
        for (std::size_t i = 0; i < ops.size(); ++i)
            if (ops[i].pass == pass && std::string_view(ops[i].name) == name) return int(i);
        return -1;
    };
    const KernelPass f = KernelPass::Forward, bi = KernelPass::BackwardInput;
    const int fwdAttention = find("attention", f) >= 0 ? find("attention", f) : find("attn.scores", f);
    const int bwdAttention = find("attention.bwd", bi) >= 0 ? find("attention.bwd", bi) : find("attn.values.dgrad", bi);
    const std::pair<const char*, int> pairs[] = {
        { "ep.dispatch", find("experts.fc1.dgrad", bi) },
        { "ep.combine", bwdAttention },
    };
    const std::pair<const char*, int> back[] = {
        { "ep.combine.bwd", fwdAttention },
        { "ep.dispatch.bwd", find("experts.fc1", f) },
    };
    for (const auto& [name, by] : pairs) {
        const int i = find(name, f);
        if (i >= 0 && by >= 0) ops[std::size_t(i)].hiddenBy = by;
    }
    for (const auto& [name, by] : back) {
        const int i = find(name, bi);
        if (i >= 0 && by >= 0) ops[std::size_t(i)].hiddenBy = by;
    }
}

// The ops of a list by the passes a schedule runs apart: the forward, the recomputed forward with the input
// gradients (and the weight gradients unless the schedule splits them off), the weight gradients.
std::vector<std::vector<std::size_t>> hostPasses(const std::vector<KernelOp>& ops, bool splitBackward)
{
    std::vector<std::vector<std::size_t>> passes(3);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const KernelPass p = ops[i].pass;
        const int at = p == KernelPass::Forward ? 0 : (p == KernelPass::BackwardWeight && splitBackward ? 2 : 1);
        passes[std::size_t(at)].push_back(i);
    }
    return passes;
}

void hostLanes(std::vector<KernelOp>& ops, HostParams host, bool splitBackward)
{
    // A full-iteration graph is launched once per step, not once per pass of a layer: no launch is charged here.
    if (host.graphs == CudaGraphs::FullIteration) host.graphLaunch = 0;
    for (const auto& pass : hostPasses(ops, splitBackward))
        if (!pass.empty()) hostLane(ops, pass, host);
}

} // namespace

HostParams hostParams(const HostSpec& h)
{
    HostParams p;
    if (h.kernelSeconds > 0) p.kernel = p.sync = p.graphLaunch = h.kernelSeconds;
    if (h.syncSeconds > 0) p.sync = h.syncSeconds;
    if (h.graphLaunchSeconds > 0) p.graphLaunch = h.graphLaunchSeconds;
    if (h.launchQueue > 0) p.queue = h.launchQueue;
    p.graphs = h.cudaGraphs;
    return p;
}

bool moeSyncsHost(const MoeSpec& moe)
{
    return moe.experts > 0 && moe.capacityFactor <= 0 && !moe.syncFree;
}

double hostLane(std::vector<KernelOp>& ops, const std::vector<std::size_t>& pass, const HostParams& host)
{
    // What each op holds the GPU for: its exposed time plus the exposed rest of the collectives beside it.
    thread_local std::vector<double> extra;
    thread_local std::vector<char> overlapped;
    extra.assign(ops.size(), 0.0);
    overlapped.assign(ops.size(), 0);
    double launchesPerPass = 0;
    for (std::size_t i : pass) {
        launchesPerPass += ops[i].launches;
        if (isOverlapped(ops, i)) {
            overlapped[i] = 1;
            extra[std::size_t(ops[i].hiddenBy)] += ops[i].exposedSeconds;
        }
    }
    // The pass is run three times over (as the layers of a stage repeat it); the third is the steady state.
    constexpr int kRepeats = 3;
    double cpu = 0, gpu = 0, origin = 0;
    // {kernels issued so far, the GPU start of the op that made it}: only kept where the queue can fill.
    const bool queueBinds = kRepeats * launchesPerPass >= host.queue;
    thread_local std::vector<std::pair<double, double>> issued;
    issued.clear();
    double kernelsIssued = 0;
    std::size_t queueHead = 0;
    for (int rep = 0; rep < kRepeats; ++rep) {
        const bool last = rep == kRepeats - 1;
        if (last) origin = gpu;
        bool inGraph = false;
        for (std::size_t i : pass) {
            KernelOp& op = ops[i];
            double issue = op.graphed ? 0.0 : op.launches * host.kernel;
            if (op.graphed && !inGraph) issue += host.graphLaunch;
            inGraph = op.graphed;
            // The CPU blocks while the queue holds `queue` kernels the GPU has not started.
            if (!op.graphed && queueBinds) {
                while (queueHead < issued.size() && issued[queueHead].first <= kernelsIssued + op.launches - host.queue) {
                    cpu = std::max(cpu, issued[queueHead].second);
                    ++queueHead;
                }
            }
            const double begin = cpu;
            cpu += issue;
            if (!op.graphed) kernelsIssued += op.launches;
            if (last) {
                op.hostSeconds = issue;
                op.hostStart = begin - origin;
                op.hostWaitSeconds = 0;
            }
            if (overlapped[i]) continue; // runs beside the op that hides it
            const double d = op.exposedSeconds + extra[i];
            // Its first kernel can run once issued; its last once the CPU has issued everything.
            const double firstIssued = begin + issue / std::max(1, op.launches);
            const double ready = std::max(firstIssued, cpu + d / std::max(1, op.launches) - d);
            const double start = std::max(gpu, ready);
            if (last) op.hostWaitSeconds = start - gpu;
            gpu = start + d;
            if (queueBinds) issued.emplace_back(kernelsIssued, start);
            if (op.syncAfter) cpu = std::max(cpu, gpu) + host.sync;
        }
    }
    return gpu - origin;
}

PassTotals sumPasses(const std::vector<KernelOp>& ops)
{
    PassTotals p;
    for (const KernelOp& op : ops) {
        const double x = op.exposedSeconds + op.hostWaitSeconds;
        const bool fwd = op.pass == KernelPass::Forward;
        (fwd ? p.hostWaitForward : p.hostWaitBackward) += op.hostWaitSeconds;
        (fwd ? p.hostForward : p.hostBackward) += op.hostSeconds;
        switch (op.pass) {
        case KernelPass::Forward: p.forward += x; break;
        case KernelPass::Recompute: p.recompute += x; break;
        case KernelPass::BackwardInput: p.backwardInput += x; break;
        case KernelPass::BackwardWeight: p.backwardWeight += x; break;
        }
        if (op.kind == KernelKind::Collective) (op.pass == KernelPass::Forward ? p.commForward : p.commBackward) += x;
        else (op.pass == KernelPass::Forward ? p.flopsForward : p.flopsBackward) += op.flops;
    }
    return p;
}

std::vector<std::array<std::int64_t, 3>> distinctGemmShapes(const Plan& plan)
{
    const OperatorList ops = operatorList(plan, rankLayout(plan));
    std::vector<std::array<std::int64_t, 3>> shapes;
    for (const auto* list : { &ops.layer, &ops.output })
        for (const KernelOp& op : *list) {
            if (op.kind != KernelKind::Gemm || op.batch != 1) continue;
            const std::array<std::int64_t, 3> s { op.m, op.n, op.k };
            if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
        }
    return shapes;
}

bool isOverlapped(const std::vector<KernelOp>& ops, std::size_t i)
{
    const int h = ops[i].hiddenBy;
    return h >= 0 && std::size_t(h) < ops.size() && std::size_t(h) != i && ops[std::size_t(h)].hiddenBy < 0;
}

std::vector<double> opStartTimes(const std::vector<KernelOp>& ops, double* end)
{
    const std::size_t n = ops.size();
    std::vector<double> start(n, 0.0), extra(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        if (isOverlapped(ops, i)) extra[std::size_t(ops[i].hiddenBy)] += ops[i].exposedSeconds;
    double cursor = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (isOverlapped(ops, i)) continue;
        cursor += ops[i].hostWaitSeconds;
        start[i] = cursor;
        cursor += ops[i].exposedSeconds + extra[i];
    }
    double last = cursor;
    for (std::size_t i = 0; i < n; ++i) {
        if (isOverlapped(ops, i)) start[i] = start[std::size_t(ops[i].hiddenBy)];
        last = std::max(last, start[i] + ops[i].seconds);
    }
    if (end) *end = last;
    return start;
}

std::string formatOperatorTable(const std::vector<KernelOp>& ops)
{
    auto fmt = [](const char* f, auto... v) {
        char buf[256];
        std::snprintf(buf, sizeof buf, f, v...);
        return std::string(buf);
    };
    // cpu: the host's issue time of the op (0 inside a CUDA graph); wait: the GPU's idle before it, waiting for the
    // CPU (docs/MODEL.md section 7.4); the pass totals add the waits to the exposed time.
    std::string out = fmt("%-15s %-34s %-24s %9s %9s %-13s %6s %9s %9s %8s %8s\n", "pass", "op (~ overlaps with)",
        "shape / collective", "GFLOP", "MB", "bound", "eff", "ms", "exposed", "cpu", "wait");
    double total[4] = {}, exposed[4] = {}, cpu[4] = {}, wait[4] = {};
    for (const KernelOp& op : ops) {
        std::string shape;
        if (op.kind == KernelKind::Gemm)
            shape = (op.batch > 1 ? std::to_string(op.batch) + "x " : std::string()) + std::to_string(op.m) + "x"
                + std::to_string(op.n) + "x" + std::to_string(op.k);
        else if (op.kind == KernelKind::Collective)
            shape = std::string(toString(op.collective)) + " " + std::string(toString(op.group)) + std::to_string(op.groupSize)
                + (op.repeat > 1 ? " x" + std::to_string(op.repeat) : "");
        std::string name = std::string(op.measured ? "*" : "") + op.name;
        if (op.hiddenBy >= 0) name += " ~" + std::string(ops[std::size_t(op.hiddenBy)].name);
        if (op.graphed) name += " [graph]";
        if (op.syncAfter) name += " [sync]";
        out += fmt("%-15s %-34s %-24s %9.1f %9.1f %-13s %5.1f%% %9.3f %9.3f %8.3f %8.3f\n", std::string(toString(op.pass)).c_str(),
            name.c_str(), shape.c_str(), op.flops / 1e9, op.bytes / 1e6, std::string(toString(op.bound)).c_str(),
            op.efficiency * 100, op.seconds * 1e3, op.exposedSeconds * 1e3, op.hostSeconds * 1e3, op.hostWaitSeconds * 1e3);
        total[int(op.pass)] += op.seconds;
        exposed[int(op.pass)] += op.exposedSeconds + op.hostWaitSeconds;
        cpu[int(op.pass)] += op.hostSeconds;
        wait[int(op.pass)] += op.hostWaitSeconds;
    }
    for (KernelPass p : { KernelPass::Forward, KernelPass::Recompute, KernelPass::BackwardInput, KernelPass::BackwardWeight })
        if (total[int(p)] > 0)
            out += fmt("%-15s %-34s %-24s %9s %9s %-13s %6s %9.3f %9.3f %8.3f %8.3f\n", "total", std::string(toString(p)).c_str(), "",
                "", "", "", "", total[int(p)] * 1e3, exposed[int(p)] * 1e3, cpu[int(p)] * 1e3, wait[int(p)] * 1e3);
    return out;
}

OperatorList operatorList(const Plan& plan, const RankLayout& layout) { return operatorList(layerInputs(plan, layout)); }

OperatorList operatorList(const LayerInputs& in)
{
    const ModelSpec& M = in.model;
    const LayerParallel& P = in.parallel;
    const LayerTraining& Tr = in.training;
    const double b = Tr.microBatch, s = double(M.seqLength), sl = s / std::max(1, P.cp);
    const bool sp = P.sp && P.tp > 1;
    const double e = Tr.precision == Precision::FP32 ? 4.0 : 2.0;
    const double heads = double(M.heads), kv = double(M.kvHeads > 0 ? M.kvHeads : M.heads);
    Shape S { in, in.layout, Tr.precision, e, b * sl, sp ? b * sl / P.tp : b * sl, double(M.hidden), heads, kv,
        double(M.headDimension()), s, sl, b, P.tp, P.cp, P.ep, sp, Tr.flashAttention, M.dropout };
    S.etp = std::max(1, P.expertTp());
    if (M.mla.enabled()) {
        S.dq = double(M.mla.qkNopeHeadDim + M.mla.qkRopeHeadDim);
        S.dv = double(M.mla.vHeadDim);
        S.qWidth = S.kWidth = heads * S.dq;
        S.vWidth = S.oWidth = heads * S.dv;
    } else {
        S.dq = S.dv = S.d;
        S.qWidth = S.oWidth = heads * S.d;
        S.kWidth = S.vWidth = kv * S.d;
    }
    S.splitBackward = Tr.splitBackward;
    OperatorList out;
    out.flashAttention = S.flash;
    out.layer.reserve(96);
    Builder L(S, out.layer);
    layerForward(L, KernelPass::Forward);
    if (Tr.recompute == Recompute::Full) layerForward(L, KernelPass::Recompute);
    else if (Tr.recompute == Recompute::Selective) selectiveRecompute(L);
    layerBackward(L);
    Builder O(S, out.output);
    outputLayer(O);
    if (Tr.overlapMoeComm && M.isMoe() && P.ep > 1) overlapMoeComm(out.layer);
    cost(out.layer, S);
    cost(out.output, S);
    const HostParams host = hostParams(Tr.host);
    const bool syncs = M.isMoe() && moeSyncsHost(M.moe);
    markGraphs(out.layer, host.graphs, true, syncs);
    markGraphs(out.output, host.graphs, false, syncs);
    hostLanes(out.layer, host, Tr.splitBackward);
    hostLanes(out.output, host, Tr.splitBackward);
    out.layerTotals = sumPasses(out.layer);
    out.outputTotals = sumPasses(out.output);
    return out;
}

} // namespace planscope
