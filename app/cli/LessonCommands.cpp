#include "LessonCommands.h"

#include "PlanInput.h"

#include "lessons/InterviewQuestions.h"
#include "lessons/Lessons.h"
#include "util/Units.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

namespace {

std::string answerText(double v, const std::string& unit)
{
    if (unit == "B") return units::formatNumber(v) + " B (" + units::formatBytes(v) + ")";
    if (unit == "s") return units::formatSeconds(v);
    return units::formatNumber(v) + (unit.empty() ? "" : " " + unit);
}

// --interview TOPIC [--seed N]: one generated question (core/lessons/InterviewQuestions.h).
int cmdInterview(const Args& a, std::ostream& out, std::ostream& err)
{
    std::uint64_t seed = 1;
    if (a.options.count("--seed")) {
        const std::string& s = a.options.at("--seed");
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), seed);
        if (ec != std::errc() || end != s.data() + s.size()) {
            err << "planscope-cli: --seed needs a non-negative integer, got \"" << s << "\"\n";
            return 1;
        }
    }
    const auto g = generateQuestion(a.options.at("--interview"), seed);
    if (!g) {
        printIssues(g.errors(), err);
        return 1;
    }
    if (a.has("--json")) {
        out << interviewToJson(g.value()).dump(2) << "\n";
        return 0;
    }
    const bool zh = a.options.count("--lang") && a.options.at("--lang") == "zh_CN";
    const LessonQuestion& q = g->question;
    out << (zh ? q.text.zh_CN : q.text.en) << "\n\nAnswer: " << answerText(q.answer, q.unit) << "   (" << q.field << ")\n"
        << (zh ? q.solution.zh_CN : q.solution.en) << "\n";
    return 0;
}

} // namespace

int cmdLessons(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.options.count("--interview")) return cmdInterview(a, out, err);
    if (a.has("--interview")) {
        std::string names;
        for (const std::string& t : interviewTopics()) names += (names.empty() ? "" : ", ") + t;
        err << "planscope-cli: --interview needs a topic: " << names << "\n";
        return 1;
    }
    const auto lessons = builtinLessons();
    if (!lessons) {
        printIssues(lessons.errors(), err);
        return 2;
    }
    if (a.has("--json")) {
        out << lessonsToJson(lessons.value()).dump(2) << "\n";
        return 0;
    }
    const bool zh = a.options.count("--lang") && a.options.at("--lang") == "zh_CN";
    for (const Lesson& l : lessons.value()) {
        out << l.id << ": " << (zh ? l.title.zh_CN : l.title.en) << "\n";
        for (const LessonStep& s : l.steps)
            if (s.question) {
                out << "  " << (zh ? s.question->text.zh_CN : s.question->text.en) << "\n    " << s.question->field << " = ";
                const double v = s.question->answer;
                out << (s.question->unit == "B" ? units::formatBytes(v) : s.question->unit == "s" ? units::formatSeconds(v)
                                                                                                  : units::formatNumber(v))
                    << "   (" << (zh ? s.question->solution.zh_CN : s.question->solution.en) << ")\n";
            }
    }
    return 0;
}

} // namespace planscope::cli
