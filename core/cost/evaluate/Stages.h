// The stages of evaluate() (core/cost/Evaluate.cpp) and what they share. Internal to core/cost: each stage
// is a file of this folder, called in order by evaluateWith() (parameters, compute, memory and time per pipeline
// stage, the memory summary, FLOPs, the step, communication), each computing its numbers and, when an Explainer
// is passed, recording how beside the arithmetic.
#pragma once

#include "cost/Collective.h"
#include "cost/Evaluate.h"
#include "cost/Formula.h"
#include "cost/Operators.h"
#include "cost/Parameters.h"
#include "cost/RankLayout.h"
#include "cost/Runtime.h"
#include "spec/ScheduleTraits.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace planscope {

// What EvaluateCache keeps per key: the operator lists and the activations of a layer (see Evaluate.h).
struct EvaluateCache::Entry {
    OperatorList ops;      // one layer (an MoE layer of an MoE model) and the output layer
    OperatorList denseOps; // an MoE model's dense-MLP layers (empty otherwise)
    LayerActivations act;
    LayerActivations actDense;
};

namespace evaluation {

// The entry of these inputs, from them alone.
void computeEntry(const LayerInputs& in, EvaluateCache::Entry& e);

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

// Host memory bandwidth one GPU's offloaded optimizer gets: one socket's 8 channels of DDR5-4800 (8 bytes x 4.8e9
// transfers x 8 = 307.2 GB/s, JEDEC JESD79-5) shared by the 4 GPUs of a 2-socket, 8-GPU node. An assumption, editable as
// training.offload.hostBandwidth.
constexpr double kDefaultHostBandwidth = 307.2e9 / 4.0;

// Steps of amax history delayed scaling keeps (NeMo and Megatron-Bridge fp8 recipes: fp8_amax_history_len 1024).
constexpr double kAmaxHistory = 1024;

inline FormulaInputs with(FormulaInputs a, const FormulaInputs& b)
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

StageParams stageParams(const Inputs& in, int r);
// The host link of a GPU, per direction: PCIe 5.0 x16 (32 GT/s, 128b/130b: 63 GB/s) on H100/H200/B200/MI300X, PCIe 4.0
// x16 (31.5 GB/s) on A100, PCIe 3.0 x16 (15.75 GB/s) on V100 (PCI-SIG base specifications; NVIDIA and AMD datasheets).
double defaultPcieBandwidth(const GpuSpec& gpu);
// Parameters the optimizer of pipeline rank r updates on one GPU (its ZeRO shard from stage 1 on).

double optimizerParams(const Inputs& in, int r);
// The share of a rank's layers one microbatch passes through: 1, except for DualPipe's two copies (1/2).

double zeroShare(const RankShape& sh);
// Megatron-Core's DDP reduces gradients in buckets as backward produces them; the last bucket is reduced after the
// backward ends and cannot hide (megatron/core/distributed: bucket_size = max(40,000,000, 1,000,000 * dp) elements).
// The share of a rank's gradient that is in its last bucket.

double lastBucketShare(const Inputs& in, int r);

// Muon (Megatron-Core TensorParallelMuon over the emerging_optimizers package, docs/MODEL.md section 2 and 7.3):
// the FLOPs of its Newton-Schulz orthogonalisation of one m x n matrix, 5 quintic steps of X X^T, A A and B X in
// bf16: steps*(4 m^2 n + 2 m^3) with m <= n.
double newtonSchulzFlops(double rows, double cols);
// The orthogonalised matrices of one layer, whole (the default tp mode, duplicated, all-gathers each shard and runs
// the full matrix on every tp rank): Q, K and V apart (--muon-split-qkv), the output projection, a gated fc1 as one
// matrix, fc2; an MoE layer's router and shared experts with the dense part, each routed expert's fc1 and fc2 apart.
struct NewtonSchulz {
    double dense = 0;     // FLOPs of the layer's non-expert matrices
    double perExpert = 0; // FLOPs of one routed expert's two matrices
};
NewtonSchulz newtonSchulzLayer(const ModelSpec& M, bool moeLayer);
// The parameters Muon leaves to Adam on one GPU of stage r: the embedding (first stage) and the output layer (last
// stage; a tied embedding's copy there when pp > 1), after tp. Norms and biases (well under 0.1% of a layer) are counted
// with Muon's state.
double muonAdamParams(const Inputs& in, int r);

// ---------------------------------------------------------------------------------------------- collectives
// A formula and the inputs it names.
struct Term {
    std::string formula;
    FormulaInputs inputs;
};

// The algorithm a group's collectives run (CommGroup::algorithm): the flat ring inside a node or across nodes of one
// GPU each, else the hierarchical ring.
Text algorithmText(const GroupPlacement& placed);
double slowestLink(const GroupPlacement& g, const ClusterSpec& cl);
// groupSeconds() written out: the alpha-beta terms of one collective on a group (Thakur et al.), its input
// names suffixed with `tag` so that two collectives can share one formula.
Term collectiveTerm(Collective c, const GroupPlacement& placed, double bytes, const ClusterSpec& cl, const std::string& tag = "");
// "a + b" of two terms, dropping a zero term.

Term sumTerms(Term a, Term b);
// The algorithm and where the group sits, then what alpha, bw, q and the hierarchy's names mean.
Text linkNote(const GroupPlacement& g);

// The data-parallel collectives of one rank: the dense group (dp*cp) and the expert-data-parallel group.
struct DpTerms {
    double gradD = 0, gradE = 0, weightD = 0, weightE = 0; // bytes of one full gradient / weight buffer
};
DpTerms dpTerms(const Inputs& in, const StageParams& sp);
// Data-parallel traffic goes in buckets (Megatron-Core DDP: max(4e7, 1e6*dp) elements; DeepSpeed ZeRO-2/3:
// reduce_bucket_size and allgather_bucket_size, 5e8 elements), each a collective of its own: the size curve
// applies to a bucket, not to the whole gradient.
double bucketElements(const Inputs& in);
// One rank's DP collective over the dense group and the expert group: S/Sb buckets of Sb bytes each.
double dpSeconds(const Inputs& in, Collective c, double bytesD, double bytesE, double elementBytes);
Term dpTerm(const Inputs& in, Collective c, double bytesD, double bytesE, double elementBytes);

// ---------------------------------------------------------------------------------------------- the stages
// One transformer layer (and the output layer) for one microbatch on one GPU: the sums of the operator list
// (Operators.h), each op the slower of its compute and memory plus a launch, collectives exposed unless overlapped.
struct LayerTimes {
    const OperatorList& ops;         // with its per-pass totals (layerTotals, outputTotals)
    const OperatorList& denseOps;    // an MoE model's dense-MLP layers (empty otherwise)
    double ppBytes = 0, p2p = 0;
    const LinkSpec* ppLink = nullptr;
};

struct StepTerms {
    int rb = 0;          // the slowest rank (its microbatch slot sets the pace)
    double slotMax = 0;
    double bubble = 0;
    double dpTail = 0;   // the most exposed data-parallel communication after the pipeline
    double optimizer = 0;
};

void parameterStage(Inputs& in, Prediction& out, Explainer* ex);
LayerTimes computeStage(Inputs& in, Prediction& out, Explainer* ex);
void memoryStage(const Inputs& in, int r, int groupsOfRank, Prediction& out, Explainer* ex);
void timeStage(const Inputs& in, const LayerTimes& lt, int r, Prediction& out, Explainer* ex);
void memorySummary(const Inputs& in, Prediction& out, Explainer* ex);
// Returns the recomputed FLOPs per token.
double flopsStage(const Inputs& in, Prediction& out, Explainer* ex);
StepTerms stepStage(const Inputs& in, Prediction& out, Explainer* ex);
void commStage(const Inputs& in, const LayerTimes& lt, const StepTerms& step, Prediction& out, Explainer* ex);

} // namespace evaluation

} // namespace planscope
