// evaluate() per plan: the planner will rank millions of plans, so one evaluation must stay within ~20 us on one
// core for a 3D plan (issue 2). Run: build/bin/bench_evaluate --benchmark_format=json
#include "cost/Evaluate.h"
#include "io/PlanJson.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace planscope;

namespace {
Plan load(const char* name)
{
    auto r = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name);
    if (!r) {
        std::fprintf(stderr, "bench_evaluate: cannot load %s\n", name);
        std::exit(1);
    }
    return r->plan;
}

void evaluatePlan(benchmark::State& state, const char* name)
{
    const Plan plan = load(name);
    for (auto _ : state) {
        Prediction p = evaluate(plan);
        benchmark::DoNotOptimize(p.stepSeconds);
    }
    state.counters["stages"] = plan.parallel.pp;
    state.counters["gpus"] = plan.cluster.gpus();
}

void evaluateWithExplanations(benchmark::State& state, const char* name)
{
    const Plan plan = load(name);
    for (auto _ : state) {
        Explainer ex;
        Prediction p = evaluate(plan, &ex);
        benchmark::DoNotOptimize(p.stepSeconds);
        state.counters["explanations"] = double(ex.entries().size());
    }
}

void parseAndEvaluate(benchmark::State& state, const char* name)
{
    auto text = readTextFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name);
    for (auto _ : state) {
        auto r = parsePlan(text.value());
        Prediction p = evaluate(r->plan);
        benchmark::DoNotOptimize(p.stepSeconds);
    }
}
} // namespace

BENCHMARK_CAPTURE(evaluatePlan, default_3d_16gpu_pp4, "default.plan.json")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(evaluatePlan, gpt3_3d_1024gpu_pp16_vpp2, "gpt3-175b-1024xa100.plan.json")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(evaluatePlan, glm130b_3d_256gpu_pp16_zero3, "interview-130b-256xa100-zero3.plan.json")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(evaluatePlan, llama3_405b_16384gpu_dp128, "llama3-405b-16k-h100.plan.json")->Unit(benchmark::kMicrosecond);
// MoE plans (issue 29: at most 20 us): DeepSeek-V3 on 1,024 H100 and on 256 GB200, Qwen3-30B-A3B on 8 B200.
BENCHMARK_CAPTURE(evaluatePlan, moe_deepseek_v3_1024xh100, "deepseek-v3-1024xh100-fp8.plan.json")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(evaluatePlan, moe_deepseek_v3_256xgb200, "published/bridge-2511-gb200-deepseek-v3-bf16.plan.json")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(evaluatePlan, moe_qwen3_30b_8xb200, "published/bridge-2511-b200-qwen3-30b-a3b-mxfp8.plan.json")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(evaluateWithExplanations, gpt3_3d_1024gpu, "gpt3-175b-1024xa100.plan.json")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(parseAndEvaluate, gpt3_3d_1024gpu, "gpt3-175b-1024xa100.plan.json")->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
