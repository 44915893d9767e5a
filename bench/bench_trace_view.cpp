// What the Measured Run view costs on the GUI thread once a trace is imported (the import itself runs on a worker,
// bench_trace): the overlay on the default plan's simulated step (core/trace/Overlay), the view's rows
// (TraceRows, with and without CPU threads), the engine's index over them (timeline/LaneEngine.h), and one frame of
// TraceTimelineView at 1920 x 1080 at five zooms (BM_Frame; the target is 16 ms at any zoom). With
// --screenshots=DIR it writes those five frames as PNGs instead.
// Input: df_index_resolver (216,092 events, 81,005 kept) from samples/traces, PLANSCOPE_BENCH_TRACE=FILE for another
// (scripts/bench-trace-large.sh writes a 1 GB one). Run with --benchmark_format=json.
#include "document/TraceSet.h"
#include "io/PlanJson.h"
#include "analysis/Analysis.h"
#include "timeline/TraceRows.h"
#include "timeline/TraceTimelineView.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
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
        i.timeline = analyse(i.plan)->timeline; // the predicted step, as the app's document has it
        if (!i.timeline) std::exit(1);
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

void BM_LaneIndex(benchmark::State& state)
{
    const Inputs& in = inputs();
    const Overlay overlay = buildOverlay(in.traces->ranks, in.plan, *in.timeline);
    const auto rows = buildTraceRows(in.traces->ranks, overlay, in.timeline.get(), false);
    std::size_t items = 0;
    for (const TraceRow& r : rows) items += r.items.size();
    for (auto _ : state) {
        const LaneIndex index(TraceLanes { rows });
        benchmark::DoNotOptimize(&index);
    }
    state.counters["items"] = double(items);
}

// One frame of the view at 1920 x 1080 as the app draws it after a zoom or pan: a new layout (the window moves by
// a pixel every frame, so the layout cache never answers), then the paint. Windows, centred at 40 % of the aligned
// step: 0 the step fitted (as on opening), 1 the whole trace, 2 a tenth of the step, 3 a thousandth, 4 ten
// microseconds.
// The view over the inputs at 1920 x 1080, fitted to the aligned step.
struct FrameView {
    TraceTimelineView view;
    QImage image { 1920, 1080, QImage::Format_ARGB32_Premultiplied };
    explicit FrameView(const Inputs& in, bool cpu = false)
    {
        auto overlay = std::make_shared<const Overlay>(buildOverlay(in.traces->ranks, in.plan, *in.timeline));
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(1920, 1080);
        view.setData(in.traces, overlay, in.timeline);
        view.setShowCpu(cpu);
        view.zoomToFit();
    }
    // Windows, centred at 40 % of the aligned step: 0 the step fitted (as on opening), 1 the whole trace, 2 a
    // tenth of the step, 3 a thousandth, 4 ten microseconds.
    std::pair<double, double> window(int which) const
    {
        const TimeViewport fit = view.viewport();
        const double centre = fit.start + 0.4 * (fit.end - fit.start), width = fit.end - fit.start;
        switch (which) {
        case 1: {
            double start = std::numeric_limits<double>::infinity(), end = -start;
            for (const TraceRow& r : view.rows())
                for (const TraceItem& it : r.items) {
                    start = std::min(start, double(it.start) * 1e-9);
                    end = std::max(end, double(it.end) * 1e-9);
                }
            return { start, end };
        }
        case 2: return { centre - width / 20, centre + width / 20 };
        case 3: return { centre - width / 2000, centre + width / 2000 };
        case 4: return { centre - 5e-6, centre + 5e-6 };
        default: return { fit.start, fit.end };
        }
    }
    void paint()
    {
        QPainter painter(&image);
        view.render(&painter);
        painter.end();
        benchmark::DoNotOptimize(image.constBits());
    }
};

// One frame of the view at 1920 x 1080 as the app draws it after a zoom or pan: a new layout (the window moves by
// a pixel every frame, so the layout cache never answers), then the paint, for the windows of FrameView::window,
// without and with the CPU threads' rows.
void BM_Frame(benchmark::State& state)
{
    FrameView f(inputs(), state.range(1) != 0);
    const auto [start, end] = f.window(int(state.range(0)));
    std::size_t items = 0;
    for (const TraceRow& r : f.view.rows()) items += r.items.size();
    const std::size_t layoutsBefore = f.view.layoutCount();
    bool flip = false;
    for (auto _ : state) {
        const double nudge = flip ? (end - start) / 1920 : 0.0;
        flip = !flip;
        f.view.setRange(start + nudge, end + nudge);
        f.paint();
    }
    const DrawList& d = f.view.drawList();
    state.counters["windowSeconds"] = end - start;
    state.counters["items"] = double(items);
    state.counters["rects"] = double(d.rects.size());
    state.counters["folds"] = double(d.folds.size());
    state.counters["labels"] = double(d.labels.size());
    state.counters["lanes"] = double(d.lanes.size());
    state.counters["layoutsPerFrame"] = double(f.view.layoutCount() - layoutsBefore) / double(state.iterations());
}

// PNGs of the frames BM_Frame times, to look at.
int screenshots(const QString& dir)
{
    QDir().mkpath(dir);
    FrameView f(inputs());
    for (int which = 0; which <= 4; ++which) {
        const auto [start, end] = f.window(which);
        f.view.setRange(start, end);
        f.paint();
        const QString path = QDir(dir).filePath(QStringLiteral("trace-view-%1.png").arg(which));
        if (!f.image.save(path)) return 1;
        std::printf("wrote %s\n", qPrintable(path));
    }
    return 0;
}

BENCHMARK(BM_Overlay)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Rows)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LaneIndex)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Frame)->ArgNames({ "window", "cpu" })->ArgsProduct({ { 0, 1, 2, 3, 4 }, { 0, 1 } })->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--screenshots=", 14) == 0) return screenshots(QString::fromLocal8Bit(argv[i] + 14));
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
