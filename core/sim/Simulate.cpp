#include "Timeline.h"

#include "spec/ScheduleTraits.h"
#include "ScheduleRun.h"
#include "cost/Evaluate.h"
#include "cost/Formula.h"
#include "cost/Parameters.h"
#include "cost/Runtime.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>

namespace planscope {

std::string_view toString(Stream s)
{
    switch (s) {
    case Stream::Compute: return "compute";
    case Stream::P2P: return "p2p";
    case Stream::DataParallel: return "data parallel";
    case Stream::ZeroGather: return "ZeRO-3 all-gather";
    case Stream::Optimizer: return "optimizer";
    }
    return "?";
}

std::string_view toString(SpanKind k)
{
    switch (k) {
    case SpanKind::Forward: return "forward";
    case SpanKind::Backward: return "backward";
    case SpanKind::InputGrad: return "input-grad";
    case SpanKind::WeightGrad: return "weight-grad";
    case SpanKind::OverlapFB: return "overlapped F&B";
    case SpanKind::SendActivation: return "send activation";
    case SpanKind::SendGradient: return "send gradient";
    case SpanKind::GradReduce: return "gradient reduction";
    case SpanKind::ParamGather: return "parameter all-gather";
    case SpanKind::OptimizerStep: return "optimizer step";
    }
    return "?";
}

namespace {

SpanKind spanKind(OpKind k)
{
    switch (k) {
    case OpKind::F: return SpanKind::Forward;
    case OpKind::B: return SpanKind::Backward;
    case OpKind::I: return SpanKind::InputGrad;
    case OpKind::W: return SpanKind::WeightGrad;
    case OpKind::OverlapFB: return SpanKind::OverlapFB;
    }
    return SpanKind::Forward;
}

constexpr double kEps = 1e-12;

// Phase 1: each stage's forward, backward and weight-gradient times (the layers of its chunk, the output layer on a
// pipeline's last stage, the per-microbatch ZeRO-2/3 exposure spread over the rank's chunks) and its chunk index.
struct StagePlan {
    StageDurations durations;
    std::vector<int> chunkOf; // stage -> its chunk on its rank
};

StagePlan stagePlan(const Prediction& pred, const Schedule& s, const std::vector<VirtualStage>& split,
    const std::vector<RankShape>& shapes)
{
    const int p = s.ranks;
    StagePlan out;
    const OpCosts& c = pred.opCosts;
    out.durations.forward.resize(std::size_t(s.stages));
    out.durations.backward.resize(std::size_t(s.stages));
    out.durations.weight.resize(std::size_t(s.stages));
    auto& F = out.durations.forward;
    auto& B = out.durations.backward;
    auto& W = out.durations.weight;
    out.chunkOf.assign(std::size_t(s.stages), 0);
    std::vector<int> seen(std::size_t(p), 0);
    for (int st = 0; st < s.stages; ++st) {
        const int r = s.stageToRank[std::size_t(st)];
        const int chunk = seen[std::size_t(r)]++;
        out.chunkOf[std::size_t(st)] = chunk;
        const RankShape& sh = shapes[std::size_t(r)];
        const bool bidir = s.placement == Placement::Bidirectional;
        const VirtualStage* vs = bidir ? nullptr : &split[std::size_t(st)];
        const double layers = vs ? double(vs->layers) : sh.layersPerMicrobatch;
        const double dense = vs ? double(vs->denseLayers) : sh.denseLayersPerMicrobatch;
        const double mtp = vs ? double(vs->mtpLayers) : sh.mtpPerMicrobatch;
        const bool last = s.nextStage(st) < 0;
        // The per-microbatch exposure spread over the chunks a microbatch passes on this rank (one for DualPipe).
        const int passes = s.placement == Placement::Bidirectional ? 1 : std::max(1, s.chunksPerRank);
        const StageTime& rt = pred.stageTimes[std::size_t(r)];
        const double zero = (rt.zeroExposedSeconds + rt.offloadExposedSeconds) / passes;
        F[std::size_t(st)] = c.forward(layers, dense, mtp, last);
        B[std::size_t(st)] = c.backward(layers, dense, mtp, last) + zero;
        W[std::size_t(st)] = c.weightGrad(layers, dense, mtp, last);
    }
    return out;
}

// Phase 2: the spans, pushed in the order views and the critical path read them, (rank, stream, start): per rank its
// compute spans, its sends, then its data-parallel, ZeRO-3 gather and optimizer spans; the step ends when the last
// rank's optimizer (and the part of its parameter gather the next step does not hide) ends. Returns each rank's range
// of compute spans.
std::vector<std::pair<std::size_t, std::size_t>> placeSpans(
    const Plan& plan, const Prediction& pred, const ScheduleRun& run, const std::vector<int>& chunkOf, Timeline& tl)
{
    const Schedule& s = tl.schedule;
    const OpCosts& c = pred.opCosts;
    const int p = plan.parallel.pp;
    const bool overlap = plan.training.overlapGradReduce;
    const int zero = plan.parallel.zero;
    std::size_t total = 0;
    for (const auto& r : run.ranks) total += r.size() * (zero >= 3 ? 5 : zero >= 2 ? 4 : 3);
    tl.spans.reserve(total + std::size_t(p) * 4);
    tl.ranks.resize(std::size_t(p));
    tl.memory.resize(std::size_t(p));
    std::vector<Span> dataParallel, gathers;
    std::vector<std::pair<std::size_t, std::size_t>> computeRange(static_cast<std::size_t>(p)); // each rank's compute spans
    // Per stage, whether its forward output (its backward's gradient) goes to a stage on another rank: looked up once,
    // not per op (nextStage() and previousStage() divide).
    std::vector<char> sendsForward(std::size_t(s.stages), 0), sendsBackward(std::size_t(s.stages), 0);
    for (int st = 0; st < s.stages; ++st) {
        const int rank = s.stageToRank[std::size_t(st)];
        const int next = s.nextStage(st), prev = s.previousStage(st);
        sendsForward[std::size_t(st)] = next >= 0 && s.stageToRank[std::size_t(next)] != rank;
        sendsBackward[std::size_t(st)] = prev >= 0 && s.stageToRank[std::size_t(prev)] != rank;
    }
    for (int r = 0; r < p; ++r) {
        const auto& timed = run.ranks[std::size_t(r)];
        computeRange[std::size_t(r)].first = tl.spans.size();
        for (const TimedOp& t : timed) {
            const Op& op = t.op;
            // Braces, not emplace_back's parentheses: Clang before 16 has no aggregate init from parentheses (fuzz build).
            tl.spans.push_back(Span { r, Stream::Compute, spanKind(op.kind), op.stage, chunkOf[std::size_t(op.stage)], op.microbatch,
                t.start, t.end, op.stage2, op.microbatch2 });
        }
        computeRange[std::size_t(r)].second = tl.spans.size();
        for (const TimedOp& t : timed) {
            const Op& op = t.op;
            auto send = [&](SpanKind kind, int stage, int mb, bool across) {
                if (across) tl.spans.push_back(Span { r, Stream::P2P, kind, stage, chunkOf[std::size_t(stage)], mb, t.end, t.end + c.p2p });
            };
            if (op.kind == OpKind::F || op.kind == OpKind::OverlapFB)
                send(SpanKind::SendActivation, op.stage, op.microbatch, sendsForward[std::size_t(op.stage)] != 0);
            if (op.kind == OpKind::B || op.kind == OpKind::I)
                send(SpanKind::SendGradient, op.stage, op.microbatch, sendsBackward[std::size_t(op.stage)] != 0);
            if (op.kind == OpKind::OverlapFB)
                send(SpanKind::SendGradient, op.stage2, op.microbatch2, sendsBackward[std::size_t(op.stage2)] != 0);
        }

        // Data parallel and the optimizer.
        const StageTime& st = pred.stageTimes[std::size_t(r)];
        dataParallel.clear();
        gathers.clear();
        double lastEnd = 0, lastBackwardStart = 0, firstForward = -1;
        for (const TimedOp& t : timed) {
            lastEnd = std::max(lastEnd, t.end);
            if (t.op.kind != OpKind::F) lastBackwardStart = std::max(lastBackwardStart, t.start);
            if (firstForward < 0 && (t.op.kind == OpKind::F || t.op.kind == OpKind::OverlapFB)) firstForward = t.end - t.start;
        }
        double dpEnd = lastEnd;
        if (zero <= 1) {
            if (st.dpReduceSeconds > 0) {
                // Gradient buckets become ready during the last backward; the reduction overlaps it when allowed.
                // The last bucket is only ready when the backward ends (the closed form's max(q*reduce, reduce - B)).
                const double start = overlap ? lastBackwardStart : lastEnd;
                dpEnd = std::max(start + st.dpReduceSeconds, lastEnd + (overlap ? st.dpLastBucketShare * st.dpReduceSeconds : 0.0));
                dataParallel.push_back({ r, Stream::DataParallel, SpanKind::GradReduce, -1, -1, -1, start, dpEnd });
            }
        } else {
            // ZeRO-2/3 reduce-scatter every microbatch's gradients as its backward runs.
            double dpFree = 0;
            for (const TimedOp& t : timed)
                if (t.op.kind == OpKind::B || t.op.kind == OpKind::I || t.op.kind == OpKind::OverlapFB) {
                    // Buckets reduce while the backward runs; what does not fit is already in B (zeroExposedSeconds).
                    const double start = std::max(t.start, dpFree);
                    dpFree = start + st.dpReduceSeconds / std::max(1, s.chunksPerRank);
                    dataParallel.push_back({ r, Stream::DataParallel, SpanKind::GradReduce, t.op.kind == OpKind::OverlapFB ? t.op.stage2 : t.op.stage,
                        -1, t.op.kind == OpKind::OverlapFB ? t.op.microbatch2 : t.op.microbatch, start, dpFree });
                }
            dpEnd = std::max(lastEnd, dpFree);
            if (st.zeroGatherSeconds > 0) {
                // ZeRO-3 gathers each op's weights just before it runs (prefetched behind the previous op).
                const double each = st.zeroGatherSeconds / std::max(1, s.chunksPerRank);
                double gatherFree = 0;
                for (const TimedOp& t : timed) {
                    if (t.op.kind == OpKind::W) continue;
                    const double start = std::max(gatherFree, t.start - each);
                    gatherFree = start + each;
                    gathers.push_back({ r, Stream::ZeroGather, SpanKind::ParamGather, t.op.stage, chunkOf[std::size_t(t.op.stage)],
                        t.op.microbatch, start, gatherFree });
                }
            }
        }
        // The compute the step's overlapped data-parallel collectives slowed (contentionSeconds) ends the step later.
        dpEnd += st.contentionSeconds;
        const double optEnd = dpEnd + st.optimizerSeconds;
        double end = optEnd;
        if (st.dpGatherSeconds > 0) {
            // Overlapped with the next step's first forward where allowed; only the rest is on this step, and the span
            // drawn is that part (the remainder runs under the next step's forward).
            end = optEnd + (overlap ? std::max(st.dpLastBucketShare * st.dpGatherSeconds, st.dpGatherSeconds - std::max(0.0, firstForward)) : st.dpGatherSeconds);
            dataParallel.push_back({ r, Stream::DataParallel, SpanKind::ParamGather, -1, -1, -1, optEnd, end });
        }
        tl.spans.insert(tl.spans.end(), dataParallel.begin(), dataParallel.end());
        tl.spans.insert(tl.spans.end(), gathers.begin(), gathers.end());
        tl.spans.push_back({ r, Stream::Optimizer, SpanKind::OptimizerStep, -1, -1, -1, dpEnd, optEnd });
        tl.stepSeconds = std::max(tl.stepSeconds, end);
    }

    return computeRange;
}

// Phase 3: memory over time, chunk-exact (docs/MODEL.md section 4): the static terms, plus each microbatch's
// activations on a chunk from its forward's start to the end of its backward (of its W where the backward is split),
// plus the temporaries while the op that needs them runs; and each rank's metrics and peaks.
void traceMemory(const Plan& plan, const Prediction& pred, const ScheduleRun& run, const std::vector<int>& chunkOf,
    const std::vector<VirtualStage>& split, const std::vector<RankShape>& shapes, Timeline& tl)
{
    const Schedule& s = tl.schedule;
    const int p = plan.parallel.pp;
    const bool fullRecompute = plan.training.recompute == Recompute::Full;
    struct {
        std::vector<double> chunk, forward, backward;
    } perStage; // one rank's stages: a microbatch's activations, the temporaries of a forward and of a backward
    for (int r = 0; r < p; ++r) {
        const auto& timed = run.ranks[std::size_t(r)];
        const StageMemory& mem = pred.stages[std::size_t(r)];
        RankMetrics& rm = tl.ranks[std::size_t(r)];
        rm.busy = run.busy[std::size_t(r)];
        rm.sending = run.sendBlocked[std::size_t(r)];
        rm.idle = run.idle[std::size_t(r)];
        rm.peakInFlight = run.peakInFlight[std::size_t(r)];
        const std::int64_t persistent = persistentAllocatedBytes(mem), outside = outsideAllocatorBytes(mem);
        rm.staticBytes = outside + persistent;
        // One microbatch's activations on a stage: its layers, and the embedding's or the loss's extras.
        auto chunkBytesOf = [&](int st) {
            const bool bidirectional = s.placement == Placement::Bidirectional;
            const std::size_t chunk = std::size_t(chunkOf[std::size_t(st)]);
            if (!bidirectional && chunk < mem.chunkActivationBytes.size()) return double(mem.chunkActivationBytes[chunk]);
            const bool first = bidirectional ? s.previousStage(st) < 0 : split[std::size_t(st)].embedding;
            const bool loss = bidirectional ? s.nextStage(st) < 0 : split[std::size_t(st)].loss;
            const double layers = bidirectional ? shapes[std::size_t(r)].layersPerMicrobatch : double(split[std::size_t(st)].layers);
            return layers * double(mem.activationsPerLayerBytes) + (first ? double(mem.embeddingActivationBytes) : 0.0)
                + (loss ? double(mem.outputActivationBytes) : 0.0);
        };
        // Temporaries of one op: the gathered ZeRO-3 layers while a chunk with layers runs, the logits (or their
        // gradient) on the loss's stage, one layer's recompute workspace during a backward under full recompute.
        auto temporariesOf = [&](int st, bool backward) {
            const bool loss = s.placement == Placement::Bidirectional ? s.nextStage(st) < 0 : split[std::size_t(st)].loss;
            const bool layers = s.placement == Placement::Bidirectional || split[std::size_t(st)].layers > 0;
            return double(layers ? mem.buffers.zeroGatherBytes : 0) + double(loss ? mem.buffers.logitsBytes : 0)
                + (backward && fullRecompute ? double(mem.recomputeWorkspaceBytes) : 0.0);
        };
        // Both for every stage, once per rank rather than once per op (the rank's ops visit only its own stages, but
        // a table over all stages is as cheap as finding them).
        perStage.chunk.resize(std::size_t(s.stages));
        perStage.forward.resize(std::size_t(s.stages));
        perStage.backward.resize(std::size_t(s.stages));
        for (int st = 0; st < s.stages; ++st) {
            if (s.stageToRank[std::size_t(st)] != r) continue;
            perStage.chunk[std::size_t(st)] = chunkBytesOf(st);
            perStage.forward[std::size_t(st)] = temporariesOf(st, false);
            perStage.backward[std::size_t(st)] = temporariesOf(st, true);
        }
        auto chunkBytes = [&](int st) { return perStage.chunk[std::size_t(st)]; };
        auto temporaries = [&](int st, bool backward) {
            return backward ? perStage.backward[std::size_t(st)] : perStage.forward[std::size_t(st)];
        };
        auto& points = tl.memory[std::size_t(r)];
        points.reserve(2 * timed.size() + 1);
        points.push_back({ 0.0, rm.staticBytes, 0 });
        auto push = [&](double time, double activations, double temporary) {
            // Both terms are >= 0: round half up without the libm call (this runs twice per op).
            const std::int64_t temp = std::int64_t(temporary + 0.5);
            const std::int64_t bytes = rm.staticBytes + std::int64_t(activations + 0.5) + temp;
            if (std::abs(points.back().time - time) < kEps)
                points.back() = { points.back().time, bytes, temp };
            else
                points.push_back({ time, bytes, temp });
        };
        double held = 0;
        for (const TimedOp& t : timed) {
            const Op& op = t.op;
            double temporary = 0;
            switch (op.kind) {
            case OpKind::F: temporary = temporaries(op.stage, false); break;
            case OpKind::B:
            case OpKind::I:
            case OpKind::W: temporary = temporaries(op.stage, op.kind != OpKind::W); break;
            case OpKind::OverlapFB: temporary = temporaries(op.stage, false) + temporaries(op.stage2, true); break;
            }
            if (op.kind == OpKind::F || op.kind == OpKind::OverlapFB) held += chunkBytes(op.stage);
            push(t.start, held, temporary);
            if (op.kind == OpKind::B || op.kind == OpKind::W) held -= chunkBytes(op.stage);
            if (op.kind == OpKind::OverlapFB) held -= chunkBytes(op.stage2);
            push(t.end, std::max(0.0, held), 0.0);
        }
        for (const MemoryPoint& mp : points)
            if (mp.bytes > rm.inUsePeakBytes) {
                rm.inUsePeakBytes = mp.bytes;
                rm.peakSeconds = mp.time;
            }
        // Reserved at the peak: the allocated peak plus the allocator's slack, by the rule the analytic figure uses.
        rm.allocatedPeakBytes = rm.inUsePeakBytes - outside;
        rm.reservedPeakBytes
            = rm.allocatedPeakBytes + allocatorSlackBytes(plan.overheads, double(rm.allocatedPeakBytes), double(persistent));
        rm.peakBytes = rm.reservedPeakBytes + outside;
        tl.peakBytes = std::max(tl.peakBytes, rm.peakBytes);
    }

}

// Phase 4: the critical path, walked back from the op that ends last; each op waited either for the previous op on
// its rank or for the input that arrived last.
std::vector<int> criticalPath(const Plan& plan, const Prediction& pred, const Timeline& tl,
    const std::vector<std::pair<std::size_t, std::size_t>>& computeRange, std::int64_t m)
{
    const Schedule& s = tl.schedule;
    const OpCosts& c = pred.opCosts;
    // (half, stage, mb) -> span; half 0 = F, 1 = B/I, 2 = W; a flat table over the stages and microbatches seen.
    const int stageCount = std::max(1, s.stages), mbCount = int(std::max<std::int64_t>(1, m));
    std::vector<int> producerTable(std::size_t(3) * std::size_t(stageCount) * std::size_t(mbCount), -1);
    auto slot = [&](int half, int stage, int mb) -> int* {
        if (stage < 0 || mb < 0 || stage >= stageCount || mb >= mbCount) return nullptr;
        return &producerTable[(std::size_t(half) * std::size_t(stageCount) + std::size_t(stage)) * std::size_t(mbCount) + std::size_t(mb)];
    };
    auto setProducer = [&](int half, int stage, int mb, int span) {
        if (int* p = slot(half, stage, mb)) *p = span;
    };
    // A rank's compute spans are contiguous and in time order: the op before span i on its rank is i - 1 within the
    // rank's range.
    auto previousOnRank = [&](int i) -> int {
        const auto& range = computeRange[std::size_t(tl.spans[std::size_t(i)].rank)];
        return std::size_t(i) > range.first ? i - 1 : -1;
    };
    int cur = -1;
    for (const auto& [begin, end] : computeRange) {
        for (int i = int(begin); i < int(end); ++i) {
            const Span& sp = tl.spans[std::size_t(i)];
            switch (sp.kind) {
            case SpanKind::Forward: setProducer(0, sp.stage, sp.microbatch, i); break;
            case SpanKind::Backward:
            case SpanKind::InputGrad: setProducer(1, sp.stage, sp.microbatch, i); break;
            case SpanKind::WeightGrad: setProducer(2, sp.stage, sp.microbatch, i); break;
            case SpanKind::OverlapFB:
                setProducer(0, sp.stage, sp.microbatch, i);
                setProducer(1, sp.stage2, sp.microbatch2, i);
                break;
            default: break;
            }
            if (cur < 0 || sp.end > tl.spans[std::size_t(cur)].end) cur = i;
        }
    }
    auto find = [&](int half, int stage, int mb) -> int {
        const int* p = slot(half, stage, mb);
        return p ? *p : -1;
    };
    auto arrival = [&](int dep, const Span& consumer) {
        const Span& d = tl.spans[std::size_t(dep)];
        return d.end + (d.rank != consumer.rank ? c.p2p : 0.0);
    };
    // When the rank is free again after a compute span: its end, or the end of its send when sends block.
    const bool blockingSends = !plan.training.overlapP2pComm && c.p2p > 0;
    auto freeAfter = [&](int i) {
        const Span& d = tl.spans[std::size_t(i)];
        if (!blockingSends) return d.end;
        Op op { OpKind::F, d.stage, d.microbatch, d.stage2, d.microbatch2 };
        switch (d.kind) {
        case SpanKind::Forward: op.kind = OpKind::F; break;
        case SpanKind::Backward: op.kind = OpKind::B; break;
        case SpanKind::InputGrad: op.kind = OpKind::I; break;
        case SpanKind::OverlapFB: op.kind = OpKind::OverlapFB; break;
        default: return d.end;
        }
        return d.end + (sendsAcrossRanks(s, op) ? c.p2p : 0.0);
    };
    std::vector<int> path;
    for (std::size_t guard = 0; cur >= 0 && guard <= tl.spans.size(); ++guard) {
        path.push_back(cur);
        const Span& sp = tl.spans[std::size_t(cur)];
        std::vector<int> deps;
        auto add = [&](int d) {
            if (d >= 0 && d != cur) deps.push_back(d);
        };
        const int fs = sp.stage, fmb = sp.microbatch;
        if (sp.kind == SpanKind::Forward || sp.kind == SpanKind::OverlapFB) {
            const int ps = s.previousStage(fs);
            if (ps >= 0) add(find(0, ps, fmb));
        }
        if (sp.kind == SpanKind::Backward || sp.kind == SpanKind::InputGrad || sp.kind == SpanKind::OverlapFB) {
            const int bs = sp.kind == SpanKind::OverlapFB ? sp.stage2 : fs;
            const int bmb = sp.kind == SpanKind::OverlapFB ? sp.microbatch2 : fmb;
            const int ns = s.nextStage(bs);
            add(ns >= 0 ? find(1, ns, bmb) : find(0, bs, bmb));
        }
        if (sp.kind == SpanKind::WeightGrad) add(find(1, fs, fmb));
        // The constraint that set the start: the latest arrival, or the rank being busy.
        int best = -1;
        double bestTime = -1;
        for (int d : deps)
            if (arrival(d, sp) > bestTime) {
                bestTime = arrival(d, sp);
                best = d;
            }
        const int prev = previousOnRank(cur);
        const double prevEnd = prev >= 0 ? freeAfter(prev) : -1;
        if (best >= 0 && bestTime >= prevEnd - kEps && bestTime > -1)
            cur = best;
        else
            cur = prev;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace

Result<Timeline> simulate(const Plan& plan, const Prediction& pred, const std::atomic<bool>* cancel)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto stop = [] { return Result<Timeline>::failure("", std::string(kSimulationCancelled)); };
    if (!pred.valid) return Result<Timeline>(pred.errors);
    const int p = plan.parallel.pp;
    const std::int64_t m = plan.microbatches();
    if (m > 1000000)
        return Result<Timeline>::failure(
            "training.globalBatch", Text(PS_TEXT("CoreText", "more than a million microbatches to simulate")));
    ScheduleRequest req;
    req.kind = plan.training.schedule;
    req.ranks = p;
    req.microbatches = int(m);
    req.chunks = plan.chunksPerRank();
    // Megatron runs interleaved 1F1B with one chunk per rank as the plain 1F1B schedule (validation warns).
    req.kind = effectiveSchedule(req.kind, req.chunks);
    if (cancelled()) return stop();
    auto generated = generateSchedule(req);
    if (!generated) return Result<Timeline>(generated.errors());
    if (cancelled()) return stop();
    Timeline tl;
    tl.schedule = std::move(generated).value();
    const Schedule& s = tl.schedule;

    // The transformer layers of each (virtual) stage (spec/PipelineLayout.h); the schedule numbers its stages the
    // same way except DualPipe, whose two directions each run pp stages.
    const std::vector<VirtualStage> split = virtualStages(plan);
    const std::vector<RankShape> shapes = rankShapes(plan, split);
    if (s.placement != Placement::Bidirectional && split.size() != std::size_t(s.stages))
        return Result<Timeline>::failure("parallel.vpp",
            Text(PS_TEXT("CoreText", "the schedule has %1 stages but the pipeline split has %2"), s.stages, split.size()));
    // The phases: durations, the schedule run (core/sim/ScheduleRun.h), spans, memory, the critical path.
    const StagePlan stages = stagePlan(pred, s, split, shapes);
    const OpCosts& c = pred.opCosts;
    auto ran = runSchedule(s, stages.durations, c.p2p, !plan.training.overlapP2pComm);
    if (!ran) return Result<Timeline>(ran.errors());
    if (cancelled()) return stop();
    const ScheduleRun& run = ran.value();
    tl.pipelineSeconds = run.makespan;
    tl.sendsBlock = !plan.training.overlapP2pComm && c.p2p > 0;
    tl.bubbleFraction = run.bubbleFraction;
    tl.bubbleOverhead = run.bubbleOverhead;

    // Spans in (rank, stream, start) order by construction (tests/core/tst_simulate.cpp checks every schedule).
    const auto computeRange = placeSpans(plan, pred, run, stages.chunkOf, tl);
    traceMemory(plan, pred, run, stages.chunkOf, split, shapes, tl);
    if (cancelled()) return stop();
    tl.criticalPath = criticalPath(plan, pred, tl, computeRange, m);
    return tl;
}

} // namespace planscope

namespace planscope {

std::int64_t memoryAt(const std::vector<MemoryPoint>& points, double t)
{
    if (points.empty()) return 0;
    auto it = std::upper_bound(points.begin(), points.end(), t, [](double v, const MemoryPoint& p) { return v < p.time; });
    return it == points.begin() ? points.front().bytes : std::prev(it)->bytes;
}

void applySimulation(Prediction& pred, const Plan& plan, const Timeline& tl, Explainer* ex)
{
    if (!pred.valid || tl.stepSeconds <= 0) return;
    const double gpus = plan.cluster.gpus();
    const double peak = plan.cluster.gpu.peakFlops.forPrecision(plan.training.precision);
    const double tokensPerStep = double(plan.training.globalBatch) * double(plan.model.seqLength);
    pred.analyticStepSeconds = pred.stepSeconds;
    pred.stepSeconds = tl.stepSeconds;
    // The bubble stays the schedule's (closed form); the simulation measures the idle of all causes.
    double maxIdle = 0;
    for (const RankMetrics& r : tl.ranks) maxIdle = std::max(maxIdle, r.idle);
    pred.idleFraction = tl.bubbleFraction;
    pred.idleSeconds = maxIdle;
    pred.imbalanceIdleFraction = pred.idleFraction - pred.bubbleFraction;
    pred.mfu = pred.modelFlopsPerStep / (pred.stepSeconds * gpus * peak);
    pred.hfu = pred.hardwareFlopsPerStep / (pred.stepSeconds * gpus * peak);
    pred.tokensPerSecond = tokensPerStep / pred.stepSeconds;
    pred.trainingDays = plan.training.tokens > 0 ? plan.training.tokens / pred.tokensPerSecond / units::kSecondsPerDay : 0.0;
    pred.timeSource = "simulation";
    // The peak inside the step from the simulated memory over time, beside the analytic one.
    const bool memoryMatches = tl.ranks.size() == pred.stages.size();
    if (memoryMatches) {
        int worst = 0;
        for (std::size_t r = 0; r < pred.stages.size(); ++r) {
            pred.stages[r].simulatedPeakBytes = tl.ranks[r].peakBytes;
            if (tl.ranks[r].peakBytes > pred.simulatedPeakBytes) {
                pred.simulatedPeakBytes = tl.ranks[r].peakBytes;
                worst = int(r);
            }
        }
        // The steady count may fit while a moment of the step does not (uneven chunks held longer than the warm-up
        // formula says, temporaries on top): say so where the simulation finds it.
        if (pred.fits && pred.simulatedPeakBytes > pred.capacityBytes)
            pred.warnings.push_back(issue(Severity::Warning, "memory",
                Text(PS_TEXT("CoreText", "the simulated step peaks at %1 on stage %2, above the GPU's %3, while the analytic "
                                         "count fits"),
                    units::formatBytes(double(pred.simulatedPeakBytes)), worst,
                    units::formatBytes(double(pred.capacityBytes)))));
    }
    if (!ex) return;
    // The simulation's memory sources: the list scheduling, then the memory model.
    const auto memorySource = [] {
        return Text::join({ PS_TEXT("CoreText",
                                "List-scheduling simulation of the schedule's op order (docs/SCHEDULES.md section 1.8)"),
                              Text(PS_TEXT("CoreText", "docs/MODEL.md section %1"), 4) },
            Text::Joint::List);
    };
    if (memoryMatches && pred.simulatedPeakBytes > 0) {
        std::vector<std::string> children;
        std::vector<double> peaks;
        for (std::size_t r = 0; r < pred.stages.size(); ++r) {
            children.push_back("memory.stages." + std::to_string(r) + ".simulatedPeakBytes");
            peaks.push_back(double(pred.stages[r].simulatedPeakBytes));
        }
        const auto [formula, inputs] = maxOverFormula("s", peaks);
        ex->add({ "memory.simulatedPeakBytes", double(pred.simulatedPeakBytes), "bytes", formula, inputs, memorySource(),
            children, Text(PS_TEXT("CoreText", "The highest memory any GPU reaches inside the simulated step.")) });
    }
    for (std::size_t r = 0; memoryMatches && r < pred.stages.size(); ++r) {
        const RankMetrics& m = tl.ranks[r];
        const StageMemory& st = pred.stages[r];
        ex->add({ "memory.stages." + std::to_string(r) + ".simulatedPeakBytes", double(m.peakBytes), "bytes",
            "allocatedPeak + slack + outside",
            { { "allocatedPeak", double(m.allocatedPeakBytes) }, { "slack", double(m.reservedPeakBytes - m.allocatedPeakBytes) },
                { "outside", double(m.peakBytes - m.reservedPeakBytes) } },
            memorySource(), { "memory.stages." + std::to_string(r) + ".totalBytes" },
            Text::join({ Text(PS_TEXT("CoreText",
                                  "allocatedPeak: the highest memory in use of the simulated step less the CUDA context "
                                  "and NCCL's buffers, reached at %1 (each chunk's activations from its forward to its "
                                  "backward, the temporaries while their op runs)."),
                             units::formatSeconds(m.peakSeconds)),
                           PS_TEXT("CoreText", "slack: the allocator's, by the rule of buffers.fragmentationBytes."),
                           PS_TEXT("CoreText", "outside: the CUDA context and NCCL's buffers."),
                           Text(PS_TEXT("CoreText", "The analytic peak is %1, the steady state %2."),
                               units::formatBytes(double(st.totalBytes)), units::formatBytes(double(st.steadyBytes))) },
                Text::Joint::Sentences) });
    }
    const Text source(PS_TEXT("CoreText",
        "List-scheduling simulation of the schedule's op order (docs/SCHEDULES.md section 1.8) with per-stage op "
        "durations from the cost model"));
    // Once: a second simulation into the same explainer must not take the simulated figures for analytic ones.
    const bool first = ex->find("time.analyticStepSeconds") == nullptr;
    if (const Explanation* analytic = first ? ex->find("time.stepSeconds") : nullptr) {
        Explanation a = *analytic;
        a.field = "time.analyticStepSeconds";
        ex->add(std::move(a));
    }
    double busy = 0, idle = 0;
    for (const RankMetrics& r : tl.ranks) {
        busy += r.busy;
        idle += r.idle;
    }
    ex->add({ "time.stepSeconds", pred.stepSeconds, "seconds", "pipeline + tail",
        { { "pipeline", tl.pipelineSeconds }, { "tail", tl.stepSeconds - tl.pipelineSeconds } }, source,
        { "time.analyticStepSeconds" },
        Text::join({ PS_TEXT("CoreText",
                         "pipeline: the last op's end in the simulated step; tail: the gradient reduction not hidden by "
                         "the last backward, the optimizer step and the parameter all-gather."),
                       Text(PS_TEXT("CoreText", "The analytic estimate is %1."),
                           units::formatSeconds(pred.analyticStepSeconds)) },
            Text::Joint::Sentences) });
    const double p = tl.schedule.ranks;
    std::vector<double> idles;
    for (const RankMetrics& r : tl.ranks) idles.push_back(r.idle);
    auto [idleFormula, idleInputs] = maxOverFormula("idle", idles);
    ex->add({ "time.idleSeconds", pred.idleSeconds, "seconds", idleFormula, idleInputs, source, {},
        Text::join({ PS_TEXT("CoreText",
                         "idleN: the simulated idle time of pipeline rank N inside the pipeline (not waiting on its own "
                         "sends); the most idle rank's."),
                       PS_TEXT("CoreText", "It holds the schedule's bubble and the waits on slower stages.") },
            Text::Joint::Sentences) });
    ex->add({ "time.idleFraction", pred.idleFraction, "1", "idle/(p*makespan)",
        { { "idle", idle }, { "p", p }, { "makespan", tl.pipelineSeconds } }, source, { "time.bubbleFraction" },
        Text::join({ PS_TEXT("CoreText",
                         "Idle share of all ranks over the simulated pipeline, whatever the cause: the schedule's bubble "
                         "(time.bubbleFraction) and ranks waiting on a slower stage or a send."),
                       Text(PS_TEXT("CoreText", "busy = %1 over all ranks."), units::formatSeconds(busy)) },
            Text::Joint::Sentences) });
    ex->add({ "time.imbalanceIdleFraction", pred.imbalanceIdleFraction, "1", "idleFraction - bubbleFraction",
        { { "idleFraction", pred.idleFraction }, { "bubbleFraction", pred.bubbleFraction } }, source,
        { "time.idleFraction", "time.bubbleFraction" },
        Text(PS_TEXT("CoreText",
            "Idle the schedule's bubble does not explain: stages of unequal time (uneven layers, the output layer on the "
            "last stage, the embedding on the first) leave the faster ranks waiting for the slowest in every slot.")) });
    const Text simulatedStep(PS_TEXT("CoreText", "With the simulated step."));
    ex->add({ "time.mfu", pred.mfu, "1", "modelPerStep/(step*G*peak)",
        { { "modelPerStep", pred.modelFlopsPerStep }, { "step", pred.stepSeconds }, { "G", gpus }, { "peak", peak } },
        sources::kMfu, { "flops.modelPerStep", "time.stepSeconds" }, simulatedStep });
    ex->add({ "time.hfu", pred.hfu, "1", "hardwarePerStep/(step*G*peak)",
        { { "hardwarePerStep", pred.hardwareFlopsPerStep }, { "step", pred.stepSeconds }, { "G", gpus }, { "peak", peak } },
        sources::kMfu, { "flops.hardwarePerStep", "time.stepSeconds" }, simulatedStep });
    ex->add({ "time.tokensPerSecond", pred.tokensPerSecond, "tokens/s", "B*s/step",
        { { "B", double(plan.training.globalBatch) }, { "s", double(plan.model.seqLength) }, { "step", pred.stepSeconds } },
        sources::kDefinition, { "time.stepSeconds" }, {} });
    ex->add({ "time.trainingDays", pred.trainingDays, "days", plan.training.tokens > 0 ? "T/tokensPerSecond/86400" : "0",
        { { "T", plan.training.tokens }, { "tokensPerSecond", pred.tokensPerSecond } },
        Text(PS_TEXT("CoreText", "docs/MODEL.md section %1"), 5), { "time.tokensPerSecond" }, {} });
}

} // namespace planscope
