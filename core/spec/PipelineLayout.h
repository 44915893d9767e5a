// The pipeline split: which transformer layers, and whether the embedding and the loss, each (virtual) pipeline
// stage holds. One function, virtualStages(plan), answers it for every consumer (parameters and memory per stage,
// stage times, the simulation's per-chunk durations, the summary's stage table); it follows, in this order,
// parallel.layout (Megatron-Core's --pipeline-model-parallel-layout), parallel.embeddingInSplit/lossInSplit
// (account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split), parallel.firstStageLayers/
// lastStageLayers, or the even split (docs/PLAN-FILE.md, docs/MODEL.md section 2).
#pragma once

#include "Plan.h"
#include "util/Result.h"

#include <string>
#include <string_view>
#include <vector>

namespace planscope {

// One layer of a layout string: 'E' embedding, 't' transformer layer, 'm' multi-token-prediction layer, 'L' loss,
// with the 1-based character of the layout string it was written at (a repetition keeps the original's).
struct LayoutSymbol {
    char kind = 't';
    int character = 0;
};

// A layout string expanded: stage k of the list is virtual stage k of the model (Megatron-Core
// megatron/core/transformer/pipeline_parallel_layer_layout.py, PipelineParallelLayerLayout: stage k sits on
// pipeline rank k mod pp as its virtual stage k / pp).
struct ParsedLayout {
    std::vector<std::vector<LayoutSymbol>> stages;
    int count(char kind) const;
};

// Parses Megatron-Core's layout grammar (docs/PLAN-FILE.md, parallel.layout): the letters E t m L, '|' between
// stages, X*N and (...)*N repetitions, commas ignored. Errors (path parallel.layout) name the character and its
// 1-based position: "unexpected ')' at character 7".
Result<ParsedLayout> parsePipelineLayout(std::string_view text);

// One virtual stage of the model, in the order a microbatch's forward pass visits them.
struct VirtualStage {
    int rank = 0;          // pipeline rank that holds it
    int chunk = 0;         // its index among that rank's stages (Megatron's vp_stage)
    int layers = 0;        // transformer layers
    int denseLayers = 0;   // of them, layers with a dense MLP in an MoE model (its first moe.denseLayers)
    int mtpLayers = 0;     // multi-token-prediction modules: a layout's 'm', else model.mtpLayers on the loss stage
    bool embedding = false;
    bool loss = false;     // the final norm, the output layer and the loss
};

// The model's pp*chunks virtual stages under the plan's schedule placement (loop for the flush and interleaved
// schedules, V for zb-v and dualpipe-v; DualPipe: one direction's pp stages). A plan that fails validation still
// gets a split (the even one where its own does not apply), so views of an invalid plan stay drawable.
std::vector<VirtualStage> virtualStages(const Plan& plan);

// Where the split comes from, for the summary: "layout", "embedding/loss in split", "first/last stage layers", "even".
std::string splitSource(const Plan& plan);

// Validation of parallel.layout, embeddingInSplit, lossInSplit, firstStageLayers and lastStageLayers against the
// model and the degrees (called by validate()).
Issues checkPipelineSplit(const Plan& plan);

} // namespace planscope
