#include "TraceFiles.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace planscope {

bool isTraceFileName(std::string_view name)
{
    auto ends = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends(".json") || ends(".json.gz");
}

std::vector<std::string> expandTracePaths(const std::vector<std::string>& paths, std::vector<SkippedRegion>& skipped)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            files.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        // Every entry with a trace's name but a folder (folders are not searched): one that is no regular file (a
        // FIFO, a link loop) is refused by the import with its reason rather than passed over in silence.
        for (const auto& e : fs::directory_iterator(p, ec)) {
            std::error_code typeError;
            if (isTraceFileName(e.path().filename().string()) && !e.is_directory(typeError)) found.push_back(e.path().string());
        }
        std::sort(found.begin(), found.end());
        if (found.empty()) skipped.push_back(SkippedRegion { p, -1, Text(PS_TEXT("CoreText", "the folder holds no .json or .json.gz file")) });
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

namespace {

// The first and last absolute times of a rank's events (kept events and memory events); nullopt without any.
std::optional<std::pair<std::int64_t, std::int64_t>> timeRange(const MeasuredRank& r)
{
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    auto add = [&](std::int64_t start, std::int64_t end) {
        const std::int64_t a = r.absoluteNs(start), b = r.absoluteNs(end);
        if (!range) range.emplace(a, b);
        else range = std::pair(std::min(range->first, a), std::max(range->second, b));
    };
    for (const MeasuredEvent& e : r.eventList) add(e.startNs, e.startNs + e.durNs);
    for (const MeasuredMemoryEvent& m : r.memoryList) add(m.tsNs, m.tsNs);
    return range;
}

// Counts the files of a finished import and groups them by reason: refused and damaged files by their reason's
// text, other jobs' files by their job, repeated ranks together (each names its own twin in `excluded`). The first
// `folderNotes` entries of `skipped` are folders without traces (expandTracePaths).
TraceFileTally tallyFiles(const std::vector<std::string>& files, const TraceImport& set, std::size_t folderNotes,
    const std::vector<std::size_t>& damaged)
{
    using Reason = TraceFileTally::Reason;
    TraceFileTally t;
    t.files = files.size();
    t.kept = set.ranks.size();
    t.excluded = set.excluded.size();
    t.damaged = damaged.size();
    std::map<std::pair<int, std::string>, std::size_t> index; // (kind, text) -> reasons
    auto add = [&](Reason::Kind kind, const std::string& text, const std::string& file) {
        auto [it, fresh] = index.emplace(std::pair(int(kind), text), t.reasons.size());
        if (fresh) t.reasons.push_back(Reason { kind, text, 0, {} });
        Reason& r = t.reasons[it->second];
        ++r.count;
        if (r.examples.size() < kTallyExamples) r.examples.push_back(file);
    };
    std::vector<bool> isDamaged(set.skipped.size(), false);
    for (std::size_t i : damaged) isDamaged[i] = true;
    for (std::size_t i = 0; i < set.skipped.size(); ++i) {
        const SkippedRegion& s = set.skipped[i];
        if (isDamaged[i]) add(Reason::Damaged, s.reason.english(), s.file);
        else if (i < folderNotes) add(Reason::EmptyFolder, s.reason.english(), s.file);
        else {
            ++t.refused;
            add(Reason::Refused, s.reason.english(), s.file);
        }
    }
    for (const ExcludedTrace& x : set.excluded) {
        if (x.reason == ExcludedTrace::DuplicateRank)
            add(Reason::DuplicateRank, "a rank (or a copy of a trace) the set already has from another file", x.file);
        else
            add(Reason::OtherJob, x.text, x.file);
    }
    t.read = t.files - t.refused;
    std::stable_sort(t.reasons.begin(), t.reasons.end(), [](const Reason& a, const Reason& b) { return a.count > b.count; });
    return t;
}

std::string jobText(const TraceJob& j)
{
    std::string t = j.worldSize >= 0 ? "world size " + std::to_string(j.worldSize) : std::string("unknown world size");
    if (j.timed) t += ", traced " + traceTimeText(j.startNs);
    return t;
}

} // namespace

std::size_t TraceJob::rankCount() const { return ranks.size() + unrankedFiles; }

std::string traceTimeText(std::int64_t ns)
{
    // 2001-09-09 is 10^9 s after the epoch: earlier times are taken as a clock that does not count from the epoch.
    if (ns < 1'000'000'000'000'000'000) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.3f s", double(ns) * 1e-9);
        return buf;
    }
    using namespace std::chrono;
    const sys_seconds t { seconds { ns / 1'000'000'000 } };
    const sys_days day = floor<days>(t);
    const year_month_day date { day };
    const hh_mm_ss<seconds> clock { t - day };
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02d:%02d:%02d UTC", int(date.year()), unsigned(date.month()),
        unsigned(date.day()), int(clock.hours().count()), int(clock.minutes().count()), int(clock.seconds().count()));
    return buf;
}

TraceImport selectJob(std::vector<MeasuredRank> ranks, int job)
{
    TraceImport out;
    // Jobs in the order of their first file: a file joins the first job it fits (same or unknown world size, time
    // ranges within kSameJobSlackNs of each other), else starts a new one.
    using Range = std::optional<std::pair<std::int64_t, std::int64_t>>;
    std::vector<std::size_t> jobOf(ranks.size());
    std::vector<Range> ranges(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const MeasuredRank& r = ranks[i];
        const Range& range = ranges[i] = timeRange(r);
        std::size_t j = 0;
        for (; j < out.jobs.size(); ++j) {
            const TraceJob& c = out.jobs[j];
            const bool world = c.worldSize < 0 || r.worldSize < 0 || c.worldSize == r.worldSize;
            const bool time = !c.timed || !range
                || (range->first <= c.endNs + kSameJobSlackNs && c.startNs <= range->second + kSameJobSlackNs);
            if (world && time) break;
        }
        if (j == out.jobs.size()) out.jobs.emplace_back();
        TraceJob& c = out.jobs[j];
        if (c.worldSize < 0) c.worldSize = r.worldSize;
        if (range) {
            c.startNs = c.timed ? std::min(c.startNs, range->first) : range->first;
            c.endNs = c.timed ? std::max(c.endNs, range->second) : range->second;
            c.timed = true;
        }
        if (r.rank < 0) ++c.unrankedFiles;
        else if (!std::binary_search(c.ranks.begin(), c.ranks.end(), r.rank))
            c.ranks.insert(std::upper_bound(c.ranks.begin(), c.ranks.end(), r.rank), r.rank);
        c.files.push_back(r.file);
        jobOf[i] = j;
    }
    if (out.jobs.empty()) return out;
    if (job < 0 || job >= int(out.jobs.size())) {
        job = 0;
        for (std::size_t j = 1; j < out.jobs.size(); ++j)
            if (out.jobs[j].rankCount() > out.jobs[std::size_t(job)].rankCount()) job = int(j);
    }
    out.job = job;
    const TraceJob& kept = out.jobs[std::size_t(job)];

    std::vector<std::size_t> members; // indices into ranks, of the kept job
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const MeasuredRank& r = ranks[i];
        if (jobOf[i] == std::size_t(job)) {
            members.push_back(i);
            continue;
        }
        ExcludedTrace x;
        x.reason = ExcludedTrace::OtherJob;
        x.file = r.file;
        x.rank = r.rank;
        x.worldSize = r.worldSize;
        x.job = jobOf[i];
        x.text = "from another job (" + jobText(out.jobs[jobOf[i]]) + "); the set keeps the job of " + jobText(kept)
            + " with " + std::to_string(kept.rankCount()) + " rank" + (kept.rankCount() == 1 ? "" : "s");
        out.excluded.push_back(std::move(x));
    }
    std::stable_sort(members.begin(), members.end(), [&](std::size_t x, std::size_t y) {
        return (ranks[x].rank < 0 ? INT_MAX : ranks[x].rank) < (ranks[y].rank < 0 ? INT_MAX : ranks[y].rank);
    });
    // One file per rank: a second file of a rank (or a second copy of a trace without one: as many events over the
    // same time) would draw the same lanes twice.
    std::vector<std::size_t> keptFrom;
    for (std::size_t i : members) {
        MeasuredRank& r = ranks[i];
        const auto same = std::find_if(keptFrom.begin(), keptFrom.end(), [&](std::size_t k) {
            const MeasuredRank& u = ranks[k];
            return r.rank >= 0 ? u.rank == r.rank : u.rank < 0 && u.events == r.events && ranges[k] == ranges[i];
        });
        if (same != keptFrom.end()) {
            ExcludedTrace x;
            x.reason = ExcludedTrace::DuplicateRank;
            x.file = r.file;
            x.rank = r.rank;
            x.worldSize = r.worldSize;
            x.job = std::size_t(job);
            x.sameAs = ranks[*same].file;
            x.text = (r.rank >= 0 ? "duplicate rank " + std::to_string(r.rank) : std::string("duplicate trace"))
                + " (already imported from " + x.sameAs + ")";
            out.excluded.push_back(std::move(x));
            continue;
        }
        keptFrom.push_back(i);
    }
    for (std::size_t i : keptFrom) out.ranks.push_back(std::move(ranks[i]));
    return out;
}

TraceImport importTraces(const std::vector<std::string>& paths, const TraceSetControl& control)
{
    TraceImport out;
    const std::vector<std::string> files = expandTracePaths(paths, out.skipped);
    const std::size_t folderNotes = out.skipped.size();

    // Progress over all files' bytes: each file reports its own share; the sum is taken when one changes.
    std::vector<std::int64_t> sizes(files.size(), 0);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(files[i], ec);
        sizes[i] = ec ? 0 : std::int64_t(size);
        total += sizes[i];
    }
    // Each file's bytes done, and their sum kept as they change: a report costs the same for 2 files or 20,000.
    auto done = std::make_unique<std::atomic<std::int64_t>[]>(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) done[i] = 0;
    std::atomic<std::int64_t> sum { 0 };
    auto report = [&](std::size_t i, std::int64_t bytes) {
        sum += bytes - done[i].exchange(bytes);
        if (!control.progress) return;
        control.progress(total > 0 ? std::clamp(double(sum.load()) / double(total), 0.0, 1.0) : 1.0);
    };

    std::vector<std::optional<Result<MeasuredRank>>> results(files.size());
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(files.size(), control.threads > 0 ? control.threads : hardware);
    std::atomic<std::size_t> next { 0 };
    auto work = [&] {
        for (std::size_t i = next++; i < files.size(); i = next++) {
            if (control.cancel && control.cancel->load()) return;
            ImportControl c;
            c.cancel = control.cancel;
            c.progress = [&, i](std::int64_t d, std::int64_t) { report(i, std::min(d, sizes[i])); };
            results[i].emplace(importKinetoTrace(files[i], c));
            report(i, sizes[i]);
        }
    };
    if (workers <= 1) {
        work();
    } else {
        std::vector<std::future<void>> pool;
        for (std::size_t w = 0; w < workers; ++w) pool.push_back(std::async(std::launch::async, work));
        for (auto& f : pool) f.get();
    }
    out.cancelled = control.cancel && control.cancel->load();
    out.tally.files = files.size();
    if (out.cancelled) {
        // How far it got: the files whose import ended before the cancel, and those it stopped or never reached.
        for (const auto& r : results) {
            if (r && *r) ++out.tally.read;
            else if (r && !r->errors().empty() && r->errors().front().message != "cancelled") ++out.tally.refused;
        }
        out.tally.notRead = files.size() - out.tally.read - out.tally.refused;
        return out;
    }

    std::vector<MeasuredRank> ranks;
    std::vector<std::size_t> damaged; // indices into out.skipped of files whose head was imported
    for (std::size_t f = 0; f < files.size(); ++f) {
        if (!results[f]) continue;
        auto& r = *results[f];
        if (!r) {
            const Issue& i = r.errors().front();
            out.skipped.push_back(SkippedRegion { files[f], i.offset, issueText(i) });
            continue;
        }
        if (r->skipped) {
            out.skipped.push_back(*r->skipped);
            damaged.push_back(out.skipped.size() - 1);
        }
        ranks.push_back(std::move(r).value());
    }
    TraceImport kept = selectJob(std::move(ranks), control.job);
    out.ranks = std::move(kept.ranks);
    out.jobs = std::move(kept.jobs);
    out.job = kept.job;
    out.excluded = std::move(kept.excluded);
    out.tally = tallyFiles(files, out, folderNotes, damaged);
    return out;
}

std::vector<std::string> tallyText(const TraceFileTally& t, std::size_t maxReasons)
{
    auto files = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " file" : " files"); };
    std::string head = files(t.files) + ": " + std::to_string(t.read) + " read";
    if (t.damaged > 0) head += " (" + std::to_string(t.damaged) + " damaged, only their head kept)";
    head += ", " + std::to_string(t.refused) + " refused, " + std::to_string(t.excluded) + " left out";
    if (t.notRead > 0) head += ", " + std::to_string(t.notRead) + " not read (cancelled)";
    head += "; " + std::to_string(t.kept) + (t.kept == 1 ? " rank" : " ranks") + " in the set";
    std::vector<std::string> lines { head };
    static constexpr const char* kWhat[] = { "refused", "damaged", "left out", "left out", "folder" };
    std::size_t restFiles = 0;
    for (std::size_t i = 0; i < t.reasons.size(); ++i) {
        const TraceFileTally::Reason& r = t.reasons[i];
        if (i >= maxReasons) {
            restFiles += r.count;
            continue;
        }
        std::string line = "  " + (r.kind == TraceFileTally::Reason::EmptyFolder ? std::string() : files(r.count) + " ")
            + kWhat[r.kind] + ": " + r.text + " (";
        for (std::size_t e = 0; e < r.examples.size(); ++e) line += (e ? ", " : "") + r.examples[e];
        if (r.count > r.examples.size()) line += ", ...";
        lines.push_back(line + ")");
    }
    if (t.reasons.size() > maxReasons)
        lines.push_back("  ... and " + std::to_string(t.reasons.size() - maxReasons) + " more reason"
            + (t.reasons.size() - maxReasons == 1 ? "" : "s") + ", " + files(restFiles));
    return lines;
}

} // namespace planscope
