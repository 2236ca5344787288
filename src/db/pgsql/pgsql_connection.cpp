// The pgsql driver's connections: connecting (libpq), text statements,
// transactions (BEGIN deferred to the next request on the lean path), the
// lean path's exchanges and the errors of both paths.

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>

#include "db/pgsql/pgsql_internal.h"

namespace loadcell::pgsql_internal {
namespace {

// Collapses libpq's multi-line messages into one line without the
// "connection to server ... failed:" preamble and severity prefixes; removes
// the password should a server ever echo it.
std::string OneLine(std::string_view text, const std::string& password) {
  std::string s;
  s.reserve(text.size());
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !s.empty();
      continue;
    }
    if (space) s += ' ';
    space = false;
    s += c;
  }
  for (std::string_view prefix : {"FATAL: ", "ERROR: "}) {
    if (s.rfind(prefix, 0) == 0) s.erase(0, prefix.size());
  }
  if (password.size() >= 4) {  // servers never echo it; a short one would mangle words
    for (size_t p = s.find(password); p != std::string::npos; p = s.find(password, p)) {
      s.replace(p, password.size(), "***");
    }
  }
  return s;
}

bool IsRetryableState(std::string_view st) {
  return st == "40P01" || st == "40001" || st == "55P03";
}

bool IsConnectionState(std::string_view st) {
  return st.substr(0, 2) == "08" || st == "57P01" || st == "57P02" || st == "57P03";
}

}  // namespace

Status PgConnection::Open() {
  Close();
  const std::string port = std::to_string(settings_->port);
  // libpq takes whole seconds, and at least 2.
  const std::string connect_timeout =
      std::to_string(std::max(2u, DbTimeouts::WholeSeconds(settings_->timeouts.connect_s)));
  std::vector<const char*> keys = {
      "host", "port", "user", "dbname", "sslmode", "connect_timeout", "application_name"};
  std::vector<const char*> vals = {settings_->host.c_str(),
                                   port.c_str(),
                                   settings_->user.c_str(),
                                   settings_->db.c_str(),
                                   settings_->sslmode.c_str(),
                                   connect_timeout.c_str(),
                                   "loadcell"};
  if (!settings_->password_in_use.empty()) {
    keys.push_back("password");
    vals.push_back(settings_->password_in_use.c_str());
  }
  keys.push_back(nullptr);
  vals.push_back(nullptr);
  conn_ = Pq().PQconnectdbParams(keys.data(), vals.data(), 0);
  if (conn_ == nullptr) return Status::ResourceExhausted("pgsql: out of memory");
  if (Pq().PQstatus(conn_) != CONNECTION_OK) {
    std::string why = OneLine(Pq().PQerrorMessage(conn_), settings_->password_in_use);
    // Drop the preamble that repeats host and port.
    if (size_t p = why.find(" failed: ");
        p != std::string::npos && why.rfind("connection to", 0) == 0) {
      why.erase(0, p + 9);
    }
    if (why.rfind("FATAL: ", 0) == 0) why.erase(0, 7);
    // libpq's own hint; ours follows.
    if (size_t p = why.find(" Is the server running"); p != std::string::npos) why.erase(p);
    std::string hint;
    if (why.find("Connection refused") != std::string::npos ||
        why.find("No such file or directory") != std::string::npos) {
      hint = " (the server may not be running, or not listening there)";
    }
    Close();
    return Status(
        StatusCode::kUnavailable,
        fmt::format("pgsql: cannot connect to {}:{} as user {} to database {}: {}{}",
                    settings_->host, settings_->port, settings_->user, settings_->db, why, hint));
  }
  // Every libpq wait is ours, bounded by the timeouts (pgsql_libpq.cpp).
  if (Pq().PQsetnonblocking(conn_, 1) != 0) {
    Close();
    return Status(StatusCode::kUnavailable,
                  "pgsql: cannot put the connection in non-blocking mode");
  }
  // Notices (e.g. "table does not exist, skipping") stay off stderr.
  Pq().PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  ++generation_;
  lean_ =
      Pq().PQsslInUse(conn_) == 0 && Pq().PQgssEncInUse(conn_) == 0 && Pq().PQsocket(conn_) >= 0;
  wire_.Reset(Pq().PQsocket(conn_));
  if (lean_) {
    lean_ = wire_.SetTimeouts(settings_->timeouts.read_ms(), settings_->timeouts.write_ms());
  }
  blocking_ = false;  // libpq's sockets are non-blocking
  broken_ = false;
  pending_begin_ = false;
  txn_status_ = 'I';
  return Status::Ok();
}

DbError PgConnection::Execute(std::string_view sql, DbExecResult& result, DbRows* rows) {
  result = {};
  if (conn_ == nullptr) return Lost();
  if (lean_) {
    if (broken_) return Lost();
    const int ready = StartRequest();
    wire_.Query(sql);
    return Finish(ready + 1, result, rows);
  }
  sql_.assign(sql);
  return ConsumeLibpq(Pq().PQsendQuery(conn_, sql_.c_str()), result, rows);
}

DbError PgConnection::Begin() {
  if (lean_ && conn_ != nullptr && !broken_) {
    pending_begin_ = true;
    return {};
  }
  return Simple("BEGIN");
}

DbError PgConnection::Rollback() {
  if (lean_) {
    if (pending_begin_) {  // nothing was sent yet
      pending_begin_ = false;
      return {};
    }
    if (conn_ != nullptr && !broken_ && txn_status_ == 'I') return {};
    return Simple("ROLLBACK");
  }
  if (conn_ != nullptr && Pq().PQstatus(conn_) == CONNECTION_OK &&
      Pq().PQtransactionStatus(conn_) == PQTRANS_IDLE) {
    return {};  // nothing open
  }
  return Simple("ROLLBACK");
}

DbError PgConnection::Reconnect() {
  Status s = Open();
  if (!s.ok()) return {DbErrorClass::kReconnect, 0, "08001", s.message()};
  return {};
}

std::string PgConnection::ServerVersion() {
  const char* v = conn_ != nullptr ? Pq().PQparameterStatus(conn_, "server_version") : nullptr;
  return fmt::format("PostgreSQL {}", v != nullptr ? v : "(unknown)");
}

DbError PgConnection::Consume(PGresult* res, DbExecResult& result, DbRows* rows) {
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

DbError PgConnection::ErrorFrom(const PGresult* res) {
  const char* state = res != nullptr ? Pq().PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  const char* primary =
      res != nullptr ? Pq().PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  return Classify(state != nullptr ? state : "",
                  primary != nullptr ? primary : Pq().PQerrorMessage(conn_),
                  conn_ == nullptr || Pq().PQstatus(conn_) == CONNECTION_BAD);
}

DbError PgConnection::TimedOut(const char* which) const {
  const bool read = std::string_view(which) == "read";
  const double limit = read ? settings_->timeouts.read_s : settings_->timeouts.write_s;
  return {DbErrorClass::kFatal, 0, "",
          fmt::format("pgsql: the server at {}:{} {} within {}s (--db-{}-timeout); it may be "
                      "frozen or overloaded",
                      settings_->host, settings_->port, read ? "sent no reply" : "took no data",
                      limit, which)};
}

DbError PgConnection::Classify(std::string_view sqlstate, std::string_view primary, bool broken) {
  DbError e;
  e.sqlstate.assign(sqlstate);
  e.message = "pgsql: " + OneLine(primary, settings_->password_in_use);
  if (!e.sqlstate.empty()) e.message += " (SQLSTATE " + e.sqlstate + ")";
  if (broken || IsConnectionState(e.sqlstate)) {
    e.cls = DbErrorClass::kReconnect;
    if (e.sqlstate.empty()) e.sqlstate = "08006";
  } else if (IsRetryableState(e.sqlstate)) {
    e.cls = DbErrorClass::kRetryable;
  } else if (settings_->ignore.Matches(0, e.sqlstate)) {
    e.cls = DbErrorClass::kIgnorable;
  } else {
    e.cls = DbErrorClass::kFatal;
  }
  return e;
}

std::string PgConnection::StatementPath() const {
  if (lean_) return "loadcell's own protocol client (libpq opened the connection)";
  return "libpq (the connection is encrypted, or has no socket)";
}

DbError PgConnection::ToLibpq() {
  if (!lean_) return {};
  if (broken_) return Lost();
  if (pending_begin_) {
    DbExecResult ignored;
    const int ready = StartRequest();
    if (DbError e = Finish(ready, ignored, nullptr); !e.ok()) return e;
  }
  if (blocking_) SetBlocking(false);
  return {};
}

DbError PgConnection::PrepareServer(std::string_view sql, int nparams,
                                    std::unique_ptr<DbStatement>& out) {
  if (conn_ == nullptr) return Lost();
  int count = 0;
  const std::string text = TranslatePlaceholdersDollar(sql, &count);
  std::string name = fmt::format("lc{}", ++statements_);
  DbExecResult ignored;
  if (lean_) {
    if (broken_) return Lost();
    const int ready = StartRequest();
    wire_.Parse(name, text);
    wire_.Sync();
    if (DbError e = Finish(ready + 1, ignored, nullptr); !e.ok()) return e;
  } else {
    const int sent = Pq().PQsendPrepare(conn_, name.c_str(), text.c_str(), count, nullptr);
    if (DbError e = ConsumeLibpq(sent, ignored, nullptr); !e.ok()) return e;
  }
  out = std::make_unique<PgStatement>(this, std::move(name), count, generation_);
  return {};
}

uint64_t PgConnection::CmdTuples(PGresult* res) {
  const char* t = Pq().PQcmdTuples(res);
  uint64_t n = 0;
  if (t != nullptr) std::from_chars(t, t + std::strlen(t), n);
  return n;
}

void PgConnection::KeepRows(PGresult* res, int n, DbRows& rows) {
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

DbError PgConnection::Simple(const char* sql) {
  DbExecResult r;
  if (lean_) return Execute(sql, r, nullptr);
  if (conn_ == nullptr) return Lost();
  return ConsumeLibpq(Pq().PQsendQuery(conn_, sql), r, nullptr);
}

void PgConnection::SetBlocking(bool on) {
  const int fd = wire_.fd();
  const int flags = fcntl(fd, F_GETFL, 0);
  if (flags >= 0) fcntl(fd, F_SETFL, on ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK));
  blocking_ = on;
}

void PgConnection::Close() {
  if (conn_ != nullptr) {
    if (blocking_) SetBlocking(false);  // libpq's own writes expect its mode
    Pq().PQfinish(conn_);
  }
  conn_ = nullptr;
  lean_ = false;
  blocking_ = false;
  pending_begin_ = false;
  wire_.Reset(-1);
}

}  // namespace loadcell::pgsql_internal
