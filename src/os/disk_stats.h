#pragma once
// A block device's I/O counters as the kernel keeps them
// (Documentation/block/stat.rst: /sys/class/block/NAME/stat, the fields of
// /proc/diskstats after the name), for fio's "Disk stats" and disk_util:
// read twice, around a run, and the difference reported.
// Linux only; elsewhere there is no such device name and nothing is read.

#include <cstdint>
#include <string>

#include "core/status.h"

namespace loadcell {

struct DiskStats {
  uint64_t read_ios = 0;
  uint64_t read_merges = 0;
  uint64_t read_sectors = 0;
  uint64_t read_ticks_ms = 0;
  uint64_t write_ios = 0;
  uint64_t write_merges = 0;
  uint64_t write_sectors = 0;
  uint64_t write_ticks_ms = 0;
  uint64_t in_flight = 0;
  uint64_t io_ticks_ms = 0;       // time the device had I/O in flight
  uint64_t time_in_queue_ms = 0;  // weighted: each request's time, summed
  friend bool operator==(const DiskStats&, const DiskStats&) = default;
};

// The first eleven fields of a stat line. False when it has fewer numbers.
bool ParseDiskStats(const std::string& line, DiskStats* out);

// `later` minus `earlier`, field by field (a counter that went back, 0);
// in_flight is `later`'s.
DiskStats DiskStatsSince(const DiskStats& earlier, const DiskStats& later);

// The counters of the block device `name` ("vda", "loop0", "dm-0") in
// `class_block`. NotFound when there is no such device or stat file.
Result<DiskStats> ReadDiskStats(const std::string& name,
                                const std::string& class_block = "/sys/class/block");

// The name of the block device that holds `path` (its partition's name when
// it is on one) or, for a block device node, the device's own; a path that
// does not exist is asked of its folder. "" when no block device stands
// behind it (tmpfs) or the system does not say (Windows).
std::string DiskNameOf(const std::string& path);

}  // namespace loadcell
