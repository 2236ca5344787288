#pragma once
// The size of an OLTP test's tables and of the server's buffer pool, read
// once after the run for the verdict's database check (docs/validity.md).

#include "db/db_driver.h"
#include "runner/run_facts.h"
#include "workloads/oltp/oltp_sql.h"

namespace loadcell {

// The sbtestN tables' bytes (data and indexes: pg_total_relation_size,
// information_schema.tables, SQLite's pages) and the buffer pool's
// (shared_buffers, innodb_buffer_pool_size; none for SQLite), over `conn`.
// A query that fails leaves the sizes 0 and says why in `unknown`.
DatabaseFacts ReadOltpDataSet(DbConnection& conn, SqlDialect dialect);

// The server's settings that change what an OLTP figure measures, over
// `conn` (the run's first connection, before the run): {"server", its
// version}, then PostgreSQL's isolation and durability settings
// (default_transaction_isolation, fsync, synchronous_commit, ...), MySQL's
// and MariaDB's (the sbtestN tables' engine, transaction_isolation,
// innodb_flush_log_at_trx_commit, ...) or SQLite's (journal_mode,
// synchronous), in that order. A setting the server does not answer is left
// out (docs/validity.md, "Comparing results").
DatabaseSettings ReadDatabaseSettings(DbConnection& conn, SqlDialect dialect);

// ReadOltpDataSet over a connection of its own from `driver` (closed
// after), the dialect from the driver's name; a driver it cannot connect
// through, or of no known dialect, says why in `unknown`. With `settings`,
// also ReadDatabaseSettings over the same connection into it (a Lua
// script's run, whose settings are not read before the run); left empty
// when there is no connection.
DatabaseFacts ReadOltpDataSetAfterRun(DbDriver& driver, DatabaseSettings* settings = nullptr);

}  // namespace loadcell
