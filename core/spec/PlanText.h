// A plan's parallel degrees in one line, the one wording of them: the metrics page's header, the report's settings
// and `planscope-cli summary` print it ("dp 2 · tp 2 · pp 4 · cp 1 · ep 1 · vpp 1 · sp on · ZeRO-1 · order
// tp-cp-ep-dp-pp"), as a template (util/Text.h) the app shows in its language.
#pragma once

#include "spec/Plan.h"
#include "util/Text.h"

namespace planscope {

Text degreesText(const ParallelSpec& parallel);

} // namespace planscope
