// Every page laid out as the main window lays it out (tabs beside the plan editor dock, menu and status bars) at
// 1280 x 800, at the default 1400 x 900 and at 1920 x 1080 (the compare page with a second plan among them): no label, table header, chart title, legend or axis label has less room
// than its text needs, unless it is elided on purpose and carries a tooltip. A real check over the widget tree: each
// text's font-metrics size against the rectangle it is drawn in.
#include "GuiTestMain.h"
#include "LanguageManager.h"
#include "MainWindow.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "pages/AnatomyPage.h"
#include "pages/CommView.h"
#include "pages/GpuGridView.h"
#include "pages/MemoryPage.h"
#include "pages/PlanEditorPage.h"
#include "pages/SummaryPage.h"
#include "pages/TimelinePage.h"
#include "pages/ComparePage.h"
#include "pages/ProfilePage.h"
#include "document/TraceSet.h"
#include "timeline/TimelineLegend.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTextDocument>
#include <qcustomplot.h>

using namespace planscope;

namespace {

QString describe(const QWidget* w)
{
    return QStringLiteral("%1 \"%2\"").arg(QLatin1String(w->metaObject()->className()), w->objectName());
}

// The widest line of a plain text and its height, in the widget's font.
QSizeF textSize(const QFont& font, const QString& text)
{
    const QFontMetricsF fm(font);
    double w = 0;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString& line : lines)
        w = std::max(w, fm.horizontalAdvance(line));
    return { w, lines.size() * fm.lineSpacing() };
}

void checkLabel(const QLabel* label, QStringList* clipped)
{
    if (label->text().isEmpty() || !label->toolTip().isEmpty()) return; // empty, or elided on purpose
    const QRect room = label->contentsRect().adjusted(label->margin(), label->margin(), -label->margin(), -label->margin());
    if (label->wordWrap()) {
        // Wrapped: the height the text needs at this width.
        const int need = label->heightForWidth(label->width());
        if (need > label->height() + 1)
            *clipped << QStringLiteral("%1: needs %2 px of height, has %3: %4")
                            .arg(describe(label))
                            .arg(need)
                            .arg(label->height())
                            .arg(label->text().left(80));
        return;
    }
    QSizeF need;
    if (Qt::mightBeRichText(label->text()) && label->textFormat() != Qt::PlainText) {
        QTextDocument doc;
        doc.setDefaultFont(label->font());
        doc.setDocumentMargin(0);
        doc.setHtml(label->text());
        need = QSizeF(doc.idealWidth(), doc.size().height());
    } else {
        need = textSize(label->font(), label->text());
    }
    if (need.width() > room.width() + 1 || need.height() > room.height() + 2)
        *clipped << QStringLiteral("%1: needs %2 x %3 px, has %4 x %5: %6")
                        .arg(describe(label))
                        .arg(need.width(), 0, 'f', 0)
                        .arg(need.height(), 0, 'f', 0)
                        .arg(room.width())
                        .arg(room.height())
                        .arg(label->text().left(80));
}

void checkHeader(const QHeaderView* header, QStringList* clipped)
{
    if (header->orientation() != Qt::Horizontal || !header->model()) return;
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    for (int i = 0; i < header->count(); ++i) {
        if (header->isSectionHidden(i)) continue;
        const QString text = header->model()->headerData(i, Qt::Horizontal).toString();
        if (text.isEmpty() || !header->model()->headerData(i, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty())
            continue;
        const QSizeF need = textSize(header->font(), text);
        if (need.width() + 2 * margin > header->sectionSize(i) + 1 || need.height() > header->height())
            *clipped << QStringLiteral("header of %1, column %2 (%3 px, text needs %4): %5")
                            .arg(describe(header->parentWidget()))
                            .arg(i)
                            .arg(header->sectionSize(i))
                            .arg(need.width() + 2 * margin, 0, 'f', 0)
                            .arg(text);
    }
}

void checkPlot(QCustomPlot* plot, QStringList* clipped)
{
    plot->replot();
    const QRect inside = plot->rect();
    // Titles: a text element is as wide as its text unless the chart is narrower.
    QList<QCPLayoutElement*> elements = plot->plotLayout()->elements(true);
    for (QCPLayoutElement* e : elements) {
        if (auto* title = qobject_cast<QCPTextElement*>(e)) {
            const QSizeF need = textSize(title->font(), title->text());
            if (!title->text().isEmpty() && (need.width() > inside.width() || need.width() > title->outerRect().width() + 1))
                *clipped << QStringLiteral("chart title (%1 px, text needs %2): %3")
                                .arg(title->outerRect().width())
                                .arg(need.width(), 0, 'f', 0)
                                .arg(title->text().left(80));
        }
    }
    // The legend inside the chart, each entry inside the legend.
    if (plot->legend && plot->legend->visible() && plot->legend->itemCount() > 0) {
        if (!inside.contains(plot->legend->outerRect()))
            *clipped << QStringLiteral("legend of a chart (%1 entries) runs out of the chart: %2,%3 %4x%5 in %6x%7")
                            .arg(plot->legend->itemCount())
                            .arg(plot->legend->outerRect().x())
                            .arg(plot->legend->outerRect().y())
                            .arg(plot->legend->outerRect().width())
                            .arg(plot->legend->outerRect().height())
                            .arg(inside.width())
                            .arg(inside.height());
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = plot->legend->item(i);
            if (!item) continue; // an empty cell of a legend wrapped into columns
            if (item->outerRect().width() + 1 < item->minimumOuterSizeHint().width()
                || !inside.contains(item->outerRect()))
                *clipped << QStringLiteral("legend entry %1 of a chart is cut").arg(i);
        }
    }
    // Axis labels: along their axis.
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible() || axis->label().isEmpty()) continue;
            const double need = textSize(axis->labelFont(), axis->label()).width();
            const int along = axis->orientation() == Qt::Horizontal ? plot->width() : rect->height();
            if (need > along)
                *clipped << QStringLiteral("axis label (%1 px along the axis, text needs %2): %3")
                                .arg(along)
                                .arg(need, 0, 'f', 0)
                                .arg(axis->label());
        }
}

QStringList clippedTexts(QWidget* root, int* checked)
{
    QStringList clipped;
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* w : widgets) {
        if (!w->isVisibleTo(root->window()) || w->width() <= 0 || w->height() <= 0) continue;
        if (auto* label = qobject_cast<QLabel*>(w)) checkLabel(label, &clipped);
        if (auto* header = qobject_cast<QHeaderView*>(w)) checkHeader(header, &clipped);
        if (auto* plot = qobject_cast<QCustomPlot*>(w)) checkPlot(plot, &clipped);
        if (qobject_cast<QLabel*>(w) || qobject_cast<QHeaderView*>(w) || qobject_cast<QCustomPlot*>(w)) ++*checked;
    }
    return clipped;
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    // The check itself: it finds a label, a header section and a chart title too small for their text, and lets
    // through the same texts given room, and a label elided on purpose with a tooltip.
    void theCheckFindsClippedText()
    {
        QWidget root;
        root.setAttribute(Qt::WA_DontShowOnScreen);
        auto* label = new QLabel(QStringLiteral("All-reduce on n = 4 GPUs against the message size"), &root);
        label->setGeometry(0, 0, 60, 30);
        auto* wrapped = new QLabel(QStringLiteral("Links per GPU per direction: inside a node 300 GB/s, between nodes 25 GB/s"), &root);
        wrapped->setWordWrap(true);
        wrapped->setGeometry(0, 40, 120, 20);
        auto* table = new QTableWidget(1, 1, &root);
        table->setHorizontalHeaderLabels({ QStringLiteral("Link (GB/s per direction)") });
        table->horizontalHeader()->resizeSection(0, 40);
        table->setGeometry(0, 80, 300, 100);
        auto* plot = new QCustomPlot(&root);
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QStringLiteral("A chart title far wider than the chart it sits on")));
        plot->setGeometry(0, 200, 160, 120);
        root.resize(400, 400);
        root.show();
        int checked = 0;
        const QStringList found = clippedTexts(&root, &checked);
        QVERIFY(checked >= 4); // two labels, the table's header, the chart
        QCOMPARE(found.size(), 4);
        QVERIFY(found[0].contains(QLatin1String("All-reduce on n = 4")));
        QVERIFY(found[1].contains(QLatin1String("Links per GPU")));
        QVERIFY(found[2].contains(QLatin1String("column 0")));
        QVERIFY(found[3].contains(QLatin1String("chart title")));
        label->setToolTip(label->text());
        wrapped->setGeometry(0, 40, 380, 40);
        table->horizontalHeader()->resizeSection(0, 260);
        plot->setGeometry(0, 200, 390, 160);
        checked = 0;
        const QStringList after = clippedTexts(&root, &checked);
        QVERIFY2(after.isEmpty(), qPrintable(after.join(QLatin1Char('\n'))));
    }

    void noTextIsClipped_data()
    {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<QSize>("size");
        auto row = [](const char* plan, QSize size) {
            QTest::newRow(qPrintable(QStringLiteral("%1 %2x%3").arg(QLatin1String(plan)).arg(size.width()).arg(size.height())))
                << QString::fromLatin1(plan) << size;
        };
        for (const char* plan : { "default.plan.json", "interview-175b-256xa100.plan.json", "gpt3-175b-1024xa100.plan.json" })
            for (const QSize size : { QSize(1280, 800), QSize(1400, 900) }) row(plan, size);
        // The largest sample (1,024 GPUs of an MoE plan: the most groups, legend entries and stages) at the smallest
        // and the largest common screen, and the default sample at the largest.
        row("deepseek-v3-1024xh100-fp8.plan.json", QSize(1280, 800));
        row("deepseek-v3-1024xh100-fp8.plan.json", QSize(1920, 1080));
        row("default.plan.json", QSize(1920, 1080));
    }

    // The app's own main window: the pages in their tabs, the plan editor docked beside them, a status bar.
    void noTextIsClipped()
    {
        QFETCH(QString, plan);
        QFETCH(QSize, size);
        LanguageManager languages;
        MainWindow window(&languages);
        window.setAttribute(Qt::WA_DontShowOnScreen);
        PlanDocument& doc = *window.document();
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(window.openPlan(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + plan));
        QVERIFY(spy.count() > 0 || spy.wait(60000));
        QVERIFY(doc.prediction() && doc.prediction()->valid);
        QVERIFY(window.setCurrentView(QStringLiteral("editor"))); // the dock open beside the pages
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window) || window.isVisible());
        auto* tabs = window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        // The compare page with a second plan beside the open one.
        QVERIFY(window.compareWith(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-10b-8xa100.plan.json")));
        window.comparePage()->waitForAnalyses();
        // Measurements: an nccl-tests run on the profile page (refused on another GPU than the plan's, which the page
        // says) and two ranks of a published trace (samples/traces/README.md) on the measured-run page.
        QVERIFY(window.profilePage()->openProfile(
            QStringLiteral(PLANSCOPE_SOURCE_DIR "/tests/data/nccl-tests/a100-80gb-2x8-all_reduce_perf-aws-p4de-srun-prefix.txt")));
        window.openTraces({ QStringLiteral(PLANSCOPE_SAMPLES_DIR "/traces/sampled_rank-0.json.gz"),
            QStringLiteral(PLANSCOPE_SAMPLES_DIR "/traces/sampled_rank-1.json.gz") });
        window.traceSet()->waitForImport();
        const char* const pages[] = { "timeline", "grid", "memory", "comm", "metrics", "anatomy", "planner", "compare",
            "profile", "trace" };

        QStringList problems;
        int total = 0;
        for (const char* name : pages) {
            QVERIFY(window.setCurrentView(QLatin1String(name)));
            QApplication::processEvents();
            QTest::qWait(20);
            // The editor takes its share of the width: the page is narrower than the window.
            const int width = tabs->currentWidget()->width();
            QVERIFY2(width > 600 && width < size.width() - 200, qPrintable(QString::number(width)));
            int checked = 0;
            // The timeline's legend wraps its rows (height for width): every entry has its row.
            for (const TimelineLegend* legend : tabs->currentWidget()->findChildren<TimelineLegend*>())
                if (legend->isVisibleTo(&window) && legend->height() + 1 < legend->heightForWidth(legend->width()))
                    problems << QStringLiteral("%1: the timeline legend (%2 entries) has %3 px of the %4 it needs")
                                    .arg(QLatin1String(name))
                                    .arg(legend->entries().size())
                                    .arg(legend->height())
                                    .arg(legend->heightForWidth(legend->width()));
            for (const QString& p : clippedTexts(tabs->currentWidget(), &checked))
                problems << QStringLiteral("%1: %2").arg(QLatin1String(name), p);
            total += checked;
        }
        QVERIFY2(total >= 20, qPrintable(QString::number(total))); // the walk reached the pages' texts
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestLayout)
#include "tst_layout.moc"
