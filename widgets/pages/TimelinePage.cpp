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
    // The bar hears of another plan before that plan's analysis arrives.
    disconnect(m_replaced);
    if (document) m_replaced = connect(document, &PlanDocument::planReplaced, m_bar, &PlaybackBar::replacePlan);
    m_feed.follow(document, this, [this](std::shared_ptr<const Analysis> analysis) { setAnalysis(std::move(analysis)); });
}

void TimelinePage::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    m_view->setAnalysis(m_analysis);
    m_bar->setAnalysis(m_analysis);
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
    const auto timeline = m_analysis ? m_analysis->timeline : nullptr;
    if (!timeline) {
        m_title->setText(tr("Timeline of one training step"));
        return;
    }
    const QString name = QString::fromStdString(m_analysis->plan.name);
    m_title->setText(
        tr("%1: one step %2, %3 schedule, %4 pipeline ranks, %5 microbatches; schedule bubble %6 %, idle %7 %")
            .arg(name.isEmpty() ? tr("Timeline") : name)
            .arg(display::seconds(timeline->stepSeconds))
            .arg(QString::fromUtf8(toString(timeline->schedule.kind)))
            .arg(timeline->schedule.ranks)
            .arg(timeline->schedule.microbatches)
            .arg(m_analysis->prediction.bubbleFraction * 100, 0, 'f', 1)
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
    // A page of its own, on the same analysis and state, so this one (perhaps in a layout, perhaps playing) keeps
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
    // What this page draws now: its analysis, or a timeline given to the view directly.
    copy->setAnalysis(m_analysis);
    if (m_view->timeline() != copy->view()->timeline()) copy->view()->setTimeline(m_view->timeline(), m_view->timelineIndex());
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
