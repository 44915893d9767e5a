#include "ConfigCommands.h"

#include "PlanInput.h"

#include "io/LaunchConfig.h"
#include "io/PlanJson.h"
#include "util/AtomicFile.h"

#include <cstdlib>
#include <iostream>
#include <optional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <ostream>

namespace planscope::cli {

using nlohmann::json;

namespace {

constexpr const char* kImportConfigUsage
    = "usage: planscope-cli import-config FILE|- [--format megatron|deepspeed|torchtitan|megatron-bridge] [--base PLAN] [--gpu ID]\n"
      "       [--nodes N] [--gpus-per-node G] [--hf-config CONFIG.json] [--out OUT.plan.json] [--json]\n";

// A whole number from 1 to 1,000,000 given to an option, or nullopt with the message printed.
std::optional<std::int64_t> count(const Args& a, const char* key, std::ostream& err)
{
    if (!a.options.count(key)) return 0;
    const std::string& text = a.options.at(key);
    char* end = nullptr;
    const long long n = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || n < 1 || n > 1000000) {
        err << "planscope-cli: " << key << " must be a whole number from 1 to 1000000, found \"" << text << "\"\n";
        return std::nullopt;
    }
    return n;
}

} // namespace

int cmdImportConfig(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() != 1) {
        err << kImportConfigUsage;
        return 1;
    }
    const std::string& file = a.positional[0];
    std::string text;
    if (file == "-") {
        // At most the plan file limit from standard input, as from a file: read in pieces, stopped past the limit.
        char piece[65536];
        while (std::int64_t(text.size()) <= kMaxPlanFileBytes) {
            std::cin.read(piece, sizeof piece);
            const std::streamsize got = std::cin.gcount();
            if (got <= 0) break;
            text.append(piece, std::size_t(got));
        }
        if (std::int64_t(text.size()) > kMaxPlanFileBytes) {
            err << "planscope-cli: standard input has more than " << kMaxPlanFileBytes << " bytes; not read\n";
            return 1;
        }
    } else {
        auto read = readTextFile(file, kMaxPlanFileBytes);
        if (!read) {
            err << "planscope-cli: " << file << " " << read.errors().front().message << "\n";
            return 1;
        }
        text = std::move(read).value();
    }
    const auto nodes = count(a, "--nodes", err), perNode = count(a, "--gpus-per-node", err);
    if (!nodes || !perNode) return 1;

    LaunchImportBase base;
    if (a.options.count("--base")) {
        int code = 0;
        auto loaded = loadPlanArg(a.options.at("--base"), out, err, code, false);
        if (!loaded) return code;
        base.plan = planToJson(loaded->plan);
    }
    if (a.options.count("--gpu")) base.gpu = a.options.at("--gpu");
    if (a.options.count("--format")) base.format = a.options.at("--format");
    const std::string stem = file == "-" ? std::string("standard input") : file.substr(file.find_last_of('/') + 1);
    base.name = stem + " (launch config)";
    // A relative Hugging Face folder the launch names is looked for beside the launch file (or here, for stdin).
    base.directory = file == "-" || file.find('/') == std::string::npos ? std::string(".") : file.substr(0, file.find_last_of('/'));
    base.overrides = LaunchOverrides { *nodes, *perNode, {} };
    if (a.options.count("--hf-config")) {
        auto config = readTextFile(a.options.at("--hf-config"), kMaxPlanFileBytes);
        if (!config) {
            err << "planscope-cli: " << a.options.at("--hf-config") << " " << config.errors().front().message << "\n";
            return 1;
        }
        base.overrides.hfConfig = std::move(config).value();
    }

    LaunchImport result = importLaunchPlan(text, base);
    const ImportedLaunch& imported = result.imported;
    const Issues& all = result.issues;
    const bool failed = result.failed();
    // Text that is no UTF-8 (a Latin-1 file name or word) is written with U+FFFD, never thrown on.
    const auto dump = [](const json& j, int indent = -1) { return j.dump(indent, ' ', false, json::error_handler_t::replace); };
    const std::string planText = result.plan ? dump(planToJson(*result.plan), 2) + "\n" : std::string();

    if (a.options.count("--out") && !failed) {
        std::string error;
        if (!writeFileAtomically(a.options.at("--out"), planText, error)) {
            err << "planscope-cli: " << error << "\n";
            return 1;
        }
    }
    if (a.has("--json")) {
        json j = { { "schema", "planscope/import-config/v1" }, { "format", imported.format }, { "valid", !failed },
            { "applied", imported.applied }, { "ignored", imported.ignored }, { "launcher", imported.launcher } };
        j["issues"] = json::array();
        for (const Issue& i : all)
            j["issues"].push_back({ { "severity", i.severity == Severity::Error ? "error" : "warning" }, { "path", i.path },
                { "message", i.message } });
        j["plan"] = result.plan ? planToJson(*result.plan) : imported.plan;
        out << dump(j, 2) << "\n";
    } else if (!failed && !a.options.count("--out")) {
        out << planText;
    }
    // What the import did, on stderr: every argument it did not use, by name.
    err << "import-config: " << imported.applied.size() << " arguments applied";
    if (!imported.ignored.empty()) {
        err << "; not modelled (" << imported.ignored.size() << "):";
        for (const std::string& s : imported.ignored) err << " " << s;
    }
    err << "\n";
    printIssues(all, err);
    return failed ? 2 : 0;
}

int cmdExportConfig(const Args& a, std::ostream& out, std::ostream& err)
{
    if (a.positional.size() != 1) {
        err << "usage: planscope-cli export-config PLAN --as megatron|torchtitan [--out FILE]\n";
        return 1;
    }
    const std::string as = a.options.count("--as") ? a.options.at("--as") : std::string("megatron");
    if (as != "megatron" && as != "torchtitan") {
        err << "planscope-cli: --as " << as << " is not a format export-config writes (megatron, torchtitan)\n";
        return 1;
    }
    int code = 0;
    auto loaded = loadPlanArg(a.positional[0], out, err, code, false);
    if (!loaded) return code;
    const std::string text = as == "torchtitan" ? exportTorchtitanToml(loaded->plan) : exportMegatronArgs(loaded->plan);
    if (a.options.count("--out")) {
        std::string error;
        if (!writeFileAtomically(a.options.at("--out"), text, error)) {
            err << "planscope-cli: " << error << "\n";
            return 1;
        }
        return 0;
    }
    out << text;
    return 0;
}

} // namespace planscope::cli
