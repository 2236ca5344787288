// ReplyDeadline: one limit for a whole request, whatever the recv() calls
// in it, and the socket's own limit shortened only near it and given back.

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "db/reply_deadline.h"

namespace loadcell {
namespace {

int ReadLimitMs(int fd) {
  timeval tv{};
  socklen_t len = sizeof(tv);
  getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &len);
  return static_cast<int>(tv.tv_sec * 1000 + tv.tv_usec / 1000);
}

int WriteLimitMs(int fd) {
  timeval tv{};
  socklen_t len = sizeof(tv);
  getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &len);
  return static_cast<int>(tv.tv_sec * 1000 + tv.tv_usec / 1000);
}

class ReplyDeadlineTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  void TearDown() override {
    close(fds_[0]);
    close(fds_[1]);
  }
  int fds_[2] = {-1, -1};
};

TEST_F(ReplyDeadlineTest, PassesOnceForTheWholeRequestNotPerRecv) {
  ReplyDeadline d;
  d.Reset(fds_[0], 0, 0);
  EXPECT_TRUE(d.BeforeRecv());  // disarmed: no limit
  d.Arm(300);
  EXPECT_TRUE(d.armed());
  EXPECT_TRUE(d.BeforeRecv());
  EXPECT_LE(d.WaitMs(0), 300);
  EXPECT_LE(d.WaitMs(100), 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_TRUE(d.BeforeRecv());  // a recv in between does not start it again
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(d.BeforeRecv());
  EXPECT_EQ(d.WaitMs(5000), 1);  // a wait past it is as short as can be
  d.Arm(0);
  EXPECT_FALSE(d.armed());
  EXPECT_TRUE(d.BeforeRecv());
  EXPECT_EQ(d.WaitMs(700), 700);
}

// With the socket's own limit no longer than the deadline's, Arm reads no
// clock and the reply's first recv() is bounded by the socket alone (a reply
// that comes whole costs no clock read); the deadline starts at the second
// recv() and every later one is checked against it.
TEST_F(ReplyDeadlineTest, TheFirstRecvIsTheSocketsTheDeadlineStartsAtTheSecond) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 100, 100).ok());
  ReplyDeadline d;
  d.Reset(fds_[0], 100, 100);
  d.Arm(100);
  EXPECT_EQ(d.WaitMs(100), 100);  // a wait before the second recv: the socket's
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // a recv of the whole limit
  EXPECT_TRUE(d.BeforeRecv());
  EXPECT_TRUE(d.BeforeRecv());  // the deadline starts here: 100 ms from now
  EXPECT_LE(d.WaitMs(1000), 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_FALSE(d.BeforeRecv());  // 300 ms in all: the socket's limit plus the deadline
  d.Arm(100);                    // the next request starts afresh
  EXPECT_TRUE(d.BeforeRecv());
  EXPECT_TRUE(d.BeforeRecv());
}

// A socket limit longer than the deadline cannot bound the first recv():
// then Arm starts the deadline at once, as ArmUntil does.
TEST_F(ReplyDeadlineTest, ASocketLimitLongerThanTheDeadlineStartsItAtArm) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 5000, 5000).ok());
  ReplyDeadline d;
  d.Reset(fds_[0], 5000, 5000);
  d.Arm(100);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_FALSE(d.BeforeRecv());
}

TEST_F(ReplyDeadlineTest, ShortensTheSocketsLimitOnlyNearTheDeadlineAndGivesItBack) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 5000, 5000).ok());
  ReplyDeadline d;
  d.Reset(fds_[0], 5000, 5000);
  d.Arm(4500);  // within the slack of the socket's own 5 s: left alone
  EXPECT_TRUE(d.BeforeRecv());
  EXPECT_EQ(ReadLimitMs(fds_[0]), 5000);
  d.Arm(1500);  // far below it: a recv may not outlast the deadline
  EXPECT_TRUE(d.BeforeRecv());
  EXPECT_LE(ReadLimitMs(fds_[0]), 1500);
  EXPECT_GT(ReadLimitMs(fds_[0]), 1000);
  d.Arm(5000);  // the next request: the socket's limit is its own again
  EXPECT_EQ(ReadLimitMs(fds_[0]), 5000);
}

// Two looks further apart than any recv() could block (the longer of the
// socket's limit and the deadline's, plus a second) are a pause of the
// process: the deadline moves on by the gap; what is left of it still holds.
TEST_F(ReplyDeadlineTest, AGapNoRecvCouldTakeIsAPauseAndDoesNotCount) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 100, 100).ok());
  ReplyDeadline d;
  d.Reset(fds_[0], 100, 100);
  d.Arm(300);
  EXPECT_TRUE(d.BeforeRecv());                                   // the socket's
  EXPECT_TRUE(d.BeforeRecv());                                   // the deadline starts: 300 ms
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // stopped
  EXPECT_TRUE(d.BeforeRecv());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(d.BeforeRecv());
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  EXPECT_FALSE(d.BeforeRecv());  // 450 ms after the pause: past the 300
}

// The login's limit (ArmUntil) the same.
TEST_F(ReplyDeadlineTest, APauseInTheLoginDoesNotCountEither) {
  ReplyDeadline d;
  d.Reset(fds_[0], 0, 0);
  d.ArmUntil(ReplyDeadline::Clock::now() + std::chrono::milliseconds(200));
  EXPECT_TRUE(d.BeforeRecv());
  std::this_thread::sleep_for(std::chrono::milliseconds(1400));
  EXPECT_TRUE(d.BeforeRecv());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(d.BeforeRecv());
}

// A request's send: its first send() is bounded by the socket's write limit
// alone (no clock read); the limit of the whole send starts at the second
// (or a wait), and a server that takes a few bytes per send() cannot extend
// it. Without a write limit, nothing is bounded.
TEST_F(ReplyDeadlineTest, ARequestsSendIsBoundedWholeNotPerSend) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 5000, 100).ok());
  ReplyDeadline d;
  d.Reset(fds_[0], 5000, 100);
  d.ArmSend();
  EXPECT_TRUE(d.BeforeSend());                                  // the socket's
  EXPECT_EQ(d.SendWaitMs(100), 100);                            // not started yet
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // a send() of the whole limit
  EXPECT_TRUE(d.BeforeSend());  // the limit starts here: 100 ms from now
  EXPECT_LE(d.SendWaitMs(1000), 100);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_TRUE(d.BeforeSend());  // a send() in between does not start it again
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_FALSE(d.BeforeSend());
  EXPECT_EQ(d.SendWaitMs(5000), 1);  // a wait past it is as short as can be
  d.ArmSend();                       // the next request starts afresh
  EXPECT_TRUE(d.BeforeSend());
  EXPECT_TRUE(d.BeforeSend());
  EXPECT_TRUE(d.BeforeRecv());  // the reply's limit is apart

  d.Reset(fds_[0], 5000, 0);
  d.ArmSend();
  EXPECT_TRUE(d.BeforeSend());
  EXPECT_TRUE(d.BeforeSend());
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_TRUE(d.BeforeSend());
  EXPECT_EQ(d.SendWaitMs(0), 0);
}

// Near the send's limit the socket's write limit is shortened to what is
// left (a send() that blocks cannot outlast it); the next request gives
// the socket its own back. The read limit is left as it was.
TEST_F(ReplyDeadlineTest, ShortensTheSocketsWriteLimitNearTheSendsAndGivesItBack) {
  ASSERT_TRUE(TcpSetTimeouts(fds_[0], 5000, 2500).ok());
  ReplyDeadline d;
  d.Reset(fds_[0], 5000, 2500);
  d.ArmSend();
  EXPECT_TRUE(d.BeforeSend());
  EXPECT_TRUE(d.BeforeSend());  // 2.5 s from now: within the slack, left alone
  EXPECT_EQ(WriteLimitMs(fds_[0]), 2500);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_TRUE(d.BeforeSend());
  EXPECT_LE(WriteLimitMs(fds_[0]), 1300);
  EXPECT_GT(WriteLimitMs(fds_[0]), 0);
  EXPECT_EQ(ReadLimitMs(fds_[0]), 5000);
  d.ArmSend();
  EXPECT_EQ(WriteLimitMs(fds_[0]), 2500);
  EXPECT_EQ(ReadLimitMs(fds_[0]), 5000);
}

}  // namespace
}  // namespace loadcell
