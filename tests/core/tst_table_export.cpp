// Tables out (core/io/TableExport.h): CSV as RFC 4180 writes it, every table of a JSON document by its own names, and
// XLSX read back by Python's zipfile and xml.etree (tests/XlsxReader.h): sheet names, numbers as numbers, text as
// text, Excel's limits named, a failed write leaving what was there.
#include "TestUtil.h"
#include "XlsxReader.h"

#include "io/TableExport.h"

#include <QFile>
#include <QObject>
#include <QTemporaryDir>
#include <fstream>
#include <sstream>

using namespace planscope;
using nlohmann::json;
using namespace std::string_literals;

class TestTableExport : public QObject {
    Q_OBJECT

private slots:
    // RFC 4180 section 2: CRLF between records; a field with a comma, a double quote or a line break enclosed in
    // double quotes, a double quote in it written twice.
    void csvIsRfc4180()
    {
        Table t { "t", { "name", "value" }, {} };
        t.rows.push_back({ textCell("plain"), numberCell(0.1) });
        t.rows.push_back({ textCell("a,b"), numberCell(1e21) });
        t.rows.push_back({ textCell("say \"hi\""), numberCell(-3) });
        t.rows.push_back({ textCell("two\nlines"), textCell("") });
        QCOMPARE(tableToCsv(t), "name,value\r\nplain,0.1\r\n\"a,b\",1e+21\r\n\"say \"\"hi\"\"\",-3\r\n\"two\nlines\",\r\n"s);
    }

    // A document's scalars as one field/value table, each array of objects as its own, nested objects flattened,
    // an array inside an element a table whose first column names the row it belongs to.
    void tablesOfAJsonDocument()
    {
        const json doc = json::parse(R"({
            "schema": "x/v1", "step": { "seconds": 1.5, "mfu": 0.42 }, "valid": true, "tags": ["a", "b"],
            "stages": [ { "stage": 0, "memory": { "total": 10 }, "ops": [ { "name": "fwd" } ] },
                        { "stage": 1, "memory": { "total": 12 }, "extra": "x" } ] })");
        const std::vector<Table> tables = tablesFromJson(doc, "evaluate");
        QCOMPARE(tables.size(), std::size_t(3));
        QCOMPARE(tables[0].name, "evaluate"s);
        QCOMPARE(tables[0].header, (std::vector<std::string> { "field", "value" }));
        std::map<std::string, TableCell> fields;
        for (const auto& row : tables[0].rows) fields[row[0].text] = row[1];
        QVERIFY(fields["step.seconds"].isNumber && fields["step.seconds"].number == 1.5);
        QCOMPARE(fields["valid"].text, "true"s);
        QCOMPARE(fields["tags"].text, "a; b"s);
        QCOMPARE(fields["schema"].text, "x/v1"s);
        const Table& stages = tables[1];
        QCOMPARE(stages.name, "stages"s);
        // nlohmann::json keeps an object's keys in order: columns as they are first met.
        QCOMPARE(stages.header, (std::vector<std::string> { "memory.total", "stage", "extra" }));
        QCOMPARE(stages.rows.size(), std::size_t(2));
        QCOMPARE(stages.rows[1][0].number, 12.0);
        QCOMPARE(stages.rows[1][1].number, 1.0);
        QCOMPARE(stages.rows[0][2].text, ""s); // absent in the first element: empty
        const Table& ops = tables[2];
        QCOMPARE(ops.name, "stages.ops"s); // one table for the path, whichever element holds it
        QCOMPARE(ops.header, (std::vector<std::string> { "of", "name" }));
        QCOMPARE(ops.rows[0][0].text, "stages[0]"s);
    }

    void xlsxReadsBack()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.xlsx")).toStdString();
        Table a { "A table whose name is longer than thirty-one characters", { "name", "seconds" }, {} };
        a.rows.push_back({ textCell("step"), numberCell(12.25) });
        a.rows.push_back({ textCell("步骤 [中文]"), numberCell(-0.5) });
        a.rows.push_back({ textCell("bad \xff byte"), textCell("") });
        Table b { "a table whose name is longer than thirty-one characters", { "x" }, { { numberCell(1) } } };
        Table c { "odd/name:*?", {}, { { textCell("no header") } } };
        std::string error;
        QVERIFY2(writeXlsx(path, { a, b, c }, error), error.c_str());
        const json book = test::readXlsx(QString::fromStdString(path));
        QVERIFY2(book.is_object(), "python3 could not read the workbook");
        const auto sheets = book["sheets"].get<std::vector<std::string>>();
        QCOMPARE(sheets.size(), std::size_t(3));
        QCOMPARE(sheets[0], "A table whose name is longer th"s); // 31 characters
        QCOMPARE(sheets[1].size(), std::size_t(31));
        QVERIFY(sheets[1] != sheets[0]);                          // unique without regard to case
        QCOMPARE(sheets[2], "odd_name___"s);
        const json& cells = book["cells"][sheets[0]];
        QCOMPARE(cells[0][0]["v"].get<std::string>(), "name"s);
        QCOMPARE(cells[1][1]["t"].get<std::string>(), "n"s);
        QCOMPARE(cells[1][1]["v"].get<double>(), 12.25);
        QCOMPARE(cells[2][0]["v"].get<std::string>(), "步骤 [中文]"s);
        QCOMPARE(cells[3][0]["v"].get<std::string>(), "bad \xef\xbf\xbd byte"s); // U+FFFD for the bad byte
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".planscope-" + std::to_string(QCoreApplication::applicationPid()) + ".tmp")));
    }

    void limitsAndFailuresAreNamed()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("kept.xlsx")).toStdString();
        { std::ofstream(path) << "what was there"; }
        Table wide { "wide", std::vector<std::string>(16385, "c"), {} };
        std::string error;
        QVERIFY(!writeXlsx(path, { wide }, error));
        QVERIFY2(error.find("16384 columns") != std::string::npos, error.c_str());
        std::ifstream in(path);
        std::stringstream s;
        s << in.rdbuf();
        QCOMPARE(s.str(), "what was there"s);
        QVERIFY(!writeXlsx(dir.filePath(QStringLiteral("no/such/dir/t.xlsx")).toStdString(), { Table { "t", { "a" }, {} } }, error));
        QVERIFY(!error.empty());
    }
};

QTEST_GUILESS_MAIN(TestTableExport)
#include "tst_table_export.moc"
