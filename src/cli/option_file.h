#pragma once
// Reading a file of options (--config-file, SQLIO's -F param file): a
// regular file of at most kMaxOptionFileBytes, refused otherwise before it
// is read, so that /dev/zero, a FIFO or a huge file cannot hang the run or
// exhaust memory.

#include <cstdint>
#include <string>

#include "core/status.h"

namespace loadcell {

inline constexpr uint64_t kMaxOptionFileBytes = uint64_t{1} << 20;  // 1 MiB

// The whole text of `path`. `what` names the option in the one-line usage
// error ("--config-file=x.cfg"): missing, not a regular file, larger than
// the limit or unreadable. A leading UTF-8 byte order mark is dropped; a
// file that starts with a UTF-16 byte order mark (little- or big-endian) is
// converted to UTF-8, and refused in one line when it is not valid UTF-16.
Result<std::string> ReadOptionFile(const std::string& path, const std::string& what);

}  // namespace loadcell
