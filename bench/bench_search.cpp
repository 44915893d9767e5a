// The planner (core/search): a whole space searched on every core. Targets (issue 14): the 175B-on-64-GPU space of at
// least 3 million plans in at most 10 s on the 2-core development VM (the whole process: `farm-bench --
// build/bin/planscope-cli search samples/plans/gpt3-175b-64xa100-search.plan.json`), at most 1 us of CPU per plan
// with pruning, Cancel within 100 ms, memory independent of the space size.
// Run: build/bin/bench_search --benchmark_format=json
#include "io/PlanJson.h"
#include "search/Search.h"

#include <atomic>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>
#include <thread>

using namespace planscope;

namespace {

Plan load(const char* name)
{
    auto r = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name);
    if (!r) {
        std::fprintf(stderr, "bench_search: cannot load %s\n", name);
        std::exit(1);
    }
    return r->plan;
}

double processCpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

long peakRssKiB()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

SearchSpace spaceOf(const char* name, bool everything)
{
    std::vector<Knob> knobs = defaultKnobs();
    if (everything) {
        knobs.push_back(Knob::Overlap);
        knobs.push_back(Knob::Offload);
    }
    return buildSpace(load(name), knobs).value();
}

// One search of the sample's space on all cores: wall time per iteration; CPU of every thread per plan.
void searchSpace(benchmark::State& state, const char* name, bool everything)
{
    const SearchSpace space = spaceOf(name, everything);
    SearchResult r;
    double cpu = 0;
    for (auto _ : state) {
        const double before = processCpuSeconds();
        r = search(space);
        cpu += processCpuSeconds() - before;
        benchmark::DoNotOptimize(r.best.data());
    }
    const double n = double(state.iterations());
    state.counters["plans"] = r.plans;
    state.counters["evaluated"] = r.evaluated;
    state.counters["fit"] = r.fit;
    state.counters["threads"] = r.threads;
    state.counters["plans_per_second"] = benchmark::Counter(r.plans * n, benchmark::Counter::kIsRate);
    state.counters["cpu_us_per_plan"] = cpu / n / r.plans * 1e6;
    state.counters["cpu_us_per_evaluated_plan"] = r.evaluated > 0 ? cpu / n / r.evaluated * 1e6 : 0;
    state.counters["cache_hit_rate"] = double(r.cacheHits) / double(std::max<std::int64_t>(1, r.cacheHits + r.cacheMisses));
    state.counters["peak_rss_mib"] = double(peakRssKiB()) / 1024.0;
}

// Cancel after 200 ms of searching: the time from setting the flag to search() returning.
void cancelLatency(benchmark::State& state)
{
    const SearchSpace space = spaceOf("gpt3-175b-64xa100-search.plan.json", true);
    double worst = 0, sum = 0;
    for (auto _ : state) {
        std::atomic<bool> cancel { false };
        SearchOptions o;
        o.cancel = &cancel;
        std::chrono::steady_clock::time_point returned;
        std::thread t([&] {
            const SearchResult r = search(space, o);
            returned = std::chrono::steady_clock::now();
            benchmark::DoNotOptimize(r.cancelled);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const auto set = std::chrono::steady_clock::now();
        cancel = true;
        t.join();
        const double ms = std::chrono::duration<double, std::milli>(returned - set).count();
        worst = std::max(worst, ms);
        sum += ms;
    }
    state.counters["cancel_ms_max"] = worst;
    state.counters["cancel_ms_mean"] = sum / double(state.iterations());
}

} // namespace

BENCHMARK_CAPTURE(searchSpace, gpt3_175b_64gpu_default, "gpt3-175b-64xa100-search.plan.json", false)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK_CAPTURE(searchSpace, gpt3_175b_64gpu_with_overlap_offload, "gpt3-175b-64xa100-search.plan.json", true)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK_CAPTURE(searchSpace, gpt3_175b_256gpu_default, "interview-175b-256xa100.plan.json", false)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK_CAPTURE(searchSpace, llama3_405b_16384gpu_default, "llama3-405b-16k-h100.plan.json", false)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK_CAPTURE(searchSpace, deepseek_v3_1024gpu_default, "deepseek-v3-1024xh100-fp8.plan.json", false)
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(cancelLatency)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

BENCHMARK_MAIN();
