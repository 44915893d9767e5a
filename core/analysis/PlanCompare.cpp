#include "PlanCompare.h"

#include <algorithm>
#include <string_view>

namespace planscope {

namespace {

CompareRow row(const HeadlineFigure& f, const std::vector<const Prediction*>& ps)
{
    CompareRow r { f.field, Text(f.label), f.unit, f.lowerIsBetter, {}, -1, {} };
    for (const Prediction* p : ps) r.values.push_back(p && p->valid ? std::optional<double>(f.value(*p)) : std::nullopt);
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

const std::vector<HeadlineFigure>& headlineFigures()
{
    static const std::vector<HeadlineFigure> figures {
        { "time.stepSeconds", PS_TEXT("CoreText", "step time"), "s", true, true,
            [](const Prediction& p) { return p.stepSeconds; } },
        { "time.analyticStepSeconds", PS_TEXT("CoreText", "step time, closed form"), "s", true, false,
            [](const Prediction& p) { return p.analyticStepSeconds; } },
        { "time.tokensPerSecond", PS_TEXT("CoreText", "tokens per second"), "tokens/s", false, true,
            [](const Prediction& p) { return p.tokensPerSecond; } },
        { "time.mfu", PS_TEXT("CoreText", "MFU"), "", false, true, [](const Prediction& p) { return p.mfu; } },
        { "time.hfu", PS_TEXT("CoreText", "HFU"), "", false, false, [](const Prediction& p) { return p.hfu; } },
        { "memory.peakBytes", PS_TEXT("CoreText", "peak memory per GPU"), "B", true, true,
            [](const Prediction& p) { return double(p.peakBytes); } },
        { "time.bubbleFraction", PS_TEXT("CoreText", "pipeline bubble (share of the pipeline time)"), "", true, true,
            [](const Prediction& p) { return p.bubbleFraction; } },
        { "time.bubbleOverhead", PS_TEXT("CoreText", "pipeline bubble over ideal compute"), "", true, false,
            [](const Prediction& p) { return p.bubbleOverhead; } },
        { "time.exposedCommSeconds", PS_TEXT("CoreText", "exposed communication"), "s", true, true,
            [](const Prediction& p) { return p.exposedCommSeconds; } },
        { "time.trainingDays", PS_TEXT("CoreText", "days to train the tokens"), "days", true, true,
            [](const Prediction& p) { return p.trainingDays; } },
    };
    return figures;
}

std::vector<CompareRow> compareRows(const std::vector<const Prediction*>& ps)
{
    std::vector<CompareRow> rows;
    for (const HeadlineFigure& f : headlineFigures()) {
        if (!f.compared) continue;
        rows.push_back(row(f, ps));
        if (std::string_view(f.field) != "memory.peakBytes") continue;
        std::size_t stages = 0;
        for (const Prediction* p : ps)
            if (p && p->valid) stages = std::max(stages, p->stages.size());
        for (std::size_t s = 0; s < stages; ++s) {
            CompareRow r { "memory.stages." + std::to_string(s) + ".totalBytes",
                Text(PS_TEXT("CoreText", "peak memory, stage %1"), s), "B", true, {}, -1, {} };
            for (const Prediction* p : ps)
                r.values.push_back(p && p->valid && s < p->stages.size()
                        ? std::optional<double>(double(p->stages[s].totalBytes))
                        : std::nullopt);
            rows.push_back(std::move(r));
        }
    }
    for (CompareRow& r : rows) rank(r);
    return rows;
}

} // namespace planscope
