#include "pages/PageRegistry.h"

#include "pages/AnatomyPage.h"
#include "pages/CommView.h"
#include "pages/ComparePage.h"
#include "pages/GpuGridView.h"
#include "pages/MemoryPage.h"
#include "pages/PlannerPage.h"
#include "pages/ProfilePage.h"
#include "pages/RunPage.h"
#include "pages/SummaryPage.h"
#include "pages/TimelinePage.h"
#include "pages/TracePage.h"

namespace planscope {

namespace {

template<typename P>
QWidget* make(QWidget* parent, Page** page)
{
    auto* p = new P(parent);
    if (page) *page = p;
    return p;
}

// The Metrics page is the report's text (figures, derivations, warnings), not a picture; the planner, compare,
// profile and measured-run pages answer questions the report does not ask.
constexpr PageKind kPages[] = {
    { TimelinePage::kPageName, true, &make<TimelinePage> },
    { GpuGridView::kPageName, true, &make<GpuGridView> },
    { MemoryPage::kPageName, true, &make<MemoryPage> },
    { CommView::kPageName, true, &make<CommView> },
    { SummaryPage::kPageName, false, &make<SummaryPage> },
    { AnatomyPage::kPageName, true, &make<AnatomyPage> },
    { PlannerPage::kPageName, false, &make<PlannerPage> },
    { ComparePage::kPageName, false, &make<ComparePage> },
    { ProfilePage::kPageName, false, &make<ProfilePage> },
    { TracePage::kPageName, false, &make<TracePage> },
    { RunPage::kPageName, false, &make<RunPage> },
};

} // namespace

std::span<const PageKind> pageKinds() { return kPages; }

const PageKind* pageKind(QStringView name)
{
    for (const PageKind& k : kPages)
        if (name == QLatin1String(k.name)) return &k;
    return nullptr;
}

} // namespace planscope
