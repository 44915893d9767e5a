#include "TraceCommands.h"

#include "PlanInput.h"

#include "io/TraceJson.h"
#include "trace/Compare.h"
#include "trace/Overlay.h"
#include "trace/TraceAnalysis.h"
#include "trace/TraceFiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

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

    if (a.has("--json")) {
        out << importToJson(traces, alignment, comparison ? &*comparison : nullptr, overlay ? &*overlay : nullptr).dump(2)
            << "\n";
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
        if (perFile) {
            for (const SkippedRegion& s : traces.skipped)
                out << "skipped " << s.file << " at byte " << s.offset << ": " << s.reason.english() << "\n";
            for (const ExcludedTrace& x : traces.excluded) out << "left out " << x.file << ": " << x.text << "\n";
        } else
            for (const std::string& line : tallyText(traces.tally)) out << line << "\n";
    }
    return ranks.empty() ? 2 : 0;
}

} // namespace planscope::cli
