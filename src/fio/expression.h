#pragma once
// Integer arithmetic in fio values: what fio's "(1024*4)" expressions and
// its keyword math ("size=8*$mb_memory", computed by bc) give for whole
// numbers.

#include <cstdint>
#include <string_view>

#include "core/status.h"

namespace loadcell::fio {

// The value of `text`: decimal integers, + - * / % ^ (power), unary minus
// and parentheses, with the usual precedence (^ binds tightest and groups to
// the right; / and % truncate toward zero, as bc's do at scale 0). White
// space is ignored. Refused (InvalidArgument, saying why): anything else in
// the text, a division by zero, a result or step outside int64.
Result<int64_t> EvaluateIntegerExpression(std::string_view text);

// Whether `text` has an arithmetic operator (+ - * / % ^) outside a leading
// sign: whether a keyword replacement made it an expression to compute.
bool HasArithmetic(std::string_view text);

}  // namespace loadcell::fio
