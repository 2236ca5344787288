#pragma once
// Base64 (RFC 4648, the standard alphabet with '=' padding), as SCRAM and PEM
// use it. Byte strings are std::string (raw bytes).

#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

std::string Base64Encode(std::string_view bytes);
// The bytes of `text`; whitespace (PEM's line breaks) is skipped. Anything
// else that is not of the alphabet, or padding out of place, is
// kInvalidArgument naming what was wrong.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace loadcell
