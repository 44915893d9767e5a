// Light and dark chrome (Theme.h): the mode switches the application palette and isDark(), the views
// paint their backgrounds and text from the theme (the data colours stay), and Light restores the look.
#include "GuiTestMain.h"
#include "DocumentTestUtil.h"
#include "TestUtil.h"

#include "charts/MemoryBarsView.h"
#include "document/PlanDocument.h"
#include "Theme.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineView.h"
#include "pages/GpuGridView.h"

#include <QApplication>
#include <QImage>
#include <QLayout>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace planscope;
using namespace planscope::test;

namespace {

int lightness(const QImage& image, int x, int y)
{
    return image.pixelColor(x, y).lightness();
}

// Pixels much lighter than the dark background: text, light lines.
int lightPixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            n += image.pixelColor(x, y).lightness() > 200 ? 1 : 0;
    return n;
}

} // namespace

class TestTheme : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { Theme::instance()->setMode(ThemeMode::Light); }
    void cleanupTestCase() { Theme::instance()->setMode(ThemeMode::Light); }

    void modeNames()
    {
        QCOMPARE(Theme::modeNames(), (QStringList { QStringLiteral("system"), QStringLiteral("light"),
                                         QStringLiteral("dark") }));
        ThemeMode mode = ThemeMode::System;
        QVERIFY(Theme::parseMode(QStringLiteral("dark"), &mode));
        QCOMPARE(mode, ThemeMode::Dark);
        QVERIFY(Theme::parseMode(QStringLiteral("Light"), &mode));
        QCOMPARE(mode, ThemeMode::Light);
        QVERIFY(!Theme::parseMode(QStringLiteral("purple"), &mode));
        QCOMPARE(mode, ThemeMode::Light);
        QCOMPARE(Theme::modeName(ThemeMode::System), QStringLiteral("system"));
    }

    void darkSwitchesThePalette()
    {
        QVERIFY(!Theme::isDark());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() >= 128);
        QSignalSpy changed(Theme::instance(), &Theme::changed);
        Theme::instance()->setMode(ThemeMode::Dark);
        QCOMPARE(changed.count(), 1);
        QVERIFY(Theme::isDark());
        QCOMPARE(Theme::instance()->mode(), ThemeMode::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 128);
        QVERIFY(QApplication::palette().color(QPalette::WindowText).lightness() > 160);
        QVERIFY(Theme::background().lightness() < 64);
        QVERIFY(Theme::text().lightness() > 192);
        QCOMPARE(TimelinePalette::background(), Theme::background());
        // Data colours stay Okabe & Ito's in both themes.
        QCOMPARE(TimelinePalette::color(SpanKind::Forward), QColor(0x00, 0x72, 0xB2));

        Theme::instance()->setMode(ThemeMode::Light);
        QCOMPARE(changed.count(), 2);
        QVERIFY(!Theme::isDark());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() >= 128);
        QCOMPARE(Theme::background(), QColor(Qt::white));
        // Setting the same mode again changes nothing.
        Theme::instance()->setMode(ThemeMode::Light);
        QCOMPARE(changed.count(), 2);
    }

    void systemFollowsTheApplicationPalette()
    {
        // The offscreen platform's palette is light, so System is light; a dark palette set from outside
        // (as a system switch to dark would) makes it dark.
        Theme::instance()->setMode(ThemeMode::System);
        QVERIFY(!Theme::isDark());
        const QPalette original = QApplication::palette();
        QApplication::setPalette(Theme::darkPalette());
        QVERIFY(Theme::isDark());
        QApplication::setPalette(original);
        QVERIFY(!Theme::isDark());
    }

    void viewsPaintDarkChrome()
    {
        const auto analysis = analyseSample("default.plan.json");
        QVERIFY(analysis->valid());
        TimelineView timeline;
        timeline.setAnalysis(analysis);
        timeline.resize(900, 700);
        GpuGridView grid;
        grid.setAnalysis(analysis);
        grid.resize(900, 600);
        MemoryBarsView memory;
        memory.setAnalysis(analysis);
        memory.resize(900, 500);

        auto check = [&](bool dark) {
            // The timeline's bottom-right corner is below the last lane: empty canvas.
            const QImage t = timeline.grab().toImage();
            const int corner = lightness(t, t.width() - 4, t.height() - 4);
            QVERIFY2(dark ? corner < 64 : corner > 240, qPrintable(QString::number(corner)));
            if (dark) QVERIFY(lightPixels(t) > 50); // rank names, the axis labels
            // The grid's top-right corner: right of the title lines.
            grid.layout()->activate();
            const QImage g = grid.canvas()->grab().toImage();
            const int gridCorner = lightness(g, g.width() - 3, 3);
            QVERIFY2(dark ? gridCorner < 64 : gridCorner > 240, qPrintable(QString::number(gridCorner)));
            if (dark) QVERIFY(lightPixels(g) > 20);
            // QCustomPlot's background brush (right margin of the plot).
            const QImage m = memory.grab().toImage();
            const int plotCorner = lightness(m, m.width() - 2, m.height() / 2);
            QVERIFY2(dark ? plotCorner < 64 : plotCorner > 240, qPrintable(QString::number(plotCorner)));
            if (dark) QVERIFY(lightPixels(m) > 50); // axis labels, title
        };
        check(false);
        Theme::instance()->setMode(ThemeMode::Dark);
        check(true);
        Theme::instance()->setMode(ThemeMode::Light);
        check(false);
    }

    void exportsUseTheCurrentTheme()
    {
        const auto analysis = analyseSample("default.plan.json");
        QVERIFY(analysis->valid());
        TimelineView timeline;
        timeline.setAnalysis(analysis);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dark.png"));
        Theme::instance()->setMode(ThemeMode::Dark);
        QVERIFY(timeline.exportTo(path, QSize(800, 600)));
        const QImage image(path);
        QVERIFY(!image.isNull());
        QVERIFY(lightness(image, image.width() - 3, image.height() - 3) < 64);
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestTheme)

#include "tst_theme.moc"
