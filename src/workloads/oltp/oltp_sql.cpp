#include "workloads/oltp/oltp_sql.h"

#include <fmt/format.h>

namespace loadcell {

Result<SqlDialect> DialectForDriver(std::string_view name) {
  if (name == "sqlite") return SqlDialect::kSqlite;
  if (name == "pgsql") return SqlDialect::kPgsql;
  if (name == "mysql") return SqlDialect::kMysql;
  return Status::NotFound(fmt::format("no SQL dialect for driver '{}'", name));
}

std::string_view CValueTemplate() {
  static const std::string kC = [] {
    std::string s;
    for (int g = 0; g < 10; ++g) {
      if (g > 0) s += '-';
      s.append(11, '#');
    }
    return s;
  }();
  return kC;
}

std::string_view PadValueTemplate() {
  static const std::string kPad = [] {
    std::string s;
    for (int g = 0; g < 5; ++g) {
      if (g > 0) s += '-';
      s.append(11, '#');
    }
    return s;
  }();
  return kPad;
}

void RandomFromTemplate(Random& rng, std::string_view tmpl, std::string& out) {
  out.resize(tmpl.size());
  // One 64-bit draw gives 19 decimal digits; refill when they run out.
  uint64_t bits = 0;
  int digits_left = 0;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const char t = tmpl[i];
    if (t == '#') {
      if (digits_left == 0) {
        bits = rng.Next();
        digits_left = 19;
      }
      out[i] = static_cast<char>('0' + bits % 10);
      bits /= 10;
      --digits_left;
    } else if (t == '@') {
      out[i] = static_cast<char>('a' + rng.Uniform(0, 25));
    } else {
      out[i] = t;
    }
  }
}

std::string OltpTableName(int64_t n) { return fmt::format("sbtest{}", n); }

std::string CreateMarkerTableSql() {
  return fmt::format(
      "CREATE TABLE IF NOT EXISTS {} (name VARCHAR(64) NOT NULL PRIMARY KEY, "
      "workload VARCHAR(64) NOT NULL, token VARCHAR(32) NOT NULL, state VARCHAR(16) NOT NULL, "
      "oid VARCHAR(20) NOT NULL)",
      kMarkerTable);
}

std::string InsertMarkerSql(std::string_view table, std::string_view workload,
                            std::string_view token) {
  return fmt::format(
      "INSERT INTO {} (name, workload, token, state, oid) VALUES ('{}', '{}', '{}', 'loading', "
      "'')",
      kMarkerTable, table, workload, token);
}

std::string DeleteMarkerSql(std::string_view table) {
  return fmt::format("DELETE FROM {} WHERE name = '{}'", kMarkerTable, table);
}

std::string SelectMarkersSql() {
  return fmt::format("SELECT name, token, state, oid FROM {}", kMarkerTable);
}

std::string CompleteMarkerSql(std::string_view table) {
  return fmt::format("UPDATE {} SET state = 'complete' WHERE name = '{}'", kMarkerTable, table);
}

std::string MarkerComment(std::string_view token, bool complete) {
  return fmt::format("loadcell table {} {}", token, complete ? "complete" : "loading");
}

std::string SqliteMarker(std::string_view token) {
  return fmt::format("/* loadcell table {} */", token);
}

std::string SetTableCommentSql(SqlDialect d, std::string_view table, std::string_view comment) {
  if (d == SqlDialect::kMysql) return fmt::format("ALTER TABLE {} COMMENT = '{}'", table, comment);
  return fmt::format("COMMENT ON TABLE {} IS '{}'", table, comment);
}

namespace {

// A query of information_schema.`view` for `table` in the current schema
// (PostgreSQL) or database (MySQL).
std::string InformationSchemaSql(SqlDialect d, std::string_view columns, std::string_view view,
                                 std::string_view table) {
  return fmt::format(
      "SELECT {} FROM information_schema.{} WHERE table_schema = {} AND "
      "table_name = '{}'",
      columns, view, d == SqlDialect::kPgsql ? "current_schema()" : "DATABASE()", table);
}

}  // namespace

std::string TableExistsSql(SqlDialect d, std::string_view table) {
  if (d == SqlDialect::kSqlite) {
    return fmt::format("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '{}'",
                       table);
  }
  return InformationSchemaSql(d, "table_name", "tables", table);
}

std::string TableMarkerSql(SqlDialect d, std::string_view table) {
  switch (d) {
    case SqlDialect::kSqlite:
      return fmt::format("SELECT '', sql FROM sqlite_master WHERE type = 'table' AND name = '{}'",
                         table);
    case SqlDialect::kPgsql:
      return fmt::format(
          "SELECT c.oid::text, COALESCE(obj_description(c.oid, 'pg_class'), '') FROM pg_class c "
          "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND "
          "c.relname = '{}' AND c.relkind IN ('r', 'p')",
          table);
    case SqlDialect::kMysql:
      return InformationSchemaSql(d, "'', table_comment", "tables", table);
  }
  return "";
}

std::string TableColumnsSql(SqlDialect d, std::string_view table) {
  if (d == SqlDialect::kSqlite) {
    return fmt::format("SELECT name FROM pragma_table_info('{}')", table);
  }
  return InformationSchemaSql(d, "column_name", "columns", table);
}

std::string CreateTableSql(SqlDialect d, int64_t n, const OltpOptions& o, std::string_view token) {
  std::string id_def;
  std::string key_def = o.secondary ? "" : ",\n  PRIMARY KEY (id)";
  std::string tail;
  switch (d) {
    case SqlDialect::kMysql:
      id_def = o.auto_inc ? "INTEGER NOT NULL AUTO_INCREMENT" : "INTEGER NOT NULL";
      if (o.secondary) key_def = ",\n  KEY xid (id)";
      tail = fmt::format(" /*! ENGINE = {} */ COMMENT = '{}'", o.mysql_storage_engine,
                         MarkerComment(token, false));
      break;
    case SqlDialect::kPgsql:
      id_def = o.auto_inc ? "SERIAL" : "INTEGER NOT NULL";
      break;
    case SqlDialect::kSqlite:
      // INTEGER PRIMARY KEY is SQLite's rowid: an omitted id takes max + 1.
      id_def = "INTEGER NOT NULL";
      break;
  }
  return fmt::format(
      "CREATE TABLE {}({}\n  id {},\n  k INTEGER DEFAULT '0' NOT NULL,\n"
      "  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL{}\n){}",
      OltpTableName(n), d == SqlDialect::kSqlite ? SqliteMarker(token) : "", id_def, key_def, tail);
}

std::string SecondaryIdIndexSql(SqlDialect d, int64_t n) {
  if (d == SqlDialect::kMysql) return "";
  return fmt::format("CREATE INDEX xid_{} ON sbtest{}(id)", n, n);
}

std::string CreateKIndexSql(int64_t n) {
  return fmt::format("CREATE INDEX k_{} ON sbtest{}(k)", n, n);
}

std::string DropTableSql(std::string_view table) {
  return fmt::format("DROP TABLE IF EXISTS {}", table);
}

std::string CreateBulkTableSql(SqlDialect d, int64_t n, std::string_view token) {
  return fmt::format(
      "CREATE TABLE IF NOT EXISTS sbtest{} ({}\n  id INTEGER NOT NULL,\n"
      "  k INTEGER DEFAULT '0' NOT NULL,\n  PRIMARY KEY (id)){}",
      n, d == SqlDialect::kSqlite ? SqliteMarker(token) : "",
      d == SqlDialect::kMysql ? fmt::format(" COMMENT = '{}'", MarkerComment(token, false)) : "");
}

std::string LoadInsertHead(int64_t n, bool auto_inc) {
  return fmt::format("INSERT INTO sbtest{}({}) VALUES", n,
                     auto_inc ? "k, c, pad" : "id, k, c, pad");
}

void AppendLoadRow(std::string& out, bool first, bool auto_inc, int64_t id, int64_t k,
                   std::string_view c, std::string_view pad) {
  if (!first) out += ',';
  out += '(';
  if (!auto_inc) {
    fmt::format_to(std::back_inserter(out), "{}, ", id);
  }
  fmt::format_to(std::back_inserter(out), "{}, '", k);
  out.append(c);
  out += "', '";
  out.append(pad);
  out += "')";
}

std::vector<std::string> LoadColumns(bool auto_inc) {
  if (auto_inc) return {"k", "c", "pad"};
  return {"id", "k", "c", "pad"};
}

bool IsSelect(OltpStmt s) {
  switch (s) {
    case OltpStmt::kPointSelect:
    case OltpStmt::kSimpleRange:
    case OltpStmt::kSumRange:
    case OltpStmt::kOrderRange:
    case OltpStmt::kDistinctRange:
    case OltpStmt::kRandomPoints:
    case OltpStmt::kRandomRanges:
      return true;
    default:
      return false;
  }
}

int StatementParams(OltpStmt s, int64_t points) {
  switch (s) {
    case OltpStmt::kPointSelect:
    case OltpStmt::kIndexUpdate:
    case OltpStmt::kDelete:
      return 1;
    case OltpStmt::kSimpleRange:
    case OltpStmt::kSumRange:
    case OltpStmt::kOrderRange:
    case OltpStmt::kDistinctRange:
    case OltpStmt::kNonIndexUpdate:
      return 2;
    case OltpStmt::kInsert:
      return 4;
    case OltpStmt::kInsertAutoInc:
      return 3;
    case OltpStmt::kRandomPoints:
      return static_cast<int>(points);
    case OltpStmt::kRandomRanges:
      return static_cast<int>(points * 2);
  }
  return 0;
}

std::string StatementSql(OltpStmt s, int64_t table, int64_t points) {
  switch (s) {
    case OltpStmt::kPointSelect:
      return fmt::format("SELECT c FROM sbtest{} WHERE id=?", table);
    case OltpStmt::kSimpleRange:
      return fmt::format("SELECT c FROM sbtest{} WHERE id BETWEEN ? AND ?", table);
    case OltpStmt::kSumRange:
      return fmt::format("SELECT SUM(k) FROM sbtest{} WHERE id BETWEEN ? AND ?", table);
    case OltpStmt::kOrderRange:
      return fmt::format("SELECT c FROM sbtest{} WHERE id BETWEEN ? AND ? ORDER BY c", table);
    case OltpStmt::kDistinctRange:
      return fmt::format("SELECT DISTINCT c FROM sbtest{} WHERE id BETWEEN ? AND ? ORDER BY c",
                         table);
    case OltpStmt::kIndexUpdate:
      return fmt::format("UPDATE sbtest{} SET k=k+1 WHERE id=?", table);
    case OltpStmt::kNonIndexUpdate:
      return fmt::format("UPDATE sbtest{} SET c=? WHERE id=?", table);
    case OltpStmt::kDelete:
      return fmt::format("DELETE FROM sbtest{} WHERE id=?", table);
    case OltpStmt::kInsert:
      return fmt::format("INSERT INTO sbtest{} (id, k, c, pad) VALUES (?, ?, ?, ?)", table);
    case OltpStmt::kInsertAutoInc:
      return fmt::format("INSERT INTO sbtest{} (k, c, pad) VALUES (?, ?, ?)", table);
    case OltpStmt::kRandomPoints: {
      std::string list;
      for (int64_t i = 0; i < points; ++i) list += i == 0 ? "?" : ", ?";
      return fmt::format("SELECT id, k, c, pad FROM sbtest{} WHERE k IN ({})", table, list);
    }
    case OltpStmt::kRandomRanges: {
      std::string ranges;
      for (int64_t i = 0; i < points; ++i)
        ranges += i == 0 ? "k BETWEEN ? AND ?" : " OR k BETWEEN ? AND ?";
      return fmt::format("SELECT count(k) FROM sbtest{} WHERE {}", table, ranges);
    }
  }
  return "";
}

}  // namespace loadcell
