// autoBalance(plan): the pipeline split that makes the slowest pipeline rank as fast as it can be while every
// stage fits in GPU memory, written as a Megatron-Core layout string (parallel.layout, spec/PipelineLayout.h).
//
// What is minimised: the slowest rank's compute time for one microbatch, forward plus backward, a rank's time
// being the sum of its chunks: its layers, plus the output layer (and any MTP layers) on the rank of the last
// virtual stage, as Prediction::opCosts prices them (OpCosts::forward/backward, the figures evaluate() sums into
// stageTimes; the embedding lookup is not costed by the model). Layers of one kind cost the same there (an MoE
// model's first, dense layers stay on the first stage), so a rank's time and memory follow from how many layers it
// holds: the bottleneck is minimised exactly by filling, one layer at a time, the rank whose time grows least,
// within each rank's memory cap (the most layers with which it still fits, found by evaluate() on probe layouts).
// Among the splits with that bottleneck the one with the lowest peak memory is kept; a rank's layers are then
// spread over its chunks the same way, a tie going to the later chunk. When no split fits, the result is the
// fastest of the splits with the lowest peak memory, with fits = false.
#pragma once

#include "spec/Plan.h"
#include "util/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace planscope {

// One split's figures, from evaluate() of the plan with it.
struct SplitFigures {
    bool valid = false;             // false: the plan as given does not evaluate (its other figures are 0)
    std::string split;              // where its split comes from: splitSource() ("layout", "even", ...)
    double slowestRankSeconds = 0;  // max over ranks of stageTimes forwardSeconds + backwardSeconds
    int slowestRank = 0;
    std::int64_t peakBytes = 0;
    int peakRank = 0;
    bool fits = false;
};

struct BalancedSplit {
    std::vector<int> stageLayers;   // transformer layers per virtual stage, in forward order (pp * chunks)
    std::vector<int> stageRanks;    // the pipeline rank of each virtual stage
    std::vector<int> rankLayers;    // transformer layers per pipeline rank
    std::vector<double> rankSeconds;        // per rank: one microbatch forward + backward under the split
    std::vector<std::int64_t> rankBytes;    // per rank: memory per GPU under the split
    int mtpLayers = 0;              // MTP layers, kept on the last virtual stage before the loss
    std::string layout;             // the Megatron-Core layout string of the split
    Plan plan;                      // the given plan with parallel.layout = layout (the other split options cleared)
    bool fits = false;              // every rank fits in memory under this split
    std::int64_t capacityBytes = 0;
    SplitFigures before;            // the plan as given
    SplitFigures after;             // the plan with the balanced layout
};

// The balanced split of the plan's pipeline. Fails with the validation errors of the plan (its split options
// aside, since the layout replaces them), or when its schedule takes no layout (zb-v, dualpipe, dualpipe-v).
Result<BalancedSplit> autoBalance(const Plan& plan);

// The layout string of per-virtual-stage layer counts: 'E' first, 'm'*mtp and 'L' last, runs of equal middle
// stages as "(t*N|)*K" (parsePipelineLayout reads it back to the same stages).
std::string layoutString(const std::vector<int>& stageLayers, int mtpLayers);

} // namespace planscope
