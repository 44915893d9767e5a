#include "AutoBalance.h"

#include "spec/ScheduleTraits.h"
#include "Evaluate.h"
#include "spec/PipelineLayout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace planscope {

namespace {

constexpr std::int64_t kNoMemory = std::numeric_limits<std::int64_t>::max();

// "t*n" (n layers of one letter), "t" for one, nothing for none.
std::string repeated(char letter, int n)
{
    if (n <= 0) return {};
    return n == 1 ? std::string(1, letter) : std::string(1, letter) + "*" + std::to_string(n);
}

// The plan with this layout as its only split option (Megatron-Core refuses the layout beside the others).
Plan withLayout(const Plan& plan, std::string layout)
{
    Plan p = plan;
    p.parallel.layout = std::move(layout);
    p.parallel.firstStageLayers = 0;
    p.parallel.lastStageLayers = 0;
    p.parallel.embeddingInSplit = false;
    p.parallel.lossInSplit = false;
    return p;
}

SplitFigures figuresOf(const Plan& plan, const Prediction& pr)
{
    SplitFigures f;
    f.split = splitSource(plan);
    if (!pr.valid) return f;
    f.valid = true;
    for (std::size_t r = 0; r < pr.stageTimes.size(); ++r) {
        const double t = pr.stageTimes[r].forwardSeconds + pr.stageTimes[r].backwardSeconds;
        if (r == 0 || t > f.slowestRankSeconds) {
            f.slowestRankSeconds = t;
            f.slowestRank = int(r);
        }
    }
    f.peakBytes = pr.peakBytes;
    f.peakRank = pr.peakStage;
    f.fits = pr.fits;
    return f;
}

// n layers spread over `parts`, the remainder on the last parts.
std::vector<int> spread(int n, int parts)
{
    std::vector<int> out(std::size_t(std::max(0, parts)), parts > 0 ? n / parts : 0);
    for (int i = 0; i < (parts > 0 ? n % parts : 0); ++i) ++out[out.size() - 1 - std::size_t(i)];
    return out;
}

class Balancer {
public:
    Balancer(const Plan& base, const std::vector<VirtualStage>& stages, int layers, int mtp, const OpCosts& costs,
        std::int64_t capacity)
        : m_base(base)
        , m_layers(layers)
        , m_mtp(mtp)
        , m_costs(costs)
        , m_capacity(capacity)
    {
        for (const VirtualStage& v : stages) {
            m_stageRank.push_back(v.rank);
            m_ranks = std::max(m_ranks, v.rank + 1);
            m_dense += v.denseLayers;
        }
        m_lossRank = m_stageRank.empty() ? 0 : m_stageRank.back();
    }

    int ranks() const { return m_ranks; }
    const std::vector<int>& stageRanks() const { return m_stageRank; }

    // One microbatch through rank r holding n layers, forward + backward, as evaluate() sums stageTimes (OpCosts
    // forward/backward): the MTP layers and the output layer on the last stage's rank, an MoE model's dense
    // layers (its first ones) on the first stage's.
    double seconds(int r, int n) const { return passSeconds(n, denseOf(r == m_stageRank.front(), n), r == m_lossRank); }

    // The virtual stages' layers for these per-rank counts: each rank's layers water-filled over its chunks by
    // the chunk's time (the output layer's chunk counts its cost), a tie going to the later chunk, which holds
    // its activations for less of the schedule.
    std::vector<int> stagesOf(const std::vector<int>& rankLayers) const
    {
        const int S = int(m_stageRank.size());
        std::vector<int> out(std::size_t(S), 0);
        for (int r = 0; r < m_ranks; ++r) {
            for (int i = 0; i < rankLayers[std::size_t(r)]; ++i) {
                int best = -1;
                double bestTime = 0;
                for (int k = 0; k < S; ++k) {
                    if (m_stageRank[std::size_t(k)] != r) continue;
                    const double t = chunkSeconds(k, out[std::size_t(k)] + 1);
                    if (best < 0 || t <= bestTime) {
                        best = k;
                        bestTime = t;
                    }
                }
                if (best >= 0) ++out[std::size_t(best)];
            }
        }
        return out;
    }

    std::string layoutOf(const std::vector<int>& rankLayers) const { return layoutString(stagesOf(rankLayers), m_mtp); }

    // Bytes per GPU of rank r when it holds n layers: a rank's memory depends on its own layers alone (its
    // weights, gradients, optimizer states and the activations it keeps), so it is read off a probe layout that
    // gives r its n layers and spreads the rest over the other ranks; every probe's ranks are remembered.
    std::int64_t memory(int r, int n)
    {
        const auto key = std::make_pair(r, n);
        if (auto it = m_memory.find(key); it != m_memory.end()) return it->second;
        std::vector<int> counts(std::size_t(m_ranks), 0);
        const std::vector<int> rest = spread(m_layers - n, m_ranks - 1);
        for (int q = 0, j = 0; q < m_ranks; ++q)
            counts[std::size_t(q)] = q == r ? n : rest[std::size_t(j++)];
        measure(counts);
        const auto it = m_memory.find(key);
        return it != m_memory.end() ? it->second : kNoMemory;
    }

    // The most layers rank r can hold within `limit` bytes (memory grows with the layers), -1 when not even none.
    int memoryCap(int r, std::int64_t limit)
    {
        if (m_ranks == 1) return memory(r, m_layers) <= limit ? m_layers : -1;
        if (memory(r, 0) > limit) return -1;
        int lo = 0, hi = m_layers; // memory(r, lo) fits
        while (lo < hi) {
            const int mid = lo + (hi - lo + 1) / 2;
            if (memory(r, mid) <= limit)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }

    std::vector<int> memoryCaps(std::int64_t limit)
    {
        std::vector<int> caps(static_cast<std::size_t>(m_ranks), 0);
        for (int r = 0; r < m_ranks; ++r) caps[std::size_t(r)] = memoryCap(r, limit);
        return caps;
    }

    std::int64_t capacity() const { return m_capacity; }

    // The peak memory of a split: its fullest rank.
    std::int64_t peak(const std::vector<int>& rankLayers)
    {
        std::int64_t most = 0;
        for (int r = 0; r < m_ranks; ++r) most = std::max(most, memory(r, rankLayers[std::size_t(r)]));
        return most;
    }

    // The split with the least slowest-rank time under per-rank caps on the layers, and among those the least
    // peak memory; empty when the caps leave too few places.
    std::vector<int> fastest(const std::vector<int>& caps)
    {
        long long room = 0;
        for (int c : caps) {
            if (c < 0) return {};
            room += c;
        }
        if (room < m_layers) return {};
        // Water-filling: each layer to the rank whose time grows least. The L smallest of all ranks' time steps
        // are taken, so the slowest rank ends as fast as any split within the caps allows.
        std::vector<int> n(std::size_t(m_ranks), 0);
        for (int i = 0; i < m_layers; ++i) {
            int best = -1;
            for (int r = 0; r < m_ranks; ++r)
                if (n[std::size_t(r)] < caps[std::size_t(r)]
                    && (best < 0 || seconds(r, n[std::size_t(r)] + 1) < seconds(best, n[std::size_t(best)] + 1)))
                    best = r;
            ++n[std::size_t(best)];
        }
        double bottleneck = 0;
        for (int r = 0; r < m_ranks; ++r) bottleneck = std::max(bottleneck, seconds(r, n[std::size_t(r)]));
        // Every split with that bottleneck: up to u_r layers on rank r. Layers come off the rank with the most
        // memory until L remain (the least peak among them), ties off the earlier rank.
        std::vector<int> u = n;
        for (int r = 0; r < m_ranks; ++r)
            while (u[std::size_t(r)] < caps[std::size_t(r)] && seconds(r, u[std::size_t(r)] + 1) <= bottleneck)
                ++u[std::size_t(r)];
        return trimToLayers(std::move(u));
    }

    // The split with the least peak memory (used when none fits): each layer to the rank whose memory grows least.
    std::vector<int> leanest()
    {
        std::vector<int> n(std::size_t(m_ranks), 0);
        for (int i = 0; i < m_layers; ++i) {
            int best = -1;
            std::int64_t bestBytes = 0;
            for (int r = m_ranks - 1; r >= 0; --r) {
                const std::int64_t b = memory(r, n[std::size_t(r)] + 1);
                if (best < 0 || b < bestBytes) {
                    best = r;
                    bestBytes = b;
                }
            }
            ++n[std::size_t(best)];
        }
        return n;
    }

private:
    double chunkSeconds(int k, int n) const { return passSeconds(n, denseOf(k == 0, n), k + 1 == int(m_stageRank.size())); }

    double passSeconds(int n, int dense, bool last) const
    {
        const int mtp = last ? m_mtp : 0;
        return m_costs.forward(n, dense, mtp, last) + m_costs.backward(n, dense, mtp, last);
    }

    // Dense layers among n: all of a dense model's; of an MoE model's first layers (virtualStages marks them), those
    // the first stage holds. A first stage with fewer layers than that would pass the rest on to the next stages,
    // which this count leaves out (the figures reported come from evaluate() all the same).
    int denseOf(bool first, int n) const
    {
        if (m_dense >= m_layers) return n;
        return first ? std::min(n, m_dense) : 0;
    }

    std::vector<int> trimToLayers(std::vector<int> u)
    {
        long long excess = -m_layers;
        for (int x : u) excess += x;
        for (; excess > 0; --excess) {
            int worst = -1;
            std::int64_t worstBytes = 0;
            for (int r = 0; r < m_ranks; ++r) {
                if (u[std::size_t(r)] == 0) continue;
                const std::int64_t b = memory(r, u[std::size_t(r)]);
                if (worst < 0 || b > worstBytes) {
                    worst = r;
                    worstBytes = b;
                }
            }
            --u[std::size_t(worst)];
        }
        return u;
    }

    void measure(const std::vector<int>& counts)
    {
        const Prediction pr = evaluate(withLayout(m_base, layoutOf(counts)));
        for (int q = 0; q < m_ranks; ++q) {
            const std::int64_t bytes = pr.valid && std::size_t(q) < pr.stages.size()
                ? pr.stages[std::size_t(q)].totalBytes
                : kNoMemory;
            m_memory.emplace(std::make_pair(q, counts[std::size_t(q)]), bytes);
        }
    }

    const Plan& m_base;
    int m_layers = 0;
    int m_mtp = 0;
    OpCosts m_costs;
    std::int64_t m_capacity = 0;
    std::vector<int> m_stageRank;
    int m_ranks = 1;
    int m_lossRank = 0;
    int m_dense = 0; // layers with the dense MLP (all of a dense model)
    std::map<std::pair<int, int>, std::int64_t> m_memory;
};

bool takesLayout(ScheduleKind k)
{
    return traits(k).customSplit();
}

} // namespace

std::string layoutString(const std::vector<int>& stageLayers, int mtpLayers)
{
    const int S = int(stageLayers.size());
    if (S == 0) return {};
    auto stage = [&](int k) {
        std::string s = (k == 0 ? "E" : "") + repeated('t', stageLayers[std::size_t(k)]);
        if (k == S - 1) s += repeated('m', mtpLayers) + "L";
        return s;
    };
    if (S == 1) return stage(0);
    std::string out = stage(0) + "|";
    // The middle stages, a run of equal ones as one group: "(t*8|)*6".
    for (int k = 1; k < S - 1;) {
        int end = k + 1;
        while (end < S - 1 && stageLayers[std::size_t(end)] == stageLayers[std::size_t(k)]) ++end;
        const int run = end - k;
        out += run > 1 ? "(" + stage(k) + "|)*" + std::to_string(run) : stage(k) + "|";
        k = end;
    }
    return out + stage(S - 1);
}

Result<BalancedSplit> autoBalance(const Plan& plan)
{
    const ScheduleKind kind = plan.training.schedule;
    if (!takesLayout(kind))
        return Result<BalancedSplit>::failure("training.schedule",
            Text(PS_TEXT("CoreText", "balancing writes parallel.layout, which the %1 schedule does not take; choose a "
                                     "schedule with a loop placement"),
                toString(kind)));
    if (plan.parallel.pp <= 1)
        return Result<BalancedSplit>::failure(
            "parallel.pp", Text(PS_TEXT("CoreText", "one pipeline stage: there is nothing to balance")));

    const int L = std::max(0, plan.model.layers);
    // The MTP layers the plan places stay with the loss (Megatron-Core builds the MTP block on the last stage).
    int mtp = 0;
    for (const VirtualStage& v : virtualStages(plan)) mtp += v.mtpLayers;

    // A first layout (the layers spread evenly) validates the plan with the split that balancing writes.
    const Plan split = withLayout(plan, {});
    const std::vector<VirtualStage> stages = virtualStages(split);
    Balancer seed(split, stages, L, mtp, {}, 0);
    const Plan base = withLayout(plan, seed.layoutOf(spread(L, seed.ranks())));
    const Prediction basePr = evaluate(base);
    if (!basePr.valid) return Result<BalancedSplit>(basePr.errors);

    Balancer b(base, stages, L, mtp, basePr.opCosts, basePr.capacityBytes);
    // The fastest split ignoring memory; where it does not fit, again under each rank's memory cap.
    std::vector<int> caps(std::size_t(b.ranks()), L);
    std::vector<int> best = b.fastest(caps);
    Plan balanced = withLayout(plan, b.layoutOf(best));
    Prediction pr = evaluate(balanced);
    if (pr.valid && !pr.fits) {
        best = b.fastest(b.memoryCaps(b.capacity()));
        // None fits: the fastest of the splits with the least peak, reported as not fitting.
        if (best.empty()) best = b.fastest(b.memoryCaps(b.peak(b.leanest())));
        balanced = withLayout(plan, b.layoutOf(best));
        pr = evaluate(balanced);
    }
    if (!pr.valid) return Result<BalancedSplit>(pr.errors);

    BalancedSplit out;
    out.stageLayers = b.stagesOf(best);
    out.stageRanks = b.stageRanks();
    out.rankLayers = best;
    for (const StageTime& t : pr.stageTimes) out.rankSeconds.push_back(t.forwardSeconds + t.backwardSeconds);
    for (const StageMemory& m : pr.stages) out.rankBytes.push_back(m.totalBytes);
    out.mtpLayers = mtp;
    out.layout = balanced.parallel.layout;
    out.plan = balanced;
    out.fits = pr.fits;
    out.capacityBytes = pr.capacityBytes;
    out.before = figuresOf(plan, evaluate(plan));
    out.after = figuresOf(balanced, pr);
    return out;
}

} // namespace planscope
