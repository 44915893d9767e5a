#include "pages/ProfilePage.h"

#include "Palette.h"
#include "Theme.h"
#include "document/PlanDocument.h"
#include "document/RunThen.h"
#include "charts/LogTickers.h"
#include "charts/ReadOnlyTable.h"
#include "WidgetExporter.h"
#include "cost/Collective.h"
#include "io/PlanJson.h"
#include "util/Units.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <set>
#include <tuple>

namespace planscope {

namespace {
// Exit codes of planscope-profile (app/profile/main.cpp).
constexpr int kExitNoGpu = 3;

QColor curveColour(int i)
{
    static const QColor colours[] = { palette::blue(), palette::orange(), palette::bluishGreen(), palette::reddishPurple(),
        palette::vermillion(), palette::skyBlue() };
    return colours[i % 6];
}
} // namespace

ProfilePage::ProfilePage(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_status(new QLabel(this))
    , m_run(new QPushButton(this))
    , m_open(new QPushButton(this))
    , m_cancel(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_use(new QCheckBox(this))
    , m_anyGpu(new QCheckBox(this))
    , m_plot(new QCustomPlot(this))
    , m_gemm(new QTableWidget(this))
    , m_compare(new QTableWidget(this))
{
    // Never laid out at 0 x 0 (a hidden page): QCustomPlot would paint into a null buffer and warn.
    m_plot->setMinimumSize(160, 120);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status->setWordWrap(true);
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_use->setEnabled(false);
    m_anyGpu->setVisible(false);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_open);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_use);
    buttons->addWidget(m_anyGpu);

    auto* tables = new QVBoxLayout;
    auto* tablesBox = m_tablesBox = new QWidget(this);
    tablesBox->setLayout(tables);
    tables->setContentsMargins(0, 0, 0, 0);
    tables->addWidget(m_compare, 1);
    tables->addWidget(m_gemm, 1);
    for (QTableWidget* t : { m_gemm, m_compare }) setUpReadOnlyTable(t);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_plot);
    split->addWidget(tablesBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 3000, 2000 }); // the chart the wider part from the start (sizes are scaled to the width)

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    // Sizes in binary units as nccl-tests steps them; bandwidths at 1, 2, 5 of each decade.
    m_plot->xAxis->setTicker(QSharedPointer<BytesTicker>::create());
    m_plot->yAxis->setTicker(QSharedPointer<DecadeTicker>::create());
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    connect(Theme::instance(), &Theme::changed, this, &ProfilePage::rebuild);

    connect(m_run, &QPushButton::clicked, this, [this] { startProfiling(true); });
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Profile"), QString(),
            tr("PlanScope profiles and nccl-tests output (*.profile.json *.json *.txt *.log);;All files (*)"));
        if (!path.isEmpty()) openProfile(path);
    });
    connect(m_cancel, &QPushButton::clicked, this, &ProfilePage::cancelProfiling);
    connect(m_use, &QCheckBox::toggled, this, &ProfilePage::applyCalibration);
    connect(m_anyGpu, &QCheckBox::toggled, this, [this] {
        if (m_use->isChecked()) applyCalibration(true);
        compareAsync();
        rebuild();
    });
    connect(&m_process, &QProcess::readyReadStandardError, this, &ProfilePage::readProgress);
    connect(&m_process, &QProcess::finished, this, &ProfilePage::processFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_lastError = tr("planscope-profile could not be started: %1").arg(m_process.errorString());
            processFinished(-1, QProcess::CrashExit);
        }
    });
    retranslate();
}

ProfilePage::~ProfilePage()
{
    if (isProfiling()) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void ProfilePage::setDocument(PlanDocument* document)
{
    if (m_document) disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (document) {
        connect(document, &PlanDocument::predictionChanged, this, &ProfilePage::rebuild);
        // A calibration is fitted to the plan's GPU and links: a plan on another cluster or precision gets it fitted
        // again (or refused, on another GPU).
        const auto planChanged = [this] {
            if (m_use->isChecked() && m_document && m_document->hasPlan() && m_calibratedFor
                && !(m_calibratedFor->first == m_document->plan().cluster && m_calibratedFor->second == m_document->plan().training.precision))
                applyCalibration(true);
            compareAsync();
        };
        connect(document, &PlanDocument::planEdited, this, planChanged);
        connect(document, &PlanDocument::planReplaced, this, planChanged);
    }
    compareAsync();
    rebuild();
}

void ProfilePage::compareAsync()
{
    const quint64 generation = ++m_compareGeneration;
    m_before.reset();
    m_after.reset();
    if (!m_document || !m_document->hasPlan() || !m_profile) return;
    // Both sides through the one analysis (simulated step, as every view shows it), off the GUI thread.
    using Pair = std::pair<std::shared_ptr<const Analysis>, std::shared_ptr<const Analysis>>;
    runThen(
        this,
        [plan = m_document->plan(), profile = m_profile, rule = otherGpuRule()] {
            AnalysisOptions calibrated;
            calibrated.calibration = calibrationFromProfile(*profile, plan, rule);
            return Pair { analyse(plan), analyse(plan, calibrated) };
        },
        [this, generation](QFuture<Pair> done) {
        if (generation != m_compareGeneration) return; // an older plan or profile
        Pair result;
        try {
            result = done.result();
        } catch (...) {
            return; // the comparison stays empty; the document's own analysis says what failed
        }
        m_before = std::move(result.first);
        m_after = std::move(result.second);
        fillComparison();
        fitTablesWidth();
        Q_EMIT comparisonReady();
    });
}

QString ProfilePage::profilerPath()
{
    const QString local = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("planscope-profile"));
    if (QFileInfo(local).isExecutable()) return local;
    return QStandardPaths::findExecutable(QStringLiteral("planscope-profile"));
}

void ProfilePage::startProfiling(bool quick)
{
    if (isProfiling()) return;
    const QString program = profilerPath();
    if (program.isEmpty()) {
        m_lastError = tr("Profiling is unavailable: planscope-profile was not built, because CUDA and NCCL were not "
                         "found when PlanScope was compiled. Open a profile or nccl-tests output instead.");
        rebuild();
        Q_EMIT profilingFinished(false);
        return;
    }
    m_outputPath = QDir::temp().filePath(QStringLiteral("planscope-%1.profile.json").arg(QCoreApplication::applicationPid()));
    QStringList args { QStringLiteral("--out"), m_outputPath };
    if (quick) args.prepend(QStringLiteral("--quick"));
    m_lastError.clear();
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_cancel->setEnabled(true);
    m_run->setEnabled(false);
    m_status->setText(tr("Profiling this machine…"));
    m_process.start(program, args);
}

void ProfilePage::cancelProfiling()
{
    if (!isProfiling()) return;
    m_lastError = tr("Profiling cancelled.");
    m_process.kill();
}

void ProfilePage::readProgress()
{
    // "progress <fraction> <message>" lines; anything else is kept as the last message.
    while (m_process.canReadLine() || m_process.bytesAvailable() > 0) {
        const QString line = QString::fromUtf8(m_process.readLine()).trimmed();
        if (line.isEmpty()) break;
        if (line.startsWith(QLatin1String("progress "))) {
            const QString rest = line.mid(9);
            const int space = int(rest.indexOf(QLatin1Char(' ')));
            const double fraction = rest.left(space).toDouble();
            m_progress->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
            m_status->setText(space > 0 ? rest.mid(space + 1) : QString());
        } else {
            m_lastError = line;
        }
    }
}

void ProfilePage::processFinished(int exitCode, QProcess::ExitStatus status)
{
    readProgress();
    m_progress->setVisible(false);
    m_cancel->setEnabled(false);
    m_run->setEnabled(true);
    const bool ok = status == QProcess::NormalExit && exitCode == 0 && openProfile(m_outputPath);
    if (!ok && status == QProcess::NormalExit && exitCode == kExitNoGpu && m_lastError.isEmpty())
        m_lastError = tr("No GPU found on this machine.");
    if (!ok && m_lastError.isEmpty()) m_lastError = tr("planscope-profile failed (exit code %1).").arg(exitCode);
    rebuild();
    Q_EMIT profilingFinished(ok);
}

bool ProfilePage::openProfile(const QString& path)
{
    auto loaded = loadMeasurements(path.toStdString());
    if (!loaded) {
        m_lastError = tr("%1: %2").arg(QDir::toNativeSeparators(path), PlanDocument::describe(loaded.errors()));
        rebuild();
        return false;
    }
    m_lastError.clear();
    auto profile = std::make_shared<Profile>(std::move(loaded).value());
    setProfile(std::move(profile));
    return true;
}

void ProfilePage::setProfile(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    m_use->setEnabled(m_profile != nullptr);
    if (m_use->isChecked()) applyCalibration(true);
    compareAsync();
    rebuild();
    Q_EMIT profileChanged();
}

void ProfilePage::applyCalibration(bool on)
{
    if (!m_document) return;
    if (on && m_profile && m_document->hasPlan()) {
        const Plan& plan = m_document->plan();
        m_calibratedFor = std::make_pair(plan.cluster, plan.training.precision);
        m_document->setCalibration(std::make_shared<const Calibration>(calibrationFromProfile(*m_profile, plan, otherGpuRule())));
    } else {
        m_calibratedFor.reset();
        m_document->setCalibration(nullptr);
    }
}

OtherGpu ProfilePage::otherGpuRule() const
{
    return m_anyGpu->isChecked() ? OtherGpu::Apply : OtherGpu::Refuse;
}

QString ProfilePage::statusText() const
{
    return m_status->text();
}

int ProfilePage::curveCount() const
{
    return m_plot->graphCount();
}

QStringList ProfilePage::comparisonRows() const
{
    QStringList rows;
    for (int r = 0; r < m_compare->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m_compare->columnCount(); ++c) cells << (m_compare->item(r, c) ? m_compare->item(r, c)->text() : QString());
        rows << cells.join(QLatin1String(" | "));
    }
    return rows;
}

void ProfilePage::rebuild()
{
    m_plot->clearGraphs();
    styleCustomPlot(m_plot);
    m_gemm->clear();
    m_compare->clear();
    m_gemm->setRowCount(0);
    m_compare->setRowCount(0);
    if (!m_lastError.isEmpty())
        m_status->setText(m_lastError);
    else if (!m_profile)
        m_status->setText(profilerPath().isEmpty()
                ? tr("Profiling is unavailable in this build (no CUDA/NCCL at compile time). Open a profile or nccl-tests output.")
                : tr("Run a short profiling pass on this machine's GPUs, or open a profile or nccl-tests output."));
    else {
        QString status = tr("Profile of %1 (%2): %3 GPUs, %4 collective measurements, %5 GEMM shapes.")
                             .arg(QString::fromStdString(m_profile->host.empty() ? std::string("?") : m_profile->host),
                                 QString::fromStdString(m_profile->source))
                             .arg(m_profile->gpus.size())
                             .arg(m_profile->collectives.size())
                             .arg(m_profile->gemm.size());
        // What reading the file inferred or could not tell (rank and node counts, wrong results), first few in full.
        const Issues& warnings = m_profile->warnings;
        constexpr std::size_t kShown = 4;
        const Issues shown(warnings.begin(), warnings.begin() + std::ptrdiff_t(std::min(kShown, warnings.size())));
        if (!shown.empty()) status += QLatin1Char('\n') + PlanDocument::describe(shown);
        if (warnings.size() > kShown) status += QLatin1Char('\n') + tr("… and %n more warning(s).", "", int(warnings.size() - kShown));
        // The GPU it measured against the plan's: another GPU's measurements are refused unless applied anyway.
        const GpuIdentity gpu = m_document && m_document->hasPlan() ? compareProfileGpu(*m_profile, m_document->plan().cluster.gpu)
                                                                    : GpuIdentity {};
        const bool other = gpu.match == GpuIdentity::Match::Different;
        m_anyGpu->setVisible(other);
        if (other)
            status += QLatin1Char('\n')
                + (m_anyGpu->isChecked()
                        ? tr("Measured on %1, applied anyway to this plan's %2: its numbers may not describe this GPU.")
                        : tr("Measured on %1, not this plan's %2: not applied (tick \"Apply to another GPU\" to use it anyway)."))
                      .arg(QString::fromStdString(gpu.measured), QString::fromStdString(gpu.planned));
        m_status->setText(status);
    }
    m_plot->xAxis->setLabel(tr("Message size S (bytes)"));
    m_plot->yAxis->setLabel(tr("Bus bandwidth (GB/s, nccl-tests busBw)"));
    if (m_profile) {
        // One curve per measured (op, ranks, nodes): the busbw the file printed (out-of-place dots, in-place crosses),
        // the fitted alpha-beta model, and the plan's default link.
        int curve = 0;
        const auto group = [](const std::string& op, int ranks, int nodes) {
            const QString o = QString::fromStdString(op);
            if (ranks <= 0) return tr("%1, rank count unknown").arg(o);
            if (nodes > 1) return tr("%1 on %2 GPUs (%3 nodes)").arg(o).arg(ranks).arg(nodes);
            if (nodes == 1) return tr("%1 on %2 GPUs (one node)").arg(o).arg(ranks);
            return tr("%1 on %2 GPUs (nodes unknown)").arg(o).arg(ranks);
        };
        const auto addPoints = [&](const std::string& op, int ranks, int nodes, const QColor& colour) {
            QVector<double> xs, ys, ix, iy;
            for (const CollectiveSample& s : m_profile->collectives) {
                if (s.op != op || s.ranks != ranks || s.nodes != nodes || !(s.bytes > 0)) continue;
                // Bandwidths printed as 0.00 (the smallest sizes) have no place on the log axis.
                if (s.seconds > 0 && s.busBandwidth > 0) {
                    xs << s.bytes;
                    ys << s.busBandwidth / 1e9;
                }
                if (s.inPlace && s.inPlace->seconds > 0 && s.inPlace->busBandwidth > 0) {
                    ix << s.bytes;
                    iy << s.inPlace->busBandwidth / 1e9;
                }
            }
            QCPGraph* points = m_plot->addGraph();
            points->setName(tr("%1: measured").arg(group(op, ranks, nodes)));
            points->setLineStyle(QCPGraph::lsNone);
            points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, 5));
            points->setData(xs, ys);
            if (!ix.isEmpty()) {
                QCPGraph* inPlace = m_plot->addGraph();
                inPlace->setName(tr("in-place"));
                inPlace->setLineStyle(QCPGraph::lsNone);
                inPlace->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, colour, 6));
                inPlace->setData(ix, iy);
            }
            return xs;
        };
        for (const LinkFit& fit : m_profile->fits) {
            Collective c;
            if (!fromString(fit.op, c)) continue;
            const QColor colour = curveColour(curve++);
            const QVector<double> xs = addPoints(fit.op, fit.ranks, fit.nodes, colour);
            if (xs.isEmpty()) continue;
            const LinkSpec fitted { fit.busBandwidth, fit.alpha, 1.0 };
            QVector<double> fx, fy, dx, dy;
            const double lo = *std::min_element(xs.begin(), xs.end()), hi = *std::max_element(xs.begin(), xs.end());
            // The preset's link of the same class; none where the measurement's class is unknown. Across nodes the
            // group's rings run over all of its GPUs' NICs at once (ranks / nodes of them per node), as the
            // calibration counts them (core/calib/Calibration.cpp).
            LinkSpec def = m_document && m_document->hasPlan() && fit.linkClass != "unknown"
                ? (fit.linkClass == "inter" ? m_document->plan().cluster.interNode : m_document->plan().cluster.intraNode)
                : LinkSpec {};
            if (fit.linkClass == "inter") def.bandwidth *= std::max(1, fit.ranks / std::max(1, fit.nodes));
            // Every 1.5x from the smallest size, and the largest itself.
            QVector<double> sizes;
            for (double s = lo; s < hi; s *= 1.5) sizes << s;
            sizes << hi;
            for (double s : sizes) {
                const double factor = busBandwidthFactor(c, fit.ranks);
                fx << s;
                fy << factor * s / ringSeconds(c, fit.ranks, s, fitted) / 1e9;
                if (def.bandwidth > 0) {
                    dx << s;
                    dy << factor * s / ringSeconds(c, fit.ranks, s, def) / 1e9;
                }
            }
            QCPGraph* model = m_plot->addGraph();
            model->setName(tr("fit: α %1 µs, busBw %2 GB/s").arg(fit.alpha * 1e6, 0, 'f', 1).arg(fit.busBandwidth / 1e9, 0, 'f', 1));
            model->setPen(QPen(colour, 1.6));
            model->setData(fx, fy);
            if (!dx.isEmpty()) {
                QCPGraph* preset = m_plot->addGraph();
                preset->setName(tr("preset default"));
                preset->setPen(QPen(colour, 1.2, Qt::DashLine));
                preset->setData(dx, dy);
            }
        }
        // Rows no fit covers (the rank count was not told): their printed bandwidths still show.
        std::set<std::tuple<std::string, int, int>> unfitted;
        for (const CollectiveSample& s : m_profile->collectives) {
            bool fitted = false;
            for (const LinkFit& f : m_profile->fits) fitted |= f.op == s.op && f.ranks == s.ranks && f.nodes == s.nodes;
            if (!fitted) unfitted.insert({ s.op, s.ranks, s.nodes });
        }
        for (const auto& [op, ranks, nodes] : unfitted) addPoints(op, ranks, nodes, curveColour(curve++));
        m_plot->rescaleAxes();
        // A margin on the log axes so that the end points are not cut by the frame.
        for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
            const QCPRange r = axis->range();
            if (r.lower > 0 && r.upper > 0) axis->setRange(r.lower / 1.3, r.upper * 1.3);
        }
    }
    if (!m_profile && m_document && m_document->hasPlan()) {
        // Nothing measured yet: the model the predictions use now, so the page says what calibration would replace.
        const ClusterSpec& cl = m_document->plan().cluster;
        struct Curve {
            QString name;
            int n;
            LinkSpec link;
            QColor colour;
        };
        const Curve curves[] = {
            { tr("preset default: AllReduce on %1 GPUs in a node").arg(cl.gpusPerNode), cl.gpusPerNode, cl.intraNode, palette::blue() },
            { tr("preset default: AllReduce across %1 nodes, one GPU each").arg(std::max(2, cl.nodes)), std::max(2, cl.nodes),
                cl.interNode, palette::orange() },
        };
        for (const Curve& c : curves) {
            if (c.link.bandwidth <= 0 || c.n < 2) continue;
            QVector<double> xs, ys;
            for (double size = 8; size <= double(1ll << 30); size *= 2) {
                xs << size;
                ys << busBandwidthFactor(Collective::AllReduce, c.n) * size / ringSeconds(Collective::AllReduce, c.n, size, c.link) / 1e9;
            }
            QCPGraph* g = m_plot->addGraph();
            g->setName(c.name);
            g->setPen(QPen(c.colour, 1.6, Qt::DashLine));
            g->setData(xs, ys);
        }
        m_plot->rescaleAxes();
        m_compare->setColumnCount(2);
        m_compare->setHorizontalHeaderLabels({ tr("Preset value in use"), tr("Value") });
        const GpuSpec& gpu = cl.gpu;
        const std::pair<QString, QString> rows[] = {
            { tr("NVLink per GPU per direction"), tr("%1 GB/s × efficiency %2").arg(cl.intraNode.bandwidth / 1e9, 0, 'f', 0).arg(cl.intraNode.efficiency, 0, 'f', 2) },
            { tr("NVLink latency per step"), tr("%1 µs").arg(cl.intraNode.latency * 1e6, 0, 'f', 1) },
            { tr("Network per GPU per direction"), tr("%1 GB/s × efficiency %2").arg(cl.interNode.bandwidth / 1e9, 0, 'f', 1).arg(cl.interNode.efficiency, 0, 'f', 2) },
            { tr("Network latency per step"), tr("%1 µs").arg(cl.interNode.latency * 1e6, 0, 'f', 1) },
            { tr("GEMM efficiency (of the dense peak)"), gpu.gemmEfficiency > 0 ? QString::number(gpu.gemmEfficiency, 'f', 3) : tr("not measured (0.75 assumed)") },
            { tr("HBM bandwidth"), tr("%1 GB/s").arg(gpu.hbmBandwidth / 1e9, 0, 'f', 0) },
        };
        m_compare->setRowCount(int(std::size(rows)));
        int r = 0;
        for (const auto& [name, value] : rows) {
            m_compare->setItem(r, 0, readOnlyCell(name, Qt::AlignLeft | Qt::AlignVCenter));
            m_compare->setItem(r, 1, readOnlyCell(value, Qt::AlignLeft | Qt::AlignVCenter));
            ++r;
        }
    }
    m_gemm->setVisible(m_profile && !m_profile->gemm.empty());
    m_plot->legend->setVisible(m_plot->graphCount() > 0);
    if (m_profile) {
        // GEMM table.
        m_gemm->setColumnCount(6);
        m_gemm->setHorizontalHeaderLabels({ tr("m"), tr("n"), tr("k"), tr("dtype"), tr("TFLOP/s"), tr("of dense peak") });
        m_gemm->setRowCount(int(m_profile->gemm.size()));
        const double peak = m_document && m_document->hasPlan() ? m_document->plan().cluster.gpu.peakFlops.bf16 : 0.0;
        for (int r = 0; r < int(m_profile->gemm.size()); ++r) {
            const GemmSample& g = m_profile->gemm[std::size_t(r)];
            m_gemm->setItem(r, 0, readOnlyCell(QString::number(g.m)));
            m_gemm->setItem(r, 1, readOnlyCell(QString::number(g.n)));
            m_gemm->setItem(r, 2, readOnlyCell(QString::number(g.k)));
            m_gemm->setItem(r, 3, readOnlyCell(QString::fromStdString(g.dtype), Qt::AlignCenter));
            m_gemm->setItem(r, 4, readOnlyCell(QString::number(g.tflops, 'f', 1)));
            m_gemm->setItem(r, 5, readOnlyCell(peak > 0 && g.dtype == "bf16" ? QStringLiteral("%1 %").arg(g.tflops * 1e12 / peak * 100, 0, 'f', 1) : QStringLiteral("–")));
        }
    }
    fillComparison();
    fitTablesWidth();
    replotIfSized(m_plot);
}

void ProfilePage::fitTablesWidth()
{
    // The tables keep the width their contents need (up to half the page), the chart takes the rest: a value cell
    // such as "300 GB/s × efficiency 0.77" is never cut short.
    int widest = 0;
    for (const QTableWidget* t : { m_compare, m_gemm }) {
        if (t->isHidden() && t != m_compare) continue;
        const QFontMetrics fm(t->font());
        int w = 2 * t->frameWidth() + 4;
        for (int c = 0; c < t->columnCount(); ++c) {
            int column = t->horizontalHeader()->sectionSizeHint(c);
            for (int r = 0; r < t->rowCount(); ++r)
                if (const QTableWidgetItem* item = t->item(r, c)) column = std::max(column, fm.horizontalAdvance(item->text()) + 16);
            w += column;
        }
        widest = std::max(widest, w);
    }
    m_tablesBox->setMinimumWidth(std::min(widest, std::max(200, width() / 2)));
}

void ProfilePage::fillComparison()
{
    // Default vs calibrated, side by side, from the analyses compareAsync() published (without a profile the
    // table lists the preset values in use instead).
    if (!m_profile) return;
    m_compare->clear();
    m_compare->setRowCount(0);
    if (!m_before || !m_after || !m_before->valid() || !m_after->valid()) return;
    const Prediction& before = m_before->prediction;
    const Prediction& after = m_after->prediction;
    m_compare->setColumnCount(3);
    m_compare->setHorizontalHeaderLabels({ tr("Quantity"), tr("Preset defaults"), tr("Calibrated") });
    const std::pair<QString, std::pair<QString, QString>> rows[] = {
        { tr("Step time"), { QString::fromStdString(units::formatSeconds(before.stepSeconds)), QString::fromStdString(units::formatSeconds(after.stepSeconds)) } },
        { tr("MFU"), { QStringLiteral("%1 %").arg(before.mfu * 100, 0, 'f', 1), QStringLiteral("%1 %").arg(after.mfu * 100, 0, 'f', 1) } },
        { tr("Exposed communication"), { QString::fromStdString(units::formatSeconds(before.exposedCommSeconds)), QString::fromStdString(units::formatSeconds(after.exposedCommSeconds)) } },
        { tr("Training time"), { tr("%1 days").arg(before.trainingDays, 0, 'f', 1), tr("%1 days").arg(after.trainingDays, 0, 'f', 1) } },
    };
    m_compare->setRowCount(int(std::size(rows)));
    int r = 0;
    for (const auto& [name, values] : rows) {
        m_compare->setItem(r, 0, readOnlyCell(name, Qt::AlignLeft | Qt::AlignVCenter));
        m_compare->setItem(r, 1, readOnlyCell(values.first));
        m_compare->setItem(r, 2, readOnlyCell(values.second));
        ++r;
    }
}

bool ProfilePage::exportTo(const QString& path, QSize size, QString* error)
{
    if (size.isValid() && !size.isEmpty()) resize(size);
    return WidgetExporter::exportWidget(this, path, error);
}

void ProfilePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(event);
}

void ProfilePage::retranslate()
{
    m_title->setText(tr("Measure this machine: NCCL collectives, GEMM and HBM, fitted into the cost model"));
    m_run->setText(tr("Profile this machine…"));
    m_open->setText(tr("Open profile…"));
    m_cancel->setText(tr("Cancel"));
    m_use->setText(tr("Use this calibration"));
    m_anyGpu->setText(tr("Apply to another GPU"));
    rebuild();
}

QString ProfilePage::pageTitle() const
{
    return tr("Profile");
}

} // namespace planscope
