#include "TraceCommands.h"

#include "cost/Evaluate.h"
#include "io/PlanJson.h"
#include "trace/Compare.h"
#include "trace/Overlay.h"
#include "sim/Timeline.h"
#include "trace/KinetoImport.h"
#include "trace/TraceAnalysis.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <thread>

namespace planscope::cli {

using nlohmann::json;

namespace {

json rankToJson(const MeasuredRank& r)
{
    json collectives = json::object();
    for (const auto& [name, n] : r.collectives) collectives[name] = n;
    json j = json::object();
    j["rank"] = r.rank >= 0 ? json(r.rank) : json(nullptr);
    j["worldSize"] = r.worldSize >= 0 ? json(r.worldSize) : json(nullptr);
    j["file"] = r.file;
    j["events"] = r.events;
    j["kernels"] = r.kernels;
    j["ncclKernels"] = r.ncclKernels;
    j["collectives"] = collectives;
    j["memoryEvents"] = r.memoryEvents;
    j["steps"] = r.steps;
    j["breakdown"] = json { { "computeSeconds", r.breakdown.computeSeconds },
        { "commSeconds", r.breakdown.commSeconds }, { "overlapSeconds", r.breakdown.overlapSeconds },
        { "idleSeconds", r.breakdown.idleSeconds } };
    json stats = json::array();
    for (const CollectiveStat& c : collectiveStats(r))
        stats.push_back(json { { "op", c.op }, { "count", c.count }, { "bytes", c.bytes }, { "seconds", c.seconds },
            { "algBandwidth", c.algBandwidth }, { "busBandwidth", c.busBandwidth }, { "groupSize", c.groupSize } });
    j["collectiveStats"] = stats;
    json spans = json::array();
    for (const MeasuredStep& s : r.stepSpans) spans.push_back(json { { "name", s.name }, { "seconds", double(s.durNs) * 1e-9 } });
    j["stepSpans"] = spans;
    json steps = json::array();
    for (const StepBreakdown& s : stepBreakdowns(r))
        steps.push_back(json { { "name", s.name }, { "startNs", s.startNs }, { "seconds", double(s.durNs) * 1e-9 },
            { "gpuStartNs", s.gpuStartNs }, { "gpuEndNs", s.gpuEndNs }, { "computeSeconds", s.computeSeconds },
            { "commSeconds", s.commSeconds }, { "overlapSeconds", s.overlapSeconds }, { "idleSeconds", s.idleSeconds },
            { "kernels", s.kernels }, { "ncclKernels", s.ncclKernels } });
    j["stepBreakdowns"] = steps;
    json kernels = json::array();
    for (const KernelStat& k : topKernels(r, 10)) {
        json e { { "name", k.name }, { "count", k.count }, { "totalSeconds", k.totalSeconds }, { "share", k.share } };
        e["collective"] = k.collective == CollectiveKind::None ? json(nullptr) : json(toString(k.collective));
        kernels.push_back(e);
    }
    j["topKernels"] = kernels;
    json lanes = json::array();
    for (const MeasuredLane& l : r.lanes)
        lanes.push_back(json { { "pid", l.pid }, { "tid", l.tid }, { "gpu", l.gpu }, { "events", l.events } });
    j["lanes"] = lanes;
    json memory = json::array();
    for (const DeviceMemorySeries& d : memoryTimeline(r))
        memory.push_back(json { { "deviceType", d.deviceType }, { "deviceId", d.deviceId },
            { "points", d.points.size() }, { "peakAllocatedBytes", d.peakAllocated },
            { "peakReservedBytes", d.peakReserved } });
    j["memory"] = memory;
    return j;
}

json alignmentToJson(const Alignment& a)
{
    json ranks = json::array();
    for (const RankSkew& s : a.ranks) ranks.push_back(json { { "rank", s.rank }, { "medianSkewSeconds", s.medianSkewSeconds } });
    return json { { "matchedCollectives", a.matchedCollectives }, { "ranks", ranks },
        { "straggler", a.straggler >= 0 ? json(a.straggler) : json(nullptr) } };
}

bool isTraceFileName(const std::string& name)
{
    auto ends = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends(".json") || ends(".json.gz");
}

// Folders become their *.json / *.json.gz files (not recursive, sorted by name); files stay as given.
std::vector<std::string> expandInputs(const std::vector<std::string>& args, json& skipped)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& a : args) {
        std::error_code ec;
        if (!fs::is_directory(a, ec)) {
            files.push_back(a);
            continue;
        }
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(a, ec))
            if (e.is_regular_file(ec) && isTraceFileName(e.path().filename().string())) found.push_back(e.path().string());
        std::sort(found.begin(), found.end());
        if (found.empty())
            skipped.push_back(json { { "file", a }, { "offset", -1 }, { "reason", "folder holds no .json or .json.gz file" } });
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

// Imports the files in parallel, at most hardware_concurrency at a time; results in input order.
std::vector<std::optional<Result<MeasuredRank>>> importAll(const std::vector<std::string>& files)
{
    std::vector<std::optional<Result<MeasuredRank>>> results(files.size());
    const std::size_t workers
        = std::min<std::size_t>(files.size(), std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<std::size_t> next { 0 };
    std::vector<std::future<void>> pool;
    for (std::size_t w = 0; w < workers; ++w)
        pool.push_back(std::async(std::launch::async, [&] {
            for (std::size_t i = next++; i < files.size(); i = next++) results[i].emplace(importKinetoTrace(files[i]));
        }));
    for (auto& f : pool) f.get();
    return results;
}

std::string ms(double seconds)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e3);
    return buf;
}

json numberOrNull(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

json comparisonToJson(const Comparison& c)
{
    json phases = json::array();
    for (const PhaseComparison& p : c.phases)
        phases.push_back(json { { "phase", p.phase }, { "predictedSeconds", p.predictedSeconds },
            { "measuredSeconds", p.measuredSeconds }, { "error", numberOrNull(p.error) } });
    json ranks = json::array();
    for (const RankStepMeasure& r : c.ranks)
        ranks.push_back(json { { "rank", r.rank >= 0 ? json(r.rank) : json(nullptr) }, { "steps", r.steps },
            { "method", r.method }, { "stepSeconds", r.stepSeconds }, { "computeSeconds", r.computeSeconds },
            { "commSeconds", r.commSeconds }, { "exposedCommSeconds", r.exposedCommSeconds } });
    return json { { "plan", c.plan }, { "method", c.method }, { "predictedStepSeconds", c.predictedStepSeconds },
        { "measuredStepSeconds", c.measuredStepSeconds }, { "stepError", numberOrNull(c.stepError) },
        { "reading", c.reading }, { "phases", phases }, { "ranks", ranks }, { "biggestGap", c.biggestGap } };
}

json issuesJson(const Issues& issues)
{
    json a = json::array();
    for (const Issue& i : issues) {
        json e { { "path", i.path }, { "message", i.message } };
        if (i.offset >= 0) e["offset"] = i.offset;
        a.push_back(e);
    }
    return a;
}

// Loads and evaluates the --against plan. Exit code 1: cannot open; 2: invalid (errors printed, JSON with --json).
// The plan is simulated as the app does, so the step compared is the simulated one (as every view shows it) and
// the overlay has the timeline to match ops against; a plan that cannot be simulated keeps the analytic step.
struct Against {
    Plan plan;
    Prediction prediction;
    std::optional<Timeline> timeline;
};

std::optional<Against> predictAgainst(const std::string& path, const Args& a, std::ostream& out, std::ostream& err,
    std::string& name, int& code)
{
    auto fail = [&](const Issues& errors) {
        if (a.has("--json")) out << json { { "valid", false }, { "errors", issuesJson(errors) } }.dump(2) << "\n";
        for (const Issue& i : errors) {
            err << "planscope-cli: " << path << ": " << i.path;
            if (i.offset >= 0) err << " (byte offset " << i.offset << ")";
            err << ": " << i.message << "\n";
        }
        code = 2;
        return std::nullopt;
    };
    auto loaded = loadPlanFile(path);
    if (!loaded) {
        const Issues& errors = loaded.errors();
        if (errors.size() == 1 && errors[0].path == path && errors[0].message == "cannot open file") {
            err << "planscope-cli: cannot open " << path << "\n";
            code = 1;
            return std::nullopt;
        }
        return fail(errors);
    }
    Against against { loaded->plan, evaluate(loaded->plan), std::nullopt };
    if (!against.prediction.valid) return fail(against.prediction.errors);
    name = loaded->plan.name;
    if (auto tl = simulate(against.plan, against.prediction)) {
        applySimulation(against.prediction, against.plan, tl.value());
        against.timeline = std::move(tl.value());
    } else {
        err << "planscope-cli: " << path << ": the schedule cannot be simulated (" << tl.errors().front().message
            << "); comparing with the analytic step\n";
    }
    return against;
}

json decompositionToJson(const StepDecomposition& d)
{
    auto s = [](std::int64_t ns) { return double(ns) * 1e-9; };
    return json { { "windowSeconds", s(d.windowNs) }, { "computeSeconds", s(d.computeNs) }, { "commSeconds", s(d.commNs) },
        { "exposedCommSeconds", s(d.exposedCommNs) }, { "idleSeconds", s(d.idleNs) } };
}

// The overlay as the trace view shows it: per rank decompositions, phases, matched PP: actions (the 20 furthest
// off by duration; counts for all), the summary and its caveats.
json overlayToJson(const Overlay& ov, const std::vector<MeasuredRank>& ranks)
{
    json jr = json::array();
    for (const OverlayRank& o : ov.ranks)
        jr.push_back(json { { "rank", o.rank >= 0 ? json(o.rank) : json(nullptr) }, { "file", ranks[o.source].file },
            { "pipelineRank", o.pipelineRank }, { "step", o.step >= 0 ? json(ranks[o.source].stepSpans[std::size_t(o.step)].name) : json(nullptr) },
            { "measured", decompositionToJson(o.measured) }, { "predicted", decompositionToJson(o.predicted) } });
    json phases = json::array();
    for (const PhaseDelta& p : ov.phases)
        phases.push_back(json { { "phase", p.phase }, { "predictedSeconds", p.predictedSeconds },
            { "measuredSeconds", p.measuredSeconds }, { "deltaSeconds", p.deltaSeconds } });
    json kinds = json::array();
    for (const OpKindRatio& k : ov.opRatios)
        kinds.push_back(json { { "kind", k.kind }, { "count", k.count }, { "medianRatio", k.medianRatio } });
    std::vector<const OpDelta*> worst;
    for (const OpDelta& d : ov.ops) worst.push_back(&d);
    std::stable_sort(worst.begin(), worst.end(), [](const OpDelta* x, const OpDelta* y) {
        return std::llabs(x->durationDeltaNs()) > std::llabs(y->durationDeltaNs());
    });
    if (worst.size() > 20) worst.resize(20);
    json largest = json::array();
    for (const OpDelta* d : worst)
        largest.push_back(json { { "op", d->op }, { "rank", ov.ranks[d->overlayRank].rank },
            { "predictedStartSeconds", double(d->predictedStartNs) * 1e-9 }, { "predictedSeconds", double(d->predictedNs) * 1e-9 },
            { "measuredStartSeconds", double(d->measuredStartNs) * 1e-9 }, { "measuredSeconds", double(d->measuredNs) * 1e-9 },
            { "startDeltaSeconds", double(d->startDeltaNs()) * 1e-9 }, { "durationDeltaSeconds", double(d->durationDeltaNs()) * 1e-9 } });
    json notes = json::array();
    for (const OverlayNote& n : ov.notes) notes.push_back(n.text);
    std::int64_t nonZero = 0;
    for (const OpDelta& d : ov.ops) nonZero += d.startDeltaNs() != 0 || d.durationDeltaNs() != 0;
    return json { { "stepName", ov.stepName.empty() ? json(nullptr) : json(ov.stepName) }, { "ranks", jr }, { "phases", phases },
        { "stepError", ov.verdict == Overlay::Unmeasured ? json(nullptr) : json(ov.stepError) },
        { "biggestGap", ov.biggestGap }, { "summary", ov.summary }, { "notes", notes },
        { "ops", json { { "matched", ov.ops.size() }, { "withNonZeroDelta", nonZero }, { "measuredActions", ov.measuredActions },
                     { "unmatchedMeasured", ov.unmatchedMeasured }, { "unmatchedPredicted", ov.unmatchedPredicted },
                     { "byKind", kinds }, { "largestDurationDeltas", largest } } } };
}

} // namespace

int cmdImport(const Args& a, std::ostream& out, std::ostream& err)
{
    // --against=PLAN, or --against PLAN: the argument parser keeps no order between flags and positionals, so
    // in the documented form (TRACE... --against PLAN) the plan is the last positional.
    std::vector<std::string> inputs = a.positional;
    std::optional<std::string> planPath;
    if (a.options.count("--against")) {
        planPath = a.options.at("--against");
    } else if (std::find(a.flags.begin(), a.flags.end(), "--against") != a.flags.end()) {
        if (inputs.size() < 2) {
            err << "usage: planscope-cli import TRACE... --against PLAN [--step N] [--json]\n";
            return 1;
        }
        planPath = inputs.back();
        inputs.pop_back();
    }
    if (inputs.empty()) {
        err << "usage: planscope-cli import TRACE... [--against PLAN] [--json]\n";
        return 1;
    }
    std::optional<Against> against;
    std::string planName;
    if (planPath) {
        int code = 0;
        against = predictAgainst(*planPath, a, out, err, planName, code);
        if (!against) return code;
    }
    std::vector<MeasuredRank> ranks;
    json skipped = json::array();
    const std::vector<std::string> files = expandInputs(inputs, skipped);
    auto results = importAll(files);
    for (std::size_t f = 0; f < files.size(); ++f) {
        const std::string& path = files[f];
        auto& r = *results[f];
        if (!r) {
            const Issue& i = r.errors().front();
            skipped.push_back(json { { "file", path }, { "offset", i.offset }, { "reason", i.message } });
            err << "planscope-cli: " << path << ": " << i.message;
            if (i.offset >= 0) err << " (byte offset " << i.offset << ")";
            err << "\n";
            continue;
        }
        if (r->skipped) {
            skipped.push_back(json { { "file", path }, { "offset", r->skipped->offset }, { "reason", r->skipped->reason } });
            err << "planscope-cli: " << path << ": imported up to byte " << r->skipped->offset << ": "
                << r->skipped->reason << "\n";
        }
        ranks.push_back(std::move(r).value());
    }
    // By distributedInfo rank (ranks without one last, in input order); a second file of a rank is skipped.
    std::stable_sort(ranks.begin(), ranks.end(), [](const MeasuredRank& x, const MeasuredRank& y) {
        return (x.rank < 0 ? INT32_MAX : x.rank) < (y.rank < 0 ? INT32_MAX : y.rank);
    });
    std::vector<MeasuredRank> unique;
    for (auto& r : ranks) {
        const auto same = std::find_if(unique.begin(), unique.end(),
            [&](const MeasuredRank& u) { return r.rank >= 0 && u.rank == r.rank && u.worldSize == r.worldSize; });
        if (same != unique.end()) {
            const std::string reason = "duplicate rank " + std::to_string(r.rank) + " (already imported from " + same->file + ")";
            skipped.push_back(json { { "file", r.file }, { "offset", -1 }, { "reason", reason } });
            err << "planscope-cli: " << r.file << ": " << reason << "\n";
            continue;
        }
        unique.push_back(std::move(r));
    }
    ranks = std::move(unique);
    const Alignment alignment = alignRanks(ranks);
    std::optional<Comparison> comparison;
    std::optional<Overlay> overlay;
    if (against && !ranks.empty()) {
        comparison = compare(ranks, against->prediction, planName);
        if (against->timeline) {
            OverlayOptions options;
            if (a.options.count("--step")) options.step = std::atoi(a.options.at("--step").c_str());
            overlay = buildOverlay(ranks, against->plan, *against->timeline, options);
        }
    }

    if (a.has("--json")) {
        json doc = json::object();
        doc["schema"] = "planscope/import/v1";
        doc["ranks"] = json::array();
        for (const auto& r : ranks) doc["ranks"].push_back(rankToJson(r));
        doc["comparison"] = comparison ? comparisonToJson(*comparison) : json::object();
        if (overlay) doc["comparison"]["overlay"] = overlayToJson(*overlay, ranks);
        doc["alignment"] = alignmentToJson(alignment);
        doc["skipped"] = skipped;
        out << doc.dump(2) << "\n";
    } else {
        for (const auto& r : ranks) {
            out << r.file << "\n";
            out << "  rank " << (r.rank >= 0 ? std::to_string(r.rank) : "?") << " of "
                << (r.worldSize >= 0 ? std::to_string(r.worldSize) : "?") << "; " << r.events << " events, "
                << r.kernels << " kernels (" << r.ncclKernels << " NCCL), " << r.memoryEvents << " memory events\n";
            if (!r.collectives.empty()) {
                out << "  collectives:";
                for (const auto& [name, n] : r.collectives) out << " " << name << " " << n;
                out << "\n";
            }
            if (!r.steps.empty()) {
                out << "  steps:";
                for (const auto& s : r.steps) out << " " << s;
                out << "\n";
            }
            out << "  GPU time (ms): compute " << ms(r.breakdown.computeSeconds) << ", communication "
                << ms(r.breakdown.commSeconds) << ", overlap " << ms(r.breakdown.overlapSeconds) << ", idle "
                << ms(r.breakdown.idleSeconds) << " over a kernel span of " << ms(r.breakdown.spanSeconds) << "\n";
            for (const CollectiveStat& c : collectiveStats(r)) {
                char line[256];
                std::snprintf(line, sizeof line,
                    "  %s x%lld (%d ranks): median %.0f bytes in %.3f ms, algBw %.2f GB/s, busBw %.2f GB/s (lower bounds)\n",
                    c.op.c_str(), static_cast<long long>(c.count), c.groupSize, c.bytes, c.seconds * 1e3,
                    c.algBandwidth * 1e-9, c.busBandwidth * 1e-9);
                out << line;
            }
        }
        if (alignment.matchedCollectives > 0) {
            out << "alignment: " << alignment.matchedCollectives << " matched collectives; median skew (ms):";
            for (const RankSkew& s : alignment.ranks) out << " rank " << s.rank << " " << ms(s.medianSkewSeconds);
            out << "; straggler rank " << alignment.straggler << "\n";
        }
        if (comparison) {
            out << "against " << comparison->plan << " (measured step: " << comparison->method << ", median over "
                << comparison->ranks.size() << " rank" << (comparison->ranks.size() == 1 ? "" : "s") << ")\n";
            char line[160];
            std::snprintf(line, sizeof line, "  %-12s %14s %14s %8s\n", "phase", "predicted ms", "measured ms", "error");
            out << line;
            for (const PhaseComparison& p : comparison->phases) {
                char errText[32] = "-";
                if (!std::isnan(p.error)) std::snprintf(errText, sizeof errText, "%+.1f%%", p.error * 100);
                std::snprintf(line, sizeof line, "  %-12s %14.3f %14.3f %8s\n", p.phase.c_str(), p.predictedSeconds * 1e3,
                    p.measuredSeconds * 1e3, errText);
                out << line;
            }
            out << "  " << comparison->reading << "; biggest gap: " << comparison->biggestGap << "\n";
        }
        if (overlay) {
            out << "overlay" << (overlay->stepName.empty() ? std::string() : " at " + overlay->stepName)
                << " (GPU step decomposed, medians over ranks):\n";
            char line[160];
            std::snprintf(line, sizeof line, "  %-12s %14s %14s %12s\n", "phase", "predicted ms", "measured ms", "delta ms");
            out << line;
            for (const PhaseDelta& p : overlay->phases) {
                std::snprintf(line, sizeof line, "  %-12s %14.3f %14.3f %+12.3f\n", p.phase.c_str(), p.predictedSeconds * 1e3,
                    p.measuredSeconds * 1e3, p.deltaSeconds * 1e3);
                out << line;
            }
            if (overlay->measuredActions > 0) {
                out << "  PP actions: " << overlay->ops.size() << " matched, " << overlay->unmatchedMeasured
                    << " measured without a predicted span, " << overlay->unmatchedPredicted << " predicted not measured\n";
                for (const OpKindRatio& k : overlay->opRatios) {
                    std::snprintf(line, sizeof line, "    %-7s x%-6lld measured/predicted median %.3f\n", k.kind.c_str(),
                        static_cast<long long>(k.count), k.medianRatio);
                    out << line;
                }
            }
            out << "  " << overlay->summary << "\n";
            for (const OverlayNote& n : overlay->notes) out << "  note: " << n.text << "\n";
        }
        for (const auto& s : skipped)
            out << "skipped " << s["file"].get<std::string>() << " at byte " << s["offset"].get<std::int64_t>()
                << ": " << s["reason"].get<std::string>() << "\n";
    }
    return ranks.empty() ? 2 : 0;
}

} // namespace planscope::cli
