// Option values beyond their bounds through the binary: every time, rate,
// size and count option refuses a value past its range (no overflow, no
// endless run) with one line naming the option and the range, exit 2, and
// nothing created; --config-file and SQLIO's -F take only a regular file
// of at most 1M.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/build_features.h"
#include "core/build_info.h"
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
       "--forced-shutdown=1e12: use 'auto', 'off', a number of seconds"},
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

// The audit: every time, rate, size and count option, its value just past
// its upper bound refused with a message that names the option and states
// the real bound, and the bound itself accepted. A value is accepted when
// the command gets past every check of the options and stops at a report
// file that cannot be opened (nothing runs). Every numeric option that a
// test's help lists must have a row (BoundsTableCoversEveryNumericOption).
struct BoundRow {
  std::string test;
  std::string option;                   // without dashes
  std::string above;                    // just past the bound
  std::string bound;                    // what the message says after "--OPTION=ABOVE: "
  std::string at;                       // the bound itself, accepted; empty: exclusive
  std::vector<std::string> extra = {};  // what the bound needs beside it
};

const std::vector<std::string> kFileioRead = {"--file-test-mode=rndrd"};
const std::vector<std::string> kSqliteDriver = {"--db-driver=sqlite"};

const std::vector<BoundRow>& BoundRows() {
  static const std::vector<BoundRow> rows = {
      // general options (every test has them)
      {"cpu", "threads", "100001", "must be between 1 and 100000", "100000"},
      {"cpu", "events", "1000000000000001", "must be between 0 and 1e+15", "1000000000000000"},
      {"cpu", "time", "1000000001", "must be between 0s and 1000000000s", "1000000000"},
      {"cpu", "time", "277778h", "must be between 0s and 1000000000s", "277777h"},
      {"cpu",
       "warmup-time",
       "1000000001",
       "must be between 0s and 1000000000s",
       "1000000000",
       {"--time=0"}},
      {"cpu", "report-interval", "1000000001", "must be between 0s and 1000000000s", "1000000000"},
      {"cpu", "rate", "1000000001", "must be 0 (no limit) or between 0.001 and 1000000000",
       "1000000000"},
      {"cpu", "percentile", "100.001", "must be between 0 and 100", "100"},
      {"cpu", "rand-seed", "1000000000000001", "must be between 0 and 1e+15", "1000000000000000"},
      {"cpu", "rand-spec-iter", "1000000000000001", "must be between 1 and 1e+15",
       "1000000000000000"},
      {"cpu", "rand-spec-pct", "100.001", "must be between 0 and 100", "100"},
      {"cpu", "rand-spec-res", "100.001", "must be between 0 and 100", "100"},
      {"cpu", "rand-pareto-h", "1.001", "must be between 0 and 1", ""},
      {"cpu", "rand-zipfian-exp", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000"},
      {"cpu", "verbosity", "6", "must be between 0 and 5", "5"},
      {"cpu", "thread-stack-size", "1025T", "must be between 0 and 1024T", "1024T"},
      {"cpu", "forced-shutdown", "1000000001",
       "use 'auto', 'off', a number of seconds (0 to 1000000000) or a percentage like 10%",
       "1000000000"},
      {"cpu", "report-checkpoints", "1,1000000001",
       "each item must be a number of seconds above 0 and at most 1000000000", "1,1000000000"},
      // cpu, memory, threads, mutex
      {"cpu", "cpu-max-prime", "4294967296", "must be between 3 and 4294967295", "4294967295"},
      {"memory",
       "memory-block-size",
       "1025T",
       "must be between 8 and 1024T",
       "1024T",
       {"--memory-total-size=0"}},
      {"memory", "memory-total-size", "1025T", "must be between 0 and 1024T", "1024T"},
      {"threads", "thread-locks", "16777217", "must be between 1 and 16777216", "16777216"},
      {"threads", "thread-yields", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000"},
      {"mutex", "mutex-num", "16777217", "must be between 1 and 16777216", "16777216"},
      {"mutex", "mutex-locks", "1000000000000001", "must be between 1 and 1e+15",
       "1000000000000000"},
      {"mutex", "mutex-loops", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000"},
      // fileio
      {"fileio", "file-num", "1000000000000001", "must be between 1 and 1e+15", "1024",
       kFileioRead},
      {"fileio",
       "file-block-size",
       "1025M",
       "must be between 1 and 1G",
       "1G",
       {"--file-test-mode=rndrd", "--file-num=1", "--file-total-size=1G"}},
      {"fileio", "file-total-size", "1025T", "must be between 0 and 1024T", "1024T", kFileioRead},
      {"fileio", "file-queue-depth", "65537", "must be between 1 and 65536", "65536", kFileioRead},
      {"fileio",
       "file-submit-batch",
       "65537",
       "must be between 1 and 65536",
       "65536",
       {"--file-test-mode=rndrd", "--file-queue-depth=65536"}},
      {"fileio", "file-fsync-freq", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kFileioRead},
      {"fileio", "file-merged-requests", "1000000000000001", "must be between 0 and 1e+15", "",
       kFileioRead},
      // a merged request is at most 2G: the bound that --file-block-size gives
      {"fileio",
       "file-merged-requests",
       "131073",
       "must be at most 131072 with --file-block-size=16K (a merged request is at most 2G)",
       "131072",
       {"--file-test-mode=seqrd", "--file-block-size=16K"}},
      {"fileio",
       "file-merged-requests",
       "2048",
       "must be at most 2 with --file-block-size=1G (a merged request is at most 2G)",
       "2",
       {"--file-test-mode=seqrd", "--file-block-size=1G", "--file-num=1", "--file-total-size=1G"}},
      {"fileio",
       "file-merged-requests",
       "17179869184",  // 2^34 x 1G once wrapped to 0
       "must be at most 2 with --file-block-size=1G",
       "",
       {"--file-test-mode=seqrd", "--file-block-size=1G", "--file-num=1", "--file-total-size=1G"}},
      {"fileio", "file-rw-ratio", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kFileioRead},
      // oltp (SQLite: nothing is connected before the checks end)
      {"oltp_read_write", "tables", "100001", "must be between 1 and 100000", "100000",
       kSqliteDriver},
      {"oltp_read_write", "table-size", "2147483648", "must be between 1 and 2147483647",
       "2147483647", kSqliteDriver},
      {"oltp_read_write",
       "range-size",
       "2147483648",
       "must be between 0 and 2147483647",
       "2147483647",
       {"--db-driver=sqlite", "--table-size=2147483647"}},
      {"oltp_read_write", "point-selects", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "simple-ranges", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "sum-ranges", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "order-ranges", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "distinct-ranges", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "index-updates", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "non-index-updates", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "delete-inserts", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "oltp-connect-delay", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write",
       "oltp-user-delay-min",
       "1000000000000001",
       "must be between 0 and 1e+15",
       "1000000000000000",
       {"--db-driver=sqlite", "--oltp-user-delay-max=1000000000000000"}},
      {"oltp_read_write", "oltp-user-delay-max", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
      {"oltp_read_write", "reconnect-timeout", "1000000001", "must be between 0s and 1000000000s",
       "1000000000", kSqliteDriver},
      {"oltp_read_write", "db-connect-timeout", "3601", "must be between 1s and 3600s", "3600",
       kSqliteDriver},
      {"oltp_read_write", "db-read-timeout", "86401", "must be between 0s and 86400s", "86400",
       kSqliteDriver},
      {"oltp_read_write", "db-write-timeout", "86401", "must be between 0s and 86400s", "86400",
       kSqliteDriver},
      {"oltp_read_write", "sqlite-busy-timeout", "2000001", "must be between 0s and 2000000s",
       "2000000", kSqliteDriver},
      {"oltp_read_write", "db-max-reply-size", "65G", "must be between 64K and 64G", "64G",
       kSqliteDriver},
      {"oltp_read_write", "db-max-reply-size", "63K", "must be between 64K and 64G", "64K",
       kSqliteDriver},
      {"oltp_read_write", "db-max-reply-rows", "1099511627777",
       "must be between 1 and 1099511627776", "1099511627776", kSqliteDriver},
      // The bound itself is not run: a pgsql run stops at its connection,
      // whose line names the port, not this option.
      {"oltp_read_write",
       "pgsql-scram-max-iterations",
       "2147483648",
       "must be between 1 and 2147483647",
       "",
       {"--db-driver=pgsql"}},
      {"oltp_read_write",
       "pgsql-port",
       "65536",
       "must be between 1 and 65535",
       "65535",
       {"--db-driver=pgsql"}},
      {"oltp_read_write",
       "mysql-port",
       "65536",
       "not a port number (1 to 65535)",
       "65535",
       {"--db-driver=mysql"}},
      {"select_random_points", "random-points", "100001", "must be between 1 and 100000", "100000",
       kSqliteDriver},
      {"select_random_ranges", "number-of-ranges", "100001", "must be between 1 and 100000",
       "100000", kSqliteDriver},
      {"select_random_ranges", "delta", "1000000000000001", "must be between 0 and 1e+15",
       "1000000000000000", kSqliteDriver},
  };
  return rows;
}

TEST_F(OptionBounds, EveryNumericOptionStatesItsRealBound) {
  const std::string no_report = files_.File("missing/r.json");
  const std::string db = "--sqlite-db=" + files_.File("b.db");
  for (const BoundRow& row : BoundRows()) {
    SCOPED_TRACE(row.test + " --" + row.option);
    std::vector<std::string> args = {row.test, "--" + row.option + "=" + row.above};
    args.insert(args.end(), row.extra.begin(), row.extra.end());
    if (std::count(args.begin(), args.end(), "--db-driver=sqlite") > 0) args.push_back(db);
    args.push_back("run");
    const std::string err = ExpectUsageError(args);
    // A server driver's option in a build without the driver (so far the
    // Windows build) is refused as such, whatever its value.
    const std::string driver = row.option.substr(0, row.option.find('-'));
    if ((driver == "pgsql" || driver == "mysql") && IsLeftOut(driver)) {
      EXPECT_NE(err.find("--" + row.option + ": " + driver + " is not in this build"),
                std::string::npos)
          << err;
      continue;
    }
    EXPECT_NE(err.find("--" + row.option + "=" + row.above + ": " + row.bound), std::string::npos)
        << err;
    if (row.at.empty()) continue;
    // The bound itself passes every check of the options; the command then
    // stops at the report file (or, for a server, at its connection).
    args[1] = "--" + row.option + "=" + row.at;
    args.insert(args.end() - 1, "--output-file=" + no_report);
    const testing::ProcessResult r = testing::RunLoadcell(args, -1, 20);
    EXPECT_NE(r.exit_code, 0) << testing::Show(r);
    EXPECT_EQ(r.err.find(args[1] + ": "), std::string::npos)
        << "the bound itself was refused: " << r.err;
    EXPECT_TRUE(r.err.find("--output-file=" + no_report + ": ") != std::string::npos ||
                r.err.find("cannot connect to localhost:" + row.at) != std::string::npos)
        << r.err;
    EXPECT_TRUE(std::filesystem::is_empty(work_.path()));
  }
}

// Each test's help lists its options with their type: every time, size and
// number option of every built-in test has a row above.
TEST_F(OptionBounds, BoundsTableCoversEveryNumericOption) {
  std::set<std::string> covered;
  for (const BoundRow& row : BoundRows()) covered.insert(row.option);
  const testing::ProcessResult list = testing::RunLoadcell({"list"});
  ASSERT_EQ(list.exit_code, 0) << testing::Show(list);
  std::istringstream tests(list.out);
  std::string line;
  int numeric = 0;
  while (std::getline(tests, line)) {
    const std::string test = line.substr(0, line.find(' '));
    if (test == "SCRIPT.lua") continue;  // a script's options are its own
    for (const char* driver : {"sqlite", "pgsql", "mysql"}) {
      const testing::ProcessResult help =
          testing::RunLoadcell({test, std::string("--db-driver=") + driver, "help"});
      ASSERT_EQ(help.exit_code, 0) << testing::Show(help);
      std::smatch m;
      std::string text = help.out;
      const std::regex option(R"(\n +--([a-z0-9-]+)=(N|SIZE|SECONDS)\b)");
      while (std::regex_search(text, m, option)) {
        ++numeric;
        EXPECT_TRUE(covered.count(m[1]) == 1) << test << ": --" << m[1] << " has no row";
        text = m.suffix();
      }
    }
  }
  EXPECT_GT(numeric, 50);
}

// SQLIO's switches, the same way: just past the bound refused naming the
// switch and the bound; the bound itself gets past the switches (and stops
// at a file in a missing folder).
TEST_F(OptionBounds, SqlioSwitchesStateTheirRealBound) {
  struct Row {
    std::string above, bound, at;
  };
  const std::vector<Row> rows = {
      {"-s31536001", "the duration in seconds must be 1 to 31536000", "-s31536000"},
      {"-b65537", "the block size in KB must be 1 to 65536", "-b65536"},
      {"-o1025", "the outstanding I/O count must be 1 to 1024", "-o1024"},
      {"-t257", "the thread count must be 1 to 256", "-t256"},
      {"-S1099511627777", "the start offset in blocks must be 0 to 1099511627776",
       "-S1099511627776"},
  };
  const std::string missing = files_.File("missing/t.dat");
  for (const Row& row : rows) {
    SCOPED_TRACE(row.above);
    EXPECT_NE(ExpectUsageError({"sqlio", "-kR", row.above, missing})
                  .find("sqlio: '" + row.above + "': " + row.bound),
              std::string::npos);
    const std::string err = ExpectUsageError({"sqlio", "-kR", row.at, missing});
    EXPECT_NE(err.find(missing + " does not exist"), std::string::npos) << err;
  }
}

TEST_F(OptionBounds, ConfigFileMustBeARegularFileOfAtMostOneMebibyte) {
  const std::string big = files_.Write("big.cfg", std::string(2 << 20, '#'));
  std::vector<std::pair<std::string, std::string>> cases = {
      {files_.path(), "not a regular file"},
      {big, "larger than 1M"},
  };
  if (LOADCELL_WINDOWS) {
    cases.emplace_back("NUL", "not a regular file");
  } else {
    const std::string fifo = files_.File("fifo");
    ASSERT_EQ(testing::RunCommand({"mkfifo", fifo}, {}).exit_code, 0);
    cases.emplace_back("/dev/zero", "not a regular file");
    cases.emplace_back(fifo, "not a regular file");
  }
  for (const auto& [path, why] : cases) {
    SCOPED_TRACE(path);
    const std::string config = "--config-file=" + path;
    const std::string param = "-F" + path;
    EXPECT_NE(FileioPrepare(config).find(fmt::format("{}: {}", config, why)), std::string::npos);
    EXPECT_NE(ExpectUsageError({"sqlio", "-kW", param}).find(fmt::format("{}: {}", param, why)),
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
    const std::string part = driver.substr(driver.find('=') + 1);
    EXPECT_NE(ExpectUsageError({"oltp_read_only", driver, row.option, "run"})
                  .find(IsLeftOut(part) ? part + " is not in this build" : row.error),
              std::string::npos)
        << row.option;
  }
}

}  // namespace
}  // namespace loadcell
