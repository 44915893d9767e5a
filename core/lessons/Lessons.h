// Guided lessons (docs/FORMATS.md section 10): each step sets a plan and a view, explains one idea, and may ask a
// question whose answer the cost model computes from the step's plan (the value at `field` of the analytic prediction
// document, docs/FORMATS.md section 2), never a number typed in. Texts in English and Simplified Chinese.
#pragma once

#include "util/Result.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace planscope {

struct Bilingual {
    std::string en, zh_CN;
};

struct LessonQuestion {
    Bilingual text;
    std::string field;        // path in the prediction document; arrays by index or [key=value] ("comm.groups[kind=dp]")
    std::string unit;         // "", "B", "s"
    double tolerance = 0.01;  // relative: an answer within this share of the model's is right
    double answer = 0;        // computed from the step's plan
    Bilingual solution;       // the worked formula
};

struct LessonStep {
    Bilingual text;
    std::string view;         // the app's view name (timeline, memory, comm, ...)
    nlohmann::json plan;      // the whole plan of this step
    std::optional<LessonQuestion> question;
};

struct Lesson {
    std::string id;
    Bilingual title;
    std::vector<std::string> topics;
    std::vector<LessonStep> steps;
};

// The built-in lessons with every answer computed (an error names the lesson and step whose plan does not evaluate).
Result<std::vector<Lesson>> builtinLessons();

// The value at a dotted path of a JSON document: object keys, array indices, and [key=value] to pick the array
// element whose key has that value. Null when the path does not lead to a number.
std::optional<double> valueAtPath(const nlohmann::json& doc, const std::string& path);

nlohmann::json lessonsToJson(const std::vector<Lesson>& lessons);

// The closed-form prediction document (docs/FORMATS.md section 2, `evaluate --analytic`) of a plan given as JSON: what
// every question's `field` is read from. An error says why the plan does not parse or is not valid.
Result<nlohmann::json> analyticPredictionDocument(const nlohmann::json& plan);

// The text with every {path} replaced by the number at that path of doc, written in its unit: a field ending in
// "Seconds" as a duration, in "Bytes" as bytes (GiB), anything else as a plain number; a string as it is. A path that
// leads to neither stays as written.
std::string fillNumbers(const std::string& text, const nlohmann::json& doc);

} // namespace planscope
