// evaluate()'s compute stage: one transformer layer (and the output layer) for one microbatch on one GPU as
// the sum of its operator list (core/cost/Operators.h), time.layer.* and time.layerOps.
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

namespace {

// One op of time.layer.*'s list: its name, exposed seconds and what bounds it, with its share of the peak where it
// runs FLOPs (a list item of the note's "Ops: %1.").
Text opItem(const KernelOp& op)
{
    const std::string seconds = units::formatSeconds(op.exposedSeconds);
    const bool recompute = op.pass == KernelPass::Recompute;
    if (op.efficiency > 0) {
        const std::string share = units::formatNumber(std::round(op.efficiency * 1000) / 10);
        TextTemplate t {};
        switch (op.bound) {
        case OpBound::Compute:
            t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (compute, %3% of peak)")
                          : PS_TEXT("CoreText", "%1 %2 (compute, %3% of peak)");
            break;
        case OpBound::Memory:
            t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (memory, %3% of peak)")
                          : PS_TEXT("CoreText", "%1 %2 (memory, %3% of peak)");
            break;
        case OpBound::Communication:
            t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (communication, %3% of peak)")
                          : PS_TEXT("CoreText", "%1 %2 (communication, %3% of peak)");
            break;
        case OpBound::Latency:
            t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (latency, %3% of peak)")
                          : PS_TEXT("CoreText", "%1 %2 (latency, %3% of peak)");
            break;
        }
        return Text(t, op.name, seconds, share);
    }
    TextTemplate t {};
    switch (op.bound) {
    case OpBound::Compute:
        t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (compute)") : PS_TEXT("CoreText", "%1 %2 (compute)");
        break;
    case OpBound::Memory:
        t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (memory)") : PS_TEXT("CoreText", "%1 %2 (memory)");
        break;
    case OpBound::Communication:
        t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (communication)")
                      : PS_TEXT("CoreText", "%1 %2 (communication)");
        break;
    case OpBound::Latency:
        t = recompute ? PS_TEXT("CoreText", "recompute %1 %2 (latency)") : PS_TEXT("CoreText", "%1 %2 (latency)");
        break;
    }
    return Text(t, op.name, seconds);
}

// time.layer.*: one pass of one layer as the sum of its ops by kind, with each op listed in the note.
void explainLayer(Explainer& ex, const OperatorList& ops)
{
    struct Pass {
        const char* field;
        std::vector<KernelPass> passes;
        TextTemplate what;
    };
    const Pass passes[] = {
        { "time.layer.forwardSeconds", { KernelPass::Forward },
            PS_TEXT("CoreText", "The forward of one layer for one microbatch on one GPU.") },
        { "time.layer.backwardSeconds", { KernelPass::Recompute, KernelPass::BackwardInput, KernelPass::BackwardWeight },
            PS_TEXT("CoreText", "The backward of one layer: recomputed forward ops, input gradients, weight gradients.") },
        { "time.layer.weightGradSeconds", { KernelPass::BackwardWeight },
            PS_TEXT("CoreText", "The weight-gradient GEMMs of one layer.") },
    };
    for (const Pass& pass : passes) {
        double gemm = 0, attention = 0, memory = 0, comm = 0, host = 0, cpu = 0;
        std::vector<Text> list;
        for (const KernelOp& op : ops.layer) {
            if (std::find(pass.passes.begin(), pass.passes.end(), op.pass) == pass.passes.end()) continue;
            host += op.hostWaitSeconds;
            cpu += op.hostSeconds;
            switch (op.kind) {
            case KernelKind::Gemm: gemm += op.exposedSeconds; break;
            case KernelKind::Attention: attention += op.exposedSeconds; break;
            case KernelKind::Memory: memory += op.exposedSeconds; break;
            case KernelKind::Collective: comm += op.exposedSeconds; break;
            }
            list.push_back(opItem(op));
        }
        ex.add({ pass.field, gemm + attention + memory + comm + host, "seconds", "gemm + attention + memory + comm + host",
            { { "gemm", gemm }, { "attention", attention }, { "memory", memory }, { "comm", comm }, { "host", host } },
            Text(PS_TEXT("CoreText",
                "docs/MODEL.md section 7; NVIDIA Matrix Multiplication Background User's Guide (GEMM waves); "
                "docs/HARDWARE.md")),
            {},
            Text::join({ Text(pass.what),
                           Text(PS_TEXT("CoreText",
                                    "Each op takes the slower of its FLOPs at the shape's achievable rate and its bytes at "
                                    "the achievable HBM bandwidth, plus a launch; comm counts only what overlap leaves "
                                    "exposed; host is the GPU's wait for the CPU to issue the next kernel (the CPU spends "
                                    "%1 issuing this pass; docs/MODEL.md section 7.4)."),
                               units::formatSeconds(cpu)),
                           Text(PS_TEXT("CoreText", "Ops: %1."), Text::join(std::move(list), Text::Joint::List)) },
                Text::Joint::Sentences) });
    }
}

} // namespace

LayerTimes computeStage(Inputs& in, Prediction& out, Explainer* ex)
{
    const TrainingSpec& T = in.T;
    const GpuSpec& gpu = in.C.gpu;
    in.peak = gpu.peakFlops.forPrecision(T.precision);
    in.eff = T.precision == Precision::FP8 && gpu.gemmEfficiencyFp8 > 0 ? gpu.gemmEfficiencyFp8 : gpu.gemmEfficiency;
    if (in.eff <= 0) {
        in.eff = 0.75;
        out.warnings.push_back(issue(Severity::Warning, "cluster.gpu.gemmEfficiency",
            Text(PS_TEXT("CoreText", "no measured GEMM efficiency for \"%1\"; assuming 0.75 (run planscope-profile to "
                                     "measure it)"),
                gpu.id)));
    }
    if (gpu.hbmEfficiency <= 0)
        out.warnings.push_back(issue(Severity::Warning, "cluster.gpu.hbmEfficiency",
            Text(PS_TEXT("CoreText", "no measured HBM efficiency for \"%1\"; assuming %2 of the datasheet bandwidth"),
                gpu.id, units::formatNumber(kernels::kDefaultHbmEfficiency))));
    if (T.flashAttention && gpu.attentionFlops.empty())
        out.warnings.push_back(issue(Severity::Warning, "cluster.gpu.attentionFlops",
            Text(PS_TEXT("CoreText", "no flash-attention benchmark for \"%1\"; assuming %2 of the GEMM rate"), gpu.id,
                units::formatNumber(kernels::kDefaultAttentionShare))));
    in.rate = in.peak * in.eff;
    in.hbm = kernels::achievableHbm(gpu);
    in.e = T.precision == Precision::FP32 ? 4.0 : 2.0;

    LayerTimes lt { in.layer.ops, in.layer.denseOps };
    const PassTotals& L = lt.ops.layerTotals;
    const PassTotals& O = lt.ops.outputTotals;
    // Pipeline p2p: one activation tensor per microbatch per chunk boundary each way (/t with SP).
    lt.ppBytes = in.e * in.b * in.sl * in.h / (in.P.sp ? in.t : 1);
    lt.ppLink = in.layout.ppNeighboursCrossDomains ? &in.C.interNode : &in.C.intraNode;
    lt.p2p = in.p > 1 ? p2pSeconds(lt.ppBytes, in.layout.ppNeighboursCrossDomains, in.C) : 0.0;
    out.opCosts = { L.forward, L.backward(), L.backwardWeight, O.forward, O.backward(), O.backwardWeight, lt.p2p,
        L.forward, L.backward(), L.backwardWeight };
    if (in.M.isMoe() && (in.pc.denseLayers > 0)) {
        // An MoE model's first layers carry the dense MLP: their own operator list.
        const PassTotals& D = lt.denseOps.layerTotals;
        out.opCosts.denseLayerForward = D.forward;
        out.opCosts.denseLayerBackward = D.backward();
        out.opCosts.denseLayerWeightGrad = D.backwardWeight;
    }
    if (T.recompute == Recompute::Full && T.recomputeBlock && T.recomputeLayers > 0) {
        // --recompute-method block: only the first N layers of each chunk re-run their forward.
        double rec = 0, all = 0;
        for (const VirtualStage& v : in.stages) {
            rec += std::min(T.recomputeLayers, v.layers);
            all += v.layers;
        }
        const double skip = all > 0 ? 1.0 - rec / all : 0.0;
        out.opCosts.layerBackward -= skip * L.recompute;
        out.opCosts.denseLayerBackward -= skip * (lt.denseOps.layer.empty() ? L.recompute : lt.denseOps.layerTotals.recompute);
    }
    out.layerOps = lt.ops.layer;
    out.outputOps = lt.ops.output;
    if (ex) explainLayer(*ex, lt.ops);
    return lt;
}

} // namespace planscope::evaluation
