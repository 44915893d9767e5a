// Frame time of the timeline (docs/ARCHITECTURE.md section 4): layout + paint of a 1M-span synthetic timeline into a
// 1920 x 1080 image at several zoom levels; the target is 16 ms a frame. Run with --benchmark_format=json.
// With --screenshots=DIR it instead writes PNGs of the timeline page for the sample plans (to look at).
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "SyntheticTimeline.h"
#include "timeline/TimelineLayout.h"
#include "pages/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTimer>
#include <benchmark/benchmark.h>
#include <cstring>
#include <memory>

using namespace planscope;

namespace {

const std::shared_ptr<const Timeline>& bigTimeline()
{
    static const auto timeline = std::make_shared<const Timeline>(makeSyntheticTimeline(16, 1'000'000));
    return timeline;
}

// The visible window for a zoom factor, centred at 40 % of the step.
std::pair<double, double> window(const Timeline& tl, double zoom)
{
    const double width = tl.stepSeconds / zoom;
    const double start = std::clamp(tl.stepSeconds * 0.4 - width / 2, 0.0, tl.stepSeconds - width);
    return { start, start + width };
}

void BM_Layout(benchmark::State& state)
{
    const Timeline& tl = *bigTimeline();
    static const TimelineIndex index(tl);
    const auto [start, end] = window(tl, double(state.range(0)));
    const TimeViewport vp { start, end, 1700 };
    LaneGeometry g;
    g.viewHeight = 1080;
    std::size_t items = 0;
    for (auto _ : state) {
        DrawList d = layoutTimeline(tl, index, vp, g, Selection {});
        items = d.itemCount();
        benchmark::DoNotOptimize(d);
    }
    state.counters["items"] = double(items);
    state.counters["spans"] = double(tl.spans.size());
}

// The view over the 1M-span timeline at 1920 x 1080, and an image to paint it into.
struct BigView {
    ViewState viewState;
    TimelineView view;
    QImage image { 1920, 1080, QImage::Format_ARGB32_Premultiplied };
    BigView()
    {
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.setViewState(&viewState);
        view.resize(1920, 1080);
        view.setTimeline(bigTimeline());
    }
    void paint()
    {
        QPainter painter(&image);
        view.render(&painter);
        painter.end();
        benchmark::DoNotOptimize(image.constBits());
    }
};

// One frame as the app draws it: a ViewState change relayouts, then the widget paints into the image.
void BM_LayoutAndPaint(benchmark::State& state)
{
    const auto& tl = bigTimeline();
    BigView big;
    ViewState& viewState = big.viewState;
    TimelineView& view = big.view;
    const auto [start, end] = window(*tl, double(state.range(0)));
    bool flip = false;
    for (auto _ : state) {
        // Alternate between two windows a pixel apart, so every frame really lays out again.
        const double nudge = flip ? (end - start) / 1920 : 0.0;
        flip = !flip;
        viewState.setViewRange(start + nudge, end + nudge);
        big.paint();
    }
    const DrawList& d = view.drawList();
    state.counters["rects"] = double(d.rects.size());
    state.counters["folds"] = double(d.folds.size());
    state.counters["labels"] = double(d.labels.size());
    state.counters["bubbles"] = double(d.bubbles.size());
    state.counters["lanes"] = double(d.lanes.size());
}

// A playback tick: the playhead moves, the view repaints from its cached layout (layoutsPerFrame must be 0).
void BM_PlayheadTick(benchmark::State& state)
{
    BigView big;
    const auto [start, end] = window(*bigTimeline(), double(state.range(0)));
    big.viewState.setViewRange(start, end);
    big.paint();
    const std::size_t layouts = big.view.layoutCount();
    int tick = 0;
    for (auto _ : state) {
        big.viewState.setPlayhead(start + (end - start) * double(tick++ % 100) / 100.0);
        big.paint();
    }
    state.counters["layoutsPerFrame"] = double(big.view.layoutCount() - layouts) / double(state.iterations());
}

BENCHMARK(BM_Layout)->Arg(1)->Arg(10)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LayoutAndPaint)->Arg(1)->Arg(10)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlayheadTick)->Arg(1)->Arg(1000)->Unit(benchmark::kMillisecond);

bool loadAndWait(PlanDocument& doc, const QString& path)
{
    QEventLoop loop;
    QObject::connect(&doc, &PlanDocument::predictionChanged, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    if (!doc.load(path)) return false;
    if (!doc.timeline()) loop.exec();
    return doc.timeline() != nullptr;
}

// PNGs of the page for two sample plans (fit, zoomed, a selection while playing) and of the synthetic
// million-span timeline.
int screenshots(const QString& dir)
{
    QDir().mkpath(dir);
    int failures = 0;
    auto save = [&](TimelinePage& page, const QString& name, QSize size) {
        QString error;
        const QString path = QDir(dir).filePath(name);
        if (!page.exportTo(path, size, &error)) {
            qWarning("%s: %s", qPrintable(path), qPrintable(error));
            ++failures;
        } else {
            qInfo("wrote %s", qPrintable(path));
        }
    };
    for (const char* plan : { "default", "gpt3-175b-1024xa100", "interview-130b-256xa100-zero3" }) {
        PlanDocument doc;
        ViewState state;
        TimelinePage page;
        page.setViewState(&state);
        page.setDocument(&doc);
        const QString file
            = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/%1.plan.json").arg(QLatin1String(plan));
        if (!loadAndWait(doc, file)) {
            qWarning("cannot load %s: %s", qPrintable(file), qPrintable(doc.errorString()));
            ++failures;
            continue;
        }
        const QString base = QStringLiteral("timeline-%1").arg(QLatin1String(plan));
        save(page, base + QStringLiteral("-fit.png"), QSize(1600, 900));
        save(page, base + QStringLiteral("-fit.svg"), QSize(1600, 900));
        const QString svg = QDir(dir).filePath(base + QStringLiteral("-view.svg"));
        page.view()->exportTo(svg, QSize(1600, 700));
        // The SVG drawn back, to look at what slides will show.
        QSvgRenderer renderer(svg);
        QImage back(1600, 700, QImage::Format_ARGB32_Premultiplied);
        back.fill(Qt::white);
        QPainter painter(&back);
        renderer.render(&painter);
        painter.end();
        back.save(QDir(dir).filePath(base + QStringLiteral("-view-svg.png")));
        // Zoomed to the first tenth of the step, microbatch 2 selected, playhead at 5 %.
        const double d = state.duration();
        state.setViewRange(0.0, d * 0.1);
        state.select(0, 0, 2);
        state.setPlayhead(d * 0.05);
        save(page, base + QStringLiteral("-zoom.png"), QSize(1600, 900));
        state.setViewRange(0.0, d);
        save(page, base + QStringLiteral("-selected.png"), QSize(1600, 900));
        save(page, base + QStringLiteral("-small.png"), QSize(900, 600));
    }
    {
        ViewState state;
        TimelinePage page;
        page.setViewState(&state);
        page.view()->setTimeline(bigTimeline());
        save(page, QStringLiteral("timeline-synthetic-1M-fit.png"), QSize(1600, 900));
        const auto [start, end] = window(*bigTimeline(), 1000);
        state.setViewRange(start, end);
        save(page, QStringLiteral("timeline-synthetic-1M-1000x.png"), QSize(1600, 900));
    }
    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv); // a QGuiApplication with widgets: the view paints through QWidget::render
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--screenshots=", 14) == 0)
            return screenshots(QString::fromLocal8Bit(argv[i] + 14));
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
