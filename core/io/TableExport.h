// Tables out as CSV (RFC 4180) and XLSX (Office Open XML, written by libxlsxwriter): what the app's tables show and
// what the command line's JSON holds, as a spreadsheet a colleague opens (docs/FORMATS.md section 13).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace planscope {

// A cell: its text, and its number where it is one (written as a number in XLSX, so that a spreadsheet sums it).
struct TableCell {
    std::string text;
    double number = 0;
    bool isNumber = false;
};
TableCell textCell(std::string text);
TableCell numberCell(double value);

struct Table {
    std::string name;                        // the sheet's name (XLSX) or the file's suffix (CSV)
    std::vector<std::string> header;
    std::vector<std::vector<TableCell>> rows;
};

// RFC 4180: fields separated by commas, rows by CRLF; a field with a comma, a quote or a line end in quotes, its
// quotes doubled. Numbers in their shortest round-trip form.
std::string tableToCsv(const Table& table);

// One workbook, a sheet per table (names cut to Excel's 31 characters and made unique), the header bold and frozen,
// numbers as numbers, columns as wide as their text (to 60). Written beside `path` and renamed over it: a failed write
// leaves what was there. False with `error` set when the file cannot be written or a table passes Excel's limits
// (1,048,576 rows, 16,384 columns).
bool writeXlsx(const std::string& path, const std::vector<Table>& tables, std::string& error);

// Every table a JSON document holds, by its own names: the scalars (nested objects flattened as "a.b") as one table
// of field and value named `name`, and every array of objects as a table of its own named by its path, one column per
// scalar field (nested objects flattened, arrays of scalars joined with "; "); the arrays of objects at one path
// inside those ("ranks[*].lanes") one table named "ranks.lanes", its first column the row each belongs to.
std::vector<Table> tablesFromJson(const nlohmann::json& document, const std::string& name);

} // namespace planscope
