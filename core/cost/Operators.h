// A transformer layer as the operators one GPU runs for one microbatch (docs/MODEL.md section 7.1): every GEMM
// with its (M, N, K) after TP/SP/CP/EP sharding, attention as a flash-attention kernel or the unfused path, the
// memory-bound element-wise ops with their bytes, and the collectives with their buffers and groups, for the
// forward, the recomputed forward, the input-gradient and the weight-gradient passes. Each op is costed once
// (Kernels.h, Collective.h) and carries what bounds it; the step-time model and the simulation sum these.
#pragma once

#include "Collective.h"
#include "GroupKind.h"
#include "Kernels.h"
#include "LayerInputs.h"
#include "RankLayout.h"
#include "spec/Plan.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

enum class KernelKind { Gemm, Attention, Memory, Collective };
// Recompute: a forward op run again during backward (full or selective recomputation).
enum class KernelPass { Forward, Recompute, BackwardInput, BackwardWeight };
// Where an op sits for CUDA-graph capture: the MoE experts' part (from the dispatch to the combine) is what a syncing
// dropless dispatcher keeps out of a per-layer graph.
enum class OpRegion { Layer, Experts };

std::string_view toString(KernelKind k);
std::string_view toString(KernelPass p);

struct KernelOp {
    const char* name = "";          // stable id, e.g. "qkv", "qkv.dgrad", "tp.allgather"
    KernelKind kind = KernelKind::Memory;
    KernelPass pass = KernelPass::Forward;
    std::int64_t m = 0, n = 0, k = 0, batch = 1; // GEMM shape (batch: independent products)
    double flops = 0;               // on this GPU
    double bytes = 0;               // HBM traffic (kernels) or the buffer S as nccl-tests counts it (collectives)
    Collective collective = Collective::AllReduce;
    GroupKind group = GroupKind::TP;
    int groupSize = 1;
    int repeat = 1;                 // collectives run this many times (ring-attention steps, loss all-reduces)
    int hiddenBy = -1;              // index of the compute op a collective overlaps with, -1 = exposed
    // Transformer Engine's TP overlap (userbuffers): a GEMM run as `splits` GEMMs of m/splits rows, on the SMs its
    // communication kernel leaves it (reservedSms, set_sm_margin); a collective's SMs beside the op that hides it
    // (commSms: -1 = the plan's NCCL channels, 0 = copy engines or already held by reservedSms).
    int splits = 1;
    int reservedSms = 0;
    int commSms = -1;
    double contentionSeconds = 0;   // compute time this op lost to a collective beside it (inside seconds)
    // Cost.
    double seconds = 0;
    double computeSeconds = 0;
    double memorySeconds = 0;
    double efficiency = 0;          // achieved FLOP/s over the dense peak
    double exposedSeconds = 0;      // on the critical path: seconds, or what the overlapping op does not hide
    OpBound bound = OpBound::Compute;
    bool measured = false;          // timed from the calibration profile's GEMM table
    bool fp8 = true;                // a GEMM that runs in fp8 under an fp8 plan (not the output layer, router, unfused attention)
    // The host (docs/MODEL.md section 7.4): the kernels the CPU issues for this op, the CPU time that takes (0 where a
    // CUDA graph holds the op), where in the pass the CPU issues it, the GPU's wait for it before the op can start,
    // and whether the CPU waits for this op to finish (a device-to-host copy that sizes the next buffers).
    int launches = 1;
    OpRegion region = OpRegion::Layer;
    bool syncAfter = false;
    bool graphed = false;
    double hostSeconds = 0;
    double hostStart = 0;           // seconds from the pass's start (the pass repeated, in its steady state)
    double hostWaitSeconds = 0;     // GPU idle before this op: the CPU had not issued it yet
    bool operator==(const KernelOp&) const = default;
};

struct PassTotals {
    double forward = 0, recompute = 0, backwardInput = 0, backwardWeight = 0; // exposed seconds
    double commForward = 0, commBackward = 0;  // exposed collective seconds (backward includes recompute)
    double flopsForward = 0, flopsBackward = 0;
    double hostWaitForward = 0, hostWaitBackward = 0; // GPU idle waiting for the CPU (included in the pass sums)
    double hostForward = 0, hostBackward = 0;         // CPU issue time of the pass's ops
    double backward() const { return recompute + backwardInput + backwardWeight; }
};

struct OperatorList {
    std::vector<KernelOp> layer;  // one transformer layer
    std::vector<KernelOp> output; // the final norm, output projection and loss (last stage)
    PassTotals layerTotals;
    PassTotals outputTotals;
    bool flashAttention = false;
};

// Ops of one layer and of the output layer, costed on the plan's GPU and links, from the layer's inputs alone
// (LayerInputs.h). The plan must be valid.
OperatorList operatorList(const LayerInputs& inputs);
// operatorList(layerInputs(plan, layout)).
OperatorList operatorList(const Plan& plan, const RankLayout& layout);

PassTotals sumPasses(const std::vector<KernelOp>& ops);

// Host defaults (docs/MODEL.md section 7.4, docs/HARDWARE.md "Host"): the CPU time of one eagerly issued kernel, the
// median over the files of the median duration of a CPU op that encloses exactly one cudaLaunchKernel in the real PyTorch-profiler traces the repo holds
// (samples/traces: 100.8 us A100 ResNet DDP, 36 us V100 DDP, 41 and 41 us the two ranks of a recommendation model;
// tests/core/tst_host.cpp reads them), profiler overhead included; a CUDA graph launch and a device-to-host sync cost
// one such issue; the launch queue holds about 1,000 kernels per stream (NVIDIA developer forums, "CUDA stream are
// blocked when launch lots of kernels (>1000)", 2018: 4-5 us per launch until 1,000 are pending).
inline constexpr double kDefaultKernelIssueSeconds = 41e-6;
inline constexpr int kDefaultLaunchQueue = 1000;
struct HostParams {
    double kernel = kDefaultKernelIssueSeconds, sync = kDefaultKernelIssueSeconds, graphLaunch = kDefaultKernelIssueSeconds;
    int queue = kDefaultLaunchQueue;
    CudaGraphs graphs = CudaGraphs::None;
};
HostParams hostParams(const HostSpec& host);

// Whether an MoE layer's forward waits on the host for its token counts: a dropless dispatcher without sync-free
// dispatch (capacity routing pads to fixed sizes).
bool moeSyncsHost(const MoeSpec& moe);

// The two lanes of one pass of ops (the CPU issuing, the GPU running), the pass repeated as layers repeat it, in its
// steady state: each op's hostStart and hostWaitSeconds. The GPU waits where the CPU is behind (a host-bound layer)
// and after each sync (the CPU issues the next ops only once the GPU has drained). Returns the pass's GPU span.
double hostLane(std::vector<KernelOp>& ops, const std::vector<std::size_t>& pass, const HostParams& host);

// The distinct single (batch 1) GEMM shapes {m, n, k} of a plan's layer and output layer, in first-seen order: what
// planscope-profile --plan times so that a calibration replaces exactly those ops.
std::vector<std::array<std::int64_t, 3>> distinctGemmShapes(const Plan& plan);

// Whether op i is a collective hidden behind another op of the list (hiddenBy names an op that is itself not hidden).
bool isOverlapped(const std::vector<KernelOp>& ops, std::size_t i);

// Where each op starts, in seconds from the layer's start, as the pass sums count it: ops on the critical path one
// after another, each taking its exposed time plus the exposed remainder of the collectives overlapped with it; a
// collective overlapped with op j starts with j. *end: where the last op ends.
std::vector<double> opStartTimes(const std::vector<KernelOp>& ops, double* end = nullptr);

// A fixed-width text table of ops (planscope-cli explain --ops): pass, name (with [graph] inside a CUDA graph, [sync]
// where the CPU waits for it), shape or buffer, FLOPs, bytes, what bounds it, efficiency, seconds, exposed seconds, the
// CPU's issue time and the GPU's wait for the CPU, with a total per pass (exposed including the waits).
std::string formatOperatorTable(const std::vector<KernelOp>& ops);

// One collective on a group, ring inside a node or hierarchical across nodes (docs/MODEL.md section 6).
double groupSeconds(Collective c, const GroupPlacement& g, double bytes, const ClusterSpec& cl);
// One point-to-point send of `bytes` over the intra- or inter-node link: alpha + bytes/(bandwidth*efficiency).
double p2pSeconds(double bytes, bool crossesNodes, const ClusterSpec& cl);

} // namespace planscope
