#include "os/tcp_common.h"

#include <fmt/format.h>

#include "core/status.h"

namespace loadcell {

std::string TcpEndpointText(const TcpEndpoint& to) {
  if (to.host.find(':') != std::string::npos) return fmt::format("[{}]:{}", to.host, to.port);
  return fmt::format("{}:{}", to.host, to.port);
}

std::string ConnectFailureText(std::string_view where, int timeout_ms, bool timed_out) {
  if (timed_out && timeout_ms > 0) {
    return fmt::format("cannot connect to {} within {} ms", where, timeout_ms);
  }
  return fmt::format("cannot connect to {}", where);
}

int RemainingMs(std::chrono::steady_clock::time_point deadline) {
  const auto left = deadline - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero()) return 0;
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

Status TcpSendAll(SocketHandle s, std::string_view data) {
  while (!data.empty()) {
    Result<size_t> n = TcpSend(s, data.data(), data.size());
    if (!n.ok()) return n.status();
    data.remove_prefix(*n);
  }
  return Status::Ok();
}

}  // namespace loadcell
