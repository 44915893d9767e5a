#include "ReportCommand.h"

#include <ostream>

#ifdef PLANSCOPE_CLI_REPORT
#include "LanguageManager.h"
#include "Theme.h"
#include "report/ReportWriter.h"

#include <QApplication>
#include <QFileInfo>
#include <QList>
#include <cstdio>
#include <memory>
#include <vector>
#endif

namespace planscope::cli {

#ifndef PLANSCOPE_CLI_REPORT

int cmdReport(const Args&, std::ostream&, std::ostream& err)
{
    err << "planscope-cli: this build has no report: it was configured without the GUI (PLANSCOPE_WITH_GUI=OFF), "
           "whose pages draw the report's pictures\n";
    return 1;
}

#else

namespace {
constexpr const char* kUsage = "usage: planscope-cli report PLAN.plan.json [PLAN2 ...] --out FILE.pdf|FILE.html [--lang zh_CN]\n";

// Qt's offscreen platform says that it cannot do what a window manager does, and QStandardPaths that there is no
// session directory: true and harmless for a report, so not printed; every other message is.
void quietOffscreenNotes(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    if (type != QtFatalMsg && type != QtCriticalMsg
        && (message.contains(QLatin1String("propagateSizeHints")) || message.contains(QLatin1String("XDG_RUNTIME_DIR"))))
        return;
    std::fprintf(stderr, "%s\n", qPrintable(message));
}
} // namespace

int cmdReport(const Args& a, std::ostream& out, std::ostream& err)
{
    const auto outPath = a.options.find("--out");
    if (a.positional.empty() || outPath == a.options.end()) {
        err << kUsage;
        return 1;
    }
    const QString path = QString::fromStdString(outPath->second);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") && suffix != QLatin1String("htm")) {
        err << "planscope-cli: --out wants a .pdf or .html file, got \"" << outPath->second << "\"\n";
        return 1;
    }
    // The pages draw on Qt's offscreen platform: no display, whatever DISPLAY says, unless a platform is asked for.
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(quietOffscreenNotes);
    static int argc = 1;
    static char name[] = "planscope-cli";
    static char* argv[] = { name, nullptr };
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("PlanScope"));
    QApplication::setOrganizationName(QStringLiteral("PlanScope"));
    Theme::instance()->setMode(ThemeMode::Light);
    LanguageManager languages;
    const auto lang = a.options.find("--lang");
    const QString code = lang == a.options.end() ? QStringLiteral("en") : QString::fromStdString(lang->second);
    if (!languages.setLanguage(code)) {
        err << "planscope-cli: unknown language \"" << code.toStdString() << "\"; valid languages: "
            << LanguageManager::availableLanguages().join(QStringLiteral(", ")).toStdString() << "\n";
        return 1;
    }

    QList<ReportPlan> plans;
    for (const std::string& file : a.positional) {
        ReportPlan plan;
        QString why;
        if (!ReportWriter::analyseFile(QString::fromStdString(file), &plan, &why)) {
            err << "planscope-cli: " << file << ": " << why.toStdString() << "\n";
            return 1;
        }
        plans.push_back(std::move(plan));
    }
    QString why;
    if (!ReportWriter::write(path, plans, &why)) {
        err << "planscope-cli: " << why.toStdString() << "\n";
        return 1;
    }
    out << "wrote " << outPath->second << " (" << plans.size() << (plans.size() == 1 ? " plan" : " plans") << ")\n";
    return 0;
}

#endif

} // namespace planscope::cli
