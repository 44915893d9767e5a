#include "ReportWriter.h"

#include "pages/PageRegistry.h"

#include "CoreText.h"
#include "Format.h"
#include "Theme.h"
#include "WidgetExporter.h"
#include "WriteFailure.h"
#include "analysis/PlanCompare.h"
#include "spec/PlanText.h"
#include "analysis/Analysis.h"
#include "document/PlanDocument.h"
#include "document/ViewState.h"
#include "pages/AnatomyPage.h"
#include "pages/CommView.h"
#include "pages/ComparePage.h"
#include "pages/GpuGridView.h"
#include "pages/MemoryPage.h"
#include "pages/SummaryPage.h"
#include "pages/TimelinePage.h"
#include "util/Units.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLocale>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QTimer>
#include <cmath>
#include <memory>
#include <string_view>

namespace planscope {

namespace {

// The pictures are laid out at a slide's size and scaled onto the page: text stays text in the PDF, so it stays
// sharp at any zoom.
constexpr QSize kViewSize(1500, 940);
constexpr int kPdfDpi = 96; // the pages' pixels are the screen's: a view's fonts keep their size relative to it

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

struct ViewPicture {
    QString view;
    QPicture picture;
    QSize size;
    // Where set, the picture as pixels (twice its size) rather than the recorded drawing: the Compare page, a window of
    // many child widgets whose clip regions a replayed QPicture does not keep.
    QImage image;
};

// The page that shows `view`, as the main window makes it (widgets/pages/PageRegistry.cpp), with a view state of its
// own.
std::unique_ptr<QWidget> makePage(const QString& view, Page** page)
{
    const PageKind* kind = pageKind(view);
    return kind ? std::unique_ptr<QWidget>(kind->make(nullptr, page)) : nullptr;
}

// Draws the view's page for the analysis, as its export would, into a picture.
bool capture(const std::shared_ptr<const Analysis>& analysis, const QString& view, ViewPicture* out, QString* error)
{
    Page* page = nullptr;
    const std::unique_ptr<QWidget> widget = makePage(view, &page);
    if (!widget) {
        if (error) *error = ReportWriter::tr("Unknown view \"%1\"").arg(view);
        return false;
    }
    ViewState state;
    if (analysis->timeline) state.setDuration(analysis->timeline->stepSeconds);
    widget->setAttribute(Qt::WA_DontShowOnScreen);
    page->setViewState(&state);
    page->setAnalysis(analysis);
    widget->resize(kViewSize);
    widget->show();
    QApplication::processEvents(); // pages lay out their content on the first show
    WidgetExporter::Capture captured;
    if (!page->exportTo(QStringLiteral("report.pdf"), kViewSize, error)) return false;
    if (!captured.captured()) {
        if (error) *error = ReportWriter::tr("The %1 view drew nothing").arg(ReportWriter::viewTitle(view));
        return false;
    }
    out->view = view;
    out->picture = captured.picture();
    out->size = captured.size();
    return true;
}

// The Compare page over the report's analyses, as the app shows it: the timelines on one time axis, the memory bars on
// one scale, the grids.
bool captureComparison(const QList<ReportPlan>& plans, ViewPicture* out, QString* error)
{
    ComparePage page;
    page.setAttribute(Qt::WA_DontShowOnScreen);
    page.showAnalysis(plans.front().analysis, plans.front().label);
    for (int i = 1; i < plans.size() && i < ComparePage::kMaxPlans; ++i)
        if (!page.addAnalysis(plans[i].analysis, plans[i].label, error)) return false;
    page.resize(kViewSize);
    page.show();
    // Laid out at the size it is drawn at (as tall as its content), and settled, before the picture is taken.
    page.resize(kViewSize.width(), std::max(kViewSize.height(), page.minimumSizeHint().height()));
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
    {
        // The page's own export prepares it (charts replotted, lanes laid out at their heights); its recording is
        // not used.
        WidgetExporter::Capture prepared;
        if (!page.exportTo(QStringLiteral("report.pdf"), page.size(), error)) return false;
    }
    out->view = QStringLiteral("compare");
    out->size = page.size();
    out->image = QImage(page.size() * 2, QImage::Format_ARGB32_Premultiplied);
    out->image.setDevicePixelRatio(2);
    out->image.fill(Qt::white);
    QPainter painter(&out->image);
    page.render(&painter);
    return painter.end();
}

// ---- the text -------------------------------------------------------------------------------------------------

QString comparisonHtml(const QList<ReportPlan>& plans)
{
    std::vector<const Prediction*> predictions;
    for (const ReportPlan& p : plans) predictions.push_back(&p.analysis->prediction);
    QString html = QStringLiteral("<h1>%1</h1>").arg(esc(ReportWriter::tr("Comparison of %n plans", nullptr, int(plans.size()))));
    html += QStringLiteral("<p>%1</p>")
                .arg(esc(ReportWriter::tr("The best value of each row is in bold on green; every other value is "
                                          "followed by its ratio to the best.")));
    html += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><tr><th align=\"left\">%1</th>")
                .arg(esc(ReportWriter::tr("Figure")));
    for (const ReportPlan& p : plans) html += QStringLiteral("<th>%1</th>").arg(esc(p.label));
    html += QStringLiteral("</tr>");
    for (const CompareRow& row : compareRows(predictions)) {
        html += QStringLiteral("<tr><td>%1</td>").arg(esc(ComparePage::rowLabel(row)));
        for (std::size_t i = 0; i < row.values.size(); ++i) {
            if (!row.values[i]) {
                html += QStringLiteral("<td align=\"right\">—</td>");
                continue;
            }
            QString cell = esc(ComparePage::valueText(row, *row.values[i]));
            if (int(i) == row.best) {
                html += QStringLiteral("<td align=\"right\" bgcolor=\"#d8efd8\"><b>%1</b></td>").arg(cell);
                continue;
            }
            if (i < row.relative.size() && row.relative[i])
                cell += QStringLiteral(" (%1×)").arg(*row.relative[i], 0, 'f', 2);
            html += QStringLiteral("<td align=\"right\">%1</td>").arg(cell);
        }
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    return html;
}

QString settingsHtml(const Plan& plan, const Prediction& p)
{
    const ParallelSpec& par = plan.parallel;
    const TrainingSpec& t = plan.training;
    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(esc(k), esc(v));
    };
    auto s = [](std::string_view v) { return QString::fromUtf8(v.data(), qsizetype(v.size())); };
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">");
    html += row(ReportWriter::tr("Model"),
        ReportWriter::tr("%1: %2 parameters, %3 layers, hidden %4, %5 heads, sequence %6")
            .arg(QString::fromStdString(plan.model.name), display::count(p.paramsTotal))
            .arg(plan.model.layers)
            .arg(plan.model.hidden)
            .arg(plan.model.heads)
            .arg(plan.model.seqLength));
    html += row(ReportWriter::tr("Cluster"),
        ReportWriter::tr("%1 × %2 (%3 nodes of %4), %5 each")
            .arg(plan.cluster.gpus())
            .arg(QString::fromStdString(plan.cluster.gpu.name.empty() ? plan.cluster.gpu.id : plan.cluster.gpu.name))
            .arg(plan.cluster.nodes)
            .arg(plan.cluster.gpusPerNode)
            .arg(display::gib(double(plan.cluster.gpu.memoryBytes), 0)));
    html += row(ReportWriter::tr("Parallel degrees"), CoreText::text(degreesText(par)));
    html += row(ReportWriter::tr("Schedule"),
        ReportWriter::tr("%1, %2 microbatches, micro-batch size %3, global batch %4")
            .arg(s(toString(t.schedule)))
            .arg(p.microbatches)
            .arg(t.microBatch)
            .arg(t.globalBatch));
    html += row(ReportWriter::tr("Training"),
        ReportWriter::tr("%1, %2 optimizer, recompute %3, flash attention %4, %5 tokens")
            .arg(s(toString(t.precision)), s(toString(t.optimizer)), s(toString(t.recompute)),
                t.flashAttention ? ReportWriter::tr("on") : ReportWriter::tr("off"), display::count(t.tokens)));
    html += QStringLiteral("</table>");
    return html;
}

QString figuresHtml(const Prediction& p)
{
    auto row = [](const QString& k, const QString& v, const QString& field) {
        return QStringLiteral("<tr><td>%1</td><td align=\"right\"><b>%2</b></td><td><tt>%3</tt></td></tr>")
            .arg(esc(k), esc(v), esc(field));
    };
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">%1</th>"
                                  "<th>%2</th><th align=\"left\">%3</th></tr>")
                       .arg(esc(ReportWriter::tr("Figure")), esc(ReportWriter::tr("Value")),
                           esc(ReportWriter::tr("Field (planscope-cli evaluate)")));
    // The headline figures, the one list (core/analysis/PlanCompare.h), in the words and units the Compare page uses.
    for (const HeadlineFigure& f : headlineFigures()) {
        QString value = ComparePage::valueText(f.unit, f.value(p));
        if (std::string_view(f.field) == "memory.peakBytes")
            value = ReportWriter::tr("%1 of %2 (%3)")
                        .arg(value, display::gib(double(p.capacityBytes)),
                            p.fits ? ReportWriter::tr("fits") : ReportWriter::tr("does not fit"));
        html += row(ComparePage::figureLabel(Text(f.label)), value, QString::fromLatin1(f.field));
    }
    html += QStringLiteral("</table>");
    return html;
}

// The derivations of the headline figures: each formula, its inputs and the formula with the values put in, as the
// Metrics page and `planscope-cli explain` print them.
QString derivationsHtml(const Explainer& explainer)
{
    // The step and the peak memory with the terms they add up (one level), the others alone: each term is printed
    // once.
    static const std::pair<const char*, int> fields[] = { { "time.stepSeconds", 1 }, { "time.bubbleFraction", 0 },
        { "time.bubbleOverhead", 0 }, { "time.exposedCommSeconds", 0 }, { "time.mfu", 0 },
        { "time.tokensPerSecond", 0 }, { "time.trainingDays", 0 }, { "memory.peakBytes", 1 }, { "params.total", 0 },
        { "flops.modelPerToken", 0 } };
    QString html;
    for (const auto& [field, depth] : fields) {
        if (!explainer.find(field)) continue;
        // A paragraph a line, so the PDF's pages break between lines (QTextDocument keeps a block on one page only
        // when it fits) and pdftotext reads each line once.
        html += QStringLiteral("<div class=\"derivation\">");
        for (const QString& line : CoreText::explanation(explainer, field, depth).trimmed().split(QLatin1Char('\n')))
            html += QStringLiteral("<p class=\"formula\">%1</p>").arg(esc(line));
        html += QStringLiteral("</div>");
    }
    return html;
}

QString planHtml(const ReportPlan& rp)
{
    const auto& analysis = rp.analysis;
    QString html = QStringLiteral("<h1>%1</h1>").arg(esc(rp.label));
    const QString description = QString::fromStdString(analysis->plan.description);
    if (!description.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(esc(description));
    if (!rp.file.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(esc(ReportWriter::tr("File: %1").arg(rp.file)));
    const Prediction& p = analysis->prediction;
    html += QStringLiteral("<h2>%1</h2>").arg(esc(ReportWriter::tr("Settings")));
    html += settingsHtml(analysis->plan, p);
    if (!p.valid) {
        html += QStringLiteral("<h2>%1</h2><ul>").arg(esc(ReportWriter::tr("Why the plan cannot run")));
        for (const Issue& issue : p.errors)
            html += QStringLiteral("<li><tt>%1</tt>: %2</li>")
                        .arg(esc(QString::fromStdString(issue.path)), esc(CoreText::text(issue)));
        return html + QStringLiteral("</ul>");
    }
    html += QStringLiteral("<h2>%1</h2>").arg(esc(ReportWriter::tr("Headline figures")));
    html += figuresHtml(p);
    if (analysis->explainer) {
        html += QStringLiteral("<h2>%1</h2>").arg(esc(ReportWriter::tr("How they are computed")));
        html += derivationsHtml(*analysis->explainer);
    }
    html += QStringLiteral("<h2>%1</h2>").arg(esc(ReportWriter::tr("Warnings and assumptions")));
    if (p.warnings.empty()) {
        html += QStringLiteral("<p>%1</p>").arg(esc(ReportWriter::tr("None.")));
    } else {
        html += QStringLiteral("<ul>");
        for (const Issue& w : p.warnings) html += QStringLiteral("<li>%1</li>").arg(esc(CoreText::line(w)));
        html += QStringLiteral("</ul>");
    }
    return html;
}

QString headerLine(const QList<ReportPlan>& plans)
{
    QStringList labels;
    for (const ReportPlan& p : plans) labels << p.label;
    return ReportWriter::tr("PlanScope report · %1 · %2")
        .arg(labels.join(QStringLiteral(", ")), QLocale().toString(QDateTime::currentDateTime(), QLocale::ShortFormat));
}

// ---- PDF ------------------------------------------------------------------------------------------------------

class PdfPages {
public:
    PdfPages(QPdfWriter* writer, QPainter* painter, QString header)
        : m_writer(writer)
        , m_painter(painter)
        , m_header(std::move(header))
    {
        const QRect paint = writer->pageLayout().paintRectPixels(writer->resolution());
        m_width = paint.width();
        m_height = paint.height();
        QFont small = QApplication::font();
        small.setPointSizeF(7.5);
        m_small = small;
        m_bandHeight = QFontMetrics(small, writer).height() + 6;
    }

    // The area below the header and above the footer.
    QRectF content() const { return QRectF(0, m_bandHeight, m_width, m_height - 2 * m_bandHeight); }

    void beginPage()
    {
        if (m_pages > 0) m_writer->newPage();
        ++m_pages;
        m_painter->save();
        m_painter->setFont(m_small);
        m_painter->setPen(QColor(0x55, 0x55, 0x55));
        m_painter->drawText(QRectF(0, 0, m_width, m_bandHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
            m_header);
        m_painter->drawLine(QPointF(0, m_bandHeight - 2), QPointF(m_width, m_bandHeight - 2));
        m_painter->drawText(QRectF(0, m_height - m_bandHeight + 4, m_width, m_bandHeight - 4),
            Qt::AlignRight | Qt::AlignVCenter, ReportWriter::tr("page %1").arg(m_pages));
        m_painter->restore();
    }

    // The text, over as many pages as it takes (QTextDocument breaks lines and table rows at the page's edge).
    void text(const QString& html)
    {
        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(m_writer);
        QFont font = QApplication::font();
        font.setPointSizeF(9);
        doc.setDefaultFont(font);
        doc.setDefaultStyleSheet(QStringLiteral("h1 { font-size: 15pt; } h2 { font-size: 11.5pt; } "
                                                "p.formula { font-family: 'DejaVu Sans Mono', monospace; font-size: 7.5pt; "
                                                "white-space: pre-wrap; margin: 0; } th { background-color: #eeeeee; }"));
        doc.setDocumentMargin(0);
        doc.setHtml(html);
        const QRectF area = content();
        doc.setPageSize(area.size());
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette.setColor(QPalette::Text, Qt::black);
        for (int i = 0; i < doc.pageCount(); ++i) {
            beginPage();
            m_painter->save();
            m_painter->translate(area.topLeft() - QPointF(0, i * area.height()));
            context.clip = QRectF(0, i * area.height(), area.width(), area.height());
            m_painter->setClipRect(context.clip);
            doc.documentLayout()->draw(m_painter, context);
            m_painter->restore();
        }
    }

    // A view's picture on one page: a title, then the picture scaled to the page's width (or height).
    void picture(const QString& title, const ViewPicture& view)
    {
        beginPage();
        QRectF area = content();
        QFont heading = QApplication::font();
        heading.setPointSizeF(12);
        heading.setBold(true);
        const qreal titleHeight = QFontMetricsF(heading, m_writer).height() + 6;
        m_painter->save();
        m_painter->setFont(heading);
        m_painter->setPen(Qt::black);
        m_painter->drawText(QRectF(area.left(), area.top() + 2, area.width(), titleHeight), Qt::AlignLeft | Qt::AlignTop, title);
        m_painter->restore();
        area.setTop(area.top() + titleHeight + 4);
        // Scaled to the page; a picture much taller than the page (the comparison of four deep pipelines) is
        // drawn at the page's width over as many pages as it takes, cut between slices of the page's height.
        const qreal byWidth = area.width() / view.size.width();
        const qreal byHeight = area.height() / view.size.height();
        const bool slices = byHeight < 0.7 * byWidth;
        const qreal scale = slices ? byWidth : std::min(byWidth, byHeight);
        const qreal sliceHeight = area.height() / scale; // picture pixels a page shows
        const int count = slices ? int(std::ceil(view.size.height() / sliceHeight - 1e-6)) : 1;
        for (int slice = 0; slice < count; ++slice) {
            if (slice > 0) {
                beginPage();
                area = content();
            }
            const qreal top = slice * sliceHeight;
            const qreal shown = std::min(sliceHeight, view.size.height() - top);
            const QSizeF drawn(view.size.width() * scale, shown * scale);
            const QPointF origin(area.left() + (area.width() - drawn.width()) / 2, area.top());
            m_painter->save();
            m_painter->translate(origin);
            m_painter->scale(scale, scale);
            if (slices) m_painter->setClipRect(QRectF(0, 0, view.size.width(), shown));
            m_painter->translate(0, -top);
            if (view.image.isNull()) {
                m_painter->drawPicture(0, 0, view.picture);
            } else {
                m_painter->setRenderHint(QPainter::SmoothPixmapTransform);
                m_painter->drawImage(QRectF(0, 0, view.size.width(), view.size.height()), view.image);
            }
            m_painter->restore();
            m_painter->save();
            m_painter->setPen(QColor(0xbb, 0xbb, 0xbb));
            m_painter->drawRect(QRectF(origin, drawn));
            m_painter->restore();
        }
    }

    int pages() const { return m_pages; }

private:
    QPdfWriter* m_writer;
    QPainter* m_painter;
    QString m_header;
    QFont m_small;
    qreal m_width = 0, m_height = 0, m_bandHeight = 0;
    int m_pages = 0;
};

QString viewHeading(const ReportPlan& plan, const QString& view)
{
    return ReportWriter::tr("%1 — %2").arg(ReportWriter::viewTitle(view), plan.label);
}

bool writePdf(const QString& path, const QList<ReportPlan>& plans, const std::vector<std::vector<ViewPicture>>& pictures,
    const ViewPicture* comparison, QString* error)
{
    // Drawn into memory, then written beside the target and renamed over it when complete (saveBytes()), so a failed
    // report leaves the old file as it was.
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("PlanScope"));
        QStringList labels;
        for (const ReportPlan& p : plans) labels << p.label;
        writer.setTitle(ReportWriter::tr("PlanScope report: %1").arg(labels.join(QStringLiteral(", "))));
        writer.setResolution(kPdfDpi);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(12, 10, 12, 10),
            QPageLayout::Millimeter));
        QPainter painter;
        if (!painter.begin(&writer)) {
            if (error) *error = ReportWriter::tr("Cannot write %1").arg(path);
            return false;
        }
        PdfPages pages(&writer, &painter, headerLine(plans));
        if (plans.size() > 1) pages.text(comparisonHtml(plans));
        if (comparison) pages.picture(ReportWriter::viewTitle(QStringLiteral("compare")), *comparison);
        for (int i = 0; i < plans.size(); ++i) {
            pages.text(planHtml(plans[i]));
            for (const ViewPicture& view : pictures[std::size_t(i)]) pages.picture(viewHeading(plans[i], view.view), view);
        }
        painter.end();
    }
    if (QString why; !saveBytes(path, bytes, &why)) {
        if (error) *error = ReportWriter::tr("Cannot write %1: %2").arg(path, why);
        return false;
    }
    return true;
}

// ---- HTML -----------------------------------------------------------------------------------------------------

QByteArray svgOf(const ViewPicture& view)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(view.size);
    generator.setViewBox(QRect(QPoint(0, 0), view.size));
    generator.setResolution(kPdfDpi);
    QPainter painter;
    if (!painter.begin(&generator)) return {};
    painter.drawPicture(0, 0, view.picture);
    painter.end();
    return buffer.data();
}

// An inline picture for the HTML file: SVG where the view was recorded, PNG where it was drawn as pixels.
QString dataUri(const ViewPicture& view)
{
    if (view.image.isNull())
        return QStringLiteral("data:image/svg+xml;base64,") + QString::fromLatin1(svgOf(view).toBase64());
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    view.image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(buffer.data().toBase64());
}

bool writeHtml(const QString& path, const QList<ReportPlan>& plans, const std::vector<std::vector<ViewPicture>>& pictures,
    const ViewPicture* comparison, QString* error)
{
    QStringList labels;
    for (const ReportPlan& p : plans) labels << p.label;
    QString html = QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\"><head><meta charset=\"utf-8\"><title>%2</title>\n"
                                  "<style>body{font-family:'DejaVu Sans',sans-serif;font-size:11pt;max-width:1200px;margin:2em auto;"
                                  "color:#1a1a1a;background:#fff} table{border-collapse:collapse} td,th{border:1px solid #bbb;"
                                  "padding:3px 6px} th{background:#eee} p.formula{font-family:'DejaVu Sans Mono',monospace;font-size:9pt;white-space:pre-wrap;margin:0}"
                                  " .derivation{background:#f6f6f6;padding:6px;margin:6px 0}"
                                  " .view{page-break-before:always;margin-top:2em} .view img{width:100%;border:1px solid #ccc}"
                                  " header{color:#555;font-size:9pt;border-bottom:1px solid #ccc;margin-bottom:1em}</style>"
                                  "</head><body>\n")
                       .arg(QLocale().name() == QLatin1String("zh_CN") ? QStringLiteral("zh-CN") : QStringLiteral("en"),
                           esc(ReportWriter::tr("PlanScope report: %1").arg(labels.join(QStringLiteral(", ")))));
    html += QStringLiteral("<header>%1</header>\n").arg(esc(headerLine(plans)));
    if (plans.size() > 1) html += comparisonHtml(plans) + QLatin1Char('\n');
    if (comparison)
        html += QStringLiteral("<section class=\"view\"><h2>%1</h2><img alt=\"%1\" src=\"%2\"></section>\n")
                    .arg(esc(ReportWriter::viewTitle(QStringLiteral("compare"))), dataUri(*comparison));
    for (int i = 0; i < plans.size(); ++i) {
        html += QStringLiteral("<section>%1</section>\n").arg(planHtml(plans[i]));
        for (const ViewPicture& view : pictures[std::size_t(i)]) {
            const QByteArray svg = svgOf(view);
            html += QStringLiteral("<section class=\"view\"><h2>%1</h2><img alt=\"%1\" src=\"data:image/svg+xml;base64,%2\"></section>\n")
                        .arg(esc(viewHeading(plans[i], view.view)), QString::fromLatin1(svg.toBase64()));
        }
    }
    html += QStringLiteral("</body></html>\n");
    if (QString why; !saveBytes(path, html.toUtf8(), &why)) {
        if (error) *error = ReportWriter::tr("Cannot write %1: %2").arg(path, why);
        return false;
    }
    return true;
}

// The light theme while the pictures are drawn (a report is printed on white), the user's afterwards.
class LightTheme {
public:
    LightTheme()
        : m_mode(Theme::instance()->mode())
    {
        if (m_mode != ThemeMode::Light) Theme::instance()->setMode(ThemeMode::Light);
    }
    ~LightTheme()
    {
        if (m_mode != ThemeMode::Light) Theme::instance()->setMode(m_mode);
    }

private:
    ThemeMode m_mode;
};

} // namespace

QStringList ReportWriter::viewNames()
{
    // The Metrics view is the report's text (its figures, derivations and warnings), searchable and at full width
    // rather than a screen's picture shrunk to a page.
    QStringList names;
    for (const PageKind& kind : pageKinds())
        if (kind.inReport) names << QLatin1String(kind.name);
    return names;
}

QString ReportWriter::viewTitle(const QString& view)
{
    Page* page = nullptr;
    const std::unique_ptr<QWidget> widget = makePage(view, &page);
    return page ? page->pageTitle() : view;
}

QString ReportWriter::textHtml(const QList<ReportPlan>& plans)
{
    QString html;
    if (plans.size() > 1) html += comparisonHtml(plans);
    for (const ReportPlan& p : plans)
        if (p.analysis) html += planHtml(p);
    return html;
}

bool ReportWriter::write(const QString& path, const QList<ReportPlan>& plans, QString* error)
{
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") && suffix != QLatin1String("htm"))
        return fail(tr("A report is written as .pdf or .html; got \"%1\"").arg(path));
    if (plans.isEmpty()) return fail(tr("No plan to report on"));
    for (const ReportPlan& p : plans)
        if (!p.analysis) return fail(tr("The plan %1 has not been analysed").arg(p.label));

    const LightTheme light;
    std::vector<std::vector<ViewPicture>> pictures(std::size_t(plans.size()));
    for (int i = 0; i < plans.size(); ++i) {
        if (!plans[i].analysis->prediction.valid) continue; // its page says why; views would only repeat it
        for (const QString& view : viewNames()) {
            ViewPicture picture;
            QString why;
            if (!capture(plans[i].analysis, view, &picture, &why))
                return fail(tr("Cannot draw the %1 view of %2: %3").arg(viewTitle(view), plans[i].label, why));
            pictures[std::size_t(i)].push_back(std::move(picture));
        }
    }
    // Several plans: the Compare page's picture after the comparison table.
    ViewPicture comparison;
    const bool compared = plans.size() > 1;
    if (compared) {
        QString why;
        if (!captureComparison(plans, &comparison, &why)) return fail(tr("Cannot draw the comparison: %1").arg(why));
    }
    const ViewPicture* shown = compared ? &comparison : nullptr;
    return suffix == QLatin1String("pdf") ? writePdf(path, plans, pictures, shown, error)
                                          : writeHtml(path, plans, pictures, shown, error);
}

bool ReportWriter::analyseFile(const QString& path, ReportPlan* plan, QString* error)
{
    Result<LoadedPlan> loaded = loadPlanFile(QFile::encodeName(path).toStdString());
    if (!loaded) {
        if (error) *error = PlanDocument::describe(loaded.errors());
        return false;
    }
    plan->analysis = analyse(loaded->plan, PlanDocument::analysisOptions(loaded->warnings)); // as the app opens it
    const QString name = QString::fromStdString(loaded->plan.name);
    plan->label = name.isEmpty() ? QFileInfo(path).fileName() : name;
    plan->file = QFileInfo(path).absoluteFilePath();
    return true;
}

} // namespace planscope
