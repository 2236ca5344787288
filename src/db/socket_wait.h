#pragma once
// Waiting on a database connection's socket, shared by loadcell's own
// protocol clients (pg_wire, mysql_wire). Driver-private. POSIX in
// socket_wait_posix.cpp, Windows in socket_wait_win32.cpp.

#include "os/tcp.h"

namespace loadcell {

// The events WaitForSocket waits for (POSIX's POLLIN and POLLOUT).
inline constexpr short kSocketReadable = 0x001;
inline constexpr short kSocketWritable = 0x004;

enum class SocketWait { kReady, kTimedOut, kFailed };

// After recv() or send() on `fd` failed with EAGAIN: on a blocking socket
// that is TcpSetTimeouts' limit (os/tcp.h), which has passed (kTimedOut at once); on
// a non-blocking one, waits with poll() for `events` up to `timeout_ms`
// (0: no limit), through EINTR. kFailed when poll() fails. (Every socket
// of the Windows build blocks: there it is always kTimedOut.)
SocketWait WaitForSocket(SocketHandle fd, short events, int timeout_ms);

}  // namespace loadcell
