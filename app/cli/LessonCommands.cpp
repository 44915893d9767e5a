#include "LessonCommands.h"

#include "PlanInput.h"

#include "lessons/Lessons.h"
#include "util/Units.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

int cmdLessons(const Args& a, std::ostream& out, std::ostream& err)
{
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
