// Pipeline schedules: the ordered ops of every rank, as the frameworks order them (docs/SCHEDULES.md).
// Op text follows PyTorch pipelining's action IR: "<stage><kind><microbatch>", e.g. "2F0", "0I3", "1W3",
// and "(0F1;3B0)OVERLAP_F_B" for an overlapped forward/backward pair.
#pragma once

#include "spec/Plan.h"
#include "util/Result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

enum class OpKind : std::uint8_t {
    F,         // forward
    B,         // full backward (input and weight gradients)
    I,         // input-gradient backward (the Zero Bubble paper's "B")
    W,         // weight-gradient backward
    OverlapFB, // a forward and a full backward run as one overlapped pair (DualPipe's F&B)
};

struct Op {
    OpKind kind = OpKind::F;
    int stage = 0;        // global (virtual) stage; for OverlapFB the forward half's stage
    int microbatch = 0;   // for OverlapFB the forward half's microbatch
    int stage2 = -1;      // OverlapFB only: the backward half's stage
    int microbatch2 = -1; // OverlapFB only: the backward half's microbatch
    bool operator==(const Op&) const = default;

    static Op f(int s, int mb) { return { OpKind::F, s, mb }; }
    static Op b(int s, int mb) { return { OpKind::B, s, mb }; }
    static Op i(int s, int mb) { return { OpKind::I, s, mb }; }
    static Op w(int s, int mb) { return { OpKind::W, s, mb }; }
    static Op overlap(int fs, int fmb, int bs, int bmb) { return { OpKind::OverlapFB, fs, fmb, bs, bmb }; }
};

std::string opText(const Op& op);
// Parses one action of the IR; compute actions only (F, B, I, W, OVERLAP_F_B of F and B halves).
// On failure error says why (a template the GUI translates); the std::string overload gives its English.
bool parseOpText(std::string_view text, Op& op, Text& error);
bool parseOpText(std::string_view text, Op& op, std::string& error);

enum class Placement {
    Linear,        // stage s on rank s
    Loop,          // stage s on rank s mod p (interleaved)
    VShape,        // 0..p-1 up, then p-1..0 down (ZB-V, DualPipeV)
    Bidirectional, // two pipelines: "down" stage s on rank s, "up" stage p+s on rank p-1-s (DualPipe)
};

struct Schedule {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    std::string variant;             // e.g. "megatron", "megatron-legacy", "torch" for interleaved
    Placement placement = Placement::Linear;
    int ranks = 1;                   // p
    int stages = 1;                  // S: all (virtual) stages over all pipelines
    int pipelines = 1;               // 2 for DualPipe (down and up), else 1
    int microbatches = 1;            // microbatches per pipeline (DualPipe: m/2 each way)
    int chunksPerRank = 1;           // stages each rank holds
    std::vector<int> stageToRank;    // size stages
    std::vector<std::vector<Op>> rankOps;

    int stagesPerPipeline() const { return stages / pipelines; }
    // The stage that feeds stage s in its pipeline, or -1 for a pipeline's first stage.
    int previousStage(int s) const { return s % stagesPerPipeline() == 0 ? -1 : s - 1; }
    int nextStage(int s) const { return (s + 1) % stagesPerPipeline() == 0 ? -1 : s + 1; }
    bool operator==(const Schedule&) const = default;
};

// What a generator is asked for.
struct ScheduleRequest {
    ScheduleKind kind = ScheduleKind::OneFOneB;
    int ranks = 1;           // p
    int microbatches = 1;    // m (total; DualPipe splits it over the two directions)
    int chunks = 1;          // v: chunks per rank for interleaved / looped BFS (V shapes and DualPipe: 2)
    std::string variant;     // interleaved: "megatron" (default), "megatron-legacy", "torch";
                             // 1f1b: "torch" applies torch's m >= p check (Megatron caps the warm-up instead)
    int groupSize = 0;       // Megatron microbatch_group_size_per_vp_stage; 0 = p
};

// The most compute ops generateSchedule() and scheduleFromCsv() lay out: 2^22, four times the largest schedule
// benchmarked (docs/PERFORMANCE.md: 1,048,576 ops generated in 20 ms, run in 90 ms at 73 bytes per op). Beyond it a
// request or a file is refused with the count, before anything is sized by it.
inline constexpr std::int64_t kMaxScheduleOps = std::int64_t(1) << 22;

// The compute ops a schedule lays out: ranks x chunks per rank x microbatches x passes (F and B, or F, I and W);
// chunks count for the chunked kinds (interleaved 1F1B, looped BFS; two for ZB-V and DualPipe). In double, so that
// a count no int holds (a plan's microbatches from a huge batch) is still told. One rule for generateSchedule() and
// the analysis that decides whether to simulate (analysis/Analysis.cpp).
double scheduleOpCount(ScheduleKind kind, int ranks, int chunks, double microbatches);
inline double scheduleOpCount(const ScheduleRequest& r) { return scheduleOpCount(r.kind, r.ranks, r.chunks, r.microbatches); }

// Builds the schedule, or the reason the framework that ships it refuses the shape.
Result<Schedule> generateSchedule(const ScheduleRequest& request);

// stage -> rank for a placement.
std::vector<int> placeStages(Placement placement, int ranks, int stages);

// Structural checks (docs/SCHEDULES.md section 1.3): every (stage, microbatch) once as F and once as B or I+W, F before
// its backward and I before W on the same rank, ops on the rank that holds their stage.
Issues checkSchedule(const Schedule& schedule);

// PyTorch pipelining's CSV: one row per rank, actions separated by commas. "compute_only" lists the compute
// actions; "compute_comms" also has the lowered SEND_F/RECV_F/SEND_B/RECV_B actions: each send right after the
// op that produces it, each receive right before the op that consumes it (torch _add_send_recv, with receives
// moved next to their consumer as in pytorch/pytorch#172833). Same-rank hand-offs (the turn of a V) need none.
std::string scheduleToCsv(const Schedule& schedule, bool withComms = false);
// Reads a compute_only CSV back (communication actions are skipped); placement is inferred as loop unless
// the op stages show a V. Errors carry the row and column.
Result<Schedule> scheduleFromCsv(std::string_view csv, ScheduleKind kind = ScheduleKind::OneFOneB);

} // namespace planscope
