#pragma once
// What the files of the mysql driver share (db/mysql only): its settings,
// error classification, connection and prepared statement. The driver's
// entry point is NewMysqlDriver (db/drivers.h).
//
// mysql_connection.cpp: connecting, text statements, transactions, errors.
// mysql_statement.cpp: prepared statements (libmariadb's or our own
//   COM_STMT_EXECUTE, db/mysql/mysql_wire.h).
// mysql_bulk_load.cpp: LOAD DATA LOCAL INFILE from memory.
// mysql_driver.cpp: the driver and its options.

#include <mysql.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_driver.h"
#include "db/mysql/mariadb_api.h"
#include "db/mysql/mysql_wire.h"

namespace loadcell::mysql_internal {

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
  std::string ssl_cipher;    // --mysql-ssl-cipher (with --mysql-ssl)
  bool compression = false;  // --mysql-compression: the protocol's compression
  std::vector<std::string> ignore_errors;
  DbIgnoreList ignore;
  DbTimeouts timeouts;  // the driver's, copied by Validate
};

// The error of `code` (with its SQLSTATE and message; either may be null),
// classified: a lost connection, a retryable deadlock or lock wait, one of
// --mysql-ignore-errors, else fatal. The message is one line without the
// password.
DbError Classify(int code, const char* sqlstate, const char* text, const MySettings& s);

// The rows of one LOAD DATA LOCAL INFILE statement, handed to the server
// when it asks for the "file". A connection serves only this buffer: every
// other request of the server for a local file is refused.
struct InfileSource {
  const std::string* data = nullptr;
  size_t sent = 0;
};

// Makes `mysql` serve LOAD DATA LOCAL INFILE from `source` only, refusing
// any other file the server asks for.
void InstallInfileHandler(MYSQL* mysql, InfileSource* source);

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
    if (MyParamValue* p = At(index)) {
      p->i = v;
      Set(index, MYSQL_TYPE_LONGLONG, &p->i);
    }
  }
  void BindDouble(int index, double v) override {
    if (MyParamValue* p = At(index)) {
      p->d = v;
      Set(index, MYSQL_TYPE_DOUBLE, &p->d);
    }
  }
  void BindString(int index, std::string_view v) override {
    if (MyParamValue* p = At(index)) {
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
  struct Column {
    char buf[256];
    unsigned long length = 0;
    my_bool is_null = 0;
    my_bool error = 0;
  };

  MyParamValue* At(int index) {
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
  std::vector<MyParamValue> values_;
  bool dirty_ = true;
  std::vector<MYSQL_BIND> result_binds_;
  std::vector<Column> columns_;
};

class MyConnection final : public DbConnection {
 public:
  MyConnection(const MySettings* settings, int index) : settings_(settings), index_(index) {}
  ~MyConnection() override { Close(); }

  Status Open();

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override;

  DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                          std::unique_ptr<DbBulkInsert>& out) override;

  DbError Begin() override { return Simple("BEGIN"); }
  DbError Commit() override { return Simple("COMMIT"); }
  DbError Rollback() override { return Simple("ROLLBACK"); }

  DbError Reconnect() override;

  std::string ServerVersion() override;

  void AppendQuoted(std::string& out, std::string_view s) override;

  // Runs a LOAD DATA LOCAL INFILE statement whose file is `data`.
  DbError LoadFromMemory(const std::string& sql, const std::string& data, DbExecResult& result);

  // The first condition of level Warning or Error of the last statement,
  // which raised `count` conditions, as an error with its code and SQLSTATE
  // (LOAD DATA LOCAL reports row errors as warnings); ok when all are Notes.
  // The server keeps only the first max_error_count conditions: when those
  // are all Notes and more were raised, a Warning may be among the lost ones,
  // so that fails too rather than pass unseen.
  DbError FirstWarning(unsigned count);

  // The socket for our own COM_STMT_EXECUTE; nullptr when libmariadb must
  // run every statement (raw_obstacle() says why).
  MyRawIo* raw() { return raw_ok_ ? &raw_ : nullptr; }
  const char* raw_obstacle() const { return raw_obstacle_; }

  std::string StatementPath() const override;
  // A request on our socket that failed half-way leaves bytes of its reply
  // unread: the connection is closed, so that no later request reads them
  // as its own (every request then says the connection is lost, and a
  // reconnect opens a fresh one).
  DbError RawLost();
  DbError RawMalformed();
  // An ERR packet: code, '#', SQLSTATE, message.
  DbError RawServerError(std::string_view p);
  // The outcome of a reply read on our socket.
  DbError RawOutcome(const MyCommandReply& reply) {
    switch (reply.status) {
      case MyReplyStatus::kOk:
        return {};
      case MyReplyStatus::kLost:
        return RawLost();
      case MyReplyStatus::kServerError:
        return RawServerError(reply.error);
      case MyReplyStatus::kMalformed:
        break;
    }
    return RawMalformed();
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
                        std::unique_ptr<DbStatement>& out) override;

 private:
  // BEGIN, COMMIT, ROLLBACK: a COM_QUERY whose reply is an OK or an ERR.
  DbError Simple(std::string_view sql);

  void Close();

  const MySettings* settings_;
  int index_;
  MYSQL* mysql_ = nullptr;
  uint64_t generation_ = 0;
  InfileSource infile_;
  std::string where_;  // host:port or socket of the connection, for messages
  MyRawIo raw_;
  bool raw_ok_ = false;
  const char* raw_obstacle_ = "the connection is closed";
};

}  // namespace loadcell::mysql_internal
