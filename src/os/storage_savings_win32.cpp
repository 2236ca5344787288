#include <windows.h>

#include "os/storage_savings.h"
#include "os/win32_util.h"

namespace loadcell {

bool CompressedAttribute(DWORD attributes) {
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_COMPRESSED) != 0;
}

bool FileCompressAttribute(const std::string& path) {
  return CompressedAttribute(GetFileAttributesW(WidePath(path).c_str()));
}

StorageSavings ReadStorageSavings(const std::string& path) {
  if (GetFileAttributesW(WidePath(path).c_str()) == INVALID_FILE_ATTRIBUTES) return {};
  if (FileCompressAttribute(path)) return {true, true, "the NTFS compressed attribute set"};
  return {true, false, "the NTFS compressed attribute not set"};
}

}  // namespace loadcell
