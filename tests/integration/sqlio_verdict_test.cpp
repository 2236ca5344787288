// SQLIO's report ends with the validity verdict after its own output: the
// blog's scenario, a buffered SQLIO read of a file that fits in memory, is
// named INVALID (cache); the unbuffered one is not.

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace loadcell
