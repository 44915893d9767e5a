// Every view renders every sample plan offscreen: a non-empty, non-uniform picture and no Qt warnings.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "ImageUtil.h"
#include "TestUtil.h"

#include "analysis/Analysis.h"
#include "document/PlanDocument.h"
#include "pages/SummaryPage.h"
#include "document/ViewState.h"
#include "pages/PageRegistry.h"
#include "pages/PlanEditorPage.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <memory>
#include <utility>
#include <vector>

using namespace planscope;

namespace {
QStringList g_warnings;
QtMessageHandler g_previous = nullptr;

void collectWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg || type == QtCriticalMsg) {
        // Offscreen-platform noise that says nothing about our views.
        if (!message.contains(QLatin1String("propagateSizeHints")) && !message.contains(QLatin1String("XDG_RUNTIME_DIR")))
            g_warnings << message;
    }
    if (g_previous) g_previous(type, context, message);
}

// Distinct colours in a coarse sample of the picture: an empty or one-colour pane has 1 or 2.
using test::distinctColours;
} // namespace

class TestAllViews : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { g_previous = qInstallMessageHandler(collectWarnings); }
    void cleanupTestCase() { qInstallMessageHandler(g_previous); }

    void everyViewRendersEverySample_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans")).entryList({ QStringLiteral("*.plan.json") });
        QVERIFY(files.size() >= 8);
        for (const QString& f : files) QTest::newRow(qPrintable(f)) << f;
    }
    void everyViewRendersEverySample()
    {
        QFETCH(QString, file);
        g_warnings.clear();
        PlanDocument doc;
        ViewState state;
        // Every page of the main window (the registry, widgets/pages/PageRegistry.cpp) and the editor dock.
        std::vector<std::pair<QString, std::unique_ptr<QWidget>>> views;
        for (const PageKind& kind : pageKinds()) {
            Page* page = nullptr;
            std::unique_ptr<QWidget> widget(kind.make(nullptr, &page));
            QCOMPARE(page->pageName(), QLatin1String(kind.name));
            page->setDocument(&doc);
            page->setViewState(&state);
            views.emplace_back(QLatin1String(kind.name), std::move(widget));
        }
        auto* editor = new PlanEditorPage;
        editor->setDocument(&doc);
        views.emplace_back(QLatin1String(PlanEditorPage::kPageName), std::unique_ptr<QWidget>(editor));
        QVERIFY(test::loadSampleAndWait(doc, qPrintable(file)));
        QVERIFY(doc.prediction() && doc.prediction()->valid);
        QVERIFY2(doc.timeline(), qPrintable(doc.timelineError()));
        state.setDuration(doc.timeline()->stepSeconds);
        state.setPlayhead(doc.timeline()->pipelineSeconds / 2); // mid-step: lanes busy, bars at their level
        for (const auto& [name, widget] : views) {
            widget->resize(1400, 900);
            const QImage image = widget->grab().toImage();
            QVERIFY2(!image.isNull() && image.width() == 1400, qPrintable(name));
            // The pages that draw the open plan's analysis (the planner, compare, profile and measured-run pages
            // wait for a search, a second plan, a profile or traces).
            const PageKind* kind = pageKind(name);
            if (!kind || kind->inReport || name == QLatin1String(SummaryPage::kPageName))
                QVERIFY2(distinctColours(image) > 8, qPrintable(QStringLiteral("%1 looks empty").arg(name)));
        }
        QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
    }

    // A view page draws its analysis and nothing else: given the document's analysis directly (as the report gives
    // it), with no document, it draws the very picture it draws following the document; given another analysis
    // (built here with analyse(), as the app builds it) it draws another.
    void viewsDrawTheirAnalysisAlone()
    {
        PlanDocument doc;
        QVERIFY(test::loadSampleAndWait(doc, "default.plan.json"));
        const std::shared_ptr<const Analysis> other
            = analyse(test::loadSample("interview-10b-8xa100.plan.json"), PlanDocument::analysisOptions({}));
        QVERIFY(other->valid() && other->timeline);
        int views = 0;
        for (const PageKind& kind : pageKinds()) {
            if (!kind.inReport && QLatin1String(kind.name) != QLatin1String(SummaryPage::kPageName)) continue;
            const auto draw = [&](auto give) {
                ViewState state;
                state.setDuration(doc.timeline()->stepSeconds);
                Page* page = nullptr;
                std::unique_ptr<QWidget> widget(kind.make(nullptr, &page));
                page->setViewState(&state);
                give(page);
                widget->resize(1400, 900);
                return widget->grab().toImage();
            };
            const QImage following = draw([&](Page* page) { page->setDocument(&doc); });
            const QImage given = draw([&](Page* page) { page->setAnalysis(doc.analysis()); });
            const QImage another = draw([&](Page* page) { page->setAnalysis(other); });
            QVERIFY2(distinctColours(given) > 8, kind.name);
            QVERIFY2(given == following, kind.name);
            QVERIFY2(another != given, kind.name);
            ++views;
        }
        QCOMPARE(views, 6); // timeline, grid, memory, communication, metrics, anatomy
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestAllViews)
#include "tst_all_views.moc"
