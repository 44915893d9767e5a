// Helpers for tests that look at pictures (widget tests only: needs QtGui).
#pragma once

#include <QImage>
#include <QSet>

namespace planscope::test {

// Distinct colours in a coarse sample (every 7th pixel each way): a blank or one-colour picture has one or two.
inline int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    return int(colours.size());
}

} // namespace planscope::test
