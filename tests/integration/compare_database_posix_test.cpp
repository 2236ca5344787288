// `loadcell compare` of OLTP runs on SQLite through the real binary: the
// database's cache, as the verdict's `database` check records it, is the
// same for two runs on one host (comparable), and a run saved with
// --verdict=off does not record it ("not recorded", not a difference).

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
using testing::TempDir;

std::vector<std::string> SqliteOltp(const TempDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"oltp_read_only", "--sqlite-db=" + (dir / "s.db"),
                                   "--table-size=1000"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CompareDatabase, TheCacheOfTwoRunsOnOneHostIsTheSameAndUnjudgedIsNotRecorded) {
  TempDir dir;
  ProcessResult r = RunLoadcell(SqliteOltp(dir, {"prepare"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  for (const char* name : {"a", "b"}) {
    r = RunLoadcell(
        SqliteOltp(dir, {"--events=100", "--format=json",
                         "--output-file=" + (dir / (std::string(name) + ".json")), "run"}));
    ASSERT_EQ(r.exit_code, 0) << Show(r);
  }
  r = RunLoadcell(SqliteOltp(dir, {"--events=100", "--verdict=off", "--format=json",
                                   "--output-file=" + (dir / "c.json"), "run"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  r = RunLoadcell({"compare", dir / "a.json", dir / "b.json", dir / "c.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: comparable\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  C: comparable; not recorded: database cache\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  C (" + (dir / "c.json") + "): not judged\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; not judged: C\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace loadcell
