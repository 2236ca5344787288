#include "cli/dbsim/dbsim_preset.h"

#include <array>
#include <string_view>

namespace loadcell {

namespace {

// One engine's values (docs/dbsim.md, "Presets", says where each comes from).
struct PresetRow {
  std::string_view name;
  uint32_t page_size;
  bool no_buffering;
  bool write_through;
  int64_t read_ahead_min;  // pages
  int64_t read_ahead_max;
  int64_t read_ahead_align;  // pages: each run starts at a multiple (an extent)
  int64_t log_min;           // bytes of one log record
  int64_t log_max;
  uint32_t log_block;  // a log write is padded to whole blocks
  bool checkpoint_spread;
  bool doublewrite;
  uint64_t log_mb;    // the log file when no [FileN] is given
  bool log_buffered;  // the log opened buffered whatever no_buffering says
};

constexpr std::array<PresetRow, 3> kPresets = {{
    // SQL Server: 8 KiB pages in 64 KiB extents; read-ahead of an extent up
    // to 512 KiB (Standard edition's largest); log blocks of 512 bytes to
    // 60 KiB; unbuffered and write-through.
    {"sqlserver", 8192, true, true, 8, 64, 8, 512, 61440, 512, false, false, 50, false},
    // PostgreSQL: 8 KiB pages; WAL in 8 KiB blocks, 16 MiB segments;
    // buffered with fdatasync; reads combined up to 128 KiB
    // (io_combine_limit); checkpoint_completion_target spreads the writes.
    {"postgresql", 8192, false, false, 4, 16, 1, 64, 8192, 8192, true, false, 16, false},
    // InnoDB: 16 KiB pages in 1 MiB extents; linear read-ahead of an
    // extent; a 100 MiB redo log in 512-byte blocks; O_DIRECT for the data
    // files (the redo log buffered), flushed; the doublewrite buffer.
    {"innodb", 16384, true, false, 64, 64, 64, 64, 16384, 512, false, true, 100, true},
}};

DbsimPresetBase FromRow(const PresetRow& row) {
  DbsimPresetBase p;
  p.page_size = row.page_size;
  DbsimConfig& c = p.config;
  c.no_buffering = row.no_buffering;
  c.write_through = row.write_through;
  c.buffers_ra_min = row.read_ahead_min;
  c.buffers_ra_max = row.read_ahead_max;
  c.read_ahead_align_pages = row.read_ahead_align;
  c.min_log_per_buffer = row.log_min;
  c.max_log_per_buffer = row.log_max;
  c.log_block_bytes = row.log_block;
  c.checkpoint_spread = row.checkpoint_spread;
  c.doublewrite = row.doublewrite;
  c.default_log_mb = row.log_mb;
  c.log_buffered = row.log_buffered;
  return p;
}

}  // namespace

Result<DbsimPresetBase> DbsimPreset(const std::string& name) {
  for (const PresetRow& row : kPresets) {
    if (row.name == name) return FromRow(row);
  }
  return Status::InvalidArgument("dbsim: unknown preset '" + name +
                                 "': the presets are sqlserver, postgresql and innodb");
}

}  // namespace loadcell
