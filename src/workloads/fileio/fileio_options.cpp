#include "workloads/fileio/fileio_options.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/random.h"
#include "io/io_engine.h"

namespace loadcell {
namespace {

constexpr uint64_t kMinValidateBlock = 64;  // the stamp takes 32 bytes of each block
constexpr int64_t kMaxQueueDepth = 65536;
constexpr uint64_t kMaxBlockSize = uint64_t{1} << 30;    // 1G
constexpr uint64_t kMaxRequestSize = uint64_t{1} << 31;  // 2G, a merged request

struct ModeInfo {
  FileTestMode mode;
  const char* name;
  const char* description;
};

constexpr ModeInfo kModes[] = {
    {FileTestMode::kSeqWrite, "seqwr", "sequential write (creation)"},
    {FileTestMode::kSeqRewrite, "seqrewr", "sequential rewrite"},
    {FileTestMode::kSeqRead, "seqrd", "sequential read"},
    {FileTestMode::kRndRead, "rndrd", "random read"},
    {FileTestMode::kRndWrite, "rndwr", "random write"},
    {FileTestMode::kRndRw, "rndrw", "random r/w"},
};

std::string ModeChoices() {
  std::string out;
  for (const ModeInfo& m : kModes) out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

}  // namespace

const char* FileTestModeName(FileTestMode m) {
  for (const ModeInfo& i : kModes) {
    if (i.mode == m) return i.name;
  }
  return "?";
}

const char* FileTestModeDescription(FileTestMode m) {
  for (const ModeInfo& i : kModes) {
    if (i.mode == m) return i.description;
  }
  return "?";
}

const char* WritePatternName(WritePattern p) {
  switch (p) {
    case WritePattern::kRandom:
      return "random";
    case WritePattern::kZero:
      return "zero";
    case WritePattern::kSequence:
      return "sequence";
  }
  return "?";
}

std::string HumanBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"TiB", "GiB", "MiB", "KiB"};
  static constexpr int kShifts[] = {40, 30, 20, 10};
  for (int i = 0; i < 4; ++i) {
    const uint64_t unit = 1ULL << kShifts[i];
    if (bytes < unit) continue;
    if (bytes % unit == 0) return fmt::format("{}{}", bytes / unit, kUnits[i]);
    return fmt::format("{:.2f}{}", static_cast<double>(bytes) / static_cast<double>(unit),
                       kUnits[i]);
  }
  return fmt::format("{} bytes", bytes);
}

std::string FileIoSettings::OpenFlagsText() const {
  std::string out = "O_RDWR";
  for (const std::string& f : extra_flags) {
    if (f == "sync") out += "|O_SYNC";
    if (f == "dsync") out += "|O_DSYNC";
    if (f == "direct") out += "|O_DIRECT";
  }
  return out;
}

std::string FileIoSettings::ExtraFlagsText() const {
  // sysbench's order whatever the order given, each flag followed by a space.
  static constexpr const char* kOrder[] = {"sync", "dsync", "direct"};
  const auto given = [&](const std::string& f) {
    return std::find(extra_flags.begin(), extra_flags.end(), f) != extra_flags.end();
  };
  std::string out;
  for (const char* f : kOrder) {
    if (given(f)) out += std::string(f) + " ";
  }
  return out.empty() ? "(none)" : out;
}

uint64_t FileIoSettings::slot_buffer_bytes() const {
  const uint64_t largest = IsSequential(mode) ? request_size : block_size;
  return largest * ((ModeReads(mode) ? 1 : 0) + (ModeWrites(mode) ? 1 : 0));
}

void FileIoOptions::Register(OptionSet& opts) {
  opts.Int("file-num", &num_files_, 128, "number of files to create").Min(1);
  opts.Size("file-block-size", &block_size_, 16384, "block size to use in all I/O operations")
      .Min(1)
      .Max(static_cast<double>(kMaxBlockSize));
  opts.Size("file-total-size", &total_size_, 2ULL << 30, "total size of files to create");
  opts.String("file-test-mode", &test_mode_, "",
              "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw} (required for run)");
  opts.Enum("file-io-mode", &io_mode_, "sync",
            {"sync", "io_uring", "libaio", "iocp", "async", "mmap", "null"},
            "I/O engine: sync (pread/pwrite), io_uring, libaio (sysbench's async on Linux), iocp "
            "(Windows; async there), mmap, null (every request completes at once, no file "
            "touched: the tool's own cost)");
  opts.Int("file-queue-depth", &queue_depth_, 128,
           "asynchronous I/Os kept in flight per thread (io_uring, libaio, iocp, null)")
      .Alias("file-async-backlog")
      .Min(1)
      .Max(kMaxQueueDepth);
  queue_depth_spec_ = opts.Find("file-queue-depth");
  opts.Int("file-submit-batch", &submit_batch_, 1,
           "asynchronous I/Os handed to the kernel per submission call, and completions taken "
           "per reap (1: each replaced as soon as it completes, like fio; more: fewer system "
           "calls, burstier queue)")
      .Min(1)
      .Max(kMaxQueueDepth);
  opts.List("file-extra-flags", &extra_flags_, "",
            "additional flags to open files with {sync, dsync, direct}")
      .Choices({"sync", "dsync", "direct"});
  opts.Int("file-fsync-freq", &fsync_freq_, 100,
           "do fsync() after this number of requests (0: no periodic fsync)")
      .Min(0);
  opts.Bool("file-fsync-all", &fsync_all_, false, "do fsync() after each write operation");
  opts.Bool("file-fsync-end", &fsync_end_, true, "do fsync() at the end of the test");
  opts.Enum("file-fsync-mode", &fsync_mode_, "fsync", {"fsync", "fdatasync"},
            "which method to use for synchronization");
  opts.Int("file-merged-requests", &merged_requests_, 0,
           "merge at most this number of I/O requests for sequential I/O (0: don't merge)")
      .Min(0);
  opts.Double("file-rw-ratio", &rw_ratio_, 1.5, "reads/writes ratio for the combined test").Min(0);
  opts.String("file-dir", &dir_, ".",
              "directory holding the test files (an existing folder, not a symbolic link)");
  opts.Enum("file-write-pattern", &write_pattern_, "random", {"random", "zero", "sequence"},
            "data written: random bytes, zeros, or each 8-byte word holding its file offset");
  opts.Bool("validate", &validate_, false,
            "stamp every written block (offset, sequence, checksum) and check every read");
  opts.Bool("validate-full", &validate_full_, false,
            "--validate, and every byte of every block read: a block with a light stamp (written "
            "without --validate) fails, and a read buffer sector left unfilled is named");
  opts.Enum("file-use-existing", &use_existing_, "off", {"off", "on", "write"},
            "use test files that loadcell did not create (e.g. made by sysbench fileio "
            "prepare) as they are: on lets read modes use them, write lets write modes "
            "(not seqwr) overwrite their blocks too; they are never removed");
  opts.Enum("file-rand-type", &rand_type_, "uniform", DistributionNames(),
            "distribution of random block numbers (sysbench fileio: uniform)");
  opts.Bool("file-io-fallback", &fallback_, false,
            "if the engine cannot run here, use another one instead of failing");
}

bool FileIoOptions::queue_depth_set() const { return queue_depth_set_; }

// --file-test-mode: empty is allowed here (prepare and cleanup do not need
// it); Init() insists on it for run.
Status FileIoOptions::ResolveMode(FileIoSettings& s) const {
  s.mode_given = !test_mode_.empty();
  if (s.mode_given) {
    bool found = false;
    for (const ModeInfo& m : kModes) {
      if (test_mode_ == m.name) {
        s.mode = m.mode;
        found = true;
      }
    }
    if (!found) {
      return Status::InvalidArgument(fmt::format("--file-test-mode={}: unknown mode; use one of {}",
                                                 test_mode_, ModeChoices()));
    }
  }
  return Status::Ok();
}

// --file-num, --file-block-size, --file-total-size, --file-merged-requests and
// the block and request counts they give.
Status FileIoOptions::ResolveSizes(FileIoSettings& s) const {
  s.num_files = static_cast<uint64_t>(num_files_);
  s.block_size = block_size_;
  s.total_size = total_size_;
  if (total_size_ < block_size_) {
    return Status::InvalidArgument(
        fmt::format("--file-total-size={}: smaller than one block (--file-block-size={})",
                    FormatSize(total_size_), FormatSize(block_size_)));
  }
  s.file_size = total_size_ / s.num_files;
  if (s.file_size < s.block_size) {
    return Status::InvalidArgument(fmt::format(
        "--file-total-size={} over --file-num={} files gives files of {} bytes, smaller than "
        "one block (--file-block-size={}); use fewer files or a larger total size",
        FormatSize(total_size_), s.num_files, s.file_size, FormatSize(s.block_size)));
  }
  s.merged_requests = static_cast<uint64_t>(merged_requests_);
  // Checked before multiplying, which could wrap.
  const uint64_t max_merged = kMaxRequestSize / s.block_size;
  if (s.merged_requests > max_merged) {
    return Status::InvalidArgument(fmt::format(
        "--file-merged-requests={}: must be at most {} with --file-block-size={} (a merged "
        "request is at most 2G)",
        s.merged_requests, max_merged, FormatSize(s.block_size)));
  }
  s.request_size = s.block_size * (s.merged_requests > 0 ? s.merged_requests : 1);
  s.blocks_per_file = (s.file_size + s.block_size - 1) / s.block_size;
  s.total_blocks = s.blocks_per_file * s.num_files;
  s.seq_requests_per_file = (s.file_size + s.request_size - 1) / s.request_size;
  return Status::Ok();
}

// --file-fsync-* and --file-rw-ratio.
Status FileIoOptions::ResolveSync(FileIoSettings& s) const {
  s.fsync_all = fsync_all_;
  s.fsync_freq = fsync_all_ ? 0 : static_cast<uint64_t>(fsync_freq_);
  s.fsync_end = fsync_all_ ? false : fsync_end_;
  s.fdatasync = fsync_mode_ == "fdatasync";
  s.rw_ratio = rw_ratio_;
  return Status::Ok();
}

// --file-extra-flags and the O_DIRECT alignment of blocks and files.
Status FileIoOptions::ResolveOpenFlags(FileIoSettings& s) const {
  s.extra_flags = extra_flags_;
  for (const std::string& f : extra_flags_) {
    if (f == "sync") {
      s.open_flags |= O_SYNC;
    } else if (f == "dsync") {
      s.open_flags |= O_DSYNC;
    } else if (f == "direct") {
      s.open_flags |= O_DIRECT;
      s.direct = true;
    } else {
      return Status::InvalidArgument(fmt::format(
          "--file-extra-flags: '{}' is not a valid flag; use sync, dsync or direct", f));
    }
  }
  return Status::Ok();
}

// With --file-extra-flags=direct: the block size and the file size are whole
// sectors of the folder's volume (every offset is a multiple of the block
// size, and the buffers are page-aligned, so those two suffice).
Status FileIoOptions::ResolveDirect(FileSystem& fs, const FileIoSettings& s) const {
  if (!s.direct) return Status::Ok();
  constexpr const char* kHow = "--file-extra-flags=direct";
  LC_RETURN_IF_ERROR(
      CheckSectorMultiple(fs, s.dir, s.block_size,
                          fmt::format("--file-block-size={}", FormatSize(s.block_size)), kHow));
  return CheckSectorMultiple(fs, s.dir, s.file_size,
                             fmt::format("the file size ({} bytes: --file-total-size={} / "
                                         "--file-num={})",
                                         s.file_size, FormatSize(s.total_size), s.num_files),
                             kHow);
}

// --file-queue-depth, --file-submit-batch, --file-io-mode and the fallback.
Status FileIoOptions::ResolveEngine(FileIoSettings& s) const {
  s.queue_depth_asked = static_cast<uint32_t>(queue_depth_);
  s.submit_batch = static_cast<uint32_t>(submit_batch_);
  s.engine_asked = io_mode_;
  s.allow_fallback = fallback_;
  s.engine = io_mode_ == "async" ? AsyncIoEngineName() : io_mode_;
  LC_RETURN_IF_ERROR(CheckIoEngine(s.engine, "--file-io-mode=" + io_mode_));
  if (s.null_engine() && (validate_ || validate_full_)) {
    return Status::InvalidArgument(
        fmt::format("{} checks what the files hold; --file-io-mode=null reads and writes nothing",
                    validate_full_ ? "--validate-full" : "--validate"));
  }
  if (s.engine == "libaio" && !s.direct && io_mode_ == "async") {
    // sysbench's own command line: run it as sysbench does, and say what it is.
    s.buffered_aio = true;
    s.engine_note =
        "--file-io-mode=async without direct, as sysbench runs it: the kernel completes each "
        "buffered I/O inside io_submit, so the device sees one request at a time per thread "
        "whatever the queue depth below says (io_uring, or direct, keeps several in flight)";
  } else if (s.engine == "libaio" && !s.direct) {
    if (!fallback_) {
      return Status::InvalidArgument(fmt::format(
          "--file-io-mode={} (Linux native AIO) needs --file-extra-flags=direct: without "
          "O_DIRECT the kernel completes each I/O inside io_submit; use --file-io-mode=io_uring, "
          "or --file-io-fallback=on to run io_uring instead",
          io_mode_));
    }
    s.engine = CheckIoEngine("io_uring", "").ok() ? "io_uring" : "sync";
    s.engine_note = "libaio needs O_DIRECT; --file-io-fallback=on chose " + s.engine;
  }
  s.queue_depth = s.asynchronous() ? s.queue_depth_asked : 1;
  return Status::Ok();
}

// --file-dir: exists, is a directory, can be written.
Status FileIoOptions::ResolveDir(FileSystem& fs, FileIoSettings& s) const {
  if (dir_.empty()) {
    return Status::InvalidArgument(
        "--file-dir=: empty; name the folder for the test files (--file-dir=. for this one)");
  }
  s.dir = dir_;
  while (s.dir.size() > 1 && s.dir.back() == '/') s.dir.pop_back();
  if (Result<FileInfo> info = fs.Stat(s.dir); !info.ok() || !info->exists) {
    return Status::InvalidArgument(fmt::format("--file-dir={}: no such directory", s.dir));
  } else if (!info->is_directory) {
    return Status::InvalidArgument(fmt::format("--file-dir={}: not a directory", s.dir));
  }
  if (Status w = fs.CheckWritableDir(s.dir); !w.ok()) {
    return Status::InvalidArgument(
        fmt::format("--file-dir={}: cannot be written ({})", s.dir, w.ToString()));
  }
  return Status::Ok();
}

// --file-write-pattern, --validate (and the block sizes it needs), --file-rand-type.
Status FileIoOptions::ResolveData(FileIoSettings& s) const {
  if (write_pattern_ == "zero") {
    s.pattern = WritePattern::kZero;
  } else if (write_pattern_ == "sequence") {
    s.pattern = WritePattern::kSequence;
  } else {
    s.pattern = WritePattern::kRandom;
  }
  s.validate = validate_ || validate_full_;
  s.validate_full = validate_full_;
  if (s.validate && s.block_size < kMinValidateBlock) {
    return Status::InvalidArgument(
        fmt::format("--validate needs --file-block-size of at least {} bytes (each block carries a "
                    "32-byte stamp)",
                    kMinValidateBlock));
  }
  if (s.validate && s.file_size % s.block_size != 0 &&
      s.file_size % s.block_size < kMinValidateBlock) {
    return Status::InvalidArgument(fmt::format(
        "--validate: files of {} bytes end in a partial block of {} bytes, too short for the "
        "32-byte stamp; choose sizes so that the last block has at least {} bytes",
        s.file_size, s.file_size % s.block_size, kMinValidateBlock));
  }
  const bool tail_fits =
      s.file_size % s.block_size == 0 || s.file_size % s.block_size >= kMinValidateBlock;
  s.stamp_writes = s.validate || (s.pattern == WritePattern::kRandom &&
                                  s.block_size >= kMinValidateBlock && tail_fits);
  s.use_existing = use_existing_ == "write" ? UseExisting::kWrite
                   : use_existing_ == "on"  ? UseExisting::kRead
                                            : UseExisting::kOff;
  s.rand_type = rand_type_;
  return Status::Ok();
}

Status FileIoOptions::Resolve(FileSystem& fs) {
  // Read now: the option set that owns the spec may be gone by the time
  // Warnings() asks.
  if (queue_depth_spec_ != nullptr) {
    queue_depth_set_ = !queue_depth_spec_->is_default();
    queue_depth_spec_ = nullptr;
  }
  // In this order, so that the first bad option is the one reported.
  FileIoSettings s;
  LC_RETURN_IF_ERROR(ResolveMode(s));
  LC_RETURN_IF_ERROR(ResolveSizes(s));
  LC_RETURN_IF_ERROR(ResolveSync(s));
  LC_RETURN_IF_ERROR(ResolveOpenFlags(s));
  LC_RETURN_IF_ERROR(ResolveEngine(s));
  LC_RETURN_IF_ERROR(ResolveDir(fs, s));
  LC_RETURN_IF_ERROR(ResolveDirect(fs, s));
  LC_RETURN_IF_ERROR(ResolveData(s));
  settings_ = std::move(s);
  return Status::Ok();
}

}  // namespace loadcell
