// Prediction, explanation and reality-check JSON (docs/FORMATS.md sections 2 and 2b).
#pragma once

#include "cost/Explain.h"
#include "cost/Prediction.h"
#include "cost/RealityCheck.h"
#include "util/Result.h"

#include <nlohmann/json_fwd.hpp>

namespace planscope {

inline constexpr const char* kPredictionSchema = "planscope/prediction/v1";

nlohmann::json predictionToJson(const Prediction& p);
nlohmann::json issuesToJson(const Issues& issues);
// An invalid plan: {"schema", "valid": false, "errors": [...]} and nothing that looks like a result.
nlohmann::json invalidToJson(const Issues& errors);
// One explanation with its children expanded recursively (depth-limited).
nlohmann::json explanationToJson(const Explainer& ex, const std::string& field, int maxDepth = 4);
nlohmann::json realityCheckToJson(const RealityCheck& rc);

} // namespace planscope
