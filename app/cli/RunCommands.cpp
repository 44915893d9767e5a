#include "RunCommands.h"

#include "io/RunFile.h"
#include "io/RunJson.h"
#include "util/AtomicFile.h"
#include "util/Units.h"

#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

namespace planscope::cli {

using nlohmann::json;

namespace {

constexpr const char* kReduceUsage = "usage: planscope-cli reduce TRACE_OR_FOLDER... --out RUN.planscope-run [--gpus-per-node G] [--threads N]\n"
                                     "       planscope-cli reduce TRACE_OR_FOLDER... --shard I/N --out SHARD.jsonl [--threads N]\n"
                                     "       planscope-cli reduce --merge SHARD... --out RUN.planscope-run [--gpus-per-node G]\n";

std::optional<int> wholeNumber(const Args& a, const char* key, int fallback, int max, std::ostream& err)
{
    const auto it = a.options.find(key);
    if (it == a.options.end()) return fallback;
    int n = 0;
    const char* end = it->second.data() + it->second.size();
    auto [p, ec] = std::from_chars(it->second.data(), end, n);
    if (ec != std::errc() || p != end || n < 0 || n > max) {
        err << "planscope-cli: " << key << " must be a whole number from 0 to " << max << ", found \"" << it->second << "\"\n";
        return std::nullopt;
    }
    return n;
}

std::string ms(std::int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", double(ns) * 1e-6);
    return buf;
}

bool write(const std::string& path, const std::string& text, std::ostream& err)
{
    std::string error;
    if (writeFileAtomically(path, text, error)) return true;
    err << "planscope-cli: cannot write " << path << ": " << error << "\n";
    return false;
}

void printRunLine(const MeasuredRun& run, std::ostream& out)
{
    out << run.ranks.size() << " ranks (world size " << run.worldSize << ") from " << run.files << " files, "
        << units::formatBytes(double(run.bytesRead)) << " of traces; " << run.groups.size() << " process groups matched";
    if (!run.failed.empty()) out << "; " << run.failed.size() << " files not read";
    if (!run.excluded.empty()) out << "; " << run.excluded.size() << " left out";
    out << "\n";
}

// Progress on the terminal: a line every 5% (and the last), naming the file just done.
ReduceControl progressTo(std::ostream& err, unsigned threads)
{
    ReduceControl control;
    control.threads = threads;
    control.progress = [&err, lastShown = std::size_t(0)](std::size_t done, std::size_t total, const std::string& file) mutable {
        if (done != total && (done - lastShown) * 20 < total) return;
        lastShown = done;
        err << "planscope-cli reduce: " << done << "/" << total << " files (" << file << ")\n";
    };
    return control;
}

// A run from a run file, a shard file, or traces (reduced here, with progress).
std::optional<MeasuredRun> loadRunArg(const std::string& path, std::ostream& err)
{
    Result<MeasuredRun> run = loadRun(path, progressTo(err, std::max(1u, std::thread::hardware_concurrency())));
    if (!run.ok()) {
        err << "planscope-cli: " << issueLine(run.errors().front()) << "\n";
        return std::nullopt;
    }
    return std::move(run).value();
}

} // namespace

int cmdReduce(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty() || !a.options.count("--out")) {
        err << kReduceUsage;
        return 1;
    }
    const auto gpusPerNode = wholeNumber(a, "--gpus-per-node", 0, 1 << 20, err);
    const auto threads = wholeNumber(a, "--threads", int(std::max(1u, std::thread::hardware_concurrency())), 1024, err);
    if (!gpusPerNode || !threads) return 1;
    const std::string outPath = a.options.at("--out");

    if (a.has("--merge")) {
        std::vector<RunShard> shards;
        for (const std::string& path : a.positional) {
            Result<std::string> text = readRunText(path);
            if (!text.ok()) {
                err << "planscope-cli: " << issueLine(text.errors().front()) << "\n";
                return 1;
            }
            Result<RunShard> s = parseShard(text.value());
            if (!s.ok()) {
                err << "planscope-cli: " << path << ": " << issueLine(s.errors().front()) << "\n";
                return 2;
            }
            shards.push_back(std::move(s).value());
        }
        Result<MeasuredRun> run = mergeShards(std::move(shards), *gpusPerNode);
        if (!run.ok()) {
            err << "planscope-cli: " << issueLine(run.errors().front()) << "\n";
            return 2;
        }
        if (!write(outPath, runText(run.value()), err)) return 1;
        printRunLine(run.value(), out);
        return run->ranks.empty() ? 2 : 0;
    }

    std::vector<RunIssue> issues;
    const std::vector<std::string> files = reduceInputs(a.positional, issues);
    if (a.options.count("--shard")) {
        const std::string& spec = a.options.at("--shard");
        int shard = -1, shards = 0;
        if (!parseShardSpec(spec, shard, shards)) {
            err << "planscope-cli: --shard must be I/N with 0 <= I < N (srun: $SLURM_PROCID/$SLURM_NTASKS), found \"" << spec << "\"\n";
            return 1;
        }
        const auto [first, last] = shardRange(std::int64_t(files.size()), shard, shards);
        RunShard s;
        s.shard = shard;
        s.shards = shards;
        s.files = std::int64_t(files.size());
        if (shard == 0) s.inputIssues = issues;
        s.reduced = reduceFiles(std::vector<std::string>(files.begin() + std::ptrdiff_t(first), files.begin() + std::ptrdiff_t(last)),
            progressTo(err, unsigned(*threads)));
        if (!write(outPath, shardText(s), err)) return 1;
        std::size_t read = 0;
        for (const ReducedFile& f : s.reduced) read += f.summary ? 1 : 0;
        out << "shard " << shard << "/" << shards << ": " << read << " of " << s.reduced.size() << " files reduced (files " << first
            << " to " << last << " of " << files.size() << ")\n";
        return 0;
    }
    const MeasuredRun run = runFromReduced(reduceFiles(files, progressTo(err, unsigned(*threads))), issues, std::int64_t(files.size()), *gpusPerNode);
    if (!write(outPath, runText(run), err)) return 1;
    printRunLine(run, out);
    return run.ranks.empty() ? 2 : 0;
}

int cmdRunSummary(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() != 1) {
        err << "usage: planscope-cli run-summary RUN.planscope-run [--top K] [--json]\n";
        return 1;
    }
    const auto top = wholeNumber(a, "--top", 10, 1 << 20, err);
    if (!top) return 1;
    const std::optional<MeasuredRun> run = loadRunArg(a.positional[0], err);
    if (!run) return 2;
    if (a.has("--json")) {
        out << runSummaryJson(*run, std::size_t(*top)).dump(2) << "\n";
        return 0;
    }
    printRunLine(*run, out);
    const std::vector<RunRankMetrics> metrics = rankMetrics(*run);
    const RunRankMetrics med = medianMetrics(metrics);
    out << "median rank: step " << ms(med.stepNs) << " ms, compute " << ms(med.computeNs) << " ms, exposed communication "
        << ms(med.exposedCommNs) << " ms, idle " << ms(med.idleNs) << " ms, straggler lag " << ms(med.lagNs) << " ms\n";
    const std::vector<SlowRank> slow = slowestRanks(*run, metrics, std::size_t(*top));
    if (!slow.empty()) out << "slowest ranks (the others wait for them):\n";
    for (const SlowRank& s : slow)
        out << "  rank " << s.metrics.rank << (s.metrics.node >= 0 ? " (node " + std::to_string(s.metrics.node) + ")" : std::string())
            << ": lag " << ms(s.metrics.lagNs) << " ms, step " << ms(s.metrics.stepNs) << " ms; " << s.why << "\n";
    // The groups whose members arrive furthest apart first; a run of thousands of ranks has thousands of groups, so the
    // text lists the --top worst of them (--json lists all).
    std::vector<const GroupResult*> groups;
    for (const GroupResult& g : run->groups) groups.push_back(&g);
    auto spread = [](const GroupResult* g) {
        std::int64_t s = 0;
        for (const GroupOpStat& op : g->ops) s = std::max(s, op.medianSpreadNs);
        return s;
    };
    std::stable_sort(groups.begin(), groups.end(), [&](const GroupResult* a, const GroupResult* b) { return spread(a) > spread(b); });
    const std::size_t shown = std::min(groups.size(), std::max<std::size_t>(std::size_t(*top), 1));
    if (!groups.empty()) out << "process groups, the widest arrival spread first:\n";
    for (std::size_t i = 0; i < shown; ++i) {
        const GroupResult& g = *groups[i];
        const std::string scope = groupScope(g, run->gpusPerNode);
        out << "  " << groupLabel(g) << ": " << g.ranks.size() << " members" << (scope.empty() ? "" : ", " + scope);
        for (const GroupOpStat& op : g.ops)
            out << "; " << toString(op.op) << " x" << op.instances << " median " << ms(op.medianDurNs) << " ms, spread " << ms(op.medianSpreadNs) << " ms";
        if (g.straggler >= 0) out << "; last to arrive most often: rank " << g.straggler;
        out << "\n";
        for (const AllToAllImbalance& im : g.allToAll) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "    all-to-all #%d of each step: max/mean bytes %.2f (worst %.2f), heaviest rank %d\n", int(im.position) + 1,
                double(im.medianPermille) / 1000, double(im.worstPermille) / 1000, im.heaviestRank);
            out << buf;
        }
    }
    if (groups.size() > shown) out << "  ... and " << groups.size() - shown << " more groups (--json lists every group)\n";
    for (const RunIssue& i : run->failed) out << "not read: " << i.file << ": " << i.reason << "\n";
    for (const RunIssue& i : run->excluded) out << "left out: " << i.file << ": " << i.reason << "\n";
    return 0;
}

int cmdCompareRuns(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() != 2) {
        err << "usage: planscope-cli compare-runs A B [--json]   (run files, shard files or trace folders)\n";
        return 1;
    }
    const std::optional<MeasuredRun> ra = loadRunArg(a.positional[0], err);
    if (!ra) return 2;
    const std::optional<MeasuredRun> rb = loadRunArg(a.positional[1], err);
    if (!rb) return 2;
    const RunComparison c = compareRuns(*ra, *rb);
    if (a.has("--json")) {
        out << runComparisonJson(c).dump(2) << "\n";
        return 0;
    }
    out << "A: " << a.positional[0] << "\nB: " << a.positional[1] << "\n";
    auto rows = [&](const char* title, const std::vector<RunDelta>& v) {
        if (v.empty()) return;
        out << title << " (ms: A, B, B - A):\n";
        for (const RunDelta& d : v) {
            char buf[256];
            std::snprintf(buf, sizeof buf, "  %-40s %12s %12s %+12.2f\n", d.what.c_str(), ms(d.a).c_str(), ms(d.b).c_str(), double(d.delta()) * 1e-6);
            out << buf;
        }
    };
    rows("median rank", c.phases);
    rows("collectives, median kernel time", c.collectives);
    rows("ranks whose step changed most", c.ranks);
    for (const std::string& s : c.onlyInA) out << "only in A: " << s << "\n";
    for (const std::string& s : c.onlyInB) out << "only in B: " << s << "\n";
    if (!c.biggest.empty()) out << "biggest difference: " << c.biggest << "\n";
    return 0;
}

} // namespace planscope::cli
