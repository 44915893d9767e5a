// One analysis: for every sample plan, every figure the app's summary shows (each row names its JSON field and
// keeps its unrounded value) equals the same field printed by `planscope-cli evaluate`, and the document, the
// command line and core's analyse() give the same step time. Both sides read one core call
// (core/analysis/Analysis.h), so a consumer that assembled its own pipeline would show up here as a difference.
#include "GuiTestMain.h"
#include "CliRunner.h"

#include "document/PlanDocument.h"
#include "pages/SummaryPage.h"
#include "analysis/Analysis.h"
#include "io/PlanJson.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <nlohmann/json.hpp>

using namespace planscope;
using nlohmann::json;

namespace {

// j at a dotted path ("memory.stages.0.totalBytes"); null when absent.
const json* at(const json& j, const QString& path)
{
    const json* cur = &j;
    for (const QString& part : path.split(QLatin1Char('.'))) {
        bool isIndex = false;
        const int index = part.toInt(&isIndex);
        if (isIndex && cur->is_array() && index >= 0 && std::size_t(index) < cur->size())
            cur = &(*cur)[std::size_t(index)];
        else if (cur->is_object() && cur->contains(part.toStdString()))
            cur = &(*cur)[part.toStdString()];
        else
            return nullptr;
    }
    return cur;
}

} // namespace

class TestOneAnalysis : public QObject {
    Q_OBJECT
private slots:
    void everySampleShowsTheCommandLinesFigures_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans"));
        const QStringList names = dir.entryList({ QStringLiteral("*.plan.json") }, QDir::Files, QDir::Name);
        QVERIFY(names.size() >= 8);
        for (const QString& n : names) QTest::newRow(qPrintable(n)) << dir.filePath(n);
    }

    void everySampleShowsTheCommandLinesFigures()
    {
        QFETCH(QString, path);
        PlanDocument doc;
        SummaryPage page;
        page.setDocument(&doc);
        QSignalSpy spy(&doc, &PlanDocument::predictionChanged);
        QVERIFY(doc.load(path));
        QVERIFY(spy.count() > 0 || spy.wait(60000));
        QVERIFY(doc.prediction() && doc.prediction()->valid);

        const test::CliRun run = test::runCli({ QStringLiteral("evaluate"), path });
        QCOMPARE(run.code, 0);
        const json j = json::parse(run.out);
        QCOMPARE(j["time"]["source"].get<std::string>(), doc.prediction()->timeSource);
        QCOMPARE(j["time"]["stepSeconds"].get<double>(), doc.prediction()->stepSeconds);
        QCOMPARE(j["time"]["analyticStepSeconds"].get<double>(), doc.analysis()->analytic.stepSeconds);

        // Core's analyse() of the same file, as a planner or a report would call it.
        auto loaded = loadPlanFile(QFile::encodeName(path).toStdString());
        QVERIFY(loaded);
        const auto direct = analyse(loaded->plan);
        QCOMPARE(direct->stepSeconds(), doc.prediction()->stepSeconds);
        QCOMPARE(direct->timeline != nullptr, doc.timeline() != nullptr);
        if (direct->timeline) QCOMPARE(direct->timeline->spans.size(), doc.timeline()->spans.size());

        // Every row of the summary with a field: its exact value is the CLI's.
        int compared = 0;
        for (QTreeWidgetItemIterator it(page.tree()); *it; ++it) {
            const QString field = (*it)->data(SummaryPage::QuantityColumn, SummaryPage::FieldRole).toString();
            const QVariant exact = (*it)->data(SummaryPage::QuantityColumn, SummaryPage::ExactValueRole);
            if (field.isEmpty() || !exact.isValid()) continue;
            const json* value = at(j, field);
            if (!value || !value->is_number()) continue; // a row of the app's own (e.g. GPU totals)
            QVERIFY2(value->get<double>() == exact.toDouble(),
                qPrintable(QStringLiteral("%1: app %2, cli %3").arg(field).arg(exact.toDouble(), 0, 'g', 17)
                        .arg(value->get<double>(), 0, 'g', 17)));
            ++compared;
        }
        // The step time, bubble, MFU, tokens/s, days and every stage's memory are among them.
        QVERIFY2(compared >= 15, qPrintable(QString::number(compared)));
        QVERIFY(page.findField(QStringLiteral("time.stepSeconds")));
    }
};

PLANSCOPE_GUI_TEST_MAIN(TestOneAnalysis)
#include "tst_one_analysis.moc"
