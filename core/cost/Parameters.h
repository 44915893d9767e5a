// Parameter counts (docs/MODEL.md section 1): dense, GQA, gated MLP, tied/untied embeddings, MoE total vs active.
#pragma once

#include "spec/PipelineLayout.h"
#include "spec/Plan.h"

#include <vector>

namespace planscope {

// One transformer layer, split by how tensor parallelism treats each part (Megatron's column/row layers).
struct LayerParameters {
    double attentionMatrices = 0; // Q, K, V, O: h*(h + 2*h*kv/a) + h*h
    double mlpMatrices = 0;       // 2*h*f or 3*h*f (dense layers; MoE layers hold shared experts here)
    double columnBiases = 0;      // QKV and fc1 biases: sharded by tp
    double rowBiases = 0;         // O and fc2 biases: replicated across tp
    double norms = 0;             // two norms per layer: replicated
    double router = 0;            // h*experts: replicated
    double routedExperts = 0;     // experts * (2|3)*h*f_e: sharded by ep (and expert tp = tp)
    double activeExperts = 0;     // topK of them, what one token touches

    double total() const
    {
        return attentionMatrices + mlpMatrices + columnBiases + rowBiases + norms + router + routedExperts;
    }
    double active() const { return total() - routedExperts + activeExperts; }
    // Matrices one token multiplies with (FLOPs): attention, MLP/shared experts, router, active experts.
    double matmulActive() const { return attentionMatrices + mlpMatrices + router + activeExperts; }
};

struct ParameterCounts {
    LayerParameters layer;
    double embedding = 0;     // V*h
    double positions = 0;     // s*h where positions are learned
    double embeddingNorm = 0; // BLOOM's extra norm
    double outputLayer = 0;   // V*h when untied, else 0
    double finalNorm = 0;
    double total = 0;
    double active = 0;        // with only topK routed experts per layer
    double layersTotal = 0;   // L * layer.total()
    double matmulActivePerToken = 0; // L*layer.matmulActive() + V*h (the output projection, tied or not)
};

ParameterCounts countParameters(const ModelSpec& model);

// How one pipeline rank is shaped by the schedule: the layers it holds (memory), the layers one microbatch
// runs through on it (compute), and whether it holds the embedding and the output layer; the sums of its
// virtual stages (spec/PipelineLayout.h, virtualStages).
struct RankShape {
    int layersHeld = 0;
    double layersPerMicrobatch = 0;
    bool embedding = false;
    bool output = false;
};

std::vector<RankShape> rankShapes(const Plan& plan);

} // namespace planscope
