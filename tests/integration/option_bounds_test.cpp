// Option values beyond their bounds through the binary: every time, rate,
// size and count option refuses a value past its range (no overflow, no
// endless run) with one line naming the option and the range, exit 2, and
// nothing created; --config-file and SQLIO's -F take only a regular file
// of at most 1M.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

class OptionBounds : public ::testing::Test {
 protected:
  // Runs `args` and checks the contract; returns stderr.
  std::string ExpectUsageError(const std::vector<std::string>& args) {
    testing::ProcessResult r = testing::RunLoadcell(args, -1, 20);
    EXPECT_EQ(r.exit_code, 2) << testing::Show(r);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("loadcell: error: ", 0), 0u) << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(work_.path())) << "files created by " << args[0];
    return r.err;
  }
  // `fileio prepare` in an empty folder with `option`: it would create the
  // test files if the option were taken.
  std::string FileioPrepare(const std::string& option) {
    return ExpectUsageError({"fileio", "--file-dir=" + work_.path(), "--file-test-mode=seqwr",
                             "--file-num=1", "--file-total-size=16K", option, "prepare"});
  }
  testing::TempDir work_;
  testing::TempDir files_;
};

struct Case {
  std::string workload;  // "fileio" runs `fileio prepare`, others `WORKLOAD run`
  std::string option;
  std::string range;  // expected in the message
};

TEST_F(OptionBounds, ValuesPastTheirRangeAreRefusedWithTheRange) {
  const std::vector<Case> cases = {
      // time
      {"fileio", "--time=1e10", "--time=1e10: must be between 0s and 1000000000s"},
      {"fileio", "--max-time=3000000000", "--max-time=3000000000: must be between 0s and "},
      {"fileio", "--warmup-time=1e300", "--warmup-time=1e300: must be between 0s and 1000000000s"},
      {"fileio", "--report-interval=99999999999h", "must be between 0s and 1000000000s"},
      {"fileio", "--forced-shutdown=1e12",
       "--forced-shutdown=1e12: use 'off', a number of seconds"},
      {"fileio", "--report-checkpoints=5,1e10", "at most 1000000000"},
      // rate
      {"fileio", "--rate=1e-10", "--rate=1e-10: must be 0 (no limit) or between 0.001 and "},
      {"fileio", "--rate=1e10", "--rate=1e10: must be 0 (no limit) or between 0.001 and "},
      {"fileio", "--tx-rate=1e400", "--tx-rate=1e400: must be 0 (no limit) or between 0.001 and "},
      // size
      {"fileio", "--file-total-size=99999999999999999999", "must be between 0 and 1024T"},
      {"fileio", "--file-block-size=2000T", "--file-block-size=2000T: must be between"},
      {"fileio", "--thread-stack-size=16383T", "must be between 0 and 1024T"},
      {"memory", "--memory-total-size=1025T",
       "--memory-total-size=1025T: must be between 0 and 1024T"},
      {"memory", "--memory-block-size=99999999999999999999", "must be between 8 and 1024T"},
      // count
      {"fileio", "--events=1000000000000001",
       "--events=1000000000000001: must be between 0 and 1e+15"},
      {"fileio", "--threads=99999999999999999999", "must be between 1 and 100000"},
      {"fileio", "--file-num=9223372036854775807", "must be between"},
      {"fileio", "--file-fsync-freq=-99999999999999999999", "must be between"},
      {"fileio", "--rand-seed=8000000000000000G",
       "--rand-seed=8000000000000000G: must be between 0 and 1e+15"},
      {"cpu", "--cpu-max-prime=99999999999999999999",
       "--cpu-max-prime=99999999999999999999: must be between"},
      {"mutex", "--mutex-locks=1000000000000001", "must be between 1 and 1e+15"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.option);
    const std::string err = c.workload == "fileio"
                                ? FileioPrepare(c.option)
                                : ExpectUsageError({c.workload, c.option, "--time=1", "run"});
    EXPECT_NE(err.find(c.range), std::string::npos) << err;
  }
}

TEST_F(OptionBounds, ConfigFileMustBeARegularFileOfAtMostOneMebibyte) {
  const std::string fifo = files_.File("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string big = files_.Write("big.cfg", std::string(2 << 20, '#'));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/dev/zero", "not a regular file"},
      {files_.path(), "not a regular file"},
      {fifo, "not a regular file"},
      {big, "larger than 1M"},
  };
  for (const auto& [path, why] : cases) {
    SCOPED_TRACE(path);
    EXPECT_NE(FileioPrepare("--config-file=" + path).find("--config-file=" + path + ": " + why),
              std::string::npos);
    EXPECT_NE(ExpectUsageError({"sqlio", "-kW", "-F" + path}).find("-F" + path + ": " + why),
              std::string::npos);
  }
}

// --pgsql-ignore-errors / --mysql-ignore-errors items that are no error code
// (once taken and matching nothing) are refused, naming what is valid.
TEST_F(OptionBounds, IgnoreErrorsItemsThatAreNoErrorCodesAreRefused) {
  struct Row {
    const char* option;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"--pgsql-ignore-errors=4000",
       "--pgsql-ignore-errors: item '4000': not a five-character SQLSTATE (23505, 40P01), 'all' "
       "or 'none'; PostgreSQL has no error numbers"},
      {"--pgsql-ignore-errors=40P01,1062", "item '1062': not a five-character SQLSTATE"},
      {"--pgsql-ignore-errors=deadlock", "item 'deadlock': not a five-character SQLSTATE"},
      {"--mysql-ignore-errors=0",
       "--mysql-ignore-errors: item '0': not an error number (1 to 999999999), a "
       "five-character SQLSTATE (23000, HY000), 'all' or 'none'"},
      {"--mysql-ignore-errors=1213,12345678901", "item '12345678901': not an error number"},
      {"--mysql-ignore-errors=1213,HY0001", "item 'HY0001': not an error number"},
  };
  for (const Row& row : rows) {
    const std::string driver = std::string(row.option).find("pgsql") != std::string::npos
                                   ? "--db-driver=pgsql"
                                   : "--db-driver=mysql";
    EXPECT_NE(ExpectUsageError({"oltp_read_only", driver, row.option, "run"}).find(row.error),
              std::string::npos)
        << row.option;
  }
}

}  // namespace
}  // namespace loadcell
