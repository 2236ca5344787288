#pragma once
// A connected socket pair for the unit tests of a protocol client: the
// client under test reads and writes `client`, the test plays the server on
// `server`.
//
// A bug that makes the client read more than the server sent, or a test that
// writes more than the socket holds, must fail the test, not hang it. The
// socket timeouts end a blocked read or write of the test's own; the client,
// though, goes on waiting with poll() when a recv times out (as it must with
// a slow server), so a watchdog shuts its socket down after kDeadline, which
// ends that wait as a lost connection.

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace loadcell::testing {

class WatchedSocketPair {
 public:
  static constexpr timeval kSocketTimeout{2, 0};
  static constexpr std::chrono::seconds kDeadline{5};

  ~WatchedSocketPair() { Close(); }

  // Opens the pair and starts the watchdog. Call through
  // ASSERT_NO_FATAL_FAILURE: a failure leaves the pair unusable.
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = false;  // a pair may be opened again after Close
    }
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    client = fds[0];
    server = fds[1];
    for (int fd : fds) {
      ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &kSocketTimeout, sizeof(timeval)), 0);
      ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &kSocketTimeout, sizeof(timeval)), 0);
    }
    watchdog_ = std::thread([this, fd = client] {
      std::unique_lock<std::mutex> lock(mu_);
      if (!done_cv_.wait_for(lock, kDeadline, [this] { return done_; })) {
        ADD_FAILURE() << "still running after " << kDeadline.count()
                      << " s: the client waited for bytes that were never sent";
        shutdown(fd, SHUT_RDWR);
      }
    });
  }

  // Stops the watchdog and closes the sockets still open (a test that closes
  // one itself sets it to -1).
  void Close() {
    if (watchdog_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        done_ = true;
      }
      done_cv_.notify_all();
      watchdog_.join();
    }
    if (client >= 0) close(client);
    if (server >= 0) close(server);
    client = server = -1;
  }

  int client = -1;
  int server = -1;

 private:
  std::thread watchdog_;
  std::mutex mu_;
  std::condition_variable done_cv_;
  bool done_ = false;  // guarded by mu_
};

}  // namespace loadcell::testing
