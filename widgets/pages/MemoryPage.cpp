#include "pages/MemoryPage.h"

#include "charts/MemoryBarsView.h"
#include "charts/MemoryTimelineView.h"
#include "WidgetExporter.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace planscope {

MemoryPage::MemoryPage(QWidget* parent)
    : QWidget(parent)
    , m_mode(new QComboBox(this))
    , m_bars(new MemoryBarsView(this))
    , m_overTime(new MemoryTimelineView(this))
{
    auto* top = new QHBoxLayout;
    top->addWidget(m_mode);
    top->addStretch(1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_bars);
    split->addWidget(m_overTime);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    // Heights at which the bars' two-line ticks and legend and the curve's axis title and legend still fit; below
    // them the page scrolls (its tab's scroll area) rather than cutting text.
    m_bars->setMinimumHeight(330);
    m_overTime->setMinimumHeight(240);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    m_mode->addItem(QString(), int(MemoryBarsView::Mode::Peak));
    m_mode->addItem(QString(), int(MemoryBarsView::Mode::AtPlayhead));
    connect(m_mode, &QComboBox::currentIndexChanged, this,
        [this](int) { m_bars->setMode(MemoryBarsView::Mode(m_mode->currentData().toInt())); });
    retranslate();
}

void MemoryPage::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this, [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void MemoryPage::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_bars->setAnalysis(analysis);
    m_overTime->setAnalysis(std::move(analysis));
}

void MemoryPage::setViewState(ViewState* state)
{
    m_bars->setViewState(state);
    m_overTime->setViewState(state);
}

bool MemoryPage::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isValid() && !size.isEmpty()) resize(size);
    return WidgetExporter::exportWidget(this, path, error);
}

void MemoryPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void MemoryPage::retranslate()
{
    m_mode->setItemText(0, tr("Bars: peak per stage"));
    m_mode->setItemText(1, tr("Bars: at the playhead"));
}

QString MemoryPage::pageTitle() const
{
    return tr("Memory");
}

} // namespace planscope
