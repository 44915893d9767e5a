// Megatron-Core pipeline layout string -> parsePipelineLayout. Every parsed symbol points at a character of its own
// kind in the text, and the stages written out plainly ("Et|tt|tL") parse back to the same kinds.
#include "FuzzCheck.h"

#include "spec/PipelineLayout.h"

#include <string>

using namespace planscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::text(data, size);
    auto layout = parsePipelineLayout(text);
    fuzz::checkFailureHasReason(layout);
    if (!layout.ok()) return 0;

    std::string plain;
    for (std::size_t s = 0; s < layout->stages.size(); ++s) {
        if (s > 0) plain += '|';
        for (const LayoutSymbol& sym : layout->stages[s]) {
            FUZZ_CHECK(sym.character >= 1 && std::size_t(sym.character) <= text.size());
            FUZZ_CHECK(text[std::size_t(sym.character - 1)] == sym.kind);
            plain += sym.kind;
        }
    }
    auto again = parsePipelineLayout(plain);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->stages.size() == layout->stages.size());
    for (std::size_t s = 0; s < layout->stages.size(); ++s) {
        FUZZ_CHECK(again->stages[s].size() == layout->stages[s].size());
        for (std::size_t i = 0; i < layout->stages[s].size(); ++i)
            FUZZ_CHECK(again->stages[s][i].kind == layout->stages[s][i].kind);
    }
    return 0;
}
