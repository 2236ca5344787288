#pragma once
// A lean client of PostgreSQL's frontend/backend protocol (version 3) for the
// statements of a run and COPY, used by the pgsql driver on a connection that
// libpq or the native start (pg_startup.h) opened and authenticated. Per
// statement it makes one send() and, on a blocking socket, one recv() for a
// small reply; libpq needs a poll() more and allocates a result object per
// statement.
//
// Use:
//   PgWire wire(socket);
//   wire.Bind("lc1", n, values, lengths); wire.Execute(); wire.Sync();
//   wire.Exchange(1, reply, nullptr);   // sends, reads up to ReadyForQuery
//
// Requests are appended to one buffer and sent together by Exchange, which
// reads until the given number of ReadyForQuery messages arrived. The socket
// may be blocking (fastest) or not (Exchange then waits with poll(); POSIX
// only: libpq's sockets). Sends and receives go through os/tcp.h. The input
// buffer grows as bytes arrive, never to what a message's header claims.
// Asynchronous messages (notices, parameter status, notifications) are
// skipped. Not thread-safe: one connection, one thread.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_driver.h"
#include "db/reply_deadline.h"
#include "os/tcp.h"

namespace loadcell {

// Appends the low `bytes` bytes of `v`, most significant first: the integers
// of PostgreSQL's protocol and of binary COPY (a negative value, converted,
// gives its two's complement).
inline void PgPutBigEndian(std::string& out, uint64_t v, int bytes) {
  for (int k = bytes - 1; k >= 0; --k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

// What the server answered to the requests of one Exchange.
struct PgReply {
  uint64_t rows_returned = 0;  // DataRows of the last result
  uint64_t rows_affected = 0;  // count of the last command tag, when it has no rows
  bool error = false;          // an ErrorResponse arrived (the first is kept)
  std::string sqlstate;        // of that error
  std::string message;         // its primary message
  bool broken = false;         // the connection failed, or the reply made no sense
  std::string io_error;        // why, when broken
  // The reply passed a bound (--db-max-reply-size, --db-max-reply-rows, the
  // results of one request): broken, and io_error is what the server sent
  // ("a reply of more than ...").
  bool refused = false;
  // The time limit that broke it, when one did: "read" or "write".
  const char* timed_out = nullptr;
  bool copy_refused = false;  // the server started a COPY: refused with CopyFail
  bool copy_in = false;       // StartCopyIn: the server waits for CopyData
  char txn_status = 'I';      // of the last ReadyForQuery: I (idle), T, E (failed)
  void Clear();
};

class PgWire {
 public:
  explicit PgWire(SocketHandle fd = kNoSocket) : fd_(fd) {}
  // A new connection: forgets buffered bytes.
  void Reset(SocketHandle fd);
  SocketHandle fd() const { return fd_; }
  // Time limits of a reply and of a send, in ms (0: none); on a blocking
  // socket they are set on it (SO_RCVTIMEO, SO_SNDTIMEO). The read limit
  // bounds each Exchange's whole reply from its start (a ReplyDeadline:
  // bytes that trickle in, or notices without end, do not extend it); the
  // write limit bounds each request's whole send (a CopyData message is one)
  // from its first send()'s return, the same way. Kept by Reset; call after
  // it. False when the socket refused them.
  bool SetTimeouts(int read_ms, int write_ms);
  // The bounds of one reply (DbReplyLimits): the longest message, and the
  // rows and bytes kept in Exchange's `rows`. Kept by Reset.
  void set_limits(const DbReplyLimits& limits) { limits_ = limits; }

  // Request messages, appended to the send buffer.
  void Parse(std::string_view name, std::string_view sql);  // no parameter types
  // Text parameters; values[i] == nullptr is NULL. Results in text.
  void Bind(std::string_view statement, int n, const char* const* values, const int* lengths);
  void DescribePortal();
  void Execute();
  void Sync();
  void Query(std::string_view sql);  // simple query (text up to the first NUL)

  // COPY ... FROM STDIN (the bulk load): sends `sql` as a simple query and
  // reads up to the server's CopyInResponse (reply.copy_in), or up to
  // ReadyForQuery when the COPY did not start (reply.error and its reason).
  void StartCopyIn(std::string_view sql, PgReply& reply);
  // Sends one CopyData message of `data`; false with `reply` broken when
  // the connection failed. An error of the server's arrives after CopyEnd.
  bool CopyData(const char* data, size_t size, PgReply& reply);
  // Appends CopyDone, or CopyFail with `error` when it is not null; then
  // Exchange(1, ...) reads the COPY's outcome.
  void CopyEnd(const char* error);
  // Sends Terminate (the goodbye before closing; errors ignored).
  void Terminate();

  // Sends the buffered requests, then reads replies until `ready`
  // ReadyForQuery messages arrived (one per Sync or Query). Rows are kept in
  // `rows` when it is not null (columns set when empty), as libpq's last
  // result would keep them.
  void Exchange(int ready, PgReply& reply, DbRows* rows);

  // The bytes waiting to be sent (tests).
  const std::string& pending() const { return out_; }
  // The bytes the input buffer holds allocated (tests).
  size_t input_capacity() const { return in_.capacity(); }

 private:
  size_t Start(char type);
  void End(size_t at);
  bool SendAll(PgReply& reply);
  bool Fill(size_t need, PgReply& reply);
  // After EAGAIN: waits for `events`; false with `reply` broken (and
  // timed_out set at a time limit) when it cannot.
  bool Wait(short events, PgReply& reply);
  // Steps of Exchange.
  // The next message of the reply: its type and body (valid until the
  // input buffer is read again); false when the reply is broken.
  bool NextMessage(PgReply& reply, char& type, std::string_view& body);
  // Answers a CopyInResponse with CopyFail (and a Sync when the request was
  // extended-query); false when that could not be sent.
  bool RefuseCopy(bool extended, PgReply& reply);
  // Gives back an input buffer grown past kMaxKeptInput once it is empty.
  void ShrinkInput();
  static void Malformed(char type, PgReply& reply);

  // The reply broke a bound: `what` the server sent.
  static void Refuse(std::string what, PgReply& reply);

  SocketHandle fd_;
  int read_ms_ = 0;
  int write_ms_ = 0;
  ReplyDeadline deadline_;
  DbReplyLimits limits_;
  std::string out_;
  bool ends_extended_ = false;  // the last request appended ends with Sync
  bool accept_copy_ = false;    // StartCopyIn: a CopyInResponse ends the exchange
  std::vector<char> in_;
  size_t in_begin_ = 0;
  size_t in_end_ = 0;
};

// The row count of a command tag ("INSERT 0 3" -> 3, "UPDATE 2" -> 2), as
// libpq's PQcmdTuples reads it; 0 for tags without one ("BEGIN").
uint64_t PgTagCount(std::string_view tag);

}  // namespace loadcell
