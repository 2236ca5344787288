#pragma once
// The crash journal of `loadcell dbsim --journal=FILE` (docs/dbsim.md,
// "The crash journal"): before a burst of page writes is issued, one
// "intent" line per page with the key it will carry, made durable
// (fdatasync) before the first write; once the writes are durable (a flush
// returned, or they were write-through), one "durable" line per page. After
// a crash, --verify-after-crash reads it back: a page must hold a key from
// its last durable one to its last intended one. Text lines:
//   loadcell dbsim journal 1
//   I <file id> <page> <key>
//   D <file id> <page> <key>
// A line cut short by the crash (the last one) is ignored.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

inline constexpr std::string_view kDbJournalFirstLine = "loadcell dbsim journal 1";

struct DbJournalPage {
  uint32_t file_id = 0;
  uint64_t page = 0;
  uint64_t key = 0;
};

// What the journal says of one page: the newest key a write intended and
// the newest a flush made durable (0 and 0: as created).
struct DbJournalKeys {
  uint64_t intended = 0;
  uint64_t durable = 0;
};
using DbJournalState = std::map<std::pair<uint32_t, uint64_t>, DbJournalKeys>;

// Reads a journal's text. InvalidArgument (naming `path` and the line) for
// a text that is not a dbsim journal or a malformed line before the last.
Result<DbJournalState> ParseDbJournal(std::string_view text, const std::string& path);

// Appends to a journal file. Used by one thread at a time.
class DbCrashJournal final {
 public:
  // Creates (or replaces) the journal at `path` with its first line, durable.
  static Result<DbCrashJournal> Create(FileSystem& fs, const std::string& path);
  DbCrashJournal(DbCrashJournal&& other) noexcept;
  DbCrashJournal& operator=(DbCrashJournal&&) = delete;
  DbCrashJournal(const DbCrashJournal&) = delete;
  DbCrashJournal& operator=(const DbCrashJournal&) = delete;
  ~DbCrashJournal();

  // The intent lines of `pages`, durable when this returns.
  Status Intend(std::span<const DbJournalPage> pages);
  // The durable lines of `pages` (not flushed: a lost one under-claims;
  // the next Intend or Finish flushes them).
  Status Durable(std::span<const DbJournalPage> pages);
  // The run ended (or stopped cleanly): the durable lines written since the
  // last flush made durable, so that every intent of a clean run has its
  // durable line on stable storage.
  Status Finish();

 private:
  DbCrashJournal(FileSystem& fs, int fd, std::string path)
      : fs_(&fs), fd_(fd), path_(std::move(path)) {}
  Status Append(char kind, std::span<const DbJournalPage> pages);

  FileSystem* fs_;
  int fd_ = -1;
  std::string path_;
  uint64_t offset_ = 0;
  bool unflushed_ = false;  // durable lines written since the last flush
};

}  // namespace loadcell
