#include "Formula.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace planscope {

namespace {

// Recursive descent over
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/') unary)*
//   unary   := '-' unary | power
//   power   := atom ('^' unary)?
//   atom    := number | name | name '(' sum (',' sum)* ')' | '(' sum ')'
class Parser {
public:
    Parser(std::string_view text, const FormulaInputs* inputs, std::vector<std::string>* names)
        : m_text(text), m_inputs(inputs), m_names(names)
    {
    }

    bool run(double& value)
    {
        value = sum();
        skipSpace();
        if (m_error.empty() && m_pos < m_text.size())
            fail(Text(PS_TEXT("CoreText", "unexpected '%1'"), std::string(1, m_text[m_pos])));
        return m_error.empty();
    }
    const Text& error() const { return m_error; }
    std::size_t position() const { return m_pos; }

private:
    void fail(Text message)
    {
        if (m_error.empty()) m_error = std::move(message);
    }
    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
    }
    bool accept(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }

    double sum()
    {
        double v = product();
        while (m_error.empty()) {
            if (accept('+')) v += product();
            else if (accept('-')) v -= product();
            else break;
        }
        return v;
    }
    double product()
    {
        double v = unary();
        while (m_error.empty()) {
            if (accept('*')) v *= unary();
            else if (accept('/')) v /= unary();
            else break;
        }
        return v;
    }
    double unary()
    {
        if (accept('-')) return -unary();
        return power();
    }
    double power()
    {
        const double base = atom();
        if (m_error.empty() && accept('^')) return std::pow(base, unary());
        return base;
    }
    double atom()
    {
        skipSpace();
        if (m_pos >= m_text.size()) {
            fail(Text(PS_TEXT("CoreText", "unexpected end of formula")));
            return 0;
        }
        const char c = m_text[m_pos];
        if (c == '(') {
            ++m_pos;
            const double v = sum();
            if (!accept(')')) fail(Text(PS_TEXT("CoreText", "missing ')'")));
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return nameOrCall();
        fail(Text(PS_TEXT("CoreText", "unexpected '%1'"), std::string(1, c)));
        return 0;
    }
    double number()
    {
        // strtod on a bounded copy: digits, one '.', an exponent (1e9, 2.5e-3).
        std::size_t end = m_pos;
        while (end < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[end])) || m_text[end] == '.')) ++end;
        if (end < m_text.size() && (m_text[end] == 'e' || m_text[end] == 'E')) {
            std::size_t e = end + 1;
            if (e < m_text.size() && (m_text[e] == '+' || m_text[e] == '-')) ++e;
            if (e < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[e]))) {
                end = e;
                while (end < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[end]))) ++end;
            }
        }
        const std::string digits(m_text.substr(m_pos, end - m_pos));
        char* stop = nullptr;
        const double v = std::strtod(digits.c_str(), &stop);
        if (stop != digits.c_str() + digits.size())
            fail(Text(PS_TEXT("CoreText", "bad number \"%1\""), digits));
        m_pos = end;
        return v;
    }
    double nameOrCall()
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size()
            && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
            ++m_pos;
        const std::string name(m_text.substr(start, m_pos - start));
        if (accept('(')) {
            std::vector<double> args { sum() };
            while (m_error.empty() && accept(',')) args.push_back(sum());
            if (!accept(')')) fail(Text(PS_TEXT("CoreText", "missing ')' after the arguments of %1"), name));
            if (!m_error.empty()) return 0;
            return call(name, args);
        }
        if (m_names) {
            bool seen = false;
            for (const auto& n : *m_names) seen = seen || n == name;
            if (!seen) m_names->push_back(name);
        }
        if (!m_inputs) return 0;
        for (const auto& [n, v] : *m_inputs)
            if (n == name) return v;
        fail(Text(PS_TEXT("CoreText", "\"%1\" is not among the inputs"), name));
        return 0;
    }
    double call(const std::string& name, const std::vector<double>& args)
    {
        if (name == "min" || name == "max") {
            if (args.size() < 2) {
                fail(Text(PS_TEXT("CoreText", "%1 takes two or more arguments"), name));
                return 0;
            }
            double v = args.front();
            for (double a : args) v = name == "min" ? std::min(v, a) : std::max(v, a);
            return v;
        }
        if (args.size() != 1) {
            fail(Text(PS_TEXT("CoreText", "%1 takes one argument"), name));
            return 0;
        }
        if (name == "ceil") return std::ceil(args[0]);
        if (name == "floor") return std::floor(args[0]);
        if (name == "log2") return std::log2(args[0]);
        fail(Text(PS_TEXT("CoreText", "unknown function \"%1\""), name));
        return 0;
    }

    std::string_view m_text;
    const FormulaInputs* m_inputs;
    std::vector<std::string>* m_names;
    std::size_t m_pos = 0;
    Text m_error;
};

} // namespace

Result<double> evaluateFormula(std::string_view formula, const FormulaInputs& inputs)
{
    Parser parser(formula, &inputs, nullptr);
    double v = 0;
    if (!parser.run(v))
        return Result<double>::failure("formula",
            Text(
                PS_TEXT("CoreText", "%1 at offset %2 in \"%3\""), parser.error(), parser.position(), formula),
            std::int64_t(parser.position()));
    return v;
}

std::vector<std::string> formulaNames(std::string_view formula)
{
    std::vector<std::string> names;
    Parser parser(formula, nullptr, &names);
    double v = 0;
    if (!parser.run(v)) return {};
    return names;
}

} // namespace planscope

namespace planscope {

std::pair<std::string, FormulaInputs> maxOverFormula(const std::string& prefix, const std::vector<double>& values)
{
    std::pair<std::string, FormulaInputs> out;
    std::string list;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string name = prefix + std::to_string(i);
        list += (i ? ", " : "") + name;
        out.second.emplace_back(name, values[i]);
    }
    out.first = values.size() > 1 ? "max(" + list + ")" : list.empty() ? "0" : list;
    return out;
}

} // namespace planscope
