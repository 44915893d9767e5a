#include "Explain.h"

#include "util/Units.h"

#include <algorithm>
#include <cctype>

namespace planscope {

std::string substitute(const Explanation& e)
{
    // Replace whole identifiers only, longest names first, so "p" does not eat the "p" of "pp".
    std::vector<std::pair<std::string, double>> inputs = e.inputs;
    std::sort(inputs.begin(), inputs.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    std::string out;
    const std::string& f = e.formula;
    auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t i = 0; i < f.size();) {
        bool replaced = false;
        if (isIdent(f[i]) && (i == 0 || !isIdent(f[i - 1]))) {
            std::size_t j = i;
            while (j < f.size() && isIdent(f[j])) ++j;
            const std::string word = f.substr(i, j - i);
            for (const auto& [name, value] : inputs)
                if (name == word) {
                    out += units::formatNumber(value);
                    i = j;
                    replaced = true;
                    break;
                }
            if (!replaced) {
                out += word;
                i = j;
                replaced = true;
            }
        }
        if (!replaced) out += f[i++];
    }
    return out;
}

namespace {
std::string display(double v, const std::string& unit)
{
    if (unit == "bytes") return units::formatNumber(v) + " bytes (" + units::formatBytes(v) + ")";
    if (unit == "seconds") return units::formatNumber(v) + " s (" + units::formatSeconds(v) + ")";
    if (unit == "FLOP") return units::formatNumber(v) + " FLOP (" + units::formatFlops(v) + ")";
    if (unit == "parameters") return units::formatNumber(v) + " (" + units::formatCount(v) + ")";
    if (unit == "1" || unit.empty()) return units::formatNumber(v);
    return units::formatNumber(v) + " " + unit;
}

void format(const Explainer& ex, const std::string& field, int depth, int maxDepth, std::string& out)
{
    const std::string indent(std::size_t(depth) * 4, ' ');
    const Explanation* e = ex.find(field);
    if (!e) {
        out += indent + field + ": no explanation recorded\n";
        return;
    }
    out += indent + e->field + " = " + display(e->value, e->unit) + "\n";
    if (!e->formula.empty()) {
        out += indent + "  formula: " + e->formula + "\n";
        if (!e->inputs.empty()) {
            out += indent + "  where:  ";
            bool first = true;
            for (const auto& [name, value] : e->inputs) {
                out += (first ? "" : ", ") + name + " = " + units::formatNumber(value);
                first = false;
            }
            out += "\n" + indent + "  so:     " + substitute(*e) + " = " + units::formatNumber(e->value) + "\n";
        }
    }
    if (!e->source.empty()) out += indent + "  source: " + e->source.english() + "\n";
    if (!e->note.empty()) out += indent + "  note:   " + e->note.english() + "\n";
    if (depth < maxDepth)
        for (const auto& c : e->children) format(ex, c, depth + 1, maxDepth, out);
}
} // namespace

std::string formatExplanation(const Explainer& ex, const std::string& field, int maxDepth)
{
    std::string out;
    format(ex, field, 0, maxDepth, out);
    return out;
}

} // namespace planscope
