// The mysql driver (libmariadb; MariaDB and MySQL servers): binary-protocol
// prepared statements (mysql_stmt_*), rows streamed and counted without
// copying, LOAD DATA LOCAL INFILE (or multi-row INSERT) for bulk loads.

#include <fcntl.h>
#include <fmt/format.h>
#include <mysql.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "core/plural.h"
#include "db/drivers.h"
#include "db/mysql/mariadb_api.h"
#include "db/mysql/mysql_wire.h"

namespace loadcell {
namespace {

// Client and server error numbers (errmsg.h / mysqld_error.h).
constexpr int kLockWaitTimeout = 1205;
constexpr int kDeadlock = 1213;
constexpr int kServerShutdown = 1053;
constexpr int kConnectionKilled = 1927;          // MariaDB
constexpr int kClientInteractionTimeout = 4031;  // MySQL 8
constexpr int kConnError = 2002;
constexpr int kConnHostError = 2003;
constexpr int kServerGone = 2006;
constexpr int kServerLost = 2013;
constexpr int kServerLostExtended = 2055;

struct MySettings {
  std::vector<std::string> hosts;
  std::vector<std::string> port_texts;
  std::vector<int> ports;
  std::vector<std::string> sockets;
  std::string user;
  std::string password;         // --*-password as given
  std::string password_in_use;  // that, or the environment's (after Validate)
  std::string db;
  std::string ssl;
  std::vector<std::string> ignore_errors;
  DbIgnoreList ignore;
};

bool IsConnectionError(int code) {
  return code == kConnError || code == kConnHostError || code == kServerGone ||
         code == kServerLost || code == kServerLostExtended || code == kServerShutdown ||
         code == kConnectionKilled || code == kClientInteractionTimeout;
}

std::string Scrub(std::string s, const std::string& password) {
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (password.size() >= 4) {  // servers never echo it; a short one would mangle words
    for (size_t p = s.find(password); p != std::string::npos; p = s.find(password, p)) {
      s.replace(p, password.size(), "***");
    }
  }
  return s;
}

DbError Classify(int code, const char* sqlstate, const char* text, const MySettings& s) {
  DbError e;
  e.code = code;
  if (sqlstate != nullptr && std::strcmp(sqlstate, "00000") != 0) e.sqlstate = sqlstate;
  e.message = fmt::format("mysql: {} (error {})",
                          Scrub(text != nullptr ? text : "", s.password_in_use), code);
  if (IsConnectionError(code)) {
    e.cls = DbErrorClass::kReconnect;
  } else if (code == kDeadlock || code == kLockWaitTimeout) {
    e.cls = DbErrorClass::kRetryable;
  } else if (s.ignore.Matches(code, e.sqlstate)) {
    e.cls = DbErrorClass::kIgnorable;
  } else {
    e.cls = DbErrorClass::kFatal;
  }
  return e;
}

void LibraryInit() {
  static std::once_flag once;
  std::call_once(once, [] { Mariadb().mysql_server_init(0, nullptr, nullptr); });
}

// The rows of one LOAD DATA LOCAL INFILE statement, handed to the server
// when it asks for the "file". A connection serves only this buffer: every
// other request of the server for a local file is refused.
struct InfileSource {
  const std::string* data = nullptr;
  size_t sent = 0;
};

int InfileInit(void** ptr, const char* /*filename*/, void* userdata) {
  auto* src = static_cast<InfileSource*>(userdata);
  *ptr = src;
  return src->data == nullptr ? 1 : 0;
}

int InfileRead(void* ptr, char* buf, unsigned int len) {
  auto* src = static_cast<InfileSource*>(ptr);
  if (src->data == nullptr) return -1;
  const size_t n = std::min<size_t>(len, src->data->size() - src->sent);
  std::memcpy(buf, src->data->data() + src->sent, n);
  src->sent += n;
  return static_cast<int>(n);
}

void InfileEnd(void* /*ptr*/) {}

int InfileError(void* /*ptr*/, char* msg, unsigned int len) {
  std::snprintf(msg, len, "loadcell sends no local files except its own generated rows");
  return 2000;  // CR_UNKNOWN_ERROR
}

// A length-encoded integer at p[i]; advances i. False when cut short.
bool LenEnc(std::string_view p, size_t& i, uint64_t& v) {
  if (i >= p.size()) return false;
  const auto b = static_cast<unsigned char>(p[i++]);
  size_t n = 0;
  if (b < 0xFB) {
    v = b;
    return true;
  }
  if (b == 0xFC) {
    n = 2;
  } else if (b == 0xFD) {
    n = 3;
  } else if (b == 0xFE) {
    n = 8;
  } else {
    return false;  // 0xFB (NULL) or 0xFF: not a count
  }
  if (i + n > p.size()) return false;
  v = 0;
  for (size_t k = 0; k < n; ++k) {
    v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i + k])) << (8 * k);
  }
  i += n;
  return true;
}

uint16_t U16(std::string_view p, size_t i) {
  return static_cast<uint16_t>(static_cast<unsigned char>(p[i]) |
                               static_cast<unsigned char>(p[i + 1]) << 8);
}

// See MysqlAddNegotiatedFlagsForTesting.
std::atomic<uint64_t> added_flags_for_testing{0};

class MyConnection;

class MyStatement final : public DbStatement {
 public:
  MyStatement(MyConnection* conn, MYSQL_STMT* stmt, int nparams, uint64_t generation)
      : conn_(conn),
        stmt_(stmt),
        generation_(generation),
        binds_(static_cast<size_t>(nparams)),
        values_(static_cast<size_t>(nparams)) {
    for (size_t i = 0; i < binds_.size(); ++i) {
      std::memset(&binds_[i], 0, sizeof(MYSQL_BIND));
      binds_[i].buffer_type = MYSQL_TYPE_NULL;
      binds_[i].length = &values_[i].length;
    }
  }
  ~MyStatement() override { Mariadb().mysql_stmt_close(stmt_); }

  void BindInt(int index, int64_t v) override {
    if (Value* p = At(index)) {
      p->i = v;
      Set(index, MYSQL_TYPE_LONGLONG, &p->i);
    }
  }
  void BindDouble(int index, double v) override {
    if (Value* p = At(index)) {
      p->d = v;
      Set(index, MYSQL_TYPE_DOUBLE, &p->d);
    }
  }
  void BindString(int index, std::string_view v) override {
    if (Value* p = At(index)) {
      p->s.assign(v);
      p->length = static_cast<unsigned long>(v.size());
      Set(index, MYSQL_TYPE_STRING, p->s.data());
    }
  }
  void BindNull(int index) override {
    if (At(index) != nullptr) Set(index, MYSQL_TYPE_NULL, nullptr);
  }

  using DbStatement::Execute;
  DbError Execute(DbExecResult& result, DbRows* rows) override;

 private:
  struct Value {
    int64_t i = 0;
    double d = 0;
    std::string s;
    unsigned long length = 0;
  };
  struct Column {
    char buf[256];
    unsigned long length = 0;
    my_bool is_null = 0;
    my_bool error = 0;
  };

  Value* At(int index) {
    if (index < 0 || static_cast<size_t>(index) >= values_.size()) return nullptr;
    return &values_[static_cast<size_t>(index)];
  }
  // Rebinds only when a type or a buffer address changed.
  void Set(int index, enum_field_types type, void* buffer) {
    MYSQL_BIND& b = binds_[static_cast<size_t>(index)];
    if (b.buffer_type != type || b.buffer != buffer) {
      b.buffer_type = type;
      b.buffer = buffer;
      dirty_ = true;
    }
  }
  DbError Fail();
  bool RawExecute(MyRawIo& io, DbExecResult& result, DbError& e);
  DbError RawReply(MyRawIo& io, DbExecResult& result);
  DbError KeepRow(DbRows& rows);
  DbError BindResult(DbRows& rows);

  MyConnection* conn_;
  MYSQL_STMT* stmt_;
  uint64_t generation_;
  std::vector<MYSQL_BIND> binds_;
  std::vector<Value> values_;
  bool dirty_ = true;
  std::vector<MYSQL_BIND> result_binds_;
  std::vector<Column> columns_;
};

class MyConnection final : public DbConnection {
 public:
  MyConnection(const MySettings* settings, int index) : settings_(settings), index_(index) {}
  ~MyConnection() override { Close(); }

  Status Open() {
    Close();
    LibraryInit();
    mysql_ = Mariadb().mysql_init(nullptr);
    if (mysql_ == nullptr) return Status(StatusCode::kResourceExhausted, "mysql: out of memory");
    unsigned int timeout = 10;
    Mariadb().mysql_options(mysql_, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    // LOAD DATA LOCAL for bulk loads; the handler serves only the loader's
    // buffer and refuses any other file the server asks for.
    unsigned int local_infile = 1;
    Mariadb().mysql_options(mysql_, MYSQL_OPT_LOCAL_INFILE, &local_infile);
    Mariadb().mysql_set_local_infile_handler(mysql_, InfileInit, InfileRead, InfileEnd, InfileError,
                                             &infile_);
    if (settings_->ssl != "off") {
      my_bool on = 1;
      Mariadb().mysql_optionsv(mysql_, MYSQL_OPT_SSL_ENFORCE, &on);
      if (settings_->ssl == "verify_ca" || settings_->ssl == "verify_identity") {
        Mariadb().mysql_optionsv(mysql_, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &on);
      }
    }
    // Connection `index` picks a host, port and socket round-robin.
    const auto& s = *settings_;
    const size_t k = static_cast<size_t>(index_ < 0 ? 0 : index_);
    const std::string& host = s.hosts[k % s.hosts.size()];
    const int port = s.ports[(k / s.hosts.size()) % s.ports.size()];
    const char* socket = s.sockets.empty() ? nullptr : s.sockets[k % s.sockets.size()].c_str();
    const char* password = s.password_in_use.empty() ? nullptr : s.password_in_use.c_str();
    if (Mariadb().mysql_real_connect(mysql_, host.c_str(), s.user.c_str(), password, s.db.c_str(),
                                     static_cast<unsigned int>(port), socket, 0) == nullptr) {
      const int code = static_cast<int>(Mariadb().mysql_errno(mysql_));
      const std::string why = Scrub(Mariadb().mysql_error(mysql_), s.password_in_use);
      Close();
      const std::string where = socket != nullptr && (host == "localhost" || host.empty())
                                    ? fmt::format("socket {}", socket)
                                    : fmt::format("{}:{}", host, port);
      const std::string hint = code == kConnError || code == kConnHostError
                                   ? " (the server may not be running, or not listening there)"
                                   : "";
      return Status(StatusCode::kUnavailable,
                    fmt::format("mysql: cannot connect to {} as user {} to database {}: {} "
                                "(error {}){}",
                                where, s.user, s.db, why, code, hint));
    }
    ++generation_;
    // Our own COM_STMT_EXECUTE needs what the handshake agreed to suit it
    // (MyOwnPathObstacle says what); otherwise libmariadb runs everything.
    raw_ok_ = false;
    raw_obstacle_ = MyOwnPathObstacle(
        mysql_->client_flag | added_flags_for_testing.load(std::memory_order_relaxed),
        mysql_->server_capabilities, Mariadb().mysql_get_ssl_cipher(mysql_) != nullptr);
    if (raw_obstacle_ == nullptr) {
      const int fd = static_cast<int>(Mariadb().mysql_get_socket(mysql_));
      const int flags = fd >= 0 ? ::fcntl(fd, F_GETFL) : -1;
      if (flags >= 0 && ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0) {
        raw_.Reset(fd);
        raw_ok_ = true;
      } else {
        raw_obstacle_ = "the socket cannot be made blocking";
      }
    }
    return Status::Ok();
  }

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override {
    result = {};
    if (mysql_ == nullptr) return Lost();
    if (Mariadb().mysql_real_query(mysql_, sql.data(), static_cast<unsigned long>(sql.size())) !=
        0) {
      return Error();
    }
    if (Mariadb().mysql_field_count(mysql_) == 0) {
      result.rows_affected = Mariadb().mysql_affected_rows(mysql_);
      return {};
    }
    MYSQL_RES* res = Mariadb().mysql_use_result(mysql_);
    if (res == nullptr) return Error();
    const unsigned int nf = Mariadb().mysql_num_fields(res);
    if (rows != nullptr && rows->columns.empty()) {
      MYSQL_FIELD* fields = Mariadb().mysql_fetch_fields(res);
      for (unsigned int c = 0; c < nf; ++c) rows->columns.emplace_back(fields[c].name);
    }
    while (MYSQL_ROW row = Mariadb().mysql_fetch_row(res)) {
      ++result.rows_returned;
      if (rows == nullptr) continue;
      unsigned long* lengths = Mariadb().mysql_fetch_lengths(res);
      auto& out = rows->rows.emplace_back();
      out.reserve(nf);
      for (unsigned int c = 0; c < nf; ++c) {
        if (row[c] == nullptr) {
          out.emplace_back(std::nullopt);
        } else {
          out.emplace_back(std::string(row[c], lengths[c]));
        }
      }
    }
    DbError e = Mariadb().mysql_errno(mysql_) != 0 ? Error() : DbError{};
    Mariadb().mysql_free_result(res);
    return e;
  }

  DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                          std::unique_ptr<DbBulkInsert>& out) override;

  DbError Begin() override { return Simple("BEGIN"); }
  DbError Commit() override { return Simple("COMMIT"); }
  DbError Rollback() override { return Simple("ROLLBACK"); }

  DbError Reconnect() override {
    Status s = Open();
    if (!s.ok()) return {DbErrorClass::kReconnect, kServerGone, "08S01", s.message()};
    return {};
  }

  std::string ServerVersion() override {
    if (mysql_ == nullptr) return "MySQL (unknown)";
    const std::string info = Mariadb().mysql_get_server_info(mysql_);
    return info.find("MariaDB") != std::string::npos ? "MariaDB " + info : "MySQL " + info;
  }

  void AppendQuoted(std::string& out, std::string_view s) override {
    if (mysql_ == nullptr) return DbConnection::AppendQuoted(out, s);
    out += '\'';
    const size_t at = out.size();
    out.resize(at + 2 * s.size() + 1);
    const unsigned long n = Mariadb().mysql_real_escape_string(
        mysql_, out.data() + at, s.data(), static_cast<unsigned long>(s.size()));
    out.resize(at + n);
    out += '\'';
  }

  // Runs a LOAD DATA LOCAL INFILE statement whose file is `data`.
  DbError LoadFromMemory(const std::string& sql, const std::string& data, DbExecResult& result) {
    infile_ = InfileSource{&data, 0};
    DbError e = Execute(sql, result, nullptr);
    infile_ = InfileSource{};
    return e;
  }

  // The first condition of level Warning or Error of the last statement,
  // which raised `count` conditions, as an error with its code and SQLSTATE
  // (LOAD DATA LOCAL reports row errors as warnings); ok when all are Notes.
  // The server keeps only the first max_error_count conditions: when those
  // are all Notes and more were raised, a Warning may be among the lost ones,
  // so that fails too rather than pass unseen.
  DbError FirstWarning(unsigned count) {
    DbExecResult r;
    DbRows warnings;
    // SHOW WARNINGS leaves the conditions in place for GET DIAGNOSTICS.
    if (DbError e = Execute("SHOW WARNINGS", r, &warnings); !e.ok()) return e;
    const std::optional<size_t> failing = FirstFailingWarning(warnings);
    if (!failing.has_value()) {
      if (warnings.rows.size() >= count) return {};
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("mysql: LOAD DATA ended with {}, of which the server kept only the "
                          "first {}, all notes (max_error_count)",
                          CountOf(count, "warning", "warnings"), warnings.rows.size())};
    }
    DbError e = Execute(fmt::format("GET DIAGNOSTICS CONDITION {} @loadcell_errno = MYSQL_ERRNO, "
                                    "@loadcell_state = RETURNED_SQLSTATE, "
                                    "@loadcell_text = MESSAGE_TEXT",
                                    *failing + 1),
                        r, nullptr);
    DbRows rows;
    if (e.ok()) e = Execute("SELECT @loadcell_errno, @loadcell_state, @loadcell_text", r, &rows);
    if (!e.ok()) return e;
    if (rows.rows.size() != 1 || rows.rows[0].size() != 3) {
      return {DbErrorClass::kFatal, 0, "", "mysql: LOAD DATA ended with warnings"};
    }
    const auto& row = rows.rows[0];
    int code = 0;
    const std::string code_text = row[0].value_or("0");
    std::from_chars(code_text.data(), code_text.data() + code_text.size(), code);
    const std::string state = row[1].value_or("");
    const std::string text = row[2].value_or("LOAD DATA ended with warnings");
    return Classify(code, state.c_str(), text.c_str(), *settings_);
  }

  // The socket for our own COM_STMT_EXECUTE; nullptr when libmariadb must
  // run every statement (raw_obstacle() says why).
  MyRawIo* raw() { return raw_ok_ ? &raw_ : nullptr; }
  const char* raw_obstacle() const { return raw_obstacle_; }

  std::string StatementPath() const override {
    if (raw_ok_) return "loadcell's own protocol client (libmariadb opened the connection)";
    return fmt::format("libmariadb ({})", raw_obstacle_);
  }
  // A request on our socket that failed half-way leaves bytes of its reply
  // unread: the connection is closed, so that no later request reads them
  // as its own (every request then says the connection is lost, and a
  // reconnect opens a fresh one).
  DbError RawLost() {
    Close();
    return Classify(kServerLost, "HY000", "Lost connection to server during query", *settings_);
  }
  DbError RawMalformed() {
    Close();
    return {DbErrorClass::kReconnect, 2027, "HY000", "mysql: malformed packet from the server"};
  }
  // An ERR packet: code, '#', SQLSTATE, message.
  DbError RawServerError(std::string_view p) {
    if (p.size() < 3) return RawMalformed();
    const int code = U16(p, 1);
    std::string state;
    std::string_view text = p.substr(3);
    if (p.size() >= 9 && p[3] == '#') {
      state.assign(p.substr(4, 5));
      text = p.substr(9);
    }
    return Classify(code, state.c_str(), std::string(text).c_str(), *settings_);
  }

  MYSQL* mysql() const { return mysql_; }
  uint64_t generation() const { return generation_; }
  const MySettings& settings() const { return *settings_; }
  DbError Lost() const {
    return {DbErrorClass::kReconnect, kServerGone, "08S01", "mysql: the connection is closed"};
  }
  DbError Error() const {
    return Classify(static_cast<int>(Mariadb().mysql_errno(mysql_)),
                    Mariadb().mysql_sqlstate(mysql_), Mariadb().mysql_error(mysql_), *settings_);
  }

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override {
    if (mysql_ == nullptr) return Lost();
    MYSQL_STMT* stmt = Mariadb().mysql_stmt_init(mysql_);
    if (stmt == nullptr) return Error();
    if (Mariadb().mysql_stmt_prepare(stmt, sql.data(), static_cast<unsigned long>(sql.size())) !=
        0) {
      DbError e = Classify(static_cast<int>(Mariadb().mysql_stmt_errno(stmt)),
                           Mariadb().mysql_stmt_sqlstate(stmt), Mariadb().mysql_stmt_error(stmt),
                           *settings_);
      Mariadb().mysql_stmt_close(stmt);
      return e;
    }
    out = std::make_unique<MyStatement>(
        this, stmt, static_cast<int>(Mariadb().mysql_stmt_param_count(stmt)), generation_);
    return {};
  }

 private:
  // BEGIN, COMMIT, ROLLBACK: a COM_QUERY whose reply is an OK or an ERR.
  DbError Simple(std::string_view sql) {
    DbExecResult r;
    if (!raw_ok_ || mysql_ == nullptr) return Execute(sql, r, nullptr);
    std::string& o = raw_.out();
    o.assign(4, '\0');
    o += '\x03';  // COM_QUERY
    o.append(sql);
    // BEGIN, COMMIT, ROLLBACK: far below 16 MB.
    MyPutPacketHeader(o.data(), sql.size() + 1, 0);
    if (!raw_.Send()) return RawLost();
    std::string_view p;
    if (!raw_.Next(p)) return RawLost();
    if (!p.empty() && static_cast<unsigned char>(p[0]) == 0x00) return {};
    if (!p.empty() && static_cast<unsigned char>(p[0]) == 0xFF) return RawServerError(p);
    return RawMalformed();
  }

  void Close() {
    if (mysql_ != nullptr) Mariadb().mysql_close(mysql_);  // invalidates open statements
    mysql_ = nullptr;
    raw_ok_ = false;
    raw_obstacle_ = "the connection is closed";
  }

  const MySettings* settings_;
  int index_;
  MYSQL* mysql_ = nullptr;
  uint64_t generation_ = 0;
  InfileSource infile_;
  MyRawIo raw_;
  bool raw_ok_ = false;
  const char* raw_obstacle_ = "the connection is closed";
};

DbError MyStatement::Fail() {
  return Classify(static_cast<int>(Mariadb().mysql_stmt_errno(stmt_)),
                  Mariadb().mysql_stmt_sqlstate(stmt_), Mariadb().mysql_stmt_error(stmt_),
                  conn_->settings());
}

DbError MyStatement::BindResult(DbRows& rows) {
  MYSQL_RES* meta = Mariadb().mysql_stmt_result_metadata(stmt_);
  if (meta == nullptr) return Fail();
  const unsigned int nf = Mariadb().mysql_num_fields(meta);
  if (rows.columns.empty()) {
    MYSQL_FIELD* fields = Mariadb().mysql_fetch_fields(meta);
    for (unsigned int c = 0; c < nf; ++c) rows.columns.emplace_back(fields[c].name);
  }
  Mariadb().mysql_free_result(meta);
  if (result_binds_.size() == nf) return {};
  columns_.assign(nf, Column{});
  result_binds_.assign(nf, MYSQL_BIND{});
  for (unsigned int c = 0; c < nf; ++c) {
    MYSQL_BIND& b = result_binds_[c];
    b.buffer_type = MYSQL_TYPE_STRING;
    b.buffer = columns_[c].buf;
    b.buffer_length = sizeof(columns_[c].buf);
    b.length = &columns_[c].length;
    b.is_null = &columns_[c].is_null;
    b.error = &columns_[c].error;
  }
  if (Mariadb().mysql_stmt_bind_result(stmt_, result_binds_.data()) != 0) return Fail();
  return {};
}

DbError MyStatement::KeepRow(DbRows& rows) {
  DbRows::Row& out = rows.AddRow(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    Column& col = columns_[c];
    if (col.is_null) {
      out[c].reset();
    } else if (col.length <= sizeof(col.buf)) {
      DbRows::SetValue(out[c], col.buf, col.length);
    } else {
      // Longer than the buffer: fetch the whole value.
      std::string big(col.length, '\0');
      MYSQL_BIND b{};
      unsigned long len = 0;
      b.buffer_type = MYSQL_TYPE_STRING;
      b.buffer = big.data();
      b.buffer_length = col.length;
      b.length = &len;
      if (Mariadb().mysql_stmt_fetch_column(stmt_, &b, static_cast<unsigned int>(c), 0) != 0)
        return Fail();
      out[c] = std::move(big);
    }
  }
  return {};
}

DbError MyStatement::Execute(DbExecResult& result, DbRows* rows) {
  result = {};
  if (conn_->mysql() == nullptr) return conn_->Lost();
  if (conn_->generation() != generation_) {
    return {DbErrorClass::kFatal, 0, "",
            "mysql: statement prepared before a reconnect: prepare it again"};
  }
  if (rows == nullptr) {
    if (MyRawIo* io = conn_->raw()) {
      DbError e;
      if (RawExecute(*io, result, e)) return e;
    }
  }
  if (dirty_ && !binds_.empty()) {
    if (Mariadb().mysql_stmt_bind_param(stmt_, binds_.data()) != 0) return Fail();
    dirty_ = false;
  }
  if (Mariadb().mysql_stmt_execute(stmt_) != 0) return Fail();
  if (Mariadb().mysql_stmt_field_count(stmt_) == 0) {
    result.rows_affected = Mariadb().mysql_stmt_affected_rows(stmt_);
    return {};
  }
  if (rows != nullptr) {
    if (DbError e = BindResult(*rows); !e.ok()) {
      Mariadb().mysql_stmt_free_result(stmt_);
      return e;
    }
  }
  // Rows are streamed; without result binds nothing is converted or copied.
  for (;;) {
    const int rc = Mariadb().mysql_stmt_fetch(stmt_);
    if (rc == MYSQL_NO_DATA) break;
    if (rc == 1) {
      DbError e = Fail();
      Mariadb().mysql_stmt_free_result(stmt_);
      return e;
    }
    ++result.rows_returned;  // 0 or MYSQL_DATA_TRUNCATED
    if (rows != nullptr) {
      if (DbError e = KeepRow(*rows); !e.ok()) {
        Mariadb().mysql_stmt_free_result(stmt_);
        return e;
      }
    }
  }
  Mariadb().mysql_stmt_free_result(stmt_);
  return {};
}

// Character sets in which ASCII text reads as itself.
bool AsciiCompatible(std::string_view cs) {
  return cs == "latin1" || cs == "ascii" || cs == "utf8" || cs == "utf8mb3" || cs == "utf8mb4";
}

// The fastest load path of MySQL and MariaDB: rows as tab-separated text
// through LOAD DATA LOCAL INFILE, one statement per few MB, served from
// memory. The server reads them without parsing SQL, and in the database's
// character set when the text is ASCII (no conversion per value); that costs
// the server a third less CPU per row than multi-row INSERT. A statement
// whose rows hold nothing escaped switches escapes off (ESCAPED BY ''), so
// that the server does not look for them: 10-15% less server CPU for
// sbtest rows. With LOCAL the
// server turns row errors (duplicate keys, bad values) into warnings and
// goes on; the first warning is turned back into an error with its code and
// SQLSTATE, so that a failing load fails as an INSERT would.
class MyLoadData final : public DbBulkInsert {
 public:
  static constexpr size_t kMaxBytes = 4 * 1024 * 1024;

  MyLoadData(MyConnection* conn, std::string_view table, const std::vector<std::string>& columns,
             std::string db_charset)
      : conn_(conn), ncols_(columns.size()), db_charset_(std::move(db_charset)) {
    head_ = fmt::format("LOAD DATA LOCAL INFILE 'loadcell' INTO TABLE {} CHARACTER SET ", table);
    columns_ = fmt::format(" LINES TERMINATED BY '\\n' ({})", fmt::join(columns, ", "));
    buf_.reserve(kMaxBytes + 4096);
  }

  DbError AddRow(std::span<const DbValue> values) override {
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    const TextRowInfo info = AppendTextRow(buf_, values, true);
    ascii_ = ascii_ && info.ascii;
    escaped_ = escaped_ || info.escaped;
    ++rows_;
    if (buf_.size() >= kMaxBytes) return Flush();
    return {};
  }

  DbError Finish() override { return Flush(); }

 private:
  DbError Flush();

  MyConnection* conn_;
  size_t ncols_;
  std::string db_charset_;
  std::string head_;
  std::string columns_;
  std::string buf_;
  std::string sql_;
  uint64_t rows_ = 0;
  bool ascii_ = true;
  bool escaped_ = false;
};

DbError MyConnection::BeginBulkInsert(std::string_view table,
                                      const std::vector<std::string>& columns,
                                      std::unique_ptr<DbBulkInsert>& out) {
  if (mysql_ == nullptr) return Lost();
  DbExecResult r;
  DbRows rows;
  if (DbError e = Execute("SELECT @@local_infile, @@character_set_database", r, &rows); !e.ok()) {
    return e;
  }
  const bool allowed = rows.rows.size() == 1 && rows.rows[0].size() == 2 &&
                       rows.rows[0][0].value_or("0") != "0" &&
                       rows.rows[0][0].value_or("OFF") != "OFF";
  if (!allowed) return DbConnection::BeginBulkInsert(table, columns, out);  // multi-row INSERT
  out = std::make_unique<MyLoadData>(this, table, columns, rows.rows[0][1].value_or(""));
  return {};
}

DbError MyLoadData::Flush() {
  if (rows_ == 0) return {};
  // ASCII rows are read in the database's character set, others in the
  // connection's (the server converts them as it would an INSERT's).
  const char* cs = ascii_ && AsciiCompatible(db_charset_)
                       ? db_charset_.c_str()
                       : Mariadb().mysql_character_set_name(conn_->mysql());
  sql_.assign(head_).append(cs).append(LoadDataFieldsClause(escaped_)).append(columns_);
  const uint64_t expected = rows_;
  DbExecResult r;
  DbError e = conn_->LoadFromMemory(sql_, buf_, r);
  buf_.clear();
  rows_ = 0;
  ascii_ = true;
  escaped_ = false;
  if (!e.ok()) return e;
  if (const unsigned warnings = Mariadb().mysql_warning_count(conn_->mysql()); warnings > 0) {
    if (e = conn_->FirstWarning(warnings); !e.ok()) return e;
  }
  if (r.rows_affected != expected) {
    return {DbErrorClass::kFatal, 0, "",
            fmt::format("mysql: LOAD DATA loaded {} of {} rows", r.rows_affected, expected)};
  }
  return {};
}

void PutInt(std::string& o, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) o += static_cast<char>((v >> (8 * k)) & 0xFF);
}

void PutLenEnc(std::string& o, uint64_t v) {
  if (v < 0xFB) {
    o += static_cast<char>(v);
  } else if (v <= 0xFFFF) {
    o += '\xFC';
    PutInt(o, v, 2);
  } else if (v <= 0xFFFFFF) {
    o += '\xFD';
    PutInt(o, v, 3);
  } else {
    o += '\xFE';
    PutInt(o, v, 8);
  }
}

// COM_STMT_EXECUTE with the current binds, their types sent each time. False
// (nothing sent) when the request would not fit one packet: libmariadb runs
// it then.
bool MyStatement::RawExecute(MyRawIo& io, DbExecResult& result, DbError& e) {
  std::string& o = io.out();
  o.assign(4, '\0');
  o += '\x17';  // COM_STMT_EXECUTE
  PutInt(o, stmt_->stmt_id, 4);
  o += '\0';        // no cursor
  PutInt(o, 1, 4);  // iteration count
  const size_t n = binds_.size();
  if (n > 0) {
    const size_t bitmap = o.size();
    o.append((n + 7) / 8, '\0');
    o += '\x01';  // types follow
    for (size_t k = 0; k < n; ++k) {
      const enum_field_types t = binds_[k].buffer_type;
      if (t == MYSQL_TYPE_NULL) {
        o[bitmap + k / 8] = static_cast<char>(o[bitmap + k / 8] | (1 << (k % 8)));
      }
      o += static_cast<char>(t);
      o += '\0';
    }
    for (size_t k = 0; k < n; ++k) {
      const Value& v = values_[k];
      switch (binds_[k].buffer_type) {
        case MYSQL_TYPE_LONGLONG:
          PutInt(o, static_cast<uint64_t>(v.i), 8);
          break;
        case MYSQL_TYPE_DOUBLE: {
          uint64_t bits = 0;
          std::memcpy(&bits, &v.d, sizeof(bits));
          PutInt(o, bits, 8);
          break;
        }
        case MYSQL_TYPE_STRING:
          PutLenEnc(o, v.length);
          o.append(v.s.data(), v.length);
          break;
        default:
          break;
      }
    }
  }
  const size_t len = o.size() - 4;
  if (len >= 0xFFFFFF) return false;
  MyPutPacketHeader(o.data(), len, 0);  // a command starts at sequence id 0
  if (!io.Send()) {
    e = conn_->RawLost();
    return true;
  }
  e = RawReply(io, result);
  return true;
}

// Reads the reply to COM_STMT_EXECUTE: an OK, an ERR, or a result set
// (column count, the columns unless the server leaves out metadata it sent
// before, EOF, binary rows, EOF), counting the rows.
DbError MyStatement::RawReply(MyRawIo& io, DbExecResult& result) {
  std::string_view p;
  for (;;) {
    if (!io.Next(p)) return conn_->RawLost();
    if (p.empty()) return conn_->RawMalformed();
    const auto head = static_cast<unsigned char>(p[0]);
    if (head == 0xFF) return conn_->RawServerError(p);
    uint16_t status = 0;
    if (head == 0x00) {
      size_t i = 1;
      uint64_t affected = 0;
      uint64_t insert_id = 0;
      if (!LenEnc(p, i, affected) || !LenEnc(p, i, insert_id) || i + 2 > p.size()) {
        return conn_->RawMalformed();
      }
      result.rows_affected += affected;
      status = U16(p, i);
    } else {
      size_t i = 0;
      uint64_t ncols = 0;
      if (!LenEnc(p, i, ncols)) return conn_->RawMalformed();
      // The columns, unless the server skips metadata it sent before; the
      // EOF after them comes either way.
      const bool metadata = i >= p.size() || p[i] != 0;
      for (uint64_t c = 0; c < (metadata ? ncols : 0) + 1; ++c) {
        if (!io.Next(p)) return conn_->RawLost();
      }
      if (p.empty() || static_cast<unsigned char>(p[0]) != 0xFE) return conn_->RawMalformed();
      for (;;) {
        if (!io.Next(p)) return conn_->RawLost();
        if (p.empty()) return conn_->RawMalformed();
        const auto r = static_cast<unsigned char>(p[0]);
        if (r == 0x00) {
          ++result.rows_returned;
        } else if (r == 0xFF) {
          return conn_->RawServerError(p);
        } else if (r == 0xFE && p.size() < 9) {
          status = p.size() >= 5 ? U16(p, 3) : 0;
          break;
        } else {
          return conn_->RawMalformed();
        }
      }
    }
    if ((status & SERVER_MORE_RESULTS_EXIST) == 0) return {};
  }
}

class MysqlDriver final : public DbDriver {
 public:
  std::string Name() const override { return "mysql"; }
  DbCapabilities Capabilities() const override {
    DbCapabilities c;
    c.prepared_statements = server_prepared();
    c.bulk_insert = "LOAD DATA LOCAL INFILE";
    return c;
  }
  void RegisterOptions(OptionSet& opts) override {
    opts.List("mysql-host", &s_.hosts, "localhost",
              "MySQL server host; a list spreads connections round-robin");
    opts.List("mysql-port", &s_.port_texts, "3306",
              "MySQL server port; a list spreads connections round-robin");
    opts.List("mysql-socket", &s_.sockets, "",
              "MySQL unix socket file; a list is used round-robin");
    opts.String("mysql-user", &s_.user, "sbtest", "MySQL user");
    opts.String("mysql-password", &s_.password, "", "MySQL password (default: $MYSQL_PWD)")
        .Secret();
    opts.String("mysql-db", &s_.db, "sbtest", "MySQL database name");
    opts.Enum("mysql-ssl", &s_.ssl, "off",
              {"off", "on", "required", "verify_ca", "verify_identity"}, "use SSL connections");
    opts.List("mysql-ignore-errors", &s_.ignore_errors, "1213,1020,1205",
              "error numbers or SQLSTATEs that roll back and retry the transaction instead of "
              "failing the run, or 'all' or 'none'");
  }
  Status Validate() override {
    LC_RETURN_IF_ERROR(LoadMariadb());
    auto ignore = DbIgnoreList::Parse(s_.ignore_errors);
    if (!ignore.ok()) {
      return Status::InvalidArgument("--mysql-ignore-errors: " + ignore.status().message());
    }
    s_.ignore = std::move(ignore).value();
    if (s_.hosts.empty()) s_.hosts.push_back("localhost");
    s_.ports.clear();
    for (const std::string& t : s_.port_texts) {
      int p = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), p);
      if (r.ec != std::errc() || r.ptr != t.data() + t.size() || p < 1 || p > 65535) {
        return Status::InvalidArgument(
            fmt::format("--mysql-port={}: not a port number (1 to 65535)", t));
      }
      s_.ports.push_back(p);
    }
    if (s_.ports.empty()) s_.ports.push_back(3306);
    // The environment's password is used, never written into the option.
    s_.password_in_use = s_.password;
    if (s_.password_in_use.empty()) {
      if (const char* pw = std::getenv("MYSQL_PWD")) s_.password_in_use = pw;
    }
    return Status::Ok();
  }
  std::string Describe() const override {
    std::string where;
    if (!s_.sockets.empty()) {
      where = fmt::format("socket {}", fmt::join(s_.sockets, ","));
    } else {
      where = fmt::format("{} port {}", fmt::join(s_.hosts, ","), fmt::join(s_.port_texts, ","));
    }
    return fmt::format("mysql {} user {} database {}", where, s_.user, s_.db);
  }

 protected:
  Result<std::unique_ptr<DbConnection>> Open(int index) override {
    LC_RETURN_IF_ERROR(LoadMariadb());
    if (s_.ports.empty() || s_.hosts.empty()) LC_RETURN_IF_ERROR(Validate());
    auto conn = std::make_unique<MyConnection>(&s_, index);
    LC_RETURN_IF_ERROR(conn->Open());
    return std::unique_ptr<DbConnection>(std::move(conn));
  }

 private:
  MySettings s_;
};

}  // namespace

std::unique_ptr<DbDriver> NewMysqlDriver() { return std::make_unique<MysqlDriver>(); }

std::string MysqlOwnPathObstacle(const DbConnection& conn) {
  const auto* my = dynamic_cast<const MyConnection*>(&conn);
  if (my == nullptr) return "not a connection of the mysql driver";
  const char* why = my->raw_obstacle();
  return why != nullptr ? why : "";
}

void MysqlAddNegotiatedFlagsForTesting(uint64_t flags) {
  added_flags_for_testing.store(flags, std::memory_order_relaxed);
}

}  // namespace loadcell
