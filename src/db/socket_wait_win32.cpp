#include "db/socket_wait.h"

namespace loadcell {

// The Windows build's sockets all block (its clients open them through
// os/tcp.h; there is no libpq): a send or receive that would block has
// reached TcpSetTimeouts' limit.
SocketWait WaitForSocket(SocketHandle, short, int) { return SocketWait::kTimedOut; }

}  // namespace loadcell
