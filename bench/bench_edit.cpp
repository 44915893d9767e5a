// An edit as the user sees it: from PlanDocument::setPlan() (the editor's change) until every page has redrawn the
// new analysis at 1920 x 1080. The analysis (core analyse(): evaluate with explanations, then the schedule
// simulation) runs on a worker, as in the app; the time includes waiting for it, the pages' reaction to
// predictionChanged() and one paint of each (QWidget::grab). Each iteration alternates between two inter-node
// bandwidths, so every edit changes the numbers and the step keeps its shape. Target (issue 4): at most 100 ms for every sample.
// Run: QT_QPA_PLATFORM=offscreen build/bin/bench_edit --benchmark_format=json
#include "document/PlanDocument.h"
#include "pages/SummaryPage.h"
#include "document/ViewState.h"
#include "io/PlanJson.h"
#include "pages/TimelinePage.h"
#include "pages/CommView.h"
#include "pages/GpuGridView.h"
#include "pages/MemoryPage.h"

#include <QApplication>
#include <QEventLoop>
#include <QPixmap>
#include <benchmark/benchmark.h>
#include <chrono>
#include <memory>
#include <vector>

using namespace planscope;

namespace {

void editToViews(benchmark::State& state, const char* name)
{
    auto loaded = loadPlanFile(std::string(PLANSCOPE_SAMPLES_DIR) + "/plans/" + name);
    if (!loaded) {
        state.SkipWithError("cannot load plan");
        return;
    }
    PlanDocument document;
    document.setAutosaveInterval(24 * 3600 * 1000); // no autosave writes inside the measurement
    ViewState viewState;
    std::vector<std::unique_ptr<QWidget>> pages;
    auto add = [&](auto* page) {
        page->setDocument(&document);
        page->setViewState(&viewState);
        page->resize(1920, 1080);
        pages.emplace_back(page);
    };
    add(new TimelinePage);
    add(new GpuGridView);
    add(new MemoryPage);
    add(new CommView);
    auto* summary = new SummaryPage;
    summary->setDocument(&document);
    summary->resize(1920, 1080);
    pages.emplace_back(summary);

    // Until the document has published this edit's analysis (the pages react to the same signal first), then
    // one paint of every page.
    auto editAndWait = [&](const Plan& plan) {
        const auto before = document.analysis();
        document.setPlan(plan);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while ((document.isEvaluating() || document.analysis() == before) && std::chrono::steady_clock::now() < deadline)
            QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
        for (auto& p : pages) benchmark::DoNotOptimize(p->grab().cacheKey());
        return document.analysis() != before;
    };
    Plan a = loaded->plan, b = loaded->plan;
    b.cluster.interNode.bandwidth = a.cluster.interNode.bandwidth * 2; // new numbers, the same number of spans
    if (!editAndWait(a)) { // warm: first layouts, fonts
        state.SkipWithError("no analysis was published");
        return;
    }
    bool flip = false;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        if (!editAndWait(flip ? a : b)) {
            state.SkipWithError("no analysis was published");
            break;
        }
        flip = !flip;
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    state.counters["spans"] = document.timeline() ? double(document.timeline()->spans.size()) : 0.0;
}

} // namespace

BENCHMARK_CAPTURE(editToViews, default_plan, "default.plan.json")->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK_CAPTURE(editToViews, gpt3_1024, "gpt3-175b-1024xa100.plan.json")->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK_CAPTURE(editToViews, bloom_384, "bloom-176b-384xa100.plan.json")->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK_CAPTURE(editToViews, glm130b_256_zero3, "interview-130b-256xa100-zero3.plan.json")
    ->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK_CAPTURE(editToViews, glm130b_64, "interview-130b-64xa100.plan.json")->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK_CAPTURE(editToViews, llama3_405b_16k, "llama3-405b-16k-h100.plan.json")->Unit(benchmark::kMillisecond)->UseManualTime();

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
