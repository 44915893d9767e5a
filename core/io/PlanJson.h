// Plan files (schema planscope/plan/v1): load with field-path errors, save, round-trip; Hugging Face
// config.json import. Pure functions: text in, value or errors out.
#pragma once

#include "spec/Plan.h"
#include "spec/Presets.h"
#include "util/Result.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace planscope {

inline constexpr std::string_view kPlanSchema = "planscope/plan/v1";

// A loaded plan and the warnings met while reading it (unknown fields, defaults applied).
struct LoadedPlan {
    Plan plan;
    Issues warnings;
};

// Parses plan JSON text. Syntax errors carry the byte offset; type and value errors the field path.
Result<LoadedPlan> parsePlan(std::string_view text, const PresetCatalog& presets = PresetCatalog::builtin());
Result<LoadedPlan> planFromJson(const nlohmann::json& j, const PresetCatalog& presets = PresetCatalog::builtin());
Result<LoadedPlan> loadPlanFile(const std::string& path, const PresetCatalog& presets = PresetCatalog::builtin());

// What `planscope-cli validate` and the Python module's validate() report of a read plan: its read errors when it
// does not parse, else the reader's warnings then validate()'s issues; split by severity, each kept in that order.
struct PlanIssues {
    Issues errors, warnings;
};
PlanIssues planIssues(const Result<LoadedPlan>& loaded);

// Writes every field explicitly, so the file reads the same whatever the presets become.
nlohmann::json planToJson(const Plan& plan);
std::string serializePlan(const Plan& plan);

// Reads a model object ("model" in a plan, or an entry of models.json) over a starting spec.
void readModel(const nlohmann::json& j, const std::string& path, ModelSpec& model, Issues& issues);
void readGpu(const nlohmann::json& j, const std::string& path, GpuSpec& gpu, Issues& issues);
void readLinkSpec(const nlohmann::json& j, const std::string& path, LinkSpec& link, Issues& issues);
nlohmann::json modelToJson(const ModelSpec& model);
nlohmann::json gpuToJson(const GpuSpec& gpu);

// Maps a Hugging Face transformers config.json (llama, mistral, mixtral, qwen2, gpt2, gpt_neox, bloom,
// falcon, opt) to a model spec.
Result<ModelSpec> modelFromHuggingFaceConfig(std::string_view configJsonText);

// The most bytes readTextFile() reads by default. Every file PlanScope reads whole is small: plans, profiles,
// Hugging Face configs and nccl-tests outputs are kilobytes, and a PyTorch pipelining CSV of 100,000 microbatches
// on 64 ranks is about 60 MB. Traces are streamed (trace/KinetoImport.h) and have no such limit.
inline constexpr std::int64_t kMaxTextFileBytes = std::int64_t(256) << 20;
// The most bytes of a plan file: a plan is a few kilobytes; the largest legitimate one spells out a pipeline layout
// of the 1,000,000 layers parallel.layout allows, about 2 MB.
inline constexpr std::int64_t kMaxPlanFileBytes = std::int64_t(16) << 20;

// Reads a whole file into a string; errors name the path. Only a regular file is read (util/InputFile.h: a FIFO, a
// device or a folder is refused by its type, a file that cannot be opened says why). A file over maxBytes is refused
// before it is read (its size named), so a wrong file picked by mistake costs neither the memory nor the time of
// parsing it.
Result<std::string> readTextFile(const std::string& path, std::int64_t maxBytes = kMaxTextFileBytes);

} // namespace planscope
