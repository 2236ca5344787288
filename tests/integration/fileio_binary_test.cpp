// fileio through the real binary in a temp directory: every mode with every
// engine, validation, cleanup, and the bad-input table (one line, exit 2,
// nothing of the user's deleted).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/build_features.h"
#include "io/io_engine.h"
#include "os/file_system.h"
#include "os/open_flags.h"
#include "testing/fileio_test_util.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;

using testing::TempDir;

// O_DIRECT is FILE_FLAG_NO_BUFFERING on Windows.
bool SupportsDirect(const std::string& dir) {
  const std::string probe = dir + "/.direct-probe";
  FileSystem& fs = DefaultFileSystem();
  Result<int> fd = fs.Open(probe, O_CREAT | O_RDWR | O_DIRECT, 0644);
  if (fd.ok()) (void)fs.Close(*fd);
  (void)fs.Unlink(probe);
  return fd.ok();
}

std::string Field(const std::string& out, const std::string& label) {
  size_t at = out.find(label);
  if (at == std::string::npos) return "";
  at += label.size();
  while (at < out.size() && out[at] == ' ') ++at;
  size_t end = out.find('\n', at);
  return out.substr(at, end - at);
}

TEST(FileIoBinary, EveryModeWithEveryEngine) {
  TempDir dir(BuildTree());
  const bool direct = SupportsDirect(dir.path());
  ProcessResult prep = RunLoadcell(FileIoCommand(dir, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << prep.err;
  struct Engine {
    std::string name;
    std::vector<std::string> flags;
  };
  // Every engine this build has (io_uring and libaio on Linux, iocp on
  // Windows).
  std::vector<Engine> engines;
  for (const Engine& e : std::vector<Engine>{
           {"sync", {}},
           {"mmap", {}},
           {"io_uring", {"--file-queue-depth=8"}},
           {"io_uring", {"--file-queue-depth=8", "--file-extra-flags=direct"}},
           {"sync", {"--file-extra-flags=direct"}},
           {"libaio", {"--file-queue-depth=8", "--file-extra-flags=direct"}},
           {"iocp", {"--file-queue-depth=8"}},
           {"iocp", {"--file-queue-depth=8", "--file-extra-flags=direct"}},
       }) {
    if (CheckIoEngine(e.name, "").ok()) engines.push_back(e);
  }
  ASSERT_GE(engines.size(), 5u);
  // seqwr re-creates the files, so it runs last (and needs no prepare).
  const std::vector<std::string> modes = {"seqrd", "rndrd", "rndwr", "rndrw", "seqrewr", "seqwr"};
  for (const std::string& mode : modes) {
    for (const Engine& e : engines) {
      const bool wants_direct =
          std::find(e.flags.begin(), e.flags.end(), "--file-extra-flags=direct") != e.flags.end();
      if (wants_direct && !direct) continue;
      std::vector<std::string> extra = {"--file-test-mode=" + mode, "--file-io-mode=" + e.name,
                                        "--events=200", "--file-fsync-freq=50", "run"};
      extra.insert(extra.begin(), e.flags.begin(), e.flags.end());
      const std::string what = mode + " " + e.name + (wants_direct ? " direct" : "");
      ProcessResult r = RunLoadcell(FileIoCommand(dir, extra));
      ASSERT_EQ(r.exit_code, 0) << what << "\n" << r.err << r.out;
      EXPECT_EQ(Field(r.out, "total number of events:"), "200") << what;
      const double reads = std::atof(Field(r.out, "reads/s:").c_str());
      const double writes = std::atof(Field(r.out, "writes/s:").c_str());
      const bool reading = mode == "seqrd" || mode == "rndrd" || mode == "rndrw";
      const bool writing = mode != "seqrd" && mode != "rndrd";
      EXPECT_EQ(reads > 0, reading) << what << "\n" << r.out;
      EXPECT_EQ(writes > 0, writing) << what << "\n" << r.out;
      if (writing) {
        EXPECT_GT(std::atof(Field(r.out, "fsyncs/s:").c_str()), 0) << what;
      }
      // A latency block per kind that had events; the others on one line.
      EXPECT_EQ(r.out.find("Latency of read (ms):") != std::string::npos, reading) << what;
      EXPECT_EQ(r.out.find("Latency of write (ms):") != std::string::npos, writing) << what;
      EXPECT_EQ(r.out.find("Latency of fsync (ms):") != std::string::npos, writing) << what;
      const std::string none = !writing   ? "\nNo write or fsync events.\n"
                               : !reading ? "\nNo read events.\n"
                                          : "";
      if (none.empty()) {
        EXPECT_EQ(r.out.find(" events.\n"), std::string::npos) << what << "\n" << r.out;
      } else {
        EXPECT_NE(r.out.find(none), std::string::npos) << what << "\n" << r.out;
      }
    }
  }
  ProcessResult clean = RunLoadcell(FileIoCommand(dir, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
}

TEST(FileIoBinary, PrepareShowsProgressUnlessQuiet) {
  TempDir dir(BuildTree());
  ProcessResult loud = RunLoadcell(FileIoCommand(dir, {"prepare"}));
  ASSERT_EQ(loud.exit_code, 0) << loud.err;
  EXPECT_NE(loud.err.find("prepare: 100%"), std::string::npos) << loud.err;
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"cleanup"})).exit_code, 0);
  ProcessResult quiet = RunLoadcell(FileIoCommand(dir, {"--quiet", "prepare"}));
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("prepare:"), std::string::npos) << quiet.err;
}

TEST(FileIoBinary, IntervalLinesHaveSysbenchsShape) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  ProcessResult r = RunLoadcell(
      FileIoCommand(dir, {"--file-test-mode=rndrw", "--time=1.2", "--report-interval=1", "run"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("[ 1s ] reads: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  EXPECT_NE(line.find(" MiB/s writes: "), std::string::npos) << line;
  EXPECT_NE(line.find(" MiB/s fsyncs: "), std::string::npos) << line;
  EXPECT_NE(line.find("/s latency (ms,95%): "), std::string::npos) << line;
}

TEST(FileIoBinary, ValidationCatchesCorruptionBehindItsBack) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"--validate", "prepare"})).exit_code, 0);
  ProcessResult ok = RunLoadcell(FileIoCommand(
      dir, {"--validate", "--file-test-mode=rndrw", "--threads=2", "--events=2000", "run"}));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  {
    std::fstream f(dir.File("test_file.3"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(7 * 4096 + 1234);
    f.put('\x01');
    f.put('\x02');
  }
  ProcessResult bad = RunLoadcell(
      FileIoCommand(dir, {"--validate", "--file-test-mode=seqrd", "--events=1000", "run"}));
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.err.find("test_file.3 at offset 28672"), std::string::npos) << bad.err;
  EXPECT_NE(bad.out.find("General statistics:"), std::string::npos) << "no report";
}

TEST(FileIoBinary, CleanupRemovesOnlyLoadcellsFiles) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  { std::ofstream(dir.File("user.dat")) << "keep me"; }
  { std::ofstream(dir.File("test_file.4")) << "not loadcell's"; }
  ProcessResult r = RunLoadcell(FileIoCommand(dir, {"cleanup"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    left.push_back(e.path().filename().string());
  }
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"test_file.4", "user.dat"}));
}

// A run whose files are not ready is a failed run, not a usage error: exit 1
// (as sysbench's), one line saying what to do, nothing written or made.
TEST(FileIoBinary, RunWithoutFilesOrWithFilesOfAnotherSizeExitsOne) {
  TempDir dir(BuildTree());
  const std::vector<std::string> files = {"fileio", "--file-dir=" + dir.path(), "--file-num=2",
                                          "--file-block-size=4K"};
  ProcessResult r = RunLoadcell(
      testing::Concat(files, {"--file-total-size=1M", "--file-test-mode=rndrd", "run"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("prepare' first"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.IsEmpty());

  ASSERT_EQ(RunLoadcell(testing::Concat(files, {"--file-total-size=1M", "prepare"})).exit_code, 0);
  // Files shorter than the run expects: said, not re-created.
  r = RunLoadcell(
      testing::Concat(files, {"--file-total-size=2M", "--file-test-mode=rndrd", "run"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("has size 524288, expected 1048576"), std::string::npos) << r.err;
  EXPECT_EQ(std::filesystem::file_size(dir.File("test_file.0")), 524288u);

  // One of the prepared files removed since.
  std::filesystem::remove(dir.File("test_file.1"));
  r = RunLoadcell(
      testing::Concat(files, {"--file-total-size=1M", "--file-test-mode=rndwr", "run"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("test_file.1' does not exist"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("test_file.1")));
}

TEST(FileIoBinary, BadInputIsOneLineAndExitTwo) {
  TempDir dir(BuildTree());
  const std::string missing = dir.File("no-such-dir");
  struct Case {
    std::string what;
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"block size 0", {"--file-block-size=0", "prepare"}, "--file-block-size"},
      {"block not 512-aligned with direct",
       {"--file-block-size=1000", "--file-extra-flags=direct", "--file-test-mode=rndrd", "run"},
       "multiple of 512"},
      {"total smaller than a block", {"--file-total-size=1K", "prepare"}, "smaller than one block"},
      {"zero files", {"--file-num=0", "prepare"}, "--file-num"},
      {"unknown mode", {"--file-test-mode=rndfoo", "run"}, "--file-test-mode"},
      {"unknown flag", {"--file-extra-flags=odirect", "run"}, "--file-extra-flags"},
      {"unknown engine", {"--file-io-mode=posix", "run"}, "--file-io-mode"},
      {"the other platform's engine",
       {LOADCELL_WINDOWS ? "--file-io-mode=io_uring" : "--file-io-mode=iocp", "run"},
       LOADCELL_WINDOWS ? "io_uring is a Linux engine" : "iocp is a Windows engine"},
      {"dir missing", {"--file-dir=" + missing, "prepare"}, "no such directory"},
      {"dir is a file", {"--file-dir=" + dir.File("user.dat"), "prepare"}, "not a directory"},
      {"libaio without direct (on Windows: libaio)",
       {"--file-io-mode=libaio", "--file-test-mode=rndrd", "run"},
       LOADCELL_WINDOWS ? "libaio is a Linux engine" : "direct"},
      {"no mode for run", {"run"}, "--file-test-mode"},
  };
  { std::ofstream(dir.File("user.dat")) << "keep me"; }
  for (const Case& c : cases) {
    std::vector<std::string> args = {"fileio", "--file-dir=" + dir.path(), "--file-num=2",
                                     "--file-total-size=1M", "--file-block-size=4K"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ProcessResult r = RunLoadcell(args);
    EXPECT_EQ(r.exit_code, 2) << c.what << "\n" << r.err;
    EXPECT_EQ(testing::OutputLines(r.err), 1) << c.what << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.what << "\n" << r.err;
    EXPECT_TRUE(std::filesystem::exists(dir.File("user.dat"))) << c.what;
  }

  // A file loadcell did not create is never overwritten.
  { std::ofstream(dir.File("test_file.1")) << "user data"; }
  ProcessResult r = RunLoadcell(
      {"fileio", "--file-dir=" + dir.path(), "--file-num=2", "--file-total-size=1M", "prepare"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not created by loadcell"), std::string::npos) << r.err;
  EXPECT_EQ(std::filesystem::file_size(dir.File("test_file.1")), 9u);
  EXPECT_TRUE(std::filesystem::exists(dir.File("user.dat")));
}

// The warm-up takes no event of --events, on a synchronous and on an
// asynchronous engine.
TEST(FileIoBinary, WarmupLeavesTheEventLimitWhole) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  for (const std::string& engine : {std::string("sync"), testing::BufferedAsyncEngine()}) {
    for (const std::string threads : {"1", "3"}) {
      ProcessResult r = RunLoadcell(
          FileIoCommand(dir, {"--file-test-mode=rndrw", "--events=100", "--warmup-time=0.2",
                              "--file-io-mode=" + engine, "--file-queue-depth=4",
                              "--threads=" + threads, "--format=json", "run"}));
      ASSERT_EQ(r.exit_code, 0) << engine << r.err;
      nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
      ASSERT_FALSE(doc.is_discarded()) << r.out;
      EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), 100u) << engine << threads;
    }
  }
}

}  // namespace
}  // namespace loadcell
