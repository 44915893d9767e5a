// A set of measured ranks from files and folders: which files a path stands for, imported in parallel with
// progress over bytes and cancel, ordered by rank, one file per rank. One rule for `planscope-cli import` and the
// app's Measured Run page (docs/TRACES.md).
#pragma once

#include "trace/KinetoImport.h"

#include <atomic>
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

struct TraceImport {
    // Sorted by distributedInfo rank (ranks without one last, in input order); a second file of the same rank and
    // world size is skipped, and so are files of another world size (another job; the size most files share
    // wins, ties going to the first file's).
    std::vector<MeasuredRank> ranks;
    // Damaged files (their head imported: offset and reason), unreadable files, empty folders, duplicate ranks.
    std::vector<SkippedRegion> skipped;
    bool cancelled = false;
};

struct TraceSetControl {
    // Called from the importing threads with the share of all files' bytes read so far (0..1).
    std::function<void(double fraction)> progress;
    const std::atomic<bool>* cancel = nullptr;
    unsigned threads = 0; // 0: one per hardware thread (at most one per file)
};

// Expands `paths` and imports every file.
TraceImport importTraces(const std::vector<std::string>& paths, const TraceSetControl& control = {});

} // namespace planscope
