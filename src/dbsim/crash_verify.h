#pragma once
// --verify-after-crash (docs/dbsim.md, "The crash journal"): every page of
// a data file read back and judged against the journal: a page must hold a
// version from its last durable key to its last intended one. An older
// version than the durable key is an acknowledged, flushed write lost; an
// older one than intended but not than durable is an unflushed write lost
// (allowed); a torn page is allowed only where a write was in flight or
// unflushed.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "dbsim/crash_journal.h"
#include "dbsim/page_check.h"
#include "os/file_system.h"

namespace loadcell {

struct DbCrashVerdict {
  uint64_t pages = 0;
  uint64_t intact = 0;          // the newest intended version
  uint64_t unflushed_lost = 0;  // allowed: older than intended, not than durable
  uint64_t torn_unflushed = 0;  // allowed: torn where a write was not yet durable
  std::array<uint64_t, kDbPageFaultKinds> errors{};  // by kind: not allowed
  std::vector<std::string> lines;                    // the first errors, described

  uint64_t TotalErrors() const;
};

struct DbCrashFile {
  int fd = -1;  // open for reading
  uint32_t file_id = 0;
  uint32_t page_size = 0;
  uint64_t pages = 0;
};

// Reads every page of `file` through `fs` and adds its judgement to `out`.
Status VerifyDbFileAfterCrash(FileSystem& fs, const DbCrashFile& file,
                              const DbJournalState& journal, DbCrashVerdict& out);

}  // namespace loadcell
