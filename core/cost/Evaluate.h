// evaluate(plan) -> Prediction: parameters, memory per stage, FLOPs, communication per group and the
// analytic step time (docs/MODEL.md sections 1-7). Passing an Explainer records, for every number, the formula,
// the values put in and the source; without one nothing but the numbers is built.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "Explain.h"
#include "LayerInputs.h"
#include "Prediction.h"
#include "spec/Plan.h"

namespace planscope {

class EvaluateCache;

Prediction evaluate(const Plan& plan, Explainer* explainer = nullptr);

// The same evaluation with a cache of the parts that depend on few fields (the planner, core/search, evaluates
// millions of plans of one template). The result equals evaluate(plan, nullptr) field for field
// (tests/core/tst_search.cpp checks it over whole spaces).
Prediction evaluate(const Plan& plan, EvaluateCache& cache);

// Activation bytes of one transformer layer for one microbatch on one GPU (Korthikanti et al., derived
// from the block so that other FFN sizes, GQA, gated MLPs and no-dropout get their own numbers).
// One tensor a layer saves for its backward, by the module that produces it (Megatron-Core's --recompute-modules
// names: layernorm, core_attn, mla_up_proj, mlp, moe, moe_act, shared_experts; "" = not recomputable by module).
struct ActivationTerm {
    std::string name;
    std::string module;
    double bytes = 0;            // per layer per microbatch on one GPU
    bool recomputed = false;     // dropped by the plan's selective recompute modules
    bool fp8 = false;            // saved as Transformer Engine's fp8 cast of a GEMM input
};

struct LayerActivations {
    double nonParallelCoeff = 0; // in units of s*b*h bytes: tensors TP does not split (SP does), without recompute
    double parallelCoeff = 0;    // in units of s*b*h bytes: tensors TP splits
    double replicatedCoeff = 0;  // in units of s*b*h bytes: tensors neither splits (MLA's gathered latents)
    double scoresCoeff = 0;      // in units of a*s*s*b bytes: attention scores, softmax, dropout (0 once recomputed)
    double scoresFullCoeff = 0;  // the same before recompute
    double stored = 0;           // bytes kept per layer under the plan's recompute setting (selective modules included)
    double full = 0;             // bytes without any recompute (the working set of a recomputed layer)
    double input = 0;            // the layer's input, all a fully recomputed layer keeps
    std::vector<ActivationTerm> terms; // what `full` is made of
};
LayerActivations layerActivations(const LayerInputs& inputs);
LayerActivations layerActivations(const Plan& plan); // of layerInputs(plan, rankLayout(plan))

// The schedule's bubble as a formula (its share of the pipeline time, and over ideal compute) in p, m, v where it
// has a closed form in them (GPipe, 1F1B, interleaved, looped BFS), else in the bubble and the slot: the labels
// beside time.bubbleFraction and time.bubbleOverhead, whose values they give.
struct BubbleFormulas {
    const char* share;
    const char* overhead;
    bool closedInPmv; // true: the formulas use p, m, v only
};
BubbleFormulas bubbleFormulas(ScheduleKind kind);

// The operator lists of one layer and the output layer, and the activations a layer saves, keyed by the whole struct
// they are computed from (LayerInputs: the model, the cluster, the in-layer degrees and where their groups sit, the
// microbatch, recompute and its modules, flash attention, TP overlap, whether the schedule splits the backward, the
// precision and fp8 recipe). A plan that differs from a cached one only in what a layer does not read (pp, dp, vpp,
// ZeRO, most of the schedule, offload, the global batch, DP and p2p overlap) reuses them. It holds the most recent
// `entries` keys only, so its memory does not grow with the plans seen. One per thread.
class EvaluateCache {
public:
    explicit EvaluateCache(std::size_t entries = 8);
    ~EvaluateCache();
    EvaluateCache(const EvaluateCache&) = delete;
    EvaluateCache& operator=(const EvaluateCache&) = delete;

    std::int64_t hits() const { return hits_; }
    std::int64_t misses() const { return misses_; }

    struct Entry;
    // The entry for these inputs, computed from them alone on a miss (valid until the next lookup).
    const Entry& lookup(const LayerInputs& inputs);

private:
    struct Slot;
    std::vector<Slot> slots_;
    std::size_t next_ = 0;
    std::int64_t hits_ = 0, misses_ = 0;
};

// Microbatch-equivalents of activations a pipeline rank holds at its peak (docs/SCHEDULES.md section 1.7).
double inFlightMicrobatches(ScheduleKind kind, int p, std::int64_t m, int v, int rank);

} // namespace planscope
