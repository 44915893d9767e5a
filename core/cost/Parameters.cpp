#include "Parameters.h"

#include "spec/ScheduleTraits.h"

#include <algorithm>

namespace planscope {

namespace {

// Attention of one layer. Standard (GQA) attention: Q and O are a*d wide, K and V kv*d (d = headDim, h/a unless the
// model says otherwise). MLA (DeepSeek-V2, arXiv 2405.04434, eqs. 1-11; Megatron-Core
// megatron/core/transformer/multi_latent_attention.py): the down projections h x q_lora and h x (kv_lora + rope) with
// their latent norms are duplicated on every tp rank; the up projections q_lora x a*(nope + rope) and
// kv_lora x a*(nope + v) and the output a*v x h are split by tp.
void attentionParameters(const ModelSpec& m, LayerParameters& l)
{
    const double h = double(m.hidden);
    const double a = m.heads > 0 ? double(m.heads) : 1.0;
    const double kv = m.kvHeads > 0 ? double(m.kvHeads) : a;
    if (m.mla.enabled()) {
        const MlaSpec& x = m.mla;
        const double qk = double(x.qkNopeHeadDim + x.qkRopeHeadDim);
        const double qIn = x.qLoraRank > 0 ? double(x.qLoraRank) : h;
        l.attentionMatrices = qIn * a * qk + double(x.kvLoraRank) * a * (x.qkNopeHeadDim + x.vHeadDim) + a * x.vHeadDim * h;
        l.attentionReplicated = (x.qLoraRank > 0 ? h * x.qLoraRank + x.qLoraRank : 0.0)
            + h * (x.kvLoraRank + x.qkRopeHeadDim) + x.kvLoraRank;
        if (m.bias) {
            l.columnBiases = a * qk + a * (x.qkNopeHeadDim + x.vHeadDim);
            l.rowBiases = h;
        }
        return;
    }
    const double d = double(m.headDimension());
    l.attentionMatrices = h * a * d + 2.0 * h * kv * d + a * d * h;
    if (m.qkNorm) l.attentionReplicated = 2.0 * d; // one RMSNorm of d over every query head, one over every key head
    if (m.bias) {
        l.columnBiases = a * d + 2.0 * kv * d;
        l.rowBiases = h;
    }
}

// A layer: attention, two norms, and either a dense MLP of f or (moe) the router, routed and shared experts.
LayerParameters layerParameters(const ModelSpec& m, bool moe)
{
    LayerParameters l;
    attentionParameters(m, l);
    const double h = double(m.hidden);
    const double mats = m.gatedMlp ? 3.0 : 2.0;
    const double normParams = m.norm == NormKind::LayerNorm ? 2.0 * h : h;
    l.norms = 2.0 * normParams;
    if (m.attentionSinks) l.columnBiases += double(m.heads); // one learned logit per head, split with the heads
    // fc1 (2f wide when gated) and fc2 biases of an MLP of width f.
    auto mlpBiases = [&](double f) { return m.bias ? (m.gatedMlp ? 2.0 : 1.0) * f + h : 0.0; };
    if (moe) {
        const double fe = double(m.moe.expertFfnHidden);
        const double fs = double(m.moe.sharedExpertFfnHidden > 0 ? m.moe.sharedExpertFfnHidden : m.moe.expertFfnHidden);
        l.mlpMatrices = m.moe.sharedExperts * mats * h * fs;
        l.columnBiases += m.bias ? m.moe.sharedExperts * (m.gatedMlp ? 2.0 : 1.0) * fs : 0.0;
        l.rowBiases += m.bias && m.moe.sharedExperts > 0 ? h : 0.0;
        l.router = h * m.moe.experts + (m.moe.routerBias ? double(m.moe.experts) : 0.0);
        const double expert = mats * h * fe + mlpBiases(fe);
        l.routedExperts = m.moe.experts * expert;
        l.activeExperts = m.moe.topK * expert;
    } else {
        const double f = double(m.ffnHidden);
        l.mlpMatrices = mats * h * f;
        l.columnBiases += m.bias ? (m.gatedMlp ? 2.0 : 1.0) * f : 0.0;
        l.rowBiases += m.bias ? h : 0.0;
    }
    return l;
}

} // namespace

ParameterCounts countParameters(const ModelSpec& m)
{
    ParameterCounts c;
    const double h = double(m.hidden);
    const double normParams = m.norm == NormKind::LayerNorm ? 2.0 * h : h;
    c.denseLayer = layerParameters(m, false);
    c.layer = m.isMoe() ? layerParameters(m, true) : c.denseLayer;
    c.moeLayers = m.moeLayers();
    c.denseLayers = m.layers - c.moeLayers;
    c.embedding = double(m.vocab) * h;
    c.positions = m.positionEmbedding == PositionEmbedding::Learned ? double(m.seqLength) * h : 0.0;
    c.embeddingNorm = m.embeddingNorm ? normParams : 0.0;
    c.outputLayer = m.tiedEmbeddings ? 0.0 : double(m.vocab) * h;
    c.finalNorm = normParams;
    c.layersTotal = c.layersOf(m.layers, c.denseLayers);
    // DeepSeek-V3 (arXiv 2412.19437, section 2.2): each MTP module normalises the hidden state and the next token's
    // embedding (two RMSNorms), projects their concatenation 2h -> h, runs one transformer block (an MoE layer here),
    // and shares the embedding and the output head with the main model; its final norm is its own.
    const LayerParameters& mtpLayer = m.isMoe() && c.moeLayers > 0 ? c.layer : c.denseLayer;
    c.mtpModule = 2.0 * normParams + 2.0 * h * h + mtpLayer.total() + normParams;
    c.mtpTotal = std::max(0, m.mtpLayers) * c.mtpModule;
    const double outer = c.embedding + c.positions + c.embeddingNorm + c.outputLayer + c.finalNorm;
    c.total = c.layersTotal + c.mtpTotal + outer;
    const double mtpActive = std::max(0, m.mtpLayers) * (c.mtpModule - mtpLayer.total() + mtpLayer.active());
    c.active = c.moeLayers * c.layer.active() + c.denseLayers * c.denseLayer.total() + mtpActive + outer;
    const int heads = 1 + std::max(0, m.mtpLayers); // the output projection runs once per prediction depth
    c.matmulActivePerToken = c.moeLayers * c.layer.matmulActive() + c.denseLayers * c.denseLayer.matmulActive()
        + std::max(0, m.mtpLayers) * (2.0 * h * h + mtpLayer.matmulActive()) + heads * double(m.vocab) * h;
    return c;
}

std::vector<RankShape> rankShapes(const Plan& plan)
{
    return rankShapes(plan, virtualStages(plan));
}

std::vector<RankShape> rankShapes(const Plan& plan, const std::vector<VirtualStage>& stages)
{
    const int p = plan.parallel.pp > 0 ? plan.parallel.pp : 1;
    std::vector<RankShape> ranks(static_cast<std::size_t>(p));
    // Every split (even, first/last stage layers, embedding/loss in the split, a layout) comes from one place.
    if (traits(plan.training.schedule).bidirectional) {
        // Rank r holds stages r and p-1-r (two copies of the parameters); a microbatch visits one of them.
        for (int r = 0; r < p; ++r) {
            const VirtualStage& own = stages[std::size_t(r)];
            const VirtualStage& mirror = stages[std::size_t(p - 1 - r)];
            RankShape& sh = ranks[std::size_t(r)];
            sh.layersHeld = own.layers + mirror.layers;
            sh.denseLayersHeld = own.denseLayers + mirror.denseLayers;
            sh.mtpHeld = own.mtpLayers + mirror.mtpLayers;
            sh.layersPerMicrobatch = own.layers;
            sh.denseLayersPerMicrobatch = own.denseLayers;
            sh.mtpPerMicrobatch = own.mtpLayers;
            sh.embedding = sh.output = (r == 0 || r == p - 1);
        }
        return ranks;
    }
    // A rank sums its chunks; V placement puts the first and the last chunk on rank 0.
    for (const VirtualStage& v : stages) {
        RankShape& sh = ranks[std::size_t(v.rank)];
        sh.layersHeld += v.layers;
        sh.layersPerMicrobatch += v.layers;
        sh.denseLayersHeld += v.denseLayers;
        sh.denseLayersPerMicrobatch += v.denseLayers;
        sh.mtpHeld += v.mtpLayers;
        sh.mtpPerMicrobatch += v.mtpLayers;
        sh.embedding = sh.embedding || v.embedding;
        sh.output = sh.output || v.loss;
    }
    return ranks;
}

} // namespace planscope
