#include "SearchCommands.h"

#include "Args.h"
#include "PlanInput.h"

#include "cost/Evaluate.h"
#include "io/PredictionJson.h"
#include "io/SearchJson.h"
#include "search/Search.h"
#include "util/AtomicFile.h"
#include "util/Units.h"

#include <chrono>
#include <cstdio>
#include <unistd.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace planscope::cli {

using nlohmann::json;

namespace {

constexpr const char* kSearchUsage =
    "usage: planscope-cli search PLAN [--objective time|cost|memory] [--top K] [--json | --csv OUT.csv]\n"
    "         [--vary tp,pp,dp,cp,ep,vpp,sp,zero,microBatch,recompute,schedule,overlap,offload] [--fix KEY=VALUE ...]\n"
    "         [--gpus N1,N2,...] [--simulate-top K] [--threads N] [--days D [--tokens T]]\n";

bool splitInts(const std::string& text, std::vector<int>& out)
{
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ',')) {
        try {
            std::size_t used = 0;
            const long v = std::stol(part, &used);
            if (used != part.size() || v < 1 || v > 1 << 22) return false;
            out.push_back(int(v));
        } catch (...) {
            return false;
        }
    }
    return !out.empty();
}

std::string fixed1(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

void printText(const SearchResult& r, Objective objective, const std::vector<TermDifference>& why, const Sizing* sizing,
    std::ostream& out)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.0f plans, %.0f valid, %.0f fit with the memory headroom; %.0f evaluated; %.2f s on %d threads%s\n",
        r.plans, r.valid, r.fit, r.evaluated, r.seconds, r.threads, r.cancelled ? " (cancelled)" : "");
    out << buf;
    for (const Text& n : r.notes) out << "note: " << n.english() << "\n";
    out << "rejected:\n";
    std::vector<std::pair<double, std::string>> reasons;
    for (const auto& [k, v] : r.rejected) reasons.push_back({ -v, k });
    std::sort(reasons.begin(), reasons.end());
    for (const auto& [v, k] : reasons) {
        std::snprintf(buf, sizeof buf, "  %12.0f  %s\n", -v, k.c_str());
        out << buf;
    }
    out << "held to: " << evidenceText(r.evidence).english() << "\n";
    out << "best by " << toString(objective) << ":\n";
    for (std::size_t i = 0; i < r.best.size(); ++i) {
        const SearchEntry& e = r.best[i];
        std::snprintf(buf, sizeof buf, "  %2zu. %-70s step %s  MFU %5.1f%%  peak %s  (%s)%s\n", i + 1, candidateText(e.candidate).c_str(),
            units::formatSeconds(e.stepSeconds).c_str(), e.mfu * 100, units::formatBytes(double(e.peakBytes)).c_str(),
            e.source.c_str(), e.beyond ? "  [beyond published evidence]" : "");
        out << buf;
        if (e.beyond)
            out << "      beyond: " << beyondEvidenceText(r.evidence, e.beyond, e.mfu, e.peakBytes, e.capacityBytes).english() << "\n";
    }
    out << "Pareto front (step time vs peak memory" << (r.space.gpus.size() > 1 ? " vs GPUs" : "") << "): " << r.pareto.size()
        << " plans\n";
    for (const SearchEntry& e : r.pareto) {
        std::snprintf(buf, sizeof buf, "      %-70s step %s  peak %s%s\n", candidateText(e.candidate).c_str(),
            units::formatSeconds(e.stepSeconds).c_str(), units::formatBytes(double(e.peakBytes)).c_str(),
            r.space.gpus.size() > 1 ? ("  " + std::to_string(e.candidate.gpus) + " GPUs").c_str() : "");
        out << buf;
    }
    const auto& g = r.given;
    out << "the plan as given: ";
    if (!g.valid || !g.fits)
        out << g.reason.english() << "\n";
    else {
        std::snprintf(buf, sizeof buf, "step %s, rank %.0f of %.0f fitting plans\n", units::formatSeconds(g.entry.stepSeconds).c_str(),
            g.rankAmongFit, r.fit);
        out << buf;
    }
    if (!why.empty()) {
        out << "why the best is faster (given vs best):\n";
        for (const TermDifference& t : why) {
            if (t.mine == t.best) continue;
            const bool seconds = t.unit == "s";
            std::snprintf(buf, sizeof buf, "  %-40s %12s %12s\n", termLabelText(t).c_str(),
                (seconds ? units::formatSeconds(t.mine) : units::formatBytes(t.mine)).c_str(),
                (seconds ? units::formatSeconds(t.best) : units::formatBytes(t.best)).c_str());
            out << buf;
        }
    }
    if (sizing) {
        std::snprintf(buf, sizeof buf, "sizing: %s tokens in %.1f days\n", units::formatCount(sizing->tokens).c_str(), sizing->days);
        out << buf;
        for (const SizingRow& row : sizing->rows) {
            std::snprintf(buf, sizeof buf, "  %6d GPUs: %s\n", row.gpus,
                row.best ? (fixed1(row.days) + " days, " + units::formatCount(row.gpuHours) + " GPU-hours with "
                              + candidateText(row.best->candidate))
                               .c_str()
                         : "nothing fits");
            out << buf;
        }
        out << "  fewest GPUs within the deadline: "
            << (sizing->answer >= 0 ? std::to_string(sizing->rows[std::size_t(sizing->answer)].gpus) : std::string("none")) << "\n";
        out << "  fewest GPUs with a plan that fits: "
            << (sizing->smallest >= 0 ? std::to_string(sizing->rows[std::size_t(sizing->smallest)].gpus) : std::string("none")) << "\n";
        out << "  fewest GPU-hours: "
            << (sizing->cheapest >= 0 ? std::to_string(sizing->rows[std::size_t(sizing->cheapest)].gpus) : std::string("none"))
            << " GPUs\n";
    }
}

} // namespace

int cmdSearch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const Args a = parseArgs(args, 1, { "--objective", "--top", "--csv", "--vary", "--gpus", "--simulate-top", "--threads",
                                          "--days", "--tokens", "--fix" });
    if (a.positional.size() != 1) {
        err << kSearchUsage;
        return 1;
    }
    for (const std::string& f : a.flags)
        if (f != "--json") {
            err << "planscope-cli search: unknown option " << f << "\n" << kSearchUsage;
            return 1;
        }
    int code = 0;
    auto loaded = loadPlanArg(a.positional[0], out, err, code, a.has("--json"));
    if (!loaded) return code;
    Plan templ = loaded->plan;

    // Every --fix, in order (the option map keeps only the last).
    std::vector<Knob> fixed;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string kv;
        if (args[i] == "--fix" && i + 1 < args.size()) kv = args[++i];
        else if (args[i].rfind("--fix=", 0) == 0) kv = args[i].substr(6);
        else continue;
        std::string message;
        if (!applyFix(templ, kv, message, &fixed)) {
            err << "planscope-cli search: " << message << "\n";
            return 1;
        }
    }
    std::vector<Knob> vary;
    if (a.options.count("--vary")) {
        std::stringstream ss(a.options.at("--vary"));
        std::string name;
        while (std::getline(ss, name, ',')) {
            const auto k = knobFromName(name);
            if (!k || *k == Knob::Gpus) {
                err << "planscope-cli search: --vary: unknown knob \"" << name << "\"\n" << kSearchUsage;
                return 1;
            }
            vary.push_back(*k);
        }
    } else {
        vary = defaultKnobs();
    }
    vary.erase(std::remove_if(vary.begin(), vary.end(), [&](Knob k) { return std::find(fixed.begin(), fixed.end(), k) != fixed.end(); }),
        vary.end());
    std::vector<int> gpus;
    if (a.options.count("--gpus") && !splitInts(a.options.at("--gpus"), gpus)) {
        err << "planscope-cli search: --gpus needs GPU counts such as 64,128,256, got \"" << a.options.at("--gpus") << "\"\n";
        return 1;
    }
    // A sizing question without GPU counts: the plan's count from a quarter to sixteen times.
    if (gpus.empty() && a.options.count("--days")) gpus = sizingGpuCounts(templ);
    SearchOptions options;
    if (a.options.count("--objective") && !fromString(a.options.at("--objective"), options.objective)) {
        err << "planscope-cli search: --objective is time, cost or memory, got \"" << a.options.at("--objective") << "\"\n";
        return 1;
    }
    for (const char* key : { "--top", "--simulate-top", "--threads", "--days", "--tokens" }) {
        const auto v = number(a, key, err);
        if (!v) return 1;
    }
    if (a.options.count("--top")) options.top = std::max(1, int(*number(a, "--top", err)));
    if (a.options.count("--simulate-top")) options.simulateTop = int(*number(a, "--simulate-top", err));
    if (a.options.count("--threads")) options.threads = int(*number(a, "--threads", err));
    options.samplePoints = 0;

    const auto space = buildSpace(templ, vary, gpus);
    if (!space) {
        printIssues(space.errors(), err);
        if (a.has("--json")) out << invalidToJson(space.errors()).dump(2) << "\n";
        return 2;
    }
    // Progress on a terminal: the share of the space done, rewritten in place (nothing when stderr is a file or a pipe).
    const bool tty = ::isatty(2) == 1;
    auto lastShown = std::chrono::steady_clock::now();
    if (tty)
        options.progress = [&](double done, double total) {
            const auto now = std::chrono::steady_clock::now();
            if (now - lastShown < std::chrono::milliseconds(250) && done < total) return;
            lastShown = now;
            char buf[128];
            std::snprintf(buf, sizeof buf, "\rsearching: %5.1f%% of %.0f plans", total > 0 ? 100.0 * done / total : 100.0, total);
            err << buf << std::flush;
        };
    const SearchResult r = search(space.value(), options);
    if (tty) err << "\r" << std::string(48, ' ') << "\r" << std::flush;

    // The sizing question: --days, and --tokens (else the plan's).
    std::optional<double> days, tokens;
    if (a.options.count("--days")) days = *number(a, "--days", err);
    if (a.options.count("--tokens")) tokens = *number(a, "--tokens", err);
    if (a.options.count("--csv")) {
        const std::string& path = a.options.at("--csv");
        std::string error;
        if (!writeFileAtomically(path, searchToCsv(r), error)) {
            err << "planscope-cli search: " << error << "\n";
            return 1;
        }
    }
    // Why the template loses to the best plan, and the sizing: core's searchVerdict(), as in the Python module.
    if (a.has("--json")) {
        out << searchDocument(space.value(), r, options.objective, days, tokens).dump(2) << "\n";
    } else {
        const SearchVerdict v = searchVerdict(space.value(), r, days, tokens);
        printText(r, options.objective, v.whyNot, v.sizing ? &*v.sizing : nullptr, out);
    }
    return r.best.empty() ? 3 : 0;
}

} // namespace planscope::cli
