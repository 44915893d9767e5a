// Schedule generation and list-scheduling simulation throughput (issue 3; target: a 1M-op schedule, e.g.
// pp=32, vpp=4, 4096 microbatches, simulated in at most 1 s and 200 bytes per op on one core).
// Run: build/bin/bench_schedule --benchmark_format=json
#include "analysis/Analysis.h"
#include "cost/Evaluate.h"
#include "io/PlanJson.h"
#include "schedule/Schedule.h"
#include "sim/ScheduleRun.h"
#include "sim/Timeline.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace planscope;

namespace {

// Resident set size in bytes (Linux), to report the memory a run holds per op.
long residentBytes()
{
    std::ifstream f("/proc/self/statm");
    long pages = 0, resident = 0;
    f >> pages >> resident;
    return resident * 4096;
}

std::size_t opCount(const Schedule& s)
{
    std::size_t n = 0;
    for (const auto& ops : s.rankOps) n += ops.size();
    return n;
}

void generate(benchmark::State& state, ScheduleKind kind, int p, int m, int v)
{
    ScheduleRequest req { kind, p, m, v, "", 0 };
    std::size_t ops = 0;
    for (auto _ : state) {
        auto s = generateSchedule(req);
        if (!s) {
            state.SkipWithError(s.errors().front().message.c_str());
            return;
        }
        ops = opCount(s.value());
        benchmark::DoNotOptimize(ops);
    }
    state.counters["ops"] = double(ops);
    state.counters["ops_per_second"] = benchmark::Counter(double(ops), benchmark::Counter::kIsIterationInvariantRate);
}

void run(benchmark::State& state, ScheduleKind kind, int p, int m, int v)
{
    ScheduleRequest req { kind, p, m, v, "", 0 };
    auto s = generateSchedule(req);
    if (!s) {
        state.SkipWithError(s.errors().front().message.c_str());
        return;
    }
    const std::size_t ops = opCount(s.value());
    const long before = residentBytes();
    long grown = 0;
    for (auto _ : state) {
        auto r = runSchedule(s.value(), unitDurations());
        grown = std::max(grown, residentBytes() - before);
        benchmark::DoNotOptimize(r.ok());
    }
    state.counters["ops"] = double(ops);
    state.counters["ops_per_second"] = benchmark::Counter(double(ops), benchmark::Counter::kIsIterationInvariantRate);
    // The schedule itself plus what one run holds (times, finish tables), per op.
    state.counters["bytes_per_op"] = double(before > 0 ? grown + long(ops * sizeof(Op)) : 0) / double(ops);
}

void simulatePlan(benchmark::State& state, const char* name)
{
    auto loaded = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name);
    if (!loaded) {
        state.SkipWithError("cannot load plan");
        return;
    }
    const Prediction pred = evaluate(loaded->plan);
    std::size_t spans = 0;
    for (auto _ : state) {
        auto tl = simulate(loaded->plan, pred);
        spans = tl ? tl->spans.size() : 0;
        benchmark::DoNotOptimize(spans);
    }
    state.counters["spans"] = double(spans);
}

// Issue 11's deep pipeline: a 64-stage, 512-microbatch plan (Llama 3 405B's 126 layers over 64 stages, 1F1B and
// interleaved), simulated whole: schedule, run, spans, memory.
void simulateDeep(benchmark::State& state, const char* schedule, int vpp)
{
    auto loaded = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/llama3-405b-16k-h100.plan.json");
    if (!loaded) {
        state.SkipWithError("cannot load plan");
        return;
    }
    Plan plan = loaded->plan;
    plan.parallel.pp = 64;
    plan.parallel.vpp = vpp;
    plan.parallel.firstStageLayers = plan.parallel.lastStageLayers = 0;
    plan.model.layers = 128;
    plan.parallel.dp = plan.cluster.gpus() / (plan.parallel.tp * plan.parallel.pp * plan.parallel.cp);
    plan.training.globalBatch = std::int64_t(512) * plan.training.microBatch * plan.parallel.dp;
    fromString(schedule, plan.training.schedule);
    const Prediction pred = evaluate(plan);
    if (!pred.valid || pred.microbatches != 512) {
        state.SkipWithError(pred.errors.empty() ? "not 512 microbatches" : pred.errors.front().message.c_str());
        return;
    }
    std::size_t spans = 0;
    for (auto _ : state) {
        auto tl = simulate(plan, pred);
        spans = tl ? tl->spans.size() : 0;
        benchmark::DoNotOptimize(spans);
    }
    state.counters["spans"] = double(spans);
    state.counters["stages"] = 64;
    state.counters["microbatches"] = 512;
}

} // namespace

BENCHMARK_CAPTURE(generate, interleaved_p32_v4_m4096, ScheduleKind::Interleaved1F1B, 32, 4096, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generate, onefoneb_p32_m4096, ScheduleKind::OneFOneB, 32, 4096, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generate, zbv_p32_m4096, ScheduleKind::ZBV, 32, 4096, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, interleaved_p32_v4_m4096_1M_ops, ScheduleKind::Interleaved1F1B, 32, 4096, 4)
    ->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(run, onefoneb_p8_m64, ScheduleKind::OneFOneB, 8, 64, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(simulatePlan, gpt3_1024gpu_pp16_vpp2_m192, "gpt3-175b-1024xa100.plan.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateDeep, onefoneb_p64_m512, "1f1b", 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulateDeep, interleaved_p64_v2_m512, "interleaved-1f1b", 2)->Unit(benchmark::kMillisecond);

// What one edit costs before every view can update: the analysis PlanDocument runs off the GUI thread
// (analyse() with explanations: evaluate, then the schedule simulation). bench_edit adds the pages' redraw. Target: at most 100 ms for every sample.
void editToViews(benchmark::State& state, const char* name)
{
    auto loaded = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name);
    if (!loaded) {
        state.SkipWithError("cannot load plan");
        return;
    }
    AnalysisOptions options;
    options.explain = true;
    for (auto _ : state) {
        const auto analysis = analyse(loaded->plan, options);
        benchmark::DoNotOptimize(analysis->timeline.get());
    }
}
BENCHMARK_CAPTURE(editToViews, default_plan, "default.plan.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(editToViews, gpt3_1024, "gpt3-175b-1024xa100.plan.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(editToViews, bloom_384, "bloom-176b-384xa100.plan.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(editToViews, glm130b_256_m2112, "interview-130b-256xa100-zero3.plan.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(editToViews, glm130b_64_m4224, "interview-130b-64xa100.plan.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(editToViews, llama3_405b_16k, "llama3-405b-16k-h100.plan.json")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
