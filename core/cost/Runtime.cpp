#include "Runtime.h"

#include "Formula.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>

namespace planscope {

namespace {

// Sources: a join of the references (widgets/CoreText.cpp translates them one by one).
Text contextSource()
{
    return Text::join({ PS_TEXT("CoreText",
                            "PyTorch documentation, CUDA semantics (memory management): the CUDA context is not "
                            "allocated through the caching allocator"),
                          PS_TEXT("CoreText", "its size depends on the driver, the GPU and CUDA_MODULE_LOADING") },
        Text::Joint::List);
}
Text cublasSource()
{
    return Text::join({ PS_TEXT("CoreText",
                            "NVIDIA cuBLAS documentation, cublasSetWorkspace(): 32 MiB recommended on Hopper, 4 MiB on "
                            "earlier GPUs"),
                          PS_TEXT("CoreText", "PyTorch documentation, CUDA semantics (cuBLAS workspaces, CUBLAS_WORKSPACE_CONFIG)"),
                          PS_TEXT("CoreText",
                              "PyTorch aten/src/ATen/cuda/CUDABlas.cpp (CUBLASLT_WORKSPACE_SIZE, pytorch/pytorch#120925)") },
        Text::Joint::List);
}
constexpr TextTemplate kTeSource = PS_TEXT("CoreText",
    "Transformer Engine transformer_engine/pytorch/module/base.py: get_cublas_workspace_size_bytes() (32 MiB on "
    "Hopper, 4 MiB before) and one workspace per stream for grouped GEMMs");
constexpr TextTemplate kNcclSource = PS_TEXT("CoreText",
    "NCCL user guide, environment variables: NCCL_BUFFSIZE (default 4 MiB), NCCL_MIN_NCHANNELS and "
    "NCCL_MAX_NCHANNELS, NCCL_NCHANNELS_PER_NET_PEER (default 2)");
constexpr TextTemplate kLogitsSource = PS_TEXT("CoreText",
    "Megatron-LM megatron/core/tensor_parallel/cross_entropy.py: VocabParallelCrossEntropy casts the "
    "vocabulary-parallel logits to fp32 (calculate_logits_max) and keeps the softmax for the backward");
constexpr TextTemplate kGatherSource = PS_TEXT("CoreText",
    "PyTorch FSDP: the unsharded current layer plus the prefetched next one, and the current layer's "
    "unsharded gradient before its reduce-scatter");
constexpr TextTemplate kBucketSource = PS_TEXT("CoreText", "DeepSpeed ZeRO config: reduce_bucket_size default 5e8 elements");
Text allocatorSource()
{
    return Text::join({ PS_TEXT("CoreText",
                            "PyTorch c10/cuda/CUDACachingAllocator.cpp: blocks rounded to 512 bytes, blocks up to 1 MiB "
                            "from 2 MiB segments, up to 10 MiB from 20 MiB segments, larger ones rounded to 2 MiB"),
                          PS_TEXT("CoreText", "PyTorch documentation, CUDA semantics (memory management, expandable_segments)"),
                          PS_TEXT("CoreText",
                              "Guo et al., GMLake (ASPLOS 2024): on eight LLMs its virtual-memory stitching cuts the "
                              "caching allocator's fragmentation by 15 % on average and up to 33 %") },
        Text::Joint::List);
}
// docs/MODEL.md section 4 (the runtime buffers).
Text modelSource() { return Text(PS_TEXT("CoreText", "docs/MODEL.md section %1"), 4); }

std::string tagOf(const std::string& group)
{
    if (group == "tp") return "Tp";
    if (group == "cp") return "Cp";
    if (group == "dp-cp") return "Dp";
    if (group == "pp") return "Pp";
    if (group == "ep") return "Ep";
    if (group == "expert-dp") return "Edp";
    return "Emb";
}

} // namespace

std::vector<Communicator> rankCommunicators(const Plan& plan, const RankLayout& layout, int stage)
{
    const ParallelSpec& P = plan.parallel;
    const MemoryOverheads& o = plan.overheads;
    std::vector<Communicator> list;
    list.reserve(8);
    auto collective = [&](const char* group, int size, bool crosses) {
        if (size <= 1) return;
        const int connections = kNcclRingConnections + (crosses ? kNcclTreeConnections : 0);
        list.push_back({ group, size, false, crosses, connections, o.ncclChannels, 0 });
    };
    auto p2p = [&](const char* group, int size, bool crosses, int peers) {
        if (size <= 1 || peers <= 0) return;
        list.push_back({ group, size, true, crosses, peers, kNcclP2pChannelsPerPeer, 0 });
    };
    const int dpcp = P.dp * P.cp;
    collective("tp", P.tp, layout.tp.crossesDomains);
    // Context parallelism's ring attention passes K and V to the next rank and receives from the previous one.
    p2p("cp", P.cp, layout.cp.crossesDomains, std::min(2, P.cp - 1));
    collective("dp-cp", dpcp, layout.dpCp.crossesDomains);
    // Pipeline sends go to the next stage and come from the previous one; the first and last rank have one
    // neighbour unless chunks wrap around (interleaved and V schedules).
    const bool end = stage == 0 || stage == P.pp - 1;
    p2p("pp", P.pp, layout.pp.crossesDomains, end && plan.chunksPerRank() <= 1 ? 1 : std::min(2, P.pp - 1));
    if (plan.model.isMoe()) {
        // The token all-to-all sends to and receives from every other rank of the expert group.
        if (P.ep > 1) p2p("ep", P.ep, layout.ep.crossesDomains, P.ep - 1);
        // The expert data-parallel group: tp*dp*cp/(etp*ep) ranks hold the same experts (dp*cp/ep when etp = tp).
        const int expertDp = std::max(1, int((1LL * P.tp * dpcp) / std::max(1LL, 1LL * P.expertTp() * std::max(1, P.ep))));
        if (expertDp != dpcp) collective("expert-dp", expertDp, layout.expertDp.crossesDomains);
    }
    // Megatron's embedding group: the first and last stage all-reduce the tied embedding's gradient.
    if (plan.model.tiedEmbeddings && P.pp > 1 && end) collective("embedding", 2, layout.pp.crossesDomains);
    for (Communicator& c : list) c.bytes = o.ncclBuffSize * c.channels * c.connections;
    return list;
}

std::int64_t workspaceBytes(const Plan& plan)
{
    if (plan.overheads.workspaceBytes > 0) return plan.overheads.workspaceBytes;
    return plan.cluster.gpu.peakFlops.fp8 > 0 ? std::int64_t(32) << 20 : std::int64_t(4) << 20;
}

std::int64_t allocatorSlackBytes(const MemoryOverheads& o, double allocated, double persistent)
{
    if (o.fragmentation > 0) return std::llround(o.fragmentation * allocated);
    return std::llround(o.allocatorSlack * std::max(0.0, allocated - persistent) + double(kSegmentRoundingBytes));
}

std::int64_t persistentAllocatedBytes(const StageMemory& st)
{
    const BufferTerms& bt = st.buffers;
    return st.weightsBytes + st.gradientsBytes + st.optimizerBytes + bt.cublasWorkspaceBytes + bt.teWorkspaceBytes
        + bt.zeroBucketBytes;
}

std::int64_t outsideAllocatorBytes(const StageMemory& st)
{
    return st.buffers.cudaContextBytes + st.buffers.ncclBytes;
}

namespace {

void explainNccl(const RuntimeInputs& in, const std::vector<Communicator>& comms, const BufferTerms& bt, Explainer& ex,
    const std::string& base)
{
    const MemoryOverheads& o = in.plan.overheads;
    if (o.ncclBufferBytesPerGroup > 0) {
        ex.add({ base + "buffers.ncclBytes", double(bt.ncclBytes), "bytes", "groups*perGroup",
            { { "groups", double(in.groupsOfRank) }, { "perGroup", double(o.ncclBufferBytesPerGroup) } }, kNcclSource, {},
            Text(PS_TEXT("CoreText",
                "memoryOverheads.ncclBufferBytesPerGroup of the plan: a flat size per parallel group of size > 1 this "
                "rank belongs to, instead of the NCCL settings.")) });
        return;
    }
    std::string sum;
    FormulaInputs inputs { { "buff", double(o.ncclBuffSize) } };
    std::string groups;
    for (const Communicator& c : comms) {
        const std::string tag = tagOf(c.group);
        sum += (sum.empty() ? "" : " + ") + ("ch" + tag + "*c" + tag);
        inputs.emplace_back("ch" + tag, double(c.channels));
        inputs.emplace_back("c" + tag, double(c.connections));
        groups += (groups.empty() ? "" : ", ") + c.group + " " + std::to_string(c.size);
    }
    ex.add({ base + "buffers.ncclBytes", double(bt.ncclBytes), "bytes", sum.empty() ? "0" : "buff*(" + sum + ")",
        inputs, kNcclSource, {},
        Text::join({ PS_TEXT("CoreText",
                         "Per communicator this rank uses: buff = NCCL_BUFFSIZE (memoryOverheads.ncclBuffSize) per "
                         "channel per connection, chX channels (memoryOverheads.ncclChannels for collectives, 2 per "
                         "peer for point-to-point), cX connections (2 for a ring, 3 more for the tree where the group "
                         "spans nodes, one per peer for point-to-point)."),
                       Text(PS_TEXT("CoreText", "Communicators (group and ranks): %1."),
                           groups.empty() ? Text(PS_TEXT("CoreText", "none")) : Text::verbatim(groups)),
                       PS_TEXT("CoreText", "Outside PyTorch's allocator."),
                       PS_TEXT("CoreText", "NCCL_DEBUG=INFO prints the channels each communicator opens.") },
            Text::Joint::Sentences) });
}

} // namespace

void runtimeBuffers(const RuntimeInputs& in, StageMemory& st, Explainer* ex, const std::string& base)
{
    const Plan& plan = in.plan;
    const MemoryOverheads& o = plan.overheads;
    const int zero = plan.parallel.zero;
    const bool moe = plan.model.isMoe();
    BufferTerms& bt = st.buffers;
    bt = {};

    // Outside the allocator.
    bt.cudaContextBytes = o.cudaContextBytes;
    const std::vector<Communicator> comms = rankCommunicators(plan, in.layout, in.stage);
    bt.ncclCommunicators = int(comms.size());
    if (o.ncclBufferBytesPerGroup > 0) {
        bt.ncclCommunicators = in.groupsOfRank;
        bt.ncclBytes = std::int64_t(in.groupsOfRank) * o.ncclBufferBytesPerGroup;
    } else {
        for (const Communicator& c : comms) bt.ncclBytes += c.bytes;
    }

    // Allocated and kept: PyTorch's cuBLAS and cuBLASLt workspaces on the compute stream, Transformer Engine's
    // own (Megatron-Core's default transformer_impl), and 4 more for grouped expert GEMMs.
    const std::int64_t W = workspaceBytes(plan);
    const int teExtra = moe ? kTeGroupedGemmStreams : 0;
    bt.cublasWorkspaceBytes = 2 * W;
    bt.teWorkspaceBytes = (1 + teExtra) * W;
    if (zero >= 2) bt.zeroBucketBytes = std::llround(std::min(5e8, in.stageParams) * in.g);

    // Temporaries: alive only while an op runs, so they count at the peak inside the step.
    if (zero >= 3 && in.holdsLayers) bt.zeroGatherBytes = std::llround(2.0 * in.layerParams * in.w + in.layerParams * in.g);
    if (in.last) bt.logitsBytes = std::llround(in.e * in.s * in.b * in.V / in.t);

    const double persistent = double(persistentAllocatedBytes(st));
    st.allocatedBytes = persistentAllocatedBytes(st) + st.activationsBytes + bt.temporaryBytes();
    bt.fragmentationBytes = allocatorSlackBytes(o, double(st.allocatedBytes), persistent);
    st.reservedBytes = st.allocatedBytes + bt.fragmentationBytes;
    st.buffersBytes = bt.runtimeBytes() + bt.communicationBytes() + bt.temporaryBytes() + bt.fragmentationBytes;
    st.totalBytes = st.weightsBytes + st.gradientsBytes + st.optimizerBytes + st.activationsBytes + st.buffersBytes;
    st.steadyBytes = st.totalBytes - bt.temporaryBytes() - bt.fragmentationBytes;
    if (!ex) return;

    const std::string b = base + "buffers.";
    ex->add({ b + "cudaContextBytes", double(bt.cudaContextBytes), "bytes", "cudaContextBytes",
        { { "cudaContextBytes", double(bt.cudaContextBytes) } }, contextSource(), {},
        Text(PS_TEXT("CoreText",
            "memoryOverheads.cudaContextBytes of the plan (an assumption: measure nvidia-smi's memory of the process "
            "right after torch.cuda.init() and set it).")) });
    ex->add({ b + "cublasWorkspaceBytes", double(bt.cublasWorkspaceBytes), "bytes", "2*W", { { "W", double(W) } },
        cublasSource(), {},
        Text::join({ PS_TEXT("CoreText",
                         "PyTorch's cuBLAS workspace and its cuBLASLt workspace on the compute stream, W each "
                         "(memoryOverheads.workspaceBytes, by default 32 MiB on GPUs with fp8 tensor cores, Hopper and "
                         "later, else 4 MiB)."),
                       PS_TEXT("CoreText", "Allocated through the caching allocator and never freed.") },
            Text::Joint::Sentences) });
    ex->add({ b + "teWorkspaceBytes", double(bt.teWorkspaceBytes), "bytes", "(1 + k)*W",
        { { "k", double(teExtra) }, { "W", double(W) } }, kTeSource, {},
        Text(PS_TEXT("CoreText",
            "Transformer Engine's cuBLAS workspace (Megatron-Core's default transformer implementation), plus k = 4 "
            "for the grouped expert GEMMs of an MoE model.")) });
    explainNccl(in, comms, bt, *ex, base);
    ex->add({ b + "zeroBucketBytes", double(bt.zeroBucketBytes), "bytes",
        zero >= 2 ? "floor(min(5e8, P)*g + 0.5)" : "0", { { "P", in.stageParams }, { "g", in.g } }, kBucketSource, {},
        Text::join({ PS_TEXT("CoreText", "Only with ZeRO-2/3."),
                       PS_TEXT("CoreText", "P: dense and expert parameters on this GPU.") },
            Text::Joint::Sentences) });
    ex->add({ b + "zeroGatherBytes", double(bt.zeroGatherBytes), "bytes",
        zero >= 3 && in.holdsLayers ? "floor(2*layer*w + layer*g + 0.5)" : "0",
        { { "layer", in.layerParams }, { "w", in.w }, { "g", in.g } }, kGatherSource, {},
        Text::join({ PS_TEXT("CoreText", "Only with ZeRO-3 / FSDP, on a stage that holds layers."),
                       PS_TEXT("CoreText",
                           "A temporary: held while a forward or backward runs, so it counts in the peak inside the "
                           "step, not in the steady state.") },
            Text::Joint::Sentences) });
    ex->add({ b + "logitsBytes", double(bt.logitsBytes), "bytes", in.last ? "floor(e*s*b*V/t + 0.5)" : "0",
        { { "e", in.e }, { "s", in.s }, { "b", in.b }, { "V", in.V }, { "t", double(in.t) } }, kLogitsSource, {},
        Text::join({ PS_TEXT("CoreText",
                         "On the last stage: the output layer's 16-bit logits while the loss casts them to fp32 "
                         "(forward), or their 16-bit gradient while the fp32 one is cast back (backward)."),
                       PS_TEXT("CoreText",
                           "The fp32 copy, 4*s*b*V/t, is kept for the backward and counted in the activations."),
                       PS_TEXT("CoreText", "A temporary: it counts in the peak inside the step.") },
            Text::Joint::Sentences) });
    ex->add({ b + "runtimeBytes", double(bt.runtimeBytes()), "bytes", "cudaContext + cublas + te",
        { { "cudaContext", double(bt.cudaContextBytes) }, { "cublas", double(bt.cublasWorkspaceBytes) },
            { "te", double(bt.teWorkspaceBytes) } },
        modelSource(), { b + "cudaContextBytes", b + "cublasWorkspaceBytes", b + "teWorkspaceBytes" },
        Text(PS_TEXT("CoreText", "The CUDA context and the math libraries' workspaces.")) });
    ex->add({ b + "communicationBytes", double(bt.communicationBytes()), "bytes", "nccl + zeroBucket",
        { { "nccl", double(bt.ncclBytes) }, { "zeroBucket", double(bt.zeroBucketBytes) } }, modelSource(),
        { b + "ncclBytes", b + "zeroBucketBytes" },
        Text(PS_TEXT("CoreText", "NCCL's buffers and the ZeRO gradient bucket.")) });
    ex->add({ b + "temporaryBytes", double(bt.temporaryBytes()), "bytes", "zeroGather + logits",
        { { "zeroGather", double(bt.zeroGatherBytes) }, { "logits", double(bt.logitsBytes) } }, modelSource(),
        { b + "zeroGatherBytes", b + "logitsBytes" },
        Text(PS_TEXT("CoreText",
            "The largest temporaries, both counted at the peak: the simulated memory over time shows when each is "
            "held.")) });
    ex->add({ base + "allocatedBytes", double(st.allocatedBytes), "bytes",
        "weights + gradients + optimizer + activations + workspaces + zeroBucket + temporaries",
        { { "weights", double(st.weightsBytes) }, { "gradients", double(st.gradientsBytes) },
            { "optimizer", double(st.optimizerBytes) }, { "activations", double(st.activationsBytes) },
            { "workspaces", double(bt.cublasWorkspaceBytes + bt.teWorkspaceBytes) },
            { "zeroBucket", double(bt.zeroBucketBytes) }, { "temporaries", double(bt.temporaryBytes()) } },
        modelSource(), { b + "temporaryBytes" },
        Text(PS_TEXT("CoreText",
            "What torch.cuda.max_memory_allocated() reports at the peak: every tensor, the temporaries included.")) });
    if (o.fragmentation > 0)
        ex->add({ b + "fragmentationBytes", double(bt.fragmentationBytes), "bytes", "floor(f*allocated + 0.5)",
            { { "f", o.fragmentation }, { "allocated", double(st.allocatedBytes) } }, allocatorSource(),
            { base + "allocatedBytes" },
            Text(PS_TEXT("CoreText",
                "memoryOverheads.fragmentation of the plan: a flat share of the allocated bytes, instead of the "
                "allocator model.")) });
    else
        ex->add({ b + "fragmentationBytes", double(bt.fragmentationBytes), "bytes",
            "floor(a*(allocated - persistent) + R + 0.5)",
            { { "a", o.allocatorSlack }, { "allocated", double(st.allocatedBytes) }, { "persistent", persistent },
                { "R", double(kSegmentRoundingBytes) } },
            allocatorSource(), { base + "allocatedBytes" },
            Text::join({ PS_TEXT("CoreText", "Reserved - allocated."),
                           PS_TEXT("CoreText",
                               "persistent: weights, gradients, optimizer states, workspaces and the ZeRO bucket, "
                               "allocated once in few large blocks, and allocated - persistent: activations and "
                               "temporaries, allocated and freed every microbatch in blocks of many sizes, whose freed "
                               "blocks the cache keeps but cannot always reuse (a = memoryOverheads.allocatorSlack)."),
                           PS_TEXT("CoreText", "R: the newest 2 MiB and 20 MiB segments, partly empty."),
                           PS_TEXT("CoreText",
                               "With expandable_segments:True the share is smaller, compare reserved_bytes with "
                               "allocated_bytes in torch.cuda.memory_stats().") },
                Text::Joint::Sentences) });
    ex->add({ base + "reservedBytes", double(st.reservedBytes), "bytes", "allocated + slack",
        { { "allocated", double(st.allocatedBytes) }, { "slack", double(bt.fragmentationBytes) } }, modelSource(),
        { base + "allocatedBytes", b + "fragmentationBytes" },
        Text(PS_TEXT("CoreText", "What torch.cuda.max_memory_reserved() reports: the caching allocator's segments.")) });
    ex->add({ base + "buffersBytes", double(st.buffersBytes), "bytes", "runtime + communication + temporaries + slack",
        { { "runtime", double(bt.runtimeBytes()) }, { "communication", double(bt.communicationBytes()) },
            { "temporaries", double(bt.temporaryBytes()) }, { "slack", double(bt.fragmentationBytes) } },
        modelSource(), { b + "runtimeBytes", b + "communicationBytes", b + "temporaryBytes", b + "fragmentationBytes" },
        Text(PS_TEXT("CoreText", "Every term has a default and is editable under memoryOverheads in the plan.")) });
    ex->add({ base + "steadyBytes", double(st.steadyBytes), "bytes", "total - temporaries - slack",
        { { "total", double(st.totalBytes) }, { "temporaries", double(bt.temporaryBytes()) },
            { "slack", double(bt.fragmentationBytes) } },
        modelSource(), { base + "totalBytes" },
        Text(PS_TEXT("CoreText",
            "In use between ops at the most activations in flight: without the temporaries and the allocator's "
            "slack.")) });
    ex->add({ base + "totalBytes", double(st.totalBytes), "bytes", "weights + gradients + optimizer + activations + buffers",
        { { "weights", double(st.weightsBytes) }, { "gradients", double(st.gradientsBytes) },
            { "optimizer", double(st.optimizerBytes) }, { "activations", double(st.activationsBytes) },
            { "buffers", double(st.buffersBytes) } },
        PS_TEXT("CoreText", "docs/MODEL.md sections 2-4"),
        { base + "weightsBytes", base + "gradientsBytes", base + "optimizerBytes", base + "activationsBytes",
            base + "buffersBytes" },
        Text::join({ Text(PS_TEXT("CoreText", "Per GPU of stage %1; 1 GiB = 2^30 bytes, 1 GB = 1e9 bytes."), st.stage),
                       PS_TEXT("CoreText",
                           "The peak inside the step, compared with the GPU's memory: reserved + the CUDA context + "
                           "NCCL's buffers.") },
            Text::Joint::Sentences) });
}

} // namespace planscope
