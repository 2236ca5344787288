#pragma once
// Parsing of option values, with the units of the value syntax described in
// core/options.h. Each returns InvalidArgument with what is valid (without
// the option's name, which the caller adds).

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

Result<bool> ParseBool(std::string_view text);
Result<int64_t> ParseInt(std::string_view text);
Result<double> ParseDouble(std::string_view text);
Result<uint64_t> ParseSize(std::string_view text);
Result<double> ParseSeconds(std::string_view text);  // returns seconds
std::string FormatSize(uint64_t bytes);              // 16384 -> "16K", 1000 -> "1000"

}  // namespace loadcell
