// What a user's machine does to PlanScope beyond its files' bytes (docs/RELIABILITY.md, "Hostile use"): a disk that
// fills up and a folder that cannot be written while saving, autosaving and exporting; a plan file open in two
// PlanScopes; a recent-files list pointing at files that are gone. Nothing typed is lost: the file on disk keeps
// what it held, the edits stay in the window, the message says why, and autosave carries on wherever it can.
//
// A full disk is a small tmpfs filled to the last byte, a read-only folder a tmpfs remounted read-only (mount(2),
// where this process may mount: root outside a container here); and, always, the same through the process's own
// limits: RLIMIT_FSIZE (setrlimit(2): a write past it fails with EFBIG) and a folder without write permission (for
// root, with CAP_DAC_OVERRIDE dropped from this thread's effective set, capabilities(7)).
#include "GuiTestMain.h"
#include "AppTestUtil.h"

#include "LanguageManager.h"
#include "MainWindow.h"
#include "document/PlanDocument.h"
#include "io/PlanJson.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <vector>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace planscope;

namespace {

using test::clearAutosaves;
using test::samplePlan;
using test::waitForCurrentPrediction;

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

Plan edited(Plan plan)
{
    plan.training.microBatch = 2;
    plan.training.globalBatch = 64;
    plan.name += " (edited)";
    return plan;
}

// This thread's effective capabilities without those that let root write or read where permissions say no
// (capabilities(7): CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), and back. They stay permitted, so they can be restored.
class WithoutFileOverride {
public:
    WithoutFileOverride()
    {
        if (geteuid() != 0) return;
        m_header.version = _LINUX_CAPABILITY_VERSION_3;
        m_header.pid = 0;
        if (syscall(SYS_capget, &m_header, m_saved) != 0) return;
        __user_cap_data_struct dropped[2] = { m_saved[0], m_saved[1] };
        dropped[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
        m_dropped = syscall(SYS_capset, &m_header, dropped) == 0;
    }
    ~WithoutFileOverride()
    {
        if (m_dropped) syscall(SYS_capset, &m_header, m_saved);
    }
    // Whether permissions now bind this thread (not root, or root without the override).
    bool binds() const { return geteuid() != 0 || m_dropped; }

private:
    __user_cap_header_struct m_header {};
    __user_cap_data_struct m_saved[2] {};
    bool m_dropped = false;
};

// A folder whose writes fail once armed, in one of four ways, each with the errno a write then meets.
class HostileFolder {
public:
    enum class Way { FullTmpfs, ReadOnlyTmpfs, FileSizeLimit, NoWritePermission };
    static const char* name(Way way)
    {
        switch (way) {
        case Way::FullTmpfs: return "a full disk (a filled tmpfs)";
        case Way::ReadOnlyTmpfs: return "a read-only file system (a tmpfs remounted read-only)";
        case Way::FileSizeLimit: return "no room for the file (RLIMIT_FSIZE 512 bytes)";
        case Way::NoWritePermission: return "a folder without write permission";
        }
        return "";
    }
    static bool mounts(Way way) { return way == Way::FullTmpfs || way == Way::ReadOnlyTmpfs; }
    // Whether this process may mount a tmpfs (root, not in a container that forbids it).
    static bool canMount()
    {
        QTemporaryDir probe;
        const QByteArray at = QFile::encodeName(probe.path());
        if (::mount("tmpfs", at.constData(), "tmpfs", 0, "size=64k") != 0) return false;
        ::umount2(at.constData(), MNT_DETACH);
        return true;
    }
    static QList<Way> waysHere()
    {
        QList<Way> ways { Way::FileSizeLimit, Way::NoWritePermission };
        if (canMount()) ways = QList<Way> { Way::FullTmpfs, Way::ReadOnlyTmpfs } + ways;
        else qInfo("this process may not mount a tmpfs: the full and read-only disks are the process-limit rows alone");
        return ways;
    }

    // `dir` is an existing empty folder (or one to mount over); a tmpfs of 16 MiB is mounted on it for the tmpfs ways.
    HostileFolder(Way way, const QString& dir)
        : m_way(way)
        , m_dir(dir)
    {
        QDir().mkpath(dir);
        if (mounts(way)) m_mounted = ::mount("tmpfs", path8().constData(), "tmpfs", 0, "size=16m,mode=0755") == 0;
    }
    ~HostileFolder()
    {
        disarm();
        if (m_mounted) ::umount2(path8().constData(), MNT_DETACH);
    }
    bool ready() const { return !mounts(m_way) || m_mounted; }
    QString path() const { return m_dir; }
    int expectedErrno() const
    {
        switch (m_way) {
        case Way::FullTmpfs: return ENOSPC;
        case Way::ReadOnlyTmpfs: return EROFS;
        case Way::FileSizeLimit: return EFBIG;
        case Way::NoWritePermission: return EACCES;
        }
        return 0;
    }
    QString expectedReason() const { return QString::fromLocal8Bit(std::strerror(expectedErrno())); }

    // From now on a write into the folder fails (a file up to 512 bytes may still be written in the size-limit way: a lock file).
    bool arm()
    {
        switch (m_way) {
        case Way::FullTmpfs: {
            // Filled with one file to the last byte: each size of write until it meets ENOSPC.
            const int fd = ::open(QFile::encodeName(m_dir + QStringLiteral("/filler")).constData(), O_WRONLY | O_CREAT, 0600);
            if (fd < 0) return false;
            static const std::vector<char> block(1 << 16, 'x');
            for (std::size_t n = block.size(); n >= 1; n /= 2)
                while (::write(fd, block.data(), n) == ssize_t(n)) {}
            const bool full = errno == ENOSPC;
            ::close(fd);
            return m_armed = full;
        }
        case Way::ReadOnlyTmpfs:
            return m_armed = ::mount(nullptr, path8().constData(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0;
        case Way::FileSizeLimit: {
            m_oldSigxfsz = std::signal(SIGXFSZ, SIG_IGN); // the write fails with EFBIG instead of killing the process
            getrlimit(RLIMIT_FSIZE, &m_oldLimit);
            rlimit limit = m_oldLimit;
            limit.rlim_cur = 512;
            return m_armed = setrlimit(RLIMIT_FSIZE, &limit) == 0;
        }
        case Way::NoWritePermission:
            if (::chmod(path8().constData(), 0555) != 0) return false;
            m_override = std::make_unique<WithoutFileOverride>();
            return m_armed = m_override->binds();
        }
        return false;
    }
    void disarm()
    {
        if (!m_armed) return;
        m_armed = false;
        switch (m_way) {
        case Way::FullTmpfs: QFile::remove(m_dir + QStringLiteral("/filler")); break;
        case Way::ReadOnlyTmpfs: ::mount(nullptr, path8().constData(), nullptr, MS_REMOUNT, nullptr); break;
        case Way::FileSizeLimit:
            setrlimit(RLIMIT_FSIZE, &m_oldLimit);
            std::signal(SIGXFSZ, m_oldSigxfsz);
            break;
        case Way::NoWritePermission:
            m_override.reset();
            ::chmod(path8().constData(), 0755);
            break;
        }
    }
    // What is in the folder that the test did not put there (the filler is the test's).
    QStringList entriesBesides(const QStringList& expected) const
    {
        QStringList out;
        for (const QString& e : entries(m_dir))
            if (!expected.contains(e) && e != QLatin1String("filler")) out << e;
        return out;
    }

private:
    QByteArray path8() const { return QFile::encodeName(m_dir); }

    Way m_way;
    QString m_dir;
    bool m_mounted = false;
    bool m_armed = false;
    rlimit m_oldLimit {};
    void (*m_oldSigxfsz)(int) = SIG_DFL;
    std::unique_ptr<WithoutFileOverride> m_override;
};

void addWayRows()
{
    QTest::addColumn<int>("way");
    for (HostileFolder::Way way : HostileFolder::waysHere()) QTest::newRow(HostileFolder::name(way)) << int(way);
}

QMenu* menuTitled(QWidget& window, const QString& title)
{
    for (QMenu* m : window.findChildren<QMenu*>())
        if (m->title() == title) return m;
    return nullptr;
}

// Child: opens the plan file in a document of its own (another PlanScope) and holds it until killed.
int holdOpen(int argc, char** argv)
{
    QApplication app(argc, argv); // the same executable: the same application name, so the same lock folder
    QStandardPaths::setTestModeEnabled(true);
    PlanDocument doc;
    if (!doc.load(QString::fromLocal8Bit(argv[2]))) return 3;
    std::printf("open %lld\n", static_cast<long long>(QCoreApplication::applicationPid()));
    std::fflush(stdout);
    return app.exec();
}

} // namespace

class TestHostileUse : public QObject {
    Q_OBJECT
private:
    LanguageManager m_languages;

private slots:
    void initTestCase() { test::isolateFromTheUser(); }
    void cleanup()
    {
        clearAutosaves();
        QSettings().remove(QStringLiteral("recentFiles"));
    }

    // Save, Export View, Export Report and the window's screenshot onto a disk that cannot take them: each fails
    // with the system's reason and the file's name, the file that was there keeps its bytes, nothing half-written is
    // left beside it, the edits stay in the window and autosave (in its own folder) keeps them. Once there is room,
    // the same Save writes them.
    void writesThatFailLoseNothing_data() { addWayRows(); }
    void writesThatFailLoseNothing()
    {
        QFETCH(int, way);
        QTemporaryDir dir;
        HostileFolder folder(HostileFolder::Way(way), dir.filePath(QStringLiteral("target")));
        QVERIFY(folder.ready());
        const QString file = folder.path() + QStringLiteral("/mine.plan.json");
        const QByteArray original = bytesOf(samplePlan("default.plan.json"));
        const QByteArray oldReport = "<html>the report written yesterday</html>\n";
        const QByteArray oldPicture = "the picture written yesterday\n";
        QVERIFY(writeBytes(file, original));
        QVERIFY(writeBytes(folder.path() + QStringLiteral("/report.html"), oldReport));
        QVERIFY(writeBytes(folder.path() + QStringLiteral("/view.png"), oldPicture));
        const QStringList before = entries(folder.path());

        MainWindow window(&m_languages);
        window.resize(1200, 800);
        PlanDocument* doc = window.document();
        QVERIFY(window.openPlan(file));
        QVERIFY(waitForCurrentPrediction(*doc));
        const Plan mine = edited(doc->plan());
        doc->setPlan(mine);
        QVERIFY(waitForCurrentPrediction(*doc));
        QStringList warnings;
        window.setWarning([&](const QString&, const QString& text) { warnings << text; });
        window.setSaveQuestion([] { return MainWindow::SaveChoice::Save; });

        QVERIFY(folder.arm());
        const QString reason = folder.expectedReason();
        const QString shown = QDir::toNativeSeparators(file);
        QVERIFY(!window.maybeSave());
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].contains(shown) && warnings[0].contains(reason), qPrintable(warnings[0] + QStringLiteral(" / ") + reason));
        QVERIFY2(window.message().contains(QStringLiteral("your edits are kept")), qPrintable(window.message()));
        QCOMPARE(bytesOf(file), original);
        QVERIFY(doc->isModified());
        QVERIFY(doc->plan() == mine);

        // The exports: the old files keep their bytes, new names are not created.
        for (const QString& name : { QStringLiteral("report.html"), QStringLiteral("new-report.pdf") }) {
            QString error;
            QVERIFY(!window.exportReport(folder.path() + QLatin1Char('/') + name, &error));
            QVERIFY2(error.contains(name) && error.contains(reason), qPrintable(error));
        }
        for (const QString& name : { QStringLiteral("view.png"), QStringLiteral("new-view.svg"), QStringLiteral("new-view.pdf") }) {
            QString error;
            QVERIFY2(!window.exportView(folder.path() + QLatin1Char('/') + name, &error), qPrintable(name));
            QVERIFY2(error.contains(name) && error.contains(reason), qPrintable(error));
            error.clear();
            QVERIFY2(!window.exportWindow(folder.path() + QStringLiteral("/window-") + name, &error), qPrintable(name));
            QVERIFY2(error.contains(name) && error.contains(reason), qPrintable(error));
        }
        QCOMPARE(bytesOf(folder.path() + QStringLiteral("/report.html")), oldReport);
        QCOMPARE(bytesOf(folder.path() + QStringLiteral("/view.png")), oldPicture);
        QCOMPARE(folder.entriesBesides(before), QStringList());

        // Autosave, in its own folder, still holds the edits.
        if (HostileFolder::Way(way) != HostileFolder::Way::FileSizeLimit) { // the limit is the whole process's
            QVERIFY2(doc->autosaveNow(), qPrintable(doc->errorString()));
            Result<LoadedPlan> autosaved = loadPlanFile(QFile::encodeName(doc->autosavePath()).toStdString());
            QVERIFY(autosaved);
            QVERIFY(autosaved.value().plan == mine);
        }

        // Room again: the same Save writes the edits, and the exports work.
        folder.disarm();
        QVERIFY(window.maybeSave());
        Result<LoadedPlan> saved = loadPlanFile(QFile::encodeName(file).toStdString());
        QVERIFY(saved);
        QVERIFY(saved.value().plan == mine);
        QVERIFY(!doc->isModified());
        QString error;
        QVERIFY2(window.exportView(folder.path() + QStringLiteral("/view.png"), &error), qPrintable(error));
        QVERIFY(bytesOf(folder.path() + QStringLiteral("/view.png")).startsWith("\x89PNG"));
    }

    // The autosave folder itself full or read-only: the window says so once (not at every retry), the edits stay,
    // the plan can still be saved to its own file, and autosave tries again until it works, then says it works.
    void autosaveThatFailsKeepsTrying_data() { addWayRows(); }
    void autosaveThatFailsKeepsTrying()
    {
        QFETCH(int, way);
        clearAutosaves();
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("mine.plan.json"));
        QVERIFY(QFile::copy(samplePlan("default.plan.json"), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        {
            HostileFolder folder(HostileFolder::Way(way), PlanDocument::autosaveDirectory());
            QVERIFY(folder.ready());
            MainWindow window(&m_languages);
            PlanDocument* doc = window.document();
            QVERIFY(window.openPlan(file));
            QVERIFY(waitForCurrentPrediction(*doc));
            doc->setAutosaveInterval(50);
            QSignalSpy failed(doc, &PlanDocument::autosaveFailed);
            QSignalSpy restored(doc, &PlanDocument::autosaveRestored);
            QVERIFY(folder.arm());
            const Plan mine = edited(doc->plan());
            doc->setPlan(mine);
            QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
            QVERIFY2(failed[0][0].toString().contains(folder.expectedReason()), qPrintable(failed[0][0].toString()));
            QVERIFY2(window.message().contains(QStringLiteral("Autosave failed")), qPrintable(window.message()));
            QTest::qWait(400); // several retries of the 50 ms timer, still failing: told once
            QCOMPARE(failed.size(), 1);
            QVERIFY(doc->plan() == mine);
            QVERIFY(doc->isModified());

            // Saved to its own file (elsewhere) while autosave fails; the next edit's autosave fails without a new
            // notice. (The size limit is the whole process's: the plan's own file cannot be written either.)
            Plan latest = mine;
            if (HostileFolder::Way(way) != HostileFolder::Way::FileSizeLimit) {
                window.setSaveQuestion([] { return MainWindow::SaveChoice::Save; });
                QVERIFY2(window.maybeSave(), qPrintable(window.message()));
                Result<LoadedPlan> saved = loadPlanFile(QFile::encodeName(file).toStdString());
                QVERIFY(saved);
                QVERIFY(saved.value().plan == mine);
                latest.training.globalBatch = 128;
                doc->setPlan(latest);
                QTest::qWait(300);
                QCOMPARE(failed.size(), 1);
                QVERIFY(doc->isModified());
            }

            folder.disarm();
            QTRY_COMPARE_WITH_TIMEOUT(restored.size(), 1, 10000);
            QVERIFY(window.message().isEmpty());
            Result<LoadedPlan> autosaved = loadPlanFile(QFile::encodeName(doc->autosavePath()).toStdString());
            QVERIFY(autosaved);
            QVERIFY(autosaved.value().plan == latest);
        }
        clearAutosaves();
    }

    // Two PlanScopes on one plan file. The second to open it is told (the first's process id); when one saves, the
    // other's Save asks before replacing that save: Cancel leaves the file as the first saved it and the edits in the
    // window; Overwrite writes them. The first, with no edits of its own, reads the file again.
    void twoWindowsOnOneFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("shared.plan.json"));
        QVERIFY(QFile::copy(samplePlan("default.plan.json"), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);

        // Another process holds it open: this window says which.
        QProcess other;
        other.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--hold-open"), file });
        QVERIFY(other.waitForStarted(10000));
        QVERIFY(other.waitForReadyRead(30000));
        const QByteArray line = other.readLine().trimmed();
        QVERIFY2(line.startsWith("open "), line.constData());
        const QByteArray pid = line.mid(5);
        {
            MainWindow window(&m_languages);
            QVERIFY(window.openPlan(file));
            QVERIFY2(window.message().contains(QStringLiteral("open in another PlanScope"))
                    && window.message().contains(QString::fromLatin1(pid)),
                qPrintable(window.message()));
        }
        other.kill();
        other.waitForFinished(10000);

        // Its lock died with it: the next window to open the file is not told.
        MainWindow first(&m_languages);
        QVERIFY(first.openPlan(file));
        QVERIFY2(first.message().isEmpty(), qPrintable(first.message()));
        MainWindow second(&m_languages);
        QVERIFY(second.openPlan(file));
        QVERIFY(second.message().contains(QStringLiteral("open in another PlanScope")));
        QVERIFY(waitForCurrentPrediction(*first.document()));
        QVERIFY(waitForCurrentPrediction(*second.document()));

        Plan theirs = first.document()->plan();
        theirs.training.microBatch = 2;
        first.document()->setPlan(theirs);
        first.setSaveQuestion([] { return MainWindow::SaveChoice::Save; });
        QVERIFY(first.maybeSave());
        const QByteArray firstSave = bytesOf(file);

        Plan mine = second.document()->plan();
        mine.training.globalBatch = 128;
        second.document()->setPlan(mine);
        second.setSaveQuestion([] { return MainWindow::SaveChoice::Save; });
        QStringList asked;
        MainWindow::OverwriteChoice answer = MainWindow::OverwriteChoice::Cancel;
        second.setOverwriteQuestion([&](const QString& description) {
            asked << description;
            return answer;
        });
        QVERIFY(!second.maybeSave());
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains(QDir::toNativeSeparators(file)) && asked[0].contains(QStringLiteral("another PlanScope window")),
            qPrintable(asked[0]));
        QCOMPARE(bytesOf(file), firstSave);
        QVERIFY(second.document()->isModified());
        QVERIFY(second.document()->plan() == mine);

        answer = MainWindow::OverwriteChoice::Overwrite;
        QVERIFY(second.maybeSave());
        QCOMPARE(asked.size(), 2);
        Result<LoadedPlan> onDisk = loadPlanFile(QFile::encodeName(file).toStdString());
        QVERIFY(onDisk);
        QVERIFY(onDisk.value().plan == mine);
        // The first has no edits: it reads the second's save.
        QTRY_VERIFY_WITH_TIMEOUT(first.document()->plan() == mine, 10000);
        QVERIFY(!first.document()->isModified());

        // A save of its own, with nothing saved meanwhile, does not ask.
        mine.training.globalBatch = 256;
        second.document()->setPlan(mine);
        QVERIFY(second.maybeSave());
        QCOMPARE(asked.size(), 2);
    }

    // Recent files that were deleted, moved, replaced by a folder or made unreadable since they were opened: the
    // menu shows which are missing (disabled, said so) and offers to remove them; choosing one that is there but
    // cannot be read says why and keeps the open plan.
    void recentFilesThatAreGone()
    {
        QTemporaryDir dir;
        const auto place = [&](const char* name) {
            const QString path = dir.filePath(QString::fromLatin1(name));
            QFile::copy(samplePlan("default.plan.json"), path);
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
            return path;
        };
        const QString deleted = place("deleted.plan.json");
        const QString moved = place("moved.plan.json");
        const QString folder = dir.filePath(QStringLiteral("now-a-folder.plan.json"));
        const QString unreadable = place("unreadable.plan.json");
        const QString fine = place("fine.plan.json");
        QSettings().setValue(QStringLiteral("recentFiles"), QStringList { deleted, moved, folder, unreadable, fine });
        QVERIFY(QFile::remove(deleted));
        QVERIFY(QFile::rename(moved, dir.filePath(QStringLiteral("elsewhere.plan.json"))));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::setPermissions(unreadable, QFileDevice::Permissions()));

        MainWindow window(&m_languages);
        QVERIFY(window.openPlan(fine));
        QMenu* recent = menuTitled(window, QStringLiteral("Open &Recent"));
        QVERIFY(recent);
        emit recent->aboutToShow();
        QMap<QString, QAction*> byPath;
        QAction* removeMissing = nullptr;
        for (QAction* a : recent->actions()) {
            if (a->data().isValid()) byPath[a->data().toString()] = a;
            else if (a->text().contains(QStringLiteral("Remove Missing"))) removeMissing = a;
        }
        QCOMPARE(byPath.size(), 5);
        QVERIFY(!byPath[deleted]->isEnabled() && byPath[deleted]->text().contains(QStringLiteral("not found")));
        QVERIFY(!byPath[moved]->isEnabled() && byPath[moved]->text().contains(QStringLiteral("not found")));
        QVERIFY(!byPath[folder]->isEnabled() && byPath[folder]->text().contains(QStringLiteral("a folder")));
        QVERIFY(byPath[unreadable]->isEnabled());
        QVERIFY(byPath[fine]->isEnabled());
        QVERIFY(removeMissing && removeMissing->isEnabled());

        // An unreadable one: the reason, the open plan kept.
        {
            WithoutFileOverride asAUser;
            QVERIFY(asAUser.binds());
            const Plan before = window.document()->plan();
            byPath[unreadable]->trigger();
            QVERIFY2(window.message().contains(QDir::toNativeSeparators(unreadable))
                    && window.message().contains(QString::fromLocal8Bit(std::strerror(EACCES)), Qt::CaseInsensitive),
                qPrintable(window.message()));
            QCOMPARE(window.document()->filePath(), QFileInfo(fine).absoluteFilePath());
            QVERIFY(window.document()->plan() == before);
        }

        removeMissing->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList(),
            (QStringList { QFileInfo(fine).absoluteFilePath(), unreadable }));
    }

    // A settings file that is not what PlanScope wrote (garbage bytes, a list that is a number, a theme that does not
    // exist, recent entries that are not paths) or that cannot be read: the window starts with what it can use.
    void settingsThatAreNotSettings()
    {
        const QString settingsFile = QSettings().fileName();
        QVERIFY(QDir().mkpath(QFileInfo(settingsFile).absolutePath()));
        const QByteArray saved = bytesOf(settingsFile);
        const QList<QByteArray> hostile {
            QByteArray("\x00\xff\xfe garbage \x01[[[[=\n", 18),
            "[General]\nrecentFiles=12\ntheme=ultraviolet\n",
            "[General]\nrecentFiles=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x12garbage)\n",
            "[General]\nrecentFiles=, , ,\\0, /dev/zero, /proc/self/mem\n",
            QByteArray(100000, '['),
        };
        int n = 0;
        for (const QByteArray& bytes : hostile) {
            QVERIFY(writeBytes(settingsFile, bytes));
            QSettings().sync(); // drop the cached copy so the next QSettings reads the file
            MainWindow window(&m_languages);
            QVERIFY2(window.openPlan(samplePlan("default.plan.json")), qPrintable(QString::number(n)));
            QVERIFY(waitForCurrentPrediction(*window.document()));
            QMenu* recent = menuTitled(window, QStringLiteral("Open &Recent"));
            QVERIFY(recent);
            emit recent->aboutToShow();
            // Whatever the list held, what it shows now names the file just opened first.
            const QList<QAction*> actions = recent->actions();
            QVERIFY(!actions.isEmpty());
            QCOMPARE(actions.first()->data().toString(), QFileInfo(samplePlan("default.plan.json")).absoluteFilePath());
            ++n;
        }
        {
            // Unreadable: ignored as if empty.
            QVERIFY(writeBytes(settingsFile, "[General]\nrecentFiles=/nowhere.plan.json\n"));
            QVERIFY(QFile::setPermissions(settingsFile, QFileDevice::Permissions()));
            WithoutFileOverride asAUser;
            QVERIFY(asAUser.binds());
            MainWindow window(&m_languages);
            QVERIFY(window.openPlan(samplePlan("default.plan.json")));
        }
        QFile::setPermissions(settingsFile, QFile::ReadOwner | QFile::WriteOwner);
        if (saved.isEmpty()) QFile::remove(settingsFile);
        else QVERIFY(writeBytes(settingsFile, saved));
    }
};

int main(int argc, char** argv)
{
    if (argc == 3 && std::strcmp(argv[1], "--hold-open") == 0) return holdOpen(argc, argv);
    return planscope::test::runGuiTest<TestHostileUse>(argc, argv);
}

#include "tst_hostile_use.moc"
