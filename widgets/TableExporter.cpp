#include "TableExporter.h"

#include "util/AtomicFile.h"

#include <algorithm>

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLayout>
#include <QStackedWidget>
#include <QTabWidget>
#include <QHeaderView>
#include <QLocale>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSet>
#include <QTableView>
#include <QTreeView>

namespace planscope::TableExporter {

namespace {

// The number a cell shows: its ExportValueRole, else its text where the whole text is a number in the interface's
// locale or the C locale.
TableCell cellOf(const QModelIndex& index, const QString& text)
{
    const QVariant value = index.data(ExportValueRole);
    bool ok = false;
    if (value.isValid()) {
        const double v = value.toDouble(&ok);
        if (ok) {
            TableCell c = numberCell(v);
            c.text = text.toStdString();
            return c;
        }
    }
    // The interface's locale first (a page formats with it: "32,4" under de_DE), then the C locale.
    const QString trimmed = text.trimmed();
    double v = QLocale().toDouble(trimmed, &ok);
    if (!ok) v = QLocale::c().toDouble(trimmed, &ok);
    if (ok && !trimmed.isEmpty()) {
        TableCell c = numberCell(v);
        c.text = text.toStdString();
        return c;
    }
    return textCell(text.toStdString());
}

void addRows(const QAbstractItemView* view, const QAbstractItemModel* model, const QModelIndex& parent, int depth,
    const std::vector<int>& columns, Table& table)
{
    const auto* tree = qobject_cast<const QTreeView*>(view);
    const auto* grid = qobject_cast<const QTableView*>(view);
    for (int r = 0; r < model->rowCount(parent); ++r) {
        if (tree && tree->isRowHidden(r, parent)) continue;
        if (grid && grid->isRowHidden(r)) continue;
        std::vector<TableCell> row;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const QModelIndex index = model->index(r, columns[i], parent);
            QString text = index.data(Qt::DisplayRole).toString();
            // A tree's first column is indented by its level, as it is drawn.
            if (i == 0 && depth > 0) text = QString(depth * 2, QLatin1Char(' ')) + text;
            row.push_back(i == 0 && depth > 0 ? textCell(text.toStdString()) : cellOf(index, text));
        }
        table.rows.push_back(std::move(row));
        if (tree) {
            const QModelIndex first = model->index(r, 0, parent);
            if (model->hasChildren(first)) addRows(view, model, first, depth + 1, columns, table);
        }
    }
}

// What a table is called: its accessible name, the group box or tab it sits in, else the label above it in its layout.
QString nameOf(const QAbstractItemView* view)
{
    if (!view->accessibleName().isEmpty()) return view->accessibleName();
    const QWidget* child = view;
    for (const QWidget* w = view->parentWidget(); w; child = w, w = w->parentWidget()) {
        if (const auto* box = qobject_cast<const QGroupBox*>(w); box && !box->title().isEmpty()) return box->title().remove(QLatin1Char('&'));
        if (const auto* stack = qobject_cast<const QStackedWidget*>(w))
            if (const auto* tabs = qobject_cast<const QTabWidget*>(stack->parentWidget()))
                if (const int i = tabs->indexOf(const_cast<QWidget*>(child)); i >= 0 && !tabs->tabText(i).isEmpty())
                    return tabs->tabText(i).remove(QLatin1Char('&'));
    }
    // A title label just before it in the same layout.
    if (const QWidget* parent = view->parentWidget(); parent && parent->layout()) {
        const QLayout* layout = parent->layout();
        const int at = layout->indexOf(const_cast<QAbstractItemView*>(view));
        for (int i = at - 1; i >= 0 && at >= 0; --i)
            if (const auto* label = qobject_cast<const QLabel*>(layout->itemAt(i)->widget()); label && !label->text().isEmpty())
                return label->text().section(QLatin1Char('('), 0, 0).trimmed();
    }
    return {};
}

bool isTable(const QAbstractItemView* view)
{
    return (qobject_cast<const QTableView*>(view) || qobject_cast<const QTreeView*>(view)) && view->model();
}

} // namespace

Table tableOf(const QAbstractItemView* view, const QString& name)
{
    Table table;
    table.name = name.toStdString();
    const QAbstractItemModel* model = view->model();
    if (!model) return table;
    const auto* tree = qobject_cast<const QTreeView*>(view);
    const auto* grid = qobject_cast<const QTableView*>(view);
    std::vector<int> columns;
    for (int c = 0; c < model->columnCount(); ++c) {
        if (tree && tree->isColumnHidden(c)) continue;
        if (grid && grid->isColumnHidden(c)) continue;
        columns.push_back(c);
    }
    // Columns in the order the header shows them (a user may have dragged one).
    const QHeaderView* header = tree ? tree->header() : grid ? grid->horizontalHeader() : nullptr;
    if (header) std::sort(columns.begin(), columns.end(), [&](int a, int b) { return header->visualIndex(a) < header->visualIndex(b); });
    for (int c : columns) table.header.push_back(model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().toStdString());
    addRows(view, model, QModelIndex(), 0, columns, table);
    return table;
}

std::vector<Table> tablesOf(const QWidget* root, const QString& fallback)
{
    std::vector<Table> tables;
    int unnamed = 0;
    for (const QAbstractItemView* view : root->findChildren<QAbstractItemView*>()) {
        if (!isTable(view) || view->isHidden() || !view->isVisibleTo(root)) continue;
        QString name = nameOf(view);
        if (name.isEmpty()) name = ++unnamed == 1 ? fallback : fallback + QLatin1Char(' ') + QString::number(unnamed);
        tables.push_back(tableOf(view, name));
    }
    return tables;
}

bool writeTables(const std::vector<Table>& tables, const QString& path, QString* error)
{
    std::string message;
    const std::string file = QFile::encodeName(path).toStdString();
    if (path.endsWith(QLatin1String(".xlsx"), Qt::CaseInsensitive)) {
        if (writeXlsx(file, tables, message)) return true;
        if (error) *error = QString::fromStdString(message);
        return false;
    }
    if (tables.empty()) {
        if (error) *error = QCoreApplication::translate("TableExporter", "No table to export");
        return false;
    }
    const QFileInfo info(path);
    QSet<QString> taken;
    for (const Table& t : tables) {
        QString target = path;
        if (tables.size() > 1) {
            // The table's name in the file's (letters of any script kept), made unique without regard to case.
            QString name = QString::fromStdString(t.name);
            name.replace(QRegularExpression(QStringLiteral("[^\\w.-]+"), QRegularExpression::UseUnicodePropertiesOption), QStringLiteral("_"));
            const QString suffix = info.suffix().isEmpty() ? QStringLiteral("csv") : info.suffix();
            target = info.path() + QLatin1Char('/') + info.completeBaseName() + QLatin1Char('-') + name + QLatin1Char('.') + suffix;
            for (int n = 2; taken.contains(target.toLower()); ++n)
                target = info.path() + QLatin1Char('/') + info.completeBaseName() + QLatin1Char('-') + name + QLatin1Char('-')
                    + QString::number(n) + QLatin1Char('.') + suffix;
            taken.insert(target.toLower());
        }
        if (!writeFileAtomically(QFile::encodeName(target).toStdString(), tableToCsv(t), message)) {
            if (error) *error = QString::fromStdString(message);
            return false;
        }
    }
    return true;
}

void installContextMenus(QWidget* root)
{
    for (QAbstractItemView* view : root->findChildren<QAbstractItemView*>()) {
        if (!isTable(view) || view->property("planscopeTableExport").toBool()) continue;
        view->setProperty("planscopeTableExport", true);
        view->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto* copy = new QAction(QCoreApplication::translate("TableExporter", "Copy Table as CSV"), view);
        copy->setObjectName(QStringLiteral("copyTableCsv"));
        QObject::connect(copy, &QAction::triggered, view, [view] {
            QApplication::clipboard()->setText(QString::fromStdString(tableToCsv(tableOf(view, nameOf(view)))));
        });
        auto* save = new QAction(QCoreApplication::translate("TableExporter", "Export Table…"), view);
        save->setObjectName(QStringLiteral("exportTable"));
        QObject::connect(save, &QAction::triggered, view, [view] {
            const QString path = QFileDialog::getSaveFileName(view, QCoreApplication::translate("TableExporter", "Export Table"),
                nameOf(view).isEmpty() ? QStringLiteral("table.xlsx") : nameOf(view) + QStringLiteral(".xlsx"),
                QCoreApplication::translate("TableExporter", "Excel workbook (*.xlsx);;CSV (*.csv)"));
            if (path.isEmpty()) return;
            QString error;
            if (!writeTables({ tableOf(view, nameOf(view).isEmpty() ? QStringLiteral("Table") : nameOf(view)) }, path, &error))
                QMessageBox::warning(view, QCoreApplication::translate("TableExporter", "Export failed"), error);
        });
        view->addAction(copy);
        view->addAction(save);
    }
}

} // namespace planscope::TableExporter
