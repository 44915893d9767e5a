// The arithmetic language of an Explanation's formula: names, numbers, + - * / ^ (right-associative
// power), unary minus, parentheses and the functions min, max (two or more arguments), ceil, floor and
// log2. evaluateFormula() computes a formula from named values, so that a test (and anyone reading an
// explanation) can check that the formula printed beside a number really gives that number.
#pragma once

#include "util/Result.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planscope {

using FormulaInputs = std::vector<std::pair<std::string, double>>;

// The value of `formula` with each name taken from `inputs`; an error (with the byte offset) on a syntax
// error, an unknown function or a name that is not among the inputs.
Result<double> evaluateFormula(std::string_view formula, const FormulaInputs& inputs);

// The names a formula uses (function names excluded), in order of first appearance; empty on a syntax error.
std::vector<std::string> formulaNames(std::string_view formula);

} // namespace planscope

namespace planscope {

// "max(x0, x1, ...)" over values named prefix0, prefix1, ... with those values as inputs ("x0" alone for
// one value): how an explanation states "the largest over stages" as arithmetic.
std::pair<std::string, FormulaInputs> maxOverFormula(const std::string& prefix, const std::vector<double>& values);

} // namespace planscope
