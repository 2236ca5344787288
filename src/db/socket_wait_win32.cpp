#include "db/socket_wait.h"

namespace loadcell {

bool SetSocketTimeouts(SocketHandle fd, int read_ms, int write_ms) {
  return TcpSetTimeouts(fd, read_ms, write_ms).ok();
}

// The Windows build's sockets all block (its clients open them through
// os/tcp.h; there is no libpq): a send or receive that would block has
// reached SetSocketTimeouts' limit.
SocketWait WaitForSocket(SocketHandle, short, int) { return SocketWait::kTimedOut; }

}  // namespace loadcell
