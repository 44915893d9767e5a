// Hugging Face config.json text -> modelFromHuggingFaceConfig.
#include "FuzzCheck.h"

#include "io/PlanJson.h"

using namespace planscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto model = modelFromHuggingFaceConfig(fuzz::text(data, size));
    fuzz::checkFailureHasReason(model);
    return 0;
}
