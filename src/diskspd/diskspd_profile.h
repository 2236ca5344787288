#pragma once
// DiskSpd's profile: timespans run one after another, each with its own
// targets and their own settings. A command line is one timespan whose
// targets share the switches; an XML profile (-X, DiskSpd's diskspd.xsd)
// may give each target its own. Pure: the caller reads the profile's file.

#include <string>
#include <vector>

#include "core/status.h"
#include "diskspd/diskspd_switches.h"

namespace loadcell::diskspd {

// One timespan: `sw` holds the timespan's settings (duration, warm-up,
// cool-down, -F's thread count, latency, -D, the seed, affinity, the report
// format) and its target paths; `per_target[i]` is target i's own switches
// (its `targets` the one path), with the timespan's settings copied in.
struct DiskspdTimespan {
  DiskspdSwitches sw;
  std::vector<DiskspdSwitches> per_target;

  // Threads in all: -F's, else the sum of each target's threads.
  int ThreadCount() const;
};

struct DiskspdProfile {
  std::vector<DiskspdTimespan> timespans;
  std::string xml_path;  // -X's file; empty for a command line
};

// The command line's one timespan.
DiskspdProfile DiskspdProfileOf(const DiskspdSwitches& sw);

// Reads DiskSpd's XML profile `xml` (the file `file`'s bytes) against
// DiskSpd 2.2's schema: element names, nesting, counts and types, then
// DiskSpd's cross-setting rules per target. `cmd` is the command line that
// gave -X: its -d -W -C -z -R -v override every timespan's, and its targets
// fill the profile's `*1`, `*2`, ... paths in order. InvalidArgument, one
// line naming the file, the element and its line, and what is valid.
Result<DiskspdProfile> ParseDiskspdProfile(const std::string& xml, const std::string& file,
                                           const DiskspdSwitches& cmd);

}  // namespace loadcell::diskspd
