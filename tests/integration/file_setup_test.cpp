// Where files are made (fileio prepare and run, SQLIO's files, report files,
// the SQLite database file), a folder that cannot take them is the user's
// setup: one line saying why in words, exit 2, before anything starts. Each
// row is one such setup, made so that it holds also for root (a missing
// folder, a file where a folder belongs, a file system that takes no files);
// FileFaultTest makes the faults real: a tiny tmpfs that fills up, a
// read-only one, a folder the user may not write (loadcell run as another
// user), each mounted in a mount namespace of its own.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::Concat;
using testing::Expand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

struct SetupCase {
  const char* name;
  // "@" in an argument stands for the temporary folder, which holds a
  // regular file named "file".
  std::vector<std::string> args;
  std::vector<std::string> words;  // one of them is in the error line
};

const std::vector<std::string> kFileio = {"fileio", "--file-total-size=64K", "--file-num=2"};
const std::vector<std::string> kSqliteOltp = {"oltp_read_only", "--db-driver=sqlite", "--tables=1",
                                              "--table-size=100", "--range-size=10"};

const SetupCase kSetupCases[] = {
    {"fileio_prepare_missing_folder",
     Concat(kFileio, {"--file-dir=@/missing", "prepare"}),
     {"--file-dir=@/missing: no such directory"}},
    {"fileio_prepare_file_as_folder",
     Concat(kFileio, {"--file-dir=@/file", "prepare"}),
     {"--file-dir=@/file: not a directory"}},
    {"fileio_prepare_proc",
     Concat(kFileio, {"--file-dir=/proc", "prepare"}),
     {"--file-dir=/proc: cannot create files in /proc: the file system takes no new files"}},
    // sysfs refuses new files to root too: EACCES, or EROFS where /sys is
    // mounted read-only (containers).
    {"fileio_prepare_sys",
     Concat(kFileio, {"--file-dir=/sys", "prepare"}),
     {"--file-dir=/sys: cannot create files in /sys: permission denied",
      "--file-dir=/sys: cannot create files in /sys: the file system is read-only"}},
    {"fileio_run_missing_folder",
     Concat(kFileio, {"--file-dir=@/missing", "--file-test-mode=rndwr", "run"}),
     {"--file-dir=@/missing: no such directory"}},
    {"sqlite_missing_folder",
     Concat(kSqliteOltp, {"--sqlite-db=@/missing/x.db", "prepare"}),
     {"--sqlite-db=@/missing/x.db: the folder @/missing does not exist"}},
    {"sqlite_file_as_folder",
     Concat(kSqliteOltp, {"--sqlite-db=@/file/x.db", "prepare"}),
     {"--sqlite-db=@/file/x.db: @/file is not a folder"}},
    {"sqlite_proc",
     Concat(kSqliteOltp, {"--sqlite-db=/proc/x.db", "run"}),
     {"--sqlite-db=/proc/x.db: cannot create files in /proc: the file system takes no new files"}},
    {"output_file_missing_folder",
     {"cpu", "--events=1", "--output-file=@/missing/r.json"},
     {"--output-file=@/missing/r.json: cannot open for writing: No such file or directory"}},
    {"report_html_file_as_folder",
     {"cpu", "--events=1", "--report-html=@/file/r.html"},
     {"--report-html=@/file/r.html: cannot open for writing: Not a directory"}},
    {"sqlio_file_in_missing_folder",
     {"sqlio", "-kW", "-s1", "@/missing/t.dat"},
     {"sqlio: @/missing/t.dat does not exist: cannot create files in @/missing: the folder does "
      "not exist"}},
    {"sqlio_file_in_proc",
     {"sqlio", "-kW", "-s1", "/proc/t.dat"},
     {"sqlio: /proc/t.dat does not exist: cannot create files in /proc: the file system takes no "
      "new files"}},
};

void PrintTo(const SetupCase& c, std::ostream* os) { *os << c.name; }

class FileSetupTest : public ::testing::TestWithParam<SetupCase> {};

TEST_P(FileSetupTest, IsOneLineInWordsAndExit2) {
  testing::TempDir tmp;
  tmp.Write("file", "not a folder\n");
  std::vector<std::string> args;
  for (const std::string& a : GetParam().args) args.push_back(Expand(a, tmp.path()));
  const ProcessResult r = RunLoadcell(args);
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  bool said = false;
  for (const std::string& w : GetParam().words) {
    said = said || r.err.find("loadcell: error: " + Expand(w, tmp.path())) != std::string::npos;
  }
  EXPECT_TRUE(said) << Show(r);
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << Show(r);
}

INSTANTIATE_TEST_SUITE_P(Setups, FileSetupTest, ::testing::ValuesIn(kSetupCases),
                         [](const auto& info) { return std::string(info.param.name); });

// A real fault, made in a mount namespace of loadcell's own (`unshare -m`;
// unprivileged: `unshare -rm`): a tmpfs is mounted on the folder "@" with
// `mount` options, `before` runs there ($L is loadcell, output discarded),
// then loadcell runs with `args`. The mount goes with the namespace; what
// was left in the folder is listed first.
struct FaultCase {
  const char* name;
  const char* mount;
  const char* before;
  std::vector<std::string> args;
  bool as_other_user;  // loadcell runs as nobody (needs root: setpriv)
  int exit_code;
  std::vector<std::string> says;  // each in the error line
  const char* left;               // `ls -A` of the folder afterwards, blank-separated
};

const std::vector<std::string> kSmall = {"fileio", "--file-dir=@", "--file-num=2",
                                         "--file-total-size=512K", "--file-block-size=4K"};
// Prepares the small file set; then `fill` leaves only 16K free, with holes
// punched in the files so that writing into them needs new space (as on a
// copy-on-write or thin file system).
#define LC_PREPARE                                              \
  "$L fileio --file-dir=@ --file-num=2 --file-total-size=512K " \
  "--file-block-size=4K prepare"
#define LC_HOLES                                     \
  "fallocate -p -o 4096 -l 258048 @/test_file.0 && " \
  "fallocate -p -o 4096 -l 258048 @/test_file.1"
#define LC_FILL "(dd if=/dev/zero of=@/filler bs=4k || true)"
// A SQLite database that a small prepare made, and a prepare too big for
// the tmpfs.
#define LC_SQLITE_SMALL                                                                  \
  "$L oltp_read_only --db-driver=sqlite --sqlite-db=@/x.db --tables=1 --table-size=100 " \
  "prepare"
const std::vector<std::string> kSqliteBig = {"oltp_read_only", "--db-driver=sqlite",
                                             "--sqlite-db=@/x.db", "--tables=1",
                                             "--table-size=200000"};

const FaultCase kFaultCases[] = {
    {"enospc_fileio_prepare",
     "size=1m",
     "true",
     Concat(kSmall, {"--file-total-size=4M", "prepare"}),
     false,
     2,
     {"--file-dir=@: prepare stopped: the filesystem is full"},
     ""},
    {"enospc_fileio_prepare_lock",
     "size=64k",
     LC_FILL,
     Concat(kSmall, {"prepare"}),
     false,
     2,
     {"--file-dir=@: cannot write the lock file .loadcell-fileio.lock: no space left on the "
      "device"},
     "filler"},
    {"enospc_fileio_run_write",
     "size=1m",
     LC_PREPARE " && " LC_HOLES " && " LC_FILL " && truncate -s -16K @/filler",
     Concat(kSmall, {"--file-test-mode=rndwr", "--time=10", "run"}),
     false,
     1,
     {"write of 4096 bytes from file @/test_file.", "failed: No space left on device"},
     ".loadcell-fileio.manifest filler test_file.0 test_file.1"},
    {"enospc_output_file",
     "size=64k",
     LC_FILL,
     {"cpu", "--events=100", "--output-file=@/r.json"},
     false,
     1,
     {"--output-file=@/r.json: write failed: no space left on the device"},
     "filler"},
    {"enospc_sqlite_prepare_new_db",
     "size=1m",
     "dd if=/dev/zero of=@/filler bs=4k count=128",
     Concat(kSqliteBig, {"prepare"}),
     false,
     1,
     {"cannot load sbtest1: sqlite: database or disk is full",
      "; removed the database file @/x.db and its x.db-wal", ", which this prepare had created"},
     "filler"},
    {"enospc_sqlite_prepare_existing_db",
     "size=1m",
     LC_SQLITE_SMALL " && " LC_FILL " && truncate -s -256K @/filler",
     Concat(kSqliteBig, {"--force", "prepare"}),
     false,
     1,
     {"cannot load sbtest1: sqlite: database or disk is full",
      "; the database file @/x.db existed before this prepare, so it was left in place; a "
      "table this prepare began stays marked incomplete (run refuses it)"},
     "filler x.db"},
    {"erofs_fileio_prepare",
     "ro",
     "true",
     Concat(kSmall, {"prepare"}),
     false,
     2,
     {"--file-dir=@: cannot be written (directory '@': Read-only file system)"},
     ""},
    {"erofs_fileio_run",
     "size=4m",
     LC_PREPARE " && mount -o remount,ro @",
     Concat(kSmall, {"--file-test-mode=rndwr", "--time=10", "run"}),
     false,
     2,
     {"--file-dir=@: cannot be written (directory '@': Read-only file system)"},
     ".loadcell-fileio.manifest test_file.0 test_file.1"},
    {"erofs_fileio_cleanup",
     "size=4m",
     LC_PREPARE " && mount -o remount,ro @",
     Concat(kSmall, {"cleanup"}),
     false,
     2,
     {"--file-dir=@: cannot be written (directory '@': Read-only file system)"},
     ".loadcell-fileio.manifest test_file.0 test_file.1"},
    {"erofs_sqlite_db",
     "ro",
     "true",
     {"oltp_read_only", "--db-driver=sqlite", "--sqlite-db=@/x.db", "--tables=1",
      "--table-size=100", "prepare"},
     false,
     2,
     {"--sqlite-db=@/x.db: cannot create files in @: the file system is read-only"},
     ""},
    {"eacces_fileio_prepare",
     "size=4m,mode=0755",
     "true",
     Concat(kSmall, {"prepare"}),
     true,
     2,
     {"--file-dir=@: cannot be written (directory '@': Permission denied)"},
     ""},
    {"eacces_fileio_run",
     "size=4m,mode=0755",
     LC_PREPARE,
     Concat(kSmall, {"--file-test-mode=rndwr", "--time=10", "run"}),
     true,
     2,
     {"--file-dir=@: cannot be written (directory '@': Permission denied)"},
     ".loadcell-fileio.manifest test_file.0 test_file.1"},
    {"eacces_sqlite_db",
     "size=4m,mode=0755",
     "true",
     {"oltp_read_only", "--db-driver=sqlite", "--sqlite-db=@/x.db", "--tables=1",
      "--table-size=100", "prepare"},
     true,
     2,
     {"--sqlite-db=@/x.db: cannot create files in @: permission denied (loadcell runs as "
      "user nobody)"},
     ""},
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }

using testing::ShellQuoted;

class FileFaultTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FileFaultTest, SaysWhatAndWhereAndLeavesNothingBehind) {
  const FaultCase& c = GetParam();
  const bool root = geteuid() == 0;
  ASSERT_TRUE(root || !c.as_other_user)
      << "this case runs loadcell as another user, which needs root (setpriv); not faked";
  testing::TempDir tmp;
  ASSERT_EQ(chmod(tmp.path().c_str(), 0755), 0);  // the other user reaches the folder
  const std::string dir = tmp.File("mnt");
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  const std::string left = tmp.File("left.txt");
  std::string run = c.as_other_user ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  run.append(ShellQuoted(LOADCELL_BINARY));
  for (const std::string& a : c.args) {
    run.push_back(' ');
    run.append(ShellQuoted(Expand(a, dir)));
  }
  const std::string script = fmt::format(
      "L={0}\nmount -t tmpfs -o {1} loadcell-test {2} || exit 97\n"
      "({3}) >/dev/null 2>{4} || exit 98\n{5}\nrc=$?\nls -A {2} | tr '\\n' ' ' > {6}\n"
      "exit $rc\n",
      ShellQuoted(LOADCELL_BINARY), c.mount, ShellQuoted(dir), Expand(c.before, dir),
      ShellQuoted(tmp.File("before.err")), run, ShellQuoted(left));
  const ProcessResult r =
      testing::RunCommand({"unshare", root ? "-m" : "-rm", "sh", "-c", script}, {});
  ASSERT_NE(r.exit_code, 97) << "cannot mount a tmpfs here: " << Show(r);
  ASSERT_NE(r.exit_code, 98) << "the set-up failed: " << tmp.Read("before.err") << Show(r);
  EXPECT_EQ(r.exit_code, c.exit_code) << Show(r);
  EXPECT_EQ(r.err.rfind("loadcell: error: ", 0), 0u) << Show(r);
  for (const std::string& words : c.says) {
    EXPECT_NE(r.err.find(Expand(words, dir)), std::string::npos) << words << "\n" << Show(r);
  }
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << Show(r);
  std::string listed = testing::ReadFile(left);
  if (!listed.empty() && listed.back() == ' ') listed.pop_back();
  EXPECT_EQ(listed, c.left) << "what the folder holds afterwards";
}

INSTANTIATE_TEST_SUITE_P(Faults, FileFaultTest, ::testing::ValuesIn(kFaultCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace loadcell
