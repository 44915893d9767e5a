#include "Validate.h"

#include "FieldLimits.h"
#include "PipelineLayout.h"
#include "ScheduleTraits.h"
#include "cost/RankLayout.h"

#include <cstdint>
#include <string>

namespace planscope {

namespace {

// One plan's checks, one method per subject, run in order by validate(); every message a
// template of core/util/Text.h: the CLI prints its English, the GUI its translation.
struct Checker {
    const Plan& plan;
    const ModelSpec& m;
    const ParallelSpec& p;
    const TrainingSpec& t;
    const ClusterSpec& cl;
    Issues issues;

    explicit Checker(const Plan& checked)
        : plan(checked), m(checked.model), p(checked.parallel), t(checked.training), cl(checked.cluster)
    {
    }
    void error(std::string path, Text text) { issues.push_back(issue(Severity::Error, std::move(path), std::move(text))); }
    void warning(std::string path, Text text)
    {
        issues.push_back(issue(Severity::Warning, std::move(path), std::move(text)));
    }
    long long gpusOfDegrees() const { return 1LL * p.dp * p.tp * p.pp * p.cp; }

    bool ranges();
    void shape();
    void degrees();
    void contextParallel();
    void experts();
    void options();
    void order();
    void groupsAcrossDomains();
    void pipelineSplit();
    long long microbatches();
    void schedules(long long mbs);
    void frameworks();
};

// The table the plan reader and the editor read (core/spec/FieldLimits.cpp). A plan outside it (built in code: the
// reader refuses such a file) gets no further check, which may divide by its degrees.
bool Checker::ranges()
{
    for (const FieldLimit& f : fieldLimits()) {
        const std::int64_t v = f.get(plan);
        if (double(v) >= f.min && double(v) <= f.max) continue;
        error(std::string(f.path),
            Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), (long long)f.min, (long long)f.max, v));
    }
    return issues.empty();
}

// The model's shape: heads, MLA, MTP, experts.
void Checker::shape()
{
    if (m.heads > 0 && m.hidden % m.heads != 0 && m.headDim <= 0 && !m.mla.enabled())
        error("model.hidden",
            Text(PS_TEXT("CoreText", "hidden %1 is not divisible by heads %2 (set model.headDim where heads*headDim "
                                     "differs from hidden)"),
                m.hidden, m.heads));
    if (m.mla.enabled()) {
        const Text needed(PS_TEXT("CoreText", "must be > 0 with MLA (kvLoraRank > 0)"));
        if (m.mla.qkNopeHeadDim <= 0) error("model.mla.qkNopeHeadDim", needed);
        if (m.mla.vHeadDim <= 0) error("model.mla.vHeadDim", needed);
        if (m.headDim > 0)
            warning("model.headDim",
                Text(PS_TEXT("CoreText", "ignored with MLA: qkNopeHeadDim + qkRopeHeadDim and vHeadDim set the heads")));
    } else if (m.mla.qLoraRank > 0 || m.mla.qkNopeHeadDim > 0 || m.mla.qkRopeHeadDim > 0 || m.mla.vHeadDim > 0) {
        error("model.mla.kvLoraRank",
            Text(PS_TEXT("CoreText", "must be > 0 when other MLA fields are set (kvLoraRank 0 means no MLA)")));
    }
    if (m.mtpLayers > 0 && m.layers > 0 && m.mtpLayers > m.layers)
        error("model.mtpLayers", Text(PS_TEXT("CoreText", "mtpLayers %1 exceeds the %2 layers"), m.mtpLayers, m.layers));
    if (m.kvHeads <= 0 || (m.heads > 0 && m.heads % m.kvHeads != 0))
        error("model.kvHeads", Text(PS_TEXT("CoreText", "kvHeads %1 must divide heads %2"), m.kvHeads, m.heads));
    if (m.isMoe()) {
        if (m.moe.topK <= 0 || m.moe.topK > m.moe.experts)
            error("model.moe.topK", Text(PS_TEXT("CoreText", "topK %1 must be in 1..%2"), m.moe.topK, m.moe.experts));
        if (m.moe.expertFfnHidden <= 0) error("model.moe.expertFfnHidden", Text(PS_TEXT("CoreText", "must be > 0")));
        if (m.moe.denseLayers >= m.layers && m.layers > 0)
            error("model.moe.denseLayers",
                Text(PS_TEXT("CoreText", "denseLayers %1 leaves no MoE layer of the %2"), m.moe.denseLayers, m.layers));
        if (m.moe.denseLayers > 0 && m.ffnHidden <= 0)
            error("model.ffnHidden", Text(PS_TEXT("CoreText", "the dense layers (moe.denseLayers) need ffnHidden > 0")));
    } else if (m.moe.denseLayers > 0 || m.moe.sharedExperts > 0) {
        error("model.moe.experts",
            Text(PS_TEXT("CoreText", "denseLayers and sharedExperts need routed experts (experts > 0)")));
    }
}

// The degrees against the cluster and the shape (each >= 1: the ranges).
void Checker::degrees()
{
    const long long product = gpusOfDegrees();
    if (product != cl.gpus())
        error("parallel",
            Text(PS_TEXT("CoreText", "dp*tp*pp*cp = %1*%2*%3*%4 = %5 but the cluster has %6*%7 = %8 GPUs"), p.dp, p.tp,
                p.pp, p.cp, product, cl.nodes, cl.gpusPerNode, cl.gpus()));

    if (m.heads > 0 && m.heads % p.tp != 0)
        error("parallel.tp", Text(PS_TEXT("CoreText", "tp %1 does not divide the %2 attention heads"), p.tp, m.heads));
    if (m.kvHeads > 0 && m.kvHeads % p.tp != 0)
        error("parallel.tp",
            Text(PS_TEXT("CoreText", "tp %1 does not divide the %2 key/value heads (Megatron requires num_query_groups "
                                     "% tp == 0)"),
                p.tp, m.kvHeads));
    // The FFN that tp splits: the dense MLP, or the shared experts of an MoE layer (routed experts split by etp).
    const std::int64_t ffn = !m.isMoe() ? m.ffnHidden
        : m.moe.sharedExperts > 0       ? m.moe.sharedExperts * m.moe.sharedExpertFfnHidden
        : m.moe.denseLayers > 0         ? m.ffnHidden
        : p.etp > 0                     ? 0
                                        : m.moe.expertFfnHidden;
    if (ffn > 0 && ffn % p.tp != 0)
        error("parallel.tp", Text(PS_TEXT("CoreText", "tp %1 does not divide the FFN hidden size %2"), p.tp, ffn));
    if (m.vocab > 0 && m.vocab % (128LL * p.tp) != 0)
        warning("model.vocab",
            Text(PS_TEXT("CoreText", "Megatron pads the vocabulary to a multiple of 128*tp = %1; the model counts %2 as given"),
                128LL * p.tp, m.vocab));
    if (p.sp && p.tp == 1)
        warning("parallel.sp", Text(PS_TEXT("CoreText", "sequence parallelism has no effect with tp = 1")));
    // A pod is built of whole NVLink domains (a DGX GB200 scalable unit is 8 racks of 18 trays).
    if (cl.podNodes > 0 && cl.nvlinkDomainNodes > 1 && cl.podNodes % cl.nvlinkDomainNodes != 0)
        warning("cluster.podNodes",
            Text(PS_TEXT("CoreText", "a pod of %1 nodes does not hold whole NVLink domains of %2 nodes; the placement counts pods "
                                     "as given"),
                cl.podNodes, cl.nvlinkDomainNodes));
}

// Context parallelism and the options that go with it.
void Checker::contextParallel()
{
    if (m.seqLength > 0 && m.seqLength % p.cp != 0)
        error("parallel.cp", Text(PS_TEXT("CoreText", "cp %1 does not divide the sequence length %2"), p.cp, m.seqLength));
    else if (p.cp > 1 && m.seqLength % (2LL * p.cp) != 0)
        warning("parallel.cp",
            Text(PS_TEXT("CoreText", "Megatron's load-balanced context parallelism needs seqLength divisible by 2*cp = %1"),
                2LL * p.cp));
    if (t.tpCommOverlap && !(p.sp && p.tp > 1))
        warning("training.tpCommOverlap",
            Text(PS_TEXT("CoreText", "needs tensor parallelism with sequence parallelism (Megatron-Core refuses "
                                     "--tp-comm-overlap without --sequence-parallel); ignored")));
    if (p.cp > 1 && !t.flashAttention)
        warning("training.flashAttention",
            Text(PS_TEXT("CoreText", "context parallelism in Megatron runs on flash/fused attention; set flashAttention "
                                     "to true for its activation memory")));
}

// Expert parallelism, expert TP and the host-side options of an MoE layer.
void Checker::experts()
{
    if (p.ep > 1 && !m.isMoe())
        error("parallel.ep", Text(PS_TEXT("CoreText", "ep %1 > 1 needs a MoE model (model.moe.experts)"), p.ep));
    if (m.isMoe() && m.moe.experts % p.ep != 0)
        error("parallel.ep", Text(PS_TEXT("CoreText", "ep %1 does not divide the %2 experts"), p.ep, m.moe.experts));
    const int etp = p.expertTp();
    if (p.etp > 0 && !m.isMoe())
        warning("parallel.etp", Text(PS_TEXT("CoreText", "etp applies to routed experts; this model has none")));
    if (p.etp < 0) error("parallel.etp", Text(PS_TEXT("CoreText", "must be >= 0 (0 = tp)")));
    if (m.isMoe() && etp > 0 && m.moe.expertFfnHidden % etp != 0)
        error("parallel.etp",
            Text(PS_TEXT("CoreText", "etp %1 does not divide expertFfnHidden %2"), etp, m.moe.expertFfnHidden));
    // The host (docs/MODEL.md section 7.4): a full-iteration graph cannot hold a host sync; Megatron-Core's combined
    // 1F1B that overlaps the expert-parallel all-to-alls needs ep > 1, and the interleaved schedule when pp > 1.
    if (t.host.cudaGraphs == CudaGraphs::FullIteration && m.isMoe() && m.moe.capacityFactor <= 0 && !m.moe.syncFree)
        error("training.host.cudaGraphs",
            Text(PS_TEXT("CoreText", "a full-iteration CUDA graph needs a step without host syncs, and this dropless MoE "
                                     "dispatcher copies its token counts to the host every layer; set model.moe.syncFree "
                                     "or a capacity factor, or use per-layer graphs")));
    if (t.overlapMoeComm && !(m.isMoe() && p.ep > 1))
        warning("training.overlapMoeComm",
            Text(PS_TEXT("CoreText", "overlaps the expert-parallel all-to-alls and needs an MoE model with ep > 1; ignored")));
    else if (t.overlapMoeComm && p.pp > 1 && p.vpp <= 1)
        warning("training.overlapMoeComm",
            Text(PS_TEXT("CoreText", "Megatron-Core runs the all-to-all overlap with pp > 1 only under the interleaved "
                                     "schedule (vpp > 1)")));
    if (p.ep > 1 && etp == p.tp && (p.dp * p.cp) % p.ep != 0)
        error("parallel.ep",
            Text(PS_TEXT("CoreText", "ep %1 must divide dp*cp = %2 (experts are spread over the data-parallel ranks, as "
                                     "in Megatron)"),
                p.ep, p.dp * p.cp));
    else if (etp > 0 && etp != p.tp && (1LL * p.tp * p.dp * p.cp) % (1LL * etp * p.ep) != 0)
        error("parallel.etp",
            Text(PS_TEXT("CoreText", "etp*ep = %1 must divide tp*dp*cp = %2 (Megatron-Core lays the expert grid over the "
                                     "same ranks)"),
                1LL * etp * p.ep, 1LL * p.tp * p.dp * p.cp));
}

// Precision, recompute and offload options that only act in some settings.
void Checker::options()
{
    if (t.fp8ParamGather && t.precision != Precision::FP8)
        warning("training.fp8ParamGather", Text(PS_TEXT("CoreText", "ignored: precision is not fp8")));
    if (t.precision == Precision::FP8 && t.fp8Recipe == Fp8Recipe::MxFp8 && cl.gpu.peakFlops.fp8 > 0
        && cl.gpu.id.find("b200") == std::string::npos && cl.gpu.id.find("b300") == std::string::npos)
        warning("training.fp8Recipe",
            Text(PS_TEXT("CoreText", "MXFP8 blocks need Blackwell tensor cores (Transformer Engine); \"%1\" runs the "
                                     "delayed or current recipe"),
                cl.gpu.id));
    if (!t.recomputeModules.empty() && t.recompute != Recompute::Selective)
        warning("training.recomputeModules",
            Text(PS_TEXT("CoreText", "ignored unless recompute is selective (Megatron applies --recompute-modules to the "
                                     "selective granularity)")));
    if (t.recomputeLayers > 0 && t.recompute != Recompute::Full)
        warning("training.recomputeLayers",
            Text(PS_TEXT("CoreText", "ignored unless recompute is full (--recompute-num-layers)")));
    if (t.offload.optimizerFraction > 0 && p.zero < 1)
        warning("training.offload.optimizerFraction",
            Text(PS_TEXT("CoreText", "Megatron offloads the distributed optimizer's shard (--use-distributed-optimizer); "
                                     "modelled on the replicated state")));
    if (t.offload.activationLayers > 0 && m.layers > 0 && t.offload.activationLayers >= m.layers)
        warning("training.offload.activationLayers",
            Text(PS_TEXT("CoreText", "every layer offloaded: the last layer of a chunk stays on the GPU (Transformer "
                                     "Engine keeps it for the first backward)")));
}

// The rank order (cost/RankLayout.h parseOrder).
void Checker::order()
{
    std::vector<Dim> dims;
    Text why;
    if (!parseOrder(p.order, dims, why)) error("parallel.order", Text(PS_TEXT("CoreText", "\"%1\": %2"), p.order, why));
}

// Groups whose collectives run inside every layer, judged by RankLayout's one rule: any group of the kind that spans
// nodes (tp 3 on 8-GPU nodes keeps rank 0's group {0, 1, 2} inside a node, but {6, 7, 8} crosses).
void Checker::groupsAcrossDomains()
{
    if (gpusOfDegrees() != cl.gpus()) return;
    const RankLayout layout = rankLayout(plan);
    for (GroupKind kind : { GroupKind::TP, GroupKind::CP, GroupKind::EP }) {
        const GroupPlacement& g = layout.of(kind);
        if (!g.crossesDomains || (kind == GroupKind::EP && !m.isMoe())) continue;
        const std::string name(toString(kind));
        if (cl.nvlinkDomainNodes > 1) {
            const int domainGpus = cl.gpusPerNode * cl.nvlinkDomainNodes;
            warning("parallel." + name,
                g.size > domainGpus
                    ? Text(PS_TEXT("CoreText", "%1 %2 is larger than an NVLink domain (%3 GPUs): some %4 group spans "
                                               "%5 domains under the order %6; its per-layer collectives run over the "
                                               "network between domains"),
                          name, g.size, domainGpus, name, g.domainsSpanned, p.order)
                    : Text(PS_TEXT("CoreText", "%1 %2 does not fit the %3-GPU NVLink domains: some %4 group spans %5 "
                                               "domains under the order %6; its per-layer collectives run over the "
                                               "network between domains"),
                          name, g.size, domainGpus, name, g.domainsSpanned, p.order));
            continue;
        }
        warning("parallel." + name,
            g.size > cl.gpusPerNode
                ? Text(PS_TEXT("CoreText", "%1 %2 is larger than a node (%3 GPUs): some %4 group spans %5 nodes under "
                                           "the order %6; its per-layer collectives run over the inter-node network"),
                      name, g.size, cl.gpusPerNode, name, g.nodesSpanned, p.order)
                : Text(PS_TEXT("CoreText", "%1 %2 does not fit the %3-GPU nodes: some %4 group spans %5 nodes under the "
                                           "order %6; its per-layer collectives run over the inter-node network"),
                      name, g.size, cl.gpusPerNode, name, g.nodesSpanned, p.order));
    }
}

// The pipeline split: a layout, embedding/loss in the split, uneven first/last stages, or the even split.
void Checker::pipelineSplit()
{
    const int chunks = plan.chunksPerRank();
    const ScheduleKind kind = t.schedule;
    const bool uneven = p.firstStageLayers > 0 || p.lastStageLayers > 0;
    const bool custom = !p.layout.empty() || p.embeddingInSplit || p.lossInSplit;
    if (custom) {
        // parallel.layout, embeddingInSplit, lossInSplit (spec/PipelineLayout.h).
        const Issues split = checkPipelineSplit(plan);
        issues.insert(issues.end(), split.begin(), split.end());
    } else if (uneven) {
        if (p.pp < 2)
            error("parallel.firstStageLayers", Text(PS_TEXT("CoreText", "uneven first/last stages need pp >= 2")));
        if (!traits(kind).customSplit())
            error("parallel.firstStageLayers",
                Text(PS_TEXT("CoreText", "uneven stages are not supported with the %1 schedule"), toString(kind)));
        const int fixed = p.firstStageLayers + p.lastStageLayers;
        const int middle = p.pp - (p.firstStageLayers > 0) - (p.lastStageLayers > 0);
        const int rest = m.layers - fixed;
        if (rest < 0 || (middle == 0 && rest != 0) || (middle > 0 && (rest < middle || rest % middle != 0)))
            error("parallel.firstStageLayers",
                Text(PS_TEXT("CoreText", "layers %1 minus first/last stages %2 = %3 cannot be spread evenly over the %4 "
                                         "other stages"),
                    m.layers, fixed, rest, middle));
        else if (chunks > 1) {
            // One chunk of the first (last) rank may hold only the embedding (output layer), as Llama 3 does.
            const int each = middle > 0 ? rest / middle : 0;
            if (each > 0 && each < chunks)
                error("parallel.vpp",
                    Text(PS_TEXT("CoreText", "a middle rank with %1 layers cannot hold %2 chunks"), each, chunks));
            for (int v : { p.firstStageLayers, p.lastStageLayers })
                if (v > 0 && v + 1 < chunks)
                    error("parallel.vpp",
                        Text(PS_TEXT("CoreText", "an end rank with %1 layers cannot hold %2 chunks"), v, chunks));
                else if (v > 0 && v < chunks)
                    warning("parallel.vpp",
                        Text(PS_TEXT("CoreText", "an end rank with %1 layers holds %2 chunks: one chunk holds only the "
                                                 "embedding or the output layer (as in Llama 3)"),
                            v, chunks));
        }
    } else if (m.layers > 0) {
        const long long stages = 1LL * p.pp * chunks;
        if (m.layers % stages != 0)
            error(p.vpp > 1 ? "parallel.vpp" : "parallel.pp",
                Text(PS_TEXT("CoreText", "layers %1 are not divisible by pp*%2 = %3; set "
                                         "parallel.firstStageLayers/lastStageLayers for an uneven split"),
                    m.layers, chunks > 1 ? "chunks" : "1", stages));
    }
}

// The batch (each >= 1: the ranges); the number of microbatches per step.
long long Checker::microbatches()
{
    const long long per = 1LL * t.microBatch * p.dp;
    if (per > 0 && t.globalBatch % per != 0)
        error("training.globalBatch",
            Text(PS_TEXT("CoreText", "globalBatch %1 is not divisible by microBatch*dp = %2"), t.globalBatch, per));
    return per > 0 ? t.globalBatch / per : 0;
}

// What each schedule needs of pp, vpp and the microbatches (docs/SCHEDULES.md).
void Checker::schedules(long long mbs)
{
    const ScheduleKind kind = t.schedule;
    switch (kind) {
    case ScheduleKind::Interleaved1F1B:
        if (p.vpp < 2) {
            warning("parallel.vpp",
                Text(PS_TEXT("CoreText", "interleaved-1f1b with vpp = 1 is plain 1F1B (Megatron runs the non-interleaved "
                                         "schedule)")));
            break;
        }
        if (p.pp < 2) error("parallel.pp", Text(PS_TEXT("CoreText", "interleaved-1f1b needs pp >= 2")));
        if (mbs > 0 && mbs % p.pp != 0)
            error("training.globalBatch",
                Text(PS_TEXT("CoreText", "interleaved-1f1b needs the number of microbatches (%1) to be a multiple of pp = "
                                         "%2 (Megatron-LM)"),
                    mbs, p.pp));
        break;
    case ScheduleKind::OneFOneB:
        if (p.pp > 1 && mbs > 0 && mbs < p.pp)
            warning("training.globalBatch",
                Text(PS_TEXT("CoreText", "microbatches %1 < pp %2: PyTorch's Schedule1F1B refuses this; Megatron caps the "
                                         "warm-up and the bubble grows"),
                    mbs, p.pp));
        break;
    case ScheduleKind::ZBH1:
        if (mbs > 0 && p.pp > 1) {
            const long long rounds = std::max(1LL, mbs / p.pp);
            if (mbs % rounds != 0)
                error("training.globalBatch",
                    Text(PS_TEXT("CoreText", "zb-h1 (PyTorch's zero-bubble schedule) needs the microbatches (%1) to be a "
                                             "multiple of the number of rounds max(1, m/pp) = %2"),
                        mbs, rounds));
        }
        break;
    case ScheduleKind::ZBV:
    case ScheduleKind::DualPipeV:
        if (p.vpp != 1 && p.vpp != 2)
            error("parallel.vpp",
                Text(PS_TEXT("CoreText", "%1 places exactly two chunks per rank (V shape); vpp %2 is not supported"),
                    toString(kind), p.vpp));
        if (kind == ScheduleKind::DualPipeV && mbs > 0 && mbs < 2LL * p.pp)
            error("training.globalBatch",
                Text(PS_TEXT("CoreText", "dualpipe-v needs at least 2*pp = %1 microbatches, got %2"), 2LL * p.pp, mbs));
        break;
    case ScheduleKind::DualPipe:
        if (p.pp % 2 != 0) error("parallel.pp", Text(PS_TEXT("CoreText", "dualpipe needs an even pp, got %1"), p.pp));
        if (mbs > 0 && (mbs < 2LL * p.pp || mbs % 2 != 0))
            error("training.globalBatch",
                Text(PS_TEXT("CoreText", "dualpipe needs an even number of microbatches, at least 2*pp = %1, got %2"),
                    2LL * p.pp, mbs));
        break;
    default: break;
    }
    if (kind == ScheduleKind::LoopedBFS && p.pp > 1 && mbs > 0 && mbs < p.pp)
        warning("training.globalBatch",
            Text(PS_TEXT("CoreText", "looped-bfs with fewer microbatches than pp waits between loops")));
    if (p.vpp > 1 && !traits(kind).usesVpp && !traits(kind).vShaped)
        warning("parallel.vpp",
            Text(PS_TEXT("CoreText", "vpp %1 is ignored by the %2 schedule"), p.vpp, toString(kind)));
}

// ZeRO and the frameworks, the precision the GPU has, the links.
void Checker::frameworks()
{
    if (p.zero >= 2 && p.pp > 1)
        warning("parallel.zero",
            Text(PS_TEXT("CoreText", "ZeRO-%1 with pipeline parallelism: DeepSpeed's pipeline engine refuses it (only "
                                     "ZeRO-1 is allowed with PP); Megatron-LM offers ZeRO-1 (distributed optimizer) or "
                                     "its own FSDP; PyTorch's pipelining with FSDP (torchtitan) keeps the weights gathered "
                                     "and the gradients whole across microbatches, unlike this model, and the planner "
                                     "leaves such plans out"),
                p.zero));
    if (p.zero >= 1 && p.dp * p.cp == 1)
        warning("parallel.zero", Text(PS_TEXT("CoreText", "ZeRO shards over dp*cp = 1 rank: no saving")));
    if (t.precision == Precision::FP32 && t.gradDtype != Precision::FP32)
        warning("training.gradDtype", Text(PS_TEXT("CoreText", "fp32 training with 16-bit gradients is unusual")));
    if (t.precision == Precision::FP8 && cl.gpu.peakFlops.fp8 <= 0)
        error("training.precision", Text(PS_TEXT("CoreText", "the GPU \"%1\" has no fp8 tensor cores"), cl.gpu.id));
    if (t.precision == Precision::BF16 && cl.gpu.peakFlops.bf16 <= 0)
        error("training.precision",
            Text(PS_TEXT("CoreText", "the GPU \"%1\" has no bf16 tensor cores; use fp16"), cl.gpu.id));
    const Text positive(PS_TEXT("CoreText", "must be > 0"));
    if (cl.intraNode.bandwidth <= 0) error("cluster.intraNode.bandwidth", positive);
    if (cl.nodes > 1 && cl.interNode.bandwidth <= 0) error("cluster.interNode.bandwidth", positive);
}

} // namespace

Issues validate(const Plan& plan)
{
    Checker c(plan);
    if (!c.ranges()) return c.issues;
    c.shape();
    c.degrees();
    c.contextParallel();
    c.experts();
    c.options();
    c.order();
    c.groupsAcrossDomains();
    c.pipelineSplit();
    c.schedules(c.microbatches());
    c.frameworks();
    return c.issues;
}

} // namespace planscope
