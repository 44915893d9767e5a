#include "pages/ComparePage.h"

#include "CoreText.h"
#include "ElidedLabel.h"
#include "document/PlanRead.h"
#include "Format.h"
#include "Palette.h"
#include "Theme.h"
#include "WidgetExporter.h"
#include "charts/MemoryBarsView.h"
#include "charts/MemorySegments.h"
#include "document/PlanDocument.h"
#include "document/RunThen.h"
#include "io/PlanJson.h"
#include "pages/GpuGridView.h"
#include "timeline/TimelineView.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QFuture>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <array>
#include <cmath>
#include <new>
#include <qcustomplot.h>

namespace planscope {

namespace {

// One colour per plan, the same in the chips, the table's header, the timelines' and charts' captions: Okabe & Ito
// (Palette.h), in the order the other pages use them first.
QColor planColour(int index)
{
    static const std::array<QColor, 4> colours { palette::blue(), palette::orange(), palette::bluishGreen(),
        palette::reddishPurple() };
    return colours[std::size_t(index) % colours.size()];
}

QPixmap swatch(int index, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(planColour(index));
    return pixmap;
}

QString letter(int index)
{
    return QString(QChar(u'A' + index));
}

// A plan's name cut for a caption; the whole name stays in the tooltip.
// At most `characters`, cut in the middle where longer: the start (the model) and the end (the parallel layout) both
// say which plan it is. The whole name is in the tool tips.
QString shortened(const QString& text, int characters)
{
    if (text.size() <= characters) return text;
    const int head = (characters - 1) / 2, tail = characters - 1 - head;
    return text.left(head) + QChar(0x2026) + text.right(tail);
}

QFont boldOf(QFont font, double grow = 0)
{
    font.setBold(true);
    if (grow > 0) font.setPointSizeF(font.pointSizeF() + grow);
    return font;
}

// A caption above a picture: the plan's colour, its letter and name.
QWidget* caption(int index, ElidedLabel** label, QWidget* parent)
{
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(6);
    auto* mark = new QLabel(row);
    mark->setPixmap(swatch(index, 12));
    *label = new ElidedLabel(row);
    (*label)->setFont(boldOf((*label)->font()));
    h->addWidget(mark);
    h->addWidget(*label, 1);
    return row;
}

} // namespace

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent)
{
    auto* page = new QVBoxLayout(this);
    page->setContentsMargins(8, 6, 8, 6);
    page->setSpacing(6);

    // The plans: one chip each (colour, name, remove), the add button, and why the last one was refused.
    auto* top = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setFont(boldOf(font(), 2));
    top->addWidget(m_title);
    top->addStretch(1);
    m_stageRows = new QCheckBox(this);
    top->addWidget(m_stageRows);
    m_addButton = new QPushButton(this);
    top->addWidget(m_addButton);
    page->addLayout(top);
    auto* chips = new QHBoxLayout;
    m_chips = new QHBoxLayout;
    m_chips->setSpacing(10);
    chips->addLayout(m_chips);
    chips->addStretch(1);
    page->addLayout(chips);
    // No label here wraps its words: a word-wrapped label makes the page's layout height-for-width, and the tab's
    // scroll area would then size the page by every view's preferred height instead of its minimum. Lines are
    // broken by hand instead (one per issue, one per plan).
    m_messageLabel = new QLabel(this);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageLabel->hide();
    page->addWidget(m_messageLabel);

    // The headline table and the one line that says why the fastest plan wins.
    m_table = new QTableWidget(this);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setWordWrap(false);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    page->addWidget(m_table);
    m_why = new QLabel(this);
    m_why->setTextFormat(Qt::PlainText);
    page->addWidget(m_why);

    // The timelines, stacked on one time axis.
    m_timelinesTitle = new QLabel(this);
    m_timelinesTitle->setFont(boldOf(font()));
    page->addWidget(m_timelinesTitle);
    m_timelines = new QVBoxLayout;
    m_timelines->setSpacing(2);
    page->addLayout(m_timelines, 3);

    // Memory per stage on one scale, and the GPU grids: side by side for two plans, one above the other for more.
    m_bottom = new QBoxLayout(QBoxLayout::LeftToRight);
    auto* bottom = m_bottom;
    bottom->setSpacing(12);
    auto* memoryColumn = new QVBoxLayout;
    m_memoryTitle = new QLabel(this);
    m_memoryTitle->setFont(boldOf(font()));
    m_memoryKey = new QLabel(this);
    m_memory = new QHBoxLayout;
    memoryColumn->addWidget(m_memoryTitle);
    memoryColumn->addWidget(m_memoryKey);
    memoryColumn->addLayout(m_memory, 1);
    auto* gridColumn = new QVBoxLayout;
    m_gridsTitle = new QLabel(this);
    m_gridsTitle->setFont(boldOf(font()));
    m_grids = new QHBoxLayout;
    gridColumn->addWidget(m_gridsTitle);
    gridColumn->addLayout(m_grids, 1);
    bottom->addLayout(memoryColumn, 3);
    bottom->addLayout(gridColumn, 2);
    page->addLayout(bottom, 3);

    connect(m_addButton, &QPushButton::clicked, this, &ComparePage::addPlanInteractively);
    connect(m_stageRows, &QCheckBox::toggled, this, [this] { fillTable(); });
    connect(Theme::instance(), &Theme::changed, this, [this] {
        retranslate(); // the key's capacity colour
        rebuild();     // the best cells' tint
    });
    retranslate();
    rebuildColumns();
}

ComparePage::~ComparePage() = default;

QString ComparePage::pageTitle() const
{
    return tr("Compare");
}

void ComparePage::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (document) {
        // Plan A is the open plan: every new analysis of it (an edit, another file) is compared at once.
        connect(document, &PlanDocument::predictionChanged, this, &ComparePage::rebuild);
        connect(document, &PlanDocument::filePathChanged, this, &ComparePage::rebuild);
    }
    rebuild();
}

// --- the plans -------------------------------------------------------------------------------------------------

bool ComparePage::refuse(const QString& message, QString* error)
{
    m_message = message;
    if (error) *error = message;
    m_messageLabel->setText(message);
    m_messageLabel->setVisible(!message.isEmpty());
    return false;
}

bool ComparePage::addPlanFile(const QString& path, QString* error)
{
    if (planCount() >= kMaxPlans)
        return refuse(tr("At most %1 plans are compared at once: remove one before adding %2.")
                          .arg(kMaxPlans)
                          .arg(QDir::toNativeSeparators(path)),
            error);
    // Read on a thread of its own while the window keeps answering (document/PlanRead.h).
    auto read = std::make_shared<PlanRead>();
    if (!readPlanWaiting(read, path))
        return refuse(tr("Cannot compare with %1: the read did not finish.").arg(QDir::toNativeSeparators(path)), error);
    Result<LoadedPlan> loaded = std::move(*read->result);
    if (!loaded)
        return refuse(tr("Cannot compare with %1:\n%2").arg(QDir::toNativeSeparators(path), PlanDocument::describe(loaded.errors())),
            error);
    Added added;
    added.file = QFileInfo(path).absoluteFilePath();
    added.plan = std::move(loaded.value().plan);
    added.warnings = std::move(loaded.value().warnings);
    added.name = added.plan.name.empty() ? QFileInfo(path).fileName() : QString::fromStdString(added.plan.name);
    return add(std::move(added), error);
}

bool ComparePage::addPlan(const Plan& plan, const QString& name, QString* error)
{
    if (planCount() >= kMaxPlans)
        return refuse(tr("At most %1 plans are compared at once: remove one before adding %2.").arg(kMaxPlans).arg(name),
            error);
    Added added;
    added.plan = plan;
    added.name = name.isEmpty() ? QString::fromStdString(plan.name) : name;
    return add(std::move(added), error);
}

bool ComparePage::addAnalysis(std::shared_ptr<const Analysis> analysis, const QString& name, QString* error)
{
    if (!analysis) return refuse(tr("%1 has not been analysed").arg(name), error);
    if (planCount() >= kMaxPlans)
        return refuse(tr("At most %1 plans are compared at once: remove one before adding %2.").arg(kMaxPlans).arg(name),
            error);
    Added added;
    added.plan = analysis->plan;
    added.name = name.isEmpty() ? QString::fromStdString(analysis->plan.name) : name;
    added.analysis = std::move(analysis);
    return add(std::move(added), error);
}

void ComparePage::showAnalysis(std::shared_ptr<const Analysis> analysis, const QString& name)
{
    m_first = std::move(analysis);
    m_firstName = name;
    rebuild();
}

bool ComparePage::add(Added added, QString* error)
{
    added.id = m_nextId++;
    const quint64 id = added.id;
    m_added.push_back(std::move(added));
    refuse(QString(), error);
    rebuildColumns();
    // A plan that comes with its analysis (the report's) is shown as it is; any other is analysed.
    if (m_added.back().analysis)
        rebuild();
    else
        startAnalysis(id);
    return true;
}

void ComparePage::removePlan(int index)
{
    if (index < 1 || index >= planCount()) return;
    m_added.erase(m_added.begin() + (index - 1));
    refuse(QString(), nullptr);
    rebuildColumns();
}

void ComparePage::clearAddedPlans()
{
    m_added.clear();
    refuse(QString(), nullptr);
    rebuildColumns();
}

void ComparePage::addPlanInteractively()
{
    const QString start = m_document ? QFileInfo(m_document->filePath()).absolutePath() : QString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With Plan"), start,
        tr("PlanScope plans (*.plan.json *.json);;All files (*)"));
    if (!path.isEmpty()) addPlanFile(path);
}

void ComparePage::startAnalysis(quint64 id)
{
    auto it = std::find_if(m_added.begin(), m_added.end(), [id](const Added& a) { return a.id == id; });
    if (it == m_added.end()) return;
    const quint64 generation = ++it->generation;
    it->pending = true;
    AnalysisOptions options;
    options.inputWarnings = it->warnings;
    // The one analysis the document and every CLI verb run, off the GUI thread; a result for a plan removed or
    // analysed again meanwhile is dropped, so the newest wins.
    runThen(
        this, [plan = it->plan, options = std::move(options)] { return planscope::analyse(plan, options); },
        [this, id, generation](QFuture<std::shared_ptr<const Analysis>> done) {
            auto entry = std::find_if(m_added.begin(), m_added.end(), [id](const Added& a) { return a.id == id; });
            if (entry == m_added.end() || entry->generation != generation) return;
            std::shared_ptr<const Analysis> analysis = PlanDocument::analysisOrFailure(done, entry->plan, entry->warnings);
            entry->analysis = std::move(analysis);
            entry->pending = false;
            rebuild();
        });
}

bool ComparePage::isEvaluating() const
{
    return std::any_of(m_added.begin(), m_added.end(), [](const Added& a) { return a.pending; });
}

void ComparePage::waitForAnalyses()
{
    QElapsedTimer clock;
    clock.start();
    while (isEvaluating() && clock.elapsed() < 300000) {
        QEventLoop loop;
        connect(this, &ComparePage::comparisonChanged, &loop, &QEventLoop::quit);
        QTimer::singleShot(100, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

std::shared_ptr<const Analysis> ComparePage::analysis(int index) const
{
    if (index == 0) return m_document ? m_document->analysis() : m_first;
    if (index < 1 || index >= planCount()) return nullptr;
    return m_added[std::size_t(index - 1)].analysis;
}

QString ComparePage::shortName(int index) const
{
    if (index == 0) {
        if (!m_document && m_first)
            return m_firstName.isEmpty() ? QString::fromStdString(m_first->plan.name) : m_firstName;
        if (!m_document || !m_document->hasPlan()) return tr("no plan open");
        const QString name = QString::fromStdString(m_document->plan().name);
        return name.isEmpty() ? QFileInfo(m_document->filePath()).fileName() : name;
    }
    return index < planCount() ? m_added[std::size_t(index - 1)].name : QString();
}

QString ComparePage::planName(int index) const
{
    return QStringLiteral("%1: %2").arg(letter(index), shortName(index));
}

QString ComparePage::planFile(int index) const
{
    if (index == 0) return m_document ? m_document->filePath() : QString();
    return index < planCount() ? m_added[std::size_t(index - 1)].file : QString();
}

TimelineView* ComparePage::timelineView(int index) const
{
    return index >= 0 && index < int(m_columns.size()) ? m_columns[std::size_t(index)].timeline : nullptr;
}

MemoryBarsView* ComparePage::memoryView(int index) const
{
    return index >= 0 && index < int(m_columns.size()) ? m_columns[std::size_t(index)].memory : nullptr;
}

GpuGridView* ComparePage::gridView(int index) const
{
    return index >= 0 && index < int(m_columns.size()) ? m_columns[std::size_t(index)].grid : nullptr;
}

// --- building the page -------------------------------------------------------------------------------------------

void ComparePage::rebuildColumns()
{
    // The widgets of every plan, made again when the set of plans changes. Deleted later: a remove button is among
    // them, and its click may be what brought us here.
    m_columns.clear();
    for (QLayout* l : std::initializer_list<QLayout*> { m_chips, m_memory, m_grids, m_timelines })
        while (QLayoutItem* item = l->takeAt(0)) {
            if (QWidget* w = item->widget()) {
                w->hide();
                w->deleteLater();
            }
            delete item;
        }
    for (int i = 0; i < planCount(); ++i) {
        Column c;
        // Chip: colour, name, and for an added plan a remove button.
        c.chip = new QFrame(this);
        static_cast<QFrame*>(c.chip)->setFrameShape(QFrame::StyledPanel);
        auto* chip = new QHBoxLayout(c.chip);
        chip->setContentsMargins(6, 2, 4, 2);
        chip->setSpacing(6);
        auto* mark = new QLabel(c.chip);
        mark->setPixmap(swatch(i, 12));
        c.chipLabel = new ElidedLabel(c.chip);
        chip->addWidget(mark);
        chip->addWidget(c.chipLabel);
        if (i > 0) {
            c.remove = new QPushButton(tr("Remove"), c.chip);
            c.remove->setToolTip(tr("Take this plan out of the comparison"));
            chip->addWidget(c.remove);
            connect(c.remove, &QPushButton::clicked, this, [this, i] { removePlan(i); }, Qt::QueuedConnection);
        }
        m_chips->addWidget(c.chip);

        // Timeline: a caption line, then the view on the shared axis.
        c.timelineTitle = new QLabel(this);
        c.timeline = new TimelineView(this);
        c.timeline->setFitAllLanes(true); // no scroll bar: the stacked time areas stay the same width
        c.timeline->setFinalState(true);  // the whole step, never a moment of playback
        c.timeline->setMinimumHeight(90);
        m_timelines->addWidget(c.timelineTitle);
        m_timelines->addWidget(c.timeline, 1);

        // Memory and grid, each under a caption.
        auto* memoryBox = new QWidget(this);
        auto* mv = new QVBoxLayout(memoryBox);
        mv->setContentsMargins(0, 0, 0, 0);
        mv->setSpacing(0);
        ElidedLabel* memoryCaption = nullptr;
        mv->addWidget(caption(i, &memoryCaption, memoryBox));
        c.memory = new MemoryBarsView(memoryBox);
        c.memory->setCompact(true);
        c.memory->setMinimumHeight(280);
        mv->addWidget(c.memory, 1);
        memoryCaption->setObjectName(QStringLiteral("memoryCaption"));
        m_memory->addWidget(memoryBox, 1);

        auto* gridBox = new QWidget(this);
        auto* gv = new QVBoxLayout(gridBox);
        gv->setContentsMargins(0, 0, 0, 0);
        gv->setSpacing(0);
        ElidedLabel* gridCaption = nullptr;
        gv->addWidget(caption(i, &gridCaption, gridBox));
        c.grid = new GpuGridView(gridBox);
        c.grid->setCompact(true);
        c.grid->setColourBy(GridColour::PP);
        gv->addWidget(c.grid, 1);
        gridCaption->setObjectName(QStringLiteral("gridCaption"));
        m_grids->addWidget(gridBox, 1);
        m_columns.push_back(c);
    }
    m_addButton->setEnabled(planCount() < kMaxPlans);
    // Two plans: memory and grids side by side; more: one row each, so a slide stays as wide as the window.
    m_bottom->setDirection(planCount() > 2 ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    rebuild();
}

void ComparePage::rebuild()
{
    std::vector<const Prediction*> predictions;
    for (int i = 0; i < planCount(); ++i) {
        const std::shared_ptr<const Analysis> a = analysis(i);
        predictions.push_back(a ? &a->prediction : nullptr);
    }
    m_rows = compareRows(predictions);
    for (int i = 0; i < int(m_columns.size()); ++i) {
        const Column& c = m_columns[std::size_t(i)];
        // Whole names where they fit, elided in the middle where not (both ends say which plan), whole on hover.
        c.chipLabel->setFullText(planName(i) + (i == 0 && m_document ? tr(" (open plan)") : QString()));
        if (!planFile(i).isEmpty()) c.chipLabel->setToolTip(planName(i) + QLatin1Char('\n') + QDir::toNativeSeparators(planFile(i)));
        for (ElidedLabel* l : c.memory->parentWidget()->findChildren<ElidedLabel*>(QStringLiteral("memoryCaption")))
            l->setFullText(planName(i));
        for (ElidedLabel* l : c.grid->parentWidget()->findChildren<ElidedLabel*>(QStringLiteral("gridCaption")))
            l->setFullText(planName(i));
    }
    fillTable();
    fillWhy();
    updatePictures();
    Q_EMIT comparisonChanged();
}

QString ComparePage::rowLabel(const CompareRow& row)
{
    return figureLabel(row.label);
}

QString ComparePage::figureLabel(const Text& label)
{
    // Core's words (core/analysis/PlanCompare.cpp, headlineFigures()) as a row title: capitalised.
    QString text = CoreText::text(label);
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    return text;
}

QString ComparePage::valueText(const CompareRow& row, double value)
{
    return valueText(row.unit, value);
}

QString ComparePage::valueText(const std::string& unit, double value)
{
    if (unit == "s") return display::seconds(value);
    if (unit == "B") return display::gib(value); // GiB = 2^30 bytes, as every memory figure of the app
    if (unit == "tokens/s") return tr("%1 tokens/s").arg(QLocale().toString(value, 'f', 0));
    if (unit == "days") return tr("%1 days").arg(QLocale().toString(value, 'f', 2));
    return display::percent(value);
}

int ComparePage::tableRow(const QString& field) const
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (QTableWidgetItem* item = m_table->item(r, 0); item && item->data(Qt::UserRole).toString() == field) return r;
    return -1;
}

void ComparePage::fillTable()
{
    const int plans = planCount();
    m_table->clear();
    m_table->setColumnCount(1 + plans);
    m_table->setRowCount(int(m_rows.size()));
    auto* figure = new QTableWidgetItem(tr("Figure"));
    figure->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->setHorizontalHeaderItem(0, figure);
    for (int i = 0; i < plans; ++i) {
        auto* header = new QTableWidgetItem(QIcon(swatch(i, 12)), planName(i)); // elided in the middle by the header
        header->setToolTip(planFile(i).isEmpty() ? planName(i) : QDir::toNativeSeparators(planFile(i)));
        m_table->setHorizontalHeaderItem(1 + i, header);
    }
    // The better value: bold on a green tint (Okabe & Ito's bluish green, mixed into the background so the text
    // stays the theme's own colour in light and dark).
    const QColor tint = Theme::mix(Theme::background(), palette::bluishGreen(), Theme::isDark() ? 0.40 : 0.25);
    for (int r = 0; r < int(m_rows.size()); ++r) {
        const CompareRow& row = m_rows[std::size_t(r)];
        auto* label = new QTableWidgetItem(rowLabel(row));
        label->setData(Qt::UserRole, QString::fromStdString(row.field));
        label->setToolTip(row.lowerIsBetter ? tr("Lower is better") : tr("Higher is better"));
        label->setFlags(Qt::ItemIsEnabled);
        m_table->setItem(r, 0, label);
        for (int i = 0; i < plans && i < int(row.values.size()); ++i) {
            auto* cell = new QTableWidgetItem;
            cell->setFlags(Qt::ItemIsEnabled);
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            const auto& value = row.values[std::size_t(i)];
            const std::shared_ptr<const Analysis> a = analysis(i);
            if (!value) {
                const bool computing = i > 0 ? m_added[std::size_t(i - 1)].pending : (m_document && m_document->isEvaluating());
                cell->setText(!a || computing ? tr("computing…") : QStringLiteral("—"));
                if (a && !a->valid()) cell->setToolTip(tr("This plan cannot run:\n%1").arg(PlanDocument::describe(a->prediction.errors)));
                else if (a) cell->setToolTip(tr("This plan has no such figure"));
            } else if (i == row.best) {
                cell->setText(valueText(row, *value));
                cell->setFont(boldOf(m_table->font()));
                cell->setBackground(tint);
                cell->setForeground(Theme::text());
                cell->setToolTip(tr("best"));
                cell->setData(Qt::UserRole + 1, 1.0);
            } else {
                const auto& relative = row.relative[std::size_t(i)];
                cell->setText(relative ? tr("%1 (%2×)").arg(valueText(row, *value), QString::number(*relative, 'f', 2))
                                       : valueText(row, *value));
                if (relative) {
                    cell->setData(Qt::UserRole + 1, *relative);
                    cell->setToolTip(tr("%1× the best value (%2)")
                                         .arg(QString::number(*relative, 'f', 3), valueText(row, *row.values[std::size_t(row.best)])));
                }
            }
            if (value) cell->setData(Qt::UserRole, *value);
            m_table->setItem(r, 1 + i, cell);
        }
        // Per-stage rows only on request: the bars below show every stage.
        m_table->setRowHidden(r, row.field.rfind("memory.stages.", 0) == 0 && !m_stageRows->isChecked());
    }
    QHeaderView* header = m_table->horizontalHeader();
    header->setTextElideMode(Qt::ElideMiddle);
    header->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    for (int i = 0; i < plans; ++i) header->setSectionResizeMode(1 + i, QHeaderView::Stretch);
    m_table->resizeRowsToContents();
    // As tall as its rows: the table never scrolls, so a picture of the page shows every row.
    int height = header->sizeHint().height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (!m_table->isRowHidden(r)) height += m_table->rowHeight(r);
    m_table->setFixedHeight(height + 2);
}

void ComparePage::fillWhy()
{
    // The fastest plan against each other one: the step's terms (compute, the schedule's bubble, exposed
    // communication, the optimizer, and what the simulated step adds to them) from each prediction, and the one
    // that differs most named. Nothing is modelled here: these are the predictions' own fields.
    QStringList lines;
    const auto step = std::find_if(m_rows.begin(), m_rows.end(), [](const CompareRow& r) { return r.field == "time.stepSeconds"; });
    if (planCount() < 2) {
        lines << tr("Add a plan to compare with the open one: “Add plan…” above, File > Compare With…, or the planner's "
                    "“Compare with current”.");
    } else if (step == m_rows.end() || step->best < 0) {
        lines << (isEvaluating() ? tr("Computing…") : tr("No plan here can run, so none is faster."));
    } else {
        const int best = step->best;
        const std::shared_ptr<const Analysis> winner = analysis(best);
        struct Term {
            QString name;
            double (*get)(const Prediction&);
        };
        const Term terms[] = {
            { tr("compute"), [](const Prediction& p) { return p.computeSeconds; } },
            { tr("the pipeline bubble"), [](const Prediction& p) { return p.bubbleSeconds; } },
            { tr("exposed communication"), [](const Prediction& p) { return p.exposedCommSeconds; } },
            { tr("the optimizer step"), [](const Prediction& p) { return p.optimizerSeconds; } },
            { tr("the rest of the simulated step (waits, overlap)"),
                [](const Prediction& p) {
                    return p.stepSeconds - p.computeSeconds - p.bubbleSeconds - p.exposedCommSeconds - p.optimizerSeconds;
                } },
        };
        for (int i = 0; i < planCount(); ++i) {
            const std::shared_ptr<const Analysis> other = analysis(i);
            if (i == best || !other || !other->valid() || !step->relative[std::size_t(i)]) continue;
            const Prediction& w = winner->prediction;
            const Prediction& o = other->prediction;
            const Term* biggest = &terms[0];
            for (const Term& t : terms)
                if (std::abs(t.get(o) - t.get(w)) > std::abs(biggest->get(o) - biggest->get(w))) biggest = &t;
            QString line = tr("%1 is faster than %2 by %3× (step %4 vs %5); the biggest difference is %6: %7 vs %8.")
                               .arg(letter(best), letter(i), QString::number(*step->relative[std::size_t(i)], 'f', 2),
                                   display::seconds(w.stepSeconds), display::seconds(o.stepSeconds), biggest->name,
                                   display::seconds(biggest->get(w)), display::seconds(biggest->get(o)));
            if (w.peakBytes > o.peakBytes)
                line += QLatin1Char(' ')
                    + tr("%1 needs %2 more memory per GPU.").arg(letter(best), display::gib(double(w.peakBytes - o.peakBytes)));
            lines << line;
        }
        if (lines.isEmpty()) lines << tr("%1 is the only plan here that can run.").arg(letter(best));
    }
    m_why->setText(lines.join(QLatin1Char('\n')));
}

QString ComparePage::whyText() const
{
    return m_why->text();
}

void ComparePage::updatePictures()
{
    // Timelines on one axis: the longest step sets it, and the rank columns take the widest one's width.
    m_timeSpan = 0;
    for (int i = 0; i < int(m_columns.size()); ++i) {
        const Column& c = m_columns[std::size_t(i)];
        const std::shared_ptr<const Analysis> a = analysis(i);
        if (a && a->timeline) m_timeSpan = std::max(m_timeSpan, a->timeline->stepSeconds);
        // Without each rank's layers line: lanes this low would only show it cut.
        c.timeline->setTimeline(a ? a->timeline : nullptr, a ? a->timelineIndex : nullptr);
        c.timeline->setVisible(a && a->timeline);
        // Lanes of equal height across the plans: each view's share of the room follows its pipeline ranks.
        const int ranks = a && a->timeline ? std::max(1, a->plan.parallel.pp) : 1;
        m_timelines->setStretchFactor(c.timeline, ranks);
        // Room for every rank's lanes at their least height (the view squeezes them, never scrolls here).
        // A rank with its stream lanes (p2p, data parallel, ZeRO-3 gathers, optimizer) squeezed to their least
        // heights takes about 30 pixels.
        c.timeline->setMinimumHeight(std::clamp(44 + 30 * ranks, 90, 720));
        // The title runs across the page: the whole name up to a sentence's length, cut in the middle beyond.
        QString title = QStringLiteral("%1 — ").arg(shortened(planName(i), 120));
        c.timelineTitle->setToolTip(planName(i));
        if (!a)
            title += tr("computing…");
        else if (!a->valid())
            title += tr("cannot run: %1").arg(PlanDocument::describe(a->prediction.errors).section(QLatin1Char('\n'), 0, 0));
        else if (!a->timeline)
            title += tr("step %1, not simulated: %2")
                         .arg(display::seconds(a->stepSeconds()), PlanDocument::describe(a->timelineErrors).section(QLatin1Char('\n'), 0, 0));
        else
            title += tr("step %1").arg(display::seconds(a->stepSeconds()));
        c.timelineTitle->setText(QStringLiteral("<span style=\"color:%1\">■</span> <b>%2</b>")
                                     .arg(planColour(i).name(), title.toHtmlEscaped()));
    }
    int header = 0;
    for (const Column& c : m_columns) {
        c.timeline->setFixedTimeAxis(m_timeSpan, 0);
        header = std::max(header, c.timeline->headerWidth());
    }
    for (const Column& c : m_columns) c.timeline->setFixedTimeAxis(m_timeSpan, header);

    // Memory: one y scale, the highest of the charts'.
    m_memoryMax = 0;
    for (int i = 0; i < int(m_columns.size()); ++i) {
        const Column& c = m_columns[std::size_t(i)];
        const std::shared_ptr<const Analysis> a = analysis(i);
        c.memory->setSharedMaximumGiB(0);
        c.memory->setPrediction(a ? std::shared_ptr<const Prediction>(a, &a->prediction) : nullptr);
        if (a && a->valid()) m_memoryMax = std::max(m_memoryMax, c.memory->naturalMaximumGiB());
        c.grid->setAnalysis(a);
    }
    for (const Column& c : m_columns) c.memory->setSharedMaximumGiB(m_memoryMax);
}

// --- language, export --------------------------------------------------------------------------------------------

void ComparePage::retranslate()
{
    m_title->setText(tr("Compare plans"));
    m_addButton->setText(tr("Add plan…"));
    m_addButton->setToolTip(tr("Add a plan file to the comparison (at most %1 plans)").arg(kMaxPlans));
    m_stageRows->setText(tr("Rows per stage"));
    m_stageRows->setToolTip(tr("Show the peak memory of every pipeline stage in the table"));
    m_timelinesTitle->setText(tr("Simulated steps on one time axis (the longest sets it: a faster plan ends sooner)"));
    m_memoryTitle->setText(tr("Memory per GPU by pipeline stage, on one scale (GiB = 2³⁰ bytes)"));
    m_gridsTitle->setText(tr("GPUs, coloured by pipeline stage"));
    // The memory segments' colours once for all the charts beside each other.
    QStringList key;
    for (MemorySegment s : kMemorySegments)
        key << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2").arg(segmentColor(s).name(), segmentName(s).toHtmlEscaped());
    key << QStringLiteral("<span style=\"color:%1\">╌╌</span>&nbsp;%2")
               .arg(Theme::capacityLine().name(), tr("GPU capacity").toHtmlEscaped());
    // Two lines, so the key fits the memory column of a slide.
    const qsizetype half = (key.size() + 1) / 2;
    static_cast<QLabel*>(m_memoryKey)->setText(key.mid(0, half).join(QStringLiteral(" &nbsp; ")) + QStringLiteral("<br>")
        + key.mid(half).join(QStringLiteral(" &nbsp; ")));
}

void ComparePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        rebuildColumns();
    }
    QWidget::changeEvent(event);
}

bool ComparePage::exportTo(const QString& path, QSize size, QString* error)
{
    // The whole page: at the size asked for (or its own), never shorter than its content.
    const QSize old = this->size();
    QSize target = size.isValid() && !size.isEmpty() ? size : old;
    if (target.width() < 400 || target.height() < 300) target = QSize(1400, 900);
    target.setHeight(std::max(target.height(), minimumSizeHint().height()));
    if (target != old) resize(target);
    if (layout()) layout()->activate();
    // The charts replot after a resize on a queued event: drawn now, at the size the picture takes.
    QCoreApplication::sendPostedEvents();
    // The timelines lay their lanes out again at the heights they have now (a view laid out while its column was
    // still short keeps lanes squeezed to their least height otherwise).
    int header = 0;
    for (const Column& c : m_columns) header = std::max(header, c.timeline->headerWidth());
    for (const Column& c : m_columns) c.timeline->setFixedTimeAxis(m_timeSpan, header);
    for (const Column& c : m_columns) {
        c.memory->plot()->setViewport(c.memory->plot()->rect()); // a hidden page's resize events are still pending
        c.memory->plot()->replot(QCustomPlot::rpImmediateRefresh);
    }
    const bool ok = WidgetExporter::exportWidget(this, path, error);
    if (target != old) resize(old);
    return ok;
}

} // namespace planscope
