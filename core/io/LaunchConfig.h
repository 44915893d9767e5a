// Plans from launch configurations (docs/FORMATS.md section 7): a Megatron-LM argument list as it is pasted from a
// launch script, with torchrun or srun in front. Every argument it understands becomes a plan field; every other one
// is listed by name, never dropped silently; a value that does not parse and an argument given twice with different
// values are named. Megatron-LM's own defaults stand where an argument is absent (fp32, tied embeddings, biases,
// LayerNorm, learned positions, no distributed optimizer, no overlap), as megatron/training/arguments.py sets them.
#pragma once

#include "spec/Plan.h"
#include "util/Result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

// The words of shell text as a launch script holds them: comments dropped, continuation lines joined, quotes
// removed, NAME=value and NAME=( ... ) assignments taken out and substituted where $NAME, ${NAME} or ${NAME[@]}
// appear later; separators (; && || |) end a word.
std::vector<std::string> shellWords(std::string_view text);

struct ImportedLaunch {
    std::string format;                  // "megatron", "deepspeed", "torchtitan" or "megatron-bridge"
    nlohmann::json plan;                 // the plan file (base with the arguments applied)
    std::vector<std::string> applied;    // "--num-layers 96: model.layers" in the order given
    std::vector<std::string> ignored;    // arguments PlanScope does not model, by name ("--lr", "--data-path")
    std::vector<std::string> launcher;   // the launcher's own words before the script (torchrun, srun and theirs)
    Issues issues;                       // by argument: values that do not parse, conflicts (errors), assumptions (warnings)
    // A Hugging Face model folder or config.json the launch names (torchtitan's model.hf_assets_path), as written;
    // empty when it names none.
    std::string hfAssets;
};

// What the text may not say, given to the import: nodes and GPUs per node of the run (0: the launcher's, else the
// base plan's).
struct LaunchOverrides {
    std::int64_t nodes = 0, gpusPerNode = 0;
    // A Hugging Face config.json's text: the model comes from it, the launch's own model arguments on top.
    std::string hfConfig;
};

// Applies a Megatron-LM argument list to `base` (a plan file's JSON: its cluster, and its model where the list names
// no model). The world size comes from torchrun's --nnodes x --nproc-per-node or srun's --nodes x --ntasks-per-node
// where the text has them, else from the base's cluster; dp = world / (tp x pp x cp), as Megatron-LM derives it.
ImportedLaunch importMegatronArgs(std::string_view text, const nlohmann::json& base, const LaunchOverrides& overrides = {});

// Applies a DeepSpeed configuration (its JSON: train_batch_size, train_micro_batch_size_per_gpu,
// gradient_accumulation_steps, zero_optimization.stage and offload_optimizer, bf16 / fp16, communication_data_type)
// to `base`, whose model and cluster it keeps (a DeepSpeed config names neither): dp = the world (data parallelism
// only), ZeRO by its stage. Every other key is listed by its path; "auto" (set by the Hugging Face trainer) is
// named, not guessed; a JSON error names its byte offset.
ImportedLaunch importDeepSpeedConfig(std::string_view text, const nlohmann::json& base, const LaunchOverrides& overrides = {});

// Applies a torchtitan job config (its TOML: [model] name and flavor, [training], [parallelism],
// [activation_checkpoint], the float8 converter; torchtitan/config/job_config.py before the move to Python configs in
// February 2026) to `base`. The model is the preset named by name and flavor ("llama3" "8B" is llama3-8b), else the
// base's; the world is the base's cluster (torchtitan takes it from torchrun); data_parallel_shard_degree -1 is what
// is left of it. A TOML error names its line, column and byte offset.
ImportedLaunch importTorchtitanToml(std::string_view text, const nlohmann::json& base, const LaunchOverrides& overrides = {});

// Applies a Megatron-Bridge ConfigContainer YAML (model, train, dataset, ddp, optimizer, mixed_precision sections;
// top level or under "ConfigContainer") or a NeMo 1 Megatron GPT YAML (trainer and model sections) to `base`. Their
// field names are Megatron-Core's TransformerConfig and Megatron-LM's argument names, read as those arguments are.
// A YAML error names its line, column and byte offset.
ImportedLaunch importMegatronYaml(std::string_view text, const nlohmann::json& base, const LaunchOverrides& overrides = {});

// The format of a launch config by its content: "deepspeed" (a JSON object), "torchtitan" (TOML tables such as
// [parallelism]), "megatron-bridge" (a YAML mapping whose first key ends with a colon) or "megatron" (anything else).
std::string launchConfigFormat(std::string_view text);

// Any of the above by content (launchConfigFormat), or by `format` where it is not empty or "auto".
ImportedLaunch importLaunchConfig(std::string_view text, const nlohmann::json& base, const LaunchOverrides& overrides = {},
    const std::string& format = {});

// What the import runs on: a base plan (its model, GPU and links), or a GPU preset, or neither (an H100 node, said
// in a warning), and where a Hugging Face folder the launch names is looked for.
struct LaunchImportBase {
    std::optional<nlohmann::json> plan;  // a plan file's JSON
    std::string gpu;                     // a GPU preset id: replaces the plan's GPU, keeps its node count
    std::string name;                    // the imported plan's name
    std::string format;                  // "" or "auto": by content
    std::string directory;               // where a relative hf_assets path is looked for ("": not looked for)
    LaunchOverrides overrides;
};

// An import as the CLI and the app run it: the base built, the text applied, a Hugging Face config the launch names
// read where it is found, and the plan read back by the plan reader.
struct LaunchImport {
    ImportedLaunch imported;
    std::optional<Plan> plan;   // set when nothing is an error
    Issues issues;              // the base's warnings, the import's, the plan reader's errors
    bool failed() const { return !plan.has_value(); }
};
LaunchImport importLaunchPlan(std::string_view text, const LaunchImportBase& base);

// The launch line that runs `plan` with Megatron-LM: torchrun with the plan's nodes and GPUs per node, then every
// argument importMegatronArgs() reads back to the same field (the model's shape, the layout, the precision,
// recompute, overlap, the batch and the tokens as --train-samples). What Megatron-LM has no argument for (a zero-bubble
// or DualPipe schedule, ZeRO-2/3, FSDP) is said in a comment line (# ...) before the command.
std::string exportMegatronArgs(const Plan& plan);

// The torchtitan job config that runs `plan` (TOML), with the torchrun line in a comment: the model by name and flavor
// where it is a preset torchtitan has, the layout (FSDP as data_parallel_shard_degree, HSDP as replicate x shard),
// the schedule, the batch, recompute and float8. What torchtitan has no key for is said in a comment line.
std::string exportTorchtitanToml(const Plan& plan);

} // namespace planscope
