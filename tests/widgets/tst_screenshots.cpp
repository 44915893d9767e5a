// `planscope --plan P --view V --screenshot OUT` for every view, headless (QT_QPA_PLATFORM=offscreen): each page
// is written through the one exporter in each format, and --view editor writes the plan editor, not a tab.
#include "ImageUtil.h"

#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Shot {
    int code = -1;
    QString err;
};

Shot screenshot(const QString& view, const QString& out)
{
    QProcess p;
    p.start(QStringLiteral(PLANSCOPE_GUI),
        { QStringLiteral("--plan"), QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json"), QStringLiteral("--view"),
            view, QStringLiteral("--screenshot"), out, QStringLiteral("--size"), QStringLiteral("1400x900") });
    Shot s;
    if (!p.waitForFinished(120000)) return s;
    s.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    s.err = QString::fromLocal8Bit(p.readAllStandardError());
    return s;
}

} // namespace

class TestScreenshots : public QObject {
    Q_OBJECT
private slots:
    void everyViewIsWritten_data()
    {
        QTest::addColumn<QString>("view");
        for (const char* v : { "timeline", "grid", "memory", "comm", "metrics", "anatomy", "planner", "compare", "profile", "trace", "editor" })
            QTest::newRow(v) << QString::fromLatin1(v);
    }

    void everyViewIsWritten()
    {
        QFETCH(QString, view);
        QTemporaryDir dir;
        const QString png = dir.filePath(view + QStringLiteral(".png"));
        const Shot s = screenshot(view, png);
        QVERIFY2(s.code == 0, qPrintable(s.err));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY2(planscope::test::distinctColours(image) > 8, qPrintable(view)); // text, lines and fills, not an empty pane
        if (view == QLatin1String("editor")) {
            // The editor dock, not the window or the tab beside it: narrower than the window, as tall as a pane.
            QVERIFY2(image.width() < 1000, qPrintable(QString::number(image.width())));
            QVERIFY(image.height() > 300);
        }
    }

    void svgAndPdfToo()
    {
        QTemporaryDir dir;
        for (const char* suffix : { "svg", "pdf" }) {
            for (const char* view : { "grid", "anatomy", "editor" }) {
                const QString out = dir.filePath(QStringLiteral("%1.%2").arg(QLatin1String(view), QLatin1String(suffix)));
                const Shot s = screenshot(QString::fromLatin1(view), out);
                QVERIFY2(s.code == 0, qPrintable(s.err));
                QFile f(out);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QByteArray head = f.read(64);
                QVERIFY2(qstrcmp(suffix, "pdf") == 0 ? head.startsWith("%PDF") : head.contains("<?xml"), head.constData());
            }
        }
        // An unknown format is refused before anything runs, with the formats named.
        const Shot bad = screenshot(QStringLiteral("grid"), dir.filePath(QStringLiteral("x.bmp")));
        QVERIFY(bad.code != 0);
        QVERIFY(bad.err.contains(QLatin1String(".png, .svg or .pdf")));
    }
};

QTEST_GUILESS_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
