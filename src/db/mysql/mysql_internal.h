#pragma once
// The library connector of the mysql driver (db/mysql only; Linux): its
// connection and prepared statement on libmariadb. What both connectors
// share is in mysql_settings.h.
//
// mysql_connection.cpp: connecting, text statements, transactions, errors.
// mysql_statement.cpp: prepared statements (libmariadb's or our own
//   COM_STMT_EXECUTE, db/mysql/mysql_wire.h).
// mysql_bulk_load.cpp: LOAD DATA LOCAL INFILE from memory (both connectors).
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
#include "db/mysql/mysql_settings.h"
#include "db/mysql/mysql_wire.h"

namespace loadcell::mysql_internal {

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
        types_(static_cast<size_t>(nparams), kMyTypeNull),
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
      types_[static_cast<size_t>(index)] = static_cast<uint8_t>(type);
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
  std::vector<uint8_t> types_;  // binds_' types as our own COM_STMT_EXECUTE sends them
  std::vector<MyParamValue> values_;
  bool dirty_ = true;
  std::vector<MYSQL_BIND> result_binds_;
  std::vector<Column> columns_;
};

class MyConnection final : public MyConnectionBase {
 public:
  MyConnection(const MySettings* settings, int index) : MyConnectionBase(settings), index_(index) {}
  ~MyConnection() override { Close(); }

  Status Open();

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override;

  DbError Simple(std::string_view sql) override;

  DbError Reconnect() override;

  std::string ServerVersion() override;

  void AppendQuoted(std::string& out, std::string_view s) override;

  DbError LoadFromMemory(const std::string& sql, const std::string& data, DbExecResult& result,
                         unsigned& warnings) override;
  std::string CharacterSetName() const override;
  bool connected() const override { return mysql_ != nullptr; }

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
  DbError Error() const {
    return Classify(static_cast<int>(Mariadb().mysql_errno(mysql_)),
                    Mariadb().mysql_sqlstate(mysql_), Mariadb().mysql_error(mysql_), *settings_);
  }

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override;

 private:
  void Close();

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
