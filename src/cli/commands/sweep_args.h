#pragma once
// sweep's own command line: the lists to sweep before "--", its options
// (--repeat, --output-dir, --format and the run extras), the test after it.

#include <string>
#include <vector>

#include "cli/commands/report_command.h"
#include "core/status.h"

namespace loadcell {

// What `loadcell sweep --A=1,2 --B=x,y [--repeat=N ...] -- TEST ... run`
// asked for.
struct SweepArgs {
  std::vector<std::string> options;             // swept names (normalised)
  std::vector<std::vector<std::string>> lists;  // their values
  int repeat = 1;
  std::string output_dir;
  std::string format = "text";
  RunExtras extras;
  std::vector<std::string> test_args;
  std::vector<std::string> warnings;  // typographic dashes read as "--"
};

// Parses sweep's arguments (argv after "sweep"); InvalidArgument (exit 2)
// in one line for anything it cannot use.
Result<SweepArgs> ParseSweepArgs(const std::vector<std::string>& given);

}  // namespace loadcell
