#include "ScheduleCommands.h"

#include "spec/ScheduleTraits.h"
#include "util/AtomicFile.h"

#include "PlanInput.h"

#include "io/AnalysisJson.h"
#include "io/ChromeTrace.h"
#include "io/PlanJson.h"
#include "io/PredictionJson.h"
#include "sim/Timeline.h"
#include "trace/Overlay.h"
#include "schedule/Schedule.h"
#include "sim/ScheduleRun.h"
#include "util/Units.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

using nlohmann::json;

namespace {

// The Step x Rank grid torch prints for schedules: one column per rank, one row per time slot of the
// shortest op, each cell the op that runs then.
std::string textGrid(const Schedule& s, const ScheduleRun& run)
{
    double unit = 0;
    for (const auto& rank : run.ranks)
        for (const TimedOp& t : rank)
            if (t.end > t.start && (unit == 0 || t.end - t.start < unit)) unit = t.end - t.start;
    if (unit <= 0) unit = 1;
    const int slots = int(run.makespan / unit + 0.5);
    std::string out;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-7s", "slot");
    out += buf;
    for (int r = 0; r < s.ranks; ++r) {
        std::snprintf(buf, sizeof buf, " %-14s", ("rank " + std::to_string(r)).c_str());
        out += buf;
    }
    out += "\n";
    std::vector<std::size_t> cursor(std::size_t(s.ranks), 0);
    for (int k = 0; k < slots && k < 100000; ++k) {
        const double t0 = k * unit + unit * 0.5;
        std::snprintf(buf, sizeof buf, "%-7d", k);
        out += buf;
        for (int r = 0; r < s.ranks; ++r) {
            const auto& ops = run.ranks[std::size_t(r)];
            std::size_t& c = cursor[std::size_t(r)];
            while (c < ops.size() && ops[c].end <= t0) ++c;
            std::string cell = ".";
            if (c < ops.size() && ops[c].start <= t0) cell = opText(ops[c].op);
            std::snprintf(buf, sizeof buf, " %-14s", cell.c_str());
            out += buf;
        }
        out += "\n";
    }
    return out;
}

} // namespace

int cmdSchedule(const Args& a, std::ostream& out, std::ostream& err)
{
    const std::string kindName = a.options.count("--kind") ? a.options.at("--kind") : "1f1b";
    ScheduleRequest req;
    if (!fromString(kindName, req.kind)) {
        err << "planscope-cli: unknown --kind \"" << kindName
            << "\"; use gpipe, 1f1b, interleaved-1f1b, looped-bfs, zb-h1, zb-h2, zb-v, dualpipe, dualpipe-v\n";
        return 1;
    }
    const auto stages = number(a, "--stages", err), mbs = number(a, "--microbatches", err), vpp = number(a, "--vpp", err),
               group = number(a, "--group", err), f = number(a, "--forward", err), b = number(a, "--backward", err),
               w = number(a, "--weight", err), overlap = number(a, "--overlap", err), comm = number(a, "--comm", err);
    if (!stages || !mbs || !vpp || !group || !f || !b || !w || !overlap || !comm) return 1;
    req.ranks = *stages > 0 ? int(*stages) : 4;
    req.microbatches = *mbs > 0 ? int(*mbs) : 8;
    // Default chunks per rank: 2 where the schedule holds more than one stage per rank (interleaved and looped BFS at
    // vpp 2, the V shapes, DualPipe's two copies).
    req.chunks = *vpp > 0 ? int(*vpp) : traits(req.kind).stagesPerRank(2);
    req.groupSize = int(*group);
    if (a.options.count("--variant")) req.variant = a.options.at("--variant");
    const double F = a.options.count("--forward") ? *f : 1.0;
    const double B = a.options.count("--backward") ? *b : 2.0;
    const double W = a.options.count("--weight") ? *w : 1.0;
    const double FB = a.options.count("--overlap") ? *overlap : F + B;
    if (W > B) {
        err << "planscope-cli: --weight (the weight-gradient part) cannot exceed --backward (the full backward)\n";
        return 1;
    }
    Result<Schedule> sched = Result<Schedule>::failure("", "");
    if (a.options.count("--import")) {
        // A schedule written by PyTorch (or exported here): one row per rank of pipelining actions.
        auto text = readTextFile(a.options.at("--import"));
        if (!text) {
            err << "planscope-cli: " << a.options.at("--import") << " " << text.errors().front().message << "\n";
            return 1;
        }
        sched = scheduleFromCsv(text.value(), req.kind);
        if (sched) req.microbatches = sched->microbatches * sched->pipelines;
    } else {
        sched = generateSchedule(req);
    }
    if (!sched) {
        json e = { { "schema", "planscope/schedule/v1" }, { "valid", false }, { "errors", issuesToJson(sched.errors()) } };
        out << e.dump(2) << "\n";
        for (const Issue& i : sched.errors()) err << "error at " << i.path << ": " << i.message << "\n";
        return 2;
    }
    const Schedule& s = sched.value();
    auto run = runSchedule(s, unitDurations(F, B, W, FB), *comm);
    if (!run) {
        for (const Issue& i : run.errors()) err << "error at " << i.path << ": " << i.message << "\n";
        return 2;
    }
    const ScheduleRun& r = run.value();
    if (a.has("--csv") || a.has("--csv-comms")) {
        out << scheduleToCsv(s, a.has("--csv-comms"));
        return 0;
    }
    if (!a.has("--json")) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
            "%s, %d ranks, %d microbatches, %d chunk(s) per rank: makespan %g, bubble %.2f%% of the makespan "
            "[idle/(p*makespan)], %.2f%% over compute [idle/busy]\n",
            std::string(toString(s.kind)).c_str(), s.ranks, req.microbatches, s.chunksPerRank, r.makespan,
            r.bubbleFraction * 100, r.bubbleOverhead * 100);
        out << buf << textGrid(s, r);
        for (int k = 0; k < s.ranks; ++k) {
            std::snprintf(buf, sizeof buf, "rank %d: busy %g, idle %g, peak in flight %g microbatches\n", k,
                r.busy[std::size_t(k)], r.idle[std::size_t(k)], r.peakInFlight[std::size_t(k)]);
            out << buf;
        }
        return 0;
    }
    json ranks = json::array();
    for (int k = 0; k < s.ranks; ++k) {
        json ops = json::array();
        for (const Op& op : s.rankOps[std::size_t(k)]) ops.push_back(opText(op));
        json times = json::array();
        for (const TimedOp& t : r.ranks[std::size_t(k)]) times.push_back({ t.start, t.end });
        ranks.push_back({ { "rank", k }, { "ops", ops }, { "busy", r.busy[std::size_t(k)] }, { "idle", r.idle[std::size_t(k)] },
            { "internalIdle", r.internalIdle[std::size_t(k)] }, { "peakInFlight", r.peakInFlight[std::size_t(k)] },
            { "peakInFlightChunks", r.peakInFlightChunks[std::size_t(k)] }, { "times", times } });
    }
    json stageToRank = s.stageToRank;
    out << json { { "schema", "planscope/schedule/v1" }, { "kind", std::string(toString(s.kind)) }, { "variant", s.variant },
        { "stages", s.ranks }, { "microbatches", req.microbatches }, { "vpp", s.chunksPerRank },
        { "virtualStages", s.stages }, { "stageToRank", stageToRank }, { "makespan", r.makespan },
        { "bubbleFraction", r.bubbleFraction }, { "bubbleOverhead", r.bubbleOverhead },
        { "durations", { { "forward", F }, { "backward", B }, { "weight", W }, { "overlap", FB }, { "comm", *comm } } },
        { "ranks", ranks } }
               .dump(2)
        << "\n";
    return 0;
}

int cmdSimulate(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli simulate PLAN [--chrome-trace OUT.json] [--kineto-traces DIR]\n";
        return 1;
    }
    int code = 0;
    const auto analysis = analysePlanFile(a.positional[0], {}, out, err, code);
    if (!analysis) return code;
    if (!analysis->valid()) return exitInvalid(*analysis, out, err);
    if (!analysis->timeline) {
        out << invalidToJson(analysis->timelineErrors).dump(2) << "\n";
        printIssues(analysis->timelineErrors, err);
        return 2;
    }
    const Plan& plan = analysis->plan;
    const Timeline& timeline = *analysis->timeline;
    json j = analysisToJson(*analysis);
    j["timeline"] = timelineSummaryToJson(timeline);
    if (a.options.count("--chrome-trace")) {
        const std::string path = a.options.at("--chrome-trace");
        if (std::string error; !writeFileAtomically(path, chromeTrace(timeline, plan.name), error)) {
            err << "planscope-cli: " << error << "\n";
            return 1;
        }
        j["timeline"]["chromeTrace"] = path;
    }
    if (a.options.count("--kineto-traces")) {
        // What torch.profiler would write if the run went exactly as predicted: one file per pipeline rank,
        // rank<r>.json, which `import DIR --against PLAN` reads back with zero deltas.
        namespace fs = std::filesystem;
        const fs::path dir = a.options.at("--kineto-traces");
        std::error_code ec;
        fs::create_directories(dir, ec);
        json files = json::array();
        const auto texts = syntheticKinetoTraces(timeline, plan);
        for (std::size_t r = 0; r < texts.size(); ++r) {
            const fs::path path = dir / ("rank" + std::to_string(r) + ".json");
            if (std::string error; !writeFileAtomically(path.string(), texts[r], error)) {
                err << "planscope-cli: " << error << "\n";
                return 1;
            }
            files.push_back(path.string());
        }
        j["timeline"]["kinetoTraces"] = files;
    }
    out << j.dump(2) << "\n";
    return 0;
}

} // namespace planscope::cli
