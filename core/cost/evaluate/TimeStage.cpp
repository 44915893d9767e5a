// evaluate()'s time stage: one microbatch's forward and backward on each pipeline stage, its data-parallel and
// ZeRO traffic, the optimizer step and offload (time.stages.*).
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

void timeStage(const Inputs& in, const LayerTimes& lt, int r, Prediction& out, Explainer* ex)
{
    const ParallelSpec& P = in.P;
    const TrainingSpec& T = in.T;
    const RankShape& sh = in.shapes[std::size_t(r)];
    const double layers = sh.layersPerMicrobatch;
    StageTime& tm = out.stageTimes[std::size_t(r)];
    tm.stage = r;
    const PassTotals& L = lt.ops.layerTotals;
    const PassTotals& D = lt.denseOps.layer.empty() ? L : lt.denseOps.layerTotals;
    const PassTotals O = sh.output ? lt.ops.outputTotals : PassTotals {};
    const double dense = sh.denseLayersPerMicrobatch, mtp = sh.mtpPerMicrobatch;
    const OpCosts& c = out.opCosts;
    tm.forwardSeconds = c.forward(layers, dense, mtp, sh.output);
    tm.backwardSeconds = c.backward(layers, dense, mtp, sh.output);
    tm.weightGradSeconds = c.weightGrad(layers, dense, mtp, sh.output);
    // Sends per microbatch: an activation forward and a gradient back per chunk, except where the neighbour is no
    // other rank: the first stage sends no gradient, the last no activation; in a V the two middle stages share
    // the last rank (docs/SCHEDULES.md).
    double sends = 0;
    if (in.p > 1) {
        if (traits(T.schedule).vShaped)
            sends = (r == 0 || r == in.p - 1) ? 2.0 : 4.0;
        else
            sends = 2.0 * in.v - (r == 0 ? 1.0 : 0.0) - (r == in.p - 1 ? 1.0 : 0.0);
    }
    tm.p2pSendSeconds = in.p > 1 ? lt.p2p : 0.0;
    tm.p2pTransferSeconds = sends * lt.p2p;
    // The closed form charges the sends to the slots either way: blocking, the sender waits for them; overlapped,
    // 1F1B's steady state still waits for each gradient's round trip (a rank's next backward needs the next rank's
    // backward of a microbatch it sent one forward earlier). The simulation shows what overlapping saves.
    tm.p2pSeconds = tm.p2pTransferSeconds;
    const PassTotals& Oall = lt.ops.outputTotals;
    tm.layerCommSeconds = (layers - dense + mtp) * (L.commForward + L.commBackward) + dense * (D.commForward + D.commBackward)
        + mtp * (Oall.commForward + Oall.commBackward) + O.commForward + O.commBackward;
    if (ex) {
        const std::string tb = "time.stages." + std::to_string(r) + ".";
        const char* formula = "(layers - dense)*layer + dense*denseLayer + mtp*(layer + head) + output";
        const double head = Oall.forward;
        const Text section71(PS_TEXT("CoreText", "docs/MODEL.md section %1"), "7.1");
        ex->add({ tb + "forwardSeconds", tm.forwardSeconds, "seconds", formula,
            { { "layers", layers }, { "dense", dense }, { "layer", L.forward }, { "denseLayer", D.forward }, { "mtp", mtp },
                { "head", head }, { "output", O.forward } },
            section71, { "time.layer.forwardSeconds" },
            Text(PS_TEXT("CoreText",
                "layers: transformer layers one microbatch runs through on this rank (dense: those with the dense MLP of "
                "an MoE model); layer: one layer's forward ops; mtp: MTP modules, each a layer and an output head; "
                "output: the final norm, output projection and loss on the last stage.")) });
        ex->add({ tb + "backwardSeconds", tm.backwardSeconds, "seconds", formula,
            { { "layers", layers }, { "dense", dense }, { "layer", L.backward() }, { "denseLayer", D.backward() },
                { "mtp", mtp }, { "head", Oall.backward() }, { "output", O.backward() } },
            section71, { "time.layer.backwardSeconds" },
            Text(PS_TEXT("CoreText", "Input- and weight-gradient ops of one layer, with the forward ops recomputation repeats.")) });
        ex->add({ tb + "weightGradSeconds", tm.weightGradSeconds, "seconds", formula,
            { { "layers", layers }, { "dense", dense }, { "layer", L.backwardWeight }, { "denseLayer", D.backwardWeight },
                { "mtp", mtp }, { "head", Oall.backwardWeight }, { "output", O.backwardWeight } },
            section71, { "time.layer.weightGradSeconds" },
            Text(PS_TEXT("CoreText", "The weight-gradient GEMMs (the W of the zero-bubble schedules).")) });
    }
    // Data parallel: ZeRO-0/1 reduce once per step; ZeRO-2/3 (DeepSpeed, FSDP) every microbatch.
    const DpTerms d = dpTerms(in, stageParams(in, r));
    const double lastBucket = lastBucketShare(in, r);
    tm.dpLastBucketShare = lastBucket;
    if (P.zero <= 1) {
        if (P.zero == 0) {
            tm.dpSeconds = tm.dpReduceSeconds = dpSeconds(in, Collective::AllReduce, d.gradD, d.gradE, in.g);
            tm.dpExposedSeconds = T.overlapGradReduce
                ? std::max(lastBucket * tm.dpSeconds, tm.dpSeconds - tm.backwardSeconds)
                : tm.dpSeconds;
        } else {
            const double rs = dpSeconds(in, Collective::ReduceScatter, d.gradD, d.gradE, in.g);
            const double ag = dpSeconds(in, Collective::AllGather, d.weightD, d.weightE, in.w);
            tm.dpSeconds = rs + ag;
            tm.dpReduceSeconds = rs;
            tm.dpGatherSeconds = ag;
            tm.dpExposedSeconds = T.overlapGradReduce
                ? std::max(lastBucket * rs, rs - tm.backwardSeconds) + std::max(lastBucket * ag, ag - tm.forwardSeconds)
                : tm.dpSeconds;
        }
    } else {
        const double rs = dpSeconds(in, Collective::ReduceScatter, d.gradD, d.gradE, in.g);
        tm.zeroGatherSeconds = P.zero >= 3 ? dpSeconds(in, Collective::AllGather, d.weightD, d.weightE, in.w) : 0.0;
        // A microbatch passes u of the rank's layers (1, or 1/2 for DualPipe's two copies): it reduces and gathers
        // those layers' share.
        const double perMb = zeroShare(sh) * (rs + 2.0 * tm.zeroGatherSeconds);
        tm.dpSeconds = double(in.m) * perMb;
        tm.dpReduceSeconds = rs;
        tm.zeroExposedSeconds = std::max(0.0, perMb - (tm.forwardSeconds + tm.backwardSeconds));
        if (P.zero == 2) {
            // After the sharded optimizer step every rank gathers the updated weights (ZeRO section 7.2.1).
            const double ag = dpSeconds(in, Collective::AllGather, d.weightD, d.weightE, in.w);
            tm.dpSeconds += ag;
            tm.dpGatherSeconds = ag;
            tm.dpExposedSeconds = T.overlapGradReduce ? std::max(lastBucket * ag, ag - tm.forwardSeconds) : ag;
        }
    }
    // Compute beside a collective runs on the SMs the collective's channels leave it (kernels::smShare): charged on
    // the seconds each overlapped collective hides behind the compute, per microbatch for ZeRO-2/3 (with the exposure
    // it adds to every backward) and per step otherwise (with the exposed tail).
    const double share = kernels::smShare(in.C.gpu, in.plan.overheads.ncclChannels);
    if (share > 0) {
        double hiddenPerMb = 0, hiddenPerStep = 0;
        if (P.zero >= 2) {
            const double perMb = zeroShare(sh) * (tm.dpReduceSeconds + 2.0 * tm.zeroGatherSeconds);
            hiddenPerMb = std::min(perMb, tm.forwardSeconds + tm.backwardSeconds);
            if (P.zero == 2) hiddenPerStep = std::max(0.0, tm.dpGatherSeconds - tm.dpExposedSeconds);
        } else {
            hiddenPerStep = std::max(0.0, tm.dpSeconds - tm.dpExposedSeconds);
        }
        tm.zeroContentionSeconds = share * hiddenPerMb;
        tm.zeroExposedSeconds += tm.zeroContentionSeconds;
        tm.contentionSeconds = share * hiddenPerStep;
        tm.dpExposedSeconds += tm.contentionSeconds;
        const std::string base = "time.stages." + std::to_string(r) + ".";
        const FormulaInputs kS { { "k", double(in.plan.overheads.ncclChannels) }, { "S", double(in.C.gpu.sms) } };
        if (ex && tm.zeroContentionSeconds > 0)
            ex->add({ base + "zeroContentionSeconds", tm.zeroContentionSeconds, "seconds", "min(k, S)/S*hidden",
                with(kS, { { "hidden", hiddenPerMb } }), sources::contention(), {},
                Text(PS_TEXT("CoreText",
                    "hidden: the ZeRO-2/3 reduce-scatter and gathers of one microbatch that run beside its forward and "
                    "backward (at most F + B); charged to every backward, in zeroExposedSeconds.")) });
        if (ex && tm.contentionSeconds > 0)
            ex->add({ base + "contentionSeconds", tm.contentionSeconds, "seconds", "min(k, S)/S*hidden",
                with(kS, { { "hidden", hiddenPerStep } }), sources::contention(), {},
                Text(PS_TEXT("CoreText",
                    "hidden: the seconds of the step's gradient reduction and parameter gather that run beside the "
                    "backward and forward; charged to the exposed data-parallel tail (dpExposedSeconds).")) });
    }
    // The optimizer step reads and writes its state, the weights and the gradients at the GPU's HBM rate; an offloaded
    // share f runs on the host at the same time (Megatron-Core's hybrid device optimizer): its gradients down and
    // its weights up over PCIe, the update at the host's memory bandwidth.
    const double params = optimizerParams(in, r);
    const double f = std::clamp(T.offload.optimizerFraction, 0.0, 1.0);
    double onGpu = (1.0 - f) * params * (2.0 * in.o + 2.0 * in.w + in.g) / in.hbm;
    if (T.optimizer == Optimizer::Muon) {
        // Newton-Schulz on this rank's matrices: with the distributed optimizer (ZeRO >= 1: Megatron-Core's
        // LayerWiseDistributedOptimizer) each matrix on one rank of the data-parallel group (the expert
        // data-parallel group for experts), else every rank runs all of its own; whole matrices on every tp rank
        // (tp mode duplicated). In bf16 at the GEMM rate.
        const RankShape& sh = in.shapes[std::size_t(r)];
        const NewtonSchulz moe = newtonSchulzLayer(in.M, true), dense = newtonSchulzLayer(in.M, false);
        const int moeHeld = sh.layersHeld - sh.denseLayersHeld;
        const double localExperts = in.M.isMoe() ? double(in.M.moe.experts) / std::max(1, in.ep) : 0.0;
        const double denseFlops = moeHeld * moe.dense + sh.denseLayersHeld * dense.dense
            + sh.mtpHeld * ((in.M.isMoe() ? moe.dense : dense.dense) + newtonSchulzFlops(in.h, 2.0 * in.h));
        const double expertFlops = (moeHeld + (in.M.isMoe() ? sh.mtpHeld : 0)) * localExperts * moe.perExpert;
        const bool spread = P.zero >= 1;
        const double flops = denseFlops / (spread ? in.nShard : 1) + expertFlops / (spread ? in.nExpert : 1);
        const GpuSpec& gpu = in.C.gpu;
        const double rate = gpu.peakFlops.forPrecision(Precision::BF16) * (gpu.gemmEfficiency > 0 ? gpu.gemmEfficiency : 0.75);
        tm.newtonSchulzSeconds = (1.0 - f) * flops / (rate > 0 ? rate : 1.0);
        onGpu += tm.newtonSchulzSeconds;
        if (ex)
            ex->add({ "time.stages." + std::to_string(r) + ".newtonSchulzSeconds", tm.newtonSchulzSeconds, "seconds",
                "(1 - f)*(D/n + X/ne)/rate",
                { { "f", f }, { "D", denseFlops }, { "n", double(spread ? in.nShard : 1) }, { "X", expertFlops },
                    { "ne", double(spread ? in.nExpert : 1) }, { "rate", rate } },
                Text::join({ Text(PS_TEXT("CoreText",
                                 "Megatron-Core megatron/core/optimizer/emerging_optimizers.py (TensorParallelMuon) and "
                                 "layer_wise_optimizer.py")),
                               Text(PS_TEXT("CoreText",
                                   "Jordan et al., Muon (2024): 5 quintic Newton-Schulz steps of X X^T, A A and B X")) },
                    Text::Joint::List),
                {},
                Text::join({ Text(PS_TEXT("CoreText",
                                 "D: FLOPs of this stage's non-expert matrices, 5*(4*m^2*n + 2*m^3) each (m <= n): Q, K, V "
                                 "apart, the output projection, fc1 and fc2, the router and shared experts; X: the local "
                                 "experts' fc1 and fc2.")),
                               Text(PS_TEXT("CoreText",
                                   "With the distributed optimizer each matrix is orthogonalised on one rank of the "
                                   "data-parallel group (n) or the expert data-parallel group (ne); whole matrices on every "
                                   "tp rank (tp mode duplicated, whose all-gather of the momentum is not counted).")),
                               Text(PS_TEXT("CoreText", "rate: the bf16 GEMM rate (peak x gemmEfficiency).")) },
                    Text::Joint::Sentences) });
    }
    tm.offloadTransferSeconds = f * params * (in.g + in.w) / in.pcie;
    tm.hostOptimizerSeconds = f * params * (2.0 * in.o + 2.0 * 4.0) / in.hostBandwidth;
    tm.optimizerSeconds = std::max(onGpu, tm.offloadTransferSeconds + tm.hostOptimizerSeconds);
    if (ex && f > 0)
        ex->add({ "time.stages." + std::to_string(r) + ".optimizerSeconds", tm.optimizerSeconds, "seconds",
            "max((1 - f)*P*(2*o + 2*w + g)/hbm + ns, f*P*(g + w)/pcie + f*P*(2*o + 8)/host)",
            { { "f", f }, { "P", params }, { "o", in.o }, { "w", in.w }, { "g", in.g }, { "hbm", in.hbm }, { "ns", tm.newtonSchulzSeconds },
                { "pcie", in.pcie }, { "host", in.hostBandwidth } },
            sources::zeroOffload(), {},
            Text::join({ Text(PS_TEXT("CoreText",
                             "The GPU steps its share while the host steps the offloaded one: gradients down and weights up "
                             "over PCIe (pcie: bytes/s per direction, training.offload.pcieBandwidth), the update reading "
                             "and writing master weights, moments and an fp32 gradient at host memory bandwidth "
                             "(training.offload.hostBandwidth per GPU).")),
                           Text(PS_TEXT("CoreText", "A roofline: CPU Adam may run below the memory bandwidth.")) },
                Text::Joint::Sentences) });
    // Activation offload: each offloaded layer's tensors go to the host during the forward and come back before its
    // backward, beside the compute; what the transfer does not hide lands on the backward.
    const StageMemory& mem = out.stages[std::size_t(r)];
    if (mem.offloadedActivationBytes > 0 && mem.inFlightMicrobatches > 0) {
        const double bytes = double(mem.offloadedActivationBytes) / mem.inFlightMicrobatches;
        const double transfer = bytes / in.pcie;
        tm.offloadExposedSeconds = std::max(0.0, transfer - tm.forwardSeconds) + std::max(0.0, transfer - tm.backwardSeconds);
        tm.backwardSeconds += tm.offloadExposedSeconds;
    }
}

} // namespace planscope::evaluation
