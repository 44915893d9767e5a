// Import of PyTorch-profiler (Kineto) Chrome-trace files, one file per rank (SCHEMA.md section 5).
// Streaming: the file (plain JSON or gzip, told apart by its magic bytes) is read through a SAX handler that keeps
// only the fields the measured breakdown needs; no DOM of the whole trace is ever built.
#pragma once

#include "util/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace planscope {

// A GPU kernel (cat "kernel"), times in integer nanoseconds as written in the file (see MeasuredRank::baseTimeNs).
struct MeasuredKernel {
    std::int64_t startNs = 0;
    std::int64_t durNs = 0;
    std::int64_t pid = -1; // -1: not a number in the file
    std::int64_t tid = -1; // the CUDA stream for kernels
    std::string collective; // empty: a compute kernel; else AllReduce, SendRecv, ... (NCCL kernel)
    std::int64_t inMsgNelems = -1; // "In msg nelems" where the trace has collective metadata
    std::int64_t outMsgNelems = -1; // "Out msg nelems"
    std::int64_t groupSize = -1; // "Group size"
    std::string dtype; // "dtype" (c10 name: Float, Long, ...)
};

// One "[memory]" instant event.
struct MeasuredMemoryEvent {
    std::int64_t tsNs = 0;
    int deviceType = -1; // 0 CPU, 1 CUDA
    std::int64_t bytes = 0; // negative: a free
    std::int64_t totalAllocated = -1;
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
    std::string reason;
};

struct MeasuredRank {
    std::string file;
    int rank = -1; // distributedInfo.rank; -1 when absent
    int worldSize = -1; // distributedInfo.world_size; -1 when absent
    std::optional<std::int64_t> baseTimeNs; // baseTimeNanoseconds: timestamps are relative to it when present
    std::int64_t events = 0; // entries of traceEvents
    std::int64_t kernels = 0;
    std::int64_t ncclKernels = 0;
    std::map<std::string, std::int64_t> collectives; // NCCL kernels by collective
    std::int64_t memoryEvents = 0;
    std::vector<std::string> steps; // ProfilerStep#N in order of first appearance
    MeasuredBreakdown breakdown;
    std::vector<MeasuredKernel> kernelList; // in file order
    std::vector<MeasuredMemoryEvent> memoryList; // in file order
    std::optional<SkippedRegion> skipped; // set when the file was damaged and only its head was imported
};

// Reads a Kineto trace (.json or .json.gz). A damaged file whose head held distributedInfo or events imports
// that head and names the stop in `skipped`; otherwise the error (with the byte offset) is returned.
Result<MeasuredRank> importKinetoTrace(const std::string& path);

// Parses a JSON number's text in microseconds into integer nanoseconds without going through binary floating
// point ("12.3456" -> 12346, rounded half away from zero). Exponent forms fall back to double. Exposed for tests.
std::int64_t microsecondsTextToNs(std::string_view text);

// The collective of an NCCL kernel name ("ncclKernel_AllReduce_RING_LL_Sum_float(...)" -> "AllReduce"); empty when
// the name is not an NCCL kernel or names no known collective.
std::string collectiveFromKernelName(std::string_view name);
bool isNcclKernelName(std::string_view name);
// The collective of a "Collective name" argument ("allreduce", "_allgather_base", ...); empty when unknown.
std::string collectiveFromArg(std::string_view name);

} // namespace planscope
