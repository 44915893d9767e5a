// The inputs of a prediction: model, cluster, parallel degrees and training settings (docs/FORMATS.md section 1).
// Plain value types; every field has a documented default except the model shape, the GPU, the node
// count and the parallel degrees.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planscope {

enum class Precision { FP32, FP16, BF16, FP8 };
// Muon (Megatron-Core --optimizer muon: megatron/core/optimizer/emerging_optimizers.py, TensorParallelMuon): the
// 2-D weights take a momentum and a Newton-Schulz orthogonalised step; embeddings, the output layer, norms and biases
// take Adam.
enum class Optimizer { Adam, SGD, Muon };
enum class Recompute { None, Selective, Full };
enum class ScheduleKind { GPipe, OneFOneB, Interleaved1F1B, LoopedBFS, ZBH1, ZBH2, ZBV, DualPipe, DualPipeV };
enum class PositionEmbedding { None, Learned, Rope, Alibi };
enum class NormKind { LayerNorm, RMSNorm };
enum class Fsdp { None, Full, Hybrid };
// Megatron-Core's MoE token dispatchers (--moe-token-dispatcher-type): all-to-all over the expert-parallel group, or
// all-gather of every token to every expert-parallel rank.
enum class MoeDispatcher { AllToAll, AllGather };
// Transformer Engine's fp8 scaling recipes: delayed (amax history), current (per-tensor, this step), mxfp8 (32-element
// blocks with e8m0 scales, Blackwell), blockwise (1x128 / 128x128 blocks, DeepSeek-V3's recipe).
enum class Fp8Recipe { Delayed, Current, MxFp8, Blockwise };
// CUDA graphs as Megatron-Core captures them (--cuda-graph-impl, --cuda-graph-scope): none (every kernel issued by the
// CPU), per layer (each transformer layer's forward and backward one graph; with a dropless MoE dispatcher that syncs
// with the host, only the part before the sync: Megatron-Core's "attn moe_router moe_preprocess" scopes), or the whole
// iteration (needs a step without host syncs).
enum class CudaGraphs { None, PerLayer, FullIteration };

// Bytes one element takes when stored in this dtype.
int bytesPerElement(Precision p);

std::string_view toString(Precision);
std::string_view toString(Optimizer);
std::string_view toString(Recompute);
std::string_view toString(ScheduleKind);
std::string_view toString(PositionEmbedding);
std::string_view toString(NormKind);
std::string_view toString(Fsdp);
std::string_view toString(MoeDispatcher);
std::string_view toString(Fp8Recipe);
std::string_view toString(CudaGraphs);
bool fromString(std::string_view, Precision&);
bool fromString(std::string_view, Optimizer&);
bool fromString(std::string_view, Recompute&);
bool fromString(std::string_view, ScheduleKind&);
bool fromString(std::string_view, PositionEmbedding&);
bool fromString(std::string_view, NormKind&);
bool fromString(std::string_view, Fsdp&);
bool fromString(std::string_view, MoeDispatcher&);
bool fromString(std::string_view, Fp8Recipe&);
bool fromString(std::string_view, CudaGraphs&);

struct MoeSpec {
    int experts = 0;               // routed experts per MoE layer; 0 = dense model
    int topK = 0;                  // experts each token is routed to
    std::int64_t expertFfnHidden = 0;
    int sharedExperts = 0;         // always-active experts of sharedExpertFfnHidden each
    std::int64_t sharedExpertFfnHidden = 0; // 0 = expertFfnHidden
    int denseLayers = 0;           // the first layers keep a dense MLP of ffnHidden (DeepSeek first_k_dense_replace)
    bool routerBias = false;       // a bias per expert on the router (GPT-OSS; DeepSeek-V3's e_score_correction_bias)
    double capacityFactor = 0;     // tokens an expert takes, over the balanced share; 0 = dropless
    MoeDispatcher dispatcher = MoeDispatcher::AllToAll;
    bool groupedGemm = true;       // the local experts' GEMMs in one grouped kernel (--moe-grouped-gemm)
    // A dropless dispatcher learns each expert's token count on the GPU and copies it to the host to size its buffers
    // (a device-to-host sync every MoE layer forward); syncFree: the counts stay on the device (sync-free dispatch).
    // Capacity routing (capacityFactor > 0, padded to capacity) has fixed sizes and no sync either way.
    bool syncFree = false;
    // Tokens the busiest expert-parallel rank's experts take over the balanced share (1 = balanced, the default: the
    // published Megatron-Core benchmarks force-balance the routing). 0 in a file = 1.
    double imbalance = 1.0;
    bool operator==(const MoeSpec&) const = default;
};

// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1): queries and keys/values through low-rank
// latents, with a separate rotary part of each query/key head. Off when kvLoraRank is 0.
struct MlaSpec {
    int qLoraRank = 0;             // 0 = queries projected directly from h
    int kvLoraRank = 0;
    int qkNopeHeadDim = 0;
    int qkRopeHeadDim = 0;
    int vHeadDim = 0;
    bool operator==(const MlaSpec&) const = default;
    bool enabled() const { return kvLoraRank > 0; }
};

struct ModelSpec {
    std::string preset;            // preset id it was filled from, if any
    std::string name;
    int layers = 0;
    std::int64_t hidden = 0;
    int heads = 0;
    int kvHeads = 0;               // 0 in a file means "= heads"
    std::int64_t ffnHidden = 0;    // 0 in a file means 4 * hidden
    std::int64_t vocab = 0;
    std::int64_t seqLength = 0;
    bool gatedMlp = false;         // SwiGLU/GeGLU: three matrices of h x f
    bool tiedEmbeddings = true;
    PositionEmbedding positionEmbedding = PositionEmbedding::Learned;
    NormKind norm = NormKind::LayerNorm;
    bool bias = true;              // linear layers carry biases
    bool embeddingNorm = false;    // a norm right after the embedding (BLOOM)
    bool dropout = true;           // dropout masks are kept for backward
    std::int64_t headDim = 0;      // 0 = hidden/heads; Qwen3 and GPT-OSS use heads*headDim != hidden
    bool qkNorm = false;           // an RMSNorm over each query and key head (Qwen3)
    bool attentionSinks = false;   // one learned logit per head (GPT-OSS)
    MlaSpec mla;
    int mtpLayers = 0;             // multi-token-prediction modules after the last layer (DeepSeek-V3: 1)
    MoeSpec moe;
    double paramsReported = 0;     // the count the model's source publishes (display/tests only)
    bool operator==(const ModelSpec&) const = default;

    bool isMoe() const { return moe.experts > 0; }
    std::int64_t headDimension() const { return headDim > 0 ? headDim : (heads > 0 ? hidden / heads : hidden); }
    // Layers of routed experts (the others are dense): all but the first moe.denseLayers of an MoE model.
    int moeLayers() const { return isMoe() ? std::max(0, layers - moe.denseLayers) : 0; }
};

struct PeakFlops {
    double fp32 = 0, tf32 = 0, bf16 = 0, fp16 = 0, fp8 = 0;
    double forPrecision(Precision p) const;
    bool operator==(const PeakFlops&) const = default;
};

// One GEMM timed on the user's GPU (a calibration profile): used for exactly this shape and dtype.
struct MeasuredGemm {
    std::int64_t m = 0, n = 0, k = 0;
    Precision precision = Precision::BF16;
    double seconds = 0;
    bool operator==(const MeasuredGemm&) const = default;
};

struct GpuSpec {
    std::string id;                // preset id, or a user-given name
    std::string name;
    std::int64_t memoryBytes = 0;
    PeakFlops peakFlops;           // dense datasheet numbers, FLOP/s
    double hbmBandwidth = 0;       // bytes/s
    double nvlinkBandwidth = 0;    // bytes/s per direction
    double gemmEfficiency = 0.75;  // achieved/peak of large GEMMs (the best shape of a sweep)
    double gemmEfficiencyFp8 = 0;  // the same for fp8 GEMMs where measured; 0 = gemmEfficiency
    int sms = 0;                   // streaming multiprocessors (CUs): GEMM wave quantisation; 0 = not modelled
    double hbmEfficiency = 0;      // achieved/datasheet HBM bandwidth of a streaming copy; 0 = not measured
    // Flash-attention forward+backward throughput, causal, head dim 128, by sequence length (FLOP/s, causal
    // FLOPs counted as half): {sequence, flops} sorted by sequence. Empty = not measured.
    std::vector<std::pair<double, double>> attentionFlops;
    std::vector<MeasuredGemm> measuredGemms; // from a calibration profile; not written to plan files
    std::string defaultNode;       // node preset id
    bool operator==(const GpuSpec&) const = default;
};

struct LinkSpec {
    double bandwidth = 0;          // bytes/s per GPU per direction
    double latency = 0;            // seconds per step (alpha)
    double efficiency = 1.0;       // achieved collective bus bandwidth / bandwidth (nccl-tests busBw)
    double allReduceEfficiency = 0; // the all-reduce's own share where it differs (NVLink SHARP); 0 = efficiency
    double allToAllEfficiency = 0;  // the all-to-all's own share where it differs (measured alltoall_perf); 0 = efficiency
    // Measured share of the large-message bus bandwidth by buffer size: {bytes, share} sorted by size; empty = flat.
    std::vector<std::pair<double, double>> busBandwidthCurve;
    bool operator==(const LinkSpec&) const = default;

    double effectiveBandwidth() const { return bandwidth * efficiency; }
    double effectiveBandwidth(bool allReduce, bool allToAll = false) const
    {
        if (allReduce && allReduceEfficiency > 0) return bandwidth * allReduceEfficiency;
        if (allToAll && allToAllEfficiency > 0) return bandwidth * allToAllEfficiency;
        return bandwidth * efficiency;
    }
};

struct ClusterSpec {
    GpuSpec gpu;
    std::string nodePreset;        // node preset the links came from
    int nodes = 0;
    int gpusPerNode = 8;
    // Nodes one NVLink domain joins (a rack-scale system: GB200 NVL72 is 18 compute trays of 4 GPUs); 1 = the node is
    // the NVLink domain. intraNode is the NVLink fabric: inside a node, and across the nodes of a domain.
    int nvlinkDomainNodes = 1;
    // Nodes one pod joins: a scalable unit, the nodes under one set of leaf switches of the compute fabric (NVIDIA DGX
    // SuperPOD: 32 DGX H100 systems); above it the network has another tier. 0 = not known: the cluster is one pod.
    // Read by the placement of groups (cost/Placement.h), not by the step time.
    int podNodes = 0;
    LinkSpec intraNode;
    LinkSpec interNode;
    bool operator==(const ClusterSpec&) const = default;

    int gpus() const { return nodes * gpusPerNode; }
};

struct ParallelSpec {
    int dp = 1, tp = 1, pp = 1, cp = 1, ep = 1, vpp = 1;
    int etp = 0;                   // expert tensor parallelism (--expert-tensor-parallel-size); 0 = tp
    bool sp = false;               // sequence parallelism (needs tp > 1 to matter)
    int zero = 0;                  // ZeRO stage 0-3 over the data-parallel group
    Fsdp fsdp = Fsdp::None;        // full = ZeRO-3; hybrid = ZeRO-3 inside a node, replicated across nodes
    std::string order = "tp-cp-ep-dp-pp";
    int firstStageLayers = 0;      // 0 = layers spread evenly
    int lastStageLayers = 0;
    // Megatron-Core's pipeline layout string ("Et*3|(tt|)*29m|L"; spec/PipelineLayout.h); empty = not used.
    std::string layout;
    // Megatron-Core account_for_embedding_in_pipeline_split / account_for_loss_in_pipeline_split: the embedding
    // (the loss) counts as one layer of the split, its stage gets one transformer layer fewer.
    bool embeddingInSplit = false;
    bool lossInSplit = false;
    bool operator==(const ParallelSpec&) const = default;

    int expertTp() const { return etp > 0 ? etp : tp; }
};

// Named terms outside model state and activations (docs/MODEL.md section 4), each with an editable default.
// What the GPU holds besides model states and activations (docs/MODEL.md section 4, core/cost/Runtime.h). A 0 in
// an override field means "derive it": the user's value wins where one is given.
inline constexpr double kDefaultMemoryHeadroom = 0.06;
struct MemoryOverheads {
    std::int64_t cudaContextBytes = 805306368;   // 768 MiB: the CUDA context, outside PyTorch's allocator
    std::int64_t workspaceBytes = 0;             // one cuBLAS/cuBLASLt/TE workspace; 0: 32 MiB on GPUs with fp8, else 4 MiB
    std::int64_t ncclBufferBytesPerGroup = 0;    // > 0: a flat size per communicator; 0: from the NCCL settings below
    std::int64_t ncclBuffSize = 4194304;         // NCCL_BUFFSIZE: bytes per channel per connection (4 MiB)
    int ncclChannels = 16;                       // channels of a collective communicator (NCCL_MIN/MAX_NCHANNELS)
    double fragmentation = 0;                    // > 0: reserved = (1 + f) * allocated; 0: the allocator model below
    double allocatorSlack = 0.1;                 // reserved - allocated as a share of the bytes allocated inside the step
    // The share of the GPU's memory a plan must leave free to count as one to run (the planner's fit): what the memory
    // model's measured error on published runs does not cover (docs/MEMORY-ACCURACY.md, "The headroom").
    double headroom = kDefaultMemoryHeadroom;
    bool operator==(const MemoryOverheads&) const = default;
};

// Host offload (Megatron-Core --optimizer-cpu-offload with --optimizer-offload-fraction, as ZeRO-Offload runs it;
// Transformer Engine activation offloading, Megatron --cpu-offloading-num-layers).
struct OffloadSpec {
    double optimizerFraction = 0;  // share of the optimizer state (master weights and moments) kept and stepped on the CPU
    int activationLayers = 0;      // layers per chunk whose saved activations wait in host memory
    double pcieBandwidth = 0;      // bytes/s per direction between a GPU and the host; 0 = the GPU's PCIe generation
    double hostBandwidth = 0;      // host memory bytes/s one GPU's offloaded optimizer gets; 0 = documented default
    bool operator==(const OffloadSpec&) const = default;
};

// The host: the CPU issues every kernel (framework dispatch and the launch) and the GPU runs what has been issued; a
// synchronisation makes the CPU wait for the GPU (docs/MODEL.md section 7.4). A 0 means the documented default.
struct HostSpec {
    CudaGraphs cudaGraphs = CudaGraphs::None;
    double kernelSeconds = 0;      // CPU time to issue one kernel eagerly; 0 = kDefaultKernelIssueSeconds
    double syncSeconds = 0;        // CPU time of a device-to-host copy and its wait, beyond the GPU's drain; 0 = default
    double graphLaunchSeconds = 0; // CPU time to launch one CUDA graph; 0 = default
    int launchQueue = 0;           // kernels issued ahead of the GPU before the CPU blocks; 0 = default
    bool operator==(const HostSpec&) const = default;
};

struct TrainingSpec {
    int microBatch = 1;
    std::int64_t globalBatch = 0;
    Precision precision = Precision::BF16;
    Precision gradDtype = Precision::FP32;
    Optimizer optimizer = Optimizer::Adam;
    Recompute recompute = Recompute::None;
    ScheduleKind schedule = ScheduleKind::OneFOneB;
    bool flashAttention = false;   // flash attention keeps no s x s score matrices
    bool overlapGradReduce = true; // DP gradient reduction overlaps the last backward
    bool tpCommOverlap = false;    // TP collectives overlapped with the GEMMs beside them (Transformer Engine)
    bool overlapP2pComm = false;   // pipeline sends run beside the next op (Megatron-Core overlap_p2p_comm); off, a
                                   // rank waits for each send before its next op
    double tokens = 0;             // tokens to train on (for the training-time estimate)
    Fp8Recipe fp8Recipe = Fp8Recipe::Delayed;
    bool fp8ParamGather = false;   // fp8 weights are the model's parameters (--fp8-param-gather): no bf16 copy
    Precision optimizerStateDtype = Precision::FP32; // Adam moments (--exp-avg-dtype / --exp-avg-sq-dtype)
    OffloadSpec offload;
    // Megatron-Core --recompute-modules under selective recompute: core_attn, mlp, moe, moe_act, layernorm,
    // mla_up_proj, shared_experts. Empty = core_attn (the Korthikanti et al. selective recompute).
    std::vector<std::string> recomputeModules;
    int recomputeLayers = 0;       // full recompute: --recompute-num-layers (0 = every layer)
    bool recomputeBlock = false;   // full recompute: --recompute-method block (else uniform)
    HostSpec host;
    // Megatron-Core --overlap-moe-expert-parallel-comm: the expert-parallel all-to-alls of one microbatch run beside
    // the compute of another (the forward of one and the backward of the next merged, as DualPipe does).
    bool overlapMoeComm = false;
    bool operator==(const TrainingSpec&) const = default;
};

struct Claim {
    double days = 0;
    double tokens = 0;
    double mfu = 0;
    std::string source;
    bool operator==(const Claim&) const = default;
};

struct Plan {
    std::string name;
    std::string description;
    std::string source;
    ModelSpec model;
    ClusterSpec cluster;
    ParallelSpec parallel;
    TrainingSpec training;
    MemoryOverheads overheads;
    Claim claim;
    bool operator==(const Plan&) const = default;

    std::int64_t microbatches() const
    {
        const std::int64_t per = std::int64_t(training.microBatch) * parallel.dp;
        return per > 0 ? training.globalBatch / per : 0;
    }
    // Chunks (virtual stages) per rank: V-shaped schedules always place two.
    int chunksPerRank() const;
};

// The defaults a model's shape implies where a field is 0 (docs/PLAN-FILE.md): kvHeads = heads (multi-head
// attention), ffnHidden = 4*hidden (the GPT MLP, Radford et al. 2019), and for an MoE model expertFfnHidden =
// ffnHidden and topK = 1 (Switch routing, Fedus et al., JMLR 2022). One rule for plan files, presets, the
// Hugging Face import and the editor.
void applyModelDefaults(ModelSpec& model);

// The data-parallel degree the cluster leaves for the others: GPUs / (tp*pp*cp), at least 1. Where it does not
// divide, validation names the mismatch on "parallel".
int impliedDp(const Plan& plan);

} // namespace planscope
