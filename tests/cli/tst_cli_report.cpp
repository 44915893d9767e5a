// planscope-cli report (docs/FORMATS.md section 9): a PDF whose text (pdftotext, poppler-utils) holds each plan's name
// and its figures as `planscope-cli evaluate` prints them, with one page per view after the text; for several plans the
// comparison first, its ratios those of `planscope-cli compare --json`; an HTML file with every view inline as SVG; in
// Chinese with the --lang zh_CN; and bad input named, never a crash.
#include "CliRunner.h"
#include "TestUtil.h"

#include "util/Units.h"

#include <QFile>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

#include <map>

#include <QDir>
#include <QElapsedTimer>
#include <QTest>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/mount.h>

using namespace planscope;
using nlohmann::json;

namespace {

QString sample(const QString& f) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + f; }

// The views the report draws, by the titles their pages give them (English), in order.
const QStringList kViewTitles { QStringLiteral("Timeline"), QStringLiteral("GPU Grid"), QStringLiteral("Memory"),
    QStringLiteral("Communication"), QStringLiteral("Layer Anatomy") };

QString tool(const QString& name)
{
    const QString path = QStandardPaths::findExecutable(name);
    if (path.isEmpty()) qFatal("%s is missing: scripts/deps.sh installs poppler-utils", qPrintable(name));
    return path;
}

QString run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(tool(program), args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0) return QString();
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pageCount(const QString& pdf)
{
    const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(run(QStringLiteral("pdfinfo"), { pdf }));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QString pageText(const QString& pdf, int page)
{
    return run(QStringLiteral("pdftotext"),
        { QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"), QString::number(page), pdf, QStringLiteral("-") });
}

json evaluate(const QString& plan)
{
    const test::CliRun r = test::runCli({ QStringLiteral("evaluate"), plan });
    return r.code == 0 ? json::parse(r.out) : json();
}

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

class TestCliReport : public QObject {
    Q_OBJECT
private slots:
    void onePlanPdf()
    {
        QTemporaryDir dir;
        const QString plan = sample(QStringLiteral("default.plan.json"));
        const QString pdf = dir.filePath(QStringLiteral("r.pdf"));
        const test::CliRun r = test::runCli({ QStringLiteral("report"), plan, QStringLiteral("--out"), pdf });
        QVERIFY2(r.code == 0, r.err.c_str());
        const json e = evaluate(plan);
        const int pages = pageCount(pdf);
        QVERIFY(pages > int(kViewTitles.size()));

        // The last pages are the views, one each, in order; the pages before them are text and name no view.
        const int textPages = pages - int(kViewTitles.size());
        for (int i = 0; i < kViewTitles.size(); ++i) {
            const QString text = pageText(pdf, textPages + 1 + i);
            QVERIFY2(text.contains(kViewTitles[i] + QStringLiteral(" — ")), qPrintable(text.left(300)));
            for (int other = 0; other < kViewTitles.size(); ++other)
                if (other != i) QVERIFY(!text.contains(QStringLiteral("\n") + kViewTitles[other] + QStringLiteral(" — ")));
        }
        QString text;
        for (int p = 1; p <= textPages; ++p) text += pageText(pdf, p);
        for (const QString& title : kViewTitles) QVERIFY(!text.contains(title + QStringLiteral(" — ")));

        // The figures as evaluate prints them, each beside its field.
        QVERIFY(text.contains(QStringLiteral("Llama 2 7B")));
        const json& t = e["time"];
        QVERIFY2(text.contains(q(units::formatSeconds(t["stepSeconds"].get<double>()))),
            qPrintable(q(units::formatSeconds(t["stepSeconds"].get<double>()))));
        QVERIFY(text.contains(q(units::formatSeconds(t["analyticStepSeconds"].get<double>()))));
        QVERIFY(text.contains(QStringLiteral("%1 GiB of %2 GiB")
                                  .arg(units::toGiB(e["memory"]["peakBytes"].get<double>()), 0, 'f', 2)
                                  .arg(units::toGiB(e["memory"]["capacityBytes"].get<double>()), 0, 'f', 2)));
        QVERIFY(text.contains(QStringLiteral("%1 %").arg(t["bubbleFraction"].get<double>() * 100, 0, 'f', 1)));
        QVERIFY(text.contains(QStringLiteral("%1 %").arg(t["mfu"].get<double>() * 100, 0, 'f', 1)));
        QVERIFY(text.contains(QStringLiteral("%1 days").arg(t["trainingDays"].get<double>(), 0, 'f', 2)));
        // And how the step was computed: the derivation with its values put in.
        QVERIFY(text.contains(QStringLiteral("time.stepSeconds =")));
        QVERIFY(text.contains(QStringLiteral("formula:")));
        // Fonts travel with the file.
        const QString fonts = run(QStringLiteral("pdffonts"), { pdf });
        QVERIFY(!fonts.isEmpty());
        for (const QString& line : fonts.split(QLatin1Char('\n')).mid(2, -1))
            if (!line.trimmed().isEmpty()) QVERIFY2(line.contains(QStringLiteral(" yes ")), qPrintable(line));
    }

    void severalPlansStartWithTheComparison()
    {
        QTemporaryDir dir;
        const QStringList plans { sample(QStringLiteral("interview-175b-256xa100.plan.json")),
            sample(QStringLiteral("gpt3-175b-64xa100-search.plan.json")) };
        const QString pdf = dir.filePath(QStringLiteral("two.pdf"));
        const test::CliRun r = test::runCli(QStringList { QStringLiteral("report") } + plans + QStringList { QStringLiteral("--out"), pdf });
        QVERIFY2(r.code == 0, r.err.c_str());
        const test::CliRun c = test::runCli(QStringList { QStringLiteral("compare") } + plans + QStringList { QStringLiteral("--json") });
        QCOMPARE(c.code, 0);
        const json cmp = json::parse(c.out);
        const QString first = pageText(pdf, 1);
        QVERIFY(first.contains(QStringLiteral("Comparison of 2 plans")));
        for (const json& p : cmp["plans"]) QVERIFY(first.contains(q(p["name"].get<std::string>())));
        // The step-time row: the slower plan's ratio to the faster one, as compare computes it.
        for (const json& row : cmp["rows"]) {
            if (row["field"] != "time.stepSeconds") continue;
            const int best = row["best"].get<int>();
            const double ratio = row["relative"][1 - best].get<double>();
            QVERIFY(first.contains(QStringLiteral("(%1×)").arg(ratio, 0, 'f', 2)));
            QVERIFY(first.contains(q(units::formatSeconds(row["values"][best].get<double>()))));
        }
        // Then the Compare page's picture (drawn as pixels, at twice its size) on a page of its own.
        const QString second = pageText(pdf, 2);
        QVERIFY2(second.contains(QStringLiteral("\nCompare\n")), qPrintable(second.left(300)));
        const QString images = run(QStringLiteral("pdfimages"), { QStringLiteral("-list"), QStringLiteral("-f"),
            QStringLiteral("2"), QStringLiteral("-l"), QStringLiteral("2"), pdf });
        QCOMPARE(images.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 3); // two header lines, one image
        // Each plan's views, once each.
        QString all;
        const int pages = pageCount(pdf);
        for (int p = 1; p <= pages; ++p) all += pageText(pdf, p);
        for (const QString& title : kViewTitles) QCOMPARE(all.count(title + QStringLiteral(" — ")), 2);
    }

    void htmlHoldsEveryViewInline()
    {
        QTemporaryDir dir;
        const QString html = dir.filePath(QStringLiteral("r.html"));
        const test::CliRun r = test::runCli(
            { QStringLiteral("report"), sample(QStringLiteral("default.plan.json")), QStringLiteral("--out"), html });
        QVERIFY2(r.code == 0, r.err.c_str());
        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(f.readAll());
        QVERIFY(page.startsWith(QStringLiteral("<!DOCTYPE html>")));
        const auto images = QRegularExpression(QStringLiteral("src=\"data:image/svg\\+xml;base64,([A-Za-z0-9+/=]+)\"")).globalMatch(page);
        int count = 0;
        QRegularExpressionMatchIterator it = images;
        while (it.hasNext()) {
            const QByteArray svg = QByteArray::fromBase64(it.next().captured(1).toLatin1());
            QVERIFY(svg.contains("<svg"));
            QVERIFY(svg.contains("<text")); // text stays text
            ++count;
        }
        QCOMPARE(count, int(kViewTitles.size()));
        const json e = evaluate(sample(QStringLiteral("default.plan.json")));
        QVERIFY(page.contains(q(units::formatSeconds(e["time"]["stepSeconds"].get<double>()))));
    }

    // One plan, one answer: a report of two plans that differ only in expert TP, in either order, shows each plan's
    // step time and peak memory as `evaluate` gives them for that plan alone, in that plan's own section.
    void severalPlansEachAsAlone()
    {
        QTemporaryDir dir;
        const test::PlanPair pair = test::writeExpertTpPair(dir.path());
        std::map<QString, json> alone { { pair.etp1, evaluate(pair.etp1) }, { pair.etp2, evaluate(pair.etp2) } };
        QVERIFY(alone[pair.etp1]["time"]["stepSeconds"] != alone[pair.etp2]["time"]["stepSeconds"]);
        int n = 0;
        for (const QStringList& order : { QStringList { pair.etp1, pair.etp2 }, QStringList { pair.etp2, pair.etp1 } }) {
            const QString html = dir.filePath(QStringLiteral("r%1.html").arg(++n));
            const test::CliRun r = test::runCli(QStringList { QStringLiteral("report") } + order + QStringList { QStringLiteral("--out"), html });
            QVERIFY2(r.code == 0, r.err.c_str());
            QFile f(html);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString page = QString::fromUtf8(f.readAll());
            // Each plan's own section opens with its name as the page's first-level heading, in the order given.
            QList<qsizetype> starts;
            for (const QString& plan : order)
                starts.append(page.indexOf(QStringLiteral("<h1>Mixtral 8x22B, TP 2, PP 8, EP 8, expert TP %1</h1>").arg(plan == pair.etp1 ? 1 : 2)));
            QVERIFY(starts[0] >= 0 && starts[1] > starts[0]);
            for (int i = 0; i < 2; ++i) {
                const json& e = alone[order[i]];
                const QString section = i == 0 ? page.mid(starts[0], starts[1] - starts[0]) : page.mid(starts[1]);
                const QString step = q(units::formatSeconds(e["time"]["stepSeconds"].get<double>()));
                const QString peak = QStringLiteral("%1 GiB of %2 GiB")
                                         .arg(units::toGiB(e["memory"]["peakBytes"].get<double>()), 0, 'f', 2)
                                         .arg(units::toGiB(e["memory"]["capacityBytes"].get<double>()), 0, 'f', 2);
                QVERIFY2(section.contains(step), qPrintable(order[i] + QStringLiteral(": ") + step));
                QVERIFY2(section.contains(peak), qPrintable(order[i] + QStringLiteral(": ") + peak));
            }
        }
    }

    // A report export killed by SIGKILL at any moment leaves, under its name, the report that was there or the whole
    // new one, never part of one; and nothing else beside it. Ten kills spread over a whole export's time.
    void killedExportLeavesNoHalfFile()
    {
        QTemporaryDir dir;
        const QString plan = sample(QStringLiteral("default.plan.json"));
        const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
        const QByteArray old = "%PDF-1.4 the report written yesterday\n";
        const auto write = [&](const QByteArray& bytes) {
            QFile f(pdf);
            return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
        };
        const auto bytes = [&] {
            QFile f(pdf);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QStringList args { QStringLiteral("report"), plan, QStringLiteral("--out"), pdf };
        QElapsedTimer clock;
        clock.start();
        const test::CliRun whole = test::runCli(args);
        const qint64 ms = clock.elapsed();
        QVERIFY2(whole.code == 0, whole.err.c_str());
        QVERIFY(pageCount(pdf) > 0);
        int keptOld = 0, complete = 0;
        for (int round = 0; round < 10; ++round) {
            QVERIFY(write(old));
            QProcess p;
            p.start(QStringLiteral(PLANSCOPE_CLI), args);
            QVERIFY(p.waitForStarted(10000));
            QTest::qWait(int(ms * round * 3 / 20)); // from the start to past a whole export's time
            // processId() is 0 once the export has ended, and kill(0) would kill this test's whole process group.
            if (p.state() == QProcess::Running && p.processId() > 0) ::kill(pid_t(p.processId()), SIGKILL);
            QVERIFY(p.waitForFinished(30000) || p.state() == QProcess::NotRunning);
            const QByteArray now = bytes();
            if (now == old) ++keptOld;
            else {
                // Not the old file: then the whole report, which a PDF reader opens.
                QVERIFY2(now.startsWith("%PDF") && now.trimmed().endsWith("%%EOF"), qPrintable(QString::number(round)));
                QVERIFY(pageCount(pdf) > 0);
                ++complete;
            }
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("report.pdf") });
        }
        QCOMPARE(keptOld + complete, 10);
        QVERIFY(keptOld >= 1); // the kills early in the export
        qInfo("killed 10 times: %d kept the old report, %d found the new one complete", keptOld, complete);
    }

    // The report onto a full disk (a filled tmpfs where this process may mount one) and past a file size limit (the
    // child's own): exit 1 with the file's name and the system's reason, and the old report intact.
    void exportOntoAFullDisk()
    {
        for (const bool tryMount : { true, false }) {
        QTemporaryDir dir;
        const QString at = dir.filePath(QStringLiteral("disk"));
        QVERIFY(QDir().mkpath(at));
        const QByteArray at8 = QFile::encodeName(at);
        const bool mounted = tryMount && ::mount("tmpfs", at8.constData(), "tmpfs", 0, "size=1m") == 0;
        const QString html = at + QStringLiteral("/report.html");
        const QByteArray old = "<html>the report written yesterday</html>\n";
        {
            QFile f(html);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(old) == old.size());
        }
        QProcess p;
        QString reason;
        if (mounted) {
            QFile filler(at + QStringLiteral("/filler"));
            QVERIFY(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
            const QByteArray block(4096, 'x');
            while (filler.write(block) == block.size()) {}
            reason = QString::fromLocal8Bit(std::strerror(ENOSPC));
        } else {
            // The child alone gets the limit (ulimit -f counts 512-byte blocks in dash and bash).
            p.setProgram(QStringLiteral("/bin/sh"));
            p.setArguments({ QStringLiteral("-c"), QStringLiteral("ulimit -f 1 && exec \"$0\" \"$@\""), QStringLiteral(PLANSCOPE_CLI) });
            reason = QString::fromLocal8Bit(std::strerror(EFBIG));
        }
        const QStringList args { QStringLiteral("report"), sample(QStringLiteral("default.plan.json")), QStringLiteral("--out"), html };
        if (mounted) p.start(QStringLiteral(PLANSCOPE_CLI), args);
        else {
            p.setArguments(p.arguments() + args);
            p.start();
        }
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (mounted) ::umount2(at8.constData(), MNT_DETACH);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains(html) && err.contains(reason), qPrintable(err));
        if (!mounted) {
            QFile f(html);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), old);
        }
        }
    }

    void chinese()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("zh.pdf"));
        const test::CliRun r = test::runCli({ QStringLiteral("report"), sample(QStringLiteral("default.plan.json")),
            QStringLiteral("--out"), pdf, QStringLiteral("--lang"), QStringLiteral("zh_CN") });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QString text = pageText(pdf, 1);
        QVERIFY2(text.contains(QStringLiteral("关键指标")), qPrintable(text.left(400))); // "Headline figures"
        QVERIFY(!text.contains(QStringLiteral("Headline figures")));
        const int pages = pageCount(pdf);
        QVERIFY(pageText(pdf, pages).contains(QStringLiteral("层剖析"))); // the last view: Layer Anatomy
    }

    void badInputIsNamed()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("x.pdf"));
        test::CliRun r = test::runCli({ QStringLiteral("report"), dir.filePath(QStringLiteral("missing.plan.json")),
            QStringLiteral("--out"), out });
        QCOMPARE(r.code, 1);
        QVERIFY(q(r.err).contains(QStringLiteral("missing.plan.json")));
        QVERIFY(!QFile::exists(out));
        r = test::runCli({ QStringLiteral("report"), sample(QStringLiteral("default.plan.json")), QStringLiteral("--out"),
            dir.filePath(QStringLiteral("x.docx")) });
        QCOMPARE(r.code, 1);
        QVERIFY(q(r.err).contains(QStringLiteral(".pdf or .html")));
        r = test::runCli({ QStringLiteral("report"), sample(QStringLiteral("default.plan.json")) });
        QCOMPARE(r.code, 1);
        QVERIFY(q(r.err).contains(QStringLiteral("usage:")));

        // A plan that cannot run is reported with its reasons, field by field, and without view pages.
        QFile in(sample(QStringLiteral("default.plan.json")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        json plan = json::parse(in.readAll().toStdString());
        plan["parallel"]["tp"] = 3; // does not divide 32 heads
        const QString bad = dir.filePath(QStringLiteral("bad.plan.json"));
        QFile o(bad);
        QVERIFY(o.open(QIODevice::WriteOnly));
        o.write(QByteArray::fromStdString(plan.dump()));
        o.close();
        r = test::runCli({ QStringLiteral("report"), bad, QStringLiteral("--out"), out });
        QVERIFY2(r.code == 0, r.err.c_str());
        QString text;
        for (int p = 1; p <= pageCount(out); ++p) text += pageText(out, p);
        QVERIFY(text.contains(QStringLiteral("Why the plan cannot run")));
        QVERIFY(text.contains(QStringLiteral("parallel.tp")));
        for (const QString& title : kViewTitles) QVERIFY(!text.contains(title + QStringLiteral(" — ")));
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "tst_cli_report.moc"
