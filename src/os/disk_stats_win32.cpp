#include "os/disk_stats.h"

namespace loadcell {

// Windows keeps no per-device counters under a name loadcell could read
// here: fio's disk_util stays empty, as fio's on Windows.
std::string DiskNameOf(const std::string&) { return ""; }

}  // namespace loadcell
