// Every view renders every sample plan offscreen: a non-empty, non-uniform picture and no Qt warnings.
#include "ImageUtil.h"
#include "TestUtil.h"

#include "document/PlanDocument.h"
#include "pages/SummaryPage.h"
#include "pages/AnatomyPage.h"
#include "document/ViewState.h"
#include "pages/TimelinePage.h"
#include "pages/CommView.h"
#include "pages/GpuGridView.h"
#include "pages/MemoryPage.h"
#include "pages/PlanEditorPage.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QSignalSpy>

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
        TimelinePage timeline;
        GpuGridView grid;
        MemoryPage memory;
        CommView comm;
        SummaryPage metrics;
        AnatomyPage anatomy;
        PlanEditorPage editor;
        timeline.setDocument(&doc);
        timeline.setViewState(&state);
        grid.setDocument(&doc);
        grid.setViewState(&state);
        memory.setDocument(&doc);
        memory.setViewState(&state);
        comm.setDocument(&doc);
        comm.setViewState(&state);
        metrics.setDocument(&doc);
        anatomy.setDocument(&doc);
        editor.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + file));
        QVERIFY(spy.count() > 0 || spy.wait(60000));
        QVERIFY(doc.prediction() && doc.prediction()->valid);
        QVERIFY2(doc.timeline(), qPrintable(doc.timelineError()));
        state.setDuration(doc.timeline()->stepSeconds);
        state.setPlayhead(doc.timeline()->pipelineSeconds / 2); // mid-step: lanes busy, bars at their level
        const std::pair<const char*, QWidget*> views[] = { { "timeline", &timeline }, { "grid", &grid },
            { "memory", &memory }, { "comm", &comm }, { "metrics", &metrics }, { "anatomy", &anatomy },
            { "editor", &editor } };
        for (const auto& [name, widget] : views) {
            widget->resize(1400, 900);
            const QImage image = widget->grab().toImage();
            QVERIFY2(!image.isNull() && image.width() == 1400, name);
            QVERIFY2(distinctColours(image) > 8, qPrintable(QStringLiteral("%1 looks empty").arg(QLatin1String(name))));
        }
        QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestAllViews)
#include "tst_all_views.moc"
