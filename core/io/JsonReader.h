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

// Follows a SAX parse to the value where it stops, for the one error nlohmann's DOM parser reports without its place:
// a number beyond a double's range ("1e400", out_of_range.406), which JSON allows (RFC 8259 section 6 leaves the
// range to the implementation). The path is written as the readers write theirs ("gemm.0.tflops").
class StopLocator : public nlohmann::json_sax<nlohmann::json> {
public:
    std::string path; // of the value being read where the parse stopped
    std::size_t position = 0; // bytes read when it stopped (just past the offending token)
    std::string token;

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override
    {
        value();
        m_frames.push_back({ false, {}, 0 });
        return true;
    }
    bool key(string_t& k) override
    {
        m_frames.back().key = k;
        return true;
    }
    bool end_object() override
    {
        m_frames.pop_back();
        return true;
    }
    bool start_array(std::size_t) override
    {
        value();
        m_frames.push_back({ true, {}, 0 });
        return true;
    }
    bool end_array() override
    {
        m_frames.pop_back();
        return true;
    }
    bool parse_error(std::size_t at, const std::string& last, const nlohmann::detail::exception&) override
    {
        position = at;
        token = last;
        // Every enclosing array has counted the element being read; the innermost one has not yet.
        for (std::size_t i = 0; i < m_frames.size(); ++i) {
            const Frame& f = m_frames[i];
            const std::string part = f.array ? std::to_string(i + 1 == m_frames.size() ? f.count : f.count - 1) : f.key;
            path = path.empty() ? part : path + "." + part;
        }
        return false;
    }

private:
    struct Frame {
        bool array = false;
        std::string key;
        std::size_t count = 0; // elements begun (arrays)
    };
    bool value()
    {
        if (!m_frames.empty() && m_frames.back().array) ++m_frames.back().count;
        return true;
    }
    std::vector<Frame> m_frames;
};

// nlohmann's words for a syntax error, from "parse error" on, as a template: its line, its column and its own
// message ("syntax error while parsing object key - invalid literal; last read: '1x'") become the arguments.
inline Text parseErrorText(std::string_view what)
{
    const auto pos = what.find("parse error");
    if (pos == std::string_view::npos) return Text::verbatim(std::string(what));
    what = what.substr(pos);
    constexpr std::string_view lead = "parse error at line ";
    constexpr std::string_view syntax = "syntax error while parsing ";
    const auto comma = what.find(", column ");
    const auto colon = comma == std::string_view::npos ? comma : what.find(": ", comma);
    if (!what.starts_with(lead) || colon == std::string_view::npos) return Text::verbatim(std::string(what));
    const std::string_view line = what.substr(lead.size(), comma - lead.size());
    const std::string_view column = what.substr(comma + 9, colon - comma - 9);
    const std::string_view message = what.substr(colon + 2);
    const auto dash = message.starts_with(syntax) ? message.find(" - ", syntax.size()) : std::string_view::npos;
    if (dash == std::string_view::npos)
        return Text(PS_TEXT("CoreText", "parse error at line %1, column %2: %3"), line, column, message);
    return Text(PS_TEXT("CoreText", "parse error at line %1, column %2: syntax error while parsing %3 - %4"), line,
        column, message.substr(syntax.size(), dash - syntax.size()), message.substr(dash + 3));
}

// Parses JSON text; a syntax error names the byte offset where parsing stopped (nlohmann reports the last byte
// it read), a number out of a double's range its field and the offset where it starts. The exception is caught here
// and never crosses the core boundary.
inline Result<nlohmann::json> parseText(std::string_view text)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Result<nlohmann::json>::failure("",
            text.empty() ? Text(PS_TEXT("CoreText", "the file is empty"))
                         : Text(PS_TEXT("CoreText", "the file holds only white space")),
            0);
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_discarded()) return j;
    try {
        const nlohmann::json again = nlohmann::json::parse(text);
        (void)again;
    } catch (const nlohmann::json::parse_error& e) {
        return Result<nlohmann::json>::failure("", parseErrorText(e.what()),
            std::int64_t(e.byte) - (e.byte > 0 ? 1 : 0));
    } catch (const nlohmann::json::out_of_range& e) {
        StopLocator where;
        (void)nlohmann::json::sax_parse(text, &where);
        if (e.id != 406 || where.token.empty())
            return Result<nlohmann::json>::failure(where.path, Text::verbatim(e.what()), std::int64_t(where.position));
        return Result<nlohmann::json>::failure(where.path,
            Text(PS_TEXT("CoreText",
                     "the number %1 is beyond the range of a double (about 1.8e308); write a finite value"),
                where.token),
            std::int64_t(where.position >= where.token.size() ? where.position - where.token.size() : 0));
    } catch (const std::exception& e) {
        return Result<nlohmann::json>::failure("", Text::verbatim(e.what()), 0);
    }
    return Result<nlohmann::json>::failure("", Text(PS_TEXT("CoreText", "not valid JSON")), 0);
}

// The most errors, and apart the most warnings, a reader returns: past them one issue says how many more there were,
// so that a file of 10,000 unknown fields costs neither 10,000 lines of output nor their memory further on.
inline constexpr std::size_t kMaxIssues = 100;

// Keeps the first `most` errors and the first `most` warnings, in their order; the rest of each severity becomes
// one issue at the end, with the root path, saying how many: "9900 more unknown fields, ignored (only the first 100
// warnings are listed)" when all of them are unknown fields, else "9900 more warnings (9000 of them unknown fields),
// not listed: only the first 100 are" (or errors).
inline void capIssues(Issues& issues, std::size_t most = kMaxIssues)
{
    std::size_t errors = 0, warnings = 0;
    for (const Issue& i : issues) ++(i.severity == Severity::Error ? errors : warnings);
    if (errors <= most && warnings <= most) return;
    errors = warnings = 0;
    std::size_t droppedErrors = 0, droppedWarnings = 0, droppedUnknown = 0;
    Issues kept;
    for (Issue& i : issues) {
        const bool error = i.severity == Severity::Error;
        std::size_t& seen = error ? errors : warnings;
        if (seen++ < most) {
            kept.push_back(std::move(i));
            continue;
        }
        if (error) {
            ++droppedErrors;
        } else {
            ++droppedWarnings;
            if (i.message.starts_with("unknown field, ignored")) ++droppedUnknown;
        }
    }
    if (droppedErrors == 1)
        kept.push_back(issue(Severity::Error, "",
            Text(PS_TEXT("CoreText", "%1 more error, not listed: only the first %2 are"), droppedErrors, most)));
    else if (droppedErrors > 1)
        kept.push_back(issue(Severity::Error, "",
            Text(PS_TEXT("CoreText", "%1 more errors, not listed: only the first %2 are"), droppedErrors, most)));
    // Some unknown fields among other warnings are two warnings at least: only the plural reads there.
    if (droppedWarnings > 0 && droppedUnknown == droppedWarnings)
        kept.push_back(issue(Severity::Warning, "",
            droppedUnknown == 1
                ? Text(PS_TEXT("CoreText", "%1 more unknown field, ignored (only the first %2 warnings are listed)"),
                      droppedUnknown, most)
                : Text(PS_TEXT("CoreText", "%1 more unknown fields, ignored (only the first %2 warnings are listed)"),
                      droppedUnknown, most)));
    else if (droppedUnknown > 0)
        kept.push_back(issue(Severity::Warning, "",
            Text(PS_TEXT("CoreText", "%1 more warnings (%2 of them unknown fields), not listed: only the first %3 are"),
                droppedWarnings, droppedUnknown, most)));
    else if (droppedWarnings == 1)
        kept.push_back(issue(Severity::Warning, "",
            Text(PS_TEXT("CoreText", "%1 more warning, not listed: only the first %2 are"), droppedWarnings, most)));
    else if (droppedWarnings > 1)
        kept.push_back(issue(Severity::Warning, "",
            Text(PS_TEXT("CoreText", "%1 more warnings, not listed: only the first %2 are"), droppedWarnings, most)));
    issues = std::move(kept);
}

class ObjectReader {
public:
    ObjectReader(const nlohmann::json& j, std::string path, Issues& issues)
        : m_j(j), m_path(std::move(path)), m_issues(issues)
    {
        m_ok = j.is_object();
        if (!m_ok)
            error(m_path, Text(PS_TEXT("CoreText", "must be an object, found %1"), typeName(j)));
    }
    bool ok() const { return m_ok; }
    const std::string& path() const { return m_path; }
    bool has(std::string_view key) const { return m_ok && m_j.contains(key) && !m_j.at(key).is_null(); }
    const nlohmann::json* find(std::string_view key) const
    {
        if (!has(key)) return nullptr;
        return &m_j.at(key);
    }

    void error(const std::string& path, Text text)
    {
        m_issues.push_back(issue(Severity::Error, path, std::move(text)));
    }
    void warning(const std::string& path, Text text)
    {
        m_issues.push_back(issue(Severity::Warning, path, std::move(text)));
    }

    bool number(std::string_view key, double& out, double min = -std::numeric_limits<double>::infinity(),
        double max = std::numeric_limits<double>::infinity())
    {
        const auto* v = find(key);
        if (!v) return false;
        if (!v->is_number()) {
            // A string is quoted: "NaN" and "inf" are how some tools write what JSON has no literal for.
            // Written as ASCII (ensure_ascii), so that cutting a long one never splits a UTF-8 sequence.
            std::string found = typeName(*v);
            if (v->is_string()) {
                const std::string quoted = v->dump(-1, ' ', true);
                found += " " + (quoted.size() > 42 ? quoted.substr(0, 40) + "...\"" : quoted);
            }
            error(join(m_path, key), Text(PS_TEXT("CoreText", "must be a number, found %1"), found));
            return false;
        }
        const double d = v->get<double>();
        if (!std::isfinite(d) || d < min) {
            // nlohmann writes a non-finite double as null: name it (only a document built in code holds one).
            const std::string found = std::isnan(d) ? "NaN" : std::isinf(d) ? (d > 0 ? "infinity" : "-infinity") : v->dump();
            error(join(m_path, key),
                Text(PS_TEXT("CoreText", "must be a finite number >= %1, found %2"), trim(min), found));
            return false;
        }
        if (d > max) {
            error(join(m_path, key),
                Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), trim(min), trim(max), v->dump()));
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
            error(join(m_path, key), Text(PS_TEXT("CoreText", "must be an integer, found %1"), typeName(*v)));
            return false;
        }
        const double d = v->get<double>();
        if (!std::isfinite(d) || d != std::floor(d)) {
            error(join(m_path, key), Text(PS_TEXT("CoreText", "must be a whole number, found %1"), v->dump()));
            return false;
        }
        if (d < min || d > max || d > double(std::numeric_limits<Int>::max())) {
            error(join(m_path, key), Text(PS_TEXT("CoreText", "must be between %1 and %2, found %3"), trim(min),
                trim(std::min(max, double(std::numeric_limits<Int>::max()))), v->dump()));
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
            error(join(m_path, key), Text(PS_TEXT("CoreText", "must be true or false, found %1"), typeName(*v)));
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
            error(join(m_path, key), Text(PS_TEXT("CoreText", "must be a string, found %1"), typeName(*v)));
            return false;
        }
        out = v->get<std::string>();
        return true;
    }

    // A string naming one value of an enum; the error lists the accepted names.
    template<typename E>
    bool enumeration(std::string_view key, E& out, std::initializer_list<E> allowed)
    {
        return enumeration(key, out, std::vector<E>(allowed));
    }
    template<typename E>
    bool enumeration(std::string_view key, E& out, const std::vector<E>& allowed)
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
        error(join(m_path, key), Text(PS_TEXT("CoreText", "unknown value \"%1\"; expected one of: %2"), s, names));
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
            // A near miss of a known name is most likely a typo: say which. Names whose lengths differ by the
            // distance sought or more cannot be nearer (each inserted character costs one), so a long key costs no
            // quadratic work.
            std::string_view best;
            std::size_t bestDistance = 3;
            for (auto k : known) {
                const std::size_t lengthGap = it.key().size() > k.size() ? it.key().size() - k.size() : k.size() - it.key().size();
                if (lengthGap >= bestDistance) continue;
                const std::size_t d = editDistance(it.key(), k);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = k;
                }
            }
            warning(join(m_path, it.key()),
                best.empty() ? Text(PS_TEXT("CoreText", "unknown field, ignored"))
                             : Text(PS_TEXT("CoreText", "unknown field, ignored; did you mean \"%1\"?"), best));
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
