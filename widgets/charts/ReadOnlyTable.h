// The read-only tables of the pages (profile, measured run): no row numbers, columns sized to their contents with
// the last one stretched, no wrapping, no editing; cells that can be selected but not edited.
#pragma once

#include <Qt>

class QString;
class QTableWidget;
class QTableWidgetItem;

namespace planscope {

void setUpReadOnlyTable(QTableWidget* table);
QTableWidgetItem* readOnlyCell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter);

} // namespace planscope
