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
    const int L = plan.model.layers;
    std::vector<RankShape> ranks(static_cast<std::size_t>(p));
    const ScheduleKind kind = plan.training.schedule;
    if (kind == ScheduleKind::DualPipe) {
        // Rank r holds stages r and p-1-r (two copies of the parameters); a microbatch visits one of them.
        const int perStage = L / p;
        for (int r = 0; r < p; ++r) {
            ranks[r].layersHeld = 2 * perStage;
            ranks[r].layersPerMicrobatch = perStage;
            ranks[r].embedding = ranks[r].output = (r == 0 || r == p - 1);
        }
        return ranks;
    }
    std::vector<int> layers(std::size_t(p), p > 0 ? L / p : L);
    const int first = plan.parallel.firstStageLayers;
    const int last = plan.parallel.lastStageLayers;
    if ((first > 0 || last > 0) && p > 1) {
        const int f = first > 0 ? first : -1;
        const int l = last > 0 ? last : -1;
        int rest = L - (f > 0 ? f : 0) - (l > 0 ? l : 0);
        const int middle = p - (f > 0 ? 1 : 0) - (l > 0 ? 1 : 0);
        const int each = middle > 0 ? rest / middle : 0;
        for (int r = 0; r < p; ++r) layers[r] = each;
        if (f > 0) layers[0] = f;
        if (l > 0) layers[p - 1] = l;
    } else if (p > 0 && L % p != 0) {
        // Spread the remainder over the first ranks (validation reports the uneven split).
        for (int r = 0; r < L % p; ++r) ++layers[r];
    }
    const bool vShape = kind == ScheduleKind::ZBV || kind == ScheduleKind::DualPipeV;
    for (int r = 0; r < p; ++r) {
        ranks[r].layersHeld = layers[r];
        ranks[r].layersPerMicrobatch = layers[r];
        // V placement puts the first and the last chunk on rank 0.
        ranks[r].embedding = r == 0;
        ranks[r].output = vShape ? r == 0 : r == p - 1;
    }
    return ranks;
}

} // namespace planscope
