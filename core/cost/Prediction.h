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

// Everything on a GPU besides model states and activations (core/cost/Runtime.h, docs/MODEL.md section 4), in
// three kinds: outside PyTorch's allocator (the CUDA context, NCCL's buffers), allocated and kept (library
// workspaces, the ZeRO bucket), allocated only while an op runs (the temporaries), and the allocator's slack
// (reserved - allocated).
struct BufferTerms {
    std::int64_t cudaContextBytes = 0;   // outside the allocator
    std::int64_t cublasWorkspaceBytes = 0; // PyTorch's cuBLAS and cuBLASLt workspaces
    std::int64_t teWorkspaceBytes = 0;   // Transformer Engine's cuBLAS workspaces
    std::int64_t ncclBytes = 0;          // outside the allocator: every communicator's buffers
    int ncclCommunicators = 0;
    std::int64_t zeroBucketBytes = 0;    // ZeRO-2/3 gradient reduce bucket
    std::int64_t zeroGatherBytes = 0;    // transient: ZeRO-3 gathered (and prefetched) layers, while an op runs
    std::int64_t logitsBytes = 0;        // transient: the 16-bit logits or their gradient beside the fp32 loss copy
    std::int64_t fragmentationBytes = 0; // the allocator's slack: reserved - allocated
    std::int64_t runtimeBytes() const { return cudaContextBytes + cublasWorkspaceBytes + teWorkspaceBytes; }
    std::int64_t communicationBytes() const { return ncclBytes + zeroBucketBytes; }
    std::int64_t temporaryBytes() const { return zeroGatherBytes + logitsBytes; }
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
    // The peak inside the step (compared with capacity): reserved + the CUDA context + NCCL's buffers.
    std::int64_t totalBytes = 0;
    std::int64_t allocatedBytes = 0;     // PyTorch's allocated bytes at the peak: states, activations, workspaces, temporaries
    std::int64_t reservedBytes = 0;      // allocatedBytes + the allocator's slack
    std::int64_t steadyBytes = 0;        // totalBytes without the temporaries and the slack: in use between ops
    std::int64_t simulatedPeakBytes = 0; // the same figure as totalBytes from the simulated memory over time; 0: none
    double inFlightMicrobatches = 0;     // microbatch-equivalents of activations held (a chunk counts 1/v)
    std::int64_t activationsPerLayerBytes = 0; // one microbatch, one layer (an MoE layer of an MoE model)
    std::int64_t denseActivationsPerLayerBytes = 0; // one microbatch, one layer with the dense MLP
    std::int64_t mtpActivationBytes = 0;       // one microbatch, one MTP module (its layer, projection and head)
    std::int64_t fp8WeightCacheBytes = 0;      // in weightsBytes: Transformer Engine's fp8 copies of the GEMM weights
    std::int64_t fp8ScalingBytes = 0;          // in weightsBytes: fp8 scales and amax histories
    std::int64_t offloadedOptimizerBytes = 0;  // optimizer state kept on the host (not in optimizerBytes)
    std::int64_t offloadedActivationBytes = 0; // saved activations waiting in host memory (not in activationsBytes)
    std::int64_t hostBytes = 0;                // host memory this GPU's offload takes (optimizer share, its fp32
                                               // gradients, activations)
    // One microbatch's activations held on the GPU per chunk of this rank, in forward order (its layers of each kind,
    // recompute and offload applied, MTP modules, the embedding's or the loss's extras): what the simulation holds
    // from a chunk's forward to its backward.
    std::vector<std::int64_t> chunkActivationBytes;
    int denseLayers = 0;                 // of `layers`, those with the dense MLP
    int mtpLayers = 0;                   // MTP modules this rank holds
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
    // Compute slowed by the collectives that run beside it (kernels::smShare of the seconds they hide):
    // per step, in dpExposedSeconds; and per microbatch for ZeRO-2/3, in zeroExposedSeconds.
    double contentionSeconds = 0;
    double zeroContentionSeconds = 0;
    double dpLastBucketShare = 1;        // share of the gradient in the last DDP bucket (reduced after backward ends)
    double optimizerSeconds = 0;
    double newtonSchulzSeconds = 0;      // Muon: the orthogonalisation of this rank's share of the matrices (in optimizerSeconds)
    double offloadTransferSeconds = 0;   // the offloaded optimizer share's gradients down and weights up over PCIe
    double hostOptimizerSeconds = 0;     // the host's step of that share
    double offloadExposedSeconds = 0;    // per microbatch: activation offload transfers the compute does not hide (in
                                         // backwardSeconds)
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
    // A layer with the dense MLP (an MoE model's first moe.denseLayers; equal to layer* for a dense model).
    double denseLayerForward = 0;
    double denseLayerBackward = 0;
    double denseLayerWeightGrad = 0;
    bool operator==(const OpCosts&) const = default;

    // One microbatch through `layers` transformer layers (`dense` of them dense), `mtp` MTP modules (each a layer
    // and an output head, DeepSeek-V3 section 2.2) and, on the last stage, the output layer.
    double forward(double layers, double dense, double mtp, bool output) const
    {
        return (layers - dense) * layerForward + dense * denseLayerForward + mtp * (layerForward + outputForward)
            + (output ? outputForward : 0.0);
    }
    double backward(double layers, double dense, double mtp, bool output) const
    {
        return (layers - dense) * layerBackward + dense * denseLayerBackward + mtp * (layerBackward + outputBackward)
            + (output ? outputBackward : 0.0);
    }
    double weightGrad(double layers, double dense, double mtp, bool output) const
    {
        return (layers - dense) * layerWeightGrad + dense * denseLayerWeightGrad
            + mtp * (layerWeightGrad + outputWeightGrad) + (output ? outputWeightGrad : 0.0);
    }
};

struct CommGroup {
    GroupKind kind = GroupKind::DPCP;    // printed as dp, tp, pp, cp, ep (toString)
    int size = 1;
    bool crossesNodes = false;
    bool crossesDomains = false; // the NVLink domain (= crossesNodes where the node is the domain)
    int domainsSpanned = 1, perDomain = 1;
    int nodesSpanned = 1;
    int perNode = 1;
    Text collective;                     // what runs on it, e.g. "AllReduce" or "ReduceScatter+AllGather"
    Text algorithm;                      // ring, hierarchical, p2p
    double linkBandwidth = 0;            // the slowest link it uses, bytes/s per direction
    double bytesPerStep = 0;             // bytes one GPU sends per step
    double seconds = 0;                  // time its operations take per step
    double exposedSeconds = 0;           // the part on the critical path
    bool operator==(const CommGroup&) const = default;
};

struct Prediction {
    bool valid = false;
    Issues errors;
    // Severity Warning, each with the field it concerns in path ("memory", "training.tokens", a validation
    // warning's field; empty for the model's own notes), written as issueLine() by the CLI and the JSON.
    Issues warnings;

    double paramsTotal = 0;
    double paramsActive = 0;
    std::vector<double> paramsPerStage;  // the model's parameters in each pipeline stage (all TP ranks)

    std::int64_t capacityBytes = 0;
    std::vector<StageMemory> stages;
    std::int64_t peakBytes = 0;
    int peakStage = 0;
    bool fits = false;
    // The peak a plan may reach to leave the headroom real runs keep free (capacity*(1 - memoryOverheads.headroom)),
    // and whether it does: the planner's fit.
    std::int64_t usableBytes = 0;
    bool fitsWithHeadroom = false;
    // Host memory offload takes on one node: its GPUs' hostBytes, taken as gpusPerNode times the largest stage's (the
    // GPUs of a node share a stage under Megatron's order, pipeline slowest).
    std::int64_t hostBytesPerNode = 0;
    std::int64_t simulatedPeakBytes = 0; // the largest stage's simulatedPeakBytes (0: not simulated)

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
