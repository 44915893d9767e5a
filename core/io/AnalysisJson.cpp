#include "AnalysisJson.h"

#include "PredictionJson.h"

#include <nlohmann/json.hpp>

namespace planscope {

using nlohmann::json;

namespace {
const char* gpuMatchName(GpuIdentity::Match m)
{
    switch (m) {
    case GpuIdentity::Match::Same: return "same";
    case GpuIdentity::Match::Different: return "different";
    case GpuIdentity::Match::Unknown: return "unknown";
    }
    return "unknown";
}
} // namespace

json analysisToJson(const Analysis& a, StepFigure figure)
{
    const Prediction& shown = figure == StepFigure::Analytic ? a.analytic : a.prediction;
    json j = predictionToJson(shown);
    if (!shown.valid) return j;
    // What reading the file met comes first, then the model's warnings.
    json warnings = issueLines(a.inputWarnings);
    for (const json& w : j["warnings"]) warnings.push_back(w);
    j["warnings"] = std::move(warnings);
    json& time = j["time"];
    time["analyticStepSeconds"] = a.analytic.stepSeconds;
    time["simulatedStepSeconds"] = a.timeline ? json(a.timeline->stepSeconds) : json(nullptr);
    if (!a.timeline && !a.timelineErrors.empty()) time["simulationErrors"] = issuesToJson(a.timelineErrors);
    if (a.calibration)
        j["calibration"] = { { "source", a.calibration->source }, { "terms", issueLines(a.calibration->terms) },
            { "warnings", issueLines(a.calibration->warnings) }, { "refused", issueLines(a.calibration->refused) },
            { "gpu",
                { { "measured", a.calibration->gpu.measured }, { "planned", a.calibration->gpu.planned },
                    { "match", gpuMatchName(a.calibration->gpu.match) } } } };
    return j;
}

json timelineSummaryToJson(const Timeline& tl)
{
    json ranks = json::array();
    for (int r = 0; r < int(tl.ranks.size()); ++r) {
        const RankMetrics& m = tl.ranks[std::size_t(r)];
        ranks.push_back({ { "rank", r }, { "busySeconds", m.busy }, { "idleSeconds", m.idle }, { "sendingSeconds", m.sending },
            { "peakInFlight", m.peakInFlight }, { "staticBytes", m.staticBytes }, { "inUsePeakBytes", m.inUsePeakBytes },
            { "peakSeconds", m.peakSeconds }, { "allocatedPeakBytes", m.allocatedPeakBytes },
            { "reservedPeakBytes", m.reservedPeakBytes }, { "peakBytes", m.peakBytes } });
    }
    json path = json::array();
    for (int i : tl.criticalPath) {
        const Span& sp = tl.spans[std::size_t(i)];
        path.push_back({ { "rank", sp.rank }, { "kind", std::string(toString(sp.kind)) }, { "stage", sp.stage },
            { "microbatch", sp.microbatch }, { "start", sp.start }, { "end", sp.end } });
    }
    return { { "schedule", std::string(toString(tl.schedule.kind)) }, { "ranks", tl.schedule.ranks },
        { "virtualStages", tl.schedule.stages }, { "spans", tl.spans.size() }, { "pipelineSeconds", tl.pipelineSeconds },
        { "stepSeconds", tl.stepSeconds }, { "bubbleFraction", tl.bubbleFraction }, { "bubbleOverhead", tl.bubbleOverhead },
        { "peakBytes", tl.peakBytes }, { "perRank", ranks }, { "criticalPathLength", tl.criticalPath.size() },
        { "criticalPath", path } };
}

} // namespace planscope
