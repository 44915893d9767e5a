// PyTorch pipelining schedule CSV -> scheduleFromCsv. What imports must export (compute_only) and import again to
// the same ops on every rank.
#include "FuzzCheck.h"

#include "schedule/Schedule.h"

using namespace planscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto schedule = scheduleFromCsv(fuzz::text(data, size));
    fuzz::checkFailureHasReason(schedule);
    if (!schedule.ok()) return 0;
    auto again = scheduleFromCsv(scheduleToCsv(schedule.value()));
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->rankOps == schedule->rankOps);
    return 0;
}
