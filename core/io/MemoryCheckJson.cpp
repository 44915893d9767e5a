#include "MemoryCheckJson.h"

#include "PredictionJson.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;

json deviceMemoryToJson(const DeviceMemory& d)
{
    json blocks = json::array(), segments = json::array();
    for (const SnapshotBlock& b : d.largestBlocks)
        blocks.push_back({ { "address", b.address }, { "size", b.size }, { "requestedSize", b.requestedSize },
            { "state", b.state }, { "frames", b.frames } });
    for (const SnapshotSegment& s : d.largestSegments)
        segments.push_back({ { "address", s.address }, { "totalSize", s.totalSize },
            { "allocatedSize", s.allocatedSize }, { "activeSize", s.activeSize }, { "stream", s.stream },
            { "segmentType", s.segmentType }, { "blocks", s.blocks } });
    const auto at = [](std::int64_t event) { return event < 0 ? json(nullptr) : json(event); };
    return { { "device", d.device }, { "segments", d.segments }, { "blocks", d.blocks },
        { "now",
            { { "reservedBytes", d.reservedBytes }, { "allocatedBytes", d.allocatedBytes },
                { "activeBytes", d.activeBytes }, { "requestedBytes", d.requestedBytes } } },
        { "events",
            { { "total", d.events }, { "alloc", d.allocs }, { "free_requested", d.freeRequests },
                { "free_completed", d.freeCompletions }, { "segment_alloc", d.segmentAllocs },
                { "segment_free", d.segmentFrees }, { "segment_map", d.segmentMaps },
                { "segment_unmap", d.segmentUnmaps }, { "oom", d.ooms }, { "other", d.otherEvents } } },
        { "atStart",
            { { "allocatedBytes", d.allocatedAtStartBytes }, { "activeBytes", d.activeAtStartBytes },
                { "reservedBytes", d.reservedAtStartBytes }, { "allocations", d.allocationsBeforeTrace } } },
        { "peak",
            { { "allocatedBytes", d.allocatedPeakBytes }, { "activeBytes", d.activePeakBytes },
                { "reservedBytes", d.reservedPeakBytes }, { "allocatedEvent", at(d.allocatedPeakEvent) },
                { "reservedEvent", at(d.reservedPeakEvent) },
                { "allocatedTimeUs", at(d.allocatedPeakTimeUs) },
                { "reservedTimeUs", at(d.reservedPeakTimeUs) }, { "isLowerBound", d.peakIsLowerBound },
                { "note", d.peakNote.english() } } },
        { "largestBlocks", blocks }, { "largestSegments", segments } };
}

json memoryCheckToJson(const MemoryCheck& c)
{
    json rows = json::array();
    for (const MemoryCheckRow& r : c.rows)
        rows.push_back({ { "figure", r.figure }, { "predictedBytes", r.predictedBytes },
            { "measuredBytes", r.measuredBytes }, { "differenceBytes", r.differenceBytes },
            { "differencePercent",
                std::isnan(r.differencePercent) ? json(nullptr) : json(r.differencePercent) } });
    return { { "stage", c.stage }, { "device", c.device },
        { "predicted",
            { { "weightsBytes", c.weightsBytes }, { "gradientsBytes", c.gradientsBytes },
                { "optimizerBytes", c.optimizerBytes }, { "activationsBytes", c.activationsBytes },
                { "buffersBytes", c.buffersBytes }, { "allocatedBytes", c.predictedAllocatedBytes },
                { "reservedBytes", c.predictedReservedBytes }, { "totalBytes", c.predictedTotalBytes },
                { "outsideAllocatorBytes", c.outsideAllocatorBytes } } },
        { "measured",
            { { "allocatedPeakBytes", c.allocatedPeakBytes }, { "reservedPeakBytes", c.reservedPeakBytes },
                { "fragmentationBytes", c.fragmentationBytes }, { "peakIsLowerBound", c.peakIsLowerBound },
                { "note", c.peakNote.english() } } },
        { "rows", rows } };
}

json memoryCheckDocument(const MemoryCheck& check, const MemorySnapshot& snapshot, const std::string& plan,
    const std::string& snapshotFile)
{
    json devices = json::array();
    for (const DeviceMemory& d : snapshot.devices)
        devices.push_back(deviceMemoryToJson(d));
    json doc = { { "schema", kMemoryCheckSchema }, { "plan", plan }, { "snapshot", snapshotFile },
        { "hasTrace", snapshot.hasTrace }, { "warnings", issuesToJson(snapshot.warnings) } };
    doc["check"] = memoryCheckToJson(check);
    doc["devices"] = devices;
    return doc;
}

} // namespace planscope
