#include "RankLayout.h"

#include "util/Memo.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <numeric>
#include <string_view>

namespace planscope {

bool parseOrder(const std::string& order, std::vector<Dim>& dims, Text& why)
{
    dims.clear();
    dims.reserve(5);
    std::size_t start = 0;
    while (start <= order.size()) {
        std::size_t end = order.find('-', start);
        if (end == std::string::npos) end = order.size();
        const std::string_view name(order.data() + start, end - start);
        Dim d;
        if (name == "tp") d = Dim::TP;
        else if (name == "cp") d = Dim::CP;
        else if (name == "ep") d = Dim::EP;
        else if (name == "dp") d = Dim::DP;
        else if (name == "pp") d = Dim::PP;
        else {
            why = Text(PS_TEXT("CoreText", "unknown name \"%1\"; use tp, cp, ep, dp and pp joined by '-'"), name);
            return false;
        }
        if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
            why = Text(PS_TEXT("CoreText", "\"%1\" appears twice"), name);
            return false;
        }
        dims.push_back(d);
        start = end + 1;
    }
    for (auto [d, name] : std::array { std::pair { Dim::TP, "tp" }, std::pair { Dim::CP, "cp" },
             std::pair { Dim::DP, "dp" }, std::pair { Dim::PP, "pp" } })
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
            why = Text(PS_TEXT("CoreText", "\"%1\" is missing"), name);
            return false;
        }
    return true;
}

const GroupPlacement& RankLayout::of(GroupKind kind) const
{
    switch (kind) {
    case GroupKind::TP: return tp;
    case GroupKind::CP: return cp;
    case GroupKind::DPCP: return dpCp;
    case GroupKind::PP: return pp;
    case GroupKind::EP: return ep;
    case GroupKind::ExpertDP: return expertDp;
    }
    return tp;
}

namespace {

// One group's members as offsets from a base rank: an arithmetic progression (count, step) or, for a
// two-dimensional group whose dims are not adjacent, the sorted offsets.
struct Pattern {
    long count = 1, step = 1;
    std::vector<long> offsets; // used when not empty
};

struct Span {
    int nodes = 1;
    int fullest = 1;
};

// Nodes spanned and the fullest node's count of the ranks r + offsets, 0 <= r < G.
Span spanOf(const Pattern& pat, long r, int G)
{
    Span sp;
    if (!pat.offsets.empty()) {
        long node = -1;
        int run = 0;
        sp.nodes = 0;
        sp.fullest = 0;
        for (long o : pat.offsets) {
            const long n = (r + o) / G;
            if (n != node) {
                node = n;
                ++sp.nodes;
                run = 0;
            }
            sp.fullest = std::max(sp.fullest, ++run);
        }
        return sp;
    }
    const long n = pat.count, s = pat.step;
    if (n <= 1) return sp;
    if (s >= G) return { int(n), 1 };
    const long last = r + (n - 1) * s;
    sp.nodes = int(last / G + 1);
    // Members on node k: indices i with kG <= r + i*s < (k+1)G. The count depends on (kG - r) mod s, which
    // repeats with a period dividing s, so nodes 0 .. s cover every case.
    sp.fullest = 0;
    const long nodes = std::min<long>(sp.nodes, s + 1);
    for (long k = 0; k < nodes; ++k) {
        const long lo = std::max(0L, (k * G - r + s - 1) / s);
        const long hi = std::min(n - 1, ((k + 1) * G - r + s - 1) / s - 1);
        if (hi >= lo) sp.fullest = std::max(sp.fullest, int(hi - lo + 1));
    }
    return sp;
}

// A set of residues mod G: on the stack for nodes of up to 256 GPUs, on the heap beyond.
class Residues {
public:
    explicit Residues(int G) : m_g(G)
    {
        if (G > kSmall) m_big.assign(std::size_t(G), 0);
    }
    int modulus() const { return m_g; }
    void add(long r)
    {
        if (m_g > kSmall) m_big[std::size_t(r)] = 1;
        else m_small.set(std::size_t(r));
    }
    bool has(long r) const { return m_g > kSmall ? m_big[std::size_t(r)] != 0 : m_small.test(std::size_t(r)); }

private:
    static constexpr int kSmall = 256;
    int m_g;
    std::bitset<kSmall> m_small;
    std::vector<char> m_big;
};

// The residues mod G of base + c*stride (0 <= c < size) for every base in `set`.
void spread(Residues& set, long size, long stride)
{
    if (size <= 1) return;
    const int G = set.modulus();
    const long step = stride % G;
    const long period = step == 0 ? 1 : G / std::gcd(step, long(G));
    const long count = std::min(size, period);
    if (count <= 1) return;
    Residues next(G);
    for (int r = 0; r < G; ++r)
        if (set.has(r))
            for (long c = 0; c < count; ++c) next.add((r + c * step) % G);
    set = std::move(next);
}

// The worst of the groups base + pattern over the bases' residues.
void worst(const Pattern& pat, const Residues& bases, int G, Span& acc)
{
    for (int r = 0; r < G; ++r) {
        if (!bases.has(r)) continue;
        const Span sp = spanOf(pat, r, G);
        if (sp.nodes > acc.nodes || (sp.nodes == acc.nodes && sp.fullest < acc.fullest)) acc = sp;
    }
}

GroupPlacement placement(int size, int stride, const Span& sp)
{
    GroupPlacement g;
    g.size = size;
    g.stride = stride;
    if (size <= 1) return g;
    g.nodesSpanned = g.domainsSpanned = sp.nodes;
    g.perNode = g.perDomain = sp.fullest;
    g.crossesNodes = g.crossesDomains = sp.nodes > 1;
    return g;
}

// The dense and expert groups of one plan, as strided dimensions.
struct Lattice {
    int G = 1;
    long tp = 1, cp = 1, dp = 1, pp = 1, ep = 1;
    long sTp = 1, sCp = 1, sDp = 1, sPp = 1;
    long nFast = 1, sFast = 1, nSlow = 1, sSlow = 1; // the faster and slower of cp and dp

    // Offset of the combined data-parallel index ci (fast dimension first).
    long offset(long ci) const { return (ci % nFast) * sFast + (ci / nFast) * sSlow; }
    bool adjacent() const { return nFast == 1 || nSlow == 1 || sSlow == nFast * sFast; }

    // Residues mod G of the ranks sum c*stride over the given dimensions (0 <= c < size).
    Residues bases(std::initializer_list<std::pair<long, long>> dims) const
    {
        Residues set(G);
        set.add(0);
        for (auto [n, s] : dims) spread(set, n, s);
        return set;
    }

    // The members first + i*by (i < count) of the combined index, as offsets from the first one's rank.
    Pattern combined(long first, long count, long by) const
    {
        Pattern p;
        p.count = count;
        if (count <= 1) return p;
        if (adjacent() || first % nFast + (count - 1) * by < nFast) { // linear in the index
            p.step = offset(first + by) - offset(first);
            return p;
        }
        if (by % nFast == 0) { // the fast coordinate stays: a progression over the slow dimension
            p.step = (by / nFast) * sSlow;
            return p;
        }
        const long o0 = offset(first);
        for (long i = 0; i < count; ++i) p.offsets.push_back(offset(first + i * by) - o0);
        std::sort(p.offsets.begin(), p.offsets.end());
        return p;
    }
};

// The worst group of an expert kind: groups k = 0 .. groups-1, each `count` members of the combined index
// starting at first(k) with step `by`.
template<typename First>
Span expertWorst(const Lattice& l, long groups, long count, long by, First first, bool translates)
{
    Span acc { 1, int(count) };
    const Residues bases = l.bases({ { l.tp, l.sTp }, { l.pp, l.sPp } });
    auto moved = [&](long k, Residues& set) {
        const long shift = l.offset(first(k)) % l.G;
        for (int r = 0; r < l.G; ++r)
            if (bases.has(r)) set.add((r + shift) % l.G);
    };
    if (translates) {
        // Every group is group 0 moved by the offset of its first member: one pattern, more bases.
        Residues set(l.G);
        for (long k = 0; k < groups; ++k) moved(k, set);
        worst(l.combined(first(0), count, by), set, l.G, acc);
        return acc;
    }
    for (long k = 0; k < groups; ++k) {
        Residues set(l.G);
        moved(k, set);
        worst(l.combined(first(k), count, by), set, l.G, acc);
    }
    return acc;
}

} // namespace

GroupPlacement placeRanks(std::vector<long> ranks, int gpusPerNode)
{
    GroupPlacement g;
    g.size = int(ranks.size());
    if (ranks.size() <= 1 || gpusPerNode <= 0) return g;
    std::sort(ranks.begin(), ranks.end());
    long node = -1;
    int nodes = 0, run = 0, maxRun = 0;
    for (long r : ranks) {
        const long n = r / gpusPerNode;
        if (n != node) {
            node = n;
            ++nodes;
            run = 0;
        }
        maxRun = std::max(maxRun, ++run);
    }
    g.nodesSpanned = g.domainsSpanned = nodes;
    g.perNode = g.perDomain = maxRun;
    g.crossesNodes = g.crossesDomains = nodes > 1;
    return g;
}

// Every member given: one added to LayoutInputs and not filled here fails the build.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wmissing-field-initializers"
LayoutInputs layoutInputs(const Plan& plan)
{
    const ParallelSpec& p = plan.parallel;
    return LayoutInputs { p.tp, p.cp, p.dp, p.pp, p.ep, p.etp, plan.cluster.gpusPerNode, p.order,
        plan.cluster.nvlinkDomainNodes };
}
#pragma GCC diagnostic pop

namespace {
RankLayout computeLayout(const LayoutInputs& in);
RankLayout computeAt(const LayoutInputs& in, int groupGpus);
}

// validate() and evaluate() both ask for the same plan's layout: the last one per thread, keyed by all it reads.
RankLayout rankLayout(const LayoutInputs& inputs) { return memoLast<LayoutInputs, RankLayout, computeLayout>(inputs); }

RankLayout rankLayout(const Plan& plan) { return rankLayout(layoutInputs(plan)); }

namespace {

// The node tier, and the NVLink-domain tier as the same layout over domains of gpusPerNode * nvlinkDomainNodes GPUs.
RankLayout computeLayout(const LayoutInputs& p)
{
    RankLayout out = computeAt(p, p.gpusPerNode);
    const int domain = p.nvlinkDomainNodes > 1 ? p.gpusPerNode * p.nvlinkDomainNodes : 0;
    const RankLayout d = domain > 0 ? computeAt(p, domain) : out;
    for (auto [g, dg] : { std::pair { &out.tp, &d.tp }, std::pair { &out.cp, &d.cp }, std::pair { &out.dpCp, &d.dpCp },
             std::pair { &out.pp, &d.pp }, std::pair { &out.ep, &d.ep }, std::pair { &out.expertDp, &d.expertDp } }) {
        g->domainsSpanned = dg->nodesSpanned;
        g->perDomain = dg->perNode;
        g->crossesDomains = dg->crossesNodes;
    }
    out.ppNeighboursCrossDomains = d.ppNeighboursCrossNodes;
    return out;
}

RankLayout computeAt(const LayoutInputs& p, int groupGpus)
{
    std::vector<Dim> dims;
    Text why;
    if (!parseOrder(p.order, dims, why)) dims = { Dim::TP, Dim::CP, Dim::EP, Dim::DP, Dim::PP };
    const int tp = std::max(1, p.tp), cp = std::max(1, p.cp), dp = std::max(1, p.dp), pp = std::max(1, p.pp);
    RankLayout out;
    int stride = 1;
    for (Dim d : dims) {
        switch (d) {
        case Dim::TP: out.strideTp = stride; stride *= tp; break;
        case Dim::CP: out.strideCp = stride; stride *= cp; break;
        case Dim::DP: out.strideDp = stride; stride *= dp; break;
        case Dim::PP: out.stridePp = stride; stride *= pp; break;
        case Dim::EP: break; // not a dense dimension: carved out of dp*cp below
        }
    }
    out.cpFasterThanDp = out.strideCp <= out.strideDp;
    const int dpcp = dp * cp;
    const int etp = std::max(1, p.etp > 0 ? p.etp : p.tp);
    const int ep = p.ep > 0 && (1LL * tp * dpcp) % (1LL * etp * p.ep) == 0 ? p.ep : 1;
    out.epDegree = ep;

    Lattice l;
    l.G = groupGpus > 0 ? groupGpus : std::max(1, tp * cp * dp * pp);
    l.tp = tp, l.cp = cp, l.dp = dp, l.pp = pp, l.ep = ep;
    l.sTp = out.strideTp, l.sCp = out.strideCp, l.sDp = out.strideDp, l.sPp = out.stridePp;
    if (out.cpFasterThanDp) {
        l.nFast = cp, l.sFast = l.sCp, l.nSlow = dp, l.sSlow = l.sDp;
    } else {
        l.nFast = dp, l.sFast = l.sDp, l.nSlow = cp, l.sSlow = l.sCp;
    }
    const int G = l.G;
    auto dense = [&](long n, long s, std::initializer_list<std::pair<long, long>> others) {
        Span acc { 1, int(n) };
        Pattern pat;
        pat.count = n;
        pat.step = s;
        if (n > 1) worst(pat, l.bases(others), G, acc);
        return placement(int(n), int(s), acc);
    };
    out.tp = dense(tp, l.sTp, { { cp, l.sCp }, { dp, l.sDp }, { pp, l.sPp } });
    out.cp = dense(cp, l.sCp, { { tp, l.sTp }, { dp, l.sDp }, { pp, l.sPp } });
    out.pp = dense(pp, l.sPp, { { tp, l.sTp }, { cp, l.sCp }, { dp, l.sDp } });
    // The gradient-reduction (and ZeRO) group is data parallel times context parallel (Megatron's
    // data_parallel_group_with_context_parallel): the whole combined index.
    {
        Span acc { 1, dpcp };
        if (dpcp > 1) worst(l.combined(0, dpcp, 1), l.bases({ { tp, l.sTp }, { pp, l.sPp } }), G, acc);
        out.dpCp = placement(dpcp, int(l.nFast > 1 ? l.sFast : l.sSlow), acc);
    }
    if (etp != tp && ep > 1) {
        // Expert tensor parallelism of its own size (Megatron-Core's expert rank generator, order etp-ep-edp-pp over
        // the same ranks as tp-cp-dp): ep members sit etp ranks apart, the expert data-parallel group etp*ep apart,
        // inside the block of tp*cp*dp ranks that one pipeline stage spans (contiguous when pp is the slowest).
        const long edp = long(tp) * dpcp / (long(etp) * ep);
        out.ep = dense(ep, etp, { { etp, 1 }, { edp, long(etp) * ep }, { pp, l.sPp } });
        out.expertDp = dense(edp, long(etp) * ep, { { etp, 1 }, { ep, etp }, { pp, l.sPp } });
        out.ppNeighboursCrossNodes = out.pp.crossesNodes;
        return out;
    }
    // Experts: ep takes the fastest-varying part of the combined index, the expert-data-parallel group the
    // rest. Groups are translates of one another when ep and the fast dimension divide one another.
    const bool translates = ep % l.nFast == 0 || l.nFast % ep == 0;
    const long edp = dpcp / ep;
    out.ep = placement(ep, int(l.nFast > 1 ? l.sFast : l.sSlow),
        ep > 1 ? expertWorst(l, edp, ep, 1, [ep](long k) { return k * ep; }, translates) : Span { 1, 1 });
    out.expertDp = ep == 1 ? out.dpCp
                           : placement(int(edp), int(l.combined(0, edp, ep).step),
                               edp > 1 ? expertWorst(l, ep, edp, ep, [](long e) { return e; }, translates) : Span { 1, 1 });
    // In an ascending group some neighbours sit on different nodes exactly when the group spans nodes.
    out.ppNeighboursCrossNodes = out.pp.crossesNodes;
    return out;
}

} // namespace

} // namespace planscope
