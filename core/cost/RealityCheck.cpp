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
    char buf[640];
    if (rc.days <= 0 || rc.tokens <= 0) {
        rc.possible = false;
        rc.message = "give --days and --tokens (or training.tokens / a claim in the plan) to check a claim";
    } else if (rc.possible) {
        std::snprintf(buf, sizeof buf,
            "possible: %.3g tokens need %s; %.0f GPUs at %.0f%% MFU deliver %s in %.3g days (%.2f days needed)",
            rc.tokens, units::formatFlops(rc.requiredFlops).c_str(), gpus, rc.mfu * 100,
            units::formatFlops(rc.availableFlops).c_str(), rc.days, rc.daysNeeded);
        rc.message = buf;
    } else {
        std::snprintf(buf, sizeof buf,
            "not possible: %.3g tokens need %s (6*N*T = %s) but %.0f GPUs x %s/s x %.0f%% MFU x %.3g days = %s; "
            "short by %.1fx (it would take %.1f days)",
            rc.tokens, units::formatFlops(rc.requiredFlops).c_str(), units::formatFlops(rc.requiredFlops6NT).c_str(), gpus,
            units::formatFlops(peak).c_str(), rc.mfu * 100, rc.days, units::formatFlops(rc.availableFlops).c_str(),
            rc.shortBy, rc.daysNeeded);
        rc.message = buf;
    }
    return rc;
}

} // namespace planscope
