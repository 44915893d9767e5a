// The reduce of measured runs of many ranks (core/io/RunFile.h, docs/TRACES.md "Large runs"):
//   BM_ImportOnly / BM_ReduceFile: one trace imported, and imported then summarized (what each MPI process does per
//     file): files per second, bytes per second and the bytes kept per rank (the shard line with every collective).
//     The trace is samples/traces/df_index_resolver.json.gz, or PLANSCOPE_BENCH_TRACE=FILE (the 1 GB trace of
//     scripts/bench-trace-large.sh).
//   BM_Summarize: the summary alone, of a trace imported once (what BM_ReduceFile adds to BM_ImportOnly).
//   BM_MatchRun / BM_OpenRun: a run of 10,240 ranks (tp 8 x pp 8 x dp 160 on nodes of 8 GPUs, made from
//     nccl_data.json.gz's summary: its steps, kernels and memory, with TP and DP collectives whose arrival times vary
//     by rank and one straggler), its groups matched across members (what the merge does), and the run file read back
//     with every rank's metrics (what the app does before drawing). Counters: fileBytes, bytesPerRank.
//     PLANSCOPE_BENCH_RUN_OUT=FILE also writes that run file (scripts/bench-reduce.sh opens it in the app).
// Run: build/bin/bench_reduce --benchmark_format=json
#include "io/RunFile.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace planscope;

namespace {

std::string tracePath()
{
    if (const char* env = std::getenv("PLANSCOPE_BENCH_TRACE"); env && *env) return env;
    return std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/df_index_resolver.json.gz";
}

void BM_ImportOnly(benchmark::State& state)
{
    const std::string path = tracePath();
    const double bytes = double(std::filesystem::file_size(path));
    for (auto _ : state) {
        auto r = importKinetoTrace(path);
        if (!r.ok()) state.SkipWithError("import failed");
        benchmark::DoNotOptimize(r);
    }
    state.counters["filesPerSecond"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["bytes_per_second"] = benchmark::Counter(bytes * double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["fileBytes"] = bytes;
}
BENCHMARK(BM_ImportOnly)->Unit(benchmark::kMillisecond);

void BM_ReduceFile(benchmark::State& state)
{
    const std::string path = tracePath();
    const double bytes = double(std::filesystem::file_size(path));
    std::size_t kept = 0;
    for (auto _ : state) {
        ReducedFile f = reduceFile(path);
        if (!f.summary) state.SkipWithError(f.error.c_str());
        else kept = rankSummaryLine(*f.summary, true).size();
    }
    state.counters["filesPerSecond"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["bytes_per_second"] = benchmark::Counter(bytes * double(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["fileBytes"] = bytes;
    state.counters["keptBytesPerRank"] = double(kept);
    state.counters["keptBytesPerGB"] = double(kept) / bytes * 1e9;
}
BENCHMARK(BM_ReduceFile)->Unit(benchmark::kMillisecond);

// The summary alone, of a trace imported once: what a reduce adds to the import.
void BM_Summarize(benchmark::State& state)
{
    auto r = importKinetoTrace(tracePath());
    if (!r.ok()) {
        state.SkipWithError("import failed");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(summarizeRank(r.value(), 0));
    state.counters["events"] = double(r->eventList.size());
}
BENCHMARK(BM_Summarize)->Unit(benchmark::kMillisecond);

constexpr int kTp = 8, kPp = 8, kDp = 160, kRanks = kTp * kPp * kDp, kStraggler = 4242;

// A deterministic arrival jitter of 0 to 300 us (a 64-bit LCG, Knuth's MMIX constants).
std::int64_t jitterNs(int rank, int step, int seq, int group)
{
    std::uint64_t x = std::uint64_t(rank) * 1000003u + std::uint64_t(step) * 7919u + std::uint64_t(seq) * 104729u + std::uint64_t(group);
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return std::int64_t((x >> 33) % 300'000);
}

std::vector<RankSummary> syntheticSummaries()
{
    ReducedFile base = reduceFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/nccl_data.json.gz");
    if (!base.summary) {
        std::fprintf(stderr, "bench_reduce: %s\n", base.error.c_str());
        std::exit(1);
    }
    RankSummary t = *base.summary;
    t.groups.clear();
    std::vector<RankSummary> out;
    out.reserve(kRanks);
    for (int r = 0; r < kRanks; ++r) {
        RankSummary s = t;
        s.rank = r;
        s.worldSize = kRanks;
        s.localDevice = r % 8;
        s.file = "/lustre/run/traces/rank-" + std::to_string(r) + ".json.gz";
        const int tpGroup = r / kTp, dpGroup = r % (kTp * kPp);
        for (int kind = 0; kind < 2; ++kind) {
            RankGroup g;
            g.name = std::to_string(kind == 0 ? 1 + tpGroup : 1 + kRanks / kTp + dpGroup);
            g.key = "pg:" + g.name;
            g.desc = kind == 0 ? "TENSOR_MODEL_PARALLEL_GROUP" : "DATA_PARALLEL_GROUP";
            g.size = kind == 0 ? kTp : kDp;
            for (const RankStep& st : s.steps) {
                const int count = kind == 0 ? 24 : 4; // TP: two all-reduces per layer pair; DP: gradient buckets
                for (int i = 0; i < count; ++i) {
                    CollectiveRecord rec;
                    rec.stepNumber = st.number;
                    rec.seq = i;
                    rec.op = kind == 0 ? CollectiveKind::AllReduce : (i % 2 ? CollectiveKind::AllToAll : CollectiveKind::ReduceScatter);
                    const std::int64_t nominal = st.startNs + st.durNs * (i + 1) / (count + 1);
                    rec.startNs = nominal + jitterNs(r, int(st.number), i, kind) + (r == kStraggler ? 2'000'000 : 0);
                    rec.endNs = nominal + 2'500'000;
                    rec.bytes = (kind == 0 ? 16 << 20 : 64 << 20) + (rec.op == CollectiveKind::AllToAll ? (r * 7919 % 13) << 20 : 0);
                    g.records.push_back(rec);
                }
            }
            s.groups.push_back(std::move(g));
        }
        out.push_back(std::move(s));
    }
    return out;
}

const std::string& runText10k()
{
    static const std::string text = [] {
        MeasuredRun run = assembleRun(syntheticSummaries(), {}, kRanks, 0, 0);
        std::string t = runText(run);
        if (const char* out = std::getenv("PLANSCOPE_BENCH_RUN_OUT"); out && *out) std::ofstream(out, std::ios::binary) << t;
        return t;
    }();
    return text;
}

void BM_MatchRun(benchmark::State& state)
{
    const std::vector<RankSummary> summaries = syntheticSummaries();
    for (auto _ : state) {
        MeasuredRun run = assembleRun(summaries, {}, kRanks, 0, 0);
        benchmark::DoNotOptimize(run);
    }
    state.counters["ranks"] = kRanks;
    state.counters["ranksPerSecond"] = benchmark::Counter(double(kRanks) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatchRun)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_OpenRun(benchmark::State& state)
{
    const std::string& text = runText10k();
    const std::string path = (std::filesystem::temp_directory_path() / "planscope-bench-10k.planscope-run").string();
    std::ofstream(path, std::ios::binary) << text;
    for (auto _ : state) {
        auto run = readRunFile(path);
        if (!run.ok()) state.SkipWithError("read failed");
        auto metrics = rankMetrics(run.value());
        benchmark::DoNotOptimize(metrics);
    }
    std::filesystem::remove(path);
    state.counters["ranks"] = kRanks;
    state.counters["fileBytes"] = double(text.size());
    state.counters["bytesPerRank"] = double(text.size()) / kRanks;
}
BENCHMARK(BM_OpenRun)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

BENCHMARK_MAIN();
