#pragma once
// The native connection's start (--db-connector=native; the only one of the
// Windows build): TCP through os/tcp.h, the startup message, authentication
// (trust, cleartext password, md5, SCRAM-SHA-256 without channel binding;
// pg_auth.h), then the server's ParameterStatus and BackendKeyData messages
// up to the first ReadyForQuery. No TLS: the driver refuses the sslmodes
// that require it before connecting. The statements that follow go through
// PgWire (pg_wire.h) on the same socket.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "os/tcp.h"

namespace loadcell {

struct PgStartupParams {
  std::string host;
  uint16_t port = 5432;
  std::string user;
  std::string password;  // empty: none (a server that asks for one refuses)
  std::string db;
  // The whole start: TCP connect, authentication and the server's messages
  // up to ReadyForQuery (bytes that trickle in do not extend it).
  int timeout_ms = 10000;
  // SCRAM-SHA-256: a server that asks for more PBKDF2 iterations is refused.
  uint32_t max_scram_iterations = 100'000;
};

// An open, authenticated connection.
struct PgSession {
  SocketHandle socket = kNoSocket;
  // ParameterStatus names and values, control bytes escaped (EscapeControlBytes).
  std::vector<std::pair<std::string, std::string>> parameters;
  // BackendKeyData: what a CancelRequest names.
  int32_t backend_pid = 0;
  int32_t cancel_key = 0;
  // A ParameterStatus value ("server_version"), empty when the server sent none.
  std::string Parameter(std::string_view name) const;
};

// The startup message (protocol 3.0) for `p`.
std::string PgStartupMessage(const PgStartupParams& p);

// Connects and authenticates. Failures are kUnavailable with one line: the
// server's own message for an ErrorResponse (with its SQLSTATE), the socket
// error, or the authentication method this client lacks. The password is
// never in a message. The socket is blocking, with no time limits set.
Result<PgSession> PgConnectNative(const PgStartupParams& p);

}  // namespace loadcell
