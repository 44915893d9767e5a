// Errors as values: core never throws across its boundary (docs/ARCHITECTURE.md section 5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace planscope {

enum class Severity { Error, Warning };

// One problem with an input: the JSON path of the offending field ("parallel.tp") or, for text that
// does not parse, the byte offset where parsing stopped.
struct Issue {
    Severity severity = Severity::Error;
    std::string path;
    std::string message;
    std::int64_t offset = -1;

    bool operator==(const Issue&) const = default;
};

using Issues = std::vector<Issue>;

inline bool hasErrors(const Issues& issues)
{
    for (const auto& i : issues)
        if (i.severity == Severity::Error) return true;
    return false;
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
