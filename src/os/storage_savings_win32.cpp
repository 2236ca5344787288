#include <windows.h>

#include "os/storage_savings.h"
#include "os/win32_util.h"

namespace loadcell {

bool FileCompressAttribute(const std::string& path) {
  const DWORD attributes = GetFileAttributesW(WidePath(path).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_COMPRESSED) != 0;
}

StorageSavings ReadStorageSavings(const std::string& path) {
  if (GetFileAttributesW(WidePath(path).c_str()) == INVALID_FILE_ATTRIBUTES) return {};
  if (FileCompressAttribute(path)) return {true, true, "the NTFS compressed attribute set"};
  return {true, false, "the NTFS compressed attribute not set"};
}

}  // namespace loadcell
