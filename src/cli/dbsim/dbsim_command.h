#pragma once
// `loadcell dbsim -cfg FILE [-dir DIR] [-d SECONDS] [-size MB] ...`: a
// database engine's I/O simulated on files loadcell makes, every page read
// back checked (docs/dbsim.md). SQLIOSim's configuration file and command
// line, run as jobs of the jobs core (runner/jobs.h), one per simulated
// user; a text report per user and per file, the failures by kind, the
// verdict. Exit 0: every page was as written; 1: a page failed its check or
// the run failed; 2: bad input, nothing written.

#include <ostream>
#include <string>
#include <vector>

namespace loadcell {

int RunDbsimCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string DbsimUsage();

}  // namespace loadcell
