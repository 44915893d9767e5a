// The GPU grid at cluster scale (issue 34): Llama 3 405B (samples/plans/llama3-405b-16k-h100.plan.json: tp 8, pp 16,
// vpp 8, interleaved 1F1B) widened to 131,072 GPUs (dp 1,024, global batch 16,384) and 1,048,576 GPUs (dp 8,192, global
// batch 131,072) on 8-GPU nodes. Per size:
//   BM_GridAnalysis: the view taking a new analysis (its rank grid, group crossings, warnings, busy GPUs).
//   BM_GridFrame/zoom: one frame of the grid's canvas at 1920 x 1080, at zoom 1 (the whole cluster fitted), 8, 64 and
//     512 (a few nodes): paint into an image. The target is 8 ms at every level.
//   BM_GridHitTest: the GPU under a point (GridGeometry::rankAt), over a grid of points across the canvas.
// Counters: gpus, aggregated (1 where nodes are drawn as one cell), rssMiB (the process's resident memory after the
// view took the analysis). Run: QT_QPA_PLATFORM=offscreen build/bin/bench_grid --benchmark_format=json
#include "analysis/Analysis.h"
#include "io/PlanJson.h"
#include "pages/GpuGridView.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

using namespace planscope;

namespace {

double rssMiB()
{
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return double(resident) * 4096.0 / (1 << 20);
}

std::shared_ptr<const Analysis> analysisOf(long long gpus)
{
    static std::map<long long, std::shared_ptr<const Analysis>> cache;
    auto& a = cache[gpus];
    if (a) return a;
    std::ifstream in(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/llama3-405b-16k-h100.plan.json");
    nlohmann::json j = nlohmann::json::parse(in);
    const long long dp = gpus / (8 * 16);
    j["cluster"]["nodes"] = gpus / 8;
    j["parallel"]["dp"] = dp;
    j["training"]["globalBatch"] = dp * 16;
    j["name"] = "Llama 3 405B on " + std::to_string(gpus) + " GPUs";
    auto plan = planFromJson(j);
    if (!plan) {
        std::fprintf(stderr, "bench_grid: %s\n", plan.errors().front().message.c_str());
        std::exit(1);
    }
    a = analyse(plan->plan);
    if (!a->valid()) {
        std::fprintf(stderr, "bench_grid: the %lld-GPU plan is invalid: %s\n", gpus, a->prediction.errors.front().message.c_str());
        std::exit(1);
    }
    return a;
}

struct View {
    GpuGridView view;
    double rss = 0;
    explicit View(long long gpus)
    {
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(1920, 1080);
        view.show();
        view.setAnalysis(analysisOf(gpus));
        QApplication::processEvents();
        rss = rssMiB();
    }
};

View& viewOf(long long gpus)
{
    static std::map<long long, std::unique_ptr<View>> views;
    auto& v = views[gpus];
    if (!v) v = std::make_unique<View>(gpus);
    return *v;
}

void BM_GridAnalysis(benchmark::State& state)
{
    const long long gpus = state.range(0);
    const auto a = analysisOf(gpus);
    GpuGridView view;
    view.resize(1920, 1080);
    for (auto _ : state) {
        view.setAnalysis(nullptr);
        view.setAnalysis(a);
    }
    state.counters["gpus"] = double(gpus);
}

void BM_GridFrame(benchmark::State& state)
{
    const long long gpus = state.range(0);
    View& v = viewOf(gpus);
    v.view.setZoom(double(state.range(1)));
    QWidget* canvas = v.view.canvas();
    QImage image(canvas->size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter p(&image);
        canvas->render(&p);
    }
    state.counters["gpus"] = double(gpus);
    state.counters["zoom"] = double(state.range(1));
    state.counters["aggregated"] = v.view.isAggregated() ? 1 : 0;
    state.counters["rssMiB"] = v.rss;
}

void BM_GridHitTest(benchmark::State& state)
{
    const long long gpus = state.range(0);
    View& v = viewOf(gpus);
    v.view.setZoom(double(state.range(1)));
    const GridGeometry& g = v.view.geometry();
    const QSizeF size = v.view.canvas()->size();
    long long hits = 0, tests = 0;
    for (auto _ : state) {
        for (int y = 0; y < 32; ++y)
            for (int x = 0; x < 32; ++x) {
                hits += g.rankAt(QPointF(size.width() * (x + 0.5) / 32, size.height() * (y + 0.5) / 32)) >= 0;
                ++tests;
            }
    }
    state.counters["gpus"] = double(gpus);
    state.counters["zoom"] = double(state.range(1));
    state.counters["nsPerHitTest"] = benchmark::Counter(double(tests), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["hitShare"] = tests ? double(hits) / double(tests) : 0;
}

} // namespace

BENCHMARK(BM_GridAnalysis)->Arg(131072)->Arg(1048576)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_GridFrame)->ArgsProduct({ { 131072, 1048576 }, { 1, 8, 64, 512 } })->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GridHitTest)->ArgsProduct({ { 131072, 1048576 }, { 1, 64 } })->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
