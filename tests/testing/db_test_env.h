#pragma once
// Shared set-up for driver tests against the throwaway servers started by
// scripts/test-servers (through `make test` or scripts/run-tests).

#include <gtest/gtest.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "db/db_driver.h"
#include "testing/server_env.h"
#include "testing/status.h"

namespace loadcell::testing {

// A resolved driver from command-line style options; owns the option set.
struct DriverSetup {
  std::unique_ptr<OptionSet> opts = std::make_unique<OptionSet>("test");
  std::unique_ptr<DbDrivers> db = std::make_unique<DbDrivers>();
  Status status;

  explicit DriverSetup(const OptionPairs& args) {
    db->RegisterOptions(*opts);
    RawOptions raw;
    for (const auto& [k, v] : args) raw.Add(k, v, true, "command line");
    status = opts->Apply(raw);
    if (status.ok()) status = db->Resolve(*opts);
  }
  DbDriver& driver() { return db->driver(); }
};

// Connection options for `driver` ("pgsql" or "mysql") from the environment,
// with `extra` appended (later entries win); a test failure when the
// servers' variables are not set.
inline OptionPairs ServerArgs(const std::string& driver, const OptionPairs& extra = {}) {
  if (RequiredServerVar(driver == "pgsql" ? "PG" : "MYSQL", "HOST").empty()) {
    return {{"db-driver", driver}};  // one failure is enough
  }
  OptionPairs a = ServerOptions(driver);
  for (const auto& e : extra) a.push_back(e);
  return a;
}

// Connection 0 of a driver set up from `args`, its set-up kept in `setups`
// (it must outlive the connection); nullptr with a test failure when either
// fails.
inline std::unique_ptr<DbConnection> ConnectWith(std::vector<std::unique_ptr<DriverSetup>>& setups,
                                                 const OptionPairs& args) {
  setups.push_back(std::make_unique<DriverSetup>(args));
  EXPECT_OK(setups.back()->status);
  if (!setups.back()->status.ok()) return nullptr;
  auto c = setups.back()->driver().Connect(0);
  EXPECT_OK(c);
  return c.ok() ? std::move(c).value() : nullptr;
}

// A table name of this test and process, so tests may run in parallel.
inline std::string TableName(const std::string& base) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = "lc_" + base + "_";
  for (char c : std::string(info->name())) {
    if (c >= 'A' && c <= 'Z') {
      name += static_cast<char>(c - 'A' + 'a');
    } else {
      name += (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
    }
  }
  return name + "_" + std::to_string(getpid());
}

inline void Exec(DbConnection& c, const std::string& sql) {
  DbExecResult r;
  DbError e = c.Execute(sql, r);
  ASSERT_OK(e) << sql;
}

}  // namespace loadcell::testing
