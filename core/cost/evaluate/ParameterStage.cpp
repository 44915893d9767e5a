// evaluate()'s first stage: the parameter counts (params.*) and the per-parameter byte counts and rates the
// later stages read (core/cost/Parameters.h; Narayanan et al. SC21 eq. 2).
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

void parameterStage(Inputs& in, Prediction& out, Explainer* ex)
{
    const ParameterCounts& pc = in.pc;
    out.paramsTotal = pc.total;
    out.paramsActive = pc.active;
    if (ex) {
        const LayerParameters& l = pc.layer;
        const LayerParameters& d = pc.denseLayer;
        ex->add({ "params.total", pc.total, "parameters",
            "moeLayers*(attn + attnRep + shared + colBiases + rowBiases + norms + router + experts) + denseLayers*dense "
            "+ mtp*mtpModule + embedding + positions + embeddingNorm + outputLayer + finalNorm",
            { { "moeLayers", double(pc.moeLayers) }, { "attn", l.attentionMatrices }, { "attnRep", l.attentionReplicated },
                { "shared", l.mlpMatrices }, { "colBiases", l.columnBiases }, { "rowBiases", l.rowBiases },
                { "norms", l.norms }, { "router", l.router }, { "experts", l.routedExperts },
                { "denseLayers", double(pc.denseLayers) }, { "dense", d.total() }, { "mtp", double(in.M.mtpLayers) },
                { "mtpModule", pc.mtpModule }, { "embedding", pc.embedding }, { "positions", pc.positions },
                { "embeddingNorm", pc.embeddingNorm }, { "outputLayer", pc.outputLayer }, { "finalNorm", pc.finalNorm } },
            sources::kMegatronParams, {},
            Text::join(
                { Text(PS_TEXT("CoreText",
                           "%1; a dense layer's MLP is %2*h*f; an MoE layer holds E routed experts of %3*h*f_e each "
                           "(sharded by ep x etp), shared experts as a dense MLP, the router h*E; an MTP module is two "
                           "norms, the 2h x h projection, one layer and a norm (DeepSeek-V3 section 2.2; embedding and "
                           "output head shared)."),
                      in.M.mla.enabled()
                          ? Text(PS_TEXT("CoreText",
                                "attn = q_up + kv_up + O = q*a*(dn + dr) + kv*a*(dn + dv) + a*dv*h and attnRep = the down "
                                "projections h*q + h*(kv + dr) and their latent norms (MLA, DeepSeek-V2 section 2.1; q = "
                                "qLoraRank, kv = kvLoraRank, dn/dr = qk nope/rope head dims, dv = v head dim)"))
                          : in.M.qkNorm
                          ? Text(PS_TEXT("CoreText",
                                "attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V), attnRep = "
                                "2*d (the per-head q/k norms)"))
                          : Text(PS_TEXT("CoreText",
                                "attn = h*a*d + 2*h*kv*d + a*d*h (Q, K, V, O; d = headDim, GQA shrinks K and V)")),
                      in.M.gatedMlp ? 3 : 2, in.M.gatedMlp ? 3 : 2),
                    Text(PS_TEXT("CoreText", "embedding = V*h; outputLayer = V*h when untied.")),
                    Text(PS_TEXT("CoreText",
                        "Megatron's GPT form N = 12*L*h^2*(1 + 13/(12h) + (V+s)/(12*L*h)) is the case f = 4h, LayerNorm "
                        "with biases, learned positions, tied embeddings (plus the final norm, 2h).")),
                    in.M.isMoe() ? Text(PS_TEXT("CoreText", "Active per token: %1 (with the embedding)."),
                                       units::formatCount(pc.active))
                                 : Text() },
                Text::Joint::Sentences) });
    }
    // Per GPU: tp splits the column/row matrices and biases; MLA's down projections, norms and the router are
    // replicated; routed experts are split by ep x etp.
    auto nonExpertGpu = [&](const LayerParameters& l) {
        return (l.attentionMatrices + l.mlpMatrices + l.columnBiases) / in.t + l.attentionReplicated + l.rowBiases + l.norms
            + l.router;
    };
    in.layerDenseGpu = nonExpertGpu(pc.layer);
    in.denseLayerGpu = nonExpertGpu(pc.denseLayer);
    in.layerExpertGpu = pc.layer.routedExperts / (double(in.ep) * in.etp);
    const bool mtpMoe = in.M.isMoe() && pc.moeLayers > 0;
    const double normParams = in.M.norm == NormKind::LayerNorm ? 2.0 * in.h : in.h;
    in.mtpDenseGpu = 3.0 * normParams + 2.0 * in.h * in.h / in.t + (mtpMoe ? in.layerDenseGpu : in.denseLayerGpu);
    in.mtpExpertGpu = mtpMoe ? in.layerExpertGpu : 0.0;
    // Transformer Engine runs the layers' linear layers in fp8 (attention projections, MLP, experts); the embedding,
    // the output layer, the router and the norms stay in bf16.
    auto fp8Gpu = [&](const LayerParameters& l) {
        return (l.attentionMatrices + l.mlpMatrices) / in.t + l.attentionReplicated + l.routedExperts / (double(in.ep) * in.etp);
    };
    in.layerF8Gpu = fp8Gpu(pc.layer);
    in.denseF8Gpu = fp8Gpu(pc.denseLayer);
    in.mtpF8Gpu = 2.0 * in.h * in.h / in.t + (mtpMoe ? in.layerF8Gpu : in.denseF8Gpu);

    // Bytes per parameter and the ZeRO shard counts.
    const TrainingSpec& T = in.T;
    in.w = T.precision == Precision::FP32 ? 4.0 : 2.0; // fp8 training keeps bf16 weights (unless fp8ParamGather)
    in.g = bytesPerElement(T.gradDtype);
    in.master = in.w < 4.0 ? 4.0 : 0.0;
    in.moment = bytesPerElement(T.optimizerStateDtype);
    in.o = in.master + (T.optimizer == Optimizer::Adam ? 2.0 : 1.0) * in.moment; // Muon: master + momentum (+ Adam's second moment on its Adam share)
    if (T.precision == Precision::FP8) {
        // Transformer Engine keeps, for every fp8 GEMM weight, its fp8 cast for the forward and a transposed fp8 copy
        // for the backward's dgrad (Hopper's fp8 tensor cores take only the TN layout); with fp8ParamGather the
        // parameter itself is the forward copy. MXFP8 keeps rowwise and columnwise copies with one e8m0 scale per 32
        // elements (Transformer Engine user guide, "FP8 and MXFP8"; NVIDIA Transformer Engine docs).
        const double copy = T.fp8Recipe == Fp8Recipe::MxFp8 ? 1.0 + 1.0 / 32.0 : 1.0;
        in.fp8Cache = (T.fp8ParamGather ? 1.0 : 2.0) * copy;
    }
    in.pcie = T.offload.pcieBandwidth > 0 ? T.offload.pcieBandwidth : defaultPcieBandwidth(in.C.gpu);
    in.hostBandwidth = T.offload.hostBandwidth > 0 ? T.offload.hostBandwidth : kDefaultHostBandwidth;
    in.dpcp = in.P.dp * in.cp;
    in.nShard = in.dpcp;
    if (in.P.fsdp == Fsdp::Hybrid) in.nShard = std::max(1, std::min(in.dpcp, in.layout.dpCp.perNode));
    // The expert data-parallel group: the ranks holding the same experts, tp*dp*cp/(etp*ep) (Megatron-Core's
    // expert_data_parallel group); with etp = tp it is dp*cp/ep.
    in.nExpert = std::max(1, int((1LL * in.t * in.dpcp) / std::max(1LL, 1LL * in.etp * std::max(1, in.ep))));
}

} // namespace planscope::evaluation
