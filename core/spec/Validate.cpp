#include "Validate.h"

#include "FieldLimits.h"
#include "PipelineLayout.h"
#include "ScheduleTraits.h"
#include "cost/RankLayout.h"

#include <cstdint>
#include <string>

namespace planscope {

namespace {
std::string str(long long v) { return std::to_string(v); }

struct Checker {
    Issues issues;
    void error(std::string path, std::string message)
    {
        issues.push_back({ Severity::Error, std::move(path), std::move(message), -1 });
    }
    void warning(std::string path, std::string message)
    {
        issues.push_back({ Severity::Warning, std::move(path), std::move(message), -1 });
    }
};
} // namespace

Issues validate(const Plan& plan)
{
    Checker c;
    const ModelSpec& m = plan.model;
    const ParallelSpec& p = plan.parallel;
    const TrainingSpec& t = plan.training;
    const ClusterSpec& cl = plan.cluster;

    // Ranges: the table the plan reader and the editor read (core/spec/FieldLimits.cpp). A plan outside them
    // (built in code: the reader refuses such a file) gets no further check, which may divide by its degrees.
    for (const FieldLimit& f : fieldLimits()) {
        const std::int64_t v = f.get(plan);
        if (double(v) >= f.min && double(v) <= f.max) continue;
        c.error(std::string(f.path), "must be between " + str((long long)f.min) + " and " + str((long long)f.max)
                + ", found " + str(v));
    }
    if (!c.issues.empty()) return c.issues;

    // Shape.
    if (m.heads > 0 && m.hidden % m.heads != 0 && m.headDim <= 0 && !m.mla.enabled())
        c.error("model.hidden", "hidden " + str(m.hidden) + " is not divisible by heads " + str(m.heads)
                + " (set model.headDim where heads*headDim differs from hidden)");
    if (m.mla.enabled()) {
        if (m.mla.qkNopeHeadDim <= 0) c.error("model.mla.qkNopeHeadDim", "must be > 0 with MLA (kvLoraRank > 0)");
        if (m.mla.vHeadDim <= 0) c.error("model.mla.vHeadDim", "must be > 0 with MLA (kvLoraRank > 0)");
        if (m.headDim > 0) c.warning("model.headDim", "ignored with MLA: qkNopeHeadDim + qkRopeHeadDim and vHeadDim set the heads");
    } else if (m.mla.qLoraRank > 0 || m.mla.qkNopeHeadDim > 0 || m.mla.qkRopeHeadDim > 0 || m.mla.vHeadDim > 0) {
        c.error("model.mla.kvLoraRank", "must be > 0 when other MLA fields are set (kvLoraRank 0 means no MLA)");
    }
    if (m.mtpLayers > 0 && m.layers > 0 && m.mtpLayers > m.layers)
        c.error("model.mtpLayers", "mtpLayers " + str(m.mtpLayers) + " exceeds the " + str(m.layers) + " layers");
    if (m.kvHeads <= 0 || (m.heads > 0 && m.heads % m.kvHeads != 0))
        c.error("model.kvHeads", "kvHeads " + str(m.kvHeads) + " must divide heads " + str(m.heads));
    if (m.isMoe()) {
        if (m.moe.topK <= 0 || m.moe.topK > m.moe.experts)
            c.error("model.moe.topK", "topK " + str(m.moe.topK) + " must be in 1.." + str(m.moe.experts));
        if (m.moe.expertFfnHidden <= 0) c.error("model.moe.expertFfnHidden", "must be > 0");
        if (m.moe.denseLayers >= m.layers && m.layers > 0)
            c.error("model.moe.denseLayers", "denseLayers " + str(m.moe.denseLayers) + " leaves no MoE layer of the "
                    + str(m.layers));
        if (m.moe.denseLayers > 0 && m.ffnHidden <= 0)
            c.error("model.ffnHidden", "the dense layers (moe.denseLayers) need ffnHidden > 0");
    } else if (m.moe.denseLayers > 0 || m.moe.sharedExperts > 0) {
        c.error("model.moe.experts", "denseLayers and sharedExperts need routed experts (experts > 0)");
    }

    // Degrees (each >= 1: the ranges above).
    const long long product = 1LL * p.dp * p.tp * p.pp * p.cp;
    if (product != cl.gpus())
        c.error("parallel", "dp*tp*pp*cp = " + str(p.dp) + "*" + str(p.tp) + "*" + str(p.pp) + "*" + str(p.cp) + " = "
                + str(product) + " but the cluster has " + str(cl.nodes) + "*" + str(cl.gpusPerNode) + " = "
                + str(cl.gpus()) + " GPUs");

    if (m.heads > 0 && m.heads % p.tp != 0)
        c.error("parallel.tp", "tp " + str(p.tp) + " does not divide the " + str(m.heads) + " attention heads");
    if (m.kvHeads > 0 && m.kvHeads % p.tp != 0)
        c.error("parallel.tp", "tp " + str(p.tp) + " does not divide the " + str(m.kvHeads)
                + " key/value heads (Megatron requires num_query_groups % tp == 0)");
    // The FFN that tp splits: the dense MLP, or the shared experts of an MoE layer (routed experts split by etp).
    const std::int64_t ffn = !m.isMoe() ? m.ffnHidden
        : m.moe.sharedExperts > 0       ? m.moe.sharedExperts * m.moe.sharedExpertFfnHidden
        : m.moe.denseLayers > 0         ? m.ffnHidden
        : p.etp > 0                     ? 0
                                        : m.moe.expertFfnHidden;
    if (ffn > 0 && ffn % p.tp != 0)
        c.error("parallel.tp", "tp " + str(p.tp) + " does not divide the FFN hidden size " + str(ffn));
    if (m.vocab > 0 && m.vocab % (128LL * p.tp) != 0)
        c.warning("model.vocab", "Megatron pads the vocabulary to a multiple of 128*tp = " + str(128LL * p.tp)
                + "; the model counts " + str(m.vocab) + " as given");
    if (p.sp && p.tp == 1) c.warning("parallel.sp", "sequence parallelism has no effect with tp = 1");

    // Context parallelism.
    if (m.seqLength > 0 && m.seqLength % p.cp != 0)
        c.error("parallel.cp", "cp " + str(p.cp) + " does not divide the sequence length " + str(m.seqLength));
    else if (p.cp > 1 && m.seqLength % (2LL * p.cp) != 0)
        c.warning("parallel.cp", "Megatron's load-balanced context parallelism needs seqLength divisible by 2*cp = "
                + str(2LL * p.cp));
    if (t.tpCommOverlap && !(p.sp && p.tp > 1))
        c.warning("training.tpCommOverlap", "needs tensor parallelism with sequence parallelism (Megatron-Core refuses "
                                            "--tp-comm-overlap without --sequence-parallel); ignored");
    if (p.cp > 1 && !t.flashAttention)
        c.warning("training.flashAttention", "context parallelism in Megatron runs on flash/fused attention; "
                                              "set flashAttention to true for its activation memory");

    // Experts.
    if (p.ep > 1 && !m.isMoe()) c.error("parallel.ep", "ep " + str(p.ep) + " > 1 needs a MoE model (model.moe.experts)");
    if (m.isMoe() && m.moe.experts % p.ep != 0)
        c.error("parallel.ep", "ep " + str(p.ep) + " does not divide the " + str(m.moe.experts) + " experts");
    const int etp = p.expertTp();
    if (p.etp > 0 && !m.isMoe()) c.warning("parallel.etp", "etp applies to routed experts; this model has none");
    if (p.etp < 0) c.error("parallel.etp", "must be >= 0 (0 = tp)");
    if (m.isMoe() && etp > 0 && m.moe.expertFfnHidden % etp != 0)
        c.error("parallel.etp", "etp " + str(etp) + " does not divide expertFfnHidden " + str(m.moe.expertFfnHidden));
    // The host (docs/MODEL.md section 7.4): a full-iteration graph cannot hold a host sync; Megatron-Core's combined
    // 1F1B that overlaps the expert-parallel all-to-alls needs ep > 1, and the interleaved schedule when pp > 1.
    if (t.host.cudaGraphs == CudaGraphs::FullIteration && m.isMoe() && m.moe.capacityFactor <= 0 && !m.moe.syncFree)
        c.error("training.host.cudaGraphs", "a full-iteration CUDA graph needs a step without host syncs, and this dropless "
                                            "MoE dispatcher copies its token counts to the host every layer; set "
                                            "model.moe.syncFree or a capacity factor, or use per-layer graphs");
    if (t.overlapMoeComm && !(m.isMoe() && p.ep > 1))
        c.warning("training.overlapMoeComm", "overlaps the expert-parallel all-to-alls and needs an MoE model with ep > 1; "
                                             "ignored");
    else if (t.overlapMoeComm && p.pp > 1 && p.vpp <= 1)
        c.warning("training.overlapMoeComm", "Megatron-Core runs the all-to-all overlap with pp > 1 only under the "
                                             "interleaved schedule (vpp > 1)");
    if (p.ep > 1 && etp == p.tp && (p.dp * p.cp) % p.ep != 0)
        c.error("parallel.ep", "ep " + str(p.ep) + " must divide dp*cp = " + str(p.dp * p.cp)
                + " (experts are spread over the data-parallel ranks, as in Megatron)");
    else if (etp > 0 && etp != p.tp && (1LL * p.tp * p.dp * p.cp) % (1LL * etp * p.ep) != 0)
        c.error("parallel.etp", "etp*ep = " + str(1LL * etp * p.ep) + " must divide tp*dp*cp = "
                + str(1LL * p.tp * p.dp * p.cp) + " (Megatron-Core lays the expert grid over the same ranks)");

    // Precision, recompute and offload options that only act in some settings.
    if (t.fp8ParamGather && t.precision != Precision::FP8)
        c.warning("training.fp8ParamGather", "ignored: precision is not fp8");
    if (t.precision == Precision::FP8 && t.fp8Recipe == Fp8Recipe::MxFp8 && cl.gpu.peakFlops.fp8 > 0
        && cl.gpu.id.find("b200") == std::string::npos && cl.gpu.id.find("b300") == std::string::npos)
        c.warning("training.fp8Recipe", "MXFP8 blocks need Blackwell tensor cores (Transformer Engine); \"" + cl.gpu.id
                + "\" runs the delayed or current recipe");
    if (!t.recomputeModules.empty() && t.recompute != Recompute::Selective)
        c.warning("training.recomputeModules", "ignored unless recompute is selective (Megatron applies "
                                               "--recompute-modules to the selective granularity)");
    if (t.recomputeLayers > 0 && t.recompute != Recompute::Full)
        c.warning("training.recomputeLayers", "ignored unless recompute is full (--recompute-num-layers)");
    if (t.offload.optimizerFraction > 0 && p.zero < 1)
        c.warning("training.offload.optimizerFraction", "Megatron offloads the distributed optimizer's shard "
                                                        "(--use-distributed-optimizer); modelled on the replicated state");
    if (t.offload.activationLayers > 0 && m.layers > 0 && t.offload.activationLayers >= m.layers)
        c.warning("training.offload.activationLayers", "every layer offloaded: the last layer of a chunk stays on the "
                                                       "GPU (Transformer Engine keeps it for the first backward)");

    // Order.
    std::vector<Dim> dims;
    std::string message;
    if (!parseOrder(p.order, dims, message)) c.error("parallel.order", "\"" + p.order + "\": " + message);

    // Groups whose collectives run inside every layer, judged by RankLayout's one rule: any group of the kind
    // that spans nodes (tp 3 on 8-GPU nodes keeps rank 0's group {0, 1, 2} inside a node, but {6, 7, 8} crosses).
    if (product == cl.gpus()) {
        const RankLayout layout = rankLayout(plan);
        for (GroupKind kind : { GroupKind::TP, GroupKind::CP, GroupKind::EP }) {
            const GroupPlacement& g = layout.of(kind);
            if (!g.crossesDomains || (kind == GroupKind::EP && !m.isMoe())) continue;
            const std::string name(toString(kind));
            if (cl.nvlinkDomainNodes > 1) {
                const int domainGpus = cl.gpusPerNode * cl.nvlinkDomainNodes;
                c.warning("parallel." + name, name + " " + str(g.size)
                        + (g.size > domainGpus ? " is larger than an NVLink domain (" + str(domainGpus) + " GPUs)"
                                               : " does not fit the " + str(domainGpus) + "-GPU NVLink domains")
                        + ": some " + name + " group spans " + str(g.domainsSpanned) + " domains under the order " + p.order
                        + "; its per-layer collectives run over the network between domains");
                continue;
            }
            c.warning("parallel." + name, name + " " + str(g.size)
                    + (g.size > cl.gpusPerNode ? " is larger than a node (" + str(cl.gpusPerNode) + " GPUs)"
                                               : " does not fit the " + str(cl.gpusPerNode) + "-GPU nodes")
                    + ": some " + name + " group spans " + str(g.nodesSpanned) + " nodes under the order " + p.order
                    + "; its per-layer collectives run over the inter-node network");
        }
    }

    // Pipeline split.
    const int chunks = plan.chunksPerRank();
    const ScheduleKind kind = t.schedule;
    const bool uneven = p.firstStageLayers > 0 || p.lastStageLayers > 0;
    const bool custom = !p.layout.empty() || p.embeddingInSplit || p.lossInSplit;
    if (custom) {
        // parallel.layout, embeddingInSplit, lossInSplit (spec/PipelineLayout.h).
        const Issues split = checkPipelineSplit(plan);
        c.issues.insert(c.issues.end(), split.begin(), split.end());
    } else if (uneven) {
        if (p.pp < 2) c.error("parallel.firstStageLayers", "uneven first/last stages need pp >= 2");
        if (!traits(kind).customSplit())
            c.error("parallel.firstStageLayers", "uneven stages are not supported with the " + std::string(toString(kind))
                    + " schedule");
        const int fixed = p.firstStageLayers + p.lastStageLayers;
        const int middle = p.pp - (p.firstStageLayers > 0) - (p.lastStageLayers > 0);
        const int rest = m.layers - fixed;
        if (rest < 0 || (middle == 0 && rest != 0) || (middle > 0 && (rest < middle || rest % middle != 0)))
            c.error("parallel.firstStageLayers", "layers " + str(m.layers) + " minus first/last stages " + str(fixed)
                    + " = " + str(rest) + " cannot be spread evenly over the " + str(middle) + " other stages");
        else if (chunks > 1) {
            // One chunk of the first (last) rank may hold only the embedding (output layer), as Llama 3 does.
            const int each = middle > 0 ? rest / middle : 0;
            if (each > 0 && each < chunks)
                c.error("parallel.vpp", "a middle rank with " + str(each) + " layers cannot hold " + str(chunks) + " chunks");
            for (int v : { p.firstStageLayers, p.lastStageLayers })
                if (v > 0 && v + 1 < chunks)
                    c.error("parallel.vpp", "an end rank with " + str(v) + " layers cannot hold " + str(chunks) + " chunks");
                else if (v > 0 && v < chunks)
                    c.warning("parallel.vpp", "an end rank with " + str(v) + " layers holds " + str(chunks)
                            + " chunks: one chunk holds only the embedding or the output layer (as in Llama 3)");
        }
    } else if (m.layers > 0) {
        const long long stages = 1LL * p.pp * chunks;
        if (m.layers % stages != 0)
            c.error(p.vpp > 1 ? "parallel.vpp" : "parallel.pp", "layers " + str(m.layers) + " are not divisible by pp*"
                    + std::string(chunks > 1 ? "chunks" : "1") + " = " + str(stages)
                    + (uneven ? "" : "; set parallel.firstStageLayers/lastStageLayers for an uneven split"));
    }

    // Batch (each >= 1: the ranges above).
    const long long per = 1LL * t.microBatch * p.dp;
    if (per > 0 && t.globalBatch % per != 0)
        c.error("training.globalBatch", "globalBatch " + str(t.globalBatch) + " is not divisible by microBatch*dp = "
                + str(per));
    const long long mbs = per > 0 ? t.globalBatch / per : 0;

    // Schedules (docs/SCHEDULES.md).
    switch (kind) {
    case ScheduleKind::Interleaved1F1B:
        if (p.vpp < 2) {
            c.warning("parallel.vpp", "interleaved-1f1b with vpp = 1 is plain 1F1B (Megatron runs the non-interleaved schedule)");
            break;
        }
        if (p.pp < 2) c.error("parallel.pp", "interleaved-1f1b needs pp >= 2");
        if (mbs > 0 && mbs % p.pp != 0)
            c.error("training.globalBatch", "interleaved-1f1b needs the number of microbatches (" + str(mbs)
                    + ") to be a multiple of pp = " + str(p.pp) + " (Megatron-LM)");
        break;
    case ScheduleKind::OneFOneB:
        if (p.pp > 1 && mbs > 0 && mbs < p.pp)
            c.warning("training.globalBatch", "microbatches " + str(mbs) + " < pp " + str(p.pp)
                    + ": PyTorch's Schedule1F1B refuses this; Megatron caps the warm-up and the bubble grows");
        break;
    case ScheduleKind::ZBH1:
        if (mbs > 0 && p.pp > 1) {
            const long long rounds = std::max(1LL, mbs / p.pp);
            if (mbs % rounds != 0)
                c.error("training.globalBatch", "zb-h1 (PyTorch's zero-bubble schedule) needs the microbatches ("
                        + str(mbs) + ") to be a multiple of the number of rounds max(1, m/pp) = " + str(rounds));
        }
        break;
    case ScheduleKind::ZBV:
    case ScheduleKind::DualPipeV:
        if (p.vpp != 1 && p.vpp != 2)
            c.error("parallel.vpp", std::string(toString(kind)) + " places exactly two chunks per rank (V shape); vpp "
                    + str(p.vpp) + " is not supported");
        if (kind == ScheduleKind::DualPipeV && mbs > 0 && mbs < 2LL * p.pp)
            c.error("training.globalBatch", "dualpipe-v needs at least 2*pp = " + str(2LL * p.pp) + " microbatches, got "
                    + str(mbs));
        break;
    case ScheduleKind::DualPipe:
        if (p.pp % 2 != 0) c.error("parallel.pp", "dualpipe needs an even pp, got " + str(p.pp));
        if (mbs > 0 && (mbs < 2LL * p.pp || mbs % 2 != 0))
            c.error("training.globalBatch", "dualpipe needs an even number of microbatches, at least 2*pp = "
                    + str(2LL * p.pp) + ", got " + str(mbs));
        break;
    default: break;
    }
    if (kind == ScheduleKind::LoopedBFS && p.pp > 1 && mbs > 0 && mbs < p.pp)
        c.warning("training.globalBatch", "looped-bfs with fewer microbatches than pp waits between loops");
    if (p.vpp > 1 && !traits(kind).usesVpp && !traits(kind).vShaped)
        c.warning("parallel.vpp", "vpp " + str(p.vpp) + " is ignored by the " + std::string(toString(kind)) + " schedule");

    // ZeRO and frameworks.
    if (p.zero >= 2 && p.pp > 1)
        c.warning("parallel.zero", "ZeRO-" + str(p.zero)
                + " with pipeline parallelism: DeepSpeed's pipeline engine refuses it (only ZeRO-1 is allowed with PP); "
                  "Megatron-LM offers ZeRO-1 (distributed optimizer) or its own FSDP; PyTorch's pipelining with FSDP "
                  "(torchtitan) keeps the weights gathered and the gradients whole across microbatches, unlike this model, "
                  "and the planner leaves such plans out");
    if (p.zero >= 1 && p.dp * p.cp == 1) c.warning("parallel.zero", "ZeRO shards over dp*cp = 1 rank: no saving");
    if (t.precision == Precision::FP32 && t.gradDtype != Precision::FP32)
        c.warning("training.gradDtype", "fp32 training with 16-bit gradients is unusual");
    if (t.precision == Precision::FP8 && cl.gpu.peakFlops.fp8 <= 0)
        c.error("training.precision", "the GPU \"" + cl.gpu.id + "\" has no fp8 tensor cores");
    if (t.precision == Precision::BF16 && cl.gpu.peakFlops.bf16 <= 0)
        c.error("training.precision", "the GPU \"" + cl.gpu.id + "\" has no bf16 tensor cores; use fp16");
    if (cl.intraNode.bandwidth <= 0) c.error("cluster.intraNode.bandwidth", "must be > 0");
    if (cl.nodes > 1 && cl.interNode.bandwidth <= 0) c.error("cluster.interNode.bandwidth", "must be > 0");
    return c.issues;
}

} // namespace planscope
