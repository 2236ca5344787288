#pragma once
// Which sbtestN tables are loadcell's: the registry (the table
// loadcell_tables) and the marker each table prepare creates carries.
//
// A table is loadcell's only when both agree: the registry has a row for its
// name with a random token made for that one CREATE, and the table itself
// carries the token (PostgreSQL: COMMENT ON TABLE, and the table's OID is the
// one recorded; MySQL/MariaDB: the table comment; SQLite: a comment in the
// CREATE statement that sqlite_master keeps). A same-named table made later
// has neither the token nor the OID, so it is never taken for loadcell's.
//
// Completion: prepare records a table as "loading" before it creates it, and
// as "complete" (registry state, and the comment on PostgreSQL and MySQL)
// only after its last row and index; an interrupted or failed prepare leaves
// it "loading", and `run` refuses it.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "db/db_driver.h"
#include "workloads/oltp/oltp_sql.h"

namespace loadcell {

enum class TableOwner {
  kMissing,         // no such table
  kOurs,            // created by loadcell's prepare, completely loaded
  kOursIncomplete,  // created by loadcell's prepare, whose load did not finish
  kForeign,         // not proven loadcell's: made by hand, by sysbench, or replaced
};

// One row of the registry.
struct RegistryRow {
  std::string token;  // the marker's token; "" for none
  std::string state;  // "loading" or "complete"
  std::string oid;    // PostgreSQL: the table's OID as text; "" elsewhere
};

class TableRegistry final {
 public:
  // Reads the registry; empty when the registry table does not exist, or
  // has the layout of an older loadcell (no tokens: nothing in it proves a
  // table loadcell's).
  static Result<TableRegistry> Load(DbConnection& conn, SqlDialect d);
  // FailedPrecondition for a registry of the older layout, which prepare and
  // cleanup cannot keep; OK otherwise.
  Status CheckLayout() const;

  bool exists() const { return exists_; }
  bool Has(std::string_view table) const { return rows_.count(std::string(table)) > 0; }
  bool empty() const { return rows_.empty(); }
  // The token `table` is recorded with; "" when it is not recorded.
  std::string Token(std::string_view table) const {
    const auto it = rows_.find(std::string(table));
    return it == rows_.end() ? std::string() : it->second.token;
  }

  // What `table` is, from the registry and the table's own marker.
  Result<TableOwner> Owner(DbConnection& conn, std::string_view table) const;

  // Creates the registry table (when missing) and records `table` as being
  // loaded with `token`, replacing any earlier row for that name.
  Status Record(DbConnection& conn, std::string_view table, std::string_view workload,
                std::string_view token);
  // Removes the row of `table` (after it was dropped, or found replaced).
  Status Forget(DbConnection& conn, std::string_view table);

 private:
  SqlDialect dialect_ = SqlDialect::kSqlite;
  bool exists_ = false;
  bool old_layout_ = false;
  std::map<std::string, RegistryRow> rows_;
};

// A new random token for one table's marker (16 hex digits).
std::string NewMarkerToken();

// Runs `create_sql` (a CREATE TABLE of `table` that carries the marker of
// `token` inline on MySQL and SQLite) and, on PostgreSQL, in the same
// transaction the comment "loading" and the table's OID into the registry:
// a table this call created always carries its marker.
Status CreateMarkedTable(DbConnection& conn, SqlDialect d, std::string_view table,
                         const std::string& create_sql, std::string_view token);

// After the last row and index: the marker and the registry say "complete".
Status MarkComplete(DbConnection& conn, SqlDialect d, std::string_view table,
                    std::string_view token);

// Runs `sql`, keeping its rows in `rows` when set; a failure as a Status
// "<what>: <the server's message>" of the error's class.
Status ExecOltpSql(DbConnection& conn, std::string_view sql, const std::string& what,
                   DbRows* rows = nullptr);
// `e` as a Status "<what>: <message>".
Status OltpDbFailure(const DbError& e, const std::string& what);

// The columns of `table` (lower case), in no particular order.
Result<std::vector<std::string>> TableColumns(DbConnection& conn, SqlDialect d,
                                              std::string_view table);

}  // namespace loadcell
