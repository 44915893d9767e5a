// The rows of the measured-vs-predicted timeline (TraceTimelineView), built once per overlay and kept free of
// widgets so tests can check them: per overlaid rank, the predicted compute and communication of its pipeline
// rank (drawn as ghosts), its annotations (PP: actions, "## forward ##", nccl:*), its GPU streams and, on request,
// its CPU threads. Nested annotations and CPU ops stack into depth sub-rows. Times are ns from the overlay origin.
#pragma once

#include "sim/Timeline.h"
#include "timeline/LaneEngine.h"
#include "trace/KinetoImport.h"
#include "trace/Overlay.h"

#include <cstdint>
#include <string>
#include <vector>

namespace planscope {

// What colour an item takes.
enum class TraceColor : std::uint8_t {
    Compute, // a compute kernel
    Memcpy, // gpu_memcpy / gpu_memset
    Collective, // an NCCL kernel other than send/receive
    SendRecv, // an NCCL send/receive kernel
    Cpu, // cpu_op or a CPU annotation that names no phase
    Annotation, // a GPU annotation that names no phase
    Predicted, // a predicted span: the SpanKind in `kind` decides
    Phase, // an annotation naming a phase or a PP action: the SpanKind in `kind` decides
};

struct TraceItem {
    std::int64_t start = 0, end = 0;
    std::uint32_t index = 0; // event index (measured rows) or span index (predicted rows)
    TraceColor color = TraceColor::Compute;
    SpanKind kind = SpanKind::Forward;
    std::int32_t match = -1; // index into Overlay::ops for a matched PP action
};

struct TraceRow {
    enum Kind : std::uint8_t { PredictedCompute, PredictedComm, Annotations, GpuStream, CpuThread };
    Kind kind = GpuStream;
    std::size_t overlayRank = 0;
    std::size_t rankIndex = 0; // into TraceImport::ranks
    std::int64_t tid = -1; // stream or thread
    int depth = 0; // sub-row of a stacked lane
    bool firstOfRank = false;
    std::vector<TraceItem> items; // sorted by start
    bool ghost() const { return kind == PredictedCompute || kind == PredictedComm; }
};

// Max depth sub-rows of one annotation or CPU lane; deeper items go to the last one.
constexpr int kMaxTraceDepth = 4;

std::vector<TraceRow> buildTraceRows(const std::vector<MeasuredRank>& ranks, const Overlay& overlay,
    const Timeline* predicted, bool withCpu);

// The rows as lanes of the timeline engine (LaneEngine.h), times in seconds from the overlay's origin. An item's
// style is its TraceColor; predicted rows are ghosts (DrawGhost). Labels: a measured item 40 px wide or more
// carries its event name (from ranks), cut to fit; a predicted one 28 px wide or more its PP action ("0F3") when
// it fits whole.
struct TraceLanes {
    const std::vector<TraceRow>& rows;
    const std::vector<MeasuredRank>* ranks = nullptr;
    const Timeline* predicted = nullptr;
    LaneMetrics metrics {};

    std::size_t laneCount() const { return rows.size(); }
    std::size_t size(std::size_t lane) const { return rows[lane].items.size(); }
    const TraceItem& at(std::size_t lane, std::size_t i) const { return rows[lane].items[i]; }
    double start(std::size_t lane, std::size_t i) const { return double(at(lane, i).start) * 1e-9; }
    double end(std::size_t lane, std::size_t i) const { return double(at(lane, i).end) * 1e-9; }
    SpanKind kind(std::size_t lane, std::size_t i) const { return at(lane, i).kind; }
    std::uint8_t style(std::size_t lane, std::size_t i) const { return std::uint8_t(at(lane, i).color); }
    void describe(std::size_t lane, std::size_t, DrawRect& r) const
    {
        if (rows[lane].ghost()) r.flags |= DrawGhost;
    }
    std::string label(std::size_t lane, std::size_t i, double widthPx) const;
    std::uint8_t foldFlags(std::size_t lane, double) const { return rows[lane].ghost() ? DrawGhost : 0; }
};

// Row heights in pixels by kind.
double traceRowHeight(TraceRow::Kind kind);
// Every row's place (content y: 8 px before a rank's first row, 1 px between rows); lane i is rows[i].
std::vector<LaneItem> traceRowLanes(const std::vector<TraceRow>& rows);

} // namespace planscope
