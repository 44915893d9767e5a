#include "timeline/TraceRows.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace planscope {

namespace {

void finish(TraceRow& row)
{
    std::stable_sort(row.items.begin(), row.items.end(), [](const TraceItem& a, const TraceItem& b) { return a.start < b.start; });
}

// Splits items into depth rows: an item nests one deeper than every item still open at its start.
std::vector<std::vector<TraceItem>> stack(std::vector<TraceItem> items)
{
    std::stable_sort(items.begin(), items.end(), [](const TraceItem& a, const TraceItem& b) {
        return a.start != b.start ? a.start < b.start : (a.end - a.start) > (b.end - b.start);
    });
    std::vector<std::vector<TraceItem>> rows;
    std::vector<std::int64_t> open; // end times of the open items, outermost first
    for (const TraceItem& it : items) {
        while (!open.empty() && open.back() <= it.start) open.pop_back();
        const std::size_t depth = std::min<std::size_t>(open.size(), kMaxTraceDepth - 1);
        if (rows.size() <= depth) rows.resize(depth + 1);
        rows[depth].push_back(it);
        open.push_back(it.end);
    }
    return rows;
}

} // namespace

std::vector<TraceRow> buildTraceRows(const std::vector<MeasuredRank>& ranks, const Overlay& overlay,
    const Timeline* predicted, bool withCpu)
{
    std::vector<TraceRow> rows;
    const std::int64_t predictedOrigin = predicted ? predictedOriginNs(*predicted) : 0;
    std::map<std::pair<std::size_t, std::uint32_t>, std::int32_t> matchOf; // (overlay rank, event) -> op
    for (std::size_t i = 0; i < overlay.ops.size(); ++i) matchOf[{ overlay.ops[i].overlayRank, overlay.ops[i].event }] = std::int32_t(i);

    for (std::size_t oi = 0; oi < overlay.ranks.size(); ++oi) {
        const OverlayRank& o = overlay.ranks[oi];
        const MeasuredRank& r = ranks[o.source];
        const std::size_t firstRow = rows.size();
        auto row = [&](TraceRow::Kind kind, std::int64_t tid, int depth) {
            TraceRow t;
            t.kind = kind;
            t.overlayRank = oi;
            t.rankIndex = o.source;
            t.tid = tid;
            t.depth = depth;
            return t;
        };

        if (predicted) {
            TraceRow compute = row(TraceRow::PredictedCompute, -1, 0), comm = row(TraceRow::PredictedComm, -1, 0);
            for (std::size_t i = 0; i < predicted->spans.size(); ++i) {
                const Span& s = predicted->spans[i];
                if (s.rank != o.pipelineRank) continue;
                TraceItem it { std::llround(s.start * 1e9) - predictedOrigin, std::llround(s.end * 1e9) - predictedOrigin,
                    std::uint32_t(i), TraceColor::Predicted, s.kind, -1 };
                (isCommunicationStream(s.stream) ? comm : compute).items.push_back(it);
            }
            for (TraceRow* t : { &compute, &comm })
                if (!t->items.empty()) {
                    finish(*t);
                    rows.push_back(std::move(*t));
                }
        }

        // Measured: annotations (GPU-side, else CPU-side PP actions), GPU streams, CPU threads.
        std::vector<TraceItem> annotations;
        // Lanes by (tid, lane): streams and threads in number order, the same on every rank.
        std::map<std::pair<std::int64_t, std::int32_t>, std::vector<TraceItem>> gpuLanes, cpuLanes;
        const auto laneKey = [&](const MeasuredEvent& e) { return std::pair(r.lanes[std::size_t(e.lane)].tid, e.lane); };
        bool gpuAnnotations = false;
        for (const MeasuredEvent& e : r.eventList)
            if (e.kind == EventKind::GpuAnnotation) gpuAnnotations = true;
        for (std::size_t ei = 0; ei < r.eventList.size(); ++ei) {
            const MeasuredEvent& e = r.eventList[ei];
            TraceItem it { r.absoluteNs(e.startNs) - o.originNs, r.absoluteNs(e.startNs) + e.durNs - o.originNs,
                std::uint32_t(ei), TraceColor::Compute, SpanKind::Forward, -1 };
            if (auto m = matchOf.find({ oi, std::uint32_t(ei) }); m != matchOf.end()) it.match = m->second;
            const std::string_view name = r.nameOf(e);
            switch (e.kind) {
            case EventKind::Kernel:
                if (e.collective == CollectiveKind::SendRecv) it.color = TraceColor::SendRecv;
                else if (e.collective != CollectiveKind::None) it.color = TraceColor::Collective;
                gpuLanes[laneKey(e)].push_back(it);
                break;
            case EventKind::Memcpy:
            case EventKind::Memset:
                it.color = TraceColor::Memcpy;
                gpuLanes[laneKey(e)].push_back(it);
                break;
            case EventKind::GpuAnnotation:
                if (name.substr(0, 13) == "ProfilerStep#") break; // the step is the axis' origin, not a bar
                it.color = phaseOfName(name, it.kind) ? TraceColor::Phase : TraceColor::Annotation;
                annotations.push_back(it);
                break;
            case EventKind::CpuOp:
            case EventKind::CpuAnnotation:
                if (!gpuAnnotations && e.kind == EventKind::CpuAnnotation && parsePipelineAction(name)) {
                    phaseOfName(name, it.kind);
                    it.color = TraceColor::Phase;
                    annotations.push_back(it);
                }
                if (withCpu) {
                    it.color = phaseOfName(name, it.kind) ? TraceColor::Phase : TraceColor::Cpu;
                    cpuLanes[laneKey(e)].push_back(it);
                }
                break;
            }
        }
        int depth = 0;
        for (auto& items : stack(std::move(annotations))) {
            TraceRow t = row(TraceRow::Annotations, -1, depth++);
            t.items = std::move(items);
            finish(t);
            rows.push_back(std::move(t));
        }
        for (auto& [key, items] : gpuLanes) {
            TraceRow t = row(TraceRow::GpuStream, key.first, 0);
            t.items = std::move(items);
            finish(t);
            rows.push_back(std::move(t));
        }
        for (auto& [key, items] : cpuLanes) {
            depth = 0;
            for (auto& level : stack(std::move(items))) {
                TraceRow t = row(TraceRow::CpuThread, key.first, depth++);
                t.items = std::move(level);
                finish(t);
                rows.push_back(std::move(t));
            }
        }
        if (rows.size() > firstRow) rows[firstRow].firstOfRank = true;
    }
    return rows;
}

std::string TraceLanes::label(std::size_t lane, std::size_t i, double widthPx) const
{
    const TraceRow& row = rows[lane];
    const TraceItem& it = row.items[i];
    const double columns = (widthPx - 2 * metrics.labelPadding) / metrics.charWidth;
    if (row.ghost()) {
        if (widthPx < 28 || !predicted || it.index >= predicted->spans.size()) return {};
        // An action ("0B10") is shown whole or not at all.
        std::string action = pipelineActionText(predicted->spans[it.index]);
        return textColumns(action) <= columns ? action : std::string();
    }
    if (widthPx < 40 || !ranks || row.rankIndex >= ranks->size()) return {};
    const MeasuredRank& rank = (*ranks)[row.rankIndex];
    if (it.index >= rank.eventList.size()) return {};
    return fitText(std::string(rank.nameOf(rank.eventList[it.index])), columns);
}

double traceRowHeight(TraceRow::Kind kind)
{
    switch (kind) {
    case TraceRow::PredictedCompute: return 16;
    case TraceRow::PredictedComm: return 10;
    case TraceRow::Annotations: return 12;
    case TraceRow::GpuStream: return 18;
    case TraceRow::CpuThread: return 9;
    }
    return 12;
}

std::vector<LaneItem> traceRowLanes(const std::vector<TraceRow>& rows)
{
    std::vector<LaneItem> lanes;
    lanes.reserve(rows.size());
    double y = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TraceRow& r = rows[i];
        if (r.firstOfRank) y += 8;
        LaneItem lane;
        lane.rank = int(r.overlayRank);
        lane.y = y;
        lane.h = traceRowHeight(r.kind);
        lane.firstOfRank = r.firstOfRank;
        lane.lane = i;
        lanes.push_back(lane);
        y += lane.h + 1;
    }
    return lanes;
}

} // namespace planscope
