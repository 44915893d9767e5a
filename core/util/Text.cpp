#include "Text.h"

namespace planscope {

std::string fillTemplate(std::string_view pattern, const std::vector<std::string>& args)
{
    std::string out;
    out.reserve(pattern.size());
    const auto digit = [&](std::size_t i) { return i < pattern.size() && pattern[i] >= '0' && pattern[i] <= '9'; };
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && digit(i + 1) && pattern[i + 1] != '0') {
            std::size_t number = std::size_t(pattern[i + 1] - '0');
            std::size_t used = 1;
            if (digit(i + 2) && number * 10 + std::size_t(pattern[i + 2] - '0') <= args.size()) {
                number = number * 10 + std::size_t(pattern[i + 2] - '0');
                used = 2;
            }
            if (number <= args.size()) {
                out += args[number - 1];
                i += used;
                continue;
            }
        }
        out += pattern[i];
    }
    return out;
}

std::string Text::english() const
{
    if (!isTemplate()) return m_verbatim;
    std::vector<std::string> filled;
    filled.reserve(m_args.size());
    for (const Text& a : m_args)
        filled.push_back(a.english());
    return fillTemplate(m_pattern, filled);
}

} // namespace planscope
