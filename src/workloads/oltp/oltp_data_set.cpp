#include "workloads/oltp/oltp_data_set.h"

#include <cstdlib>
#include <memory>
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

}  // namespace

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

DatabaseFacts ReadOltpDataSetAfterRun(DbDriver& driver) {
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
  return ReadOltpDataSet(**conn, *dialect);
}

}  // namespace loadcell
