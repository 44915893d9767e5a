#include "MemorySnapshot.h"

#include "analysis/Analysis.h"
#include "cost/RankGrid.h"
#include "io/Pickle.h"
#include "io/PlanJson.h"
#include "util/Units.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_set>

namespace planscope {

using nlohmann::json;

namespace {

// Sizes above a pebibyte are no GPU's; bounding them keeps every sum below 64 bits for any number of events
// the pickle reader lets through (PickleLimits::maxValues).
constexpr std::int64_t kMaxSize = std::int64_t(1) << 50;
constexpr std::int64_t kMaxDevice = 1 << 16;

std::string at(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}
std::string field(const std::string& path, const char* key)
{
    return path.empty() ? std::string(key) : path + "." + key;
}

// Reads the documented fields; the first problem ends the read with its path.
class Fields {
public:
    Issues errors;

    bool ok() const { return errors.empty(); }

    const json* find(const json& obj, const char* key) const
    {
        const auto it = obj.find(key);
        return it == obj.end() ? nullptr : &*it;
    }

    bool object(const json& v, const std::string& path)
    {
        if (v.is_object()) return true;
        return fail(path, Text(PS_TEXT("CoreText", "must be an object, found %1"), v.type_name()));
    }

    const json* array(const json& obj, const std::string& path, const char* key, bool required = true)
    {
        const json* v = find(obj, key);
        if (!v) {
            if (required) fail(field(path, key), Text(PS_TEXT("CoreText", "missing")));
            return nullptr;
        }
        if (!v->is_array()) {
            fail(field(path, key), Text(PS_TEXT("CoreText", "must be an array, found %1"), v->type_name()));
            return nullptr;
        }
        return v;
    }

    // An integer in [lo, hi]; absent: `fallback` when given, else an error.
    bool integer(const json& obj, const std::string& path, const char* key, std::int64_t& out,
        std::int64_t lo, std::int64_t hi, std::optional<std::int64_t> fallback = std::nullopt)
    {
        const json* v = find(obj, key);
        if (!v) {
            if (fallback) {
                out = *fallback;
                return true;
            }
            return fail(field(path, key), Text(PS_TEXT("CoreText", "missing")));
        }
        if (!v->is_number_integer())
            return fail(
                field(path, key), Text(PS_TEXT("CoreText", "must be an integer, found %1"), v->type_name()));
        const bool big = v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(hi);
        const std::int64_t x = big ? hi : v->get<std::int64_t>();
        if (big || x < lo || x > hi)
            return fail(field(path, key),
                Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), lo, hi, v->dump()));
        out = x;
        return true;
    }

    bool string(
        const json& obj, const std::string& path, const char* key, std::string& out, bool required = true)
    {
        const json* v = find(obj, key);
        if (!v) return required ? fail(field(path, key), Text(PS_TEXT("CoreText", "missing"))) : true;
        if (!v->is_string())
            return fail(
                field(path, key), Text(PS_TEXT("CoreText", "must be a string, found %1"), v->type_name()));
        out = v->get<std::string>();
        return true;
    }

    bool fail(std::string path, Text text)
    {
        if (errors.empty()) errors.push_back(issue(Severity::Error, std::move(path), std::move(text)));
        return false;
    }
};

// "filename:line:name", as torch/cuda/_memory_viz.py's _frame_fmt writes a frame (the whole file name kept).
std::vector<std::string> frameTexts(const json& obj)
{
    std::vector<std::string> out;
    const auto it = obj.find("frames");
    if (it == obj.end() || !it->is_array()) return out;
    for (const json& f : *it) {
        if (out.size() >= kSnapshotFramesKept) break;
        if (!f.is_object()) continue;
        const auto file = f.find("filename"), line = f.find("line"), name = f.find("name");
        std::string s = file != f.end() && file->is_string() ? file->get<std::string>() : std::string("?");
        s += ":"
            + (line != f.end() && line->is_number_integer() ? std::to_string(line->get<std::int64_t>())
                                                            : std::string("?"));
        s += ":" + (name != f.end() && name->is_string() ? name->get<std::string>() : std::string("?"));
        out.push_back(std::move(s));
    }
    return out;
}

// A running byte count that says when it leaves 64 bits.
struct Sum {
    std::int64_t value = 0;
    bool overflow = false;
    void add(std::int64_t x) { overflow = overflow || __builtin_add_overflow(value, x, &value); }
};

struct DeviceBuild {
    DeviceMemory memory;
    std::vector<SnapshotBlock> inUse; // active_allocated and active_pending_free blocks
    std::vector<SnapshotSegment> segments;
    Sum reserved, allocated, active, requested,
        pending; // pending: requested sizes of active_pending_free blocks
};

bool readSegments(
    const json& segments, const std::string& path, std::map<int, DeviceBuild>& devices, Fields& f)
{
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const json& s = segments[i];
        const std::string sp = at(path, i);
        if (!f.object(s, sp)) return false;
        std::int64_t device = 0;
        SnapshotSegment seg;
        if (!f.integer(s, sp, "device", device, 0, kMaxDevice, 0)
            || !f.integer(s, sp, "address", seg.address, 0, std::numeric_limits<std::int64_t>::max(), 0)
            || !f.integer(s, sp, "total_size", seg.totalSize, 0, kMaxSize)
            || !f.integer(s, sp, "stream", seg.stream, std::numeric_limits<std::int64_t>::min(),
                std::numeric_limits<std::int64_t>::max(), 0)
            || !f.string(s, sp, "segment_type", seg.segmentType, false))
            return false;
        const json* blocks = f.array(s, sp, "blocks");
        if (!blocks) return false;
        DeviceBuild& d = devices[int(device)];
        d.memory.device = int(device);
        // A block's address: its own, or (older snapshots) the segment's plus the blocks before it, as
        // MemoryViz.js's annotate_snapshot counts it.
        std::int64_t address = seg.address;
        Sum fromBlocks, activeFromBlocks;
        for (std::size_t k = 0; k < blocks->size(); ++k) {
            const json& b = (*blocks)[k];
            const std::string bp = at(field(sp, "blocks"), k);
            if (!f.object(b, bp)) return false;
            SnapshotBlock block;
            if (!f.integer(b, bp, "size", block.size, 0, kMaxSize)
                || !f.integer(
                    b, bp, "address", block.address, 0, std::numeric_limits<std::int64_t>::max(), address)
                // Older snapshots lack requested_size; _memory_viz.py's _block_extra_legacy takes the size
                // then.
                || !f.integer(b, bp, "requested_size", block.requestedSize, 0, kMaxSize, block.size)
                || !f.string(b, bp, "state", block.state))
                return false;
            address = block.address + block.size;
            ++d.memory.blocks;
            // The docstring of _snapshot() says "active_awaiting_free" where the C++ writes
            // "active_pending_free".
            const bool allocated = block.state == "active_allocated";
            const bool pending
                = block.state == "active_pending_free" || block.state == "active_awaiting_free";
            if (allocated) {
                fromBlocks.add(block.size);
                d.requested.add(block.requestedSize);
            }
            if (allocated || pending) {
                activeFromBlocks.add(block.size);
                if (pending) d.pending.add(block.requestedSize);
                block.frames = frameTexts(b);
                d.inUse.push_back(std::move(block));
            }
        }
        if (fromBlocks.overflow || activeFromBlocks.overflow)
            return f.fail(sp, Text(PS_TEXT("CoreText", "sizes add up beyond 64 bits")));
        if (!f.integer(s, sp, "allocated_size", seg.allocatedSize, 0, kMaxSize, fromBlocks.value)
            || !f.integer(s, sp, "active_size", seg.activeSize, 0, kMaxSize, activeFromBlocks.value))
            return false;
        seg.blocks = int(std::min<std::size_t>(blocks->size(), std::size_t(std::numeric_limits<int>::max())));
        ++d.memory.segments;
        d.reserved.add(seg.totalSize);
        d.allocated.add(seg.allocatedSize);
        d.active.add(seg.activeSize);
        d.segments.push_back(std::move(seg));
    }
    return true;
}

// The allocator's events of one device, replayed: the state at the snapshot minus the events' changes is the
// state at the trace's start, then the events in order give every state between, and the peaks.
bool replay(const json& events, const std::string& path, DeviceBuild& d, Fields& f, Issues& warnings)
{
    DeviceMemory& m = d.memory;
    struct Event {
        std::int64_t allocated = 0, active = 0, reserved = 0;
        std::int64_t timeUs = -1;
    };
    std::vector<Event> changes;
    changes.reserve(events.size());
    std::unordered_set<std::int64_t> live,
        awaiting; // allocated in the trace; free requested in it, not completed
    for (std::size_t i = 0; i < events.size(); ++i) {
        const json& e = events[i];
        const std::string ep = at(path, i);
        if (!f.object(e, ep)) return false;
        std::string action;
        if (!f.string(e, ep, "action", action)) return false;
        Event c;
        if (!f.integer(e, ep, "time_us", c.timeUs, std::numeric_limits<std::int64_t>::min(),
                std::numeric_limits<std::int64_t>::max(), -1))
            return false;
        const bool block = action == "alloc" || action == "free_requested" || action == "free_completed";
        const bool segment = action == "segment_alloc" || action == "segment_free" || action == "segment_map"
            || action == "segment_unmap";
        std::int64_t size = 0, addr = 0;
        if ((block || segment)
            && (!f.integer(e, ep, "size", size, 0, kMaxSize)
                || !f.integer(e, ep, "addr", addr, 0, std::numeric_limits<std::int64_t>::max())))
            return false;
        if (action == "alloc") {
            ++m.allocs;
            c.allocated = c.active = size;
            live.insert(addr);
        } else if (action == "free_requested") {
            ++m.freeRequests;
            c.allocated = -size;
            if (live.erase(addr) == 0) ++m.allocationsBeforeTrace;
            awaiting.insert(addr);
        } else if (action == "free_completed") {
            ++m.freeCompletions;
            c.active = -size;
            if (awaiting.erase(addr) == 0) ++m.allocationsBeforeTrace;
        } else if (action == "segment_alloc" || action == "segment_map") {
            ++(action == "segment_alloc" ? m.segmentAllocs : m.segmentMaps);
            c.reserved = size;
        } else if (segment) {
            ++(action == "segment_free" ? m.segmentFrees : m.segmentUnmaps);
            c.reserved = -size;
        } else if (action == "oom") {
            ++m.ooms;
        } else {
            ++m.otherEvents; // snapshot, annotate: no change
        }
        changes.push_back(c);
    }
    m.events = std::int64_t(changes.size());
    // Blocks in use at the snapshot that the trace never allocated were allocated before it.
    for (const SnapshotBlock& b : d.inUse)
        if (b.state == "active_allocated" ? !live.count(b.address) : !awaiting.count(b.address))
            ++m.allocationsBeforeTrace;

    Sum allocated = d.requested, active = d.requested, reserved = d.reserved;
    active.add(d.pending.value);
    for (const Event& c : changes) {
        allocated.add(-c.allocated);
        active.add(-c.active);
        reserved.add(-c.reserved);
    }
    if (allocated.overflow || active.overflow || reserved.overflow)
        return f.fail(path, Text(PS_TEXT("CoreText", "sizes add up beyond 64 bits")));
    m.allocatedAtStartBytes = allocated.value;
    m.activeAtStartBytes = active.value;
    m.reservedAtStartBytes = reserved.value;
    if (allocated.value < 0 || active.value < 0 || reserved.value < 0)
        warnings.push_back(issue(Severity::Warning, path,
            Text(PS_TEXT("CoreText",
                     "replayed back from the segments, the trace would start with %1 bytes allocated and %2 "
                     "reserved, "
                     "below zero: the trace and the segments disagree"),
                std::min(allocated.value, active.value), reserved.value)));
    m.allocatedPeakBytes = allocated.value;
    m.activePeakBytes = active.value;
    m.reservedPeakBytes = reserved.value;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        const Event& c = changes[i];
        allocated.add(c.allocated);
        active.add(c.active);
        reserved.add(c.reserved);
        if (allocated.value > m.allocatedPeakBytes) {
            m.allocatedPeakBytes = allocated.value;
            m.allocatedPeakEvent = std::int64_t(i);
            m.allocatedPeakTimeUs = c.timeUs;
        }
        m.activePeakBytes = std::max(m.activePeakBytes, active.value);
        if (reserved.value > m.reservedPeakBytes) {
            m.reservedPeakBytes = reserved.value;
            m.reservedPeakEvent = std::int64_t(i);
            m.reservedPeakTimeUs = c.timeUs;
        }
    }
    return true;
}

void finish(DeviceBuild& d, bool hasTrace)
{
    DeviceMemory& m = d.memory;
    m.reservedBytes = d.reserved.value;
    m.allocatedBytes = d.allocated.value;
    m.activeBytes = d.active.value;
    m.requestedBytes = d.requested.value;
    if (!hasTrace || m.events == 0) {
        // No events: the peaks are the state at the snapshot.
        m.allocatedAtStartBytes = m.allocatedPeakBytes = d.requested.value;
        m.activeAtStartBytes = m.activePeakBytes = d.requested.value + d.pending.value;
        m.reservedAtStartBytes = m.reservedPeakBytes = d.reserved.value;
        m.allocationsBeforeTrace = std::int64_t(d.inUse.size());
        m.peakIsLowerBound = true;
        m.peakNote = Text(PS_TEXT("CoreText",
            "no trace: the snapshot holds no allocator events for this device "
            "(torch.cuda.memory._record_memory_history "
            "was off), so the peaks are its state when it was taken"));
    } else if (m.allocatedAtStartBytes < 0 || m.activeAtStartBytes < 0 || m.reservedAtStartBytes < 0) {
        m.peakIsLowerBound = true;
        m.peakNote = Text(PS_TEXT("CoreText",
            "the trace and the segments disagree (a warning says where), so the peaks are not to be relied "
            "on"));
    } else if (m.allocationsBeforeTrace > 0 || m.allocatedAtStartBytes > 0 || m.reservedAtStartBytes > 0) {
        m.peakIsLowerBound = true;
        m.peakNote = Text(
            PS_TEXT("CoreText",
                "the trace starts with %1 allocations alive (%2 allocated, %3 reserved): recording began "
                "after the run did, or the ring buffer of max_entries events dropped the oldest; an "
                "earlier peak may have been higher"),
            m.allocationsBeforeTrace, units::formatBytes(double(m.allocatedAtStartBytes)),
            units::formatBytes(double(m.reservedAtStartBytes)));
    } else {
        m.peakIsLowerBound = false;
        m.peakNote = Text(PS_TEXT("CoreText",
            "the trace starts with nothing allocated or reserved: the peaks cover the run from then on"));
    }
    std::stable_sort(d.inUse.begin(), d.inUse.end(),
        [](const SnapshotBlock& a, const SnapshotBlock& b) { return a.size > b.size; });
    std::stable_sort(d.segments.begin(), d.segments.end(),
        [](const SnapshotSegment& a, const SnapshotSegment& b) { return a.totalSize > b.totalSize; });
    const auto keep = [](auto& v) { v.resize(std::min(v.size(), kSnapshotLargestKept)); };
    keep(d.inUse);
    keep(d.segments);
    m.largestBlocks = std::move(d.inUse);
    m.largestSegments = std::move(d.segments);
}

} // namespace

const DeviceMemory* MemorySnapshot::device(int d) const
{
    for (const DeviceMemory& m : devices)
        if (m.device == d) return &m;
    return nullptr;
}

Result<MemorySnapshot> readMemorySnapshot(std::string_view bytes)
{
    PickleLimits limits;
    limits.shortenedKeys = { "frames" };
    limits.shortenedKeep = kSnapshotFramesKept;
    auto data = readPickle(bytes, limits);
    if (!data) return Result<MemorySnapshot>(data.errors());
    const json& root = data.value();
    Fields f;
    MemorySnapshot snapshot;
    std::map<int, DeviceBuild> devices;
    const json* segments = nullptr;
    const json* traces = nullptr;
    if (root.is_array()) {
        // The older form: a list of segments (torch/cuda/_memory_viz.py's _read takes it as {'segments':
        // data}).
        segments = &root;
    } else if (root.is_object()) {
        segments = f.array(root, "", "segments");
        traces = f.array(root, "", "device_traces", false);
        if (!f.ok()) return Result<MemorySnapshot>(f.errors);
    } else {
        return Result<MemorySnapshot>::failure("",
            Text(PS_TEXT("CoreText",
                     "a memory snapshot is a dict with \"segments\" and \"device_traces\" "
                     "(torch.cuda.memory._snapshot()), not a %1"),
                root.type_name()));
    }
    if (!readSegments(*segments, "segments", devices, f)) return Result<MemorySnapshot>(f.errors);
    snapshot.hasTrace = traces != nullptr;
    if (traces) {
        for (std::size_t d = 0; d < traces->size(); ++d) {
            const json& events = (*traces)[d];
            const std::string path = at("device_traces", d);
            if (!events.is_array())
                return Result<MemorySnapshot>::failure(
                    path, Text(PS_TEXT("CoreText", "must be an array, found %1"), events.type_name()));
            if (events.empty() && !devices.count(int(d))) continue;
            if (d > std::size_t(kMaxDevice))
                return Result<MemorySnapshot>::failure(
                    path, Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), 0, kMaxDevice, d));
            DeviceBuild& build = devices[int(d)];
            build.memory.device = int(d);
            if (!replay(events, path, build, f, snapshot.warnings)) return Result<MemorySnapshot>(f.errors);
        }
    }
    for (auto& [d, build] : devices) {
        finish(build, snapshot.hasTrace);
        snapshot.devices.push_back(std::move(build.memory));
    }
    return snapshot;
}

Result<MemorySnapshot> loadMemorySnapshot(const std::string& path)
{
    auto bytes = readTextFile(path, kMaxMemorySnapshotBytes);
    if (!bytes) return Result<MemorySnapshot>(bytes.errors());
    return readMemorySnapshot(bytes.value());
}

int defaultMemoryCheckStage(const Analysis& analysis)
{
    return RankGrid(analysis.plan).coords(0).pp;
}

int defaultMemoryCheckDevice(const MemorySnapshot& snapshot)
{
    return snapshot.devices.empty() ? -1 : snapshot.devices.front().device;
}

Result<MemoryCheck> checkMemory(
    const Analysis& analysis, const MemorySnapshot& snapshot, int stage, int device)
{
    if (!analysis.valid()) return Result<MemoryCheck>(analysis.prediction.errors);
    const Prediction& p = analysis.prediction;
    if (stage < 0) stage = defaultMemoryCheckStage(analysis);
    if (stage >= int(p.stages.size()))
        return Result<MemoryCheck>::failure("stage",
            Text(PS_TEXT("CoreText", "stage %1 is not a pipeline stage of the plan (0 to %2)"), stage,
                int(p.stages.size()) - 1));
    if (snapshot.devices.empty())
        return Result<MemoryCheck>::failure(
            "device", Text(PS_TEXT("CoreText", "the snapshot holds no segments and no events")));
    if (device < 0) device = defaultMemoryCheckDevice(snapshot);
    const DeviceMemory* d = snapshot.device(device);
    if (!d) {
        std::string have;
        for (const DeviceMemory& m : snapshot.devices)
            have += (have.empty() ? "" : ", ") + std::to_string(m.device);
        return Result<MemoryCheck>::failure("device",
            Text(PS_TEXT("CoreText", "device %1 is not in the snapshot, which has device %2"), device, have));
    }
    const StageMemory& s = p.stages[std::size_t(stage)];
    MemoryCheck c;
    c.stage = stage;
    c.device = device;
    c.weightsBytes = s.weightsBytes;
    c.gradientsBytes = s.gradientsBytes;
    c.optimizerBytes = s.optimizerBytes;
    c.activationsBytes = s.activationsBytes;
    c.buffersBytes = s.buffersBytes;
    c.predictedTotalBytes = s.totalBytes;
    c.predictedAllocatedBytes = s.allocatedBytes;
    c.predictedReservedBytes = s.reservedBytes;
    c.outsideAllocatorBytes = s.buffers.cudaContextBytes + s.buffers.ncclBytes;
    c.allocatedPeakBytes = d->allocatedPeakBytes;
    c.reservedPeakBytes = d->reservedPeakBytes;
    c.fragmentationBytes = d->reservedPeakBytes - d->allocatedPeakBytes;
    c.peakIsLowerBound = d->peakIsLowerBound;
    c.peakNote = d->peakNote;
    const auto row = [](const char* figure, std::int64_t predicted, std::int64_t measured) {
        MemoryCheckRow r;
        r.figure = figure;
        r.predictedBytes = predicted;
        r.measuredBytes = measured;
        r.differenceBytes = predicted - measured;
        r.differencePercent = measured != 0 ? double(r.differenceBytes) / double(measured) * 100.0
                                            : std::numeric_limits<double>::quiet_NaN();
        return r;
    };
    c.rows = { row("allocated", s.allocatedBytes, c.allocatedPeakBytes),
        row("reserved", s.reservedBytes, c.reservedPeakBytes),
        row("fragmentation", s.buffers.fragmentationBytes, c.fragmentationBytes),
        row("total", s.totalBytes, c.reservedPeakBytes) };
    return c;
}

} // namespace planscope
