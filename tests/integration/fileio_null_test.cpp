// fileio --file-io-mode=null through the real binary: exact event counts
// at several depths and thread counts, the report naming the engine, no
// file touched, and the cases it refuses.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::TempDir;

TEST(FileIoNullBinary, CountsExactlyTheEventsAskedAndSaysNull) {
  TempDir dir;
  for (const std::string depth : {"1", "32"}) {
    for (const std::string threads : {"1", "2"}) {
      const std::string what = fmt::format("QD{} threads {}", depth, threads);
      ProcessResult r = RunLoadcell(FileIoCommand(
          dir.path(),
          {"--file-test-mode=rndrd", "--file-io-mode=null", "--file-queue-depth=" + depth,
           "--threads=" + threads, "--events=12345", "--time=0", "run"}));
      ASSERT_EQ(r.exit_code, 0) << what << "\n" << r.err << r.out;
      EXPECT_NE(r.out.find("total number of events:              12345\n"), std::string::npos)
          << what << "\n"
          << r.out;
      EXPECT_NE(r.out.find("I/O engine: null, queue depth " + depth), std::string::npos)
          << what << "\n"
          << r.out;
      EXPECT_NE(r.out.find("engine=null: no file is read or written"), std::string::npos) << r.out;
      EXPECT_TRUE(dir.IsEmpty()) << what;
    }
  }
}

TEST(FileIoNullBinary, JsonCountsEveryRequestAndTheEngine) {
  TempDir dir;
  ProcessResult r = RunLoadcell(FileIoCommand(
      dir.path(), {"--file-test-mode=rndrw", "--file-io-mode=null", "--file-queue-depth=4",
                   "--file-fsync-freq=0", "--events=1000", "--time=0", "--format=json", "run"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), 1000u);
  EXPECT_NE(r.out.find("\"null"), std::string::npos) << r.out;
  EXPECT_TRUE(dir.IsEmpty());
}

TEST(FileIoNullBinary, PrepareCreatesNothingAndValidateIsBadUsage) {
  TempDir dir;
  ProcessResult prep = RunLoadcell(FileIoCommand(dir.path(), {"--file-io-mode=null", "prepare"}));
  EXPECT_EQ(prep.exit_code, 0) << prep.err;
  EXPECT_NE(prep.out.find("nothing to prepare"), std::string::npos) << prep.out;
  EXPECT_TRUE(dir.IsEmpty());
  ProcessResult v = RunLoadcell(FileIoCommand(
      dir.path(), {"--file-test-mode=rndrd", "--file-io-mode=null", "--validate", "run"}));
  EXPECT_EQ(v.exit_code, 2) << v.out << v.err;
  EXPECT_NE(v.err.find("--file-io-mode=null"), std::string::npos) << v.err;
  EXPECT_EQ(testing::OutputLines(v.err), 1) << v.err;
}

}  // namespace
}  // namespace loadcell
