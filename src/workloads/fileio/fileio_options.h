#pragma once
// fileio: the options of the test, its modes and the settings they resolve
// to (immutable once a run starts).

#include <cstdint>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/status.h"
#include "os/file_system.h"
#include "runner/run_facts.h"
#include "runner/run_result.h"

namespace loadcell {

// sysbench 1.0's --file-test-mode values.
enum class FileTestMode { kSeqWrite, kSeqRewrite, kSeqRead, kRndRead, kRndWrite, kRndRw };

enum class WritePattern { kRandom, kZero, kSequence };

// --file-use-existing: test files that loadcell did not create (made by
// another tool, e.g. sysbench fileio prepare) may be used: not at all, by
// read modes only, or by every mode but seqwr. They are never re-created,
// truncated or removed.
enum class UseExisting { kOff, kRead, kWrite };

// "seqwr", "rndrw", ...
const char* FileTestModeName(FileTestMode m);
// sysbench's words: "sequential write (creation)", "random r/w", ...
const char* FileTestModeDescription(FileTestMode m);
// Inline: asked once per request by the worker.
inline bool IsSequential(FileTestMode m) {
  return m == FileTestMode::kSeqWrite || m == FileTestMode::kSeqRewrite ||
         m == FileTestMode::kSeqRead;
}
inline bool ModeReads(FileTestMode m) {
  return m == FileTestMode::kSeqRead || m == FileTestMode::kRndRead || m == FileTestMode::kRndRw;
}
inline bool ModeWrites(FileTestMode m) {
  return !(m == FileTestMode::kSeqRead || m == FileTestMode::kRndRead);
}
const char* WritePatternName(WritePattern p);

// "16KiB", "2GiB", "1.50MiB", "100 bytes": sizes for humans, binary units.
std::string HumanBytes(uint64_t bytes);

// Everything a fileio run needs, derived from the options by
// FileIoOptions::Resolve(). Plain data; read-only once a run starts.
struct FileIoSettings {
  FileTestMode mode = FileTestMode::kRndRead;
  bool mode_given = false;  // --file-test-mode was set (required for run)
  uint64_t num_files = 128;
  uint64_t total_size = 2ULL << 30;
  uint64_t file_size = 0;  // total_size / num_files (sysbench)
  uint64_t block_size = 16384;
  uint64_t request_size = 16384;  // sequential requests: block x merged
  uint64_t merged_requests = 0;
  uint64_t blocks_per_file = 0;        // ceil(file_size / block_size)
  uint64_t total_blocks = 0;           // num_files x blocks_per_file
  uint64_t seq_requests_per_file = 0;  // ceil(file_size / request_size)
  // Placement (sqlio's -S, -f<N>, -i, -v1.1.1; fileio keeps the defaults).
  // Sequential: one sequence per file shared by the threads, request k at
  // seq_start + k x stride, back to seq_start at the end of the file.
  // Random: blocks drawn from seq_start to the end of the file.
  // Lanes (SQLIO's stripe pattern, seq_lanes): each thread walks its own
  // columns of a grid whose rows are `stride` bytes (one block per column)
  // and start at seq_start: a run is seq_per_pass requests down one column
  // (request j at row j), the next run takes the next column of the
  // thread's lane (or, with seq_same_runs, the same one again).
  uint64_t seq_start = 0;     // bytes, a multiple of block_size
  uint64_t seq_stride = 0;    // bytes between requests of a run; 0: request_size
  uint64_t seq_per_pass = 0;  // lanes: requests per run (0: every full row)
  bool seq_lanes = false;
  bool seq_same_runs = false;
  uint64_t fsync_freq = 100;  // 0: no periodic fsync
  bool fsync_all = false;     // overrides fsync_freq and fsync_end
  bool fsync_end = true;
  bool fdatasync = false;  // --file-fsync-mode=fdatasync
  double rw_ratio = 1.5;
  std::string engine_asked = "sync";  // as the user wrote it (async = libaio; iocp on Windows)
  std::string engine = "sync";        // the engine that will run
  std::string engine_note;            // why it differs from the one asked, if it does
  bool allow_fallback = false;
  bool buffered_aio = false;  // libaio on files without O_DIRECT (sysbench's async)
  uint32_t queue_depth_asked = 128;
  uint32_t queue_depth = 1;  // per thread: 1 for synchronous engines
  // Requests handed to an asynchronous engine per submission call: 1 sends
  // each request as soon as it is planned (fio's default); more make fewer
  // system calls but a burstier stream, which some devices serve slower.
  uint32_t submit_batch = 1;
  std::vector<std::string> extra_flags;  // sync, dsync, direct
  int open_flags = 0;                    // O_SYNC | O_DSYNC | O_DIRECT as asked
  bool direct = false;
  std::string dir = ".";
  WritePattern pattern = WritePattern::kRandom;
  bool validate = false;
  // --validate-full (implies validate): each read buffer is stamped before
  // the read (a sector still holding the stamp was not read), and a block
  // with a light stamp, whose changed bytes cannot be seen, fails the check.
  bool validate_full = false;
  // Every write stamps its blocks (fileio_data.h), so that a later
  // --validate can check them: always with --validate, else unless the data
  // asked is zeros or the sequence (which a stamp would spoil), or the
  // blocks are too short for a stamp.
  bool stamp_writes = false;
  UseExisting use_existing = UseExisting::kOff;
  std::string rand_type = "uniform";
  // --mpi-files=shared: this process is rank share_rank of share_ranks on
  // one set of files, which rank 0 prepares, locks and cleans up; the
  // sequential modes keep to the rank's segment (SeqSegment). share_ranks
  // 1: the files are this process' alone.
  uint32_t share_rank = 0;
  uint32_t share_ranks = 1;

  std::string FileName(uint64_t i) const { return "test_file." + std::to_string(i); }
  std::string FilePath(uint64_t i) const { return JoinPath(dir, FileName(i)); }
  // "O_RDWR|O_DIRECT"
  std::string OpenFlagsText() const;
  // "sync dsync " (sysbench's order, each flag followed by a space, as
  // sysbench prints them) or "(none)".
  std::string ExtraFlagsText() const;
  bool asynchronous() const {
    return engine == "io_uring" || engine == "libaio" || engine == "iocp" || null_engine();
  }
  // --file-io-mode=null: no file is opened, read or written.
  bool null_engine() const { return engine == "null"; }
  // The I/O buffer of one request slot: the largest request, once for
  // reads and once for writes as the mode does either. A thread has
  // queue_depth slots.
  uint64_t slot_buffer_bytes() const;
};

// The validity checks' facts of a run of `s` by `threads` threads on the
// files `paths` (fileio_facts.cpp). `depth_set`: the user asked the depth,
// through `depth_option`.
IoTargetFacts TargetFactsOf(const FileIoSettings& s, int threads, std::vector<std::string> paths,
                            bool depth_set, const char* depth_option);

// The bytes a fileio or sqlio result read and wrote (its bytes_read and
// bytes_written counters).
uint64_t BytesReadOf(const RunResult& r);
uint64_t BytesWrittenOf(const RunResult& r);

// Rank `rank` of `ranks`'s part [first, end) of a sequence of `count`
// requests (--mpi-files=shared, sequential modes: IOR's segmented layout,
// one contiguous segment per rank, file after file):
// [rank x count / ranks, (rank + 1) x count / ranks).
struct SeqRange {
  uint64_t first = 0;
  uint64_t end = 0;
};
inline SeqRange SeqSegment(uint64_t count, uint32_t rank, uint32_t ranks) {
  const auto at = [&](uint64_t r) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(count) * r / ranks);
  };
  return {at(rank), at(rank + 1)};
}

// The option fields, bound at registration; Resolve() checks them and
// derives the settings.
class FileIoOptions final {
 public:
  void Register(OptionSet& opts);
  // Checks the options (one-line InvalidArgument naming the option) and
  // fills settings(). `fs` checks --file-dir.
  Status Resolve(FileSystem& fs);
  const FileIoSettings& settings() const { return settings_; }
  // For Init(): records an engine fallback.
  FileIoSettings& mutable_settings() { return settings_; }
  // True when the user set --file-queue-depth (or --file-async-backlog).
  bool queue_depth_set() const;

 private:
  // The steps of Resolve(), in its order: each checks its options and fills
  // its part of `s`.
  Status ResolveMode(FileIoSettings& s) const;
  Status ResolveSizes(FileIoSettings& s) const;
  Status ResolveSync(FileIoSettings& s) const;
  Status ResolveOpenFlags(FileIoSettings& s) const;
  Status ResolveEngine(FileIoSettings& s) const;
  Status ResolveDir(FileSystem& fs, FileIoSettings& s) const;
  Status ResolveDirect(FileSystem& fs, const FileIoSettings& s) const;
  Status ResolveData(FileIoSettings& s) const;

  int64_t num_files_ = 128;
  uint64_t total_size_ = 2ULL << 30;
  uint64_t block_size_ = 16384;
  std::string test_mode_;
  std::string io_mode_ = "sync";
  std::vector<std::string> extra_flags_;
  int64_t fsync_freq_ = 100;
  bool fsync_all_ = false;
  bool fsync_end_ = true;
  std::string fsync_mode_ = "fsync";
  int64_t merged_requests_ = 0;
  double rw_ratio_ = 1.5;
  int64_t queue_depth_ = 128;
  int64_t submit_batch_ = 1;
  std::string dir_ = ".";
  std::string write_pattern_ = "random";
  bool validate_ = false;
  bool validate_full_ = false;
  std::string use_existing_ = "off";
  std::string rand_type_ = "uniform";
  bool fallback_ = false;
  const OptionSpec* queue_depth_spec_ = nullptr;  // valid from Register to Resolve only
  bool queue_depth_set_ = false;
  FileIoSettings settings_;
};

}  // namespace loadcell
