// Kineto trace import throughput (core/trace/KinetoImport): the streaming import of df_index_resolver
// (216,092 events, the largest trace in samples/traces), read from an UNCOMPRESSED .json so that the number is
// parse speed, not zlib. Counters: bytes_per_second (uncompressed), events/s, keptEvents (eventList +
// memoryList entries), inputBytesPerKeptEvent, retainedBytesPerKeptEvent (the capacity of the event, memory,
// comm, name and lane tables plus the names' heap text: what the import holds per kept event).
// Run: build/bin/bench_trace --benchmark_format=json   (scripts/bench-trace.sh adds Python's json.load for scale)
// PLANSCOPE_BENCH_TRACE=FILE.json uses that file instead of decompressing samples/traces/df_index_resolver.json.gz.
#include "trace/KinetoImport.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <zlib.h>

using namespace planscope;

namespace {

// The uncompressed trace on disk (decompressed once into the temp folder unless PLANSCOPE_BENCH_TRACE is set).
const std::string& tracePath()
{
    static const std::string path = [] {
        if (const char* env = std::getenv("PLANSCOPE_BENCH_TRACE"); env && *env) return std::string(env);
        const std::string gz = std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/df_index_resolver.json.gz";
        const std::string out
            = (std::filesystem::temp_directory_path() / "planscope-bench-df_index_resolver.json").string();
        gzFile in = gzopen(gz.c_str(), "rb");
        std::FILE* f = std::fopen(out.c_str(), "wb");
        if (!in || !f) {
            std::fprintf(stderr, "bench_trace: cannot read %s or write %s\n", gz.c_str(), out.c_str());
            std::exit(1);
        }
        char buf[1 << 16];
        int n = 0;
        while ((n = gzread(in, buf, sizeof buf)) > 0) std::fwrite(buf, 1, std::size_t(n), f);
        gzclose(in);
        std::fclose(f);
        return out;
    }();
    return path;
}

std::size_t retainedBytes(const MeasuredRank& r)
{
    std::size_t b = r.eventList.capacity() * sizeof(MeasuredEvent)
        + r.memoryList.capacity() * sizeof(MeasuredMemoryEvent) + r.comms.capacity() * sizeof(CommInfo)
        + r.names.capacity() * sizeof(std::string) + r.lanes.capacity() * sizeof(MeasuredLane);
    for (const std::string& n : r.names)
        if (n.capacity() > 15) b += n.capacity() + 1; // beyond the small-string buffer
    return b;
}

void BM_ImportUncompressed(benchmark::State& state)
{
    const std::string& path = tracePath();
    const auto bytes = std::int64_t(std::filesystem::file_size(path));
    std::int64_t events = 0, kept = 0;
    std::size_t retained = 0;
    for (auto _ : state) {
        auto r = importKinetoTrace(path);
        if (!r) {
            state.SkipWithError("import failed");
            return;
        }
        events = r.value().events;
        kept = std::int64_t(r.value().eventList.size() + r.value().memoryList.size());
        retained = retainedBytes(r.value());
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(state.iterations() * bytes);
    state.counters["events"] = double(events);
    state.counters["events/s"] = benchmark::Counter(double(events), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["fileBytes"] = double(bytes);
    state.counters["keptEvents"] = double(kept);
    state.counters["inputBytesPerKeptEvent"] = kept ? double(bytes) / double(kept) : 0;
    state.counters["retainedBytesPerKeptEvent"] = kept ? double(retained) / double(kept) : 0;
}
BENCHMARK(BM_ImportUncompressed)->Unit(benchmark::kMillisecond)->MinTime(2.0);

} // namespace

BENCHMARK_MAIN();
