// evaluate()'s memory stages: what one GPU of each pipeline stage holds (memory.stages.*: weights, gradients,
// optimizer states, activations, fp8 copies, the runtime's buffers; Rajbhandari et al. SC20, Korthikanti et al.
// MLSys 2023) and the summary over stages (memory.*).
#include "Stages.h"

#include "cost/Formula.h"
#include "cost/Kernels.h"
#include "cost/Operators.h"
#include "spec/ScheduleTraits.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace planscope::evaluation {

namespace {

// "o = master + the optimizer's moments (their dtype); f = ..." of the optimizer-state note.
Text optimizerStates(Optimizer optimizer, bool precisionAware, const std::string& master, const std::string& moment,
    const std::string& dtype)
{
    const Text states = optimizer == Optimizer::Adam ? Text(PS_TEXT("CoreText", "2 Adam moments of %1 bytes"), moment)
        : optimizer == Optimizer::Muon             ? Text(PS_TEXT("CoreText", "1 Muon momentum of %1 bytes"), moment)
                                                   : Text(PS_TEXT("CoreText", "1 SGD momentum of %1 bytes"), moment);
    const Text stateDtype = precisionAware
        ? Text(PS_TEXT("CoreText", "optimizerStateDtype %1: Megatron-Core's precision-aware optimizer, --exp-avg-dtype"), dtype)
        : Text(PS_TEXT("CoreText", "optimizerStateDtype %1"), dtype);
    return Text(PS_TEXT("CoreText", "o = %1 (fp32 master weights) + %2 (%3); f = the share offloaded to the host "
                                    "(training.offload.optimizerFraction)."),
        master, states, stateDtype);
}

// One saved tensor of a layer in the activation note: "name 1.5 MiB", "(fp8)", "(recomputed: module)".
Text activationTerm(const ActivationTerm& term)
{
    const std::string bytes = units::formatBytes(term.bytes);
    if (term.recomputed)
        return term.fp8 ? Text(PS_TEXT("CoreText", "%1 %2 (fp8) (recomputed: %3)"), term.name, bytes, term.module)
                        : Text(PS_TEXT("CoreText", "%1 %2 (recomputed: %3)"), term.name, bytes, term.module);
    if (term.fp8) return Text(PS_TEXT("CoreText", "%1 %2 (fp8)"), term.name, bytes);
    return Text::verbatim(term.name + " " + bytes); // a name and a size: nothing to translate
}

} // namespace

void memoryStage(const Inputs& in, int r, int groupsOfRank, Prediction& out, Explainer* ex)
{
    const ModelSpec& M = in.M;
    const ParallelSpec& P = in.P;
    const TrainingSpec& T = in.T;
    const ParameterCounts& pc = in.pc;
    const RankShape& sh = in.shapes[std::size_t(r)];
    const double w = in.w, g = in.g, o = in.o, e = in.e, sl = in.sl, b = in.b, h = in.h, V = in.V;
    const int t = in.t;
    StageMemory& st = out.stages[std::size_t(r)];
    st.stage = r;
    st.layers = sh.layersHeld;
    st.embedding = sh.embedding;
    st.output = sh.output;

    // Parameters: the stage's layers, plus the embedding on the first, the output layer on the last (a tied
    // embedding is kept as a second copy on the last stage when the two are on different ranks).
    const double embParams = pc.embedding + pc.positions + pc.embeddingNorm;
    const double ownOutput = M.tiedEmbeddings ? 0.0 : pc.outputLayer;
    out.paramsPerStage[std::size_t(r)] = pc.layersOf(sh.layersHeld, sh.denseLayersHeld) + sh.mtpHeld * pc.mtpModule
        + (sh.embedding ? embParams : 0.0) + (sh.output ? ownOutput + pc.finalNorm : 0.0);
    st.denseLayers = sh.denseLayersHeld;
    st.mtpLayers = sh.mtpHeld;
    if (ex)
        ex->add({ "params.perStage." + std::to_string(r), out.paramsPerStage[std::size_t(r)], "parameters",
            "(layers - dense)*layer + dense*denseLayer + mtp*mtpModule + first*(embedding + positions + embeddingNorm) "
            "+ last*(outputLayer + finalNorm)",
            { { "layers", double(sh.layersHeld) }, { "layer", pc.layer.total() }, { "dense", double(sh.denseLayersHeld) },
                { "denseLayer", pc.denseLayer.total() }, { "mtp", double(sh.mtpHeld) }, { "mtpModule", pc.mtpModule },
                { "first", sh.embedding ? 1.0 : 0.0 },
                { "embedding", pc.embedding }, { "positions", pc.positions }, { "embeddingNorm", pc.embeddingNorm },
                { "last", sh.output ? 1.0 : 0.0 }, { "outputLayer", ownOutput }, { "finalNorm", pc.finalNorm } },
            sources::kMegatronParams, {},
            Text(PS_TEXT("CoreText", "All parameters of this pipeline stage across its tp ranks (first, last: 1 when the "
                                     "stage holds the embedding, the output layer); memory below is per GPU.")) });

    const StageParams sp = stageParams(in, r);
    const double Pd = sp.dense, Pe = sp.expert;
    st.parameters = Pd + Pe;
    const bool fp8 = T.precision == Precision::FP8;
    const double shardW = P.zero >= 3 ? Pd / in.nShard + Pe / in.nExpert : Pd + Pe;
    const double shardG = P.zero >= 2 ? Pd / in.nShard + Pe / in.nExpert : Pd + Pe;
    const double shardO = P.zero >= 1 ? Pd / in.nShard + Pe / in.nExpert : Pd + Pe;
    // The weights of this rank's fp8 GEMMs (per GPU, before ZeRO), and of one of its layers.
    const int moeHeld = sh.layersHeld - sh.denseLayersHeld;
    const double Pf8 = moeHeld * in.layerF8Gpu + sh.denseLayersHeld * in.denseF8Gpu + sh.mtpHeld * in.mtpF8Gpu;
    const double shardF8 = P.zero >= 3 ? Pf8 * shardW / std::max(1.0, Pd + Pe) : Pf8;
    const double paramBytes = fp8 && T.fp8ParamGather ? w * shardW - (w - 1.0) * shardF8 : w * shardW;
    // Under ZeRO-3 the fp8 copies exist for the gathered layers only: the current one and the prefetched next.
    const int units = sh.layersHeld + sh.mtpHeld;
    const double cachedF8 = P.zero >= 3 ? (units > 0 ? std::min(2.0, double(units)) * Pf8 / units : 0.0) : Pf8;
    st.fp8WeightCacheBytes = std::llround(in.fp8Cache * cachedF8);
    // Scaling state: delayed scaling keeps an amax history (1024 steps in NeMo's and Megatron-Bridge's fp8 recipes)
    // plus scale and inverse scale for the input, weight and gradient of every fp8 GEMM; current scaling only the
    // scales; blockwise one fp32 scale per 128x128 weight block (DeepSeek-V3, arXiv 2412.19437, section 3.3.1);
    // MXFP8's e8m0 scales travel with its copies (counted there).
    const double localExperts = M.isMoe() ? double(M.moe.experts) / std::max(1, in.ep) : 0.0;
    const double gemmsPerLayer = (M.mla.enabled() ? (M.mla.qLoraRank > 0 ? 5.0 : 4.0) : 2.0) + 2.0;
    const double fp8Gemms = fp8 ? units * gemmsPerLayer + (moeHeld + (M.isMoe() ? sh.mtpHeld : 0)) * 2.0 * localExperts : 0.0;
    double scaling = 0;
    if (fp8) {
        switch (T.fp8Recipe) {
        case Fp8Recipe::Delayed: scaling = fp8Gemms * 3.0 * (kAmaxHistory + 2.0) * 4.0; break;
        case Fp8Recipe::Current: scaling = fp8Gemms * 3.0 * 2.0 * 4.0; break;
        case Fp8Recipe::Blockwise: scaling = cachedF8 / (128.0 * 128.0) * 4.0 * (T.fp8ParamGather ? 1.0 : 2.0); break;
        case Fp8Recipe::MxFp8: break;
        }
    }
    st.fp8ScalingBytes = std::llround(scaling);
    st.weightsBytes = std::llround(paramBytes) + st.fp8WeightCacheBytes + st.fp8ScalingBytes;
    st.gradientsBytes = std::llround(g * shardG);
    // Optimizer state, a share of it on the host (Megatron-Core's hybrid device optimizer, --optimizer-cpu-offload
    // with --optimizer-offload-fraction; ZeRO-Offload, Ren et al., USENIX ATC 2021): the host also keeps an fp32 copy
    // of the offloaded share's gradients.
    const double off = std::clamp(T.offload.optimizerFraction, 0.0, 1.0);
    // Muon keeps Adam's second moment for what it leaves to Adam (the embedding, the output layer).
    const double adamShare = T.optimizer == Optimizer::Muon ? muonAdamParams(in, r) / (P.zero >= 1 ? in.nShard : 1) : 0.0;
    const double moment2 = T.optimizer == Optimizer::Muon ? in.moment : 0.0;
    st.optimizerBytes = std::llround((1.0 - off) * (o * shardO + moment2 * adamShare));
    st.offloadedOptimizerBytes = std::llround(off * o * shardO);
    st.hostBytes = std::llround(off * (o + 4.0) * shardO);
    // Explanations are recorded under memory.stages.<r>. (built only when explaining).
    auto fieldBase = [r] { return "memory.stages." + std::to_string(r) + "."; };
    if (ex) {
        const std::string base = fieldBase();
        const FormulaInputs inputs { { "w", w }, { "g", g }, { "o", o }, { "P", Pd }, { "Pe", Pe },
            { "n", double(in.nShard) }, { "ne", double(in.nExpert) } };
        // floor(x + 0.5): the byte count is rounded to a whole byte.
        auto shard = [](bool sharded, const char* bytes) {
            return std::string(bytes) + (sharded ? "*(P/n + Pe/ne)" : "*(P + Pe)");
        };
        const Text zeroNote = Text::join(
            { Text(PS_TEXT("CoreText", "ZeRO-%1 over n = %2 ranks (dp*cp, or the node under hybrid sharding): stage 1 "
                                       "shards optimizer states, 2 also gradients, 3 also weights; (w+g+o), w+g+o/n, "
                                       "w+(g+o)/n, (w+g+o)/n."),
                  P.zero, in.nShard),
                Text(PS_TEXT("CoreText", "P = dense parameters on this GPU after tp (%1), Pe = routed-expert parameters "
                                         "after ep*etp (%2*%3), ne = the expert data-parallel size tp*dp*cp/(etp*ep) "
                                         "(Megatron-Core shards expert optimizer states over that group, not the dense "
                                         "one)."),
                    t, in.ep, in.etp) },
            Text::Joint::Sentences);
        if (fp8) {
            ex->add({ base + "fp8WeightCacheBytes", double(st.fp8WeightCacheBytes), "bytes", "floor(c*F + 0.5)",
                { { "c", in.fp8Cache }, { "F", cachedF8 } }, sources::transformerEngineFp8(), {},
                Text::join(
                    { P.zero >= 3
                            ? Text(PS_TEXT("CoreText",
                                  "F: weights of this GPU's fp8 GEMMs (attention projections, MLP, experts; not the "
                                  "embedding, output layer, router or norms), for the two gathered layers under ZeRO-3; "
                                  "c: bytes of fp8 copies per weight (2: the forward cast and the transposed copy for "
                                  "dgrad; 1 with fp8ParamGather, where the parameter is the forward copy; MXFP8 adds 1/32 "
                                  "per copy for its block scales)."))
                            : Text(PS_TEXT("CoreText",
                                  "F: weights of this GPU's fp8 GEMMs (attention projections, MLP, experts; not the "
                                  "embedding, output layer, router or norms); c: bytes of fp8 copies per weight (2: the "
                                  "forward cast and the transposed copy for dgrad; 1 with fp8ParamGather, where the "
                                  "parameter is the forward copy; MXFP8 adds 1/32 per copy for its block scales).")),
                        Text(PS_TEXT("CoreText", "The copies live from the first microbatch to the optimizer step.")) },
                    Text::Joint::Sentences) });
            ex->add({ base + "fp8ScalingBytes", double(st.fp8ScalingBytes), "bytes",
                T.fp8Recipe == Fp8Recipe::Delayed ? "floor(G*3*(H + 2)*4 + 0.5)"
                    : T.fp8Recipe == Fp8Recipe::Current ? "floor(G*3*2*4 + 0.5)"
                    : T.fp8Recipe == Fp8Recipe::Blockwise ? "floor(F/16384*4*k + 0.5)" : "0",
                { { "G", fp8Gemms }, { "H", kAmaxHistory }, { "F", cachedF8 }, { "k", T.fp8ParamGather ? 1.0 : 2.0 } },
                sources::transformerEngineFp8(), {},
                Text(PS_TEXT("CoreText", "G: fp8 GEMMs on this GPU (per layer the attention projections and fc1/fc2, per "
                                         "local expert its two GEMMs); each keeps the scale, the inverse scale and "
                                         "(delayed scaling) an amax history of H steps for its input, weight and "
                                         "gradient, fp32.")) });
        }
        ex->add({ base + "weightsBytes", double(st.weightsBytes), "bytes",
            "floor(" + std::string(fp8 && T.fp8ParamGather ? shard(P.zero >= 3, "w") + " - (w - 1)*F8" : shard(P.zero >= 3, "w"))
                + " + 0.5) + fp8Cache + fp8Scaling",
            { { "w", w }, { "P", Pd }, { "Pe", Pe }, { "n", double(in.nShard) }, { "ne", double(in.nExpert) },
                { "F8", shardF8 }, { "fp8Cache", double(st.fp8WeightCacheBytes) }, { "fp8Scaling", double(st.fp8ScalingBytes) } },
            sources::kZero, {},
            Text::join({ fp8 ? Text(PS_TEXT("CoreText", "w = %1 bytes per weight (%2: Transformer Engine keeps bf16 "
                                                        "parameters unless fp8ParamGather, where the fp8 GEMMs' weights F8 "
                                                        "are stored in fp8)."),
                                   units::formatNumber(w), std::string(toString(T.precision)))
                             : Text(PS_TEXT("CoreText", "w = %1 bytes per weight (%2)."), units::formatNumber(w),
                                   std::string(toString(T.precision))),
                           zeroNote },
                Text::Joint::Sentences) });
        ex->add({ base + "gradientsBytes", double(st.gradientsBytes), "bytes", "floor(" + shard(P.zero >= 2, "g") + " + 0.5)",
            inputs, sources::kZero, {},
            Text::join({ Text(PS_TEXT("CoreText", "g = %1 bytes per gradient (gradDtype %2; Megatron keeps fp32 main "
                                                  "grads under bf16)."),
                             units::formatNumber(g), std::string(toString(T.gradDtype))),
                           zeroNote },
                Text::Joint::Sentences) });
        const bool muon = T.optimizer == Optimizer::Muon;
        ex->add({ base + "optimizerBytes", double(st.optimizerBytes), "bytes",
            muon ? "floor((1 - f)*(" + shard(P.zero >= 1, "o") + " + m2*A) + 0.5)" : "floor((1 - f)*" + shard(P.zero >= 1, "o") + " + 0.5)",
            muon ? with(inputs, { { "f", off }, { "m2", moment2 }, { "A", adamShare } }) : with(inputs, { { "f", off } }),
            Text::join({ Text(sources::kZero), Text(sources::kMegatronOptimizer) }, Text::Joint::List), {},
            Text::join({ muon ? Text(PS_TEXT("CoreText", "Muon (Megatron-Core TensorParallelMuon): one momentum per 2-D "
                                                         "weight; the embedding and the output layer take Adam, whose "
                                                         "second moment m2 adds for their A parameters on this GPU (after "
                                                         "tp and ZeRO)."))
                              : Text(),
                           optimizerStates(T.optimizer, T.optimizerStateDtype != Precision::FP32,
                               units::formatNumber(in.master), units::formatNumber(in.moment),
                               std::string(toString(T.optimizerStateDtype))),
                           zeroNote },
                Text::Joint::Sentences) });

    }

    // Activations: per microbatch, the layers of this rank's chunks (dense and MoE layers, MTP modules), with full
    // recompute of N layers (uniform groups or the first N of each chunk) and activation offload of a chunk's first
    // layers; held for `inflight` microbatch-equivalents.
    const double inflight = inFlightMicrobatches(T.schedule, in.p, in.m, in.v, r);
    st.inFlightMicrobatches = inflight;
    st.activationsPerLayerBytes = std::llround(in.act.stored);
    st.denseActivationsPerLayerBytes = std::llround(in.actDense.stored);
    const double spDiv = P.sp ? t : 1.0;
    const double embAct = sh.embedding
        ? (M.dropout ? 1.0 : 0.0) * sl * b * h / spDiv + (M.embeddingNorm ? e * sl * b * h / spDiv : 0.0)
        : 0.0;
    const double headAct = 2.0 * e * sl * b * h / spDiv + 4.0 * sl * b * V / t; // final norm, output input, fp32 logits
    const double outAct = sh.output ? headAct : 0.0;
    // An MTP module keeps its layer's tensors, the two norms' inputs and the 2h-wide projection input, and its own head.
    const LayerActivations& mtpLayerAct = M.isMoe() && in.pc.moeLayers > 0 ? in.act : in.actDense;
    const double mtpAct = mtpLayerAct.stored + 4.0 * e * sl * b * h / spDiv + headAct;
    st.mtpActivationBytes = sh.mtpHeld > 0 ? std::llround(mtpAct) : 0;
    const bool fullRecompute = T.recompute == Recompute::Full;
    const int N = T.recomputeLayers;
    double perMicrobatch = 0, offloaded = 0, workspace = 0;
    forEachRankStage(in, r, [&](const VirtualStage& vs) {
        const int Lc = vs.layers, Dc = vs.denseLayers, Mc = Lc - Dc;
        const double stored = Mc * in.act.stored + Dc * in.actDense.stored;
        const double fullBytes = Mc * in.act.full + Dc * in.actDense.full;
        const double avgFull = Lc > 0 ? fullBytes / Lc : 0.0;
        const double maxFull = std::max(Mc > 0 ? in.act.full : 0.0, Dc > 0 ? in.actDense.full : 0.0);
        double chunk = stored;
        if (fullRecompute && Lc > 0) {
            if (T.recomputeBlock) {
                // --recompute-method block: the first N layers of each chunk keep only their input, the rest all.
                const int rec = N > 0 ? std::min(N, Lc) : Lc;
                chunk = rec * in.act.input + (Lc - rec) * avgFull;
                workspace = std::max(workspace, maxFull);
            } else {
                // --recompute-method uniform: groups of N layers keep their input; a group is rebuilt at once.
                const int group = std::max(1, N);
                chunk = std::ceil(double(Lc) / group) * in.act.input;
                workspace = std::max(workspace, std::min(group, Lc) * maxFull);
            }
        }
        // Activation offload (Transformer Engine, Megatron --cpu-offloading-num-layers): the first layers of a chunk
        // wait in host memory; the last stays for the first backward.
        const int Lo = std::min(T.offload.activationLayers, std::max(0, Lc - 1));
        const double perLayer = Lc > 0 ? chunk / Lc : 0.0;
        offloaded += Lo * perLayer;
        perMicrobatch += chunk - Lo * perLayer + vs.mtpLayers * mtpAct;
        st.chunkActivationBytes.push_back(std::llround(chunk - Lo * perLayer + vs.mtpLayers * mtpAct
            + (vs.embedding ? embAct : 0.0) + (vs.loss ? headAct : 0.0)));
    });
    const double activations = inflight * (perMicrobatch + embAct + outAct) + workspace;
    st.activationsBytes = std::llround(activations);
    st.offloadedActivationBytes = std::llround(inflight * offloaded);
    st.hostBytes += st.offloadedActivationBytes;
    st.embeddingActivationBytes = std::llround(embAct);
    st.outputActivationBytes = std::llround(outAct);
    st.recomputeWorkspaceBytes = std::llround(workspace);
    if (ex) {
        const std::string base = fieldBase();
        const ScheduleKind k = T.schedule;
        const char* inflightFormula = k == ScheduleKind::GPipe || k == ScheduleKind::LoopedBFS ? "m"
            : k == ScheduleKind::OneFOneB || (k == ScheduleKind::Interleaved1F1B && in.v <= 1) ? "min(p - r, m)"
            : k == ScheduleKind::Interleaved1F1B ? "min(2*(p-r-1) + (v-1)*p + 1, m*v)/v"
            : k == ScheduleKind::ZBH2            ? "min(2*p - 1, m)"
            : k == ScheduleKind::DualPipe        ? "min(p + 1, m)/2"
            : k == ScheduleKind::DualPipeV       ? "min(2*p + 1, 2*m)/2"
                                                 : "min(p, m)";
        ex->add({ base + "inFlightMicrobatches", inflight, "microbatches", inflightFormula,
            { { "p", double(in.p) }, { "r", double(r) }, { "m", double(in.m) }, { "v", double(in.v) } },
            Text(PS_TEXT("CoreText", "docs/SCHEDULES.md section 1.7 and the schedule's own section")), {},
            Text::join({ Text(PS_TEXT("CoreText", "Microbatch-equivalents of activations held at the peak; a chunk "
                                                  "counts 1/v.")),
                           Text(PS_TEXT("CoreText", "GPipe holds all m, 1F1B holds p - r: the same bubble, less memory.")) },
                Text::Joint::Sentences) });
        std::vector<Text> terms;
        terms.reserve(in.act.terms.size());
        for (const ActivationTerm& term : in.act.terms) terms.push_back(activationTerm(term));
        std::string layerFormula;
        if (fullRecompute)
            layerFormula = P.sp ? "e*s*b*h/t" : "e*s*b*h";
        else {
            layerFormula = P.sp ? "s*b*h*(c1 + c2)/t" : "s*b*h*(c1 + c2/t)";
            if (in.act.replicatedCoeff > 0) layerFormula += " + s*b*h*c3";
            if (T.flashAttention) layerFormula += " + 4*a*s*b/t";
            else layerFormula += " + k*a*s*s*b/t";
            if (T.recompute == Recompute::Selective) layerFormula += " - recomputed";
        }
        double recomputed = 0;
        for (const ActivationTerm& term : in.act.terms)
            if (term.recomputed) recomputed += term.bytes;
        ex->add({ base + "activationsPerLayerBytes", double(st.activationsPerLayerBytes), "bytes",
            "floor(" + layerFormula + " + 0.5)",
            { { "s", sl }, { "b", b }, { "h", h }, { "a", double(M.heads) }, { "t", double(t) },
                { "c1", in.act.nonParallelCoeff }, { "c2", in.act.parallelCoeff }, { "c3", in.act.replicatedCoeff },
                { "k", in.act.scoresFullCoeff }, { "e", e }, { "recomputed", recomputed } },
            sources::kKorthikanti, {},
            Text::join(
                { M.isMoe() ? Text(PS_TEXT("CoreText", "Per layer, per microbatch, per GPU (s = seqLength/cp), an MoE layer."))
                            : Text(PS_TEXT("CoreText", "Per layer, per microbatch, per GPU (s = seqLength/cp).")),
                    Text(PS_TEXT("CoreText", "Korthikanti's Table 2 has c1 = 10, c2 = 24, k = 5 for f = 4h with dropout; "
                                             "here each saved tensor is derived from the block: %1."),
                        Text::join(std::move(terms), Text::Joint::List)),
                    Text(PS_TEXT("CoreText", "Flash attention keeps the fp32 logsumexp instead of the scores; selective "
                                             "recompute drops the tensors of the modules it re-runs (--recompute-modules, "
                                             "core_attn by default); under fp8 Transformer Engine saves GEMM inputs as "
                                             "fp8; full recompute keeps only the layer input (divided by t under "
                                             "sequence parallelism).")) },
                Text::Joint::Sentences) });
        ex->add({ base + "activationsBytes", double(st.activationsBytes), "bytes",
            "floor(inflight*(layers*perLayer + mtp + firstExtra + lastExtra) + workspace + 0.5)",
            { { "inflight", inflight }, { "layers", double(sh.layersHeld) },
                { "perLayer", sh.layersHeld > 0 ? (perMicrobatch - sh.mtpHeld * mtpAct) / sh.layersHeld : 0.0 },
                { "mtp", sh.mtpHeld * mtpAct },
                { "firstExtra", embAct }, { "lastExtra", outAct }, { "workspace", workspace } },
            sources::kKorthikanti, { base + "inFlightMicrobatches", base + "activationsPerLayerBytes" },
            Text(PS_TEXT("CoreText", "perLayer: one microbatch's bytes per layer, averaged over this rank's %1 layers "
                                     "(%2); mtp: MTP modules (a layer, the projection input and their own fp32 logits); "
                                     "firstExtra: embedding dropout mask and embedding norm input; lastExtra: final norm "
                                     "and output-layer inputs plus fp32 logits 4*s*b*V/t for the loss; workspace: the "
                                     "full activations of what is recomputed at once."),
                sh.layersHeld,
                Text::join(
                    { Text(PS_TEXT("CoreText", "%1 with the dense MLP at %2 each"), sh.denseLayersHeld,
                          units::formatBytes(in.actDense.stored)),
                        !fullRecompute ? Text()
                            : T.recomputeBlock
                            ? Text(PS_TEXT("CoreText", "full recompute of the first N of each chunk, N = %1"), std::max(1, N))
                            : Text(PS_TEXT("CoreText", "full recompute in groups of N, N = %1"), std::max(1, N)),
                        T.offload.activationLayers > 0 ? Text(PS_TEXT("CoreText", "less the offloaded layers")) : Text() },
                    Text::Joint::List)) });
        if (st.hostBytes > 0)
            ex->add({ base + "hostBytes", double(st.hostBytes), "bytes", "floor(f*(o + 4)*(P/n + Pe/ne) + 0.5) + offloadedActivations",
                { { "f", off }, { "o", o }, { "P", Pd }, { "Pe", Pe }, { "n", double(P.zero >= 1 ? in.nShard : 1) },
                    { "ne", double(P.zero >= 1 ? in.nExpert : 1) }, { "offloadedActivations", double(st.offloadedActivationBytes) } },
                sources::zeroOffload(), {},
                Text(PS_TEXT("CoreText", "Host memory this GPU's offload takes: the offloaded optimizer share's master "
                                         "weights and moments (o bytes per parameter) and an fp32 copy of its gradients "
                                         "(4), and the activations waiting on the host.")) });
        if (T.offload.activationLayers > 0)
            ex->add({ base + "offloadedActivationBytes", double(st.offloadedActivationBytes), "bytes",
                "floor(inflight*offloaded + 0.5)", { { "inflight", inflight }, { "offloaded", offloaded } },
                sources::activationOffload(), {},
                Text(PS_TEXT("CoreText", "offloaded: the saved activations of min(activationLayers, layers - 1) layers of "
                                         "each chunk for one microbatch; they occupy host memory instead of the GPU.")) });
    }

    // Buffers, temporaries and the allocator (core/cost/Runtime.h, docs/MODEL.md section 4).
    const RuntimeInputs rt { in.plan, in.layout, r, sh.embedding, sh.output, sh.layersHeld > 0, groupsOfRank, Pd + Pe,
        in.layerDenseGpu + in.layerExpertGpu, w, g, e, sl, b, V, t };
    runtimeBuffers(rt, st, ex, fieldBase());
}

void memorySummary(const Inputs& in, Prediction& out, Explainer* ex)
{
    const GpuSpec& gpu = in.C.gpu;
    for (const StageMemory& st : out.stages)
        if (st.totalBytes > out.peakBytes) {
            out.peakBytes = st.totalBytes;
            out.peakStage = st.stage;
        }
    out.fits = out.peakBytes <= out.capacityBytes;
    const double headroom = std::clamp(in.plan.overheads.headroom, 0.0, 1.0);
    out.usableBytes = std::llround(double(out.capacityBytes) * (1.0 - headroom));
    out.fitsWithHeadroom = out.peakBytes <= out.usableBytes;
    std::int64_t host = 0;
    for (const StageMemory& st : out.stages) host = std::max(host, st.hostBytes);
    out.hostBytesPerNode = host * in.C.gpusPerNode;
    if (ex && host > 0)
        ex->add({ "memory.hostBytesPerNode", double(out.hostBytesPerNode), "bytes", "gpusPerNode*max(hostBytes)",
            { { "gpusPerNode", double(in.C.gpusPerNode) }, { "hostBytes", double(host) } }, sources::zeroOffload(), {},
            Text(PS_TEXT("CoreText", "Host memory the offloaded optimizer share (with its fp32 gradients) and offloaded "
                                     "activations take on one node, from the stage that offloads most.")) });
    if (!out.fits)
        out.warnings.push_back(issue(Severity::Warning, "memory",
            Text(PS_TEXT("CoreText", "stage %1 needs %2, more than the %3 of a %4 by %5"), out.peakStage,
                units::formatBytes(double(out.peakBytes)), units::formatBytes(double(out.capacityBytes)), gpu.id,
                units::formatBytes(double(out.peakBytes - out.capacityBytes)))));
    else if (!out.fitsWithHeadroom)
        out.warnings.push_back(issue(Severity::Warning, "memory",
            Text(PS_TEXT("CoreText", "stage %1 leaves %2 free, less than the %3 headroom (memoryOverheads.headroom) that "
                                     "covers the memory model's measured error; the planner does not count it as fitting"),
                out.peakStage, units::formatBytes(double(out.capacityBytes - out.peakBytes)),
                units::formatBytes(double(out.capacityBytes - out.usableBytes)))));
    if (!ex) return;
    ex->add({ "memory.capacityBytes", double(out.capacityBytes), "bytes", "memoryBytes",
        { { "memoryBytes", double(gpu.memoryBytes) } },
        Text(PS_TEXT("CoreText", "GPU preset \"%1\" (see resources/presets/gpus.json)"), gpu.id), {},
        Text(PS_TEXT("CoreText", "The GPU's memory (cluster.gpu.memoryBytes).")) });
    ex->add({ "memory.usableBytes", double(out.usableBytes), "bytes", "floor(capacity*(1 - headroom) + 0.5)",
        { { "capacity", double(out.capacityBytes) }, { "headroom", headroom } }, Text(PS_TEXT("CoreText", "docs/MEMORY-ACCURACY.md (the headroom)")),
        { "memory.capacityBytes" },
        Text(PS_TEXT("CoreText", "The peak a plan may reach and still leave the headroom (memoryOverheads.headroom) that "
                                 "covers what the memory model missed on published runs; the planner counts a plan as "
                                 "fitting only below it.")) });
    std::vector<double> totals;
    for (const StageMemory& st : out.stages) totals.push_back(double(st.totalBytes));
    auto [formula, inputs] = maxOverFormula("stage", totals);
    ex->add({ "memory.peakBytes", double(out.peakBytes), "bytes", formula, inputs,
        Text(PS_TEXT("CoreText", "docs/MODEL.md sections 2-4")),
        { "memory.stages." + std::to_string(out.peakStage) + ".totalBytes" },
        Text::join({ Text(PS_TEXT("CoreText", "stageN: totalBytes of pipeline stage N.")),
                       Text(PS_TEXT("CoreText", "Stage %1 holds the most."), out.peakStage) },
            Text::Joint::Sentences) });
}

} // namespace planscope::evaluation
