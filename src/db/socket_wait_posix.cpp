#include <fcntl.h>
#include <poll.h>

#include <cerrno>

#include "db/socket_wait.h"

namespace loadcell {

static_assert(kSocketReadable == POLLIN && kSocketWritable == POLLOUT);

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
