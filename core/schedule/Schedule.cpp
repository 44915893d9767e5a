#include "Schedule.h"

#include "spec/ScheduleTraits.h"
#include "Generators.h"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <map>
#include <set>
#include <sstream>

namespace planscope {

namespace {
char kindLetter(OpKind k)
{
    switch (k) {
    case OpKind::F: return 'F';
    case OpKind::B: return 'B';
    case OpKind::I: return 'I';
    case OpKind::W: return 'W';
    case OpKind::OverlapFB: return '?';
    }
    return '?';
}

std::string simpleText(OpKind k, int stage, int mb)
{
    return std::to_string(stage) + kindLetter(k) + std::to_string(mb);
}

bool parseSimple(std::string_view t, Op& op, Text& error)
{
    std::size_t i = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    if (i == 0 || i >= t.size()) {
        error = Text(PS_TEXT("CoreText", "expected <stage><F|B|I|W><microbatch>, got \"%1\""), t);
        return false;
    }
    int stage = 0, mb = 0;
    if (std::from_chars(t.data(), t.data() + i, stage).ec != std::errc()) {
        error = Text(PS_TEXT("CoreText", "stage number out of range in \"%1\""), t);
        return false;
    }
    const char k = t[i];
    const std::string_view rest = t.substr(i + 1);
    // Digits only: from_chars would also take a sign, and a negative microbatch slips past scheduleFromCsv's size check.
    const bool digit = !rest.empty() && rest.front() >= '0' && rest.front() <= '9';
    const auto parsed = digit ? std::from_chars(rest.data(), rest.data() + rest.size(), mb) : std::from_chars_result {};
    if (!digit || parsed.ec != std::errc() || parsed.ptr != rest.data() + rest.size()) {
        error = Text(PS_TEXT("CoreText", "expected a microbatch number after the op kind in \"%1\""), t);
        return false;
    }
    switch (k) {
    case 'F': op = Op::f(stage, mb); return true;
    case 'B': op = Op::b(stage, mb); return true;
    case 'I': op = Op::i(stage, mb); return true;
    case 'W': op = Op::w(stage, mb); return true;
    default:
        error = Text(PS_TEXT("CoreText", "unknown op kind '%1' in \"%2\""), std::string(1, k), t);
        return false;
    }
}
} // namespace

std::string opText(const Op& op)
{
    if (op.kind == OpKind::OverlapFB)
        return "(" + simpleText(OpKind::F, op.stage, op.microbatch) + ";" + simpleText(OpKind::B, op.stage2, op.microbatch2)
            + ")OVERLAP_F_B";
    return simpleText(op.kind, op.stage, op.microbatch);
}

bool parseOpText(std::string_view text, Op& op, Text& error)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    constexpr std::string_view kOverlap = ")OVERLAP_F_B";
    if (!text.empty() && text.front() == '(') {
        if (text.size() <= kOverlap.size() || text.substr(text.size() - kOverlap.size()) != kOverlap) {
            error = Text(PS_TEXT("CoreText", "expected (<F op>;<B op>)OVERLAP_F_B, got \"%1\""), text);
            return false;
        }
        const std::string_view inner = text.substr(1, text.size() - 1 - kOverlap.size());
        const auto semi = inner.find(';');
        Op a, b;
        if (semi == std::string_view::npos || !parseSimple(inner.substr(0, semi), a, error)
            || !parseSimple(inner.substr(semi + 1), b, error))
            return error.empty()
                ? (error = Text(PS_TEXT("CoreText", "malformed overlap \"%1\""), text), false)
                : false;
        if (a.kind != OpKind::F || (b.kind != OpKind::B && b.kind != OpKind::I)) {
            error
                = Text(PS_TEXT("CoreText", "an overlapped pair is a forward then a backward: \"%1\""), text);
            return false;
        }
        op = Op::overlap(a.stage, a.microbatch, b.stage, b.microbatch);
        return true;
    }
    return parseSimple(text, op, error);
}

bool parseOpText(std::string_view text, Op& op, std::string& error)
{
    Text why;
    if (parseOpText(text, op, why)) return true;
    error = why.english();
    return false;
}

std::vector<int> placeStages(Placement placement, int ranks, int stages)
{
    std::vector<int> out(static_cast<std::size_t>(std::max(0, stages)), 0);
    for (int s = 0; s < stages; ++s) {
        switch (placement) {
        case Placement::Linear: out[s] = s; break;
        case Placement::Loop: out[s] = s % ranks; break;
        case Placement::VShape: {
            // Up 0..p-1, then down p-1..0, and so on (torch generate_stage_to_rank_mapping, style "v").
            const int round = s / ranks, pos = s % ranks;
            out[s] = round % 2 == 0 ? pos : ranks - 1 - pos;
            break;
        }
        case Placement::Bidirectional: out[s] = s < ranks ? s : ranks - 1 - (s - ranks); break;
        }
    }
    return out;
}

namespace schedules {

Schedule makeSchedule(ScheduleKind kind, Placement placement, int ranks, int chunksPerRank, int pipelines,
    int microbatchesPerPipeline)
{
    Schedule s;
    s.kind = kind;
    s.placement = placement;
    s.ranks = ranks;
    s.chunksPerRank = chunksPerRank;
    s.pipelines = pipelines;
    s.stages = placement == Placement::Bidirectional ? 2 * ranks : ranks * chunksPerRank;
    s.microbatches = microbatchesPerPipeline;
    s.stageToRank = placeStages(placement, ranks, s.stages);
    s.rankOps.resize(static_cast<std::size_t>(ranks));
    return s;
}

} // namespace schedules

double scheduleOpCount(ScheduleKind k, int ranks, int chunks, double microbatches)
{
    const ScheduleTraits& t = traits(k);
    const double perRank = double(t.stagesPerRank(std::max(1, chunks)));
    return double(std::max(1, ranks)) * perRank * std::max(1.0, microbatches) * (t.splitBackward ? 3.0 : 2.0);
}

Result<Schedule> generateSchedule(const ScheduleRequest& r)
{
    if (r.ranks < 1)
        return Result<Schedule>::failure(
            "stages", Text(PS_TEXT("CoreText", "the number of pipeline ranks must be >= 1")));
    if (r.microbatches < 1)
        return Result<Schedule>::failure(
            "microbatches", Text(PS_TEXT("CoreText", "the number of microbatches must be >= 1")));
    if (r.chunks < 1)
        return Result<Schedule>::failure("vpp", Text(PS_TEXT("CoreText", "chunks per rank must be >= 1")));
    if (const double ops = scheduleOpCount(r); ops > double(kMaxScheduleOps))
        return Result<Schedule>::failure("microbatches",
            Text(PS_TEXT("CoreText",
                     "the schedule would have %1 compute ops (ranks x chunks x microbatches x passes), more "
                     "than the %2 laid out"),
                std::int64_t(ops), kMaxScheduleOps));
    switch (r.kind) {
    case ScheduleKind::GPipe: return schedules::gpipe(r);
    case ScheduleKind::OneFOneB: return schedules::oneFOneB(r);
    case ScheduleKind::Interleaved1F1B: return schedules::interleaved1F1B(r);
    case ScheduleKind::LoopedBFS: return schedules::loopedBfs(r);
    case ScheduleKind::ZBH1: return schedules::zbH1(r);
    case ScheduleKind::ZBH2: return schedules::zbH2(r);
    case ScheduleKind::ZBV: return schedules::zbV(r);
    case ScheduleKind::DualPipe: return schedules::dualPipe(r);
    case ScheduleKind::DualPipeV: return schedules::dualPipeV(r);
    }
    return Result<Schedule>::failure("kind", Text(PS_TEXT("CoreText", "unknown schedule")));
}

Issues checkSchedule(const Schedule& s)
{
    Issues issues;
    auto err = [&](std::string path, Text msg) {
        issues.push_back(issue(Severity::Error, std::move(path), std::move(msg)));
    };
    if (int(s.stageToRank.size()) != s.stages)
        err("stageToRank", Text(PS_TEXT("CoreText", "placement does not cover every stage")));
    if (int(s.rankOps.size()) != s.ranks)
        err("rankOps", Text(PS_TEXT("CoreText", "one op list per rank expected")));
    if (!issues.empty()) return issues;
    // Count each half per (stage, microbatch); check order on the rank.
    const std::size_t n = std::size_t(s.stages) * std::size_t(s.microbatches);
    std::vector<int> fCount(n), bCount(n), iCount(n), wCount(n);
    auto index = [&](int stage, int mb) -> long {
        if (stage < 0 || stage >= s.stages || mb < 0 || mb >= s.microbatches) return -1;
        return long(stage) * s.microbatches + mb;
    };
    for (int r = 0; r < s.ranks; ++r) {
        const auto& ops = s.rankOps[std::size_t(r)];
        for (std::size_t k = 0; k < ops.size(); ++k) {
            const Op& op = ops[k];
            const std::string where = "rank " + std::to_string(r) + " op " + std::to_string(k) + " (" + opText(op) + ")";
            auto visit = [&](OpKind kind, int stage, int mb) {
                const long i = index(stage, mb);
                if (i < 0) {
                    err(where, Text(PS_TEXT("CoreText", "stage or microbatch out of range")));
                    return;
                }
                if (s.stageToRank[std::size_t(stage)] != r)
                    err(where, Text(PS_TEXT("CoreText", "stage %1 is not on this rank"), stage));
                switch (kind) {
                case OpKind::F: ++fCount[std::size_t(i)]; break;
                case OpKind::B:
                    if (fCount[std::size_t(i)] == 0)
                        err(where, Text(PS_TEXT("CoreText", "backward before its forward on this rank")));
                    ++bCount[std::size_t(i)];
                    break;
                case OpKind::I:
                    if (fCount[std::size_t(i)] == 0)
                        err(where,
                            Text(PS_TEXT("CoreText", "input-gradient before its forward on this rank")));
                    ++iCount[std::size_t(i)];
                    break;
                case OpKind::W:
                    if (iCount[std::size_t(i)] == 0)
                        err(where,
                            Text(PS_TEXT(
                                "CoreText", "weight-gradient before its input-gradient on this rank")));
                    ++wCount[std::size_t(i)];
                    break;
                default: break;
                }
            };
            if (op.kind == OpKind::OverlapFB) {
                visit(OpKind::F, op.stage, op.microbatch);
                visit(OpKind::B, op.stage2, op.microbatch2);
            } else {
                visit(op.kind, op.stage, op.microbatch);
            }
        }
    }
    for (int st = 0; st < s.stages; ++st)
        for (int mb = 0; mb < s.microbatches; ++mb) {
            const std::size_t i = std::size_t(index(st, mb));
            const std::string what = "stage " + std::to_string(st) + " microbatch " + std::to_string(mb);
            if (fCount[i] != 1)
                err(what, Text(PS_TEXT("CoreText", "has %1 forwards, expected 1"), fCount[i]));
            const bool full = bCount[i] == 1 && iCount[i] == 0 && wCount[i] == 0;
            const bool split = bCount[i] == 0 && iCount[i] == 1 && wCount[i] == 1;
            if (!full && !split) err(what, Text(PS_TEXT("CoreText", "needs one B, or one I and one W")));
        }
    return issues;
}

std::string scheduleToCsv(const Schedule& s, bool withComms)
{
    std::string out;
    for (int r = 0; r < s.ranks; ++r) {
        const auto& ops = s.rankOps[std::size_t(r)];
        bool first = true;
        auto emit = [&](const std::string& action) {
            if (!first) out += ',';
            out += action;
            first = false;
        };
        auto crosses = [&](int from, int to) { return to >= 0 && s.stageToRank[std::size_t(to)] != s.stageToRank[std::size_t(from)]; };
        auto comm = [&](int stage, const char* what, int mb) { emit(std::to_string(stage) + what + std::to_string(mb)); };
        for (const Op& op : ops) {
            if (withComms) {
                // Receives for the inputs of this op.
                auto recvs = [&](OpKind k, int stage, int mb) {
                    if (k == OpKind::F && crosses(stage, s.previousStage(stage))) comm(stage, "RECV_F", mb);
                    if ((k == OpKind::B || k == OpKind::I) && crosses(stage, s.nextStage(stage))) comm(stage, "RECV_B", mb);
                };
                if (op.kind == OpKind::OverlapFB) {
                    recvs(OpKind::F, op.stage, op.microbatch);
                    recvs(OpKind::B, op.stage2, op.microbatch2);
                } else {
                    recvs(op.kind, op.stage, op.microbatch);
                }
            }
            emit(opText(op));
            if (withComms) {
                auto sends = [&](OpKind k, int stage, int mb) {
                    if (k == OpKind::F && crosses(stage, s.nextStage(stage))) comm(stage, "SEND_F", mb);
                    if ((k == OpKind::B || k == OpKind::I) && crosses(stage, s.previousStage(stage))) comm(stage, "SEND_B", mb);
                };
                if (op.kind == OpKind::OverlapFB) {
                    sends(OpKind::F, op.stage, op.microbatch);
                    sends(OpKind::B, op.stage2, op.microbatch2);
                } else {
                    sends(op.kind, op.stage, op.microbatch);
                }
            }
        }
        out += '\n';
    }
    return out;
}

Result<Schedule> scheduleFromCsv(std::string_view csv, ScheduleKind kind)
{
    std::vector<std::vector<Op>> rows;
    int maxStage = -1, maxMb = -1;
    std::int64_t total = 0;
    std::size_t line = 0, pos = 0;
    while (pos < csv.size()) {
        std::size_t end = csv.find('\n', pos);
        if (end == std::string_view::npos) end = csv.size();
        std::string_view row = csv.substr(pos, end - pos);
        ++line;
        std::vector<Op> ops;
        std::size_t col = 0, cpos = 0;
        while (cpos <= row.size()) {
            // Overlap actions contain ';' but never ','; split on ',' only.
            std::size_t cend = row.find(',', cpos);
            if (cend == std::string_view::npos) cend = row.size();
            std::string_view cell = row.substr(cpos, cend - cpos);
            ++col;
            while (!cell.empty() && (cell.front() == ' ' || cell.front() == '\r')) cell.remove_prefix(1);
            while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\r')) cell.remove_suffix(1);
            const bool comm = cell.find("SEND") != std::string_view::npos || cell.find("RECV") != std::string_view::npos
                || cell.find("SHARD") != std::string_view::npos || cell.find("REDUCE_GRAD") != std::string_view::npos;
            if (!cell.empty() && !comm) {
                Op op;
                Text error;
                if (!parseOpText(cell, op, error))
                    return Result<Schedule>::failure("row " + std::to_string(line) + ", column " + std::to_string(col), error);
                maxStage = std::max({ maxStage, op.stage, op.stage2 });
                maxMb = std::max({ maxMb, op.microbatch, op.microbatch2 });
                if (++total > kMaxScheduleOps)
                    return Result<Schedule>::failure(
                        "row " + std::to_string(line) + ", column " + std::to_string(col),
                        Text(PS_TEXT("CoreText", "more than %1 compute actions, the most laid out"),
                            kMaxScheduleOps));
                ops.push_back(op);
            }
            if (cend == row.size()) break;
            cpos = cend + 1;
        }
        rows.push_back(std::move(ops));
        pos = end + 1;
    }
    while (!rows.empty() && rows.back().empty()) rows.pop_back();
    if (rows.empty() || maxStage < 0)
        return Result<Schedule>::failure("", Text(PS_TEXT("CoreText", "no compute actions found")));
    const int p = int(rows.size());
    const int stages = maxStage + 1;
    // Every microbatch runs forward through every stage, so a file naming stage S and microbatch M holds at least
    // (S+1)*(M+1) forward actions. Checked before anything is sized by those numbers: a few hundred bytes naming
    // stage 10^9 would otherwise allocate gigabytes.
    std::size_t actions = 0;
    for (const auto& r : rows) actions += r.size();
    if ((double(stages) * double(maxMb + 1)) > double(actions))
        return Result<Schedule>::failure("",
            Text(PS_TEXT("CoreText",
                     "the file names stage %1 and microbatch %2 but holds only %3 compute actions: every "
                     "microbatch must "
                     "run through every stage"),
                maxStage, maxMb, actions));
    if (stages % p != 0)
        return Result<Schedule>::failure(
            "", Text(PS_TEXT("CoreText", "%1 stages do not spread evenly over %2 ranks"), stages, p));
    // Infer the placement from where stage p (the first of the second round) sits.
    Placement placement = Placement::Loop;
    if (stages > p) {
        for (int r = 0; r < p; ++r)
            for (const Op& op : rows[std::size_t(r)])
                if (op.kind != OpKind::OverlapFB && op.stage == p && r == p - 1) placement = Placement::VShape;
    }
    Schedule s = kind == ScheduleKind::DualPipe
        ? schedules::makeSchedule(kind, Placement::Bidirectional, p, 2, 2, maxMb + 1)
        : schedules::makeSchedule(kind, stages == p ? Placement::Linear : placement, p, stages / p, 1, maxMb + 1);
    s.rankOps = std::move(rows);
    s.variant = "imported";
    Issues problems = checkSchedule(s);
    if (hasErrors(problems)) return Result<Schedule>(problems);
    return s;
}

} // namespace planscope
