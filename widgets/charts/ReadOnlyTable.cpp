#include "charts/ReadOnlyTable.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QTimer>
#include <algorithm>
#include <QStringList>
#include <QTableWidget>

namespace planscope {

namespace {

// The last column stretches to the table's width only while that leaves it the width its header and cells need;
// past that QHeaderView would squeeze it to its minimum section size and cut its text, so it keeps its contents'
// width and the table scrolls sideways instead.
class LastColumnKeeper : public QObject {
public:
    explicit LastColumnKeeper(QTableWidget* table)
        : QObject(table)
        , m_table(table)
    {
        table->viewport()->installEventFilter(this);
        connect(table->horizontalHeader(), &QHeaderView::sectionResized, this, &LastColumnKeeper::later);
        connect(table->model(), &QAbstractItemModel::modelReset, this, &LastColumnKeeper::later);
        connect(table->model(), &QAbstractItemModel::dataChanged, this, &LastColumnKeeper::later);
        connect(table->model(), &QAbstractItemModel::columnsInserted, this, &LastColumnKeeper::later);
        connect(table->model(), &QAbstractItemModel::headerDataChanged, this, &LastColumnKeeper::later);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize) later();
        return QObject::eventFilter(watched, event);
    }

private:
    void later()
    {
        if (m_queued) return;
        m_queued = true;
        QTimer::singleShot(0, this, [this] {
            m_queued = false;
            fit();
        });
    }
    void fit()
    {
        QHeaderView* h = m_table->horizontalHeader();
        int last = -1, others = 0;
        for (int v = h->count() - 1; v >= 0; --v) {
            const int logical = h->logicalIndex(v);
            if (h->isSectionHidden(logical)) continue;
            if (last < 0)
                last = logical;
            else
                others += h->sectionSize(logical);
        }
        if (last < 0) return;
        int need = h->sectionSizeHint(last);
        const QFontMetrics fm(m_table->font());
        for (int r = 0; r < m_table->rowCount(); ++r)
            if (const QTableWidgetItem* item = m_table->item(r, last))
                if (m_table->columnSpan(r, last) == 1) need = std::max(need, fm.horizontalAdvance(item->text()) + 12);
        const bool stretch = m_table->viewport()->width() - others >= need;
        if (stretch != h->stretchLastSection()) h->setStretchLastSection(stretch);
    }

    QTableWidget* m_table;
    bool m_queued = false;
};

} // namespace

void setUpReadOnlyTable(QTableWidget* table)
{
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    new LastColumnKeeper(table);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->setWordWrap(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
}

QTableWidgetItem* readOnlyCell(const QString& text, Qt::Alignment align)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QStringList tableRowTexts(const QTableWidget* table)
{
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < table->columnCount(); ++c) cells << (table->item(r, c) ? table->item(r, c)->text() : QString());
        rows << cells.join(QStringLiteral(" | "));
    }
    return rows;
}

} // namespace planscope
