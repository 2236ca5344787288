#include "workloads/oltp/oltp_data_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>

namespace loadcell {
namespace {

// The first value of the one-row result of `sql` as a number, or why not.
Result<uint64_t> DataSetNumber(DbConnection& conn, const std::string& sql) {
  DbExecResult result;
  DbRows rows;
  const DbError err = conn.Execute(sql, result, &rows);
  if (!err.ok()) return Status::Unavailable(err.message);
  if (rows.rows.empty() || rows.rows[0].empty() || !rows.rows[0][0].has_value()) {
    return Status::Unavailable("no value from: " + sql);
  }
  const std::string& text = *rows.rows[0][0];
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) return Status::Unavailable("not a number from: " + sql);
  return static_cast<uint64_t>(n);
}

// The rows of `sql` as {first column, second column} (a one-column row's
// second is ""); none when the statement fails.
DatabaseSettings SettingRows(DbConnection& conn, const std::string& sql) {
  DbExecResult result;
  DbRows rows;
  DatabaseSettings out;
  if (!conn.Execute(sql, result, &rows).ok()) return out;
  for (const DbRows::Row& row : rows.rows) {
    if (row.empty() || !row[0].has_value()) continue;
    out.emplace_back(*row[0], row.size() > 1 && row[1].has_value() ? *row[1] : "");
  }
  return out;
}

// The settings named in `names`, in that order, from `rows` ({name, value}:
// the server's answer, in its own order; both servers name them in lower
// case).
void AddInOrder(DatabaseSettings& out, const DatabaseSettings& rows,
                std::span<const char* const> names) {
  for (const char* name : names) {
    for (const auto& [n, v] : rows) {
      if (n == name) {
        out.emplace_back(name, v);
        break;
      }
    }
  }
}

// PostgreSQL: the isolation a transaction runs at and what a commit waits
// for (pg_settings, readable by any user).
constexpr const char* kPgSettings[] = {"default_transaction_isolation",
                                       "fsync",
                                       "synchronous_commit",
                                       "full_page_writes",
                                       "wal_sync_method",
                                       "wal_level",
                                       "commit_delay"};
// MySQL and MariaDB (SHOW VARIABLES: the session's values, the global
// ones where a variable has no session value).
constexpr const char* kMysqlSettings[] = {"transaction_isolation",
                                          "innodb_flush_log_at_trx_commit",
                                          "innodb_doublewrite",
                                          "innodb_flush_method",
                                          "log_bin",
                                          "sync_binlog"};

// `sql` then the names quoted and separated by commas, then ")".
std::string NameList(std::string sql, std::span<const char* const> names) {
  for (size_t i = 0; i < names.size(); ++i)
    sql += fmt::format("{}'{}'", i == 0 ? "" : ", ", names[i]);
  return sql + ")";
}

void AddPgSettings(DbConnection& conn, DatabaseSettings& out) {
  AddInOrder(out,
             SettingRows(conn, NameList("SELECT name, setting FROM pg_settings WHERE name IN (",
                                        kPgSettings)),
             kPgSettings);
}

void AddMysqlSettings(DbConnection& conn, DatabaseSettings& out) {
  const DatabaseSettings engines = SettingRows(
      conn,
      "SELECT DISTINCT engine FROM information_schema.tables WHERE table_schema = DATABASE() "
      "AND table_name REGEXP '^sbtest[0-9]+$' ORDER BY engine");
  std::string engine;
  for (const auto& row : engines) engine += (engine.empty() ? "" : ", ") + row.first;
  if (!engine.empty()) out.emplace_back("table engine", engine);
  DatabaseSettings rows = SettingRows(
      conn, NameList("SHOW VARIABLES WHERE Variable_name IN ('tx_isolation', ", kMysqlSettings));
  // MariaDB before 11.1 names the isolation tx_isolation (MySQL 8 and
  // MariaDB 11.1 on: transaction_isolation; MariaDB keeps both).
  const bool has_new = std::any_of(
      rows.begin(), rows.end(), [](const auto& r) { return r.first == "transaction_isolation"; });
  for (auto& row : rows) {
    if (!has_new && row.first == "tx_isolation") row.first = "transaction_isolation";
  }
  AddInOrder(out, rows, kMysqlSettings);
}

void AddSqliteSettings(DbConnection& conn, DatabaseSettings& out) {
  const DatabaseSettings journal = SettingRows(conn, "PRAGMA journal_mode");
  if (!journal.empty()) out.emplace_back("journal_mode", journal[0].first);
  const DatabaseSettings sync = SettingRows(conn, "PRAGMA synchronous");
  if (sync.empty()) return;
  // PRAGMA synchronous answers with the level's number.
  static constexpr const char* kLevels[] = {"OFF", "NORMAL", "FULL", "EXTRA"};
  const std::string& n = sync[0].first;
  out.emplace_back("synchronous",
                   n.size() == 1 && n[0] >= '0' && n[0] <= '3' ? kLevels[n[0] - '0'] : n);
}

}  // namespace

DatabaseSettings ReadDatabaseSettings(DbConnection& conn, SqlDialect dialect) {
  DatabaseSettings out = {{"server", conn.ServerVersion()}};
  switch (dialect) {
    case SqlDialect::kPgsql:
      AddPgSettings(conn, out);
      break;
    case SqlDialect::kMysql:
      AddMysqlSettings(conn, out);
      break;
    case SqlDialect::kSqlite:
      AddSqliteSettings(conn, out);
      break;
  }
  return out;
}

DatabaseFacts ReadOltpDataSet(DbConnection& conn, SqlDialect dialect) {
  DatabaseFacts f;
  std::string data_sql;
  std::string cache_sql;
  switch (dialect) {
    case SqlDialect::kPgsql:
      f.driver = "pgsql";
      f.cache_name = "shared_buffers";
      data_sql =
          "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c "
          "WHERE c.relkind = 'r' AND c.relname ~ '^sbtest[0-9]+$' AND pg_table_is_visible(c.oid)";
      cache_sql = "SELECT pg_size_bytes(current_setting('shared_buffers'))";
      break;
    case SqlDialect::kMysql:
      f.driver = "mysql";
      f.cache_name = "innodb_buffer_pool_size";
      data_sql =
          "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables "
          "WHERE table_schema = DATABASE() AND table_name REGEXP '^sbtest[0-9]+$'";
      cache_sql = "SELECT @@innodb_buffer_pool_size";
      break;
    case SqlDialect::kSqlite:
      f.driver = "sqlite";
      break;
  }
  if (dialect == SqlDialect::kSqlite) {
    Result<uint64_t> pages = DataSetNumber(conn, "PRAGMA page_count");
    Result<uint64_t> page = DataSetNumber(conn, "PRAGMA page_size");
    if (!pages.ok() || !page.ok()) {
      f.unknown = (pages.ok() ? page.status() : pages.status()).message();
      return f;
    }
    f.data_bytes = *pages * *page;
    return f;
  }
  Result<uint64_t> data = DataSetNumber(conn, data_sql);
  Result<uint64_t> cache = DataSetNumber(conn, cache_sql);
  if (!data.ok() || !cache.ok()) {
    f.unknown = "the tables' size or " + f.cache_name +
                " could not be read: " + (data.ok() ? cache.status() : data.status()).message();
    return f;
  }
  f.data_bytes = *data;
  f.cache_bytes = *cache;
  return f;
}

DatabaseFacts ReadOltpDataSetAfterRun(DbDriver& driver, DatabaseSettings* settings) {
  DatabaseFacts f;
  Result<SqlDialect> dialect = DialectForDriver(driver.Name());
  if (!dialect.ok()) {
    f.unknown = dialect.status().message();
    return f;
  }
  Result<std::unique_ptr<DbConnection>> conn = driver.Connect(0);
  if (!conn.ok()) {
    f.unknown = "no connection after the run: " + conn.status().message();
    return f;
  }
  if (settings != nullptr) *settings = ReadDatabaseSettings(**conn, *dialect);
  return ReadOltpDataSet(**conn, *dialect);
}

}  // namespace loadcell
