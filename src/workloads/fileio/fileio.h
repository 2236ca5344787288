#pragma once
// fileio: the sysbench 1.0 file I/O test, on the sync, io_uring, libaio and
// mmap engines. prepare writes the files (every block) and keeps a
// manifest; run drives the asked mode; cleanup removes what prepare made.
// See docs/fileio.md.

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/io_engine.h"
#include "os/file_system.h"
#include "runner/workload.h"
#include "workloads/fileio/fileio_files.h"
#include "workloads/fileio/fileio_lock.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {

class FileIoShared;

class FileIoWorkload final : public Workload, public TextReportSections {
 public:
  // Files are reached through DefaultFileSystem().
  FileIoWorkload();
  // For tests: every file call (and the sync and libaio engines' I/O) goes
  // through `fs`, which must outlive the workload.
  explicit FileIoWorkload(FileSystem& fs);
  ~FileIoWorkload() override;

  // Where prepare and cleanup print (default: stdout, progress on stderr,
  // a bar when stderr is a terminal). The streams must outlive the workload.
  void SetConsole(std::ostream* out, std::ostream* progress, bool progress_tty);
  // Below notices (--verbosity < 3) prepare and cleanup say nothing; below
  // warnings, or in sysbench mode, the page-cache warning is not said.
  void SetConsoleStyle(const ConsoleStyle& style) override { style_ = style; }

  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  Status Validate(int threads) override;
  Status TakeProcessFolder(const std::string& name) override;
  Status ShareFiles(int rank, int ranks) override;
  std::vector<std::string> Warnings(int threads) const override;
  void SetEventLimit(int64_t events) override { event_limit_ = events; }

  Status Prepare(const PrepareContext& ctx) override;
  Status Cleanup(const PrepareContext& ctx) override;

  // Checks the files (run before prepare, wrong sizes: exit 2), makes sure
  // the engine can run here, opens the files once for every thread.
  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  Status Done() override;

  // In fileio_report.cpp.
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  std::optional<std::string> SysbenchHeader() const override;
  std::vector<Metric> Metrics(const RunResult& r) const override;
  // In fileio_facts.cpp.
  WorkloadFacts Facts(const RunResult& r) const override;
  std::string TextSection(const RunResult& r) const override;
  std::string SysbenchSection(const RunResult& r) const override;
  std::string IntervalLine(const IntervalSnapshot& s, double percentile) const override;

  const FileIoSettings& settings() const { return options_.settings(); }

 private:
  Status CloseFiles();
  // The console of SetConsole(), else stdout and stderr as style_ allows.
  void EnsureConsole();
  // The steps of Init() after the engine is chosen: the manifest as found
  // (or made, for seqwr) and updated for this run's writes; the page-cache
  // warning; every file opened into files_ (all closed again on failure).
  Status ReadyManifest(const FileIoSettings& s);
  // Init's steps once the folder is locked: the manifest, the warning, the
  // files opened, the shared state.
  Status ReadyFiles(FileIoSettings& s);
  // --file-io-mode=null: the shared state over files that are never opened.
  Status ReadyNullFiles(const FileIoSettings& s);
  void WarnIfCached(const FileIoSettings& s);
  Status OpenFiles(const FileIoSettings& s);

  int64_t event_limit_ = 0;  // --events, for sysbench's "Number of IO requests"
  ConsoleStyle style_;

  FileSystem& fs_;
  FileIoOptions options_;
  FileIoConsole console_;
  bool console_set_ = false;
  // TakeProcessFolder was called: settings().dir is this process' own
  // sub-folder, which prepare creates and cleanup removes once empty.
  bool process_folder_ = false;
  std::vector<IoFile> files_;  // open during a run
  std::unique_ptr<FileIoShared> shared_;
  FileManifest manifest_;  // as found (or made, for seqwr) by Init
  // The test folder's, from Init to Done; a rank 0 whose files other ranks
  // share keeps it until it is destroyed (past every rank's end); the other
  // ranks take none (rank 0's holds the folder for the run).
  FolderLock lock_;
  std::optional<uint64_t> seqwr_complete_;  // seqwr: files the run left complete
};

}  // namespace loadcell
