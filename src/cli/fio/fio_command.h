#pragma once
// `loadcell fio JOBFILE... | --name=... [fio options]`: fio job files and
// fio's command-line form, read by src/fio/, planned by cli/fio/fio_plan,
// run as jobs by the jobs core (runner/jobs.h) and reported in fio's text
// and JSON (report/fio/). See docs/fio.md.

#include <ostream>
#include <string>
#include <vector>

namespace loadcell {

// The whole command: argv after "fio". Returns the exit code.
int RunFioCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string FioUsage();

}  // namespace loadcell
