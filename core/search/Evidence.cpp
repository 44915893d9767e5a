#include "Evidence.h"

#include "cost/Parameters.h"
#include "spec/Presets.h"
#include "util/Units.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace planscope {

namespace {

using nlohmann::json;

std::string percent(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * share);
    return buf;
}

// A string field of an object, or the path of what is wrong with it.
bool readString(const json& object, const std::string& path, const char* key, std::string& out, std::string& bad)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
        bad = path + "." + key;
        return false;
    }
    out = it->get<std::string>();
    return true;
}

bool readBest(const json& object, const std::string& path, PublishedBest& out, std::string& bad)
{
    if (!object.is_object()) {
        bad = path;
        return false;
    }
    const auto mfu = object.find("mfu");
    if (mfu == object.end() || !mfu->is_number() || !(mfu->get<double>() > 0 && mfu->get<double>() < 1)) {
        bad = path + ".mfu";
        return false;
    }
    out.mfu = mfu->get<double>();
    return readString(object, path, "run", out.run, bad) && readString(object, path, "source", out.source, bad)
        && readString(object, path, "configuration", out.configuration, bad);
}

} // namespace

Result<std::vector<MfuCeiling>> parseMfuCeilings(std::string_view text)
{
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return Result<std::vector<MfuCeiling>>::failure("", Text(PS_TEXT("CoreText", "not a JSON object")));
    if (doc.value("schema", std::string()) != "planscope/mfu-ceilings/v1")
        return Result<std::vector<MfuCeiling>>::failure("schema",
            Text(PS_TEXT("CoreText", "expected \"%1\""), "planscope/mfu-ceilings/v1"));
    const auto list = doc.find("ceilings");
    if (list == doc.end() || !list->is_array())
        return Result<std::vector<MfuCeiling>>::failure("ceilings", Text(PS_TEXT("CoreText", "expected an array")));
    std::vector<MfuCeiling> out;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& c = (*list)[i];
        const std::string path = "ceilings[" + std::to_string(i) + "]";
        MfuCeiling ceiling;
        std::string bad;
        const bool ok = c.is_object() && readString(c, path, "gpu", ceiling.gpu, bad)
            && readString(c, path, "precision", ceiling.precision, bad)
            && readBest(c.value("any", json()), path + ".any", ceiling.any, bad)
            && readBest(c.value("largeModel", json()), path + ".largeModel", ceiling.largeModel, bad);
        Precision p;
        if (ok && !fromString(ceiling.precision, p)) bad = path + ".precision";
        if (!ok || !bad.empty())
            return Result<std::vector<MfuCeiling>>::failure(bad.empty() ? path : bad,
                Text(PS_TEXT("CoreText", "missing or not valid")));
        out.push_back(std::move(ceiling));
    }
    return out;
}

const std::vector<MfuCeiling>& mfuCeilings()
{
    // Built into the program by cmake/EmbedPresets.cmake; tst_evidence checks that it parses.
    static const std::vector<MfuCeiling> ceilings = [] {
        auto parsed = parseMfuCeilings(embeddedPresetFile("mfu-ceilings.json"));
        return parsed ? std::move(parsed).value() : std::vector<MfuCeiling> {};
    }();
    return ceilings;
}

PublishedEvidence publishedEvidence(const Plan& plan, const std::vector<MfuCeiling>& ceilings)
{
    PublishedEvidence ev;
    ev.gpu = plan.cluster.gpu.id;
    ev.largeModel = countParameters(plan.model).total >= kLargeModelParameters;
    const PeakFlops& peaks = plan.cluster.gpu.peakFlops;
    const double peak = peaks.forPrecision(plan.training.precision);
    // The plan's own precision first; else a precision whose dense peak on this GPU is the plan's (fp16 and bf16 on
    // A100 and H100), since MFU divides by that peak.
    const MfuCeiling* found = nullptr;
    for (const MfuCeiling& c : ceilings)
        if (c.gpu == ev.gpu && c.precision == toString(plan.training.precision)) found = &c;
    for (const MfuCeiling& c : ceilings) {
        Precision p;
        if (found || c.gpu != ev.gpu || !fromString(c.precision, p)) continue;
        if (peak > 0 && peaks.forPrecision(p) == peak) found = &c;
    }
    if (!found) {
        ev.precision = std::string(toString(plan.training.precision));
        return ev;
    }
    ev.hasCeiling = true;
    ev.precision = found->precision;
    ev.best = ev.largeModel ? found->largeModel : found->any;
    return ev;
}

unsigned beyondEvidence(const PublishedEvidence& ev, double mfu, std::int64_t peakBytes, std::int64_t capacityBytes)
{
    unsigned flags = 0;
    if (ev.hasCeiling && mfu > ev.best.mfu) flags |= kBeyondMfu;
    if (capacityBytes > 0 && double(capacityBytes - peakBytes) < ev.memoryMargin * double(capacityBytes))
        flags |= kBeyondMemory;
    return flags;
}

std::vector<std::string> beyondEvidenceNames(unsigned flags)
{
    std::vector<std::string> out;
    if (flags & kBeyondMfu) out.push_back("mfu");
    if (flags & kBeyondMemory) out.push_back("memory");
    return out;
}

double stepAtCeiling(const PublishedEvidence& ev, double stepSeconds, double mfu)
{
    return ev.hasCeiling && ev.best.mfu > 0 ? stepSeconds * mfu / ev.best.mfu : 0.0;
}

Text beyondEvidenceText(const PublishedEvidence& ev, unsigned flags, double mfu, std::int64_t peakBytes,
    std::int64_t capacityBytes)
{
    std::vector<Text> parts;
    if (flags & kBeyondMfu)
        parts.push_back(ev.largeModel
                ? Text(PS_TEXT("CoreText", "MFU %1 is above the best a published run of 100B parameters or more reached on "
                                           "%2 in %3 (%4: %5)"),
                      percent(mfu), ev.gpu, ev.precision, percent(ev.best.mfu), ev.best.run)
                : Text(PS_TEXT("CoreText", "MFU %1 is above the best a published run reached on %2 in %3 (%4: %5)"),
                      percent(mfu), ev.gpu, ev.precision, percent(ev.best.mfu), ev.best.run));
    if (flags & kBeyondMemory)
        parts.push_back(Text(PS_TEXT("CoreText", "the peak %1 leaves %2 of the %3 free, less than the %4 the memory model "
                                                 "has missed on published runs (docs/MEMORY-ACCURACY.md)"),
            units::formatBytes(double(peakBytes)), units::formatBytes(double(capacityBytes - peakBytes)),
            units::formatBytes(double(capacityBytes)), percent(ev.memoryMargin)));
    return Text::join(std::move(parts), Text::Joint::List);
}

Text evidenceText(const PublishedEvidence& ev)
{
    if (!ev.hasCeiling)
        return Text(PS_TEXT("CoreText", "no published run on %1 in %2 to hold the MFU to (samples/published/mfu-ceilings.json)"),
            ev.gpu, ev.precision);
    return ev.largeModel
        ? Text(PS_TEXT("CoreText", "the best published MFU on %1 in %2 at 100B parameters or more: %3 (%4; %5)"), ev.gpu,
              ev.precision, percent(ev.best.mfu), ev.best.run, ev.best.source)
        : Text(PS_TEXT("CoreText", "the best published MFU on %1 in %2: %3 (%4; %5)"), ev.gpu, ev.precision,
              percent(ev.best.mfu), ev.best.run, ev.best.source);
}

} // namespace planscope
