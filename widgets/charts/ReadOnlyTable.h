// The read-only tables of the pages (profile, measured run): no row numbers, columns sized to their contents with
// the last one stretched, no wrapping, no editing; cells that can be selected but not edited.
#pragma once

#include <QStringList>
#include <Qt>

class QString;
class QTableWidget;
class QTableWidgetItem;

namespace planscope {

void setUpReadOnlyTable(QTableWidget* table);
QTableWidgetItem* readOnlyCell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter);
// The table's rows as the tests read them: each row's cells joined by " | " (an empty cell where there is no item).
QStringList tableRowTexts(const QTableWidget* table);

} // namespace planscope
