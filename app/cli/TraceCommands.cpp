#include "TraceCommands.h"

#include "PlanInput.h"

#include "io/MemoryCheckJson.h"
#include "io/PlanJson.h"
#include "io/PredictionJson.h"
#include "io/TraceJson.h"
#include "trace/Compare.h"
#include "trace/LayoutInference.h"
#include "trace/Overlay.h"
#include "trace/TraceAnalysis.h"
#include "trace/MemorySnapshot.h"
#include "trace/TraceFiles.h"
#include "util/AtomicFile.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

namespace planscope::cli {

using nlohmann::json;

namespace {
// More files skipped or left out than this are summed up (tallyText) rather than listed one a line.
constexpr std::size_t kPerFileLines = 8;

std::string ms(double seconds)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e3);
    return buf;
}

constexpr const char* kMemoryCheckUsage
    = "usage: planscope-cli memory-check PLAN SNAPSHOT [--stage S] [--device D] [--json]\n";

// --stage S, --device D: a whole number from 0; absent: -1 (the default).
std::optional<int> index(const Args& a, const char* key, std::ostream& err)
{
    const auto it = a.options.find(key);
    if (it == a.options.end()) return -1;
    char* end = nullptr;
    const long n = std::strtol(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || n < 0 || n > 1000000) {
        err << "planscope-cli: " << key << " must be a whole number from 0, found \"" << it->second << "\"\n";
        return std::nullopt;
    }
    return int(n);
}

// "+1.25 GiB", "-512.0 MiB" (units::formatBytes of the magnitude, with its sign).
std::string signedBytes(std::int64_t bytes)
{
    return (bytes < 0 ? "-" : "+") + units::formatBytes(std::abs(double(bytes)));
}

void printMemoryCheck(const MemoryCheck& c, const MemorySnapshot& s, const std::string& plan,
    const std::string& file, std::ostream& out)
{
    const DeviceMemory& d = *s.device(c.device);
    char line[256];
    out << plan << ", stage " << c.stage << " against " << file << ", device " << c.device << "\n";
    out << "  snapshot: " << d.segments << " segments (" << units::formatBytes(double(d.reservedBytes))
        << " reserved, " << units::formatBytes(double(d.allocatedBytes)) << " allocated when taken), "
        << d.events << " events (" << d.allocs << " alloc, " << d.freeRequests << " free_requested, "
        << d.freeCompletions << " free_completed, " << d.segmentAllocs + d.segmentMaps
        << " segment_alloc/map, " << d.segmentFrees + d.segmentUnmaps << " segment_free/unmap, " << d.ooms
        << " oom)\n";
    std::snprintf(line, sizeof line, "  %-15s %14s %14s %14s %9s\n", "figure", "predicted", "measured",
        "difference", "percent");
    out << line;
    for (const MemoryCheckRow& r : c.rows) {
        char percent[32] = "-";
        if (!std::isnan(r.differencePercent))
            std::snprintf(percent, sizeof percent, "%+.1f%%", r.differencePercent);
        std::snprintf(line, sizeof line, "  %-15s %14s %14s %14s %9s\n", r.figure.c_str(),
            units::formatBytes(double(r.predictedBytes)).c_str(),
            units::formatBytes(double(r.measuredBytes)).c_str(), signedBytes(r.differenceBytes).c_str(),
            percent);
        out << line;
    }
    out << "  measured: allocated and reserved peaks over the trace; fragmentation = reserved peak - "
           "allocated peak; "
           "total is compared with the reserved peak and holds "
        << units::formatBytes(double(c.outsideAllocatorBytes))
        << " outside the allocator (CUDA context, NCCL buffers) that no snapshot sees\n";
    out << "  predicted: weights " << units::formatBytes(double(c.weightsBytes)) << ", gradients "
        << units::formatBytes(double(c.gradientsBytes)) << ", optimizer "
        << units::formatBytes(double(c.optimizerBytes)) << ", activations "
        << units::formatBytes(double(c.activationsBytes)) << ", buffers "
        << units::formatBytes(double(c.buffersBytes)) << "\n";
    out << "  peaks" << (c.peakIsLowerBound ? " (lower bounds)" : "") << ": " << c.peakNote.english() << "\n";
    if (!d.largestBlocks.empty()) {
        out << "  largest blocks in use:\n";
        for (std::size_t i = 0; i < d.largestBlocks.size() && i < 5; ++i) {
            const SnapshotBlock& b = d.largestBlocks[i];
            out << "    " << units::formatBytes(double(b.size)) << " " << b.state
                << (b.frames.empty() ? std::string() : " at " + b.frames.front()) << "\n";
        }
    }
    for (const Issue& w : s.warnings)
        out << "  warning: " << issueLine(w) << "\n";
}

} // namespace

int cmdMemoryCheck(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() != 2) {
        err << kMemoryCheckUsage;
        return 1;
    }
    const auto stage = index(a, "--stage", err), device = index(a, "--device", err);
    if (!stage || !device) return 1;
    const bool asJson = a.has("--json");
    int code = 0;
    const auto analysis = analysePlanFile(a.positional[0], {}, out, err, code, asJson);
    if (!analysis) return code;
    if (!analysis->valid()) return exitInvalid(*analysis, out, err, asJson);
    // A file that cannot be read is an I/O problem (1); bytes that are no snapshot are bad input (2).
    const std::string& file = a.positional[1];
    auto bytes = readTextFile(file, kMaxMemorySnapshotBytes);
    if (!bytes) {
        err << "planscope-cli: " << file << ": " << bytes.errors().front().message << "\n";
        return 1;
    }
    const auto snapshot = readMemorySnapshot(bytes.value());
    if (!snapshot) {
        if (asJson)
            out << json { { "schema", kMemoryCheckSchema }, { "valid", false },
                { "errors", issuesToJson(snapshot.errors()) } }
                       .dump(2)
                << "\n";
        err << "planscope-cli: " << file << ":\n";
        printIssues(snapshot.errors(), err);
        return 2;
    }
    const auto check = checkMemory(*analysis, snapshot.value(), *stage, *device);
    if (!check) {
        err << "planscope-cli: ";
        printIssues(check.errors(), err);
        return 1;
    }
    const std::string plan = analysis->plan.name.empty() ? a.positional[0] : analysis->plan.name;
    if (asJson) {
        json doc = memoryCheckDocument(check.value(), snapshot.value(), plan, file);
        doc["valid"] = true;
        out << doc.dump(2) << "\n";
    } else {
        printMemoryCheck(check.value(), snapshot.value(), plan, file, out);
    }
    return 0;
}

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
    // The --against plan through the one analysis, as the app does: the step compared is the simulated one and
    // the overlay has its timeline to match ops against; a plan that cannot be simulated keeps the analytic step.
    std::shared_ptr<const Analysis> against;
    if (planPath) {
        int code = 0;
        against = analysePlanFile(*planPath, {}, a.has("--json") ? out : err, err, code, a.has("--json"));
        if (!against) return code;
        if (!against->valid()) return exitInvalid(*against, out, err, a.has("--json"));
        if (!against->timeline)
            err << "planscope-cli: " << *planPath << ": the schedule cannot be simulated ("
                << against->timelineErrors.front().message << "); comparing with the analytic step\n";
    }
    // The plan the traces imply (core/trace/LayoutInference.h) is laid over a base plan, which gives the model and the
    // cluster a trace does not record: --base PLAN, else the --against plan.
    const bool inferPlan = a.has("--infer-plan") || a.options.count("--base") || a.options.count("--out");
    std::optional<json> base;
    if (a.options.count("--base")) {
        int code = 0;
        auto loaded = loadPlanArg(a.options.at("--base"), out, err, code, a.has("--json"));
        if (!loaded) return code;
        base = planToJson(loaded->plan);
    } else if (against) {
        base = planToJson(against->plan);
    }
    if (a.options.count("--out") && !base) {
        err << "planscope-cli: --out needs a base plan for the model and the cluster, which a trace does not record "
               "(--base PLAN or --against PLAN)\n";
        return 1;
    }
    TraceSetControl control;
    if (a.options.count("--job")) control.job = std::atoi(a.options.at("--job").c_str());
    const TraceImport traces = importTraces(inputs, control);
    // A few files each get a line; a folder of thousands gets the counts and the reasons with their first files
    // (tallyText, core/trace/TraceFiles.h), and --json lists every file.
    const bool perFile = traces.skipped.size() + traces.excluded.size() <= kPerFileLines;
    if (perFile) {
        for (const SkippedRegion& s : traces.skipped) {
            err << "planscope-cli: " << s.file << ": " << s.reason.english();
            if (s.offset >= 0) err << " (byte offset " << s.offset << ")";
            err << "\n";
        }
        // Files left out on purpose: other jobs' (one job is compared at a time; --job N keeps another) and repeated
        // ranks.
        for (const ExcludedTrace& x : traces.excluded) err << "planscope-cli: " << x.file << ": left out: " << x.text << "\n";
    } else
        for (const std::string& line : tallyText(traces.tally)) err << "planscope-cli: " << line << "\n";
    if (traces.jobs.size() > 1) {
        err << "planscope-cli: the files hold " << traces.jobs.size() << " jobs; keeping job " << traces.job
            << " (--job N keeps another):\n";
        for (std::size_t j = 0; j < traces.jobs.size(); ++j) {
            const TraceJob& job = traces.jobs[j];
            err << "  job " << j << ": world size " << (job.worldSize >= 0 ? std::to_string(job.worldSize) : "?") << ", "
                << job.files.size() << " file" << (job.files.size() == 1 ? "" : "s")
                << (job.timed ? ", traced " + traceTimeText(job.startNs) : std::string()) << "\n";
        }
    }
    const std::vector<MeasuredRank>& ranks = traces.ranks;
    const Alignment alignment = alignRanks(ranks);
    std::optional<Comparison> comparison;
    std::optional<Overlay> overlay;
    if (against && !ranks.empty()) {
        comparison = compare(ranks, against->prediction, against->plan.name);
        if (against->timeline) {
            OverlayOptions options;
            if (a.options.count("--step")) options.step = std::atoi(a.options.at("--step").c_str());
            overlay = buildOverlay(ranks, against->plan, *against->timeline, options);
        }
    }

    const InferredLayout layout = inferLayout(ranks, base ? &*base : nullptr);
    // --out: the inferred plan as the plan reader takes it, written only when it reads back and something was inferred.
    int inferredCode = 0;
    if (a.options.count("--out") && !ranks.empty()) {
        const std::string& path = a.options.at("--out");
        auto parsed = parsePlan(layout.plan.dump(-1, ' ', false, json::error_handler_t::replace));
        std::string error;
        if (layout.fields.empty()) {
            err << "planscope-cli: " << path << ": not written: the traces imply no field of a plan\n";
            inferredCode = 2;
        } else if (!parsed) {
            err << "planscope-cli: " << path << ": not written: the inferred plan does not read back:\n";
            printIssues(parsed.errors(), err);
            inferredCode = 2;
        } else if (!writeFileAtomically(path, serializePlan(parsed->plan), error)) {
            err << "planscope-cli: " << error << "\n";
            return 1;
        } else {
            err << "planscope-cli: wrote " << path << "\n";
        }
    }

    if (a.has("--json")) {
        json doc = importToJson(traces, alignment, comparison ? &*comparison : nullptr, overlay ? &*overlay : nullptr);
        doc["inferredPlan"] = inferredLayoutToJson(layout);
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
                << " (GPU step decomposed, means over ranks):\n";
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
        if (inferPlan) {
            out << "layout from the process groups"
                << (layout.worldSize > 0 ? " (world of " + std::to_string(layout.worldSize) + " ranks)" : std::string()) << ":\n";
            for (const InferredField& f : layout.fields) {
                char line[96];
                std::snprintf(line, sizeof line, "  %-6s %-16s ", f.field.c_str(),
                    f.field == "order" ? f.order.c_str() : std::to_string(f.value).c_str());
                out << line << f.from.english() << "\n";
            }
            for (const NotInferredField& f : layout.notInferred)
                out << "  not inferred: " << f.field << " (" << f.reason.english() << ")\n";
            for (const Text& t : layout.issues) out << "  issue: " << t.english() << "\n";
            for (const Text& t : layout.notes) out << "  note: " << t.english() << "\n";
        }
        if (perFile) {
            for (const SkippedRegion& s : traces.skipped)
                out << "skipped " << s.file << " at byte " << s.offset << ": " << s.reason.english() << "\n";
            for (const ExcludedTrace& x : traces.excluded) out << "left out " << x.file << ": " << x.text << "\n";
        } else
            for (const std::string& line : tallyText(traces.tally)) out << line << "\n";
    }
    return ranks.empty() ? 2 : inferredCode;
}

} // namespace planscope::cli
