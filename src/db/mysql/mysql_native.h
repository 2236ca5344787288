#pragma once
// The native connector of the mysql driver (db/mysql only): loadcell's own
// MySQL/MariaDB client over TCP (os/tcp.h), without a client library, on
// Linux (--db-connector=native) and Windows (every connection). The login is
// mysql_handshake.h; the statements of a run take the same requests and
// reply readers as the library connector's own path (mysql_wire.h).
//
// mysql_native_connection.cpp: connecting, text statements and their rows,
//   transactions, LOAD DATA LOCAL INFILE, quoting.
// mysql_native_statement.cpp: COM_STMT_PREPARE / EXECUTE / CLOSE, binary
//   rows as text.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/mysql/mysql_handshake.h"
#include "db/mysql/mysql_settings.h"
#include "db/mysql/mysql_wire.h"
#include "os/tcp.h"

namespace loadcell::mysql_internal {

// One column of a result set as its definition packet gives it.
struct MyColumn {
  std::string name;
  uint8_t type = 0;
  uint16_t flags = 0;  // 32: UNSIGNED
  uint8_t decimals = 0;
};

// Parses a ColumnDefinition41 packet; false when it is cut short.
bool MyParseColumn(std::string_view p, MyColumn& out);

// The value of column `c` of the binary row `p` (0x00, the NULL bitmap, the
// values) at p[i], as text into `out` (the library's text form: integers in
// decimal, dates as YYYY-MM-DD hh:mm:ss[.ffffff]); `i` moves past it. False
// when the row ends inside it.
bool MyBinaryValueText(std::string_view p, size_t& i, const MyColumn& c, std::string& out);

// Whether `p` is the EOF packet that ends a result set's rows (0xFE, below
// 9 bytes: a row may begin with 0xFE, a length-encoded 8-byte length);
// `status` gets its status flags.
inline bool MyRowsEnd(std::string_view p, uint16_t& status) {
  if (p.empty() || static_cast<unsigned char>(p[0]) != 0xFE || p.size() >= 9) return false;
  status = p.size() >= 5 ? MyU16(p, 3) : 0;
  return true;
}

// Reads the OK packet `p` (0x00, affected rows, insert id, status flags,
// warnings); false when it is cut short.
inline bool MyParseOk(std::string_view p, uint64_t& affected, uint16_t& status,
                      uint16_t& warnings) {
  size_t i = 1;
  uint64_t insert_id = 0;
  if (!MyLenEnc(p, i, affected) || !MyLenEnc(p, i, insert_id) || i + 2 > p.size()) return false;
  status = MyU16(p, i);
  warnings = i + 4 <= p.size() ? MyU16(p, i + 2) : 0;
  return true;
}

class MyNativeConnection;

class MyNativeStatement final : public DbStatement {
 public:
  MyNativeStatement(MyNativeConnection* conn, uint32_t id, int nparams, uint64_t generation)
      : conn_(conn),
        id_(id),
        generation_(generation),
        types_(static_cast<size_t>(nparams), kMyTypeNull),
        values_(static_cast<size_t>(nparams)) {}
  ~MyNativeStatement() override;

  void BindInt(int index, int64_t v) override {
    if (MyParamValue* p = At(index, kMyTypeLongLong)) p->i = v;
  }
  void BindDouble(int index, double v) override {
    if (MyParamValue* p = At(index, kMyTypeDouble)) p->d = v;
  }
  void BindString(int index, std::string_view v) override {
    if (MyParamValue* p = At(index, kMyTypeString)) {
      p->s.assign(v);
      p->length = static_cast<unsigned long>(v.size());
    }
  }
  void BindNull(int index) override { At(index, kMyTypeNull); }

  using DbStatement::Execute;
  DbError Execute(DbExecResult& result, DbRows* rows) override;

 private:
  MyParamValue* At(int index, uint8_t type) {
    if (index < 0 || static_cast<size_t>(index) >= values_.size()) return nullptr;
    types_[static_cast<size_t>(index)] = type;
    return &values_[static_cast<size_t>(index)];
  }

  DbError ReadRows(MyRawIo& io, DbExecResult& result, DbRows& rows);
  DbError ReadResultSet(MyRawIo& io, std::string_view head, DbExecResult& result, DbRows& rows,
                        DbReplyBudget& budget, uint16_t& status);

  MyNativeConnection* conn_;
  uint32_t id_;
  uint64_t generation_;
  std::vector<uint8_t> types_;
  std::vector<MyParamValue> values_;
  std::vector<MyColumn> columns_;
  std::string text_;  // a binary value as text
};

class MyNativeConnection final : public MyConnectionBase {
 public:
  MyNativeConnection(const MySettings* settings, int index)
      : MyConnectionBase(settings), index_(index) {}
  ~MyNativeConnection() override { Close(); }

  Status Open();

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override;
  DbError Simple(std::string_view sql) override;
  DbError Reconnect() override;
  std::string ServerVersion() override;
  std::string StatementPath() const override {
    return "loadcell's own protocol client (--db-connector=native)";
  }
  void AppendQuoted(std::string& out, std::string_view s) override;

  DbError LoadFromMemory(const std::string& sql, const std::string& data, DbExecResult& result,
                         unsigned& warnings) override;
  std::string CharacterSetName() const override { return std::string(kMyNativeCharset); }
  bool connected() const override { return socket_ != kNoSocket; }

  // For the statements: the socket, the generation (a reconnect makes the
  // old statements invalid), the failures that close the connection.
  MyRawIo& io() { return io_; }
  uint64_t generation() const { return generation_; }
  DbError Outcome(const MyCommandReply& reply);
  DbError LostNow();
  DbError MalformedNow();
  // The reply broke a bound (`why`: what the server sent, for
  // MyLostError's line): the connection is closed.
  DbError RefusedNow(std::string why);
  // Sends COM_STMT_CLOSE for statement `id` of `generation` when the
  // connection is still that one (no reply comes).
  void CloseStatement(uint32_t id, uint64_t generation);

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override;

 private:
  Status Handshake();
  // Sends `payload` as command packets (split at 16 MB), sequence ids from 0.
  bool SendCommand(std::string_view payload);
  // Reads the reply of a COM_QUERY: OKs, result sets in text (kept in
  // `rows` when set), a request for the LOAD DATA file.
  DbError ReadQueryReply(DbExecResult& result, DbRows* rows);
  DbError ReadTextResultSet(std::string_view head, DbExecResult& result, DbRows* rows,
                            DbReplyBudget& budget, uint16_t& status);
  bool ServeLocalFile(DbError& refused);
  void Close();

  int index_;
  SocketHandle socket_ = kNoSocket;
  MyRawIo io_;
  MyServerHello hello_;
  std::string where_;
  uint64_t generation_ = 0;
  const std::string* infile_ = nullptr;  // the LOAD DATA rows being served
  uint16_t warnings_ = 0;                // of the last OK packet
  uint8_t seq_ = 0;                      // the sequence id the client sends next
};

}  // namespace loadcell::mysql_internal
