#pragma once
// Windows' raw devices as targets: a physical drive (\\.\PhysicalDriveN,
// DiskSpd's `#N`) or a volume (\\.\E:, DiskSpd's `E:`), as fio's filename=
// and DiskSpd's targets name them. The logic that opens, sizes and reads
// one is here, over the calls of RawDeviceCalls, so that tests drive it
// with a fake; the Windows build's block_device_win32.cpp uses the system's
// calls (Win32RawDeviceCalls, raw_device_win32.cpp: CreateFileW,
// DeviceIoControl(IOCTL_DISK_GET_LENGTH_INFO), ReadFile).

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/status.h"

namespace loadcell {

// The system calls a raw device needs. A handle is the call's own value.
class RawDeviceCalls {
 public:
  virtual ~RawDeviceCalls() = default;
  // Opens `device` to read (shared for reading and writing with others,
  // an existing device only, as DiskSpd opens its targets); a missing
  // device is NotFound.
  virtual Result<intptr_t> OpenForRead(const std::string& device) = 0;
  // The device's length in bytes (IOCTL_DISK_GET_LENGTH_INFO).
  virtual Result<uint64_t> Length(intptr_t handle) = 0;
  // Reads `len` bytes at `offset` (both multiples of the sector size); past
  // the device's end, fewer bytes or an error.
  virtual Result<size_t> ReadAt(intptr_t handle, void* buf, size_t len, uint64_t offset) = 0;
  virtual void Close(intptr_t handle) = 0;
};

// True when `path` names a raw device in Windows' form: `\\.\` (or `//./`)
// and a name.
bool IsRawDevicePath(const std::string& path);

// The block the end of a device is probed in: 4 KiB, a whole number of
// sectors of every disk (512-byte and 4 KiB sectors).
inline constexpr size_t kRawProbeBytes = 4096;

// The size of `device` in bytes: opened to read, asked its length, closed.
// A driver that takes no length request (Wine's, for a device a drive
// letter maps to) has its end found by reads instead: the last whole
// kRawProbeBytes block that reads in full, found by doubling and then
// halving (about 2 x log2 of the device's blocks reads; a device whose
// length is no multiple of the block is taken to its last whole block).
// Each failure is one line naming the device: "\\.\PhysicalDrive7: no such
// device on this system", "...: cannot open it: <reason>" (reading a drive
// needs administrator rights), "...: cannot ask its length: <reason>" (the
// length request's reason, when not even the first block reads).
Result<uint64_t> RawDeviceBytes(RawDeviceCalls& calls, const std::string& device);

// What the device's first kSignatureBytes hold (SignatureOf, block_device.h):
// a partition table, a file system...; "" when nothing loadcell knows. A
// device shorter than that is read whole.
Result<std::string> RawDeviceSignature(RawDeviceCalls& calls, const std::string& device);

// The Windows build's calls (raw_device_win32.cpp); not in other builds.
RawDeviceCalls& Win32RawDeviceCalls();

}  // namespace loadcell
