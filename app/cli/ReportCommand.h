// planscope-cli report PLAN... --out FILE.pdf|FILE.html [--lang zh_CN]: the report of docs/FORMATS.md section 9,
// drawn by the app's own pages (widgets/report/ReportWriter.h) on Qt's offscreen platform, so it needs no display.
// In a build without the GUI (PLANSCOPE_WITH_GUI=OFF) the verb says that it is not available.
#pragma once

#include "Args.h"

#include <iosfwd>

namespace planscope::cli {

int cmdReport(const Args& a, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
