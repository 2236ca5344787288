#include "os/file_extents.h"
#include "os/host_facts.h"

namespace loadcell {

// Windows states a file's allocated ranges (FileHoleBytes) but no range
// allocated and never written: its valid data length is one offset per
// file, not a map, and is not read here.
Result<FileZeroRanges> ReadFileZeroRanges(const std::string& path) {
  LC_ASSIGN_OR_RETURN(uint64_t holes, FileHoleBytes(path));
  FileZeroRanges z;
  z.hole_bytes = holes;
  z.never_written_bytes = holes;
  z.unwritten_unknown = path + ": Windows gives no map of unwritten extents";
  return z;
}

}  // namespace loadcell
