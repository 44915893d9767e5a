// What the Measured Run view costs on the GUI thread once a trace is imported (the import itself runs on a worker,
// bench_trace): the overlay on the default plan's simulated step (core/trace/Overlay), the view's rows
// (TraceRows, with and without CPU threads), and one frame of TraceTimelineView at 1400 x 800 fitted to the step.
// Input: df_index_resolver (216,092 events, 81,005 kept) from samples/traces, PLANSCOPE_BENCH_TRACE=FILE for another
// (scripts/bench-trace-large.sh writes a 1 GB one). Run with --benchmark_format=json.
#include "TraceSet.h"
#include "io/PlanJson.h"
#include "cost/Evaluate.h"
#include "views/TraceRows.h"
#include "views/TraceTimelineView.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace planscope;

namespace {

struct Inputs {
    std::shared_ptr<TraceImport> traces = std::make_shared<TraceImport>();
    Plan plan;
    std::shared_ptr<const Timeline> timeline;
};

const Inputs& inputs()
{
    static const Inputs in = [] {
        Inputs i;
        const char* env = std::getenv("PLANSCOPE_BENCH_TRACE");
        const std::string path = env && *env ? env : std::string(PLANSCOPE_SAMPLES_DIR) + "/traces/df_index_resolver.json.gz";
        auto rank = importKinetoTrace(path);
        auto plan = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/default.plan.json");
        if (!rank || !plan) {
            std::fprintf(stderr, "bench_trace_view: cannot read %s or the default plan\n", path.c_str());
            std::exit(1);
        }
        i.traces->ranks.push_back(std::move(rank.value()));
        i.plan = plan->plan;
        auto tl = simulate(i.plan, evaluate(i.plan));
        if (!tl) std::exit(1);
        i.timeline = std::make_shared<const Timeline>(std::move(tl.value()));
        return i;
    }();
    return in;
}

void BM_Overlay(benchmark::State& state)
{
    const Inputs& in = inputs();
    for (auto _ : state) benchmark::DoNotOptimize(buildOverlay(in.traces->ranks, in.plan, *in.timeline));
    state.counters["keptEvents"] = double(in.traces->ranks.front().eventList.size());
}

void BM_Rows(benchmark::State& state)
{
    const Inputs& in = inputs();
    const Overlay overlay = buildOverlay(in.traces->ranks, in.plan, *in.timeline);
    std::size_t rows = 0;
    for (auto _ : state) {
        const auto r = buildTraceRows(in.traces->ranks, overlay, in.timeline.get(), state.range(0) != 0);
        rows = r.size();
        benchmark::DoNotOptimize(r.data());
    }
    state.counters["rows"] = double(rows);
}

void BM_Frame(benchmark::State& state)
{
    const Inputs& in = inputs();
    auto overlay = std::make_shared<const Overlay>(buildOverlay(in.traces->ranks, in.plan, *in.timeline));
    TraceTimelineView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(1400, 800);
    view.setData(in.traces, overlay, in.timeline);
    view.zoomToFit();
    QImage image(1400, 800, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter painter(&image);
        view.render(&painter);
        painter.end();
        benchmark::DoNotOptimize(image.constBits());
    }
}

BENCHMARK(BM_Overlay)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rows)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Frame)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
