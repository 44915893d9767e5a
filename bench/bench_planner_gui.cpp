// The GUI thread while the planner page searches (issue 14): a 1 ms precise QTimer on the GUI thread records the gap
// between its ticks, first with nothing running (the baseline: what the event loop and the timer give on this
// machine), then while the page searches a plan's space on its worker (SearchOptions::threads = cores - 1:
// "searching"), and while it shows the result, the tables and then the scatter in two turns of the event loop
// ("showing"). A gap is the longest the GUI thread could not react; the target is every frame under 16 ms. Also timed: one repaint of the whole page every 100 ms during the
// search (the progress bar moving). Prints one JSON object.
// Run: QT_QPA_PLATFORM=offscreen build/bin/bench_planner_gui [PLAN] [--rounds N]
#include "document/PlanDocument.h"
#include "pages/PlannerPage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace planscope;

namespace {

struct Gaps {
    std::vector<double> ms;
    double max() const { return ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end()); }
    std::size_t over(double limit) const { return std::size_t(std::count_if(ms.begin(), ms.end(), [limit](double v) { return v > limit; })); }
    double quantile(double q) const
    {
        if (ms.empty()) return 0;
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        return sorted[std::min(sorted.size() - 1, std::size_t(q * double(sorted.size())))];
    }
    double mean() const
    {
        double sum = 0;
        for (double v : ms) sum += v;
        return ms.empty() ? 0 : sum / double(ms.size());
    }
    std::string json() const
    {
        char buffer[256];
        std::snprintf(buffer, sizeof buffer, "{\"ticks\": %zu, \"meanGapMs\": %.3f, \"p99GapMs\": %.3f, \"maxGapMs\": %.3f, \"gapsOver16Ms\": %zu}",
            ms.size(), mean(), quantile(0.99), max(), over(16.0));
        return buffer;
    }
};

// Ticks of a 1 ms timer until `done` says stop, and one tick more; each gap between two ticks in milliseconds, in
// `during` while `running()` holds at the tick that ends it, else in `after`.
template<typename Done, typename Running>
void tickUntil(Done done, Running running, Gaps& during, Gaps& after)
{
    QElapsedTimer clock;
    clock.start();
    qint64 last = -1;
    std::size_t ticks = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (last >= 0) (running() ? during : after).ms.push_back(double(now - last) / 1e6);
        last = now;
        ++ticks;
    });
    tick.start();
    while (!done()) QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    // One more tick: the last gap holds what ran when `done` turned true.
    const std::size_t before = ticks;
    while (ticks == before) QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QString plan = QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-175b-256xa100.plan.json");
    int rounds = 3;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == QLatin1String("--rounds") && i + 1 < argc) rounds = std::max(1, QString::fromLocal8Bit(argv[++i]).toInt());
        else plan = arg;
    }
    PlanDocument document;
    document.setAutosaveInterval(24 * 3600 * 1000);
    QElapsedTimer loading;
    loading.start();
    const bool loaded = document.load(plan);
    while (loaded && (document.isEvaluating() || !document.prediction()) && loading.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
    if (!loaded || !document.prediction()) {
        std::fprintf(stderr, "bench_planner_gui: cannot load %s\n", qPrintable(plan));
        return 1;
    }
    PlannerPage page;
    page.resize(1400, 900);
    page.show();               // on screen (offscreen) before it has a plan: the first show starts nothing
    page.setDocument(&document);
    QCoreApplication::processEvents();

    // The baseline: one second with nothing running.
    QElapsedTimer idleClock;
    idleClock.start();
    Gaps idle, unused;
    tickUntil([&] { return idleClock.elapsed() >= 1000; }, [] { return true; }, idle, unused);

    std::string roundsJson;
    Gaps allSearching, allShowing;
    double worstFrame = 0, seconds = 0, plans = 0;
    for (int round = 0; round < rounds; ++round) {
        bool finished = false;
        QMetaObject::Connection c = QObject::connect(&page, &PlannerPage::searchFinished, [&] { finished = true; });
        // A repaint of the whole page every 100 ms: the frame the user sees while the search runs.
        std::vector<double> frames;
        QTimer frame;
        frame.setInterval(100);
        QObject::connect(&frame, &QTimer::timeout, [&] {
            if (finished) return;
            QElapsedTimer t;
            t.start();
            page.repaint();
            frames.push_back(double(t.nsecsElapsed()) / 1e6);
        });
        if (!page.startSearch()) return 1;
        frame.start();
        Gaps searching, showing;
        tickUntil([&] { return finished; }, [&] { return page.isRunning(); }, searching, showing);
        frame.stop();
        QObject::disconnect(c);
        const double frameMax = frames.empty() ? 0 : *std::max_element(frames.begin(), frames.end());
        worstFrame = std::max(worstFrame, frameMax);
        allSearching.ms.insert(allSearching.ms.end(), searching.ms.begin(), searching.ms.end());
        allShowing.ms.insert(allShowing.ms.end(), showing.ms.begin(), showing.ms.end());
        seconds = page.result()->seconds;
        plans = page.result()->plans;
        char buffer[768];
        std::snprintf(buffer, sizeof buffer, "%s{\"searchSeconds\": %.3f, \"searching\": %s, \"showing\": %s, \"repaints\": %zu, "
            "\"maxRepaintMs\": %.3f}",
            round ? ", " : "", page.result()->seconds, searching.json().c_str(), showing.json().c_str(), frames.size(), frameMax);
        roundsJson += buffer;
    }
    std::printf("{\"bench\": \"planner_gui\", \"plan\": \"%s\", \"cores\": %u, \"searchThreads\": %d, \"plans\": %.0f, "
                "\"lastSearchSeconds\": %.3f,\n \"idle\": %s,\n \"searching\": %s,\n \"showing\": %s,\n \"maxRepaintMs\": %.3f,\n"
                " \"rounds\": [%s]}\n",
        qPrintable(plan.section(QLatin1Char('/'), -1)), std::thread::hardware_concurrency(), page.searchOptions().threads, plans,
        seconds, idle.json().c_str(), allSearching.json().c_str(), allShowing.json().c_str(), worstFrame, roundsJson.c_str());
    return 0;
}
