#include "WidgetExporter.h"
#include "WriteFailure.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

namespace planscope {

namespace {
WidgetExporter::Capture* g_capture = nullptr; // the innermost live capture (GUI thread only)
} // namespace

WidgetExporter::Capture::Capture()
    : m_previous(g_capture)
{
    g_capture = this;
}

WidgetExporter::Capture::~Capture()
{
    g_capture = m_previous;
}

QStringList WidgetExporter::supportedSuffixes()
{
    return { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf") };
}

bool WidgetExporter::exportPainted(const QString& path, QSize size, const Paint& paint, QString* error,
    const QString& title, const QColor& background)
{
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    const QString cannot = QCoreApplication::translate("WidgetExporter", "Cannot write %1").arg(path);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!supportedSuffixes().contains(suffix))
        return fail(QCoreApplication::translate("WidgetExporter", "Unknown file type \"%1\"; use one of: %2")
                        .arg(suffix, supportedSuffixes().join(QStringLiteral(", "))));
    if (size.isEmpty()) return fail(cannot);
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    if (g_capture) {
        QPicture picture;
        if (!paint(&picture, rect)) return fail(cannot);
        g_capture->m_picture = picture;
        g_capture->m_size = size;
        g_capture->m_background = background;
        return true;
    }
    // Drawn into memory first, then written beside the target and renamed over it when complete (QSaveFile): a
    // failed export, or one cut short, leaves the file that was there as it was. One write whose length is checked,
    // because the encoders do not all report a short write (a full disk, a file size limit).
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (suffix == QLatin1String("png")) {
            QImage image(size, QImage::Format_ARGB32_Premultiplied);
            image.fill(background.isValid() ? background : QColor(Qt::transparent));
            if (!paint(&image, rect) || !image.save(&buffer, "PNG")) return fail(cannot);
        } else if (suffix == QLatin1String("pdf")) {
            QPdfWriter writer(&buffer);
            writer.setCreator(QStringLiteral("PlanScope"));
            writer.setTitle(title.isEmpty() ? QStringLiteral("PlanScope") : title);
            // One page the picture's size at 96 dpi, so the PDF looks like the screen.
            writer.setResolution(96);
            writer.setPageSize(
                QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
            writer.setPageMargins(QMarginsF(0, 0, 0, 0));
            if (!paint(&writer, rect)) return fail(cannot);
        } else {
            QSvgGenerator generator;
            generator.setOutputDevice(&buffer);
            generator.setSize(size);
            generator.setViewBox(rect);
            generator.setResolution(96); // the SVG's size in pixels is the picture's
            generator.setTitle(title.isEmpty() ? QStringLiteral("PlanScope") : title);
            if (!paint(&generator, rect)) return fail(cannot);
        }
    }
    if (bytes.isEmpty()) return fail(QCoreApplication::translate("WidgetExporter", "Nothing was written to %1").arg(path));
    // A write that fails says why: a full disk, a read-only folder (WriteFailure.h).
    if (QString why; !saveBytes(path, bytes, &why)) return fail(cannot + QStringLiteral(": ") + why);
    return true;
}

bool WidgetExporter::exportWidget(QWidget* widget, const QString& path, QString* error)
{
    return exportPainted(
        path, widget->size(),
        [widget](QPaintDevice* device, const QRectF&) {
            QPainter painter;
            if (!painter.begin(device)) return false;
            widget->render(&painter);
            return painter.end();
        },
        error, widget->windowTitle());
}

} // namespace planscope
