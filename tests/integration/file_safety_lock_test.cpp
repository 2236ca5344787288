// The test folder through the real binary, continued (file_safety_test.cpp
// has links, forgeries and replaced files): the folder lock against a live
// holder, a second loadcell and a killed one; an empty or linked --file-dir
// and files smaller than one block; SQLIO's links and its incomplete file.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "integration/file_safety_fixture.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::file_safety {
namespace {

// ---- The folder lock ----

TEST_F(FileSafety, ASecondCommandOnALockedFolderSaysWhoHoldsIt) {
  Prepare();
  // Another loadcell holds the lock (played by this process).
  const int fd = ::open(In(kLock).c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const std::string holder = "pid " + std::to_string(::getpid()) + " loadcell fileio prepare\n";
  ASSERT_EQ(::write(fd, holder.data(), holder.size()), static_cast<ssize_t>(holder.size()));
  const std::vector<std::vector<std::string>> commands = {
      {"prepare"},
      {"--file-test-mode=rndwr", "--events=100", "run"},
      {"--file-test-mode=seqwr", "--events=100", "run"},
      {"cleanup"},
  };
  for (const auto& command : commands) {
    SCOPED_TRACE(command.back());
    ProcessResult r = Fileio(command);
    ExpectRefused(r, "is in use by another loadcell (pid " + std::to_string(::getpid()) +
                         " loadcell fileio prepare)");
  }
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(Exists(In("test_file." + std::to_string(i))));
  EXPECT_TRUE(Exists(In(kManifest)));
  ::close(fd);
  // Let go: the same commands go through, and leave no lock behind.
  ProcessResult run = Fileio({"--file-test-mode=rndwr", "--events=100", "run"});
  EXPECT_EQ(run.exit_code, 0) << Show(run);
  ProcessResult clean = Fileio({"cleanup"});
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(Exists(In(kLock)));
  EXPECT_FALSE(Exists(In(kManifest)));
}

TEST_F(FileSafety, TwoLoadcellsOnOneFolder) {
  // A second prepare while the first writes its files; then the first is
  // interrupted, and its complete files stay listed.
  ProcessResult second;
  testing::ChildWatch watch;
  watch.marker = "Creating files for the test";
  watch.during = [&](int pid) {
    second = Fileio({"prepare"});
    kill(pid, SIGINT);
  };
  ProcessResult first = RunLoadcell(
      {"fileio", "--file-dir=" + Dir(), "--file-num=4", "--file-total-size=400M", "prepare"},
      watch);
  EXPECT_EQ(first.exit_code, 130) << Show(first);
  ExpectRefused(second, "is in use by another loadcell (pid ");
  EXPECT_NE(second.err.find(" loadcell fileio prepare)"), std::string::npos) << second.err;
  EXPECT_FALSE(Exists(In(kLock)));
  ProcessResult clean = Fileio({"cleanup"});
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_TRUE(std::filesystem::is_empty(Dir()));
}

TEST_F(FileSafety, WhatAKilledLoadcellLeftIsTakenOverAndCleanedUp) {
  // A loadcell killed mid-prepare leaves its lock file; the kernel dropped
  // its lock when it died.
  std::ofstream(In(kLock)) << "pid 999999 loadcell fileio prepare\n";
  Prepare();
  EXPECT_FALSE(Exists(In(kLock)));
  // One killed while it wrote the manifest leaves the temporary.
  std::ofstream(In(kTmp)) << "version 2\nfile test_";
  ProcessResult clean = Fileio({"cleanup"});
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_TRUE(std::filesystem::is_empty(Dir()));
}

// ---- Bad folder and size options ----

TEST_F(FileSafety, EmptyOrLinkedFolderAndFilesSmallerThanABlockAreUsageErrors) {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{"fileio", "--file-dir=", "prepare"}, "--file-dir=: empty"},
      {{"fileio", "--file-dir=", "--file-test-mode=rndrd", "run"}, "--file-dir=: empty"},
      {{"fileio", "--file-dir=", "cleanup"}, "--file-dir=: empty"},
      {{"fileio", "--file-dir=" + Dir(), "--file-num=8", "--file-total-size=16K",
        "--file-block-size=4K", "prepare"},
       "--file-total-size=16K over --file-num=8 files gives files of 2048 bytes, smaller than "
       "one block (--file-block-size=4K)"},
      {{"fileio", "--file-dir=" + Dir(), "--file-num=3", "--file-total-size=1M",
        "--file-block-size=512K", "--file-test-mode=rndrd", "run"},
       "gives files of 349525 bytes, smaller than one block (--file-block-size=512K)"},
      {{"fileio", "--file-dir=" + Dir(), "--file-total-size=2K", "--file-block-size=4K", "prepare"},
       "--file-total-size=2K: smaller than one block (--file-block-size=4K)"},
      {{"fileio", "--file-dir=" + home_.File("link"), "prepare"},
       "' is a symbolic link: give the folder itself, not a link to it"},
  };
  ASSERT_EQ(::symlink(Dir().c_str(), home_.File("link").c_str()), 0);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args.back() + " " + c.says);
    ProcessResult r = RunLoadcell(c.args);
    ExpectRefused(r, c.says);
    EXPECT_TRUE(std::filesystem::is_empty(Dir()));
  }
}

// ---- SQLIO's files ----

// `loadcell sqlio` on the test folder (drive C:), one 1 MB file.
ProcessResult Sqlio(const FileSafety& t, const std::string& mode) {
  const std::string param = t.home_.Write("param.txt", "c:\\testfile.dat 1 0x0 1\n");
  return RunLoadcell(
      {"sqlio", "--drive=C=" + t.Dir(), "--quiet", mode, "-s1", "-b8", "-BY", "-F" + param});
}

TEST_F(FileSafety, SqlioNeverFollowsALinkToItsFileOrManifest) {
  struct Case {
    const char* name;
    const char* entry;
    bool dangling;
    const char* mode;
  };
  const Case cases[] = {
      {"test file a link to the user's file, writes", "testfile.dat", false, "-kW"},
      {"test file a link to the user's file, reads", "testfile.dat", false, "-kR"},
      {"test file a dangling link (created through it before)", "testfile.dat", true, "-kW"},
      {"manifest a link to the user's file, file created", ".loadcell-sqlio.manifest", false,
       "-kW"},
      {"manifest a dangling link, file created", ".loadcell-sqlio.manifest", true, "-kR"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::filesystem::remove_all(Dir());
    ASSERT_EQ(::mkdir(Dir().c_str(), 0755), 0);
    const std::string dangling = home_.File("nothing-here");
    ASSERT_EQ(::symlink((c.dangling ? dangling : user_).c_str(), In(c.entry).c_str()), 0);
    ProcessResult r = Sqlio(*this, c.mode);
    EXPECT_EQ(r.exit_code, 2) << Show(r);
    std::string says = "'";
    says.append(In(c.entry)).append("' is a symbolic link");
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_TRUE(std::filesystem::is_symlink(In(c.entry)));
    EXPECT_FALSE(Exists(dangling));
    ExpectUserFileUnchanged();
    if (std::string(c.entry) != "testfile.dat") {
      EXPECT_FALSE(Exists(In("testfile.dat"))) << "the file made for the run was left behind";
    }
  }
}

TEST_F(FileSafety, SqlioRecordsAFileOnlyOnceItIsWhole) {
  const std::string param = home_.Write("param.txt", "c:\\big.dat 1 0x0 1000\n");
  // Interrupted while it creates the file: the file is removed, and the
  // manifest never named it as created.
  ProcessResult r =
      RunLoadcell({"sqlio", "--drive=C=" + Dir(), "-kW", "-s1", "-b8", "-BY", "-F" + param}, 20, 60,
                  "creating file c:\\big.dat");
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  EXPECT_NE(r.err.find("the partial file was removed"), std::string::npos) << r.err;
  EXPECT_FALSE(Exists(In("big.dat")));
  EXPECT_EQ(testing::ReadFile(In(".loadcell-sqlio.manifest")).find("created big.dat"),
            std::string::npos);
  // Created whole: now it is listed.
  ProcessResult whole = Sqlio(*this, "-kR");
  EXPECT_EQ(whole.exit_code, 0) << Show(whole);
  EXPECT_NE(testing::ReadFile(In(".loadcell-sqlio.manifest")).find("created testfile.dat 1048576"),
            std::string::npos);
}

}  // namespace
}  // namespace loadcell::file_safety
