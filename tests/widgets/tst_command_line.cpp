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

    void everyViewRendersItsOwnPage()
    {
        QTemporaryDir dir;
        QHash<QByteArray, QString> seen; // picture hash -> view
        const QStringList views { QStringLiteral("timeline"), QStringLiteral("grid"), QStringLiteral("memory"),
            QStringLiteral("comm"), QStringLiteral("metrics"), QStringLiteral("anatomy"), QStringLiteral("planner"),
            QStringLiteral("profile"), QStringLiteral("trace"), QStringLiteral("editor") };
        QSize timelineSize;
        for (const QString& view : views) {
            const QString png = dir.filePath(view + QStringLiteral(".png"));
            // No display: --screenshot picks the offscreen platform itself.
            const Run r = runGui({ QStringLiteral("--plan"),
                                     QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/interview-175b-256xa100.plan.json"),
                                     QStringLiteral("--view"), view, QStringLiteral("--screenshot"), png },
                false);
            QVERIFY2(r.code == 0, qPrintable(view + QStringLiteral(": ") + r.err));
            const QImage image(png);
            QVERIFY2(!image.isNull(), qPrintable(view));
            if (view == QLatin1String("timeline")) timelineSize = image.size();
            QFile f(png);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray hash = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1);
            QVERIFY2(!seen.contains(hash), qPrintable(QStringLiteral("--view %1 wrote the same picture as --view %2").arg(view, seen.value(hash))));
            seen.insert(hash, view);
        }
        // The editor is the dock, not a tab: narrower than the timeline's picture.
        QVERIFY(QImage(dir.filePath(QStringLiteral("editor.png"))).width() < timelineSize.width() / 2);
    }

    void anUnknownViewIsRefusedWithTheValidOnes()
    {
        QTemporaryDir dir;
        const Run r = runGui({ QStringLiteral("--view"), QStringLiteral("editr"), QStringLiteral("--screenshot"),
                                 dir.filePath(QStringLiteral("x.png")) },
            true);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("unknown view \"editr\"")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("timeline, grid, memory, comm, metrics, anatomy, planner, compare, profile, trace, summary, editor")),
            qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
