// nccl-tests output (NVIDIA/nccl-tests; rccl-tests prints the same table) into a profile.
//
// Text: the table's columns are found by name in its header row
//   "#  size  count  type  redop  root  time  algbw  busbw  #wrong  time  algbw  busbw  #wrong"
// (older versions lack "root" and print "error" for "#wrong", -C prints "cputime"); the first time/algbw/busbw group
// is the out-of-place half, the second the in-place one. Cells are laid under the columns in order, the word
// columns (type, redop) only where a word stands (older alltoall rows leave redop empty). Units: size bytes, time us,
// algbw/busbw GB/s (1e9). The bandwidths are kept as printed; only a missing one is computed (algbw = S / t, busbw =
// algbw x factor) and listed in the row's `derived`.
// Ranks: the highest index on the "#  Rank  N Group G Pid P on HOST device D [BUSID] NAME" lines (outputs often keep
// only the last one), else the one count the printed busbw/algbw allows within its rounding, else the header's
// nThread x nGpus; nodes: the host names of those lines, or with only some lines, the GPUs per node their device
// indexes show; what the file cannot tell is left unknown (0), said in a warning, and can be given.
// The collective comes from the binary's name (all_reduce_perf, all_gather_perf_mpi, ...) wherever the text
// mentions it (the "# Collective test starting:" line, or a pasted command line), else from the hint (a file name),
// else from what the rows decide (collectiveFromRows), else an error naming the table's line. Launcher
// prefixes ("[1,0]<stdout>:", srun -l's " 0: ") are stripped; a row wrapped onto the next line is joined; a row
// whose out-of-place time is N/A is left out.
//
// JSON (-J FILE.json in recent nccl-tests; layout from src/util.cu): {"args": [argv...], "config": {"nthreads", "ngpus",
// "devices": [{"rank", "hostname", "device", "device_hex", "device_info"}]}, "results": [{"size",
// "out_of_place": {"time", "alg_bw", "bus_bw", "nwrong"}, "in_place": {...}}]}. With MPI there is one device
// entry per process, each driving nthreads * ngpus ranks.
#include "Profile.h"
#include "ProfileRows.h"
#include "io/JsonReader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace planscope {

using nlohmann::json;

namespace {

struct TestName {
    std::string_view snake;
    Collective op;
};
constexpr TestName kTests[] = {
    { "all_reduce", Collective::AllReduce },
    { "all_gather", Collective::AllGather },
    { "reduce_scatter", Collective::ReduceScatter },
    { "alltoall", Collective::AllToAll },
    { "broadcast", Collective::Broadcast },
    { "reduce", Collective::Reduce },
    { "sendrecv", Collective::SendRecv },
};

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The nccl-tests binaries of collectives PlanScope does not model (NVIDIA/nccl-tests src/: gather, scatter,
// hypercube; alltoallv in later versions). Only these count as "another binary": any other word ending in _perf
// (a folder, a script) names nothing.
constexpr std::string_view kOtherTests[] = { "gather", "scatter", "hypercube", "alltoallv" };

// The collective a test binary's name ("all_reduce_perf", ".../all_gather_perf_mpi") names. `unknownName` receives
// an nccl-tests binary PlanScope does not model (gather_perf, hypercube_perf), told apart from no binary at all.
std::optional<Collective> collectiveInText(std::string_view text, std::string* unknownName = nullptr)
{
    for (std::size_t pos = text.find("_perf"); pos != std::string_view::npos; pos = text.find("_perf", pos + 1)) {
        if (pos + 5 < text.size() && isWordChar(text[pos + 5]) && text.substr(pos + 5, 4) != "_mpi") continue;
        std::size_t start = pos;
        while (start > 0 && isWordChar(text[start - 1])) --start;
        const std::string_view stem = text.substr(start, pos - start);
        for (const TestName& t : kTests)
            if (stem == t.snake) return t.op;
        if (unknownName && unknownName->empty()
            && std::find(std::begin(kOtherTests), std::end(kOtherTests), stem) != std::end(kOtherTests))
            *unknownName = std::string(stem) + "_perf";
    }
    return std::nullopt;
}

// A hint: a collective's name ("AllGather", "all_gather") overrides the text; a file name is a fallback.
struct Hint {
    std::optional<Collective> explicitOp;
    std::optional<Collective> fileOp;
};

Hint readHint(std::string_view hint)
{
    Hint h;
    Collective c;
    if (fromString(hint, c)) {
        h.explicitOp = c;
        return h;
    }
    for (const TestName& t : kTests)
        if (hint == t.snake) {
            h.explicitOp = t.op;
            return h;
        }
    h.fileOp = collectiveInText(hint);
    return h;
}

std::string trimLeft(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    return std::string(s.substr(i));
}

// Strips what launchers put before each line: Open MPI's "[1,0]<stdout>:", srun -l's "0: ", "[0] ".
std::string stripLauncherPrefix(std::string line)
{
    if (!line.empty() && line.back() == '\r') line.pop_back();
    for (int guard = 0; guard < 3; ++guard) {
        std::string t = trimLeft(line);
        if (t.rfind('[', 0) == 0) {
            const auto tag = t.find("]<std");
            const auto close = t.find(']');
            if (tag != std::string::npos && tag == close) {
                const auto colon = t.find(':', tag);
                if (colon != std::string::npos) {
                    line = t.substr(colon + 1);
                    continue;
                }
            }
            if (close != std::string::npos && close > 1 && close < 8
                && std::all_of(t.begin() + 1, t.begin() + std::ptrdiff_t(close),
                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
                line = t.substr(close + 1);
                continue;
            }
        }
        std::size_t d = 0;
        while (d < t.size() && std::isdigit(static_cast<unsigned char>(t[d]))) ++d;
        if (d > 0 && d < 7 && d < t.size() && t[d] == ':' && (d + 1 == t.size() || t[d + 1] == ' ')) {
            line = t.substr(d + 1);
            continue;
        }
        break;
    }
    return line;
}

std::vector<std::string> tokens(std::string_view s)
{
    std::vector<std::string> out;
    std::istringstream in { std::string(s) };
    std::string t;
    while (in >> t) out.push_back(t);
    return out;
}

std::optional<double> toNumber(const std::string& s)
{
    if (s.empty()) return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
    return d;
}

// The largest GPU index a profile holds (gpus[].index, calib/Profile.cpp): an import keeps no GPU it could not write.
constexpr int kMaxDeviceIndex = 1000000;

// A count that fits an int comfortably (ranks, devices, threads); anything else is not one.
std::optional<int> toCount(const std::string& s)
{
    const auto d = toNumber(s);
    if (!d || *d < 0 || *d > 1e7 || *d != std::floor(*d)) return std::nullopt;
    return int(*d);
}

bool isSizeToken(const std::string& s)
{
    return !s.empty() && s.size() < 21 && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

struct RankLine {
    int rank = -1;
    std::string host;
    int device = -1;
    std::string busId;
    std::string name;
};

// "#  Rank  0 Group  0 Pid  28204 on  gpu59 device  0 [0x16] NVIDIA GeForce RTX 4090" (Group is absent in
// older versions and in rccl-tests).
// The host and GPU names go into the profile's JSON, which holds UTF-8 only: bytes that are not UTF-8 (a damaged
// file, another locale) become U+FFFD, as nlohmann::json writes them with error_handler_t::replace.
std::string validUtf8(const std::string& s)
{
    return json::parse(json(s).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
}

std::optional<RankLine> rankLine(const std::string& line)
{
    const std::string t = trimLeft(line);
    if (t.rfind('#', 0) != 0) return std::nullopt;
    const auto tok = tokens(std::string_view(t).substr(1));
    if (tok.size() < 2 || tok[0] != "Rank") return std::nullopt;
    RankLine r;
    // Rank indexes a profile's rank count (at most 1e7) can follow.
    if (auto n = toCount(tok[1]); n && *n < 10000000) r.rank = *n;
    else return std::nullopt;
    for (std::size_t i = 2; i + 1 < tok.size(); ++i) {
        if (tok[i] == "on" && r.host.empty()) r.host = tok[i + 1];
        if (tok[i] == "device") {
            if (auto d = toCount(tok[i + 1]); d && *d <= kMaxDeviceIndex) r.device = *d;
        }
    }
    const auto open = t.find('[');
    const auto close = open == std::string::npos ? std::string::npos : t.find(']', open);
    if (close != std::string::npos) {
        r.busId = t.substr(open + 1, close - open - 1);
        r.name = trimLeft(t.substr(close + 1));
        while (!r.name.empty() && std::isspace(static_cast<unsigned char>(r.name.back()))) r.name.pop_back();
    }
    r.host = validUtf8(r.host);
    r.busId = validUtf8(r.busId);
    r.name = validUtf8(r.name);
    return r;
}

// A number as printed, with half a unit of its last printed digit: the rounding it carries ("834.57" +- 0.005).
struct Printed {
    double value = 0;
    double halfUnit = 0;
};

std::optional<Printed> printedNumber(const std::string& s)
{
    const auto d = toNumber(s);
    if (!d) return std::nullopt;
    const auto e = s.find_first_of("eE");
    const std::string mantissa = s.substr(0, e);
    // strtol saturates where atoi would overflow ("1e-99999999999" is a finite 0 to strtod).
    const long exponent = e == std::string::npos ? 0 : std::clamp(std::strtol(s.c_str() + e + 1, nullptr, 10), -1000L, 1000L);
    const auto dot = mantissa.find('.');
    const long decimals = dot == std::string::npos ? 0 : long(mantissa.size() - dot - 1);
    return Printed { *d, 0.5 * std::pow(10.0, double(std::clamp(exponent - decimals, -300L, 300L))) };
}

// Times a row can hold: nccl-tests prints microseconds to at most 2 decimals; a time outside (a garbled cell) is
// no time, so that S / t stays a finite bandwidth.
constexpr double kMinMicroseconds = 1e-6, kMaxMicroseconds = 1e15;

// A printed bandwidth (GB/s) in bytes/s, where it is one a profile can hold (>= 0, at most detail::kMaxBandwidth,
// ProfileRows.h); a garbled cell is none.
std::optional<double> bytesPerSecond(const std::optional<Printed>& gbps)
{
    if (!gbps || !(gbps->value >= 0)) return std::nullopt;
    const double v = gbps->value * 1e9;
    if (!(v <= detail::kMaxBandwidth)) return std::nullopt;
    return v;
}

// A bandwidth cell that is printed but is no bandwidth: negative, inf, nan, or beyond any link. N/A is not printed.
bool noBandwidth(const std::string& cell, const std::optional<Printed>& read)
{
    std::string lower = cell;
    for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return lower != "n/a" && !bytesPerSecond(read);
}

// A word of the type or redop column ("float", "bfloat16", "sum", "none"); N/A, nan and inf stand for numbers.
bool isWord(const std::string& s)
{
    if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
    std::string lower = s;
    for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return lower != "n/a" && lower != "nan" && lower != "inf" && lower != "infinity";
}

// The header row: "#  size  count  type  redop  root  time  algbw  busbw  #wrong  time  algbw  busbw  #wrong"
// (older versions: no root, "error" for "#wrong"; -C: "cputime").
std::optional<std::vector<std::string>> headerNames(const std::string& t)
{
    if (t.empty() || t[0] != '#') return std::nullopt;
    auto names = tokens(std::string_view(t).substr(1));
    // Bytes that are no column name (NULs and other damage in a garbled file) do not make a column.
    std::erase_if(names, [](const std::string& n) {
        return std::any_of(n.begin(), n.end(), [](char c) { return c < 0x21 || c > 0x7e; });
    });
    const bool size = std::find(names.begin(), names.end(), "size") != names.end();
    const bool time = std::find_if(names.begin(), names.end(), [](const std::string& n) { return n == "time" || n == "cputime"; })
        != names.end();
    if (!size || !time) return std::nullopt;
    return names;
}

// One half of a row: out-of-place (the first time/algbw/busbw group) or in-place (the second).
struct Half {
    std::optional<Printed> us, alg, bus;
    std::optional<std::int64_t> wrong;
    std::optional<double> error;
    bool badBandwidth = false; // algbw or busbw printed as no bandwidth (noBandwidth)
};

struct Row {
    double bytes = 0;
    std::string dtype, redop;
    std::optional<double> root;
    Half half[2];
    int line = 0;
};

enum class RowFit { Ok, Short, Garbled };

// Lays a row's tokens under the header's columns. The word columns (type, redop) take a token only where it is a
// word: alltoall rows of older versions print an empty redop, and hand-edited tables change the spacing, so
// positions are not trusted, the order is.
RowFit fitRow(const std::vector<std::string>& names, const std::vector<std::string>& tok, Row& row)
{
    row = Row {};
    std::size_t t = 0;
    int h = -1;
    int numeric = 0, needed = 0; // numeric cells read, and how many the out-of-place half needs (through its busbw)
    for (const std::string& name : names) {
        if (name == "type" || name == "redop") continue;
        ++needed;
        if (name == "busbw") break;
    }
    bool sawSize = false;
    for (const std::string& name : names) {
        if (name == "type" || name == "redop") {
            if (t < tok.size() && isWord(tok[t])) {
                (name == "type" ? row.dtype : row.redop) = tok[t];
                ++t;
            }
            continue;
        }
        if (t >= tok.size()) break;
        const std::string& cell = tok[t++];
        ++numeric;
        if (isWord(cell)) return RowFit::Garbled;
        if (name == "time" || name == "cputime") h = std::min(h + 1, 1);
        if (name == "size") {
            const auto bytes = toNumber(cell);
            // A size that is not one (a garbled row putting "-1", the root column, under size) is no row.
            if (!isSizeToken(cell) || !bytes) return RowFit::Garbled;
            row.bytes = *bytes;
            sawSize = true;
            continue;
        }
        if (name == "root") row.root = toNumber(cell);
        if (h < 0) continue;
        Half& half = row.half[h];
        if (name == "time" || name == "cputime") half.us = printedNumber(cell);
        else if (name == "algbw" || name == "busbw") {
            (name == "algbw" ? half.alg : half.bus) = printedNumber(cell);
            if (noBandwidth(cell, name == "algbw" ? half.alg : half.bus)) half.badBandwidth = true;
        }
        else if (name == "#wrong" || name == "wrong") {
            if (const auto w = toNumber(cell); w && *w >= 0 && *w <= 9e15 && *w == std::floor(*w)) half.wrong = std::int64_t(*w);
        } else if (name == "error") {
            if (const auto e = toNumber(cell); e && *e >= 0) half.error = *e;
        }
    }
    if (!sawSize) return RowFit::Garbled;
    // Short: the tokens ran out before the out-of-place half's last column (a row wrapped onto the next line).
    if (numeric < needed) return RowFit::Short;
    return RowFit::Ok;
}

// The interval of rank counts that every row's printed busbw / algbw allows, given the rounding of both (busbw =
// algbw * 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all: nccl-tests
// doc/PERFORMANCE.md). Empty optional: no row tells (other ops, or bandwidths printed as 0.00).
struct RankRange {
    double lo = 1, hi = std::numeric_limits<double>::infinity();
    bool consistent = true;
    std::optional<int> unique() const
    {
        if (!consistent || !std::isfinite(hi)) return std::nullopt;
        const double first = std::ceil(lo - 1e-9), last = std::floor(hi + 1e-9);
        if (first != last || first < 2 || first > 1e7) return std::nullopt;
        return int(first);
    }
    bool contains(int n) const { return consistent && n >= lo - 1e-9 && n <= hi + 1e-9; }
};

std::optional<RankRange> ranksFromRatios(Collective op, const std::vector<Row>& rows)
{
    double limit = 0; // the factor as n grows without bound
    switch (op) {
    case Collective::AllReduce: limit = 2; break;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: limit = 1; break;
    default: return std::nullopt;
    }
    const auto nOf = [limit](double f) {
        if (f <= 0) return 1.0;
        if (f >= limit) return std::numeric_limits<double>::infinity();
        return limit / (limit - f);
    };
    std::optional<RankRange> range;
    for (const Row& row : rows)
        for (const Half& h : row.half) {
            if (h.badBandwidth || !h.alg || !h.bus || !(h.alg->value - h.alg->halfUnit > 0) || !(h.bus->value > 0)) continue;
            const double fLo = (h.bus->value - h.bus->halfUnit) / (h.alg->value + h.alg->halfUnit);
            const double fHi = (h.bus->value + h.bus->halfUnit) / (h.alg->value - h.alg->halfUnit);
            if (!range) range = RankRange {};
            range->lo = std::max(range->lo, nOf(fLo));
            range->hi = std::min(range->hi, nOf(fHi));
        }
    if (range && range->lo > range->hi + 1e-9) range->consistent = false;
    return range;
}

Text rangeText(const RankRange& r)
{
    if (const auto n = r.unique()) return Text(PS_TEXT("CoreText", "%1 ranks"), *n);
    const long lo = std::lround(std::ceil(r.lo - 1e-9));
    if (!std::isfinite(r.hi)) return Text(PS_TEXT("CoreText", "at least %1 ranks"), lo);
    return Text(PS_TEXT("CoreText", "%1 to %2 ranks"), lo, std::lround(std::floor(r.hi + 1e-9)));
}

Text ratioText(Collective op, const std::vector<Row>& rows)
{
    // The largest row's ratio: the most digits.
    const Row* best = nullptr;
    for (const Row& row : rows)
        if (!row.half[0].badBandwidth && row.half[0].alg && row.half[0].bus && row.half[0].alg->value > 0
            && (!best || row.bytes > best->bytes))
            best = &row;
    if (!best) return Text(PS_TEXT("CoreText", "the printed busbw / algbw"));
    char buf[320]; // %.4f of any double: at most 309 digits, a sign and ".0000"
    std::snprintf(buf, sizeof buf, "%.4f", best->half[0].bus->value / best->half[0].alg->value);
    return Text(PS_TEXT("CoreText", "%1 busbw / algbw = %2 (line %3)"), toString(op), buf, best->line);
}

// The collective a table measured where nothing names it, from what its rows show (nccl-tests prints the reduction
// as redop, "none" or nothing for collectives without one, the root as -1 for collectives without one; busbw / algbw
// is 2(n-1)/n > 1 for all-reduce only, (n-1)/n < 1 for reduce-scatter, 1 for reduce). Only the cases the rows
// decide: all-gather and all-to-all print the same, as do broadcast and send/recv without a root column.
std::optional<Collective> collectiveFromRows(const std::vector<Row>& rows, Text& why)
{
    bool reduction = false, noReduction = false, rooted = false, unrooted = false, above = false, below = false,
         one = true;
    for (const Row& row : rows) {
        if (!row.redop.empty()) (row.redop == "none" ? noReduction : reduction) = true;
        if (row.root) (*row.root >= 0 ? rooted : unrooted) = true;
        const Half& h = row.half[0];
        if (h.badBandwidth || !h.alg || !h.bus || !(h.alg->value - h.alg->halfUnit > 0)) continue;
        const double lo = (h.bus->value - h.bus->halfUnit) / (h.alg->value + h.alg->halfUnit);
        const double hi = (h.bus->value + h.bus->halfUnit) / (h.alg->value - h.alg->halfUnit);
        if (lo > 1) above = true;
        if (hi < 1) below = true;
        if (lo > 1 || hi < 1) one = false;
    }
    if (reduction == noReduction) return std::nullopt; // no redop printed, or both kinds
    if (reduction && !rooted && above && !below) {
        why = Text(PS_TEXT("CoreText", "redop %1 and busbw / algbw above 1, which only an all-reduce prints"),
            rows.front().redop);
        return Collective::AllReduce;
    }
    if (reduction && !rooted && below && !above) {
        why = Text(PS_TEXT("CoreText", "redop %1 and busbw / algbw below 1, which of the reductions only a "
                                       "reduce-scatter prints"),
            rows.front().redop);
        return Collective::ReduceScatter;
    }
    if (reduction && rooted && !unrooted && one) {
        why = Text(PS_TEXT("CoreText", "redop %1, a root, and busbw = algbw"), rows.front().redop);
        return Collective::Reduce;
    }
    if (noReduction && rooted && !unrooted && one) {
        why = Text(PS_TEXT("CoreText", "no reduction, a root, and busbw = algbw"));
        return Collective::Broadcast;
    }
    return std::nullopt;
}

// One half of a row as measured: the bandwidths as printed; one the row lacks is computed (algBw = S / t, busBw =
// algBw x factor, where the rank count or the op tells the factor) and named in `derived` ("inPlace." + name for
// the in-place half). The time must be there (the caller checked it).
CollectiveHalf measuredHalf(const Half& h, double bytes, double factor, bool canDerive, const std::string& prefix,
    std::vector<std::string>& derived)
{
    CollectiveHalf m;
    m.seconds = h.us->value * 1e-6;
    if (const auto alg = bytesPerSecond(h.alg)) {
        m.algBandwidth = *alg;
    } else {
        m.algBandwidth = bytes / m.seconds;
        derived.push_back(prefix + "algBandwidth");
    }
    if (const auto bus = bytesPerSecond(h.bus)) {
        m.busBandwidth = *bus;
    } else if (canDerive) {
        m.busBandwidth = m.algBandwidth * factor;
        derived.push_back(prefix + "busBandwidth");
    }
    m.wrong = h.wrong.value_or(-1);
    m.error = h.error.value_or(-1);
    return m;
}

struct Section {
    std::optional<Collective> op;
    std::string unknownBinary;  // a *_perf binary PlanScope does not model (gather_perf, hypercube_perf)
    std::map<int, RankLine> ranks;
    int nThread = 0, nGpus = 0;
    int headerLine = 0;
    std::vector<Row> rows;
};

void finishSection(const Section& s, const NcclTestsHints& hints, const Hint& hint, Profile& p, Issues& issues)
{
    if (s.rows.empty()) return;
    const int lineNo = s.headerLine > 0 ? s.headerLine : s.rows.front().line;
    const std::string where = "line " + std::to_string(lineNo);
    std::optional<Collective> op = hint.explicitOp ? hint.explicitOp : (s.op ? s.op : hint.fileOp);
    if (!op && s.unknownBinary.empty()) {
        Text why;
        op = collectiveFromRows(s.rows, why);
        if (op)
            issues.push_back(issue(Severity::Warning, where,
                Text(PS_TEXT("CoreText", "no *_perf binary named: %1 from the rows (%2); give the op if not "
                                         "(planscope-cli import-nccl-tests --op OP)"),
                    toString(*op), why)));
    }
    if (!op) {
        if (s.unknownBinary.empty())
            issues.push_back(issue(Severity::Error, where,
                Text(PS_TEXT("CoreText", "cannot tell which collective the table at line %1 (rows: %2) measured: no "
                                         "*_perf binary (all_reduce_perf, all_gather_perf, ...) is named above it, and "
                                         "its rows fit more than one; give the op (planscope-cli import-nccl-tests "
                                         "--op AllToAll) or name the file after the binary (alltoall_perf.txt)"),
                    lineNo, s.rows.size())));
        else
            issues.push_back(issue(Severity::Error, where,
                Text(PS_TEXT("CoreText", "the table at line %1 (rows: %2) is from %3, not a collective PlanScope "
                                         "models (AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, "
                                         "SendRecv)"),
                    lineNo, s.rows.size(), s.unknownBinary)));
        return;
    }
    const std::optional<RankRange> ratio = ranksFromRatios(*op, s.rows);

    // Ranks: given; else the highest rank index printed (outputs often keep only some "#  Rank" lines); else what
    // the printed bandwidths' ratio allows; else the header's threads x GPUs of a single process.
    int ranks = 0;
    if (hints.ranks > 0) {
        ranks = hints.ranks;
    } else if (!s.ranks.empty()) {
        ranks = s.ranks.rbegin()->first + 1;
    } else if (ratio && ratio->unique()) {
        ranks = *ratio->unique();
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "no \"#  Rank\" lines: %1 ranks from %2, the only rank count the printed digits "
                                     "allow"),
                ranks, ratioText(*op, s.rows))));
    } else if (const std::int64_t perProcess = std::int64_t(s.nThread) * s.nGpus;
               perProcess > 1 && perProcess <= 10000000 && (!ratio || ratio->contains(int(perProcess)))) {
        ranks = int(perProcess);
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "no \"#  Rank\" lines: %1 ranks from the header's nThread x nGpus (one process "
                                     "assumed)"),
                ranks)));
    } else if (*op != Collective::SendRecv && ratio) {
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "the rank count cannot be told: no \"#  Rank\" lines, and %1 allows %2; rows "
                                     "kept with their printed bandwidths but not fitted (give it: planscope-cli "
                                     "import-nccl-tests --ranks N)"),
                ratioText(*op, s.rows), rangeText(*ratio))));
    } else if (*op != Collective::SendRecv) {
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "the rank count cannot be told: no \"#  Rank\" lines, and no printed bandwidth "
                                     "ratio; rows kept with their printed bandwidths but not fitted (give it: "
                                     "planscope-cli import-nccl-tests --ranks N)"))));
    }
    if (ranks > 0 && ratio && !ratio->contains(ranks) && hints.ranks <= 0)
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "%1 is the factor for %2, not for the %3 the rank lines say; the printed "
                                     "bandwidths are kept as printed"),
                ratioText(*op, s.rows), rangeText(*ratio), ranks)));
    else if (ranks > 0 && ratio && !ratio->contains(ranks))
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "%1 is the factor for %2, not for the %3 ranks given"), ratioText(*op, s.rows),
                rangeText(*ratio), ranks)));

    // Nodes: given; else the host names when every rank's line is there; else, with only some rank lines, the
    // GPUs per node their device indexes show (rank r on device r mod g, as launchers place ranks node by node).
    int nodes = 0;
    std::set<std::string> hosts;
    int maxDevice = -1;
    bool placedByNode = true;
    for (const auto& [r, line] : s.ranks) {
        if (!line.host.empty()) hosts.insert(line.host);
        maxDevice = std::max(maxDevice, line.device);
    }
    for (const auto& [r, line] : s.ranks)
        if (line.device < 0 || maxDevice < 0 || r % (maxDevice + 1) != line.device) placedByNode = false;
    if (hints.nodes > 0) {
        nodes = hints.nodes;
    } else if (!s.ranks.empty() && int(s.ranks.size()) >= ranks && !hosts.empty()) {
        nodes = int(hosts.size());
    } else if (!s.ranks.empty() && ranks > 0 && placedByNode) {
        const int perNode = maxDevice + 1;
        nodes = std::max(int(hosts.size()), (ranks + perNode - 1) / perNode);
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "%1 nodes inferred from %2 of %3 rank lines: their device indexes are the rank "
                                     "modulo %4 (%5 GPUs per node); give it if not (planscope-cli import-nccl-tests "
                                     "--nodes N)"),
                nodes, s.ranks.size(), ranks, perNode, perNode)));
    } else if (!s.ranks.empty() && ranks > 0 && hosts.size() > 1 && int(hosts.size()) == ranks) {
        nodes = int(hosts.size());
    } else if (ranks > 0 && s.ranks.empty()) {
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "no \"#  Rank\" lines name the hosts: the node count is unknown, so these rows "
                                     "are fitted without a link class and change no plan (give it: planscope-cli "
                                     "import-nccl-tests --nodes N)"))));
    } else if (ranks > 0) {
        issues.push_back(issue(Severity::Warning, where,
            Text(PS_TEXT("CoreText", "the rank lines shown do not tell the hosts of the others: the node count is "
                                     "unknown, so these rows are fitted without a link class and change no plan (give "
                                     "it: planscope-cli import-nccl-tests --nodes N)"))));
    }

    const double factor = busBandwidthFactor(*op, ranks);
    const bool canDerive = ranks > 0 || factor > 0;
    int wrongRows = 0, wrongLine = 0, badRows = 0, badLine = 0;
    for (const Row& row : s.rows) {
        if (row.half[0].badBandwidth || row.half[1].badBandwidth) {
            if (badRows++ == 0) badLine = row.line;
        }
        CollectiveSample c;
        c.op = std::string(toString(*op));
        c.ranks = ranks;
        c.nodes = nodes;
        c.bytes = row.bytes;
        c.dtype = validUtf8(row.dtype);
        const CollectiveHalf out = measuredHalf(row.half[0], c.bytes, factor, canDerive, "", c.derived);
        c.seconds = out.seconds;
        c.algBandwidth = out.algBandwidth;
        c.busBandwidth = out.busBandwidth;
        c.wrong = out.wrong;
        c.error = out.error;
        const Half& in = row.half[1];
        if (in.us && in.us->value >= kMinMicroseconds && in.us->value <= kMaxMicroseconds)
            c.inPlace = measuredHalf(in, c.bytes, factor, canDerive, "inPlace.", c.derived);
        if (c.wrong > 0 || (c.inPlace && c.inPlace->wrong > 0)) {
            if (wrongRows++ == 0) wrongLine = row.line;
        }
        p.collectives.push_back(c);
    }
    if (badRows > 0)
        issues.push_back(issue(Severity::Warning, "line " + std::to_string(badLine),
            Text(PS_TEXT("CoreText", "%1 row(s) print an algbw or busbw that is no bandwidth (negative, inf, nan, or "
                                     "above 100000 GB/s): computed from the time instead where the rank count allows "
                                     "(listed in derived)"),
                badRows)));
    if (wrongRows > 0)
        issues.push_back(issue(Severity::Warning, "line " + std::to_string(wrongLine),
            Text(PS_TEXT("CoreText", "%1 row(s) report wrong results (#wrong > 0): the collective did not compute "
                                     "correctly there; kept"),
                wrongRows)));
    // The GPUs of the first host: a profile describes one machine.
    if (p.gpus.empty() && !s.ranks.empty()) {
        const std::string firstHost = s.ranks.begin()->second.host;
        for (const auto& [r, line] : s.ranks)
            if (line.host == firstHost && line.device >= 0) p.gpus.push_back({ line.device, line.name, 0, line.busId });
        if (p.host.empty()) p.host = firstHost;
    }
}

// "NCCL version 2.29.2+cuda13.1", "RCCL version : 2.22.3-HEAD:7d8d67c", "NCCL INFO NCCL version 2.18.5+cuda12.2",
// "# nccl-tests version 2.17.6 nccl-headers=22807 nccl-library=22807" (NCCL_VERSION_CODE: major*10000 + minor*100 +
// patch since 2.9).
std::string versionInLine(const std::string& t)
{
    for (const char* key : { "NCCL version", "RCCL version" }) {
        const auto at = t.find(key);
        if (at == std::string::npos) continue;
        auto tok = tokens(std::string_view(t).substr(at + std::strlen(key)));
        if (!tok.empty() && tok[0] == ":") tok.erase(tok.begin());
        if (!tok.empty() && std::isdigit(static_cast<unsigned char>(tok[0][0]))) return validUtf8(tok[0].substr(0, 64));
    }
    if (const auto at = t.find("nccl-library="); at != std::string::npos) {
        // (tests/fuzz/fuzz_profile: a line ending in "nccl-library=" read the first of no tokens)
        const auto tok = tokens(std::string_view(t).substr(at + 13));
        const auto code = tok.empty() ? std::nullopt : toCount(tok.front());
        if (code && *code >= 20900)
            return std::to_string(*code / 10000) + "." + std::to_string((*code / 100) % 100) + "." + std::to_string(*code % 100);
    }
    return {};
}

Result<Profile> importText(std::string_view text, const NcclTestsHints& hints, const Hint& hint)
{
    std::vector<std::string> lines;
    {
        std::size_t start = 0;
        while (start <= text.size()) {
            const auto nl = text.find('\n', start);
            const auto end = nl == std::string_view::npos ? text.size() : nl;
            lines.push_back(stripLauncherPrefix(std::string(text.substr(start, end - start))));
            if (nl == std::string_view::npos) break;
            start = nl + 1;
        }
    }
    Profile p;
    p.source = "nccl-tests";
    Issues issues;
    Section section;
    std::optional<std::vector<std::string>> names;
    int skipped = 0, firstSkipped = 0;
    bool sawHeader = false;
    // A new run: what the previous one printed about its ranks carries over until the output says otherwise.
    auto newSection = [&] {
        finishSection(section, hints, hint, p, issues);
        Section next;
        next.op = section.op;
        next.ranks = section.ranks;
        next.nThread = section.nThread;
        next.nGpus = section.nGpus;
        section = std::move(next);
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string t = trimLeft(lines[i]);
        const int lineNo = int(i) + 1;
        if (t.empty()) continue;
        std::string unknown;
        if (auto op = collectiveInText(t, &unknown)) {
            // A new binary named after rows were read starts the next run.
            if (!section.rows.empty() && op != section.op) newSection();
            section.op = op;
            section.unknownBinary.clear();
        } else if (!unknown.empty()) {
            if (!section.rows.empty()) newSection();
            section.op.reset();
            section.unknownBinary = unknown;
        }
        if (p.nccl.empty()) p.nccl = versionInLine(t);
        if (t[0] == '#') {
            const auto tok = tokens(std::string_view(t).substr(1));
            if (!tok.empty() && tok[0] == "nThread") {
                if (!section.rows.empty()) newSection();
                for (std::size_t k = 0; k + 1 < tok.size(); ++k) {
                    if (tok[k] == "nThread") section.nThread = toCount(tok[k + 1]).value_or(0);
                    if (tok[k] == "nGpus") section.nGpus = toCount(tok[k + 1]).value_or(0);
                }
            } else if (tok.size() >= 2 && tok[0] == "Using" && tok[1] == "devices") {
                if (!section.rows.empty()) newSection();
                section.ranks.clear();
            } else if (auto r = rankLine(t)) {
                if (!section.rows.empty()) {
                    newSection();
                    section.ranks.clear();
                }
                section.ranks[r->rank] = *r;
            } else if (auto n = headerNames(t)) {
                if (!section.rows.empty()) newSection();
                names = std::move(n);
                section.headerLine = lineNo;
                sawHeader = true;
            }
            continue;
        }
        if (!names) continue;
        auto tok = tokens(t);
        if (tok.empty() || !isSizeToken(tok[0])) continue;
        Row row;
        RowFit fit = fitRow(*names, tok, row);
        // A row wrapped by a terminal or a web page: join the continuation lines.
        for (std::size_t j = i + 1; fit == RowFit::Short && j < lines.size() && j <= i + 2; ++j) {
            const std::string next = trimLeft(lines[j]);
            if (next.empty() || next[0] == '#') break;
            const auto more = tokens(next);
            if (more.empty() || !toNumber(more[0]) || (isSizeToken(more[0]) && more.size() >= 6)) break;
            tok.insert(tok.end(), more.begin(), more.end());
            fit = fitRow(*names, tok, row);
            i = j;
        }
        row.line = lineNo;
        const Half& out = row.half[0];
        if (fit == RowFit::Garbled || !out.us || !(out.us->value >= kMinMicroseconds) || !(out.us->value <= kMaxMicroseconds)
            || !std::isfinite(row.bytes)) {
            if (skipped++ == 0) firstSkipped = lineNo;
            continue;
        }
        section.rows.push_back(std::move(row));
    }
    finishSection(section, hints, hint, p, issues);
    if (hasErrors(issues)) {
        jsonio::capIssues(issues);
        return Result<Profile>(issues);
    }
    if (p.collectives.empty()) {
        return Result<Profile>::failure("", sawHeader
                ? Text(PS_TEXT("CoreText", "no result rows under the nccl-tests table header"))
                : Text(PS_TEXT("CoreText", "no nccl-tests table found (expected a \"#  size  count  type ... time  "
                                           "algbw  busbw\" header row)")));
    }
    for (Issue& w : issues) p.warnings.push_back(std::move(w));
    if (skipped > 0)
        p.warnings.push_back(issue(Severity::Warning, "line " + std::to_string(firstSkipped),
            Text(PS_TEXT("CoreText", "%1 row(s) without a usable time (N/A, garbled or cut short) left out"),
                skipped)));
    // An output of 10,000 runs warns a hundred times, then counts the rest (io/JsonReader.h).
    jsonio::capIssues(p.warnings);
    p.fits = fitCollectives(p.collectives);
    return p;
}

Result<Profile> importJson(const json& j, const NcclTestsHints& hints, const Hint& hint)
{
    if (j.contains("schema")) return profileFromJson(j); // already a PlanScope profile
    if (!j.contains("results") || !j["results"].is_array())
        return Result<Profile>::failure("results",
            Text(PS_TEXT("CoreText", "not nccl-tests JSON output: no \"results\" array")));
    Profile p;
    p.source = "nccl-tests";
    std::optional<Collective> op = hint.explicitOp;
    std::string unknown;
    if (!op && j.contains("args") && j["args"].is_array() && !j["args"].empty() && j["args"][0].is_string())
        op = collectiveInText(j["args"][0].get<std::string>(), &unknown);
    if (!op) op = hint.fileOp;
    if (!op)
        return Result<Profile>::failure("args.0", unknown.empty()
                ? Text(PS_TEXT("CoreText", "cannot tell which collective was measured; give the op (e.g. AllReduce)"))
                : Text(PS_TEXT("CoreText", "\"%1\" is not a collective PlanScope models"), unknown));
    if (j.contains("nccl_version") && j["nccl_version"].is_number_integer()) {
        // NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9.
        const auto v = j["nccl_version"].get<std::int64_t>();
        p.nccl = std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." + std::to_string(v % 100);
    }
    int perProcess = 1, processes = 1;
    std::set<std::string> hosts;
    if (j.contains("config") && j["config"].is_object()) {
        const json& cfg = j["config"];
        auto count = [&](const char* key) {
            if (!cfg.contains(key) || !cfg[key].is_number_integer()) return std::int64_t(1);
            return std::clamp<std::int64_t>(cfg[key].get<std::int64_t>(), 1, 4096);
        };
        perProcess = int(count("nthreads") * count("ngpus"));
        if (cfg.contains("devices") && cfg["devices"].is_array() && !cfg["devices"].empty()) {
            processes = int(std::min<std::size_t>(cfg["devices"].size(), 1000000));
            for (const json& d : cfg["devices"]) {
                if (!d.is_object()) continue;
                // Fields of another type are left out (as absent), never thrown; device indexes as the profile
                // holds them (0..kMaxDeviceIndex).
                const auto text = [&d](const char* key) {
                    return d.contains(key) && d[key].is_string() ? d[key].get<std::string>() : std::string();
                };
                const std::string host = text("hostname");
                if (!host.empty()) hosts.insert(host);
                if (p.host.empty()) p.host = host;
                if (host == p.host && d.contains("device") && d["device"].is_number_integer()
                    && d["device"].get<std::int64_t>() >= 0 && d["device"].get<std::int64_t>() <= kMaxDeviceIndex)
                    p.gpus.push_back({ int(d["device"].get<std::int64_t>()), text("device_info"), 0, text("device_hex") });
            }
        }
    }
    const int ranks = hints.ranks > 0 ? hints.ranks : int(std::min<std::int64_t>(std::int64_t(perProcess) * processes, 10000000));
    // One device entry per process, each with its host: all the hosts are there.
    const int nodes = hints.nodes > 0 ? hints.nodes : int(hosts.size());
    Issues issues;
    if (nodes == 0)
        issues.push_back(issue(Severity::Warning, "config.devices", Text(PS_TEXT("CoreText", "no host names: the node "
            "count is unknown, so the results are fitted without a link class and change no plan (give it: "
            "planscope-cli import-nccl-tests --nodes N)"))));
    int skipped = 0;
    const double factor = busBandwidthFactor(*op, ranks);
    for (std::size_t i = 0; i < j["results"].size(); ++i) {
        CollectiveSample c;
        if (!detail::readCollectiveRow(j["results"][i], "results." + std::to_string(i), issues, c)) {
            jsonio::capIssues(issues);
            return Result<Profile>(issues);
        }
        if (!(c.seconds > 0)) {
            ++skipped;
            continue;
        }
        c.op = std::string(toString(*op));
        c.ranks = ranks;
        c.nodes = nodes;
        // The bandwidths -J wrote are kept; where it wrote none (or "nan"), they are computed.
        const auto derived = [&c](const char* name) { return std::find(c.derived.begin(), c.derived.end(), name) != c.derived.end(); };
        if (derived("busBandwidth")) c.busBandwidth = c.algBandwidth * factor;
        if (c.inPlace && derived("inPlace.busBandwidth")) c.inPlace->busBandwidth = c.inPlace->algBandwidth * factor;
        p.collectives.push_back(c);
    }
    if (p.collectives.empty())
        return Result<Profile>::failure("results", Text(PS_TEXT("CoreText", "no result with a time")));
    for (Issue& w : issues) p.warnings.push_back(w);
    if (skipped > 0)
        p.warnings.push_back(issue(Severity::Warning, "results",
            Text(PS_TEXT("CoreText", "%1 result(s) without a time left out"), skipped)));
    jsonio::capIssues(p.warnings);
    p.fits = fitCollectives(p.collectives);
    return p;
}

} // namespace

Result<Profile> importNcclTests(std::string_view text, const NcclTestsHints& hints)
{
    const Hint hint = readHint(hints.op);
    std::size_t first = 0;
    while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
    if (first < text.size() && text[first] == '{') {
        auto j = jsonio::parseText(text);
        if (!j) {
            const Issue& stop = j.errors().front();
            // A number out of a double's range is named at its field; otherwise, as nccl-tests leaves the document
            // open when a run is killed, say so rather than guess.
            if (!stop.path.empty()) return Result<Profile>(j.errors());
            return Result<Profile>::failure("",
                Text(PS_TEXT("CoreText", "JSON that does not parse (an nccl-tests -J file of a run that did not "
                                         "finish?)")),
                std::max<std::int64_t>(0, stop.offset));
        }
        if (!j->is_object())
            return Result<Profile>::failure("",
                Text(PS_TEXT("CoreText", "JSON that does not parse (an nccl-tests -J file of a run that did not "
                                         "finish?)")),
                0);
        return importJson(j.value(), hints, hint);
    }
    return importText(text, hints, hint);
}

Result<Profile> importNcclTests(std::string_view text, std::string_view opHint)
{
    NcclTestsHints hints;
    hints.op = std::string(opHint);
    return importNcclTests(text, hints);
}

} // namespace planscope
