#pragma once
// The parts of the mysql driver's own path (statements of a run sent as our
// own COM_STMT_EXECUTE / COM_QUERY on the socket libmariadb opened, and
// their replies read back) that tests reach without a server, and the hooks
// by which tests against a server see which path a connection took.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "db/db_driver.h"

namespace loadcell {

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

// Statements without rows to keep go over libmariadb's socket through our
// own COM_STMT_EXECUTE: one send() and, on the socket made blocking, one
// recv() for a small reply (libmariadb reads with MSG_DONTWAIT: a recv that
// finds nothing, a poll(), then the recv). libmariadb still connects,
// prepares, closes and runs everything else; it reads with MSG_DONTWAIT, so
// the blocking socket changes nothing for it. A socket left non-blocking
// works too: a send or recv that would block waits with poll() and tries
// again (with no time limit: the driver sets no read or write timeout on
// its connections, so libmariadb would wait as long). Not thread-safe.
class MyRawIo {
 public:
  // A new connection (any connected stream socket): forgets buffered bytes.
  void Reset(int fd) {
    fd_ = fd;
    pos_ = end_ = 0;
  }
  // The request to send: whole packets, headers included.
  std::string& out() { return out_; }

  // Sends out(); false when the connection ended.
  bool Send();
  // The next packet's payload, valid until the next call; false when the
  // connection ended.
  bool Next(std::string_view& payload);

 private:
  size_t Len() const;
  bool Fill(size_t n);
  bool Wait(short events);

  int fd_ = -1;
  std::string buf_ = std::string(64 * 1024, '\0');
  size_t pos_ = 0;
  size_t end_ = 0;
  std::string big_;
  std::string out_;
};

// Capability flags of the client/server protocol that the connector's headers
// may not define (Connector/C 3.3 never asks for them).
inline constexpr uint64_t kMyClientDeprecateEof = 1ULL << 24;

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
