// The app's tables out as CSV and XLSX (core/io/TableExport.h), as they show them: the visible columns under their
// headers, every visible row (a tree's depth-first, indented by its level), the text on screen; a cell whose text is
// a number, or whose ExportValueRole holds one, is a number in the spreadsheet. Right-click on any table offers it;
// File > Export Tables writes every table of the page at once.
#pragma once

#include "io/TableExport.h"

#include <QString>
#include <Qt>
#include <vector>

class QAbstractItemView;
class QWidget;

namespace planscope::TableExporter {

// A cell's value as a number where its text carries a unit ("1.25 s"): set by the page that fills the cell.
inline constexpr int ExportValueRole = Qt::UserRole + 77;

Table tableOf(const QAbstractItemView* view, const QString& name);
// The visible tables under `root` (QTableView and QTreeView, not a combo box's list), each named by the group box or
// the accessible name around it, else `fallback` and its number.
std::vector<Table> tablesOf(const QWidget* root, const QString& fallback);
// By the path's suffix: .xlsx one workbook of every table; .csv one table to the path, several to PATH-NAME.csv each.
bool writeTables(const std::vector<Table>& tables, const QString& path, QString* error);
// Right-click on every table under `root`: Copy as CSV, Export Table…
void installContextMenus(QWidget* root);

} // namespace planscope::TableExporter
