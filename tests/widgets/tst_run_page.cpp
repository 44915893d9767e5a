// The Run Summary page over a generated run of 48 ranks (scripts/make-rank-set.py: tp 4 on nodes of 8, rank 13
// arrives 2 ms late at every collective, rank 30's file is no trace): read in the background, the straggler first
// among the slowest ranks and brightest on the grid and the heat map's lag column, TP groups intra-node and DP groups
// inter-node, the unreadable file named, a picked rank's raw trace handed on for its timeline, a comparison of the run
// with itself moving nothing, and a file that is no run named with the reason.
#include "GuiTestMain.h"

#include "charts/RunViews.h"
#include "io/RunFile.h"
#include "pages/RunPage.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace planscope;

namespace {
constexpr int kRanks = 48, kStraggler = 13, kBroken = 30;

// The first point of a view where rankAt gives `rank` (scanning every pixel of the heat map's lag column or the grid).
template<typename F>
QPoint findRank(const QWidget& w, int rank, F&& rankAt, int xFrom = 0)
{
    for (int y = 0; y < w.height(); ++y)
        for (int x = xFrom; x < w.width(); ++x)
            if (rankAt(QPoint(x, y)) == rank) return QPoint(x, y);
    return QPoint(-1, -1);
}
} // namespace

class TestRunPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_run;

private slots:
    void initTestCase()
    {
        const QString traces = m_dir.filePath(QStringLiteral("traces"));
        QProcess p;
        p.start(QStringLiteral("python3"), { QStringLiteral(PLANSCOPE_SOURCE_DIR "/scripts/make-rank-set.py"), traces, QStringLiteral("--ranks"),
                                                QString::number(kRanks), QStringLiteral("--straggler"), QString::number(kStraggler),
                                                QStringLiteral("--broken"), QString::number(kBroken) });
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        std::vector<RunIssue> issues;
        const std::vector<std::string> files = reduceInputs({ traces.toStdString() }, issues);
        QCOMPARE(files.size(), std::size_t(kRanks));
        const MeasuredRun run = runFromReduced(reduceFiles(files), issues, std::int64_t(files.size()), 0);
        m_run = m_dir.filePath(QStringLiteral("run.planscope-run"));
        QFile f(m_run);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(runText(run)));
    }

    void showsTheRunAndWhoIsSlow()
    {
        RunPage page;
        page.resize(1400, 900);
        page.show();
        QSignalSpy shown(&page, &RunPage::runShown);
        page.openRun(m_run);
        page.waitForLoad();
        QVERIFY(shown.count() >= 1);
        QVERIFY(page.run() && page.run()->run);
        QVERIFY2(page.statusText().contains(QStringLiteral("47 rank(s) of world size 48")), qPrintable(page.statusText()));
        QVERIFY(page.statusText().contains(QStringLiteral("8 GPUs per node")));

        const QStringList slowest = page.tableRows(QStringLiteral("slowest"));
        QVERIFY(!slowest.isEmpty());
        QVERIFY2(slowest.front().startsWith(QStringLiteral("13 | 1 | ")), qPrintable(slowest.front())); // rank 13, node 1
        QVERIFY(slowest.front().contains(QStringLiteral("last to arrive at")));

        int tp = 0, dp = 0;
        for (const QString& row : page.tableRows(QStringLiteral("groups"))) {
            if (row.startsWith(QStringLiteral("TENSOR_MODEL_PARALLEL_GROUP"))) {
                ++tp;
                QVERIFY2(row.contains(QStringLiteral(" | intra-node | ")), qPrintable(row));
            } else if (row.startsWith(QStringLiteral("DATA_PARALLEL_GROUP"))) {
                ++dp;
                QVERIFY2(row.contains(QStringLiteral(" | inter-node | ")), qPrintable(row));
            }
        }
        QCOMPARE(tp, kRanks / 4);
        QCOMPARE(dp, 4);
        // Two all-to-alls a step in each DP group: two rows per group.
        QCOMPARE(page.tableRows(QStringLiteral("alltoall")).size(), 8);
        const QStringList files = page.tableRows(QStringLiteral("files"));
        QCOMPARE(files.size(), 1);
        QVERIFY(files.front().contains(QStringLiteral("rank-00030.json.gz | – | not read")));

        // The straggler on the grid: the strongest red (lag is the grid's colour by default).
        QVERIFY(page.gridView()->colourMetric() == RunMetric::Lag);
        const QPoint cell = findRank(*page.gridView(), kStraggler, [&](QPoint p) { return page.gridView()->rankAt(p); });
        QVERIFY(cell.x() >= 0);
        const QImage grid = page.gridView()->grab().toImage();
        const QColor c = grid.pixelColor(cell + QPoint(2, 2));
        QVERIFY2(c.red() > 200 && c.blue() < 80, qPrintable(c.name()));
        // And on the heat map's lag column (the last).
        RankHeatMap* heat = page.heatMap();
        const QPoint row = findRank(*heat, kStraggler, [&](QPoint p) {
            int column = -1;
            const int rank = heat->rankAt(p, &column);
            return column == int(std::size(kHeatMapMetrics)) - 1 ? rank : -1;
        }, heat->width() / 2);
        QVERIFY(row.x() >= 0);
        const QColor h = heat->grab().toImage().pixelColor(row);
        QVERIFY2(h.red() > 200 && h.blue() < 80, qPrintable(h.name()));

        // Picking the straggler on the heat map hands its raw trace to the Measured Run page.
        QSignalSpy open(&page, &RunPage::openTracesRequested);
        QTest::mouseClick(heat, Qt::LeftButton, {}, row);
        QVERIFY(page.pickedRanks().contains(kStraggler));
        QVERIFY(page.openTimelinesButton()->isEnabled());
        page.openTimelinesButton()->click();
        QCOMPARE(open.count(), 1);
        const QStringList traces = open.front().front().toStringList();
        QVERIFY(!traces.isEmpty());
        QVERIFY(traces.contains(m_dir.filePath(QStringLiteral("traces/rank-00013.json.gz"))));

        // The run against itself: every difference is zero.
        page.openComparison(m_run);
        page.waitForLoad();
        const QStringList comparison = page.tableRows(QStringLiteral("comparison"));
        QVERIFY(comparison.size() > 6);
        int zeros = 0;
        for (const QString& r : comparison) zeros += r.endsWith(QStringLiteral("+0.00 ms"));
        QVERIFY2(zeros >= 6, qPrintable(comparison.join(QLatin1Char('\n'))));

        // Exported as a picture.
        const QString png = m_dir.filePath(QStringLiteral("run.png"));
        QString error;
        QVERIFY2(page.exportTo(png, QSize(1200, 800), &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), QSize(1200, 800));
    }

    void aFileThatIsNoRunIsNamed()
    {
        RunPage page;
        page.openRun(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/default.plan.json"));
        page.waitForLoad();
        QVERIFY(page.run() && !page.run()->run);
        QVERIFY2(page.statusText().contains(QStringLiteral("could not be read")) && page.statusText().contains(QStringLiteral("format")),
            qPrintable(page.statusText()));
        QVERIFY(page.tableRows(QStringLiteral("slowest")).isEmpty());
        // The grid picker offers every metric.
        QCOMPARE(page.metricPicker()->count(), int(std::size(kRunMetrics)));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestRunPage)
#include "tst_run_page.moc"
