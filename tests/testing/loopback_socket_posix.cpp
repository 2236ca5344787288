// The loopback server's listening seam on POSIX sockets.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "testing/loopback_server.h"

namespace loadcell::testing {

SocketHandle ListenOnLoopback(uint16_t* port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return kNoSocket;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(fd, 16) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(fd);
    return kNoSocket;
  }
  *port = ntohs(a.sin_port);
  return SocketHandle{fd};
}

SocketHandle AcceptWithin(SocketHandle listener, int timeout_ms) {
  pollfd p{static_cast<int>(listener), POLLIN, 0};
  const int ready = poll(&p, 1, timeout_ms);
  if (ready < 0) std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
  if (ready <= 0) return kNoSocket;
  const int fd = accept4(static_cast<int>(listener), nullptr, nullptr, SOCK_CLOEXEC);
  return fd < 0 ? kNoSocket : SocketHandle{fd};
}

void ShutdownSocket(SocketHandle s) { shutdown(static_cast<int>(s), SHUT_RDWR); }

}  // namespace loadcell::testing
