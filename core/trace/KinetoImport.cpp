// Kineto import (KinetoImport.h): a streaming JSON scanner written for this one format.
//
// The input (a plain or gzip file, or text in memory) is read in 1 MiB chunks into a buffer followed by NUL
// padding. NUL is invalid everywhere in JSON, so the scanning loops test no bounds: every byte they do not
// expect goes to one cold path, unexpected(), which tells the end of the buffer (read more) from a bad byte
// (an error at its offset). Parsing proceeds in units that can be restarted: the opening brace, one top-level
// member, one entry of traceEvents, one separator. A unit only reads the buffer and commits its effects once
// it is complete, so when it runs into the end of the buffer, the unread tail (from the unit's start) moves
// to the front, the next chunk is appended and the unit is parsed again.
//
// Everything read is validated (strings with their escapes and UTF-8, numbers, literals, nesting), but values
// that are not kept are only skipped, strings are decoded only where they contain escapes and are kept, and
// kept strings are interned.
#include "KinetoImport.h"

#include "Intervals.h"
#include "util/InputFile.h"

#include <algorithm>
#include <memory>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>
#include <unordered_set>
#include <unistd.h>
#include <utility>
#include <zlib.h>

namespace planscope {

namespace {

// The start of the launch (cuda_runtime/cuda_driver) with the event's correlation; the event's own start when it has
// none. `launches` is (correlation, start), sorted by correlation.
std::int64_t launchOf(const std::vector<std::pair<std::int64_t, std::int64_t>>& launches, const MeasuredEvent& e)
{
    if (e.correlation < 0) return e.startNs;
    const auto l = std::lower_bound(launches.begin(), launches.end(), std::pair<std::int64_t, std::int64_t>(e.correlation, 0),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    return l != launches.end() && l->first == e.correlation ? l->second : e.startNs;
}

constexpr std::size_t kChunk = std::size_t(1) << 20;
constexpr std::size_t kCarry = std::size_t(64) << 10; // room for a unit carried over to the next chunk
constexpr std::size_t kPadding = 64; // NUL bytes after the data: the end sentinel, and room for word loads
constexpr std::int64_t kReportEvery = std::int64_t(8) << 20; // progress and cancellation, in bytes read

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// s == lit with the length known at compile time: a few inline loads rather than a call to memcmp.
template<std::size_t N>
inline bool is(std::string_view s, const char (&lit)[N])
{
    return s.size() == N - 1 && std::memcmp(s.data(), lit, N - 1) == 0;
}

// Where the bytes come from: a plain file, a gzip file (zlib) or text in memory.
class Input {
public:
    Input() = default;
    Input(const Input&) = delete;
    Input& operator=(const Input&) = delete;
    ~Input()
    {
        if (m_gz) gzclose(m_gz);
        if (m_file) std::fclose(m_file);
    }

    // Opens `path`: gzip when it starts with the gzip magic bytes, else plain text. Returns why it cannot. Only a
    // regular file is opened, without waiting (util/InputFile.h): a FIFO or a device is refused by its type.
    std::optional<Text> open(const std::string& path)
    {
        auto file = openInputFile(path);
        if (!file) return issueText(file.errors().front());
        m_diskSize = file->size();
        unsigned char magic[2] = { 0, 0 };
        const bool gzip = ::pread(file->fd(), magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        const int fd = file.value().release();
        if (!gzip) {
            m_file = ::fdopen(fd, "rb");
            if (m_file) return std::nullopt;
            const int error = errno;
            ::close(fd);
            return Text(PS_TEXT("CoreText", "cannot open file: %1"), errorText(error));
        }
        // zlib names a descriptor "<fd:N>" in its messages (gzlib.c, gzdopen); read() strips that prefix.
        m_path = "<fd:" + std::to_string(fd) + ">";
        m_gz = gzdopen(fd, "rb");
        if (!m_gz) {
            ::close(fd);
            return Text(PS_TEXT("CoreText", "cannot open gzip file"));
        }
        gzbuffer(m_gz, unsigned(std::clamp<std::int64_t>(m_diskSize, 8192, 1 << 18))); // zlib's buffers, for a small file small
        return std::nullopt;
    }
    void openText(std::string_view text)
    {
        m_text = text;
        m_diskSize = std::int64_t(text.size());
    }

    // Up to n bytes into dst; 0 at the end of the input or on a read error (then error() says which).
    std::size_t read(char* dst, std::size_t n)
    {
        if (m_gz) {
            const int got = gzread(m_gz, dst, unsigned(n));
            if (got > 0) return std::size_t(got);
            int errnum = Z_OK;
            const char* msg = gzerror(m_gz, &errnum);
            if (errnum != Z_OK) {
                std::string_view what = msg ? msg : "";
                if (startsWith(what, m_path + ": ")) what.remove_prefix(m_path.size() + 2); // zlib's prefix
                // zlib's own words stay as they are; without any, a read error.
                m_error = msg && *msg
                    ? Text(PS_TEXT("CoreText", "gzip: %1"), what)
                    : Text(PS_TEXT("CoreText", "gzip: %1"), Text(PS_TEXT("CoreText", "read error")));
            }
            return 0;
        }
        if (m_file) {
            const std::size_t got = std::fread(dst, 1, n, m_file);
            if (got == 0 && std::ferror(m_file)) m_error = Text(PS_TEXT("CoreText", "read error"));
            m_diskRead += std::int64_t(got);
            return got;
        }
        const std::size_t got = std::min(n, m_text.size() - m_textPos);
        std::memcpy(dst, m_text.data() + m_textPos, got);
        m_textPos += got;
        return got;
    }
    std::int64_t diskRead() const
    {
        if (m_gz) return std::int64_t(gzoffset(m_gz));
        return m_file ? m_diskRead : std::int64_t(m_textPos);
    }
    std::int64_t diskSize() const { return m_diskSize; }
    // How much to read at a time: a chunk, or less for a small input (its size; a gzip file's times 8, about
    // JSON's compression ratio), so that the many small traces of a run, and a fuzzer's inputs, cost no megabyte
    // buffer each. The scanner grows its buffer when a unit is longer.
    std::size_t chunkSize() const
    {
        if (m_diskSize <= 0) return kChunk;
        const std::int64_t expected = m_gz ? m_diskSize * 8 : m_diskSize;
        return std::size_t(std::clamp<std::int64_t>(expected + 1, 4096, std::int64_t(kChunk)));
    }
    const Text& error() const { return m_error; }

private:
    std::FILE* m_file = nullptr;
    gzFile m_gz = nullptr;
    std::string m_path;
    std::string_view m_text;
    std::size_t m_textPos = 0;
    std::int64_t m_diskRead = 0;
    std::int64_t m_diskSize = 0;
    Text m_error;
};

// Thrown when a unit runs into the end of the buffer and more input may follow.
struct NeedMore { };
// Thrown where the import stops for good.
struct Stop {
    std::int64_t offset = 0;
    Text reason;
    bool cancelled = false;
};

// Word-at-a-time byte classes; the lowest flagged byte is always a true match (borrows only run upwards).
constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHigh = 0x8080808080808080ull;
inline std::uint64_t zeroBytes(std::uint64_t x) { return (x - kOnes) & ~x & kHigh; }
// Bytes a string scan must stop at: '"', '\\', control characters (< 0x20) and non-ASCII (>= 0x80).
inline std::uint64_t stringStops(std::uint64_t w)
{
    return zeroBytes(w ^ (kOnes * '"')) | zeroBytes(w ^ (kOnes * '\\')) | (((w - kOnes * 0x20) | w) & kHigh);
}
inline std::size_t firstFlagged(std::uint64_t mask, const char* bytes)
{
    if constexpr (std::endian::native == std::endian::little) {
        return std::size_t(std::countr_zero(mask)) / 8;
    } else {
        // Big-endian: borrows run towards earlier bytes, so look for the first stop byte itself.
        std::size_t i = 0;
        for (; i < 8; ++i) {
            const auto c = static_cast<unsigned char>(bytes[i]);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        }
        return i;
    }
}

constexpr std::array<bool, 256> kWhitespace = [] {
    std::array<bool, 256> t {};
    t[' '] = t['\n'] = t['\r'] = t['\t'] = true;
    return t;
}();
inline const char* ws(const char* p)
{
    while (kWhitespace[static_cast<unsigned char>(*p)]) ++p;
    return p;
}
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline int hexValue(char c) { return isDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

// A scanned string: its raw text between the quotes, and whether that holds escapes.
struct Str {
    const char* begin = nullptr;
    const char* end = nullptr;
    bool escaped = false;
};

// A scanned number: its integer part's magnitude (exact when it has at most 18 digits), and whether it has a
// fraction or an exponent.
struct Number {
    std::uint64_t magnitude = 0;
    bool negative = false;
    bool exact = true;
    bool integral = true;
};

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// The text of a string already validated by the scanner; `out` holds it when escapes had to be decoded.
std::string_view decode(const Str& s, std::string& out)
{
    if (!s.escaped) return std::string_view(s.begin, std::size_t(s.end - s.begin));
    out.clear();
    auto hex4 = [](const char* q) {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = v << 4 | std::uint32_t(hexValue(q[i]));
        return v;
    };
    for (const char* q = s.begin; q < s.end;) {
        if (*q != '\\') {
            out += *q++;
            continue;
        }
        const char e = q[1];
        q += 2;
        switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            std::uint32_t cp = hex4(q);
            q += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && q + 6 <= s.end && q[0] == '\\' && q[1] == 'u') {
                const std::uint32_t low = hex4(q + 2);
                if (low >= 0xDC00 && low < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    q += 6;
                }
            }
            appendUtf8(out, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : cp); // a lone surrogate has no UTF-8
            break;
        }
        default: out += e; break; // '"', '\\', '/'
        }
    }
    return out;
}

std::int64_t textToInt(std::string_view t, bool integral)
{
    if (integral && t.size() <= 18) {
        std::size_t i = t[0] == '-' ? 1 : 0;
        std::uint64_t v = 0;
        for (; i < t.size(); ++i) v = v * 10 + std::uint64_t(t[i] - '0');
        return t[0] == '-' ? -std::int64_t(v) : std::int64_t(v);
    }
    double d = 0;
    std::from_chars(t.data(), t.data() + t.size(), d);
    return std::isfinite(d) && std::abs(d) < 9.2e18 ? std::int64_t(std::llround(d)) : -1;
}

// "stream 7" -> 7: the trailing integer of a string tid; -1 when there is none.
std::int64_t trailingInteger(std::string_view s)
{
    std::size_t i = s.size();
    while (i > 0 && isDigit(s[i - 1])) --i;
    if (i == s.size() || s.size() - i > 18) return -1;
    return textToInt(s.substr(i), true);
}

enum class Category : std::uint8_t {
    Other,
    Kernel,
    Memcpy,
    Memset,
    GpuAnnotation,
    CpuOp,
    CpuAnnotation,
    Launch // cuda_runtime, cuda_driver: not kept, but their correlation ties GPU events to the CPU timeline
};

Category categoryOf(std::string_view c)
{
    switch (c.size()) {
    case 6:
        if (is(c, "kernel")) return Category::Kernel;
        if (is(c, "cpu_op")) return Category::CpuOp;
        break;
    case 10:
        if (is(c, "gpu_memcpy")) return Category::Memcpy;
        if (is(c, "gpu_memset")) return Category::Memset;
        break;
    case 11:
        if (is(c, "cuda_driver")) return Category::Launch;
        break;
    case 12:
        if (is(c, "cuda_runtime")) return Category::Launch;
        break;
    case 15:
        if (is(c, "user_annotation")) return Category::CpuAnnotation;
        break;
    case 19:
        if (is(c, "gpu_user_annotation")) return Category::GpuAnnotation;
        break;
    default: break;
    }
    return Category::Other;
}

// The kind of a kept event's category (not Other or Launch).
EventKind kindOf(Category c)
{
    switch (c) {
    case Category::Memcpy: return EventKind::Memcpy;
    case Category::Memset: return EventKind::Memset;
    case Category::GpuAnnotation: return EventKind::GpuAnnotation;
    case Category::CpuOp: return EventKind::CpuOp;
    case Category::CpuAnnotation: return EventKind::CpuAnnotation;
    default: return EventKind::Kernel;
    }
}

enum class EventKey { Other, Ph, Cat, Name, Ts, Dur, Pid, Tid, Args };
EventKey eventKey(std::string_view k)
{
    switch (k.size()) {
    case 2:
        if (is(k, "ph")) return EventKey::Ph;
        if (is(k, "ts")) return EventKey::Ts;
        break;
    case 3:
        if (is(k, "cat")) return EventKey::Cat;
        if (is(k, "dur")) return EventKey::Dur;
        if (is(k, "pid")) return EventKey::Pid;
        if (is(k, "tid")) return EventKey::Tid;
        break;
    case 4:
        if (is(k, "name")) return EventKey::Name;
        if (is(k, "args")) return EventKey::Args;
        break;
    default: break;
    }
    return EventKey::Other;
}

enum class ArgKey {
    Other,
    Correlation,
    CollectiveName,
    InMsgNelems,
    OutMsgNelems,
    GroupSize,
    Dtype,
    ProcessGroupName,
    ProcessGroupDesc,
    ProcessGroupRanks,
    GlobalRankStart,
    GlobalRankStride,
    DeviceType,
    DeviceId,
    Bytes,
    TotalAllocated,
    TotalReserved
};
ArgKey argKey(std::string_view k)
{
    switch (k.size()) {
    case 5:
        if (is(k, "dtype")) return ArgKey::Dtype;
        if (is(k, "Bytes")) return ArgKey::Bytes;
        break;
    case 9:
        if (is(k, "Device Id")) return ArgKey::DeviceId;
        break;
    case 10:
        if (is(k, "Group size")) return ArgKey::GroupSize;
        break;
    case 11:
        if (is(k, "correlation")) return ArgKey::Correlation;
        if (is(k, "Device Type")) return ArgKey::DeviceType;
        break;
    case 13:
        if (is(k, "In msg nelems")) return ArgKey::InMsgNelems;
        break;
    case 14:
        if (is(k, "Out msg nelems")) return ArgKey::OutMsgNelems;
        if (is(k, "Total Reserved")) return ArgKey::TotalReserved;
        break;
    case 15:
        if (is(k, "Collective name")) return ArgKey::CollectiveName;
        if (is(k, "Total Allocated")) return ArgKey::TotalAllocated;
        break;
    case 17:
        if (is(k, "Global rank start")) return ArgKey::GlobalRankStart;
        break;
    case 18:
        if (is(k, "Process Group Name")) return ArgKey::ProcessGroupName;
        if (is(k, "Global rank stride")) return ArgKey::GlobalRankStride;
        break;
    case 19:
        if (is(k, "Process Group Ranks")) return ArgKey::ProcessGroupRanks;
        break;
    case 25:
        if (is(k, "Process Group Description")) return ArgKey::ProcessGroupDesc;
        break;
    default: break;
    }
    return ArgKey::Other;
}

// The fields of one traceEvents entry; its strings point into the buffer or into the decode buffers.
struct RawEvent {
    std::string_view name, collectiveName, dtype, processGroup, processGroupDesc, processGroupRanks;
    Category category = Category::Other;
    bool complete = false; // ph "X"
    bool hasComm = false;
    std::int64_t ts = 0, dur = 0, pid = -1, tid = -1, correlation = -1;
    std::int64_t inMsgNelems = -1, outMsgNelems = -1, groupSize = -1;
    std::int64_t deviceType = -1, deviceId = -1, bytes = 0, totalAllocated = -1, totalReserved = -1;
    std::int64_t globalRankStart = -1, globalRankStride = -1; // "Global rank start", "Global rank stride"
};

// The JSON type of the value starting at p, in nlohmann::json's words (type_name()), for messages.
const char* jsonTypeAt(const char* p)
{
    switch (*p) {
    case '"': return "string";
    case '{': return "object";
    case '[': return "array";
    case 't':
    case 'f': return "boolean";
    case 'n': return "null";
    default: return "number";
    }
}

// A field of a process group that could not be read: "distributedInfo.pg_config[2].ranks: <reason>".
Text groupIssue(const std::string& path, Text reason) { return Text(PS_TEXT("CoreText", "%1: %2"), path, std::move(reason)); }

// The member list of the "Process Group Ranks" arg, or a pg_config "ranks" written as text: "[0, 1, 2]", cut after
// the first 30 as "[0, 1, ..., 29, ...]" (torch/csrc/profiler/util.cpp, format_list). Fills g.ranks and
// g.ranksComplete; the reason when the text is no such list (g.ranks left empty).
std::optional<Text> ranksFromText(std::string_view text, ProcessGroupRecord& g)
{
    const auto trim = [](std::string_view v) {
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
        return v;
    };
    std::string_view inner = trim(text);
    const auto notAList = [&] {
        g.ranks.clear();
        g.ranksComplete = false;
        // Its first 64 bytes, cut where a UTF-8 character starts.
        std::size_t n = std::min<std::size_t>(text.size(), 64);
        while (n < text.size() && n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
        return Text(PS_TEXT("CoreText", "\"%1\" is no list of ranks"), std::string(text.substr(0, n)));
    };
    if (inner.size() < 2 || inner.front() != '[' || inner.back() != ']') return notAList();
    inner = trim(inner.substr(1, inner.size() - 2));
    g.ranks.clear();
    g.ranksComplete = !inner.empty();
    while (!inner.empty()) {
        const std::size_t comma = inner.find(',');
        const std::string_view token = trim(inner.substr(0, comma));
        inner = comma == std::string_view::npos ? std::string_view() : inner.substr(comma + 1);
        if (token == "...") {
            g.ranksComplete = false;
            break;
        }
        if (token.empty() || token.size() > 10 || !std::all_of(token.begin(), token.end(), isDigit)) return notAList();
        const std::int64_t v = textToInt(token, true);
        if (v > INT32_MAX) return notAList();
        g.ranks.push_back(int(v));
    }
    return std::nullopt;
}

// Interned strings: an open-addressing table of indices into `names`.
class Interner {
public:
    explicit Interner(std::vector<std::string>& names) : m_names(names), m_slots(1024) { }
    std::int32_t operator()(std::string_view s)
    {
        if ((m_names.size() + 1) * 2 > m_slots.size()) grow();
        const std::size_t h = std::hash<std::string_view> {}(s);
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            Slot& slot = m_slots[i];
            if (slot.index < 0) {
                slot = Slot { h, std::int32_t(m_names.size()) };
                m_names.emplace_back(s);
                return slot.index;
            }
            if (slot.hash == h && m_names[std::size_t(slot.index)] == s) return slot.index;
        }
    }

private:
    struct Slot {
        std::size_t hash = 0;
        std::int32_t index = -1;
    };
    void grow()
    {
        std::vector<Slot> slots(m_slots.size() * 2);
        const std::size_t mask = slots.size() - 1;
        for (const Slot& s : m_slots) {
            if (s.index < 0) continue;
            std::size_t i = s.hash & mask;
            while (slots[i].index >= 0) i = (i + 1) & mask;
            slots[i] = s;
        }
        m_slots = std::move(slots);
    }
    std::vector<std::string>& m_names;
    std::vector<Slot> m_slots;
};

struct LaneKey {
    std::int64_t pid, tid;
    bool gpu;
    bool operator==(const LaneKey&) const = default;
};
struct LaneKeyHash {
    std::size_t operator()(const LaneKey& k) const
    {
        const std::uint64_t h = std::uint64_t(k.pid) * 1000003u ^ std::uint64_t(k.tid);
        return std::hash<std::uint64_t> {}(h) ^ std::size_t(k.gpu);
    }
};

struct CommKeyHash {
    std::size_t operator()(const CommInfo& c) const
    {
        std::size_t h = std::hash<std::int64_t> {}(c.inMsgNelems);
        for (std::int64_t v : { c.outMsgNelems, c.groupSize, std::int64_t(c.dtype),
                 std::int64_t(c.processGroup) })
            h = h * 1000003 ^ std::hash<std::int64_t> {}(v);
        return h;
    }
};
struct CommKeyEqual {
    bool operator()(const CommInfo& a, const CommInfo& b) const
    {
        return a.inMsgNelems == b.inMsgNelems && a.outMsgNelems == b.outMsgNelems
            && a.groupSize == b.groupSize && a.dtype == b.dtype && a.processGroup == b.processGroup;
    }
};

// A ProfilerStep#N seen on the CPU side, the GPU side or both, until the spans are chosen.
struct StepSeen {
    std::string name;
    bool cpu = false, gpu = false;
    std::int64_t cpuStart = 0, cpuDur = 0, gpuStart = 0, gpuDur = 0;
};

// A growing list in fixed-size blocks: nothing is copied as it grows, and memory fresh from the system (page
// faults) is touched once; the final vector is then allocated at its exact size.
template<typename T>
class BlockList {
public:
    void push_back(const T& v)
    {
        if (m_blocks.empty() || m_blocks.back().size() == kBlock) {
            // The first block grows as it fills (a small trace costs no 16,384-event block); later ones are whole.
            m_blocks.emplace_back();
            if (m_blocks.size() > 1) m_blocks.back().reserve(kBlock);
        }
        m_blocks.back().push_back(v);
        ++m_size;
    }
    std::size_t size() const { return m_size; }
    const T& operator[](std::size_t i) const { return m_blocks[i / kBlock][i % kBlock]; }
    std::vector<T> toVector() const
    {
        std::vector<T> out;
        out.reserve(m_size);
        for (const auto& b : m_blocks) out.insert(out.end(), b.begin(), b.end());
        return out;
    }

private:
    static constexpr std::size_t kBlock = 16384;
    std::vector<std::vector<T>> m_blocks;
    std::size_t m_size = 0;
};

std::int16_t clampToInt16(std::int64_t v)
{
    return std::int16_t(std::clamp<std::int64_t>(v, INT16_MIN, INT16_MAX));
}

class Scanner {
public:
    Scanner(Input& in, MeasuredRank& r, const ImportControl* control)
        : m_in(in), m_r(r), m_control(control), m_intern(r.names), m_chunk(in.chunkSize()), m_buf(m_chunk + kCarry + kPadding)
    {
        m_pos = m_end = m_buf.data();
        std::memset(m_buf.data(), 0, kPadding);
    }

    // Scans the whole input; throws Stop where it has to stop early.
    void run()
    {
        for (;;) {
            try {
                units();
                return;
            } catch (const NeedMore&) {
                refill();
            }
        }
    }

    // Progress at the end, and the last chance to cancel.
    void reportEnd() const
    {
        if (!m_control) return;
        if (m_control->progress) m_control->progress(m_in.diskSize(), m_in.diskSize());
        if (m_control->cancel && m_control->cancel->load())
            throw Stop { offsetOf(m_pos), Text(PS_TEXT("CoreText", "cancelled")), true };
    }

    bool sawDistributedInfo() const { return m_sawDistributedInfo; }
    bool sawTraceEvents() const { return m_sawTraceEvents; }

    // Sorts the kept events, chooses the step spans, assigns each event its step and sums the breakdown.
    void finish()
    {
        for (std::size_t c = 1; c < m_collectiveCounts.size(); ++c)
            if (m_collectiveCounts[c] > 0)
                m_r.collectives[std::string(toString(CollectiveKind(c)))] = m_collectiveCounts[c];
        for (StepSeen& s : m_steps) {
            MeasuredStep step;
            step.name = std::move(s.name);
            const std::string_view digits = std::string_view(step.name).substr(13);
            if (!digits.empty() && digits.size() <= 18 && std::all_of(digits.begin(), digits.end(), isDigit))
                step.number = textToInt(digits, true);
            step.startNs = s.cpu ? s.cpuStart : s.gpuStart;
            step.durNs = s.cpu ? s.cpuDur : s.gpuDur;
            m_r.steps.push_back(step.name);
            m_r.stepSpans.push_back(std::move(step));
        }
        // Gathered by (start, file order) into an exact-size eventList: this one copy both sorts and trims.
        const std::size_t n = m_events.size();
        std::vector<std::pair<std::int64_t, std::uint32_t>> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = { m_events[i].startNs, std::uint32_t(i) };
        if (!std::is_sorted(order.begin(), order.end())) std::sort(order.begin(), order.end());
        m_r.eventList.reserve(n);
        for (const auto& o : order) m_r.eventList.push_back(m_events[o.second]);
        m_events = {};
        m_r.memoryList = m_memory.toVector();
        m_memory = {};
        // Kept (sorted by correlation) for MeasuredRank::launchNs: which CPU-side span launched a kernel.
        std::stable_sort(m_launches.begin(), m_launches.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        assignSteps();
        m_r.launches = std::move(m_launches);
        m_r.launches.shrink_to_fit();
        m_launches = {};
        m_r.breakdown = kernelBreakdown(m_r.eventList);
        m_r.names.shrink_to_fit();
        // pg_config's groups, then those only events name (the same name and description: the same group; of two
        // event records of one group, the one that lists every member).
        if (m_eventGroups.size() > kMaxProcessGroups) m_eventGroups.pop_back();
        m_r.processGroups = std::move(m_configGroups);
        const std::size_t configured = m_r.processGroups.size();
        for (ProcessGroupRecord& g : m_eventGroups) {
            const auto same = [&](const ProcessGroupRecord& c) { return c.name == g.name && c.desc == g.desc; };
            const auto end = m_r.processGroups.end();
            if (std::any_of(m_r.processGroups.begin(), m_r.processGroups.begin() + std::ptrdiff_t(configured), same)) continue;
            const auto seen = std::find_if(m_r.processGroups.begin() + std::ptrdiff_t(configured), end, same);
            if (seen == end) m_r.processGroups.push_back(std::move(g));
            else if (!seen->ranksComplete && g.ranksComplete) *seen = std::move(g);
        }
        m_r.processGroupIssues = std::move(m_configIssues);
        m_r.processGroupIssues.insert(m_r.processGroupIssues.end(), m_eventIssues.begin(), m_eventIssues.end());
        m_eventGroups = {};
        m_eventGroupKeys = {};
    }

private:
    enum class State { Start, TopFirst, TopNext, TopAfter, EventsFirst, EventsNext, EventsAfter, Done };

    std::int64_t offsetOf(const char* p) const { return m_offset + (p - m_buf.data()); }

    // Where the scan cannot go on at p: the end of the buffer (more to read, or the input is cut short) or a
    // byte that does not belong there.
    [[noreturn]] void unexpected(const char* p) const
    {
        if (p >= m_end) {
            if (!m_eof) throw NeedMore {};
            // Where the file ends, and why: cut short, or a read error (the input's reason).
            const bool events = m_state >= State::EventsFirst && m_state <= State::EventsAfter;
            const Text& error = m_in.error();
            Text reason;
            if (m_state == State::Start)
                reason = error.empty()
                    ? Text(PS_TEXT("CoreText", "truncated: the file ends before the top-level object"))
                    : Text(PS_TEXT("CoreText", "%1 (the file ends before the top-level object)"), error);
            else if (events)
                reason = error.empty()
                    ? Text(PS_TEXT("CoreText", "truncated: the file ends inside traceEvents"))
                    : Text(PS_TEXT("CoreText", "%1 (the file ends inside traceEvents)"), error);
            else
                reason = error.empty()
                    ? Text(PS_TEXT("CoreText", "truncated: the file ends inside the top-level object"))
                    : Text(PS_TEXT("CoreText", "%1 (the file ends inside the top-level object)"), error);
            throw Stop { offsetOf(m_end), std::move(reason) };
        }
        const auto c = static_cast<unsigned char>(*p);
        if (c > 0x20 && c < 0x7f)
            throw Stop { offsetOf(p),
                Text(PS_TEXT("CoreText", "unexpected character '%1'"), std::string(1, char(c))) };
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02x", c);
        throw Stop { offsetOf(p), Text(PS_TEXT("CoreText", "unexpected byte 0x%1"), std::string(hex)) };
    }
    [[noreturn]] void bad(const char* p, Text reason) const { throw Stop { offsetOf(p), std::move(reason) }; }

    // Moves the unread tail (from the current unit's start) to the front and appends the next chunk; a unit
    // longer than a chunk makes the buffer grow and the next read as long as the tail.
    void refill()
    {
        const std::size_t keep = std::size_t(m_end - m_pos);
        const std::size_t want = std::max(m_chunk, keep);
        if (keep + want + kPadding > m_buf.size()) {
            Buffer bigger(keep + want + kPadding);
            std::memcpy(bigger.data(), m_pos, keep);
            m_offset += m_pos - m_buf.data();
            m_buf.swap(bigger);
        } else {
            std::memmove(m_buf.data(), m_pos, keep);
            m_offset += m_pos - m_buf.data();
        }
        char* data = m_buf.data();
        std::size_t got = 0;
        while (got < want) {
            const std::size_t n = m_in.read(data + keep + got, want - got);
            if (n == 0) break;
            got += n;
        }
        m_pos = data;
        m_end = data + keep + got;
        std::memset(data + keep + got, 0, kPadding);
        m_eof = got < want;
        m_read += std::int64_t(got);
        if (m_control && m_read >= m_nextReport && !m_eof) {
            while (m_nextReport <= m_read) m_nextReport += kReportEvery;
            if (m_control->progress) m_control->progress(m_in.diskRead(), m_in.diskSize());
            if (m_control->cancel && m_control->cancel->load())
                throw Stop { offsetOf(m_pos), Text(PS_TEXT("CoreText", "cancelled")), true };
        }
    }

    // Parses units until the input ends after the top-level object; each completed unit moves m_pos on.
    void units()
    {
        for (;;) {
            const char* p = ws(m_pos);
            switch (m_state) {
            case State::Start:
                if (*p != '{') {
                    skipValue(p); // a parse error in it says more than "not an object"
                    throw Stop { offsetOf(p),
                        Text(PS_TEXT(
                            "CoreText", "not a Kineto trace: the top-level value is not an object")) };
                }
                m_pos = p + 1;
                m_state = State::TopFirst;
                break;
            case State::TopFirst:
            case State::TopNext:
                if (*p == '}' && m_state == State::TopFirst) {
                    m_pos = p + 1;
                    m_state = State::Done;
                    break;
                }
                m_pos = member(p);
                break;
            case State::TopAfter:
                if (*p == ',') m_state = State::TopNext;
                else if (*p == '}') m_state = State::Done;
                else unexpected(p);
                m_pos = p + 1;
                break;
            case State::EventsFirst:
            case State::EventsNext:
                if (*p == ']' && m_state == State::EventsFirst) {
                    m_pos = p + 1;
                    m_state = State::TopAfter;
                    break;
                }
                if (*p == '{') {
                    p = event(p);
                    commitEvent();
                } else {
                    p = skipValue(p);
                    ++m_r.events;
                }
                m_pos = p;
                m_state = State::EventsAfter;
                break;
            case State::EventsAfter:
                if (*p == ',') m_state = State::EventsNext;
                else if (*p == ']') m_state = State::TopAfter;
                else unexpected(p);
                m_pos = p + 1;
                break;
            case State::Done:
                m_pos = p;
                if (p < m_end) unexpected(p);
                if (!m_eof) throw NeedMore {};
                return;
            }
        }
    }

    // p at the opening quote; returns the position after the closing quote.
    const char* string(const char* p, Str& s) const
    {
        const char* q = p + 1;
        s.begin = q;
        s.escaped = false;
        for (;;) {
            std::uint64_t w;
            std::memcpy(&w, q, 8);
            const std::uint64_t stops = stringStops(w);
            if (stops == 0) {
                q += 8;
                continue;
            }
            q += firstFlagged(stops, q);
            if (*q == '"') {
                s.end = q;
                return q + 1;
            }
            q = stringSpecial(q, s);
        }
    }

    // An escape, a control character or a non-ASCII byte inside a string; returns the position after it.
    const char* stringSpecial(const char* q, Str& s) const
    {
        const auto c = static_cast<unsigned char>(*q);
        if (c == '\\') {
            s.escaped = true;
            switch (q[1]) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't': return q + 2;
            case 'u':
                for (int i = 2; i < 6; ++i) {
                    if (isHex(q[i])) continue;
                    if (q + i >= m_end) unexpected(q + i);
                    bad(q + i, Text(PS_TEXT("CoreText", "invalid \\u escape in a string")));
                }
                return q + 6;
            default:
                if (q + 1 >= m_end) unexpected(q + 1);
                bad(q + 1, Text(PS_TEXT("CoreText", "invalid escape in a string")));
            }
        }
        if (c < 0x20) {
            if (q >= m_end) unexpected(q);
            bad(q, Text(PS_TEXT("CoreText", "control character in a string")));
        }
        // UTF-8 (RFC 3629): the lead byte gives the length and the range of the first continuation byte.
        int n = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) n = 1;
        else if (c == 0xE0) n = 2, lo = 0xA0;
        else if (c == 0xED) n = 2, hi = 0x9F;
        else if (c >= 0xE1 && c <= 0xEF) n = 2;
        else if (c == 0xF0) n = 3, lo = 0x90;
        else if (c == 0xF4) n = 3, hi = 0x8F;
        else if (c >= 0xF1 && c <= 0xF3) n = 3;
        else
            bad(q, Text(PS_TEXT("CoreText", "invalid UTF-8 in a string")));
        for (int i = 1; i <= n; ++i) {
            const auto b = static_cast<unsigned char>(q[i]);
            if (b >= (i == 1 ? lo : 0x80) && b <= (i == 1 ? hi : 0xBF)) continue;
            if (q + i >= m_end) unexpected(q + i);
            bad(q + i, Text(PS_TEXT("CoreText", "invalid UTF-8 in a string")));
        }
        return q + n + 1;
    }

    // p at '-' or a digit; returns the position after the number (its integer part accumulated on the way).
    const char* number(const char* p, Number& n) const
    {
        const char* q = p;
        n.negative = *q == '-';
        if (n.negative) ++q;
        const char* digits = q;
        std::uint64_t v = 0;
        if (*q == '0') {
            ++q;
        } else if (isDigit(*q)) {
            do v = v * 10 + std::uint64_t(*q++ - '0');
            while (isDigit(*q));
        } else {
            unexpected(q);
        }
        n.magnitude = v;
        n.exact = q - digits <= 18;
        n.integral = true;
        if (*q == '.') {
            n.integral = false;
            if (!isDigit(*++q)) unexpected(q);
            do ++q;
            while (isDigit(*q));
        }
        if (*q == 'e' || *q == 'E') {
            n.integral = false;
            ++q;
            if (*q == '+' || *q == '-') ++q;
            if (!isDigit(*q)) unexpected(q);
            do ++q;
            while (isDigit(*q));
        }
        if (q >= m_end && !m_eof) throw NeedMore {}; // only the next byte can end a number
        return q;
    }

    const char* literal(const char* p, std::string_view word) const
    {
        for (std::size_t i = 0; i < word.size(); ++i)
            if (p[i] != word[i]) unexpected(p + i);
        return p + word.size();
    }

    // p at a key's opening quote; returns the position of its value, the key in k.
    const char* key(const char* p, std::string_view& k)
    {
        if (*p != '"') unexpected(p);
        Str s;
        p = ws(string(p, s));
        k = decode(s, m_keyBuf);
        if (*p != ':') unexpected(p);
        return ws(p + 1);
    }

    // Validates and skips one value of any kind; nesting is kept on a stack, not on the call stack.
    const char* skipValue(const char* p)
    {
        m_stack.clear();
        for (;;) {
            switch (*p) {
            case '"': {
                Str s;
                p = string(p, s);
                break;
            }
            case '{':
                p = ws(p + 1);
                if (*p == '}') {
                    ++p;
                    break;
                }
                m_stack.push_back('}');
                p = skipKey(p);
                continue;
            case '[':
                p = ws(p + 1);
                if (*p == ']') {
                    ++p;
                    break;
                }
                m_stack.push_back(']');
                continue;
            case 't': p = literal(p, "true"); break;
            case 'f': p = literal(p, "false"); break;
            case 'n': p = literal(p, "null"); break;
            default: {
                if (*p != '-' && !isDigit(*p)) unexpected(p);
                Number n;
                p = number(p, n);
                break;
            }
            }
            // After a value: close containers until one continues with a comma.
            for (;;) {
                if (m_stack.empty()) return p;
                p = ws(p);
                if (*p == ',') {
                    p = ws(p + 1);
                    if (m_stack.back() == '}') p = skipKey(p);
                    break;
                }
                if (*p != m_stack.back()) unexpected(p);
                ++p;
                m_stack.pop_back();
            }
        }
    }
    const char* skipKey(const char* p)
    {
        if (*p != '"') unexpected(p);
        Str s;
        p = ws(string(p, s));
        if (*p != ':') unexpected(p);
        return ws(p + 1);
    }

    // A string value into `out` (decoded into `buf` when it has escapes); any other value leaves `out` empty.
    const char* text(const char* p, std::string_view& out, std::string& buf)
    {
        if (*p != '"') {
            out = {};
            return skipValue(p);
        }
        Str s;
        p = string(p, s);
        out = decode(s, buf);
        return p;
    }

    // An integer value: a number, or a string (its trailing integer with `fromString`, else -1); any other
    // value is skipped and leaves `v` as it was.
    const char* integer(const char* p, std::int64_t& v, bool fromString = false)
    {
        if (*p == '-' || isDigit(*p)) {
            const char* b = p;
            Number n;
            p = number(p, n);
            const auto magnitude = std::int64_t(n.magnitude);
            if (n.integral && n.exact) v = n.negative ? -magnitude : magnitude;
            else v = textToInt(std::string_view(b, std::size_t(p - b)), false);
            return p;
        }
        if (*p == '"') {
            Str s;
            p = string(p, s);
            v = fromString ? trailingInteger(decode(s, m_tmpBuf)) : -1;
            return p;
        }
        return skipValue(p);
    }

    // A time in microseconds (a number, or a string holding one) as integer nanoseconds.
    const char* micros(const char* p, std::int64_t& ns)
    {
        if (*p == '-' || isDigit(*p)) {
            const char* b = p;
            Number n;
            p = number(p, n);
            if (n.integral && n.exact && n.magnitude <= std::uint64_t(INT64_MAX / 1000)) {
                ns = std::int64_t(n.magnitude) * 1000;
                if (n.negative) ns = -ns;
            } else {
                ns = microsecondsTextToNs(std::string_view(b, std::size_t(p - b)));
            }
            return p;
        }
        if (*p == '"') {
            Str s;
            p = string(p, s);
            ns = microsecondsTextToNs(decode(s, m_tmpBuf));
            return p;
        }
        return skipValue(p);
    }

    // A top-level member, p at its key; commits what it keeps and sets the next state.
    const char* member(const char* p)
    {
        std::string_view k;
        p = key(p, k);
        if (is(k, "traceEvents") && *p == '[') {
            m_sawTraceEvents = true;
            m_state = State::EventsFirst;
            return p + 1;
        }
        if (is(k, "distributedInfo") && *p == '{') {
            p = distributedInfo(p);
        } else if (is(k, "deviceProperties") && *p == '[') {
            p = deviceProperties(p);
        } else if (is(k, "baseTimeNanoseconds") && (*p == '-' || isDigit(*p))) {
            std::int64_t base = 0;
            p = integer(p, base);
            m_r.baseTimeNs = base;
        } else {
            p = skipValue(p);
        }
        m_state = State::TopAfter;
        return p;
    }

    const char* distributedInfo(const char* p)
    {
        int rank = m_r.rank, worldSize = m_r.worldSize;
        std::vector<ProcessGroupRecord> groups;
        std::vector<Text> issues;
        bool sawGroups = false;
        p = ws(p + 1);
        if (*p != '}') {
            for (;;) {
                std::string_view k;
                p = key(p, k);
                std::int64_t v = -1;
                if ((is(k, "rank") || is(k, "world_size")) && (*p == '-' || isDigit(*p))) {
                    const bool isRank = is(k, "rank");
                    p = integer(p, v);
                    (isRank ? rank : worldSize) = int(std::clamp<std::int64_t>(v, -1, INT32_MAX));
                } else if (is(k, "pg_config")) {
                    sawGroups = true;
                    groups.clear();
                    issues.clear();
                    p = processGroupConfig(p, groups, issues);
                } else {
                    p = skipValue(p);
                }
                p = ws(p);
                if (*p == '}') break;
                if (*p != ',') unexpected(p);
                p = ws(p + 1);
            }
        }
        m_r.rank = rank;
        m_r.worldSize = worldSize;
        if (sawGroups) {
            m_configGroups = std::move(groups);
            m_configIssues = std::move(issues);
        }
        m_sawDistributedInfo = true;
        return p + 1;
    }

    // distributedInfo.pg_config, p at its value: a list of {pg_name, pg_desc, backend_config, pg_size, ranks}
    // (ProcessGroupRecord). A field of the wrong type is named in `issues` and left unset; other keys are skipped.
    const char* processGroupConfig(const char* p, std::vector<ProcessGroupRecord>& groups, std::vector<Text>& issues)
    {
        const std::string path = "distributedInfo.pg_config";
        if (*p != '[') {
            issues.push_back(groupIssue(path, Text(PS_TEXT("CoreText", "must be an array, found %1"), jsonTypeAt(p))));
            return skipValue(p);
        }
        p = ws(p + 1);
        if (*p == ']') return p + 1;
        std::size_t ranksKept = 0;
        bool limited = false;
        for (std::size_t index = 0;; ++index) {
            const std::string entry = path + "[" + std::to_string(index) + "]";
            if (*p != '{') {
                issues.push_back(groupIssue(entry, Text(PS_TEXT("CoreText", "must be an object, found %1"), jsonTypeAt(p))));
                p = skipValue(p);
            } else if (groups.size() >= kMaxProcessGroups) {
                if (!limited)
                    issues.push_back(groupIssue(path,
                        Text(PS_TEXT("CoreText", "more than %1 process groups; the rest are not read"), kMaxProcessGroups)));
                limited = true;
                p = skipValue(p);
            } else {
                ProcessGroupRecord g;
                p = processGroupEntry(p, g, entry, issues, ranksKept);
                groups.push_back(std::move(g));
            }
            p = ws(p);
            if (*p == ']') return p + 1;
            if (*p != ',') unexpected(p);
            p = ws(p + 1);
        }
    }

    // One pg_config entry, p at '{'.
    const char* processGroupEntry(const char* p, ProcessGroupRecord& g, const std::string& path, std::vector<Text>& issues,
        std::size_t& ranksKept)
    {
        p = ws(p + 1);
        if (*p == '}') return p + 1;
        for (;;) {
            std::string_view k;
            p = key(p, k);
            enum { Name, Desc, Backend, Size, Ranks, Other } field = Other;
            if (is(k, "pg_name")) field = Name;
            else if (is(k, "pg_desc")) field = Desc;
            else if (is(k, "backend_config")) field = Backend;
            else if (is(k, "pg_size")) field = Size;
            else if (is(k, "ranks")) field = Ranks;
            const std::string fieldPath = path + "." + std::string(k);
            if (field == Name || field == Desc || field == Backend) {
                if (*p == '"') {
                    std::string_view v;
                    p = text(p, v, m_tmpBuf);
                    (field == Name ? g.name : field == Desc ? g.desc : g.backend) = std::string(v);
                } else {
                    issues.push_back(groupIssue(fieldPath, Text(PS_TEXT("CoreText", "must be a string, found %1"), jsonTypeAt(p))));
                    p = skipValue(p);
                }
            } else if (field == Size) {
                p = groupSize(p, g.size, fieldPath, issues);
            } else if (field == Ranks) {
                p = rankList(p, g, fieldPath, issues, ranksKept);
            } else {
                p = skipValue(p);
            }
            p = ws(p);
            if (*p == '}') return p + 1;
            if (*p != ',') unexpected(p);
            p = ws(p + 1);
        }
    }

    // pg_size: a whole number from 0 to 2^31 - 1; anything else named and left at -1.
    const char* groupSize(const char* p, std::int64_t& size, const std::string& path, std::vector<Text>& issues)
    {
        if (*p != '-' && !isDigit(*p)) {
            issues.push_back(groupIssue(path, Text(PS_TEXT("CoreText", "must be an integer, found %1"), jsonTypeAt(p))));
            return skipValue(p);
        }
        const char* b = p;
        Number n;
        p = number(p, n);
        const std::string_view digits(b, std::size_t(p - b));
        if (!n.integral || !n.exact || n.negative || n.magnitude > std::uint64_t(INT32_MAX))
            issues.push_back(groupIssue(path,
                Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), 0, INT32_MAX, std::string(digits.substr(0, 32)))));
        else
            size = std::int64_t(n.magnitude);
        return p;
    }

    // pg_config's "ranks": a list of whole numbers (get_process_group_ranks: global ranks in group-rank order), or the
    // same list as text (ranksFromText). A list with anything else in it is named and not kept; past kMaxGroupRanks
    // ranks in all, lists are not kept either.
    const char* rankList(const char* p, ProcessGroupRecord& g, const std::string& path, std::vector<Text>& issues,
        std::size_t& ranksKept)
    {
        g.ranks.clear();
        g.ranksComplete = false;
        bool over = false;
        if (*p == '"') {
            std::string_view v;
            p = text(p, v, m_tmpBuf);
            if (auto why = ranksFromText(v, g)) issues.push_back(groupIssue(path, std::move(*why)));
        } else if (*p == '[') {
            p = ws(p + 1);
            bool bad = false;
            if (*p != ']') {
                for (std::size_t i = 0;; ++i) {
                    const char* b = p;
                    Number n;
                    if ((*p == '-' || isDigit(*p)) && !bad) {
                        p = number(p, n);
                        if (n.integral && n.exact && !n.negative && n.magnitude <= std::uint64_t(INT32_MAX)) {
                            if (ranksKept + g.ranks.size() < kMaxGroupRanks) g.ranks.push_back(int(n.magnitude));
                            else over = true;
                        } else {
                            bad = true;
                            issues.push_back(groupIssue(path + "[" + std::to_string(i) + "]",
                                Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), 0, INT32_MAX,
                                    std::string(b, std::size_t(std::min<std::ptrdiff_t>(p - b, 32))))));
                        }
                    } else {
                        if (!bad)
                            issues.push_back(groupIssue(path + "[" + std::to_string(i) + "]",
                                Text(PS_TEXT("CoreText", "must be an integer, found %1"), jsonTypeAt(p))));
                        bad = true;
                        p = skipValue(p);
                    }
                    p = ws(p);
                    if (*p == ']') break;
                    if (*p != ',') unexpected(p);
                    p = ws(p + 1);
                }
            }
            ++p;
            g.ranksComplete = !bad && !g.ranks.empty();
            if (bad) g.ranks.clear();
        } else {
            issues.push_back(groupIssue(path, Text(PS_TEXT("CoreText", "must be an array, found %1"), jsonTypeAt(p))));
            return skipValue(p);
        }
        if (over || ranksKept + g.ranks.size() > kMaxGroupRanks) {
            issues.push_back(groupIssue(path,
                Text(PS_TEXT("CoreText", "over %1 ranks in the trace's process groups; this list is not kept"), kMaxGroupRanks)));
            g.ranks.clear();
            g.ranks.shrink_to_fit();
            g.ranksComplete = false;
        }
        ranksKept += g.ranks.size();
        return p;
    }

    // A group an NCCL kernel's or record_param_comms' args name (ProcessGroupRecord, Source::Event): each distinct
    // one kept once. A member list cut after 30 ranks is completed from "Global rank start" and "Global rank stride"
    // (ProcessGroupNCCL records the stride where the members are evenly spaced) when they agree with it.
    void noteEventGroup(const RawEvent& e)
    {
        if (m_eventGroups.size() > kMaxProcessGroups) return;
        std::string key;
        key.reserve(e.processGroup.size() + e.processGroupDesc.size() + e.processGroupRanks.size() + 48);
        key.append(e.processGroup).append(1, '\0').append(e.processGroupDesc).append(1, '\0').append(e.processGroupRanks);
        key.append(1, '\0').append(std::to_string(e.groupSize)).append(1, ' ').append(std::to_string(e.globalRankStart));
        key.append(1, ' ').append(std::to_string(e.globalRankStride));
        if (m_eventGroupKeys.count(key)) return;
        const std::string path = "traceEvents[" + std::to_string(m_r.events - 1) + "].args";
        if (m_eventGroups.size() == kMaxProcessGroups) {
            m_eventIssues.push_back(groupIssue(path,
                Text(PS_TEXT("CoreText", "more than %1 process groups; the rest are not read"), kMaxProcessGroups)));
            m_eventGroups.emplace_back(); // marks the limit reached; dropped in finish()
            return;
        }
        m_eventGroupKeys.insert(std::move(key));
        ProcessGroupRecord g;
        g.source = ProcessGroupRecord::Source::Event;
        g.name = std::string(e.processGroup);
        g.desc = std::string(e.processGroupDesc);
        g.size = e.groupSize >= 0 && e.groupSize <= INT32_MAX ? e.groupSize : -1;
        if (!e.processGroupRanks.empty()) {
            if (auto why = ranksFromText(e.processGroupRanks, g))
                m_eventIssues.push_back(groupIssue(path + ".Process Group Ranks", std::move(*why)));
        }
        const std::int64_t start = e.globalRankStart, stride = e.globalRankStride;
        if (!g.ranksComplete && g.size > 0 && start >= 0 && start <= INT32_MAX && stride > 0 && stride <= INT32_MAX
            && start + (g.size - 1) * stride <= INT32_MAX) {
            bool agrees = true;
            for (std::size_t i = 0; i < g.ranks.size() && agrees; ++i)
                agrees = g.ranks[i] == start + std::int64_t(i) * stride;
            if (agrees && m_eventGroupRanks + std::size_t(g.size) <= kMaxGroupRanks) {
                g.ranks.resize(std::size_t(g.size));
                for (std::int64_t i = 0; i < g.size; ++i) g.ranks[std::size_t(i)] = int(start + i * stride);
                g.ranksComplete = true;
            }
        }
        if (m_eventGroupRanks + g.ranks.size() > kMaxGroupRanks) {
            m_eventIssues.push_back(groupIssue(path,
                Text(PS_TEXT("CoreText", "over %1 ranks in the trace's process groups; this list is not kept"), kMaxGroupRanks)));
            g.ranks.clear();
            g.ranksComplete = false;
        }
        m_eventGroupRanks += g.ranks.size();
        m_eventGroups.push_back(std::move(g));
    }

    const char* deviceProperties(const char* p)
    {
        std::vector<std::string> names;
        p = ws(p + 1);
        if (*p != ']') {
            for (;;) {
                if (*p == '{') {
                    std::string name;
                    p = ws(p + 1);
                    while (*p != '}') {
                        std::string_view k;
                        p = key(p, k);
                        if (is(k, "name") && *p == '"') {
                            std::string_view v;
                            p = text(p, v, m_tmpBuf);
                            name = v;
                        } else {
                            p = skipValue(p);
                        }
                        p = ws(p);
                        if (*p == ',') p = ws(p + 1);
                        else if (*p != '}') unexpected(p);
                    }
                    ++p;
                    names.push_back(std::move(name));
                } else {
                    p = skipValue(p);
                }
                p = ws(p);
                if (*p == ']') break;
                if (*p != ',') unexpected(p);
                p = ws(p + 1);
            }
        }
        m_r.deviceNames = std::move(names);
        return p + 1;
    }

    // One traceEvents object into m_ev; p at '{'.
    const char* event(const char* p)
    {
        RawEvent& e = m_ev;
        e = RawEvent {};
        p = ws(p + 1);
        if (*p == '}') return p + 1;
        for (;;) {
            std::string_view k;
            p = key(p, k);
            switch (eventKey(k)) {
            case EventKey::Ph: {
                std::string_view ph;
                p = text(p, ph, m_tmpBuf);
                e.complete = is(ph, "X");
                break;
            }
            case EventKey::Cat: {
                std::string_view cat;
                p = text(p, cat, m_tmpBuf);
                e.category = categoryOf(cat);
                break;
            }
            case EventKey::Name: p = text(p, e.name, m_nameBuf); break;
            case EventKey::Ts: p = micros(p, e.ts); break;
            case EventKey::Dur: p = micros(p, e.dur); break;
            case EventKey::Pid: p = integer(p, e.pid); break;
            case EventKey::Tid: p = integer(p, e.tid, true); break;
            case EventKey::Args: p = *p == '{' ? args(p) : skipValue(p); break;
            case EventKey::Other: p = skipValue(p); break;
            }
            p = ws(p);
            if (*p == ',') {
                p = ws(p + 1);
                continue;
            }
            if (*p == '}') return p + 1;
            unexpected(p);
        }
    }

    const char* args(const char* p)
    {
        RawEvent& e = m_ev;
        p = ws(p + 1);
        if (*p == '}') return p + 1;
        for (;;) {
            std::string_view k;
            p = key(p, k);
            switch (argKey(k)) {
            case ArgKey::Correlation: p = integer(p, e.correlation); break;
            case ArgKey::CollectiveName: p = text(p, e.collectiveName, m_collectiveBuf); break;
            case ArgKey::InMsgNelems:
                p = integer(p, e.inMsgNelems);
                e.hasComm = true;
                break;
            case ArgKey::OutMsgNelems:
                p = integer(p, e.outMsgNelems);
                e.hasComm = true;
                break;
            case ArgKey::GroupSize:
                p = integer(p, e.groupSize);
                e.hasComm = true;
                break;
            case ArgKey::Dtype:
                p = text(p, e.dtype, m_dtypeBuf);
                e.hasComm = true;
                break;
            case ArgKey::ProcessGroupName:
                p = text(p, e.processGroup, m_groupBuf);
                e.hasComm = true;
                break;
            case ArgKey::ProcessGroupDesc: p = text(p, e.processGroupDesc, m_groupDescBuf); break;
            case ArgKey::ProcessGroupRanks: p = text(p, e.processGroupRanks, m_groupRanksBuf); break;
            case ArgKey::GlobalRankStart: p = integer(p, e.globalRankStart); break;
            case ArgKey::GlobalRankStride: p = integer(p, e.globalRankStride); break;
            case ArgKey::DeviceType: p = integer(p, e.deviceType); break;
            case ArgKey::DeviceId: p = integer(p, e.deviceId); break;
            case ArgKey::Bytes: p = integer(p, e.bytes); break;
            case ArgKey::TotalAllocated: p = integer(p, e.totalAllocated); break;
            case ArgKey::TotalReserved: p = integer(p, e.totalReserved); break;
            case ArgKey::Other: p = skipValue(p); break;
            }
            p = ws(p);
            if (*p == ',') {
                p = ws(p + 1);
                continue;
            }
            if (*p == '}') return p + 1;
            unexpected(p);
        }
    }

    void commitEvent()
    {
        const RawEvent& e = m_ev;
        ++m_r.events;
        if (!e.processGroup.empty() || !e.processGroupDesc.empty()) noteEventGroup(e);
        if (is(e.name, "[memory]")) {
            ++m_r.memoryEvents;
            m_memory.push_back(MeasuredMemoryEvent { e.ts, e.bytes, e.totalAllocated, e.totalReserved,
                clampToInt16(e.deviceType), clampToInt16(e.deviceId) });
        }
        CollectiveKind collective = CollectiveKind::None;
        if (e.category == Category::Kernel) {
            ++m_r.kernels;
            if (isNcclKernelName(e.name)) {
                ++m_r.ncclKernels;
                collective = collectiveKindFromString(collectiveFromKernelName(e.name));
                if (collective == CollectiveKind::None)
                    collective = collectiveKindFromString(collectiveFromArg(e.collectiveName));
                if (collective == CollectiveKind::None) collective = CollectiveKind::Other;
                ++m_collectiveCounts[std::size_t(collective)];
            }
        }
        if (!e.complete || e.category == Category::Other) return;
        if (e.category == Category::Launch) {
            if (e.correlation >= 0) m_launches.emplace_back(e.correlation, e.ts);
            return;
        }
        const EventKind kind = kindOf(e.category);
        const bool gpu = isGpuKind(kind);
        if (kind == EventKind::CpuAnnotation || kind == EventKind::GpuAnnotation) {
            if (startsWith(e.name, "nccl:")) {
                collective = collectiveKindFromString(collectiveFromArg(e.name.substr(5)));
                if (collective == CollectiveKind::None) collective = CollectiveKind::Other;
            }
        }
        if (kind != EventKind::Kernel && kind != EventKind::Memcpy && kind != EventKind::Memset
            && startsWith(e.name, "ProfilerStep#"))
            noteStep(e, gpu);

        MeasuredEvent m;
        m.startNs = e.ts;
        m.durNs = std::max<std::int64_t>(0, e.dur);
        m.correlation = e.correlation;
        m.name = m_intern(e.name);
        m.lane = lane(e.pid, e.tid, gpu);
        m.comm = e.hasComm ? comm(e) : -1;
        m.kind = kind;
        m.collective = collective;
        m_events.push_back(m);
        ++m_r.lanes[std::size_t(m.lane)].events;
    }

    void noteStep(const RawEvent& e, bool gpu)
    {
        auto [it, added] = m_stepIndex.try_emplace(std::string(e.name), m_steps.size());
        if (added) m_steps.push_back(StepSeen { std::string(e.name) });
        StepSeen& s = m_steps[it->second];
        if (gpu && !s.gpu) {
            s.gpu = true;
            s.gpuStart = e.ts;
            s.gpuDur = std::max<std::int64_t>(0, e.dur);
        } else if (!gpu && !s.cpu) {
            s.cpu = true;
            s.cpuStart = e.ts;
            s.cpuDur = std::max<std::int64_t>(0, e.dur);
        }
    }

    std::int32_t lane(std::int64_t pid, std::int64_t tid, bool gpu)
    {
        const LaneKey k { pid, tid, gpu };
        if (m_lastLane >= 0 && k == m_lastLaneKey) return m_lastLane;
        auto [it, added] = m_laneIndex.try_emplace(k, std::int32_t(m_r.lanes.size()));
        if (added) m_r.lanes.push_back(MeasuredLane { pid, tid, gpu, 0 });
        m_lastLaneKey = k;
        m_lastLane = it->second;
        return it->second;
    }

    std::int32_t comm(const RawEvent& e)
    {
        CommInfo c;
        c.inMsgNelems = e.inMsgNelems;
        c.outMsgNelems = e.outMsgNelems;
        c.groupSize = e.groupSize;
        c.dtype = e.dtype.empty() ? -1 : m_intern(e.dtype);
        c.processGroup = e.processGroup.empty() ? -1 : m_intern(e.processGroup);
        auto [it, added] = m_commIndex.try_emplace(c, std::int32_t(m_r.comms.size()));
        if (added) m_r.comms.push_back(c);
        return it->second;
    }

    // The step of each kept event: the ProfilerStep span holding its start, or for a GPU event the start of
    // the launch (cuda_runtime/cuda_driver) with the same correlation where there is one.
    void assignSteps()
    {
        if (m_r.stepSpans.empty()) return;
        std::vector<std::pair<std::int64_t, std::int16_t>> spans; // (start, index) by start
        for (std::size_t i = 0; i < m_r.stepSpans.size() && i <= std::size_t(INT16_MAX); ++i)
            spans.emplace_back(m_r.stepSpans[i].startNs, std::int16_t(i));
        const auto byFirst = [](const auto& a, const auto& b) { return a.first < b.first; };
        std::stable_sort(spans.begin(), spans.end(), byFirst);
        for (MeasuredEvent& e : m_r.eventList) {
            std::int64_t t = e.startNs;
            if (isGpuKind(e.kind)) t = launchOf(m_launches, e);
            const auto s = std::upper_bound(spans.begin(), spans.end(), t,
                [](std::int64_t v, const auto& span) { return v < span.first; });
            if (s == spans.begin()) continue;
            const MeasuredStep& step = m_r.stepSpans[std::size_t(std::prev(s)->second)];
            if (t < step.startNs + step.durNs) e.step = std::prev(s)->second;
        }
    }

    Input& m_in;
    MeasuredRank& m_r;
    const ImportControl* m_control;
    Interner m_intern;

    // Bytes as read, not zeroed first (a megabyte of memset per import was most of a small trace's import time).
    class Buffer {
    public:
        explicit Buffer(std::size_t n) : m_data(new char[n]), m_size(n) {}
        char* data() const { return m_data.get(); }
        std::size_t size() const { return m_size; }
        void swap(Buffer& other) noexcept
        {
            m_data.swap(other.m_data);
            std::swap(m_size, other.m_size);
        }

    private:
        std::unique_ptr<char[]> m_data;
        std::size_t m_size;
    };
    std::size_t m_chunk; // bytes read at a time (Input::chunkSize())
    Buffer m_buf;        // data, then kPadding NUL bytes
    const char* m_pos = nullptr; // the start of the current unit
    const char* m_end = nullptr; // the end of the data
    std::int64_t m_offset = 0; // stream offset of m_buf[0]
    std::int64_t m_read = 0; // bytes read from the (uncompressed) stream
    std::int64_t m_nextReport = kReportEvery;
    bool m_eof = false;
    State m_state = State::Start;
    bool m_sawDistributedInfo = false;
    bool m_sawTraceEvents = false;

    RawEvent m_ev;
    std::string m_keyBuf, m_nameBuf, m_collectiveBuf, m_dtypeBuf, m_groupBuf, m_groupDescBuf, m_groupRanksBuf, m_tmpBuf;
    std::vector<char> m_stack;

    BlockList<MeasuredEvent> m_events; // in file order
    BlockList<MeasuredMemoryEvent> m_memory;
    std::array<std::int64_t, std::size_t(CollectiveKind::Other) + 1> m_collectiveCounts {};
    std::vector<std::pair<std::int64_t, std::int64_t>> m_launches; // (correlation, start)
    std::vector<StepSeen> m_steps;
    std::unordered_map<std::string, std::size_t> m_stepIndex;
    std::unordered_map<LaneKey, std::int32_t, LaneKeyHash> m_laneIndex;
    LaneKey m_lastLaneKey { 0, 0, false };
    std::int32_t m_lastLane = -1;
    std::unordered_map<CommInfo, std::int32_t, CommKeyHash, CommKeyEqual> m_commIndex;

    // Process groups: distributedInfo.pg_config's (committed with its unit), then those events name.
    std::vector<ProcessGroupRecord> m_configGroups, m_eventGroups;
    std::vector<Text> m_configIssues, m_eventIssues;
    std::unordered_set<std::string> m_eventGroupKeys; // name, desc, size, ranks, start, stride of each event group
    std::size_t m_eventGroupRanks = 0; // ranks kept in m_eventGroups (kMaxGroupRanks)
};

Result<MeasuredRank> importFrom(Input& in, const std::string& label, const ImportControl* control)
{
    MeasuredRank r;
    r.file = label;
    try {
        Scanner scanner(in, r, control);
        std::optional<Stop> stop;
        try {
            scanner.run();
        } catch (Stop& s) {
            if (s.cancelled) throw;
            stop = std::move(s);
        }
        scanner.reportEnd();
        if (stop) {
            if (!scanner.sawDistributedInfo() && r.events == 0)
                return Result<MeasuredRank>::failure(label, stop->reason, stop->offset);
            r.skipped = SkippedRegion { label, stop->offset, stop->reason };
        } else if (!scanner.sawTraceEvents()) {
            return Result<MeasuredRank>::failure(
                label, Text(PS_TEXT("CoreText", "not a Kineto trace: no \"traceEvents\" array")), 0);
        }
        scanner.finish();
    } catch (const Stop& s) {
        return Result<MeasuredRank>::failure(label, s.reason, s.offset);
    } catch (const std::bad_alloc&) {
        return Result<MeasuredRank>::failure(label, Text(PS_TEXT("CoreText", "out of memory")));
    }
    return r;
}

} // namespace

std::int64_t MeasuredRank::launchNs(const MeasuredEvent& e) const { return launchOf(launches, e); }

std::string_view toString(EventKind k)
{
    switch (k) {
    case EventKind::Kernel: return "kernel";
    case EventKind::Memcpy: return "gpu_memcpy";
    case EventKind::Memset: return "gpu_memset";
    case EventKind::GpuAnnotation: return "gpu_user_annotation";
    case EventKind::CpuOp: return "cpu_op";
    case EventKind::CpuAnnotation: return "user_annotation";
    }
    return {};
}

std::string_view toString(CollectiveKind c)
{
    switch (c) {
    case CollectiveKind::None: return "";
    case CollectiveKind::AllReduce: return "AllReduce";
    case CollectiveKind::AllGather: return "AllGather";
    case CollectiveKind::ReduceScatter: return "ReduceScatter";
    case CollectiveKind::Broadcast: return "Broadcast";
    case CollectiveKind::Reduce: return "Reduce";
    case CollectiveKind::AllToAll: return "AllToAll";
    case CollectiveKind::SendRecv: return "SendRecv";
    case CollectiveKind::Other: return "Other";
    }
    return {};
}

CollectiveKind collectiveKindFromString(std::string_view s)
{
    for (int c = 1; c <= int(CollectiveKind::Other); ++c)
        if (toString(CollectiveKind(c)) == s) return CollectiveKind(c);
    return CollectiveKind::None;
}

MeasuredBreakdown kernelBreakdown(const std::vector<MeasuredEvent>& events)
{
    Intervals compute, comm;
    for (const MeasuredEvent& e : events) {
        if (e.kind != EventKind::Kernel) continue;
        (e.collective != CollectiveKind::None ? comm : compute).emplace_back(e.startNs, e.startNs + e.durNs);
    }
    MeasuredBreakdown b;
    const Intervals computeUnion = unionOf(std::move(compute));
    const Intervals commUnion = unionOf(std::move(comm));
    Intervals all = computeUnion;
    all.insert(all.end(), commUnion.begin(), commUnion.end());
    const Intervals both = unionOf(std::move(all));
    if (both.empty()) return b;
    const std::int64_t span = both.back().second - both.front().first;
    b.computeSeconds = double(lengthOf(computeUnion)) * 1e-9;
    b.commSeconds = double(lengthOf(commUnion)) * 1e-9;
    b.overlapSeconds = double(intersectionOf(computeUnion, commUnion)) * 1e-9;
    b.idleSeconds = double(span - lengthOf(both)) * 1e-9;
    b.spanSeconds = double(span) * 1e-9;
    return b;
}

std::int64_t microsecondsTextToNs(std::string_view text)
{
    const bool exponent = std::any_of(text.begin(), text.end(), [](char c) { return c == 'e' || c == 'E'; });
    if (exponent || text.empty()) {
        const double ns = std::strtod(std::string(text).c_str(), nullptr) * 1000.0;
        return std::isfinite(ns) && std::abs(ns) < 9.2e18 ? std::int64_t(std::llround(ns)) : 0;
    }
    bool negative = false;
    std::size_t i = 0;
    if (text[0] == '-' || text[0] == '+') {
        negative = text[0] == '-';
        i = 1;
    }
    // Unsigned: digits beyond int64's range wrap instead of overflowing.
    std::uint64_t whole = 0;
    for (; i < text.size() && isDigit(text[i]); ++i) whole = whole * 10 + std::uint64_t(text[i] - '0');
    std::uint64_t frac = 0;
    int digits = 0;
    bool roundUp = false;
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && isDigit(text[i]); ++i) {
            if (digits < 3) {
                frac = frac * 10 + std::uint64_t(text[i] - '0');
                ++digits;
            } else if (digits == 3) {
                roundUp = text[i] >= '5';
                ++digits;
            }
        }
    }
    for (int d = std::min(digits, 3); d < 3; ++d) frac *= 10;
    const std::uint64_t ns = whole * 1000 + frac + (roundUp ? 1 : 0);
    return std::int64_t(negative ? 0 - ns : ns);
}

bool isNcclKernelName(std::string_view name)
{
    return startsWith(name, "ncclKernel_") || startsWith(name, "ncclDevKernel_");
}

std::string collectiveFromKernelName(std::string_view name)
{
    std::string_view rest;
    if (startsWith(name, "ncclKernel_")) rest = name.substr(11);
    else if (startsWith(name, "ncclDevKernel_")) rest = name.substr(14);
    else return {};
    const std::string_view token = rest.substr(0, rest.find_first_of("_("));
    static const char* known[] = { "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce", "SendRecv",
        "AllToAll" };
    for (const char* k : known)
        if (token == k) return k;
    if (token == "Send" || token == "Recv") return "SendRecv";
    return {};
}

std::string collectiveFromArg(std::string_view raw)
{
    // Underscores and case do not matter: "all_reduce", "allreduce" and "_allgather_base" all name theirs.
    std::string s;
    for (char c : raw)
        if (c != '_') s += char(std::tolower(static_cast<unsigned char>(c)));
    if (s.empty()) return {};
    if (startsWith(s, "allreduce")) return "AllReduce";
    if (startsWith(s, "broadcast")) return "Broadcast";
    if (startsWith(s, "allgather")) return "AllGather";
    if (startsWith(s, "reducescatter")) return "ReduceScatter";
    if (startsWith(s, "alltoall")) return "AllToAll";
    for (const char* p2p : { "send", "recv", "sendrecv", "isend", "irecv", "batchisendirecv" })
        if (s == p2p) return "SendRecv";
    if (s == "reduce") return "Reduce";
    return {};
}

std::optional<PipelineAction> parsePipelineAction(std::string_view name)
{
    if (!startsWith(name, "PP:")) return std::nullopt;
    name.remove_prefix(3);
    auto digits = [&](int& out) {
        std::size_t n = 0;
        while (n < name.size() && isDigit(name[n])) ++n;
        if (n == 0 || n > 9) return false;
        out = int(textToInt(name.substr(0, n), true));
        name.remove_prefix(n);
        return true;
    };
    PipelineAction a;
    if (!digits(a.stage)) return std::nullopt;
    std::size_t n = 0;
    while (n < name.size() && !isDigit(name[n])) ++n;
    a.kind = std::string(name.substr(0, n));
    name.remove_prefix(n);
    // The last three act on a whole stage and may name no microbatch.
    static constexpr std::string_view kinds[] = { "F", "I", "B", "W", "SEND_F", "RECV_F", "SEND_B", "RECV_B",
        "UNSHARD", "RESHARD", "REDUCE_GRAD" };
    const auto kind = std::find(std::begin(kinds), std::end(kinds), a.kind);
    if (kind == std::end(kinds)) return std::nullopt;
    if (name.empty()) return kind - std::begin(kinds) >= 8 ? std::optional(a) : std::nullopt;
    if (!digits(a.microbatch) || !name.empty()) return std::nullopt;
    return a;
}

Result<MeasuredRank> importKinetoTrace(const std::string& path, const ImportControl& control)
{
    Input in;
    if (auto why = in.open(path)) return Result<MeasuredRank>::failure(path, *why);
    return importFrom(in, path, &control);
}

Result<MeasuredRank> importKinetoText(std::string_view text, const std::string& label)
{
    Input in;
    in.openText(text);
    return importFrom(in, label, nullptr);
}

} // namespace planscope
