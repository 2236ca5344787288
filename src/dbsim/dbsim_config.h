#pragma once
// SQLIOSim's configuration file (`-cfg FILE`), read strictly
// (docs/dbsim.md, "SQLIOSim's configuration file"): [CONFIG], the users'
// sections and [FileN], every key with SQLIOSim's unit, range and default.
// An unknown section or key, a key or section given twice, a value of the
// wrong kind or out of range, a value loadcell does not run: one line
// naming the file, the line and the key and what is valid (InvalidArgument,
// exit 2). Keys loadcell accepts but does not simulate yet are listed in
// `not_simulated` for one warning line. Pure: the text is given.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace loadcell {

struct DbsimFileConfig {
  int number = 0;  // N of [FileN]
  std::string name;
  uint64_t initial_mb = 0;
  uint64_t max_mb = 0;
  uint64_t increment_mb = 0;
  bool shrinkable = false;
  bool log_file = false;
  bool sparse = false;
  // Not a [FileN]: the doublewrite area a preset adds (DbsimConfig::doublewrite).
  bool doublewrite_area = false;
};

struct DbsimConfig {
  // [CONFIG]
  std::string error_file = "sqliosim.log.xml";
  // ErrorFile was given: the XML error log is written there (without -log).
  bool error_file_given = false;
  int64_t cpu_count = 0;  // 0: the host's
  int64_t affinity = 0;
  int64_t io_affinity = 0;
  int64_t max_memory_mb = 0;  // 0: the host's (no cap on dirty pages)
  bool stop_on_error = true;
  int64_t test_cycles = 1;
  int64_t test_cycle_duration_s = 300;
  int64_t cache_hit_ratio = 1000;  // hundredths of a percent
  bool no_buffering = true;
  bool write_through = true;
  int64_t max_outstanding_io = 0;
  int64_t target_io_duration_ms = 100;  // the throttle's target
  bool allow_io_bursts = true;
  bool use_scatter_gather = true;
  bool force_read_ahead = true;
  bool delete_files_at_startup = true;
  bool delete_files_at_shutdown = false;
  bool stamp_files = false;
  // [RandomUser]
  int64_t random_users = -1;  // -1: min(CPUCount * 2, 8)
  int64_t jump_to_new_region = 500;
  int64_t min_io_chain = 1;
  int64_t max_io_chain = 100;
  int64_t read_write_ratio = 9000;  // reads, hundredths of a percent
  int64_t min_log_per_buffer = 64;
  int64_t max_log_per_buffer = 8192;
  int64_t rollback_chance = 100;
  int64_t sleep_after_ms = 5;
  int64_t yield_percentage = 0;
  bool cpu_simulation = false;
  int64_t cpu_cycles_min = 0;
  int64_t cpu_cycles_max = 0;
  // [AuditUser]
  int64_t audit_users = 2;
  int64_t buffers_validated = 64;
  int64_t audit_delay_after_cycles = 2;
  int64_t audit_delay_ms = 200;
  // [ReadAheadUser]
  int64_t read_ahead_users = 2;
  int64_t buffers_ra_min = 32;
  int64_t buffers_ra_max = 64;
  int64_t ra_delay_after_cycles = 2;
  int64_t ra_delay_ms = 200;
  // [BulkUpdateUser]
  int64_t bulk_update_users = -1;  // -1: min(CPUCount * 2, 8)
  int64_t buffers_bu_min = 64;
  int64_t buffers_bu_max = 128;
  int64_t bu_delay_after_cycles = 2;
  int64_t bu_delay_ms = 10;
  // [ShrinkUser] (runs when a data file is Shrinkable)
  int64_t min_shrink_interval_s = 120;
  int64_t max_shrink_interval_s = 600;
  int64_t min_extends = 1;
  int64_t max_extends = 20;

  // What a preset (--preset) sets beyond SQLIOSim's keys:
  uint32_t log_block_bytes = 512;  // each log write is padded to whole blocks
  bool checkpoint_spread = false;  // the checkpoint writes small bursts, pausing between
  bool doublewrite = false;        // each run of pages written to a doublewrite area first
  // The log file is opened buffered whatever NoBuffering says (InnoDB's
  // innodb_flush_method=O_DIRECT: the data files unbuffered, the redo log
  // through the cache, flushed).
  bool log_buffered = false;
  uint64_t default_log_mb = 50;  // the log file's size when no [FileN] is given
  // --user-depth: how many of one user thread's I/Os are in flight at once
  // (the random users' reads, read-ahead, checkpoint, lazy and bulk writes);
  // MaxOutstandingIO still bounds every user's together (the throttle).
  int64_t user_depth = 1;
  // --verify=off: pages written as their buffers hold them and read without
  // a check, no key table (docs/dbsim.md, "Speed"); on by default.
  bool verify = true;
  // --engine=null: every I/O completes at once and reaches no file
  // (dbsim/null_file_system.h); the verification work is still done.
  bool null_engine = false;
  // --page-size (set before the file is read): a [FileN] too small for the
  // users' runs of these pages is refused (DbsimFileMinimumMb).
  uint32_t page_size = 8192;

  std::vector<DbsimFileConfig> files;  // by N
  // "Key (line N)" of the keys given that loadcell does not simulate yet.
  std::vector<std::string> not_simulated;
};

// The least InitialSize (MB) `file` may have under `config`, and what
// needs it: a data file holds one extent (8 pages) and the longest run of
// pages a user reads or writes at once (the read-ahead's BuffersRAMax, at
// most 64; the bulk update's BuffersBUMax); the log one group commit of
// every random user's largest record (MaxLogPerBuffer padded to the log's
// blocks; UserCount=-1 counted as its most, 8).
struct DbsimFileMinimum {
  uint64_t mb = 1;
  std::string why;  // "BulkUpdateUser BuffersBUMax=128 pages of 65536 bytes"
};
DbsimFileMinimum DbsimFileMinimumMb(const DbsimConfig& config, const DbsimFileConfig& file);
// "[File1] InitialSize=1 is too small: ... (8 MB); give at least 8", or ""
// when `file` is large enough.
std::string DbsimFileTooSmall(const DbsimConfig& config, const DbsimFileConfig& file);

// One key of a configuration as its file holds it: the section ("CONFIG",
// "RandomUser", "File1"), the key as SQLIOSim spells it, the value as text
// ("TRUE", "9000", "sqliosim.mdx").
struct DbsimConfigEntry {
  std::string section;
  std::string key;
  std::string value;
};

// Every key of `config` in the file's order: [CONFIG], the users' sections,
// then each [FileN] (not the doublewrite area a preset adds). A key whose
// value is out of its range is not set and left out (CPUCount and
// MaxMemoryMB 0: the host's; a MaxSize of 0: InitialSize), so that
// ParseDbsimConfig reads FormatDbsimConfig's text back as `config`.
std::vector<DbsimConfigEntry> DbsimConfigEntries(const DbsimConfig& config);

// The configuration file of `config` (what -save writes): each line of
// `comments` after "; ", then every section with its keys.
std::string FormatDbsimConfig(const DbsimConfig& config, const std::vector<std::string>& comments);

// Reads `text`, the contents of the configuration file `path` (named in
// messages), over `base` (SQLIOSim's defaults, or a preset's): each key
// given replaces the base's value.
Result<DbsimConfig> ParseDbsimConfig(std::string_view text, const std::string& path,
                                     DbsimConfig base = {});

}  // namespace loadcell
