// A set of measured ranks from files and folders: which files a path stands for, imported in parallel with
// progress over bytes and cancel, ordered by rank, one file per rank. One rule for `planscope-cli import` and the
// app's Measured Run page (docs/TRACES.md).
#pragma once

#include "trace/KinetoImport.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

// *.json or *.json.gz: the names a folder's traces have.
bool isTraceFileName(std::string_view name);

// Folders become their *.json / *.json.gz files (not recursive, sorted by name); files stay as given. A folder
// with none is reported in `skipped` (offset -1).
std::vector<std::string> expandTracePaths(const std::vector<std::string>& paths, std::vector<SkippedRegion>& skipped);

// One job among the files given: the ranks of one run. A file joins a job when their world sizes agree (or either
// is unknown) and their traced time ranges overlap within kSameJobSlackNs: the ranks of one job record the same
// profiler steps, which their collectives keep in lockstep, so their traces overlap in time; files of another
// run (another world size, or traced at another time) form their own job.
struct TraceJob {
    int worldSize = -1; // distributedInfo.world_size of its files; -1 when none says
    bool timed = false; // whether any file had events (startNs and endNs are set)
    std::int64_t startNs = 0; // absolute time of its files' first event (epoch ns in today's traces)
    std::int64_t endNs = 0; // and of their last event's end
    std::vector<int> ranks; // distinct distributedInfo ranks, ascending
    std::vector<std::string> files; // all its files in input order, repeated ranks included
    std::size_t unrankedFiles = 0; // files without distributedInfo.rank
    std::size_t rankCount() const; // distinct ranks, each file without a rank counted once
};

// The gap allowed between the time ranges of two files of one job: room for hosts whose clocks differ, far below the
// hours to years between the sample traces' runs (samples/traces/README.md).
inline constexpr std::int64_t kSameJobSlackNs = 60'000'000'000;

// A file that imported but is not in the set, and why.
struct ExcludedTrace {
    enum Reason : std::uint8_t {
        OtherJob, // its job is not the one kept
        DuplicateRank, // the kept job already has this rank (or this very trace) from another file
    };
    Reason reason = OtherJob;
    std::string file;
    int rank = -1; // distributedInfo.rank; -1 unknown
    int worldSize = -1;
    std::size_t job = 0; // index into TraceImport::jobs
    std::string sameAs; // DuplicateRank: the file kept for that rank
    std::string text; // the reason in English (the CLI, JSON); the app words it from the fields above
};

struct TraceImport {
    // The kept job's ranks, sorted by distributedInfo rank (ranks without one last, in input order), one file per rank.
    std::vector<MeasuredRank> ranks;
    // Every job found, in the order of its first file; `job` is the kept one (-1 when no file imported).
    std::vector<TraceJob> jobs;
    int job = -1;
    // Files that imported but are left out: other jobs' files and repeated ranks, with the reason.
    std::vector<ExcludedTrace> excluded;
    // Damaged files (their head imported: offset and reason), unreadable files, empty folders.
    std::vector<SkippedRegion> skipped;
    bool cancelled = false;
};

struct TraceSetControl {
    // Called from the importing threads with the share of all files' bytes read so far (0..1).
    std::function<void(double fraction)> progress;
    const std::atomic<bool>* cancel = nullptr;
    unsigned threads = 0; // 0: one per hardware thread (at most one per file)
    // The job to keep: an index into TraceImport::jobs of the same paths; -1 (or out of range): the job with the most
    // ranks, ties going to the one whose first file comes first.
    int job = -1;
};

// Groups imported ranks into jobs (TraceJob's rule, in the order given) and keeps one (`job`, or the one with the
// most ranks); used by importTraces, exposed for tests.
TraceImport selectJob(std::vector<MeasuredRank> ranks, int job = -1);

// "2023-04-28 23:51:38 UTC" for an absolute time in epoch ns (from 2001 on); otherwise the time in seconds
// ("12.345 s"), for traces whose clock is not the epoch.
std::string traceTimeText(std::int64_t ns);

// Expands `paths` and imports every file.
TraceImport importTraces(const std::vector<std::string>& paths, const TraceSetControl& control = {});

} // namespace planscope
