#include "pages/AnatomyPage.h"

#include "Theme.h"
#include "WidgetExporter.h"
#include "charts/LayerAnatomyView.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

namespace planscope {

AnatomyPage::AnatomyPage(QWidget* parent)
    : QWidget(parent)
    , m_which(new QComboBox(this))
    , m_scroll(new QScrollArea(this))
    , m_view(new LayerAnatomyView)
{
    m_which->addItem(QString(), int(LayerAnatomyView::Ops::Layer));
    m_which->addItem(QString(), int(LayerAnatomyView::Ops::Output));
    m_which->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* top = new QHBoxLayout;
    top->addWidget(m_which);
    top->addStretch(1);
    m_scroll->setWidget(m_view);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_scroll, 1);
    connect(m_which, &QComboBox::currentIndexChanged, this,
        [this](int) { m_view->setOps(LayerAnatomyView::Ops(m_which->currentData().toInt())); });
    retranslate();
}

void AnatomyPage::setDocument(PlanDocument* document)
{
    m_feed.follow(document, this,
        [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void AnatomyPage::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    showAnalysis();
}

void AnatomyPage::showAnalysis()
{
    QString subject;
    if (m_analysis && !m_analysis->plan.model.name.empty()) {
        const Plan& plan = m_analysis->plan;
        const ParallelSpec& par = plan.parallel;
        subject
            = tr("%1 on %2: TP %3, CP %4, SP %5, microbatch %6 × %7 tokens")
                  .arg(QString::fromStdString(plan.model.name), QString::fromStdString(plan.cluster.gpu.name))
                  .arg(par.tp)
                  .arg(par.cp)
                  .arg(par.sp ? tr("on") : tr("off"))
                  .arg(plan.training.microBatch)
                  .arg(plan.model.seqLength);
    }
    m_view->setSubject(subject);
    // An aliasing pointer: the view keeps the whole analysis alive.
    m_view->setPrediction(
        m_analysis ? std::shared_ptr<const Prediction>(m_analysis, &m_analysis->prediction) : nullptr);
}

bool AnatomyPage::exportTo(const QString& path, QSize size, QString* error)
{
    if (!size.isValid() || size.isEmpty())
        size = m_view->width() > 200 && m_view->height() > 150 ? m_view->size() : QSize(1400, 900);
    // Every row readable: as tall as the view needs at this width.
    size.setHeight(std::max(size.height(), m_view->heightForWidth(size.width())));
    return WidgetExporter::exportPainted(
        path, size,
        [this](QPaintDevice* device, const QRectF& rect) {
            QPainter painter;
            if (!painter.begin(device)) return false;
            m_view->paint(painter, rect);
            return painter.end();
        },
        error, m_view->title(), Theme::background());
}

void AnatomyPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        showAnalysis();
    }
    QWidget::changeEvent(event);
}

void AnatomyPage::retranslate()
{
    m_which->setItemText(0, tr("One transformer layer"));
    m_which->setItemText(1, tr("Output layer (last pipeline stage)"));
    m_which->setToolTip(
        tr("Which operators to show: a transformer layer's, or the final norm, logits and loss on the "
           "last pipeline stage"));
}

QString AnatomyPage::pageTitle() const
{
    return tr("Layer Anatomy");
}

} // namespace planscope
