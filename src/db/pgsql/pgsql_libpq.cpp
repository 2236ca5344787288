// libpq's requests with time limits: what PQexec, PQprepare, PQexecPrepared
// and COPY's PQputCopyData/PQgetResult would do, with every wait for the
// server bounded by the connection's read and write timeouts.

#include <poll.h>

#include "db/pgsql/pgsql_internal.h"
#include "db/socket_wait.h"

namespace loadcell::pgsql_internal {

DbError PgConnection::WaitLibpqSocket(short events, int timeout_ms, const char* which) {
  switch (WaitForSocket(Pq().PQsocket(conn_), events, timeout_ms)) {
    case SocketWait::kReady:
      return {};
    case SocketWait::kTimedOut: {
      DbError e = TimedOut(which);
      Close();
      return e;
    }
    case SocketWait::kFailed:
      break;
  }
  DbError e = ErrorFrom(nullptr);
  Close();
  return e;
}

DbError PgConnection::AwaitLibpq() {
  if (conn_ == nullptr) return Lost();
  const PqApi& pq = Pq();
  for (;;) {
    const int flushed = pq.PQflush(conn_);
    if (flushed == 0) break;
    if (flushed < 0) return ErrorFrom(nullptr);
    // The server may answer before it took everything: read as well.
    if (DbError e = WaitLibpqSocket(POLLOUT | POLLIN, settings_->timeouts.write_ms(), "write");
        !e.ok())
      return e;
    if (pq.PQconsumeInput(conn_) == 0) return ErrorFrom(nullptr);
  }
  while (pq.PQisBusy(conn_) != 0) {
    if (DbError e = WaitLibpqSocket(POLLIN, settings_->timeouts.read_ms(), "read"); !e.ok())
      return e;
    if (pq.PQconsumeInput(conn_) == 0) return ErrorFrom(nullptr);
  }
  return {};
}

PGresult* PgConnection::LibpqResult(DbError& error) {
  const PqApi& pq = Pq();
  PGresult* kept = nullptr;
  for (;;) {
    error = AwaitLibpq();
    if (!error.ok()) {
      if (kept != nullptr) pq.PQclear(kept);
      return nullptr;
    }
    PGresult* r = pq.PQgetResult(conn_);
    if (r == nullptr) break;
    const ExecStatusType st = pq.PQresultStatus(r);
    if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH) {
      if (kept != nullptr) pq.PQclear(kept);
      return r;  // libpq returns no null after these: the caller goes on
    }
    const bool kept_failed = kept != nullptr && pq.PQresultStatus(kept) == PGRES_FATAL_ERROR;
    if (kept_failed) {
      pq.PQclear(r);
    } else {
      if (kept != nullptr) pq.PQclear(kept);
      kept = r;
    }
  }
  return kept;
}

DbError PgConnection::ConsumeLibpq(int sent, DbExecResult& result, DbRows* rows) {
  result = {};
  if (conn_ == nullptr) return Lost();
  if (sent != 1) return ErrorFrom(nullptr);
  DbError e;
  PGresult* res = LibpqResult(e);
  if (!e.ok()) return e;
  return Consume(res, result, rows);
}

DbError PgConnection::PutCopy(const char* data, int size) {
  for (;;) {
    if (conn_ == nullptr) return Lost();
    const int rc = Pq().PQputCopyData(conn_, data, size);
    if (rc == 1) return {};
    if (rc < 0) return ErrorFrom(nullptr);
    if (DbError e = WaitLibpqSocket(POLLOUT, settings_->timeouts.write_ms(), "write"); !e.ok())
      return e;
  }
}

DbError PgConnection::PutCopyEnd(const char* error_or_null) {
  for (;;) {
    if (conn_ == nullptr) return Lost();
    const int rc = Pq().PQputCopyEnd(conn_, error_or_null);
    if (rc == 1) return {};
    if (rc < 0) return ErrorFrom(nullptr);
    if (DbError e = WaitLibpqSocket(POLLOUT, settings_->timeouts.write_ms(), "write"); !e.ok())
      return e;
  }
}

}  // namespace loadcell::pgsql_internal
