// The one exporter of pictures: PNG (a QImage), SVG (QSvgGenerator) and PDF (QPdfWriter, one page of the
// picture's size at 96 dpi), chosen by the file's suffix. Views that paint themselves hand it their painting
// function and get all three formats from the same code; pages made of widgets are rendered with
// exportWidget(), so text stays text in SVG and PDF.
#pragma once

#include <QColor>
#include <QPicture>
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

    // While a Capture lives (GUI thread), every export records its painting into the capture's QPicture instead of
    // writing the file: the report (widgets/report) takes each page's picture, as its exportTo() draws it, and
    // replays it onto a page of its own document, so text stays text and lines stay lines. Captures do not nest.
    class Capture {
    public:
        Capture();
        ~Capture();
        Capture(const Capture&) = delete;
        Capture& operator=(const Capture&) = delete;
        bool captured() const { return !m_size.isEmpty(); }
        const QPicture& picture() const { return m_picture; }
        QSize size() const { return m_size; } // the picture's logical size (the export's size)
        QColor background() const { return m_background; }

    private:
        friend class WidgetExporter;
        QPicture m_picture;
        QSize m_size;
        QColor m_background;
        Capture* m_previous = nullptr;
    };
};

} // namespace planscope
