#include "io/SearchShardJson.h"

#include <cmath>
#include <limits>
#include <string>

namespace planscope {

using nlohmann::json;

namespace {

struct FieldError {
    std::string path;
    std::string message;
};

std::string at(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

json number(double v)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

double numberOf(const json& o, const std::string& path, const char* key)
{
    if (!o.is_object() || !o.contains(key)) throw FieldError { at(path, key), "is missing" };
    const json& v = o[key];
    if (v.is_number()) return v.get<double>();
    if (v == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (v == "inf") return std::numeric_limits<double>::infinity();
    if (v == "-inf") return -std::numeric_limits<double>::infinity();
    throw FieldError { at(path, key), std::string("must be a number, not ") + v.type_name() };
}

std::int64_t intOf(const json& o, const std::string& path, const char* key)
{
    if (!o.is_object() || !o.contains(key) || !o[key].is_number_integer()) throw FieldError { at(path, key), "must be an integer" };
    return o[key].get<std::int64_t>();
}

const json& arrayOf(const json& o, const std::string& path, const char* key)
{
    if (!o.is_object() || !o.contains(key) || !o[key].is_array()) throw FieldError { at(path, key), "must be an array" };
    return o[key];
}

json entryJson(const SearchEntry& e)
{
    return { { "index", e.index }, { "stepSeconds", number(e.stepSeconds) }, { "tokensPerSecond", number(e.tokensPerSecond) },
        { "mfu", number(e.mfu) }, { "peakBytes", e.peakBytes }, { "capacityBytes", e.capacityBytes }, { "usableBytes", e.usableBytes },
        { "gpuHoursPerToken", number(e.gpuHoursPerToken) }, { "trainingDays", number(e.trainingDays) }, { "source", e.source },
        { "beyond", e.beyond } };
}

SearchEntry entryOf(const json& o, const std::string& path, const SearchSpace& space, double total)
{
    SearchEntry e;
    e.index = intOf(o, path, "index");
    if (e.index < 0 || double(e.index) >= total) throw FieldError { at(path, "index"), "is outside the space of this search" };
    e.candidate = candidateAt(space, e.index);
    e.stepSeconds = numberOf(o, path, "stepSeconds");
    e.tokensPerSecond = numberOf(o, path, "tokensPerSecond");
    e.mfu = numberOf(o, path, "mfu");
    e.peakBytes = intOf(o, path, "peakBytes");
    e.capacityBytes = intOf(o, path, "capacityBytes");
    e.usableBytes = intOf(o, path, "usableBytes");
    e.gpuHoursPerToken = numberOf(o, path, "gpuHoursPerToken");
    e.trainingDays = numberOf(o, path, "trainingDays");
    if (!o.contains("source") || !o["source"].is_string()) throw FieldError { at(path, "source"), "must be a string" };
    e.source = o["source"].get<std::string>();
    e.beyond = unsigned(intOf(o, path, "beyond"));
    return e;
}

} // namespace

json searchShardToJson(const SearchShard& s)
{
    json top = json::array(), front = json::array(), sample = json::array(), byGpus = json::array(), rejected = json::object();
    for (const SearchEntry& e : s.top) top.push_back(entryJson(e));
    for (const SearchEntry& e : s.front) front.push_back(entryJson(e));
    for (const SearchPoint& p : s.sample) sample.push_back(json::array({ p.index, number(p.stepSeconds), p.peakBytes }));
    for (const SearchResult::PerGpus& g : s.byGpus)
        byGpus.push_back({ { "gpus", g.gpus }, { "valid", g.valid }, { "fit", g.fit }, { "fastest", g.fastest ? entryJson(*g.fastest) : json() } });
    for (const auto& [k, v] : s.rejected) rejected[k] = v;
    return { { "first", s.first }, { "last", s.last }, { "valid", s.valid }, { "fit", s.fit }, { "evaluated", s.evaluated },
        { "betterValid", s.betterValid }, { "betterFit", s.betterFit }, { "rejected", std::move(rejected) }, { "top", std::move(top) },
        { "front", std::move(front) }, { "sample", std::move(sample) }, { "byGpus", std::move(byGpus) }, { "cacheHits", s.cacheHits },
        { "cacheMisses", s.cacheMisses }, { "threads", s.threads }, { "seconds", s.seconds }, { "cancelled", s.cancelled } };
}

Result<SearchShard> searchShardFromJson(const json& j, const SearchSpace& space)
{
    try {
        double total = 1;
        for (std::int64_t r : space.radices()) total *= double(std::max<std::int64_t>(1, r));
        SearchShard s;
        s.first = intOf(j, "", "first");
        s.last = intOf(j, "", "last");
        if (s.first < 0 || s.last < s.first || double(s.last) > total) throw FieldError { "last", "the range is outside the space" };
        s.valid = numberOf(j, "", "valid");
        s.fit = numberOf(j, "", "fit");
        s.evaluated = numberOf(j, "", "evaluated");
        s.betterValid = numberOf(j, "", "betterValid");
        s.betterFit = numberOf(j, "", "betterFit");
        if (!j.contains("rejected") || !j["rejected"].is_object()) throw FieldError { "rejected", "must be an object" };
        for (const auto& [k, v] : j["rejected"].items()) {
            if (!v.is_number()) throw FieldError { "rejected." + k, "must be a number" };
            s.rejected[k] = v.get<double>();
        }
        const json& top = arrayOf(j, "", "top");
        for (std::size_t i = 0; i < top.size(); ++i) s.top.push_back(entryOf(top[i], "top." + std::to_string(i), space, total));
        const json& front = arrayOf(j, "", "front");
        for (std::size_t i = 0; i < front.size(); ++i) s.front.push_back(entryOf(front[i], "front." + std::to_string(i), space, total));
        const json& sample = arrayOf(j, "", "sample");
        for (std::size_t i = 0; i < sample.size(); ++i) {
            const json& p = sample[i];
            const std::string path = "sample." + std::to_string(i);
            if (!p.is_array() || p.size() != 3 || !p[0].is_number_integer() || !p[2].is_number_integer())
                throw FieldError { path, "must be [index, stepSeconds, peakBytes]" };
            SearchPoint point;
            point.index = p[0].get<std::int64_t>();
            point.stepSeconds = numberOf(json { { "v", p[1] } }, path, "v");
            point.peakBytes = p[2].get<std::int64_t>();
            s.sample.push_back(point);
        }
        const json& byGpus = arrayOf(j, "", "byGpus");
        if (byGpus.size() != space.gpus.size()) throw FieldError { "byGpus", "must have one row per GPU count of the search" };
        for (std::size_t i = 0; i < byGpus.size(); ++i) {
            const std::string path = "byGpus." + std::to_string(i);
            SearchResult::PerGpus g;
            g.gpus = int(intOf(byGpus[i], path, "gpus"));
            g.valid = numberOf(byGpus[i], path, "valid");
            g.fit = numberOf(byGpus[i], path, "fit");
            if (byGpus[i].contains("fastest") && !byGpus[i]["fastest"].is_null())
                g.fastest = entryOf(byGpus[i]["fastest"], at(path, "fastest"), space, total);
            s.byGpus.push_back(std::move(g));
        }
        s.cacheHits = intOf(j, "", "cacheHits");
        s.cacheMisses = intOf(j, "", "cacheMisses");
        s.threads = int(intOf(j, "", "threads"));
        s.seconds = numberOf(j, "", "seconds");
        if (!j.contains("cancelled") || !j["cancelled"].is_boolean()) throw FieldError { "cancelled", "must be true or false" };
        s.cancelled = j["cancelled"].get<bool>();
        return s;
    } catch (const FieldError& e) {
        return Result<SearchShard>::failure(e.path, e.message);
    } catch (const json::exception& e) {
        return Result<SearchShard>::failure("", std::string("cannot be read: ") + e.what());
    }
}

} // namespace planscope
