// Where files are made (fileio prepare and run, SQLIO's files, report files,
// the SQLite database file), a folder that cannot take them is the user's
// setup: one line saying why in words, exit 2, before anything starts. Each
// row is one such setup, made so that it holds also for root (a missing
// folder, a file where a folder belongs, a file system that takes no files);
// read-only, no-permission and full file systems are covered through the
// FileSystem seam in tests/unit/os/folder_check_test.cpp.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

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
const std::vector<std::string> kSqlite = {"oltp_read_only", "--db-driver=sqlite", "--tables=1",
                                          "--table-size=100", "--range-size=10"};

std::vector<std::string> With(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const SetupCase kSetupCases[] = {
    {"fileio_prepare_missing_folder",
     With(kFileio, {"--file-dir=@/missing", "prepare"}),
     {"--file-dir=@/missing: no such directory"}},
    {"fileio_prepare_file_as_folder",
     With(kFileio, {"--file-dir=@/file", "prepare"}),
     {"--file-dir=@/file: not a directory"}},
    {"fileio_prepare_proc",
     With(kFileio, {"--file-dir=/proc", "prepare"}),
     {"--file-dir=/proc: cannot create files in /proc: the file system takes no new files"}},
    // sysfs refuses new files to root too: EACCES, or EROFS where /sys is
    // mounted read-only (containers).
    {"fileio_prepare_sys",
     With(kFileio, {"--file-dir=/sys", "prepare"}),
     {"--file-dir=/sys: cannot create files in /sys: permission denied",
      "--file-dir=/sys: cannot create files in /sys: the file system is read-only"}},
    {"fileio_run_missing_folder",
     With(kFileio, {"--file-dir=@/missing", "--file-test-mode=rndwr", "run"}),
     {"--file-dir=@/missing: no such directory"}},
    {"sqlite_missing_folder",
     With(kSqlite, {"--sqlite-db=@/missing/x.db", "prepare"}),
     {"--sqlite-db=@/missing/x.db: the folder @/missing does not exist"}},
    {"sqlite_file_as_folder",
     With(kSqlite, {"--sqlite-db=@/file/x.db", "prepare"}),
     {"--sqlite-db=@/file/x.db: @/file is not a folder"}},
    {"sqlite_proc",
     With(kSqlite, {"--sqlite-db=/proc/x.db", "run"}),
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

std::string Expand(std::string a, const std::string& dir) {
  for (size_t at = a.find('@'); at != std::string::npos; at = a.find('@', at + dir.size())) {
    a.replace(at, 1, dir);
  }
  return a;
}

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

}  // namespace
}  // namespace loadcell
