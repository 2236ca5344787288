#pragma once
// prepare and cleanup of the OLTP tables, and the check that `run` finds
// them. Safe by construction: the registry (loadcell_tables) and a marker
// on each table prove which tables loadcell created (oltp_registry.h);
// prepare refuses an existing sbtestN it did not create (unless --force),
// cleanup drops only the tables it created, and `run` uses only complete
// tables of loadcell's, or others with --db-use-existing-tables=on.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "db/db_driver.h"
#include "db/sqlite/sqlite_files.h"
#include "runner/workload.h"
#include "workloads/oltp/oltp_options.h"
#include "workloads/oltp/oltp_sql.h"

namespace loadcell {

struct OltpDbContext {
  OltpKind kind = OltpKind::kReadWrite;
  const OltpOptions* opts = nullptr;
  DbDriver* driver = nullptr;
  SqlDialect dialect = SqlDialect::kSqlite;
  int threads = 1;  // --threads: tables loaded in parallel; bulk_insert's table count
  uint64_t seed = 0;
  bool quiet = false;  // no table lines on stdout, no progress on stderr
  // Under MPI, the ranks that prepare together (null alone): rank 0 checks
  // and records every table, each rank loads its share of them (table n by
  // rank (n - 1) % ranks; SQLite's all by rank 0), and every rank's outcome
  // is every rank's (ProcessGroup::Agree).
  ProcessGroup* group = nullptr;
};

// The tables workload `kind` uses: sbtest1..--tables, or sbtest1..threads
// for bulk_insert.
std::vector<std::string> OltpTables(const OltpDbContext& c);

// Creates and loads the tables, one table per thread at a time, with the
// driver's bulk path (COPY on PostgreSQL, multi-row INSERT elsewhere), then
// the secondary index. Progress on stderr, one line per table on stdout.
// `conn` is a connection to use for the checks (may be null).
Status OltpPrepare(const OltpDbContext& c, std::unique_ptr<DbConnection> conn);

// The status of a SQLite prepare that ended with `s` (every connection
// closed): when it failed or was interrupted after it created the database
// file (`files`, recorded before the first connection), the files it created
// are removed and the message says so; when the file existed before, it is
// left, and the message says why and that the tables this prepare began stay
// marked incomplete; a refusal there (exit 2, nothing changed) is returned
// as is.
Status EndSqlitePrepare(const Status& s, const SqliteNewFiles& files, OltpKind kind);

// Drops the tables of OltpTables() that loadcell created (complete or not);
// others, and a same-named table made since prepare, are left with a
// one-line warning each. Across ranks (c.group): by rank 0 alone.
Status OltpCleanup(const OltpDbContext& c, std::unique_ptr<DbConnection> conn);

// OK when every table of OltpTables() is a complete table of loadcell's,
// or, with --db-use-existing-tables=on, a table with the columns the
// workload uses. Otherwise FailedPrecondition (exit 2) naming the first
// table that is missing, incompletely prepared, not loadcell's, or lacks a
// column, and what to do.
Status CheckOltpTables(const OltpDbContext& c, DbConnection& conn);

// bulk_insert: the first free id of each thread's table (MAX(id) + 1).
Result<std::vector<int64_t>> BulkInsertNextIds(const OltpDbContext& c, DbConnection& conn);

}  // namespace loadcell
