#include "SplitText.h"

#include "spec/ScheduleTraits.h"

#include <algorithm>
#include <utility>

namespace planscope {

namespace {

// (rank, stage) pairs: every virtual stage on its rank, and under DualPipe also on the rank that runs it for the
// other direction (rank r holds stages r and p-1-r).
std::vector<std::pair<int, VirtualStage>> heldStages(const Plan& plan, const std::vector<VirtualStage>& split)
{
    std::vector<std::pair<int, VirtualStage>> held;
    for (const VirtualStage& v : split) held.push_back({ v.rank, v });
    if (traits(plan.training.schedule).bidirectional)
        for (const VirtualStage& v : split) held.push_back({ plan.parallel.pp - 1 - v.rank, v });
    return held;
}

int rankCount(const Plan& plan)
{
    return plan.parallel.pp > 0 ? plan.parallel.pp : 1;
}

} // namespace

std::string stageText(const VirtualStage& v)
{
    return (v.embedding ? "E" : "") + std::to_string(v.layers)
        + (v.mtpLayers ? "+" + std::to_string(v.mtpLayers) + "m" : "") + (v.loss ? "L" : "");
}

std::vector<std::string> rankSplitTexts(const Plan& plan)
{
    std::vector<std::string> out(std::size_t(rankCount(plan)));
    for (const auto& [rank, v] : heldStages(plan, virtualStages(plan))) {
        if (rank < 0 || std::size_t(rank) >= out.size()) continue;
        std::string& text = out[std::size_t(rank)];
        if (!text.empty()) text += "|";
        text += stageText(v);
    }
    return out;
}

std::vector<std::string> rankLayerRanges(const Plan& plan)
{
    const std::vector<VirtualStage> split = virtualStages(plan);
    // The first layer of each virtual stage: the stages come in forward order.
    std::vector<int> first;
    int next = 0;
    for (const VirtualStage& v : split) {
        first.push_back(next);
        next += v.layers;
    }
    std::vector<std::vector<std::pair<int, int>>> ranges(std::size_t(rankCount(plan)));
    for (std::size_t k = 0; k < split.size(); ++k) {
        const VirtualStage& v = split[k];
        if (v.layers <= 0) continue;
        std::vector<int> ranks { v.rank };
        if (traits(plan.training.schedule).bidirectional && plan.parallel.pp - 1 - v.rank != v.rank)
            ranks.push_back(plan.parallel.pp - 1 - v.rank);
        for (int r : ranks)
            if (r >= 0 && std::size_t(r) < ranges.size()) ranges[std::size_t(r)].push_back({ first[k], first[k] + v.layers - 1 });
    }
    std::vector<std::string> out;
    for (auto& list : ranges) {
        std::sort(list.begin(), list.end());
        std::string text;
        for (std::size_t i = 0; i < list.size(); ++i) {
            // Adjacent ranges read as one: "0-7" rather than "0-3, 4-7".
            int from = list[i].first, to = list[i].second;
            while (i + 1 < list.size() && list[i + 1].first == to + 1) to = list[++i].second;
            if (!text.empty()) text += ", ";
            text += from == to ? std::to_string(from) : std::to_string(from) + "-" + std::to_string(to);
        }
        out.push_back(std::move(text));
    }
    return out;
}

} // namespace planscope
