#pragma once
// `loadcell dbsim --journal=FILE` and `--verify-after-crash` (docs/dbsim.md,
// "The crash journal"): where the journal may be, and the check of every
// data page against it after a crash.

#include <ostream>
#include <string>

#include "core/status.h"
#include "dbsim/dbsim_config.h"

namespace loadcell {

// The journal may not be one of the configuration's files, and an existing
// file there must be a dbsim journal (it is replaced). InvalidArgument,
// one line, otherwise.
Status CheckDbsimJournalPath(const std::string& dir, const DbsimConfig& config,
                             const std::string& journal);

// Reads every page of the configuration's data files in `dir` (they must be
// loadcell's) and judges it against `journal`; prints the judgement.
// Returns the exit code: 0 every acknowledged, flushed write is there and no
// page is broken; 1 otherwise or on an I/O error; 2 bad input.
int RunDbsimVerifyAfterCrash(const std::string& dir, const DbsimConfig& config, uint32_t page_size,
                             const std::string& journal, std::ostream& out, std::ostream& err);

}  // namespace loadcell
