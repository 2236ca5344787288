#pragma once
// How sysbench 1.0 counts the statements of OLTP events (the plan is in
// oltp_plan.h), and the worker that runs transactions on one connection:
// retries after deadlocks and other retryable errors, reconnects after a
// lost connection, think time, client CPU time.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/random.h"
#include "db/db_driver.h"
#include "runner/workload.h"
#include "workloads/oltp/oltp_options.h"
#include "workloads/oltp/oltp_plan.h"
#include "workloads/oltp/oltp_sql.h"

namespace loadcell {

// Counters the OLTP workers add through ThreadRecorder::Add, in this order.
enum OltpCounter : int {
  kOltpReads = 0,      // statements that return a result set (SELECT)
  kOltpWrites,         // INSERT/UPDATE/DELETE that changed at least one row
  kOltpOthers,         // BEGIN, COMMIT, ROLLBACK, and DML that changed no row
  kOltpTransactions,   // completed events
  kOltpIgnoredErrors,  // statements failed with a retryable/ignorable error
  kOltpReconnects,     // connections re-opened (after a loss or by reconnect mode)
  kOltpDeadlocks,      // of the ignored errors: deadlocks and serialization failures
  kOltpThinkTimeNs,    // --oltp-user-delay-* sleeps
  kOltpClientCpuNs,    // CPU time of the worker threads (this process)
  kOltpLockWaits,      // of the ignored errors: lock wait timeouts
  kOltpCounterCount,
};
const std::vector<std::string>& OltpCounterNames();

// sysbench 1.0's rule: a statement with a result set is a read (even with
// no rows); one without is a write when it changed rows, else other.
inline OltpCounter CounterFor(OltpStmt s, const DbExecResult& r) {
  if (IsSelect(s)) return kOltpReads;
  return r.rows_affected > 0 ? kOltpWrites : kOltpOthers;
}

// Shared, read-only while workers run.
struct OltpRunShared {
  OltpPlan plan;
  OltpOptions opts;
  DbDriver* driver = nullptr;
  SqlDialect dialect = SqlDialect::kSqlite;
  int threads = 1;
  uint64_t unique_base = 0;  // start of the client-generated id sequence
  // bulk_insert: the first id each thread inserts (index = thread id).
  std::vector<int64_t> bulk_next_ids;
};

// Creates the worker of thread ctx.thread_id: connects (or takes `conn`),
// prepares its statements lazily. Connection errors are returned as they are
// (kUnavailable for a server that cannot be reached).
Result<std::unique_ptr<Worker>> NewOltpWorker(const OltpRunShared& shared, const ThreadContext& ctx,
                                              std::unique_ptr<DbConnection> conn);

// The uniformly distributed 32-bit permutation behind --auto-inc=off ids:
// distinct inputs give distinct outputs.
uint32_t PermuteId32(uint32_t x);

}  // namespace loadcell
