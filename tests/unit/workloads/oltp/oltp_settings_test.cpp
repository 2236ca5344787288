// The database server's settings that the manifest records for `loadcell
// compare` (ReadDatabaseSettings, workloads/oltp/oltp_data_set.h), over a
// connection that answers as each server does: the server's version first,
// then each setting by its own name in a fixed order; MariaDB's old name of
// the isolation; SQLite's level by name; what the server does not answer
// left out.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "workloads/oltp/oltp_data_set.h"

namespace loadcell {
namespace {

// A connection that answers each statement that starts with a key of
// `answers` with its rows, and fails any other.
class ScriptedConnection final : public DbConnection {
 public:
  ScriptedConnection(std::string version, std::map<std::string, std::vector<DbRows::Row>> answers)
      : version_(std::move(version)), answers_(std::move(answers)) {}

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override {
    result = {};
    for (const auto& [start, answer] : answers_) {
      if (sql.substr(0, start.size()) != start) continue;
      if (rows != nullptr) rows->rows = answer;
      return {};
    }
    return {DbErrorClass::kFatal, 1, "", "no such statement", ""};
  }
  DbError Begin() override { return {}; }
  DbError Commit() override { return {}; }
  DbError Rollback() override { return {}; }
  DbError Reconnect() override { return {}; }
  std::string ServerVersion() override { return version_; }

 protected:
  DbError PrepareServer(std::string_view, int, std::unique_ptr<DbStatement>&) override {
    return {DbErrorClass::kFatal, 1, "", "not prepared", ""};
  }

 private:
  std::string version_;
  std::map<std::string, std::vector<DbRows::Row>> answers_;
};

DbRows::Row Pair(const std::string& name, const std::string& value) { return {name, value}; }

TEST(DatabaseSettings, PostgresSettingsInTheirOrder) {
  // pg_settings answers in its own order (by name), and lacks commit_delay
  // here as an older server might.
  ScriptedConnection conn(
      "PostgreSQL 16.4",
      {{"SELECT name, setting FROM pg_settings",
        {Pair("fsync", "off"), Pair("full_page_writes", "on"), Pair("synchronous_commit", "off"),
         Pair("default_transaction_isolation", "read committed"), Pair("wal_level", "replica"),
         Pair("wal_sync_method", "fdatasync")}}});
  const DatabaseSettings s = ReadDatabaseSettings(conn, SqlDialect::kPgsql);
  const DatabaseSettings expected = {{"server", "PostgreSQL 16.4"},
                                     {"default_transaction_isolation", "read committed"},
                                     {"fsync", "off"},
                                     {"synchronous_commit", "off"},
                                     {"full_page_writes", "on"},
                                     {"wal_sync_method", "fdatasync"},
                                     {"wal_level", "replica"}};
  EXPECT_EQ(s, expected);
}

TEST(DatabaseSettings, MariadbNamesItsIsolationByTheNewName) {
  const std::map<std::string, std::vector<DbRows::Row>> answers = {
      {"SELECT DISTINCT engine", {{std::string("InnoDB")}}},
      {"SHOW VARIABLES",
       {Pair("innodb_doublewrite", "OFF"), Pair("innodb_flush_log_at_trx_commit", "0"),
        Pair("log_bin", "OFF"), Pair("sync_binlog", "0"),
        Pair("tx_isolation", "REPEATABLE-READ")}}};
  ScriptedConnection old_server("5.5.5-10.11.6-MariaDB", answers);
  const DatabaseSettings s = ReadDatabaseSettings(old_server, SqlDialect::kMysql);
  const DatabaseSettings expected = {{"server", "5.5.5-10.11.6-MariaDB"},
                                     {"table engine", "InnoDB"},
                                     {"transaction_isolation", "REPEATABLE-READ"},
                                     {"innodb_flush_log_at_trx_commit", "0"},
                                     {"innodb_doublewrite", "OFF"},
                                     {"log_bin", "OFF"},
                                     {"sync_binlog", "0"}};
  EXPECT_EQ(s, expected);
  // A server with both names (MariaDB 11.1 on): the new one's value.
  std::map<std::string, std::vector<DbRows::Row>> both = answers;
  both["SHOW VARIABLES"].push_back(Pair("transaction_isolation", "READ-COMMITTED"));
  ScriptedConnection new_server("11.4.2-MariaDB", both);
  const DatabaseSettings n = ReadDatabaseSettings(new_server, SqlDialect::kMysql);
  ASSERT_GE(n.size(), 3u);
  EXPECT_EQ(n[2], (std::pair<std::string, std::string>{"transaction_isolation", "READ-COMMITTED"}));
}

TEST(DatabaseSettings, SqliteLevelsByNameAndUnansweredLeftOut) {
  ScriptedConnection sqlite("SQLite 3.40.1", {{"PRAGMA journal_mode", {{std::string("wal")}}},
                                              {"PRAGMA synchronous", {{std::string("1")}}}});
  const DatabaseSettings expected = {
      {"server", "SQLite 3.40.1"}, {"journal_mode", "wal"}, {"synchronous", "NORMAL"}};
  EXPECT_EQ(ReadDatabaseSettings(sqlite, SqlDialect::kSqlite), expected);
  // A server that answers nothing but its version: the version alone.
  ScriptedConnection mute("PostgreSQL 16.4", {});
  EXPECT_EQ(ReadDatabaseSettings(mute, SqlDialect::kPgsql),
            (DatabaseSettings{{"server", "PostgreSQL 16.4"}}));
  ScriptedConnection mute_mysql("8.0.36", {});
  EXPECT_EQ(ReadDatabaseSettings(mute_mysql, SqlDialect::kMysql),
            (DatabaseSettings{{"server", "8.0.36"}}));
}

}  // namespace
}  // namespace loadcell
