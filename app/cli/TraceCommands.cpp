#include "TraceCommands.h"

#include "trace/KinetoImport.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

using nlohmann::json;

namespace {

json rankToJson(const MeasuredRank& r)
{
    json collectives = json::object();
    for (const auto& [name, n] : r.collectives) collectives[name] = n;
    json j = json::object();
    j["rank"] = r.rank >= 0 ? json(r.rank) : json(nullptr);
    j["worldSize"] = r.worldSize >= 0 ? json(r.worldSize) : json(nullptr);
    j["file"] = r.file;
    j["events"] = r.events;
    j["kernels"] = r.kernels;
    j["ncclKernels"] = r.ncclKernels;
    j["collectives"] = collectives;
    j["memoryEvents"] = r.memoryEvents;
    j["steps"] = r.steps;
    j["breakdown"] = json { { "computeSeconds", r.breakdown.computeSeconds },
        { "commSeconds", r.breakdown.commSeconds }, { "overlapSeconds", r.breakdown.overlapSeconds },
        { "idleSeconds", r.breakdown.idleSeconds } };
    return j;
}

std::string ms(double seconds)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", seconds * 1e3);
    return buf;
}

} // namespace

int cmdImport(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.empty()) {
        err << "usage: planscope-cli import TRACE... [--json]\n";
        return 1;
    }
    std::vector<MeasuredRank> ranks;
    json skipped = json::array();
    for (const std::string& path : a.positional) {
        auto r = importKinetoTrace(path);
        if (!r) {
            const Issue& i = r.errors().front();
            skipped.push_back(json { { "file", path }, { "offset", i.offset }, { "reason", i.message } });
            err << "planscope-cli: " << path << ": " << i.message;
            if (i.offset >= 0) err << " (byte offset " << i.offset << ")";
            err << "\n";
            continue;
        }
        if (r->skipped) {
            skipped.push_back(json { { "file", path }, { "offset", r->skipped->offset }, { "reason", r->skipped->reason } });
            err << "planscope-cli: " << path << ": imported up to byte " << r->skipped->offset << ": "
                << r->skipped->reason << "\n";
        }
        ranks.push_back(std::move(r).value());
    }

    if (a.has("--json")) {
        json doc = json::object();
        doc["schema"] = "planscope/import/v1";
        doc["ranks"] = json::array();
        for (const auto& r : ranks) doc["ranks"].push_back(rankToJson(r));
        doc["comparison"] = json::object();
        doc["skipped"] = skipped;
        out << doc.dump(2) << "\n";
    } else {
        for (const auto& r : ranks) {
            out << r.file << "\n";
            out << "  rank " << (r.rank >= 0 ? std::to_string(r.rank) : "?") << " of "
                << (r.worldSize >= 0 ? std::to_string(r.worldSize) : "?") << "; " << r.events << " events, "
                << r.kernels << " kernels (" << r.ncclKernels << " NCCL), " << r.memoryEvents << " memory events\n";
            if (!r.collectives.empty()) {
                out << "  collectives:";
                for (const auto& [name, n] : r.collectives) out << " " << name << " " << n;
                out << "\n";
            }
            if (!r.steps.empty()) {
                out << "  steps:";
                for (const auto& s : r.steps) out << " " << s;
                out << "\n";
            }
            out << "  GPU time (ms): compute " << ms(r.breakdown.computeSeconds) << ", communication "
                << ms(r.breakdown.commSeconds) << ", overlap " << ms(r.breakdown.overlapSeconds) << ", idle "
                << ms(r.breakdown.idleSeconds) << " over a kernel span of " << ms(r.breakdown.spanSeconds) << "\n";
        }
        for (const auto& s : skipped)
            out << "skipped " << s["file"].get<std::string>() << " at byte " << s["offset"].get<std::int64_t>()
                << ": " << s["reason"].get<std::string>() << "\n";
    }
    return ranks.empty() ? 2 : 0;
}

} // namespace planscope::cli
