// The unwritten-data check's zero pages through the binary, on every
// platform (docs/validity.md): files sized without data (resize_file:
// ftruncate on Linux, SetEndOfFile on Windows, where a non-sparse file
// reads as zeros past its valid data length) and files written with zeros,
// read with --file-use-existing, show their zero pages; files prepare wrote
// show none.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::ShowVerdictRun;
using testing::TempDir;
using testing::VerdictCheckOf;

// A random read of the 4 files of 1 MiB in `dir` as they are, as JSON.
nlohmann::json ReadExisting(const TempDir& dir) {
  const ProcessResult r =
      RunLoadcell(FileIoCommand(dir, {"--file-use-existing=on", "--file-test-mode=rndrd",
                                      "--events=200", "--format=json", "run"}));
  EXPECT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << ShowVerdictRun(r);
  return j.is_discarded() ? nlohmann::json::object() : j;
}

std::string FilePath(const TempDir& dir, int i) {
  return dir.path() + "/test_file." + std::to_string(i);
}

// Sized without data: every page sampled is zeros. Where the file system
// reports the holes (Linux) the check is invalid on them; where it does not
// (a non-sparse NTFS file past its valid data length) the zero pages warn.
TEST(VerdictZeroPages, FilesSizedWithoutDataReadAsZeroPages) {
  TempDir dir(BuildTree());
  for (int i = 0; i < 4; ++i) {
    { std::ofstream f(FilePath(dir, i), std::ios::binary); }
    std::filesystem::resize_file(FilePath(dir, i), 1 << 20);
  }
  const nlohmann::json j = ReadExisting(dir);
  const nlohmann::json c = VerdictCheckOf(j, "unwritten-data");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["figures"]["sampled_pages"], 64) << c.dump();
  EXPECT_EQ(c["figures"]["zero_pages"], 64) << c.dump();
  // No hole figure: holes not read here; the zero pages judge alone.
  if (c["figures"].value("hole_bytes", 0.0) == 0) {
    EXPECT_EQ(c["level"], "warn") << c.dump();
    EXPECT_NE(c["seen"].get<std::string>().find("64 of 64 pages sampled from the files read hold "
                                                "only zeros"),
              std::string::npos)
        << c.dump();
  } else {
    EXPECT_EQ(c["level"], "invalid") << c.dump();
  }
}

// Zeros written: no hole anywhere, the zero pages warn, naming the files.
TEST(VerdictZeroPages, FilesWrittenWithZerosWarn) {
  TempDir dir(BuildTree());
  const std::string zeros(1 << 20, '\0');
  for (int i = 0; i < 4; ++i) {
    std::ofstream f(FilePath(dir, i), std::ios::binary);
    f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  const nlohmann::json j = ReadExisting(dir);
  const nlohmann::json c = VerdictCheckOf(j, "unwritten-data");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_EQ(c["figures"].value("hole_bytes", 0.0), 0) << c.dump();
  EXPECT_EQ(c["figures"]["zero_pages"], 64) << c.dump();
  const std::string seen = c["seen"].get<std::string>();
  EXPECT_NE(seen.find("test_file.0, "), std::string::npos) << seen;
  EXPECT_NE(seen.find(" and 1 more"), std::string::npos) << seen;
  EXPECT_NE(c["advice"].get<std::string>().find("write the files first"), std::string::npos)
      << c.dump();
}

// The random data prepare writes: pages sampled, none of zeros, passes.
TEST(VerdictZeroPages, FilesPrepareWroteHaveNone) {
  TempDir dir(BuildTree());
  const ProcessResult prep = RunLoadcell(FileIoCommand(dir, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << ShowVerdictRun(prep);
  const nlohmann::json j = ReadExisting(dir);
  const nlohmann::json c = VerdictCheckOf(j, "unwritten-data");
  ASSERT_FALSE(c.is_null()) << j.dump();
  // Passes where the holes are read; where they are not (Wine answers no
  // allocated ranges), the sample alone does not pass it.
  EXPECT_EQ(c["level"], c["figures"].contains("hole_bytes") ? "pass" : "not_checked") << c.dump();
  EXPECT_EQ(c["figures"]["sampled_pages"], 64) << c.dump();
  EXPECT_EQ(c["figures"]["zero_pages"], 0) << c.dump();
}

}  // namespace
}  // namespace loadcell
