#include "Evaluate.h"

#include "Collective.h"
#include "Parameters.h"
#include "RankLayout.h"
#include "spec/Validate.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace planscope {

namespace {

// Which formula the ZeRO stage implies, for display.
const char* zeroFormula(int zero, const char* kind)
{
    // kind: "w", "g" or "o"
    const std::string k(kind);
    if (k == "w") return zero >= 3 ? "w*(P/n + Pe/ne)" : "w*(P + Pe)";
    if (k == "g") return zero >= 2 ? "g*(P/n + Pe/ne)" : "g*(P + Pe)";
    return zero >= 1 ? "o*(P/n + Pe/ne)" : "o*(P + Pe)";
}

// Time of one collective on a group, choosing ring or hierarchical from where its members sit.
double groupSeconds(Collective c, const GroupPlacement& g, double bytes, const ClusterSpec& cl)
{
    if (g.size <= 1 || bytes <= 0) return 0.0;
    if (!g.crossesNodes) return ringSeconds(c, g.size, bytes, cl.intraNode);
    return hierarchicalSeconds(c, g.size, g.perNode, bytes, cl.intraNode, cl.interNode);
}

const char* algorithmName(const GroupPlacement& g)
{
    if (!g.crossesNodes) return "ring (intra-node)";
    return g.perNode > 1 ? "hierarchical (intra ring + inter-node ring)" : "ring (inter-node)";
}

double slowestLink(const GroupPlacement& g, const ClusterSpec& cl)
{
    return g.crossesNodes ? cl.interNode.bandwidth : cl.intraNode.bandwidth;
}

} // namespace

double inFlightMicrobatches(ScheduleKind kind, int p, std::int64_t m, int v, int r)
{
    const double md = double(m);
    switch (kind) {
    case ScheduleKind::GPipe:
    case ScheduleKind::LoopedBFS: return md; // every chunk holds all m microbatches
    case ScheduleKind::OneFOneB: return std::min(double(p - r), md);
    case ScheduleKind::Interleaved1F1B: {
        // With one chunk per rank Megatron runs the plain 1F1B schedule.
        if (v <= 1) return std::min(double(p - r), md);
        // Megatron's warm-up 2(p-r-1) + (v-1)p forwards plus the first steady forward, in chunk units.
        const double warm = 2.0 * (p - r - 1) + double(v - 1) * p + 1.0;
        return std::min(warm, md * v) / v;
    }
    case ScheduleKind::ZBH1: return std::min(double(p), md);
    case ScheduleKind::ZBH2: return std::min(2.0 * p - 1.0, md);
    case ScheduleKind::ZBV: return std::min(double(p), md);
    case ScheduleKind::DualPipe: return std::min(double(p + 1), md) / 2.0;     // P+1 chunks of half the rank
    case ScheduleKind::DualPipeV: return std::min(2.0 * p + 1.0, 2.0 * md) / 2.0; // 2P+1 chunks of half the rank
    }
    return md;
}

LayerActivations layerActivations(const Plan& plan)
{
    const ModelSpec& M = plan.model;
    const ParallelSpec& P = plan.parallel;
    const TrainingSpec& T = plan.training;
    LayerActivations a;
    const double e = T.precision == Precision::FP32 ? 4.0 : 2.0; // 16-bit activations (fp8 keeps bf16 copies)
    const double mask = M.dropout ? 1.0 : 0.0;                     // dropout masks: one byte per element
    const double h = double(M.hidden);
    const double heads = double(M.heads);
    const double kv = double(M.kvHeads > 0 ? M.kvHeads : M.heads);
    const double s = double(M.seqLength) / P.cp;
    const double b = T.microBatch;
    const double t = P.tp;
    auto inner = [&](double f) { return (M.gatedMlp ? 3.0 : 2.0) * e * f / h; }; // per s*b*h
    // Attention 11sbh + 5as^2b, MLP 19sbh, norms 4sbh for GPT with f = 4h (Korthikanti Table 2).
    double nonPar = e + mask /* QKV input, out dropout */ + e + mask /* fc1 input, out dropout */ + 2.0 * e /* norms */;
    double par = e * (1.0 + 2.0 * kv / heads) /* Q, K, V */ + e /* O projection input */;
    if (M.isMoe()) {
        const double fe = double(M.moe.expertFfnHidden);
        par += M.moe.topK * (e + inner(fe)) + M.moe.sharedExperts * inner(fe);
        nonPar += 4.0 * M.moe.experts / h; // fp32 router logits
    } else {
        par += inner(double(M.ffnHidden));
    }
    const double scores = e + (M.dropout ? 1.0 + e : 0.0); // softmax output (+ dropout mask and output)
    const double sbh = s * b * h;
    const double spDiv = P.sp ? t : 1.0;
    const double scoreBytes = T.flashAttention ? 4.0 * heads * s * b / t /* logsumexp, fp32 */
                                               : scores * heads * s * s * b / t;
    a.nonParallelCoeff = nonPar;
    a.parallelCoeff = par;
    a.scoresCoeff = T.flashAttention ? 0.0 : scores;
    a.full = sbh * (nonPar / spDiv + par / t) + scoreBytes;
    switch (T.recompute) {
    case Recompute::None: a.stored = a.full; break;
    case Recompute::Selective:
        a.stored = sbh * (nonPar / spDiv + par / t) + (T.flashAttention ? scoreBytes : 0.0);
        a.scoresCoeff = 0.0;
        break;
    case Recompute::Full: a.stored = e * sbh / spDiv; break; // only the layer input is checkpointed
    }
    return a;
}

Prediction evaluate(const Plan& plan, Explainer* ex)
{
    Prediction out;
    for (const Issue& i : validate(plan)) {
        if (i.severity == Severity::Error)
            out.errors.push_back(i);
        else
            out.warnings.push_back(i.path + ": " + i.message);
    }
    if (!out.errors.empty()) return out;
    out.valid = true;

    const ModelSpec& M = plan.model;
    const ParallelSpec& P = plan.parallel;
    const TrainingSpec& T = plan.training;
    const ClusterSpec& C = plan.cluster;
    const GpuSpec& gpu = C.gpu;
    const int p = P.pp, t = P.tp, cp = P.cp, ep = P.ep;
    const int v = plan.chunksPerRank();
    const std::int64_t m = plan.microbatches();
    out.microbatches = m;
    const double b = T.microBatch, s = double(M.seqLength), sl = s / cp, h = double(M.hidden);
    const double L = M.layers, V = double(M.vocab);
    const double kvRatio = double(M.kvHeads) / M.heads;

    const ParameterCounts pc = countParameters(M);
    const std::vector<RankShape> shapes = rankShapes(plan);
    const RankLayout layout = rankLayout(plan);
    const LayerActivations act = layerActivations(plan);

    // ---------------------------------------------------------------- parameters
    out.paramsTotal = pc.total;
    out.paramsActive = pc.active;
    if (ex) {
        ex->add({ "params.total", pc.total, "parameters",
            "L*(attn + mlp + biases + norms + router + experts) + V*h + positions + outputLayer + norms",
            { { "L", L }, { "attn", pc.layer.attentionMatrices }, { "mlp", pc.layer.mlpMatrices },
                { "biases", pc.layer.columnBiases + pc.layer.rowBiases }, { "norms", pc.layer.norms },
                { "router", pc.layer.router }, { "experts", pc.layer.routedExperts }, { "V", V }, { "h", h },
                { "positions", pc.positions }, { "outputLayer", pc.outputLayer },
                { "norms_outer", pc.finalNorm + pc.embeddingNorm } },
            sources::kMegatronParams, {},
            "attention = h*(h + 2*h*kv/a) + h*h (Q, K, V, O; GQA shrinks K and V); MLP = " + std::string(M.gatedMlp ? "3" : "2")
                + "*h*f. Megatron's GPT form N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) is the case f = 4h, "
                  "LayerNorm with biases, learned positions, tied embeddings (plus the final norm, 2h)."
                + (M.isMoe() ? " Active per token: " + units::formatCount(pc.active) + "." : std::string()) });
    }
    const double layerDenseGpu = (pc.layer.attentionMatrices + pc.layer.mlpMatrices + pc.layer.columnBiases) / t
        + pc.layer.rowBiases + pc.layer.norms + pc.layer.router;
    const double layerExpertGpu = pc.layer.routedExperts / (double(ep) * t);

    // ---------------------------------------------------------------- bytes per parameter
    const double w = T.precision == Precision::FP32 ? 4.0 : 2.0; // fp8 training keeps bf16 weights
    const double g = bytesPerElement(T.gradDtype);
    const double master = w < 4.0 ? 4.0 : 0.0;
    const double o = master + (T.optimizer == Optimizer::Adam ? 8.0 : 4.0);
    if (T.precision == Precision::FP8)
        out.warnings.push_back("training.precision: fp8 GEMMs modelled at the fp8 peak; weights kept in bf16, fp8 weight "
                               "and transpose caches (1-2 bytes/parameter) not counted");
    const int dpcp = P.dp * cp;
    int nShard = dpcp;
    if (P.fsdp == Fsdp::Hybrid) nShard = std::max(1, std::min(dpcp, layout.dpCp.perNode));
    const int nExpert = std::max(1, dpcp / std::max(1, ep));

    // ---------------------------------------------------------------- time model inputs
    const double peak = gpu.peakFlops.forPrecision(T.precision);
    double eff = gpu.gemmEfficiency;
    if (eff <= 0) {
        eff = 0.75;
        out.warnings.push_back("cluster.gpu.gemmEfficiency: no measured GEMM efficiency for \"" + gpu.id
            + "\"; assuming 0.75 (run planscope-profile to measure it)");
    }
    const double rate = peak * eff;
    const double hbm = gpu.hbmBandwidth > 0 ? gpu.hbmBandwidth : 1e12;
    const double e = T.precision == Precision::FP32 ? 4.0 : 2.0;
    const double tokensG = b * sl;
    const double matF = 2.0 * tokensG * (pc.layer.matmulActive()) / t;
    const double attnF = 4.0 * b * sl * s * h / t;
    const double gemmF = (matF + attnF) / rate;
    // Element-wise work (norms, softmax, dropout, activation functions, residual adds) is memory-bound: each op
    // reads its input and writes its output, so the forward moves about twice the bytes the layer keeps for
    // backward, and the backward (reading saved activations and incoming gradients, writing gradients) twice that.
    const double memF = 2.0 * act.full / hbm;
    const double tpAR = groupSeconds(Collective::AllReduce, layout.tp, e * b * sl * h, C);
    const double epA2A = (ep > 1 && M.isMoe())
        ? groupSeconds(Collective::AllToAll, layout.ep, e * b * sl * M.moe.topK * h, C)
        : 0.0;
    double cpF = 0, cpB = 0;
    if (cp > 1) {
        const LinkSpec& link = layout.cp.crossesNodes ? C.interNode : C.intraNode;
        const double kvBytes = 2.0 * e * b * sl * h * kvRatio / t;
        const double step = link.latency + kvBytes / link.bandwidth;
        cpF = std::max(0.0, (cp - 1) * step - attnF / rate);             // ring attention overlaps its sends
        cpB = std::max(0.0, 2.0 * (cp - 1) * step - 2.0 * attnF / rate);
    }
    const double commF = 2.0 * tpAR + 2.0 * epA2A + cpF;
    double commB = 2.0 * tpAR + 2.0 * epA2A + cpB;
    double layerF = gemmF + memF + commF;
    double layerB = 2.0 * gemmF + 2.0 * memF + commB;
    if (T.recompute == Recompute::Full) {
        layerB += layerF;
        commB += commF;
    } else if (T.recompute == Recompute::Selective && !T.flashAttention) {
        layerB += attnF / rate;
    }
    const double layerW = matF / rate;
    const double matO = 2.0 * tokensG * V * h / t;
    const double outF = matO / rate + 4.0 * sl * b * V / t / hbm;
    const double outB = 2.0 * matO / rate + 4.0 * sl * b * V / t / hbm;
    const double outW = matO / rate;
    // Pipeline p2p: one activation tensor per microbatch per chunk boundary each way (/t with SP).
    const double ppBytes = e * b * sl * h / (P.sp ? t : 1);
    const LinkSpec& ppLink = layout.ppNeighboursCrossNodes ? C.interNode : C.intraNode;
    const double p2p = p > 1 ? ppLink.latency + ppBytes / ppLink.bandwidth : 0.0;
    out.opCosts = { layerF, layerB, layerW, outF, outB, outW, p2p };

    // ---------------------------------------------------------------- per stage
    out.capacityBytes = gpu.memoryBytes;
    out.stages.resize(std::size_t(p));
    out.stageTimes.resize(std::size_t(p));
    out.paramsPerStage.resize(std::size_t(p));
    int groupsOfRank = 0;
    for (const GroupPlacement* gp : { &layout.dpCp, &layout.tp, &layout.pp, &layout.cp })
        if (gp->size > 1) ++groupsOfRank;
    if (M.isMoe() && ep > 1) ++groupsOfRank;
    if (M.isMoe() && nExpert > 1 && nExpert != dpcp) ++groupsOfRank;

    for (int r = 0; r < p; ++r) {
        const RankShape& sh = shapes[std::size_t(r)];
        StageMemory& st = out.stages[std::size_t(r)];
        st.stage = r;
        st.layers = sh.layersHeld;
        st.embedding = sh.embedding;
        st.output = sh.output;
        // Parameters: the stage's layers, plus the embedding on the first, the output layer on the last (a tied
        // embedding is kept as a second copy on the last stage when the two are on different ranks).
        const double embParams = pc.embedding + pc.positions + pc.embeddingNorm;
        // The output projection this rank keeps: its own (untied), a copy of the embedding (tied, embedding elsewhere),
        // or nothing (tied, embedding on this rank).
        const double outMatrix = M.tiedEmbeddings ? (sh.embedding ? 0.0 : pc.embedding) : pc.outputLayer;
        out.paramsPerStage[std::size_t(r)] = sh.layersHeld * pc.layer.total() + (sh.embedding ? embParams : 0.0)
            + (sh.output ? (M.tiedEmbeddings ? 0.0 : pc.outputLayer) + pc.finalNorm : 0.0);
        double Pd = sh.layersHeld * layerDenseGpu;
        if (sh.embedding) Pd += pc.embedding / t + pc.positions + pc.embeddingNorm;
        if (sh.output) Pd += outMatrix / t + pc.finalNorm;
        const double Pe = sh.layersHeld * layerExpertGpu;
        st.parameters = Pd + Pe;
        const double shardW = P.zero >= 3 ? Pd / nShard + Pe / nExpert : Pd + Pe;
        const double shardG = P.zero >= 2 ? Pd / nShard + Pe / nExpert : Pd + Pe;
        const double shardO = P.zero >= 1 ? Pd / nShard + Pe / nExpert : Pd + Pe;
        st.weightsBytes = std::llround(w * shardW);
        st.gradientsBytes = std::llround(g * shardG);
        st.optimizerBytes = std::llround(o * shardO);

        // Activations.
        const double inflight = inFlightMicrobatches(T.schedule, p, m, v, r);
        st.inFlightMicrobatches = inflight;
        st.activationsPerLayerBytes = std::llround(act.stored);
        const double spDiv = P.sp ? t : 1.0;
        const double embAct = sh.embedding ? (M.dropout ? 1.0 : 0.0) * sl * b * h / spDiv
                + (M.embeddingNorm ? e * sl * b * h / spDiv : 0.0)
                                           : 0.0;
        const double outAct = sh.output ? 2.0 * e * sl * b * h / spDiv + 4.0 * sl * b * V / t : 0.0;
        const double workspace = T.recompute == Recompute::Full ? act.full : 0.0;
        const double activations = inflight * (sh.layersHeld * act.stored + embAct + outAct) + workspace;
        st.activationsBytes = std::llround(activations);

        // Buffers (MODEL.md section 4).
        BufferTerms& bt = st.buffers;
        bt.cudaContextBytes = plan.overheads.cudaContextBytes;
        bt.ncclBytes = std::int64_t(groupsOfRank) * plan.overheads.ncclBufferBytesPerGroup;
        if (P.zero >= 2) bt.zeroBucketBytes = std::llround(std::min(5e8, Pd + Pe) * g);
        if (P.zero >= 3 && sh.layersHeld > 0)
            bt.zeroGatherBytes = std::llround(2.0 * (layerDenseGpu + layerExpertGpu) * w + (layerDenseGpu + layerExpertGpu) * g);
        const double allocated = double(st.weightsBytes + st.gradientsBytes + st.optimizerBytes + st.activationsBytes
            + bt.zeroBucketBytes + bt.zeroGatherBytes);
        bt.fragmentationBytes = std::llround(plan.overheads.fragmentation * allocated);
        st.buffersBytes = bt.cudaContextBytes + bt.ncclBytes + bt.zeroBucketBytes + bt.zeroGatherBytes
            + bt.fragmentationBytes;
        st.totalBytes = st.weightsBytes + st.gradientsBytes + st.optimizerBytes + st.activationsBytes + st.buffersBytes;

        // Time of one microbatch on this rank.
        StageTime& tm = out.stageTimes[std::size_t(r)];
        tm.stage = r;
        tm.forwardSeconds = sh.layersPerMicrobatch * layerF + (sh.output ? outF : 0.0);
        tm.backwardSeconds = sh.layersPerMicrobatch * layerB + (sh.output ? outB : 0.0);
        tm.weightGradSeconds = sh.layersPerMicrobatch * layerW + (sh.output ? outW : 0.0);
        tm.p2pSeconds = p > 1 ? 2.0 * v * p2p : 0.0;
        tm.layerCommSeconds = sh.layersPerMicrobatch * (commF + commB);
        // Data parallel: ZeRO-0/1 reduce once per step; ZeRO-2/3 (DeepSpeed, FSDP) every microbatch.
        const double gradBytesD = g * Pd, gradBytesE = g * Pe, wBytesD = w * Pd, wBytesE = w * Pe;
        auto dpTime = [&](Collective c, double bytesD, double bytesE) {
            return groupSeconds(c, layout.dpCp, bytesD, C) + groupSeconds(c, layout.expertDp, bytesE, C);
        };
        if (P.zero <= 1) {
            if (P.zero == 0) {
                tm.dpSeconds = tm.dpReduceSeconds = dpTime(Collective::AllReduce, gradBytesD, gradBytesE);
                tm.dpExposedSeconds = T.overlapGradReduce ? std::max(0.0, tm.dpSeconds - tm.backwardSeconds) : tm.dpSeconds;
            } else {
                const double rs = dpTime(Collective::ReduceScatter, gradBytesD, gradBytesE);
                const double ag = dpTime(Collective::AllGather, wBytesD, wBytesE);
                tm.dpSeconds = rs + ag;
                tm.dpReduceSeconds = rs;
                tm.dpGatherSeconds = ag;
                tm.dpExposedSeconds = T.overlapGradReduce
                    ? std::max(0.0, rs - tm.backwardSeconds) + std::max(0.0, ag - tm.forwardSeconds)
                    : tm.dpSeconds;
            }
        } else {
            const double rs = dpTime(Collective::ReduceScatter, gradBytesD, gradBytesE);
            tm.zeroGatherSeconds = P.zero >= 3 ? dpTime(Collective::AllGather, wBytesD, wBytesE) : 0.0;
            const double perMb = rs + 2.0 * tm.zeroGatherSeconds;
            tm.dpSeconds = double(m) * perMb;
            tm.dpReduceSeconds = rs;
            tm.zeroExposedSeconds = std::max(0.0, perMb - (tm.forwardSeconds + tm.backwardSeconds));
            if (P.zero == 2) {
                // After the sharded optimizer step every rank gathers the updated weights (ZeRO section 7.2.1).
                const double ag = dpTime(Collective::AllGather, wBytesD, wBytesE);
                tm.dpSeconds += ag;
                tm.dpGatherSeconds = ag;
                tm.dpExposedSeconds = T.overlapGradReduce ? std::max(0.0, ag - tm.forwardSeconds) : ag;
            }
        }
        const double updated = P.zero >= 1 ? Pd / nShard + Pe / nExpert : Pd + Pe;
        tm.optimizerSeconds = updated * (2.0 * o + 2.0 * w + g) / hbm;
    }

    // ---------------------------------------------------------------- memory summary
    for (const StageMemory& st : out.stages)
        if (st.totalBytes > out.peakBytes) {
            out.peakBytes = st.totalBytes;
            out.peakStage = st.stage;
        }
    out.fits = out.peakBytes <= out.capacityBytes;
    if (!out.fits)
        out.warnings.push_back("memory: stage " + std::to_string(out.peakStage) + " needs "
            + units::formatBytes(double(out.peakBytes)) + ", more than the " + units::formatBytes(double(out.capacityBytes))
            + " of a " + gpu.id + " by " + units::formatBytes(double(out.peakBytes - out.capacityBytes)));

    // ---------------------------------------------------------------- FLOPs
    const double tokensPerStep = double(T.globalBatch) * s;
    const double attnPerToken = 12.0 * L * s * h;
    out.modelFlopsPerToken = 6.0 * pc.matmulActivePerToken + attnPerToken;
    double extraPerToken = 0;
    if (T.recompute == Recompute::Full)
        extraPerToken = 2.0 * (pc.matmulActivePerToken - V * h) + 4.0 * L * s * h;
    else if (T.recompute == Recompute::Selective && !T.flashAttention)
        extraPerToken = 4.0 * L * s * h;
    out.modelFlopsPerStep = out.modelFlopsPerToken * tokensPerStep;
    out.hardwareFlopsPerStep = (out.modelFlopsPerToken + extraPerToken) * tokensPerStep;

    // ---------------------------------------------------------------- step time
    int rb = 0;
    double slotMax = -1, fbMax = 0;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        const double slot = tm.forwardSeconds + tm.backwardSeconds + tm.p2pSeconds + tm.zeroExposedSeconds;
        if (slot > slotMax) {
            slotMax = slot;
            rb = r;
        }
        fbMax = std::max(fbMax, tm.forwardSeconds + tm.backwardSeconds);
    }
    const StageTime& bt = out.stageTimes[std::size_t(rb)];
    const double F = bt.forwardSeconds + bt.p2pSeconds / 2, B = bt.backwardSeconds + bt.p2pSeconds / 2;
    const double W = bt.weightGradSeconds;
    double bubble = 0;
    std::string bubbleFormula;
    switch (T.schedule) {
    case ScheduleKind::GPipe:
    case ScheduleKind::OneFOneB:
        bubble = (p - 1) * slotMax;
        bubbleFormula = "(p-1)*(F+B)";
        break;
    case ScheduleKind::Interleaved1F1B:
    case ScheduleKind::LoopedBFS:
        bubble = (p - 1) * slotMax / v;
        bubbleFormula = "(p-1)*(F+B)/v";
        break;
    case ScheduleKind::ZBH1:
        bubble = (p - 1) * std::max(0.0, F + (B - W) - W);
        bubbleFormula = "(p-1)*(F + I - W), I = B - W";
        break;
    case ScheduleKind::ZBH2:
        bubble = (p - 1) * std::max(0.0, F + (B - W) - 2 * W);
        bubbleFormula = "(p-1)*(F + I - 2W), I = B - W";
        break;
    case ScheduleKind::ZBV:
        bubble = (p - 1) * std::max(0.0, (F + (B - W) - 2 * W) / 2);
        bubbleFormula = "(p-1)*(Fc + Ic - 2Wc), chunk = half a rank";
        break;
    case ScheduleKind::DualPipe:
        bubble = (p / 2.0 - 1) * std::max(0.0, (F + B) + B - 3 * W);
        bubbleFormula = "(p/2-1)*(F&B + B - 3W), F&B = F + B";
        break;
    case ScheduleKind::DualPipeV:
        bubble = (p - 1) * std::max(0.0, ((F + B) + B - 3 * W) / 2);
        bubbleFormula = "(p-1)*(F&B + B - 3W) per chunk (half a rank)";
        break;
    }
    if (p == 1) bubble = 0;
    const double slotComm = bt.p2pSeconds + bt.zeroExposedSeconds;
    const double pipeline = double(m) * slotMax + bubble;
    double dpTail = 0, optimizer = 0;
    for (const StageTime& tm : out.stageTimes) {
        dpTail = std::max(dpTail, tm.dpExposedSeconds);
        optimizer = std::max(optimizer, tm.optimizerSeconds);
    }
    out.bubbleSeconds = bubble;
    out.computeSeconds = double(m) * (slotMax - slotComm - bt.layerCommSeconds);
    out.exposedCommSeconds = double(m) * (slotComm + bt.layerCommSeconds) + dpTail;
    out.optimizerSeconds = optimizer;
    out.stepSeconds = pipeline + dpTail + optimizer;
    out.analyticStepSeconds = out.stepSeconds;
    out.bubbleFraction = pipeline > 0 ? bubble / pipeline : 0.0;
    out.bubbleOverhead = m > 0 && slotMax > 0 ? bubble / (double(m) * slotMax) : 0.0;
    const double gpus = C.gpus();
    out.mfu = out.modelFlopsPerStep / (out.stepSeconds * gpus * peak);
    out.hfu = out.hardwareFlopsPerStep / (out.stepSeconds * gpus * peak);
    out.tokensPerSecond = tokensPerStep / out.stepSeconds;
    out.trainingDays = T.tokens > 0 ? T.tokens / out.tokensPerSecond / units::kSecondsPerDay : 0.0;
    if (T.tokens <= 0) out.warnings.push_back("training.tokens: not set; trainingDays is 0");

    // ---------------------------------------------------------------- communication groups
    const double layersB = shapes[std::size_t(rb)].layersPerMicrobatch;
    const double tpCalls = T.recompute == Recompute::Full ? 6.0 : 4.0;
    if (t > 1) {
        CommGroup gr;
        gr.kind = "tp";
        gr.size = t;
        gr.crossesNodes = layout.tp.crossesNodes;
        gr.nodesSpanned = layout.tp.nodesSpanned;
        gr.perNode = layout.tp.perNode;
        gr.collective = P.sp ? "AllGather+ReduceScatter" : "AllReduce";
        gr.algorithm = algorithmName(layout.tp);
        gr.linkBandwidth = slowestLink(layout.tp, C);
        gr.bytesPerStep = double(m) * layersB * tpCalls * ringBytesPerRank(Collective::AllReduce, t, e * b * sl * h);
        gr.seconds = double(m) * layersB * tpCalls * tpAR;
        gr.exposedSeconds = gr.seconds;
        out.comm.push_back(gr);
    }
    if (cp > 1) {
        CommGroup gr;
        gr.kind = "cp";
        gr.size = cp;
        gr.crossesNodes = layout.cp.crossesNodes;
        gr.nodesSpanned = layout.cp.nodesSpanned;
        gr.perNode = layout.cp.perNode;
        gr.collective = "SendRecv (ring attention K/V)";
        gr.algorithm = "ring p2p";
        gr.linkBandwidth = slowestLink(layout.cp, C);
        const double kvBytes = 2.0 * e * b * sl * h * kvRatio / t;
        gr.bytesPerStep = double(m) * layersB * 3.0 * (cp - 1) * kvBytes;
        const LinkSpec& link = layout.cp.crossesNodes ? C.interNode : C.intraNode;
        gr.seconds = double(m) * layersB * 3.0 * (cp - 1) * (link.latency + kvBytes / link.bandwidth);
        gr.exposedSeconds = double(m) * layersB * (cpF + cpB);
        out.comm.push_back(gr);
    }
    if (ep > 1 && M.isMoe()) {
        CommGroup gr;
        gr.kind = "ep";
        gr.size = ep;
        gr.crossesNodes = layout.ep.crossesNodes;
        gr.nodesSpanned = layout.ep.nodesSpanned;
        gr.perNode = layout.ep.perNode;
        gr.collective = "AllToAll";
        gr.algorithm = algorithmName(layout.ep);
        gr.linkBandwidth = slowestLink(layout.ep, C);
        const double calls = T.recompute == Recompute::Full ? 6.0 : 4.0;
        gr.bytesPerStep = double(m) * layersB * calls * ringBytesPerRank(Collective::AllToAll, ep, e * b * sl * M.moe.topK * h);
        gr.seconds = double(m) * layersB * calls * epA2A;
        gr.exposedSeconds = gr.seconds;
        out.comm.push_back(gr);
    }
    if (p > 1) {
        CommGroup gr;
        gr.kind = "pp";
        gr.size = p;
        gr.crossesNodes = layout.ppNeighboursCrossNodes;
        gr.nodesSpanned = layout.pp.nodesSpanned;
        gr.perNode = layout.pp.perNode;
        gr.collective = "SendRecv";
        gr.algorithm = "p2p";
        gr.linkBandwidth = ppLink.bandwidth;
        gr.bytesPerStep = double(m) * 2.0 * v * ppBytes;
        gr.seconds = double(m) * bt.p2pSeconds;
        gr.exposedSeconds = double(m) * bt.p2pSeconds + (bubble > 0 ? 0.0 : 0.0);
        out.comm.push_back(gr);
    }
    double dpReportParams = 0;
    if (dpcp > 1) {
        // Report the rank whose gradient reduction is most exposed.
        int rd = 0;
        for (int r = 0; r < p; ++r)
            if (out.stageTimes[std::size_t(r)].dpExposedSeconds + m * out.stageTimes[std::size_t(r)].zeroExposedSeconds
                > out.stageTimes[std::size_t(rd)].dpExposedSeconds + m * out.stageTimes[std::size_t(rd)].zeroExposedSeconds)
                rd = r;
        const StageMemory& st = out.stages[std::size_t(rd)];
        const StageTime& tm = out.stageTimes[std::size_t(rd)];
        const double Pgpu = st.parameters;
        dpReportParams = Pgpu;
        CommGroup gr;
        gr.kind = "dp";
        gr.size = dpcp;
        gr.crossesNodes = layout.dpCp.crossesNodes;
        gr.nodesSpanned = layout.dpCp.nodesSpanned;
        gr.perNode = layout.dpCp.perNode;
        gr.algorithm = algorithmName(layout.dpCp);
        gr.linkBandwidth = slowestLink(layout.dpCp, C);
        const double f = double(dpcp - 1) / dpcp;
        switch (P.zero) {
        case 0:
            gr.collective = "AllReduce";
            gr.bytesPerStep = 2.0 * f * g * Pgpu;
            break;
        case 1:
            gr.collective = "ReduceScatter+AllGather";
            gr.bytesPerStep = f * (g + w) * Pgpu;
            break;
        case 2:
            gr.collective = "ReduceScatter per microbatch + AllGather";
            gr.bytesPerStep = double(m) * f * g * Pgpu + f * w * Pgpu;
            break;
        default:
            gr.collective = "AllGather x2 + ReduceScatter per microbatch";
            gr.bytesPerStep = double(m) * f * (g + 2.0 * w) * Pgpu;
            break;
        }
        gr.seconds = tm.dpSeconds;
        gr.exposedSeconds = tm.dpExposedSeconds + double(m) * tm.zeroExposedSeconds;
        out.comm.push_back(gr);
    }
    for (const CommGroup& gr : out.comm)
        if (gr.crossesNodes && (gr.kind == "tp" || gr.kind == "cp" || gr.kind == "ep"))
            out.warnings.push_back("parallel." + gr.kind + ": the " + gr.kind + " group spans " + std::to_string(gr.nodesSpanned)
                + " nodes under the order " + P.order + "; its per-layer collectives run over the inter-node network");

    out.warnings.push_back("not modelled: kernel launch gaps, stragglers, data loading, fused-kernel temporaries; "
                           "memory-bound element-wise ops move twice a layer's activations over HBM in forward and four times in backward");

    // One line per distinct warning (the first and last stage can raise the same one).
    std::vector<std::string> unique;
    for (auto& w : out.warnings)
        if (std::find(unique.begin(), unique.end(), w) == unique.end()) unique.push_back(std::move(w));
    out.warnings = std::move(unique);

    if (ex) {
        // ---- per-stage memory
        for (int r = 0; r < p; ++r) {
            const StageMemory& st = out.stages[std::size_t(r)];
            const RankShape& sh = shapes[std::size_t(r)];
            const std::string base = "memory.stages." + std::to_string(r) + ".";
            const double Pe = sh.layersHeld * layerExpertGpu;
            const double Pd = st.parameters - Pe;
            ex->add({ "params.perStage." + std::to_string(r), out.paramsPerStage[std::size_t(r)], "parameters",
                "layers*layer + (first ? V*h + positions : 0) + (last ? outputLayer + norm : 0)",
                { { "layers", double(sh.layersHeld) }, { "layer", pc.layer.total() }, { "V", V }, { "h", h },
                    { "first", sh.embedding ? 1.0 : 0.0 }, { "last", sh.output ? 1.0 : 0.0 } },
                sources::kMegatronParams, {},
                "All parameters of this pipeline stage across its tp ranks; memory below is per GPU." });
            const std::vector<std::pair<std::string, double>> inputs { { "w", w }, { "g", g }, { "o", o },
                { "P", Pd }, { "Pe", Pe }, { "n", double(nShard) }, { "ne", double(nExpert) } };
            const std::string zeroNote = "ZeRO-" + std::to_string(P.zero) + " over n = dp*cp = " + std::to_string(nShard)
                + " ranks: stage 1 shards optimizer states, 2 also gradients, 3 also weights; (w+g+o), w+g+o/n, w+(g+o)/n, "
                  "(w+g+o)/n. P = dense parameters on this GPU after tp (" + std::to_string(t)
                + "), Pe = expert parameters after ep*tp, ne = expert data-parallel size.";
            ex->add({ base + "weightsBytes", double(st.weightsBytes), "bytes", zeroFormula(P.zero, "w"), inputs,
                sources::kZero, {}, "w = " + units::formatNumber(w) + " bytes per weight (" + std::string(toString(T.precision))
                    + "). " + zeroNote });
            ex->add({ base + "gradientsBytes", double(st.gradientsBytes), "bytes", zeroFormula(P.zero, "g"), inputs,
                sources::kZero, {}, "g = " + units::formatNumber(g) + " bytes per gradient (gradDtype "
                    + std::string(toString(T.gradDtype)) + "; Megatron keeps fp32 main grads under bf16). " + zeroNote });
            ex->add({ base + "optimizerBytes", double(st.optimizerBytes), "bytes", zeroFormula(P.zero, "o"), inputs,
                std::string(sources::kZero) + "; " + sources::kMegatronOptimizer, {},
                "o = " + units::formatNumber(master) + " (fp32 master weights) + "
                    + (T.optimizer == Optimizer::Adam ? "8 (Adam m and v, fp32)" : "4 (SGD momentum, fp32)") + ". "
                    + zeroNote });
            ex->add({ base + "inFlightMicrobatches", st.inFlightMicrobatches, "microbatches",
                T.schedule == ScheduleKind::GPipe || T.schedule == ScheduleKind::LoopedBFS ? "m"
                    : T.schedule == ScheduleKind::OneFOneB ? "min(p - r, m)"
                    : T.schedule == ScheduleKind::Interleaved1F1B ? "min(2*(p-r-1) + (v-1)*p + 1, m*v) / v"
                    : T.schedule == ScheduleKind::ZBH2     ? "min(2*p - 1, m)"
                    : T.schedule == ScheduleKind::DualPipe ? "min(p + 1, m) / 2"
                    : T.schedule == ScheduleKind::DualPipeV ? "min(2*p + 1, 2*m) / 2"
                                                            : "min(p, m)",
                { { "p", double(p) }, { "r", double(r) }, { "m", double(m) }, { "v", double(v) } },
                "SCHEDULES.md section 1.7 and the schedule's own section", {},
                "Microbatch-equivalents of activations held at the peak; a chunk counts 1/v. GPipe holds all m, 1F1B "
                "holds p - r: the same bubble, less memory." });
            const bool sp = P.sp;
            std::string layerFormula;
            if (T.recompute == Recompute::Full)
                layerFormula = sp ? "e*s*b*h/t" : "e*s*b*h";
            else
                layerFormula = std::string(sp ? "s*b*h*(c1 + c2)/t" : "s*b*h*(c1 + c2/t)")
                    + (act.scoresCoeff > 0 ? " + k*a*s*s*b/t" : "");
            ex->add({ base + "activationsPerLayerBytes", double(st.activationsPerLayerBytes), "bytes", layerFormula,
                { { "s", sl }, { "b", b }, { "h", h }, { "a", double(M.heads) }, { "t", double(t) },
                    { "c1", act.nonParallelCoeff }, { "c2", act.parallelCoeff }, { "k", act.scoresCoeff },
                    { "e", e } },
                sources::kKorthikanti, {},
                "Per layer, per microbatch, per GPU (s = seqLength/cp). Korthikanti's Table 2 has c1 = 10, c2 = 24, k = 5 "
                "for f = 4h with dropout; here c1, c2, k are derived from the block (attention 11sbh + 5as^2b, MLP 19sbh, "
                "norms 4sbh scaled to this model's f, GQA, gating and dropout). Selective recompute and flash attention drop "
                "the k term; full recompute keeps only the layer input." });
            ex->add({ base + "activationsBytes", double(st.activationsBytes), "bytes",
                "inflight*(layers*perLayer + firstExtra + lastExtra) + workspace",
                { { "inflight", st.inFlightMicrobatches }, { "layers", double(sh.layersHeld) },
                    { "perLayer", act.stored },
                    { "firstExtra", sh.embedding ? (M.dropout ? 1.0 : 0.0) * sl * b * h / (sp ? t : 1) : 0.0 },
                    { "lastExtra", sh.output ? 2.0 * e * sl * b * h / (sp ? t : 1) + 4.0 * sl * b * V / t : 0.0 },
                    { "workspace", T.recompute == Recompute::Full ? act.full : 0.0 } },
                sources::kKorthikanti, { base + "inFlightMicrobatches", base + "activationsPerLayerBytes" },
                "firstExtra: embedding dropout mask; lastExtra: final norm and output-layer inputs plus fp32 logits "
                "4*s*b*V/t for the loss; workspace: one layer's full activations while it is recomputed." });
            const BufferTerms& btm = st.buffers;
            ex->add({ base + "buffers.cudaContextBytes", double(btm.cudaContextBytes), "bytes", "cudaContextBytes", {},
                sources::kCudaContext, {}, "" });
            ex->add({ base + "buffers.ncclBytes", double(btm.ncclBytes), "bytes", "groups*perGroup",
                { { "groups", double(groupsOfRank) }, { "perGroup", double(plan.overheads.ncclBufferBytesPerGroup) } },
                sources::kNcclEnv, {}, "One communicator per parallel group of size > 1 this rank belongs to." });
            ex->add({ base + "buffers.zeroBucketBytes", double(btm.zeroBucketBytes), "bytes", "min(5e8, P + Pe)*g",
                { { "P", Pd }, { "Pe", Pe }, { "g", g } },
                "DeepSpeed ZeRO config: reduce_bucket_size default 5e8 elements", {}, "Only with ZeRO-2/3." });
            ex->add({ base + "buffers.zeroGatherBytes", double(btm.zeroGatherBytes), "bytes", "2*layer*w + layer*g",
                { { "layer", layerDenseGpu + layerExpertGpu }, { "w", w }, { "g", g } },
                "PyTorch FSDP: the unsharded current layer plus the prefetched next one, and the current layer's "
                "unsharded gradient before its reduce-scatter",
                {}, "Only with ZeRO-3 / FSDP." });
            ex->add({ base + "buffers.fragmentationBytes", double(btm.fragmentationBytes), "bytes", "f*allocated",
                { { "f", plan.overheads.fragmentation },
                    { "allocated", double(st.weightsBytes + st.gradientsBytes + st.optimizerBytes + st.activationsBytes
                                       + btm.zeroBucketBytes + btm.zeroGatherBytes) } },
                sources::kFragmentation, {}, "" });
            ex->add({ base + "buffersBytes", double(st.buffersBytes), "bytes",
                "cudaContext + nccl + zeroBucket + zeroGather + fragmentation",
                { { "cudaContext", double(btm.cudaContextBytes) }, { "nccl", double(btm.ncclBytes) },
                    { "zeroBucket", double(btm.zeroBucketBytes) }, { "zeroGather", double(btm.zeroGatherBytes) },
                    { "fragmentation", double(btm.fragmentationBytes) } },
                "MODEL.md section 4",
                { base + "buffers.cudaContextBytes", base + "buffers.ncclBytes", base + "buffers.zeroBucketBytes",
                    base + "buffers.zeroGatherBytes", base + "buffers.fragmentationBytes" },
                "Every term has a default and is editable under memoryOverheads in the plan." });
            ex->add({ base + "totalBytes", double(st.totalBytes), "bytes",
                "weights + gradients + optimizer + activations + buffers",
                { { "weights", double(st.weightsBytes) }, { "gradients", double(st.gradientsBytes) },
                    { "optimizer", double(st.optimizerBytes) }, { "activations", double(st.activationsBytes) },
                    { "buffers", double(st.buffersBytes) } },
                "MODEL.md sections 2-4",
                { base + "weightsBytes", base + "gradientsBytes", base + "optimizerBytes", base + "activationsBytes",
                    base + "buffersBytes" },
                "Per GPU of stage " + std::to_string(r) + "; 1 GiB = 2^30 bytes, 1 GB = 1e9 bytes." });
            const StageTime& tm = out.stageTimes[std::size_t(r)];
            const std::string tb = "time.stages." + std::to_string(r) + ".";
            ex->add({ tb + "forwardSeconds", tm.forwardSeconds, "seconds",
                "layers*((matmul + attn)/(peak*eff) + 2*act/hbm + 2*tpAllReduce + 2*epAllToAll + cpExposed) + output",
                { { "layers", sh.layersPerMicrobatch }, { "matmul", matF }, { "attn", attnF }, { "peak", peak },
                    { "eff", eff }, { "act", act.full }, { "hbm", hbm }, { "tpAllReduce", tpAR }, { "epAllToAll", epA2A },
                    { "cpExposed", cpF }, { "output", sh.output ? outF : 0.0 } },
                std::string(sources::kMegatronFlops) + "; " + sources::kAlphaBeta, {},
                "FLOPs per GPU per layer: matmul = 2*b*s*params/t, attention = 4*b*s*s*h/t (no causal halving). "
                "TP collectives are not overlapped." });
            ex->add({ tb + "backwardSeconds", tm.backwardSeconds, "seconds",
                "layers*(2*(matmul + attn)/(peak*eff) + 4*act/hbm + comm + recompute) + output",
                { { "layers", sh.layersPerMicrobatch }, { "matmul", matF }, { "attn", attnF }, { "peak", peak },
                    { "eff", eff }, { "act", act.full }, { "hbm", hbm }, { "comm", commB },
                    { "recompute", layerB - (2.0 * gemmF + 2.0 * memF + commB) }, { "output", sh.output ? outB : 0.0 } },
                std::string(sources::kMegatronFlops) + "; " + sources::kKorthikantiFlops, {},
                "Backward is twice the forward GEMMs; full recompute adds a forward, selective the attention core." });
        }
        // ---- memory summary
        ex->add({ "memory.capacityBytes", double(out.capacityBytes), "bytes", "GPU memory", {},
            "GPU preset \"" + gpu.id + "\" (see resources/presets/gpus.json)", {}, "" });
        ex->add({ "memory.peakBytes", double(out.peakBytes), "bytes", "max over stages of totalBytes", {},
            "MODEL.md sections 2-4", { "memory.stages." + std::to_string(out.peakStage) + ".totalBytes" },
            "Stage " + std::to_string(out.peakStage) + " holds the most." });
        // ---- FLOPs
        ex->add({ "flops.modelPerToken", out.modelFlopsPerToken, "FLOP", "6*N + 12*L*s*h",
            { { "N", pc.matmulActivePerToken }, { "L", L }, { "s", s }, { "h", h } },
            std::string(sources::kPalmFlops) + "; " + sources::kMegatronFlops, {},
            "N counts the matrices a token multiplies with (layers and the output projection, active experts only); "
            "for GPT this equals Megatron's 72*s*L*h^2*(1 + s/(6h) + V/(12*h*L)) per sequence / s. The rule of thumb "
            "6*N*T ignores the attention term." });
        ex->add({ "flops.modelPerStep", out.modelFlopsPerStep, "FLOP", "modelPerToken*B*s",
            { { "modelPerToken", out.modelFlopsPerToken }, { "B", double(T.globalBatch) }, { "s", s } },
            sources::kMegatronFlops, { "flops.modelPerToken" }, "Model FLOPs exclude recompute (for MFU)." });
        ex->add({ "flops.hardwarePerStep", out.hardwareFlopsPerStep, "FLOP", "(modelPerToken + recompute)*B*s",
            { { "modelPerToken", out.modelFlopsPerToken }, { "recompute", extraPerToken }, { "B", double(T.globalBatch) },
                { "s", s } },
            std::string(sources::kMegatronFlops) + "; " + sources::kKorthikantiFlops, { "flops.modelPerToken" },
            "Full recompute re-runs every layer's forward (Megatron: 96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L))); "
            "selective re-runs only the attention scores (4*L*s*h per token)." });
        // ---- time
        ex->add({ "time.bubbleFraction", out.bubbleFraction, "1", "bubble/(m*slot + bubble)",
            { { "bubble", bubble }, { "m", double(m) }, { "slot", slotMax }, { "p", double(p) }, { "v", double(v) } },
            sources::kPipeline, { "time.bubbleSeconds" },
            "Idle share of the pipeline time; for GPipe/1F1B with equal stages (p-1)/(m+p-1) = "
                + units::formatNumber(double(p - 1) / double(m + p - 1))
                + ". The other definition, idle over ideal compute, is bubbleOverhead = (p-1)/m = "
                + units::formatNumber(m > 0 ? double(p - 1) / double(m) : 0.0)
                + " (the Megatron-LM paper's 'bubble time fraction'). Papers disagree because they divide by different things." });
        ex->add({ "time.bubbleOverhead", out.bubbleOverhead, "1", "bubble/(m*slot)",
            { { "bubble", bubble }, { "m", double(m) }, { "slot", slotMax } }, sources::kPipeline, { "time.bubbleSeconds" },
            "Idle time over ideal compute; (p-1)/m for GPipe/1F1B, (p-1)/(v*m) interleaved." });
        ex->add({ "time.bubbleSeconds", bubble, "seconds", bubbleFormula,
            { { "p", double(p) }, { "v", double(v) }, { "F", F }, { "B", B }, { "W", W } },
            T.schedule == ScheduleKind::ZBH1 || T.schedule == ScheduleKind::ZBH2 || T.schedule == ScheduleKind::ZBV
                ? sources::kZeroBubble
                : (T.schedule == ScheduleKind::DualPipe || T.schedule == ScheduleKind::DualPipeV ? sources::kDualPipe
                                                                                                : sources::kPipeline),
            {},
            "F, B: forward and full backward of one microbatch on the slowest rank (" + std::to_string(rb)
                + "), with its p2p sends; W: the weight-gradient part of B. B here is the full backward; the Zero "
                  "Bubble paper's B is the input-gradient part I = B - W." });
        ex->add({ "time.computeSeconds", out.computeSeconds, "seconds", "m*(F + B - layerComm)",
            { { "m", double(m) }, { "F", bt.forwardSeconds }, { "B", bt.backwardSeconds }, { "layerComm", bt.layerCommSeconds } },
            sources::kMegatronFlops,
            { "time.stages." + std::to_string(rb) + ".forwardSeconds", "time.stages." + std::to_string(rb) + ".backwardSeconds" },
            "The slowest rank's microbatches back to back, without the TP/EP/CP collectives inside F and B." });
        ex->add({ "time.exposedCommSeconds", out.exposedCommSeconds, "seconds", "m*(layerComm + p2p + zeroExposed) + dpTail",
            { { "m", double(m) }, { "layerComm", bt.layerCommSeconds }, { "p2p", bt.p2pSeconds },
                { "zeroExposed", bt.zeroExposedSeconds }, { "dpTail", dpTail } },
            sources::kAlphaBeta, {},
            "Gradient reduction overlaps the last backward when overlapGradReduce is on; what does not fit is the tail." });
        ex->add({ "time.optimizerSeconds", optimizer, "seconds", "params*(2*o + 2*w + g)/hbm",
            { { "params", optimizer * hbm / (2.0 * o + 2.0 * w + g) }, { "o", o }, { "w", w }, { "g", g }, { "hbm", hbm } },
            "Memory-bound optimizer step: read weights, grads and states, write weights and states", {}, "" });
        ex->add({ "time.stepSeconds", out.stepSeconds, "seconds", "compute + bubble + exposedComm + optimizer",
            { { "compute", out.computeSeconds }, { "bubble", bubble }, { "exposedComm", out.exposedCommSeconds },
                { "optimizer", optimizer } },
            "MODEL.md section 7",
            { "time.computeSeconds", "time.bubbleSeconds", "time.exposedCommSeconds", "time.optimizerSeconds" },
            "GEMM efficiency " + units::formatNumber(eff) + " of the dense " + std::string(toString(T.precision))
                + " peak " + units::formatFlops(peak) + "/s." });
        ex->add({ "time.mfu", out.mfu, "1", "modelPerStep/(step*G*peak)",
            { { "modelPerStep", out.modelFlopsPerStep }, { "step", out.stepSeconds }, { "G", gpus }, { "peak", peak } },
            sources::kMfu, { "flops.modelPerStep", "time.stepSeconds" },
            "Peak is the dense datasheet number for the dtype (never the 'with sparsity' one)." });
        ex->add({ "time.hfu", out.hfu, "1", "hardwarePerStep/(step*G*peak)",
            { { "hardwarePerStep", out.hardwareFlopsPerStep }, { "step", out.stepSeconds }, { "G", gpus }, { "peak", peak } },
            sources::kMfu, { "flops.hardwarePerStep", "time.stepSeconds" }, "HFU counts recomputed FLOPs too." });
        ex->add({ "time.tokensPerSecond", out.tokensPerSecond, "tokens/s", "B*s/step",
            { { "B", double(T.globalBatch) }, { "s", s }, { "step", out.stepSeconds } }, "definition", { "time.stepSeconds" },
            "" });
        ex->add({ "time.trainingDays", out.trainingDays, "days", "T/tokensPerSecond/86400",
            { { "T", T.tokens }, { "tokensPerSecond", out.tokensPerSecond } }, "MODEL.md section 5",
            { "time.tokensPerSecond" }, "Megatron's rule of thumb 8*T*N/(n*X) assumes full recompute." });
        // ---- comm
        for (std::size_t i = 0; i < out.comm.size(); ++i) {
            const CommGroup& gr = out.comm[i];
            const std::string base = "comm.groups." + std::to_string(i) + ".";
            std::string formula = "bytes each GPU sends per step";
            std::vector<std::pair<std::string, double>> in { { "n", double(gr.size) }, { "m", double(m) } };
            if (gr.kind == "tp") {
                formula = "m*layers*calls*2*(n-1)/n*e*b*s*h";
                in.insert(in.end(), { { "layers", layersB }, { "calls", tpCalls }, { "e", e }, { "b", b }, { "s", sl }, { "h", h } });
            } else if (gr.kind == "pp") {
                formula = "m*2*v*e*b*s*h/(sp ? t : 1)";
                in.insert(in.end(), { { "v", double(v) }, { "e", e }, { "b", b }, { "s", sl }, { "h", h }, { "t", double(t) } });
            } else if (gr.kind == "dp") {
                formula = P.zero == 0 ? "2*(n-1)/n*g*P"
                    : P.zero == 1    ? "(n-1)/n*(g + w)*P"
                    : P.zero == 2    ? "m*(n-1)/n*g*P + (n-1)/n*w*P"
                                     : "m*(n-1)/n*(g + 2*w)*P";
                in.insert(in.end(), { { "g", g }, { "w", w }, { "P", dpReportParams } });
            }
            ex->add({ base + "bytesPerStep", gr.bytesPerStep, "bytes", formula, in,
                std::string(sources::kNcclTests) + "; " + (gr.kind == "dp" ? sources::kZeroComm : sources::kMegatronFlops),
                {}, "Ring volumes: all-reduce sends 2(n-1)/n of the buffer, all-gather and reduce-scatter (n-1)/n." });
            ex->add({ base + "seconds", gr.seconds, "seconds", "sum of alpha*steps + bytes/bandwidth",
                { { "bandwidth", gr.linkBandwidth }, { "bytes", gr.bytesPerStep } }, sources::kAlphaBeta, {},
                "Algorithm: " + gr.algorithm + (gr.crossesNodes ? "; the group crosses nodes" : "; inside one node")
                    + ". Link bandwidths are bytes/s per GPU per direction." });
            ex->add({ base + "exposedSeconds", gr.exposedSeconds, "seconds", "seconds not hidden behind compute",
                { { "seconds", gr.seconds } }, "MODEL.md section 6 (overlap)", {},
                gr.kind == "dp" ? "Gradient reduction overlaps the backward of the last microbatch." : "Not overlapped." });
        }
    }
    return out;
}

} // namespace planscope
