// The system's calls for raw devices (os/raw_device.h): CreateFileW on
// \\.\PhysicalDriveN or \\.\X:, DeviceIoControl(IOCTL_DISK_GET_LENGTH_INFO),
// ReadFile at an offset.
#include <windows.h>
#include <winioctl.h>

#include "os/raw_device.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

HANDLE HandleOf(intptr_t h) { return reinterpret_cast<HANDLE>(h); }

class Win32Calls final : public RawDeviceCalls {
 public:
  Result<intptr_t> OpenForRead(const std::string& device) override {
    const HANDLE h =
        CreateFileW(WidePath(device).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
                    nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return Win32Error("CreateFileW", GetLastError());
    return reinterpret_cast<intptr_t>(h);
  }

  Result<uint64_t> Length(intptr_t handle) override {
    GET_LENGTH_INFORMATION info{};
    DWORD got = 0;
    if (!DeviceIoControl(HandleOf(handle), IOCTL_DISK_GET_LENGTH_INFO, nullptr, 0, &info,
                         sizeof(info), &got, nullptr)) {
      return Win32Error("IOCTL_DISK_GET_LENGTH_INFO", GetLastError());
    }
    return static_cast<uint64_t>(info.Length.QuadPart);
  }

  Result<size_t> ReadAt(intptr_t handle, void* buf, size_t len, uint64_t offset) override {
    OVERLAPPED at{};
    at.Offset = static_cast<DWORD>(offset);
    at.OffsetHigh = static_cast<DWORD>(offset >> 32);
    DWORD done = 0;
    if (!ReadFile(HandleOf(handle), buf, static_cast<DWORD>(len), &done, &at)) {
      return Win32Error("ReadFile", GetLastError());
    }
    return static_cast<size_t>(done);
  }

  void Close(intptr_t handle) override { CloseHandle(HandleOf(handle)); }
};

}  // namespace

RawDeviceCalls& Win32RawDeviceCalls() {
  static Win32Calls calls;
  return calls;
}

}  // namespace loadcell
