// Profile files (docs/FORMATS.md section 6): write, read with field-path errors, round-trip.
#include "Profile.h"

#include "ProfileRows.h"
#include "cost/Collective.h"
#include "io/FileKind.h"
#include "io/JsonReader.h"
#include "io/PlanJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace planscope {

using nlohmann::json;
using jsonio::ObjectReader;
using detail::kMaxAlpha;
using detail::kMaxBandwidth;
using detail::kMaxBytes;
using detail::kMaxSeconds;
using detail::kMaxTflops;

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

json halfExtras(json j, std::int64_t wrong, double error)
{
    if (wrong >= 0) j["wrong"] = wrong;
    if (error >= 0) j["error"] = error;
    return j;
}

json collectiveToJson(const CollectiveSample& c)
{
    json j = halfExtras({ { "op", c.op }, { "ranks", c.ranks }, { "nodes", c.nodes }, { "bytes", c.bytes },
                            { "seconds", c.seconds }, { "algBandwidth", c.algBandwidth }, { "busBandwidth", c.busBandwidth } },
        c.wrong, c.error);
    if (!c.dtype.empty()) j["dtype"] = c.dtype;
    if (c.inPlace)
        j["inPlace"] = halfExtras({ { "seconds", c.inPlace->seconds }, { "algBandwidth", c.inPlace->algBandwidth },
                                      { "busBandwidth", c.inPlace->busBandwidth } },
            c.inPlace->wrong, c.inPlace->error);
    if (!c.derived.empty()) j["derived"] = c.derived;
    return j;
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
        r.error(path, Text(PS_TEXT("CoreText", "must be an array, found %1"), a->type_name()));
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
    r.integer("nodes", c.nodes, 0, 1e7);
    r.number("bytes", c.bytes, 0, kMaxBytes);
    // A time is > 0; bandwidths may be 0 (nccl-tests prints 0.00 GB/s for its smallest sizes). Neither is beyond
    // what a machine does (ProfileRows.h).
    if (r.number("seconds", c.seconds, 0, kMaxSeconds) && !(c.seconds > 0))
        r.error(jsonio::join(path, "seconds"),
            Text(PS_TEXT("CoreText", "must be > 0 (the out-of-place time in seconds)")));
    r.number("algBandwidth", c.algBandwidth, 0, kMaxBandwidth);
    r.number("busBandwidth", c.busBandwidth, 0, kMaxBandwidth);
    const bool ncclRow = !r.has("bytes") && r.has("size");
    if (ncclRow) {
        r.number("size", c.bytes, 0, kMaxBytes);
        r.string("type", c.dtype);
        // nccl-tests writes NaN as the string "nan" and an unvalidated count as "N/A": such a value is not there.
        auto readHalf = [&](const json& half, const std::string& key, CollectiveHalf& out) {
            ObjectReader h(half, jsonio::join(path, key), issues);
            // Times in us, bandwidths in GB/s (nccl-tests src/util.cu), within the bounds of ProfileRows.h.
            auto num = [&](std::string_view k, double& v, double max) {
                const json* x = h.find(k);
                if (x && x->is_string()) return false;
                return h.number(k, v, 0, max);
            };
            double us = 0, alg = 0, bus = 0, wrong = -1;
            bool any = false;
            if (num("time", us, kMaxSeconds * 1e6) || num("cpu_time", us, kMaxSeconds * 1e6)) {
                out.seconds = us * 1e-6;
                any = true;
            }
            if (num("alg_bw", alg, kMaxBandwidth / 1e9)) out.algBandwidth = alg * 1e9;
            else out.algBandwidth = -1;
            if (num("bus_bw", bus, kMaxBandwidth / 1e9)) out.busBandwidth = bus * 1e9;
            else out.busBandwidth = -1;
            if (num("nwrong", wrong, std::numeric_limits<double>::infinity()) && wrong <= 9e15) out.wrong = std::int64_t(wrong);
            h.rejectUnknown({ "time", "cpu_time", "alg_bw", "bus_bw", "nwrong" });
            return any;
        };
        // The table's first half is out-of-place; where only the in-place half ran, it stands in.
        const json* outOfPlace = r.find("out_of_place");
        const json* inPlace = r.find("in_place");
        CollectiveHalf main;
        bool haveMain = false;
        if (outOfPlace && outOfPlace->is_object()) {
            haveMain = readHalf(*outOfPlace, "out_of_place", main);
            if (inPlace && inPlace->is_object()) {
                CollectiveHalf ip;
                if (readHalf(*inPlace, "in_place", ip) && ip.seconds > 0) {
                    if (ip.algBandwidth < 0) {
                        ip.algBandwidth = c.bytes / ip.seconds;
                        c.derived.push_back("inPlace.algBandwidth");
                    }
                    if (ip.busBandwidth < 0) {
                        ip.busBandwidth = 0; // set by the importer, which knows the rank count
                        c.derived.push_back("inPlace.busBandwidth");
                    }
                    c.inPlace = ip;
                }
            }
        } else if (inPlace) {
            haveMain = readHalf(*inPlace, "in_place", main);
        }
        if (haveMain) {
            c.seconds = main.seconds;
            c.wrong = main.wrong;
            if (main.algBandwidth >= 0) c.algBandwidth = main.algBandwidth;
            else c.derived.push_back("algBandwidth");
            if (main.busBandwidth >= 0) c.busBandwidth = main.busBandwidth;
            else c.derived.push_back("busBandwidth");
        }
        r.rejectUnknown({ "op", "ranks", "nodes", "size", "count", "type", "redop", "root", "out_of_place",
            "in_place", "out_of_place_per_iter", "in_place_per_iter", "actual_iterations", "experiment_name",
            "algBandwidth", "busBandwidth", "seconds" });
    } else {
        r.string("dtype", c.dtype);
        double wrong = -1;
        if (r.number("wrong", wrong, 0, 9e15)) c.wrong = std::int64_t(wrong);
        r.number("error", c.error, 0);
        if (const json* ip = r.find("inPlace")) {
            ObjectReader h(*ip, jsonio::join(path, "inPlace"), issues);
            if (h.ok()) {
                CollectiveHalf half;
                if (h.number("seconds", half.seconds, 0, kMaxSeconds) && !(half.seconds > 0))
                    h.error(jsonio::join(h.path(), "seconds"),
                        Text(PS_TEXT("CoreText", "must be > 0 (the in-place time in seconds)")));
                h.number("algBandwidth", half.algBandwidth, 0, kMaxBandwidth);
                h.number("busBandwidth", half.busBandwidth, 0, kMaxBandwidth);
                double w = -1;
                if (h.number("wrong", w, 0, 9e15)) half.wrong = std::int64_t(w);
                h.number("error", half.error, 0);
                h.rejectUnknown({ "seconds", "algBandwidth", "busBandwidth", "wrong", "error" });
                c.inPlace = half;
            }
        }
        if (const json* d = r.find("derived")) {
            const std::string dpath = jsonio::join(path, "derived");
            if (!d->is_array()) {
                r.error(dpath, Text(PS_TEXT("CoreText", "must be an array of field names, found %1"), d->type_name()));
            } else {
                for (std::size_t i = 0; i < d->size(); ++i) {
                    const json& name = (*d)[i];
                    if (name.is_string() && (name == "algBandwidth" || name == "busBandwidth"
                            || name == "inPlace.algBandwidth" || name == "inPlace.busBandwidth")) {
                        if (std::find(c.derived.begin(), c.derived.end(), name.get<std::string>()) == c.derived.end())
                            c.derived.push_back(name.get<std::string>());
                    }
                    else
                        r.warning(dpath + "." + std::to_string(i), Text(PS_TEXT("CoreText", "expected "
                            "\"algBandwidth\", \"busBandwidth\", \"inPlace.algBandwidth\" or \"inPlace.busBandwidth\"; "
                            "ignored")));
                }
            }
        }
        r.rejectUnknown({ "op", "ranks", "nodes", "bytes", "seconds", "algBandwidth", "busBandwidth", "dtype", "wrong",
            "error", "inPlace", "derived" });
    }
    // A row without its algorithm bandwidth gets S / t, and says so.
    const bool algDerived = std::find(c.derived.begin(), c.derived.end(), "algBandwidth") != c.derived.end();
    if (!r.has("algBandwidth") && c.seconds > 0 && (algDerived || (!ncclRow && c.algBandwidth == 0))) {
        c.algBandwidth = c.bytes / c.seconds;
        if (!algDerived) c.derived.push_back("algBandwidth");
    }
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
            r.error("schema",
                Text(PS_TEXT("CoreText", "unknown schema \"%1\"; expected \"%2\""), schema, kProfileSchema));
    } else if (!r.has("schema")) {
        r.warning("schema", Text(PS_TEXT("CoreText", "missing; read as %1"), kProfileSchema));
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
        er.number("bandwidth", l.bandwidth, 0, kMaxBandwidth); // 0: not known
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
        // Either may be 0 (not given: computed from the other and the shape), not both; neither beyond a machine.
        const bool badTime = er.has("seconds") && !er.number("seconds", g.seconds, 0, kMaxSeconds);
        const bool badRate = er.has("tflops") && !er.number("tflops", g.tflops, 0, kMaxTflops);
        er.rejectUnknown({ "m", "n", "k", "dtype", "seconds", "tflops" });
        if (!badTime && !badRate && !(g.seconds > 0) && !(g.tflops > 0))
            er.error(path,
                Text(PS_TEXT("CoreText", "needs seconds > 0 or tflops > 0: a GEMM without a time measured nothing")));
        if (g.tflops == 0 && g.seconds > 0) {
            g.tflops = 2.0 * double(g.m) * double(g.n) * double(g.k) / g.seconds / 1e12;
            if (!(g.tflops <= kMaxTflops))
                er.error(jsonio::join(path, "seconds"), Text(PS_TEXT("CoreText", "is too short for the shape: "
                    "2*m*n*k / seconds is more than 100000 TFLOP/s, beyond any GPU")));
        }
        p.gemm.push_back(g);
    });
    r.number("hbmBandwidth", p.hbmBandwidth, 0, kMaxBandwidth); // 0: not measured
    // Rows without a time (none given, or nccl-tests' "nan") measured nothing to fit: left out, counted.
    int untimed = 0;
    std::string firstUntimed;
    forEachRow(r, "collectives", [&](const json& e, const std::string& path) {
        CollectiveSample c;
        if (!detail::readCollectiveRow(e, path, issues, c)) return;
        Collective known;
        if (c.op.empty()) {
            issues.push_back(issue(Severity::Error, jsonio::join(path, "op"), Text(PS_TEXT("CoreText", "missing: the "
                "collective measured (AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv)"))));
            return;
        }
        if (!(c.seconds > 0)) {
            if (untimed++ == 0) firstUntimed = path;
            return;
        }
        if (!fromString(c.op, known))
            issues.push_back(issue(Severity::Warning, jsonio::join(path, "op"),
                Text(PS_TEXT("CoreText", "\"%1\" is not a collective PlanScope models; kept, not fitted"), c.op)));
        p.collectives.push_back(c);
    });
    if (untimed > 0)
        issues.push_back(issue(Severity::Warning, firstUntimed,
            Text(PS_TEXT("CoreText", "%1 collective row(s) without a time left out: nothing to fit"), untimed)));
    forEachRow(r, "fits", [&](const json& e, const std::string& path) {
        LinkFit f;
        ObjectReader er(e, path, issues);
        if (!er.ok()) return;
        er.string("op", f.op);
        er.integer("ranks", f.ranks, 0, 1e7);
        er.integer("nodes", f.nodes, 0, 1e7);
        if (er.string("linkClass", f.linkClass) && f.linkClass != "intra" && f.linkClass != "inter" && f.linkClass != "unknown")
            er.error(jsonio::join(path, "linkClass"),
                Text(PS_TEXT("CoreText", "unknown value \"%1\"; expected intra, inter or unknown"), f.linkClass));
        er.number("alpha", f.alpha, 0, kMaxAlpha);
        // A fit always has a bandwidth (fitCollectives keeps no fit without one): 0 is no measurement.
        if (er.number("busBandwidth", f.busBandwidth, 0, kMaxBandwidth) && !(f.busBandwidth > 0))
            er.error(jsonio::join(path, "busBandwidth"), Text(PS_TEXT("CoreText", "must be > 0 (bytes/s)")));
        er.integer("points", f.points, 0, 1e9);
        er.rejectUnknown({ "op", "ranks", "nodes", "linkClass", "alpha", "busBandwidth", "points" });
        if (f.linkClass.empty()) f.linkClass = detail::linkClassFor(f.nodes);
        p.fits.push_back(f);
    });
    r.rejectUnknown({ "schema", "host", "source", "versions", "gpus", "links", "gemm", "hbmBandwidth", "collectives",
        "fits" });
    // A hundred of each severity, then one count of the rest (io/JsonReader.h).
    jsonio::capIssues(issues);
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
    // A file that names the profile schema is a profile: its own errors are the answer (io/FileKind.h's rule).
    if (!loaded && fileKindOfHead(text.value()) == FileKind::Profile) return Result<Profile>(loaded.errors());
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
            errors.insert(errors.begin(), issue(Severity::Error, "",
                Text(PS_TEXT("CoreText", "neither a profile (schema %1) nor nccl-tests output"), kProfileSchema)));
            return Result<Profile>(std::move(errors));
        }
    }
    if (profile->fits.empty()) profile->fits = fitCollectives(profile->collectives);
    if (profile->source.empty()) profile->source = base;
    return std::move(*profile);
}

} // namespace planscope
