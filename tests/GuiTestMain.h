// The main of every widget and app test (tests/widgets, tests/app), written once: the platform offscreen unless the
// caller asks for another, the screen at scale 1, one font (DejaVu Sans 9 pt: Debian's fonts-dejavu-core, which
// Qt's fontconfig pulls in) and English number formats before the application starts. A width in pixels, a label
// that fits, a number typed into a spin box then mean the same on a developer's machine (a German locale's decimal
// comma, a 2x screen, another default font) as in CI. The pattern of KDAB hotspot's tests/testutils.h and test
// mains, which pin the environment a GUI test depends on in one place.
#pragma once

#include <QApplication>
#include <QFont>
#include <QLocale>
#include <QTest>

namespace planscope::test {

// Before the QApplication: what the platform plugin and the scaling read at start.
inline void prepareGuiEnvironment()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
    qputenv("QT_SCALE_FACTOR", "1");
    qunsetenv("QT_SCREEN_SCALE_FACTORS");
    qunsetenv("QT_FONT_DPI");
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

// After it: the one font every test measures with.
inline void fixGuiFont(QApplication& app)
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(9);
    app.setFont(font);
}

template<typename Test>
int runGuiTest(int argc, char* argv[])
{
    prepareGuiEnvironment();
    QApplication app(argc, argv);
    fixGuiFont(app);
    Test test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace planscope::test

#define PLANSCOPE_GUI_TEST_MAIN(TestClass)                                                                          \
    int main(int argc, char* argv[]) { return planscope::test::runGuiTest<TestClass>(argc, argv); }
