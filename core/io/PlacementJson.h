// `planscope-cli placement --json` (schema planscope/placement/v1, docs/FORMATS.md section 15).
#pragma once

#include "cost/Placement.h"

#include <nlohmann/json.hpp>

namespace planscope {

nlohmann::json placementJson(const Plan& plan, const std::vector<KindPlacement>& rows);

} // namespace planscope
