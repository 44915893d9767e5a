// The allocator and the runtime: what a training process holds on a GPU besides model states and activations
// (docs/MODEL.md section 4). Each term is named, has a formula over the plan and a public source, and a default
// that memoryOverheads in the plan can override:
//   outside PyTorch's allocator: the CUDA context, NCCL's buffers (per communicator, from NCCL_BUFFSIZE x
//     channels x connections);
//   allocated and kept: PyTorch's cuBLAS/cuBLASLt and Transformer Engine's workspaces, the ZeRO-2/3 bucket;
//   allocated only while an op runs (the temporaries): ZeRO-3's gathered layers, the 16-bit logits (or their
//     gradient) beside the fp32 copy the vocabulary-parallel cross entropy keeps;
//   the allocator's slack: reserved - allocated, a share of what the step allocates and frees plus the last
//     segments' rounding (PyTorch's caching allocator), or the user's flat share.
// memoryStage() (Evaluate.cpp) calls runtimeBuffers() for each pipeline stage; the simulation (sim/Simulate.cpp)
// uses the same slack rule on its memory over time.
#pragma once

#include "Explain.h"
#include "Prediction.h"
#include "RankLayout.h"
#include "spec/Plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace planscope {

// The caching allocator's segments (PyTorch c10/cuda/CUDACachingAllocator.cpp): kSmallBuffer (2 MiB) for blocks up
// to 1 MiB and kLargeBuffer (20 MiB) for blocks up to 10 MiB. The newest segment of each pool is partly empty:
// the rounding term of the slack.
inline constexpr std::int64_t kSmallSegmentBytes = 2 << 20;
inline constexpr std::int64_t kLargeSegmentBytes = 20 << 20;
inline constexpr std::int64_t kSegmentRoundingBytes = kSmallSegmentBytes + kLargeSegmentBytes;
// Channels NCCL gives each peer of a point-to-point communicator (NCCL_NCHANNELS_PER_NET_PEER's default).
inline constexpr int kNcclP2pChannelsPerPeer = 2;
// Connections of one channel of a collective communicator: the ring's send to the next rank and receive from the
// previous; where the group spans nodes, NCCL's double binary tree adds a parent and up to two children.
inline constexpr int kNcclRingConnections = 2;
inline constexpr int kNcclTreeConnections = 3;
// Transformer Engine's extra workspaces for grouped GEMMs (MoE experts): one per stream, 4 streams.
inline constexpr int kTeGroupedGemmStreams = 4;

// One NCCL communicator a rank of the stage belongs to.
struct Communicator {
    std::string group;      // tp, cp, dp-cp, pp, ep, expert-dp, embedding
    int size = 1;
    bool p2p = false;       // point-to-point sends (pp, cp's ring attention, ep's all-to-all)
    bool crossesNodes = false;
    int connections = 0;    // peers it exchanges with per channel
    int channels = 0;
    std::int64_t bytes = 0; // ncclBuffSize * channels * connections
};

// The communicators a GPU of pipeline stage `stage` uses (each group of size > 1), with their buffers from the
// plan's NCCL settings.
std::vector<Communicator> rankCommunicators(const Plan& plan, const RankLayout& layout, int stage);

// One cuBLAS/cuBLASLt/TE workspace: memoryOverheads.workspaceBytes, or by GPU (32 MiB where the GPU has fp8
// tensor cores, Hopper and later; 4 MiB before), as cuBLAS recommends.
std::int64_t workspaceBytes(const Plan& plan);

// Reserved - allocated: fragmentation * allocated where the plan gives one, else
// allocatorSlack * (allocated - persistent) + kSegmentRoundingBytes.
std::int64_t allocatorSlackBytes(const MemoryOverheads& overheads, double allocated, double persistent);

// What the allocator holds for good (weights, gradients, optimizer states, the workspaces and the ZeRO bucket) and
// what is outside it (the CUDA context, NCCL): the parts of a stage's memory that no op changes.
std::int64_t persistentAllocatedBytes(const StageMemory& stage);
std::int64_t outsideAllocatorBytes(const StageMemory& stage);

struct RuntimeInputs {
    const Plan& plan;
    const RankLayout& layout;
    int stage = 0;
    bool first = false;       // holds the embedding
    bool last = false;        // holds the output layer and the loss
    bool holdsLayers = false;
    int groupsOfRank = 0;     // evaluate()'s parallel groups of size > 1: the count a flat ncclBufferBytesPerGroup takes
    double stageParams = 0;   // dense + expert parameters on one GPU (after tp/ep, before ZeRO)
    double layerParams = 0;   // one layer's parameters on one GPU
    double w = 2, g = 4, e = 2; // bytes per weight, gradient, activation element
    double s = 0, b = 1, V = 0; // sequence per cp rank, microbatch, vocabulary
    int t = 1;
};

// Fills stage.buffers, buffersBytes, allocatedBytes, reservedBytes, steadyBytes and totalBytes from the stage's
// weights, gradients, optimizer states and activations; with an explainer, records each term under fieldBase
// ("memory.stages.<r>.").
void runtimeBuffers(const RuntimeInputs& in, StageMemory& stage, Explainer* ex, const std::string& fieldBase);

} // namespace planscope
