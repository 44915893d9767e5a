// Interview questions made up on demand (docs/FORMATS.md section 10): a topic and a seed give one plan, drawn with
// std::mt19937_64 so that the same seed gives the same question everywhere, a question with its numbers filled in, and
// the answer read from the plan's closed-form prediction at the question's field (the lessons' mechanism,
// core/lessons/Lessons.h), never computed beside the model. English and Simplified Chinese.
#pragma once

#include "lessons/Lessons.h"
#include "util/Result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace planscope {

struct GeneratedQuestion {
    std::string topic;
    std::uint64_t seed = 0;
    nlohmann::json plan;      // the whole plan the question is about (schema planscope/plan/v1); it validates and fits
    std::string view;         // the app's view that shows the answer (timeline, memory, comm)
    LessonQuestion question;  // text, field, unit, tolerance, the model's answer and the worked solution
};

// The topics: pipeline-bubble, zero-memory, ring-allreduce, data-parallel, tensor-parallel.
std::vector<std::string> interviewTopics();

// One question of a topic; an unknown topic is an error naming the topics.
Result<GeneratedQuestion> generateQuestion(const std::string& topic, std::uint64_t seed);

// {schema "planscope/interview/v1", topic, seed, view, plan, question {text, answer, unit, tolerance, field, figure, solution}}.
nlohmann::json interviewToJson(const GeneratedQuestion& q);

} // namespace planscope
