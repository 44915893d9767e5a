#include "pages/MemoryPage.h"

#include "charts/MemoryBarsView.h"
#include "charts/MemoryTimelineView.h"
#include "charts/ReadOnlyTable.h"
#include "CoreText.h"
#include "WidgetExporter.h"
#include "analysis/Analysis.h"
#include "trace/MemorySnapshot.h"
#include "util/Units.h"

#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <map>

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
    // A measured snapshot beside the prediction: the button, the stage it is set against, the table and its note.
    m_openSnapshot = new QPushButton(this);
    m_openSnapshot->setObjectName(QStringLiteral("openMemorySnapshot"));
    m_stageLabel = new QLabel(this);
    m_stage = new QSpinBox(this);
    m_stage->setRange(0, 0);
    top->addWidget(m_stageLabel);
    top->addWidget(m_stage);
    top->addWidget(m_openSnapshot);
    m_measured = new QTableWidget(0, 5, this);
    m_measured->setObjectName(QStringLiteral("measuredMemory"));
    setUpReadOnlyTable(m_measured);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_openSnapshot, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Memory Snapshot"), QString(),
            tr("PyTorch memory snapshots (*.pickle *.pkl);;All files (*)"));
        if (path.isEmpty()) return;
        QString error;
        if (!openSnapshot(path, &error)) QMessageBox::warning(this, tr("Cannot read the snapshot"), error);
    });
    connect(m_stage, &QSpinBox::valueChanged, this, [this] { rebuildMeasured(); });
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
    layout->addWidget(m_measured);
    layout->addWidget(m_note);
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
    m_analysis = analysis;
    rebuildMeasured();
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
    m_openSnapshot->setText(tr("Compare with a Memory Snapshot…"));
    m_openSnapshot->setToolTip(tr("A PyTorch CUDA memory snapshot (torch.cuda.memory._dump_snapshot): its allocated and reserved "
                                  "peaks beside the predicted memory of the chosen stage"));
    m_stageLabel->setText(tr("Stage"));
    m_measured->setAccessibleName(tr("Measured memory"));
    m_measured->setHorizontalHeaderLabels({ tr("Figure"), tr("Predicted"), tr("Measured"), tr("Difference"), tr("Difference (%)") });
    rebuildMeasured();
}

bool MemoryPage::openSnapshot(const QString& path, QString* error)
{
    auto read = loadMemorySnapshot(QFile::encodeName(path).toStdString());
    if (!read) {
        if (error) *error = CoreText::line(read.errors().front());
        return false;
    }
    m_snapshot = std::make_shared<const MemorySnapshot>(std::move(read).value());
    m_snapshotPath = path;
    // The stage a one-GPU fake-process-group run measures: global rank 0's.
    if (m_analysis && m_analysis->prediction.valid) m_stage->setValue(defaultMemoryCheckStage(*m_analysis));
    rebuildMeasured();
    return true;
}

QStringList MemoryPage::measuredRows() const
{
    return m_measured->isHidden() ? QStringList() : tableRowTexts(m_measured);
}

QString MemoryPage::measuredNote() const { return m_note->isHidden() ? QString() : m_note->text(); }

void MemoryPage::rebuildMeasured()
{
    const bool shown = m_snapshot && m_analysis && m_analysis->prediction.valid;
    m_measured->setVisible(shown);
    m_note->setVisible(m_snapshot != nullptr);
    m_stage->setVisible(m_snapshot != nullptr);
    m_stageLabel->setVisible(m_snapshot != nullptr);
    if (!m_snapshot) return;
    if (!shown) {
        m_note->setText(tr("The plan has no valid prediction to set the snapshot beside."));
        return;
    }
    m_stage->setRange(0, std::max(0, m_analysis->plan.parallel.pp - 1));
    const auto check = checkMemory(*m_analysis, *m_snapshot, m_stage->value(), -1);
    if (!check) {
        m_measured->hide();
        m_note->setText(CoreText::line(check.errors().front()));
        return;
    }
    const MemoryCheck& c = check.value();
    static const std::map<std::string, const char*> kFigures = { { "allocated", QT_TR_NOOP("Allocated (peak)") },
        { "reserved", QT_TR_NOOP("Reserved (peak)") }, { "fragmentation", QT_TR_NOOP("Reserved - allocated") },
        { "total", QT_TR_NOOP("Total on the GPU vs reserved") } };
    auto bytes = [](std::int64_t b) { return QString::fromStdString(units::formatBytes(double(b))); };
    m_measured->setRowCount(int(c.rows.size()));
    for (int r = 0; r < int(c.rows.size()); ++r) {
        const MemoryCheckRow& row = c.rows[std::size_t(r)];
        const auto figure = kFigures.find(row.figure);
        m_measured->setItem(r, 0, readOnlyCell(figure != kFigures.end() ? tr(figure->second) : QString::fromStdString(row.figure), Qt::AlignLeft | Qt::AlignVCenter));
        m_measured->setItem(r, 1, readOnlyCell(bytes(row.predictedBytes)));
        m_measured->setItem(r, 2, readOnlyCell(bytes(row.measuredBytes)));
        m_measured->setItem(r, 3, readOnlyCell(bytes(row.differenceBytes)));
        m_measured->setItem(r, 4, readOnlyCell(std::isfinite(row.differencePercent) ? QString::number(row.differencePercent, 'f', 1) : QStringLiteral("–")));
    }
    m_measured->setFixedHeight(m_measured->horizontalHeader()->height() + 2 * m_measured->frameWidth()
        + m_measured->verticalHeader()->length() + 2);
    m_note->setText(tr("%1, device %2, against stage %3: %4")
                        .arg(QFileInfo(m_snapshotPath).fileName())
                        .arg(c.device)
                        .arg(c.stage)
                        .arg(CoreText::text(c.peakNote)));
}

QString MemoryPage::pageTitle() const
{
    return tr("Memory");
}

} // namespace planscope
