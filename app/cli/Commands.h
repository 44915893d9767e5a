// planscope-cli verbs. Each returns the process exit code: 0 success, 1 usage or I/O error, 2 invalid plan.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace planscope::cli {

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace planscope::cli
