#include "charts/LogTickers.h"

#include <cmath>
#include <vector>

namespace planscope {

QString DecadeTicker::getTickLabel(double tick, const QLocale& locale, QChar, int)
{
    return tick >= 1 ? locale.toString(qlonglong(std::llround(tick))) : locale.toString(tick, 'g', 3);
}

QVector<double> DecadeTicker::createTickVector(double, const QCPRange& range)
{
    if (!(range.lower > 0) || !(range.upper > range.lower)) return {};
    QVector<double> chosen;
    for (const std::vector<double>& multiples : { std::vector<double> { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, std::vector<double> { 1, 2, 5 },
             std::vector<double> { 1, 3 }, std::vector<double> { 1 } }) {
        QVector<double> ticks;
        for (double decade = std::pow(10.0, std::floor(std::log10(range.lower))); decade <= range.upper; decade *= 10)
            for (double m : multiples)
                if (m * decade >= range.lower && m * decade <= range.upper) ticks << m * decade;
        if (ticks.size() < 2) break; // sparser sets only lose more
        chosen = ticks;
        if (ticks.size() <= tickCount() + 1) break;
    }
    return chosen.isEmpty() ? QVector<double> { range.lower, range.upper } : chosen;
}

QString BytesTicker::getTickLabel(double tick, const QLocale& locale, QChar, int)
{
    static const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
    int unit = 0;
    while (unit < 5 && tick >= 1024) {
        tick /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(locale.toString(tick, 'g', 4), QLatin1String(units[unit]));
}

QVector<double> BytesTicker::createTickVector(double, const QCPRange& range)
{
    if (!(range.lower > 0) || !(range.upper > range.lower)) return {};
    const int first = int(std::ceil(std::log2(range.lower) - 1e-9)), last = int(std::floor(std::log2(range.upper) + 1e-9));
    if (last < first) return { range.lower, range.upper };
    // Every power of two, or every 2nd, 4th, ... so that the labels fit the tick count; a stride of 10 lands on the
    // unit boundaries (1 KiB, 1 MiB, 1 GiB) where the range is wide.
    int stride = 1;
    for (int s : { 1, 2, 5, 10, 20, 30 }) {
        stride = s;
        if ((last - first) / s + 1 <= tickCount() + 1) break;
    }
    QVector<double> ticks;
    for (int e = first; e <= last; ++e)
        if (e % stride == 0 || stride == 1) ticks << std::ldexp(1.0, e);
    if (ticks.size() < 2) ticks = { std::ldexp(1.0, first), std::ldexp(1.0, last) };
    return ticks;
}

} // namespace planscope
