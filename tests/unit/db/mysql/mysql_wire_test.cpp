// The mysql driver's own path without a server: which negotiated sessions
// it refuses to run statements on, and its socket I/O against a scripted
// peer on the other end of a socket pair.

#include "db/mysql/mysql_wire.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <mysql.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "testing/watched_socket_pair.h"

namespace loadcell {
namespace {

// What libmariadb agrees with a MariaDB 10.11 server over a plain socket.
constexpr uint64_t kClient = CLIENT_CAPABILITIES | CLIENT_LOCAL_FILES | CLIENT_CONNECT_WITH_DB;
constexpr uint64_t kServer = CLIENT_SUPPORTED_FLAGS | CLIENT_ALLOWED_FLAGS | kMyClientDeprecateEof;

std::string Obstacle(uint64_t client, uint64_t server, bool tls = false) {
  const char* why = MyOwnPathObstacle(client, server, tls);
  return why != nullptr ? why : "";
}

TEST(MyOwnPathObstacleTest, APlainUncompressedSessionWithEofPacketsIsUsed) {
  EXPECT_EQ(Obstacle(kClient, kServer), "");
  // A flag only one side has is not in effect.
  EXPECT_EQ(Obstacle(kClient | CLIENT_COMPRESS, kServer & ~CLIENT_COMPRESS), "");
  EXPECT_EQ(Obstacle(kClient, kServer | CLIENT_COMPRESS | CLIENT_SSL), "");
}

TEST(MyOwnPathObstacleTest, EveryBrokenAssumptionIsNamed) {
  EXPECT_NE(Obstacle(kClient, kServer, true).find("TLS"), std::string::npos);
  EXPECT_NE(Obstacle(kClient | CLIENT_SSL, kServer).find("TLS"), std::string::npos);
  EXPECT_NE(Obstacle(kClient | CLIENT_COMPRESS, kServer).find("compressed"), std::string::npos);
  EXPECT_NE(Obstacle(kClient | CLIENT_ZSTD_COMPRESSION, kServer).find("compressed"),
            std::string::npos);
  EXPECT_NE(Obstacle(kClient | kMyClientDeprecateEof, kServer).find("DEPRECATE_EOF"),
            std::string::npos);
  EXPECT_NE(Obstacle(kClient, kServer & ~CLIENT_PROTOCOL_41).find("4.1"), std::string::npos);
  EXPECT_NE(Obstacle(kClient & ~CLIENT_PROTOCOL_41, kServer).find("4.1"), std::string::npos);
}

std::string Header(size_t payload_len, uint8_t seq) {
  std::string h(4, '?');
  MyPutPacketHeader(h.data(), payload_len, seq);
  return h;
}

TEST(MyPutPacketHeaderTest, WritesTheLengthLittleEndianThenTheSequenceId) {
  EXPECT_EQ(Header(0, 0), std::string("\x00\x00\x00\x00", 4));
  EXPECT_EQ(Header(5, 1), std::string("\x05\x00\x00\x01", 4));
  EXPECT_EQ(Header(0x1234, 0), std::string("\x34\x12\x00\x00", 4));
  EXPECT_EQ(Header(65536, 2), std::string("\x00\x00\x01\x02", 4));  // above 16 bits
  EXPECT_EQ(Header(0xABCDEF, 255), "\xEF\xCD\xAB\xFF");
  EXPECT_EQ(Header(0xFFFFFE, 7), std::string("\xFE\xFF\xFF\x07", 4));
}

// How long the peer waits before it answers: the client has long since found
// nothing to read (or no room to write) on its non-blocking socket.
constexpr std::chrono::milliseconds kLate{100};

class MyRawIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(pair_.Open());
    client_ = pair_.client;
    server_ = pair_.server;
    ASSERT_EQ(fcntl(client_, F_SETFL, fcntl(client_, F_GETFL) | O_NONBLOCK), 0);
    io_.Reset(client_);
  }
  void TearDown() override {
    if (peer_.joinable()) peer_.join();
    pair_.Close();
  }

  // The peer sends `bytes` after kLate, in two parts kLate apart.
  void ServeLate(std::string bytes) {
    peer_ = std::thread([this, bytes = std::move(bytes)] {
      const size_t half = bytes.size() / 2;
      std::this_thread::sleep_for(kLate);
      EXPECT_EQ(send(server_, bytes.data(), half, MSG_NOSIGNAL), static_cast<ssize_t>(half));
      std::this_thread::sleep_for(kLate);
      EXPECT_EQ(send(server_, bytes.data() + half, bytes.size() - half, MSG_NOSIGNAL),
                static_cast<ssize_t>(bytes.size() - half));
    });
  }

  testing::WatchedSocketPair pair_;
  int client_ = -1;
  int server_ = -1;
  MyRawIo io_;
  std::thread peer_;  // the scripted server, joined before the sockets close
};

TEST_F(MyRawIoTest, ANonBlockingRecvThatFindsNothingWaitsForThePacket) {
  char probe;
  ASSERT_EQ(recv(client_, &probe, 1, MSG_PEEK), -1);
  ASSERT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK);
  ServeLate(std::string("\x05\x00\x00\x01hello", 9));
  std::string_view payload;
  ASSERT_TRUE(io_.Next(payload));
  EXPECT_EQ(payload, "hello");
}

TEST_F(MyRawIoTest, ANonBlockingSendThatFindsTheSocketFullWaitsForRoom) {
  // Far more than a socket pair buffers: the client's send() fills it and
  // finds no room until the peer reads.
  const std::string request(4 * 1024 * 1024, 'r');
  io_.out() = request;
  peer_ = std::thread([this, size = request.size()] {
    std::this_thread::sleep_for(kLate);
    std::string got(size, '\0');
    size_t have = 0;
    while (have < size) {
      const ssize_t n = recv(server_, got.data() + have, size - have, 0);
      if (n <= 0) break;
      have += static_cast<size_t>(n);
    }
    EXPECT_EQ(have, size);
    EXPECT_TRUE(got == std::string(size, 'r'));
  });
  EXPECT_TRUE(io_.Send());
}

TEST_F(MyRawIoTest, APeerThatClosesWhileWaitedForEndsTheConnection) {
  peer_ = std::thread([this] {
    std::this_thread::sleep_for(kLate);
    shutdown(server_, SHUT_WR);
  });
  std::string_view payload;
  EXPECT_FALSE(io_.Next(payload));
}

}  // namespace
}  // namespace loadcell
