#include "os/file_extents.h"
#include "os/host_facts.h"

namespace loadcell {
namespace {

// Why a Windows file's valid data length (NTFS's mark past which reads
// return zeros without the disk) is not read (docs/validity.md, "Not yet
// checked").
constexpr const char* kValidDataLengthUnread =
    "its valid data length not checked (Windows states it only through "
    "FSCTL_QUERY_FILE_LAYOUT on a volume handle, which only an administrator may open)";

}  // namespace

// Windows states a file's allocated ranges (FileHoleBytes) but no range
// allocated and never written: its valid data length is one offset per
// file, not a map, and is not read here; both reasons say so.
Result<FileZeroRanges> ReadFileZeroRanges(const std::string& path) {
  Result<uint64_t> holes = FileHoleBytes(path);
  if (!holes.ok()) {
    const Status& st = holes.status();
    if (st.code() != StatusCode::kUnimplemented) return st;
    return Status(st.code(), st.message() + "; " + kValidDataLengthUnread, st.err());
  }
  FileZeroRanges z;
  z.hole_bytes = *holes;
  z.never_written_bytes = *holes;
  z.unwritten_unknown =
      path + ": Windows gives no map of unwritten extents, and " + kValidDataLengthUnread;
  return z;
}

}  // namespace loadcell
