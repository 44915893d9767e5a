// The pipeline split as text, one function for every consumer (the CLI summary, the timeline's rank labels, the
// memory bars' stage labels, planscope-cli balance): each rank's chunks in the layout's letters, "E1|2|2|1L" (E the
// embedding, then the chunk's transformer layers, "+1m" its MTP layers, L the loss; '|' between the rank's
// chunks), and the transformer layers a rank holds by index, "0-1, 16-17".
#pragma once

#include "PipelineLayout.h"
#include "Plan.h"

#include <string>
#include <vector>

namespace planscope {

// One virtual stage: "E8", "8", "7L", "6+1mL".
std::string stageText(const VirtualStage& stage);

// Each pipeline rank's chunks in forward order, "E1|2|2|2" (DualPipe: its own stage, then the one of the other
// direction it also runs).
std::vector<std::string> rankSplitTexts(const Plan& plan);

// The transformer layers (counted from 0 in forward order) each pipeline rank holds, as ranges: "0-7",
// "0-1, 16-17", "" for none (DualPipe: both directions' stages).
std::vector<std::string> rankLayerRanges(const Plan& plan);

} // namespace planscope
