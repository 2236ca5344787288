// The TCP seam on Winsock 2 (ws2_32.dll).

#include <winsock2.h>
#include <ws2tcpip.h>
// winsock2.h before windows.h (which win32_util.h includes): the other
// order declares Winsock 1.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>

#include "os/tcp.h"
#include "os/tcp_common.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

// The one place where a Winsock error becomes a Status: as Win32Error codes
// it (err() the matching errno, so callers test ETIMEDOUT as on POSIX), the
// code kUnavailable (the peer is not reachable); WSAEWOULDBLOCK from a
// blocking socket is the time limit of TcpSetTimeouts, ETIMEDOUT.
Status SocketError(std::string_view context, int wsa_error) {
  if (wsa_error == WSAEWOULDBLOCK) wsa_error = WSAETIMEDOUT;
  const Status s = Win32Error(context, static_cast<DWORD>(wsa_error));
  return Status::Unavailable(s.message(), s.err());
}

// WSAStartup once per process (never undone: sockets may be used until exit).
Status WinsockReady() {
  static const Status ready = [] {
    WSADATA data;
    const int r = WSAStartup(MAKEWORD(2, 2), &data);
    return r == 0 ? Status::Ok() : SocketError("WSAStartup", r);
  }();
  return ready;
}

SOCKET Native(SocketHandle s) { return static_cast<SOCKET>(s); }

// 0, or the Winsock error of ioctlsocket(FIONBIO).
int SetBlocking(SOCKET s, bool blocking) {
  u_long non_blocking = blocking ? 0 : 1;
  return ioctlsocket(s, FIONBIO, &non_blocking) == 0 ? 0 : WSAGetLastError();
}

// Connects `s` to `addr` before `deadline` (none when `timed` is false): 0,
// or the Winsock error that says why not. select() rather than WSAPoll,
// which older Windows does not wake for a refused connect.
int ConnectOne(SOCKET s, const ADDRINFOW& addr, bool timed,
               std::chrono::steady_clock::time_point deadline) {
  if (const int e = SetBlocking(s, false); e != 0) return e;
  if (connect(s, addr.ai_addr, static_cast<int>(addr.ai_addrlen)) == 0) return 0;
  if (const int e = WSAGetLastError(); e != WSAEWOULDBLOCK) return e;
  fd_set writable;
  fd_set failed;
  FD_ZERO(&writable);
  FD_ZERO(&failed);
  FD_SET(s, &writable);
  FD_SET(s, &failed);
  const int wait_ms = timed ? RemainingMs(deadline) : 0;
  timeval limit{wait_ms / 1000, (wait_ms % 1000) * 1000};
  const int r = select(0, nullptr, &writable, &failed, timed ? &limit : nullptr);
  if (r == SOCKET_ERROR) return WSAGetLastError();
  if (r == 0) return WSAETIMEDOUT;
  if (FD_ISSET(s, &failed)) {
    int err = 0;
    int len = sizeof(err);
    if (getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&err), &len) != 0) {
      return WSAGetLastError();
    }
    return err != 0 ? err : WSAECONNREFUSED;
  }
  return 0;
}

// The socket connected to the first of `list` that accepts within the time
// left, or the Winsock error of the last that did not.
int ConnectFirst(const ADDRINFOW* list, int timeout_ms, SOCKET& out) {
  const bool timed = timeout_ms > 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  int last_err = WSAHOST_NOT_FOUND;
  for (const ADDRINFOW* a = list; a != nullptr; a = a->ai_next) {
    // Not inherited by child processes (WSA_FLAG_NO_HANDLE_INHERIT).
    const SOCKET s = WSASocketW(a->ai_family, a->ai_socktype, a->ai_protocol, nullptr, 0,
                                WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    if (s == INVALID_SOCKET) {
      last_err = WSAGetLastError();
      continue;
    }
    last_err = ConnectOne(s, *a, timed, deadline);
    const BOOL one = TRUE;
    if (last_err == 0) last_err = SetBlocking(s, true);
    if (last_err == 0 && setsockopt(s, IPPROTO_TCP, TCP_NODELAY,
                                    reinterpret_cast<const char*>(&one), sizeof(one)) != 0) {
      last_err = WSAGetLastError();
    }
    if (last_err == 0) {
      out = s;
      return 0;
    }
    closesocket(s);
    if (last_err == WSAETIMEDOUT) break;  // the time given is spent
  }
  return last_err;
}

}  // namespace

Result<SocketHandle> TcpConnect(const TcpEndpoint& to, int timeout_ms) {
  if (Status s = WinsockReady(); !s.ok()) return s;
  const std::string where = TcpEndpointText(to);
  ADDRINFOW hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_protocol = IPPROTO_TCP;
  ADDRINFOW* list = nullptr;
  const std::wstring host = Widen(to.host);
  const std::wstring port = std::to_wstring(to.port);
  if (const int r = GetAddrInfoW(host.c_str(), port.c_str(), &hints, &list); r != 0) {
    return SocketError(fmt::format("cannot resolve {}", where), r);
  }
  SOCKET s = INVALID_SOCKET;
  const int err = ConnectFirst(list, timeout_ms, s);
  FreeAddrInfoW(list);
  if (err != 0) return SocketError(ConnectFailureText(where, timeout_ms, err == WSAETIMEDOUT), err);
  return static_cast<SocketHandle>(s);
}

void TcpClose(SocketHandle s) {
  if (s != kNoSocket) closesocket(Native(s));
}

Status TcpSetTimeouts(SocketHandle s, int read_ms, int write_ms) {
  const DWORD r = static_cast<DWORD>(std::max(read_ms, 0));
  const DWORD w = static_cast<DWORD>(std::max(write_ms, 0));
  if (setsockopt(Native(s), SOL_SOCKET, SO_RCVTIMEO, reinterpret_cast<const char*>(&r),
                 sizeof(r)) != 0) {
    return SocketError("setsockopt(SO_RCVTIMEO)", WSAGetLastError());
  }
  if (setsockopt(Native(s), SOL_SOCKET, SO_SNDTIMEO, reinterpret_cast<const char*>(&w),
                 sizeof(w)) != 0) {
    return SocketError("setsockopt(SO_SNDTIMEO)", WSAGetLastError());
  }
  return Status::Ok();
}

Result<size_t> TcpSend(SocketHandle s, const char* data, size_t size) {
  const int n = static_cast<int>(std::min<size_t>(size, INT_MAX));
  for (;;) {
    const int sent = send(Native(s), data, n, 0);
    if (sent != SOCKET_ERROR) return static_cast<size_t>(sent);
    if (const int e = WSAGetLastError(); e != WSAEINTR) return SocketError("send", e);
  }
}

Result<size_t> TcpRecv(SocketHandle s, char* data, size_t size) {
  const int n = static_cast<int>(std::min<size_t>(size, INT_MAX));
  for (;;) {
    const int got = recv(Native(s), data, n, 0);
    if (got != SOCKET_ERROR) return static_cast<size_t>(got);
    if (const int e = WSAGetLastError(); e != WSAEINTR) return SocketError("recv", e);
  }
}

}  // namespace loadcell
