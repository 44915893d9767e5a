// The one exporter of pictures: PNG (a QImage), SVG (QSvgGenerator) and PDF (QPdfWriter, one page of the
// picture's size at 96 dpi), chosen by the file's suffix. Views that paint themselves hand it their painting
// function and get all three formats from the same code; pages made of widgets are rendered with
// exportWidget(), so text stays text in SVG and PDF.
#pragma once

#include <QColor>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>

class QPaintDevice;
class QWidget;

namespace planscope {

class WidgetExporter {
public:
    static QStringList supportedSuffixes(); // "png", "svg", "pdf"

    // Paints into a device of `size` logical pixels: `paint` opens its own painter on the device (a QPainter, or
    // QCustomPlot's QCPPainter) and returns false when it could not. PNGs are filled with `background` first
    // (transparent when invalid). Returns false and fills *error when the suffix is not supported, the painting
    // failed or nothing was written.
    using Paint = std::function<bool(QPaintDevice* device, const QRectF& rect)>;
    static bool exportPainted(const QString& path, QSize size, const Paint& paint, QString* error = nullptr,
        const QString& title = {}, const QColor& background = {});

    // A widget as it looks on screen, at its current size.
    static bool exportWidget(QWidget* widget, const QString& path, QString* error = nullptr);
};

} // namespace planscope
