#pragma once
// A TCP server on 127.0.0.1 (an ephemeral port) for the tests that play a
// database server to the loadcell binary: every accepted connection is
// served by `script` on a thread of its own, until the server is destroyed
// (which stops the scripts through stopping(), ends their sockets and joins
// them). Sends and receives go through os/tcp.h; listening and accepting,
// which loadcell itself never does, are the test library's own seam
// (loopback_socket_posix.cpp, loopback_socket_win32.cpp), so the same
// hostile-server tables run on Linux and, as loadcell.exe's, under Wine.

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "os/tcp.h"

namespace loadcell::testing {

// A socket listening on 127.0.0.1 at a port the system picks (*port);
// kNoSocket when that failed.
SocketHandle ListenOnLoopback(uint16_t* port);
// A connection accepted on `listener` within `timeout_ms`; kNoSocket when
// none came (or the listener failed).
SocketHandle AcceptWithin(SocketHandle listener, int timeout_ms);
// Ends sends and receives on `s` (a blocked one returns); the socket stays
// open until TcpClose.
void ShutdownSocket(SocketHandle s);

class LoopbackServer {
 public:
  // `script(server, socket)` plays one connection; it returns when the
  // client is gone or stopping() is true (sends and receives time out after
  // 2 s, so a blocked one comes back to look).
  explicit LoopbackServer(std::function<void(LoopbackServer&, SocketHandle)> script)
      : script_(std::move(script)) {
    listener_ = ListenOnLoopback(&port_);
    if (listener_ != kNoSocket) acceptor_ = std::thread([this] { AcceptAll(); });
  }
  ~LoopbackServer() {
    stop_ = true;
    if (acceptor_.joinable()) acceptor_.join();
    std::lock_guard<std::mutex> lock(mu_);
    for (SocketHandle s : sockets_) ShutdownSocket(s);
    for (std::thread& t : served_) t.join();
    for (SocketHandle s : sockets_) TcpClose(s);
    TcpClose(listener_);
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  // 0 when the server could not listen (the test then fails on connecting).
  uint16_t port() const { return port_; }
  bool stopping() const { return stop_.load(); }

  // Sends all of `bytes`; false once the client is gone or the server stops.
  bool Send(SocketHandle s, std::string_view bytes) {
    while (!bytes.empty() && !stopping()) {
      Result<size_t> n = TcpSend(s, bytes.data(), bytes.size());
      if (n.ok()) {
        bytes.remove_prefix(*n);
      } else if (!TimedOut(n.status())) {
        return false;
      }
    }
    return bytes.empty();
  }
  // Reads exactly `n` bytes; fewer when the client is gone or the server stops.
  std::string Read(SocketHandle s, size_t n) {
    std::string bytes(n, '\0');
    size_t done = 0;
    while (done < n && !stopping()) {
      Result<size_t> got = TcpRecv(s, bytes.data() + done, n - done);
      if (got.ok() && *got == 0) break;
      if (!got.ok() && !TimedOut(got.status())) break;
      if (got.ok()) done += *got;
    }
    bytes.resize(done);
    return bytes;
  }
  // Reads what one receive brings (at most `most` bytes); "" once the client
  // is gone or the server stops.
  std::string ReadSome(SocketHandle s, size_t most = 512) {
    std::string bytes(most, '\0');
    while (!stopping()) {
      Result<size_t> got = TcpRecv(s, bytes.data(), most);
      if (got.ok()) {
        bytes.resize(*got);
        return bytes;
      }
      if (!TimedOut(got.status())) break;
    }
    return "";
  }

 private:
  static bool TimedOut(const Status& s) { return s.err() == ETIMEDOUT; }

  void AcceptAll() {
    while (!stopping()) {
      const SocketHandle s = AcceptWithin(listener_, 100);
      if (s == kNoSocket) continue;
      (void)TcpSetTimeouts(s, 2000, 2000);
      std::lock_guard<std::mutex> lock(mu_);
      sockets_.push_back(s);
      served_.emplace_back([this, s] { script_(*this, s); });
    }
  }

  std::function<void(LoopbackServer&, SocketHandle)> script_;
  SocketHandle listener_ = kNoSocket;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<SocketHandle> sockets_;  // guarded by mu_
  std::vector<std::thread> served_;    // guarded by mu_
};

}  // namespace loadcell::testing
