// fileio --validate-full through the binary (docs/fileio.md): every read
// buffer stamped before its read and every block held to a full stamp. On
// files prepared with full stamps it reads every block clean; a block a
// run without --validate rewrote (a light stamp: a changed byte inside it
// cannot be seen) passes --validate but fails --validate-full, named; a
// byte changed mid-sector is caught; the null engine refuses it.

#include <gtest/gtest.h>

#include <fstream>
#include <string>

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

TEST(FileIoValidateFull, PreparedFilesReadCleanAndALightStampFails) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  // 1024 blocks of 4 KiB: a sequential pass reads every one.
  ProcessResult clean = RunLoadcell(
      FileIoCommand(dir, {"--validate-full", "--file-test-mode=seqrd", "--events=1024", "run"}));
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_NE(clean.out.find("total number of events:              1024"), std::string::npos)
      << clean.out;
  // A writing run without --validate leaves light stamps.
  ProcessResult w =
      RunLoadcell(FileIoCommand(dir, {"--file-test-mode=rndwr", "--events=200", "run"}));
  ASSERT_EQ(w.exit_code, 0) << Show(w);
  ProcessResult light = RunLoadcell(
      FileIoCommand(dir, {"--validate", "--file-test-mode=seqrd", "--events=1024", "run"}));
  EXPECT_EQ(light.exit_code, 0) << Show(light);
  ProcessResult full = RunLoadcell(
      FileIoCommand(dir, {"--validate-full", "--file-test-mode=seqrd", "--events=1024", "run"}));
  EXPECT_EQ(full.exit_code, 1) << Show(full);
  EXPECT_NE(full.err.find("a light stamp (write #"), std::string::npos) << full.err;
  EXPECT_NE(full.err.find("needs every block written with a full stamp"), std::string::npos)
      << full.err;
}

TEST(FileIoValidateFull, AByteChangedMidSectorIsCaught) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  // A validating writer keeps full stamps; then a byte changes behind its back.
  ProcessResult ok = RunLoadcell(
      FileIoCommand(dir, {"--validate-full", "--file-test-mode=rndrw", "--events=500", "run"}));
  ASSERT_EQ(ok.exit_code, 0) << Show(ok);
  {
    std::fstream f(dir.File("test_file.1"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(5 * 4096 + 700);  // inside the block's second sector, not its first word
    const char byte = static_cast<char>(f.peek() ^ 0x10);
    f.put(byte);
  }
  ProcessResult bad = RunLoadcell(
      FileIoCommand(dir, {"--validate-full", "--file-test-mode=seqrd", "--events=1024", "run"}));
  EXPECT_EQ(bad.exit_code, 1) << Show(bad);
  EXPECT_NE(bad.err.find("test_file.1 at offset 20480"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("checksum mismatch"), std::string::npos) << bad.err;
}

TEST(FileIoValidateFull, TheNullEngineRefusesIt) {
  TempDir dir;
  ProcessResult r = RunLoadcell(FileIoCommand(
      dir.path(), {"--file-test-mode=rndrd", "--file-io-mode=null", "--validate-full", "run"}));
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("--validate-full checks what the files hold"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loadcell
