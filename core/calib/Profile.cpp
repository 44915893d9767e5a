// Profile files (docs/FORMATS.md section 6): write, read with field-path errors, round-trip.
#include "Profile.h"

#include "ProfileRows.h"
#include "cost/Collective.h"
#include "io/JsonReader.h"
#include "io/PlanJson.h"

#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;
using jsonio::ObjectReader;

namespace {

json gpuToJson(const ProfileGpu& g)
{
    return { { "index", g.index }, { "name", g.name }, { "memory", g.memory }, { "busId", g.busId } };
}

json linkToJson(const ProfileLink& l)
{
    return { { "from", l.from }, { "to", l.to }, { "kind", l.kind }, { "count", l.count }, { "bandwidth", l.bandwidth } };
}

json gemmToJson(const GemmSample& g)
{
    return { { "m", g.m }, { "n", g.n }, { "k", g.k }, { "dtype", g.dtype }, { "seconds", g.seconds },
        { "tflops", g.tflops } };
}

json collectiveToJson(const CollectiveSample& c)
{
    return { { "op", c.op }, { "ranks", c.ranks }, { "nodes", c.nodes }, { "bytes", c.bytes }, { "seconds", c.seconds },
        { "algBandwidth", c.algBandwidth }, { "busBandwidth", c.busBandwidth } };
}

json fitToJson(const LinkFit& f)
{
    return { { "op", f.op }, { "ranks", f.ranks }, { "nodes", f.nodes }, { "linkClass", f.linkClass },
        { "alpha", f.alpha }, { "busBandwidth", f.busBandwidth }, { "points", f.points } };
}

// Runs `each` on every element of the array at `key`, with the element's path ("gemm.3").
template<typename F>
void forEachRow(ObjectReader& r, std::string_view key, F each)
{
    const json* a = r.find(key);
    if (!a) return;
    const std::string path = jsonio::join(r.path(), key);
    if (!a->is_array()) {
        r.error(path, std::string("must be an array, found ") + a->type_name());
        return;
    }
    for (std::size_t i = 0; i < a->size(); ++i) each((*a)[i], path + "." + std::to_string(i));
}

bool isProfileRowError(const Issues& issues, std::size_t from)
{
    for (std::size_t i = from; i < issues.size(); ++i)
        if (issues[i].severity == Severity::Error) return true;
    return false;
}

} // namespace

json profileToJson(const Profile& p)
{
    json j;
    j["schema"] = kProfileSchema;
    j["host"] = p.host;
    j["source"] = p.source;
    j["versions"] = { { "cuda", p.cuda }, { "nccl", p.nccl }, { "driver", p.driver } };
    j["gpus"] = json::array();
    for (const auto& g : p.gpus) j["gpus"].push_back(gpuToJson(g));
    j["links"] = json::array();
    for (const auto& l : p.links) j["links"].push_back(linkToJson(l));
    j["gemm"] = json::array();
    for (const auto& g : p.gemm) j["gemm"].push_back(gemmToJson(g));
    j["hbmBandwidth"] = p.hbmBandwidth;
    j["collectives"] = json::array();
    for (const auto& c : p.collectives) j["collectives"].push_back(collectiveToJson(c));
    j["fits"] = json::array();
    for (const auto& f : p.fits) j["fits"].push_back(fitToJson(f));
    return j;
}

namespace detail {

// A collective row: the profile's own keys, or an nccl-tests -J result row ({"size", "out_of_place": {"time" us,
// "alg_bw" GB/s, "bus_bw" GB/s}}), so that both load through one reader.
bool readCollectiveRow(const json& j, const std::string& path, Issues& issues, CollectiveSample& c)
{
    const std::size_t before = issues.size();
    ObjectReader r(j, path, issues);
    if (!r.ok()) return false;
    r.string("op", c.op);
    r.integer("ranks", c.ranks, 0, 1e7);
    r.integer("nodes", c.nodes, 1, 1e7);
    r.number("bytes", c.bytes, 0);
    r.number("seconds", c.seconds, 0);
    r.number("algBandwidth", c.algBandwidth, 0);
    r.number("busBandwidth", c.busBandwidth, 0);
    const bool ncclRow = !r.has("bytes") && r.has("size");
    if (ncclRow) {
        r.number("size", c.bytes, 0);
        // Out-of-place as the table's first half; in-place only where out-of-place was not run.
        const json* half = r.find("out_of_place");
        std::string halfKey = "out_of_place";
        if (!half || !half->is_object()) {
            half = r.find("in_place");
            halfKey = "in_place";
        }
        if (half) {
            ObjectReader h(*half, jsonio::join(path, halfKey), issues);
            double us = 0, alg = 0, bus = 0;
            // nccl-tests writes NaN as the string "nan": such a row carries no time.
            auto num = [&](std::string_view k, double& out) {
                const json* v = h.find(k);
                if (v && v->is_string()) return false;
                return h.number(k, out, 0);
            };
            if (num("time", us) || num("cpu_time", us)) c.seconds = us * 1e-6;
            if (num("alg_bw", alg)) c.algBandwidth = alg * 1e9;
            if (num("bus_bw", bus)) c.busBandwidth = bus * 1e9;
            h.rejectUnknown({ "time", "cpu_time", "alg_bw", "bus_bw", "nwrong" });
        }
        r.rejectUnknown({ "op", "ranks", "nodes", "size", "count", "type", "redop", "root", "out_of_place",
            "in_place", "out_of_place_per_iter", "in_place_per_iter", "actual_iterations", "experiment_name",
            "algBandwidth", "busBandwidth", "seconds" });
    } else {
        r.rejectUnknown({ "op", "ranks", "nodes", "bytes", "seconds", "algBandwidth", "busBandwidth" });
    }
    if (c.algBandwidth == 0 && c.seconds > 0) c.algBandwidth = c.bytes / c.seconds;
    return !isProfileRowError(issues, before);
}

} // namespace detail

Result<Profile> profileFromJson(const json& j)
{
    Issues issues;
    Profile p;
    ObjectReader r(j, "", issues);
    if (!r.ok()) return Result<Profile>(issues);
    std::string schema;
    if (r.string("schema", schema)) {
        if (schema != kProfileSchema)
            r.error("schema", "unknown schema \"" + schema + "\"; expected \"" + std::string(kProfileSchema) + "\"");
    } else if (!r.has("schema")) {
        r.warning("schema", "missing; read as " + std::string(kProfileSchema));
    }
    r.string("host", p.host);
    r.string("source", p.source);
    if (const json* v = r.find("versions")) {
        ObjectReader vr(*v, "versions", issues);
        vr.string("cuda", p.cuda);
        vr.string("nccl", p.nccl);
        vr.string("driver", p.driver);
        vr.rejectUnknown({ "cuda", "nccl", "driver" });
    }
    forEachRow(r, "gpus", [&](const json& e, const std::string& path) {
        ProfileGpu g;
        ObjectReader er(e, path, issues);
        if (!er.ok()) return;
        er.integer("index", g.index, 0, 1e6);
        er.string("name", g.name);
        er.integer("memory", g.memory, 0);
        er.string("busId", g.busId);
        er.rejectUnknown({ "index", "name", "memory", "busId" });
        p.gpus.push_back(g);
    });
    forEachRow(r, "links", [&](const json& e, const std::string& path) {
        ProfileLink l;
        ObjectReader er(e, path, issues);
        if (!er.ok()) return;
        er.integer("from", l.from, 0, 1e6);
        er.integer("to", l.to, 0, 1e6);
        er.string("kind", l.kind);
        er.integer("count", l.count, 0, 1e6);
        er.number("bandwidth", l.bandwidth, 0);
        er.rejectUnknown({ "from", "to", "kind", "count", "bandwidth" });
        p.links.push_back(l);
    });
    forEachRow(r, "gemm", [&](const json& e, const std::string& path) {
        GemmSample g;
        ObjectReader er(e, path, issues);
        if (!er.ok()) return;
        er.integer("m", g.m, 0);
        er.integer("n", g.n, 0);
        er.integer("k", g.k, 0);
        er.string("dtype", g.dtype);
        er.number("seconds", g.seconds, 0);
        er.number("tflops", g.tflops, 0);
        er.rejectUnknown({ "m", "n", "k", "dtype", "seconds", "tflops" });
        if (g.tflops == 0 && g.seconds > 0) g.tflops = 2.0 * double(g.m) * double(g.n) * double(g.k) / g.seconds / 1e12;
        p.gemm.push_back(g);
    });
    r.number("hbmBandwidth", p.hbmBandwidth, 0);
    forEachRow(r, "collectives", [&](const json& e, const std::string& path) {
        CollectiveSample c;
        if (!detail::readCollectiveRow(e, path, issues, c)) return;
        Collective known;
        if (c.op.empty())
            issues.push_back({ Severity::Error, jsonio::join(path, "op"), "missing: the collective measured (AllReduce, "
                "AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv)", -1 });
        else if (!fromString(c.op, known))
            issues.push_back({ Severity::Warning, jsonio::join(path, "op"), "\"" + c.op + "\" is not a collective "
                "PlanScope models; kept, not fitted", -1 });
        p.collectives.push_back(c);
    });
    forEachRow(r, "fits", [&](const json& e, const std::string& path) {
        LinkFit f;
        ObjectReader er(e, path, issues);
        if (!er.ok()) return;
        er.string("op", f.op);
        er.integer("ranks", f.ranks, 0, 1e7);
        er.integer("nodes", f.nodes, 1, 1e7);
        if (er.string("linkClass", f.linkClass) && f.linkClass != "intra" && f.linkClass != "inter")
            er.error(jsonio::join(path, "linkClass"), "unknown value \"" + f.linkClass + "\"; expected intra or inter");
        er.number("alpha", f.alpha, 0);
        er.number("busBandwidth", f.busBandwidth, 0);
        er.integer("points", f.points, 0, 1e9);
        er.rejectUnknown({ "op", "ranks", "nodes", "linkClass", "alpha", "busBandwidth", "points" });
        if (f.linkClass.empty()) f.linkClass = f.nodes > 1 ? "inter" : "intra";
        p.fits.push_back(f);
    });
    r.rejectUnknown({ "schema", "host", "source", "versions", "gpus", "links", "gemm", "hbmBandwidth", "collectives",
        "fits" });
    if (hasErrors(issues)) {
        Issues errors;
        for (const Issue& i : issues)
            if (i.severity == Severity::Error) errors.push_back(i);
        return Result<Profile>(errors);
    }
    p.warnings = std::move(issues);
    return p;
}

Result<Profile> parseProfile(std::string_view text)
{
    auto j = jsonio::parseText(text);
    if (!j) return Result<Profile>(j.errors());
    return profileFromJson(j.value());
}

Result<Profile> loadProfileFile(const std::string& path)
{
    auto text = readTextFile(path);
    if (!text) return Result<Profile>(text.errors());
    return parseProfile(text.value());
}

Result<Profile> loadMeasurements(const std::string& path)
{
    auto text = readTextFile(path);
    if (!text) return Result<Profile>(text.errors());
    const std::string base = path.substr(path.find_last_of("/\\") + 1);
    auto loaded = parseProfile(text.value());
    bool noSchema = false;
    if (loaded)
        for (const Issue& w : loaded->warnings) noSchema = noSchema || w.path == "schema";
    std::optional<Profile> profile;
    if (loaded && !noSchema) {
        profile = std::move(loaded).value();
    } else {
        // Not a profile: nccl-tests output (text or -J JSON), the op from the output's header or the file name.
        auto imported = importNcclTests(text.value(), base);
        if (imported)
            profile = std::move(imported).value();
        else if (loaded)
            profile = std::move(loaded).value();
        else {
            Issues errors = loaded.errors();
            errors.insert(errors.begin(), Issue { Severity::Error, "", "neither a profile (schema " + std::string(kProfileSchema)
                    + ") nor nccl-tests output" });
            return Result<Profile>(std::move(errors));
        }
    }
    if (profile->fits.empty()) profile->fits = fitCollectives(profile->collectives);
    if (profile->source.empty()) profile->source = base;
    return std::move(*profile);
}

} // namespace planscope
