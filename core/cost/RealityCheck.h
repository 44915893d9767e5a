// Is a claimed run possible? (docs/MODEL.md section 8): the model FLOPs for T tokens against what the plan's GPUs
// deliver at an MFU in D days.
#pragma once

#include "Prediction.h"
#include "spec/Plan.h"

#include <string>

namespace planscope {

struct RealityCheck {
    bool possible = false;
    double requiredFlops = 0;       // model FLOPs per token * T
    double requiredFlops6NT = 0;    // the rule of thumb 6*N*T
    double availableFlops = 0;      // GPUs * peak * MFU * D days
    double shortBy = 1;             // required/available where > 1, else 1
    double days = 0, tokens = 0, mfu = 0;
    double daysNeeded = 0;          // at this MFU
    Text message; // the verdict with its figures (util/Text.h: English for the CLI, translated by the GUI)
};

// days, tokens, mfu <= 0 take their defaults: the plan's claim, then training.tokens, then the predicted MFU.
RealityCheck realityCheck(const Plan& plan, const Prediction& prediction, double days, double tokens, double mfu);

} // namespace planscope
