// torchtitan TOML and Megatron-Bridge / NeMo YAML launch configs (docs/FORMATS.md section 11). Both are read into the
// Megatron-LM arguments they stand for and applied by importMegatronArgs(), so that one reading of each argument serves
// every format; what only torchtitan has (FSDP degrees, its schedules' names, the pipeline's less-layers weights) is
// applied after. Every key is accounted for: applied (by its own path), or listed as not modelled.
#include "LaunchConfig.h"

#include "io/PlanJson.h"
#include "spec/Presets.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

namespace planscope {

using nlohmann::json;

namespace {

// A key's value as text: strings as written, numbers and booleans as TOML and YAML write them, an array as its
// elements separated by blanks (argparse's nargs lists: recompute_modules = ["core_attn", "mlp"]).
struct Leaf {
    std::string path;
    std::string value;
    bool isBool = false, boolValue = false, isList = false;
};

// The byte offset of a 1-based line and column.
std::int64_t offsetOf(std::string_view text, std::int64_t line, std::int64_t column)
{
    std::int64_t offset = 0;
    for (std::int64_t l = 1; l < line && offset < std::int64_t(text.size()); ++offset)
        if (text[std::size_t(offset)] == '\n') ++l;
    return std::min<std::int64_t>(offset + std::max<std::int64_t>(column - 1, 0), std::int64_t(text.size()));
}

// The words of an argument list written back as shell text (single-quoted: LaunchConfig.cpp's lexer reads them back).
std::string shellText(const std::vector<std::pair<std::string, std::string>>& args)
{
    std::string out = "pretrain_gpt.py";
    for (const auto& [name, value] : args) {
        out += " " + name;
        if (value.empty()) continue;
        // A list is several words, each quoted.
        std::size_t start = 0;
        while (start <= value.size()) {
            const std::size_t blank = value.find(' ', start);
            const std::string word = value.substr(start, blank == std::string::npos ? std::string::npos : blank - start);
            std::string quoted = "'";
            for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            out += " " + quoted + "'";
            if (blank == std::string::npos) break;
            start = blank + 1;
        }
    }
    return out;
}

// The import's own words, said of the config's keys: "--num-layers 32: model.layers" becomes
// "model.num_layers 32: model.layers", an issue at "--num-layers" one at "model.num_layers".
void renameArguments(ImportedLaunch& out, const std::map<std::string, std::string>& keyOf)
{
    for (std::string& a : out.applied) {
        const std::size_t end = a.find_first_of(" :");
        const auto it = keyOf.find(a.substr(0, end));
        if (it != keyOf.end()) a = it->second + a.substr(end);
    }
    for (Issue& i : out.issues)
        if (const auto it = keyOf.find(i.path); it != keyOf.end()) i.path = it->second;
    std::vector<std::string> ignored;
    for (const std::string& s : out.ignored) {
        const auto it = keyOf.find(s);
        const std::string name = it != keyOf.end() ? it->second : s;
        if (std::find(ignored.begin(), ignored.end(), name) == ignored.end()) ignored.push_back(name);
    }
    out.ignored = std::move(ignored);
}

std::optional<std::int64_t> wholeNumber(const std::string& s)
{
    if (s.empty()) return std::nullopt;
    std::size_t i = s[0] == '-' ? 1 : 0;
    if (i == s.size() || s.size() > 18) return std::nullopt;
    for (std::size_t k = i; k < s.size(); ++k)
        if (!std::isdigit(static_cast<unsigned char>(s[k]))) return std::nullopt;
    return std::stoll(s);
}

// --- TOML -----------------------------------------------------------------------------------------------------------

void tomlLeaves(const toml::table& table, const std::string& prefix, std::vector<Leaf>& leaves, int depth = 0)
{
    if (depth > 64) return; // bounded before parsing (kMaxKeyParts); kept here too
    for (const auto& [key, node] : table) {
        const std::string path = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
        if (const toml::table* t = node.as_table()) {
            tomlLeaves(*t, path, leaves, depth + 1);
            continue;
        }
        Leaf leaf { path, {} };
        auto scalar = [](const toml::node& n) -> std::string {
            if (const auto* s = n.as_string()) return s->get();
            if (const auto* i = n.as_integer()) return std::to_string(i->get());
            if (const auto* b = n.as_boolean()) return b->get() ? "true" : "false";
            if (const auto* f = n.as_floating_point()) {
                char buf[40];
                std::snprintf(buf, sizeof buf, "%.17g", f->get());
                return buf;
            }
            return {};
        };
        if (const toml::array* a = node.as_array()) {
            leaf.isList = true;
            for (const toml::node& e : *a) leaf.value += (leaf.value.empty() ? "" : " ") + scalar(e);
        } else if (const auto* b = node.as_boolean()) {
            leaf.isBool = true;
            leaf.boolValue = b->get();
            leaf.value = scalar(node);
        } else {
            leaf.value = scalar(node);
        }
        leaves.push_back(std::move(leaf));
    }
}

// The model preset torchtitan's name and flavor stand for: the id "name-flavor" ("llama3" "8B": llama3-8b), else the
// preset whose id starts with the name and whose name holds the flavor ("deepseek_v3" "671B": deepseek-v3).
const ModelPreset* presetOf(std::string name, std::string flavor)
{
    std::replace(name.begin(), name.end(), '_', '-');
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        return s;
    };
    name = lower(name);
    const PresetCatalog& presets = PresetCatalog::builtin();
    if (const ModelPreset* p = presets.model(name + "-" + lower(flavor))) return p;
    for (const ModelPreset& p : presets.models())
        if (p.spec.preset.rfind(name, 0) == 0 && !flavor.empty()
            && (" " + p.spec.name + " ").find(" " + flavor + " ") != std::string::npos)
            return &p;
    return nullptr;
}

// toml++ bounds inline nesting but not dotted keys (a.b.c...) or table headers: a key of more parts than this is
// refused before the parser recurses into it.
constexpr int kMaxKeyParts = 64;

// The most dot-separated parts of any key or table header, counting dots outside quotes before "=" or inside [...].
int deepestKey(std::string_view text)
{
    int deepest = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos || line[first] == '#') continue;
        const std::size_t stop = line[first] == '[' ? line.find(']', first + 1) : line.find('=');
        int parts = 1;
        char quote = 0;
        for (std::size_t i = first; i < std::min(stop, line.size()); ++i) {
            const char c = line[i];
            if (quote) {
                if (c == quote) quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '.') {
                ++parts;
            }
        }
        deepest = std::max(deepest, parts);
    }
    return deepest;
}

} // namespace

ImportedLaunch importTorchtitanToml(std::string_view text, const json& base, const LaunchOverrides& overrides)
{
    ImportedLaunch failed;
    failed.format = "torchtitan";
    failed.plan = base.is_object() ? base : json::object();
    if (deepestKey(text) > kMaxKeyParts) {
        failed.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "nested more than %1 levels deep"), kMaxKeyParts)));
        return failed;
    }
    toml::table root;
    try {
        root = toml::parse(text);
    } catch (const toml::parse_error& e) {
        const auto& where = e.source().begin;
        failed.issues.push_back(issue(Severity::Error, "",
            Text(PS_TEXT("CoreText", "not TOML: %1 (line %2, column %3)"), std::string(e.description()), std::int64_t(where.line),
                std::int64_t(where.column)),
            offsetOf(text, where.line, where.column)));
        return failed;
    }
    std::vector<Leaf> leaves;
    tomlLeaves(root, "", leaves);
    std::map<std::string, const Leaf*> at;
    for (const Leaf& l : leaves) at[l.path] = &l;
    std::set<std::string> used;
    Issues notes;
    std::vector<std::string> applied;
    auto get = [&](const std::string& path) -> const Leaf* {
        const auto it = at.find(path);
        if (it == at.end()) return nullptr;
        used.insert(path);
        return it->second;
    };
    auto whole = [&](const std::string& path, std::int64_t fallback, std::int64_t least) -> std::int64_t {
        const Leaf* l = get(path);
        if (!l) return fallback;
        const auto v = wholeNumber(l->value);
        if (!v || *v < least || *v > (std::int64_t(1) << 30)) {
            notes.push_back(issue(Severity::Error, path, Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), l->value)));
            return fallback;
        }
        return *v;
    };
    auto flag = [&](const std::string& path) {
        const Leaf* l = get(path);
        if (l && !l->isBool)
            notes.push_back(issue(Severity::Error, path, Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), l->value)));
        return l && l->isBool && l->boolValue;
    };
    auto word = [&](const std::string& path, const std::string& fallback) {
        const Leaf* l = get(path);
        return l ? l->value : fallback;
    };

    // The model: a preset by name and flavor, else the base's (a Hugging Face config the import is given wins).
    json start = failed.plan;
    const std::string name = word("model.name", "llama3"), flavor = word("model.flavor", "");
    if (at.count("model.flavor")) {
        if (const ModelPreset* p = presetOf(name, flavor)) {
            start["model"] = { { "preset", p->spec.preset } };
            applied.push_back("model.name " + name + ", model.flavor " + flavor + ": model.preset " + p->spec.preset);
        } else {
            notes.push_back(issue(Severity::Warning, "model.flavor",
                Text(PS_TEXT("CoreText", "%1 %2 is no model preset: the base plan's model kept (give its Hugging Face config)"), name, flavor)));
        }
    }
    std::string hfAssets = word("model.hf_assets_path", "");
    if (hfAssets.empty()) hfAssets = word("model.tokenizer_path", ""); // before hf_assets_path (torchtitan 0.1)

    // The layout, the batch, the precision and recompute as Megatron-LM's arguments.
    std::vector<std::pair<std::string, std::string>> args;
    std::map<std::string, std::string> keyOf; // argument -> the TOML key it came from
    auto arg = [&](const std::string& argument, const std::string& value, const std::string& key) {
        args.emplace_back(argument, value);
        keyOf[argument] = key;
    };
    const std::int64_t tp = whole("parallelism.tensor_parallel_degree", 1, 1);
    const std::int64_t pp = whole("parallelism.pipeline_parallel_degree", 1, 1);
    const std::int64_t cp = whole("parallelism.context_parallel_degree", 1, 1);
    const std::int64_t ep = whole("parallelism.expert_parallel_degree", 1, 1);
    const std::int64_t etp = whole("parallelism.expert_tensor_parallel_degree", 1, 1);
    const std::int64_t replicate = whole("parallelism.data_parallel_replicate_degree", 1, 1);
    const std::int64_t shard = whole("parallelism.data_parallel_shard_degree", -1, -1);
    arg("--tensor-model-parallel-size", std::to_string(tp), "parallelism.tensor_parallel_degree");
    arg("--pipeline-model-parallel-size", std::to_string(pp), "parallelism.pipeline_parallel_degree");
    arg("--context-parallel-size", std::to_string(cp), "parallelism.context_parallel_degree");
    if (ep > 1) arg("--expert-model-parallel-size", std::to_string(ep), "parallelism.expert_parallel_degree");
    if (ep > 1) // torchtitan's default expert tensor parallelism is 1, not tp
        arg("--expert-tensor-parallel-size", std::to_string(etp), "parallelism.expert_tensor_parallel_degree");
    // torchtitan's sequence parallelism goes with its tensor parallelism (torchtitan/models/llama3/infra/parallelize.py).
    if (tp > 1) arg("--sequence-parallel", "", "parallelism.tensor_parallel_degree");
    if (flag("parallelism.enable_async_tensor_parallel")) arg("--tp-comm-overlap", "", "parallelism.enable_async_tensor_parallel");

    // The world: the base's cluster (torchtitan takes it from torchrun), or what the import is given.
    const json cluster = failed.plan.contains("cluster") && failed.plan["cluster"].is_object() ? failed.plan["cluster"] : json::object();
    const std::int64_t nodes = overrides.nodes > 0 ? overrides.nodes : cluster.value("nodes", std::int64_t(0));
    const std::int64_t perNode = overrides.gpusPerNode > 0 ? overrides.gpusPerNode : cluster.value("gpusPerNode", std::int64_t(0));
    const std::int64_t world = nodes * perNode;
    // Each degree is at most 2^30: the product is taken only where it stays within the world (no overflow).
    const bool within = world > 0 && tp <= world && pp <= world / tp && cp <= world / (tp * pp);
    const std::int64_t dp = within && world % (tp * pp * cp) == 0 ? world / (tp * pp * cp) : 0;

    // The batch: local_batch_size per data-parallel rank; with a pipeline, microbatches of
    // pipeline_parallel_microbatch_size; global_batch_size -1 is local x dp (torchtitan/config/job_config.py).
    const std::int64_t local = whole("training.local_batch_size", whole("training.batch_size", 8, 1), 1);
    const std::int64_t micro = pp > 1 ? whole("parallelism.pipeline_parallel_microbatch_size", 1, 1) : local;
    std::int64_t global = whole("training.global_batch_size", -1, -1);
    if (global <= 0 && dp > 0 && local <= (std::int64_t(1) << 62) / dp) global = local * dp;
    arg("--micro-batch-size", std::to_string(micro), pp > 1 ? "parallelism.pipeline_parallel_microbatch_size" : "training.local_batch_size");
    if (global > 0)
        arg("--global-batch-size", std::to_string(global), at.count("training.global_batch_size") && whole("training.global_batch_size", -1, -1) > 0
                ? "training.global_batch_size" : "training.local_batch_size x dp");
    if (pp > 1 && local % micro != 0)
        notes.push_back(issue(Severity::Error, "parallelism.pipeline_parallel_microbatch_size",
            Text(PS_TEXT("CoreText", "%1 does not divide training.local_batch_size %2"), micro, local)));
    // torchtitan's defaults where the file is silent: 2,048 tokens, 10,000 steps.
    arg("--seq-length", std::to_string(whole("training.seq_len", 2048, 1)), "training.seq_len");
    arg("--train-iters", std::to_string(whole("training.steps", 10000, 1)), "training.steps");

    // Precision: FSDP's mixed precision keeps bf16 parameters and reduces in fp32 by default; training.dtype bfloat16
    // is bf16 throughout.
    const std::string dtype = word("training.dtype", "float32");
    const std::string param = word("training.mixed_precision_param", "bfloat16");
    const std::string reduce = word("training.mixed_precision_reduce", "float32");
    if (dtype == "bfloat16") {
        arg("--bf16", "", "training.dtype");
    } else if (param == "bfloat16") {
        arg("--bf16", "", "training.mixed_precision_param");
        if (reduce == "float32") arg("--accumulate-allreduce-grads-in-fp32", "", "training.mixed_precision_reduce");
    }
    // float8: the converter by its name (model.converters, torchtitan's "float8" or "quantize.linear.float8"), its
    // recipe by recipe_name (tensorwise by default), mx for MXFP8.
    const std::string converters = " " + word("model.converters", "") + " ";
    const bool float8 = converters.find(" float8 ") != std::string::npos || converters.find(" quantize.linear.float8 ") != std::string::npos;
    const bool mx = converters.find(" mx ") != std::string::npos || converters.find(" quantize.linear.mx ") != std::string::npos;
    if (float8 || mx) {
        arg("--fp8-format", "hybrid", "model.converters");
        std::string recipe = word("quantize.linear.float8.recipe_name", word("float8.recipe_name", "tensorwise"));
        if (mx) recipe = "mxfp8";
        if (recipe != "tensorwise" && recipe != "mxfp8")
            notes.push_back(issue(Severity::Warning, "float8.recipe_name",
                Text(PS_TEXT("CoreText", "%1 scaling is modelled as per-tensor current scaling"), recipe)));
        arg("--fp8-recipe", recipe == "mxfp8" ? "mxfp8" : "tensorwise", "model.converters");
        for (const char* key : { "quantize.linear.float8.enable_fsdp_float8_all_gather", "float8.enable_fsdp_float8_all_gather" })
            if (flag(key)) arg("--fp8-param-gather", "", key);
    }
    // Activation checkpointing: full, op-level selective, or every n-th layer in full.
    const std::string mode = word("activation_checkpoint.mode", "selective");
    const std::string option = word("activation_checkpoint.selective_ac_option", "2");
    std::int64_t everyNth = 0;
    if (mode == "full") {
        arg("--recompute-granularity", "full", "activation_checkpoint.mode");
        arg("--recompute-method", "uniform", "activation_checkpoint.mode");
        arg("--recompute-num-layers", "1", "activation_checkpoint.mode");
    } else if (mode == "selective" && option == "op") {
        arg("--recompute-granularity", "selective", "activation_checkpoint.selective_ac_option");
    } else if (mode == "selective") {
        const auto n = wholeNumber(option);
        if (!n || *n < 1) {
            notes.push_back(issue(Severity::Error, "activation_checkpoint.selective_ac_option",
                Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), option)));
        } else if (*n == 1) {
            arg("--recompute-granularity", "full", "activation_checkpoint.selective_ac_option");
            arg("--recompute-method", "uniform", "activation_checkpoint.selective_ac_option");
            arg("--recompute-num-layers", "1", "activation_checkpoint.selective_ac_option");
        } else {
            everyNth = *n;
        }
    } else if (mode == "memory_budget") {
        notes.push_back(issue(Severity::Warning, "activation_checkpoint.mode",
            Text(PS_TEXT("CoreText", "memory_budget (the compiler's choice of what to save) is not modelled: no recompute"))));
    } else if (mode != "none") {
        notes.push_back(issue(Severity::Error, "activation_checkpoint.mode", Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), mode)));
    }
    // The optimizer by torchtitan's name (torchtitan/components/optimizer.py: Adam, AdamW, and others).
    if (const Leaf* o = get("optimizer.name")) {
        std::string v = o->value;
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (v == "adam" || v == "adamw") arg("--optimizer", "adam", "optimizer.name");
        else if (v == "muon" || v == "sgd") arg("--optimizer", v, "optimizer.name");
        else used.erase("optimizer.name");
    }
    if (flag("training.enable_cpu_offload")) arg("--optimizer-cpu-offload", "", "training.enable_cpu_offload");

    // The pipeline's keys are read (and checked) here, before the notes join the import's issues.
    const std::int64_t layersPerStage = whole("parallelism.pipeline_parallel_layers_per_stage", 0, 1);
    const std::int64_t firstLess = whole("parallelism.pipeline_parallel_first_stage_less_layers", 1, 0);
    const std::int64_t lastLess = whole("parallelism.pipeline_parallel_last_stage_less_layers", 1, 0);
    ImportedLaunch out = importMegatronArgs(shellText(args), start, overrides);
    out.format = "torchtitan";
    out.launcher.clear();
    out.hfAssets = hfAssets;
    renameArguments(out, keyOf);
    out.applied.insert(out.applied.begin(), applied.begin(), applied.end());
    out.issues.insert(out.issues.begin(), notes.begin(), notes.end());
    json& parallel = out.plan["parallel"];
    json& training = out.plan["training"];

    // Data parallelism: replicate x shard = dp; -1 shard is what is left (FSDP), replicate > 1 with shard > 1 HSDP.
    if (dp > 0) {
        const std::int64_t shards = shard == -1 ? (dp % replicate == 0 ? dp / replicate : 0) : shard;
        if (shards < 1 || replicate * shards != dp) {
            out.issues.push_back(issue(Severity::Error, "parallelism.data_parallel_shard_degree",
                Text(PS_TEXT("CoreText", "replicate %1 x shard %2 is not the %3 data-parallel ranks the world leaves"), replicate, shard, dp)));
        } else if (shards > 1) {
            parallel["fsdp"] = replicate > 1 ? "hybrid" : "full";
            parallel["zero"] = 3;
            out.applied.push_back("parallelism.data_parallel_shard_degree " + std::to_string(shards) + ": parallel.fsdp "
                + (replicate > 1 ? "hybrid" : "full"));
            const std::int64_t inNode = perNode > 0 ? std::max<std::int64_t>(perNode / (tp * cp), 1) : 0;
            if (replicate > 1 && shards != inNode)
                out.issues.push_back(issue(Severity::Warning, "parallelism.data_parallel_shard_degree",
                    Text(PS_TEXT("CoreText", "HSDP shards over %1 ranks; PlanScope's hybrid FSDP shards within a node (%2 ranks)"), shards, inNode)));
            // FSDP prefetches the next layer's weights and reduces gradients while the backward runs.
            training["overlapGradReduce"] = true;
        } else {
            training["overlapGradReduce"] = true; // DDP's bucketed all-reduce runs during the backward
        }
    }
    if (dp > 0 && at.count("parallelism.data_parallel_replicate_degree")) used.insert("parallelism.data_parallel_replicate_degree");

    // The pipeline schedule by torch.distributed.pipelining's name; looped schedules hold two stages per rank unless
    // pipeline_parallel_layers_per_stage says (torchtitan/distributed/pipeline_parallel.py).
    if (pp > 1) {
        const std::string schedule = word("parallelism.pipeline_parallel_schedule", "1F1B");
        static const std::map<std::string, std::pair<const char*, bool>> kSchedules = { { "1F1B", { "1f1b", false } },
            { "GPipe", { "gpipe", false } }, { "Interleaved1F1B", { "interleaved-1f1b", true } }, { "LoopedBFS", { "looped-bfs", true } },
            { "InterleavedZeroBubble", { "zb-h1", true } }, { "ZBVZeroBubble", { "zb-v", false } }, { "DualPipeV", { "dualpipe-v", false } } };
        const auto it = kSchedules.find(schedule);
        if (it == kSchedules.end()) {
            out.issues.push_back(issue(Severity::Error, "parallelism.pipeline_parallel_schedule",
                Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), schedule)));
        } else {
            training["schedule"] = it->second.first;
            out.applied.push_back("parallelism.pipeline_parallel_schedule " + schedule + ": training.schedule");
            std::int64_t perRank = it->second.second ? 2 : 1;
            const std::int64_t layers = layersPerStage, first = firstLess, last = lastLess;
            std::int64_t modelLayers = 0;
            if (auto parsed = planFromJson(out.plan); parsed) modelLayers = parsed->plan.model.layers;
            if (layers > 0 && modelLayers > 0) {
                const std::int64_t stages = (modelLayers + first + last + layers - 1) / layers;
                if (stages % pp != 0)
                    out.issues.push_back(issue(Severity::Error, "parallelism.pipeline_parallel_layers_per_stage",
                        Text(PS_TEXT("CoreText", "%1 stages are not a multiple of the %2 pipeline ranks"), stages, pp)));
                else
                    perRank = stages / pp;
            }
            if (it->second.second) {
                parallel["vpp"] = perRank;
                out.applied.push_back("stages per pipeline rank " + std::to_string(perRank) + ": parallel.vpp");
            }
            if (schedule == "InterleavedZeroBubble")
                out.issues.push_back(issue(Severity::Warning, "parallelism.pipeline_parallel_schedule",
                    Text(PS_TEXT("CoreText", "interleaved zero bubble is modelled as ZB-H1"))));
            // The embedding and the loss count as first_less / last_less layers of the split (torchtitan's default 1
            // each: Megatron-Core's account_for_embedding/loss_in_pipeline_split).
            if (first > 1 || last > 1)
                out.issues.push_back(issue(Severity::Warning, "parallelism.pipeline_parallel_first_stage_less_layers",
                    Text(PS_TEXT("CoreText", "more than one layer fewer on the first or last stage is not modelled: one fewer"))));
            if (first >= 1) parallel["embeddingInSplit"] = true;
            if (last >= 1) parallel["lossInSplit"] = true;
        }
    }
    if (everyNth > 0) {
        // Every n-th layer checkpointed in full: as many layers of each stage recomputed, by block.
        std::int64_t perStage = 0;
        if (auto parsed = planFromJson(out.plan); parsed)
            perStage = parsed->plan.model.layers / std::max<std::int64_t>(pp * parallel.value("vpp", std::int64_t(1)), 1);
        training["recompute"] = "full";
        training["recomputeMethod"] = "block";
        training["recomputeLayers"] = std::max<std::int64_t>(perStage / everyNth, 1);
        out.applied.push_back("activation_checkpoint.selective_ac_option " + option + ": training.recompute full, every " + option
            + "th layer (training.recomputeLayers by block)");
    }
    for (const std::string& key : { std::string("parallelism.pipeline_parallel_first_stage_less_layers"),
             std::string("parallelism.pipeline_parallel_last_stage_less_layers"), std::string("parallelism.pipeline_parallel_layers_per_stage"),
             std::string("parallelism.pipeline_parallel_schedule") })
        if (pp > 1 && at.count(key)) used.insert(key);

    // Every other key, by its path.
    for (const Leaf& l : leaves)
        if (!used.count(l.path) && std::find(out.ignored.begin(), out.ignored.end(), l.path) == out.ignored.end())
            out.ignored.push_back(l.path);
    return out;
}

// --- YAML ------------------------------------------------------------------------------------------------------------

namespace {

// A YAML document's leaves. Anchors and aliases are read as yaml-cpp resolves them; a budget of nodes bounds what a
// chain of aliases can expand to ("billion laughs").
bool yamlLeaves(const YAML::Node& node, const std::string& path, std::vector<Leaf>& leaves, std::int64_t& budget, int depth)
{
    if (--budget < 0 || depth > 64) return false;
    switch (node.Type()) {
    case YAML::NodeType::Map:
        for (const auto& kv : node) {
            if (!kv.first.IsScalar()) continue;
            const std::string key = kv.first.Scalar();
            if (key == "_target_") continue; // Hydra's class to instantiate, not a setting
            if (!yamlLeaves(kv.second, path.empty() ? key : path + "." + key, leaves, budget, depth + 1)) return false;
        }
        return true;
    case YAML::NodeType::Sequence: {
        Leaf leaf { path, {} };
        leaf.isList = true;
        for (const auto& e : node) {
            if (--budget < 0) return false;
            if (e.IsScalar()) leaf.value += (leaf.value.empty() ? "" : " ") + e.Scalar();
        }
        leaves.push_back(std::move(leaf));
        return true;
    }
    case YAML::NodeType::Scalar: {
        Leaf leaf { path, node.Scalar() };
        std::string v = leaf.value;
        std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (node.Tag() != "!" && (v == "true" || v == "false")) { // YAML 1.2's booleans ("True" as Python writes them too)
            leaf.isBool = true;
            leaf.boolValue = v == "true";
        }
        leaves.push_back(std::move(leaf));
        return true;
    }
    default:
        return true; // null: as if absent (Megatron-Bridge writes unset optionals as null)
    }
}

// A Megatron-Core TransformerConfig / Megatron-Bridge field that is not Megatron-LM's argument name with dashes.
struct Rename {
    const char* key;      // the key's last part
    const char* argument; // Megatron-LM's argument
    int kind;             // 0 value, 1 switch when true, 2 switch when false, 3 value of a NeMo 1 / Bridge word
};
constexpr Rename kRenames[] = {
    { "num_moe_experts", "--num-experts", 0 },
    { "gated_linear_unit", "--swiglu", 1 },
    { "share_embeddings_and_output_weights", "--untie-embeddings-and-output-weights", 2 },
    { "add_bias_linear", "--disable-bias-linear", 2 },
    { "bias", "--disable-bias-linear", 2 },
    { "overlap_p2p_comm", "--no-overlap-p2p-communication", 2 },
    { "virtual_pipeline_model_parallel_size", "--num-virtual-stages-per-pipeline-rank", 0 },
    { "num_layers_in_first_pipeline_stage", "--decoder-first-pipeline-num-layers", 0 },
    { "num_layers_in_last_pipeline_stage", "--decoder-last-pipeline-num-layers", 0 },
    { "encoder_seq_length", "--seq-length", 0 },
    { "grad_reduce_in_fp32", "--accumulate-allreduce-grads-in-fp32", 1 },
    { "activations_checkpoint_granularity", "--recompute-granularity", 0 },
    { "activations_checkpoint_method", "--recompute-method", 0 },
    { "activations_checkpoint_num_layers", "--recompute-num-layers", 0 },
    { "fp8", "--fp8-format", 3 },
    { "normalization", "--normalization", 3 },
    { "activation", "--swiglu", 3 },
    { "moe_router_enable_expert_bias", "--moe-router-enable-expert-bias", 1 },
    { "multi_latent_attention", "--multi-latent-attention", 1 },
};

} // namespace

ImportedLaunch importMegatronYaml(std::string_view text, const json& base, const LaunchOverrides& overrides)
{
    ImportedLaunch failed;
    failed.format = "megatron-bridge";
    failed.plan = base.is_object() ? base : json::object();
    // Flow collections nest without indentation: bounded before yaml-cpp's recursive parser sees them.
    int depth = 0, deepest = 0;
    for (char c : text) {
        if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
        if ((c == ']' || c == '}') && depth > 0) --depth;
    }
    if (deepest > 64) {
        failed.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "nested more than %1 levels deep"), 64)));
        return failed;
    }
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        failed.issues.push_back(issue(Severity::Error, "",
            Text(PS_TEXT("CoreText", "not YAML: %1 (line %2, column %3)"), e.msg, std::int64_t(e.mark.line) + 1, std::int64_t(e.mark.column) + 1),
            e.mark.pos >= 0 ? std::int64_t(e.mark.pos) : -1));
        return failed;
    }
    if (!root.IsMap()) {
        failed.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "not a YAML mapping of sections (model:, train:, ...)"))));
        return failed;
    }
    std::vector<Leaf> leaves;
    std::int64_t budget = 200000;
    bool whole = false;
    try {
        whole = yamlLeaves(root, "", leaves, budget, 0);
    } catch (const YAML::Exception& e) {
        failed.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "not YAML: %1 (line %2, column %3)"), e.msg,
                                                                  std::int64_t(e.mark.line) + 1, std::int64_t(e.mark.column) + 1)));
        return failed;
    }
    if (!whole) {
        failed.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "more than %1 values (aliases expanded)"), 200000)));
        return failed;
    }

    // Sections: Megatron-Bridge's ConfigContainer (perhaps under "ConfigContainer:"), NeMo 1's trainer and model.
    const bool nemo1 = std::any_of(leaves.begin(), leaves.end(), [](const Leaf& l) { return l.path.rfind("trainer.", 0) == 0; });
    std::vector<std::pair<std::string, std::string>> args;
    std::map<std::string, std::string> keyOf;
    std::set<std::string> used;
    Issues notes;
    LaunchOverrides world = overrides;
    auto arg = [&](const std::string& argument, const std::string& value, const Leaf& l) {
        // The same argument from two keys (model.seq_length and dataset.seq_length): a second, equal value is the same.
        for (const auto& [a, v] : args)
            if (a == argument && v == value) {
                used.insert(l.path);
                return;
            }
        args.emplace_back(argument, value);
        keyOf[argument] = l.path;
        used.insert(l.path);
    };
    auto bad = [&](const Leaf& l) {
        notes.push_back(issue(Severity::Error, l.path, Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), l.value)));
        used.insert(l.path);
    };
    // OmegaConf interpolations of a whole value (${model.encoder_seq_length}): the value they name.
    std::map<std::string, std::string> valueAt;
    for (const Leaf& l : leaves) valueAt[l.path] = l.value;
    for (Leaf& l : leaves) {
        for (int hop = 0; hop < 8 && l.value.size() > 3 && l.value.rfind("${", 0) == 0 && l.value.back() == '}'; ++hop) {
            std::string target = l.value.substr(2, l.value.size() - 3);
            // ${.name}: a key beside this one (OmegaConf's relative interpolation).
            if (!target.empty() && target[0] == '.') target = l.path.substr(0, l.path.rfind('.')) + target;
            const auto it = valueAt.find(target);
            if (it == valueAt.end()) break;
            l.value = it->second;
        }
    }
    for (const Leaf& l : leaves) {
        std::string path = l.path;
        if (path.rfind("ConfigContainer.", 0) == 0) path = path.substr(16);
        const std::size_t dot = path.find('.');
        const std::string section = dot == std::string::npos ? std::string() : path.substr(0, dot);
        const std::string key = path.substr(path.rfind('.') + 1);
        static const std::set<std::string> kSections = { "model", "train", "dataset", "ddp", "optimizer", "mixed_precision",
            "comm_overlap", "dist", "trainer" };
        if (!kSections.count(section) && path != "mixed_precision") continue;
        if (l.value.rfind("${", 0) == 0) {
            notes.push_back(issue(Severity::Warning, l.path,
                Text(PS_TEXT("CoreText", "%1: an interpolation PlanScope does not resolve; not applied"), l.value)));
            used.insert(l.path);
            continue;
        }
        // NeMo 1's optimizer: distributed_fused_adam is the distributed optimizer.
        if (path == "model.optim.name") {
            if (l.value == "distributed_fused_adam") arg("--use-distributed-optimizer", "", l);
            else used.insert(l.path);
            continue;
        }
        // Only a section's own keys are settings; deeper ones (model.data.*, model.tokenizer.*) are listed.
        if (path.find('.', dot + 1) != std::string::npos) continue;
        // NeMo 1's trainer: the world and the precision.
        if (section == "trainer") {
            const auto n = wholeNumber(l.value);
            if (key == "num_nodes" && n && *n > 0 && overrides.nodes <= 0) {
                world.nodes = *n;
                used.insert(l.path);
            } else if (key == "devices" && n && *n > 0 && overrides.gpusPerNode <= 0) {
                world.gpusPerNode = *n;
                used.insert(l.path);
            } else if (key == "precision") {
                if (l.value.find("bf16") != std::string::npos) arg("--bf16", "", l);
                else if (l.value == "16" || l.value.find("16-mixed") != std::string::npos) arg("--fp16", "", l);
                else if (l.value == "32" || l.value == "32-true") used.insert(l.path);
                else bad(l);
            } else if (key == "max_steps" && n && *n > 0) {
                arg("--train-iters", l.value, l);
            }
            continue;
        }
        // Megatron-Bridge's mixed-precision recipe by name (megatron/bridge/training/mixed_precision.py).
        if (path == "mixed_precision" || (section == "mixed_precision" && key == "mixed_precision")) {
            const std::string& v = l.value;
            if (v.find("bf16") == 0) arg("--bf16", "", l);
            else if (v.find("fp16") == 0) arg("--fp16", "", l);
            else bad(l);
            if (v.find("fp8") != std::string::npos || v.find("mxfp8") != std::string::npos) {
                arg("--fp8-format", "hybrid", l);
                const char* recipe = v.find("mxfp8") != std::string::npos ? "mxfp8"
                    : v.find("delayed") != std::string::npos             ? "delayed"
                    : v.find("subchannel") != std::string::npos || v.find("blockwise") != std::string::npos ? "blockwise"
                                                                                                              : "tensorwise";
                arg("--fp8-recipe", recipe, l);
            }
            continue;
        }
        // Megatron-Core has no switch for grouped-query attention: num_query_groups alone says it.
        if (key == "num_query_groups" && !l.isBool) {
            arg("--group-query-attention", "", l);
            arg("--num-query-groups", l.value, l);
            continue;
        }
        const Rename* rename = nullptr;
        for (const Rename& r : kRenames)
            if (key == r.key) rename = &r;
        if (rename) {
            if (rename->kind == 1 && l.isBool) {
                if (l.boolValue) arg(rename->argument, "", l);
                else used.insert(l.path);
            } else if (rename->kind == 2 && l.isBool) {
                if (!l.boolValue) arg(rename->argument, "", l);
                else used.insert(l.path);
            } else if (rename->kind == 0 && !l.isBool) {
                arg(rename->argument, l.value, l);
            } else if (rename->kind == 3) {
                if (key == "fp8") {
                    if (l.isBool) { // NeMo 1: fp8 True with fp8_hybrid
                        if (l.boolValue) arg("--fp8-format", "hybrid", l);
                        else used.insert(l.path);
                    } else if (l.value == "hybrid" || l.value == "e4m3") {
                        arg("--fp8-format", l.value, l);
                    } else {
                        bad(l);
                    }
                } else if (key == "normalization") {
                    std::string v = l.value;
                    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::tolower(c)); });
                    if (v == "rmsnorm") arg("--normalization", "RMSNorm", l);
                    else if (v == "layernorm" || v == "layernorm1p") arg("--normalization", "LayerNorm", l);
                    else bad(l);
                } else if (key == "activation") { // NeMo 1: swiglu, fast-swiglu, gelu
                    // NeMo's gated activations (swiglu, geglu, reglu and their fast- forms) are a gated MLP; gelu,
                    // relu and squared-relu are not. The activation itself costs the same here.
                    const std::string& v = l.value;
                    const bool gated = v.size() >= 3 && v.compare(v.size() - 3, 3, "glu") == 0 && v != "gelu";
                    if (gated) arg("--swiglu", "", l);
                    else used.insert(l.path);
                    if (v.find("swiglu") == std::string::npos && gated)
                        notes.push_back(issue(Severity::Warning, l.path, Text(PS_TEXT("CoreText", "%1 is modelled as SwiGLU: the same gated MLP"), v)));
                }
            } else {
                bad(l);
            }
            continue;
        }
        // Every other key is the argument of its name (Megatron-Core's TransformerConfig names its fields as
        // Megatron-LM names its arguments, with underscores): a true boolean a switch, a false one its absence.
        std::string argument = "--" + key;
        std::replace(argument.begin(), argument.end(), '_', '-');
        if (l.isBool) {
            if (l.boolValue) arg(argument, "", l);
            else {
                args.emplace_back("#false", argument); // recorded, not given
                keyOf[argument] = l.path;
            }
        } else {
            arg(argument, l.value, l);
        }
    }
    // A false switch is the default: not an argument, but applied as what it says (listed as not modelled where the
    // import does not know it).
    std::vector<std::string> falseSwitches;
    args.erase(std::remove_if(args.begin(), args.end(), [&](const auto& a) {
        if (a.first != "#false") return false;
        falseSwitches.push_back(a.second);
        return true;
    }), args.end());
    if (world.nodes <= 0 && world.gpusPerNode > 0 && !(failed.plan.contains("cluster") && failed.plan["cluster"].contains("nodes"))) world.nodes = 1;

    ImportedLaunch out = importMegatronArgs(shellText(args), failed.plan, world);
    out.format = nemo1 ? "nemo" : "megatron-bridge";
    out.launcher.clear();
    // An argument importMegatronArgs knows (a switch it reads) given false: the default it already took.
    for (const std::string& a : falseSwitches) {
        std::vector<std::pair<std::string, std::string>> probe { { a, "" } };
        const ImportedLaunch p = importMegatronArgs(shellText(probe), failed.plan, world);
        if (std::find(p.ignored.begin(), p.ignored.end(), a) == p.ignored.end()) {
            used.insert(keyOf[a]);
            out.applied.push_back(keyOf[a] + " false: Megatron-LM's default");
        } else {
            out.ignored.push_back(a);
        }
    }
    renameArguments(out, keyOf);
    if (world.nodes != overrides.nodes && world.nodes > 0) {
        for (std::string& a : out.applied)
            if (a.find("(given to the import): cluster.nodes") != std::string::npos) a = "trainer.num_nodes " + std::to_string(world.nodes) + ": cluster.nodes";
    }
    if (world.gpusPerNode != overrides.gpusPerNode && world.gpusPerNode > 0) {
        for (std::string& a : out.applied)
            if (a.find("(given to the import): cluster.gpusPerNode") != std::string::npos)
                a = "trainer.devices " + std::to_string(world.gpusPerNode) + ": cluster.gpusPerNode";
    }
    out.issues.insert(out.issues.begin(), notes.begin(), notes.end());
    // Keys of the sections PlanScope reads that the import did not use, then every other key, by path.
    std::vector<std::string> ignored;
    for (const Leaf& l : leaves)
        if (!used.count(l.path)) ignored.push_back(l.path);
    for (const std::string& s : out.ignored)
        if (s.rfind("--", 0) != 0 && std::find(ignored.begin(), ignored.end(), s) == ignored.end()) ignored.push_back(s);
    out.ignored = std::move(ignored);
    return out;
}

std::string launchConfigFormat(std::string_view text)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') return "deepspeed";
    // The first line that is neither blank nor a comment.
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        const std::size_t s = line.find_first_not_of(" \t\r");
        if (s == std::string_view::npos || line[s] == '#') continue;
        line = line.substr(s);
        // A YAML document marker or directive.
        if (line == "---" || line.rfind("--- ", 0) == 0 || line.rfind("%YAML", 0) == 0) return "megatron-bridge";
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        // A TOML table header: [name] or [a.b.c].
        if (line.size() > 2 && line.front() == '[' && line.back() == ']'
            && std::all_of(line.begin() + 1, line.end() - 1,
                [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '['; }))
            return "torchtitan";
        // A TOML key = value before any table.
        const std::size_t eq = line.find(" = ");
        if (eq != std::string_view::npos && std::all_of(line.begin(), line.begin() + std::ptrdiff_t(eq),
                                                 [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }))
            return "torchtitan";
        // A YAML mapping key: name: (a shell line has no word ending in a colon at its start).
        const std::size_t colon = line.find(':');
        if (colon != std::string_view::npos && colon > 0 && (colon + 1 == line.size() || line[colon + 1] == ' ')
            && std::all_of(line.begin(), line.begin() + std::ptrdiff_t(colon),
                [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }))
            return "megatron-bridge";
        return "megatron";
    }
    return "megatron";
}

std::string exportTorchtitanToml(const Plan& plan)
{
    const ModelSpec& m = plan.model;
    const ParallelSpec& q = plan.parallel;
    const TrainingSpec& t = plan.training;
    std::vector<std::string> notes;
    auto quote = [](const std::string& s) {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') out += '\\';
            if (c == '\n' || c == '\r') c = ' ';
            out += c;
        }
        return out + "\"";
    };
    auto num = [](auto v) { return std::to_string(v); };
    // The model: torchtitan knows it by name and flavor (its model registry); a preset's id "llama3-8b" is llama3 8B.
    std::string name = "llama3", flavor;
    const std::size_t dash = m.preset.find('-');
    if (!m.preset.empty() && PresetCatalog::builtin().model(m.preset)) {
        const ModelPreset* p = PresetCatalog::builtin().model(m.preset);
        if (dash != std::string::npos && std::isdigit(static_cast<unsigned char>(m.preset[dash + 1]))) {
            name = m.preset.substr(0, dash);
            flavor = m.preset.substr(dash + 1);
            std::transform(flavor.begin(), flavor.end(), flavor.begin(), [](unsigned char c) { return char(std::toupper(c)); });
        } else {
            name = m.preset;
            std::replace(name.begin(), name.end(), '-', '_');
            const std::size_t space = p->spec.name.rfind(' ');
            flavor = space == std::string::npos ? p->spec.name : p->spec.name.substr(space + 1);
        }
    } else {
        notes.push_back("the model (" + num(m.layers) + " layers x " + num(m.hidden) + ") is no preset: give torchtitan a flavor of this shape");
    }
    // Data parallelism: FSDP shards over all of dp; hybrid FSDP within a node's data-parallel ranks, replicated across
    // the rest; without FSDP every rank a replica.
    const int dp = std::max(1, q.dp);
    int shard = 1;
    if (q.fsdp == Fsdp::Full) shard = dp;
    if (q.fsdp == Fsdp::Hybrid) shard = std::clamp(plan.cluster.gpusPerNode / std::max(1, q.tp * q.cp), 1, dp);
    if (dp % shard != 0) shard = 1;
    const int replicate = dp / shard;
    if (q.fsdp == Fsdp::None && q.zero >= 1) notes.push_back("ZeRO-" + num(q.zero) + " without FSDP: torchtitan shards with FSDP only (written as DDP)");
    if (q.vpp > 1 && t.schedule != ScheduleKind::Interleaved1F1B && t.schedule != ScheduleKind::LoopedBFS)
        notes.push_back("vpp " + num(q.vpp) + " with this schedule");
    if (q.firstStageLayers > 0 || q.lastStageLayers > 0 || !q.layout.empty()) notes.push_back("an uneven pipeline split (module_fqns_per_model_part says it)");
    if (!t.overlapP2pComm) notes.push_back("pipeline sends not overlapped");
    if (t.offload.optimizerFraction > 0 && t.offload.optimizerFraction < 1) notes.push_back("a partial optimizer offload (enable_cpu_offload moves all of it)");
    std::string schedule = "1F1B";
    switch (t.schedule) {
    case ScheduleKind::GPipe: schedule = "GPipe"; break;
    case ScheduleKind::OneFOneB: schedule = "1F1B"; break;
    case ScheduleKind::Interleaved1F1B: schedule = "Interleaved1F1B"; break;
    case ScheduleKind::LoopedBFS: schedule = "LoopedBFS"; break;
    case ScheduleKind::ZBH1: schedule = "InterleavedZeroBubble"; break;
    case ScheduleKind::ZBV: schedule = "ZBVZeroBubble"; break;
    case ScheduleKind::DualPipeV: schedule = "DualPipeV"; break;
    default: notes.push_back("schedule " + std::string(toString(t.schedule)) + ": no torch.distributed.pipelining schedule (1F1B written)");
    }

    std::string planName = plan.name;
    std::replace(planName.begin(), planName.end(), '\n', ' ');
    std::replace(planName.begin(), planName.end(), '\r', ' ');
    std::string out = "# " + planName + ": written by planscope-cli export-config for torchtitan (torchtitan/config/job_config.py)\n";
    for (const std::string& n : notes) out += "# not expressed: " + n + "\n";
    out += "# torchrun --nnodes " + num(plan.cluster.nodes) + " --nproc_per_node " + num(plan.cluster.gpusPerNode)
        + " -m torchtitan.train --job.config_file THIS.toml\n\n";
    out += "[job]\ndescription = " + quote(planName) + "\n\n";
    out += "[model]\nname = " + quote(name) + "\n";
    if (!flavor.empty()) out += "flavor = " + quote(flavor) + "\n";
    if (t.precision == Precision::FP8)
        out += std::string("converters = [") + (t.fp8Recipe == Fp8Recipe::MxFp8 ? "\"quantize.linear.mx\"" : "\"quantize.linear.float8\"") + "]\n";
    out += "\n[training]\n";
    // With a pipeline, local_batch_size is the data-parallel rank's share of the step, cut into microbatches.
    const std::int64_t local = q.pp > 1 ? t.globalBatch / std::max(1, dp) : t.microBatch;
    out += "local_batch_size = " + num(local) + "\n";
    out += "global_batch_size = " + num(t.globalBatch) + "\n";
    out += "seq_len = " + num(m.seqLength) + "\n";
    if (t.tokens > 0 && t.globalBatch > 0 && m.seqLength > 0)
        out += "steps = " + num(std::llround(t.tokens / (double(t.globalBatch) * double(m.seqLength)))) + "\n";
    if (t.precision == Precision::FP32) out += "mixed_precision_param = \"float32\"\n";
    else if (t.gradDtype == Precision::FP32) out += "mixed_precision_param = \"bfloat16\"\nmixed_precision_reduce = \"float32\"\n";
    else out += "dtype = \"bfloat16\"\n";
    if (t.precision == Precision::FP16) notes.push_back("fp16 (torchtitan trains in bf16 or fp32)");
    if (t.offload.optimizerFraction > 0) out += "enable_cpu_offload = true\n";
    out += "\n[parallelism]\n";
    out += "data_parallel_replicate_degree = " + num(replicate) + "\n";
    out += "data_parallel_shard_degree = " + num(shard) + "\n";
    out += "tensor_parallel_degree = " + num(q.tp) + "\n";
    if (q.tp > 1 && t.tpCommOverlap) out += "enable_async_tensor_parallel = true\n";
    out += "pipeline_parallel_degree = " + num(q.pp) + "\n";
    if (q.pp > 1) {
        out += "pipeline_parallel_schedule = " + quote(schedule) + "\n";
        out += "pipeline_parallel_microbatch_size = " + num(t.microBatch) + "\n";
        out += "pipeline_parallel_first_stage_less_layers = " + num(q.embeddingInSplit ? 1 : 0) + "\n";
        out += "pipeline_parallel_last_stage_less_layers = " + num(q.lossInSplit ? 1 : 0) + "\n";
        if (q.vpp > 1) {
            const int effective = m.layers + (q.embeddingInSplit ? 1 : 0) + (q.lossInSplit ? 1 : 0);
            if (effective % (q.pp * q.vpp) == 0) out += "pipeline_parallel_layers_per_stage = " + num(effective / (q.pp * q.vpp)) + "\n";
            else notes.push_back("vpp " + num(q.vpp) + ": the layers do not split into pp x vpp equal stages");
        }
    }
    out += "context_parallel_degree = " + num(q.cp) + "\n";
    if (m.isMoe()) {
        out += "expert_parallel_degree = " + num(q.ep) + "\n";
        out += "expert_tensor_parallel_degree = " + num(q.expertTp()) + "\n";
    }
    out += "\n[activation_checkpoint]\n";
    if (t.recompute == Recompute::Full) {
        out += "mode = \"full\"\n";
        if (t.recomputeLayers > 0) notes.push_back("full recompute of some layers only (mode full recomputes every layer)");
    } else if (t.recompute == Recompute::Selective) {
        out += "mode = \"selective\"\nselective_ac_option = \"op\"\n";
    } else {
        out += "mode = \"none\"\n";
    }
    if (t.precision == Precision::FP8 && t.fp8Recipe != Fp8Recipe::MxFp8) {
        out += "\n[quantize.linear.float8]\n";
        out += "recipe_name = \"tensorwise\"\n";
        if (t.fp8ParamGather) out += "enable_fsdp_float8_all_gather = true\n";
        if (t.fp8Recipe != Fp8Recipe::Current) notes.push_back(std::string(toString(t.fp8Recipe)) + " fp8 scaling (tensorwise written)");
    }
    // Notes found after the header was written go at the end.
    const std::size_t header = out.find("# torchrun");
    std::string late;
    for (const std::string& n : notes)
        if (out.find("# not expressed: " + n + "\n") == std::string::npos) late += "# not expressed: " + n + "\n";
    out.insert(header, late);
    return out;
}

} // namespace planscope
