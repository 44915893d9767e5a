#include "Parameters.h"

namespace planscope {

ParameterCounts countParameters(const ModelSpec& m)
{
    ParameterCounts c;
    const double h = double(m.hidden);
    const double a = m.heads > 0 ? double(m.heads) : 1.0;
    const double kv = m.kvHeads > 0 ? double(m.kvHeads) : a;
    const double f = double(m.ffnHidden);
    const double mats = m.gatedMlp ? 3.0 : 2.0;
    LayerParameters& l = c.layer;
    l.attentionMatrices = h * (h + 2.0 * h * kv / a) + h * h;
    const double normParams = m.norm == NormKind::LayerNorm ? 2.0 * h : h;
    l.norms = 2.0 * normParams;
    if (m.isMoe()) {
        const double fe = double(m.moe.expertFfnHidden);
        l.mlpMatrices = m.moe.sharedExperts * mats * h * fe;
        l.router = h * m.moe.experts;
        l.routedExperts = m.moe.experts * mats * h * fe;
        l.activeExperts = m.moe.topK * mats * h * fe;
        if (m.bias) {
            l.columnBiases = h + 2.0 * h * kv / a;
            l.rowBiases = h;
        }
    } else {
        l.mlpMatrices = mats * h * f;
        if (m.bias) {
            l.columnBiases = (h + 2.0 * h * kv / a) + (m.gatedMlp ? 2.0 * f : f);
            l.rowBiases = h + h;
        }
    }
    c.embedding = double(m.vocab) * h;
    c.positions = m.positionEmbedding == PositionEmbedding::Learned ? double(m.seqLength) * h : 0.0;
    c.embeddingNorm = m.embeddingNorm ? normParams : 0.0;
    c.outputLayer = m.tiedEmbeddings ? 0.0 : double(m.vocab) * h;
    c.finalNorm = normParams;
    c.layersTotal = m.layers * l.total();
    const double outer = c.embedding + c.positions + c.embeddingNorm + c.outputLayer + c.finalNorm;
    c.total = c.layersTotal + outer;
    c.active = m.layers * l.active() + outer;
    c.matmulActivePerToken = m.layers * l.matmulActive() + double(m.vocab) * h;
    return c;
}

std::vector<RankShape> rankShapes(const Plan& plan)
{
    const int p = plan.parallel.pp > 0 ? plan.parallel.pp : 1;
    std::vector<RankShape> ranks(static_cast<std::size_t>(p));
    // Every split (even, first/last stage layers, embedding/loss in the split, a layout) comes from one place.
    const std::vector<VirtualStage> stages = virtualStages(plan);
    if (plan.training.schedule == ScheduleKind::DualPipe) {
        // Rank r holds stages r and p-1-r (two copies of the parameters); a microbatch visits one of them.
        for (int r = 0; r < p; ++r) {
            const int own = stages[std::size_t(r)].layers;
            ranks[std::size_t(r)].layersHeld = own + stages[std::size_t(p - 1 - r)].layers;
            ranks[std::size_t(r)].layersPerMicrobatch = own;
            ranks[std::size_t(r)].embedding = ranks[std::size_t(r)].output = (r == 0 || r == p - 1);
        }
        return ranks;
    }
    // A rank sums its chunks; V placement puts the first and the last chunk on rank 0.
    for (const VirtualStage& v : stages) {
        RankShape& sh = ranks[std::size_t(v.rank)];
        sh.layersHeld += v.layers;
        sh.layersPerMicrobatch += v.layers;
        sh.embedding = sh.embedding || v.embedding;
        sh.output = sh.output || v.loss;
    }
    return ranks;
}

} // namespace planscope
