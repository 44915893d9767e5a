// The repository stands alone: a clone with nothing beside it must build and pass every test, so no tracked file
// may read, cite or link a folder next to the repository, and every project document a file cites must be in the
// repository (docs/BUILDING.md, "Continuous integration"). Scans the files `git ls-files` lists (without git: the
// source tree minus build output); binary files are skipped.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>

namespace {

QString root() { return QDir::cleanPath(QStringLiteral(PLANSCOPE_SOURCE_DIR)); }

QStringList trackedFiles()
{
    QProcess git;
    git.setWorkingDirectory(root());
    git.start(QStringLiteral("git"), { QStringLiteral("ls-files"), QStringLiteral("-z") });
    if (git.waitForFinished(60000) && git.exitStatus() == QProcess::NormalExit && git.exitCode() == 0) {
        QStringList files;
        for (const QByteArray& f : git.readAllStandardOutput().split('\0'))
            if (!f.isEmpty()) files << QString::fromUtf8(f);
        if (!files.isEmpty()) return files;
    }
    // Not a git checkout (a source archive, or git missing): walk the tree without build output.
    QStringList files;
    const QDir dir(root());
    QDirIterator it(root(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString rel = dir.relativeFilePath(it.next());
        const QString top = rel.section(QLatin1Char('/'), 0, 0);
        if (top.startsWith(QLatin1String("build")) || top == QLatin1String(".git") || top == QLatin1String("out")
            || top == QLatin1String(".cache") || rel.contains(QLatin1String("__pycache__/")))
            continue;
        files << rel;
    }
    return files;
}

// base/rel inside the repository, or an empty string where it leaves it.
QString inside(const QString& base, const QString& rel)
{
    const QString path = QDir::cleanPath(root() + QLatin1Char('/') + base + QLatin1Char('/') + rel);
    return path.startsWith(root() + QLatin1Char('/')) ? path : QString();
}

bool existsAs(const QString& path, bool dir)
{
    if (path.isEmpty()) return false;
    const QFileInfo info(path);
    return dir ? info.isDir() : info.isFile();
}

// Reads a text file; false for a binary one (a NUL byte in its head) or one that cannot be read.
bool readText(const QString& path, QString& text)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    const QByteArray data = f.readAll();
    if (data.left(8192).contains('\0')) return false;
    text = QString::fromUtf8(data);
    return true;
}

} // namespace

class TestSelfContained : public QObject {
    Q_OBJECT
private slots:
    void noFileLooksOutsideTheRepository()
    {
        // A path into a folder beside the checkout: "../" + "shared", the top source dir's parent in CMake, or the
        // reading room's folders and documents named without the "../".
        const QRegularExpression outside(QStringLiteral(
            R"(\.\./shared\b|(?:PROJECT|CMAKE)_SOURCE_DIR\}/\.\.(?:/|\b)|(?<![\w/.-])shared/(?:traces|seeds|hooks|[A-Z][A-Z0-9_-]*\.md)\b)"));
        // A project document: an upper-case name ending in .md, with the folders written before it, if any.
        const QRegularExpression document(QStringLiteral(R"((?<![\w.:/-])((?:[\w.-]+/)*)([A-Z][A-Z0-9_-]*\.md)\b)"));
        const QStringList files = trackedFiles();
        QVERIFY2(files.size() > 50, "found no source files to scan");
        QStringList findings;
        int scanned = 0;
        for (const QString& file : files) {
            QString text;
            if (!readText(root() + QLatin1Char('/') + file, text)) continue;
            ++scanned;
            const QString dir = QFileInfo(file).path() == QLatin1String(".") ? QString() : QFileInfo(file).path();
            const QStringList lines = text.split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i) {
                const QString where = file + QLatin1Char(':') + QString::number(i + 1) + QLatin1String(": ");
                for (auto m = outside.globalMatch(lines[i]); m.hasNext();)
                    findings << where + QLatin1String("refers to a folder outside the repository: ") + m.next().captured(0);
                for (auto m = document.globalMatch(lines[i]); m.hasNext();) {
                    const QRegularExpressionMatch d = m.next();
                    const QString folders = d.captured(1), name = d.captured(2), cited = d.captured(0);
                    if (folders.isEmpty()) {
                        // A bare name is a sibling of the citing file (a Markdown link) or at the top of the repository.
                        if (!existsAs(inside(dir, name), false) && !existsAs(inside(QString(), name), false))
                            findings << where + QLatin1String("cites ") + name
                                    + QLatin1String(", which is not in the repository (name it by its path, e.g. docs/")
                                    + name + QLatin1String(", or cite the publication)");
                        continue;
                    }
                    // With folders: relative to the citing file or to the top. Folders the repository does not have
                    // name another project's file ("nccl-tests doc/PERFORMANCE.md"), unless they climb out of it.
                    const QString up = folders.left(folders.size() - 1);
                    QStringList bases;
                    for (const QString& base : { dir, QString() })
                        if (existsAs(inside(base, up), true)) bases << base;
                    if (bases.isEmpty()) {
                        if (up.startsWith(QLatin1String("..")))
                            findings << where + QLatin1String("cites ") + cited + QLatin1String(", outside the repository");
                        continue;
                    }
                    bool found = false;
                    for (const QString& base : bases) found = found || existsAs(inside(base, cited), false);
                    if (!found) findings << where + QLatin1String("cites ") + cited + QLatin1String(", which is not in the repository");
                }
            }
        }
        QVERIFY2(scanned > 50, "read no text files");
        if (!findings.isEmpty())
            QFAIL(qPrintable(QString::number(findings.size()) + QLatin1String(" reference(s) outside the repository:\n  ")
                + findings.join(QLatin1String("\n  "))));
    }

    void theSampleTracesAreInTheRepository()
    {
        // The importer's, the overlay's and the Measured Run view's tests read these (samples/traces/README.md).
        const QDir traces(root() + QLatin1String("/samples/traces"));
        for (const char* name : { "df_index_resolver.json.gz", "nccl_data.json.gz", "sampled_rank-0.json.gz",
                 "sampled_rank-1.json.gz", "LICENSE-HTA.txt", "README.md" })
            QVERIFY2(QFileInfo(traces.filePath(QString::fromLatin1(name))).isFile(), name);
    }
};

QTEST_GUILESS_MAIN(TestSelfContained)
#include "tst_self_contained.moc"
