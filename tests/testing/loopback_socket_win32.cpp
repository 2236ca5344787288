// The loopback server's listening seam on Winsock 2.

#include <winsock2.h>
#include <ws2tcpip.h>

#include <chrono>
#include <thread>

#include "testing/loopback_server.h"

namespace loadcell::testing {
namespace {

// WSAStartup once per test process: the server may listen before the
// process made any connection of its own.
bool WinsockReady() {
  static const bool ready = [] {
    WSADATA data;
    return WSAStartup(MAKEWORD(2, 2), &data) == 0;
  }();
  return ready;
}

}  // namespace

SocketHandle ListenOnLoopback(uint16_t* port) {
  if (!WinsockReady()) return kNoSocket;
  const SOCKET s = WSASocketW(AF_INET, SOCK_STREAM, IPPROTO_TCP, nullptr, 0,
                              WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
  if (s == INVALID_SOCKET) return kNoSocket;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int len = sizeof(a);
  if (bind(s, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(s, 16) != 0 ||
      getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    closesocket(s);
    return kNoSocket;
  }
  *port = ntohs(a.sin_port);
  return static_cast<SocketHandle>(s);
}

SocketHandle AcceptWithin(SocketHandle listener, int timeout_ms) {
  const SOCKET l = static_cast<SOCKET>(listener);
  fd_set readable;
  FD_ZERO(&readable);
  FD_SET(l, &readable);
  timeval limit{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  const int ready = select(0, &readable, nullptr, nullptr, &limit);
  if (ready == SOCKET_ERROR) std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
  if (ready <= 0) return kNoSocket;
  const SOCKET s = accept(l, nullptr, nullptr);
  return s == INVALID_SOCKET ? kNoSocket : static_cast<SocketHandle>(s);
}

void ShutdownSocket(SocketHandle s) { shutdown(static_cast<SOCKET>(s), SD_BOTH); }

}  // namespace loadcell::testing
