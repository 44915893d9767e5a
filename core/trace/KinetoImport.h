// Import of PyTorch-profiler (Kineto) Chrome-trace files, one file per rank (docs/FORMATS.md section 5).
// Streaming: the file (plain JSON or gzip, told apart by its magic bytes) is read in chunks by a scanner that keeps
// only the fields below; no DOM of the whole trace is ever built. Kept events are 40-byte records whose names,
// lanes and NCCL metadata are interned in per-rank tables.
#pragma once

#include "util/Result.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planscope {

// What an event is, from its "cat". GPU lanes: Kernel, Memcpy, Memset, GpuAnnotation; CPU lanes: CpuOp,
// CpuAnnotation ("user_annotation", which is where ProfilerStep#N, "## forward ##", "nccl:*" and "PP:*" live).
enum class EventKind : std::uint8_t { Kernel, Memcpy, Memset, GpuAnnotation, CpuOp, CpuAnnotation };
std::string_view toString(EventKind k);
inline bool isGpuKind(EventKind k) { return k <= EventKind::GpuAnnotation; }

// NCCL collectives as docs/FORMATS.md names them ("AllReduce", ...); None for everything that is not NCCL's.
enum class CollectiveKind : std::uint8_t { None, AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv, Other };
std::string_view toString(CollectiveKind c); // "" for None
CollectiveKind collectiveKindFromString(std::string_view s); // inverse of toString; None when unknown

// One kept event (ph "X" of the kinds above). 40 bytes.
struct MeasuredEvent {
    std::int64_t startNs = 0; // as written in the file, in ns (relative to MeasuredRank::baseTimeNs when set)
    std::int64_t durNs = 0; // >= 0
    std::int64_t correlation = -1; // args "correlation" (kernels, memcpy/memset, cuda_runtime launches); -1 absent
    std::int32_t name = -1; // index into MeasuredRank::names
    std::int32_t lane = -1; // index into MeasuredRank::lanes
    std::int32_t comm = -1; // index into MeasuredRank::comms: NCCL metadata of this event; -1 none
    EventKind kind = EventKind::Kernel;
    CollectiveKind collective = CollectiveKind::None; // NCCL kernels, and "nccl:*" annotations
    std::int16_t step = -1; // index into MeasuredRank::stepSpans: the step whose CPU span holds this event's start
                            // (GPU events: the start of the cuda_runtime launch with the same correlation); -1 none
};

// One timeline row: a (pid, tid) pair; for GPU events tid is the CUDA stream.
struct MeasuredLane {
    std::int64_t pid = -1;
    std::int64_t tid = -1;
    bool gpu = false;
    std::int64_t events = 0; // kept events on this lane
};

// NCCL metadata from a kernel's or record_param_comms' args (where the trace has them).
struct CommInfo {
    std::int64_t inMsgNelems = -1; // "In msg nelems"
    std::int64_t outMsgNelems = -1; // "Out msg nelems"
    std::int64_t groupSize = -1; // "Group size"
    std::int32_t dtype = -1; // index into names: "dtype" (c10 name: Float, Long, ...)
    std::int32_t processGroup = -1; // index into names: "Process Group Name" ("0", "default_pg", ...)
};

// One "[memory]" instant event.
struct MeasuredMemoryEvent {
    std::int64_t tsNs = 0;
    std::int64_t bytes = 0; // "Bytes"; negative: a free
    std::int64_t totalAllocated = -1; // "Total Allocated"
    std::int64_t totalReserved = -1; // "Total Reserved"
    std::int16_t deviceType = -1; // "Device Type": 0 CPU, 1 CUDA
    std::int16_t deviceId = -1; // "Device Id"
};

// A ProfilerStep#N span (from the CPU-side annotation; a GPU-side one only where no CPU one exists).
struct MeasuredStep {
    std::string name; // "ProfilerStep#4"
    std::int64_t number = -1; // 4
    std::int64_t startNs = 0;
    std::int64_t durNs = 0;
};

struct MeasuredBreakdown {
    double computeSeconds = 0; // union of non-NCCL kernel intervals
    double commSeconds = 0; // union of NCCL kernel intervals
    double overlapSeconds = 0; // intersection of the two unions
    double idleSeconds = 0; // first kernel start to last kernel end, minus the union of all kernels
    double spanSeconds = 0; // first kernel start to last kernel end
};

// Where parsing stopped in a damaged file: what came before was kept.
struct SkippedRegion {
    std::string file;
    std::int64_t offset = -1; // byte offset in the uncompressed stream
    Text reason; // English in the CLI and the JSON, translated in the app (util/Text.h)
};

// A process group as a trace records it: an entry of distributedInfo.pg_config, which torch.profiler writes from
// torch.distributed's _get_all_pg_configs() (torch/profiler/profiler.py, _get_distributed_info;
// torch/distributed/distributed_c10d.py, _get_pg_config): one entry per group this rank is a member of, the default
// group ("default_pg", pg_name "0") first; or the "Process Group *" args of an NCCL kernel or record_param_comms op
// (torch/csrc/profiler/util.cpp, saveNcclMeta), for groups no entry names.
struct ProcessGroupRecord {
    enum class Source : std::uint8_t { Config, Event };
    Source source = Source::Config;
    std::string name; // pg_name, "Process Group Name": "0" for the default group, then "1", "2", ... (or a hash)
    std::string desc; // pg_desc, "Process Group Description": "default_pg", "undefined" (none given), or the
                      // caller's group_desc (Megatron-Core: "TENSOR_MODEL_PARALLEL_GROUP", ...)
    std::string backend; // backend_config ("cuda:nccl")
    std::int64_t size = -1; // pg_size, "Group size"; -1 absent
    std::vector<int> ranks; // global ranks in group-rank order, as many as the trace lists
    // Whether `ranks` lists every member. Not when the list is cut ("[0, 1, ..., 29, ...]": the event args keep 30,
    // torch/csrc/profiler/util.cpp format_list), empty (a whole-world group in an execution trace's
    // pg_config_info, distributed_c10d.py), or left out for a bad entry or the ranks budget (kMaxGroupRanks).
    bool ranksComplete = false;
    bool operator==(const ProcessGroupRecord&) const = default;
};

// Bounds on what a trace's process groups may cost, per source (distributedInfo.pg_config, the events): groups read,
// and member ranks kept over all of them (a 16,384-rank job's default group lists 16,384).
inline constexpr std::size_t kMaxProcessGroups = 4096;
inline constexpr std::size_t kMaxGroupRanks = std::size_t(1) << 22;

struct MeasuredRank {
    std::string file;
    int rank = -1; // distributedInfo.rank; -1 when absent
    int worldSize = -1; // distributedInfo.world_size; -1 when absent
    std::optional<std::int64_t> baseTimeNs; // baseTimeNanoseconds: timestamps are relative to it when present
    std::vector<std::string> deviceNames; // deviceProperties[i].name, in order
    // distributedInfo.pg_config in file order, then the groups only events name (ProcessGroupRecord).
    std::vector<ProcessGroupRecord> processGroups;
    // What of them could not be read, each naming its field ("distributedInfo.pg_config[2].ranks: ..."); the rest of
    // the trace imports as it would without them.
    std::vector<Text> processGroupIssues;
    std::int64_t events = 0; // entries of traceEvents
    std::int64_t kernels = 0;
    std::int64_t ncclKernels = 0;
    std::map<std::string, std::int64_t> collectives; // NCCL kernels by collective
    std::int64_t memoryEvents = 0;
    std::vector<std::string> steps; // ProfilerStep#N in order of first appearance
    std::vector<MeasuredStep> stepSpans; // the same steps with their spans, in that order
    MeasuredBreakdown breakdown; // whole trace, GPU kernels
    std::vector<std::string> names; // interned event names and string args
    std::vector<MeasuredLane> lanes;
    std::vector<CommInfo> comms;
    std::vector<MeasuredEvent> eventList; // kept events, sorted by (startNs, file order)
    std::vector<MeasuredMemoryEvent> memoryList; // in file order
    std::optional<SkippedRegion> skipped; // set when the file was damaged and only its head was imported
    // (correlation, start) of every CUDA launch (cuda_runtime, cuda_driver), sorted by correlation: not kept as
    // events, but they tie each GPU event to the moment the CPU launched it.
    std::vector<std::pair<std::int64_t, std::int64_t>> launches;

    std::string_view nameOf(const MeasuredEvent& e) const { return e.name >= 0 ? std::string_view(names[std::size_t(e.name)]) : std::string_view(); }
    // When the CPU launched a GPU event: the start of the launch with its correlation (file time), else its own start.
    std::int64_t launchNs(const MeasuredEvent& e) const;
    // Absolute time of a file timestamp (adds baseTimeNs when present).
    std::int64_t absoluteNs(std::int64_t fileNs) const { return fileNs + baseTimeNs.value_or(0); }
};

// Progress and cancellation for long imports: `progress` is called now and then with the bytes read so far (of
// the file on disk, compressed or not) and the file's size; setting `cancel` stops the import with the error
// "cancelled" at the current offset.
struct ImportControl {
    std::function<void(std::int64_t done, std::int64_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Reads a Kineto trace (.json or .json.gz). A damaged file whose head held distributedInfo or events imports
// that head and names the stop in `skipped`; otherwise the error (with the byte offset) is returned.
Result<MeasuredRank> importKinetoTrace(const std::string& path, const ImportControl& control = {});
// The same over text in memory (tests, synthetic traces); `label` is used as the file name.
Result<MeasuredRank> importKinetoText(std::string_view text, const std::string& label);

// The breakdown (MeasuredBreakdown) of the kernels among `events`; other kinds are ignored.
MeasuredBreakdown kernelBreakdown(const std::vector<MeasuredEvent>& events);

// Parses a JSON number's text in microseconds into integer nanoseconds without going through binary floating
// point ("12.3456" -> 12346, rounded half away from zero). Exponent forms fall back to double. Exposed for tests.
std::int64_t microsecondsTextToNs(std::string_view text);

// The collective of an NCCL kernel name ("ncclKernel_AllReduce_RING_LL_Sum_float(...)" -> "AllReduce",
// "ncclDevKernel_SendRecv(...)" -> "SendRecv"); empty when the name is not an NCCL kernel or names no known one.
std::string collectiveFromKernelName(std::string_view name);
bool isNcclKernelName(std::string_view name);
// The collective of a "Collective name" argument ("allreduce", "_allgather_base", ...) or of an "nccl:*"
// annotation's suffix ("all_reduce", "all_to_all", ...); empty when unknown.
std::string collectiveFromArg(std::string_view name);

// A torch.distributed.pipelining action annotation, "PP:<stage><kind><microbatch>" (docs/SCHEDULES.md section 2.11;
// torch's _Action: kinds F, I, B, W, UNSHARD, RESHARD, REDUCE_GRAD, SEND_F, RECV_F, SEND_B, RECV_B; the
// microbatch may be absent for UNSHARD/RESHARD/REDUCE_GRAD).
struct PipelineAction {
    int stage = -1;
    std::string kind;
    int microbatch = -1;
};
std::optional<PipelineAction> parsePipelineAction(std::string_view name);

} // namespace planscope
