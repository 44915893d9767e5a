#include "SearchJson.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;

json candidateToJson(const Candidate& c)
{
    json training = { { "microBatch", c.microBatch }, { "recompute", std::string(toString(c.recompute.mode)) },
        { "schedule", std::string(toString(c.schedule)) } };
    if (c.recompute.mode == Recompute::Selective) training["recomputeModules"] = c.recompute.moduleNames();
    training["overlapGradReduce"] = bool(c.overlap & kOverlapGradReduce);
    training["tpCommOverlap"] = bool(c.overlap & kOverlapTpComm);
    training["overlapP2pComm"] = bool(c.overlap & kOverlapP2p);
    training["offload"] = { { "optimizerFraction", c.offload } };
    json parallel = { { "dp", c.dp }, { "tp", c.tp }, { "pp", c.pp }, { "cp", c.cp }, { "ep", c.ep }, { "vpp", c.vpp },
        { "sp", c.sp }, { "zero", c.zero }, { "fsdp", std::string(toString(c.fsdp)) } };
    if (c.split != SplitChoice::Template) {
        // The space's own split replaces any the plan file has.
        const bool in = c.split == SplitChoice::EmbeddingAndLossInSplit;
        parallel["layout"] = c.split == SplitChoice::Balanced ? json(c.layout) : json("");
        parallel["firstStageLayers"] = 0;
        parallel["lastStageLayers"] = 0;
        parallel["embeddingInSplit"] = in;
        parallel["lossInSplit"] = in;
    }
    return { { "parallel", parallel }, { "training", training }, { "gpus", c.gpus } };
}

json searchEntryToJson(const SearchEntry& e)
{
    json j = candidateToJson(e.candidate);
    j["index"] = e.index;
    j["stepSeconds"] = e.stepSeconds;
    j["tokensPerSecond"] = e.tokensPerSecond;
    j["mfu"] = e.mfu;
    j["peakBytes"] = e.peakBytes;
    j["capacityBytes"] = e.capacityBytes;
    j["usableBytes"] = e.usableBytes;
    j["gpuHoursPerToken"] = e.gpuHoursPerToken;
    j["trainingDays"] = e.trainingDays;
    j["source"] = e.source;
    j["beyondEvidence"] = beyondEvidenceNames(e.beyond);
    return j;
}

json searchToJson(const SearchResult& r, Objective objective, const std::vector<TermDifference>& whyNot, const Sizing* sizing)
{
    const SearchSpace& s = r.space;
    json knobs = { { "gpus", s.gpus }, { "tp", s.tp }, { "pp", s.pp }, { "cp", s.cp }, { "ep", s.ep }, { "vpp", s.vpp },
        { "zero", s.zero }, { "microBatch", s.microBatch }, { "overlap", s.overlap }, { "offload", s.offload } };
    knobs["dp"] = s.dpDerived ? json("gpus/(tp*pp*cp)") : json(s.dp);
    json sp = json::array(), rec = json::array(), sched = json::array();
    for (bool b : s.sp) sp.push_back(b);
    for (const RecomputeChoice& c : s.recompute) rec.push_back(c.label());
    for (ScheduleKind k : s.schedule) sched.push_back(std::string(toString(k)));
    knobs["sp"] = sp;
    knobs["recompute"] = rec;
    knobs["schedule"] = sched;

    json doc;
    doc["schema"] = kSearchSchema;
    doc["objective"] = toString(objective);
    doc["space"] = { { "plans", r.plans }, { "valid", r.valid }, { "fit", r.fit }, { "seconds", r.seconds },
        { "threads", r.threads }, { "evaluated", r.evaluated }, { "cancelled", r.cancelled }, { "knobs", knobs },
        { "notes", englishLines(r.notes) }, { "cacheHits", r.cacheHits }, { "cacheMisses", r.cacheMisses } };
    json rejected = json::object();
    for (const auto& [reason, n] : r.rejected) rejected[reason] = n;
    doc["rejected"] = rejected;
    const PublishedEvidence& ev = r.evidence;
    json evidence = { { "gpu", ev.gpu }, { "precision", ev.precision }, { "largeModel", ev.largeModel },
        { "memoryMargin", ev.memoryMargin }, { "text", evidenceText(ev).english() } };
    evidence["ceiling"] = ev.hasCeiling ? json { { "mfu", ev.best.mfu }, { "run", ev.best.run }, { "source", ev.best.source },
                                              { "configuration", ev.best.configuration } }
                                        : json(nullptr);
    doc["evidence"] = evidence;
    json best = json::array();
    for (std::size_t i = 0; i < r.best.size(); ++i) {
        json e = searchEntryToJson(r.best[i]);
        e["rank"] = i + 1;
        best.push_back(e);
    }
    doc["best"] = best;
    json pareto = json::array();
    for (const SearchEntry& e : r.pareto) pareto.push_back(searchEntryToJson(e));
    doc["pareto"] = pareto;
    json given = searchEntryToJson(r.given.entry);
    given.erase("index");
    given["valid"] = r.given.valid;
    given["fits"] = r.given.fits;
    given["reason"] = r.given.reason.english();
    given["rankAmongValid"] = r.given.rankAmongValid;
    given["rankAmongFit"] = r.given.rankAmongFit;
    if (!whyNot.empty()) {
        json terms = json::array();
        for (const TermDifference& t : whyNot)
            terms.push_back({ { "field", t.field }, { "label", termLabelText(t) }, { "given", t.mine }, { "best", t.best },
                { "difference", t.mine - t.best }, { "unit", t.unit } });
        given["whyNot"] = terms;
    }
    doc["given"] = given;
    json byGpus = json::array();
    for (const SearchResult::PerGpus& g : r.byGpus) {
        json row = { { "gpus", g.gpus }, { "valid", g.valid }, { "fit", g.fit } };
        row["fastest"] = g.fastest ? searchEntryToJson(*g.fastest) : json(nullptr);
        byGpus.push_back(row);
    }
    doc["byGpus"] = byGpus;
    if (sizing) {
        json rows = json::array();
        for (const SizingRow& row : sizing->rows)
            rows.push_back({ { "gpus", row.gpus }, { "fit", row.fit }, { "days", row.days }, { "gpuHours", row.gpuHours },
                { "best", row.best ? searchEntryToJson(*row.best) : json(nullptr) } });
        doc["sizing"] = { { "tokens", sizing->tokens }, { "days", sizing->days }, { "rows", rows },
            { "answer", sizing->answer >= 0 ? json(sizing->rows[std::size_t(sizing->answer)].gpus) : json(nullptr) },
            { "cheapest", sizing->cheapest >= 0 ? json(sizing->rows[std::size_t(sizing->cheapest)].gpus) : json(nullptr) },
            { "smallest", sizing->smallest >= 0 ? json(sizing->rows[std::size_t(sizing->smallest)].gpus) : json(nullptr) } };
    }
    return doc;
}

json searchDocument(const SearchSpace& space, const SearchResult& r, Objective objective, std::optional<double> days,
    std::optional<double> tokens)
{
    const SearchVerdict v = searchVerdict(space, r, days, tokens);
    return searchToJson(r, objective, v.whyNot, v.sizing ? &*v.sizing : nullptr);
}

std::string searchToCsv(const SearchResult& r)
{
    // The flags of an entry in one CSV field: "mfu|memory".
    auto beyond = [](unsigned flags) {
        std::string text;
        for (const std::string& n : beyondEvidenceNames(flags)) text += (text.empty() ? "" : "|") + n;
        return text;
    };
    std::string out = "list,rank,gpus,dp,tp,pp,cp,ep,vpp,sp,zero,microBatch,recompute,schedule,overlap,offload,stepSeconds,"
                      "tokensPerSecond,mfu,peakBytes,gpuHoursPerToken,source,beyondEvidence\n";
    char buf[512];
    auto row = [&](const char* list, std::size_t rank, const SearchEntry& e) {
        const Candidate& c = e.candidate;
        std::snprintf(buf, sizeof buf, "%s,%zu,%d,%d,%d,%d,%d,%d,%d,%s,%d,%d,\"%s\",%s,%d,%g,%.9g,%.9g,%.6g,%lld,%.9g,%s,%s\n", list,
            rank, c.gpus, c.dp, c.tp, c.pp, c.cp, c.ep, c.vpp, c.sp ? "true" : "false", c.zero, c.microBatch,
            c.recompute.label().c_str(), std::string(toString(c.schedule)).c_str(), c.overlap, c.offload, e.stepSeconds,
            e.tokensPerSecond, e.mfu, static_cast<long long>(e.peakBytes), e.gpuHoursPerToken, e.source.c_str(), beyond(e.beyond).c_str());
        out += buf;
    };
    for (std::size_t i = 0; i < r.best.size(); ++i) row("best", i + 1, r.best[i]);
    for (std::size_t i = 0; i < r.pareto.size(); ++i) row("pareto", i + 1, r.pareto[i]);
    return out;
}

} // namespace planscope
