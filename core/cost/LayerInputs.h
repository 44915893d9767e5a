// What one transformer layer's operators (operatorList, Operators.h) and saved activations (layerActivations,
// Evaluate.h) are computed from: the model, the cluster (GPU, links, node size and count), the in-layer parallel
// degrees and where their groups sit, and the training settings a layer sees. Those computations take this struct and
// nothing else, so the cache of their results (EvaluateCache) is keyed by it whole: a field they read cannot be
// missing from the key. The plan's pipeline and data-parallel settings (pp, dp, vpp, ZeRO, the schedule beyond whether
// it splits the backward, the global batch, offload, DP and p2p overlap) are not here: a layer does not read them.
#pragma once

#include "RankLayout.h"
#include "spec/Plan.h"

#include <string>
#include <vector>

namespace planscope {

struct LayerParallel {
    int tp = 1, cp = 1, ep = 1;
    int etp = 0;        // expert tensor parallelism; 0 = tp
    bool sp = false;
    bool operator==(const LayerParallel&) const = default;

    int expertTp() const { return etp > 0 ? etp : tp; }
};

struct LayerTraining {
    int microBatch = 1;
    Precision precision = Precision::BF16;
    Recompute recompute = Recompute::None;
    std::vector<std::string> recomputeModules; // empty = core_attn
    bool flashAttention = false;
    bool tpCommOverlap = false;
    bool splitBackward = false; // the schedule runs the weight gradient apart (ZB-H1, ZB-H2, ZB-V, DualPipe, DualPipeV)
    Fp8Recipe fp8Recipe = Fp8Recipe::Delayed;
    bool fp8ParamGather = false;
    HostSpec host;
    bool overlapMoeComm = false;
    int ncclChannels = 16; // memoryOverheads.ncclChannels: the SMs a collective hidden behind an op takes from it
    bool operator==(const LayerTraining&) const = default;
};

struct LayerInputs {
    ModelSpec model;
    ClusterSpec cluster;
    LayerParallel parallel;
    LayerTraining training;
    RankLayout layout;
    bool operator==(const LayerInputs&) const = default;
};

// Whether a schedule runs the weight-gradient pass apart from the input gradient.
bool splitsBackward(ScheduleKind kind);

// The layer inputs of a plan whose groups sit as `layout` says (rankLayout(plan)).
LayerInputs layerInputs(const Plan& plan, const RankLayout& layout);

// The same for the dense-MLP layers of an MoE model (DeepSeek's first_k_dense_replace): no experts, ep 1, etp = tp.
LayerInputs denseLayerInputs(LayerInputs inputs);

} // namespace planscope
