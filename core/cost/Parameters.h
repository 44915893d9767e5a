// Parameter counts (docs/MODEL.md section 1): dense, GQA, gated MLP, tied/untied embeddings, MoE total vs active.
#pragma once

#include "spec/PipelineLayout.h"
#include "spec/Plan.h"

#include <vector>

namespace planscope {

// One transformer layer, split by how tensor parallelism treats each part (Megatron's column/row layers).
struct LayerParameters {
    double attentionMatrices = 0; // Q, K, V, O: h*a*d + 2*h*kv*d + a*d*h (MLA: the up projections and O)
    double attentionReplicated = 0; // MLA's down projections and latent norms, per-head q/k norms: not split by tp
    double mlpMatrices = 0;       // 2*h*f or 3*h*f (dense layers; MoE layers hold shared experts here)
    double columnBiases = 0;      // QKV and fc1 biases, attention sinks: sharded by tp
    double rowBiases = 0;         // O and fc2 biases: replicated across tp
    double norms = 0;             // two norms per layer: replicated
    double router = 0;            // h*experts (+ experts with a router bias): replicated
    double routedExperts = 0;     // experts * ((2|3)*h*f_e + biases): sharded by ep and the expert tp
    double activeExperts = 0;     // topK of them, what one token touches

    double total() const
    {
        return attentionMatrices + attentionReplicated + mlpMatrices + columnBiases + rowBiases + norms + router
            + routedExperts;
    }
    double active() const { return total() - routedExperts + activeExperts; }
    // Matrices one token multiplies with (FLOPs): attention, MLP/shared experts, router, active experts.
    double matmulActive() const { return attentionMatrices + attentionReplicated + mlpMatrices + router + activeExperts; }
};

struct ParameterCounts {
    LayerParameters layer;      // an MoE layer of an MoE model, else the dense layer
    LayerParameters denseLayer; // a layer with the dense MLP (equal to `layer` for a dense model)
    int moeLayers = 0, denseLayers = 0;
    double mtpModule = 0;     // one MTP module: two norms, the 2h x h projection, a layer and its final norm
    double embedding = 0;     // V*h
    double positions = 0;     // s*h where positions are learned
    double embeddingNorm = 0; // BLOOM's extra norm
    double outputLayer = 0;   // V*h when untied, else 0
    double finalNorm = 0;
    double total = 0;         // with the MTP modules (their embedding and output head are the model's own)
    double active = 0;        // with only topK routed experts per layer
    double layersTotal = 0;   // moeLayers * layer.total() + denseLayers * denseLayer.total()
    double mtpTotal = 0;      // mtpLayers * mtpModule
    double matmulActivePerToken = 0; // the layers' and MTP modules' matmulActive() + V*h per output head

    // Parameters of `layers` transformer layers of which `dense` have the dense MLP.
    double layersOf(int layers, int dense) const
    {
        return (layers - dense) * layer.total() + dense * denseLayer.total();
    }
};

ParameterCounts countParameters(const ModelSpec& model);

// How one pipeline rank is shaped by the schedule: the layers it holds (memory), the layers one microbatch
// runs through on it (compute), and whether it holds the embedding and the output layer; the sums of its
// virtual stages (spec/PipelineLayout.h, virtualStages).
struct RankShape {
    int layersHeld = 0;
    int denseLayersHeld = 0;         // of them, layers with the dense MLP (an MoE model's first layers)
    int mtpHeld = 0;                 // MTP modules
    double layersPerMicrobatch = 0;
    double denseLayersPerMicrobatch = 0;
    double mtpPerMicrobatch = 0;
    bool embedding = false;
    bool output = false;
};

std::vector<RankShape> rankShapes(const Plan& plan);
// The same from the plan's virtualStages(plan), where the caller has them already.
std::vector<RankShape> rankShapes(const Plan& plan, const std::vector<VirtualStage>& stages);

} // namespace planscope
