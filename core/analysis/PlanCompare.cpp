#include "PlanCompare.h"

#include <algorithm>

namespace planscope {

namespace {

CompareRow row(std::string field, std::string label, std::string unit, bool lowerIsBetter,
    const std::vector<const Prediction*>& ps, double (*get)(const Prediction&))
{
    CompareRow r { std::move(field), std::move(label), std::move(unit), lowerIsBetter, {}, -1, {} };
    for (const Prediction* p : ps) r.values.push_back(p && p->valid ? std::optional<double>(get(*p)) : std::nullopt);
    return r;
}

void rank(CompareRow& r)
{
    for (std::size_t i = 0; i < r.values.size(); ++i) {
        if (!r.values[i]) continue;
        if (r.best < 0) {
            r.best = int(i);
            continue;
        }
        const double v = *r.values[i], b = *r.values[std::size_t(r.best)];
        if (r.lowerIsBetter ? v < b : v > b) r.best = int(i);
    }
    r.relative.assign(r.values.size(), std::nullopt);
    if (r.best < 0) return;
    const double b = *r.values[std::size_t(r.best)];
    for (std::size_t i = 0; i < r.values.size(); ++i)
        if (r.values[i] && b != 0) r.relative[i] = *r.values[i] / b;
        else if (r.values[i] && *r.values[i] == 0) r.relative[i] = 1.0; // both 0: equal
}

} // namespace

std::vector<CompareRow> compareRows(const std::vector<const Prediction*>& ps)
{
    std::vector<CompareRow> rows;
    rows.push_back(row("time.stepSeconds", "step time", "s", true, ps, [](const Prediction& p) { return p.stepSeconds; }));
    rows.push_back(row("time.tokensPerSecond", "tokens per second", "tokens/s", false, ps,
        [](const Prediction& p) { return p.tokensPerSecond; }));
    rows.push_back(row("time.mfu", "MFU", "", false, ps, [](const Prediction& p) { return p.mfu; }));
    rows.push_back(row("memory.peakBytes", "peak memory per GPU", "B", true, ps,
        [](const Prediction& p) { return double(p.peakBytes); }));
    std::size_t stages = 0;
    for (const Prediction* p : ps)
        if (p && p->valid) stages = std::max(stages, p->stages.size());
    for (std::size_t s = 0; s < stages; ++s) {
        CompareRow r { "memory.stages." + std::to_string(s) + ".totalBytes", "peak memory, stage " + std::to_string(s), "B", true,
            {}, -1, {} };
        for (const Prediction* p : ps)
            r.values.push_back(p && p->valid && s < p->stages.size() ? std::optional<double>(double(p->stages[s].totalBytes))
                                                                      : std::nullopt);
        rows.push_back(std::move(r));
    }
    rows.push_back(row("time.bubbleFraction", "pipeline bubble (share of the pipeline time)", "", true, ps,
        [](const Prediction& p) { return p.bubbleFraction; }));
    rows.push_back(row("time.exposedCommSeconds", "exposed communication", "s", true, ps,
        [](const Prediction& p) { return p.exposedCommSeconds; }));
    rows.push_back(row("time.trainingDays", "days to train the tokens", "days", true, ps,
        [](const Prediction& p) { return p.trainingDays; }));
    for (CompareRow& r : rows) rank(r);
    return rows;
}

} // namespace planscope
