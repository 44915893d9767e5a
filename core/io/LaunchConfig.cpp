#include "LaunchConfig.h"

#include "io/PlanJson.h"
#include "spec/Plan.h"
#include "spec/Presets.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace planscope {

using nlohmann::json;

namespace {

// Where a command ends (; && || | or a line end) in the words the importer reads; shellWords() leaves it out.
const std::string kSeparator = std::string(1, '\x1e');
constexpr std::size_t kMaxVariableBytes = std::size_t(1) << 20;

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// NAME=value or NAME+=value (a shell assignment).
bool assignment(const std::string& word, std::string& name, std::string& value, bool& append)
{
    if (word.empty() || !isNameStart(word[0])) return false;
    std::size_t i = 1;
    while (i < word.size() && isNameChar(word[i])) ++i;
    append = i + 1 < word.size() && word[i] == '+' && word[i + 1] == '=';
    if (!append && (i >= word.size() || word[i] != '=')) return false;
    name = word.substr(0, i);
    value = word.substr(i + (append ? 2 : 1));
    return true;
}

// "([0]*N+[1]*M)" (parentheses optional): N leading dense layers then M MoE layers.
std::optional<int> leadingDenseLayers(std::string v)
{
    if (v.size() >= 2 && v.front() == '(' && v.back() == ')') v = v.substr(1, v.size() - 2);
    const std::string a = "[0]*", b = "+[1]*";
    if (v.rfind(a, 0) != 0) return std::nullopt;
    const std::size_t plus = v.find(b);
    if (plus == std::string::npos) return std::nullopt;
    int dense = 0, moe = 0;
    const char* s = v.data();
    if (std::from_chars(s + a.size(), s + plus, dense).ec != std::errc()
        || std::from_chars(s + plus + b.size(), s + v.size(), moe).ec != std::errc() || moe < 1)
        return std::nullopt;
    return dense;
}

// Splits unquoted text at blanks (a scalar variable substituted outside quotes is split, as the shell does).
std::vector<std::string> splitBlanks(const std::string& s)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

class Lexer {
public:
    explicit Lexer(std::string_view text) : m_text(text) { }

    std::vector<std::string> run()
    {
        std::vector<std::string> words;
        while (auto w = next()) {
            // NAME=( ... ): an array, its words up to the closing parenthesis.
            std::string name, value;
            bool append = false;
            // The whole word: an assignment's value is not split at blanks (X=$Y keeps all of Y).
            std::string whole;
            for (std::size_t i = 0; i < w->expanded.size(); ++i) whole += (i ? " " : "") + w->expanded[i];
            if (w->arrayStart) whole = w->text;
            if (!w->quotedStart && assignment(whole, name, value, append)) {
                std::vector<std::string> items;
                if (w->arrayStart) {
                    while (auto item = next()) {
                        if (item->closesArray) break;
                        if (!item->separator) items.insert(items.end(), item->expanded.begin(), item->expanded.end());
                    }
                } else {
                    items = { value };
                }
                auto& v = m_vars[name];
                if (!append || !w->arrayStart) v.clear();
                // Bounded: a script that doubles a variable forty times does not take the machine's memory.
                std::size_t size = 0;
                for (const std::string& x : v) size += x.size();
                for (std::string& x : items)
                    if ((size += x.size()) <= kMaxVariableBytes) v.push_back(std::move(x));
                continue;
            }
            if (w->separator) {
                words.push_back(kSeparator);
                continue;
            }
            if (!w->quotedStart && (w->text == "export" || w->text == "declare" || w->text == "local" || w->text == "readonly"))
                continue;
            for (std::string& s : w->expanded) words.push_back(std::move(s));
        }
        return words;
    }

private:
    struct Word {
        std::string text;                  // as written, variables substituted
        std::vector<std::string> expanded; // the words it stands for (an array splices several)
        bool separator = false;
        bool arrayStart = false;           // NAME=( opens an array
        bool closesArray = false;          // a lone )
        bool quotedStart = false;
    };

    bool atEnd() const { return m_pos >= m_text.size(); }

    // The value of $NAME / ${NAME} / ${NAME[@]} at m_pos (just after '$'); whether it is an array splice.
    std::optional<std::vector<std::string>> variable(bool& splice, std::string& literal)
    {
        const std::size_t start = m_pos - 1;
        std::string name;
        splice = false;
        std::optional<std::string> fallback; // ${NAME:-word} / ${NAME-word}: the word where NAME is not set
        if (!atEnd() && m_text[m_pos] == '{') {
            const std::size_t close = m_text.find('}', m_pos);
            if (close == std::string_view::npos) {
                literal = "$";
                return std::nullopt;
            }
            std::string inner(m_text.substr(m_pos + 1, close - m_pos - 1));
            m_pos = close + 1;
            if (const std::size_t dash = inner.find('-'); dash != std::string::npos && dash > 0) {
                fallback = inner.substr(dash + 1);
                inner.resize(inner[dash - 1] == ':' ? dash - 1 : dash);
            }
            if (inner.size() > 3 && (inner.compare(inner.size() - 3, 3, "[@]") == 0 || inner.compare(inner.size() - 3, 3, "[*]") == 0)) {
                inner.resize(inner.size() - 3);
                splice = true;
            }
            name = inner;
        } else {
            while (!atEnd() && isNameChar(m_text[m_pos])) name += m_text[m_pos++];
        }
        literal = std::string(m_text.substr(start, m_pos - start));
        if (name.empty() || !isNameStart(name[0])) return std::nullopt;
        const auto it = m_vars.find(name);
        if (it == m_vars.end()) return fallback ? std::optional<std::vector<std::string>>(std::vector<std::string> { *fallback }) : std::nullopt;
        return it->second;
    }

    // A variable at m_pos (just after '$') put into the word being read: quoted, "${A[@]}" gives each item as a word
    // and "$S" the value whole; unquoted, every value is split at blanks. Words before the last go to `parts`.
    void substitute(bool quoted, std::string& cur, std::vector<std::string>& parts)
    {
        bool splice = false;
        std::string literal;
        const auto v = variable(splice, literal);
        if (!v) {
            cur += literal;
            return;
        }
        std::vector<std::string> items;
        if (quoted && splice) {
            items = *v;
        } else if (quoted) {
            std::string whole;
            for (std::size_t i = 0; i < v->size(); ++i) whole += (i ? " " : "") + (*v)[i];
            items.push_back(std::move(whole));
        } else {
            for (const std::string& s : *v)
                for (std::string& piece : splitBlanks(s)) items.push_back(std::move(piece));
        }
        for (std::size_t i = 0; i < items.size(); ++i) {
            cur += items[i];
            if (i + 1 < items.size()) {
                parts.push_back(std::move(cur));
                cur.clear();
            }
        }
    }

    std::optional<Word> next()
    {
        // Blanks, continuation lines and comments between words.
        while (!atEnd()) {
            const char c = m_text[m_pos];
            if (c == '\\' && m_pos + 1 < m_text.size() && (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r')) {
                m_pos += 2;
            } else if (c == '#') {
                while (!atEnd() && m_text[m_pos] != '\n') ++m_pos;
            } else if (c == '\n') {
                // A line end ends the command (a continuation line was joined above).
                ++m_pos;
                Word end;
                end.separator = true;
                return end;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++m_pos;
            } else {
                break;
            }
        }
        if (atEnd()) return std::nullopt;
        Word w;
        const char first = m_text[m_pos];
        if (first == ';' || first == '|' || first == '&') {
            while (!atEnd() && (m_text[m_pos] == ';' || m_text[m_pos] == '|' || m_text[m_pos] == '&')) ++m_pos;
            w.separator = true;
            return w;
        }
        if (first == ')') {
            ++m_pos;
            w.closesArray = true;
            return w;
        }
        w.quotedStart = first == '"' || first == '\'';
        std::vector<std::string> parts; // words spliced before the current one
        std::string cur;
        bool any = false;
        while (!atEnd()) {
            const char c = m_text[m_pos];
            // "2>&1": the & of a redirection is no separator.
            if (c == '&' && !cur.empty() && (cur.back() == '>' || cur.back() == '<')) {
                cur += c;
                ++m_pos;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '|' || c == '&' || c == ')') break;
            if (c == '(' && !cur.empty() && cur.back() == '=') { // NAME=(
                ++m_pos;
                w.arrayStart = true;
                break;
            }
            if (c == '\\' && m_pos + 1 < m_text.size()) {
                if (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r') break;
                cur += m_text[m_pos + 1];
                m_pos += 2;
                any = true;
                continue;
            }
            if (c == '\'') {
                const std::size_t close = m_text.find('\'', m_pos + 1);
                const std::size_t end = close == std::string_view::npos ? m_text.size() : close;
                cur.append(m_text.substr(m_pos + 1, end - m_pos - 1));
                m_pos = end == m_text.size() ? end : end + 1;
                any = true;
                continue;
            }
            if (c == '"') {
                ++m_pos;
                while (!atEnd() && m_text[m_pos] != '"') {
                    if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size()) {
                        cur += m_text[m_pos + 1];
                        m_pos += 2;
                    } else if (m_text[m_pos] == '$') {
                        ++m_pos;
                        substitute(true, cur, parts);
                    } else {
                        cur += m_text[m_pos++];
                    }
                }
                if (!atEnd()) ++m_pos;
                any = true;
                continue;
            }
            if (c == '$') {
                ++m_pos;
                substitute(false, cur, parts);
                any = true;
                continue;
            }
            cur += c;
            ++m_pos;
            any = true;
        }
        w.text = parts.empty() ? cur : parts.front();
        if (w.arrayStart) {
            w.text = cur;
            return w;
        }
        w.expanded = std::move(parts);
        if (any && (!cur.empty() || w.expanded.empty())) w.expanded.push_back(cur);
        if (w.expanded.empty() && !any) w.separator = true;
        return w;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::map<std::string, std::vector<std::string>> m_vars;
};

std::optional<std::int64_t> integer(const std::string& s)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<double> number(const std::string& s)
{
    // std::from_chars: the same in every locale (a "0.1" under de_DE is still 0.1).
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// Megatron-LM's switches (store_true / store_false): they take no value.
const char* const kSwitches[] = { "--sequence-parallel", "--bf16", "--fp16", "--swiglu", "--untie-embeddings-and-output-weights",
    "--disable-bias-linear", "--group-query-attention", "--use-distributed-optimizer", "--overlap-grad-reduce",
    "--overlap-param-gather", "--tp-comm-overlap", "--no-overlap-p2p-communication", "--use-flash-attn",
    "--multi-latent-attention", "--qk-layernorm", "--moe-grouped-gemm", "--moe-router-enable-expert-bias",
    "--optimizer-cpu-offload", "--fp8-param-gather", "--overlap-moe-expert-parallel-comm",
    "--accumulate-allreduce-grads-in-fp32", "--account-for-embedding-in-pipeline-split",
    "--account-for-loss-in-pipeline-split", "--use-mcore-models", "--no-masked-softmax-fusion", "--no-bias-gelu-fusion",
    "--no-bias-dropout-fusion", "--no-gradient-accumulation-fusion", "--no-async-tensor-model-parallel-allreduce",
    "--use-rotary-position-embeddings", "--no-position-embedding", "--apply-layernorm-1p", "--squared-relu",
    "--moe-permute-fusion", "--no-load-optim", "--no-load-rng", "--log-throughput",
    "--manual-gc", "--use-checkpoint-args", "--ckpt-fully-parallel-save", "--ckpt-fully-parallel-load", "--mock-data",
    "--no-rope-fusion", "--cross-entropy-loss-fusion", "--use-precision-aware-optimizer", "--no-create-attention-mask-in-dataloader",
    "--log-timers-to-tensorboard", "--log-validation-ppl-to-tensorboard", "--log-memory-to-tensorboard",
    "--log-num-zeros-in-grad", "--log-params-norm", "--use-torch-fsdp2",
    "--moe-use-legacy-grouped-gemm", "--moe-pad-expert-input-to-capacity", "--standalone-embedding-stage", "--defer-embedding-wgrad-compute", "--no-persist-layer-norm" };

bool isSwitch(const std::string& name)
{
    return std::find(std::begin(kSwitches), std::end(kSwitches), name) != std::end(kSwitches);
}

} // namespace

static bool applyHfConfig(const LaunchOverrides& overrides, ImportedLaunch& out)
{
    if (overrides.hfConfig.empty()) return false;
    auto model = modelFromHuggingFaceConfig(overrides.hfConfig);
    if (!model) {
        for (Issue i : model.errors()) {
            i.path = "config.json" + (i.path.empty() ? std::string() : "." + i.path);
            out.issues.push_back(std::move(i));
        }
        return false;
    }
    out.plan["model"] = modelToJson(model.value());
    out.applied.push_back("Hugging Face config.json: model");
    return true;
}

std::vector<std::string> shellWords(std::string_view text)
{
    std::vector<std::string> words = Lexer(text).run();
    words.erase(std::remove(words.begin(), words.end(), kSeparator), words.end());
    return words;
}

ImportedLaunch importMegatronArgs(std::string_view text, const json& base, const LaunchOverrides& overrides)
{
    ImportedLaunch out;
    out.format = "megatron";
    out.plan = base.is_object() ? base : json::object();
    json& plan = out.plan;
    const bool fromHf = applyHfConfig(overrides, out);
    std::vector<std::string> all = Lexer(text).run();
    std::vector<std::string> words;

    // The command that runs the training script (a .py): its launcher before the script, its arguments after, up to
    // the end of that command (a pipe into tee, the next line). Without a script, every word is an argument.
    std::size_t first = 0;
    const auto script = std::find_if(all.begin(), all.end(),
        [](const std::string& w) { return w.size() > 3 && w.compare(w.size() - 3, 3, ".py") == 0; });
    if (script != all.end()) {
        auto begin = script;
        while (begin != all.begin() && *(begin - 1) != kSeparator) --begin;
        auto end = std::find(script, all.end(), kSeparator);
        words.assign(begin, end);
        first = std::size_t(script - begin) + 1;
        out.launcher.assign(words.begin(), words.begin() + std::ptrdiff_t(first));
    } else {
        for (std::string& w : all)
            if (w != kSeparator) words.push_back(std::move(w));
    }

    // Options and their values, in order; a name given twice with another value is a conflict.
    struct Arg {
        std::string name, value;
        bool hasValue = false;
    };
    auto collect = [](const std::vector<std::string>& list, std::vector<Arg>& args, std::vector<std::string>* stray) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string& w = list[i];
            // A redirection (2>&1, > log, >>log): the shell's, not the program's.
            const std::size_t digits = w.find_first_not_of("0123456789");
            if (digits != std::string::npos && (w[digits] == '>' || w[digits] == '<')) {
                const std::string op = w.substr(digits);
                if (op == ">" || op == ">>" || op == "<") ++i; // its target is the next word
                continue;
            }
            if (w.size() < 2 || w[0] != '-') {
                if (stray) stray->push_back(w);
                continue;
            }
            Arg a;
            const std::size_t eq = w.find('=');
            a.name = w.substr(0, eq);
            if (a.name.rfind("--", 0) == 0) std::replace(a.name.begin() + 2, a.name.end(), '_', '-');
            if (eq != std::string::npos) {
                a.value = w.substr(eq + 1);
                a.hasValue = true;
            } else if (!isSwitch(a.name)) {
                // Every word up to the next option (argparse's nargs: --recompute-modules core_attn mlp,
                // --rampup-batch-size 16 16 5859375); a negative number is a value, not an option.
                auto isValue = [](const std::string& v) {
                    const std::size_t d = v.find_first_not_of("0123456789");
                    if (d != std::string::npos && (v[d] == '>' || v[d] == '<')) return false; // a redirection
                    return v.empty() || v[0] != '-'
                        || (v.size() > 1 && (std::isdigit(static_cast<unsigned char>(v[1])) || v[1] == '.'));
                };
                while (i + 1 < list.size() && isValue(list[i + 1])) {
                    a.value += (a.hasValue ? " " : "") + list[++i];
                    a.hasValue = true;
                }
            }
            args.push_back(std::move(a));
        }
    };
    std::vector<Arg> launcherArgs, args;
    std::vector<std::string> stray;
    collect(out.launcher, launcherArgs, nullptr);
    collect(std::vector<std::string>(words.begin() + std::ptrdiff_t(first), words.end()), args, &stray);

    std::map<std::string, std::string> given; // name -> value ("" for a switch)
    for (const Arg& a : args) {
        const auto it = given.find(a.name);
        if (it != given.end() && it->second != a.value)
            out.issues.push_back(issue(Severity::Error, a.name,
                Text(PS_TEXT("CoreText", "given twice with different values: %1 and %2"), it->second, a.value)));
        given[a.name] = a.value;
    }
    for (const std::string& s : stray) out.ignored.push_back(s);

    auto has = [&](const char* name) { return given.count(name) > 0; };
    auto bad = [&](const std::string& name, const std::string& value) {
        out.issues.push_back(issue(Severity::Error, name, Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), value)));
    };
    std::vector<std::string> used;
    auto note = [&](const std::string& name, const std::string& field) {
        used.push_back(name);
        out.applied.push_back(name + (given[name].empty() ? "" : " " + given[name]) + ": " + field);
    };
    auto intArg = [&](const char* name, json& target, const char* key, const std::string& field) -> std::optional<std::int64_t> {
        if (!has(name)) return std::nullopt;
        const auto v = integer(given[name]);
        if (!v || *v < 0 || *v > (std::int64_t(1) << 40)) {
            bad(name, given[name]);
            used.push_back(name);
            return std::nullopt;
        }
        target[key] = *v;
        note(name, field);
        return v;
    };
    // An argument that takes one of a few words: the plan's word for it (Megatron-LM's "RMSNorm" is "rmsnorm").
    auto choiceArg = [&](const char* name, std::initializer_list<std::pair<const char*, const char*>> choices, json& target,
                         const char* key, const std::string& field) {
        if (!has(name)) return;
        for (const auto& [from, to] : choices)
            if (given[name] == from) {
                target[key] = to;
                note(name, field);
                return;
            }
        bad(name, given[name]);
        used.push_back(name);
    };
    auto switchArg = [&](const char* name, json& target, const char* key, const json& value, const std::string& field) {
        if (!has(name)) return false;
        target[key] = value;
        note(name, field);
        return true;
    };

    // The model, where the arguments describe one (Megatron-LM's defaults where an argument is absent).
    json& model = plan["model"];
    if (has("--num-layers") && !fromHf) {
        model = { { "tiedEmbeddings", true }, { "bias", true }, { "gatedMlp", false }, { "norm", "layernorm" },
            { "positionEmbedding", "learned" }, { "dropout", true } };
        if (base.contains("model") && base["model"].contains("vocab")) model["vocab"] = base["model"]["vocab"];
    } else if (!model.is_object()) {
        model = json::object();
    }
    intArg("--num-layers", model, "layers", "model.layers");
    const auto hidden = intArg("--hidden-size", model, "hidden", "model.hidden");
    const auto heads = intArg("--num-attention-heads", model, "heads", "model.heads");
    const auto ffn = intArg("--ffn-hidden-size", model, "ffnHidden", "model.ffnHidden");
    intArg("--seq-length", model, "seqLength", "model.seqLength");
    intArg("--vocab-size", model, "vocab", "model.vocab");
    // The positions a model has bound the sequence it trains on (Megatron-LM asserts seq-length <= this).
    if (has("--max-position-embeddings")) {
        const auto maxPositions = integer(given["--max-position-embeddings"]);
        const std::int64_t seq = model.value("seqLength", std::int64_t(0));
        if (!maxPositions || *maxPositions < 1) {
            bad("--max-position-embeddings", given["--max-position-embeddings"]);
            used.push_back("--max-position-embeddings");
        } else {
            if (seq > *maxPositions)
                out.issues.push_back(issue(Severity::Error, "--max-position-embeddings",
                    Text(PS_TEXT("CoreText", "%1 positions, fewer than the sequence of %2 (--seq-length)"), *maxPositions, seq)));
            note("--max-position-embeddings", "a bound of model.seqLength");
        }
    }
    intArg("--kv-channels", model, "headDim", "model.headDim");
    intArg("--mtp-num-layers", model, "mtpLayers", "model.mtpLayers");
    switchArg("--swiglu", model, "gatedMlp", true, "model.gatedMlp");
    switchArg("--untie-embeddings-and-output-weights", model, "tiedEmbeddings", false, "model.tiedEmbeddings");
    switchArg("--disable-bias-linear", model, "bias", false, "model.bias");
    switchArg("--qk-layernorm", model, "qkNorm", true, "model.qkNorm");
    // --swiglu without --ffn-hidden-size: Megatron-LM's 2/3 of 4h, down to a multiple of 64.
    if (has("--swiglu") && !ffn && hidden) model["ffnHidden"] = (4 * *hidden * 2 / 3) / 64 * 64;
    if (has("--group-query-attention")) {
        note("--group-query-attention", "model.kvHeads");
        if (has("--num-query-groups")) {
            const auto g = integer(given["--num-query-groups"]);
            if (g && *g > 0) {
                model["kvHeads"] = *g;
                note("--num-query-groups", "model.kvHeads");
            } else {
                bad("--num-query-groups", given["--num-query-groups"]);
                used.push_back("--num-query-groups");
            }
        } else {
            model["kvHeads"] = 1; // Megatron-LM's default num_query_groups
        }
    } else if (heads) {
        model["kvHeads"] = *heads;
        if (has("--num-query-groups")) {
            used.push_back("--num-query-groups");
            out.issues.push_back(issue(Severity::Warning, "--num-query-groups",
                Text(PS_TEXT("CoreText", "has no effect without --group-query-attention (Megatron-LM): every head keeps its keys and values"))));
        }
    }
    choiceArg("--normalization", { { "RMSNorm", "rmsnorm" }, { "LayerNorm", "layernorm" } }, model, "norm", "model.norm");
    choiceArg("--position-embedding-type", { { "rope", "rope" }, { "yarn", "rope" }, { "mrope", "rope" }, { "learned_absolute", "learned" }, { "none", "none" } },
        model, "positionEmbedding", "model.positionEmbedding");
    if (has("--use-rotary-position-embeddings")) {
        model["positionEmbedding"] = "rope";
        note("--use-rotary-position-embeddings", "model.positionEmbedding");
    }
    if (has("--hidden-dropout") || has("--attention-dropout")) {
        const auto h = has("--hidden-dropout") ? number(given["--hidden-dropout"]) : std::optional<double>(0.1);
        const auto a = has("--attention-dropout") ? number(given["--attention-dropout"]) : std::optional<double>(0.1);
        if (h && a) {
            model["dropout"] = *h > 0 || *a > 0;
            if (has("--hidden-dropout")) note("--hidden-dropout", "model.dropout");
            if (has("--attention-dropout")) note("--attention-dropout", "model.dropout");
        } else {
            for (const char* n : { "--hidden-dropout", "--attention-dropout" })
                if (has(n) && !number(given[n])) {
                    bad(n, given[n]);
                    used.push_back(n);
                }
        }
    }
    // Mixture of experts.
    if (has("--num-experts")) {
        json& moe = model["moe"];
        if (!moe.is_object()) moe = json::object();
        moe["topK"] = 2; // Megatron-LM's default --moe-router-topk
        moe["groupedGemm"] = false;
        intArg("--num-experts", moe, "experts", "model.moe.experts");
        intArg("--moe-router-topk", moe, "topK", "model.moe.topK");
        intArg("--moe-ffn-hidden-size", moe, "expertFfnHidden", "model.moe.expertFfnHidden");
        if (const auto s = intArg("--moe-shared-expert-intermediate-size", moe, "sharedExpertFfnHidden", "model.moe.sharedExpertFfnHidden"))
            moe["sharedExperts"] = *s > 0 ? 1 : 0;
        switchArg("--moe-grouped-gemm", moe, "groupedGemm", true, "model.moe.groupedGemm");
        switchArg("--moe-router-enable-expert-bias", moe, "routerBias", true, "model.moe.routerBias");
        if (has("--moe-expert-capacity-factor")) {
            const auto f = number(given["--moe-expert-capacity-factor"]);
            if (f && *f >= 0) {
                moe["capacityFactor"] = *f;
                note("--moe-expert-capacity-factor", "model.moe.capacityFactor");
            } else {
                bad("--moe-expert-capacity-factor", given["--moe-expert-capacity-factor"]);
                used.push_back("--moe-expert-capacity-factor");
            }
        }
        if (has("--moe-token-dispatcher-type")) {
            const std::string v = given["--moe-token-dispatcher-type"];
            if (v == "alltoall" || v == "allgather" || v == "flex") {
                moe["dispatcher"] = v == "allgather" ? "allgather" : "alltoall";
                note("--moe-token-dispatcher-type", "model.moe.dispatcher");
                if (v == "flex")
                    out.issues.push_back(issue(Severity::Warning, "--moe-token-dispatcher-type",
                        Text(PS_TEXT("CoreText", "flex (DeepEP) is modelled as all-to-all over the expert-parallel group"))));
            } else {
                bad("--moe-token-dispatcher-type", v);
                used.push_back("--moe-token-dispatcher-type");
            }
        }
        // --moe-layer-freq: an integer k (every k-th layer is MoE; 1 = all) or a list "([0]*3+[1]*58)": the leading
        // dense layers.
        if (has("--moe-layer-freq")) {
            const std::string v = given["--moe-layer-freq"];
            if (v == "1") {
                moe["denseLayers"] = 0;
                note("--moe-layer-freq", "model.moe.denseLayers");
            } else if (const auto dense = leadingDenseLayers(v)) {
                moe["denseLayers"] = *dense;
                note("--moe-layer-freq", "model.moe.denseLayers");
            } else {
                used.push_back("--moe-layer-freq");
                out.issues.push_back(issue(Severity::Warning, "--moe-layer-freq",
                    Text(PS_TEXT("CoreText", "\"%1\": only every layer MoE (1) or leading dense layers ([0]*N+[1]*M) are modelled; not applied"), v)));
            }
        }
    }
    // Multi-head latent attention.
    if (has("--multi-latent-attention")) {
        json& mla = model["mla"];
        mla = { { "qLoraRank", 0 }, { "kvLoraRank", 512 }, { "qkNopeHeadDim", 128 }, { "qkRopeHeadDim", 64 }, { "vHeadDim", 128 } };
        note("--multi-latent-attention", "model.mla");
        intArg("--q-lora-rank", mla, "qLoraRank", "model.mla.qLoraRank");
        intArg("--kv-lora-rank", mla, "kvLoraRank", "model.mla.kvLoraRank");
        intArg("--qk-head-dim", mla, "qkNopeHeadDim", "model.mla.qkNopeHeadDim");
        intArg("--qk-pos-emb-head-dim", mla, "qkRopeHeadDim", "model.mla.qkRopeHeadDim");
        intArg("--v-head-dim", mla, "vHeadDim", "model.mla.vHeadDim");
    }
    if (!model.contains("vocab") && !model.contains("preset")) {
        model["vocab"] = 32000;
        out.issues.push_back(issue(Severity::Warning, "model.vocab",
            Text(PS_TEXT("CoreText", "the vocabulary comes from the tokenizer, not from the arguments: 32000 assumed (give --vocab-size)"))));
    }

    // The parallel layout.
    json& parallel = plan["parallel"];
    parallel = { { "tp", 1 }, { "pp", 1 }, { "cp", 1 }, { "ep", 1 }, { "sp", false }, { "zero", 0 }, { "vpp", 1 } };
    // A degree: 1 to 2^20 (a product of four stays far from overflow; 0 would divide by zero).
    auto degree = [&](const char* name, const char* key, const std::string& field) -> std::optional<std::int64_t> {
        if (!has(name)) return std::nullopt;
        const auto v = integer(given[name]);
        if (!v || *v < 1 || *v > (std::int64_t(1) << 20)) {
            bad(name, given[name]);
            used.push_back(name);
            return std::nullopt;
        }
        return intArg(name, parallel, key, field);
    };
    const auto tp = degree("--tensor-model-parallel-size", "tp", "parallel.tp");
    const auto pp = degree("--pipeline-model-parallel-size", "pp", "parallel.pp");
    const auto cp = degree("--context-parallel-size", "cp", "parallel.cp");
    degree("--expert-model-parallel-size", "ep", "parallel.ep");
    degree("--expert-tensor-parallel-size", "etp", "parallel.etp");
    degree("--num-virtual-stages-per-pipeline-rank", "vpp", "parallel.vpp");
    intArg("--decoder-first-pipeline-num-layers", parallel, "firstStageLayers", "parallel.firstStageLayers");
    intArg("--decoder-last-pipeline-num-layers", parallel, "lastStageLayers", "parallel.lastStageLayers");
    switchArg("--sequence-parallel", parallel, "sp", true, "parallel.sp");
    switchArg("--use-distributed-optimizer", parallel, "zero", 1, "parallel.zero");
    switchArg("--account-for-embedding-in-pipeline-split", parallel, "embeddingInSplit", true, "parallel.embeddingInSplit");
    switchArg("--account-for-loss-in-pipeline-split", parallel, "lossInSplit", true, "parallel.lossInSplit");
    if (has("--pipeline-model-parallel-layout")) {
        parallel["layout"] = given["--pipeline-model-parallel-layout"];
        note("--pipeline-model-parallel-layout", "parallel.layout");
    }
    if (has("--num-layers-per-virtual-pipeline-stage")) {
        const auto per = integer(given["--num-layers-per-virtual-pipeline-stage"]);
        const std::int64_t layers = model.value("layers", std::int64_t(0)), stages = pp.value_or(1);
        if (per && *per > 0 && *per <= (std::int64_t(1) << 20) && layers > 0 && stages > 0 && layers % (stages * *per) == 0) {
            parallel["vpp"] = layers / (stages * *per);
            note("--num-layers-per-virtual-pipeline-stage", "parallel.vpp = layers / (pp x this)");
        } else {
            bad("--num-layers-per-virtual-pipeline-stage", given["--num-layers-per-virtual-pipeline-stage"]);
            used.push_back("--num-layers-per-virtual-pipeline-stage");
        }
    }

    // The world: the launcher's nodes x processes per node, else the base plan's cluster.
    std::map<std::string, std::string> launch;
    for (const Arg& a : launcherArgs) launch[a.name] = a.value;
    auto launchInt = [&](std::initializer_list<const char*> names) -> std::optional<std::int64_t> {
        for (const char* n : names)
            if (launch.count(n)) {
                std::string v = launch[n].substr(0, launch[n].find(' ')); // "8 python": the launcher's words follow
                if (const std::size_t colon = v.find(':'); colon != std::string::npos) v = v.substr(colon + 1); // elastic "1:4"
                if (const auto x = integer(v); x && *x > 0) return x;
            }
        return std::nullopt;
    };
    json& cluster = plan["cluster"];
    if (!cluster.is_object()) cluster = json::object();
    if (overrides.nodes > 0) {
        cluster["nodes"] = overrides.nodes;
        out.applied.push_back("nodes " + std::to_string(overrides.nodes) + " (given to the import): cluster.nodes");
    } else if (const auto nodes = launchInt({ "--nnodes", "-N", "--nodes" })) {
        cluster["nodes"] = *nodes;
        out.applied.push_back("launcher nodes " + std::to_string(*nodes) + ": cluster.nodes");
    }
    if (overrides.gpusPerNode > 0) {
        cluster["gpusPerNode"] = overrides.gpusPerNode;
        out.applied.push_back("GPUs per node " + std::to_string(overrides.gpusPerNode) + " (given to the import): cluster.gpusPerNode");
    } else if (const auto perNode = launchInt({ "--nproc-per-node", "--ntasks-per-node", "--gpus-per-node" })) {
        cluster["gpusPerNode"] = *perNode;
        out.applied.push_back("launcher processes per node " + std::to_string(*perNode) + ": cluster.gpusPerNode");
    }
    const std::int64_t world = cluster.value("nodes", std::int64_t(0)) * cluster.value("gpusPerNode", std::int64_t(0));
    const std::int64_t modelParallel = tp.value_or(1) * pp.value_or(1) * cp.value_or(1); // each 1 to 2^20
    if (world > 0 && world % modelParallel == 0) {
        parallel["dp"] = world / modelParallel;
    } else if (world > 0) {
        out.issues.push_back(issue(Severity::Error, "parallel.dp",
            Text(PS_TEXT("CoreText", "the world of %1 GPUs is not a multiple of tp x pp x cp = %2"), world, modelParallel)));
    } else {
        out.issues.push_back(issue(Severity::Error, "cluster",
            Text(PS_TEXT("CoreText", "no world size: the launcher's --nnodes and --nproc-per-node are not in the text and the base plan has no cluster"))));
    }

    // Training.
    json& training = plan["training"];
    training = json::object(); // Megatron-LM's defaults, not the base's
    training["microBatch"] = 1;
    training["recompute"] = "none";
    training["overlapGradReduce"] = false;
    training["tpCommOverlap"] = false;
    training["overlapP2pComm"] = true; // Megatron-LM's overlap_p2p_comm unless --no-overlap-p2p-communication
    training["schedule"] = "1f1b";
    training["optimizer"] = "adam";
    const auto micro = intArg("--micro-batch-size", training, "microBatch", "training.microBatch");
    const auto global = intArg("--global-batch-size", training, "globalBatch", "training.globalBatch");
    if (!global && parallel.contains("dp")) {
        training["globalBatch"] = micro.value_or(1) * parallel["dp"].get<std::int64_t>();
        out.issues.push_back(issue(Severity::Warning, "training.globalBatch",
            Text(PS_TEXT("CoreText", "no --global-batch-size: micro-batch x dp = %1, one microbatch per step (Megatron-LM's default)"),
                training["globalBatch"].get<std::int64_t>())));
    }
    // Precision: fp32 unless --bf16 or --fp16; fp8 with --fp8-format.
    if (has("--bf16") && has("--fp16"))
        out.issues.push_back(issue(Severity::Error, "--fp16", Text(PS_TEXT("CoreText", "given with --bf16: one precision only"))));
    std::string precision = "fp32";
    if (has("--bf16")) {
        precision = "bf16";
        note("--bf16", "training.precision");
    } else if (has("--fp16")) {
        precision = "fp16";
        note("--fp16", "training.precision");
    }
    const std::string paramDtype = precision;
    if (has("--fp8-format")) {
        const std::string v = given["--fp8-format"];
        if (v == "hybrid" || v == "e4m3") {
            precision = "fp8";
            note("--fp8-format", "training.precision");
        } else {
            bad("--fp8-format", v);
            used.push_back("--fp8-format");
        }
    }
    training["precision"] = precision;
    // Gradients are reduced in the parameters' dtype unless accumulated in fp32 (Megatron-Core DDP grad_reduce_in_fp32).
    training["gradDtype"] = has("--accumulate-allreduce-grads-in-fp32") ? "fp32" : (paramDtype == "fp32" ? "fp32" : paramDtype);
    if (has("--accumulate-allreduce-grads-in-fp32")) note("--accumulate-allreduce-grads-in-fp32", "training.gradDtype");
    choiceArg("--fp8-recipe", { { "delayed", "delayed" }, { "tensorwise", "current" }, { "mxfp8", "mxfp8" }, { "blockwise", "blockwise" } },
        training, "fp8Recipe", "training.fp8Recipe");
    switchArg("--fp8-param-gather", training, "fp8ParamGather", true, "training.fp8ParamGather");
    switchArg("--overlap-grad-reduce", training, "overlapGradReduce", true, "training.overlapGradReduce");
    switchArg("--tp-comm-overlap", training, "tpCommOverlap", true, "training.tpCommOverlap");
    switchArg("--no-overlap-p2p-communication", training, "overlapP2pComm", false, "training.overlapP2pComm");
    switchArg("--overlap-moe-expert-parallel-comm", training, "overlapMoeComm", true, "training.overlapMoeComm");
    // Flash or fused attention (no s x s scores) unless the unfused backend is asked for.
    training["flashAttention"] = true;
    if (has("--attention-backend")) {
        const std::string v = given["--attention-backend"];
        if (v == "flash" || v == "fused" || v == "auto" || v == "unfused" || v == "local") {
            training["flashAttention"] = !(v == "unfused" || v == "local");
            note("--attention-backend", "training.flashAttention");
        } else {
            bad("--attention-backend", v);
            used.push_back("--attention-backend");
        }
    }
    switchArg("--use-flash-attn", training, "flashAttention", true, "training.flashAttention");
    choiceArg("--optimizer", { { "adam", "adam" }, { "sgd", "sgd" }, { "muon", "muon" } }, training, "optimizer", "training.optimizer");
    choiceArg("--recompute-granularity", { { "full", "full" }, { "selective", "selective" } }, training, "recompute", "training.recompute");
    choiceArg("--recompute-method", { { "uniform", "uniform" }, { "block", "block" } }, training, "recomputeMethod", "training.recomputeMethod");
    intArg("--recompute-num-layers", training, "recomputeLayers", "training.recomputeLayers");
    if (has("--recompute-modules")) {
        // argparse nargs='*': the module names follow as words of their own.
        training["recomputeModules"] = splitBlanks(given["--recompute-modules"]);
        note("--recompute-modules", "training.recomputeModules");
    }
    if (has("--optimizer-cpu-offload")) {
        double fraction = 1.0;
        if (has("--optimizer-offload-fraction")) {
            const auto f = number(given["--optimizer-offload-fraction"]);
            if (f && *f >= 0 && *f <= 1) {
                fraction = *f;
                note("--optimizer-offload-fraction", "training.offload.optimizerFraction");
            } else {
                bad("--optimizer-offload-fraction", given["--optimizer-offload-fraction"]);
                used.push_back("--optimizer-offload-fraction");
            }
        }
        training["offload"] = { { "optimizerFraction", fraction }, { "activationLayers", 0 } };
        note("--optimizer-cpu-offload", "training.offload.optimizerFraction");
    }
    // The schedule Megatron-LM runs: interleaved 1F1B with virtual stages, else 1F1B.
    if (parallel.value("vpp", 1) > 1) training["schedule"] = "interleaved-1f1b";
    // Tokens to train: --train-samples x sequence, or --train-iters x global batch x sequence.
    const std::int64_t seq = model.value("seqLength", std::int64_t(0));
    for (const char* name : { "--train-samples", "--train-iters" })
        if (has(name) && seq <= 0) {
            // Tokens are samples x the sequence: without one there is nothing to count (not a bad value).
            used.push_back(name);
            out.issues.push_back(issue(Severity::Warning, name,
                Text(PS_TEXT("CoreText", "no --seq-length to count its tokens by: training.tokens not set"))));
            given.erase(name);
        }
    if (has("--train-samples")) {
        if (const auto n = integer(given["--train-samples"]); n && seq > 0) {
            training["tokens"] = double(*n) * double(seq);
            note("--train-samples", "training.tokens = samples x model.seqLength");
        } else {
            bad("--train-samples", given["--train-samples"]);
            used.push_back("--train-samples");
        }
    } else if (has("--train-iters")) {
        if (const auto n = integer(given["--train-iters"]); n && seq > 0 && training.contains("globalBatch")) {
            training["tokens"] = double(*n) * double(training["globalBatch"].get<std::int64_t>()) * double(seq);
            note("--train-iters", "training.tokens = iterations x training.globalBatch x model.seqLength");
        } else {
            bad("--train-iters", given["--train-iters"]);
            used.push_back("--train-iters");
        }
    }

    // What was given and not used: listed by name.
    for (const Arg& a : args)
        if (std::find(used.begin(), used.end(), a.name) == used.end()
            && std::find(out.ignored.begin(), out.ignored.end(), a.name) == out.ignored.end())
            out.ignored.push_back(a.name);
    return out;
}

ImportedLaunch importDeepSpeedConfig(std::string_view text, const json& base, const LaunchOverrides& overrides)
{
    ImportedLaunch out;
    out.format = "deepspeed";
    out.plan = base.is_object() ? base : json::object();
    json& plan = out.plan;
    applyHfConfig(overrides, out);
    json ds;
    try {
        ds = json::parse(text);
    } catch (const json::parse_error& e) {
        out.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "not JSON: %1"), std::string(e.what())),
            std::int64_t(e.byte)));
        return out;
    }
    if (!ds.is_object()) {
        out.issues.push_back(issue(Severity::Error, "", Text(PS_TEXT("CoreText", "not a JSON object"))));
        return out;
    }
    json& cluster = plan["cluster"];
    if (!cluster.is_object()) cluster = json::object();
    if (overrides.nodes > 0) cluster["nodes"] = overrides.nodes;
    if (overrides.gpusPerNode > 0) cluster["gpusPerNode"] = overrides.gpusPerNode;
    const std::int64_t world = cluster.value("nodes", std::int64_t(0)) * cluster.value("gpusPerNode", std::int64_t(0));
    // DeepSpeed alone is data parallelism: every GPU a replica (ZeRO shards within it).
    plan["parallel"] = { { "dp", world }, { "tp", 1 }, { "pp", 1 }, { "cp", 1 }, { "ep", 1 }, { "vpp", 1 }, { "sp", false }, { "zero", 0 } };
    json& training = plan["training"];
    if (!training.is_object()) training = json::object();
    training["precision"] = "fp32";
    training["gradDtype"] = "fp32";

    std::vector<std::string> used;
    // A whole number at a key ("auto" is the trainer's to fill: named, not guessed).
    auto whole = [&](const json& parent, const char* key, const std::string& path) -> std::optional<std::int64_t> {
        if (!parent.contains(key)) return std::nullopt;
        used.push_back(path);
        const json& v = parent[key];
        if (v.is_string() && v.get<std::string>() == "auto") {
            out.issues.push_back(issue(Severity::Warning, path,
                Text(PS_TEXT("CoreText", "\"auto\": set by the Hugging Face trainer from its own arguments; not read"))));
            return std::nullopt;
        }
        if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > (std::int64_t(1) << 31)) {
            out.issues.push_back(issue(Severity::Error, path, Text(PS_TEXT("CoreText", "expected a whole number of at least 1"))));
            return std::nullopt;
        }
        return v.get<std::int64_t>();
    };
    auto enabled = [&](const char* section) {
        if (!ds.contains(section) || !ds[section].is_object()) return false;
        const json& e = ds[section].value("enabled", json(false));
        used.push_back(std::string(section) + ".enabled");
        return e.is_boolean() ? e.get<bool>() : (e.is_string() && e.get<std::string>() == "auto");
    };
    const auto micro = whole(ds, "train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu");
    const auto global = whole(ds, "train_batch_size", "train_batch_size");
    const auto accumulation = whole(ds, "gradient_accumulation_steps", "gradient_accumulation_steps");
    if (micro) {
        training["microBatch"] = *micro;
        out.applied.push_back("train_micro_batch_size_per_gpu " + std::to_string(*micro) + ": training.microBatch");
    }
    // train_batch_size = micro x accumulation x dp (DeepSpeed's rule); any two give the third.
    if (global) {
        training["globalBatch"] = *global;
        out.applied.push_back("train_batch_size " + std::to_string(*global) + ": training.globalBatch");
    } else if (micro && accumulation && world > 0 && double(*micro) * double(*accumulation) * double(world) < 9e15) {
        training["globalBatch"] = *micro * *accumulation * world;
        out.applied.push_back("gradient_accumulation_steps " + std::to_string(*accumulation) + ": training.globalBatch = micro x steps x dp");
    }
    if (global && micro && accumulation && world > 0 && double(*global) != double(*micro) * double(*accumulation) * double(world))
        out.issues.push_back(issue(Severity::Error, "train_batch_size",
            Text(PS_TEXT("CoreText", "%1 is not micro-batch %2 x accumulation %3 x %4 GPUs"), *global, *micro, *accumulation, world)));
    if (enabled("bf16")) {
        training["precision"] = "bf16";
        training["gradDtype"] = "bf16";
        out.applied.push_back("bf16.enabled: training.precision");
    } else if (enabled("fp16")) {
        training["precision"] = "fp16";
        training["gradDtype"] = "fp16";
        out.applied.push_back("fp16.enabled: training.precision");
    }
    if (ds.contains("communication_data_type")) {
        used.push_back("communication_data_type");
        const json& v = ds["communication_data_type"];
        const std::string t = v.is_string() ? v.get<std::string>() : std::string();
        if (t == "fp32" || t == "bf16" || t == "fp16") {
            training["gradDtype"] = t;
            out.applied.push_back("communication_data_type " + t + ": training.gradDtype");
        } else {
            out.issues.push_back(issue(Severity::Error, "communication_data_type", Text(PS_TEXT("CoreText", "\"%1\" is not a value this argument takes"), v.dump())));
        }
    }
    if (ds.contains("zero_optimization") && ds["zero_optimization"].is_object()) {
        const json& z = ds["zero_optimization"];
        if (const auto stage = z.find("stage"); stage != z.end()) {
            used.push_back("zero_optimization.stage");
            if (stage->is_number_integer() && stage->get<std::int64_t>() >= 0 && stage->get<std::int64_t>() <= 3) {
                plan["parallel"]["zero"] = stage->get<std::int64_t>();
                out.applied.push_back("zero_optimization.stage " + std::to_string(stage->get<std::int64_t>()) + ": parallel.zero");
            } else {
                out.issues.push_back(issue(Severity::Error, "zero_optimization.stage", Text(PS_TEXT("CoreText", "expected 0, 1, 2 or 3"))));
            }
        }
        if (z.contains("offload_optimizer") && z["offload_optimizer"].is_object()) {
            used.push_back("zero_optimization.offload_optimizer");
            const json& device = z["offload_optimizer"].contains("device") ? z["offload_optimizer"]["device"] : json();
            if (device.is_string() && device.get<std::string>() == "cpu") {
                training["offload"] = { { "optimizerFraction", 1.0 }, { "activationLayers", 0 } };
                out.applied.push_back("zero_optimization.offload_optimizer.device cpu: training.offload.optimizerFraction");
            }
        }
    }
    if (world <= 0)
        out.issues.push_back(issue(Severity::Error, "cluster",
            Text(PS_TEXT("CoreText", "no world size: a DeepSpeed config does not say how many GPUs run it (give --nodes and --gpus-per-node, or a base plan)"))));
    // Every other key, by its path.
    std::function<void(const json&, const std::string&)> walk = [&](const json& j, const std::string& path) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string p = path.empty() ? it.key() : path + "." + it.key();
            const bool isUsed = std::find(used.begin(), used.end(), p) != used.end();
            const bool prefix = std::any_of(used.begin(), used.end(), [&](const std::string& u) { return u.rfind(p + ".", 0) == 0; });
            if (isUsed) continue;
            if (prefix && it->is_object()) {
                walk(*it, p);
                continue;
            }
            out.ignored.push_back(p);
        }
    };
    walk(ds, "");
    return out;
}

ImportedLaunch importLaunchConfig(std::string_view text, const json& base, const LaunchOverrides& overrides, const std::string& format)
{
    const std::string kind = format.empty() || format == "auto" ? launchConfigFormat(text) : format;
    if (kind == "deepspeed") return importDeepSpeedConfig(text, base, overrides);
    if (kind == "torchtitan") return importTorchtitanToml(text, base, overrides);
    if (kind == "megatron-bridge" || kind == "nemo") return importMegatronYaml(text, base, overrides);
    ImportedLaunch out = importMegatronArgs(text, base, overrides);
    if (kind != "megatron")
        out.issues.insert(out.issues.begin(), issue(Severity::Error, "format",
            Text(PS_TEXT("CoreText", "\"%1\" is not a launch config format (megatron, deepspeed, torchtitan, megatron-bridge)"), kind)));
    return out;
}

LaunchImport importLaunchPlan(std::string_view text, const LaunchImportBase& given)
{
    // The base: a plan's cluster and model, the GPU given in place of its GPU, or an H100 node said in a warning.
    json base = given.plan && given.plan->is_object() ? *given.plan : json::object();
    Issues notes;
    if (!given.gpu.empty()) {
        json cluster = { { "gpu", given.gpu } };
        // The node count stays the base's until the launcher or the overrides say; GPUs per node are the GPU's usual
        // node's (resources/presets/nodes.json), else 8.
        int perNode = 8;
        for (const NodePreset& n : PresetCatalog::builtin().nodes())
            if (n.gpu == given.gpu) {
                perNode = n.gpusPerNode;
                break;
            }
        const bool hasCluster = base.contains("cluster") && base["cluster"].is_object();
        cluster["nodes"] = hasCluster ? base["cluster"].value("nodes", 1) : 1;
        cluster["gpusPerNode"] = hasCluster ? base["cluster"].value("gpusPerNode", perNode) : perNode;
        base["cluster"] = cluster;
    } else if (!base.contains("cluster")) {
        base["cluster"] = { { "gpu", "h100-sxm5-80gb" }, { "nodes", 1 }, { "gpusPerNode", 8 } };
        notes.push_back(issue(Severity::Warning, "cluster.gpu",
            Text(PS_TEXT("CoreText", "a launch config names no GPU: %1 assumed (give a base plan or a GPU)"), "h100-sxm5-80gb")));
    }
    base["schema"] = kPlanSchema;
    if (!given.name.empty()) base["name"] = given.name;

    LaunchImport result;
    result.imported = importLaunchConfig(text, base, given.overrides, given.format);
    // A Hugging Face folder the launch names: its config.json is the model, where it can be read.
    if (!result.imported.hfAssets.empty() && given.overrides.hfConfig.empty() && !given.directory.empty()) {
        std::string path = result.imported.hfAssets;
        if (path[0] != '/') path = given.directory + "/" + path;
        if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0) path += "/config.json";
        if (auto config = readTextFile(path, kMaxPlanFileBytes)) {
            LaunchOverrides withModel = given.overrides;
            withModel.hfConfig = std::move(config).value();
            result.imported = importLaunchConfig(text, base, withModel, given.format);
            for (std::string& a : result.imported.applied)
                if (a == "Hugging Face config.json: model") a = path + ": model";
        } else {
            notes.push_back(issue(Severity::Warning, "model.hf_assets_path",
                Text(PS_TEXT("CoreText", "%1 cannot be read: the model is not taken from it"), path)));
        }
    }
    result.issues = notes;
    result.issues.insert(result.issues.end(), result.imported.issues.begin(), result.imported.issues.end());
    // The plan as the plan reader takes it; text that is no UTF-8 is written with U+FFFD, never thrown on.
    auto parsed = parsePlan(result.imported.plan.dump(-1, ' ', false, json::error_handler_t::replace));
    if (!parsed) result.issues.insert(result.issues.end(), parsed.errors().begin(), parsed.errors().end());
    if (parsed && !hasErrors(result.imported.issues)) result.plan = std::move(parsed->plan);
    return result;
}

std::string exportMegatronArgs(const Plan& plan)
{
    const ModelSpec& m = plan.model;
    const ParallelSpec& q = plan.parallel;
    const TrainingSpec& t = plan.training;
    std::vector<std::string> notes;
    std::vector<std::string> lines;
    auto arg = [&](const std::string& name, const std::string& value = {}) { lines.push_back(value.empty() ? name : name + " " + value); };
    auto num = [](auto v) { return std::to_string(v); };
    // The model.
    arg("--num-layers", num(m.layers));
    arg("--hidden-size", num(m.hidden));
    arg("--ffn-hidden-size", num(m.ffnHidden > 0 ? m.ffnHidden : 4 * m.hidden));
    arg("--num-attention-heads", num(m.heads));
    if (m.kvHeads > 0 && m.kvHeads != m.heads) {
        arg("--group-query-attention");
        arg("--num-query-groups", num(m.kvHeads));
    }
    if (m.headDim > 0) arg("--kv-channels", num(m.headDim));
    arg("--seq-length", num(m.seqLength));
    arg("--max-position-embeddings", num(m.seqLength));
    arg("--vocab-size", num(m.vocab));
    if (m.gatedMlp) arg("--swiglu");
    arg("--normalization", m.norm == NormKind::RMSNorm ? "RMSNorm" : "LayerNorm");
    arg("--position-embedding-type", m.positionEmbedding == PositionEmbedding::Rope ? "rope"
            : m.positionEmbedding == PositionEmbedding::None                    ? "none"
                                                                                 : "learned_absolute");
    if (m.positionEmbedding == PositionEmbedding::Alibi) notes.push_back("ALiBi positions: no Megatron-LM argument (learned_absolute written)");
    if (!m.bias) arg("--disable-bias-linear");
    if (!m.tiedEmbeddings) arg("--untie-embeddings-and-output-weights");
    if (!m.dropout) {
        arg("--hidden-dropout", "0");
        arg("--attention-dropout", "0");
    }
    if (m.qkNorm) arg("--qk-layernorm");
    if (m.mtpLayers > 0) arg("--mtp-num-layers", num(m.mtpLayers));
    if (m.isMoe()) {
        arg("--num-experts", num(m.moe.experts));
        arg("--moe-router-topk", num(m.moe.topK));
        arg("--moe-ffn-hidden-size", num(m.moe.expertFfnHidden > 0 ? m.moe.expertFfnHidden : m.ffnHidden));
        if (m.moe.sharedExperts > 0) {
            const std::int64_t each = m.moe.sharedExpertFfnHidden > 0 ? m.moe.sharedExpertFfnHidden
                                                                       : (m.moe.expertFfnHidden > 0 ? m.moe.expertFfnHidden : m.ffnHidden);
            arg("--moe-shared-expert-intermediate-size", num(each * m.moe.sharedExperts));
            if (m.moe.sharedExperts > 1) notes.push_back(std::to_string(m.moe.sharedExperts) + " shared experts written as one of their summed size");
        }
        arg("--moe-layer-freq", "\"([0]*" + num(m.moe.denseLayers) + "+[1]*" + num(m.layers - m.moe.denseLayers) + ")\"");
        arg("--moe-token-dispatcher-type", m.moe.dispatcher == MoeDispatcher::AllGather ? "allgather" : "alltoall");
        if (m.moe.groupedGemm) arg("--moe-grouped-gemm");
        if (m.moe.routerBias) arg("--moe-router-enable-expert-bias");
        if (m.moe.capacityFactor > 0) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", m.moe.capacityFactor);
            arg("--moe-expert-capacity-factor", buf);
        }
    }
    if (m.mla.enabled()) {
        arg("--multi-latent-attention");
        arg("--q-lora-rank", num(m.mla.qLoraRank));
        arg("--kv-lora-rank", num(m.mla.kvLoraRank));
        arg("--qk-head-dim", num(m.mla.qkNopeHeadDim));
        arg("--qk-pos-emb-head-dim", num(m.mla.qkRopeHeadDim));
        arg("--v-head-dim", num(m.mla.vHeadDim));
    }
    // The layout.
    arg("--tensor-model-parallel-size", num(q.tp));
    arg("--pipeline-model-parallel-size", num(q.pp));
    arg("--context-parallel-size", num(q.cp));
    if (m.isMoe()) arg("--expert-model-parallel-size", num(q.ep));
    if (q.etp > 0) arg("--expert-tensor-parallel-size", num(q.etp));
    if (q.vpp > 1 && t.schedule == ScheduleKind::Interleaved1F1B) arg("--num-virtual-stages-per-pipeline-rank", num(q.vpp));
    if (!q.layout.empty()) {
        // In single quotes, a quote as '\'': the shell passes the layout as written, runs nothing in it.
        std::string quoted = "'";
        for (char c : q.layout) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        arg("--pipeline-model-parallel-layout", quoted + "'");
    }
    if (q.firstStageLayers > 0) arg("--decoder-first-pipeline-num-layers", num(q.firstStageLayers));
    if (q.lastStageLayers > 0) arg("--decoder-last-pipeline-num-layers", num(q.lastStageLayers));
    if (q.embeddingInSplit) arg("--account-for-embedding-in-pipeline-split");
    if (q.lossInSplit) arg("--account-for-loss-in-pipeline-split");
    if (q.sp) arg("--sequence-parallel");
    if (q.zero >= 1) arg("--use-distributed-optimizer");
    if (q.zero >= 2) notes.push_back("ZeRO-" + std::to_string(q.zero) + ": Megatron-LM's distributed optimizer shards the optimizer state only (ZeRO-1); use its FSDP for more");
    if (q.fsdp != Fsdp::None) notes.push_back("FSDP: --use-torch-fsdp2 or --use-megatron-fsdp runs it; not written");
    if (t.schedule != ScheduleKind::OneFOneB && t.schedule != ScheduleKind::Interleaved1F1B)
        notes.push_back("schedule " + std::string(toString(t.schedule)) + ": Megatron-LM runs 1F1B or interleaved 1F1B");
    // Training.
    arg("--micro-batch-size", num(t.microBatch));
    arg("--global-batch-size", num(t.globalBatch));
    if (t.precision == Precision::BF16 || t.precision == Precision::FP8) arg("--bf16");
    if (t.precision == Precision::FP16) arg("--fp16");
    if (t.precision == Precision::FP8) {
        arg("--fp8-format", "hybrid");
        arg("--fp8-recipe", t.fp8Recipe == Fp8Recipe::Current ? "tensorwise" : std::string(toString(t.fp8Recipe)));
        if (t.fp8ParamGather) arg("--fp8-param-gather");
    }
    if (t.precision != Precision::FP32 && t.gradDtype == Precision::FP32) arg("--accumulate-allreduce-grads-in-fp32");
    if (t.recompute != Recompute::None) arg("--recompute-granularity", std::string(toString(t.recompute)));
    if (t.recompute == Recompute::Full) {
        arg("--recompute-method", t.recomputeBlock ? "block" : "uniform");
        // 0 (every layer) is a group of one layer uniformly, or every layer of a chunk by block.
        arg("--recompute-num-layers", num(t.recomputeLayers > 0 ? t.recomputeLayers : (t.recomputeBlock ? m.layers : 1)));
    }
    if (t.recompute == Recompute::Selective && !t.recomputeModules.empty()) {
        std::string modules;
        for (const std::string& s : t.recomputeModules) modules += (modules.empty() ? "" : " ") + s;
        arg("--recompute-modules", modules);
    }
    if (t.overlapGradReduce) arg("--overlap-grad-reduce");
    if (t.tpCommOverlap) arg("--tp-comm-overlap");
    if (!t.overlapP2pComm) arg("--no-overlap-p2p-communication");
    if (t.overlapMoeComm) arg("--overlap-moe-expert-parallel-comm");
    if (!t.flashAttention) arg("--attention-backend", "unfused");
    arg("--optimizer", std::string(toString(t.optimizer)));
    if (t.offload.optimizerFraction > 0) {
        arg("--optimizer-cpu-offload");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", t.offload.optimizerFraction);
        arg("--optimizer-offload-fraction", buf);
    }
    if (t.tokens > 0 && m.seqLength > 0) arg("--train-samples", num(std::llround(t.tokens / double(m.seqLength))));

    std::string name = plan.name;
    std::replace(name.begin(), name.end(), '\n', ' '); // a comment line stays one line
    std::replace(name.begin(), name.end(), '\r', ' ');
    std::string out = "# " + name + ": written by planscope-cli export-config for Megatron-LM (pretrain_gpt.py)\n";
    for (const std::string& n : notes) out += "# not expressed: " + n + "\n";
    out += "torchrun --nnodes " + num(plan.cluster.nodes) + " --nproc-per-node " + num(plan.cluster.gpusPerNode) + " pretrain_gpt.py";
    for (const std::string& l : lines) out += " \\\n    " + l;
    out += "\n";
    return out;
}

} // namespace planscope
