// Typed, path-aware reading of a JSON object: every problem becomes an Issue naming the field.
#pragma once

#include "spec/Plan.h"
#include "util/Result.h"

#include <cmath>
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace planscope::jsonio {

inline std::string join(const std::string& path, std::string_view key)
{
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

inline const char* typeName(const nlohmann::json& v)
{
    return v.type_name();
}

// Parses JSON text; a syntax error names the byte offset where parsing stopped (nlohmann reports the last byte
// it read). The exception is caught here and never crosses the core boundary.
inline Result<nlohmann::json> parseText(std::string_view text)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Result<nlohmann::json>::failure("", text.empty() ? "the file is empty" : "the file holds only white space", 0);
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) return j;
    try {
        const nlohmann::json again = nlohmann::json::parse(text);
        (void)again;
    } catch (const nlohmann::json::parse_error& e) {
        std::string what = e.what();
        const auto pos = what.find("parse error");
        return Result<nlohmann::json>::failure("", pos == std::string::npos ? what : what.substr(pos),
            std::int64_t(e.byte) - (e.byte > 0 ? 1 : 0));
    } catch (const std::exception& e) {
        return Result<nlohmann::json>::failure("", e.what(), 0);
    }
    return Result<nlohmann::json>::failure("", "not valid JSON", 0);
}

class ObjectReader {
public:
    ObjectReader(const nlohmann::json& j, std::string path, Issues& issues)
        : m_j(j), m_path(std::move(path)), m_issues(issues)
    {
        m_ok = j.is_object();
        if (!m_ok)
            error(m_path, std::string("must be an object, found ") + typeName(j));
    }
    bool ok() const { return m_ok; }
    const std::string& path() const { return m_path; }
    bool has(std::string_view key) const { return m_ok && m_j.contains(key) && !m_j.at(key).is_null(); }
    const nlohmann::json* find(std::string_view key) const
    {
        if (!has(key)) return nullptr;
        return &m_j.at(key);
    }

    void error(const std::string& path, std::string message)
    {
        m_issues.push_back(Issue { Severity::Error, path, std::move(message), -1 });
    }
    void warning(const std::string& path, std::string message)
    {
        m_issues.push_back(Issue { Severity::Warning, path, std::move(message), -1 });
    }

    bool number(std::string_view key, double& out, double min = -std::numeric_limits<double>::infinity(),
        double max = std::numeric_limits<double>::infinity())
    {
        const auto* v = find(key);
        if (!v) return false;
        if (!v->is_number()) {
            error(join(m_path, key), std::string("must be a number, found ") + typeName(*v));
            return false;
        }
        const double d = v->get<double>();
        if (!std::isfinite(d) || d < min) {
            error(join(m_path, key), "must be a finite number >= " + trim(min) + ", found " + v->dump());
            return false;
        }
        if (d > max) {
            error(join(m_path, key), "must be between " + trim(min) + " and " + trim(max) + ", found " + v->dump());
            return false;
        }
        out = d;
        return true;
    }

    template<typename Int>
    bool integer(std::string_view key, Int& out, double min = 0, double max = 9.0e15)
    {
        const auto* v = find(key);
        if (!v) return false;
        if (!v->is_number()) {
            error(join(m_path, key), std::string("must be an integer, found ") + typeName(*v));
            return false;
        }
        const double d = v->get<double>();
        if (!std::isfinite(d) || d != std::floor(d)) {
            error(join(m_path, key), "must be a whole number, found " + v->dump());
            return false;
        }
        if (d < min || d > max || d > double(std::numeric_limits<Int>::max())) {
            error(join(m_path, key), "must be between " + trim(min) + " and "
                    + trim(std::min(max, double(std::numeric_limits<Int>::max()))) + ", found " + v->dump());
            return false;
        }
        out = Int(v->is_number_integer() ? v->get<std::int64_t>() : std::int64_t(d));
        return true;
    }

    bool boolean(std::string_view key, bool& out)
    {
        const auto* v = find(key);
        if (!v) return false;
        if (!v->is_boolean()) {
            error(join(m_path, key), std::string("must be true or false, found ") + typeName(*v));
            return false;
        }
        out = v->get<bool>();
        return true;
    }

    bool string(std::string_view key, std::string& out)
    {
        const auto* v = find(key);
        if (!v) return false;
        if (!v->is_string()) {
            error(join(m_path, key), std::string("must be a string, found ") + typeName(*v));
            return false;
        }
        out = v->get<std::string>();
        return true;
    }

    // A string naming one value of an enum; the error lists the accepted names.
    template<typename E>
    bool enumeration(std::string_view key, E& out, std::initializer_list<E> allowed)
    {
        std::string s;
        if (!string(key, s)) return false;
        E e {};
        if (fromString(s, e)) {
            out = e;
            return true;
        }
        std::string names;
        for (E a : allowed) names += (names.empty() ? "" : ", ") + std::string(toString(a));
        error(join(m_path, key), "unknown value \"" + s + "\"; expected one of: " + names);
        return false;
    }

    // Unknown keys are warnings: a typo must not silently fall back to a default.
    void rejectUnknown(std::initializer_list<std::string_view> known)
    {
        if (!m_ok) return;
        for (auto it = m_j.begin(); it != m_j.end(); ++it) {
            bool found = false;
            for (auto k : known)
                if (k == it.key()) found = true;
            if (found) continue;
            // A near miss of a known name is most likely a typo: say which.
            std::string_view best;
            std::size_t bestDistance = 3;
            for (auto k : known) {
                const std::size_t d = editDistance(it.key(), k);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = k;
                }
            }
            warning(join(m_path, it.key()), best.empty() ? std::string("unknown field, ignored")
                                                         : "unknown field, ignored; did you mean \"" + std::string(best) + "\"?");
        }
    }

    // Levenshtein distance of two short names (case-insensitive), capped work: names are a few dozen characters.
    static std::size_t editDistance(std::string_view a, std::string_view b)
    {
        auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        std::vector<std::size_t> row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j) {
                const std::size_t up = row[j];
                row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1) });
                diagonal = up;
            }
        }
        return row[b.size()];
    }

private:
    static std::string trim(double d)
    {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.10g", d);
        return buf;
    }
    const nlohmann::json& m_j;
    std::string m_path;
    Issues& m_issues;
    bool m_ok = false;
};

} // namespace planscope::jsonio
