#pragma once
// Time limits on a database connection's socket, shared by loadcell's own
// protocol clients (pg_wire, mysql_wire). Driver-private. POSIX in
// socket_wait.cpp, Windows in socket_wait_win32.cpp.

#include "os/tcp.h"

namespace loadcell {

// The events WaitForSocket waits for (POSIX's POLLIN and POLLOUT).
inline constexpr short kSocketReadable = 0x001;
inline constexpr short kSocketWritable = 0x004;

// Sets SO_RCVTIMEO and SO_SNDTIMEO of `fd` to `read_ms` and `write_ms`
// (0: no limit), so that a blocking recv() or send() returns EAGAIN once the
// limit passed. False when the socket refused them.
bool SetSocketTimeouts(SocketHandle fd, int read_ms, int write_ms);

enum class SocketWait { kReady, kTimedOut, kFailed };

// After recv() or send() on `fd` failed with EAGAIN: on a blocking socket
// that is SetSocketTimeouts' limit, which has passed (kTimedOut at once); on
// a non-blocking one, waits with poll() for `events` up to `timeout_ms`
// (0: no limit), through EINTR. kFailed when poll() fails. (Every socket
// of the Windows build blocks: there it is always kTimedOut.)
SocketWait WaitForSocket(SocketHandle fd, short events, int timeout_ms);

}  // namespace loadcell
