#pragma once
// Helpers of the OLTP integration tests: the throwaway servers' connection
// options (from the LOADCELL_PG_* / LOADCELL_MYSQL_* variables that
// scripts/run-tests sets), one database per test so that tests can run in
// parallel, and parsing of the report. Test helper only.

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/db_driver.h"
#include "testing/run_binary.h"
#include "testing/server_env.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {

// A command line, one argument a string.
using Args = std::vector<std::string>;

// Connection options of `driver` ("pgsql" or "mysql") as command-line
// arguments, for database `db` (the server's default database when empty).
inline Args ServerCommandLine(const std::string& driver, const std::string& db = "") {
  Args args;
  for (const auto& [name, value] : ServerOptions(driver, db))
    args.push_back("--" + name + "=" + value);
  return args;
}

// A connection through the drivers (for set-up and checks).
class Client {
 public:
  explicit Client(const Args& args) {
    OptionSet set("db");
    db_.RegisterOptions(set);
    RawOptions raw;
    for (const std::string& a : args) {
      const size_t eq = a.find('=');
      raw.Add(a.substr(0, eq), a.substr(eq + 1), true, "test");
    }
    Status s = set.Apply(raw);
    if (s.ok()) s = db_.Resolve(set);
    if (!s.ok()) {
      error_ = s.ToString();
      return;
    }
    auto c = db_.driver().Connect(0);
    if (!c.ok()) {
      error_ = c.status().ToString();
      return;
    }
    conn_ = std::move(c).value();
  }
  bool ok() const { return conn_ != nullptr; }
  const std::string& error() const { return error_; }

  // Runs `sql`; the first column of each row.
  std::vector<std::string> Query(const std::string& sql) {
    std::vector<std::string> out;
    if (conn_ == nullptr) {
      ADD_FAILURE() << "no connection: " << error_;
      return out;
    }
    DbExecResult r;
    DbRows rows;
    DbError e = conn_->Execute(sql, r, &rows);
    EXPECT_OK(e) << sql;
    for (const auto& row : rows.rows) out.push_back(row.empty() || !row[0] ? "" : *row[0]);
    return out;
  }

 private:
  DbDrivers db_;
  std::unique_ptr<DbConnection> conn_;
  std::string error_;
};

// A database of its own for one test: a fresh database on the server
// (dropped at the end) or a SQLite file in a temporary folder.
class TestDatabase {
 public:
  TestDatabase(const std::string& driver, const std::string& name) : driver_(driver) {
    if (driver == "sqlite") {
      dir_ = std::make_unique<TempDir>();
      args_ = {"--db-driver=sqlite", "--sqlite-db=" + dir_->File("sbtest.db")};
      return;
    }
    error_ = MissingServerEnv(driver);
    if (!error_.empty()) return;
    name_ = "sbtest_" + name;
    Client admin(ServerCommandLine(driver));
    if (!admin.ok()) {
      error_ = admin.error();
      return;
    }
    admin.Query("DROP DATABASE IF EXISTS " + name_);
    admin.Query("CREATE DATABASE " + name_);
    args_ = ServerCommandLine(driver, name_);
  }
  ~TestDatabase() {
    if (!name_.empty()) {
      Client admin(ServerCommandLine(driver_));
      if (admin.ok()) admin.Query("DROP DATABASE IF EXISTS " + name_);
    }
  }
  // Empty when the database is ready.
  const std::string& error() const { return error_; }
  const Args& args() const { return args_; }
  // The folder of the SQLite database; "" for a server.
  std::string dir() const { return dir_ ? dir_->path() : ""; }

  bool TableExists(const std::string& table) {
    Client c(args_);
    if (!c.ok()) return false;
    std::string sql;
    if (driver_ == "sqlite") {
      sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'";
    } else if (driver_ == "pgsql") {
      sql =
          "SELECT table_name FROM information_schema.tables WHERE table_schema = "
          "current_schema() AND table_name = '" +
          table + "'";
    } else {
      sql =
          "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() "
          "AND table_name = '" +
          table + "'";
    }
    return !c.Query(sql).empty();
  }

  std::vector<std::string> Query(const std::string& sql) {
    Client c(args_);
    EXPECT_OK(c);
    return c.Query(sql);
  }

 private:
  std::string driver_;
  std::string name_;
  std::unique_ptr<TempDir> dir_;  // sqlite only
  std::string error_;
  Args args_;
};

// The number after `label` on a line of the report ("    transactions:"),
// or -1.
inline long long ReportNumber(const std::string& out, const std::string& label) {
  const size_t at = out.find(label);
  if (at == std::string::npos) return -1;
  long long v = -1;
  if (std::sscanf(out.c_str() + at + label.size(), " %lld", &v) != 1) return -1;
  return v;
}

// Lines of `text` that are not empty.
inline size_t CountLines(const std::string& text) {
  size_t n = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (end > pos) ++n;
    pos = end + 1;
  }
  return n;
}

}  // namespace loadcell::testing
