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

Text Text::join(std::vector<Text> parts, Joint joint)
{
    Text t;
    t.m_joined = true;
    t.m_joint = joint;
    for (Text& part : parts)
        if (!part.empty()) t.m_args.push_back(std::move(part));
    return t;
}

std::vector<std::string> englishLines(const std::vector<Text>& texts)
{
    std::vector<std::string> out;
    out.reserve(texts.size());
    for (const Text& t : texts)
        out.push_back(t.english());
    return out;
}

std::string Text::english() const
{
    if (m_joined) {
        std::string out;
        for (const Text& part : m_args) {
            if (!out.empty()) out += m_joint == Joint::List ? "; " : " ";
            out += part.english();
        }
        return out;
    }
    if (!isTemplate()) return m_verbatim;
    std::vector<std::string> filled;
    filled.reserve(m_args.size());
    for (const Text& a : m_args)
        filled.push_back(a.english());
    return fillTemplate(m_pattern, filled);
}

} // namespace planscope
