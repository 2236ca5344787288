#pragma once
// FioJobSpec: one fio job as the jobs core runs it. This header is the
// contract between the fio front end (fio/job_file.h reads the text,
// fio/fio_options.h validates it and fills these structs) and the code that
// runs the jobs. It is plain data: no behaviour, no parsing, nothing that
// needs the front end to be linked.
//
// Units: fio's units are converted once, here: every size and offset is in
// bytes, every time in nanoseconds, every percentage a fraction in [0, 1]
// (fio's rwmixread=70 is 0.7). Defaults are fio 3.33's. Where fio takes one
// value per direction (read, write, trim) the field is a FioPerDirection,
// indexed by FioDirection.
//
// An option a job file did not give keeps the default written beside its
// field; `given` lists the options it did give, with where, so that an
// error found later (a file that is missing at run time, an engine that
// cannot do direct I/O) can name the file and line that asked for it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace loadcell::fio {

// Where a section or an option came from: a job file and its line (1-based),
// or the command line and the argument's index (1-based, the program name
// not counted).
struct FioOrigin {
  // The job file's path as given (an include: the included file's path,
  // joined to its includer's folder with '/'); "command line" for the
  // command line.
  std::string file;
  int line = 0;
  bool command_line = false;
  friend bool operator==(const FioOrigin&, const FioOrigin&) = default;
};

// The data directions fio counts apart, in fio's order.
enum class FioDirection : size_t { kRead = 0, kWrite = 1, kTrim = 2 };
inline constexpr size_t kFioDirections = 3;
template <typename T>
using FioPerDirection = std::array<T, kFioDirections>;

// rw= (alias readwrite=). The names are fio's: kMixed is rw/readwrite,
// kRandMixed randrw, kTrimWrite trimwrite (a trim then a write of each
// block), kRandTrimWrite randtrimwrite.
enum class FioRwMode {
  kRead,
  kWrite,
  kTrim,
  kRandRead,
  kRandWrite,
  kRandTrim,
  kMixed,
  kRandMixed,
  kTrimWrite,
  kRandTrimWrite,
};

// ioengine=. kWindowsAio is IOCP (Windows only; the jobs core refuses it
// elsewhere, as it refuses libaio and io_uring on Windows).
enum class FioEngine {
  kPsync,
  kSync,
  kPvsync,
  kPvsync2,
  kLibaio,
  kIoUring,
  kMmap,
  kNull,
  kWindowsAio
};

// fallocate=: how files are laid out. fio's 0 is kNone and 1 kPosix.
enum class FioFallocate { kNone, kNative, kPosix, kKeep, kTruncate };

// sync=: the open flag of writes. fio's 0 is kNone, 1 kSync.
enum class FioSyncMode { kNone, kSync, kDsync };

// verify=. kNone is fio's verify=0.
enum class FioVerify { kNone, kMd5, kCrc64, kCrc32c, kSha256, kXxhash, kPattern };

// random_generator=.
enum class FioRandomGenerator { kTausworthe, kLfsr, kTausworthe64 };

// rate_process=.
enum class FioRateProcess { kLinear, kPoisson };

// unified_rw_reporting=. fio's 0 is kNone, 1 kMixed, 2 kBoth.
enum class FioUnifiedReporting { kNone, kMixed, kBoth };

// A size that may be a fraction of the file or device it applies to
// (size=50%, offset=25%): the jobs core resolves it once it knows the size.
struct FioSize {
  bool is_fraction = false;
  uint64_t bytes = 0;   // when !is_fraction
  double fraction = 0;  // when is_fraction: (0, 1]
  friend bool operator==(const FioSize&, const FioSize&) = default;
};

// An inclusive range of bytes (bsrange, filesize=1m-4m).
struct FioByteRange {
  uint64_t min = 0;
  uint64_t max = 0;
  friend bool operator==(const FioByteRange&, const FioByteRange&) = default;
};

// One entry of bssplit=: blocks of `block_size` bytes for `fraction` of the
// I/Os of that direction. The fractions of a direction add up to 1.
struct FioBlockSplit {
  uint64_t block_size = 0;
  double fraction = 0;
  friend bool operator==(const FioBlockSplit&, const FioBlockSplit&) = default;
};

// random_distribution=.
enum class FioDistributionKind { kRandom, kZipf, kPareto, kNormal, kZoned, kZonedAbs };

// One zone of random_distribution=zoned:/zoned_abs:. `access_fraction` of the
// I/Os of that direction go to the zone; a zone is `size_fraction` of the
// region (zoned) or `size_bytes` long (zoned_abs). Zones are in the order
// given, each starting where the previous ended; the access fractions of a
// direction add up to 1, the size fractions (zoned) to at most 1.
struct FioZone {
  double access_fraction = 0;
  double size_fraction = 0;  // zoned
  uint64_t size_bytes = 0;   // zoned_abs
  friend bool operator==(const FioZone&, const FioZone&) = default;
};

struct FioRandomDistribution {
  FioDistributionKind kind = FioDistributionKind::kRandom;
  // zipf: theta (default 1.1, fio's; never 1); pareto: h in (0, 1) (default 0.2);
  // normal: the standard deviation as a fraction of the region, [0, 1)
  // (fio's normal:5 is 0.05; default 0). Unused otherwise.
  double parameter = 0;
  // zipf, pareto, normal: where the distribution is centred, a fraction of
  // the region in [0, 1]; negative when not given (fio: the start for zipf
  // and pareto, the middle for normal).
  double center = -1;
  // zoned, zoned_abs: the zones per direction (a direction fio was given no
  // zones for is empty).
  FioPerDirection<std::vector<FioZone>> zones;
  friend bool operator==(const FioRandomDistribution&, const FioRandomDistribution&) = default;
};

// An inclusive range of nanoseconds (startdelay=1-5: a random delay in it).
struct FioTimeRange {
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  friend bool operator==(const FioTimeRange&, const FioTimeRange&) = default;
};

// One option the job was given, and where.
struct FioGivenOption {
  std::string name;  // the table's name (an alias is recorded by its option's name)
  FioOrigin origin;
  friend bool operator==(const FioGivenOption&, const FioGivenOption&) = default;
};

struct FioJobSpec {
  // ---- Identity
  std::string name;                   // the section name, or name= (which overrides it)
  std::string description;            // description=, "" when not given
  FioOrigin origin;                   // the job's section header (or its --name)
  std::vector<FioGivenOption> given;  // the options in force for it, global ones included

  // ---- Job control
  int numjobs = 1;  // numjobs=: clones (fio/fio_options.h ScheduleJobs)
  // stonewall / wait_for_previous: start after every earlier job ended;
  // also set on the first job of a second or later job file (fio's rule).
  bool stonewall = false;
  bool new_group = false;        // new_group: start a new reporting group
  bool group_reporting = false;  // group_reporting: report the group as one job
  FioTimeRange startdelay;       // startdelay=: seconds by default; 0
  int loops = 1;                 // loops=: run the whole job this many times
  int64_t ramp_time_ns = 0;      // ramp_time=: run, not measured, before the measured part
  int64_t runtime_ns = 0;        // runtime= (alias timeout): 0 = until size/io_size is done
  bool time_based = false;       // time_based: run for runtime_ns, repeating the work
  bool size_given = false;       // whether size= was given
  FioSize size;                  // size=: total bytes of the job's files (or a fraction of them)
  bool io_size_given = false;
  FioSize io_size;          // io_size= (alias io_limit): bytes to transfer; default size
  uint64_t number_ios = 0;  // number_ios=: stop after this many I/Os; 0 = no limit

  // ---- Pattern
  FioRwMode rw = FioRwMode::kRead;  // rw= (alias readwrite)
  // rw=MODE:N. Sequential modes: bytes added to the offset after each I/O
  // (rw=read:-8k is -8192: a hole or a step back); 0 by default.
  int64_t rw_sequential_skip = 0;
  // Random modes: how many I/Os are issued one after the other before a new
  // random offset (rw=randread:8 is 8); 1 by default.
  uint32_t rw_random_sequence = 1;
  double rwmixread =
      0.5;  // rwmixread= / rwmixwrite= (as 1 - rwmixwrite): the read share of mixed modes
  FioPerDirection<double> percentage_random{1.0, 1.0, 1.0};  // percentage_random=
  FioPerDirection<uint64_t> block_size{4096, 4096, 4096};    // bs= (alias blocksize)
  // bsrange= (alias blocksize_range): {bs, bs} when not given. A bssplit
  // (non-empty) takes precedence over it, it over bs.
  bool block_size_range_given = false;
  FioPerDirection<FioByteRange> block_size_range{{{4096, 4096}, {4096, 4096}, {4096, 4096}}};
  FioPerDirection<std::vector<FioBlockSplit>> block_size_split;  // bssplit=
  // blockalign= (alias ba): offsets are multiples of this; 0 = the
  // direction's minimum block size (fio's default).
  FioPerDirection<uint64_t> block_align{0, 0, 0};
  FioSize offset;            // offset= (alias fileoffset): where I/O starts in each file
  FioSize offset_increment;  // offset_increment=: clone N starts at offset + N * this
  bool norandommap = false;  // norandommap
  bool randrepeat = true;    // randrepeat=: the same sequence every run
  bool randseed_given = false;
  uint64_t randseed = 0x89;  // randseed=
  FioRandomGenerator random_generator = FioRandomGenerator::kTausworthe;
  FioRandomDistribution random_distribution;  // random_distribution=

  // ---- Files
  std::vector<std::string> filenames;    // filename=: ':'-list, fio's "\:" escapes undone
  std::vector<std::string> directories;  // directory=: ':'-list
  std::string filename_format = "$jobname.$jobnum.$filenum";  // filename_format=
  // nrfiles= (alias nr_files); with filenames given fio uses their count.
  int nrfiles = 1;
  bool filesize_given = false;
  FioByteRange
      filesize;  // filesize=: each file's size (a range: drawn per file); default size / nrfiles
  bool unlink = false;     // unlink=: remove the files when the job ends
  bool overwrite = false;  // overwrite=: lay out the files fully before writing
  FioFallocate fallocate = FioFallocate::kNative;  // fallocate=
  bool create_on_open = false;                     // create_on_open=
  bool allow_mounted_write = false;                // allow_mounted_write=
  // allow_file_create=0: a job whose file is missing, or shorter than the
  // job would lay out, is refused instead of the file made.
  bool allow_file_create = true;

  // ---- Engine
  // ioengine=: fio's default on Linux; fio's default on Windows is
  // windowsaio, which the code running the jobs may apply when `given` has no
  // ioengine (the front end does not know the platform).
  FioEngine ioengine = FioEngine::kPsync;
  int iodepth = 1;                     // iodepth=
  int iodepth_batch_submit = 1;        // iodepth_batch_submit= (alias iodepth_batch)
  int iodepth_batch_complete_min = 1;  // iodepth_batch_complete_min= (alias iodepth_batch_complete)
  int iodepth_batch_complete_max = 1;  // iodepth_batch_complete_max=: default iodepth
  // direct=; buffered=0 sets it too (fio: buffered is !direct).
  bool direct = false;
  FioSyncMode sync = FioSyncMode::kNone;  // sync=
  int fsync = 0;                          // fsync=: an fsync after every N writes; 0 never
  int fdatasync = 0;                      // fdatasync=: the same with fdatasync
  bool end_fsync = false;                 // end_fsync=: fsync the files when the job ends
  bool fsync_on_close = false;            // fsync_on_close=
  bool thread = false;  // thread: fio's threads rather than processes (loadcell: always threads)
  std::vector<int> cpus_allowed;  // cpus_allowed=: CPU numbers, ascending, no repeats; empty = any
  // cpus_allowed_policy=split: each job instance runs on one CPU of the set
  // (the instance's number over the run, modulo the set's size); shared:
  // every instance on the whole set.
  bool cpus_allowed_split = false;

  // ---- Rate and think time
  FioPerDirection<uint64_t> rate{0, 0, 0};       // rate=: bytes/s, 0 = no limit
  FioPerDirection<uint64_t> rate_min{0, 0, 0};   // rate_min= (alias ratemin): bytes/s
  FioPerDirection<uint64_t> rate_iops{0, 0, 0};  // rate_iops=: I/Os per second
  FioPerDirection<uint64_t> rate_iops_min{0, 0, 0};
  FioRateProcess rate_process = FioRateProcess::kLinear;
  int64_t thinktime_ns = 0;       // thinktime=: microseconds by default
  int64_t thinktime_spin_ns = 0;  // thinktime_spin=: the part of it spent spinning
  int thinktime_blocks = 1;       // thinktime_blocks=: I/Os between think times

  // ---- Buffers
  bool zero_buffers = false;              // zero_buffers
  bool refill_buffers = false;            // refill_buffers
  bool scramble_buffers = true;           // scramble_buffers=
  double buffer_compress_percentage = 0;  // buffer_compress_percentage=: fraction
  uint64_t buffer_compress_chunk = 512;   // buffer_compress_chunk=: bytes; 0 = the block
  std::string buffer_pattern;             // buffer_pattern=: the bytes, repeated; empty = none
  double dedupe_percentage = 0;           // dedupe_percentage=: fraction

  // ---- Verification
  FioVerify verify = FioVerify::kNone;  // verify=
  bool do_verify = true;                // do_verify=
  bool verify_only = false;             // verify_only
  bool verify_fatal = false;            // verify_fatal=
  uint64_t verify_backlog = 0;  // verify_backlog=: verify after this many blocks; 0 = at the end
  std::string verify_pattern;   // verify_pattern=: the bytes; empty = none

  // ---- Reporting
  // percentile_list=: as fractions (fio's 99.9 is 0.999), in the order given.
  // (Written as fio's percents over 100, the very division the parser
  // makes, so that a job giving fio's default list equals this one.)
  std::vector<double> percentile_list{
      1 / 100.0,  5 / 100.0,    10 / 100.0,   20 / 100.0,    30 / 100.0,   40 / 100.0,
      50 / 100.0, 60 / 100.0,   70 / 100.0,   80 / 100.0,    90 / 100.0,   95 / 100.0,
      99 / 100.0, 99.5 / 100.0, 99.9 / 100.0, 99.95 / 100.0, 99.99 / 100.0};
  bool clat_percentiles = true;  // clat_percentiles=
  bool lat_percentiles = false;  // lat_percentiles=
  FioUnifiedReporting unified_rw_reporting = FioUnifiedReporting::kNone;
  std::string write_lat_log;   // write_lat_log=: file prefix; empty = no log
  std::string write_bw_log;    // write_bw_log=
  std::string write_iops_log;  // write_iops_log=
  int64_t log_avg_ns = 0;      // log_avg_msec=: 0 = one sample per I/O
  bool log_offset = false;     // log_offset=: the logs' lines name each I/O's offset
  friend bool operator==(const FioJobSpec&, const FioJobSpec&) = default;
};

// One job of the schedule: `job` (an index into the FioJobSpec list) as its
// clone `clone_index` (0 the job itself, 1.. numjobs-1 its clones: fio's
// $jobnum), in reporting group `group_id` (fio's groupid).
struct FioJobInstance {
  size_t job = 0;
  std::string name;
  int clone_index = 0;
  int group_id = 0;
  friend bool operator==(const FioJobInstance&, const FioJobInstance&) = default;
};

// The jobs that start together; a step starts when every job of the step
// before it has ended (stonewall).
struct FioRunStep {
  std::vector<FioJobInstance> instances;
  friend bool operator==(const FioRunStep&, const FioRunStep&) = default;
};

}  // namespace loadcell::fio
