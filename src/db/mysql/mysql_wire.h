#pragma once
// The parts of the mysql driver's own path (statements of a run sent as our
// own COM_STMT_EXECUTE / COM_QUERY on the socket libmariadb or our own
// connector opened, and their replies read back) that tests reach without a
// server, and the hooks by which tests against a server see which path a
// connection took: the protocol's integers, the requests as bytes, the
// replies as counts or an error, the socket I/O. No client library header:
// the protocol's constants are below.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "db/db_driver.h"
#include "db/reply_deadline.h"
#include "os/tcp.h"

namespace loadcell {

// The protocol's column and parameter types (MYSQL_TYPE_* of the client
// libraries), those loadcell binds and reads.
inline constexpr uint8_t kMyTypeDecimal = 0;
inline constexpr uint8_t kMyTypeTiny = 1;
inline constexpr uint8_t kMyTypeShort = 2;
inline constexpr uint8_t kMyTypeLong = 3;
inline constexpr uint8_t kMyTypeFloat = 4;
inline constexpr uint8_t kMyTypeDouble = 5;
inline constexpr uint8_t kMyTypeNull = 6;
inline constexpr uint8_t kMyTypeTimestamp = 7;
inline constexpr uint8_t kMyTypeLongLong = 8;
inline constexpr uint8_t kMyTypeInt24 = 9;
inline constexpr uint8_t kMyTypeDate = 10;
inline constexpr uint8_t kMyTypeTime = 11;
inline constexpr uint8_t kMyTypeDateTime = 12;
inline constexpr uint8_t kMyTypeYear = 13;
inline constexpr uint8_t kMyTypeString = 254;

// Capability flags (CLIENT_*) and server status flags (SERVER_*).
inline constexpr uint64_t kMyClientLongPassword = 1;
inline constexpr uint64_t kMyClientLongFlag = 1ULL << 2;
inline constexpr uint64_t kMyClientConnectWithDb = 1ULL << 3;
inline constexpr uint64_t kMyClientCompress = 1ULL << 5;
inline constexpr uint64_t kMyClientLocalFiles = 1ULL << 7;
inline constexpr uint64_t kMyClientProtocol41 = 1ULL << 9;
inline constexpr uint64_t kMyClientSsl = 1ULL << 11;
inline constexpr uint64_t kMyClientTransactions = 1ULL << 13;
inline constexpr uint64_t kMyClientSecureConnection = 1ULL << 15;
inline constexpr uint64_t kMyClientMultiResults = 1ULL << 17;
inline constexpr uint64_t kMyClientPsMultiResults = 1ULL << 18;
inline constexpr uint64_t kMyClientPluginAuth = 1ULL << 19;
inline constexpr uint64_t kMyClientPluginAuthLenencData = 1ULL << 21;
inline constexpr uint64_t kMyClientDeprecateEof = 1ULL << 24;
inline constexpr uint64_t kMyClientZstdCompression = 1ULL << 26;
inline constexpr uint16_t kMyServerMoreResultsExist = 8;
// The most columns a result set has (MySQL's and MariaDB's limit of a
// table's); a larger count is a malformed reply.
inline constexpr uint64_t kMyMaxColumns = 4096;

// Appends the low `bytes` bytes of `v`, least significant first (the
// protocol's fixed-length integers).
inline void MyPutInt(std::string& o, uint64_t v, int bytes) {
  char b[8] = {};  // one append, not one per byte (this runs for every statement executed)
  for (int k = 0; k < bytes && k < 8; ++k) b[k] = static_cast<char>((v >> (8 * k)) & 0xFF);
  o.append(b, static_cast<size_t>(bytes < 8 ? bytes : 8));
}

// Appends `v` as a length-encoded integer: one byte below 0xFB, else 0xFC,
// 0xFD or 0xFE and then 2, 3 or 8 bytes.
inline void MyPutLenEnc(std::string& o, uint64_t v) {
  if (v < 0xFB) {
    o += static_cast<char>(v);
  } else if (v <= 0xFFFF) {
    o += '\xFC';
    MyPutInt(o, v, 2);
  } else if (v <= 0xFFFFFF) {
    o += '\xFD';
    MyPutInt(o, v, 3);
  } else {
    o += '\xFE';
    MyPutInt(o, v, 8);
  }
}

// Reads the length-encoded integer at p[i] into `v` and advances `i` past
// it. False (i and v then undefined) when `p` ends inside it, or when its
// first byte is 0xFB (a NULL) or 0xFF (not an integer).
inline bool MyLenEnc(std::string_view p, size_t& i, uint64_t& v) {
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

// The 2-byte integer at p[i], least significant first. REQUIRES i + 2 <= p.size().
inline uint16_t MyU16(std::string_view p, size_t i) {
  return static_cast<uint16_t>(static_cast<unsigned char>(p[i]) |
                               static_cast<unsigned char>(p[i + 1]) << 8);
}

// Writes the 4-byte header of a packet whose payload has `payload_len`
// bytes (below 0xFFFFFF: a longer payload is split into several packets) at
// `header`: the length as 3 bytes, least significant first, then the
// sequence id.
inline void MyPutPacketHeader(char* header, size_t payload_len, uint8_t seq) {
  header[0] = static_cast<char>(payload_len & 0xFF);
  header[1] = static_cast<char>((payload_len >> 8) & 0xFF);
  header[2] = static_cast<char>((payload_len >> 16) & 0xFF);
  header[3] = static_cast<char>(seq);
}

// A parameter's value as a prepared statement keeps it: the field that its
// type (kMyTypeLongLong, kMyTypeDouble, kMyTypeString) reads; `length` is the
// string's.
struct MyParamValue {
  int64_t i = 0;
  double d = 0;
  std::string s;
  unsigned long length = 0;
};

// Makes `o` the COM_STMT_EXECUTE request of statement `stmt_id`, header
// included (sequence id 0), with no cursor, one iteration, and parameter k
// of type types[k] (kMyTypeNull: NULL) and value values[k]; the types are
// sent each time. False, `o` then undefined, when the payload would not fit
// one packet (0xFFFFFF bytes or more).
// REQUIRES types.size() == values.size().
bool MyBuildStmtExecute(std::string& o, uint32_t stmt_id, std::span<const uint8_t> types,
                        std::span<const MyParamValue> values);

// Makes `o` the COM_QUERY request of `sql`, header included (sequence id 0).
// REQUIRES sql.size() < 0xFFFFFF - 1 (one packet).
void MyBuildQuery(std::string& o, std::string_view sql);

// An ERR packet's fields; the views point into the packet.
struct MyServerError {
  int code = 0;
  std::string_view sqlstate;  // empty when the packet has none (before 4.1)
  std::string_view message;
};

// Parses the ERR packet `p` (0xFF, code, then '#' and the SQLSTATE when the
// packet is long enough to hold them, then the message); false when it is
// too short to hold a code.
bool MyParseErrPacket(std::string_view p, MyServerError& out);

// Statements without rows to keep go over the connection's socket through
// our own COM_STMT_EXECUTE: one send() and one recv() for a small reply,
// through os/tcp.h. The socket is blocking (libmariadb's is made so; the
// native connector's is from TcpConnect), a reply must be whole within the
// connection's --db-read-timeout from its request's send (a ReplyDeadline:
// bytes that trickle in do not extend it) and a request's send (LOAD DATA's
// file included) be whole within --db-write-timeout of its first send()'s
// return (set on the socket, TcpSetTimeouts, and the same ReplyDeadline: a
// server that reads a few bytes at a time does not extend it). A packet's
// sequence id must follow the request's, and a payload (chained packets
// together) stay within --db-max-reply-size; a payload's buffer grows as its
// bytes arrive, never by what its header claims. libmariadb still connects,
// prepares, closes and runs everything else on its connections; it reads
// with MSG_DONTWAIT, so the blocking socket changes nothing for it. Not
// thread-safe.
class MyRawIo {
 public:
  // A new connection (any connected blocking stream socket): forgets
  // buffered bytes; a reply must come within `read_ms` and a send go within
  // `write_ms` (set on the socket when either is not 0: no limit). False when
  // the socket refused them. The next packet read has sequence id 0.
  bool Reset(SocketHandle fd, int read_ms = 0, int write_ms = 0);
  // Until the next Reset, every read must end by `at` (the login: the
  // connect limit over all its exchanges), whatever Send does.
  void SetDeadline(ReplyDeadline::Clock::time_point at);
  // The largest payload taken (--db-max-reply-size); a larger one fails Next.
  void set_max_payload(uint64_t bytes) { max_payload_ = bytes; }
  // "read" or "write" when the last Send or Next failed at a time limit;
  // nullptr otherwise.
  const char* timed_out() const { return timed_out_; }
  // Why the last Next failed when the server broke a rule, as what the
  // server sent ("a packet out of order (...)", ReplyLimitText's words);
  // empty otherwise.
  const std::string& refused() const { return refused_; }
  // Notes that the reply broke a rule (`why`: what the server sent, as
  // refused() gives it); false, for the reader that then stops.
  bool Refuse(std::string why);
  // The request to send: whole packets, headers included.
  std::string& out() { return out_; }
  // Sends out() and starts the reply's time limit (unless `more_of_request`:
  // the rest of a request whose limit runs, LOAD DATA's file); the reply's
  // next packet must have the sequence id after out()'s last. False when
  // the connection ended.
  bool Send(bool more_of_request = false);
  // The next packet's payload, valid until the next call; false when the
  // connection ended, the time limit passed or the server broke a rule.
  bool Next(std::string_view& payload);

 private:
  static size_t Len(const std::string& b, size_t at);
  bool Fill(size_t n);
  // Checks and counts the sequence id of the header at pos_.
  bool TakeSequence();
  // Notes in timed_out_ whether `failed` is the time limit of `which`.
  void NoteFailure(const Status& failed, const char* which);
  const char* timed_out_ = nullptr;
  std::string refused_;
  SocketHandle fd_ = kNoSocket;
  int read_ms_ = 0;
  bool fixed_deadline_ = false;
  ReplyDeadline deadline_;
  uint8_t next_seq_ = 0;
  uint64_t max_payload_ = DbReplyLimits{}.max_bytes;
  std::string buf_ = std::string(size_t{64} * 1024, '\0');
  size_t pos_ = 0;
  size_t end_ = 0;
  std::string big_;
  std::string out_;
};

// How a command's reply ended.
enum class MyReplyStatus {
  kOk,           // the command succeeded
  kLost,         // the connection ended before the reply did
  kMalformed,    // a packet made no sense
  kServerError,  // an ERR packet: `error` holds it
};

// What the server answered to one command. Counts are of what was read up
// to the end or the failure.
struct MyCommandReply {
  MyReplyStatus status = MyReplyStatus::kOk;
  uint64_t rows_affected = 0;  // summed over the OK packets of every result
  uint64_t rows_returned = 0;  // the binary rows of every result set
  std::string_view error;      // kServerError: the packet, valid until `io` reads again
};

// Reads the reply to COM_STMT_EXECUTE from `io` into `reply`, which the
// caller passes as constructed: an OK, an ERR, or a result set (column count, the
// columns unless the server leaves out metadata it sent before, EOF, binary
// rows, EOF), and another while the server's status says more results
// follow (SERVER_MORE_RESULTS_EXIST).
void MyReadExecuteReply(MyRawIo& io, MyCommandReply& reply);

// What MyRawIo::refused() says of a reply with more than
// kDbMaxResultsPerReply results.
std::string TooManyResultsText();
// What it says of a result set of `columns`, more than kMyMaxColumns.
std::string TooManyColumnsText(uint64_t columns);
// Reads the reply to a command that returns no rows (BEGIN, COMMIT,
// ROLLBACK as COM_QUERY) from `io` into `reply`, which the caller passes as
// constructed: an OK packet, whose fields are not read (rows_affected stays
// 0), or an ERR; any other packet is kMalformed.
void MyReadOkReply(MyRawIo& io, MyCommandReply& reply);

// Why the own path cannot run the statements of a connection whose handshake
// left `client_flags` (what the client asked for, as libmariadb keeps them)
// and `server_capabilities` (what the server offered); nullptr when it can.
// A flag is in effect only when both sides have it. The own path reads the
// plain socket and parses the 4.1 protocol with EOF packets, so it needs:
//   - no TLS (`tls`: the session encrypts the socket),
//   - no compression (zlib or zstd: packets are wrapped),
//   - CLIENT_PROTOCOL_41 (OK/EOF packets carry status flags, ERR a SQLSTATE),
//   - no CLIENT_DEPRECATE_EOF (an EOF packet ends column definitions and rows).
const char* MyOwnPathObstacle(uint64_t client_flags, uint64_t server_capabilities, bool tls);

// Tests: why `conn`, a connection of the mysql driver, runs every statement
// through libmariadb; "" when its own path runs those it can.
std::string MysqlOwnPathObstacle(const DbConnection& conn);

// Tests: flags added to what every later mysql connection negotiated, as the
// own path's check sees them (the session itself is unchanged), so that a
// test can make the check fail on a real connection. 0 turns it off.
void MysqlAddNegotiatedFlagsForTesting(uint64_t flags);

}  // namespace loadcell
