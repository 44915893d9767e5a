// One palette for every view, legend and export (a colour means the same thing on every page and picture): Okabe & Ito's
// colour-blind-safe set (https://jfly.uni-koeln.de/color/), so deuteranopes and protanopes can tell the
// memory segments apart, and one red for "does not fit / crosses nodes".
#pragma once

#include <QColor>

namespace planscope::palette {

inline QColor orange()
{
    return QColor(0xE6, 0x9F, 0x00);
}
inline QColor skyBlue()
{
    return QColor(0x56, 0xB4, 0xE9);
}
inline QColor bluishGreen()
{
    return QColor(0x00, 0x9E, 0x73);
}
inline QColor yellow()
{
    return QColor(0xF0, 0xE4, 0x42);
}
inline QColor blue()
{
    return QColor(0x00, 0x72, 0xB2);
}
inline QColor vermillion()
{
    return QColor(0xD5, 0x5E, 0x00);
}
inline QColor reddishPurple()
{
    return QColor(0xCC, 0x79, 0xA7);
}
inline QColor grey()
{
    return QColor(0x99, 0x99, 0x99);
}

// Over capacity, a group that crosses nodes, an error: a darker red that stays readable as text.
inline QColor alarm()
{
    return QColor(0xC0, 0x1C, 0x00);
}
inline QColor capacityLine()
{
    return QColor(0x20, 0x20, 0x20);
}

} // namespace planscope::palette
