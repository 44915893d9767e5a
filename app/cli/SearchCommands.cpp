#include "SearchCommands.h"

#include "Args.h"
#include "PlanInput.h"

#include "cost/Evaluate.h"
#include "io/PredictionJson.h"
#include "io/PlanJson.h"
#include "io/SearchJson.h"
#include "io/SearchShardJson.h"
#include "search/Search.h"
#include "search/SearchShard.h"
#include "util/AtomicFile.h"
#include "util/Units.h"

#include <chrono>
#include <cstdio>
#include <unistd.h>
#include <nlohmann/json.hpp>
#include <ostream>
#include <memory>
#include <set>
#include <sstream>

namespace planscope::cli {

using nlohmann::json;

namespace {

constexpr const char* kSearchUsage =
    "usage: planscope-cli search PLAN [--objective time|cost|memory] [--top K] [--json | --csv OUT.csv]\n"
    "         [--vary tp,pp,dp,cp,ep,vpp,sp,zero,microBatch,recompute,schedule,overlap,offload] [--fix KEY=VALUE ...]\n"
    "         [--gpus N1,N2,...] [--simulate-top K] [--threads N] [--days D [--tokens T]] [--shard I/N --out SHARD.json]\n"
    "       planscope-cli search --merge SHARD.json... [--json | --csv OUT.csv]\n";

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

namespace {

// A search as the command line asks it: the template (after --fix), its space, the options, the sizing question.
struct SearchRequest {
    Args a;
    Plan templ;
    SearchSpace space;
    SearchOptions options;
    std::optional<double> days, tokens;
};

// Everything after PLAN, as given: --fix in order (the option map keeps only the last), then the rest. Exit code in
// `code` when it returns nothing.
std::optional<SearchRequest> prepare(Plan templ, const std::vector<std::string>& args, std::ostream& out, std::ostream& err, int& code)
{
    SearchRequest q;
    q.a = parseArgs(args, 1, { "--objective", "--top", "--csv", "--vary", "--gpus", "--simulate-top", "--threads", "--days", "--tokens",
                                 "--fix", "--shard", "--out" });
    const Args& a = q.a;
    code = 1;
    std::vector<Knob> fixed;
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string kv;
        if (args[i] == "--fix" && i + 1 < args.size()) kv = args[++i];
        else if (args[i].rfind("--fix=", 0) == 0) kv = args[i].substr(6);
        else continue;
        std::string message;
        if (!applyFix(templ, kv, message, &fixed)) {
            err << "planscope-cli search: " << message << "\n";
            return std::nullopt;
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
                return std::nullopt;
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
        return std::nullopt;
    }
    // A sizing question without GPU counts: the plan's count from a quarter to sixteen times.
    if (gpus.empty() && a.options.count("--days")) gpus = sizingGpuCounts(templ);
    SearchOptions& options = q.options;
    if (a.options.count("--objective") && !fromString(a.options.at("--objective"), options.objective)) {
        err << "planscope-cli search: --objective is time, cost or memory, got \"" << a.options.at("--objective") << "\"\n";
        return std::nullopt;
    }
    for (const char* key : { "--top", "--simulate-top", "--threads", "--days", "--tokens" }) {
        const auto v = number(a, key, err);
        if (!v) return std::nullopt;
    }
    if (a.options.count("--top")) options.top = std::max(1, int(*number(a, "--top", err)));
    if (a.options.count("--simulate-top")) options.simulateTop = int(*number(a, "--simulate-top", err));
    if (a.options.count("--threads")) options.threads = int(*number(a, "--threads", err));
    options.samplePoints = 0;
    if (a.options.count("--days")) q.days = *number(a, "--days", err);
    if (a.options.count("--tokens")) q.tokens = *number(a, "--tokens", err);

    auto space = buildSpace(templ, vary, gpus);
    if (!space) {
        printIssues(space.errors(), err);
        if (a.has("--json")) out << invalidToJson(space.errors()).dump(2) << "\n";
        code = 2;
        return std::nullopt;
    }
    q.space = std::move(space).value();
    q.templ = std::move(templ);
    code = 0;
    return q;
}

// The result as the verb prints it: --csv, then --json or the text.
int report(const SearchRequest& q, const SearchResult& r, std::ostream& out, std::ostream& err)
{
    const Args& a = q.a;
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
        out << searchDocument(q.space, r, q.options.objective, q.days, q.tokens).dump(2) << "\n";
    } else {
        const SearchVerdict v = searchVerdict(q.space, r, q.days, q.tokens);
        printText(r, q.options.objective, v.whyNot, v.sizing ? &*v.sizing : nullptr, out);
    }
    return r.best.empty() ? 3 : 0;
}

// Progress on a terminal: the share of the space done, rewritten in place (nothing when stderr is a file or a pipe).
void showProgress(SearchOptions& options, std::ostream& err, bool& tty)
{
    tty = ::isatty(2) == 1;
    if (!tty) return;
    auto lastShown = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    options.progress = [&err, lastShown](double done, double total) {
        const auto now = std::chrono::steady_clock::now();
        if (now - *lastShown < std::chrono::milliseconds(250) && done < total) return;
        *lastShown = now;
        char buf[128];
        std::snprintf(buf, sizeof buf, "\rsearching: %5.1f%% of %.0f plans", total > 0 ? 100.0 * done / total : 100.0, total);
        err << buf << std::flush;
    };
}

// What a shard keeps of the command line: the options that decide the result (not where or how it is printed, nor the
// threads), so that every shard of one search carries the same request and the merge can rebuild it.
std::vector<std::string> requestArgs(const std::vector<std::string>& args)
{
    static const std::set<std::string> dropped { "--shard", "--out", "--threads", "--csv" };
    std::vector<std::string> kept { args.front() };
    for (std::size_t i = 2; i < args.size(); ++i) {
        const std::string& s = args[i];
        const std::string key = s.substr(0, s.find('='));
        if (dropped.count(key)) {
            if (key == s && i + 1 < args.size()) ++i;
            continue;
        }
        if (s == "--json" || s == "--merge") continue;
        kept.push_back(s);
    }
    return kept;
}

} // namespace

int mergeSearchShardTexts(const std::vector<std::string>& texts, const std::vector<std::string>& labels, bool asJson,
    const std::string& csv, std::ostream& out, std::ostream& err)
{
    std::vector<json> docs;
    for (std::size_t k = 0; k < texts.size(); ++k) {
        const std::string& label = labels[k];
        json d = json::parse(texts[k], nullptr, false);
        if (d.is_discarded() || !d.is_object() || d.value("schema", "") != "planscope/search-shard/v1" || !d.contains("request")
            || !d.contains("result") || !d["shard"].is_number_integer() || !d["shards"].is_number_integer()) {
            err << "planscope-cli search: " << label << " is no search shard (schema planscope/search-shard/v1)\n";
            return 2;
        }
        if (!docs.empty() && (d["request"] != docs.front()["request"] || d["shards"] != docs.front()["shards"])) {
            err << "planscope-cli search: " << label << " is a shard of another search than " << labels.front()
                << " (its plan or options differ)\n";
            return 2;
        }
        docs.push_back(std::move(d));
    }
    if (docs.empty()) {
        err << "planscope-cli search: no shard to merge\n";
        return 1;
    }
    const int shards = docs.front()["shards"].get<int>();
    std::vector<int> seen(std::size_t(std::max(shards, 0)), 0);
    for (const json& d : docs) {
        const int i = d["shard"].get<int>();
        if (i < 0 || i >= shards || seen[std::size_t(i)]++) {
            err << "planscope-cli search: shard " << i << " of " << shards << " is given twice or is out of range\n";
            return 2;
        }
    }
    std::string missing;
    for (int i = 0; i < shards; ++i)
        if (!seen[std::size_t(i)]) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    if (!missing.empty()) {
        err << "planscope-cli search: shards " << missing << " of " << shards << " are missing\n";
        return 2;
    }
    const json& request = docs.front()["request"];
    auto loaded = planFromJson(request["plan"]);
    if (!loaded) {
        err << "planscope-cli search: the shards' plan does not read:\n";
        printIssues(loaded.errors(), err);
        return 2;
    }
    std::vector<std::string> args = request["args"].get<std::vector<std::string>>();
    if (asJson) args.push_back("--json");
    if (!csv.empty()) args.insert(args.end(), { "--csv", csv });
    int code = 0;
    auto q = prepare(loaded->plan, args, out, err, code);
    if (!q) return code;
    std::vector<SearchShard> parts;
    for (const json& d : docs) {
        auto part = searchShardFromJson(d["result"], q->space);
        if (!part) {
            err << "planscope-cli search: shard " << d["shard"].get<int>() << ": " << issueLine(part.errors().front()) << "\n";
            return 2;
        }
        parts.push_back(std::move(part).value());
    }
    std::sort(parts.begin(), parts.end(), [](const SearchShard& x, const SearchShard& y) { return x.first < y.first; });
    std::int64_t next = 0;
    for (const SearchShard& p : parts) {
        if (p.first != next) {
            err << "planscope-cli search: the shards do not cover the plans from " << next << " on\n";
            return 2;
        }
        next = p.last;
    }
    if (double(next) != q->space.size()) {
        err << "planscope-cli search: the shards cover " << next << " of " << q->space.size() << " plans\n";
        return 2;
    }
    return report(*q, mergeSearchShards(q->space, q->options, std::move(parts)), out, err);
}

namespace {

int mergeShardFiles(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli search --merge SHARD.json... [--json | --csv OUT.csv]\n";
        return 1;
    }
    std::vector<std::string> texts;
    for (const std::string& path : a.positional) {
        auto text = readTextFile(path, std::size_t(1) << 30);
        if (!text) {
            err << "planscope-cli search: " << path << ": " << text.errors().front().message << "\n";
            return 1;
        }
        texts.push_back(std::move(text).value());
    }
    return mergeSearchShardTexts(texts, a.positional, a.has("--json"), a.options.count("--csv") ? a.options.at("--csv") : std::string(), out, err);
}

} // namespace

int searchShardFile(const std::vector<std::string>& args, int shard, int shards, std::string& text, std::ostream& out, std::ostream& err)
{
    const Args a = parseArgs(args, 1, { "--objective", "--top", "--csv", "--vary", "--gpus", "--simulate-top", "--threads",
                                          "--days", "--tokens", "--fix", "--shard", "--out" });
    if (a.positional.size() != 1 || shards < 1 || shard < 0 || shard >= shards) {
        err << kSearchUsage;
        return 1;
    }
    int code = 0;
    auto loaded = loadPlanArg(a.positional[0], out, err, code, false);
    if (!loaded) return code;
    auto q = prepare(loaded->plan, args, out, err, code);
    if (!q) return code;
    std::int64_t total = 1;
    for (std::int64_t r : q->space.radices()) total *= std::max<std::int64_t>(1, r);
    const auto [first, last] = shardRange(total, shard, shards);
    const SearchShard part = searchShard(q->space, q->options, first, last);
    const json doc = { { "schema", "planscope/search-shard/v1" }, { "shard", shard }, { "shards", shards }, { "plans", total },
        { "request", { { "plan", planToJson(loaded->plan) }, { "args", requestArgs(args) } } }, { "result", searchShardToJson(part) } };
    text = doc.dump() + "\n";
    char buf[200];
    std::snprintf(buf, sizeof buf, "shard %d/%d: plans %lld to %lld of %lld; %.0f valid, %.0f fit; %.2f s on %d threads\n", shard, shards,
        (long long)first, (long long)last, (long long)total, part.valid, part.fit, part.seconds, part.threads);
    out << buf;
    return 0;
}

int cmdSearch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const Args a = parseArgs(args, 1, { "--objective", "--top", "--csv", "--vary", "--gpus", "--simulate-top", "--threads",
                                          "--days", "--tokens", "--fix", "--shard", "--out" });
    for (const std::string& f : a.flags)
        if (f != "--json" && f != "--merge") {
            err << "planscope-cli search: unknown option " << f << "\n" << kSearchUsage;
            return 1;
        }
    if (a.has("--merge")) return mergeShardFiles(a, out, err);
    if (a.positional.size() != 1) {
        err << kSearchUsage;
        return 1;
    }
    if (a.options.count("--shard")) {
        // One contiguous part of the plan index: its best, front, sample and counts, to merge with the others.
        const std::string& spec = a.options.at("--shard");
        int shard = -1, shards = 0;
        if (!parseShardSpec(spec, shard, shards)) {
            err << "planscope-cli search: --shard must be I/N with 0 <= I < N, found \"" << spec << "\"\n";
            return 1;
        }
        if (!a.options.count("--out")) {
            err << "planscope-cli search: --shard needs --out SHARD.json\n";
            return 1;
        }
        std::string text;
        const int code = searchShardFile(args, shard, shards, text, out, err);
        if (code != 0) return code;
        std::string error;
        if (!writeFileAtomically(a.options.at("--out"), text, error)) {
            err << "planscope-cli search: " << error << "\n";
            return 1;
        }
        return 0;
    }
    int code = 0;
    auto loaded = loadPlanArg(a.positional[0], out, err, code, a.has("--json"));
    if (!loaded) return code;
    auto q = prepare(loaded->plan, args, out, err, code);
    if (!q) return code;
    bool tty = false;
    showProgress(q->options, err, tty);

    const SearchResult r = search(q->space, q->options);
    if (tty) err << "\r" << std::string(48, ' ') << "\r" << std::flush;
    return report(*q, r, out, err);
}

} // namespace planscope::cli
