// The buffering a user asks for (fileio's --file-extra-flags, SQLIO's -B)
// reaches the test files: a recording file system sees the open flags of
// every open of a test file during a real run, and on Windows the
// CreateFileW flags they become (win32_util_win32_test checks that mapping
// for every flag on its own; this ties the two ends together).

#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cli/sqlio/sqlio_command.h"
#include "cli/sqlio/sqlio_options.h"
#include "os/file_system.h"
#include "os/open_flags.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/sqlio/sqlio.h"
#if defined(_WIN32)
#include "os/win32_util.h"
#endif

namespace loadcell {
namespace {

constexpr int kBuffering = O_DIRECT | O_DSYNC | O_SYNC;

// Records the buffering flags of every open for writing of a file whose
// name starts with `prefix`; passes the open on without O_DIRECT, so the run works on
// any file system (tmpfs refuses O_DIRECT).
class FlagRecordingFileSystem final : public FileSystemWrapper {
 public:
  explicit FlagRecordingFileSystem(std::string prefix)
      : FileSystemWrapper(DefaultFileSystem()), prefix_(std::move(prefix)) {}

  Result<int> Open(const std::string& path, int flags, mode_t mode = 0644) override {
    Note(Basename(path), flags);
    return FileSystemWrapper::Open(path, flags & ~O_DIRECT, mode);
  }
  Result<int> OpenAt(const DirHandle& dir, const std::string& name, int flags, mode_t mode = 0644,
                     const FileId* expect = nullptr) override {
    Note(name, flags);
    return FileSystemWrapper::OpenAt(dir, name, flags & ~O_DIRECT, mode, expect);
  }

  std::vector<int> TakeSeen() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(seen_, {});
  }

 private:
  // The identity checks open a test file read-only; the runs below write,
  // so their I/O opens are the ones that ask for writing.
  void Note(const std::string& name, int flags) {
    if (name.rfind(prefix_, 0) != 0 || (flags & O_ACCMODE) == O_RDONLY) return;
    std::lock_guard<std::mutex> lock(mu_);
    seen_.push_back(flags & kBuffering);
  }

  const std::string prefix_;
  std::mutex mu_;
  std::vector<int> seen_;  // guarded by mu_
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

}  // namespace
}  // namespace loadcell
