#include "RealityCheck.h"

#include "Parameters.h"
#include "util/Units.h"

#include <cstdio>

namespace planscope {

RealityCheck realityCheck(const Plan& plan, const Prediction& pred, double days, double tokens, double mfu)
{
    RealityCheck rc;
    rc.days = days > 0 ? days : plan.claim.days;
    rc.tokens = tokens > 0 ? tokens : (plan.claim.tokens > 0 ? plan.claim.tokens : plan.training.tokens);
    rc.mfu = mfu > 0 ? mfu : (plan.claim.mfu > 0 ? plan.claim.mfu : pred.mfu);
    const double gpus = plan.cluster.gpus();
    const double peak = plan.cluster.gpu.peakFlops.forPrecision(plan.training.precision);
    rc.requiredFlops = pred.modelFlopsPerToken * rc.tokens;
    rc.requiredFlops6NT = 6.0 * countParameters(plan.model).active * rc.tokens;
    rc.availableFlops = gpus * peak * rc.mfu * rc.days * units::kSecondsPerDay;
    const double rate = gpus * peak * rc.mfu;
    rc.daysNeeded = rate > 0 ? rc.requiredFlops / rate / units::kSecondsPerDay : 0.0;
    rc.shortBy = rc.availableFlops > 0 && rc.requiredFlops > rc.availableFlops ? rc.requiredFlops / rc.availableFlops : 1.0;
    rc.possible = rc.availableFlops > 0 && rc.requiredFlops <= rc.availableFlops;
    const auto fmt = [](const char* format, double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, format, v);
        return std::string(buf);
    };
    if (rc.days <= 0 || rc.tokens <= 0) {
        rc.possible = false;
        rc.message = Text(PS_TEXT("CoreText", "give --days and --tokens (or training.tokens / a claim in the plan) to check "
                                              "a claim"));
    } else if (rc.possible) {
        rc.message = Text(PS_TEXT("CoreText", "possible: %1 tokens need %2; %3 GPUs at %4% MFU deliver %5 in %6 days (%7 "
                                              "days needed)"),
            fmt("%.3g", rc.tokens), units::formatFlops(rc.requiredFlops), fmt("%.0f", gpus), fmt("%.0f", rc.mfu * 100),
            units::formatFlops(rc.availableFlops), fmt("%.3g", rc.days), fmt("%.2f", rc.daysNeeded));
    } else {
        rc.message = Text(PS_TEXT("CoreText", "not possible: %1 tokens need %2 (6*N*T = %3) but %4 GPUs x %5/s x %6% MFU x "
                                              "%7 days = %8; short by %9x (it would take %10 days)"),
            fmt("%.3g", rc.tokens), units::formatFlops(rc.requiredFlops), units::formatFlops(rc.requiredFlops6NT),
            fmt("%.0f", gpus), units::formatFlops(peak), fmt("%.0f", rc.mfu * 100), fmt("%.3g", rc.days),
            units::formatFlops(rc.availableFlops), fmt("%.1f", rc.shortBy), fmt("%.1f", rc.daysNeeded));
    }
    return rc;
}

} // namespace planscope
