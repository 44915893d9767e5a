// Numbers as the interface writes them: the one place views turn core units into text, through core's
// formatting (core/util/Units.h: GB = 1e9 bytes, GiB = 2^30 bytes, seconds scaled to s / ms / µs; the traps
// in docs/MODEL.md section 8). Views never scale units by hand.
#pragma once

#include "util/Units.h"

#include <QString>

namespace planscope::display {

inline QString text(const std::string& s) { return QString::fromStdString(s); }
inline QString bytes(double bytes) { return text(units::formatBytes(bytes)); }             // "12.34 GiB"
inline QString gib(double bytes, int decimals = 2)                                          // always GiB
{
    return QStringLiteral("%1 GiB").arg(units::toGiB(bytes), 0, 'f', decimals);
}
inline QString seconds(double s) { return text(units::formatSeconds(s)); }                 // "1.23 s", "456 ms"
inline QString signedSeconds(double s) { return text(units::formatSignedSeconds(s)); }     // "+1.23 s"
inline QString flops(double f) { return text(units::formatFlops(f)); }                     // "3.14 PFLOP"
inline QString count(double v) { return text(units::formatCount(v)); }                     // "175.0 B"
inline QString percent(double share, int decimals = 1)                                      // 0.123 -> "12.3 %"
{
    return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', decimals);
}
inline QString gbPerSecond(double bytesPerSecond, int decimals = 2)                         // decimal GB/s
{
    return QStringLiteral("%1 GB/s").arg(units::toGB(bytesPerSecond), 0, 'f', decimals);
}

} // namespace planscope::display
