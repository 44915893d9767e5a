#include "ScheduleRun.h"

#include <algorithm>
#include <limits>

namespace planscope {

OpDuration unitDurations(double f, double b, double w, double overlap)
{
    const double fb = overlap >= 0 ? overlap : f + b;
    return [=](const Op& op) {
        switch (op.kind) {
        case OpKind::F: return f;
        case OpKind::B: return b;
        case OpKind::I: return b - w;
        case OpKind::W: return w;
        case OpKind::OverlapFB: return fb;
        }
        return f;
    };
}

namespace {
constexpr double kNotDone = std::numeric_limits<double>::infinity();
}

namespace {
template<typename Duration>
Result<ScheduleRun> runImpl(const Schedule& s, const Duration& duration, double commDelay, bool blockingSends)
{
    const int p = s.ranks;
    const std::size_t cells = std::size_t(s.stages) * std::size_t(s.microbatches);
    // Finish times of each (stage, microbatch)'s forward and backward (B or I) halves; a W needs its B or I.
    std::vector<double> fEnd(cells, kNotDone), bEnd(cells, kNotDone);
    auto cell = [&](int stage, int mb) { return std::size_t(stage) * std::size_t(s.microbatches) + std::size_t(mb); };
    auto rankOf = [&](int stage) { return s.stageToRank[std::size_t(stage)]; };
    // Each stage's neighbours, looked up once (previousStage() and nextStage() divide).
    std::vector<int> previous(std::size_t(s.stages)), following(std::size_t(s.stages));
    for (int st = 0; st < s.stages; ++st) {
        previous[std::size_t(st)] = s.previousStage(st);
        following[std::size_t(st)] = s.nextStage(st);
    }

    // Earliest time the inputs of one half are on `rank`, or kNotDone.
    auto forwardReady = [&](int stage, int mb, int rank) -> double {
        const int prev = previous[std::size_t(stage)];
        if (prev < 0) return 0.0;
        const double t = fEnd[cell(prev, mb)];
        return t == kNotDone ? kNotDone : t + (rankOf(prev) != rank ? commDelay : 0.0);
    };
    auto backwardReady = [&](int stage, int mb, int rank) -> double {
        const int next = following[std::size_t(stage)];
        double t;
        int from;
        if (next < 0) {
            t = fEnd[cell(stage, mb)]; // the loss is computed inside the last stage's forward
            from = rank;
        } else {
            t = bEnd[cell(next, mb)];
            from = rankOf(next);
        }
        // A backward also needs its own forward on this rank.
        const double own = fEnd[cell(stage, mb)];
        if (t == kNotDone || own == kNotDone) return kNotDone;
        return std::max(own, t + (from != rank ? commDelay : 0.0));
    };

    ScheduleRun run;
    run.ranks.resize(std::size_t(p));
    std::vector<std::size_t> next(std::size_t(p), 0);
    std::vector<double> free(std::size_t(p), 0.0);
    std::vector<double> sending(std::size_t(p), 0.0);
    const bool blocks = blockingSends && commDelay > 0;
    std::size_t remaining = 0;
    for (const auto& ops : s.rankOps) remaining += ops.size();
    for (int r = 0; r < p; ++r) run.ranks[std::size_t(r)].reserve(s.rankOps[std::size_t(r)].size());

    // Sweeps over the ranks, each taking every op whose inputs are done. The times depend only on the ops' inputs and
    // each rank's order, not on the order of the sweep; the sweeps alternate direction, so that forwards (flowing
    // to higher ranks) and backwards (flowing to lower ones) each cross the whole pipeline in one sweep.
    for (bool up = true; remaining > 0; up = !up) {
        bool progress = false;
        for (int k = 0; k < p; ++k) {
            const int r = up ? k : p - 1 - k;
            const auto& ops = s.rankOps[std::size_t(r)];
            while (next[std::size_t(r)] < ops.size()) {
                const Op& op = ops[next[std::size_t(r)]];
                double ready = 0;
                switch (op.kind) {
                case OpKind::F: ready = forwardReady(op.stage, op.microbatch, r); break;
                case OpKind::B:
                case OpKind::I: ready = backwardReady(op.stage, op.microbatch, r); break;
                case OpKind::W: ready = bEnd[cell(op.stage, op.microbatch)]; break;
                case OpKind::OverlapFB:
                    ready = std::max(forwardReady(op.stage, op.microbatch, r), backwardReady(op.stage2, op.microbatch2, r));
                    break;
                }
                if (ready == kNotDone) break;
                const double start = std::max(free[std::size_t(r)], ready);
                const double end = start + duration(op);
                switch (op.kind) {
                case OpKind::F: fEnd[cell(op.stage, op.microbatch)] = end; break;
                case OpKind::B:
                case OpKind::I: bEnd[cell(op.stage, op.microbatch)] = end; break;
                case OpKind::W: break;
                case OpKind::OverlapFB:
                    // Both halves hand their outputs on at the end of the pair (DualPipe sends after the pair).
                    fEnd[cell(op.stage, op.microbatch)] = end;
                    bEnd[cell(op.stage2, op.microbatch2)] = end;
                    break;
                }
                free[std::size_t(r)] = end;
                if (blocks && sendsAcrossRanks(s, op)) {
                    free[std::size_t(r)] = end + commDelay;
                    sending[std::size_t(r)] += commDelay;
                }
                run.ranks[std::size_t(r)].push_back({ op, start, end });
                ++next[std::size_t(r)];
                --remaining;
                progress = true;
            }
        }
        if (!progress) {
            Issues blocked;
            for (int r = 0; r < p; ++r)
                if (next[std::size_t(r)] < s.rankOps[std::size_t(r)].size())
                    blocked.push_back(issue(Severity::Error, "rank " + std::to_string(r),
                        Text(PS_TEXT("CoreText", "deadlock: blocked at op %1 (%2), its input never arrives"),
                            next[std::size_t(r)], opText(s.rankOps[std::size_t(r)][next[std::size_t(r)]]))));
            return Result<ScheduleRun>(blocked);
        }
    }

    // Metrics.
    run.busy.assign(std::size_t(p), 0.0);
    run.idle.assign(std::size_t(p), 0.0);
    run.sendBlocked = sending;
    run.internalIdle.assign(std::size_t(p), 0.0);
    run.peakInFlightChunks.assign(std::size_t(p), 0.0);
    run.peakInFlight.assign(std::size_t(p), 0.0);
    for (int r = 0; r < p; ++r)
        for (const TimedOp& t : run.ranks[std::size_t(r)]) run.makespan = std::max(run.makespan, t.end);
    // A blocking send after the last op still holds its rank.
    for (int r = 0; r < p; ++r) run.makespan = std::max(run.makespan, blocks && !run.ranks[std::size_t(r)].empty() ? free[std::size_t(r)] : 0.0);
    double busyTotal = 0, idleTotal = 0;
    for (int r = 0; r < p; ++r) {
        const auto& timed = run.ranks[std::size_t(r)];
        double busy = 0;
        const double blocked = sending[std::size_t(r)];
        // In-flight activations (docs/SCHEDULES.md section 1.7): +1 when an F starts, -1 when the microbatch's backward frees
        // them: at the end of B, or of W when the backward is split.
        for (const TimedOp& t : timed) busy += t.end - t.start;
        int level = 0, peak = 0;
        forEachInFlightEvent(timed, [&](double, int delta) { peak = std::max(peak, level += delta); });
        run.busy[std::size_t(r)] = busy;
        run.idle[std::size_t(r)] = run.makespan - busy - blocked;
        if (!timed.empty())
            run.internalIdle[std::size_t(r)] = std::max(0.0, (free[std::size_t(r)] - timed.front().start) - busy - blocked);
        run.peakInFlightChunks[std::size_t(r)] = peak;
        // Stage units: a chunk counts 1/v; in DualPipe's two pipelines each chunk is a whole stage (README: P+1).
        const int perStage = s.placement == Placement::Bidirectional ? 1 : std::max(1, s.chunksPerRank);
        run.peakInFlight[std::size_t(r)] = double(peak) / perStage;
        busyTotal += busy;
        idleTotal += run.makespan - busy - blocked;
    }
    run.bubbleFraction = run.makespan > 0 ? idleTotal / (double(p) * run.makespan) : 0.0;
    run.bubbleOverhead = busyTotal > 0 ? idleTotal / busyTotal : 0.0;
    return run;
}

} // namespace

bool sendsAcrossRanks(const Schedule& s, const Op& op)
{
    const int rank = s.stageToRank[std::size_t(op.stage)];
    auto other = [&](int stage) { return stage >= 0 && s.stageToRank[std::size_t(stage)] != rank; };
    switch (op.kind) {
    case OpKind::F: return other(s.nextStage(op.stage));
    case OpKind::B:
    case OpKind::I: return other(s.previousStage(op.stage));
    case OpKind::W: return false;
    case OpKind::OverlapFB: return other(s.nextStage(op.stage)) || other(s.previousStage(op.stage2));
    }
    return false;
}

Result<ScheduleRun> runSchedule(const Schedule& s, const OpDuration& duration, double commDelay, bool blockingSends)
{
    return runImpl(s, duration, commDelay, blockingSends);
}

Result<ScheduleRun> runSchedule(const Schedule& s, const StageDurations& d, double commDelay, bool blockingSends)
{
    const auto duration = [&d](const Op& op) -> double {
        const std::size_t i = std::size_t(op.stage);
        switch (op.kind) {
        case OpKind::F: return d.forward[i];
        case OpKind::B: return d.backward[i];
        case OpKind::I: return d.backward[i] - d.weight[i];
        case OpKind::W: return d.weight[i];
        case OpKind::OverlapFB: return d.forward[i] + d.backward[std::size_t(op.stage2)];
        }
        return 0.0;
    };
    return runImpl(s, duration, commDelay, blockingSends);
}

} // namespace planscope
