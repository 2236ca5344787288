// SQLIO's report ends with the validity verdict after its own output: the
// blog's scenario, a buffered SQLIO read of a file that fits in memory, is
// named INVALID (cache); the unbuffered one is not.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "sqlio_fixture.h"

namespace loadcell {
namespace {

class SqlioVerdict : public testing::SqlioRun {};

TEST_F(SqlioVerdict, ABufferedReadOfAFileInMemoryIsInvalidAfterSqliosOutput) {
  const testing::ProcessResult r = Sqlio({"-kR", "-s1", "-frandom", "-b8", "-BS", "-F" + param_});
  ExpectReport(r);
  const size_t own = r.out.find("CUMULATIVE DATA:");
  const size_t block = r.out.find("\nValidity (");
  ASSERT_NE(block, std::string::npos) << r.out;
  EXPECT_LT(own, block);
  EXPECT_NE(r.out.find("    INVALID cache: buffered reads over 8 MiB of files"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nVerdict: INVALID ("), std::string::npos) << r.out;
}

TEST_F(SqlioVerdict, UnbufferedIsNotACacheFindingAndOffPrintsNone) {
  const testing::ProcessResult r = Sqlio({"-kR", "-s1", "-frandom", "-b8", "-BN", "-F" + param_});
  ExpectReport(r);
  EXPECT_EQ(r.out.find("cache:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nVerdict: "), std::string::npos) << r.out;
  const testing::ProcessResult off =
      Sqlio({"-kR", "-s1", "-frandom", "-b8", "--verdict=off", "-F" + param_});
  ExpectReport(off);
  EXPECT_EQ(off.out.find("Verdict"), std::string::npos) << off.out;
}

// --verdict=strict: SQLIO's INVALID result (a buffered read of a file in
// memory) exits 3 after its full report, saying why on stderr; a result that
// is not INVALID (the same read unbuffered) exits 0.
TEST_F(SqlioVerdict, StrictExitsThreeOnAnInvalidResultAndZeroOtherwise) {
  const testing::ProcessResult bad =
      Sqlio({"-kR", "-s1", "-frandom", "-b8", "-BS", "--verdict=strict", "-F" + param_});
  EXPECT_EQ(bad.exit_code, 3) << bad.err << bad.out;
  EXPECT_NE(bad.out.find("CUMULATIVE DATA:"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("\nVerdict: INVALID ("), std::string::npos) << bad.out;
  EXPECT_NE(bad.err.find("--verdict=strict"), std::string::npos) << bad.err;

  const testing::ProcessResult good =
      Sqlio({"-kR", "-s1", "-frandom", "-b8", "-BN", "--verdict=strict", "-F" + param_});
  ExpectReport(good);
  EXPECT_EQ(good.out.find("\nVerdict: INVALID"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("\nVerdict: valid"), std::string::npos) << good.out;
}

// The cache check of a JSON report, or null.
nlohmann::json BlogCacheCheck(const std::string& json) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded()) return nullptr;
  for (const nlohmann::json& c : j["validity"]["checks"]) {
    if (c["id"] == "cache") return c;
  }
  return nullptr;
}

// The seed blog's scenario through loadcell: sysbench-style fileio, buffered,
// on a file set far smaller than memory, against SQLIO unbuffered on one
// file. The two numbers disagree; each verdict names why: the first was
// served by the page cache (INVALID cache), the second bypassed it.
TEST_F(SqlioVerdict, TheBlogsFileioAndSqlioRunsNameTheCauseOfTheirDisagreement) {
  const std::vector<std::string> fileio = {"fileio", "--file-dir=" + dir_, "--file-num=4",
                                           "--file-total-size=8M", "--file-block-size=8K"};
  std::vector<std::string> prepare = fileio;
  prepare.push_back("prepare");
  ASSERT_EQ(testing::RunLoadcell(prepare).exit_code, 0);
  std::vector<std::string> run = fileio;
  run.insert(run.end(), {"--file-test-mode=rndrd", "--time=1", "--format=json", "run"});
  const testing::ProcessResult buffered = testing::RunLoadcell(run);
  ASSERT_EQ(buffered.exit_code, 0) << buffered.err << buffered.out;
  const nlohmann::json fileio_cache = BlogCacheCheck(buffered.out);
  ASSERT_FALSE(fileio_cache.is_null()) << buffered.out;
  EXPECT_EQ(fileio_cache["level"], "invalid") << fileio_cache.dump();
  EXPECT_NE(fileio_cache["seen"].get<std::string>().find("the page cache may serve them"),
            std::string::npos)
      << fileio_cache.dump();

  const testing::ProcessResult unbuffered =
      Sqlio({"-kR", "-s1", "-frandom", "-b8", "-o8", "-BN", "--format=json", "-F" + param_});
  ASSERT_EQ(unbuffered.exit_code, 0) << unbuffered.err << unbuffered.out;
  const nlohmann::json sqlio_cache = BlogCacheCheck(unbuffered.out);
  ASSERT_FALSE(sqlio_cache.is_null()) << unbuffered.out;
  EXPECT_EQ(sqlio_cache["level"], "pass") << sqlio_cache.dump();
  EXPECT_EQ(sqlio_cache["seen"], "direct I/O: the reads bypass the page cache");
}

}  // namespace
}  // namespace loadcell
