// Plans from launch configurations (docs/FORMATS.md section 7): a Megatron-LM argument list as it is pasted from a
// launch script, with torchrun or srun in front. Every argument it understands becomes a plan field; every other one
// is listed by name, never dropped silently; a value that does not parse and an argument given twice with different
// values are named. Megatron-LM's own defaults stand where an argument is absent (fp32, tied embeddings, biases,
// LayerNorm, learned positions, no distributed optimizer, no overlap), as megatron/training/arguments.py sets them.
#pragma once

#include "util/Result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace planscope {

struct Plan;

// The words of shell text as a launch script holds them: comments dropped, continuation lines joined, quotes
// removed, NAME=value and NAME=( ... ) assignments taken out and substituted where $NAME, ${NAME} or ${NAME[@]}
// appear later; separators (; && || |) end a word.
std::vector<std::string> shellWords(std::string_view text);

struct ImportedLaunch {
    std::string format;                  // "megatron" or "deepspeed"
    nlohmann::json plan;                 // the plan file (base with the arguments applied)
    std::vector<std::string> applied;    // "--num-layers 96: model.layers" in the order given
    std::vector<std::string> ignored;    // arguments PlanScope does not model, by name ("--lr", "--data-path")
    std::vector<std::string> launcher;   // the launcher's own words before the script (torchrun, srun and theirs)
    Issues issues;                       // by argument: values that do not parse, conflicts (errors), assumptions (warnings)
};

// What the text may not say, given to the import: nodes and GPUs per node of the run (0: the launcher's, else the
// base plan's).
struct LaunchOverrides {
    std::int64_t nodes = 0, gpusPerNode = 0;
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

// Either of the above by content: a JSON object is a DeepSpeed config, anything else a Megatron-LM argument list.
ImportedLaunch importLaunchConfig(std::string_view text, const nlohmann::json& base, const LaunchOverrides& overrides = {});

// The launch line that runs `plan` with Megatron-LM: torchrun with the plan's nodes and GPUs per node, then every
// argument importMegatronArgs() reads back to the same field (the model's shape, the layout, the precision,
// recompute, overlap, the batch and the tokens as --train-samples). What Megatron-LM has no argument for (a zero-bubble
// or DualPipe schedule, ZeRO-2/3, FSDP) is said in a comment line (# ...) before the command.
std::string exportMegatronArgs(const Plan& plan);

} // namespace planscope
