// Saves a widget as it looks on screen: PNG through QWidget::grab(), PDF through QPdfWriter and SVG
// through QSvgGenerator, both by QWidget::render() so text stays text.
#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace planscope {

class WidgetExporter {
public:
    static QStringList supportedSuffixes(); // "png", "svg", "pdf"
    // Returns false and fills *error when the suffix is not supported or the file cannot be written.
    static bool exportWidget(QWidget* widget, const QString& path, QString* error = nullptr);
};

} // namespace planscope
