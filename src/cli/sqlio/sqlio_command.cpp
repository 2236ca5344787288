#include "cli/sqlio/sqlio_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/cluster_setup.h"
#include "cli/sqlio/sqlio_affinity.h"
#include "cluster/cluster.h"
#include "cluster/launch.h"
#include "core/progress.h"
#include "core/version.h"
#include "io/io_engine.h"
#include "os/file_system.h"
#include "os/folder_check.h"
#include "os/system_info.h"
#include "os/thread.h"
#include "report/reporter.h"
#include "runner/runner.h"
#include "validity/verdict.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

constexpr uint64_t kMiB = 1 << 20;
// Size of a missing file named on the command line (no param file size).
constexpr uint64_t kDefaultCreateMb = 100;

std::string Buffering(char b) {
  switch (b) {
    case 'Y':
      return "all caches (page cache)";
    case 'H':
      return "hardware disk cache, no file cache";
    case 'S':
      return "write-through, with the file cache";
    default:
      return "no file cache, write-through";
  }
}

int BufferingFlags(char b) {
  switch (b) {
    case 'Y':
      return 0;
    case 'H':
      return O_DIRECT;
    case 'S':
      return O_DSYNC;
    default:
      return O_DIRECT | O_DSYNC;
  }
}

std::string FlagsText(int flags) {
  std::string s = "O_RDWR";
  if (flags & O_DIRECT) s += "|O_DIRECT";
  if (flags & O_DSYNC) s += "|O_DSYNC";
  return s;
}

bool EngineWorks(const std::string& name) { return MakeIoEngine(name, DefaultFileSystem()).ok(); }

// --drive=X=/folder: every folder must exist.
Status CheckDriveMap(const SqlioSwitches& sw) {
  for (const auto& [letter, folder] : sw.drive_map) {
    Result<FileInfo> info = DefaultFileSystem().Stat(folder);
    if (!info.ok() || !info->exists) {
      return Status::InvalidArgument(
          fmt::format("sqlio: --drive={}={}: no such folder", letter, folder));
    }
  }
  return Status::Ok();
}

// The files, as written, with their threads, masks and sizes: the param
// file's lines, or the files named (testfile.dat by default), each repeated
// on every -d drive.
Result<std::vector<SqlioParamLine>> TargetLines(const SqlioSwitches& sw, SqlioHeaderInfo& h) {
  std::vector<SqlioParamLine> lines;
  if (!sw.param_file.empty()) {
    LC_ASSIGN_OR_RETURN(lines, ReadSqlioParamFile(sw.param_file));
    h.param_file = sw.param_file;
    if (sw.threads_given) {
      h.notes.push_back(
          fmt::format("-t{}: the param file gives the threads of each file; -t is not used with -F",
                      sw.threads));
    }
  } else {
    std::vector<std::string> files = sw.files;
    if (files.empty()) files.push_back("testfile.dat");
    for (const std::string& f : files) {
      SqlioParamLine p;
      p.path = f;
      p.threads = sw.threads;
      lines.push_back(p);
    }
  }
  if (!sw.drives.empty()) {
    std::vector<SqlioParamLine> on_drives;
    for (char d : sw.drives) {
      for (SqlioParamLine p : lines) {
        p.path = WithDrive(p.path, d);
        on_drives.push_back(p);
      }
    }
    lines = std::move(on_drives);
  }
  int total_threads = 0;
  for (const SqlioParamLine& p : lines) total_threads += p.threads;
  if (total_threads > kSqlioMaxThreads) {
    return Status::InvalidArgument(
        fmt::format("sqlio: {} threads in all, more than {}", total_threads, kSqlioMaxThreads));
  }
  return lines;
}

// True when `folder` is /dev or inside it (followed through links).
bool IsUnderDev(const std::string& folder) {
  std::error_code ec;
  std::filesystem::path real = std::filesystem::weakly_canonical(folder, ec);
  if (ec) real = std::filesystem::path(folder).lexically_normal();
  const std::string text = real.generic_string();
  return text == "/dev" || text.starts_with("/dev/");
}

// The size the test uses for the file `p` (at `path`): an existing file as
// it is (never grown or truncated), a missing one at the size asked (100 MB
// by default) once its folder is checked.
// `folder`: the one that must take the file (where a rank's sub-folder goes).
Result<uint64_t> TargetSize(const SqlioParamLine& p, const std::string& path,
                            const std::string& folder, const FileInfo& info,
                            std::vector<std::string>& notes) {
  uint64_t size = p.size_mb * kMiB;
  if (info.exists) {
    if (!info.is_regular) {
      return Status::FailedPrecondition("sqlio: " + path + " (" + p.path +
                                        ") is not a regular file");
    }
    if (size != 0 && info.size < size) {
      notes.push_back(
          fmt::format("{} is {} MB, smaller than the {} MB asked: the test uses "
                      "the file as it is (it is never grown or truncated)",
                      p.path, info.size / kMiB, p.size_mb));
    }
    return size == 0 || info.size < size ? info.size : size;
  }
  if (IsUnderDev(folder)) {
    // A device that is not there: making a regular file in its place would
    // fill /dev (a RAM file system) and test nothing.
    return Status::FailedPrecondition(
        fmt::format("sqlio: {} does not exist; loadcell never creates files under /dev (name a "
                    "device that exists, or a file elsewhere)",
                    p.path == path ? path : fmt::format("{} ({})", path, p.path)));
  }
  // Made by an actual file (root too is refused by a read-only folder).
  LC_RETURN_IF_ERROR(CheckFolderTakesFiles(
      DefaultFileSystem(), folder,
      p.path == path ? fmt::format("sqlio: {} does not exist", path)
                     : fmt::format("sqlio: {} ({}) does not exist", path, p.path)));
  if (size == 0) {
    size = kDefaultCreateMb * kMiB;
    notes.push_back(
        fmt::format("{} does not exist and no size is given: it will be created "
                    "at {} MB (give a size in a param file)",
                    p.path, kDefaultCreateMb));
  }
  return size;
}

// A file of `size` bytes must hold one block after -S, and with -f<N> one
// row of N blocks (N at least the file's threads).
Status CheckGeometry(const SqlioSwitches& sw, const SqlioParamLine& p, uint64_t size,
                     std::vector<std::string>& notes) {
  const uint64_t block = sw.block_kb * 1024;
  if (size < block) {
    return Status::InvalidArgument(
        fmt::format("sqlio: {}: the file ({} bytes) is smaller than one -b{} block", p.path, size,
                    sw.block_kb));
  }
  const uint64_t blocks = size / block;
  if (sw.start_block >= blocks) {
    return Status::InvalidArgument(
        fmt::format("sqlio: -S{}: the start offset is at or past the end of {} ({} blocks of {}KB)",
                    sw.start_block, p.path, blocks, sw.block_kb));
  }
  if (sw.access != SqlioAccess::kStripe) return Status::Ok();
  if (sw.stripe < static_cast<uint64_t>(p.threads)) {
    return Status::InvalidArgument(
        fmt::format("sqlio: -f{}: the stripe factor must be at least the thread count of {} ({}): "
                    "each thread takes its own columns of a row",
                    sw.stripe, p.path, p.threads));
  }
  const uint64_t rows = (blocks - sw.start_block) / sw.stripe;
  if (rows == 0) {
    return Status::InvalidArgument(fmt::format(
        "sqlio: -f{}: a row of {} blocks from block {} does not fit in {} ({} blocks of {}KB)",
        sw.stripe, sw.stripe, sw.start_block, p.path, blocks, sw.block_kb));
  }
  if (rows < sw.ios_per_run) {
    notes.push_back(
        fmt::format("-i{}: {} holds {} rows of {} blocks from block {}: each run is {} I/Os (SQLIO "
                    "would grow the file; loadcell never does)",
                    sw.ios_per_run, p.path, rows, sw.stripe, sw.start_block, rows));
  }
  return Status::Ok();
}

// What the test asks of the file of `t` (CheckSqlioFileUse).
SqlioFileUse SqlioUse(const SqlioSwitches& sw, const SqlioTarget& t) {
  SqlioFileUse use;
  use.path = t.path;
  use.shown = t.shown;
  use.write = sw.write;
  use.use_existing_write = sw.use_existing_write;
  if (!sw.param_file.empty()) {
    Result<FileInfo> info = DefaultFileSystem().Stat(sw.param_file);
    if (info.ok() && info->exists) use.param_file = info->id();
  }
  return use;
}

// A drive letter the system resolves itself (Windows, not given with
// --drive) must name a drive this machine has.
Status CheckNativeDrive(const SqlioSwitches& sw, const std::string& shown, char letter) {
  if (letter == 0 || !PathsHaveDriveLetters() || sw.drive_map.contains(letter)) {
    return Status::Ok();
  }
  Result<FileInfo> root = DefaultFileSystem().Stat(fmt::format("{}:\\", letter));
  if (root.ok() && root->exists) return Status::Ok();
  return Status::FailedPrecondition(
      fmt::format("sqlio: {}: there is no drive {}: on this machine", shown, letter));
}

// Adds the file of `p` to the plan and the header; `first` is the index of
// its first thread, `drives_used` collects the drive letters its path used.
Status AddTarget(const SqlioSwitches& sw, const SqlioParamLine& p, const std::string& cwd,
                 const std::string& rank_folder, int first, SqlioSetup& out,
                 std::set<char>& drives_used) {
  char letter = 0;
  SqlioTarget t;
  t.shown = p.path;
  t.path = MapSqlioPath(p.path, sw.drive_map, cwd, &letter, PathsHaveDriveLetters());
  // The folder named (a rank's own copy goes in its sub-folder there).
  const std::string folder = Dirname(t.path);
  if (!rank_folder.empty()) {
    t.path =
        (std::filesystem::path(folder) / rank_folder / std::filesystem::path(t.path).filename())
            .string();
  }
  t.threads = p.threads;
  t.mask = p.mask;
  if (letter != 0) drives_used.insert(letter);
  LC_RETURN_IF_ERROR(CheckNativeDrive(sw, p.path, letter));
  LC_ASSIGN_OR_RETURN(FileInfo info, DefaultFileSystem().Stat(t.path));
  LC_RETURN_IF_ERROR(CheckSqlioFileName(DefaultFileSystem(), SqlioUse(sw, t)));
  LC_ASSIGN_OR_RETURN(t.size, TargetSize(p, t.path, folder, info, out.header.notes));
  LC_RETURN_IF_ERROR(CheckGeometry(sw, p, t.size, out.header.notes));
  if ((BufferingFlags(sw.buffering) & O_DIRECT) != 0) {
    // Offsets are whole blocks from -S: the block size decides alignment.
    LC_RETURN_IF_ERROR(CheckSectorMultiple(
        DefaultFileSystem(), folder, sw.block_kb * 1024,
        fmt::format("sqlio: -b{}: the block size ({} bytes)", sw.block_kb, sw.block_kb * 1024),
        fmt::format("-B{}", sw.buffering)));
  }
  SqlioHeaderFile hf;
  hf.shown = p.path;
  hf.path = t.path;
  hf.threads = p.threads;
  hf.first_thread = first;
  hf.mask = p.mask;
  hf.size_mb = t.size / kMiB;
  hf.size_given = p.size_mb != 0;
  hf.created = !info.exists;
  out.header.files.push_back(hf);
  out.missing.push_back(!info.exists);
  out.plan.targets.push_back(t);
  return Status::Ok();
}

// One header line per drive letter mapped to a folder: the folder it stands for.
std::vector<std::string> DriveLines(const std::set<char>& drives_used, const SqlioSwitches& sw,
                                    const std::string& cwd) {
  std::vector<std::string> lines;
  for (char d : drives_used) {
    if (auto it = sw.drive_map.find(d); it != sw.drive_map.end()) {
      lines.push_back(fmt::format("drive {}: is {} (--drive={}={})", d, it->second, d, it->second));
    } else if (!PathsHaveDriveLetters()) {  // else the system's own drive: the path says it
      lines.push_back(fmt::format(
          "drive {}: is the current folder {} (map it with --drive={}=/folder)", d, cwd, d));
    }
  }
  return lines;
}

// The access settings of the plan; with -o above 1 the first asynchronous
// engine that works here (sync, noted, when none does).
void FillPlan(const SqlioSwitches& sw, SqlioPlan& plan, std::vector<std::string>& notes) {
  plan.write = sw.write;
  plan.random = sw.access == SqlioAccess::kRandom;
  plan.block_size = sw.block_kb * 1024;
  plan.outstanding = static_cast<uint32_t>(sw.outstanding);
  plan.open_flags = BufferingFlags(sw.buffering);
  plan.affinity_mask = sw.affinity_mask.value_or(0);
  plan.affinity_round_robin = sw.affinity_round_robin;
  plan.pin_cpu = sw.cpu.value_or(-1);
  plan.start_block = sw.start_block;
  plan.stripe = sw.access == SqlioAccess::kStripe ? sw.stripe : 0;
  plan.ios_per_run = sw.ios_per_run;
  plan.same_runs = sw.same_runs;
  if (sw.outstanding <= 1) return;
  // SQLIO's -o is overlapped I/O: iocp on Windows; on Linux io_uring, else libaio.
  for (const char* engine : {"iocp", "io_uring", "libaio"}) {
    if (EngineWorks(engine)) {
      plan.engine = engine;
      return;
    }
  }
  plan.engine = "sync";
  notes.push_back(
      fmt::format("-o{}: no asynchronous engine works here (iocp, io_uring, libaio): "
                  "each thread has one I/O outstanding",
                  sw.outstanding));
}

// The notes on switches that apply differently here than in SQLIO.
void AddSwitchNotes(const SqlioSwitches& sw, const SqlioPlan& plan,
                    std::vector<std::string>& notes) {
  if (sw.latency == 'P') {
    notes.push_back("-LP: latencies are timed with CLOCK_MONOTONIC (ns), as for -LS");
  }
  if (sw.access != SqlioAccess::kStripe) {
    const char* f = plan.random ? "-frandom" : "-fsequential";
    if (sw.ios_given) {
      notes.push_back(fmt::format("-i{}: I/O runs apply to a stripe factor (-f<N>), not to {}",
                                  sw.ios_per_run, f));
    }
    if (sw.same_runs) notes.push_back(fmt::format("-v1.1.1: applies to -f<N>, not to {}", f));
  }
  if (sw.buffers > 0) {
    notes.push_back(
        fmt::format("-m{}: each outstanding I/O has a buffer of its own already", sw.buffers));
  }
  if (sw.cpu.has_value() && sw.affinity_mask.has_value()) {
    notes.push_back("-p and -a both given: -p (one CPU for every thread) wins");
  }
  if (sw.buffering == 'Y' && !sw.write) {
    notes.push_back("-BY: reads may be served from the page cache, not the device");
  }
  if (sw.throttle != 0) {
    int threads = 0;
    for (const SqlioTarget& t : plan.targets) threads += t.threads;
    const double rate = SqlioThrottleRate(sw, threads, plan.block_size);
    notes.push_back(fmt::format(
        "-g{}{}: throttled to {:.2f} I/Os/sec per thread, {:.2f} in all, open loop: latency "
        "counts from each I/O's intended start, service time from its submission",
        sw.throttle, sw.throttle_iops ? "i" : "", rate / std::max(threads, 1), rate));
  }
}

// Before anything is written: takes the SQLIO lock of every folder where
// this command writes or creates files (a folder still to be made, a
// rank's, has none yet), then checks that each file may be used as the
// test asks (CheckSqlioFileUse). The locks are held until `locks` goes.
Status GuardSqlioFiles(const SqlioSwitches& sw, const SqlioSetup& setup,
                       std::vector<FolderLock>& locks) {
  FileSystem& fs = DefaultFileSystem();
  std::set<std::string> locked;
  for (size_t i = 0; i < setup.plan.targets.size(); ++i) {
    const std::string folder = Dirname(setup.plan.targets[i].path);
    if (!(sw.write || setup.missing[i]) || IsUnderDev(folder) || locked.contains(folder)) continue;
    Result<FileInfo> info = fs.Stat(folder);
    if (!info.ok() || !info->exists) continue;
    LC_ASSIGN_OR_RETURN(FolderLock lock, LockSqlioFolder(fs, folder, "loadcell sqlio"));
    locks.push_back(std::move(lock));
    locked.insert(folder);
  }
  for (const SqlioTarget& t : setup.plan.targets) {
    LC_RETURN_IF_ERROR(CheckSqlioFileUse(fs, SqlioUse(sw, t)));
  }
  return Status::Ok();
}

// Creates the files the plan found missing (and, for a rank's own copies,
// their sub-folder first).
Status CreateMissingFiles(const SqlioSetup& setup, bool rank_folders, std::ostream& err) {
  const bool tty = StderrIsTerminal();
  for (size_t i = 0; i < setup.plan.targets.size(); ++i) {
    if (!setup.missing[i]) continue;
    const SqlioTarget& t = setup.plan.targets[i];
    if (rank_folders) {
      std::error_code ec;
      std::filesystem::create_directory(Dirname(t.path), ec);
      if (ec) {
        return Status::IoError(fmt::format("cannot create the folder {}", Dirname(t.path)),
                               ec.value());
      }
    }
    Result<FileInfo> again = DefaultFileSystem().Stat(t.path);
    if (again.ok() && again->exists) continue;  // the same file named twice
    LC_RETURN_IF_ERROR(CreateSqlioFile(DefaultFileSystem(), t.path, t.size,
                                       ProgressEnabled() ? &err : nullptr, tty));
  }
  return Status::Ok();
}

// The exit code of a file creation that failed: a link or a special file
// in the way is the user's setup (exit 2).
int CreationExitCode(const Status& st) {
  return st.IsUsageError() || ExitCodeFor(st) == kExitInterrupted ? ExitCodeFor(st)
                                                                  : kExitRunFailed;
}

// What the run records: the switches as written, the files, the plan's
// description, drives and notes.
Manifest SqlioManifest(const SqlioSwitches& sw, const SqlioSetup& setup,
                       const SqlioWorkload& workload) {
  Manifest m;
  m.tool_version = kVersion;
  m.test = "sqlio";
  m.command = "run";
  for (const std::string& g : sw.given) m.options.push_back({"sqlio", g, "", false});
  for (const std::string& f : sw.files) m.options.push_back({"sqlio", "file", f, false});
  m.system = ReadSystemInfo();
  m.workload = workload.Describe();
  for (const std::string& d : setup.header.drives) m.workload.emplace_back("Drive", d);
  for (const std::string& n : setup.header.notes) m.workload.emplace_back("Note", n);
  return m;
}

// SQLIO's text report of a finished run.
std::string FormatTextReport(const SqlioSwitches& sw, const SqlioSetup& setup,
                             SqlioWorkload& workload, const RunResult& result) {
  SqlioReportSettings rs;
  rs.latency = sw.latency != 0;
  rs.classic = sw.classic;
  rs.block_size = setup.plan.block_size;
  // Every rank's threads (merged across ranks), each rank's in the plan's order.
  for (size_t i = 0; i < result.threads.size(); ++i) {
    const int mine = static_cast<int>(i % static_cast<size_t>(workload.TotalThreads()));
    rs.thread_files.push_back(setup.plan.targets[workload.TargetOf(mine)].shown);
  }
  if (sw.cpu_util) {
    rs.cpu_percent = workload.cpu_use().Percent();
    rs.cpu_user_s = workload.cpu_use().user_s;
    rs.cpu_system_s = workload.cpu_use().system_s;
  }
  rs.notes = workload.AffinityNotes();
  return FormatSqlioResults(result, rs);
}

// Under MPI: the layout of the files across the ranks, in the header's
// notes; with shared files each rank's place in them.
void AddRanksNote(const LaunchInfo& launch, bool per_rank, SqlioSetup& setup) {
  if (per_rank) {
    setup.header.notes.push_back(fmt::format(
        "{} ranks (--mpi-files=per-rank): each rank on its own copy of every file, in the "
        "sub-folder rankN next to it (rank {}: {})",
        launch.size, launch.rank, setup.plan.targets.front().path));
    return;
  }
  setup.plan.share_rank = static_cast<uint32_t>(launch.rank);
  setup.plan.share_ranks = static_cast<uint32_t>(launch.size);
  setup.header.notes.push_back(fmt::format(
      "{} ranks (--mpi-files=shared): every rank on the same files, created by rank 0; {}",
      launch.size,
      setup.plan.random        ? "random I/Os over the whole of each file on every rank"
      : setup.plan.stripe == 0 ? "sequential: rank r of n on [r x size / n, (r + 1) x size / n) "
                                 "of each file"
                               : "-f<N>: every rank walks the same stripes"));
}

// Runs the planned test and reports it (JSON on `out` with --format=json).
// Under MPI (`cluster`) rank 0 reports the merge of every rank's run; the
// others print nothing on `out`.
int RunPlanned(const SqlioSwitches& sw, const SqlioSetup& setup, Cluster* cluster,
               std::ostream& out, std::ostream& err) {
  const bool json = sw.format == "json";
  const bool reports = cluster == nullptr || cluster->Reports();
  SqlioWorkload workload(setup.plan, DefaultFileSystem());
  RunConfig cfg;
  cfg.threads = workload.TotalThreads();
  cfg.time_s = sw.seconds;
  cfg.time_given = true;
  cfg.rate = SqlioThrottleRate(sw, workload.TotalThreads(), setup.plan.block_size);
  cfg.verdict = sw.verdict;
  MultiReporter reporters;
  VerdictStep verdict(workload, cfg.verdict_mode(), 95, 0);
  reporters.WatchStart(&verdict);
  if (json && reports) {
    ReportSettings rs;
    rs.percentile = 95;
    reporters.Add(MakeJsonReporter(out, workload, rs));
  }
  RunCoordinator& coordinator = cluster != nullptr ? *cluster : SoloCoordinator();
  Result<RunResult> result = RunWorkload(workload, cfg, SqlioManifest(sw, setup, workload),
                                         reports ? &reporters : nullptr, coordinator);
  if (!result.ok()) {
    PrintCliError(err, result.status());
    return ExitCodeFor(result.status());  // 130 for an interrupt
  }
  if (!reports) return ExitCodeAfterRun(*result, kExitOk, err);
  verdict.Judge(*result);
  if (json) {
    for (const std::string& n : workload.AffinityNotes()) err << "loadcell: note: " << n << "\n";
    reporters.OnEnd(*result);
  } else {
    out << FormatTextReport(sw, setup, workload, *result);
  }
  out.flush();
  return ExitCodeAfterRun(*result, kExitOk, err);
}

}  // namespace

std::string SqlioUsage() {
  return "Usage: loadcell sqlio [switches] [file ...]\n"
         "SQLIO 1.5's switches (see docs/sqlio.md):\n"
         "  -kR|-kW          read or write (default R)\n"
         "  -s<secs>         duration (default 30)\n"
         "  -frandom|-fsequential|-f<N>   access (default sequential); -f<N>: SQLIO's\n"
         "                   stripe pattern, runs of -i I/Os N blocks apart\n"
         "  -t<threads>      threads per file, at most 256 (default 1)\n"
         "  -o<n>            outstanding I/Os per thread per file (default 1)\n"
         "  -b<KB>           block size in KB (default 8)\n"
         "  -BN|-BY|-BH|-BS  buffering: N O_DIRECT|O_DSYNC (default), Y page cache,\n"
         "                   H O_DIRECT, S O_DSYNC\n"
         "  -LS|-LP          latency figures and histogram\n"
         "  -F<file>         param file: '<path> <threads> <mask> <size MB>' per line\n"
         "  -d<letters>      run the same file on each drive (-dEFG)\n"
         "  -S<blocks>       every I/O is based this many blocks into the file\n"
         "  -i<n>            I/Os per run with -f<N> (default 64); -v1.1.1 runs reuse blocks\n"
         "  -g<bytes/ms>|-g<n>i  DiskSpd's throttle, per thread: open loop, latency\n"
         "                   from each I/O's intended start, service time beside it\n"
         "  -a[R]<mask> -p<cpu> CPU affinity; -U CPU use; -m -64 -D accepted (noted)\n"
         "Options: --drive=X=/folder (map a drive letter; default the current folder),\n"
         "         --sqlio-classic (SQLIO's report only), --format=text|json, --quiet,\n"
         "         --sqlio-use-existing=write (-kW on files loadcell did not create);\n"
         "         --verdict=off|on|strict (the validity verdict; strict: exit 3 if INVALID);\n"
         "         under mpirun --mpi-files=per-rank|shared (docs/mpi.md)\n"
         "Missing files are created at their size and kept.\n";
}

Result<SqlioSetup> PlanSqlio(const SqlioSwitches& sw, const std::string& cwd,
                             const std::string& rank_folder) {
  SqlioSetup out;
  SqlioHeaderInfo& h = out.header;
  h.version = kVersion;
  h.latency = sw.latency;
  h.write = sw.write;
  h.seconds = sw.seconds;
  h.block_kb = sw.block_kb;
  h.outstanding = sw.outstanding;
  h.buffering = Buffering(sw.buffering);
  h.notes = sw.notes;
  LC_RETURN_IF_ERROR(CheckDriveMap(sw));
  LC_ASSIGN_OR_RETURN(std::vector<SqlioParamLine> lines, TargetLines(sw, h));
  LC_RETURN_IF_ERROR(
      CheckSqlioAffinity(sw, lines, CpuFacts{ReadSystemInfo().cpus_online, AllowedCpus()}));
  std::set<char> drives_used;
  int first = 0;
  for (const SqlioParamLine& p : lines) {
    LC_RETURN_IF_ERROR(AddTarget(sw, p, cwd, rank_folder, first, out, drives_used));
    first += p.threads;
  }
  h.drives = DriveLines(drives_used, sw, cwd);

  SqlioPlan& plan = out.plan;
  FillPlan(sw, plan, h.notes);
  h.engine = plan.engine;
  h.open_flags = FlagsText(plan.open_flags);
  h.access = sw.access == SqlioAccess::kRandom       ? "random"
             : sw.access == SqlioAccess::kSequential ? "sequential"
                                                     : "striped";
  h.stripe = plan.stripe;
  h.start_block = plan.start_block;
  h.ios_per_run = plan.ios_per_run;
  h.same_runs = plan.same_runs;
  AddSwitchNotes(sw, plan, h.notes);
  return out;
}

namespace {

// What every rank of an MPI run must run alike (cluster/run_plan.h): the
// duration and the switches that change what an I/O is.
RunPlan SqlioRunPlan(const SqlioSwitches& sw) {
  RunPlan plan;
  plan.test = "sqlio";
  plan.command = "run";
  plan.limits = {{"-s", fmt::format("{}", sw.seconds)},
                 {"--mpi-files", sw.cluster.files == MpiFiles::kShared ? "shared" : "per-rank"}};
  const char* access = sw.access == SqlioAccess::kRandom       ? "random"
                       : sw.access == SqlioAccess::kSequential ? "sequential"
                                                               : "stripe";
  plan.options = {{"-k", sw.write ? "W" : "R"},
                  {"-f", fmt::format("{} {}", access, sw.stripe)},
                  {"-o", fmt::format("{}", sw.outstanding)},
                  {"-b", fmt::format("{}", sw.block_kb)},
                  {"-B", std::string(1, sw.buffering)},
                  {"-S", fmt::format("{}", sw.start_block)},
                  {"-i", fmt::format("{}", sw.ios_per_run)},
                  {"-g", fmt::format("{}{}", sw.throttle, sw.throttle_iops ? "i" : "")}};
  return plan;
}

}  // namespace

int RunSqlioCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    // SQLIO would run its defaults on testfile.dat here; creating a 100 MB
    // file for a bare command is not what a user typing it wants.
    out << SqlioUsage();
    return kExitUsage;
  }
  Result<SqlioSwitches> parsed = ParseSqlioArgs(args);
  if (!parsed.ok()) {
    PrintCliError(err, parsed.status());
    return kExitUsage;
  }
  const SqlioSwitches& sw = *parsed;
  if (sw.help) {
    out << SqlioUsage();
    return kExitOk;
  }
  if (sw.quiet) SetProgressEnabled(false);
  char cwd_buf[PATH_MAX];
  const std::string cwd = getcwd(cwd_buf, sizeof(cwd_buf)) != nullptr ? cwd_buf : ".";
  // Under an MPI launcher every rank runs the test: on its own copies of the
  // files (per-rank: in the sub-folder rankN next to each) or on the same
  // files (shared: rank 0 creates the missing ones).
  const LaunchInfo launch = DetectLaunch();
  const bool across = launch.detected && sw.cluster.mode != MpiMode::kOff;
  const bool per_rank = across && sw.cluster.files == MpiFiles::kPerRank;
  Result<SqlioSetup> planned =
      PlanSqlio(sw, cwd, per_rank ? fmt::format("rank{}", launch.rank) : "");
  if (!planned.ok()) {
    // A usage error whatever its code; under a launcher one line for the
    // job, naming the rank (the ranks join to say it).
    const Status& p = planned.status();
    const Status usage =
        p.IsUsageError() ? p : Status(StatusCode::kInvalidArgument, p.message(), p.err());
    PrintCliError(err, FailAcrossRanks(sw.cluster, usage));
    return kExitUsage;
  }
  SqlioSetup& setup = *planned;
  // Shared files are rank 0's to guard (every rank would take the same lock).
  std::vector<FolderLock> locks;
  if (!across || per_rank || launch.rank == 0) {
    if (Status guarded = GuardSqlioFiles(sw, setup, locks); !guarded.ok()) {
      const Status said = FailAcrossRanks(sw.cluster, guarded);
      PrintCliError(err, said);
      return ExitCodeFor(said);
    }
  }
  if (across) AddRanksNote(launch, per_rank, setup);
  ClusterSettings across_ranks = sw.cluster;
  across_ranks.plan = SqlioRunPlan(sw);
  Result<std::unique_ptr<Cluster>> joined = JoinCluster(across_ranks, launch);
  if (!joined.ok()) {
    PrintCliError(err, joined.status());
    return ExitCodeFor(joined.status());
  }
  const std::unique_ptr<Cluster> cluster = std::move(joined).value();
  std::ostream& head = sw.format == "json" ? err : out;
  if (cluster == nullptr || cluster->Reports()) {
    head << FormatSqlioHeader(setup.header) << std::flush;
  }
  InstallStopSignalHandlers();
  auto create = [&] { return CreateMissingFiles(setup, per_rank, err); };
  const Status created = cluster != nullptr && !per_rank
                             ? cluster->OnRankZero(create, "create the shared files")
                             : create();
  if (!created.ok()) {
    PrintCliError(err, created);
    return CreationExitCode(created);
  }
  return RunPlanned(sw, setup, cluster.get(), out, err);
}

}  // namespace loadcell
