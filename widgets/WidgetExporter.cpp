#include "WidgetExporter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace planscope {

QStringList WidgetExporter::supportedSuffixes()
{
    return { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf") };
}

bool WidgetExporter::exportWidget(QWidget* widget, const QString& path, QString* error)
{
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size = widget->size();
    if (suffix == QLatin1String("png")) {
        if (!widget->grab().save(path, "PNG"))
            return fail(QCoreApplication::translate("WidgetExporter", "Cannot write %1").arg(path));
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter writer(path);
        writer.setCreator(QStringLiteral("PlanScope"));
        // One page the widget's size at 96 dpi, so the PDF looks like the screen.
        writer.setResolution(96);
        writer.setPageSize(
            QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (!painter.begin(&writer))
            return fail(QCoreApplication::translate("WidgetExporter", "Cannot write %1").arg(path));
        widget->render(&painter);
        painter.end();
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setResolution(widget->logicalDpiX()); // so the SVG's size in pixels is the widget's
        generator.setTitle(QStringLiteral("PlanScope"));
        QPainter painter;
        if (!painter.begin(&generator))
            return fail(QCoreApplication::translate("WidgetExporter", "Cannot write %1").arg(path));
        widget->render(&painter);
        painter.end();
    } else {
        return fail(QCoreApplication::translate("WidgetExporter", "Unknown file type \"%1\"; use one of: %2")
                        .arg(suffix, supportedSuffixes().join(QStringLiteral(", "))));
    }
    if (QFileInfo(path).size() <= 0)
        return fail(QCoreApplication::translate("WidgetExporter", "Nothing was written to %1").arg(path));
    return true;
}

} // namespace planscope
