#pragma once
// Raw block devices as fio's filename= names them (/dev/sdX, a loop device;
// on Windows \\.\PhysicalDriveN): whether a path is one, and its size.
// POSIX: stat's S_ISBLK and ioctl(BLKGETSIZE64), discards (Linux's
// BLKDISCARD); Windows: not yet
// (Unimplemented, named as such).

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/status.h"

namespace loadcell {

// True when `path` names a block device (following links).
bool IsBlockDevice(const std::string& path);
// The device's size in bytes; an error naming the path when it cannot be
// opened or asked.
Result<uint64_t> BlockDeviceBytes(const std::string& path);

// Whether the device at `path`, one of its partitions or a device stacked
// on it (its holders: device-mapper, md) is mounted, from
// /proc/self/mountinfo; `where` then names what is mounted and where
// ("/dev/loop3p1 on /mnt"). Windows: Unimplemented.
Result<bool> BlockDeviceMounted(const std::string& path, std::string* where);

// Discards [offset, offset + length) of the block device open as `fd`
// (fio's trim of a device): Linux's ioctl(BLKDISCARD); elsewhere
// Unimplemented.
Status DiscardBlocks(int fd, uint64_t offset, uint64_t length);

// What the device's first 68 KiB say it holds, as SignatureOf reads them;
// "" when nothing loadcell knows. Windows: Unimplemented.
Result<std::string> BlockDeviceSignature(const std::string& path);

// The first signature found in `data` (the device's first `n` bytes): a
// partition table (GPT, DOS/MBR or a boot sector), a file system (ext2/3/4,
// XFS, btrfs, NTFS, ISO 9660), swap, an LVM2 physical volume or LUKS; ""
// when none.
std::string SignatureOf(const unsigned char* data, size_t n);
inline constexpr size_t kSignatureBytes = size_t{68} * 1024;

}  // namespace loadcell
