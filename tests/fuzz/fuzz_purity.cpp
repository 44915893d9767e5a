// Two plan JSON texts separated by a NUL byte -> the second plan's prediction must not depend on the first having
// been evaluated before it: evaluate(B) alone (every memo cleared), after evaluate(A) on the same thread, and through
// one EvaluateCache after A are the same Prediction field for field (one plan, one answer: core/util/Memo.h).
#include "FuzzCheck.h"

#include "cost/Evaluate.h"
#include "io/PlanJson.h"
#include "io/PredictionJson.h"
#include "util/Memo.h"

#include <cstring>
#include <nlohmann/json.hpp>

using namespace planscope;

namespace {
bool smallEnough(const Plan& plan)
{
    return plan.cluster.gpus() <= 65536 && plan.model.layers <= 4096 && plan.parallel.pp * plan.parallel.vpp <= 4096;
}

// Field for field; NaN in the same field of both counts as the same (the JSON writes it as null).
bool same(const Prediction& a, const Prediction& b)
{
    return a == b || predictionToJson(a).dump() == predictionToJson(b).dump();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const void* nul = std::memchr(data, 0, size);
    if (!nul) return 0;
    const std::size_t split = std::size_t(static_cast<const std::uint8_t*>(nul) - data);
    auto a = parsePlan(fuzz::text(data, split));
    auto b = parsePlan(fuzz::text(data + split + 1, size - split - 1));
    if (!a.ok() || !b.ok() || !smallEnough(a->plan) || !smallEnough(b->plan)) return 0;

    clearThreadMemos();
    const Prediction alone = evaluate(b->plan);
    clearThreadMemos();
    evaluate(a->plan);
    FUZZ_CHECK(same(evaluate(b->plan), alone));
    EvaluateCache cache(2);
    evaluate(a->plan, cache);
    FUZZ_CHECK(same(evaluate(b->plan, cache), alone));
    // And B then A then B through the same cache.
    evaluate(b->plan, cache);
    evaluate(a->plan, cache);
    FUZZ_CHECK(same(evaluate(b->plan, cache), alone));
    return 0;
}
