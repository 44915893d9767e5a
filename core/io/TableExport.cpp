#include "TableExport.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <system_error>
#include <unistd.h>

#include <xlsxwriter.h>

namespace planscope {

using nlohmann::json;

namespace {

std::string shortest(double v)
{
    if (!std::isfinite(v)) return v != v ? "nan" : (v > 0 ? "inf" : "-inf");
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

// Text as XLSX takes it: valid UTF-8 (a bad byte becomes U+FFFD, as nlohmann::json's replace handler writes it),
// without the control characters XML 1.0 has no place for, at most Excel's 32,767 characters.
std::string cellText(const std::string& s)
{
    std::string valid = json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    valid = json::parse(valid).get<std::string>();
    std::string out;
    for (char c : valid)
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    if (out.size() > 32767) {
        std::size_t cut = 32767;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut; // not inside a character
        out.resize(cut);
    }
    return out;
}

// Excel's sheet names: 1 to 31 characters, none of []:*?/\, unique without regard to case.
std::string sheetName(std::string name, std::set<std::string>& taken)
{
    for (char& c : name)
        if (std::string_view("[]:*?/\\").find(c) != std::string_view::npos || static_cast<unsigned char>(c) < 0x20) c = '_';
    name = cellText(name);
    if (name.empty()) name = "Sheet";
    auto cut = [](std::string s, std::size_t n) {
        if (s.size() <= n) return s;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
        return s.substr(0, n);
    };
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        return s;
    };
    std::string candidate = cut(name, 31);
    for (int n = 2; taken.count(lower(candidate)); ++n) {
        const std::string suffix = " (" + std::to_string(n) + ")";
        candidate = cut(name, 31 - suffix.size()) + suffix;
    }
    taken.insert(lower(candidate));
    return candidate;
}

// A JSON scalar as a cell.
TableCell scalarCell(const json& v)
{
    if (v.is_number()) return numberCell(v.get<double>());
    if (v.is_string()) return textCell(v.get<std::string>());
    if (v.is_boolean()) return textCell(v.get<bool>() ? "true" : "false");
    if (v.is_null()) return textCell("");
    return textCell(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

bool isObjectArray(const json& v)
{
    return v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_object(); });
}

} // namespace

TableCell textCell(std::string text) { return TableCell { std::move(text), 0, false }; }

TableCell numberCell(double value) { return TableCell { shortest(value), value, std::isfinite(value) }; }

std::string tableToCsv(const Table& table)
{
    std::string out;
    for (std::size_t i = 0; i < table.header.size(); ++i) out += (i ? "," : "") + csvField(table.header[i]);
    out += "\r\n";
    for (const auto& row : table.rows) {
        for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csvField(row[i].isNumber ? shortest(row[i].number) : row[i].text);
        out += "\r\n";
    }
    return out;
}

bool writeXlsx(const std::string& path, const std::vector<Table>& tables, std::string& error)
{
    for (const Table& t : tables) {
        std::size_t columns = t.header.size();
        for (const auto& row : t.rows) columns = std::max(columns, row.size());
        if (t.rows.size() + 1 > 1048576 || columns > 16384) {
            error = "table \"" + t.name + "\" has " + std::to_string(t.rows.size()) + " rows and " + std::to_string(columns)
                + " columns; a sheet holds at most 1048575 rows under its header and 16384 columns";
            return false;
        }
    }
    const std::string temporary = path + ".planscope-" + std::to_string(::getpid()) + ".tmp";
    lxw_workbook* book = workbook_new(temporary.c_str());
    if (!book) {
        error = "cannot create " + temporary;
        return false;
    }
    lxw_format* bold = workbook_add_format(book);
    format_set_bold(bold);
    std::set<std::string> taken;
    for (const Table& t : tables.empty() ? std::vector<Table> { Table { "Empty", {}, {} } } : tables) {
        const std::string name = sheetName(t.name, taken);
        lxw_worksheet* sheet = workbook_add_worksheet(book, name.c_str());
        if (!sheet) {
            workbook_close(book);
            std::error_code ec;
            std::filesystem::remove(temporary, ec);
            error = "cannot add the sheet \"" + name + "\"";
            return false;
        }
        std::vector<std::size_t> width(t.header.size(), 8);
        auto grow = [&](std::size_t column, const std::string& text) {
            if (width.size() <= column) width.resize(column + 1, 8);
            width[column] = std::max(width[column], std::min<std::size_t>(text.size() + 2, 60));
        };
        for (std::size_t c = 0; c < t.header.size(); ++c) {
            const std::string text = cellText(t.header[c]);
            worksheet_write_string(sheet, 0, lxw_col_t(c), text.c_str(), bold);
            grow(c, text);
        }
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            for (std::size_t c = 0; c < t.rows[r].size(); ++c) {
                const TableCell& cell = t.rows[r][c];
                if (cell.isNumber) {
                    worksheet_write_number(sheet, lxw_row_t(r + 1), lxw_col_t(c), cell.number, nullptr);
                    grow(c, cell.text);
                } else if (!cell.text.empty()) {
                    const std::string text = cellText(cell.text);
                    worksheet_write_string(sheet, lxw_row_t(r + 1), lxw_col_t(c), text.c_str(), nullptr);
                    grow(c, text);
                }
            }
        for (std::size_t c = 0; c < width.size(); ++c) worksheet_set_column(sheet, lxw_col_t(c), lxw_col_t(c), double(width[c]), nullptr);
        if (!t.header.empty()) worksheet_freeze_panes(sheet, 1, 0);
    }
    const lxw_error closed = workbook_close(book);
    std::error_code ec;
    if (closed != LXW_NO_ERROR) {
        std::filesystem::remove(temporary, ec);
        error = "cannot write " + path + ": " + lxw_strerror(closed);
        return false;
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        error = "cannot write " + path + ": " + ec.message();
        return false;
    }
    return true;
}

std::vector<Table> tablesFromJson(const json& document, const std::string& name)
{
    std::vector<Table> tables;
    Table fields { name, { "field", "value" }, {} };
    // One table per array path: the rows of every element of every array at that path (ranks[3].lanes joins
    // ranks[*].lanes), each with the column of the row it belongs to where it is nested.
    struct Building {
        std::size_t table;
        std::map<std::string, std::size_t> column;
    };
    std::map<std::string, Building> byPath;
    std::function<void(const json&, const std::string&, std::vector<TableCell>&, Building&)> flatten;
    auto arrayTable = [&](const json& array, const std::string& path, const std::string& where) {
        auto [it, fresh] = byPath.try_emplace(path, Building { tables.size(), {} });
        if (fresh) {
            tables.push_back(Table { path, {}, {} });
            if (!where.empty()) {
                tables.back().header.push_back("of");
                it->second.column["of"] = 0;
            }
        }
        Building& b = it->second;
        for (const json& element : array) {
            std::vector<TableCell> row;
            if (!where.empty()) row.push_back(textCell(where));
            flatten(element, "", row, b);
            tables[b.table].rows.push_back(std::move(row));
        }
    };
    // The fields of one element: scalars into its row, nested objects flattened, arrays of scalars joined, arrays of
    // objects into the table of their path.
    std::function<void(const json&, const std::string&, const std::string&, std::vector<TableCell>&, Building&)> fill
        = [&](const json& element, const std::string& prefix, const std::string& where, std::vector<TableCell>& row, Building& b) {
              auto put = [&](const std::string& key, TableCell cell) {
                  auto it = b.column.find(key);
                  if (it == b.column.end()) {
                      it = b.column.emplace(key, tables[b.table].header.size()).first;
                      tables[b.table].header.push_back(key);
                  }
                  if (row.size() <= it->second) row.resize(it->second + 1);
                  row[it->second] = std::move(cell);
              };
              if (!element.is_object()) {
                  put(prefix.empty() ? "value" : prefix, scalarCell(element));
                  return;
              }
              for (auto it = element.begin(); it != element.end(); ++it) {
                  const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
                  const json& v = it.value();
                  if (v.is_object()) {
                      fill(v, key, where, row, b);
                  } else if (isObjectArray(v)) {
                      const std::size_t table = b.table; // arrayTable may grow `tables`
                      const std::string owner = tables[table].name;
                      arrayTable(v, owner + "." + key, where);
                  } else if (v.is_array()) {
                      std::string joined;
                      for (const json& e : v) joined += (joined.empty() ? "" : "; ") + (e.is_string() ? e.get<std::string>() : e.dump());
                      put(key, textCell(joined));
                  } else {
                      put(key, scalarCell(v));
                  }
              }
          };
    // Each element's own name ("ranks[3]") is what its nested rows are "of".
    flatten = [&](const json& element, const std::string& prefix, std::vector<TableCell>& row, Building& b) {
        const std::string where = tables[b.table].name + "[" + std::to_string(tables[b.table].rows.size()) + "]";
        fill(element, prefix, where, row, b);
    };
    // The document's own fields.
    std::function<void(const json&, const std::string&)> walk = [&](const json& j, const std::string& prefix) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
            const json& v = it.value();
            if (v.is_object()) {
                walk(v, key);
            } else if (isObjectArray(v)) {
                arrayTable(v, key, "");
            } else if (v.is_array()) {
                std::string joined;
                for (const json& e : v) joined += (joined.empty() ? "" : "; ") + (e.is_string() ? e.get<std::string>() : e.dump());
                fields.rows.push_back({ textCell(key), textCell(joined) });
            } else {
                fields.rows.push_back({ textCell(key), scalarCell(v) });
            }
        }
    };
    if (document.is_object()) walk(document, "");
    else if (isObjectArray(document)) arrayTable(document, name, "");
    else fields.rows.push_back({ textCell(name), scalarCell(document) });
    for (Table& t : tables)
        for (auto& row : t.rows) row.resize(t.header.size());
    if (!fields.rows.empty()) tables.insert(tables.begin(), std::move(fields));
    return tables;
}

} // namespace planscope
