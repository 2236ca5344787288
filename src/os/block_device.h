#pragma once
// Raw block devices as fio's filename= names them (/dev/sdX, a loop device;
// on Windows \\.\PhysicalDriveN): whether a path is one, and its size.
// POSIX: stat's S_ISBLK and ioctl(BLKGETSIZE64); Windows: not yet
// (Unimplemented, named as such).

#include <cstdint>
#include <string>

#include "core/status.h"

namespace loadcell {

// True when `path` names a block device (following links).
bool IsBlockDevice(const std::string& path);
// The device's size in bytes; an error naming the path when it cannot be
// opened or asked.
Result<uint64_t> BlockDeviceBytes(const std::string& path);

}  // namespace loadcell
