// A sentence of core as a value: an English template with %1..%n and the arguments that fill it, so that the
// CLI and the JSON print the English and the GUI translates the template through Qt's translation system
// (widgets/CoreText.cpp) and puts the same arguments back (docs/ARCHITECTURE.md section 6).
//
// Core writes a template where it builds a message:
//     Text(PS_TEXT("CoreText", "tp %1 does not divide the %2 attention heads"), p.tp, m.heads)
// PS_TEXT is the marker lupdate extracts, as it extracts QT_TRANSLATE_NOOP (resources/CMakeLists.txt passes
// -tr-function-alias QT_TRANSLATE_NOOP+=PS_TEXT), so every template lands in resources/translations/*.ts;
// tests/widgets/tst_core_text.cpp runs that extraction over core/ and fails on a template without a
// translation. The template must be a string literal: the GUI looks its translation up by the text itself.
//
// An argument is inserted as it is (a number, a field path, a formula, a name) unless it is itself a Text
// made from a template, which is then translated in turn (a reason inside a message).
//
// Several sentences (an explanation's note) or the items of a list (a source's references, the ops of a layer) are
// a Text::join of their parts: each part is translated on its own and the language's separator goes between them.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace planscope {

struct TextTemplate {
    const char* context;
    const char* pattern;
};

#define PS_TEXT(context, pattern) (::planscope::TextTemplate { context, pattern })

class Text {
public:
    Text() = default;

    // A template and its arguments: strings and integers are inserted verbatim, a Text is a nested sentence.
    // Floating-point values are formatted by the caller (core/util/Units.h), so the English and the GUI agree.
    template<typename... Args>
    explicit Text(TextTemplate t, Args&&... args)
        : m_context(t.context)
        , m_pattern(t.pattern)
    {
        m_args.reserve(sizeof...(Args));
        (m_args.push_back(argument(std::forward<Args>(args))), ...);
    }

    // A template without arguments (a source's reference, a fixed sentence).
    Text(TextTemplate t) // NOLINT(google-explicit-constructor): a reference is its template
        : m_context(t.context)
        , m_pattern(t.pattern)
    {
    }

    // How the parts of a join go together: sentences side by side ("A. B.": a blank in English, none in Chinese),
    // or items of a list ("a; b": "; " in English, "；" in Chinese).
    enum class Joint { Sentences, List };
    // The non-empty parts, in order (empty parts are left out, so a note can add a sentence only when it applies).
    static Text join(std::vector<Text> parts, Joint joint);

    // Text that is not a template: a name, a number, a path, or a message of a file that has none yet.
    static Text verbatim(std::string english)
    {
        Text t;
        t.m_verbatim = std::move(english);
        return t;
    }

    // Built from templates (a template, or a join of parts): the GUI translates it; otherwise verbatim text.
    bool isTemplate() const { return m_pattern != nullptr || m_joined; }
    bool isJoin() const { return m_joined; }
    Joint joint() const { return m_joint; }
    bool empty() const { return m_pattern == nullptr && (m_joined ? m_args.empty() : m_verbatim.empty()); }
    const char* context() const { return m_context; }
    const char* pattern() const { return m_pattern; }
    const std::vector<Text>& args() const { return m_args; } // a join: its parts
    // Without a template: the text itself.
    const std::string& verbatimText() const { return m_verbatim; }

    // The template with its arguments put in (what the CLI, the JSON and the logs print).
    std::string english() const;

    // Equal when they read the same in English (two sites may build one sentence).
    bool operator==(const Text& other) const { return english() == other.english(); }

private:
    template<typename A>
    static Text argument(A&& a)
    {
        // <type_traits> rather than <concepts>: Qt's moc reads this header through the GUI's and cannot parse
        // <concepts>.
        using D = std::remove_cvref_t<A>;
        static_assert(!std::is_same_v<D, bool>, "write the word, not a bool");
        static_assert(!std::is_floating_point_v<D>, "format a floating-point argument (core/util/Units.h)");
        if constexpr (std::is_same_v<D, Text>)
            return std::forward<A>(a);
        else if constexpr (std::is_integral_v<D>)
            return verbatim(std::to_string(a));
        else
            return verbatim(std::string(std::string_view(a)));
    }

    const char* m_context = nullptr;
    const char* m_pattern = nullptr;
    std::vector<Text> m_args;
    std::string m_verbatim;
    bool m_joined = false;
    Joint m_joint = Joint::Sentences;
};

// The English of each text, in order (a JSON array of sentences).
std::vector<std::string> englishLines(const std::vector<Text>& texts);

// Puts arguments into a template: %1..%99 stand for args[0..98]; a '%' not followed by the number of an
// argument stays as it is ("num_query_groups % tp"). english() and the GUI's translation (on UTF-8) share it,
// so both read a template the same way.
std::string fillTemplate(std::string_view pattern, const std::vector<std::string>& args);

} // namespace planscope
