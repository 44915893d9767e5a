// planscope-cli --xlsx OUT / --csv OUT (docs/FORMATS.md section 13): the tables of a verb's JSON as a workbook (read
// back by Python's zipfile, tests/XlsxReader.h) and as CSV files, every scalar the JSON holds in its sheet with the
// same value; the verb's own output unchanged.
#include "CliRunner.h"
#include "TestUtil.h"
#include "XlsxReader.h"

#include <QDir>
#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace planscope;
using nlohmann::json;

namespace {

QString sample(const char* name) { return QStringLiteral(PLANSCOPE_SAMPLES_DIR "/plans/") + QLatin1String(name); }

// Every scalar of a JSON document by its flattened path, as the export names it.
void scalars(const json& j, const std::string& prefix, std::map<std::string, json>& out)
{
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object()) scalars(*it, key, out);
        else if (!it->is_array()) out[key] = *it;
    }
}

} // namespace

class TestCliTables : public QObject {
    Q_OBJECT
private slots:
    void evaluateAsAWorkbook()
    {
        QTemporaryDir dir;
        const QString xlsx = dir.filePath(QStringLiteral("eval.xlsx"));
        const test::CliRun plain = test::runCli({ QStringLiteral("evaluate"), sample("llama3-70b-fp8-64xh100.plan.json") });
        const test::CliRun r = test::runCli({ QStringLiteral("evaluate"), sample("llama3-70b-fp8-64xh100.plan.json"), QStringLiteral("--xlsx"), xlsx });
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(r.out, plain.out); // the verb's own output as without --xlsx
        const test::CliRun j = test::runCli({ QStringLiteral("evaluate"), sample("llama3-70b-fp8-64xh100.plan.json"), QStringLiteral("--json") });
        std::map<std::string, json> expected;
        scalars(json::parse(j.out), "", expected);
        QVERIFY(expected.size() > 20);
        const json book = test::readXlsx(xlsx);
        QVERIFY2(book.is_object(), "python3 could not read the workbook");
        QCOMPARE(book["sheets"][0].get<std::string>(), std::string("evaluate"));
        std::size_t checked = 0;
        for (const json& row : book["cells"]["evaluate"]) {
            if (row.size() < 2 || !row[0].is_object() || !expected.count(row[0]["v"].get<std::string>())) continue;
            const json& want = expected[row[0]["v"].get<std::string>()];
            if (want.is_number()) {
                QVERIFY2(row[1].is_object() && row[1]["t"] == "n", row[0]["v"].get<std::string>().c_str());
                QCOMPARE(row[1]["v"].get<double>(), want.get<double>());
                ++checked;
            } else if (want.is_string()) {
                QCOMPARE(row[1]["v"].get<std::string>(), want.get<std::string>());
                ++checked;
            }
        }
        QVERIFY2(checked + 5 >= expected.size(), std::to_string(checked).c_str()); // booleans and nulls aside
    }

    void compareAsCsvFiles()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("cmp.csv"));
        const test::CliRun r = test::runCli({ QStringLiteral("compare"), sample("llama3-405b-8k-h100.plan.json"),
            sample("llama3-405b-16k-h100.plan.json"), QStringLiteral("--csv"), csv });
        QVERIFY2(r.code == 0, r.err.c_str());
        const QStringList files = QDir(dir.path()).entryList({ QStringLiteral("cmp-*.csv") });
        QVERIFY2(files.size() >= 2, qPrintable(files.join(QLatin1Char(' '))));
        std::ifstream in(dir.filePath(QStringLiteral("cmp-compare.csv")).toStdString());
        std::string header;
        std::getline(in, header);
        QCOMPARE(header, std::string("field,value\r"));
    }

    void searchKeepsItsOwnCsvAndWritesAWorkbook()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("ranking.csv")), xlsx = dir.filePath(QStringLiteral("search.xlsx"));
        const test::CliRun r = test::runCli({ QStringLiteral("search"), sample("interview-10b-8xa100.plan.json"), QStringLiteral("--top"),
            QStringLiteral("3"), QStringLiteral("--csv"), csv, QStringLiteral("--xlsx"), xlsx });
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(QFile::exists(csv)); // search's own ranking
        const json book = test::readXlsx(xlsx);
        QVERIFY(book.is_object());
        bool best = false;
        for (const json& s : book["sheets"]) best = best || s.get<std::string>() == "best";
        QVERIFY2(best, book["sheets"].dump().c_str());
        // summary writes no JSON: nothing written, said, exit 1.
        const test::CliRun summary = test::runCli({ QStringLiteral("summary"), sample("default.plan.json"), QStringLiteral("--xlsx"),
            dir.filePath(QStringLiteral("s.xlsx")) });
        QCOMPARE(summary.code, 1);
        QVERIFY2(summary.err.find("no tables written") != std::string::npos, summary.err.c_str());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("s.xlsx"))));
        // A path that cannot be written: exit 1, named.
        const test::CliRun bad = test::runCli({ QStringLiteral("evaluate"), sample("default.plan.json"), QStringLiteral("--xlsx"),
            dir.filePath(QStringLiteral("no/such/dir/x.xlsx")) });
        QCOMPARE(bad.code, 1);
        QVERIFY(!bad.err.empty());
    }
};

QTEST_GUILESS_MAIN(TestCliTables)
#include "tst_cli_tables.moc"
