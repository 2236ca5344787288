// fileio's files reused across runs and tools, through the real binary: a
// seqwr run that wrote its files whole leaves them to every mode; every
// write stamps its blocks, so --validate works after any run; files made by
// `sysbench fileio prepare` serve read modes with --file-use-existing=on
// (writes only with =write; cleanup leaves them); --file-io-mode=async runs
// without direct, as sysbench runs it.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/build_features.h"
#include "io/io_engine.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;
using testing::TempDir;

const std::vector<std::string> kOtherModes = {"seqrewr", "seqrd", "rndrd", "rndwr", "rndrw"};
const std::vector<std::string> kReadModes = {"seqrd", "rndrd"};
const std::vector<std::string> kWriteModes = {"seqrewr", "rndwr", "rndrw"};

std::vector<std::string> Listing(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A seqwr run long enough to wrap leaves complete files: every other mode
// runs on them right after (as under sysbench), with no prepare.
TEST(FileIoReuse, SeqwrThatWroteItsFilesWholeLeavesThemToEveryMode) {
  TempDir dir(BuildTree());
  // 1024 blocks of 4 KiB in all: 1100 events write every block.
  ProcessResult w =
      RunLoadcell(FileIoCommand(dir, {"--file-test-mode=seqwr", "--events=1100", "run"}));
  ASSERT_EQ(w.exit_code, 0) << Show(w);
  EXPECT_NE(w.out.find("Files left complete: all 4: every mode can use them."), std::string::npos)
      << w.out;
  for (const std::string& mode : kOtherModes) {
    ProcessResult r =
        RunLoadcell(FileIoCommand(dir, {"--file-test-mode=" + mode, "--events=200", "run"}));
    EXPECT_EQ(r.exit_code, 0) << mode << "\n" << Show(r);
  }
  // And --validate, on what seqwr stamped.
  ProcessResult v = RunLoadcell(
      FileIoCommand(dir, {"--validate", "--file-test-mode=seqrd", "--events=1024", "run"}));
  EXPECT_EQ(v.exit_code, 0) << Show(v);
}

// A seqwr run that ended early leaves short files: every other mode fails
// (exit 1, as a run on short files does in sysbench) in one line that says
// what happened and what to do.
TEST(FileIoReuse, SeqwrThatEndedEarlyIsRefusedInOneLine) {
  TempDir dir(BuildTree());
  ProcessResult w =
      RunLoadcell(FileIoCommand(dir, {"--file-test-mode=seqwr", "--events=10", "run"}));
  ASSERT_EQ(w.exit_code, 0) << Show(w);
  EXPECT_NE(w.out.find("Files left complete: 0 of 4"), std::string::npos) << w.out;
  for (const std::string& mode : kOtherModes) {
    ProcessResult r =
        RunLoadcell(FileIoCommand(dir, {"--file-test-mode=" + mode, "--events=10", "run"}));
    EXPECT_EQ(r.exit_code, 1) << mode << "\n" << Show(r);
    EXPECT_EQ(testing::OutputLines(r.err), 1) << mode << "\n" << r.err;
    EXPECT_NE(r.err.find("seqwr run that ended before it wrote every block"), std::string::npos)
        << mode << "\n"
        << r.err;
  }
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  ProcessResult r =
      RunLoadcell(FileIoCommand(dir, {"--file-test-mode=rndrd", "--events=10", "run"}));
  EXPECT_EQ(r.exit_code, 0) << Show(r);
}

// A writing run without --validate stamps its blocks: a --validate run
// right after reads every block and finds each one intact.
TEST(FileIoReuse, ValidateWorksAfterAWritingRunWithoutIt) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  for (const std::string& mode : kWriteModes) {
    ProcessResult w =
        RunLoadcell(FileIoCommand(dir, {"--file-test-mode=" + mode, "--events=3000", "run"}));
    ASSERT_EQ(w.exit_code, 0) << mode << "\n" << Show(w);
    ProcessResult v = RunLoadcell(
        FileIoCommand(dir, {"--validate", "--file-test-mode=seqrd", "--events=1024", "run"}));
    EXPECT_EQ(v.exit_code, 0) << "after " << mode << "\n" << Show(v);
    EXPECT_NE(v.out.find("total number of events:              1024"), std::string::npos) << v.out;
  }
}

// Files that sysbench prepared, with the same --file-num and --file-total-size.
// On Windows, which has no sysbench, the files its prepare writes: four of
// 1 MiB of zeros.
void SysbenchPrepare(const TempDir& dir) {
  if (LOADCELL_WINDOWS) {
    for (int i = 0; i < 4; ++i)
      dir.Write("test_file." + std::to_string(i), std::string(1 << 20, '\0'));
  } else {
    const std::string cmd = "cd '" + dir.path() +
                            "' && sysbench fileio --file-num=4 --file-total-size=4M prepare "
                            ">/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << "sysbench must be installed (scripts/install-deps)";
  }
  ASSERT_TRUE(std::filesystem::exists(dir.File("test_file.3")));
}

TEST(FileIoReuse, FilesSysbenchPreparedServeReadModesWithUseExisting) {
  TempDir dir(BuildTree());
  SysbenchPrepare(dir);
  const std::vector<std::string> theirs = Listing(dir);
  // Without the option: refused, with the way out.
  ProcessResult no =
      RunLoadcell(FileIoCommand(dir, {"--file-test-mode=rndrd", "--events=10", "run"}));
  EXPECT_EQ(no.exit_code, 2) << Show(no);
  EXPECT_NE(no.err.find("--file-use-existing=on"), std::string::npos) << no.err;
  for (const std::string& mode : kReadModes) {
    ProcessResult r = RunLoadcell(FileIoCommand(
        dir, {"--file-use-existing=on", "--file-test-mode=" + mode, "--events=200", "run"}));
    ASSERT_EQ(r.exit_code, 0) << mode << "\n" << Show(r);
    EXPECT_NE(r.out.find("files created: not by loadcell: 4 of 4 were in the folder already"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("total number of events:              200"), std::string::npos) << r.out;
  }
  // Nothing of loadcell's was left there (no manifest).
  EXPECT_EQ(Listing(dir), theirs);
}

TEST(FileIoReuse, WritesToAnotherToolsFilesNeedAnExplicitYes) {
  TempDir dir(BuildTree());
  SysbenchPrepare(dir);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> refused = {
      {{"--file-use-existing=on", "--file-test-mode=rndwr"}, "--file-use-existing=write"},
      {{"--file-use-existing=on", "--file-test-mode=seqrewr"}, "--file-use-existing=write"},
      {{"--file-use-existing=on", "--file-test-mode=rndrw"}, "--file-use-existing=write"},
      {{"--file-use-existing=write", "--file-test-mode=seqwr"}, "seqwr re-creates"},
      {{"--file-use-existing=on", "--validate", "--file-test-mode=rndrd"}, "--validate"},
  };
  for (const Case& c : refused) {
    std::vector<std::string> extra = c.args;
    extra.insert(extra.end(), {"--events=10", "run"});
    ProcessResult r = RunLoadcell(FileIoCommand(dir, extra));
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << "\n" << Show(r);
    EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(std::filesystem::file_size(dir.File("test_file.0")), 1u << 20);
  }
  for (const std::string& mode : kWriteModes) {
    ProcessResult r = RunLoadcell(FileIoCommand(
        dir, {"--file-use-existing=write", "--file-test-mode=" + mode, "--events=200", "run"}));
    EXPECT_EQ(r.exit_code, 0) << mode << "\n" << Show(r);
    EXPECT_NE(r.out.find("(this run writes their blocks)"), std::string::npos) << r.out;
  }
}

// prepare writes nothing over them, cleanup removes nothing of them, and both say so.
TEST(FileIoReuse, PrepareAndCleanupLeaveAnotherToolsFiles) {
  TempDir dir(BuildTree());
  SysbenchPrepare(dir);
  const std::vector<std::string> theirs = Listing(dir);
  ProcessResult p = RunLoadcell(FileIoCommand(dir, {"--file-use-existing=on", "prepare"}));
  EXPECT_EQ(p.exit_code, 0) << Show(p);
  EXPECT_NE(p.out.find("used as they are (4 not created by loadcell); nothing written"),
            std::string::npos)
      << p.out;
  ProcessResult c = RunLoadcell(FileIoCommand(dir, {"--file-use-existing=on", "cleanup"}));
  EXPECT_EQ(c.exit_code, 0) << Show(c);
  EXPECT_NE(c.out.find("Left 4 test files in place: loadcell did not create them."),
            std::string::npos)
      << c.out;
  EXPECT_EQ(Listing(dir), theirs);
  // With no files there, prepare with the option makes none and says why.
  TempDir empty(BuildTree());
  ProcessResult none = RunLoadcell(FileIoCommand(empty, {"--file-use-existing=on", "prepare"}));
  EXPECT_EQ(none.exit_code, 2) << Show(none);
  EXPECT_EQ(testing::OutputLines(none.err), 1) << none.err;
  EXPECT_NE(none.err.find("does not exist, and prepare writes nothing"), std::string::npos)
      << none.err;
  EXPECT_TRUE(Listing(empty).empty());
}

// sysbench's --file-io-mode=async on buffered files: libaio without
// O_DIRECT, and the header says which engine and what that means. On
// Windows async is iocp, which needs no such note.
TEST(FileIoReuse, AsyncWithoutDirectRunsAsSysbenchDoes) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  for (const std::string mode : {"rndrd", "rndwr"}) {
    ProcessResult r = RunLoadcell(FileIoCommand(
        dir, {"--file-io-mode=async", "--file-test-mode=" + mode, "--events=200", "run"}));
    ASSERT_EQ(r.exit_code, 0) << mode << "\n" << Show(r);
    EXPECT_NE(r.out.find("I/O engine: " + AsyncIoEngineName()), std::string::npos) << r.out;
    EXPECT_EQ(
        r.out.find("--file-io-mode=async without direct, as sysbench runs it") != std::string::npos,
        !LOADCELL_WINDOWS)
        << r.out;
    EXPECT_NE(r.out.find("total number of events:              200"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace loadcell
