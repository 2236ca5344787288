// PgLibrarySession on libpq (loaded with dlopen, db/pgsql/pq_api.h): the
// connect of --db-connector=library, and on an encrypted connection what
// PQexec, PQprepare, PQexecPrepared and COPY's PQputCopyData/PQgetResult
// would do, with every wait for the server bounded by the connection's read
// and write timeouts.

#include <fcntl.h>
#include <fmt/format.h>
#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "db/pgsql/pgsql_internal.h"
#include "db/pgsql/pq_api.h"
#include "db/socket_wait.h"

namespace loadcell::pgsql_internal {
namespace {

class LibpqSession final : public PgLibrarySession {
 public:
  explicit LibpqSession(PgConnection& owner) : owner_(owner) {}
  ~LibpqSession() override { Finish(); }

  Status Connect(const PgSettings& s) override;
  bool open() const override { return conn_ != nullptr; }
  SocketHandle Socket() const override { return Pq().PQsocket(conn_); }
  bool Encrypted() const override {
    return Pq().PQsslInUse(conn_) != 0 || Pq().PQgssEncInUse(conn_) != 0;
  }
  std::string Parameter(const char* name) const override {
    const char* v = conn_ != nullptr ? Pq().PQparameterStatus(conn_, name) : nullptr;
    return v != nullptr ? v : "";
  }
  void SetBlocking(bool on) override {
    const int fd = Pq().PQsocket(conn_);
    const int flags = fcntl(fd, F_GETFL, 0);
    if (flags >= 0) fcntl(fd, F_SETFL, on ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK));
  }
  bool Idle() const override {
    return Pq().PQstatus(conn_) == CONNECTION_OK && Pq().PQtransactionStatus(conn_) == PQTRANS_IDLE;
  }
  DbError Query(std::string_view sql, DbExecResult& result, DbRows* rows) override {
    sql_.assign(sql);
    return ConsumeLibpq(Pq().PQsendQuery(conn_, sql_.c_str()), result, rows);
  }
  DbError Prepare(const std::string& name, const std::string& sql, int nparams) override {
    DbExecResult ignored;
    return ConsumeLibpq(Pq().PQsendPrepare(conn_, name.c_str(), sql.c_str(), nparams, nullptr),
                        ignored, nullptr);
  }
  DbError ExecutePrepared(const std::string& name, int n, const char* const* values,
                          const int* lengths, DbExecResult& result, DbRows* rows) override {
    return ConsumeLibpq(
        Pq().PQsendQueryPrepared(conn_, name.c_str(), n, values, lengths, nullptr, 0), result,
        rows);
  }
  DbError StartCopy(const std::string& sql) override;
  DbError PutCopy(const char* data, int size) override;
  DbError EndCopy(const char* error_or_null) override;
  void Finish() override {
    if (conn_ != nullptr) Pq().PQfinish(conn_);
    conn_ = nullptr;
  }

 private:
  // The result of a command: rows counted (and kept when asked), errors
  // classified. Takes ownership of `res`.
  DbError Consume(PGresult* res, DbExecResult& result, DbRows* rows);
  // Classifies a failed result (or a missing one: the connection broke).
  DbError ErrorFrom(const PGresult* res);
  static uint64_t CmdTuples(PGresult* res);
  static void KeepRows(PGresult* res, int n, DbRows& rows);
  // Waits for `events` on libpq's socket within `timeout_ms` (0: none);
  // `which` ("read" or "write") names the timeout in the error.
  DbError WaitSocket(short events, int timeout_ms, const char* which);
  // Sends what libpq queued and waits until the reply is in.
  DbError Await();
  // The reply to the request just sent: the first failed result, else the
  // last one, else a COPY's start at once; null with `error` set on a
  // timeout or a lost connection (then null and ok when there is none).
  PGresult* Result(DbError& error);
  // The reply to the request just sent (`sent`: PQsend*'s outcome), consumed.
  DbError ConsumeLibpq(int sent, DbExecResult& result, DbRows* rows);

  PgConnection& owner_;
  const PgSettings* settings_ = nullptr;
  PGconn* conn_ = nullptr;
  std::string sql_;  // NUL-terminated copy for PQsendQuery, reused
};

Status LibpqSession::Connect(const PgSettings& s) {
  Finish();
  settings_ = &s;
  LC_RETURN_IF_ERROR(LoadPq());
  const std::string port = std::to_string(s.port);
  // libpq takes whole seconds, and at least 2.
  const std::string connect_timeout =
      std::to_string(std::max(2u, DbTimeouts::WholeSeconds(s.timeouts.connect_s)));
  std::vector<const char*> keys = {
      "host", "port", "user", "dbname", "sslmode", "connect_timeout", "application_name"};
  std::vector<const char*> vals = {s.host.c_str(), port.c_str(),      s.user.c_str(),
                                   s.db.c_str(),   s.sslmode.c_str(), connect_timeout.c_str(),
                                   "loadcell"};
  if (!s.password_in_use.empty()) {
    keys.push_back("password");
    vals.push_back(s.password_in_use.c_str());
  }
  keys.push_back(nullptr);
  vals.push_back(nullptr);
  conn_ = Pq().PQconnectdbParams(keys.data(), vals.data(), 0);
  if (conn_ == nullptr) return Status::ResourceExhausted("pgsql: out of memory");
  if (Pq().PQstatus(conn_) != CONNECTION_OK) {
    std::string why = OneLine(Pq().PQerrorMessage(conn_), s.password_in_use);
    // Drop the preamble that repeats host and port.
    if (size_t p = why.find(" failed: ");
        p != std::string::npos && why.rfind("connection to", 0) == 0) {
      why.erase(0, p + 9);
    }
    if (why.rfind("FATAL: ", 0) == 0) why.erase(0, 7);
    // libpq's own hint; the caller adds ours.
    if (size_t p = why.find(" Is the server running"); p != std::string::npos) why.erase(p);
    Finish();
    return Status(StatusCode::kUnavailable, why);
  }
  // Every libpq wait is ours, bounded by the timeouts.
  if (Pq().PQsetnonblocking(conn_, 1) != 0) {
    Finish();
    return Status(StatusCode::kUnavailable, "cannot put the connection in non-blocking mode");
  }
  // Notices (e.g. "table does not exist, skipping") stay off stderr.
  Pq().PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  return Status::Ok();
}

DbError LibpqSession::Consume(PGresult* res, DbExecResult& result, DbRows* rows) {
  result = {};
  if (res == nullptr) return ErrorFrom(nullptr);
  const ExecStatusType st = Pq().PQresultStatus(res);
  if (st == PGRES_TUPLES_OK || st == PGRES_SINGLE_TUPLE) {
    const int n = Pq().PQntuples(res);
    result.rows_returned = static_cast<uint64_t>(n);
    if (rows != nullptr) KeepRows(res, n, *rows);
  } else if (st == PGRES_COMMAND_OK) {
    result.rows_affected = CmdTuples(res);
  } else if (st == PGRES_EMPTY_QUERY) {
  } else if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH) {
    Pq().PQclear(res);
    return {DbErrorClass::kFatal, 0, "", "pgsql: COPY is only available through bulk insert"};
  } else {
    DbError e = ErrorFrom(res);
    Pq().PQclear(res);
    return e;
  }
  Pq().PQclear(res);
  return {};
}

DbError LibpqSession::ErrorFrom(const PGresult* res) {
  const char* state = res != nullptr ? Pq().PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  const char* primary =
      res != nullptr ? Pq().PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  if (primary == nullptr) primary = conn_ != nullptr ? Pq().PQerrorMessage(conn_) : "";
  return owner_.Classify(state != nullptr ? state : "", primary,
                         conn_ == nullptr || Pq().PQstatus(conn_) == CONNECTION_BAD);
}

uint64_t LibpqSession::CmdTuples(PGresult* res) {
  const char* t = Pq().PQcmdTuples(res);
  uint64_t n = 0;
  if (t != nullptr) std::from_chars(t, t + std::strlen(t), n);
  return n;
}

void LibpqSession::KeepRows(PGresult* res, int n, DbRows& rows) {
  const int nf = Pq().PQnfields(res);
  if (rows.columns.empty()) {
    for (int c = 0; c < nf; ++c) rows.columns.emplace_back(Pq().PQfname(res, c));
  }
  const PqApi& pq = Pq();
  for (int r = 0; r < n; ++r) {
    DbRows::Row& row = rows.AddRow(static_cast<size_t>(nf));
    for (int c = 0; c < nf; ++c) {
      if (pq.PQgetisnull(res, r, c)) {
        row[static_cast<size_t>(c)].reset();
      } else {
        DbRows::SetValue(row[static_cast<size_t>(c)], pq.PQgetvalue(res, r, c),
                         static_cast<size_t>(pq.PQgetlength(res, r, c)));
      }
    }
  }
}

DbError LibpqSession::WaitSocket(short events, int timeout_ms, const char* which) {
  switch (WaitForSocket(Pq().PQsocket(conn_), events, timeout_ms)) {
    case SocketWait::kReady:
      return {};
    case SocketWait::kTimedOut: {
      DbError e = owner_.TimedOut(which);
      Finish();
      return e;
    }
    case SocketWait::kFailed:
      break;
  }
  DbError e = ErrorFrom(nullptr);
  Finish();
  return e;
}

DbError LibpqSession::Await() {
  if (conn_ == nullptr) return owner_.Lost();
  const PqApi& pq = Pq();
  for (;;) {
    const int flushed = pq.PQflush(conn_);
    if (flushed == 0) break;
    if (flushed < 0) return ErrorFrom(nullptr);
    // The server may answer before it took everything: read as well.
    if (DbError e = WaitSocket(POLLOUT | POLLIN, settings_->timeouts.write_ms(), "write"); !e.ok())
      return e;
    if (pq.PQconsumeInput(conn_) == 0) return ErrorFrom(nullptr);
  }
  while (pq.PQisBusy(conn_) != 0) {
    if (DbError e = WaitSocket(POLLIN, settings_->timeouts.read_ms(), "read"); !e.ok()) return e;
    if (pq.PQconsumeInput(conn_) == 0) return ErrorFrom(nullptr);
  }
  return {};
}

PGresult* LibpqSession::Result(DbError& error) {
  const PqApi& pq = Pq();
  PGresult* kept = nullptr;
  for (;;) {
    error = Await();
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

DbError LibpqSession::ConsumeLibpq(int sent, DbExecResult& result, DbRows* rows) {
  result = {};
  if (conn_ == nullptr) return owner_.Lost();
  if (sent != 1) return ErrorFrom(nullptr);
  DbError e;
  PGresult* res = Result(e);
  if (!e.ok()) return e;
  return Consume(res, result, rows);
}

DbError LibpqSession::StartCopy(const std::string& sql) {
  if (conn_ == nullptr) return owner_.Lost();
  if (Pq().PQsendQuery(conn_, sql.c_str()) != 1) return ErrorFrom(nullptr);
  DbError waited;
  PGresult* res = Result(waited);
  if (!waited.ok()) return waited;
  if (res == nullptr || Pq().PQresultStatus(res) != PGRES_COPY_IN) {
    DbExecResult ignored;
    DbError e = Consume(res, ignored, nullptr);
    if (e.ok()) e = {DbErrorClass::kFatal, 0, "", "pgsql: COPY did not start"};
    return e;
  }
  Pq().PQclear(res);
  return {};
}

DbError LibpqSession::PutCopy(const char* data, int size) {
  for (;;) {
    if (conn_ == nullptr) return owner_.Lost();
    const int rc = Pq().PQputCopyData(conn_, data, size);
    if (rc == 1) return {};
    if (rc < 0) return ErrorFrom(nullptr);
    if (DbError e = WaitSocket(POLLOUT, settings_->timeouts.write_ms(), "write"); !e.ok()) {
      return e;
    }
  }
}

DbError LibpqSession::EndCopy(const char* error_or_null) {
  for (;;) {
    if (conn_ == nullptr) return owner_.Lost();
    const int rc = Pq().PQputCopyEnd(conn_, error_or_null);
    if (rc == 1) break;
    if (rc < 0) return ErrorFrom(nullptr);
    if (DbError e = WaitSocket(POLLOUT, settings_->timeouts.write_ms(), "write"); !e.ok()) {
      return e;
    }
  }
  DbExecResult ignored;
  return ConsumeLibpq(1, ignored, nullptr);
}

}  // namespace

Status LoadLibpq() { return LoadPq(); }

std::unique_ptr<PgLibrarySession> NewLibpqSession(PgConnection& owner) {
  return std::make_unique<LibpqSession>(owner);
}

}  // namespace loadcell::pgsql_internal
