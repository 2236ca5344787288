#pragma once
// SQL text of the OLTP workloads: sysbench 1.0's schema and statements, per
// server dialect, and its random c/pad strings. Pure functions, no I/O.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/random.h"
#include "core/status.h"
#include "db/db_driver.h"
#include "workloads/oltp/oltp_options.h"

namespace loadcell {

enum class SqlDialect { kSqlite, kPgsql, kMysql };

// The dialect of driver `name` (sqlite, pgsql, mysql); NotFound otherwise.
Result<SqlDialect> DialectForDriver(std::string_view name);

// sysbench's templates: '#' is a random decimal digit, other characters
// are copied. c: ten groups of 11 digits joined by '-' (119 characters);
// pad: five groups (59 characters).
std::string_view CValueTemplate();
std::string_view PadValueTemplate();
// Writes the template with every '#' replaced by a random digit (and every
// '@' by a random lower-case letter) into `out` (resized to its length).
void RandomFromTemplate(Random& rng, std::string_view tmpl, std::string& out);

// "sbtest<n>".
std::string OltpTableName(int64_t n);

// The registry that records which tables loadcell created (see
// oltp_registry.h): name, workload, the marker's token, state ("loading" or
// "complete") and, on PostgreSQL, the table's OID.
inline constexpr std::string_view kMarkerTable = "loadcell_tables";
std::string CreateMarkerTableSql();
std::string InsertMarkerSql(std::string_view table, std::string_view workload,
                            std::string_view token);
std::string DeleteMarkerSql(std::string_view table);
std::string SelectMarkersSql();
// Sets the state of `table` to "complete".
std::string CompleteMarkerSql(std::string_view table);

// The marker a table loaded with `token` carries. The table comment on
// PostgreSQL and MySQL: "loadcell table <token> loading" until the last row
// and index are in, then "... complete". SQLite cannot change a table's
// comment: its CREATE statement carries "/* loadcell table <token> */".
std::string MarkerComment(std::string_view token, bool complete);
std::string SqliteMarker(std::string_view token);
// The statement that sets the table comment of `table` (PostgreSQL, MySQL).
std::string SetTableCommentSql(SqlDialect d, std::string_view table, std::string_view comment);
// One row (the OID as text on PostgreSQL, else ''; the marker text: the
// table comment, or SQLite's CREATE statement) for `table` when it exists
// in the current database/schema, none otherwise.
std::string TableMarkerSql(SqlDialect d, std::string_view table);
// The names of the columns of `table`, one row each.
std::string TableColumnsSql(SqlDialect d, std::string_view table);
// A query that returns one row for table `table` when it exists in the
// current database/schema, none otherwise.
std::string TableExistsSql(SqlDialect d, std::string_view table);

// CREATE TABLE sbtest<n> with sysbench's columns: id (auto-increment unless
// --auto-inc=off), k INTEGER, c CHAR(120), pad CHAR(60), and a primary key
// on id (or, with --secondary, a plain index created by SecondaryIdIndexSql);
// with the marker of `token` on MySQL (COMMENT, "loading") and SQLite.
std::string CreateTableSql(SqlDialect d, int64_t n, const OltpOptions& o, std::string_view token);
// "CREATE INDEX xid_<n> ON sbtest<n>(id)" for --secondary on servers whose
// CREATE TABLE cannot declare it inline (empty string on MySQL).
std::string SecondaryIdIndexSql(SqlDialect d, int64_t n);
// "CREATE INDEX k_<n> ON sbtest<n>(k)".
std::string CreateKIndexSql(int64_t n);
std::string DropTableSql(std::string_view table);
// bulk_insert's table: (id INTEGER NOT NULL, k INTEGER, PRIMARY KEY (id)),
// created only when missing, with the marker as CreateTableSql.
std::string CreateBulkTableSql(SqlDialect d, int64_t n, std::string_view token);

// The head of a multi-row INSERT for loading sbtest<n>:
// "INSERT INTO sbtest<n>(k, c, pad) VALUES" (with id when !auto_inc).
std::string LoadInsertHead(int64_t n, bool auto_inc);
// Appends "(id, k, 'c', 'pad')" (id only when auto_inc is false), preceded
// by ',' when `first` is false.
void AppendLoadRow(std::string& out, bool first, bool auto_inc, int64_t id, int64_t k,
                   std::string_view c, std::string_view pad);
// The column list COPY and bulk methods load: "k, c, pad" or "id, k, c, pad".
std::vector<std::string> LoadColumns(bool auto_inc);

// The statements of a transaction, in sysbench's text.
enum class OltpStmt {
  kPointSelect,
  kSimpleRange,
  kSumRange,
  kOrderRange,
  kDistinctRange,
  kIndexUpdate,
  kNonIndexUpdate,
  kDelete,
  kInsert,         // (id, k, c, pad): the delete/insert pair
  kInsertAutoInc,  // oltp_insert with --auto-inc: (k, c, pad), id from the server
  kRandomPoints,   // select_random_points
  kRandomRanges,   // select_random_ranges
};
inline constexpr int kOltpStmtCount = 12;

// True for the statements that return rows (counted as reads).
bool IsSelect(OltpStmt s);
// Number of `?` parameters; `points` is --random-points or
// --number-of-ranges for the two select_random tests.
int StatementParams(OltpStmt s, int64_t points);
// The SQL with `?` placeholders for table sbtest<table>.
std::string StatementSql(OltpStmt s, int64_t table, int64_t points);

}  // namespace loadcell
