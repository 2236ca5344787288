// The time limits of the database sockets: a blocking recv() ends at
// SO_RCVTIMEO and WaitForSocket calls that the limit; a non-blocking socket
// waits with poll() up to the limit, and is ready as soon as data comes.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "db/mysql/mysql_wire.h"
#include "db/pgsql/pg_wire.h"
#include "db/socket_wait.h"

namespace loadcell {
namespace {

class SocketWaitTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  void TearDown() override {
    close(fds_[0]);
    close(fds_[1]);
  }
  static double SecondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  int fds_[2] = {-1, -1};
};

TEST_F(SocketWaitTest, BlockingRecvEndsAtTheLimit) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 200, 200).ok());
  const auto t0 = std::chrono::steady_clock::now();
  char c = 0;
  EXPECT_EQ(recv(fds_[0], &c, 1, 0), -1);
  EXPECT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK);
  EXPECT_EQ(WaitForSocket(fds_[0], POLLIN, 200), SocketWait::kTimedOut);
  EXPECT_GE(SecondsSince(t0), 0.15);
  EXPECT_LT(SecondsSince(t0), 0.35);  // no second wait after the recv's
}

TEST_F(SocketWaitTest, NonBlockingWaitsUpToTheLimit) {
  ASSERT_EQ(fcntl(fds_[0], F_SETFL, fcntl(fds_[0], F_GETFL) | O_NONBLOCK), 0);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(WaitForSocket(fds_[0], POLLIN, 200), SocketWait::kTimedOut);
  EXPECT_GE(SecondsSince(t0), 0.15);
  ASSERT_EQ(send(fds_[1], "x", 1, 0), 1);
  EXPECT_EQ(WaitForSocket(fds_[0], POLLIN, 200), SocketWait::kReady);
}

TEST_F(SocketWaitTest, MysqlRawIoNamesTheReadLimit) {
  MyRawIo io;
  ASSERT_TRUE(io.Reset(fds_[0], 200, 200));
  std::string_view payload;
  EXPECT_FALSE(io.Next(payload));
  ASSERT_NE(io.timed_out(), nullptr);
  EXPECT_STREQ(io.timed_out(), "read");
  // A new connection forgets it.
  ASSERT_TRUE(io.Reset(fds_[0]));
  EXPECT_EQ(io.timed_out(), nullptr);
}

TEST_F(SocketWaitTest, PgWireNamesTheReadLimit) {
  PgWire wire(fds_[0]);
  ASSERT_TRUE(wire.SetTimeouts(200, 200));
  wire.Query("SELECT 1");
  PgReply reply;
  wire.Exchange(1, reply, nullptr);
  EXPECT_TRUE(reply.broken);
  ASSERT_NE(reply.timed_out, nullptr);
  EXPECT_STREQ(reply.timed_out, "read");
}

}  // namespace
}  // namespace loadcell
