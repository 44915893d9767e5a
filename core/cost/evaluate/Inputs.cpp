// What the stages of evaluate() share, computed from the plan: the cached layer entry, the host link, the
// parameters a rank holds and the optimizer's share of them, and Muon's Newton-Schulz FLOPs.
#include "Stages.h"

#include "cost/Formula.h"
#include "cost/Kernels.h"
#include "cost/Operators.h"
#include "spec/ScheduleTraits.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace planscope::evaluation {

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

// Muon (Megatron-Core TensorParallelMuon over the emerging_optimizers package, docs/MODEL.md section 2 and 7.3):
// the FLOPs of its Newton-Schulz orthogonalisation of one m x n matrix, 5 quintic steps of X X^T, A A and B X in
// bf16: steps*(4 m^2 n + 2 m^3) with m <= n.
constexpr int kMuonNewtonSchulzSteps = 5;
double newtonSchulzFlops(double rows, double cols)
{
    const double m = std::min(rows, cols), n = std::max(rows, cols);
    return kMuonNewtonSchulzSteps * (4.0 * m * m * n + 2.0 * m * m * m);
}


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

} // namespace planscope::evaluation
