// Launch config text -> importLaunchConfig (core/io/LaunchConfig.h), by its content: a Megatron-LM argument list, a
// DeepSpeed JSON, a torchtitan TOML or a Megatron-Bridge / NeMo YAML. Never a throw or a crash; a plan that the
// import calls valid reads back through the plan reader.
#include "FuzzCheck.h"

#include "io/LaunchConfig.h"
#include "io/PlanJson.h"

using namespace planscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const nlohmann::json base = { { "schema", kPlanSchema }, { "name", "fuzz" },
        { "model", { { "preset", "llama3-8b" } } }, { "cluster", { { "gpu", "h100-sxm5-80gb" }, { "nodes", 2 }, { "gpusPerNode", 8 } } } };
    const ImportedLaunch r = importLaunchConfig(fuzz::text(data, size), base);
    for (const Issue& i : r.issues) FUZZ_CHECK(!i.message.empty());
    // The plan JSON always dumps (bytes that are no UTF-8 as U+FFFD) and parses or says why.
    auto plan = parsePlan(r.plan.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    fuzz::checkFailureHasReason(plan);
    return 0;
}
