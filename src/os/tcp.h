#pragma once
// A TCP connection for loadcell's own database clients, behind one seam:
// POSIX sockets in tcp_posix.cpp, Winsock (WSAStartup once, WSAPoll) in
// tcp_win32.cpp. Errors become Status in one place (errno / WSAGetLastError).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

// The platform's socket handle as an integer (a SOCKET on Windows, an fd on
// POSIX); kNoSocket when there is none.
using SocketHandle = intptr_t;
inline constexpr SocketHandle kNoSocket = -1;

struct TcpEndpoint {
  std::string host;  // a name or an IPv4/IPv6 literal
  uint16_t port = 0;
};

// Resolves `to` (every address getaddrinfo gives, in order) and connects
// within `timeout_ms` (0: the system's limit), with TCP_NODELAY set. The
// socket is blocking. Errors name the host and port.
Result<SocketHandle> TcpConnect(const TcpEndpoint& to, int timeout_ms);
void TcpClose(SocketHandle s);

// Time limits of one blocking recv()/send() in ms (0: none).
Status TcpSetTimeouts(SocketHandle s, int read_ms, int write_ms);

// One send()/recv(): the bytes moved (recv: 0 at the peer's orderly close),
// or an error (a time limit that passed is kUnavailable with err() ETIMEDOUT).
// EINTR is retried.
Result<size_t> TcpSend(SocketHandle s, const char* data, size_t size);
Result<size_t> TcpRecv(SocketHandle s, char* data, size_t size);
// Sends all of `data`.
Status TcpSendAll(SocketHandle s, std::string_view data);

}  // namespace loadcell
