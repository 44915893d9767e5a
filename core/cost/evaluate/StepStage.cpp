// evaluate()'s FLOPs (flops.*: Narayanan et al. SC21 eq. 3, Chowdhery et al. PaLM appendix B) and the step:
// the schedule's bubble, the slowest rank's slot, the data-parallel tail and the optimizer (time.*).
#include "Stages.h"

#include "cost/Formula.h"
#include "cost/Kernels.h"
#include "cost/Operators.h"
#include "spec/ScheduleTraits.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace planscope::evaluation {

// Returns the recomputed FLOPs per token.
double flopsStage(const Inputs& in, Prediction& out, Explainer* ex)
{
    const TrainingSpec& T = in.T;
    const ParameterCounts& pc = in.pc;
    const double s = in.s, h = in.h, V = in.V;
    // Attention runs in every layer and every MTP module; w = a*(d_qk + d_v)/2 is Megatron's h for multi-head
    // attention with d = h/a (QK^T and PV cost 2*s*a*d_qk and 2*s*a*d_v per token forward).
    const double L = in.L + std::max(0, in.M.mtpLayers), w = in.attnWidth;
    const double heads = 1.0 + std::max(0, in.M.mtpLayers); // output projections
    const double tokensPerStep = double(T.globalBatch) * s;
    const double attnPerToken = 12.0 * L * s * w;
    out.modelFlopsPerToken = 6.0 * pc.matmulActivePerToken + attnPerToken;
    // Recompute re-runs forwards (2 FLOPs per weight per token): every layer's under full recompute; under
    // selective, the attention scores (core_attn without flash attention) and the GEMMs of the modules re-run.
    double extraPerToken = 0;
    double modules = 0; // weights per token the selective modules multiply with again
    if (T.recompute == Recompute::Full) {
        extraPerToken = 2.0 * (pc.matmulActivePerToken - heads * V * h) + 4.0 * L * s * w;
    } else if (T.recompute == Recompute::Selective) {
        std::vector<std::string> mods = T.recomputeModules;
        if (mods.empty()) mods.push_back("core_attn");
        auto on = [&](const char* m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
        const LayerParameters& l = pc.layer;
        const double moeL = pc.moeLayers, denseL = pc.denseLayers;
        if (on("mlp")) modules += (in.M.isMoe() ? denseL : in.L) * pc.denseLayer.mlpMatrices;
        if (on("moe")) modules += moeL * (l.activeExperts + l.router + l.mlpMatrices);
        else if (on("shared_experts")) modules += moeL * l.mlpMatrices;
        if (on("mla_up_proj") && in.M.mla.enabled()) {
            const MlaSpec& x = in.M.mla;
            const double a = double(in.M.heads);
            modules += in.L * ((x.qLoraRank > 0 ? double(x.qLoraRank) : h) * a * (x.qkNopeHeadDim + x.qkRopeHeadDim)
                + double(x.kvLoraRank) * a * (x.qkNopeHeadDim + x.vHeadDim));
        }
        extraPerToken = 2.0 * modules + (on("core_attn") && !T.flashAttention ? 4.0 * L * s * w : 0.0);
    }
    out.modelFlopsPerStep = out.modelFlopsPerToken * tokensPerStep;
    out.hardwareFlopsPerStep = (out.modelFlopsPerToken + extraPerToken) * tokensPerStep;
    if (!ex) return extraPerToken;
    ex->add({ "flops.modelPerToken", out.modelFlopsPerToken, "FLOP", "6*N + 12*L*s*w",
        { { "N", pc.matmulActivePerToken }, { "L", L }, { "s", s }, { "w", w } },
        Text::join({ Text(sources::kPalmFlops), Text(sources::kMegatronFlops) }, Text::Joint::List), {},
        Text::join({ Text(PS_TEXT("CoreText",
                         "N counts the matrices a token multiplies with (layers, MTP modules and each output projection, "
                         "active experts only); L counts layers and MTP modules; w = a*(d_qk + d_v)/2 (= h for multi-head "
                         "attention with d = h/a).")),
                       Text(PS_TEXT("CoreText",
                           "For GPT this equals Megatron's 72*s*L*h^2*(1 + s/(6h) + V/(12*h*L)) per sequence / s.")),
                       Text(PS_TEXT("CoreText", "The rule of thumb 6*N*T ignores the attention term.")) },
            Text::Joint::Sentences) });
    ex->add({ "flops.modelPerStep", out.modelFlopsPerStep, "FLOP", "modelPerToken*B*s",
        { { "modelPerToken", out.modelFlopsPerToken }, { "B", double(T.globalBatch) }, { "s", s } },
        sources::kMegatronFlops, { "flops.modelPerToken" },
        Text(PS_TEXT("CoreText", "Model FLOPs exclude recompute (for MFU).")) });
    const char* recomputeFormula = T.recompute == Recompute::Full ? "(modelPerToken + 2*(N - k*V*h) + 4*L*s*w)*B*s"
        : T.recompute == Recompute::Selective ? (T.flashAttention ? "(modelPerToken + 2*M)*B*s" : "(modelPerToken + 2*M + 4*L*s*w)*B*s")
                                              : "modelPerToken*B*s";
    ex->add({ "flops.hardwarePerStep", out.hardwareFlopsPerStep, "FLOP", recomputeFormula,
        { { "modelPerToken", out.modelFlopsPerToken }, { "N", pc.matmulActivePerToken }, { "k", heads }, { "V", V },
            { "h", h }, { "M", modules }, { "L", L }, { "s", s }, { "w", w }, { "B", double(T.globalBatch) } },
        Text::join({ Text(sources::kMegatronFlops), Text(sources::kKorthikantiFlops) }, Text::Joint::List),
        { "flops.modelPerToken" },
        Text(PS_TEXT("CoreText",
            "Full recompute re-runs every layer's forward (Megatron: 96*B*s*L*h^2*(1 + s/(6h) + V/(16*h*L))); "
            "selective re-runs the attention scores (4*L*s*w per token; flash attention recomputes inside its kernel, "
            "counted as no extra) and the GEMMs of the other --recompute-modules (M weights per token: mlp, moe, "
            "shared_experts, mla_up_proj).")) });
    return extraPerToken;
}

StepTerms stepStage(const Inputs& in, Prediction& out, Explainer* ex)
{
    const TrainingSpec& T = in.T;
    const int p = in.p, v = in.v;
    const std::int64_t m = in.m;
    StepTerms st;
    st.slotMax = -1;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        const double slot = tm.forwardSeconds + tm.backwardSeconds + tm.p2pSeconds + tm.zeroExposedSeconds;
        if (slot > st.slotMax) {
            st.slotMax = slot;
            st.rb = r;
        }
    }
    const StageTime& bt = out.stageTimes[std::size_t(st.rb)];
    const double F = bt.forwardSeconds + bt.p2pSeconds / 2, B = bt.backwardSeconds + bt.p2pSeconds / 2;
    const double W = bt.weightGradSeconds, Z = bt.zeroExposedSeconds;
    const double slotMax = st.slotMax;
    double bubble = 0;
    const char* bubbleFormula = "0";
    switch (T.schedule) {
    case ScheduleKind::GPipe:
    case ScheduleKind::OneFOneB:
        bubble = (p - 1) * slotMax;
        bubbleFormula = "(p-1)*(F + B + Z)";
        break;
    case ScheduleKind::Interleaved1F1B:
    case ScheduleKind::LoopedBFS:
        bubble = (p - 1) * slotMax / v;
        bubbleFormula = "(p-1)*(F + B + Z)/v";
        break;
    case ScheduleKind::ZBH1:
        bubble = (p - 1) * std::max(0.0, F + (B - W) - W);
        bubbleFormula = "(p-1)*max(0, F + (B - W) - W)";
        break;
    case ScheduleKind::ZBH2:
        bubble = (p - 1) * std::max(0.0, F + (B - W) - 2 * W);
        bubbleFormula = "(p-1)*max(0, F + (B - W) - 2*W)";
        break;
    case ScheduleKind::ZBV:
        bubble = (p - 1) * std::max(0.0, (F + (B - W) - 2 * W) / 2);
        bubbleFormula = "(p-1)*max(0, (F + (B - W) - 2*W)/2)";
        break;
    case ScheduleKind::DualPipe:
        bubble = (p / 2.0 - 1) * std::max(0.0, (F + B) + B - 3 * W);
        bubbleFormula = "(p/2 - 1)*max(0, (F + B) + B - 3*W)";
        break;
    case ScheduleKind::DualPipeV:
        bubble = (p - 1) * std::max(0.0, ((F + B) + B - 3 * W) / 2);
        bubbleFormula = "(p-1)*max(0, ((F + B) + B - 3*W)/2)";
        break;
    }
    if (p == 1) {
        bubble = 0;
        bubbleFormula = "0";
    }
    st.bubble = bubble;
    const double slotComm = bt.p2pSeconds + bt.zeroExposedSeconds;
    const double pipeline = double(m) * slotMax + bubble;
    int rTail = 0, rOptimizer = 0;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        if (tm.dpExposedSeconds > st.dpTail) {
            st.dpTail = tm.dpExposedSeconds;
            rTail = r;
        }
        if (tm.optimizerSeconds > st.optimizer) {
            st.optimizer = tm.optimizerSeconds;
            rOptimizer = r;
        }
    }
    const double dpTail = st.dpTail, optimizer = st.optimizer;
    out.bubbleSeconds = bubble;
    out.computeSeconds = double(m) * (slotMax - slotComm - bt.layerCommSeconds);
    out.exposedCommSeconds = double(m) * (slotComm + bt.layerCommSeconds) + dpTail;
    out.optimizerSeconds = optimizer;
    out.stepSeconds = pipeline + dpTail + optimizer;
    out.analyticStepSeconds = out.stepSeconds;
    out.bubbleFraction = pipeline > 0 ? bubble / pipeline : 0.0;
    out.bubbleOverhead = m > 0 && slotMax > 0 ? bubble / (double(m) * slotMax) : 0.0;
    // Idle of all causes in the closed form: each rank works m slots of its own and waits the rest of the pipeline.
    double busyAll = 0;
    out.idleSeconds = 0;
    for (int r = 0; r < p; ++r) {
        const StageTime& tm = out.stageTimes[std::size_t(r)];
        const double busyR = double(m) * (tm.forwardSeconds + tm.backwardSeconds + tm.p2pSeconds + tm.zeroExposedSeconds);
        busyAll += busyR;
        out.idleSeconds = std::max(out.idleSeconds, pipeline - busyR);
    }
    out.idleFraction = pipeline > 0 && p > 0 ? std::max(0.0, 1.0 - busyAll / (double(p) * pipeline)) : 0.0;
    out.imbalanceIdleFraction = out.idleFraction - out.bubbleFraction;
    const double gpus = in.C.gpus();
    const double tokensPerStep = double(T.globalBatch) * in.s;
    out.mfu = out.modelFlopsPerStep / (out.stepSeconds * gpus * in.peak);
    out.hfu = out.hardwareFlopsPerStep / (out.stepSeconds * gpus * in.peak);
    out.tokensPerSecond = tokensPerStep / out.stepSeconds;
    out.trainingDays = T.tokens > 0 ? T.tokens / out.tokensPerSecond / units::kSecondsPerDay : 0.0;
    if (T.tokens <= 0)
        out.warnings.push_back(
            issue(Severity::Warning, "training.tokens", Text(PS_TEXT("CoreText", "not set; trainingDays is 0"))));
    if (!ex) return st;

    const std::string slowest = "time.stages." + std::to_string(st.rb) + ".";
    const FormulaInputs slotInputs { { "m", double(m) }, { "F", F }, { "B", B }, { "Z", Z } };
    auto withBubble = [&](FormulaInputs v) {
        v.emplace_back("bubble", bubble);
        return v;
    };
    ex->add({ "time.bubbleFraction", out.bubbleFraction, "1", "bubble/(m*(F + B + Z) + bubble)", withBubble(slotInputs),
        sources::kPipeline, { "time.bubbleSeconds" },
        Text::join({ Text(PS_TEXT("CoreText",
                         "The schedule's bubble as a share of the pipeline time, every rank taken at the slowest rank's "
                         "slot; F, B: the slowest rank's forward and backward of one microbatch with its p2p sends, Z: "
                         "its exposed ZeRO communication.")),
                       Text(PS_TEXT("CoreText", "For GPipe/1F1B with equal stages (p-1)/(m+p-1) = %1."),
                           units::formatNumber(double(p - 1) / double(m + p - 1))),
                       Text(PS_TEXT("CoreText",
                                "The other definition, idle over ideal compute, is bubbleOverhead = (p-1)/m = %1 (the "
                                "Megatron-LM paper's 'bubble time fraction')."),
                           units::formatNumber(m > 0 ? double(p - 1) / double(m) : 0.0)),
                       Text(PS_TEXT("CoreText", "Papers disagree because they divide by different things.")),
                       Text(PS_TEXT("CoreText", "Idle of every cause, unequal stages included, is time.idleFraction.")) },
            Text::Joint::Sentences) });
    ex->add({ "time.idleFraction", out.idleFraction, "1", "1 - busy/(p*pipeline)",
        { { "busy", busyAll }, { "p", double(p) }, { "pipeline", pipeline } }, sources::kPipeline, { "time.bubbleFraction" },
        Text::join({ Text(PS_TEXT("CoreText",
                         "Idle share of all ranks, whatever the cause; busy: every rank's m slots (its forward, backward, "
                         "sends and exposed ZeRO traffic per microbatch).")),
                       Text(PS_TEXT("CoreText",
                           "Ranks faster than the slowest wait for it in every slot on top of the schedule's bubble.")) },
            Text::Joint::Sentences) });
    ex->add({ "time.idleSeconds", out.idleSeconds, "seconds", "pipeline - m*slotMin",
        { { "pipeline", pipeline }, { "m", double(m) }, { "slotMin", m > 0 ? (pipeline - out.idleSeconds) / double(m) : 0.0 } },
        sources::kPipeline, {},
        Text(PS_TEXT("CoreText", "The most idle rank's idle time: the schedule's bubble plus its waits on the slowest rank.")) });
    ex->add({ "time.imbalanceIdleFraction", out.imbalanceIdleFraction, "1", "idleFraction - bubbleFraction",
        { { "idleFraction", out.idleFraction }, { "bubbleFraction", out.bubbleFraction } }, sources::kPipeline,
        { "time.idleFraction", "time.bubbleFraction" },
        Text(PS_TEXT("CoreText",
            "Idle the schedule's bubble does not explain: stages of unequal time (uneven layers, the output layer on the "
            "last stage) leave the faster ranks waiting for the slowest in every slot.")) });
    ex->add({ "time.bubbleOverhead", out.bubbleOverhead, "1", "bubble/(m*(F + B + Z))", withBubble(slotInputs),
        sources::kPipeline, { "time.bubbleSeconds" },
        Text(PS_TEXT("CoreText", "Idle time over ideal compute; (p-1)/m for GPipe/1F1B, (p-1)/(v*m) interleaved.")) });
    ex->add({ "time.bubbleSeconds", bubble, "seconds", bubbleFormula,
        { { "p", double(p) }, { "v", double(v) }, { "F", F }, { "B", B }, { "W", W }, { "Z", Z } },
        !traits(T.schedule).splitBackward ? sources::kPipeline
            : T.schedule == ScheduleKind::DualPipe || T.schedule == ScheduleKind::DualPipeV ? sources::kDualPipe
                                                                                            : sources::kZeroBubble,
        { slowest + "forwardSeconds", slowest + "backwardSeconds" },
        Text::join({ Text(PS_TEXT("CoreText",
                              "F, B: forward and full backward of one microbatch on the slowest rank (%1), each with half "
                              "its p2p sends; W: the weight-gradient part of B; Z: its exposed ZeRO-2/3 communication per "
                              "microbatch."),
                         st.rb),
                       Text(PS_TEXT("CoreText",
                           "B here is the full backward; the Zero Bubble paper's B is the input-gradient part I = B - W; "
                           "DualPipe's F&B (an overlapped forward and backward) is F + B.")) },
            Text::Joint::Sentences) });
    ex->add({ "time.computeSeconds", out.computeSeconds, "seconds", "m*(F + B - layerComm)",
        { { "m", double(m) }, { "F", bt.forwardSeconds }, { "B", bt.backwardSeconds }, { "layerComm", bt.layerCommSeconds } },
        sources::kMegatronFlops, { slowest + "forwardSeconds", slowest + "backwardSeconds" },
        Text(PS_TEXT("CoreText",
            "The slowest rank's microbatches back to back, without the TP/EP/CP collectives inside F and B.")) });
    ex->add({ "time.exposedCommSeconds", out.exposedCommSeconds, "seconds", "m*(layerComm + p2p + zeroExposed) + dpTail",
        { { "m", double(m) }, { "layerComm", bt.layerCommSeconds }, { "p2p", bt.p2pSeconds },
            { "zeroExposed", bt.zeroExposedSeconds }, { "dpTail", dpTail } },
        sources::kAlphaBeta, {},
        Text(PS_TEXT("CoreText",
                 "dpTail: the data-parallel communication not hidden, on the stage where it is largest (%1); gradient "
                 "reduction overlaps the last backward when overlapGradReduce is on."),
            rTail) });
    const StageParams sp = stageParams(in, rOptimizer);
    ex->add({ "time.optimizerSeconds", optimizer, "seconds",
        in.P.zero >= 1 ? "(P/n + Pe/ne)*(2*o + 2*w + g)/hbm" : "(P + Pe)*(2*o + 2*w + g)/hbm",
        { { "P", sp.dense }, { "Pe", sp.expert }, { "n", double(in.nShard) }, { "ne", double(in.nExpert) }, { "o", in.o },
            { "w", in.w }, { "g", in.g }, { "hbm", in.hbm } },
        Text(PS_TEXT("CoreText", "Memory-bound optimizer step: read weights, grads and states, write weights and states")),
        {},
        Text(PS_TEXT("CoreText",
                 "On stage %1, the slowest; P, Pe: its dense and expert parameters per GPU, sharded over n and ne from "
                 "ZeRO-1 on."),
            rOptimizer) });
    ex->add({ "time.stepSeconds", out.stepSeconds, "seconds", "compute + bubble + exposedComm + optimizer",
        { { "compute", out.computeSeconds }, { "bubble", bubble }, { "exposedComm", out.exposedCommSeconds },
            { "optimizer", optimizer } },
        Text(PS_TEXT("CoreText", "docs/MODEL.md section %1"), 7),
        { "time.computeSeconds", "time.bubbleSeconds", "time.exposedCommSeconds", "time.optimizerSeconds" },
        Text(PS_TEXT("CoreText",
                 "Each GEMM at its own shape's efficiency (the operator table, time.layerOps), at most %1 of the dense "
                 "%2 peak %3/s for large shapes."),
            units::formatNumber(in.eff), toString(T.precision), units::formatFlops(in.peak)) });
    ex->add({ "time.mfu", out.mfu, "1", "modelPerStep/(step*G*peak)",
        { { "modelPerStep", out.modelFlopsPerStep }, { "step", out.stepSeconds }, { "G", gpus }, { "peak", in.peak } },
        sources::kMfu, { "flops.modelPerStep", "time.stepSeconds" },
        Text(PS_TEXT("CoreText", "Peak is the dense datasheet number for the dtype (never the 'with sparsity' one).")) });
    ex->add({ "time.hfu", out.hfu, "1", "hardwarePerStep/(step*G*peak)",
        { { "hardwarePerStep", out.hardwareFlopsPerStep }, { "step", out.stepSeconds }, { "G", gpus }, { "peak", in.peak } },
        sources::kMfu, { "flops.hardwarePerStep", "time.stepSeconds" },
        Text(PS_TEXT("CoreText", "HFU counts recomputed FLOPs too.")) });
    ex->add({ "time.tokensPerSecond", out.tokensPerSecond, "tokens/s", "B*s/step",
        { { "B", double(T.globalBatch) }, { "s", in.s }, { "step", out.stepSeconds } }, sources::kDefinition,
        { "time.stepSeconds" }, {} });
    ex->add({ "time.trainingDays", out.trainingDays, "days", T.tokens > 0 ? "T/tokensPerSecond/86400" : "0",
        { { "T", T.tokens }, { "tokensPerSecond", out.tokensPerSecond } },
        Text(PS_TEXT("CoreText", "docs/MODEL.md section %1"), 5), { "time.tokensPerSecond" },
        Text(PS_TEXT("CoreText", "Megatron's rule of thumb 8*T*N/(n*X) assumes full recompute.")) });
    return st;
}

} // namespace planscope::evaluation
