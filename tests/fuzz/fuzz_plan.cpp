// Plan JSON text -> parsePlan. A plan that loads and validates must survive serializePlan() and a reload unchanged,
// and must evaluate; small ones are also simulated (analyse()).
#include "FuzzCheck.h"

#include "analysis/Analysis.h"
#include "cost/Evaluate.h"
#include "io/PlanJson.h"
#include "spec/Validate.h"

using namespace planscope;

namespace {
// Keeps one execution in milliseconds: the cost model loops over stages and layers, the simulation over every op.
bool smallEnough(const Plan& plan)
{
    return plan.cluster.gpus() <= 65536 && plan.model.layers <= 4096 && plan.parallel.pp * plan.parallel.vpp <= 4096
        && plan.microbatches() <= 100000;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto loaded = parsePlan(fuzz::text(data, size));
    fuzz::checkFailureHasReason(loaded);
    if (!loaded.ok() || hasErrors(validate(loaded->plan))) return 0;
    const Plan& plan = loaded->plan;

    auto again = parsePlan(serializePlan(plan));
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->plan == plan);

    if (!smallEnough(plan)) return 0;
    const Prediction p = evaluate(plan);
    if (p.valid && simulatedOpCount(plan, p.microbatches) <= 20000) analyse(plan);
    return 0;
}
