#pragma once
// sqlio: SQLIO's test (every thread reads or writes blocks of one file, at
// random or in sequence, with N I/Os outstanding) run on fileio's worker
// loop and engines: each file gets a FileIoShared of its own and its
// threads are FileIoWorkers on it. The front end (cli/sqlio_command) turns
// SQLIO's switches and param file into a SqlioPlan. See docs/sqlio.md.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "os/file_system.h"
#include "runner/workload.h"
#include "workloads/fileio/fileio_options.h"
#include "workloads/fileio/fileio_worker.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {

struct SqlioTarget {
  std::string shown;  // as the user wrote it (c:\testfile.dat)
  std::string path;   // on this system
  int threads = 1;
  uint64_t mask = 0;  // CPUs for its threads (0: no affinity)
  uint64_t size = 0;  // bytes the test covers (whole blocks)
};

struct SqlioPlan {
  std::vector<SqlioTarget> targets;
  bool write = false;
  bool random = true;
  uint64_t block_size = 8192;
  uint32_t outstanding = 1;  // per thread
  int open_flags = 0;        // O_DIRECT / O_DSYNC as -B says
  std::string engine = "sync";
  uint64_t affinity_mask = 0;         // -a: every thread on these CPUs
  bool affinity_round_robin = false;  // -aR: thread k on the k-th CPU of the mask (mod)
  int pin_cpu = -1;                   // -p: every thread on this CPU
  // Where the I/Os go (docs/sqlio.md):
  uint64_t start_block = 0;   // -S: the base block of every I/O
  uint64_t stripe = 0;        // -f<N>: SQLIO's stripe pattern, N blocks per row (0: none)
  uint64_t ios_per_run = 64;  // -i: stripe rows per run (I/Os per run)
  bool same_runs = false;     // -v1.1.1: every run on the same blocks
  // --mpi-files=shared: this process is rank share_rank of share_ranks on
  // the same files; sequential access (not -f<N>) keeps to the rank's
  // segment of each file (FileIoSettings::share_rank).
  uint32_t share_rank = 0;
  uint32_t share_ranks = 1;
};

// The stripe columns [*first, *first + *width) of the `index`-th of
// `threads` threads on one file (SQLIO splits the row between them).
void SqlioLane(uint64_t stripe, int index, int threads, uint64_t* first, uint64_t* width);

// Process CPU use over the run (-U).
struct SqlioCpuUse {
  double wall_s = 0;
  double user_s = 0;
  double system_s = 0;
  int cpus = 1;
  // Share of all CPUs the process used, 0..100.
  double Percent() const { return wall_s > 0 ? 100.0 * (user_s + system_s) / (wall_s * cpus) : 0; }
};

class SqlioWorkload final : public Workload {
 public:
  SqlioWorkload(SqlioPlan plan, FileSystem& fs);
  ~SqlioWorkload() override;

  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& /*opts*/) override {}

  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  Status Done() override;

  std::vector<std::pair<std::string, std::string>> Describe() const override;
  std::vector<Metric> Metrics(const RunResult& r) const override;
  WorkloadFacts Facts(const RunResult& r) const override;

  int TotalThreads() const;
  // Index of the target thread `id` works on.
  size_t TargetOf(int thread_id) const;
  const SqlioPlan& plan() const { return plan_; }
  const SqlioCpuUse& cpu_use() const { return cpu_; }
  // Affinity that could not be applied, one line each (after the run).
  std::vector<std::string> AffinityNotes() const;

 private:
  // The CPUs the worker threads are pinned to, in increasing order (empty:
  // any the process may use).
  std::vector<int> WorkerCpus() const;
  Status CloseFiles();

  SqlioPlan plan_;
  FileSystem& fs_;
  std::vector<std::unique_ptr<FileIoSettings>> settings_;
  std::vector<std::unique_ptr<FileIoShared>> shared_;
  std::vector<int> fds_;
  SqlioCpuUse cpu_;
  Nanos start_ = 0;
  double start_user_ = 0, start_sys_ = 0;
  mutable std::mutex notes_mu_;
  std::vector<std::string> affinity_notes_;
};

// SQLIO's switches in the verdict's advice (-BH, -o, -t, ...).
IoOptionNames SqlioOptionNames();

// The FileIoSettings that drive one target's workers.
FileIoSettings SqlioTargetSettings(const SqlioPlan& plan, const SqlioTarget& t);

// A missing test file: creates it at `size` bytes (created exclusively,
// fully written with random bytes, then fsynced), with a progress display.
// The folder's manifest (kSqlioManifestName) says `creating` with the new
// file's identity before the first byte and `created` only once it is
// whole, so a file a killed creation left short is known as such. A link or a
// special file in the file's or the manifest's place is refused and left
// alone. On SIGINT or an error removes the partial file. Kept afterwards, as
// SQLIO does.
//
// `fill`, when given, writes the bytes of each chunk (its buffer, length and
// offset in the file) in place of the random bytes (DiskSpd's -c writes its
// write-buffer content); `tool` names the command in the messages
// ("sqlio", "diskspd").
using SqlioFill = std::function<void(unsigned char* buf, size_t len, uint64_t offset)>;
Status CreateSqlioFile(FileSystem& fs, const std::string& path, uint64_t size,
                       std::ostream* progress_out, bool tty, const SqlioFill& fill = {},
                       const std::string& tool = "sqlio");
// Writes the existing file `path` (`size` bytes) again in place, as
// CreateSqlioFile writes a new one (`fill`, or random bytes) and fsyncs it:
// its blocks reused, neither released nor allocated again (SQLIOSim's
// DeleteFilesAtStartup=FALSE). REQUIRES: loadcell made it (SqlioMadeFile).
Status RefillSqlioFile(FileSystem& fs, const std::string& path, uint64_t size,
                       std::ostream* progress_out, bool tty, const SqlioFill& fill = {});

}  // namespace loadcell
