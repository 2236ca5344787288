// The pgsql driver's connections: opening (libpq or the native start),
// text statements, transactions (BEGIN deferred to the next request on the
// lean path), the lean path's exchanges and COPY, and the errors of both
// paths.

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "db/pgsql/pg_startup.h"
#include "db/pgsql/pgsql_internal.h"

namespace loadcell::pgsql_internal {
namespace {

bool IsRetryableState(std::string_view st) {
  return st == "40P01" || st == "40001" || st == "55P03";
}

bool IsConnectionState(std::string_view st) {
  return st.substr(0, 2) == "08" || st == "57P01" || st == "57P02" || st == "57P03";
}

}  // namespace

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
  return EscapeControlBytes(s);  // a server's words never reach a terminal raw
}

Status PgConnection::CannotConnect(std::string_view why) const {
  std::string hint;
  if (why.find("Connection refused") != std::string_view::npos ||
      why.find("No such file or directory") != std::string_view::npos) {
    hint = " (the server may not be running, or not listening there)";
  }
  return Status(StatusCode::kUnavailable,
                fmt::format("pgsql: cannot connect to {}:{} as user {} to database {}: {}{}",
                            settings_->host, settings_->port, settings_->user, settings_->db,
                            OneLine(why, settings_->password_in_use), hint));
}

Status PgConnection::OpenNative() {
  PgStartupParams p;
  p.host = settings_->host;
  p.port = static_cast<uint16_t>(settings_->port);
  p.user = settings_->user;
  p.password = settings_->password_in_use;
  p.db = settings_->db;
  p.timeout_ms = static_cast<int>(settings_->timeouts.connect_s * 1000);
  p.max_scram_iterations = static_cast<uint32_t>(settings_->max_scram_iterations);
  Result<PgSession> session = PgConnectNative(p);
  if (!session.ok()) return CannotConnect(session.status().message());
  native_ = session->socket;
  server_version_ = EscapeControlBytes(session->Parameter("server_version"));
  lean_ = true;
  blocking_ = true;
  return Status::Ok();
}

Status PgConnection::OpenLibrary() {
  lib_ = NewLibpqSession(*this);
  if (lib_ == nullptr) return Status::Unavailable("pgsql: libpq is not in this build");
  if (Status s = lib_->Connect(*settings_); !s.ok()) {
    lib_.reset();
    if (s.code() != StatusCode::kUnavailable) return s;
    return CannotConnect(s.message());
  }
  server_version_ = EscapeControlBytes(lib_->Parameter("server_version"));
  lean_ = !lib_->Encrypted() && lib_->Socket() >= 0;
  blocking_ = false;  // libpq's sockets are non-blocking
  return Status::Ok();
}

Status PgConnection::Open() {
  Close();
  LC_RETURN_IF_ERROR(settings_->connector == DbConnector::kNative ? OpenNative() : OpenLibrary());
  ++generation_;
  wire_.Reset(native_ != kNoSocket ? native_ : lib_->Socket());
  wire_.set_limits(settings_->limits);
  if (lean_) {
    lean_ = wire_.SetTimeouts(settings_->timeouts.read_ms(), settings_->timeouts.write_ms());
  }
  if (!lean_ && lib_ == nullptr) {
    Close();
    return CannotConnect("cannot set the socket's time limits");
  }
  broken_ = false;
  pending_begin_ = false;
  txn_status_ = 'I';
  return Status::Ok();
}

DbError PgConnection::Execute(std::string_view sql, DbExecResult& result, DbRows* rows) {
  result = {};
  if (!open()) return Lost();
  if (lean_) {
    if (broken_) return Lost();
    const int ready = StartRequest();
    wire_.Query(sql);
    return Finish(ready + 1, result, rows);
  }
  return lib_->Query(sql, result, rows);
}

DbError PgConnection::Begin() {
  if (lean_ && open() && !broken_) {
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
    if (open() && !broken_ && txn_status_ == 'I') return {};
    return Simple("ROLLBACK");
  }
  if (open() && lib_->Idle()) return {};  // nothing open
  return Simple("ROLLBACK");
}

DbError PgConnection::Reconnect() {
  Status s = Open();
  if (!s.ok()) return {DbErrorClass::kReconnect, 0, "08001", s.message()};
  return {};
}

std::string PgConnection::ServerVersion() {
  return fmt::format("PostgreSQL {}", server_version_.empty() ? "(unknown)" : server_version_);
}

DbError PgConnection::Outcome(DbExecResult& result) {
  if (reply_.broken) {
    broken_ = true;
    result = {};
    if (reply_.timed_out != nullptr) return TimedOut(reply_.timed_out);
    if (reply_.refused) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("pgsql: the server at {}:{} sent {}; the connection is closed",
                          settings_->host, settings_->port, reply_.io_error)};
    }
    return Classify(reply_.sqlstate, reply_.error ? reply_.message : reply_.io_error, true);
  }
  txn_status_ = reply_.txn_status;
  // A COPY we refused ends in the server's 57014 (our CopyFail): that is
  // not the error to report, nor one a --pgsql-ignore-errors list may hide.
  if (reply_.copy_refused) {
    result = {};
    return {DbErrorClass::kFatal, 0, "", "pgsql: COPY is only available through bulk insert"};
  }
  if (reply_.error) {
    result = {};
    return Classify(reply_.sqlstate, reply_.message, false);
  }
  result.rows_returned = reply_.rows_returned;
  result.rows_affected = reply_.rows_affected;
  return {};
}

DbError PgConnection::StartCopy(const std::string& sql) {
  if (!open()) return Lost();
  if (!lean_) return lib_->StartCopy(sql);
  if (broken_) return Lost();
  DbExecResult ignored;
  const int ready = StartRequest();
  if (ready > 0) {  // the deferred BEGIN first, on its own
    if (DbError e = Finish(ready, ignored, nullptr); !e.ok()) return e;
  }
  wire_.StartCopyIn(sql, reply_);
  if (reply_.copy_in) return {};
  DbError e = Outcome(ignored);
  if (e.ok()) e = {DbErrorClass::kFatal, 0, "", "pgsql: COPY did not start"};
  return e;
}

DbError PgConnection::PutCopy(const char* data, size_t size) {
  if (!open()) return Lost();
  if (!lean_) return lib_->PutCopy(data, static_cast<int>(size));
  if (broken_) return Lost();
  if (!wire_.CopyData(data, size, reply_)) {
    DbExecResult ignored;
    return Outcome(ignored);
  }
  return {};
}

DbError PgConnection::EndCopy(const char* error_or_null) {
  if (!open()) return Lost();
  if (!lean_) return lib_->EndCopy(error_or_null);
  if (broken_) return Lost();
  wire_.CopyEnd(error_or_null);
  DbExecResult ignored;
  return Finish(1, ignored, nullptr);
}

DbError PgConnection::TimedOut(const char* which) const {
  const bool read = std::string_view(which) == "read";
  const double limit = read ? settings_->timeouts.read_s : settings_->timeouts.write_s;
  return {DbErrorClass::kFatal, 0, "",
          fmt::format("pgsql: the server at {}:{} {} within {}s (--db-{}-timeout); it may be "
                      "frozen or overloaded",
                      settings_->host, settings_->port,
                      read ? "did not send its whole reply" : "did not take the whole request",
                      limit, which)};
}

DbError PgConnection::Classify(std::string_view sqlstate, std::string_view primary, bool broken) {
  DbError e;
  e.sqlstate.assign(sqlstate);
  e.server_message = OneLine(primary, settings_->password_in_use);
  e.message = "pgsql: " + e.server_message;
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
  if (native_ != kNoSocket) {
    return "loadcell's own protocol client (--db-connector=native: no client library, TLS not "
           "used)";
  }
  if (lean_) return "loadcell's own protocol client (libpq opened the connection)";
  return "libpq (the connection is encrypted, or has no socket)";
}

DbError PgConnection::PrepareServer(std::string_view sql, int nparams,
                                    std::unique_ptr<DbStatement>& out) {
  if (!open()) return Lost();
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
    if (DbError e = lib_->Prepare(name, text, count); !e.ok()) return e;
  }
  out = std::make_unique<PgStatement>(this, std::move(name), count, generation_);
  return {};
}

DbError PgConnection::Simple(const char* sql) {
  DbExecResult r;
  if (lean_) return Execute(sql, r, nullptr);
  if (!open()) return Lost();
  return lib_->Query(sql, r, nullptr);
}

void PgConnection::Close() {
  if (native_ != kNoSocket) {
    if (!broken_) wire_.Terminate();
    TcpClose(native_);
    native_ = kNoSocket;
  }
  if (lib_ != nullptr) {
    if (blocking_ && lib_->open()) lib_->SetBlocking(false);  // libpq's writes expect its mode
    lib_->Finish();
    lib_.reset();
  }
  lean_ = false;
  blocking_ = false;
  pending_begin_ = false;
  wire_.Reset(kNoSocket);
}

}  // namespace loadcell::pgsql_internal
