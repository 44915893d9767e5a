// The result of evaluate(): per-stage memory, FLOPs, communication per group, step time (docs/FORMATS.md
// section 2). An immutable value once built.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "GroupKind.h"
#include "Operators.h"
#include "util/Result.h"

namespace planscope {

struct BufferTerms {
    std::int64_t cudaContextBytes = 0;
    std::int64_t ncclBytes = 0;
    std::int64_t zeroBucketBytes = 0;    // ZeRO-2/3 gradient reduce bucket
    std::int64_t zeroGatherBytes = 0;    // ZeRO-3 gathered (and prefetched) layers
    std::int64_t fragmentationBytes = 0;
    bool operator==(const BufferTerms&) const = default;
};

struct StageMemory {
    int stage = 0;
    int layers = 0;                      // layers this rank holds
    bool embedding = false;
    bool output = false;
    double parameters = 0;               // parameters held per GPU (after TP/EP sharding, before ZeRO)
    std::int64_t weightsBytes = 0;
    std::int64_t gradientsBytes = 0;
    std::int64_t optimizerBytes = 0;     // includes fp32 master weights where kept
    std::int64_t activationsBytes = 0;
    std::int64_t buffersBytes = 0;
    std::int64_t totalBytes = 0;
    double inFlightMicrobatches = 0;     // microbatch-equivalents of activations held (a chunk counts 1/v)
    std::int64_t activationsPerLayerBytes = 0; // one microbatch, one layer
    std::int64_t embeddingActivationBytes = 0; // one microbatch: the embedding's saved tensors (first stage)
    std::int64_t outputActivationBytes = 0;    // one microbatch: final norm, output layer and fp32 logits (last stage)
    std::int64_t recomputeWorkspaceBytes = 0;  // one layer's full activations while it is recomputed (full recompute)
    BufferTerms buffers;
    bool operator==(const StageMemory&) const = default;
};

struct StageTime {
    int stage = 0;
    double forwardSeconds = 0;           // one microbatch through this rank
    double backwardSeconds = 0;          // full backward (input + weight gradients, recompute included)
    double weightGradSeconds = 0;        // the weight-gradient part of backward
    double p2pSeconds = 0;               // pipeline sends per microbatch on this rank, charged to its slots
    double p2pTransferSeconds = 0;       // pipeline sends per microbatch on this rank, overlapped or not
    double p2pSendSeconds = 0;           // one send (an activation or a gradient of one microbatch)
    double layerCommSeconds = 0;         // TP/EP/CP collectives inside forward and backward (not overlapped)
    double zeroExposedSeconds = 0;       // per-microbatch ZeRO-2/3 communication not hidden by compute
    double dpSeconds = 0;                // all data-parallel communication of the step
    double dpReduceSeconds = 0;          // gradient reduction: once per step (ZeRO-0/1) or per microbatch (ZeRO-2/3)
    double dpGatherSeconds = 0;          // parameter all-gather after the optimizer step (ZeRO-1/2)
    double zeroGatherSeconds = 0;        // ZeRO-3: one all-gather of the rank's weights, before every F and every B
    double dpExposedSeconds = 0;
    double dpLastBucketShare = 1;        // share of the gradient in the last DDP bucket (reduced after backward ends)
    double optimizerSeconds = 0;
    bool operator==(const StageTime&) const = default;
};

// Durations the schedule simulation needs: one transformer layer for one microbatch on one GPU, the output
// layer (and loss) on the last stage, one pipeline hand-off, and the per-microbatch ZeRO-2/3 exposure.
struct OpCosts {
    double layerForward = 0;
    double layerBackward = 0;   // full backward, recompute included
    double layerWeightGrad = 0; // the weight-gradient part of layerBackward
    double outputForward = 0;
    double outputBackward = 0;
    double outputWeightGrad = 0;
    double p2p = 0;             // one activation (or gradient) send between adjacent stages
    bool operator==(const OpCosts&) const = default;
};

struct CommGroup {
    GroupKind kind = GroupKind::DPCP;    // printed as dp, tp, pp, cp, ep (toString)
    int size = 1;
    bool crossesNodes = false;
    int nodesSpanned = 1;
    int perNode = 1;
    std::string collective;              // what runs on it, e.g. "AllReduce" or "ReduceScatter+AllGather"
    std::string algorithm;               // ring, hierarchical, p2p
    double linkBandwidth = 0;            // the slowest link it uses, bytes/s per direction
    double bytesPerStep = 0;             // bytes one GPU sends per step
    double seconds = 0;                  // time its operations take per step
    double exposedSeconds = 0;           // the part on the critical path
    bool operator==(const CommGroup&) const = default;
};

struct Prediction {
    bool valid = false;
    Issues errors;
    std::vector<std::string> warnings;

    double paramsTotal = 0;
    double paramsActive = 0;
    std::vector<double> paramsPerStage;  // the model's parameters in each pipeline stage (all TP ranks)

    std::int64_t capacityBytes = 0;
    std::vector<StageMemory> stages;
    std::int64_t peakBytes = 0;
    int peakStage = 0;
    bool fits = false;

    double modelFlopsPerStep = 0;
    double hardwareFlopsPerStep = 0;
    double modelFlopsPerToken = 0;

    std::vector<StageTime> stageTimes;
    double stepSeconds = 0;
    double computeSeconds = 0;           // m * the slowest rank's microbatch time (no bubble, no p2p)
    double bubbleSeconds = 0;            // the schedule's bubble at the slowest rank's slot (closed form)
    double exposedCommSeconds = 0;       // p2p, ZeRO per-microbatch, DP tail not hidden
    double optimizerSeconds = 0;
    double bubbleFraction = 0;           // the schedule's bubble: its share of the pipeline time ((p-1)/(m+p-1) for 1F1B)
    double bubbleOverhead = 0;           // the schedule's bubble over ideal compute ((p-1)/m for 1F1B)
    // Idle of all causes: the schedule's bubble, plus ranks waiting on a slower stage (unequal layers, the output
    // layer) and on sends. From the simulation when there is one, else from the closed form's per-rank slots.
    double idleFraction = 0;             // idle share of all ranks' pipeline time
    double idleSeconds = 0;              // the most idle rank's idle time
    double imbalanceIdleFraction = 0;    // idleFraction - bubbleFraction: idle the schedule's bubble does not explain
    double mfu = 0;
    double hfu = 0;
    double tokensPerSecond = 0;
    double trainingDays = 0;
    std::int64_t microbatches = 0;

    std::vector<CommGroup> comm;
    OpCosts opCosts;
    std::vector<KernelOp> layerOps;            // one transformer layer's operators, costed (Operators.h)
    std::vector<KernelOp> outputOps;           // the output layer's, on the last stage
    std::string timeSource = "analytic"; // "simulation" when the step time comes from the schedule simulation
    double analyticStepSeconds = 0;
    bool operator==(const Prediction&) const = default;
};

} // namespace planscope
