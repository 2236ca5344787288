#pragma once
// One fio job as a workload of the jobs core (runner/jobs.h): its files
// laid out by Prepare as fio lays them out, one thread that keeps `iodepth`
// requests in flight on its engine, and the figures per direction that
// fio's reports need. An event is one completed read, write or trim
// (fio's total_ios); a sync (fsync=N, fdatasync=N) is timed as its own kind
// and counted, never an event. Built by the fio front end from a job spec,
// not a named test of its own.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/io_engine.h"
#include "os/file_cache.h"
#include "os/file_system.h"
#include "runner/run_facts.h"
#include "runner/workload.h"
#include "workloads/fio/fio_buffers.h"
#include "workloads/fio/fio_log.h"
#include "workloads/fio/fio_passes.h"
#include "workloads/fio/fio_pattern.h"
#include "workloads/fio/fio_verify.h"

namespace loadcell {

// fio's fallocate= modes (fio's 0 is kNone, 1 kPosix).
enum class FioFallocateMode { kNone, kNative, kPosix, kKeep, kTruncate };

// fio's options in the verdict's advice (FioJobSettings::option_names).
IoOptionNames FioOptionNames();

// The rate a job was asked for in its front end's words, for the verdict's
// rate check (FioJobWorkload::Facts): each direction's target in `unit`,
// or with `together` the directions' sum in target[0] (DiskSpd's -g, which
// the write ratio shares out). No option: not asked.
struct FioRateAsked {
  std::string option;  // "rate_iops", "rate", "rate_iops_min", "rate_min", "-g"
  bool ios = false;    // the targets count I/Os, else bytes
  std::string unit;    // "I/Os per second", "bytes per millisecond"
  double unit_s = 1;   // the seconds of the unit's time: 1, 0.001 a millisecond
  bool together = false;
  bool minimum = false;  // a floor (rate_min): any shortfall misses it
  std::array<double, kFioDirs> target{};
};

// fio's rate options as the verdict judges them: rate_iops or rate per
// direction, else rate_iops_min or rate_min (a floor); none asked: no option.
FioRateAsked FioRateAskedOf(const std::array<uint64_t, kFioDirs>& rate,
                            const std::array<uint64_t, kFioDirs>& rate_iops,
                            const std::array<uint64_t, kFioDirs>& rate_min,
                            const std::array<uint64_t, kFioDirs>& rate_iops_min);

// What a job does, resolved: bytes, counts and loadcell's engine names.
struct FioJobSettings {
  std::string name;
  std::vector<std::string> files;  // paths, in the order the pattern numbers them
  uint64_t file_size = 0;          // each file's size (the largest, with file_sizes)
  // Each file's own size when they differ (filesize=LOW-HIGH); empty:
  // file_size for every file.
  std::vector<uint64_t> file_sizes;
  uint64_t FileSize(size_t f) const { return f < file_sizes.size() ? file_sizes[f] : file_size; }
  FioPatternSettings pattern;
  std::string engine = "sync";  // loadcell's engine name (io/io_engine.h)
  // The options the verdict's advice names: fio's, DiskSpd's for its jobs.
  IoOptionNames option_names = FioOptionNames();
  uint32_t iodepth = 1;
  uint32_t submit_batch = 1;  // iodepth_batch_submit (at least 1)
  bool direct = false;        // O_DIRECT
  bool sync_writes = false;   // sync=1 or sync=sync: O_SYNC
  bool dsync_writes = false;  // sync=dsync, DiskSpd's -Sw write-through: O_DSYNC
  // Each worker thread's I/O priority (SetCurrentThreadIoPriority: 1 very
  // low, 2 low, 3 normal: DiskSpd's -I).
  int io_priority = 3;
  // The I/O buffers in huge pages (MapZeroPages; DiskSpd's -l).
  bool large_pages = false;
  // posix_fadvise on every file once opened (DiskSpd's -fr, -fs).
  FileAccessHint access_hint = FileAccessHint::kNone;
  // Open requests added to the files' open flags and the engine's
  // (os/open_flags.h: DiskSpd's -ft O_TEMPORARY_HINT, -Sr O_LOCAL_CACHE_OFF
  // on Windows).
  int open_hints = 0;
  // The job ends once this many bytes (io_size, else size) or I/Os
  // (number_ios) were issued; 0: no such limit (time_based).
  uint64_t byte_limit = 0;
  uint64_t io_limit = 0;
  // A sequential pattern with holes ends its own passes (fio's rules,
  // workloads/fio/fio_passes.h); byte_limit and io_limit are then 0.
  FioPassRule passes;
  uint32_t fsync_every = 0;      // fsync=N: after every N writes
  uint32_t fdatasync_every = 0;  // fdatasync=N
  bool end_fsync = false;        // fsync every file when the job ends
  FioBufferSettings buffers;     // what writes hold (workloads/fio/fio_buffers.h)
  bool unlink = false;           // remove the files the job made when it ends
  // verify= and its options (workloads/fio/fio_verify.h). With a type, every
  // write is a verified block; a job that writes reads its blocks back and
  // checks them once `verify_pass_bytes` were written (each pass of
  // loops=) or every `verify_backlog` writes; a job that only reads checks
  // every read; `verify_only` reads and checks where the job would write.
  FioVerifyKind verify = FioVerifyKind::kNone;
  bool do_verify = true;
  bool verify_only = false;
  bool verify_fatal = false;  // stop at the first block that fails
  uint64_t verify_backlog = 0;
  uint64_t verify_pass_bytes = 0;  // 0: at the end only
  std::string verify_pattern;

  // rate=, rate_iops=: per direction (read, write, trim), bytes per second
  // (rate_iops counts in the direction's smallest block, fio's measure); 0:
  // no limit. Each limited direction keeps its own open-loop schedule from
  // the job's start (runner/schedule.h ArrivalSchedule); an I/O's latency
  // counts from its intended start there.
  std::array<uint64_t, kFioDirs> rate_bytes{};
  FioRateAsked rate_asked;    // the same, as the user asked it (the verdict's)
  bool rate_poisson = false;  // rate_process=poisson
  // rate_min=, rate_iops_min=: per direction, the bytes and I/Os per second
  // the job must complete over each rate cycle once its first two seconds
  // have passed, else it fails (fio's rule); 0: none.
  std::array<uint64_t, kFioDirs> min_bytes{};
  std::array<uint64_t, kFioDirs> min_ios{};
  int64_t rate_cycle_ns = 1'000'000'000;
  // thinktime=: after every thinktime_blocks I/Os, once they completed, the
  // job stalls this long, spinning for thinktime_spin of it; 0: never.
  int64_t thinktime_ns = 0;
  int64_t thinktime_spin_ns = 0;
  uint32_t thinktime_blocks = 1;
  // time_based under a rate or a think time: nothing is issued later than
  // this after the job's first I/O (ramp_time + runtime); 0: no such bound.
  int64_t issue_window_ns = 0;
  // write_lat_log, write_bw_log, write_iops_log, log_avg_msec, log_offset:
  // what the job's thread logs of its measured I/O (workloads/fio/fio_log.h).
  FioLogSettings logs;
  // iodepth_batch_complete_min/_max: each reap waits for at least `min`
  // completions (fewer when fewer are in flight; 0: it does not wait) and
  // takes at most `max` (0: iodepth).
  uint32_t complete_min = 1;
  uint32_t complete_max = 0;
  // cpus_allowed (and its policy, resolved): the CPUs the job's thread is
  // confined to; empty: any.
  std::vector<int> cpus;
  // fallocate=: how a file being laid out is reserved before it is written.
  FioFallocateMode fallocate = FioFallocateMode::kNative;
  // create_on_open=1: a job that only writes does not lay out a missing
  // file; the file is created empty when the job opens it.
  bool create_on_open = false;
  // overwrite=1: a job that writes writes its files whole when it lays them
  // out, so that its writes overwrite data; otherwise (fio's default) the
  // layout of a job that does not read only reserves the file as fallocate=
  // says, and its writes meet unwritten space (FioLayoutWritesData). On
  // here (DiskSpd's layouts write their files); the fio front end sets
  // fio's.
  bool overwrite = true;
};

// Counter indices, in FioJobWorkload::Info().counter_names order.
enum FioCounter : int {
  kFioBytesRead = 0,
  kFioBytesWritten,
  kFioBytesTrimmed,
  kFioReads,
  kFioWrites,
  kFioTrims,
  kFioSyncs,
  kFioShortIos,
  kFioSubmitCalls,
  kFioDepthNanos,  // requests in flight x ns
  kFioDepthTime,   // ns that kFioDepthNanos covers
  // fio's iodepth_level: requests submitted while 1, 2-3, 4-7, 8-15, 16-31,
  // 32-63, 64 or more were in flight (the request itself counted).
  kFioDepthLevel,
  // fio's iodepth_submit / iodepth_complete: submission calls and reaps
  // that took 0, 1-4, 5-8, 9-16, 17-32, 33-64, more than 64 requests.
  kFioSubmitBatch = kFioDepthLevel + 7,
  kFioCompleteBatch = kFioSubmitBatch + 7,
  // The job thread's own usage over its measured events: CPU time (user,
  // system), context switches, major and minor page faults.
  kFioCpuUserNs = kFioCompleteBatch + 7,
  kFioCpuSysNs,
  kFioContextSwitches,
  kFioMajorFaults,
  kFioMinorFaults,
  // Every sync issued (fsync=N, fdatasync=N, end_fsync); kFioSyncs counts
  // only fsync=N's, fio's sync.total_ios.
  kFioAllSyncs,
  // The job loop's waits (DiskSpd's -vs wait statistics): a wait for a
  // completion with nothing more to issue; a wait for a completion, or for
  // the next I/O's start under a rate, whichever comes first; a sleep with
  // nothing in flight (a rate's next start, a think time); a poll that did
  // not wait (the next start under a rate already due), and how many such
  // polls found 0, 1, ..., 6, 7 or more completions.
  kFioWaitCompletion,
  kFioWaitThrottle,
  kFioSleepThrottle,
  kFioLookaside,
  kFioLookasideFound,
  // The short I/Os (kFioShortIos) of each direction: read, write, trim.
  kFioShortReads = kFioLookasideFound + 8,
  kFioShortWrites,
  kFioShortTrims,
  kFioCounterCount,
};
inline constexpr int kFioLevels = 7;
// The bucket of a depth (1..) and of a batch (0..), as fio's tables count.
int FioDepthBucket(uint64_t depth);
int FioBatchBucket(uint64_t n);
// Latency kinds (recorder indices; 0 is every event).
// slat and clat of reads and writes: recorded apart only for the
// asynchronous engines (the kinds read and write are their lat).
enum FioKind : int {
  kFioKindRead = 1,
  kFioKindWrite,
  kFioKindTrim,
  kFioKindSync,
  kFioKindSlatRead,
  kFioKindSlatWrite,
  kFioKindClatRead,
  kFioKindClatWrite
};

// Whether a job lays out its files before it runs (not with the null
// engine, nor a write-only job with create_on_open).
bool FioJobLaysOutFiles(const FioJobSettings& s);

// Whether the layout writes the files whole (fio's rule: a job that reads,
// or writes with overwrite=1); otherwise it only reserves them (fallocate=),
// a job that writes starting from an empty file, as fio starts from a new
// one.
bool FioLayoutWritesData(const FioJobSettings& s);

class FioJobWorkload final : public Workload {
 public:
  FioJobWorkload(FioJobSettings s, FileSystem& fs);
  ~FioJobWorkload() override;

  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet&) override {}
  // Lays out the files: a file that exists with at least its size is used
  // as it is; a missing or shorter one is written whole when the job reads
  // or overwrite=1, else emptied and reserved (FioLayoutWritesData), as fio
  // lays out its files. A file it makes (or one it made before and
  // makes longer) is recorded as loadcell's in its folder's manifest
  // (workloads/sqlio/sqlio_manifest.h: `creating` before the first byte,
  // `created` once whole), so that later runs may write to it; not the
  // files of an unlink=1 job, which are gone at its end.
  Status Prepare(const PrepareContext& ctx) override;
  // Whether Prepare lays out the job's files (FioJobLaysOutFiles).
  bool LaysOutFiles() const { return FioJobLaysOutFiles(s_); }
  // The files Prepare would lay out now (indices into settings().files):
  // those missing or shorter than their size, never a device; none when
  // the job lays out nothing.
  std::vector<size_t> FilesToLayOut() const;
  // Removes the files Prepare made (unlink=1); else records the files
  // create_on_open made, and those laid out without data, at the size the
  // job left them.
  Status Cleanup(const PrepareContext& ctx) override;
  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  Status Done() override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  WorkloadFacts Facts(const RunResult& r) const override;
  // Per direction (read, write, trim): io_bytes, total_ios, iops, bw_bytes,
  // runtime_ms, as fio defines them (runtime: the job's measured time).
  std::vector<Metric> Metrics(const RunResult& r) const override;

  const FioJobSettings& settings() const { return s_; }
  // The files Prepare created (the others were there).
  const std::vector<std::string>& created() const { return created_; }
  // The CPUs the job's thread was confined to (cpus_allowed), read back from
  // the system once it was; empty when it was not.
  const std::vector<int>& ran_on_cpus() const { return ran_on_cpus_; }
  // The job's logs once it ran (null when it logs nothing).
  const FioLogRecorder* log() const { return io_log_.get(); }

 private:
  FioJobSettings s_;
  FileSystem& fs_;
  std::vector<std::string> created_;
  // Laid out without data (reserved only): recorded again at their end size.
  std::vector<std::string> reserved_;
  std::vector<IoFile> open_;  // Init .. Done
  std::unique_ptr<FioLogRecorder> io_log_;
  std::vector<int> ran_on_cpus_;  // written by the job's thread, read after the run
};

}  // namespace loadcell
