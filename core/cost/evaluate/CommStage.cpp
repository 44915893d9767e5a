// evaluate()'s communication stage: one CommGroup per parallel group, its bytes per GPU per step, the time of
// its operations and the part on the critical path (comm.groups.*), each recorded beside its formula.
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

// One group's figures with, when explaining, how each was computed.
struct Figure {
    double value = 0;
    Term term;             // filled only when explaining
    std::vector<std::string> children;
    Text note;
};

// The one place a communication group is assembled: where it sits, what runs on it, the bytes each GPU sends
// per step, the time its operations take and the part on the critical path, recorded side by side.
void addGroup(Prediction& out, Explainer* ex, GroupKind kind, int size, const GroupPlacement& where, double link,
    Text collective, Text algorithm, const Figure& bytes, const Figure& seconds, const Figure& exposed,
    TextTemplate bytesSource)
{
    CommGroup gr;
    gr.kind = kind;
    gr.size = size;
    gr.crossesNodes = where.crossesNodes;
    gr.nodesSpanned = where.nodesSpanned;
    gr.perNode = where.perNode;
    gr.crossesDomains = where.crossesDomains;
    gr.domainsSpanned = where.domainsSpanned;
    gr.perDomain = where.perDomain;
    gr.collective = std::move(collective);
    gr.algorithm = std::move(algorithm);
    gr.linkBandwidth = link;
    gr.bytesPerStep = bytes.value;
    gr.seconds = seconds.value;
    gr.exposedSeconds = exposed.value;
    if (ex) {
        const std::string base = "comm.groups." + std::to_string(out.comm.size()) + ".";
        ex->add({ base + "bytesPerStep", gr.bytesPerStep, "bytes", bytes.term.formula, bytes.term.inputs,
            Text::join({ Text(sources::kNcclTests), Text(bytesSource) }, Text::Joint::List), bytes.children,
            Text::join({ Text(PS_TEXT("CoreText", "Bytes one GPU sends per step on its %1 group of n = %2."), toString(kind), size),
                           Text(PS_TEXT("CoreText", "Ring volumes: all-reduce sends 2(n-1)/n of the buffer, all-gather, "
                                                    "reduce-scatter and all-to-all (n-1)/n.")),
                           bytes.note },
                Text::Joint::Sentences) });
        ex->add({ base + "seconds", gr.seconds, "seconds", seconds.term.formula, seconds.term.inputs, sources::kAlphaBeta,
            seconds.children,
            Text::join({ gr.crossesNodes ? Text(PS_TEXT("CoreText", "Algorithm: %1; the group crosses nodes."), gr.algorithm)
                                         : Text(PS_TEXT("CoreText", "Algorithm: %1; inside one node."), gr.algorithm),
                           seconds.note },
                Text::Joint::Sentences) });
        ex->add({ base + "exposedSeconds", gr.exposedSeconds, "seconds", exposed.term.formula, exposed.term.inputs,
            PS_TEXT("CoreText", "docs/MODEL.md section 6 (overlap)"), exposed.children, exposed.note });
    }
    out.comm.push_back(std::move(gr));
}

// Records one collective's alpha-beta time under `field`, for a group figure to name as a child.
void explainCollective(Explainer& ex, const std::string& field, double value, Term term, const GroupPlacement& where)
{
    ex.add({ field, value, "seconds", term.formula, term.inputs, sources::kAlphaBeta, {}, linkNote(where) });
}

// The collectives of one group kind in an op list, per layer (or per output layer): bytes one GPU sends, seconds,
// exposed seconds, and a line naming each op.
struct GroupSums {
    double bytes = 0, seconds = 0, exposed = 0;
    Text ops; // a Joint::List of the ops, only when describing
};

GroupSums sumGroup(const std::vector<KernelOp>& ops, GroupKind kind, bool describe)
{
    GroupSums g;
    std::vector<Text> items;
    for (const KernelOp& op : ops) {
        if (op.kind != KernelKind::Collective || op.group != kind) continue;
        g.bytes += op.repeat * ringBytesPerRank(op.collective, op.groupSize, op.bytes);
        g.seconds += op.seconds;
        g.exposed += op.exposedSeconds;
        if (describe) {
            const std::string size
                = units::formatBytes(op.bytes) + (op.repeat > 1 ? " x" + std::to_string(op.repeat) : std::string());
            items.push_back(op.hiddenBy >= 0
                    ? Text(PS_TEXT("CoreText", "%1 %2 of %3 %4 (overlapped, %5 exposed)"), op.name, toString(op.collective),
                          size, units::formatSeconds(op.seconds), units::formatSeconds(op.exposedSeconds))
                    : Text(PS_TEXT("CoreText", "%1 %2 of %3 %4"), op.name, toString(op.collective), size,
                          units::formatSeconds(op.seconds)));
        }
    }
    if (describe) g.ops = Text::join(std::move(items), Text::Joint::List);
    return g;
}

} // namespace

void commStage(const Inputs& in, const LayerTimes& lt, const StepTerms& step, Prediction& out, Explainer* ex)
{
    const ParallelSpec& P = in.P;
    const TrainingSpec& T = in.T;
    const ClusterSpec& C = in.C;
    const RankLayout& layout = in.layout;
    const int p = in.p, t = in.t, cp = in.cp, ep = in.ep, v = in.v;
    const double md = double(in.m), e = in.e, b = in.b, sl = in.sl, h = in.h;
    const RankShape& shB = in.shapes[std::size_t(step.rb)];
    const double layersAll = shB.layersPerMicrobatch;
    const StageTime& bt = out.stageTimes[std::size_t(step.rb)];
    out.comm.reserve(5);
    auto base = [&] { return "comm.groups." + std::to_string(out.comm.size()) + "."; };
    // tp, cp and ep: the collectives of the operator list, in every layer of every microbatch on the slowest rank.
    auto layerGroup = [&](GroupKind kind, int n, const GroupPlacement& where, Text collective, Text algorithm,
                          double layersB) {
        const GroupSums L = sumGroup(lt.ops.layer, kind, ex != nullptr);
        const GroupSums O = shB.output ? sumGroup(lt.ops.output, kind, ex != nullptr) : GroupSums {};
        Figure bytes { md * (layersB * L.bytes + O.bytes), {}, {}, {} };
        Figure seconds { md * (layersB * L.seconds + O.seconds), {}, {}, {} };
        Figure exposed { md * (layersB * L.exposed + O.exposed), {}, {}, {} };
        if (ex) {
            const FormulaInputs mL { { "m", md }, { "layers", layersB } };
            const Text perLayer(PS_TEXT("CoreText", "Per layer: %1."), L.ops.empty() ? Text(PS_TEXT("CoreText", "none")) : L.ops);
            const Text output = O.ops.empty() ? Text() : Text(PS_TEXT("CoreText", "Output layer: %1."), O.ops);
            bytes.term = { "m*(layers*perLayer + output)", with(mL, { { "perLayer", L.bytes }, { "output", O.bytes } }) };
            bytes.note = Text::join(
                { Text(PS_TEXT("CoreText", "The ring volumes of the operator list's collectives on this group.")), perLayer, output },
                Text::Joint::Sentences);
            seconds.term = { "m*(layers*perLayer + output)", with(mL, { { "perLayer", L.seconds }, { "output", O.seconds } }) };
            seconds.note = Text::join(
                { Text(PS_TEXT("CoreText", "layers: per microbatch on the slowest rank (%1)."), step.rb), perLayer, output },
                Text::Joint::Sentences);
            exposed.term = { "m*(layers*perLayer + output)", with(mL, { { "perLayer", L.exposed }, { "output", O.exposed } }) };
            exposed.note = PS_TEXT("CoreText",
                "What the GEMMs they overlap with do not hide (Megatron-Core overlaps the column-parallel "
                "backward's all-gather and input-gradient reduction with the GEMMs beside them; tpCommOverlap "
                "overlaps the rest; ring attention overlaps its K/V exchange with the block in hand).");
        }
        addGroup(out, ex, kind, n, where, slowestLink(where, C), std::move(collective), std::move(algorithm), bytes, seconds,
            exposed, sources::kMegatronFlops);
    };

    // Every layer and MTP module carries the tp and cp collectives (a dense-MLP layer's tp volume taken as an MoE
    // layer's); the ep collectives run in the MoE layers only.
    const double allLayers = layersAll + shB.mtpPerMicrobatch;
    const double moeLayersB = layersAll - shB.denseLayersPerMicrobatch + (in.M.isMoe() ? shB.mtpPerMicrobatch : 0.0);
    if (t > 1)
        layerGroup(GroupKind::TP, t, layout.tp, Text::verbatim(P.sp ? "AllGather+ReduceScatter" : "AllReduce"),
            algorithmText(layout.tp), allLayers);
    if (cp > 1)
        layerGroup(GroupKind::CP, cp, layout.cp, PS_TEXT("CoreText", "SendRecv (ring attention K/V)"),
            PS_TEXT("CoreText", "ring p2p"), allLayers);
    if (ep > 1 && in.M.isMoe())
        layerGroup(GroupKind::EP, ep, layout.ep,
            Text::verbatim(in.M.moe.dispatcher == MoeDispatcher::AllGather ? "AllGather+ReduceScatter" : "AllToAll"),
            algorithmText(layout.ep), moeLayersB);
    if (p > 1) {
        Figure bytes { md * 2.0 * v * lt.ppBytes, {}, {}, {} };
        Figure seconds { md * bt.p2pTransferSeconds, {}, {}, {} };
        Figure exposed { md * bt.p2pSeconds, {}, {}, {} };
        if (ex) {
            exposed.note = T.overlapP2pComm
                ? PS_TEXT("CoreText",
                    "Sends run beside the next op (overlapP2pComm); 1F1B's steady state still waits for each gradient's round trip.")
                : PS_TEXT("CoreText", "Every send holds its rank until it completes (Megatron-Core's default, overlap_p2p_comm off).");
            const FormulaInputs pp { { "m", md }, { "v", double(v) }, { "e", e }, { "b", b }, { "s", sl }, { "h", h },
                { "spDiv", P.sp ? double(t) : 1.0 } };
            bytes.term = { "m*2*v*e*b*s*h/spDiv", pp };
            bytes.note = PS_TEXT("CoreText", "Per microbatch and chunk one activation forward and one gradient back; spDiv = t "
                                             "with sequence parallelism, else 1; bw: the link's bandwidth times its efficiency.");
            const double n = bt.p2pSendSeconds > 0 ? std::round(bt.p2pTransferSeconds / bt.p2pSendSeconds) : 0.0;
            seconds.term = { "m*n*(alpha + e*b*s*h/spDiv/bw)",
                with(pp, { { "n", n }, { "alpha", lt.ppLink->latency }, { "bw", collectiveBandwidth(Collective::SendRecv, *lt.ppLink) } }) };
            seconds.note = Text(PS_TEXT("CoreText",
                                    "n: the sends per microbatch of the slowest rank (%1), 2*v less one where it holds the "
                                    "first stage (no gradient to send) or the last (no activation); spDiv = t with sequence "
                                    "parallelism, else 1; bw: the link's bandwidth times its efficiency."),
                step.rb);
            exposed.term = { "seconds", { { "seconds", seconds.value } } };
        }
        addGroup(out, ex, GroupKind::PP, p, layout.pp, lt.ppLink->bandwidth, Text::verbatim("SendRecv"), Text::verbatim("p2p"),
            bytes, seconds, exposed, sources::kMegatronFlops);
    }
    if (in.dpcp > 1) {
        // Report the rank whose gradient reduction is most exposed.
        int rd = 0;
        for (int r = 0; r < p; ++r)
            if (out.stageTimes[std::size_t(r)].dpExposedSeconds + in.m * out.stageTimes[std::size_t(r)].zeroExposedSeconds
                > out.stageTimes[std::size_t(rd)].dpExposedSeconds + in.m * out.stageTimes[std::size_t(rd)].zeroExposedSeconds)
                rd = r;
        const StageMemory& st = out.stages[std::size_t(rd)];
        const StageTime& tm = out.stageTimes[std::size_t(rd)];
        const double Pgpu = st.parameters;
        const double g = in.g, w = in.w;
        const double f = double(in.dpcp - 1) / in.dpcp;
        Text collective;
        Figure bytes, seconds { tm.dpSeconds, {}, {}, {} }, exposed { tm.dpExposedSeconds + md * tm.zeroExposedSeconds, {}, {}, {} };
        const char* bytesFormula = "";
        switch (P.zero) {
        case 0:
            collective = Text::verbatim("AllReduce");
            bytes.value = 2.0 * f * g * Pgpu;
            bytesFormula = "2*(n-1)/n*g*P";
            break;
        case 1:
            collective = Text::verbatim("ReduceScatter+AllGather");
            bytes.value = f * (g + w) * Pgpu;
            bytesFormula = "(n-1)/n*(g + w)*P";
            break;
        case 2:
            collective = PS_TEXT("CoreText", "ReduceScatter per microbatch + AllGather");
            bytes.value = md * f * g * Pgpu + f * w * Pgpu;
            bytesFormula = "m*(n-1)/n*g*P + (n-1)/n*w*P";
            break;
        default:
            collective = PS_TEXT("CoreText", "AllGather x2 + ReduceScatter per microbatch");
            bytes.value = md * f * (g + 2.0 * w) * Pgpu;
            bytesFormula = "m*(n-1)/n*(g + 2*w)*P";
            break;
        }
        if (ex) {
            bytes.term = { bytesFormula,
                { { "m", md }, { "n", double(in.dpcp) }, { "g", g }, { "w", w }, { "P", Pgpu } } };
            bytes.note = Text(PS_TEXT("CoreText", "P: parameters per GPU of stage %1 (dense and expert); ZeRO-%2."), rd, P.zero);
            const DpTerms d = dpTerms(in, stageParams(in, rd));
            const std::string reduceField = base() + "reduceSeconds", gatherField = base() + "gatherSeconds";
            const Collective reduceOp = P.zero == 0 ? Collective::AllReduce : Collective::ReduceScatter;
            explainCollective(*ex, reduceField, tm.dpReduceSeconds, dpTerm(in, reduceOp, d.gradD, d.gradE, in.g), layout.dpCp);
            const double gather = P.zero >= 3 ? tm.zeroGatherSeconds : tm.dpGatherSeconds;
            if (P.zero >= 1)
                explainCollective(*ex, gatherField, gather, dpTerm(in, Collective::AllGather, d.weightD, d.weightE, in.w), layout.dpCp);
            const FormulaInputs terms { { "m", md }, { "reduce", tm.dpReduceSeconds }, { "gather", gather },
                { "F", tm.forwardSeconds }, { "B", tm.backwardSeconds }, { "q", lastBucketShare(in, rd) },
                { "u", zeroShare(in.shapes[std::size_t(rd)]) }, { "c", tm.contentionSeconds },
                { "cz", tm.zeroContentionSeconds } };
            seconds.term.inputs = exposed.term.inputs = terms;
            seconds.children = exposed.children = P.zero >= 1 ? std::vector<std::string> { reduceField, gatherField }
                                                               : std::vector<std::string> { reduceField };
            const bool overlap = T.overlapGradReduce;
            switch (P.zero) {
            case 0:
                seconds.term.formula = "reduce";
                exposed.term.formula = overlap ? "max(q*reduce, reduce - B) + c" : "reduce";
                break;
            case 1:
                seconds.term.formula = "reduce + gather";
                exposed.term.formula = overlap ? "max(q*reduce, reduce - B) + max(q*gather, gather - F) + c" : "reduce + gather";
                break;
            case 2:
                seconds.term.formula = "m*u*reduce + gather";
                exposed.term.formula = overlap ? "max(q*gather, gather - F) + c + m*(max(0, u*reduce - (F + B)) + cz)"
                                               : "gather + c + m*(max(0, u*reduce - (F + B)) + cz)";
                break;
            default:
                seconds.term.formula = "m*u*(reduce + 2*gather)";
                exposed.term.formula = "m*(max(0, u*(reduce + 2*gather) - (F + B)) + cz)";
                break;
            }
            seconds.note = Text::join(
                { Text(PS_TEXT("CoreText",
                      "ZeRO-0/1 reduce once per step, ZeRO-2/3 every microbatch (u: the share of the rank's layers a "
                      "microbatch passes, 1/2 for DualPipe's two copies); ZeRO-3 gathers the weights before every forward "
                      "and every backward.")),
                    Text(PS_TEXT("CoreText",
                        "S: the gradient (or weight) bytes of the dense parameters over dp*cp = n; nE, SE: the expert "
                        "parameters over their expert-data-parallel group.")) },
                Text::Joint::Sentences);
            exposed.note = Text::join(
                { Text(PS_TEXT("CoreText", "F, B: stage %1's forward and backward of one microbatch."), rd),
                    Text(PS_TEXT("CoreText",
                        "Gradient reduction overlaps the backward of the last microbatch bucket by bucket when "
                        "overlapGradReduce is on, except the last bucket, q of the gradient (Megatron-Core DDP: buckets of "
                        "max(4e7, 1e6*dp) elements); the parameter all-gather overlaps the next forward the same way; "
                        "ZeRO-2/3's per-microbatch traffic hides behind F + B.")),
                    Text(PS_TEXT("CoreText",
                        "c, cz: the compute the hidden part slows, per step and per microbatch (docs/MODEL.md section "
                        "7.3).")) },
                Text::Joint::Sentences);
        }
        addGroup(out, ex, GroupKind::DPCP, in.dpcp, layout.dpCp, slowestLink(layout.dpCp, C), std::move(collective),
            algorithmText(layout.dpCp), bytes, seconds, exposed, sources::kZeroComm);
    }
    // Groups across nodes are warned about by validate(), from the same RankLayout.
}

} // namespace planscope::evaluation
