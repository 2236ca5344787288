// The buffering a user asks for (fileio's --file-extra-flags, SQLIO's -B,
// fio's sync=, dbsim's NoBuffering and WriteThrough) reaches the test files: a recording file
// system sees the open flags of every open of a test file during a real run, and on Windows the
// CreateFileW flags they become (win32_util_win32_test checks that mapping
// for every flag on its own; this ties the two ends together).

#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/dbsim/dbsim_files.h"
#include "cli/diskspd/diskspd_plan.h"
#include "cli/fio/fio_plan.h"
#include "cli/sqlio/sqlio_command.h"
#include "cli/sqlio/sqlio_options.h"
#include "dbsim/dbsim_config.h"
#include "os/file_system.h"
#include "os/open_flags.h"
#include "runner/jobs.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/dbsim/dbsim_database.h"
#include "workloads/fio/fio_job.h"
#include "workloads/sqlio/sqlio.h"
#if defined(_WIN32)
#include "os/win32_util.h"
#endif

namespace loadcell {
namespace {

// DiskSpd's -ft and -Sr are open requests on Windows (0 elsewhere).
constexpr int kBuffering = O_DIRECT | O_DSYNC | O_SYNC | O_TEMPORARY_HINT | O_LOCAL_CACHE_OFF;

// Records the buffering flags of every open for writing of a file whose
// name starts with `prefix`; passes the open on without O_DIRECT, so the run works on
// any file system (tmpfs refuses O_DIRECT).
class FlagRecordingFileSystem final : public FileSystemWrapper {
 public:
  explicit FlagRecordingFileSystem(std::string prefix)
      : FileSystemWrapper(DefaultFileSystem()), prefix_(std::move(prefix)) {}

  Result<int> Open(const std::string& path, int flags, mode_t mode = 0644) override {
    Note(Basename(path), flags);
    // -Sr's FSCTL is for network shares: the test's file is a local one.
    return FileSystemWrapper::Open(path, flags & ~(O_DIRECT | O_LOCAL_CACHE_OFF), mode);
  }
  Result<int> OpenAt(const DirHandle& dir, const std::string& name, int flags, mode_t mode = 0644,
                     const FileId* expect = nullptr) override {
    Note(name, flags);
    return FileSystemWrapper::OpenAt(dir, name, flags & ~O_DIRECT, mode, expect);
  }

  std::vector<int> TakeSeen() {
    std::lock_guard<std::mutex> lock(mu_);
    names_.clear();
    return std::exchange(seen_, {});
  }
  // Each open's file name and buffering flags, in order.
  std::vector<std::pair<std::string, int>> TakeSeenByName() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::pair<std::string, int>> out;
    for (size_t i = 0; i < seen_.size(); ++i) out.emplace_back(names_[i], seen_[i]);
    seen_.clear();
    names_.clear();
    return out;
  }

 private:
  // The identity checks open a test file read-only; the runs below write,
  // so their I/O opens are the ones that ask for writing.
  void Note(const std::string& name, int flags) {
    if (name.rfind(prefix_, 0) != 0 || (flags & O_ACCMODE) == O_RDONLY) return;
    std::lock_guard<std::mutex> lock(mu_);
    seen_.push_back(flags & kBuffering);
    names_.push_back(name);
  }

  const std::string prefix_;
  std::mutex mu_;
  std::vector<int> seen_;           // guarded by mu_
  std::vector<std::string> names_;  // seen_'s files; guarded by mu_
};

// Every open seen asked for exactly `want`; on Windows, CreateFileW gets
// FILE_FLAG_NO_BUFFERING exactly with O_DIRECT and FILE_FLAG_WRITE_THROUGH
// exactly with O_DSYNC or O_SYNC.
void ExpectEveryOpen(const std::vector<int>& seen, int want, const std::string& what) {
  ASSERT_FALSE(seen.empty()) << what << ": no test file was opened";
  for (int flags : seen) EXPECT_EQ(flags, want) << what;
#if defined(_WIN32)
  const DWORD created = CreateFileArgsFor(want | O_RDWR, false).flags;
  EXPECT_EQ((created & FILE_FLAG_NO_BUFFERING) != 0, (want & O_DIRECT) != 0) << what;
  EXPECT_EQ((created & FILE_FLAG_WRITE_THROUGH) != 0, (want & (O_DSYNC | O_SYNC)) != 0) << what;
  EXPECT_EQ((created & FILE_ATTRIBUTE_TEMPORARY) != 0, (want & O_TEMPORARY_HINT) != 0) << what;
#endif
}

TEST(OpenFlagsReachFiles, FileioExtraFlags) {
  const std::pair<const char*, int> cases[] = {{"", 0},
                                               {"direct", O_DIRECT},
                                               {"dsync", O_DSYNC},
                                               {"sync", O_SYNC},
                                               {"direct,dsync", O_DIRECT | O_DSYNC}};
  for (const auto& [extra, want] : cases) {
    testing::TempDir dir;
    FlagRecordingFileSystem fs("test_file.");
    FileIoWorkload w(fs);
    testing::FileIoArgs args = {{"file-test-mode", "rndrw"}};
    if (*extra != '\0') args.emplace_back("file-extra-flags", extra);
    testing::Prepared(w, dir, args);
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << extra;
    fs.TakeSeen();  // prepare's own opens write the files; the run's are checked
    Result<RunResult> r = testing::RunEvents(w, 40);
    ASSERT_OK(r);
    ASSERT_OK(r->failure);
    ExpectEveryOpen(fs.TakeSeen(), want, std::string("--file-extra-flags=") + extra);
  }
}

TEST(OpenFlagsReachFiles, SqlioBuffering) {
  const std::pair<const char*, int> cases[] = {
      {"-BN", O_DIRECT | O_DSYNC}, {"-BH", O_DIRECT}, {"-BS", O_DSYNC}, {"-BY", 0}};
  for (const auto& [b, want] : cases) {
    testing::TempDir dir;
    {
      std::ofstream out(dir.File("t.dat"), std::ios::binary);
      out << std::string(1 << 20, 'x');
    }
    Result<SqlioSwitches> sw =
        ParseSqlioArgs({"-kW", "-frandom", "-b8", "-t1", b, dir.File("t.dat")});
    ASSERT_OK(sw);
    Result<SqlioSetup> setup = PlanSqlio(*sw, dir.path());
    ASSERT_OK(setup);
    FlagRecordingFileSystem fs("t.dat");
    SqlioWorkload w(setup->plan, fs);
    Result<RunResult> r = testing::RunEvents(w, 20);
    ASSERT_OK(r);
    ASSERT_OK(r->failure);
    ExpectEveryOpen(fs.TakeSeen(), want, b);
  }
}

// fio's sync=: 1 and sync are O_SYNC, dsync is O_DSYNC (fio 3.33), none
// neither; direct=1 adds O_DIRECT.
TEST(OpenFlagsReachFiles, FioSync) {
  const std::tuple<fio::FioSyncMode, bool, int> cases[] = {
      {fio::FioSyncMode::kNone, false, 0},
      {fio::FioSyncMode::kSync, false, O_SYNC},
      {fio::FioSyncMode::kDsync, false, O_DSYNC},
      {fio::FioSyncMode::kDsync, true, O_DIRECT | O_DSYNC}};
  for (const auto& [mode, direct, want] : cases) {
    testing::TempDir dir;
    fio::FioJobSpec spec;
    spec.name = "w";
    spec.directories = {dir.path()};
    spec.size_given = true;
    spec.size.bytes = 64 << 10;
    spec.rw = fio::FioRwMode::kWrite;
    spec.sync = mode;
    spec.direct = direct;
    fio::FioRunStep step;
    step.instances.push_back(fio::FioJobInstance{0, "w", 0, 0});
    const std::vector<fio::FioJobSpec> specs = {spec};
    auto plan = PlanFioJobs(specs, {step}, DefaultFileSystem());
    ASSERT_OK(plan);
    const std::string what = "sync mode " + std::to_string(static_cast<int>(mode));
    FlagRecordingFileSystem fs("w.0.0");
    FioJobWorkload w(plan->steps[0][0].settings, fs);
    ASSERT_OK(w.Prepare(PrepareContext{}));
    fs.TakeSeen();  // the layout's own opens; the run's are checked
    std::vector<JobGroup> groups(1);
    groups[0].jobs.push_back(Job{"w", &w, plan->steps[0][0].cfg, {}, nullptr});
    auto r = RunJobs(groups);
    ASSERT_OK(r);
    ASSERT_OK(r->jobs[0].result.failure);
    ExpectEveryOpen(fs.TakeSeen(), want, what);
  }
}

// Runs `settings` (one job of 20 I/Os) on files opened through `fs`.
void RunOneJob(FioJobSettings settings, const RunConfig& cfg, FileSystem& fs) {
  settings.io_limit = 20;
  FioJobWorkload w(settings, fs);
  std::vector<JobGroup> groups(1);
  RunConfig c = cfg;
  c.warmup_s = 0;
  c.cooldown_s = 0;
  groups[0].jobs.push_back(Job{"t", &w, c, {}, nullptr});
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  ASSERT_OK(r->jobs[0].result.failure);
}

// DiskSpd's -ft: the target is opened with O_TEMPORARY_HINT, which is
// FILE_ATTRIBUTE_TEMPORARY on Windows (nothing on Linux, where the flag is
// 0 and the open asks for nothing more); -Su/-Sw still reach it beside.
TEST(OpenFlagsReachFiles, DiskspdTemporaryHint) {
  const std::pair<std::vector<std::string>, int> cases[] = {
      {{"-ft"}, O_TEMPORARY_HINT}, {{"-ft", "-Sw"}, O_TEMPORARY_HINT | O_DSYNC}, {{}, 0}};
  for (const auto& [switches, want] : cases) {
    testing::TempDir dir;
    const std::string target = dir.Write("t.dat", std::string(1 << 20, 'x'));
    std::vector<std::string> args = {"-w100", "-b4K", "-o1", "-d1", "-W0"};
    args.insert(args.end(), switches.begin(), switches.end());
    args.push_back(target);
    Result<diskspd::DiskspdSwitches> sw = diskspd::ParseDiskspdCommandLine(args);
    ASSERT_OK(sw);
    Result<DiskspdPlan> plan = PlanDiskspd(*sw, DefaultFileSystem());
    ASSERT_OK(plan);
    ASSERT_EQ(plan->jobs.size(), 1u);
    FlagRecordingFileSystem fs("t.dat");
    RunOneJob(plan->jobs[0].settings, plan->jobs[0].cfg, fs);
    ExpectEveryOpen(fs.TakeSeen(), want, "diskspd " + ::testing::PrintToString(switches));
  }
}

// -Sr on Windows: the job's files are opened with O_LOCAL_CACHE_OFF (the
// Win32 FileSystem then sends FSCTL_DISABLE_LOCAL_BUFFERING; that a local
// file refuses it is win32's test), 0 on Linux where -Sr is O_DIRECT.
TEST(OpenFlagsReachFiles, LocalCacheOffReachesTheOpen) {
  testing::TempDir dir;
  const std::string target = dir.Write("t.dat", std::string(1 << 20, 'x'));
  Result<diskspd::DiskspdSwitches> sw =
      diskspd::ParseDiskspdCommandLine({"-w100", "-b4K", "-o1", "-d1", "-W0", target});
  ASSERT_OK(sw);
  Result<DiskspdPlan> plan = PlanDiskspd(*sw, DefaultFileSystem());
  ASSERT_OK(plan);
  FioJobSettings s = plan->jobs[0].settings;
  EXPECT_EQ(s.open_hints, 0);
  s.open_hints = O_LOCAL_CACHE_OFF;
  FlagRecordingFileSystem fs("t.dat");
  RunOneJob(s, plan->jobs[0].cfg, fs);
  ExpectEveryOpen(fs.TakeSeen(), O_LOCAL_CACHE_OFF, "open_hints O_LOCAL_CACHE_OFF");
}

// dbsim's NoBuffering and WriteThrough (SQLIOSim's keys) reach the data
// files and the log as O_DIRECT and O_DSYNC; InnoDB's preset opens its redo
// log buffered (log_buffered) whatever NoBuffering says.
TEST(OpenFlagsReachFiles, DbsimNoBufferingWriteThroughAndABufferedLog) {
  struct Case {
    const char* keys;
    bool log_buffered;
    int data;
    int log;
  };
  const Case cases[] = {
      {"NoBuffering=FALSE\nWriteThrough=FALSE\n", false, 0, 0},
      {"NoBuffering=TRUE\nWriteThrough=FALSE\n", false, O_DIRECT, O_DIRECT},
      {"NoBuffering=FALSE\nWriteThrough=TRUE\n", false, O_DSYNC, O_DSYNC},
      {"NoBuffering=TRUE\nWriteThrough=TRUE\n", false, O_DIRECT | O_DSYNC, O_DIRECT | O_DSYNC},
      {"NoBuffering=TRUE\nWriteThrough=TRUE\n", true, O_DIRECT | O_DSYNC, O_DSYNC},
  };
  for (const Case& c : cases) {
    testing::TempDir dir;
    const std::string text = std::string("[CONFIG]\n") + c.keys +
                             "[File1]\nFileName=data.mdx\nInitialSize=1\n"
                             "[File2]\nFileName=log.ldx\nInitialSize=1\nLogFile=TRUE\n";
    Result<DbsimConfig> config = ParseDbsimConfig(text, "flags.ini");
    ASSERT_OK(config);
    config->log_buffered = c.log_buffered;
    DbsimArgs a;
    a.dir = dir.path();
    std::ostringstream progress;
    ASSERT_OK(CreateDbsimFiles(a, *config, 1, progress));
    FlagRecordingFileSystem fs("");
    DbsimOpenFiles open{&fs, {}};
    DbsimDatabase db(fs, true);
    std::string log_name;
    ASSERT_OK(OpenDbsimDatabase(a, *config, 1, open, db, log_name, nullptr));
    const std::string what = std::string(c.keys) + (c.log_buffered ? "log_buffered" : "");
    std::vector<std::pair<std::string, int>> seen = fs.TakeSeenByName();
    ASSERT_EQ(seen.size(), 2u) << what;
    EXPECT_EQ(seen[0], std::make_pair(std::string("data.mdx"), c.data)) << what;
    EXPECT_EQ(seen[1], std::make_pair(std::string("log.ldx"), c.log)) << what;
    EXPECT_EQ(log_name, "log.ldx");
  }
}

}  // namespace
}  // namespace loadcell
