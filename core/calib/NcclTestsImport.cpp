// nccl-tests output (NVIDIA/nccl-tests; rccl-tests prints the same table) into a profile.
//
// Text: the table's columns are found by name in its header row
//   "#  size  count  type  redop  root  time  algbw  busbw  #wrong  time  algbw  busbw  #wrong"
// (older versions lack "root", -C prints "cputime", -I adds per-iteration columns); the first time/algbw/busbw
// are the out-of-place half. Units: size bytes, time us, algbw/busbw GB/s (1e9). Ranks and nodes come from the
// "#  Rank  N Group G Pid P on HOST device D [BUSID] NAME" lines, the collective from the binary's name
// (all_reduce_perf, all_gather_perf_mpi, ...) wherever the text mentions it (the "# Collective test starting:"
// line, or a pasted command line), else from the hint. Launcher prefixes ("[1,0]<stdout>:", srun -l's " 0: ")
// are stripped; a row wrapped onto the next line is joined; a value printed as N/A leaves that row out.
//
// JSON (-J FILE.json in recent nccl-tests; layout from src/util.cu): {"args": [argv...], "config": {"nthreads", "ngpus",
// "devices": [{"rank", "hostname", "device", "device_hex", "device_info"}]}, "results": [{"size",
// "out_of_place": {"time", "alg_bw", "bus_bw", "nwrong"}, "in_place": {...}}]}. With MPI there is one device
// entry per process, each driving nthreads * ngpus ranks.
#include "Profile.h"
#include "ProfileRows.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
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

// The collective a test binary's name ("all_reduce_perf", ".../all_gather_perf_mpi") names. `known` tells an
// nccl-tests binary PlanScope does not model (gather_perf, hypercube_perf, alltoallv_perf) from no binary at all.
std::optional<Collective> collectiveInText(std::string_view text, std::string* unknownName = nullptr)
{
    for (std::size_t pos = text.find("_perf"); pos != std::string_view::npos; pos = text.find("_perf", pos + 1)) {
        if (pos + 5 < text.size() && isWordChar(text[pos + 5]) && text.substr(pos + 5, 4) != "_mpi") continue;
        std::size_t start = pos;
        while (start > 0 && isWordChar(text[start - 1])) --start;
        const std::string_view stem = text.substr(start, pos - start);
        for (const TestName& t : kTests)
            if (stem == t.snake) return t.op;
        if (unknownName && !stem.empty() && unknownName->empty()) *unknownName = std::string(stem) + "_perf";
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

struct Columns {
    int size = -1, time = -1, algbw = -1, busbw = -1;
    int needed() const { return std::max({ size, time, algbw, busbw }) + 1; }
};

// The header row: "#  size  count  type  redop  root  time  algbw  busbw  #wrong ...".
std::optional<Columns> headerColumns(const std::string& line)
{
    const std::string t = trimLeft(line);
    if (t.empty() || t[0] != '#') return std::nullopt;
    const auto tok = tokens(std::string_view(t).substr(1));
    Columns c;
    for (int i = 0; i < int(tok.size()); ++i) {
        const std::string& s = tok[std::size_t(i)];
        if (s == "size" && c.size < 0) c.size = i;
        else if ((s == "time" || s == "cputime") && c.time < 0) c.time = i;
        else if (s == "algbw" && c.time >= 0 && c.algbw < 0) c.algbw = i;
        else if (s == "busbw" && c.time >= 0 && c.busbw < 0) c.busbw = i;
    }
    if (c.size < 0 || c.time < 0) return std::nullopt;
    return c;
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
    if (auto n = toCount(tok[1])) r.rank = *n;
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

// The number of ranks a bus/alg bandwidth ratio implies (when the output lacks the rank lines).
int ranksFromFactor(Collective c, double factor)
{
    if (!(factor > 0) || !std::isfinite(factor)) return 0;
    double n = 0;
    switch (c) {
    case Collective::AllReduce: n = factor < 2 ? 2.0 / (2.0 - factor) : 0; break;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: n = factor < 1 ? 1.0 / (1.0 - factor) : 0; break;
    default: return 0;
    }
    // busbw is printed to 0.01 GB/s: past a few hundred ranks the ratio no longer tells n.
    return n >= 1.5 && n < 512 ? int(std::lround(n)) : 0;
}

struct Section {
    std::optional<Collective> op;
    std::map<int, RankLine> ranks;
    int nThread = 0, nGpus = 0;
    struct Row {
        double bytes = 0, seconds = 0, alg = -1, bus = -1;
    };
    std::vector<Row> rows;
};

void finishSection(Section& s, const Hint& hint, Profile& p, Issues& issues, int& index)
{
    if (s.rows.empty()) return;
    ++index;
    const std::string where = "run " + std::to_string(index);
    std::optional<Collective> op = hint.explicitOp ? hint.explicitOp : (s.op ? s.op : hint.fileOp);
    if (!op) {
        issues.push_back({ Severity::Error, where,
            "cannot tell which collective was measured: no *_perf binary named in the output; give the op "
            "(e.g. AllReduce) or name the file after the binary (all_reduce_perf.txt)",
            -1 });
        return;
    }
    int ranks = int(s.ranks.size());
    std::set<std::string> hosts;
    for (const auto& [r, line] : s.ranks)
        if (!line.host.empty()) hosts.insert(line.host);
    if (ranks == 0) {
        // No rank lines: the printed bus/alg ratio of the largest row tells n.
        const auto& big = *std::max_element(s.rows.begin(), s.rows.end(),
            [](const Section::Row& a, const Section::Row& b) { return a.bytes < b.bytes; });
        if (big.alg > 0 && big.bus > 0) ranks = ranksFromFactor(*op, big.bus / big.alg);
        if (ranks == 0 && s.nThread * s.nGpus > 1) ranks = s.nThread * s.nGpus;
        if (ranks == 0) ranks = (*op == Collective::SendRecv) ? 1 : 0;
        if (ranks == 0) {
            issues.push_back({ Severity::Error, where,
                "cannot tell the number of ranks: no \"#  Rank ...\" lines and no bus/alg bandwidth ratio", -1 });
            return;
        }
    }
    const int nodes = std::max<int>(1, int(hosts.size()));
    const double factor = busBandwidthFactor(*op, ranks);
    for (const auto& row : s.rows) {
        CollectiveSample c;
        c.op = std::string(toString(*op));
        c.ranks = ranks;
        c.nodes = nodes;
        c.bytes = row.bytes;
        c.seconds = row.seconds;
        c.algBandwidth = row.seconds > 0 ? row.bytes / row.seconds : 0;
        // nccl-tests rounds busbw to 0.01 GB/s; S/t * factor is the same number unrounded.
        c.busBandwidth = c.algBandwidth * factor;
        p.collectives.push_back(c);
    }
    // The GPUs of the first host: a profile describes one machine.
    if (p.gpus.empty() && !s.ranks.empty()) {
        const std::string firstHost = s.ranks.begin()->second.host;
        for (const auto& [r, line] : s.ranks)
            if (line.host == firstHost && line.device >= 0) p.gpus.push_back({ line.device, line.name, 0, line.busId });
        if (p.host.empty()) p.host = firstHost;
    }
}

Result<Profile> importText(std::string_view text, const Hint& hint)
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
    std::optional<Columns> cols;
    std::optional<Collective> lastOp;
    int runs = 0, skipped = 0;
    bool sawHeader = false;
    auto newSection = [&] {
        finishSection(section, hint, p, issues, runs);
        section = Section {};
        section.op = lastOp;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const std::string t = trimLeft(line);
        if (t.empty()) continue;
        if (auto op = collectiveInText(t)) {
            // A new binary named after rows were read starts the next run.
            if (!section.rows.empty() && op != section.op) newSection();
            lastOp = op;
            section.op = op;
        }
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
                section.ranks[r->rank] = *r;
            } else if (auto c = headerColumns(t)) {
                if (c->size >= 0 && c->time >= 0) {
                    cols = c;
                    sawHeader = true;
                }
            }
            continue;
        }
        if (!cols) continue;
        auto tok = tokens(t);
        if (tok.empty() || !isSizeToken(tok[0])) continue;
        // A row wrapped by a terminal or a web page: join the continuation lines.
        for (std::size_t j = i + 1; int(tok.size()) < cols->needed() && j < lines.size() && j <= i + 2; ++j) {
            const std::string next = trimLeft(lines[j]);
            if (next.empty() || next[0] == '#') break;
            const auto more = tokens(next);
            if (more.empty() || !toNumber(more[0])) break;
            tok.insert(tok.end(), more.begin(), more.end());
            i = j;
        }
        if (int(tok.size()) < cols->needed()) {
            ++skipped;
            continue;
        }
        const auto bytes = toNumber(tok[std::size_t(cols->size)]);
        const auto us = toNumber(tok[std::size_t(cols->time)]);
        // A size that is not one (a wrapped or garbled row putting "-1", the root column, under size) is skipped
        // like a row without a time: a profile holds sizes and times >= 0 only.
        if (!bytes || !us || !(*bytes >= 0) || !(*us > 0) || !std::isfinite(*bytes) || !std::isfinite(*us)) {
            ++skipped;
            continue;
        }
        Section::Row row;
        row.bytes = *bytes;
        row.seconds = *us * 1e-6;
        if (cols->algbw >= 0) row.alg = toNumber(tok[std::size_t(cols->algbw)]).value_or(-1);
        if (cols->busbw >= 0) row.bus = toNumber(tok[std::size_t(cols->busbw)]).value_or(-1);
        section.rows.push_back(row);
    }
    finishSection(section, hint, p, issues, runs);
    if (hasErrors(issues)) return Result<Profile>(issues);
    if (p.collectives.empty()) {
        return Result<Profile>::failure("", sawHeader
                ? "no result rows under the nccl-tests table header"
                : "no nccl-tests table found (expected a \"#  size  count  type ... time  algbw  busbw\" header row)");
    }
    if (skipped > 0)
        p.warnings.push_back({ Severity::Warning, "", std::to_string(skipped) + " row(s) without a usable time (N/A or cut short) left out", -1 });
    p.fits = fitCollectives(p.collectives);
    return p;
}

Result<Profile> importJson(const json& j, const Hint& hint)
{
    if (j.contains("schema")) return profileFromJson(j); // already a PlanScope profile
    if (!j.contains("results") || !j["results"].is_array())
        return Result<Profile>::failure("results", "not nccl-tests JSON output: no \"results\" array");
    Profile p;
    p.source = "nccl-tests";
    std::optional<Collective> op = hint.explicitOp;
    std::string unknown;
    if (!op && j.contains("args") && j["args"].is_array() && !j["args"].empty() && j["args"][0].is_string())
        op = collectiveInText(j["args"][0].get<std::string>(), &unknown);
    if (!op) op = hint.fileOp;
    if (!op)
        return Result<Profile>::failure("args.0", unknown.empty()
                ? "cannot tell which collective was measured; give the op (e.g. AllReduce)"
                : "\"" + unknown + "\" is not a collective PlanScope models");
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
    const int ranks = int(std::min<std::int64_t>(std::int64_t(perProcess) * processes, 10000000));
    const int nodes = std::max<int>(1, int(hosts.size()));
    Issues issues;
    int skipped = 0;
    for (std::size_t i = 0; i < j["results"].size(); ++i) {
        CollectiveSample c;
        if (!detail::readCollectiveRow(j["results"][i], "results." + std::to_string(i), issues, c)) return Result<Profile>(issues);
        if (!(c.seconds > 0)) {
            ++skipped;
            continue;
        }
        c.op = std::string(toString(*op));
        c.ranks = ranks;
        c.nodes = nodes;
        c.algBandwidth = c.bytes / c.seconds;
        c.busBandwidth = c.algBandwidth * busBandwidthFactor(*op, ranks);
        p.collectives.push_back(c);
    }
    if (p.collectives.empty()) return Result<Profile>::failure("results", "no result with a time");
    for (Issue& w : issues) p.warnings.push_back(w);
    if (skipped > 0)
        p.warnings.push_back({ Severity::Warning, "results", std::to_string(skipped) + " result(s) without a time left out", -1 });
    p.fits = fitCollectives(p.collectives);
    return p;
}

} // namespace

Result<Profile> importNcclTests(std::string_view text, std::string_view opHint)
{
    const Hint hint = readHint(opHint);
    std::size_t first = 0;
    while (first < text.size() && std::isspace(static_cast<unsigned char>(text[first]))) ++first;
    if (first < text.size() && text[first] == '{') {
        json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded() || !j.is_object()) {
            // nccl-tests leaves the document open when a run is killed; say so rather than guess.
            return Result<Profile>::failure("", "JSON that does not parse (an nccl-tests -J file of a run that did not finish?)", 0);
        }
        return importJson(j, hint);
    }
    return importText(text, hint);
}

} // namespace planscope
