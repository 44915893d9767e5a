#include "PipelineLayout.h"

#include "ScheduleTraits.h"
#include "util/Memo.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace planscope {

namespace {

constexpr const char* kPath = "parallel.layout";
constexpr std::int64_t kMaxSymbols = 1000000; // more layers than any model; keeps a typo like (t|)*99999999 cheap
// parallel.pp's own limit (io/PlanJson.cpp); a layout's stages are pp x vpp, and no model has the layers for more.
// (L|t)*313679 (313,680 stages, found by tests/fuzz/fuzz_layout) made the parse allocate a vector per stage for seconds.
constexpr std::int64_t kMaxStages = 100000;

// Messages are templates of core/util/Text.h; a character is counted from 1.
long long character(std::size_t index) { return static_cast<long long>(index) + 1; }
Text quoted(char c)
{
    if (std::isprint(static_cast<unsigned char>(c))) return Text::verbatim(std::string("'") + c + "'");
    return Text(PS_TEXT("CoreText", "byte %1"), static_cast<unsigned char>(c));
}
bool isLayer(char c) { return c == 'E' || c == 't' || c == 'm' || c == 'L' || c == '|'; }

class LayoutParser {
public:
    explicit LayoutParser(std::string_view text) : m_text(text) { }

    // The flat symbol list ('|' kept as a symbol), or the first error.
    bool run(std::vector<LayoutSymbol>& out, Text& error)
    {
        std::size_t i = 0;
        while (i < m_text.size()) {
            const char c = m_text[i];
            if (c == ',') {
                ++i;
            } else if (isLayer(c)) {
                if (!letter(i, out, error)) return false;
            } else if (c == '(') {
                if (!group(i, out, error)) return false;
            } else {
                error = Text(PS_TEXT("CoreText", "unexpected %1 at character %2"), quoted(c), character(i));
                return false;
            }
        }
        return true;
    }

private:
    // "*N" at i (i on the '*'); leaves i after the digits.
    bool count(std::size_t& i, std::int64_t& n, Text& error)
    {
        const std::size_t star = i++;
        if (i >= m_text.size() || !std::isdigit(static_cast<unsigned char>(m_text[i]))) {
            error = Text(PS_TEXT("CoreText", "expected a count after '*' at character %1"), character(star));
            return false;
        }
        n = 0;
        while (i < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[i]))) {
            n = n * 10 + (m_text[i] - '0');
            if (n > kMaxSymbols) {
                error = Text(PS_TEXT("CoreText", "count after '*' at character %1 is larger than %2"), character(star),
                    kMaxSymbols);
                return false;
            }
            ++i;
        }
        return true;
    }

    bool append(std::vector<LayoutSymbol>& out, const std::vector<LayoutSymbol>& items, std::int64_t times,
        std::size_t where, Text& error)
    {
        if (std::int64_t(out.size()) + std::int64_t(items.size()) * times > kMaxSymbols) {
            error = Text(PS_TEXT("CoreText", "the repetition at character %1 expands to more than %2 layers"),
                character(where), kMaxSymbols);
            return false;
        }
        for (std::int64_t k = 0; k < times; ++k) out.insert(out.end(), items.begin(), items.end());
        return true;
    }

    // A letter (or '|') with an optional "*N".
    bool letter(std::size_t& i, std::vector<LayoutSymbol>& out, Text& error)
    {
        const std::size_t pos = i++;
        std::int64_t n = 1;
        if (i < m_text.size() && m_text[i] == '*' && !count(i, n, error)) return false;
        return append(out, { LayoutSymbol { m_text[pos], int(pos) + 1 } }, n, pos, error);
    }

    // "(...)*N": letters (each with an optional count) and '|', no nesting, not empty.
    bool group(std::size_t& i, std::vector<LayoutSymbol>& out, Text& error)
    {
        const std::size_t open = i++;
        std::vector<LayoutSymbol> body;
        while (i < m_text.size() && m_text[i] != ')') {
            const char c = m_text[i];
            if (c == ',') {
                ++i;
            } else if (isLayer(c)) {
                if (!letter(i, body, error)) return false;
            } else {
                error = c == '('
                    ? Text(PS_TEXT("CoreText", "unexpected %1 at character %2 (groups do not nest)"), quoted(c), character(i))
                    : Text(PS_TEXT("CoreText", "unexpected %1 at character %2"), quoted(c), character(i));
                return false;
            }
        }
        if (i >= m_text.size()) {
            error = Text(PS_TEXT("CoreText", "'(' at character %1 is not closed"), character(open));
            return false;
        }
        const std::size_t close = i++;
        if (body.empty()) {
            error = Text(PS_TEXT("CoreText", "empty group '()' at character %1"), character(open));
            return false;
        }
        if (i >= m_text.size() || m_text[i] != '*') {
            error = Text(PS_TEXT("CoreText", "expected '*' and a count after ')' at character %1"), character(close));
            return false;
        }
        std::int64_t n = 0;
        if (!count(i, n, error)) return false;
        return append(out, body, n, open, error);
    }

    std::string_view m_text;
};

// The legacy per-rank counts: the even split (remainder on the first ranks, which validation reports), or
// firstStageLayers/lastStageLayers with the rest spread evenly.
std::vector<int> rankLayers(const Plan& plan, int p)
{
    const int L = std::max(0, plan.model.layers);
    std::vector<int> layers(std::size_t(p), L / p);
    const int first = plan.parallel.firstStageLayers, last = plan.parallel.lastStageLayers;
    if ((first > 0 || last > 0) && p > 1) {
        const int rest = L - std::max(0, first) - std::max(0, last);
        const int middle = p - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
        const int each = middle > 0 ? std::max(0, rest) / middle : 0;
        for (int r = 0; r < p; ++r) layers[std::size_t(r)] = each;
        if (first > 0) layers[0] = first;
        if (last > 0) layers[std::size_t(p - 1)] = last;
    } else {
        for (int r = 0; r < L % p; ++r) ++layers[std::size_t(r)];
    }
    return layers;
}

enum class SplitKind { Layout, InSplit, FirstLast, Even };

SplitKind splitKind(const Plan& plan)
{
    const ParallelSpec& P = plan.parallel;
    if (!P.layout.empty()) return SplitKind::Layout;
    if (P.embeddingInSplit || P.lossInSplit) return SplitKind::InSplit;
    if (P.firstStageLayers > 0 || P.lastStageLayers > 0) return SplitKind::FirstLast;
    return SplitKind::Even;
}

} // namespace

int ParsedLayout::count(char kind) const
{
    int n = 0;
    for (const auto& stage : stages)
        for (const LayoutSymbol& s : stage) n += s.kind == kind ? 1 : 0;
    return n;
}

Result<ParsedLayout> parsePipelineLayout(std::string_view text)
{
    std::vector<LayoutSymbol> flat;
    Text error;
    if (!LayoutParser(text).run(flat, error)) return Result<ParsedLayout>::failure(kPath, std::move(error));
    const auto stages = 1 + std::count_if(flat.begin(), flat.end(), [](const LayoutSymbol& s) { return s.kind == '|'; });
    if (stages > kMaxStages)
        return Result<ParsedLayout>::failure(
            kPath, Text(PS_TEXT("CoreText", "expands to %1 stages, more than %2"), stages, kMaxStages));
    ParsedLayout parsed;
    parsed.stages.emplace_back();
    for (const LayoutSymbol& s : flat) {
        if (s.kind == '|')
            parsed.stages.emplace_back();
        else
            parsed.stages.back().push_back(s);
    }
    return parsed;
}

namespace {
// parsePipelineLayout of a plan's layout string, remembered per thread (validate() and virtualStages() both read it on
// every evaluation; core/util/Memo.h).
std::optional<Result<ParsedLayout>> parseLayoutOnce(const std::string& text) { return parsePipelineLayout(text); }
} // namespace

namespace {

// Which of each stage's layers are dense: the model's first moe.denseLayers in forward order.
std::vector<VirtualStage> markDenseLayers(std::vector<VirtualStage> stages, const ModelSpec& model)
{
    int before = 0;
    const int dense = model.isMoe() ? model.moe.denseLayers : 0;
    for (VirtualStage& v : stages) {
        v.denseLayers = model.isMoe() ? std::clamp(dense - before, 0, v.layers) : v.layers;
        before += v.layers;
    }
    return stages;
}

} // namespace

std::vector<VirtualStage> virtualStages(const Plan& plan)
{
    const int p = std::max(1, plan.parallel.pp);
    const ScheduleKind kind = plan.training.schedule;
    const bool dualPipe = traits(kind).bidirectional;
    const int chunks = dualPipe ? 1 : std::max(1, plan.chunksPerRank());
    const int S = p * chunks;
    std::vector<VirtualStage> stages(static_cast<std::size_t>(S));
    for (int k = 0; k < S; ++k) {
        VirtualStage& v = stages[std::size_t(k)];
        v.chunk = k / p;
        // Loop placement (Megatron's interleaving): stage k on rank k mod p; a V turns back on every odd pass.
        v.rank = traits(kind).vShaped && v.chunk % 2 == 1 ? p - 1 - k % p : k % p;
    }
    const SplitKind split = splitKind(plan);
    bool done = false;
    if (split == SplitKind::Layout && traits(kind).customSplit()) {
        const auto& parsed = *memoLast<std::string, std::optional<Result<ParsedLayout>>, parseLayoutOnce>(plan.parallel.layout);
        if (parsed && parsed->stages.size() == stages.size()) {
            for (int k = 0; k < S; ++k) {
                VirtualStage& v = stages[std::size_t(k)];
                for (const LayoutSymbol& s : parsed->stages[std::size_t(k)]) {
                    v.layers += s.kind == 't' ? 1 : 0;
                    v.mtpLayers += s.kind == 'm' ? 1 : 0;
                    v.embedding = v.embedding || s.kind == 'E';
                    v.loss = v.loss || s.kind == 'L';
                }
            }
            return markDenseLayers(std::move(stages), plan.model);
        }
    } else if (split == SplitKind::InSplit && traits(kind).customSplit()) {
        // Megatron-Core megatron/core/transformer/transformer_block.py, get_num_layers_to_build: the embedding and
        // the loss count as layers, (L + e + l) / pp per rank, / vpp per virtual stage; the first virtual stage of
        // the first rank builds one transformer layer fewer for the embedding, the last of the last rank for the loss.
        const int e = plan.parallel.embeddingInSplit ? 1 : 0, l = plan.parallel.lossInSplit ? 1 : 0;
        const int N = std::max(0, plan.model.layers) + e + l;
        if (N % S == 0) {
            for (VirtualStage& v : stages) v.layers = N / S;
            stages.front().layers -= e;
            stages.back().layers -= l;
            done = true;
        }
    }
    if (!done) {
        // Each rank's layers spread over its chunks, the remainder on its first chunks.
        const std::vector<int> held = rankLayers(plan, p);
        for (VirtualStage& v : stages) {
            const int h = held[std::size_t(v.rank)];
            v.layers = h / chunks + (v.chunk < h % chunks ? 1 : 0);
        }
    }
    stages.front().embedding = true;
    stages.back().loss = true;
    // Megatron-Core builds the MTP block on the last pipeline stage, after the decoder (megatron/core/models/gpt/
    // gpt_model.py, mtp_block on the post-process stage).
    stages.back().mtpLayers = std::max(0, plan.model.mtpLayers);
    return markDenseLayers(std::move(stages), plan.model);
}

std::string splitSource(const Plan& plan)
{
    switch (splitKind(plan)) {
    case SplitKind::Layout: return "layout";
    case SplitKind::InSplit: return "embedding/loss in split";
    case SplitKind::FirstLast: return "first/last stage layers";
    case SplitKind::Even: break;
    }
    return "even";
}

Issues checkPipelineSplit(const Plan& plan)
{
    Issues issues;
    auto error = [&](std::string path, Text text) { issues.push_back(issue(Severity::Error, std::move(path), std::move(text))); };
    const ParallelSpec& P = plan.parallel;
    const ModelSpec& M = plan.model;
    const ScheduleKind kind = plan.training.schedule;
    const int chunks = plan.chunksPerRank();
    const long long S = 1LL * P.pp * chunks;
    const bool firstLast = P.firstStageLayers > 0 || P.lastStageLayers > 0;
    const char* const perRank = chunks > 1 ? "chunks" : "1"; // pp*chunks or pp*1 in the messages

    if (!P.layout.empty()) {
        // Megatron-Core's TransformerConfig refuses the layout beside the other split options.
        if (firstLast || P.embeddingInSplit || P.lossInSplit)
            error(kPath,
                Text(PS_TEXT("CoreText", "a layout cannot be combined with firstStageLayers, lastStageLayers, "
                                         "embeddingInSplit or lossInSplit (Megatron-Core refuses the combination)")));
        if (!traits(kind).customSplit())
            error(kPath, Text(PS_TEXT("CoreText", "a layout is not supported with the %1 schedule"), toString(kind)));
        const auto& parsed = *memoLast<std::string, std::optional<Result<ParsedLayout>>, parseLayoutOnce>(P.layout);
        if (!parsed) {
            issues.insert(issues.end(), parsed.errors().begin(), parsed.errors().end());
            return issues;
        }
        const ParsedLayout& lay = parsed.value();
        const long long n = static_cast<long long>(lay.stages.size());
        if (n != S)
            error(kPath,
                chunks > 1 ? Text(PS_TEXT("CoreText", "the layout has %1 stages but pp*%2 = %3 are needed (pp %4, vpp %5)"),
                                 n, perRank, S, P.pp, chunks)
                           : Text(PS_TEXT("CoreText", "the layout has %1 stages but pp*%2 = %3 are needed (pp %4)"), n,
                                 perRank, S, P.pp));
        const int t = lay.count('t');
        if (t != M.layers)
            error(kPath,
                Text(PS_TEXT("CoreText", "the layout has %1 transformer layers ('t') but model.layers is %2"), t, M.layers));
        // The embedding first in the first stage, the loss last in the last stage, each exactly once.
        bool sawE = false, sawL = false, sawM = false, placeReported = false, orderReported = false;
        for (std::size_t k = 0; k < lay.stages.size(); ++k) {
            const auto& stage = lay.stages[k];
            for (std::size_t j = 0; j < stage.size(); ++j) {
                const LayoutSymbol& s = stage[j];
                // The symbol, its character and its stage: %1 at character %2 (stage %3) in each message.
                const Text symbol = quoted(s.kind);
                const long long at = s.character, stageIndex = static_cast<long long>(k);
                if (s.kind == 'E') {
                    if (sawE)
                        error(kPath,
                            Text(PS_TEXT("CoreText", "a second embedding %1 at character %2 (stage %3); 'E' appears once"),
                                symbol, at, stageIndex));
                    else if (k != 0 || j != 0)
                        error(kPath,
                            Text(PS_TEXT("CoreText", "embedding %1 at character %2 (stage %3): 'E' must be the first layer "
                                                     "of the first stage"),
                                symbol, at, stageIndex));
                    sawE = true;
                } else if (s.kind == 'L') {
                    if (sawL)
                        error(kPath,
                            Text(PS_TEXT("CoreText", "a second loss %1 at character %2 (stage %3); 'L' appears once"),
                                symbol, at, stageIndex));
                    else if (k + 1 != lay.stages.size() || j + 1 != stage.size())
                        error(kPath,
                            Text(PS_TEXT("CoreText", "loss %1 at character %2 (stage %3): 'L' must be the last layer of "
                                                     "the last stage"),
                                symbol, at, stageIndex));
                    sawL = true;
                } else if (s.kind == 'm') {
                    const long long rank = P.pp > 0 ? static_cast<long long>(k) % P.pp : 0;
                    const long long chunk = P.pp > 0 ? static_cast<long long>(k) / P.pp : 0;
                    // Megatron-Core validate_layer_layout: MTP layers sit in a rank's last virtual stage, never on
                    // the first rank.
                    if (n == S && (chunk != chunks - 1 || rank == 0) && !placeReported) {
                        error(kPath,
                            Text(PS_TEXT("CoreText", "MTP layer %1 at character %2 (stage %3): 'm' belongs to the last "
                                                     "virtual stage of a rank other than the first"),
                                symbol, at, stageIndex));
                        placeReported = true;
                    }
                    sawM = true;
                } else if (s.kind == 't' && sawM && !orderReported) {
                    error(kPath,
                        Text(PS_TEXT("CoreText", "transformer layer %1 at character %2 (stage %3) after an MTP layer; 't' "
                                                 "layers come before 'm'"),
                            symbol, at, stageIndex));
                    orderReported = true;
                }
            }
        }
        if (!sawE) error(kPath, Text(PS_TEXT("CoreText", "no embedding 'E': the first stage must start with it")));
        if (!sawL) error(kPath, Text(PS_TEXT("CoreText", "no loss 'L': the last stage must end with it")));
        const int mtp = lay.count('m');
        if (mtp != M.mtpLayers)
            error(kPath,
                Text(PS_TEXT("CoreText", "the layout places %1 MTP layers ('m') but model.mtpLayers is %2; Megatron-Core "
                                         "requires the two to agree"),
                    mtp, M.mtpLayers));
        return issues;
    }

    if (P.embeddingInSplit || P.lossInSplit) {
        const std::string path = P.embeddingInSplit ? "parallel.embeddingInSplit" : "parallel.lossInSplit";
        if (firstLast)
            error(path,
                Text(PS_TEXT("CoreText", "embeddingInSplit/lossInSplit cannot be combined with "
                                         "firstStageLayers/lastStageLayers (Megatron-Core refuses the combination)")));
        if (!traits(kind).customSplit())
            error(path,
                Text(PS_TEXT("CoreText", "embeddingInSplit/lossInSplit are not supported with the %1 schedule"),
                    toString(kind)));
        const int e = P.embeddingInSplit ? 1 : 0, l = P.lossInSplit ? 1 : 0;
        const long long N = 1LL * M.layers + e + l;
        if (M.layers > 0 && S > 0 && N % S != 0)
            error(chunks > 1 ? "parallel.vpp" : "parallel.pp",
                e && l ? Text(PS_TEXT("CoreText", "layers %1 + embedding + loss = %2 are not divisible by pp*%3 = %4"),
                             M.layers, N, perRank, S)
                    : e ? Text(PS_TEXT("CoreText", "layers %1 + embedding = %2 are not divisible by pp*%3 = %4"), M.layers,
                              N, perRank, S)
                        : Text(PS_TEXT("CoreText", "layers %1 + loss = %2 are not divisible by pp*%3 = %4"), M.layers, N,
                              perRank, S));
    }
    return issues;
}

} // namespace planscope
