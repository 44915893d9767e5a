#include "Units.h"

#include <cmath>
#include <cstdio>

namespace planscope::units {

namespace {
std::string printf1(const char* fmt, double v, const char* unit)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v, unit);
    return buf;
}
} // namespace

std::string formatBytes(double bytes)
{
    const double a = std::fabs(bytes);
    if (a >= kGiB) return printf1("%.2f %s", bytes / kGiB, "GiB");
    if (a >= kMiB) return printf1("%.1f %s", bytes / kMiB, "MiB");
    if (a >= 1024) return printf1("%.1f %s", bytes / 1024.0, "KiB");
    return printf1("%.0f %s", bytes, "B");
}

std::string formatSeconds(double s)
{
    const double a = std::fabs(s);
    if (a >= kSecondsPerDay) return printf1("%.2f %s", s / kSecondsPerDay, "days");
    if (a >= 1.0) return printf1("%.3f %s", s, "s");
    if (a >= 1e-3) return printf1("%.2f %s", s * 1e3, "ms");
    return printf1("%.2f %s", s * 1e6, "us");
}

std::string formatSignedSeconds(double s)
{
    return (s >= 0 ? "+" : "\u2212") + formatSeconds(std::fabs(s));
}

std::string formatFlops(double f)
{
    const double a = std::fabs(f);
    if (a >= 1e24) return printf1("%.2f %s", f / 1e24, "YFLOP");
    if (a >= 1e21) return printf1("%.2f %s", f / 1e21, "ZFLOP");
    if (a >= 1e18) return printf1("%.2f %s", f / 1e18, "EFLOP");
    if (a >= 1e15) return printf1("%.2f %s", f / 1e15, "PFLOP");
    if (a >= 1e12) return printf1("%.2f %s", f / 1e12, "TFLOP");
    if (a >= 1e9) return printf1("%.2f %s", f / 1e9, "GFLOP");
    return printf1("%.0f %s", f, "FLOP");
}

std::string formatNumber(double v)
{
    char buf[64];
    const double a = std::fabs(v);
    if (v == std::floor(v) && a < 1e12)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (a != 0 && (a >= 1e6 || a < 1e-3))
        std::snprintf(buf, sizeof buf, "%.4g", v);
    else
        std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

std::string formatCount(double v)
{
    const double a = std::fabs(v);
    if (a >= 1e12) return printf1("%.2f %s", v / 1e12, "T");
    if (a >= 1e9) return printf1("%.2f %s", v / 1e9, "B");
    if (a >= 1e6) return printf1("%.2f %s", v / 1e6, "M");
    if (a >= 1e3) return printf1("%.2f %s", v / 1e3, "K");
    return printf1("%.0f%s", v, "");
}

} // namespace planscope::units
