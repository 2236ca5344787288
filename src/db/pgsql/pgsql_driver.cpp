// The pgsql driver: libpq connects and authenticates and loads tables with
// COPY; the statements of a run (prepared statements with text parameters,
// whose types the server infers, BEGIN/COMMIT, text SQL) then go over the same
// socket through PgWire, which needs fewer system calls and no allocation per
// statement. Connections encrypted by libpq (SSL, GSSAPI) keep libpq for
// everything.

#include <fcntl.h>
#include <fmt/format.h>
#include <libpq-fe.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "db/drivers.h"
#include "db/pgsql/pg_wire.h"
#include "db/pgsql/pq_api.h"

namespace loadcell {
namespace {

struct PgSettings {
  std::string host;
  int64_t port = 5432;
  std::string user;
  std::string password;         // --*-password as given
  std::string password_in_use;  // that, or the environment's (after Validate)
  std::string db;
  std::string sslmode;
  std::vector<std::string> ignore_errors;
  DbIgnoreList ignore;
};

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

class PgConnection;

class PgStatement final : public DbStatement {
 public:
  PgStatement(PgConnection* conn, std::string name, int nparams, uint64_t generation)
      : conn_(conn),
        name_(std::move(name)),
        generation_(generation),
        params_(static_cast<size_t>(nparams)),
        values_(static_cast<size_t>(nparams), nullptr),
        lengths_(static_cast<size_t>(nparams), 0) {}

  void BindInt(int index, int64_t v) override {
    if (Param* p = At(index)) {
      auto r = std::to_chars(p->num, p->num + sizeof(p->num) - 1, v);
      *r.ptr = '\0';
      values_[static_cast<size_t>(index)] = p->num;
      lengths_[static_cast<size_t>(index)] = static_cast<int>(r.ptr - p->num);
    }
  }
  void BindDouble(int index, double v) override {
    if (Param* p = At(index)) {
      auto r = std::to_chars(p->num, p->num + sizeof(p->num) - 1, v);
      *r.ptr = '\0';
      values_[static_cast<size_t>(index)] = p->num;
      lengths_[static_cast<size_t>(index)] = static_cast<int>(r.ptr - p->num);
    }
  }
  void BindString(int index, std::string_view v) override {
    if (Param* p = At(index)) {
      p->text.assign(v);
      values_[static_cast<size_t>(index)] = p->text.c_str();
      lengths_[static_cast<size_t>(index)] = static_cast<int>(v.size());
    }
  }
  void BindNull(int index) override {
    if (At(index) != nullptr) values_[static_cast<size_t>(index)] = nullptr;
  }

  using DbStatement::Execute;
  DbError Execute(DbExecResult& result, DbRows* rows) override;

 private:
  struct Param {
    char num[32];
    std::string text;
  };
  Param* At(int index) {
    if (index < 0 || static_cast<size_t>(index) >= params_.size()) return nullptr;
    return &params_[static_cast<size_t>(index)];
  }

  PgConnection* conn_;
  std::string name_;
  uint64_t generation_;
  std::vector<Param> params_;
  std::vector<const char*> values_;
  std::vector<int> lengths_;
};

class PgConnection final : public DbConnection {
 public:
  explicit PgConnection(const PgSettings* settings) : settings_(settings) {}
  ~PgConnection() override { Close(); }

  // Connect failures are returned as a Status naming host, port, user and db.
  Status Open() {
    Close();
    const std::string port = std::to_string(settings_->port);
    std::vector<const char*> keys = {
        "host", "port", "user", "dbname", "sslmode", "connect_timeout", "application_name"};
    std::vector<const char*> vals = {settings_->host.c_str(),
                                     port.c_str(),
                                     settings_->user.c_str(),
                                     settings_->db.c_str(),
                                     settings_->sslmode.c_str(),
                                     "10",
                                     "loadcell"};
    if (!settings_->password_in_use.empty()) {
      keys.push_back("password");
      vals.push_back(settings_->password_in_use.c_str());
    }
    keys.push_back(nullptr);
    vals.push_back(nullptr);
    conn_ = Pq().PQconnectdbParams(keys.data(), vals.data(), 0);
    if (conn_ == nullptr) return Status(StatusCode::kResourceExhausted, "pgsql: out of memory");
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
    // Notices (e.g. "table does not exist, skipping") stay off stderr.
    Pq().PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
    ++generation_;
    lean_ =
        Pq().PQsslInUse(conn_) == 0 && Pq().PQgssEncInUse(conn_) == 0 && Pq().PQsocket(conn_) >= 0;
    wire_.Reset(Pq().PQsocket(conn_));
    blocking_ = false;  // libpq's sockets are non-blocking
    broken_ = false;
    pending_begin_ = false;
    txn_status_ = 'I';
    return Status::Ok();
  }

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override {
    result = {};
    if (conn_ == nullptr) return Lost();
    if (lean_) {
      if (broken_) return Lost();
      const int ready = StartRequest();
      wire_.Query(sql);
      return Finish(ready + 1, result, rows);
    }
    sql_.assign(sql);
    return Consume(Pq().PQexec(conn_, sql_.c_str()), result, rows);
  }

  // On the lean path BEGIN waits for the next request and travels with it
  // (one round trip less per transaction); its outcome is reported there.
  DbError Begin() override {
    if (lean_ && conn_ != nullptr && !broken_) {
      pending_begin_ = true;
      return {};
    }
    return Simple("BEGIN");
  }
  DbError Commit() override { return Simple("COMMIT"); }
  DbError Rollback() override {
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

  DbError Reconnect() override {
    Status s = Open();
    if (!s.ok()) return {DbErrorClass::kReconnect, 0, "08001", s.message()};
    return {};
  }

  std::string ServerVersion() override {
    const char* v = conn_ != nullptr ? Pq().PQparameterStatus(conn_, "server_version") : nullptr;
    return fmt::format("PostgreSQL {}", v != nullptr ? v : "(unknown)");
  }

  DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                          std::unique_ptr<DbBulkInsert>& out) override;

  // The result of a command: rows counted (and kept when asked), errors classified.
  // Takes ownership of `res`.
  DbError Consume(PGresult* res, DbExecResult& result, DbRows* rows) {
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

  // Classifies a failed result (or a missing one: the connection broke).
  DbError ErrorFrom(const PGresult* res) {
    const char* state = res != nullptr ? Pq().PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    const char* primary =
        res != nullptr ? Pq().PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    return Classify(state != nullptr ? state : "",
                    primary != nullptr ? primary : Pq().PQerrorMessage(conn_),
                    conn_ == nullptr || Pq().PQstatus(conn_) == CONNECTION_BAD);
  }

  // An error with the server's SQLSTATE (may be empty) and primary message;
  // `broken`: the connection is gone.
  DbError Classify(std::string_view sqlstate, std::string_view primary, bool broken) {
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

  PGconn* conn() const { return conn_; }
  uint64_t generation() const { return generation_; }
  DbError Lost() {
    return {DbErrorClass::kReconnect, 0, "08003", "pgsql: the connection is closed"};
  }

  // True when statements go through wire() (see the top of the file).
  bool lean() const { return lean_; }

  std::string StatementPath() const override {
    if (lean_) return "loadcell's own protocol client (libpq opened the connection)";
    return "libpq (the connection is encrypted, or has no socket)";
  }
  bool broken() const { return broken_; }
  PgWire& wire() { return wire_; }

  // Before the requests of a lean exchange: the socket blocks (one recv()
  // waits for the reply) and a deferred BEGIN goes first. Returns the
  // number of ReadyForQuery messages the BEGIN adds.
  int StartRequest() {
    if (!blocking_) SetBlocking(true);
    if (!pending_begin_) return 0;
    pending_begin_ = false;
    wire_.Query("BEGIN");
    return 1;
  }

  // Sends what StartRequest and the caller appended and reads the replies.
  DbError Finish(int ready, DbExecResult& result, DbRows* rows) {
    wire_.Exchange(ready, reply_, rows);
    if (reply_.broken) {
      broken_ = true;
      result = {};
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

  // Before libpq uses the socket: non-blocking again, a deferred BEGIN sent.
  DbError ToLibpq() {
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

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override {
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
      PGresult* res = Pq().PQprepare(conn_, name.c_str(), text.c_str(), count, nullptr);
      if (DbError e = Consume(res, ignored, nullptr); !e.ok()) return e;
    }
    out = std::make_unique<PgStatement>(this, std::move(name), count, generation_);
    return {};
  }

 private:
  static uint64_t CmdTuples(PGresult* res) {
    const char* t = Pq().PQcmdTuples(res);
    uint64_t n = 0;
    if (t != nullptr) std::from_chars(t, t + std::strlen(t), n);
    return n;
  }

  static void KeepRows(PGresult* res, int n, DbRows& rows) {
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

  DbError Simple(const char* sql) {
    DbExecResult r;
    if (lean_) return Execute(sql, r, nullptr);
    if (conn_ == nullptr) return Lost();
    return Consume(Pq().PQexec(conn_, sql), r, nullptr);
  }

  void SetBlocking(bool on) {
    const int fd = wire_.fd();
    const int flags = fcntl(fd, F_GETFL, 0);
    if (flags >= 0) fcntl(fd, F_SETFL, on ? (flags & ~O_NONBLOCK) : (flags | O_NONBLOCK));
    blocking_ = on;
  }

  void Close() {
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

  const PgSettings* settings_;
  PGconn* conn_ = nullptr;
  uint64_t generation_ = 0;
  uint64_t statements_ = 0;
  std::string sql_;  // NUL-terminated copy for PQexec, reused
  // The lean path (PgWire): its state is what libpq would otherwise track.
  bool lean_ = false;
  bool blocking_ = false;       // the socket blocks (lean exchanges)
  bool broken_ = false;         // a lean exchange lost the connection
  bool pending_begin_ = false;  // BEGIN deferred to the next request
  char txn_status_ = 'I';       // of the last ReadyForQuery: I, T or E
  PgWire wire_;
  PgReply reply_;  // reused by every exchange
};

DbError PgStatement::Execute(DbExecResult& result, DbRows* rows) {
  if (conn_->conn() == nullptr) return conn_->Lost();
  if (conn_->generation() != generation_) {
    return {DbErrorClass::kFatal, 0, "",
            "pgsql: statement prepared before a reconnect: prepare it again"};
  }
  if (conn_->lean()) {
    if (conn_->broken()) return conn_->Lost();
    const int ready = conn_->StartRequest();
    PgWire& w = conn_->wire();
    w.Bind(name_, static_cast<int>(values_.size()), values_.data(), lengths_.data());
    if (rows != nullptr) w.DescribePortal();  // for the column names
    w.Execute();
    w.Sync();
    return conn_->Finish(ready + 1, result, rows);
  }
  PGresult* res =
      Pq().PQexecPrepared(conn_->conn(), name_.c_str(), static_cast<int>(values_.size()),
                          values_.data(), lengths_.data(), nullptr, 0);
  return conn_->Consume(res, result, rows);
}

// How one column of a binary COPY is written: the server's binary input of
// its type (COPY ... WITH (FORMAT binary) takes no other), or text when the
// column has a type this code does not write.
enum class PgBinaryKind { kInt2, kInt4, kInt8, kFloat4, kFloat8, kText };

// The binary kind of a column of type `oid`; nullopt for other types.
std::optional<PgBinaryKind> BinaryKindOf(uint32_t oid) {
  switch (oid) {
    case 21:
      return PgBinaryKind::kInt2;
    case 23:
      return PgBinaryKind::kInt4;
    case 20:
      return PgBinaryKind::kInt8;
    case 700:
      return PgBinaryKind::kFloat4;
    case 701:
      return PgBinaryKind::kFloat8;
    case 25:    // text
    case 1042:  // char(n)
    case 1043:  // varchar(n)
      return PgBinaryKind::kText;
    default:
      return std::nullopt;
  }
}

// What a value that does not fit its column gets: the SQLSTATE the server's
// text input would give (22P02 invalid text representation, 22003 out of
// range) and a line naming the column.
DbError BadValue(const char* sqlstate, size_t column, const std::string& why) {
  return {DbErrorClass::kFatal, 0, sqlstate,
          fmt::format("pgsql: bulk insert, column {}: {}", column + 1, why)};
}

// The text of a number as std::from_chars must see it to take what
// PostgreSQL's input functions take: leading and trailing ASCII whitespace
// and one leading '+' are dropped. A '+' followed by another sign is kept,
// so that "+-5" stays invalid, as it is for the server.
std::string_view NumberText(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  s = s.substr(first, s.find_last_not_of(kSpace) - first + 1);
  if (s.size() > 1 && s[0] == '+' && s[1] != '+' && s[1] != '-') s.remove_prefix(1);
  return s;
}

// Appends value `column` of a binary COPY row (length word, then the bytes).
DbError AppendBinaryValue(std::string& o, const DbValue& v, PgBinaryKind kind, size_t column) {
  if (v.type == DbType::kNull) {
    PgPutBigEndian(o, 0xFFFFFFFFu, 4);
    return {};
  }
  switch (kind) {
    case PgBinaryKind::kInt2:
    case PgBinaryKind::kInt4:
    case PgBinaryKind::kInt8: {
      int64_t x = 0;
      if (v.type == DbType::kInt || v.type == DbType::kBigInt) {
        x = v.i;
      } else if (v.type == DbType::kString) {
        const std::string_view text = NumberText(v.s);
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, x);
        if (ec != std::errc() || ptr != end) {
          return BadValue("22P02", column, "invalid integer '" + v.s + "'");
        }
      } else {
        return BadValue("22P02", column, "a floating-point value for an integer column");
      }
      const int bytes = kind == PgBinaryKind::kInt2 ? 2 : kind == PgBinaryKind::kInt4 ? 4 : 8;
      if (bytes < 8) {
        const int64_t lim = int64_t{1} << (8 * bytes - 1);
        if (x < -lim || x >= lim) {
          return BadValue("22003", column, fmt::format("{} is out of range", x));
        }
      }
      PgPutBigEndian(o, static_cast<uint64_t>(bytes), 4);
      PgPutBigEndian(o, static_cast<uint64_t>(x), bytes);
      return {};
    }
    case PgBinaryKind::kFloat4:
    case PgBinaryKind::kFloat8: {
      double d = 0;
      if (v.type == DbType::kDouble) {
        d = v.d;
      } else if (v.type == DbType::kInt || v.type == DbType::kBigInt) {
        d = static_cast<double>(v.i);
      } else {
        const std::string_view text = NumberText(v.s);
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, d);
        if (ec != std::errc() || ptr != end) {
          return BadValue("22P02", column, "invalid number '" + v.s + "'");
        }
      }
      if (kind == PgBinaryKind::kFloat4) {
        const float f = static_cast<float>(d);
        if (std::isfinite(d) && !std::isfinite(f)) {
          return BadValue("22003", column, fmt::format("{} is out of range for real", d));
        }
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        PgPutBigEndian(o, 4, 4);
        PgPutBigEndian(o, bits, 4);
      } else {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        PgPutBigEndian(o, 8, 4);
        PgPutBigEndian(o, bits, 8);
      }
      return {};
    }
    case PgBinaryKind::kText: {
      char num[32];
      std::string_view text;
      if (v.type == DbType::kString) {
        text = v.s;
      } else if (v.type == DbType::kDouble) {
        text = std::string_view(
            num, static_cast<size_t>(std::to_chars(num, num + sizeof(num), v.d).ptr - num));
      } else {
        text = std::string_view(
            num, static_cast<size_t>(std::to_chars(num, num + sizeof(num), v.i).ptr - num));
      }
      PgPutBigEndian(o, text.size(), 4);
      o.append(text);
      return {};
    }
  }
  return BadValue("22P02", column, "unknown column kind");
}

// COPY ... FROM STDIN, sent in chunks of about kChunk bytes: in the binary
// format when every column has a type it writes (the server then parses no
// text: a fifth less time for the sysbench tables than text), else in text.
class PgCopy final : public DbBulkInsert {
 public:
  static constexpr size_t kChunk = 256 * 1024;

  PgCopy(PgConnection* conn, size_t ncols, std::vector<PgBinaryKind> binary)
      : conn_(conn), ncols_(ncols), binary_(std::move(binary)) {
    buf_.reserve(kChunk + 4096);
    if (!binary_.empty()) {
      buf_.append("PGCOPY\n\xff\r\n\0", 11);
      PgPutBigEndian(buf_, 0, 4);  // flags
      PgPutBigEndian(buf_, 0, 4);  // no header extension
    }
  }
  ~PgCopy() override {
    if (open_ && conn_->conn() != nullptr) {
      Pq().PQputCopyEnd(conn_->conn(), "bulk insert abandoned");
      while (PGresult* r = Pq().PQgetResult(conn_->conn())) Pq().PQclear(r);
    }
  }

  DbError AddRow(std::span<const DbValue> values) override {
    if (!open_) return {DbErrorClass::kFatal, 0, "", "pgsql: bulk insert already finished"};
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    if (binary_.empty()) {
      AppendTextRow(buf_, values, false);
    } else {
      const size_t mark = buf_.size();
      PgPutBigEndian(buf_, ncols_, 2);
      for (size_t i = 0; i < ncols_; ++i) {
        if (DbError e = AppendBinaryValue(buf_, values[i], binary_[i], i); !e.ok()) {
          buf_.resize(mark);  // the row is not sent
          return e;
        }
      }
    }
    if (buf_.size() >= kChunk) return Send();
    return {};
  }

  DbError Finish() override {
    if (!open_) return {};
    if (!binary_.empty()) PgPutBigEndian(buf_, 0xFFFF, 2);  // the trailer
    DbError e = Send();
    open_ = false;
    PGconn* c = conn_->conn();
    if (!e.ok()) {
      Pq().PQputCopyEnd(c, "bulk insert failed");
      while (PGresult* r = Pq().PQgetResult(c)) Pq().PQclear(r);
      return e;
    }
    if (Pq().PQputCopyEnd(c, nullptr) != 1) return conn_->ErrorFrom(nullptr);
    DbError first;
    while (PGresult* r = Pq().PQgetResult(c)) {
      DbExecResult ignored;
      DbError one = conn_->Consume(r, ignored, nullptr);
      if (first.ok() && !one.ok()) first = one;
    }
    return first;
  }

 private:
  DbError Send() {
    if (buf_.empty()) return {};
    const int rc = Pq().PQputCopyData(conn_->conn(), buf_.data(), static_cast<int>(buf_.size()));
    buf_.clear();
    if (rc != 1) return conn_->ErrorFrom(nullptr);
    return {};
  }

  PgConnection* conn_;
  size_t ncols_;
  std::vector<PgBinaryKind> binary_;  // empty: text format
  std::string buf_;
  bool open_ = true;
};

DbError PgConnection::BeginBulkInsert(std::string_view table,
                                      const std::vector<std::string>& columns,
                                      std::unique_ptr<DbBulkInsert>& out) {
  if (conn_ == nullptr) return Lost();
  if (DbError e = ToLibpq(); !e.ok()) return e;
  // The columns' types decide the format; a catalog that cannot be read
  // (or a type not written in binary) leaves the text format.
  std::vector<PgBinaryKind> binary;
  {
    DbExecResult r;
    DbRows rows;
    std::string sql = "SELECT attname, atttypid FROM pg_attribute WHERE attrelid = ";
    AppendQuoted(sql, table);
    sql += "::regclass AND attnum > 0 AND NOT attisdropped";
    if (DbError e = Execute(sql, r, &rows); e.ok()) {
      for (const std::string& col : columns) {
        std::optional<PgBinaryKind> kind;
        for (const auto& row : rows.rows) {
          if (row.size() == 2 && row[0] && row[1] && *row[0] == col) {
            kind = BinaryKindOf(static_cast<uint32_t>(std::strtoul(row[1]->c_str(), nullptr, 10)));
          }
        }
        if (!kind) {
          binary.clear();
          break;
        }
        binary.push_back(*kind);
      }
    }
  }
  if (DbError e = ToLibpq(); !e.ok()) return e;  // the catalog query may have gone our way
  const std::string sql = fmt::format("COPY {} ({}) FROM STDIN{}", table, fmt::join(columns, ", "),
                                      binary.empty() ? "" : " WITH (FORMAT binary)");
  PGresult* res = Pq().PQexec(conn_, sql.c_str());
  if (res == nullptr || Pq().PQresultStatus(res) != PGRES_COPY_IN) {
    DbExecResult ignored;
    DbError e = Consume(res, ignored, nullptr);
    if (e.ok()) e = {DbErrorClass::kFatal, 0, "", "pgsql: COPY did not start"};
    return e;
  }
  Pq().PQclear(res);
  out = std::make_unique<PgCopy>(this, columns.size(), std::move(binary));
  return {};
}

class PgsqlDriver final : public DbDriver {
 public:
  std::string Name() const override { return "pgsql"; }
  DbCapabilities Capabilities() const override {
    DbCapabilities c;
    c.prepared_statements = server_prepared();
    c.bulk_insert = "COPY";
    return c;
  }
  void RegisterOptions(OptionSet& opts) override {
    opts.String("pgsql-host", &s_.host, "localhost", "PostgreSQL server host");
    opts.Int("pgsql-port", &s_.port, 5432, "PostgreSQL server port").Min(1).Max(65535);
    opts.String("pgsql-user", &s_.user, "sbtest", "PostgreSQL user");
    opts.String("pgsql-password", &s_.password, "", "PostgreSQL password (default: $PGPASSWORD)")
        .Secret();
    opts.String("pgsql-db", &s_.db, "sbtest", "PostgreSQL database name");
    opts.Enum("pgsql-sslmode", &s_.sslmode, "prefer",
              {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"},
              "PostgreSQL SSL mode");
    opts.List("pgsql-ignore-errors", &s_.ignore_errors, "40P01,40001,23505",
              "SQLSTATEs that roll back and retry the transaction instead of failing "
              "the run, or 'all' or 'none'");
  }
  Status Validate() override {
    LC_RETURN_IF_ERROR(LoadPq());
    auto ignore = DbIgnoreList::Parse(s_.ignore_errors);
    if (!ignore.ok()) {
      return Status::InvalidArgument("--pgsql-ignore-errors: " + ignore.status().message());
    }
    s_.ignore = std::move(ignore).value();
    // The environment's password is used, never written into the option.
    s_.password_in_use = s_.password;
    if (s_.password_in_use.empty()) {
      if (const char* pw = std::getenv("PGPASSWORD")) s_.password_in_use = pw;
    }
    return Status::Ok();
  }
  std::string Describe() const override {
    return fmt::format("pgsql {}:{} user {} database {}", s_.host, s_.port, s_.user, s_.db);
  }

 protected:
  Result<std::unique_ptr<DbConnection>> Open(int index) override {
    LC_RETURN_IF_ERROR(LoadPq());
    auto conn = std::make_unique<PgConnection>(&s_);
    LC_RETURN_IF_ERROR(conn->Open());
    return std::unique_ptr<DbConnection>(std::move(conn));
  }

 private:
  PgSettings s_;
};

}  // namespace

std::unique_ptr<DbDriver> NewPgsqlDriver() { return std::make_unique<PgsqlDriver>(); }

}  // namespace loadcell
