// The TCP seam on POSIX sockets.

#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "os/tcp.h"
#include "os/tcp_common.h"

namespace loadcell {
namespace {

// The one place where a socket call's errno becomes a Status: the peer is
// not reachable (kUnavailable); EAGAIN from a blocking socket is the time
// limit of TcpSetTimeouts, so it reads as ETIMEDOUT.
Status SocketError(std::string_view context, int err) {
  if (err == EAGAIN || err == EWOULDBLOCK) err = ETIMEDOUT;
  return Status::Unavailable(std::string(context), err);
}

Status SetBlocking(int fd, bool blocking) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return SocketError("fcntl(F_GETFL)", errno);
  const int want = blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK;
  if (want != flags && fcntl(fd, F_SETFL, want) < 0) return SocketError("fcntl(F_SETFL)", errno);
  return Status::Ok();
}

// Connects `fd` to `addr` before `deadline` (none when `timed` is false):
// 0, or the errno that says why not.
int ConnectOne(int fd, const addrinfo& addr, bool timed,
               std::chrono::steady_clock::time_point deadline) {
  if (Status s = SetBlocking(fd, false); !s.ok()) return s.err();
  if (connect(fd, addr.ai_addr, addr.ai_addrlen) == 0) return 0;
  if (errno != EINPROGRESS && errno != EINTR) return errno;
  for (;;) {
    pollfd p{fd, POLLOUT, 0};
    const int wait_ms = timed ? RemainingMs(deadline) : -1;
    if (timed && wait_ms == 0) return ETIMEDOUT;
    const int r = poll(&p, 1, wait_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return errno;
    if (r == 0) return ETIMEDOUT;
    break;
  }
  int err = 0;
  socklen_t len = sizeof(err);
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) return errno;
  return err;
}

timeval TimevalOf(int ms) {
  timeval tv{};
  tv.tv_sec = ms / 1000;
  tv.tv_usec = static_cast<suseconds_t>(ms % 1000) * 1000;
  return tv;
}

}  // namespace

Result<SocketHandle> TcpConnect(const TcpEndpoint& to, int timeout_ms) {
  const std::string where = TcpEndpointText(to);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_protocol = IPPROTO_TCP;
  addrinfo* list = nullptr;
  const std::string port = std::to_string(to.port);
  if (const int r = getaddrinfo(to.host.c_str(), port.c_str(), &hints, &list); r != 0) {
    if (r == EAI_SYSTEM) return SocketError(fmt::format("cannot resolve {}", where), errno);
    return Status::Unavailable(fmt::format("cannot resolve {}: {}", where, gai_strerror(r)));
  }
  const bool timed = timeout_ms > 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  int last_err = ENOENT;
  for (const addrinfo* a = list; a != nullptr; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last_err = errno;
      continue;
    }
    last_err = ConnectOne(fd, *a, timed, deadline);
    const int one = 1;
    if (last_err == 0) last_err = SetBlocking(fd, true).err();
    if (last_err == 0 && setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
      last_err = errno;
    }
    if (last_err == 0) {
      freeaddrinfo(list);
      return SocketHandle{fd};
    }
    close(fd);
    if (last_err == ETIMEDOUT) break;  // the time given is spent
  }
  freeaddrinfo(list);
  return SocketError(ConnectFailureText(where, timeout_ms, last_err == ETIMEDOUT), last_err);
}

void TcpClose(SocketHandle s) {
  if (s != kNoSocket) close(static_cast<int>(s));
}

Status TcpSetTimeouts(SocketHandle s, int read_ms, int write_ms) {
  const int fd = static_cast<int>(s);
  const timeval r = TimevalOf(read_ms);
  const timeval w = TimevalOf(write_ms);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &r, sizeof(r)) < 0) {
    return SocketError("setsockopt(SO_RCVTIMEO)", errno);
  }
  if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &w, sizeof(w)) < 0) {
    return SocketError("setsockopt(SO_SNDTIMEO)", errno);
  }
  return Status::Ok();
}

Result<size_t> TcpSend(SocketHandle s, const char* data, size_t size) {
  for (;;) {
    const ssize_t n = send(static_cast<int>(s), data, size, MSG_NOSIGNAL);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return SocketError("send", errno);
  }
}

Result<size_t> TcpRecv(SocketHandle s, char* data, size_t size) {
  for (;;) {
    const ssize_t n = recv(static_cast<int>(s), data, size, 0);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return SocketError("recv", errno);
  }
}

}  // namespace loadcell
