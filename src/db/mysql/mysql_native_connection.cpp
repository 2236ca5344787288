// The native connector's connections: TCP through os/tcp.h, the login of
// mysql_handshake.h, text statements and their rows, transactions, LOAD DATA
// LOCAL INFILE served from memory, quoting.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "db/mysql/mysql_native.h"

namespace loadcell::mysql_internal {
namespace {

constexpr size_t kMaxPayload = 0xFFFFFF;
constexpr uint16_t kMyServerNoBackslashEscapes = 512;

// MyRawIo as the login's packet channel, counting the sequence ids.
class LoginChannel final : public MyPacketChannel {
 public:
  explicit LoginChannel(MyRawIo& io) : io_(io) {}
  bool Read(std::string_view& payload) override {
    if (!io_.Next(payload)) return false;
    ++seq_;
    return true;
  }
  bool Write(std::string_view payload) override {
    std::string& o = io_.out();
    o.assign(4, '\0');
    o.append(payload);
    MyPutPacketHeader(o.data(), payload.size(), seq_++);
    return io_.Send();
  }

 private:
  MyRawIo& io_;
  uint8_t seq_ = 0;
};

// Appends `payload` to `o` as packets of at most 16 MB - 1 from sequence id
// `seq` on (an empty packet ends one whose length is a multiple of it);
// returns the next sequence id.
uint8_t PutPackets(std::string& o, std::string_view payload, uint8_t seq) {
  for (;;) {
    const size_t n = std::min(payload.size(), kMaxPayload);
    const size_t at = o.size();
    o.append(4, '\0');
    MyPutPacketHeader(o.data() + at, n, seq++);
    o.append(payload.substr(0, n));
    payload.remove_prefix(n);
    if (n < kMaxPayload) return seq;
  }
}

}  // namespace

Result<std::unique_ptr<DbConnection>> OpenNativeConnection(const MySettings* s, int index) {
  auto conn = std::make_unique<MyNativeConnection>(s, index);
  LC_RETURN_IF_ERROR(conn->Open());
  return std::unique_ptr<DbConnection>(std::move(conn));
}

Status MyNativeConnection::Open() {
  Close();
  const MySettings& s = *settings_;
  const MyEndpoint to = EndpointOf(s, index_);
  where_ = fmt::format("{}:{}", to.host, to.port);
  const DbTimeouts& limits = s.timeouts;
  const int connect_ms = static_cast<int>(limits.connect_s * 1000);
  const auto connect_started = ReplyDeadline::Clock::now();
  Result<SocketHandle> sock = TcpConnect({to.host, static_cast<uint16_t>(to.port)}, connect_ms);
  if (!sock.ok()) return ConnectFailure(s, where_, sock.status().message(), kConnHostError);
  socket_ = *sock;
  // The login within what is left of the connect limit (all of its
  // exchanges together), the statements within the run's.
  Status st = TcpSetTimeouts(socket_, connect_ms, connect_ms);
  if (st.ok()) {
    io_.Reset(socket_, connect_ms, connect_ms);
    io_.SetDeadline(connect_started + std::chrono::milliseconds(connect_ms));
    io_.set_max_payload(s.limits.max_bytes);
    st = Handshake();
  }
  if (st.ok()) st = TcpSetTimeouts(socket_, limits.read_ms(), limits.write_ms());
  if (!st.ok()) {
    Close();
    return st;
  }
  io_.Reset(socket_, limits.read_ms(), limits.write_ms());
  io_.set_max_payload(s.limits.max_bytes);
  ++generation_;
  return Status::Ok();
}

// Reads the server's handshake and logs in; selects the database with
// COM_INIT_DB when the server takes none in the handshake.
Status MyNativeConnection::Handshake() {
  const MySettings& s = *settings_;
  LoginChannel ch(io_);
  std::string_view p;
  if (!ch.Read(p)) {
    if (!io_.refused().empty()) {
      return ConnectFailure(s, where_, "the server sent " + io_.refused(), kMalformedPacket);
    }
    return ConnectFailure(s, where_,
                          io_.timed_out() != nullptr
                              ? "the server sent no handshake within --db-connect-timeout"
                              : "the server closed the connection before its handshake",
                          kServerLost);
  }
  if (!p.empty() && static_cast<unsigned char>(p[0]) == 0xFF) {
    MyServerError e;
    if (MyParseErrPacket(p, e)) return ConnectFailure(s, where_, e.message, e.code);
  }
  std::string why;
  if (!MyParseServerHello(p, hello_, why)) return ConnectFailure(s, where_, why, kMalformedPacket);
  const bool with_db = !s.db.empty();
  const uint64_t flags = MyNativeClientFlags(hello_.capabilities, with_db);
  MyLoginError err;
  const MyLogin login{s.user, s.password_in_use, s.db, s.server_public_key_pem,
                      s.get_server_public_key};
  if (!MyLogIn(ch, hello_, flags, login, err)) {
    if (!io_.refused().empty()) {
      err.message = "the server sent " + io_.refused();
    } else if (io_.timed_out() != nullptr) {
      err.message = "the server did not finish the login within --db-connect-timeout";
    }
    return ConnectFailure(s, where_, err.message, err.code);
  }
  if (with_db && (flags & kMyClientConnectWithDb) == 0) {
    io_.out().clear();
    PutPackets(io_.out(), "\x02" + s.db, 0);  // COM_INIT_DB
    MyCommandReply reply;
    if (io_.Send()) MyReadOkReply(io_, reply);
    if (reply.status != MyReplyStatus::kOk) {
      MyServerError e;
      if (reply.status == MyReplyStatus::kServerError && MyParseErrPacket(reply.error, e)) {
        return ConnectFailure(s, where_, e.message, e.code);
      }
      return ConnectFailure(s, where_, "lost the connection selecting the database", kServerLost);
    }
  }
  return Status::Ok();
}

bool MyNativeConnection::SendCommand(std::string_view payload) {
  io_.out().clear();
  seq_ = PutPackets(io_.out(), payload, 0);
  return io_.Send();
}

DbError MyNativeConnection::Execute(std::string_view sql, DbExecResult& result, DbRows* rows) {
  result = {};
  if (!connected()) return Lost();
  std::string payload;
  payload.reserve(sql.size() + 1);
  payload += '\x03';  // COM_QUERY
  payload += sql;
  if (!SendCommand(payload)) return LostNow();
  return ReadQueryReply(result, rows);
}

DbError MyNativeConnection::ReadQueryReply(DbExecResult& result, DbRows* rows) {
  DbError refused;  // a file the server asked for that is not ours
  DbReplyBudget budget(settings_->limits);
  for (uint64_t results = 0;; ++results) {
    if (results == kDbMaxResultsPerReply) return RefusedNow(TooManyResultsText());
    std::string_view p;
    if (!io_.Next(p)) return LostNow();
    ++seq_;
    if (p.empty()) return MalformedNow();
    const auto head = static_cast<unsigned char>(p[0]);
    if (head == 0xFF) return MyServerErrorOf(p, *settings_);
    uint16_t status = 0;
    if (head == 0x00) {
      uint64_t affected = 0;
      if (!MyParseOk(p, affected, status, warnings_)) return MalformedNow();
      result.rows_affected += affected;
    } else if (head == 0xFB) {  // LOAD DATA LOCAL: the server asks for the file
      if (!ServeLocalFile(refused)) return LostNow();
      continue;  // its OK or ERR follows
    } else if (DbError e = ReadTextResultSet(p, result, rows, budget, status); !e.ok()) {
      return e;
    }
    if ((status & kMyServerMoreResultsExist) == 0) return refused;
  }
}

DbError MyNativeConnection::ReadTextResultSet(std::string_view head, DbExecResult& result,
                                              DbRows* rows, DbReplyBudget& budget,
                                              uint16_t& status) {
  size_t i = 0;
  uint64_t n = 0;
  if (!MyLenEnc(head, i, n)) return MalformedNow();
  if (n > kMyMaxColumns) return RefusedNow(TooManyColumnsText(n));
  const bool names = rows != nullptr && rows->columns.empty();
  std::string_view p;
  for (uint64_t c = 0; c <= n; ++c) {  // the columns, then an EOF
    if (!io_.Next(p)) return LostNow();
    MyColumn col;
    if (c < n && names) {
      if (!MyParseColumn(p, col)) return MalformedNow();
      rows->columns.push_back(std::move(col.name));
    }
  }
  if (p.empty() || static_cast<unsigned char>(p[0]) != 0xFE) return MalformedNow();
  for (;;) {
    if (!io_.Next(p)) return LostNow();
    if (p.empty()) return MalformedNow();
    if (MyRowsEnd(p, status)) return {};
    const auto r = static_cast<unsigned char>(p[0]);
    if (r == 0xFF) return MyServerErrorOf(p, *settings_);
    ++result.rows_returned;
    if (rows == nullptr) continue;
    if (!budget.Take(p.size())) return RefusedNow(budget.Text());
    DbRows::Row& out = rows->AddRow(n);
    size_t k = 0;
    for (uint64_t c = 0; c < n; ++c) {
      if (k < p.size() && static_cast<unsigned char>(p[k]) == 0xFB) {
        out[c].reset();
        ++k;
        continue;
      }
      uint64_t len = 0;
      if (!MyLenEnc(p, k, len) || len > p.size() - k) return MalformedNow();
      DbRows::SetValue(out[c], p.data() + k, len);
      k += len;
    }
  }
}

// Sends the rows being loaded as the file the server asked for, or, when
// none are (the server asked for a file of its own choosing), an empty one
// and `refused` says so. False when the connection failed.
bool MyNativeConnection::ServeLocalFile(DbError& refused) {
  std::string& o = io_.out();
  o.clear();
  uint8_t seq = seq_;
  if (infile_ == nullptr) {
    refused = {DbErrorClass::kFatal, 2000, "",
               "mysql: the server asked for a local file: loadcell sends no local files except "
               "its own generated rows"};
  } else {
    constexpr size_t kChunk = size_t{1} << 20;
    for (size_t at = 0; at < infile_->size(); at += kChunk) {
      const size_t n = std::min(kChunk, infile_->size() - at);
      const size_t h = o.size();
      o.append(4, '\0');
      MyPutPacketHeader(o.data() + h, n, seq++);
      o.append(*infile_, at, n);
    }
  }
  const size_t h = o.size();
  o.append(4, '\0');
  MyPutPacketHeader(o.data() + h, 0, seq++);  // the end of the file
  seq_ = seq;
  return io_.Send(/*more_of_request=*/true);  // the statement's limit goes on
}

DbError MyNativeConnection::LoadFromMemory(const std::string& sql, const std::string& data,
                                           DbExecResult& result, unsigned& warnings) {
  infile_ = &data;
  warnings_ = 0;
  DbError e = Execute(sql, result, nullptr);
  infile_ = nullptr;
  warnings = e.ok() ? warnings_ : 0;
  return e;
}

DbError MyNativeConnection::Simple(std::string_view sql) {
  if (!connected()) return Lost();
  MyBuildQuery(io_.out(), sql);  // BEGIN, COMMIT, ROLLBACK: far below 16 MB
  if (!io_.Send()) return LostNow();
  MyCommandReply reply;
  MyReadOkReply(io_, reply);
  return Outcome(reply);
}

DbError MyNativeConnection::Outcome(const MyCommandReply& reply) {
  switch (reply.status) {
    case MyReplyStatus::kOk:
      return {};
    case MyReplyStatus::kLost:
      return LostNow();
    case MyReplyStatus::kServerError:
      return MyServerErrorOf(reply.error, *settings_);
    case MyReplyStatus::kMalformed:
      break;
  }
  return MalformedNow();
}

// A request that failed half-way leaves bytes of its reply unread: the
// connection is closed, so that no later request reads them as its own.
DbError MyNativeConnection::LostNow() {
  DbError e = MyLostError(io_, *settings_, where_);
  Close();
  return e;
}

DbError MyNativeConnection::RefusedNow(std::string why) {
  io_.Refuse(std::move(why));
  return LostNow();
}

DbError MyNativeConnection::MalformedNow() {
  Close();
  return MyMalformedError();
}

DbError MyNativeConnection::Reconnect() {
  Status s = Open();
  if (!s.ok()) return {DbErrorClass::kReconnect, kServerGone, "08S01", s.message()};
  return {};
}

std::string MyNativeConnection::ServerVersion() {
  if (!connected()) return "MySQL (unknown)";
  std::string v = EscapeControlBytes(hello_.server_version);
  // MariaDB 10 and later put "5.5.5-" first for clients of MySQL 5.
  if (v.rfind("5.5.5-", 0) == 0 && v.find("MariaDB") != std::string::npos) v.erase(0, 6);
  return v.find("MariaDB") != std::string::npos ? "MariaDB " + v : "MySQL " + v;
}

void MyNativeConnection::AppendQuoted(std::string& out, std::string_view s) {
  out += '\'';
  const bool no_backslash = (hello_.status & kMyServerNoBackslashEscapes) != 0;
  for (char c : s) {
    if (no_backslash) {
      out += c;
      if (c == '\'') out += '\'';
      continue;
    }
    switch (c) {
      case '\0':
        out += "\\0";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\x1a':
        out += "\\Z";
        break;
      default:
        out += c;
    }
  }
  out += '\'';
}

void MyNativeConnection::CloseStatement(uint32_t id, uint64_t generation) {
  if (!connected() || generation != generation_) return;
  std::string payload = "\x19";  // COM_STMT_CLOSE: no reply
  MyPutInt(payload, id, 4);
  if (!SendCommand(payload)) Close();
}

void MyNativeConnection::Close() {
  if (socket_ == kNoSocket) return;
  io_.out().clear();
  PutPackets(io_.out(), "\x01", 0);  // COM_QUIT, best effort
  (void)io_.Send();
  TcpClose(socket_);
  socket_ = kNoSocket;
}

}  // namespace loadcell::mysql_internal
