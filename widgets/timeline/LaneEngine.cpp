#include "timeline/LaneEngine.h"

#include <algorithm>

namespace planscope {

namespace {

// Decodes the code point at utf8[i] and returns the length of its encoding.
std::size_t decode(const std::string& utf8, std::size_t i, char32_t& cp)
{
    const auto c = static_cast<unsigned char>(utf8[i]);
    std::size_t n = 1;
    cp = c;
    if (c >= 0xF0) {
        n = 4;
        cp = c & 0x07;
    } else if (c >= 0xE0) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xC0) {
        n = 2;
        cp = c & 0x1F;
    }
    for (std::size_t k = 1; k < n && i + k < utf8.size(); ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    return n;
}

// CJK, Hangul, full-width forms: two columns (a close enough reading of East Asian Width "W"/"F").
double columnsOf(char32_t cp)
{
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF)
        || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
        || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || cp >= 0x20000;
    return wide ? 2 : 1;
}

} // namespace

double textColumns(const std::string& utf8)
{
    double columns = 0;
    char32_t cp = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        i += decode(utf8, i, cp);
        columns += columnsOf(cp);
    }
    return columns;
}

std::string fitText(const std::string& utf8, double maxColumns)
{
    if (textColumns(utf8) <= maxColumns) return utf8;
    if (maxColumns < 2) return {};
    double columns = 0;
    std::size_t cut = 0;
    char32_t cp = 0;
    while (cut < utf8.size()) {
        const std::size_t n = decode(utf8, cut, cp);
        if (columns + columnsOf(cp) > maxColumns - 1) break; // one column for the ellipsis
        columns += columnsOf(cp);
        cut += n;
    }
    return cut == 0 ? std::string() : utf8.substr(0, cut) + "\u2026";
}

long long laneAt(const std::vector<LaneItem>& rows, double y)
{
    auto it = std::upper_bound(rows.begin(), rows.end(), y, [](double v, const LaneItem& r) { return v < r.y; });
    if (it == rows.begin()) return -1;
    --it;
    return y < it->y + it->h ? (long long)(it - rows.begin()) : -1;
}

} // namespace planscope
