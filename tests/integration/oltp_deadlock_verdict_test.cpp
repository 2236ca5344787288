// The verdict's database check (docs/validity.md, `database`) on runs that
// deadlock for real: oltp_read_write on a table of 2 rows with 8 threads,
// on the throwaway servers (scripts/test-servers), through the built-in
// test and Debian's sysbench script, on each connector. The deadlocks are
// counted apart from the other ignored errors (JSON counters, the text's
// "deadlocks:" line, the check's figures), and above 0.1% of the
// transactions the check warns. The threshold's edge is checked through
// the seam (tests/unit/validity/checks_test.cpp). Lock wait timeouts are
// made with PostgreSQL's lock_timeout.

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

// driver ("pgsql", "mysql"), connector ("native", "library"), test (the
// built-in name or the script's path).
using DeadlockParam = std::tuple<std::string, std::string, std::string>;

class OltpDeadlockVerdict : public ::testing::TestWithParam<DeadlockParam> {};

const char* const kScript = "/usr/share/sysbench/oltp_read_write.lua";

TEST_P(OltpDeadlockVerdict, HotRowsDeadlockAndTheCheckWarns) {
  const auto& [driver, connector, test] = GetParam();
  if (test == kScript) {
    ASSERT_EQ(access(kScript, R_OK), 0) << kScript << " missing: scripts/install-deps";
  }
  TestDatabase db(driver, "deadlock_" + connector + (test == kScript ? "_lua" : ""));
  ASSERT_TRUE(db.error().empty()) << db.error();
  // MariaDB's duplicate keys (1062) from the delete and insert of the same
  // few ids are ignored too, as sysbench users do; PostgreSQL ignores its
  // 23505 by default.
  Args base = Concat(Concat({test, "--tables=1", "--table-size=2", "--range-size=2"}, db.args()),
                     {"--db-connector=" + connector});
  if (driver == "mysql") base.push_back("--mysql-ignore-errors=all");
  const ProcessResult prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  // A thread can wait on a lock past the time limit until PostgreSQL looks
  // for deadlocks (deadlock_timeout, 1 s by default): the run waits for it
  // rather than abandoning it after the default grace.
  const ProcessResult run = RunLoadcell(
      Concat(base, {"--threads=8", "--time=1", "--forced-shutdown=10", "--format=json", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  const nlohmann::json j = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << Show(run);
  const nlohmann::json& counters = j["summary"]["counters"];
  const uint64_t deadlocks = counters.value("deadlocks", uint64_t{0});
  EXPECT_GT(deadlocks, 0u) << counters.dump();
  EXPECT_TRUE(counters.contains("lock_wait_timeouts")) << counters.dump();
  EXPECT_GE(counters.value("ignored_errors", uint64_t{0}), deadlocks) << counters.dump();
  nlohmann::json check;
  for (const nlohmann::json& c : j["validity"]["checks"]) {
    if (c["id"] == "database") check = c;
  }
  ASSERT_FALSE(check.is_null()) << j["validity"].dump();
  EXPECT_EQ(check["figures"]["deadlocks"].get<double>(), static_cast<double>(deadlocks))
      << check.dump();
  const double transactions = j["summary"]["events"].get<double>();
  ASSERT_GT(transactions, 0);
  EXPECT_DOUBLE_EQ(check["figures"]["deadlocks_per_transaction"].get<double>(),
                   static_cast<double>(deadlocks) / transactions)
      << check.dump();
  // Far above 0.1% on two rows: the deadlocks are the warning.
  EXPECT_GT(static_cast<double>(deadlocks) / transactions, 0.001) << check.dump();
  EXPECT_EQ(check["level"], "warn") << check.dump();
  EXPECT_NE(check["seen"].get<std::string>().find(std::to_string(deadlocks) + " deadlocks in "),
            std::string::npos)
      << check.dump();
  const ProcessResult clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

// PostgreSQL's lock_timeout of 2 ms (PGOPTIONS, which libpq sends) on the
// same hot rows: statements fail with 55P03, counted as lock wait timeouts
// apart from deadlocks, in the counters and the check's figures.
TEST(OltpLockWaitVerdict, PostgresLockTimeoutsAreCountedApart) {
  TestDatabase db("pgsql", "lock_wait_library");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base = Concat(
      Concat({"oltp_read_write", "--tables=1", "--table-size=2", "--range-size=2"}, db.args()),
      {"--db-connector=library"});
  const ProcessResult prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  testing::ChildWatch watch;
  watch.env = {{"PGOPTIONS", "-c lock_timeout=2"}};
  const ProcessResult run = RunLoadcell(
      Concat(base, {"--threads=8", "--time=1", "--forced-shutdown=10", "--format=json", "run"}),
      watch);
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  const nlohmann::json j = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << Show(run);
  const nlohmann::json& counters = j["summary"]["counters"];
  const uint64_t waits = counters.value("lock_wait_timeouts", uint64_t{0});
  EXPECT_GT(waits, 0u) << counters.dump();
  EXPECT_GE(counters.value("ignored_errors", uint64_t{0}),
            waits + counters.value("deadlocks", uint64_t{0}))
      << counters.dump();
  nlohmann::json check;
  for (const nlohmann::json& c : j["validity"]["checks"]) {
    if (c["id"] == "database") check = c;
  }
  ASSERT_FALSE(check.is_null()) << j["validity"].dump();
  EXPECT_EQ(check["figures"]["lock_wait_timeouts"].get<double>(), static_cast<double>(waits))
      << check.dump();
  const ProcessResult clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

// Each driver on each connector once, the built-in test on one and the
// script on the other.
INSTANTIATE_TEST_SUITE_P(Servers, OltpDeadlockVerdict,
                         ::testing::Values(DeadlockParam{"pgsql", "native", "oltp_read_write"},
                                           DeadlockParam{"pgsql", "library", kScript},
                                           DeadlockParam{"mysql", "library", "oltp_read_write"},
                                           DeadlockParam{"mysql", "native", kScript}),
                         [](const ::testing::TestParamInfo<DeadlockParam>& p) {
                           return std::get<0>(p.param) + "_" + std::get<1>(p.param) +
                                  (std::get<2>(p.param) == kScript ? "_lua" : "_builtin");
                         });

}  // namespace
}  // namespace loadcell
