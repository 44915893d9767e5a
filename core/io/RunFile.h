// The reduce of a measured run and its files (docs/FORMATS.md section 14): which trace files a reduce reads and how
// they split into shards, each file's summary, the shard file that `planscope-cli reduce --shard i/N` writes, and the
// run file (".planscope-run", JSON lines) that `reduce --merge`, `planscope-reduce` under MPI and a one-process
// `reduce` write byte for byte alike, and the app opens.
#pragma once

#include "trace/RunAnalysis.h"
#include "util/Result.h"
#include "util/Shards.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planscope {

inline constexpr std::string_view kRunFormat = "planscope/run/v1";
inline constexpr std::string_view kRunShardFormat = "planscope/run-shard/v1";
// The largest run or shard file read: 4 GiB, a thousand times a 10,240-rank run (37.9 MB, docs/PERFORMANCE.md).
inline constexpr std::int64_t kMaxRunFileBytes = std::int64_t(4) << 30;

// The trace files `paths` stand for (expandTracePaths: a folder's *.json / *.json.gz entries sorted by name), in the
// order given; folders without any are reported in `issues` (file: the folder).
std::vector<std::string> reduceInputs(const std::vector<std::string>& paths, std::vector<RunIssue>& issues);

// One trace file reduced: its summary, or why it could not be read.
struct ReducedFile {
    std::string file;
    std::int64_t bytes = 0; // on disk
    std::optional<RankSummary> summary;
    std::string error; // when no summary: the importer's first error, with its byte offset
};
ReducedFile reduceFile(const std::string& path, const std::atomic<bool>* cancel = nullptr);

struct ReduceControl {
    unsigned threads = 1; // files reduced at once (each import holds its trace's events: ~0.2 GB per GB of trace)
    // After each file, from the reducing threads: files done, files in all, the file just done.
    std::function<void(std::size_t done, std::size_t total, const std::string& file)> progress;
    const std::atomic<bool>* cancel = nullptr; // stops between files; what was reduced is returned
};
// The files, in their order.
std::vector<ReducedFile> reduceFiles(const std::vector<std::string>& files, const ReduceControl& control = {});

// One shard: the summaries of its files (with their collective records), or why each could not be read, in file order.
struct RunShard {
    int shard = 0;
    int shards = 1;
    std::int64_t files = 0; // files of the whole reduce
    std::vector<RunIssue> inputIssues; // reduceInputs' issues (shard 0 carries them)
    std::vector<ReducedFile> reduced;
};
std::string shardText(const RunShard& shard);
// Every problem names the line and field ("line 3: steps.2.durNs: ...").
Result<RunShard> parseShard(std::string_view text);

// The run from every shard of one reduce: shards 0..N-1 of one N, each once (a missing or repeated one is named).
Result<MeasuredRun> mergeShards(std::vector<RunShard> shards, int gpusPerNode);

// The run from reduced files in their order (what one process or the merge of shards gives).
MeasuredRun runFromReduced(std::vector<ReducedFile> reduced, std::vector<RunIssue> inputIssues, std::int64_t files, int gpusPerNode);

// JSON lines, one per rank summary and group: a header line {"format": "planscope/run/v1", ...}, then one
// {"type": "rank", ...} per rank, one {"type": "group", ...} per group. Keys sorted, integers only.
std::string runText(const MeasuredRun& run);
Result<MeasuredRun> parseRun(std::string_view text);
// The text of a run or shard file; a file past kMaxRunFileBytes is refused before it is read whole.
Result<std::string> readRunText(const std::string& path);
// Reads a run file (or a shard file, merged on its own when it is the only shard), naming the path in its errors.
Result<MeasuredRun> readRunFile(const std::string& path);
// What `run-summary`, `compare-runs` and the Python module take: a run or shard file, or traces (a trace file or a
// folder of them, io/FileKind.h) reduced here with `control`.
Result<MeasuredRun> loadRun(const std::string& path, const ReduceControl& control);

// The pieces planscope-reduce exchanges between MPI processes, in the run file's own encoding.
std::string rankSummaryLine(const RankSummary& s, bool withGroups); // one JSON object, no newline
Result<RankSummary> parseRankSummaryLine(std::string_view line);
std::string groupResultLine(const GroupResult& g);
Result<GroupResult> parseGroupResultLine(std::string_view line);
// A member's records of one group: {"rank": r, "group": {...}}.
std::string groupChunkLine(int rank, const RankGroup& g);
Result<std::pair<int, RankGroup>> parseGroupChunkLine(std::string_view line);
std::string runIssueLine(const RunIssue& i);
Result<RunIssue> parseRunIssueLine(std::string_view line);

} // namespace planscope
