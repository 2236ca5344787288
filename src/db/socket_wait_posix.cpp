#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

#include "db/socket_wait.h"

namespace loadcell {
namespace {

static_assert(kSocketReadable == POLLIN && kSocketWritable == POLLOUT);

timeval ToTimeval(int ms) {
  timeval tv{};
  tv.tv_sec = ms / 1000;
  tv.tv_usec = static_cast<suseconds_t>(ms % 1000) * 1000;
  return tv;
}

}  // namespace

bool SetSocketTimeouts(SocketHandle socket, int read_ms, int write_ms) {
  const int fd = static_cast<int>(socket);
  const timeval rd = ToTimeval(read_ms);
  const timeval wr = ToTimeval(write_ms);
  return ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rd, sizeof(rd)) == 0 &&
         ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wr, sizeof(wr)) == 0;
}

SocketWait WaitForSocket(SocketHandle socket, short events, int timeout_ms) {
  const int fd = static_cast<int>(socket);
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK) == 0) return SocketWait::kTimedOut;
  pollfd p{fd, events, 0};
  for (;;) {
    const int n = ::poll(&p, 1, timeout_ms > 0 ? timeout_ms : -1);
    if (n > 0) return SocketWait::kReady;
    if (n == 0) return SocketWait::kTimedOut;
    if (errno != EINTR) return SocketWait::kFailed;
  }
}

}  // namespace loadcell
