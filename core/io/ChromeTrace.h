// A simulated timeline as a Chrome trace (the Trace Event Format's JSON, which Perfetto UI and chrome://tracing
// open): one process per pipeline rank, one thread per stream, a span per op and a counter of memory over time.
// Written by `planscope-cli simulate --chrome-trace` (app/cli/ScheduleCommands.cpp).
#pragma once

#include "sim/Timeline.h"

#include <string>

namespace planscope {

std::string chromeTrace(const Timeline& timeline, const std::string& title);

} // namespace planscope
