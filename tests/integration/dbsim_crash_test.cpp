// `loadcell dbsim --journal` killed mid-run (SIGKILL; TerminateProcess), then
// `--verify-after-crash`: every acknowledged, flushed write is there and
// nothing is reported lost that was not; a page broken afterwards is named.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

constexpr const char* kCrashConfig =
    "[CONFIG]\nTestCycles=1\nTestCycleDuration=60\nNoBuffering=FALSE\nWriteThrough=FALSE\n"
    "[RandomUser]\nUserCount=2\nSleepAfter=0\nRandomUserReadWriteRatio=5000\n"
    "[AuditUser]\nUserCount=1\nAuditDelay=0\n"
    "[ReadAheadUser]\nUserCount=1\nRADelay=10\n"
    "[File1]\nFileName=data.mdx\nInitialSize=4\n"
    "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";

ProcessResult DbsimIn(const TempDir& dir, std::vector<std::string> args, ChildWatch w = {}) {
  args.insert(args.begin(), "dbsim");
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

size_t CountLines(const std::string& text, const std::string& prefix) {
  size_t n = 0;
  for (size_t at = text.find("\n" + prefix); at != std::string::npos;
       at = text.find("\n" + prefix, at + 1)) {
    ++n;
  }
  return n;
}

TEST(DbsimCrash, AfterAKillEveryFlushedWriteIsThere) {
  TempDir dir;
  dir.Write("crash.ini", kCrashConfig);
  ChildWatch kill_it;
  kill_it.marker = "loadcell dbsim:";
  kill_it.delay_ms = 1500;
  kill_it.during = KillChild;
  const ProcessResult run =
      DbsimIn(dir, {"-cfg", "crash.ini", "-dir", ".", "--journal=journal.txt"}, kill_it);
  ASSERT_EQ(run.exit_code, kKilledExitCode) << Show(run);
  const std::string journal = dir.Read("journal.txt");
  // Not vacuous: pages were written and made durable before the kill.
  EXPECT_GT(CountLines(journal, "D 1 "), 10u) << journal.substr(0, 500);
  EXPECT_GT(CountLines(journal, "I 1 "), 10u);

  const std::vector<std::string> verify = {
      "-cfg", "crash.ini", "-dir", ".", "--journal=journal.txt", "--verify-after-crash"};
  const ProcessResult checked = DbsimIn(dir, verify);
  EXPECT_EQ(checked.exit_code, 0) << Show(checked);
  EXPECT_NE(checked.out.find("512 pages of 1 data file"), std::string::npos) << checked.out;
  EXPECT_NE(checked.out.find("acknowledged, flushed writes lost: 0"), std::string::npos)
      << checked.out;
  EXPECT_NE(checked.out.find("Result: every acknowledged, flushed write survived"),
            std::string::npos)
      << checked.out;

  // A page zeroed and a byte changed afterwards: both named, exit 1.
  {
    std::fstream data(dir / "data.mdx", std::ios::in | std::ios::out | std::ios::binary);
    data.seekp(7 * 8192);
    const std::string zeros(8192, '\0');
    data.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
    data.seekp(9 * 8192 + 3000);
    data.put('X');
  }
  const ProcessResult broken = DbsimIn(dir, verify);
  EXPECT_EQ(broken.exit_code, 1) << Show(broken);
  EXPECT_NE(broken.out.find("zeroed page: 1"), std::string::npos) << broken.out;
  EXPECT_NE(broken.out.find("checksum failure: file 1 page 9"), std::string::npos) << broken.out;
}

// Real corruption made outside while the run goes on (as `dd` would):
// one byte changed in the middle of a page, found by the readers and named
// a checksum failure; the run exits 1. Few updates (1%) and no bulk
// update user, so that the audit reads the page long before a later write
// replaces it.
TEST(DbsimCrash, AByteChangedFromOutsideDuringTheRunIsAChecksumFailure) {
  TempDir dir;
  std::string config = kCrashConfig;
  config.replace(config.find("TestCycleDuration=60"), 20, "TestCycleDuration=3");
  config.replace(config.find("RandomUserReadWriteRatio=5000"), 29, "RandomUserReadWriteRatio=9900");
  // No bulk update user either: its runs of new versions would replace it.
  config += "[BulkUpdateUser]\nUserCount=0\n";
  dir.Write("outside.ini", config);
  ChildWatch corrupt;
  corrupt.marker = "loadcell dbsim:";
  corrupt.delay_ms = 1000;
  const std::string data = dir / "data.mdx";
  corrupt.during = [data](int) {
    std::fstream f(data, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(100 * 8192 + 5000);
    const int byte = f.get();
    f.seekp(100 * 8192 + 5000);
    f.put(static_cast<char>(byte ^ 0x10));
  };
  const ProcessResult r = DbsimIn(dir, {"-cfg", "outside.ini", "-dir", "."}, corrupt);
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.out.find("checksum failure: file 1 page 100"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 bytes differ from the version the header names"), std::string::npos)
      << r.out;
}

TEST(DbsimCrash, TheJournalMustBeAFileOfItsOwn) {
  TempDir dir;
  dir.Write("crash.ini", kCrashConfig);
  const ProcessResult same =
      DbsimIn(dir, {"-cfg", "crash.ini", "-dir", ".", "--journal=./data.mdx"});
  EXPECT_EQ(same.exit_code, 2) << Show(same);
  EXPECT_NE(same.err.find("is the file [File1] names"), std::string::npos) << same.err;
  dir.Write("notes.txt", "the user's notes\n");
  const ProcessResult foreign =
      DbsimIn(dir, {"-cfg", "crash.ini", "-dir", ".", "--journal=notes.txt"});
  EXPECT_EQ(foreign.exit_code, 2) << Show(foreign);
  EXPECT_EQ(dir.Read("notes.txt"), "the user's notes\n");
  EXPECT_FALSE(std::ifstream(dir / "data.mdx").good());  // nothing made
}

}  // namespace
}  // namespace loadcell::testing
