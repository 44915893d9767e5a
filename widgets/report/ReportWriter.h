// The report a team lead hands out (docs/FORMATS.md section 9): one document, PDF (paginated, A4 landscape) or HTML
// (one file, pictures inline), for one plan or several. For several plans the comparison comes first (the rows of
// compareRows(), the figures `planscope-cli compare` prints, then the Compare page's picture of up to four). Then, for each plan: its settings, the headline figures
// with their derivations (the formulas with the values put in, from the analysis' explanations), the warnings, and one
// page per view, each view drawn by its own page's export (WidgetExporter::Capture), so the report shows exactly what
// the app shows. The app's File > Export Report... and `planscope-cli report` both call write().
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace planscope {

struct Analysis;

// One plan of a report: its analysis, the very one the app shows (the document's, or the Compare page's), never
// computed again for the report.
struct ReportPlan {
    std::shared_ptr<const Analysis> analysis;
    QString label; // how the report names the plan (its file's name, or the plan's name)
    QString file;  // the plan's file, empty for one without a file
};

class ReportWriter {
    Q_DECLARE_TR_FUNCTIONS(ReportWriter)
public:
    // The views each plan gets a page of, in this order (the main window's page names). The Metrics view's content is
    // the report's text.
    static QStringList viewNames();
    // Their titles in the interface's language (the pages' own titles).
    static QString viewTitle(const QString& view);

    // Writes the report by the file's suffix, .pdf or .html. False and *error say why (no plans, a plan without an
    // analysis, a file that cannot be written). The pictures are drawn in the light theme whatever the app shows,
    // and the theme is put back.
    static bool write(const QString& path, const QList<ReportPlan>& plans, QString* error = nullptr);

    // The text of the report (comparison, settings, figures, derivations, warnings) as HTML, the part both formats
    // share: the PDF lays it out with QTextDocument, the HTML file holds it as it is.
    static QString textHtml(const QList<ReportPlan>& plans);

    // A plan file read and analysed here, as the app analyses the plan it opens (explanations, the file's warnings
    // kept): for `planscope-cli report`. False and *error (the field path or byte offset) on a file that cannot be read.
    static bool analyseFile(const QString& path, ReportPlan* plan, QString* error);
};

} // namespace planscope
