// Measurement files: the profile JSON (parseProfile) and nccl-tests output, text table or -J JSON (importNcclTests, as
// `planscope-cli import-nccl-tests` reads it). Every input goes to both readers. A profile that loads, and one that
// nccl-tests output imports to, must be written by profileToJson and read back equal (the warnings are never written).
#include "FuzzCheck.h"

#include "calib/Profile.h"

#include <nlohmann/json.hpp>

using namespace planscope;

namespace {
void checkRoundTrip(Profile p)
{
    p.warnings.clear();
    auto back = parseProfile(profileToJson(p).dump());
    FUZZ_CHECK(back.ok());
    Profile q = back.value();
    q.warnings.clear();
    FUZZ_CHECK(q == p);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::text(data, size);
    auto profile = parseProfile(text);
    fuzz::checkFailureHasReason(profile);
    if (profile.ok()) checkRoundTrip(profile.value());

    auto imported = importNcclTests(text);
    fuzz::checkFailureHasReason(imported);
    if (imported.ok()) checkRoundTrip(imported.value());
    return 0;
}
