// Every option of sysbench 1.0.20's help (general, database, driver, each
// built-in test's and the OLTP scripts'), and the 0.4/0.5 names that 1.0
// dropped, is accepted by loadcell in the same place on the command line:
// the run (or prepare) ends with exit 0, never with "unknown option". The
// rows come from tests/data/sysbench_options.tsv, made from sysbench's own
// help by scripts/sysbench-option-table, and the test checks that the table
// still matches the installed sysbench.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "testing/oltp_test_env.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::TempDir;

struct Row {
  std::string section;
  std::string name;
  std::string kind;  // or, in the legacy table, the value to give
};

std::vector<Row> ReadTable(const std::string& file) {
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/tests/data/" + file);
  EXPECT_TRUE(in.is_open()) << file;
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Row r;
    std::getline(fields, r.section, '\t');
    std::getline(fields, r.name, '\t');
    std::getline(fields, r.kind, '\t');
    rows.push_back(r);
  }
  return rows;
}

std::string Slurp(std::FILE* f) {
  std::string s;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
  return s;
}

// A value sysbench takes for the option (by name where the kind is not enough).
std::string ValueFor(const Row& r, const TempDir& dir) {
  static const std::map<std::string, std::string> kByName = {
      {"time", "0.1"},
      {"max-time", "0.1"},
      {"events", "0"},
      {"cpu-max-prime", "100"},
      {"max-requests", "0"},
      {"forced-shutdown", "off"},
      {"thread-stack-size", "64K"},
      {"report-checkpoints", "5"},
      {"rand-type", "uniform"},
      {"rand-pareto-h", "0.2"},
      {"verbosity", "3"},
      {"percentile", "95"},
      {"db-driver", "sqlite"},
      {"db-ps-mode", "auto"},
      {"mysql-host", "127.0.0.1"},
      {"mysql-port", "3306"},
      {"mysql-socket", "/nonexistent/mysql.sock"},
      {"mysql-ignore-errors", "1213,1020,1205"},
      {"pgsql-host", "127.0.0.1"},
      {"pgsql-port", "5432"},
      {"file-num", "2"},
      {"file-block-size", "4096"},
      {"file-total-size", "128K"},
      {"file-test-mode", "rndrw"},
      {"file-io-mode", "async"},
      {"file-extra-flags", "dsync"},
      {"file-fsync-mode", "fdatasync"},
      {"file-rw-ratio", "1.5"},
      {"memory-block-size", "1K"},
      {"memory-total-size", "1M"},
      {"memory-scope", "global"},
      {"memory-oper", "write"},
      {"memory-access-mode", "seq"},
      {"mysql_storage_engine", "innodb"},
      {"pgsql_variant", "redshift"},
      {"table_size", "100"},
      {"tables", "1"},
      {"range_size", "10"},
  };
  if (r.name == "config-file") return dir.Write("sysbench.cfg", "time=0.1\n");
  if (auto it = kByName.find(r.name); it != kByName.end()) return it->second;
  if (r.kind == "bool") return "off";
  if (r.kind == "n") return "1";
  if (r.kind == "size") return "1K";
  return "x";
}

// The command line that gives the option where sysbench takes it.
std::vector<std::string> CommandFor(const Row& r, const std::string& option, const TempDir& dir) {
  const std::string db = "--sqlite-db=" + dir.File("sbtest.db");
  if (r.section == "general") return {"cpu", "--time=0.1", option, "run"};
  if (r.section == "cpu" || r.section == "memory" || r.section == "threads" ||
      r.section == "mutex") {
    return {r.section, "--time=0.1", option, "run"};
  }
  if (r.section == "fileio") {
    return {"fileio",
            "--file-dir=" + dir.path(),
            "--file-num=2",
            "--file-total-size=128K",
            "--file-block-size=4096",
            "--file-test-mode=rndrw",
            "--time=0.1",
            option,
            "run"};
  }
  // Database, driver and OLTP options: on the embedded driver, with a table
  // prepared for the run.
  return {
      "oltp_read_write", "--db-driver=sqlite", db, "--table-size=100", "--time=0.1", option, "run"};
}

void ExpectAccepted(const Row& r, const std::string& option, const std::vector<std::string>& args) {
  SCOPED_TRACE(r.section + " " + option);
  ProcessResult res = RunLoadcell(args, -1, 60);
  EXPECT_EQ(res.err.find("unknown option"), std::string::npos) << res.err;
  EXPECT_EQ(res.exit_code, 0) << res.err;
}

TEST(SysbenchOptions, TableMatchesTheInstalledSysbench) {
  const std::string cmd = std::string(LOADCELL_SOURCE_DIR) + "/scripts/sysbench-option-table";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  const std::string made = Slurp(p);
  ASSERT_EQ(::pclose(p), 0) << "sysbench 1.0.20 must be installed (scripts/install-deps)";
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/tests/data/sysbench_options.tsv");
  std::stringstream kept;
  kept << in.rdbuf();
  EXPECT_EQ(made, kept.str());
}

TEST(SysbenchOptions, EveryOptionOfSysbenchsHelpIsAccepted) {
  const std::vector<Row> rows = ReadTable("sysbench_options.tsv");
  ASSERT_GT(rows.size(), 80u);
  TempDir dir;
  ASSERT_EQ(RunLoadcell({"fileio", "--file-dir=" + dir.path(), "--file-num=2",
                         "--file-total-size=128K", "--file-block-size=4096", "prepare"})
                .exit_code,
            0);
  ASSERT_EQ(RunLoadcell({"oltp_read_write", "--db-driver=sqlite",
                         "--sqlite-db=" + dir.File("sbtest.db"), "--table-size=100", "prepare"})
                .exit_code,
            0);
  for (const Row& r : rows) {
    if (r.name == "help" || r.name == "version") continue;  // print and exit: tested elsewhere
    const std::string option =
        r.kind == "flag" ? "--" + r.name : "--" + r.name + "=" + ValueFor(r, dir);
    ExpectAccepted(r, option, CommandFor(r, option, dir));
  }
}

TEST(SysbenchOptions, DbDriverHelpListsTheDrivers) {
  ProcessResult r = RunLoadcell({"oltp_read_write", "--db-driver=help", "run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* driver : {"sqlite", "pgsql", "mysql"}) {
    EXPECT_NE(r.out.find(driver), std::string::npos) << r.out;
  }
}

TEST(SysbenchOptions, LegacyNamesAreAcceptedOnTheLegacyCommandLine) {
  TempDir dir;
  const std::string db = "--sqlite-db=" + dir.File("sbtest.db");
  ASSERT_EQ(
      RunLoadcell({"--test=oltp", "--db-driver=sqlite", db, "--oltp-table-size=100", "prepare"})
          .exit_code,
      0);
  for (const Row& r : ReadTable("sysbench_legacy_options.tsv")) {
    const std::string option = "--" + r.name + "=" + r.kind;
    if (r.section == "legacy") {
      ExpectAccepted(r, option, {"--test=cpu", "--max-time=0.1", option, "run"});
    } else {
      ExpectAccepted(r, option,
                     {"--test=oltp", "--db-driver=sqlite", db, "--oltp-table-size=100",
                      "--max-time=0.1", option, "run"});
    }
  }
}

// What the compatibility options do: each one honoured, said to be without
// effect, or refused with one line (exit 2). One row per option value.
TEST(SysbenchOptions, CompatibilityOptionsAreHonouredNotedOrRefused) {
  TempDir dir;
  const std::string db = "--sqlite-db=" + dir.File("sbtest.db");
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    const char* in_err;  // a part of stderr
  };
  const std::vector<Case> cases = {
      {{"cpu", "--time=0.1", "--validate=on", "run"}, 0, "the cpu test has no validation checks"},
      {{"cpu", "--time=0.1", "--debug", "run"}, 0, "--debug: loadcell prints no extra debug"},
      {{"cpu", "--time=0.1", "--debug=off", "run"}, 0, ""},
      {{"--test=oltp", "--db-driver=sqlite", db, "--oltp-nontrx-mode=insert", "run"},
       2,
       "nontrx mode runs point SELECTs only"},
      {{"--test=oltp", "--db-driver=sqlite", db, "--oltp-table-name=mytable", "run"},
       2,
       "tables are named sbtest1..N"},
      {{"--test=oltp", "--db-driver=sqlite", db, "--oltp-sp-name=p1", "run"},
       2,
       "stored-procedure mode is not supported"},
      {{"--test=oltp", "--db-driver=sqlite", db, "--oltp-use-in-statement=10", "run"},
       2,
       "oltp_random_points"},
      {{"oltp_read_write", "--db-driver=sqlite", db, "--pgsql-variant=mysql", "run"},
       2,
       "the only variant is redshift"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args[2]);
    ProcessResult r = RunLoadcell(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.in_err), std::string::npos) << r.err;
    if (c.exit_code == 2) {
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
  }
}

// --init-rng=off (sysbench 0.4): the generator keeps its fixed start, so two
// runs draw the same numbers; --seed-rng is --rand-seed.
TEST(SysbenchOptions, LegacySeedOptionsSetTheSeed) {
  ProcessResult off = RunLoadcell({"--test=cpu", "--init-rng=off", "--max-time=0.1", "run"});
  EXPECT_EQ(off.exit_code, 0) << off.err;
  EXPECT_NE(off.out.find("seed 1;"), std::string::npos) << off.out;
  ProcessResult seeded = RunLoadcell({"--test=cpu", "--seed-rng=77", "--max-time=0.1", "run"});
  EXPECT_NE(seeded.out.find("seed 77;"), std::string::npos) << seeded.out;
}

// --mysql-compression=on compresses the protocol: the statements then go
// through the client library, and the header says why.
TEST(SysbenchOptions, MysqlCompressionCompressesTheConnection) {
  const testing::Args server = testing::ServerCommandLine("mysql");
  const testing::Args prepare =
      testing::Concat({"oltp_point_select", "--db-driver=mysql", "--table-size=100"}, server);
  ASSERT_EQ(RunLoadcell(testing::Concat(prepare, {"prepare"})).exit_code, 0);
  ProcessResult r =
      RunLoadcell(testing::Concat(prepare, {"--mysql-compression=on", "--time=0.5", "run"}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("compressed"), std::string::npos) << r.out;
  EXPECT_EQ(RunLoadcell(testing::Concat(prepare, {"cleanup"})).exit_code, 0);
}

}  // namespace
}  // namespace loadcell
