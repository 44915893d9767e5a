// Errors as values: core never throws across its boundary (docs/ARCHITECTURE.md section 5).
#pragma once

#include "Text.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace planscope {

enum class Severity { Error, Warning };

// One problem with an input: the JSON path of the offending field ("parallel.tp") or, for text that
// does not parse, the byte offset where parsing stopped. message is the English the CLI and the JSON print;
// text is the same sentence as a template and its arguments (util/Text.h), which the GUI translates. Build
// an Issue with issue() so that the two are one sentence; a message written without a template leaves text
// empty.
struct Issue {
    Severity severity = Severity::Error;
    std::string path;
    std::string message;
    std::int64_t offset = -1;
    Text text;

    bool operator==(const Issue&) const = default;
};

inline Issue issue(Severity severity, std::string path, Text text, std::int64_t offset = -1)
{
    std::string english = text.english();
    return Issue { severity, std::move(path), std::move(english), offset, std::move(text) };
}

using Issues = std::vector<Issue>;

// The issue's sentence as a Text: its template, or its English message verbatim where it was written without one
// (a reason nested in another sentence keeps its words either way).
inline Text issueText(const Issue& i) { return i.text.isTemplate() ? i.text : Text::verbatim(i.message); }

inline bool hasErrors(const Issues& issues)
{
    for (const auto& i : issues)
        if (i.severity == Severity::Error) return true;
    return false;
}

// "path: message", or the message alone where there is no path: how the CLI, the JSON and the logs write an issue.
inline std::string issueLine(const Issue& i) { return i.path.empty() ? i.message : i.path + ": " + i.message; }
inline std::vector<std::string> issueLines(const Issues& issues)
{
    std::vector<std::string> lines;
    lines.reserve(issues.size());
    for (const Issue& i : issues) lines.push_back(issueLine(i));
    return lines;
}

template<typename T>
class Result {
public:
    Result(T value) : m_value(std::move(value)) { }
    Result(Issues errors) : m_errors(std::move(errors)) { }
    static Result failure(std::string path, std::string message, std::int64_t offset = -1)
    {
        return Result(Issues { Issue { Severity::Error, std::move(path), std::move(message), offset } });
    }
    static Result failure(std::string path, Text text, std::int64_t offset = -1)
    {
        return Result(Issues { issue(Severity::Error, std::move(path), std::move(text), offset) });
    }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *m_value; }
    T& value() & { return *m_value; }
    T&& value() && { return std::move(*m_value); }
    const T* operator->() const { return &*m_value; }
    const Issues& errors() const { return m_errors; }

private:
    std::optional<T> m_value;
    Issues m_errors;
};

} // namespace planscope
