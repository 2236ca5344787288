#include "os/disk_stats.h"

#include <fstream>
#include <sstream>

namespace loadcell {

bool ParseDiskStats(const std::string& line, DiskStats* out) {
  std::istringstream in(line);
  DiskStats s;
  for (uint64_t* field : {&s.read_ios, &s.read_merges, &s.read_sectors, &s.read_ticks_ms,
                          &s.write_ios, &s.write_merges, &s.write_sectors, &s.write_ticks_ms,
                          &s.in_flight, &s.io_ticks_ms, &s.time_in_queue_ms}) {
    if (!(in >> *field)) return false;
  }
  *out = s;
  return true;
}

DiskStats DiskStatsSince(const DiskStats& earlier, const DiskStats& later) {
  const auto d = [](uint64_t a, uint64_t b) { return b > a ? b - a : 0; };
  DiskStats s;
  s.read_ios = d(earlier.read_ios, later.read_ios);
  s.read_merges = d(earlier.read_merges, later.read_merges);
  s.read_sectors = d(earlier.read_sectors, later.read_sectors);
  s.read_ticks_ms = d(earlier.read_ticks_ms, later.read_ticks_ms);
  s.write_ios = d(earlier.write_ios, later.write_ios);
  s.write_merges = d(earlier.write_merges, later.write_merges);
  s.write_sectors = d(earlier.write_sectors, later.write_sectors);
  s.write_ticks_ms = d(earlier.write_ticks_ms, later.write_ticks_ms);
  s.in_flight = later.in_flight;
  s.io_ticks_ms = d(earlier.io_ticks_ms, later.io_ticks_ms);
  s.time_in_queue_ms = d(earlier.time_in_queue_ms, later.time_in_queue_ms);
  return s;
}

Result<DiskStats> ReadDiskStats(const std::string& name, const std::string& class_block) {
  const std::string path = class_block + "/" + name + "/stat";
  std::ifstream in(path);
  std::string line;
  DiskStats s;
  if (name.empty() || !std::getline(in, line) || !ParseDiskStats(line, &s)) {
    return Status::NotFound("no block device counters at " + path);
  }
  return s;
}

}  // namespace loadcell
