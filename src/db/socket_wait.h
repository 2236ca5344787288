#pragma once
// Time limits on a database connection's socket, shared by loadcell's own
// protocol clients (pg_wire, mysql_wire). Driver-private.

namespace loadcell {

// Sets SO_RCVTIMEO and SO_SNDTIMEO of `fd` to `read_ms` and `write_ms`
// (0: no limit), so that a blocking recv() or send() returns EAGAIN once the
// limit passed. False when the socket refused them.
bool SetSocketTimeouts(int fd, int read_ms, int write_ms);

enum class SocketWait { kReady, kTimedOut, kFailed };

// After recv() or send() on `fd` failed with EAGAIN: on a blocking socket
// that is SetSocketTimeouts' limit, which has passed (kTimedOut at once); on
// a non-blocking one, waits with poll() for `events` up to `timeout_ms`
// (0: no limit), through EINTR. kFailed when poll() fails.
SocketWait WaitForSocket(int fd, short events, int timeout_ms);

}  // namespace loadcell
