#pragma once
// `loadcell diskspd [switches] target...`: DiskSpd 2.2's command line, read
// by src/diskspd/, planned by cli/diskspd/diskspd_plan, run as jobs by the
// jobs core (runner/jobs.h) and reported in DiskSpd's text or XML
// (report/diskspd/). See docs/diskspd.md.

#include <ostream>
#include <string>
#include <vector>

namespace loadcell {

// The whole command: argv after "diskspd". Returns the exit code.
int RunDiskspdCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string DiskspdUsage();

}  // namespace loadcell
