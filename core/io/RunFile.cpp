#include "io/RunFile.h"

#include "io/FileKind.h"
#include "trace/TraceFiles.h"
#include "util/InputFile.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

namespace planscope {

using nlohmann::json;

namespace {

// A field that is not what the format says: thrown inside this file only, caught where a line is read and turned
// into an Issue naming the line and the field.
struct FieldError {
    std::string path;
    std::string message;
};

std::string at(const std::string& path, std::string_view key) { return path.empty() ? std::string(key) : path + "." + std::string(key); }

const json& field(const json& o, const std::string& path, const char* key)
{
    if (!o.is_object()) throw FieldError { path, "must be an object" };
    auto it = o.find(key);
    if (it == o.end()) throw FieldError { at(path, key), "is missing" };
    return *it;
}

std::int64_t intOf(const json& v, const std::string& path)
{
    if (!v.is_number_integer()) throw FieldError { path, std::string("must be an integer, not ") + v.type_name() };
    return v.get<std::int64_t>();
}
std::int64_t intField(const json& o, const std::string& path, const char* key) { return intOf(field(o, path, key), at(path, key)); }
int smallInt(const json& o, const std::string& path, const char* key)
{
    const std::int64_t v = intField(o, path, key);
    if (v < -1 || v > (std::int64_t(1) << 30)) throw FieldError { at(path, key), "is out of range" };
    return int(v);
}
std::string stringField(const json& o, const std::string& path, const char* key)
{
    const json& v = field(o, path, key);
    if (!v.is_string()) throw FieldError { at(path, key), std::string("must be a string, not ") + v.type_name() };
    return v.get<std::string>();
}
bool boolField(const json& o, const std::string& path, const char* key)
{
    const json& v = field(o, path, key);
    if (!v.is_boolean()) throw FieldError { at(path, key), std::string("must be true or false, not ") + v.type_name() };
    return v.get<bool>();
}
const json& arrayField(const json& o, const std::string& path, const char* key)
{
    const json& v = field(o, path, key);
    if (!v.is_array()) throw FieldError { at(path, key), std::string("must be an array, not ") + v.type_name() };
    return v;
}
CollectiveKind opOf(const json& v, const std::string& path)
{
    if (!v.is_string()) throw FieldError { path, "must be a collective name" };
    const CollectiveKind k = collectiveKindFromString(v.get<std::string>());
    if (k == CollectiveKind::None) throw FieldError { path, "\"" + v.get<std::string>() + "\" is no collective PlanScope knows" };
    return k;
}
std::string opName(CollectiveKind k) { return std::string(toString(k)); }

json toJson(const RankGroup& g)
{
    // Times relative to the first record's start: a few digits where epoch nanoseconds take nineteen.
    const std::int64_t base = g.records.empty() ? 0 : g.records.front().startNs;
    json records = json::array();
    for (const CollectiveRecord& r : g.records)
        records.push_back(json::array({ r.stepNumber, r.seq, opName(r.op), r.startNs - base, r.endNs - r.startNs, r.bytes }));
    return json { { "key", g.key }, { "name", g.name }, { "desc", g.desc }, { "size", g.size }, { "ranks", g.ranks }, { "baseNs", base },
        { "records", std::move(records) } };
}

RankGroup groupFromJson(const json& o, const std::string& path)
{
    RankGroup g;
    g.key = stringField(o, path, "key");
    g.name = stringField(o, path, "name");
    g.desc = stringField(o, path, "desc");
    g.size = smallInt(o, path, "size");
    const json& ranks = arrayField(o, path, "ranks");
    for (std::size_t i = 0; i < ranks.size(); ++i) g.ranks.push_back(int(intOf(ranks[i], at(path, "ranks." + std::to_string(i)))));
    const std::int64_t base = intField(o, path, "baseNs");
    const json& records = arrayField(o, path, "records");
    const std::string rp = at(path, "records");
    for (std::size_t i = 0; i < records.size(); ++i) {
        const std::string p = rp + "." + std::to_string(i);
        const json& a = records[i];
        if (!a.is_array() || a.size() != 6) throw FieldError { p, "must be [stepNumber, seq, op, start - baseNs, duration, bytes]" };
        CollectiveRecord r;
        r.stepNumber = intOf(a[0], p + ".0");
        r.seq = std::int32_t(intOf(a[1], p + ".1"));
        r.op = opOf(a[2], p + ".2");
        r.startNs = base + intOf(a[3], p + ".3");
        const std::int64_t duration = intOf(a[4], p + ".4");
        if (duration < 0) throw FieldError { p + ".4", "a duration cannot be negative" };
        r.endNs = r.startNs + duration;
        r.bytes = intOf(a[5], p + ".5");
        g.records.push_back(r);
    }
    return g;
}

json toJson(const RankSummary& s, bool withGroups)
{
    json steps = json::array();
    for (const RankStep& st : s.steps)
        steps.push_back({ { "number", st.number }, { "startNs", st.startNs }, { "durNs", st.durNs }, { "computeNs", st.computeNs },
            { "commNs", st.commNs }, { "overlapNs", st.overlapNs }, { "idleNs", st.idleNs }, { "kernels", st.kernels } });
    json kernels = json::array();
    for (const RankKernel& k : s.topKernels)
        kernels.push_back({ { "name", k.name }, { "count", k.count }, { "totalNs", k.totalNs }, { "collective", opName(k.collective) } });
    json memory = json::array();
    for (const RankMemory& m : s.memory)
        memory.push_back({ { "deviceType", m.deviceType }, { "deviceId", m.deviceId }, { "peakAllocatedBytes", m.peakAllocatedBytes },
            { "peakReservedBytes", m.peakReservedBytes } });
    json actions = json::array();
    for (const RankAction& a : s.actions) actions.push_back(json::array({ a.stage, a.kind, a.microbatch, a.startNs, a.durNs }));
    json o = { { "rank", s.rank }, { "worldSize", s.worldSize }, { "file", s.file }, { "fileBytes", s.fileBytes }, { "device", s.device },
        { "localDevice", s.localDevice }, { "damaged", s.damaged }, { "events", s.events }, { "kernels", s.kernels },
        { "ncclKernels", s.ncclKernels }, { "startNs", s.startNs }, { "endNs", s.endNs }, { "computeNs", s.computeNs },
        { "commNs", s.commNs }, { "overlapNs", s.overlapNs }, { "idleNs", s.idleNs }, { "steps", std::move(steps) },
        { "topKernels", std::move(kernels) }, { "memory", std::move(memory) }, { "actions", std::move(actions) },
        { "actionsLeftOut", s.actionsLeftOut }, { "recordsLeftOut", s.recordsLeftOut } };
    if (withGroups) {
        json groups = json::array();
        for (const RankGroup& g : s.groups) groups.push_back(toJson(g));
        o["groups"] = std::move(groups);
    }
    return o;
}

RankSummary summaryFromJson(const json& o, const std::string& path)
{
    RankSummary s;
    s.rank = smallInt(o, path, "rank");
    s.worldSize = smallInt(o, path, "worldSize");
    s.file = stringField(o, path, "file");
    s.fileBytes = intField(o, path, "fileBytes");
    s.device = stringField(o, path, "device");
    s.localDevice = smallInt(o, path, "localDevice");
    s.damaged = stringField(o, path, "damaged");
    s.events = intField(o, path, "events");
    s.kernels = intField(o, path, "kernels");
    s.ncclKernels = intField(o, path, "ncclKernels");
    s.startNs = intField(o, path, "startNs");
    s.endNs = intField(o, path, "endNs");
    s.computeNs = intField(o, path, "computeNs");
    s.commNs = intField(o, path, "commNs");
    s.overlapNs = intField(o, path, "overlapNs");
    s.idleNs = intField(o, path, "idleNs");
    const json& steps = arrayField(o, path, "steps");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string p = at(path, "steps." + std::to_string(i));
        const json& v = steps[i];
        s.steps.push_back(RankStep { intField(v, p, "number"), intField(v, p, "startNs"), intField(v, p, "durNs"),
            intField(v, p, "computeNs"), intField(v, p, "commNs"), intField(v, p, "overlapNs"), intField(v, p, "idleNs"),
            intField(v, p, "kernels") });
    }
    const json& kernels = arrayField(o, path, "topKernels");
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const std::string p = at(path, "topKernels." + std::to_string(i));
        const json& v = kernels[i];
        RankKernel k { stringField(v, p, "name"), intField(v, p, "count"), intField(v, p, "totalNs"), CollectiveKind::None };
        const json& c = field(v, p, "collective");
        if (!(c.is_string() && c.get<std::string>().empty())) k.collective = opOf(c, at(p, "collective"));
        s.topKernels.push_back(std::move(k));
    }
    const json& memory = arrayField(o, path, "memory");
    for (std::size_t i = 0; i < memory.size(); ++i) {
        const std::string p = at(path, "memory." + std::to_string(i));
        const json& v = memory[i];
        s.memory.push_back(RankMemory { smallInt(v, p, "deviceType"), smallInt(v, p, "deviceId"), intField(v, p, "peakAllocatedBytes"),
            intField(v, p, "peakReservedBytes") });
    }
    const json& actions = arrayField(o, path, "actions");
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const std::string p = at(path, "actions." + std::to_string(i));
        const json& a = actions[i];
        if (!a.is_array() || a.size() != 5 || !a[1].is_string()) throw FieldError { p, "must be [stage, kind, microbatch, startNs, durNs]" };
        s.actions.push_back(RankAction { int(intOf(a[0], p + ".0")), a[1].get<std::string>(), int(intOf(a[2], p + ".2")),
            intOf(a[3], p + ".3"), intOf(a[4], p + ".4") });
    }
    s.actionsLeftOut = intField(o, path, "actionsLeftOut");
    s.recordsLeftOut = intField(o, path, "recordsLeftOut");
    if (o.contains("groups")) {
        const json& groups = arrayField(o, path, "groups");
        for (std::size_t i = 0; i < groups.size(); ++i) s.groups.push_back(groupFromJson(groups[i], at(path, "groups." + std::to_string(i))));
    }
    return s;
}

json toJson(const GroupResult& g, int gpusPerNode)
{
    json ops = json::array();
    for (const GroupOpStat& op : g.ops)
        ops.push_back({ { "op", opName(op.op) }, { "instances", op.instances }, { "medianBytes", op.medianBytes },
            { "medianDurNs", op.medianDurNs }, { "medianSpreadNs", op.medianSpreadNs }, { "maxSpreadNs", op.maxSpreadNs } });
    json members = json::array();
    for (const MemberStat& m : g.members)
        members.push_back(json::array({ m.rank, m.matched, m.waitNs, m.lastArrivals, m.medianSkewNs, m.maxSkewNs }));
    json a2a = json::array();
    for (const AllToAllImbalance& a : g.allToAll)
        a2a.push_back({ { "position", a.position }, { "instances", a.instances }, { "medianPermille", a.medianPermille },
            { "worstPermille", a.worstPermille }, { "heaviestRank", a.heaviestRank } });
    json o = { { "type", "group" }, { "key", g.key }, { "name", g.name }, { "desc", g.desc }, { "size", g.size },
        { "unmatched", g.unmatched }, { "ops", std::move(ops) }, { "members", std::move(members) }, { "straggler", g.straggler },
        { "allToAll", std::move(a2a) } };
    if (gpusPerNode >= 0) o["scope"] = groupScope(g, gpusPerNode);
    return o;
}

GroupResult groupResultFromJson(const json& o, const std::string& path)
{
    GroupResult g;
    g.key = stringField(o, path, "key");
    g.name = stringField(o, path, "name");
    g.desc = stringField(o, path, "desc");
    g.size = smallInt(o, path, "size");
    g.unmatched = intField(o, path, "unmatched");
    const json& ops = arrayField(o, path, "ops");
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::string p = at(path, "ops." + std::to_string(i));
        const json& v = ops[i];
        g.ops.push_back(GroupOpStat { opOf(field(v, p, "op"), at(p, "op")), intField(v, p, "instances"), intField(v, p, "medianBytes"),
            intField(v, p, "medianDurNs"), intField(v, p, "medianSpreadNs"), intField(v, p, "maxSpreadNs") });
    }
    const json& members = arrayField(o, path, "members");
    for (std::size_t i = 0; i < members.size(); ++i) {
        const std::string p = at(path, "members." + std::to_string(i));
        const json& a = members[i];
        if (!a.is_array() || a.size() != 6) throw FieldError { p, "must be [rank, matched, waitNs, lastArrivals, medianSkewNs, maxSkewNs]" };
        MemberStat m { int(intOf(a[0], p + ".0")), intOf(a[1], p + ".1"), intOf(a[2], p + ".2"), intOf(a[3], p + ".3"),
            intOf(a[4], p + ".4"), intOf(a[5], p + ".5") };
        if (!g.ranks.empty() && m.rank <= g.ranks.back()) throw FieldError { p + ".0", "members must be in rank order" };
        g.ranks.push_back(m.rank);
        g.members.push_back(m);
    }
    g.straggler = smallInt(o, path, "straggler");
    const json& a2a = arrayField(o, path, "allToAll");
    for (std::size_t i = 0; i < a2a.size(); ++i) {
        const std::string p = at(path, "allToAll." + std::to_string(i));
        const json& v = a2a[i];
        g.allToAll.push_back(AllToAllImbalance { std::int32_t(intField(v, p, "position")), intField(v, p, "instances"),
            intField(v, p, "medianPermille"), intField(v, p, "worstPermille"), smallInt(v, p, "heaviestRank") });
    }
    return g;
}

json toJson(const RunIssue& i) { return { { "file", i.file }, { "rank", i.rank }, { "reason", i.reason } }; }
RunIssue issueFromJson(const json& o, const std::string& path)
{
    return RunIssue { stringField(o, path, "file"), smallInt(o, path, "rank"), stringField(o, path, "reason") };
}
std::vector<RunIssue> issuesFromJson(const json& o, const std::string& path, const char* key)
{
    std::vector<RunIssue> out;
    const json& a = arrayField(o, path, key);
    for (std::size_t i = 0; i < a.size(); ++i) out.push_back(issueFromJson(a[i], at(path, std::string(key) + "." + std::to_string(i))));
    return out;
}
json issuesToJson(const std::vector<RunIssue>& v)
{
    json a = json::array();
    for (const RunIssue& i : v) a.push_back(toJson(i));
    return a;
}

// The lines of a text, each with its number from 1; a last line without a newline counts, an empty last one does not.
template<typename F>
void forEachLine(std::string_view text, F&& f)
{
    std::size_t line = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view l = text.substr(pos, end - pos);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        f(++line, l, pos);
        pos = end + 1;
    }
}

json parseLine(std::string_view line, std::size_t lineNumber, std::size_t lineOffset)
{
    try {
        json v = json::parse(line);
        if (!v.is_object()) throw FieldError { "", "must be a JSON object" };
        return v;
    } catch (const json::parse_error& e) {
        throw FieldError { "", "is not JSON (byte " + std::to_string(lineOffset + (e.byte > 0 ? e.byte - 1 : 0)) + " of the file, line "
            + std::to_string(lineNumber) + ")" };
    }
}

template<typename T, typename F>
Result<T> readingLine(std::size_t line, F&& f)
{
    try {
        return f();
    } catch (const FieldError& e) {
        const std::string where = "line " + std::to_string(line) + (e.path.empty() ? "" : ": " + e.path);
        return Result<T>::failure(where, e.message);
    } catch (const json::exception& e) {
        return Result<T>::failure("line " + std::to_string(line), std::string("cannot be read: ") + e.what());
    }
}

template<typename T, typename F>
Result<T> parseOneLine(std::string_view line, F&& f)
{
    return readingLine<T>(1, [&] { return f(parseLine(line, 1, 0)); });
}

std::string dumpLine(const json& v) { return v.dump(-1, ' ', false, json::error_handler_t::replace); }

// A header line with "format" first, whatever the other keys (which are sorted): a reader that looks at a file's first
// bytes (io/FileKind.h) finds it there even when the lists of files that follow it are long.
std::string headerLine(std::string_view format, const json& rest)
{
    const std::string tail = dumpLine(rest);
    return "{\"format\":\"" + std::string(format) + "\"" + (tail.size() > 2 ? "," + tail.substr(1) : std::string("}")) + "\n";
}

} // namespace

std::vector<std::string> reduceInputs(const std::vector<std::string>& paths, std::vector<RunIssue>& issues)
{
    std::vector<SkippedRegion> skipped;
    std::vector<std::string> files = expandTracePaths(paths, skipped);
    for (const SkippedRegion& s : skipped) issues.push_back(RunIssue { s.file, -1, s.reason.english() });
    return files;
}

ReducedFile reduceFile(const std::string& path, const std::atomic<bool>* cancel)
{
    ReducedFile out;
    out.file = path;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    out.bytes = ec ? 0 : std::int64_t(size);
    ImportControl control;
    control.cancel = cancel;
    Result<MeasuredRank> r = importKinetoTrace(path, control);
    if (!r.ok()) {
        const Issue& e = r.errors().front();
        out.error = (e.offset >= 0 ? "byte " + std::to_string(e.offset) + ": " : std::string()) + e.message;
        return out;
    }
    out.summary = summarizeRank(r.value(), out.bytes);
    out.summary->file = path;
    return out;
}

std::vector<ReducedFile> reduceFiles(const std::vector<std::string>& files, const ReduceControl& control)
{
    std::vector<ReducedFile> out(files.size());
    std::atomic<std::size_t> next { 0 }, done { 0 };
    std::mutex progressMutex;
    auto work = [&] {
        for (std::size_t i; (i = next++) < files.size();) {
            if (control.cancel && control.cancel->load()) return;
            out[i] = reduceFile(files[i], control.cancel);
            const std::size_t d = ++done;
            if (control.progress) {
                std::lock_guard lock(progressMutex);
                control.progress(d, files.size(), files[i]);
            }
        }
    };
    const unsigned threads = std::max(1u, std::min<unsigned>(control.threads, unsigned(std::max<std::size_t>(files.size(), 1))));
    if (threads == 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
        for (std::thread& t : pool) t.join();
    }
    if (control.cancel && control.cancel->load()) {
        std::size_t kept = 0;
        while (kept < out.size() && (out[kept].summary || !out[kept].error.empty())) ++kept;
        out.resize(kept);
    }
    return out;
}

std::string shardText(const RunShard& shard)
{
    std::string text = headerLine(kRunShardFormat, json { { "shard", shard.shard }, { "shards", shard.shards }, { "files", shard.files },
                                                       { "inputIssues", issuesToJson(shard.inputIssues) } });
    for (const ReducedFile& f : shard.reduced) {
        json line = f.summary ? json { { "type", "rank" }, { "bytes", f.bytes }, { "summary", toJson(*f.summary, true) } }
                              : json { { "type", "failed" }, { "file", f.file }, { "bytes", f.bytes }, { "error", f.error } };
        text += dumpLine(line) + "\n";
    }
    return text;
}

Result<RunShard> parseShard(std::string_view text)
{
    RunShard shard;
    Issues errors;
    bool header = false;
    forEachLine(text, [&](std::size_t line, std::string_view l, std::size_t offset) {
        if (!errors.empty() || l.empty()) return;
        Result<bool> r = readingLine<bool>(line, [&] {
            const json o = parseLine(l, line, offset);
            if (!header) {
                if (!o.contains("format") || o["format"] != kRunShardFormat)
                    throw FieldError { "format", "must be \"" + std::string(kRunShardFormat) + "\": this is no PlanScope reduce shard" };
                shard.shard = smallInt(o, "", "shard");
                shard.shards = smallInt(o, "", "shards");
                if (shard.shards < 1 || shard.shard < 0 || shard.shard >= shard.shards)
                    throw FieldError { "shard", "must be 0 to shards - 1 with shards at least 1" };
                shard.files = intField(o, "", "files");
                shard.inputIssues = issuesFromJson(o, "", "inputIssues");
                header = true;
                return true;
            }
            const std::string type = stringField(o, "", "type");
            ReducedFile f;
            f.bytes = intField(o, "", "bytes");
            if (type == "rank") {
                f.summary = summaryFromJson(field(o, "", "summary"), "summary");
                f.file = f.summary->file;
            } else if (type == "failed") {
                f.file = stringField(o, "", "file");
                f.error = stringField(o, "", "error");
            } else {
                throw FieldError { "type", "must be \"rank\" or \"failed\", not \"" + type + "\"" };
            }
            shard.reduced.push_back(std::move(f));
            return true;
        });
        if (!r.ok()) errors = r.errors();
    });
    if (!errors.empty()) return errors;
    if (!header) return Result<RunShard>::failure("line 1", "is empty: a shard file starts with its header line");
    return shard;
}

MeasuredRun runFromReduced(std::vector<ReducedFile> reduced, std::vector<RunIssue> inputIssues, std::int64_t files, int gpusPerNode)
{
    std::vector<RankSummary> summaries;
    std::int64_t bytes = 0;
    for (ReducedFile& f : reduced) {
        bytes += f.bytes;
        if (f.summary) summaries.push_back(std::move(*f.summary));
        else inputIssues.push_back(RunIssue { f.file, -1, f.error });
    }
    return assembleRun(std::move(summaries), std::move(inputIssues), files, bytes, gpusPerNode);
}

Result<MeasuredRun> mergeShards(std::vector<RunShard> shards, int gpusPerNode)
{
    if (shards.empty()) return Result<MeasuredRun>::failure("", "no shard to merge");
    const int n = shards.front().shards;
    std::vector<const RunShard*> byIndex(std::size_t(std::max(n, 0)), nullptr);
    for (const RunShard& s : shards) {
        if (s.shards != n || s.files != shards.front().files)
            return Result<MeasuredRun>::failure("shards", "shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards) + " is of another reduce ("
                    + std::to_string(s.files) + " files) than shard " + std::to_string(shards.front().shard) + "/" + std::to_string(n) + " ("
                    + std::to_string(shards.front().files) + " files)");
        if (byIndex[std::size_t(s.shard)])
            return Result<MeasuredRun>::failure("shards", "shard " + std::to_string(s.shard) + "/" + std::to_string(n) + " is given twice");
        byIndex[std::size_t(s.shard)] = &s;
    }
    std::string missing;
    for (int i = 0; i < n; ++i)
        if (!byIndex[std::size_t(i)]) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    if (!missing.empty()) return Result<MeasuredRun>::failure("shards", "shards " + missing + " of " + std::to_string(n) + " are missing");
    std::vector<ReducedFile> reduced;
    std::vector<RunIssue> issues;
    std::int64_t count = 0;
    for (const RunShard* s : byIndex) {
        issues.insert(issues.end(), s->inputIssues.begin(), s->inputIssues.end());
        count += std::int64_t(s->reduced.size());
        for (const ReducedFile& f : s->reduced) reduced.push_back(f);
    }
    if (count != shards.front().files)
        return Result<MeasuredRun>::failure("shards", "the shards hold " + std::to_string(count) + " files, the reduce had "
                + std::to_string(shards.front().files) + " (a shard was cancelled or cut)");
    return runFromReduced(std::move(reduced), std::move(issues), shards.front().files, gpusPerNode);
}

std::string rankSummaryLine(const RankSummary& s, bool withGroups) { return dumpLine(toJson(s, withGroups)); }
Result<RankSummary> parseRankSummaryLine(std::string_view line)
{
    return parseOneLine<RankSummary>(line, [](const json& o) { return summaryFromJson(o, ""); });
}
std::string groupResultLine(const GroupResult& g) { return dumpLine(toJson(g, -1)); }
Result<GroupResult> parseGroupResultLine(std::string_view line)
{
    return parseOneLine<GroupResult>(line, [](const json& o) { return groupResultFromJson(o, ""); });
}
std::string groupChunkLine(int rank, const RankGroup& g) { return dumpLine(json { { "rank", rank }, { "group", toJson(g) } }); }
Result<std::pair<int, RankGroup>> parseGroupChunkLine(std::string_view line)
{
    return parseOneLine<std::pair<int, RankGroup>>(line, [](const json& o) {
        return std::pair<int, RankGroup>(smallInt(o, "", "rank"), groupFromJson(field(o, "", "group"), "group"));
    });
}
std::string runIssueLine(const RunIssue& i) { return dumpLine(toJson(i)); }
Result<RunIssue> parseRunIssueLine(std::string_view line)
{
    return parseOneLine<RunIssue>(line, [](const json& o) { return issueFromJson(o, ""); });
}

std::string runText(const MeasuredRun& run)
{
    std::string text = headerLine(kRunFormat, json { { "worldSize", run.worldSize }, { "ranks", run.ranks.size() }, { "groups", run.groups.size() },
                                                  { "gpusPerNode", run.gpusPerNode }, { "gpusPerNodeInferred", run.gpusPerNodeInferred },
                                                  { "files", run.files }, { "bytesRead", run.bytesRead },
                                                  { "failed", issuesToJson(run.failed) }, { "excluded", issuesToJson(run.excluded) } });
    const std::vector<RunRankMetrics> metrics = rankMetrics(run);
    for (std::size_t i = 0; i < run.ranks.size(); ++i) {
        json o = toJson(run.ranks[i], false);
        const RunRankMetrics& m = metrics[i];
        o["type"] = "rank";
        o["node"] = m.node;
        o["collectives"] = { { "matched", m.matched }, { "waitNs", m.waitNs }, { "lastArrivals", m.lastArrivals }, { "lagNs", m.lagNs } };
        text += dumpLine(o) + "\n";
    }
    for (const GroupResult& g : run.groups) text += dumpLine(toJson(g, run.gpusPerNode)) + "\n";
    return text;
}

Result<MeasuredRun> parseRun(std::string_view text)
{
    MeasuredRun run;
    Issues errors;
    bool header = false, shard = false;
    std::int64_t ranks = 0, groups = 0;
    std::string shardTextCopy;
    forEachLine(text, [&](std::size_t line, std::string_view l, std::size_t offset) {
        if (!errors.empty() || shard || l.empty()) return;
        Result<bool> r = readingLine<bool>(line, [&] {
            if (!header && !l.starts_with("{\"format\":"))
                throw FieldError { "format", "this is no PlanScope run summary: its first line would be the header {\"format\":\""
                        + std::string(kRunFormat) + "\", ...} (planscope-cli reduce writes one)" };
            const json o = parseLine(l, line, offset);
            if (!header) {
                if (o.contains("format") && o["format"] == kRunShardFormat) {
                    shard = true;
                    return true;
                }
                if (!o.contains("format") || o["format"] != kRunFormat)
                    throw FieldError { "format", "must be \"" + std::string(kRunFormat) + "\": this is no PlanScope run summary" };
                run.worldSize = smallInt(o, "", "worldSize");
                ranks = intField(o, "", "ranks");
                groups = intField(o, "", "groups");
                run.gpusPerNode = smallInt(o, "", "gpusPerNode");
                run.gpusPerNodeInferred = boolField(o, "", "gpusPerNodeInferred");
                run.files = intField(o, "", "files");
                run.bytesRead = intField(o, "", "bytesRead");
                run.failed = issuesFromJson(o, "", "failed");
                run.excluded = issuesFromJson(o, "", "excluded");
                header = true;
                return true;
            }
            const std::string type = stringField(o, "", "type");
            if (type == "rank") {
                if (!run.groups.empty()) throw FieldError { "type", "rank lines come before group lines" };
                RankSummary s = summaryFromJson(o, "");
                if (!run.ranks.empty() && s.rank <= run.ranks.back().rank) throw FieldError { "rank", "ranks must be in ascending order" };
                run.ranks.push_back(std::move(s));
            } else if (type == "group") {
                GroupResult g = groupResultFromJson(o, "");
                if (!run.groups.empty() && g.key <= run.groups.back().key) throw FieldError { "key", "groups must be in key order" };
                run.groups.push_back(std::move(g));
            } else {
                throw FieldError { "type", "must be \"rank\" or \"group\", not \"" + type + "\"" };
            }
            return true;
        });
        if (!r.ok()) errors = r.errors();
    });
    if (!errors.empty()) return errors;
    if (shard) {
        Result<RunShard> s = parseShard(text);
        if (!s.ok()) return s.errors();
        if (s->shards != 1)
            return Result<MeasuredRun>::failure("shard", "this is shard " + std::to_string(s->shard) + " of " + std::to_string(s->shards)
                    + ": merge the shards first (planscope-cli reduce --merge)");
        std::vector<RunShard> one { std::move(s).value() };
        return mergeShards(std::move(one), 0);
    }
    if (!header) return Result<MeasuredRun>::failure("line 1", "is empty: a run summary starts with its header line");
    if (std::int64_t(run.ranks.size()) != ranks || std::int64_t(run.groups.size()) != groups)
        return Result<MeasuredRun>::failure("ranks", "the header promises " + std::to_string(ranks) + " ranks and " + std::to_string(groups)
                + " groups, the file has " + std::to_string(run.ranks.size()) + " and " + std::to_string(run.groups.size())
                + " (it was cut short)");
    return run;
}

Result<std::string> readRunText(const std::string& path)
{
    Result<InputFile> file = openInputFile(path);
    if (!file.ok()) return file.errors();
    if (file.value().size() > kMaxRunFileBytes)
        return Result<std::string>::failure(path, "is " + std::to_string(file.value().size()) + " bytes, more than the "
                + std::to_string(kMaxRunFileBytes >> 30) + " GiB a run summary may have; not read");
    std::string text;
    text.reserve(std::size_t(std::max<std::int64_t>(file.value().size(), 0)));
    char buffer[1 << 16];
    for (std::int64_t n; (n = file.value().read(buffer, sizeof buffer)) != 0;) {
        if (n < 0) return Result<std::string>::failure(path, "cannot be read: " + errorText(errno));
        if (std::int64_t(text.size()) + n > kMaxRunFileBytes)
            return Result<std::string>::failure(path, "grew past the " + std::to_string(kMaxRunFileBytes >> 30) + " GiB a run summary may have; not read");
        text.append(buffer, std::size_t(n));
    }
    return text;
}

Result<MeasuredRun> readRunFile(const std::string& path)
{
    Result<std::string> text = readRunText(path);
    if (!text.ok()) return text.errors();
    Result<MeasuredRun> run = parseRun(text.value());
    if (run.ok()) return run;
    Issues errors = run.errors();
    for (Issue& e : errors) e.path = path + ": " + e.path;
    return errors;
}

Result<MeasuredRun> loadRun(const std::string& path, const ReduceControl& control)
{
    if (fileKindOf(path) != FileKind::Trace) return readRunFile(path);
    std::vector<RunIssue> issues;
    const std::vector<std::string> files = reduceInputs({ path }, issues);
    return runFromReduced(reduceFiles(files, control), std::move(issues), std::int64_t(files.size()), 0);
}

} // namespace planscope
