#include "pages/TimelinePage.h"

#include "document/PlanDocument.h"
#include "timeline/PlaybackBar.h"
#include "timeline/TimelineLegend.h"
#include "timeline/TimelineView.h"
#include "document/ViewState.h"
#include "WidgetExporter.h"
#include "Format.h"

#include <QEvent>
#include <QLabel>
#include <QLayout>
#include <QVBoxLayout>

namespace planscope {

TimelinePage::TimelinePage(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_bar(new PlaybackBar(this))
    , m_view(new TimelineView(this))
    , m_legend(new TimelineLegend(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_title);
    layout->addWidget(m_bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    setViewState(nullptr);
    updateTitle();
}

TimelinePage::~TimelinePage() = default;

void TimelinePage::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_view->setDocument(document);
    m_bar->setDocument(document);
    if (document) connect(document, &PlanDocument::predictionChanged, this, &TimelinePage::updateTitle);
    updateTitle();
}

void TimelinePage::setViewState(ViewState* state)
{
    if (m_state) disconnect(m_state, nullptr, this, nullptr);
    m_view->setViewState(state);
    m_state = m_view->viewState();
    m_bar->setViewState(m_state);
    for (auto signal : { &ViewState::playheadChanged, &ViewState::durationChanged })
        connect(m_state, signal, this, &TimelinePage::updateLegend);
    connect(m_state, &ViewState::playingChanged, this, &TimelinePage::updateLegend);
    updateLegend();
}

void TimelinePage::updateLegend()
{
    // The pending entry while part of the step is drawn pending (TimelineView::pendingFrom's rule).
    const bool pending = m_state && !m_view->isFinalState() && (m_state->playhead() > 0 || m_state->isPlaying())
        && m_state->playhead() < m_state->duration();
    m_legend->setShowPending(pending);
}

ViewState* TimelinePage::viewState() const
{
    return m_view->viewState();
}

void TimelinePage::updateTitle()
{
    const auto timeline = m_document ? m_document->timeline() : nullptr;
    if (!timeline) {
        m_title->setText(tr("Timeline of one training step"));
        return;
    }
    const QString name = QString::fromStdString(m_document->predictedPlan().name);
    const auto prediction = m_document->prediction();
    m_title->setText(
        tr("%1: one step %2, %3 schedule, %4 pipeline ranks, %5 microbatches; schedule bubble %6 %, idle %7 %")
            .arg(name.isEmpty() ? tr("Timeline") : name)
            .arg(display::seconds(timeline->stepSeconds))
            .arg(QString::fromUtf8(toString(timeline->schedule.kind)))
            .arg(timeline->schedule.ranks)
            .arg(timeline->schedule.microbatches)
            .arg(prediction ? prediction->bubbleFraction * 100 : 0.0, 0, 'f', 1)
            .arg(timeline->bubbleFraction * 100, 0, 'f', 1));
}

void TimelinePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) updateTitle();
    QWidget::changeEvent(event);
}

bool TimelinePage::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isEmpty()) size = isVisible() ? this->size() : QSize(1600, 900);
    // A page of its own, on the same document and state, so this one (perhaps in a layout, perhaps playing) keeps
    // its geometry and its playback bar.
    const std::unique_ptr<TimelinePage> copy = exportPage(size);
    return WidgetExporter::exportWidget(copy.get(), path, error);
}

std::unique_ptr<TimelinePage> TimelinePage::exportPage(QSize size) const
{
    auto copy = std::make_unique<TimelinePage>();
    copy->setAttribute(Qt::WA_DontShowOnScreen);
    copy->setFont(font());
    copy->m_view->setFinalState(true);
    copy->m_bar->hide();
    copy->setViewState(viewState());
    copy->m_bar->setViewState(nullptr); // hidden, and never moves the shared playhead
    copy->setDocument(m_document);
    if (!m_document) copy->view()->setTimeline(m_view->timeline());
    copy->resize(size);
    copy->layout()->activate();
    copy->view()->setFitAllLanes(true);
    return copy;
}

QString TimelinePage::pageTitle() const
{
    return tr("Timeline");
}

} // namespace planscope
