// Raw devices on Windows: \\.\PhysicalDriveN and volumes \\.\X:, through
// os/raw_device.h's logic over the system's calls.
#include <windows.h>
#include <winioctl.h>

#include <cctype>
#include <string>
#include <vector>

#include "os/block_device.h"
#include "os/raw_device.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

// "X:\\ (NTFS)" when the volume of drive `letter` holds a file system
// Windows mounted, else "".
std::string MountedVolume(char letter) {
  const std::wstring root = Widen(std::string(1, letter) + ":\\");
  wchar_t fs_name[MAX_PATH + 1] = {};
  if (!GetVolumeInformationW(root.c_str(), nullptr, 0, nullptr, nullptr, nullptr, fs_name,
                             MAX_PATH)) {
    return "";
  }
  return std::string(1, letter) + ":\\ (" + Narrow(fs_name) + ")";
}

// Whether the volume of drive `letter` lies on physical drive `disk`.
bool VolumeOnDisk(char letter, DWORD disk) {
  const std::wstring volume = Widen(std::string("\\\\.\\") + letter + ":");
  const HANDLE h = CreateFileW(volume.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                               OPEN_EXISTING, 0, nullptr);
  if (h == INVALID_HANDLE_VALUE) return false;
  std::vector<unsigned char> out(sizeof(VOLUME_DISK_EXTENTS) + 31 * sizeof(DISK_EXTENT));
  DWORD got = 0;
  const BOOL ok = DeviceIoControl(h, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, nullptr, 0, out.data(),
                                  static_cast<DWORD>(out.size()), &got, nullptr);
  CloseHandle(h);
  if (!ok) return false;
  const auto* extents = reinterpret_cast<const VOLUME_DISK_EXTENTS*>(out.data());
  for (DWORD i = 0; i < extents->NumberOfDiskExtents && i < 32; ++i) {
    if (extents->Extents[i].DiskNumber == disk) return true;
  }
  return false;
}

}  // namespace

bool IsBlockDevice(const std::string& path) { return IsRawDevicePath(path); }

Result<uint64_t> BlockDeviceBytes(const std::string& path) {
  return RawDeviceBytes(Win32RawDeviceCalls(), path);
}

Status DiscardBlocks(int, uint64_t, uint64_t) {
  return Status::Unimplemented("discarding a block device's blocks is not supported on Windows");
}

// A volume (\\.\X:) is mounted when Windows mounted a file system on it; a
// physical drive (\\.\PhysicalDriveN) when a drive letter's volume lies on it.
Result<bool> BlockDeviceMounted(const std::string& path, std::string* where) {
  const std::string name = path.substr(4);
  if (name.size() == 2 && name[1] == ':' && std::isalpha(static_cast<unsigned char>(name[0]))) {
    *where = MountedVolume(name[0]);
    return !where->empty();
  }
  constexpr char kDrive[] = "PhysicalDrive";
  const std::string number = name.rfind(kDrive, 0) == 0 ? name.substr(sizeof(kDrive) - 1) : "";
  if (number.empty() || number.size() > 9 ||
      number.find_first_not_of("0123456789") != std::string::npos) {
    return Status::InvalidArgument(path +
                                   ": loadcell knows raw devices as \\\\.\\PhysicalDriveN "
                                   "and \\\\.\\X: only");
  }
  const DWORD disk = static_cast<DWORD>(std::stoul(number));
  const DWORD drives = GetLogicalDrives();
  for (int i = 0; i < 26; ++i) {
    const char letter = static_cast<char>('A' + i);
    if ((drives & (1u << i)) == 0 || !VolumeOnDisk(letter, disk)) continue;
    *where = MountedVolume(letter);
    if (!where->empty()) return true;
  }
  return false;
}

Result<std::string> BlockDeviceSignature(const std::string& path) {
  return RawDeviceSignature(Win32RawDeviceCalls(), path);
}

}  // namespace loadcell
