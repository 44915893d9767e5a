// planscope: the GUI. With --screenshot it renders one view offscreen and exits, which is how the
// README pictures and the CI smoke test are made (QT_QPA_PLATFORM=offscreen needs no display).
#include "LanguageManager.h"
#include "MainWindow.h"
#include "document/PlanDocument.h"
#include "Theme.h"
#include "document/TraceSet.h"
#include "pages/ComparePage.h"
#include "pages/ProfilePage.h"
#include "pages/RunPage.h"
#include "WidgetExporter.h"
#include "lessons/Lessons.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QRegularExpression>
#include <QSettings>
#include <QTimer>
#include <cstdio>
#include <csignal>

using namespace planscope;

namespace {

constexpr int kExitUsage = 2; // bad command line, or a plan that cannot run (with --screenshot)
constexpr int kExitExportFailed = 1;

void complain(const QString& message)
{
    std::fprintf(stderr, "planscope: %s\n", qPrintable(message));
}

// samples/plans/default.plan.json next to the build tree (build/bin/../../samples), else the source tree's.
QString defaultPlanPath()
{
    const QString relative = QStringLiteral("/plans/default.plan.json");
    const QString besideBuild
        = QCoreApplication::applicationDirPath() + QStringLiteral("/../../samples") + relative;
    if (QFileInfo::exists(besideBuild)) return QDir::cleanPath(besideBuild);
    return QStringLiteral(PLANSCOPE_SOURCE_SAMPLES_DIR) + relative;
}

// A screenshot needs no screen: without a display, render with the offscreen platform plugin. --help and
// --version print and exit, so they never need one (a display or not), unless a platform was asked for.
void preferOffscreenWhereNoScreenIsNeeded(int argc, char* argv[])
{
    if (qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) return;
    const bool display = qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        const bool printsAndExits = arg == "--help" || arg == "-h" || arg == "-?" || arg == "--help-all"
            || arg == "-help" || arg == "--version" || arg == "-v" || arg == "-version";
        const bool screenshot = arg == "--screenshot" || arg.startsWith("--screenshot=") || arg == "-screenshot"
            || arg == "--tables" || arg.startsWith("--tables=") || arg == "-tables";
        if (printsAndExits || (screenshot && !display)) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}

} // namespace

int main(int argc, char* argv[])
{
    // A write past the file size limit (ulimit -f, setrlimit(2) RLIMIT_FSIZE) fails with EFBIG and is reported, the
    // old file kept, instead of SIGXFSZ ending the process (signal(7)).
    std::signal(SIGXFSZ, SIG_IGN);
    preferOffscreenWhereNoScreenIsNeeded(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("PlanScope"));
    QApplication::setOrganizationName(QStringLiteral("PlanScope"));
    QApplication::setApplicationVersion(QStringLiteral(PLANSCOPE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/planscope.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "How a large-model training run behaves under a parallel plan: memory, time, communication."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption planOption(QStringLiteral("plan"),
        QStringLiteral("Plan file to open (default: %1).").arg(defaultPlanPath()), QStringLiteral("PATH"),
        defaultPlanPath());
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Render the view to OUT (.png, .svg or .pdf) without showing a window, then exit."),
        QStringLiteral("OUT"));
    const QCommandLineOption viewOption(QStringLiteral("view"),
        QStringLiteral("View to show: %1.").arg(MainWindow::viewNames().join(QStringLiteral(", "))),
        QStringLiteral("NAME"), MainWindow::viewNames().front());
    const QCommandLineOption langOption(QStringLiteral("lang"),
        QStringLiteral("User interface language: %1.")
            .arg(LanguageManager::availableLanguages().join(QStringLiteral(", "))),
        QStringLiteral("CODE"), QStringLiteral("en"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1400x900."),
        QStringLiteral("WxH"), QStringLiteral("1400x900"));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
        QStringLiteral("Colours: %1 (default: light with --screenshot, so pictures stay slide-ready; "
                       "otherwise the View > Theme choice, else system).")
            .arg(Theme::modeNames().join(QStringLiteral(", "))),
        QStringLiteral("MODE"));
    const QCommandLineOption traceOption(QStringLiteral("trace"),
        QStringLiteral("PyTorch profiler trace (.json, .json.gz) or a folder of them, one file per rank; repeat for more. "
                       "Shown on the trace view against the plan's prediction."),
        QStringLiteral("PATH"));
    const QCommandLineOption tablesOption(QStringLiteral("tables"),
        QStringLiteral("Write the view's tables to OUT (.xlsx: one workbook; .csv: a file per table) without showing a window, "
                       "then exit (with --screenshot too where both are given)."),
        QStringLiteral("OUT"));
    parser.addOptions({ planOption, screenshotOption, viewOption, langOption, sizeOption, themeOption, traceOption, tablesOption });
    const QCommandLineOption runOption(QStringLiteral("run"),
        QStringLiteral("A measured run's summary (planscope-reduce, planscope-cli reduce) on the run view; given twice, the second is "
                       "compared with the first."),
        QStringLiteral("PATH"));
    parser.addOption(runOption);
    const QCommandLineOption compareOption(QStringLiteral("compare"),
        QStringLiteral("Plan file to compare with the open plan on the compare view; repeat for more (at most 3)."),
        QStringLiteral("PATH"));
    parser.addOption(compareOption);
    const QCommandLineOption profileOption(QStringLiteral("profile"),
        QStringLiteral("Measurements shown on the profile view: a profile (planscope-profile) or nccl-tests output "
                       "(text or -J JSON), with its fits and the plan's default and calibrated predictions."),
        QStringLiteral("PATH"));
    parser.addOption(profileOption);
    const QCommandLineOption lessonOption(QStringLiteral("lesson"),
        QStringLiteral("Open a lesson (the Learn menu) beside its view; with --screenshot the picture is the window with the "
                       "lesson. Lessons: planscope-cli lessons."),
        QStringLiteral("ID"));
    parser.addOption(lessonOption);
    const QCommandLineOption lessonStepOption(QStringLiteral("lesson-step"),
        QStringLiteral("The step of --lesson to open, from 1."), QStringLiteral("N"), QStringLiteral("1"));
    parser.addOption(lessonStepOption);
    parser.process(app);

    const QString view = parser.value(viewOption);
    if (!MainWindow::viewNames().contains(view)) {
        complain(QStringLiteral("unknown view \"%1\"; valid views: %2")
                     .arg(view, MainWindow::viewNames().join(QStringLiteral(", "))));
        return kExitUsage;
    }
    const QString lang = parser.value(langOption);
    if (!LanguageManager::availableLanguages().contains(lang)) {
        complain(QStringLiteral("unknown language \"%1\"; valid languages: %2")
                     .arg(lang, LanguageManager::availableLanguages().join(QStringLiteral(", "))));
        return kExitUsage;
    }
    const auto sizeMatch
        = QRegularExpression(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$")).match(parser.value(sizeOption));
    if (!sizeMatch.hasMatch()) {
        complain(QStringLiteral("--size wants WIDTHxHEIGHT, e.g. 1400x900; got \"%1\"")
                     .arg(parser.value(sizeOption)));
        return kExitUsage;
    }
    const QSize size(sizeMatch.captured(1).toInt(), sizeMatch.captured(2).toInt());
    const QString screenshot = parser.value(screenshotOption);
    const QString tables = parser.value(tablesOption);
    if (!tables.isEmpty() && !tables.endsWith(QLatin1String(".xlsx"), Qt::CaseInsensitive)
        && !tables.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) {
        complain(QStringLiteral("--tables wants a .xlsx or .csv file; got \"%1\"").arg(tables));
        return kExitUsage;
    }
    // Screenshots are light unless asked otherwise; the interactive app follows the saved choice.
    ThemeMode theme = screenshot.isEmpty() ? ThemeMode::System : ThemeMode::Light;
    if (parser.isSet(themeOption)) {
        if (!Theme::parseMode(parser.value(themeOption), &theme)) {
            complain(QStringLiteral("unknown theme \"%1\"; valid themes: %2")
                         .arg(parser.value(themeOption), Theme::modeNames().join(QStringLiteral(", "))));
            return kExitUsage;
        }
    } else if (screenshot.isEmpty()) {
        Theme::parseMode(QSettings().value(QStringLiteral("theme")).toString(), &theme);
    }
    if (!screenshot.isEmpty()
        && !WidgetExporter::supportedSuffixes().contains(QFileInfo(screenshot).suffix().toLower())) {
        complain(QStringLiteral("--screenshot wants a .png, .svg or .pdf file; got \"%1\"").arg(screenshot));
        return kExitUsage;
    }

    // --lesson ID [--lesson-step N]: one of the built-in lessons (core/lessons) at step N, counted from 1.
    const QString lessonId = parser.value(lessonOption);
    int lessonStep = 1;
    if (parser.isSet(lessonOption) || parser.isSet(lessonStepOption)) {
        const auto lessons = builtinLessons();
        QStringList ids;
        int steps = 0;
        if (lessons)
            for (const Lesson& l : lessons.value()) {
                ids << QString::fromStdString(l.id);
                if (ids.back() == lessonId) steps = int(l.steps.size());
            }
        if (!ids.contains(lessonId)) {
            complain(QStringLiteral("unknown lesson \"%1\"; valid lessons: %2").arg(lessonId, ids.join(QStringLiteral(", "))));
            return kExitUsage;
        }
        bool ok = false;
        lessonStep = parser.value(lessonStepOption).toInt(&ok);
        if (!ok || lessonStep < 1 || lessonStep > steps) {
            complain(QStringLiteral("--lesson-step wants 1 to %1 for %2; got \"%3\"")
                         .arg(steps)
                         .arg(lessonId, parser.value(lessonStepOption)));
            return kExitUsage;
        }
    }

    Theme::instance()->setMode(theme);

    LanguageManager languages;
    if (!languages.setLanguage(lang)) {
        complain(QStringLiteral("cannot load the %1 translation").arg(lang));
        return kExitUsage;
    }

    MainWindow window(&languages);
    window.resize(size);
    window.setCurrentView(view);
    // What the command line names: the plan, plans beside it (the compare view; one that cannot be read is reported
    // and fails a screenshot), measurements on the profile view, traces. Interactive, they are opened after the window
    // is on screen, so a file that is slow to read never leaves the user with nothing shown.
    bool loaded = false, compared = true, profiled = true;
    const auto openInputs = [&] {
        loaded = window.openPlan(parser.value(planOption));
        if (!loaded) complain(window.document()->errorString());
        for (const QString& path : parser.values(compareOption)) {
            if (window.compareWith(path)) continue;
            complain(window.message());
            compared = false;
        }
        if (parser.isSet(compareOption)) window.setCurrentView(view);
        if (parser.isSet(profileOption)) {
            if (!window.profilePage()->openProfile(parser.value(profileOption))) {
                complain(window.profilePage()->statusText());
                profiled = false;
            }
        }
        const QStringList traces = parser.values(traceOption);
        if (!traces.isEmpty()) {
            window.openTraces(traces);
            window.setCurrentView(view);
        }
        const QStringList runs = parser.values(runOption);
        if (!runs.isEmpty()) {
            window.openRun(runs.front());
            if (runs.size() > 1) window.runPage()->openComparison(runs[1]);
            window.setCurrentView(view);
        }
    };

    // The lesson over the plan opened above (shown untitled: there is nothing to save), once the window is laid out so
    // that its dock takes its width.
    const auto startLesson = [&window, lessonId, lessonStep] {
        if (!lessonId.isEmpty()) window.startLesson(lessonId, lessonStep - 1);
    };

    if (screenshot.isEmpty() && tables.isEmpty()) {
        // Interactive: the plan editor beside the views, so an edit and its effect are seen together.
        window.setCurrentView(QStringLiteral("editor"));
        if (view != QLatin1String("editor")) window.setCurrentView(view); // the dock stays open beside it
        window.show();
        // Then the files, the lesson, and what a session that was killed left unsaved, in that order.
        QTimer::singleShot(0, &window, [&window, openInputs, startLesson] {
            openInputs();
            startLesson();
            window.offerRecovery();
        });
        return app.exec();
    }
    openInputs();

    // Offscreen: lay the window out at its size without putting it on a screen, wait for the evaluation
    // running in the background, then render.
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.show();
    startLesson();
    PlanDocument* document = window.document();
    if (document->isEvaluating()) {
        QEventLoop loop;
        QObject::connect(document, &PlanDocument::predictionChanged, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    window.traceSet()->waitForImport();
    window.runPage()->waitForLoad();
    window.comparePage()->waitForAnalyses();
    if (window.profilePage()->profile() && !window.profilePage()->defaultAnalysis() && document->hasPlan()) {
        // The default and calibrated predictions the profile view tables, computed in the background.
        QEventLoop loop;
        QObject::connect(window.profilePage(), &ProfilePage::comparisonReady, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    QApplication::processEvents();
    QString error;
    if (!screenshot.isEmpty()
        && !(lessonId.isEmpty() ? window.exportView(screenshot, &error) : window.exportWindow(screenshot, &error))) {
        complain(error);
        return kExitExportFailed;
    }
    const auto prediction = document->prediction();
    if (!loaded) return kExitUsage; // the reasons were printed above and are in the picture
    if (!compared || !profiled) return kExitUsage;
    if (!prediction || !prediction->valid) {
        if (prediction) complain(PlanDocument::describe(prediction->errors));
        return kExitUsage;
    }
    // Tables are data: written only for a plan that opened and evaluated, so a failed run leaves what was there.
    if (!tables.isEmpty() && !window.exportTables(tables, &error)) {
        complain(error);
        return kExitExportFailed;
    }
    return 0;
}
