#include "KinetoImport.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <istream>
#include <nlohmann/json.hpp>
#include <streambuf>
#include <zlib.h>

namespace planscope {

namespace {

// A read-only stream buffer over a gzip file (zlib) or a plain file.
class TraceStreamBuf : public std::streambuf {
public:
    ~TraceStreamBuf() override { close(); }
    bool open(const std::string& path, std::string& error)
    {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) {
            error = "cannot open file";
            return false;
        }
        unsigned char magic[2] = { 0, 0 };
        const std::size_t got = std::fread(magic, 1, 2, f);
        m_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        if (!m_gzip) {
            std::rewind(f);
            m_file = f;
            return true;
        }
        std::fclose(f);
        m_gz = gzopen(path.c_str(), "rb");
        if (!m_gz) {
            error = "cannot open gzip file";
            return false;
        }
        gzbuffer(m_gz, 1 << 17);
        return true;
    }
    void close()
    {
        if (m_gz) gzclose(m_gz);
        if (m_file) std::fclose(m_file);
        m_gz = nullptr;
        m_file = nullptr;
    }
    const std::string& readError() const { return m_readError; }

protected:
    int_type underflow() override
    {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        long n = 0;
        if (m_gz) {
            n = gzread(m_gz, m_buf.data(), unsigned(m_buf.size()));
            if (n < 0) {
                int errnum = 0;
                const char* msg = gzerror(m_gz, &errnum);
                m_readError = std::string("gzip: ") + (msg ? msg : "read error");
                n = 0;
            }
        } else if (m_file) {
            n = long(std::fread(m_buf.data(), 1, m_buf.size(), m_file));
        }
        if (n <= 0) return traits_type::eof();
        setg(m_buf.data(), m_buf.data(), m_buf.data() + n);
        return traits_type::to_int_type(*gptr());
    }

private:
    std::array<char, 1 << 16> m_buf {};
    gzFile m_gz = nullptr;
    std::FILE* m_file = nullptr;
    bool m_gzip = false;
    std::string m_readError;
};

struct EventFields {
    std::string ph, cat, name;
    std::int64_t tsNs = 0, durNs = 0, pid = -1, tid = -1;
    bool hasTs = false;
    std::string collectiveArg, dtype;
    std::int64_t inMsgNelems = -1, outMsgNelems = -1, groupSize = -1, deviceType = -1, bytes = 0, totalAllocated = -1;
    void clear() { *this = EventFields {}; }
};

// SAX handler: tracks the path of containers and keeps only the fields below.
class KinetoSax {
public:
    using json = nlohmann::json;
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    explicit KinetoSax(MeasuredRank& r) : m_r(r) { }

    bool sawDistributedInfo = false;
    bool sawTraceEvents = false;
    bool topIsObject = false;
    std::int64_t errorOffset = -1;
    std::string errorMessage;

    bool null() { return scalarEntry(); }
    bool boolean(bool) { return scalarEntry(); }
    bool number_integer(number_integer_t v) { return integer(std::int64_t(v), nullptr); }
    bool number_unsigned(number_unsigned_t v)
    {
        return integer(v > number_unsigned_t(INT64_MAX) ? INT64_MAX : std::int64_t(v), nullptr);
    }
    bool number_float(number_float_t v, const string_t& text) { return floating(v, text); }
    bool string(string_t& s)
    {
        const int ctx = context();
        if (ctx == kTraceEvents) ++m_r.events;
        if (ctx == kEvent) {
            const std::string& k = m_frames.back().key;
            if (k == "ph") m_ev.ph = std::move(s);
            else if (k == "cat") m_ev.cat = std::move(s);
            else if (k == "name") m_ev.name = std::move(s);
            else if (k == "ts") setTs(microsecondsTextToNs(s));
            else if (k == "dur") m_ev.durNs = microsecondsTextToNs(s);
        } else if (ctx == kArgs) {
            const std::string& k = m_frames.back().key;
            if (k == "Collective name") m_ev.collectiveArg = std::move(s);
            else if (k == "dtype") m_ev.dtype = std::move(s);
        }
        return true;
    }
    bool binary(binary_t&) { return true; }
    bool start_object(std::size_t)
    {
        if (m_frames.empty()) topIsObject = true;
        if (context() == kTraceEvents) m_ev.clear();
        if (m_frames.size() == 1 && m_frames[0].key == "distributedInfo") sawDistributedInfo = true;
        m_frames.push_back(Frame { false, {} });
        return true;
    }
    bool key(string_t& k)
    {
        m_frames.back().key = std::move(k);
        return true;
    }
    bool end_object()
    {
        m_frames.pop_back();
        if (context() == kTraceEvents) finishEvent();
        return true;
    }
    bool start_array(std::size_t)
    {
        if (m_frames.size() == 1 && m_frames[0].key == "traceEvents") sawTraceEvents = true;
        m_frames.push_back(Frame { true, {} });
        return true;
    }
    bool end_array()
    {
        m_frames.pop_back();
        if (context() == kTraceEvents) ++m_r.events; // an array as an entry of traceEvents
        return true;
    }
    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        errorOffset = std::int64_t(position) - (position > 0 ? 1 : 0);
        std::string what = ex.what();
        const auto pos = what.find("parse error");
        errorMessage = pos == std::string::npos ? what : what.substr(pos);
        (void)lastToken;
        return false;
    }

    std::vector<std::pair<std::int64_t, std::int64_t>> computeIntervals, commIntervals;

private:
    struct Frame {
        bool array;
        std::string key;
    };
    enum { kOther, kTop, kDistInfo, kTraceEvents, kEvent, kArgs };

    // Where a value (or container) now arriving sits.
    int context() const
    {
        const std::size_t n = m_frames.size();
        if (n == 0) return kOther;
        if (n == 1) return m_frames[0].array ? kOther : kTop;
        if (m_frames[0].array) return kOther;
        if (n == 2) {
            if (m_frames[0].key == "distributedInfo" && !m_frames[1].array) return kDistInfo;
            if (m_frames[0].key == "traceEvents" && m_frames[1].array) return kTraceEvents;
            return kOther;
        }
        if (m_frames[0].key != "traceEvents" || !m_frames[1].array || m_frames[2].array) return kOther;
        if (n == 3) return kEvent;
        if (n == 4 && m_frames[2].key == "args" && !m_frames[3].array) return kArgs;
        return kOther;
    }

    bool scalarEntry()
    {
        if (context() == kTraceEvents) ++m_r.events;
        return true;
    }

    void setTs(std::int64_t ns)
    {
        m_ev.tsNs = ns;
        m_ev.hasTs = true;
    }

    bool integer(std::int64_t v, const string_t* text)
    {
        (void)text;
        switch (context()) {
        case kTop:
            if (m_frames.back().key == "baseTimeNanoseconds") m_r.baseTimeNs = v;
            break;
        case kDistInfo:
            if (m_frames.back().key == "rank") m_r.rank = int(v);
            else if (m_frames.back().key == "world_size") m_r.worldSize = int(v);
            break;
        case kTraceEvents: ++m_r.events; break;
        case kEvent: {
            const std::string& k = m_frames.back().key;
            if (k == "ts") setTs(v * 1000);
            else if (k == "dur") m_ev.durNs = v * 1000;
            else if (k == "pid") m_ev.pid = v;
            else if (k == "tid") m_ev.tid = v;
            break;
        }
        case kArgs: {
            const std::string& k = m_frames.back().key;
            if (k == "In msg nelems") m_ev.inMsgNelems = v;
            else if (k == "Out msg nelems") m_ev.outMsgNelems = v;
            else if (k == "Group size") m_ev.groupSize = v;
            else if (k == "Device Type") m_ev.deviceType = v;
            else if (k == "Bytes") m_ev.bytes = v;
            else if (k == "Total Allocated") m_ev.totalAllocated = v;
            break;
        }
        default: break;
        }
        return true;
    }

    bool floating(double v, const string_t& text)
    {
        const int ctx = context();
        if (ctx == kEvent) {
            const std::string& k = m_frames.back().key;
            if (k == "ts") setTs(microsecondsTextToNs(text));
            else if (k == "dur") m_ev.durNs = microsecondsTextToNs(text);
            return true;
        }
        if (ctx == kTraceEvents) {
            ++m_r.events;
            return true;
        }
        if (std::isfinite(v) && std::abs(v) < 9.0e18) return integer(std::int64_t(std::llround(v)), &text);
        return true;
    }

    void finishEvent()
    {
        ++m_r.events;
        EventFields& e = m_ev;
        if (e.name.rfind("ProfilerStep#", 0) == 0
            && std::find(m_r.steps.begin(), m_r.steps.end(), e.name) == m_r.steps.end())
            m_r.steps.push_back(e.name);
        if (e.name == "[memory]") {
            ++m_r.memoryEvents;
            m_r.memoryList.push_back(MeasuredMemoryEvent { e.tsNs, int(e.deviceType), e.bytes, e.totalAllocated });
        }
        if (e.cat == "kernel") {
            ++m_r.kernels;
            MeasuredKernel k;
            k.startNs = e.tsNs;
            k.durNs = std::max<std::int64_t>(0, e.durNs);
            k.pid = e.pid;
            k.tid = e.tid;
            if (isNcclKernelName(e.name)) {
                ++m_r.ncclKernels;
                k.collective = collectiveFromKernelName(e.name);
                if (k.collective.empty()) k.collective = collectiveFromArg(e.collectiveArg);
                if (k.collective.empty()) k.collective = "Other";
                ++m_r.collectives[k.collective];
                k.inMsgNelems = e.inMsgNelems;
                k.outMsgNelems = e.outMsgNelems;
                k.groupSize = e.groupSize;
                k.dtype = e.dtype;
                commIntervals.emplace_back(k.startNs, k.startNs + k.durNs);
            } else {
                computeIntervals.emplace_back(k.startNs, k.startNs + k.durNs);
            }
            m_r.kernelList.push_back(std::move(k));
        }
    }

    MeasuredRank& m_r;
    std::vector<Frame> m_frames;
    EventFields m_ev;
};

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

Intervals unionOf(Intervals v)
{
    std::sort(v.begin(), v.end());
    Intervals out;
    for (const auto& iv : v) {
        if (!out.empty() && iv.first <= out.back().second) out.back().second = std::max(out.back().second, iv.second);
        else out.push_back(iv);
    }
    return out;
}

std::int64_t lengthOf(const Intervals& u)
{
    std::int64_t t = 0;
    for (const auto& iv : u) t += iv.second - iv.first;
    return t;
}

std::int64_t intersectionOf(const Intervals& a, const Intervals& b)
{
    std::int64_t t = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const std::int64_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
        if (hi > lo) t += hi - lo;
        if (a[i].second < b[j].second) ++i;
        else ++j;
    }
    return t;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

} // namespace

std::int64_t microsecondsTextToNs(std::string_view text)
{
    if (text.find_first_of("eE") != std::string_view::npos || text.empty()) {
        const double d = std::strtod(std::string(text).c_str(), nullptr);
        return std::isfinite(d) ? std::int64_t(std::llround(d * 1000.0)) : 0;
    }
    bool negative = false;
    std::size_t i = 0;
    if (text[0] == '-' || text[0] == '+') {
        negative = text[0] == '-';
        i = 1;
    }
    std::int64_t whole = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i)
        whole = whole * 10 + (text[i] - '0');
    std::int64_t frac = 0;
    int digits = 0;
    bool roundUp = false;
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
            if (digits < 3) {
                frac = frac * 10 + (text[i] - '0');
                ++digits;
            } else if (digits == 3) {
                roundUp = text[i] >= '5';
                ++digits;
            }
        }
    }
    for (int d = std::min(digits, 3); d < 3; ++d) frac *= 10;
    std::int64_t ns = whole * 1000 + frac + (roundUp ? 1 : 0);
    return negative ? -ns : ns;
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
    std::string s;
    for (char c : raw)
        if (c != '_') s += char(std::tolower(static_cast<unsigned char>(c)));
    if (s.empty()) return {};
    if (s == "allreduce" || s == "allreducecoalesced") return "AllReduce";
    if (s == "broadcast") return "Broadcast";
    if (s.rfind("allgather", 0) == 0 || s == "allgatherbase" || s == "allgatherintotensor") return "AllGather";
    if (s.rfind("reducescatter", 0) == 0) return "ReduceScatter";
    if (s.rfind("alltoall", 0) == 0) return "AllToAll";
    if (s == "send" || s == "recv" || s == "sendrecv") return "SendRecv";
    if (s == "reduce") return "Reduce";
    return {};
}

Result<MeasuredRank> importKinetoTrace(const std::string& path)
{
    TraceStreamBuf buf;
    std::string openError;
    if (!buf.open(path, openError)) return Result<MeasuredRank>::failure(path, openError);

    MeasuredRank r;
    r.file = path;
    KinetoSax sax(r);
    bool parsed = false;
    try {
        std::istream in(&buf);
        parsed = nlohmann::json::sax_parse(in, &sax);
    } catch (const std::exception& e) {
        sax.errorOffset = std::max<std::int64_t>(sax.errorOffset, 0);
        sax.errorMessage = e.what();
    }
    buf.close();

    if (!parsed) {
        std::string reason = sax.errorMessage.empty() ? "not valid JSON" : sax.errorMessage;
        if (!buf.readError().empty()) reason = buf.readError() + "; " + reason;
        const std::int64_t offset = std::max<std::int64_t>(sax.errorOffset, 0);
        if (!sax.sawDistributedInfo && r.events == 0)
            return Result<MeasuredRank>::failure(path, reason, offset);
        r.skipped = SkippedRegion { path, offset, "truncated or corrupt: " + reason };
    } else if (!sax.topIsObject || !sax.sawTraceEvents) {
        return Result<MeasuredRank>::failure(path, "not a Kineto trace: no \"traceEvents\" array", 0);
    }

    const Intervals compute = unionOf(std::move(sax.computeIntervals));
    const Intervals comm = unionOf(std::move(sax.commIntervals));
    Intervals all = compute;
    all.insert(all.end(), comm.begin(), comm.end());
    const Intervals both = unionOf(std::move(all));
    if (!both.empty()) {
        const std::int64_t span = both.back().second - both.front().first;
        r.breakdown.computeSeconds = double(lengthOf(compute)) * 1e-9;
        r.breakdown.commSeconds = double(lengthOf(comm)) * 1e-9;
        r.breakdown.overlapSeconds = double(intersectionOf(compute, comm)) * 1e-9;
        r.breakdown.idleSeconds = double(span - lengthOf(both)) * 1e-9;
        r.breakdown.spanSeconds = double(span) * 1e-9;
    }
    return r;
}

} // namespace planscope
