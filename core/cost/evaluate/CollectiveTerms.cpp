// The alpha-beta time of a collective written out as a formula beside its value (collectiveTerm), the
// data-parallel collectives in buckets, and the notes naming a group's algorithm: what the time, step and
// communication stages of evaluate() record for the groups (Thakur, Rabenseifner, Gropp, IJHPCA 2005).
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

// One flat ring (ringSeconds in Collective.cpp): latency steps * alpha + bytes on the wire / bandwidth, or the wire
// time over the link's measured bandwidth share q at this size where that is slower; over names n (ranks), S (bytes),
// alpha, bw and q (empty: no size curve).
std::string ringFormula(Collective c, const std::string& n, const std::string& S, const std::string& alpha,
    const std::string& bw, const std::string& q = "")
{
    std::string steps, wire;
    switch (c) {
    case Collective::AllReduce:
        steps = "2*(" + n + "-1)*" + alpha;
        wire = "2*(" + n + "-1)/" + n + "*" + S + "/" + bw;
        break;
    case Collective::SendRecv:
        steps = alpha;
        wire = S + "/" + bw;
        break;
    case Collective::Broadcast:
    case Collective::Reduce:
        steps = "(" + n + "-1)*" + alpha;
        wire = S + "/" + bw;
        break;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
        steps = "(" + n + "-1)*" + alpha;
        wire = "(" + n + "-1)/" + n + "*" + S + "/" + bw;
        break;
    }
    if (q.empty()) return steps + " + " + wire;
    return "max(" + steps + " + " + wire + ", " + wire + "/" + q + ")";
}

// The size-share name of a link for a buffer of `bytes` and its input, or nothing where the link is flat.
std::string shareName(const LinkSpec& link, double bytes, const std::string& name, FormulaInputs& in)
{
    if (link.busBandwidthCurve.empty()) return "";
    in.emplace_back(name, sizeShare(bytes, link));
    return name;
}

} // namespace

Text algorithmText(const GroupPlacement& placed)
{
    const GroupPlacement g = placed.fabric();
    if (!g.crossesNodes) return Text(PS_TEXT("CoreText", "ring (intra-node)"));
    return g.perNode > 1 ? Text(PS_TEXT("CoreText", "hierarchical (intra ring + inter-node ring)"))
                         : Text(PS_TEXT("CoreText", "ring (inter-node)"));
}

double slowestLink(const GroupPlacement& g, const ClusterSpec& cl)
{
    return g.crossesDomains ? cl.interNode.bandwidth : cl.intraNode.bandwidth;
}


// "a + b" of two terms, dropping a zero term.
Term sumTerms(Term a, Term b)
{
    if (b.formula == "0") return a;
    if (a.formula == "0") return b;
    a.formula += " + " + b.formula;
    a.inputs.insert(a.inputs.end(), b.inputs.begin(), b.inputs.end());
    return a;
}

Text linkNote(const GroupPlacement& g)
{
    const Text algorithm = algorithmText(g);
    const Text where = g.crossesDomains
        ? (g.domainsSpanned < g.nodesSpanned
                  ? Text(PS_TEXT("CoreText", "%1, the group crosses NVLink domains."), algorithm)
                  : Text(PS_TEXT("CoreText", "%1, the group crosses nodes."), algorithm))
        : (g.crossesNodes ? Text(PS_TEXT("CoreText", "%1, inside one NVLink domain."), algorithm)
                          : Text(PS_TEXT("CoreText", "%1, inside one node."), algorithm));
    return Text::join({ where,
                          Text(PS_TEXT("CoreText",
                              "alpha: seconds per step; bw: bytes/s per GPU per direction times the link's efficiency (the "
                              "all-reduce's or all-to-all's own where the link has one); q: the share of that bus bandwidth "
                              "the link's published curve gives a buffer of S bytes; hierarchical: g GPUs of the group per "
                              "node, k = ceil(n/g) nodes, the NVLink and NIC phases pipelined (the slower sets the time).")) },
        Text::Joint::Sentences);
}

// groupSeconds() written out: the alpha-beta terms of one collective on a group (Thakur et al.), its input
// names suffixed with `tag` so that two collectives can share one formula.
Term collectiveTerm(Collective c, const GroupPlacement& placed, double bytes, const ClusterSpec& cl, const std::string& tag)
{
    const GroupPlacement g = placed.fabric();
    if (g.size <= 1 || bytes <= 0) return { "0", {} };
    const std::string n = "n" + tag, S = "S" + tag;
    const int nodes = g.crossesNodes && g.perNode > 1 ? (g.size + g.perNode - 1) / g.perNode : 1;
    if (!g.crossesNodes || g.perNode <= 1 || nodes <= 1) {
        const LinkSpec& link = g.crossesNodes && g.perNode <= 1 ? cl.interNode : cl.intraNode;
        const std::string a = "alpha" + tag, bw = "bw" + tag;
        FormulaInputs in { { n, double(g.size) }, { S, bytes }, { a, link.latency }, { bw, collectiveBandwidth(c, link) } };
        const std::string q = shareName(link, bytes, "q" + tag, in);
        return { ringFormula(c, n, S, a, bw, q), in };
    }
    const std::string gp = "g" + tag, k = "k" + tag, aI = "alphaIntra" + tag, bI = "bwIntra" + tag,
                      aX = "alphaInter" + tag, bX = "bwInter" + tag;
    // The intra-node phases of a hierarchical all-reduce are a reduce-scatter and an all-gather.
    const Collective intraOp = c == Collective::AllReduce ? Collective::ReduceScatter : c;
    FormulaInputs in { { n, double(g.size) }, { gp, double(g.perNode) }, { k, double(nodes) }, { S, bytes },
        { aI, cl.intraNode.latency }, { bI, collectiveBandwidth(intraOp, cl.intraNode) }, { aX, cl.interNode.latency },
        { bX, collectiveBandwidth(c, cl.interNode) } };
    const std::string sI = shareName(cl.intraNode, bytes, "qIntra" + tag, in),
                      sX = shareName(cl.interNode, bytes, "qInter" + tag, in);
    const std::string shard = S + "/" + gp;
    switch (c) {
    case Collective::AllReduce:
        return { "max(" + ringFormula(Collective::ReduceScatter, gp, S, aI, bI, sI) + " + "
                + ringFormula(Collective::AllGather, gp, S, aI, bI, sI) + ", "
                + ringFormula(Collective::AllReduce, k, shard, aX, bX, sX) + ")",
            in };
    case Collective::ReduceScatter:
        return { "max(" + ringFormula(c, gp, S, aI, bI, sI) + ", " + ringFormula(c, k, shard, aX, bX, sX) + ")", in };
    case Collective::AllGather:
        return { "max(" + ringFormula(c, k, shard, aX, bX, sX) + ", " + ringFormula(c, gp, S, aI, bI, sI) + ")", in };
    case Collective::AllToAll: {
        const std::string remote = S + "*(" + n + "-" + gp + ")/" + n + "/" + bX;
        const std::string local = S + "*(" + gp + "-1)/" + n + "/" + bI;
        const std::string remoteTerm = "(" + n + "-1)*" + aX + " + " + remote;
        return { "max(" + remoteTerm + (sX.empty() ? "" : ", " + remote + "/" + sX) + ", " + local
                + (sI.empty() ? "" : "/" + sI) + ")",
            in };
    }
    default: return { ringFormula(c, n, S, aX, bX, sX), in };
    }
}

DpTerms dpTerms(const Inputs& in, const StageParams& sp)
{
    return { in.g * sp.dense, in.g * sp.expert, in.w * sp.dense, in.w * sp.expert };
}

// Data-parallel traffic goes in buckets (Megatron-Core DDP: max(4e7, 1e6*dp) elements; DeepSpeed ZeRO-2/3:
// reduce_bucket_size and allgather_bucket_size, 5e8 elements), each a collective of its own: the size curve
// applies to a bucket, not to the whole gradient.
double bucketElements(const Inputs& in)
{
    return in.P.zero >= 2 ? 5.0e8 : std::max(4.0e7, 1.0e6 * in.dpcp);
}

// One rank's DP collective over the dense group and the expert group: S/Sb buckets of Sb bytes each.
double dpSeconds(const Inputs& in, Collective c, double bytesD, double bytesE, double elementBytes)
{
    const double bucket = bucketElements(in) * elementBytes;
    double t = 0;
    for (auto [bytes, group] : { std::pair { bytesD, &in.layout.dpCp }, std::pair { bytesE, &in.layout.expertDp } }) {
        if (bytes <= 0) continue;
        const double sb = std::min(bytes, bucket);
        t += bytes / sb * groupSeconds(c, *group, sb, in.C);
    }
    return t;
}

Term dpTerm(const Inputs& in, Collective c, double bytesD, double bytesE, double elementBytes)
{
    const double bucket = bucketElements(in) * elementBytes;
    auto one = [&](double bytes, const GroupPlacement& g, const std::string& tag) -> Term {
        if (bytes <= 0) return { "0", {} };
        const double sb = std::min(bytes, bucket);
        Term t = collectiveTerm(c, g, sb, in.C, tag);
        if (t.formula == "0" || sb >= bytes) return t;
        t.formula = "nb" + tag + "*(" + t.formula + ")";
        t.inputs.emplace_back("nb" + tag, bytes / sb);
        return t;
    };
    return sumTerms(one(bytesD, in.layout.dpCp, ""), one(bytesE, in.layout.expertDp, "E"));
}

} // namespace planscope::evaluation
