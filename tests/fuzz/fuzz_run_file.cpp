// Run summaries and reduce shards (core/io/RunFile.h, docs/FORMATS.md section 14) from any bytes: never a throw or a
// crash; every failure has its reason; a run that reads writes text that reads back to the same run, and the same text.
#include "FuzzCheck.h"

#include "io/RunFile.h"

using namespace planscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::text(data, size);
    auto run = parseRun(text);
    fuzz::checkFailureHasReason(run);
    if (run.ok()) {
        // The summaries a run keeps go through the analyses the app and run-summary draw from.
        const std::vector<RunRankMetrics> metrics = rankMetrics(run.value());
        FUZZ_CHECK(metrics.size() == run->ranks.size());
        (void)slowestRanks(run.value(), metrics, 10);
        (void)compareRuns(run.value(), run.value());
        const std::string again = runText(run.value());
        auto back = parseRun(again);
        FUZZ_CHECK(back.ok());
        FUZZ_CHECK(runText(back.value()) == again);
    }
    auto shard = parseShard(text);
    fuzz::checkFailureHasReason(shard);
    if (shard.ok()) FUZZ_CHECK(parseShard(shardText(shard.value())).ok());
    return 0;
}
