#pragma once
// What the two TCP seams (tcp_posix.cpp, tcp_win32.cpp) share.

#include <chrono>
#include <string>
#include <string_view>

#include "os/tcp.h"

namespace loadcell {

// "host:port", "[v6 literal]:port".
std::string TcpEndpointText(const TcpEndpoint& to);
// The message of a connection that failed: "cannot connect to host:port"
// and, when it was the time limit, "within N ms".
std::string ConnectFailureText(std::string_view where, int timeout_ms, bool timed_out);
// Milliseconds left until `deadline`, rounded up; 0 once it passed.
int RemainingMs(std::chrono::steady_clock::time_point deadline);

}  // namespace loadcell
