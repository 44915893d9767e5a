// The GUI's command line run as a user runs it: every --view NAME renders its own page (no two the same picture),
// an unknown view is refused with the valid names, and --help and --version work with no display at all.
#include <QCryptographicHash>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

// The app with no display and no platform chosen: what a terminal over ssh gives.
Run runGui(const QStringList& args, bool offscreen)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    if (offscreen) env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PLANSCOPE_GUI), args);
    Run r;
    // The planner view's screenshot waits for its whole search: about 4 s in a release build, two minutes in the
    // sanitized Debug build (scripts/test.sh --sanitize). A run that never ends says so instead of an empty error.
    if (!p.waitForFinished(600000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("did not finish in 600 s");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT
    QTemporaryDir m_pictures;           // everyViewRendersItsOwnPage's pictures, one per row
    QHash<QByteArray, QString> m_seen; // picture hash -> view

private slots:
    void helpAndVersionNeedNoDisplay()
    {
        const Run help = runGui({ QStringLiteral("--help") }, false);
        QVERIFY2(help.code == 0, qPrintable(help.err));
        QVERIFY(help.out.contains(QLatin1String("--screenshot")));
        QVERIFY(help.out.contains(QLatin1String("--view")));
        QVERIFY(help.out.contains(QLatin1String("timeline, grid, memory, comm, metrics")));
        const Run version = runGui({ QStringLiteral("--version") }, false);
        QVERIFY2(version.code == 0, qPrintable(version.err));
        QVERIFY(version.out.startsWith(QLatin1String("PlanScope ")));
    }

    // One row per view, so each start of the app (slow under the sanitizers) has its own time budget; the pictures
    // seen so far are kept across the rows.
    void everyViewRendersItsOwnPage_data()
    {
        QTest::addColumn<QString>("view");
        for (const char* view : { "timeline", "grid", "memory", "comm", "metrics", "anatomy", "planner", "profile", "trace", "editor" })
            QTest::newRow(view) << QString::fromLatin1(view);
    }
    void everyViewRendersItsOwnPage()
    {
        QFETCH(QString, view);
        const QString png = m_pictures.filePath(view + QStringLiteral(".png"));
        // No display: --screenshot picks the offscreen platform itself.
        const Run r = runGui({ QStringLiteral("--plan"),
                                 QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-175b-256xa100.plan.json"),
                                 QStringLiteral("--view"), view, QStringLiteral("--screenshot"), png },
            false);
        QVERIFY2(r.code == 0, qPrintable(view + QStringLiteral(": ") + r.err));
        const QImage image(png);
        QVERIFY2(!image.isNull(), qPrintable(view));
        QFile f(png);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray hash = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1);
        QVERIFY2(!m_seen.contains(hash), qPrintable(QStringLiteral("--view %1 wrote the same picture as --view %2").arg(view, m_seen.value(hash))));
        m_seen.insert(hash, view);
        // The editor is the dock, not a tab: narrower than the timeline's picture (the timeline row runs first).
        if (view == QLatin1String("editor")) {
            const QImage timeline(m_pictures.filePath(QStringLiteral("timeline.png")));
            QVERIFY(!timeline.isNull());
            QVERIFY(image.width() < timeline.width() / 2);
        }
    }

    void anUnknownViewIsRefusedWithTheValidOnes()
    {
        QTemporaryDir dir;
        const Run r = runGui({ QStringLiteral("--view"), QStringLiteral("editr"), QStringLiteral("--screenshot"),
                                 dir.filePath(QStringLiteral("x.png")) },
            true);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("unknown view \"editr\"")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("timeline, grid, memory, comm, metrics, anatomy, planner, compare, profile, trace, run, summary, editor")),
            qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
