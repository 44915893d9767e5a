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

// Folders become their *.json / *.json.gz entries but folders (not recursive, sorted by name): also those that are
// no regular file (a FIFO, a link loop), which the import then refuses with the reason; files stay as given. A
// folder with none is reported in `skipped` (offset -1).
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

// What became of each file a set of paths stood for, counted, with the files grouped by their reason: a summary of
// a few lines for a folder of thousands of rank files (tallyText), where `skipped` and `excluded` name every file.
struct TraceFileTally {
    std::size_t files = 0; // the files the paths stood for (folders expanded)
    std::size_t read = 0; // imported: whole, or damaged with their head kept
    std::size_t damaged = 0; // of those read, the damaged ones (only their head kept)
    std::size_t refused = 0; // not imported: cannot be opened, not a regular file, not a trace, damaged before anything
    std::size_t excluded = 0; // read but left out of the set: another job's, or a rank the set already has
    std::size_t kept = 0; // in the set (TraceImport::ranks)
    std::size_t notRead = 0; // not (completely) read when the import was cancelled
    struct Reason {
        enum Kind : std::uint8_t { Refused, Damaged, OtherJob, DuplicateRank, EmptyFolder };
        Kind kind = Refused;
        std::string text; // the reason these files share
        std::size_t count = 0;
        std::vector<std::string> examples; // the first files of this reason, at most kTallyExamples
    };
    // Every distinct reason, the most files first (ties: the reason met first).
    std::vector<Reason> reasons;
};

// How many files each reason names in a tally.
inline constexpr std::size_t kTallyExamples = 3;

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
    // The files counted by what became of them, reasons grouped (also when cancelled: how far it got).
    TraceFileTally tally;
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

// Expands `paths` and imports every file. Cancel stops it between files and inside a file (every 8 MiB and at a
// file's end); the result then holds no ranks, and its tally says how many files were done.
TraceImport importTraces(const std::vector<std::string>& paths, const TraceSetControl& control = {});

// The tally in a few lines: the counts, then the `maxReasons` reasons with the most files, each with its count and
// first files, and one line for the rest ("... and 12 more reasons, 15 files"). At most maxReasons + 2 lines whatever
// the number of files.
std::vector<std::string> tallyText(const TraceFileTally& tally, std::size_t maxReasons = 5);

} // namespace planscope
