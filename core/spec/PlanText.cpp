#include "PlanText.h"

#include <string>

namespace planscope {

Text degreesText(const ParallelSpec& p)
{
    // Sharding: DeepSpeed's ZeRO stage, or PyTorch FSDP's strategy where it is used instead.
    const Text sharding = p.fsdp == Fsdp::None ? Text(PS_TEXT("CoreText", "ZeRO-%1"), p.zero)
                                               : Text(PS_TEXT("CoreText", "FSDP %1"), std::string(toString(p.fsdp)));
    return Text(PS_TEXT("CoreText", "dp %1 · tp %2 · pp %3 · cp %4 · ep %5 · vpp %6 · sp %7 · %8 · order %9"), p.dp, p.tp,
        p.pp, p.cp, p.ep, p.vpp, p.sp ? Text(PS_TEXT("CoreText", "on")) : Text(PS_TEXT("CoreText", "off")), sharding,
        p.order);
}

} // namespace planscope
