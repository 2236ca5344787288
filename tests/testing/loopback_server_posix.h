#pragma once
// A TCP server on 127.0.0.1 (an ephemeral port) for the tests that play a
// database server to the loadcell binary: every accepted connection is
// served by `script` on a thread of its own, until the server is destroyed
// (which stops the scripts through stopping(), closes their sockets and
// joins them). POSIX only: the tests that use it are *_posix_test.cpp.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace loadcell::testing {

class LoopbackServer {
 public:
  // `script(server, fd)` plays one connection; it returns when the client is
  // gone or stopping() is true (sends and receives time out after 2 s, so a
  // blocked one comes back to look).
  explicit LoopbackServer(std::function<void(LoopbackServer&, int)> script)
      : script_(std::move(script)) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (bind(listener_, reinterpret_cast<sockaddr*>(&a), len) == 0 && listen(listener_, 16) == 0 &&
        getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
      port_ = ntohs(a.sin_port);
    }
    acceptor_ = std::thread([this] { AcceptAll(); });
  }
  ~LoopbackServer() {
    stop_ = true;
    shutdown(listener_, SHUT_RDWR);
    acceptor_.join();
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : fds_) shutdown(fd, SHUT_RDWR);
    for (std::thread& t : served_) t.join();
    for (int fd : fds_) close(fd);
    close(listener_);
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  uint16_t port() const { return port_; }
  bool stopping() const { return stop_.load(); }

  // Sends all of `bytes`; false once the client is gone or the server stops.
  bool Send(int fd, std::string_view bytes) {
    while (!bytes.empty() && !stopping()) {
      const ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n > 0) {
        bytes.remove_prefix(static_cast<size_t>(n));
      } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        return false;
      }
    }
    return bytes.empty();
  }
  // Reads exactly `n` bytes; fewer when the client is gone or the server stops.
  std::string Read(int fd, size_t n) {
    std::string s(n, '\0');
    size_t done = 0;
    while (done < n && !stopping()) {
      const ssize_t got = recv(fd, s.data() + done, n - done, 0);
      if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        break;
      }
      if (got > 0) done += static_cast<size_t>(got);
    }
    s.resize(done);
    return s;
  }

 private:
  void AcceptAll() {
    for (;;) {
      const int fd = accept(listener_, nullptr, nullptr);
      if (fd < 0 || stopping()) {
        if (fd >= 0) close(fd);
        return;
      }
      const timeval tv{2, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
      std::lock_guard<std::mutex> lock(mu_);
      fds_.push_back(fd);
      served_.emplace_back([this, fd] { script_(*this, fd); });
    }
  }

  std::function<void(LoopbackServer&, int)> script_;
  int listener_ = -1;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<int> fds_;             // guarded by mu_
  std::vector<std::thread> served_;  // guarded by mu_
};

}  // namespace loadcell::testing
