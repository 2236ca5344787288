// The TCP seam (os/tcp.h) against listeners this test opens on 127.0.0.1
// and ::1, on whichever implementation this build has (POSIX sockets or
// Winsock).

#include "os/tcp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <thread>
#include <vector>

#include "testing/status.h"

#if defined(_WIN32)
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace loadcell {
namespace {

#if defined(_WIN32)
using NativeSocket = SOCKET;
void CloseNative(SocketHandle s) { closesocket(static_cast<SOCKET>(s)); }
#else
using NativeSocket = int;
void CloseNative(SocketHandle s) { close(static_cast<int>(s)); }
#endif
NativeSocket Native(SocketHandle s) { return static_cast<NativeSocket>(s); }

// A socket bound to a free port of the loopback address `host`, listening
// when `backlog` >= 0; the test's own side, written with the system's calls
// so that it does not lean on the code under test.
class Listener {
 public:
  Listener(const char* host, int backlog) {
#if defined(_WIN32)
    WSADATA data;
    WSAStartup(MAKEWORD(2, 2), &data);
#endif
    sockaddr_storage addr{};
    socklen_t len = 0;
    if (std::string(host).find(':') != std::string::npos) {
      auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
      a->sin6_family = AF_INET6;
      inet_pton(AF_INET6, host, &a->sin6_addr);
      len = sizeof(sockaddr_in6);
    } else {
      auto* a = reinterpret_cast<sockaddr_in*>(&addr);
      a->sin_family = AF_INET;
      inet_pton(AF_INET, host, &a->sin_addr);
      len = sizeof(sockaddr_in);
    }
    socket_ = static_cast<SocketHandle>(socket(addr.ss_family, SOCK_STREAM, 0));
    if (socket_ == kNoSocket) return;
    if (bind(Native(socket_), reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        (backlog >= 0 && listen(Native(socket_), backlog) != 0) ||
        getsockname(Native(socket_), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      Close();
      return;
    }
    port_ = ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                             : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  }
  ~Listener() { Close(); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  bool ok() const { return socket_ != kNoSocket; }
  uint16_t port() const { return port_; }
  SocketHandle Accept() const {
    return static_cast<SocketHandle>(accept(Native(socket_), nullptr, nullptr));
  }
  void Close() {
    if (socket_ != kNoSocket) CloseNative(socket_);
    socket_ = kNoSocket;
  }

 private:
  SocketHandle socket_ = kNoSocket;
  uint16_t port_ = 0;
};

// Reads exactly `n` bytes (fewer when the peer closes first).
std::string RecvExactly(SocketHandle s, size_t n) {
  std::string out;
  char buf[256];
  while (out.size() < n) {
    Result<size_t> r = TcpRecv(s, buf, std::min(sizeof(buf), n - out.size()));
    if (!r.ok() || *r == 0) break;
    out.append(buf, *r);
  }
  return out;
}

class TcpRoundTripTest : public ::testing::TestWithParam<const char*> {};

// Sends a message, the listener echoes it and closes: the echo comes back
// whole and then recv says the peer closed (0 bytes).
TEST_P(TcpRoundTripTest, SendsAndReceivesThenSeesTheClose) {
  Listener listener(GetParam(), 1);
  ASSERT_TRUE(listener.ok()) << GetParam();
  std::thread server([&] {
    const SocketHandle peer = listener.Accept();
    if (peer == kNoSocket) return;
    char buf[64];
    size_t got = 0;
    while (got < 12) {
      const auto n = recv(Native(peer), buf + got, static_cast<int>(sizeof(buf) - got), 0);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    send(Native(peer), buf, static_cast<int>(got), 0);
    CloseNative(peer);
  });
  Result<SocketHandle> s = TcpConnect({GetParam(), listener.port()}, 5000);
  ASSERT_OK(s);
  EXPECT_OK(TcpSetTimeouts(*s, 5000, 5000));
  EXPECT_OK(TcpSendAll(*s, std::string("hello\0world!", 12)));
  EXPECT_EQ(RecvExactly(*s, 12), std::string("hello\0world!", 12));
  char c = 0;
  Result<size_t> end = TcpRecv(*s, &c, 1);
  ASSERT_OK(end);
  EXPECT_EQ(*end, 0u);
  TcpClose(*s);
  server.join();
}

INSTANTIATE_TEST_SUITE_P(Loopback, TcpRoundTripTest, ::testing::Values("127.0.0.1", "::1"));

TEST(TcpTest, ConnectsByName) {
  Listener listener("127.0.0.1", 1);
  ASSERT_TRUE(listener.ok());
  // "localhost" may resolve to ::1 first, where nothing listens: the
  // next address is tried.
  Result<SocketHandle> s = TcpConnect({"localhost", listener.port()}, 5000);
  ASSERT_OK(s);
  TcpClose(*s);
}

TEST(TcpTest, ARecvPastItsTimeLimitIsUnavailableWithEtimedout) {
  Listener listener("127.0.0.1", 1);
  ASSERT_TRUE(listener.ok());
  Result<SocketHandle> s = TcpConnect({"127.0.0.1", listener.port()}, 5000);
  ASSERT_OK(s);
  ASSERT_OK(TcpSetTimeouts(*s, 200, 200));
  char c = 0;
  Result<size_t> r = TcpRecv(*s, &c, 1);  // the listener never sends
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(r.status().err(), ETIMEDOUT) << r.status().ToString();
  TcpClose(*s);
}

TEST(TcpTest, AClosedPortIsRefusedNamingHostAndPort) {
  for (const char* host : {"127.0.0.1", "::1"}) {
    uint16_t port = 0;
    {
      Listener bound(host, -1);  // bound, never listening: nothing accepts there
      ASSERT_TRUE(bound.ok()) << host;
      port = bound.port();
    }
    Result<SocketHandle> s = TcpConnect({host, port}, 5000);
    ASSERT_FALSE(s.ok()) << host;
    EXPECT_EQ(s.status().code(), StatusCode::kUnavailable);
    EXPECT_EQ(s.status().err(), ECONNREFUSED) << s.status().ToString();
    const std::string where = std::string(host) == "::1" ? "[::1]:" : "127.0.0.1:";
    EXPECT_NE(s.status().message().find(where + std::to_string(port)), std::string::npos)
        << s.status().message();
  }
}

TEST(TcpTest, AnUnresolvableNameIsUnavailableNamingIt) {
  Result<SocketHandle> s = TcpConnect({"no-such-host.invalid", 5432}, 5000);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(s.status().message().find("no-such-host.invalid:5432"), std::string::npos)
      << s.status().message();
}

// A listener whose queue is full drops the next SYN: the connect must end
// at its time limit, as ETIMEDOUT.
TEST(TcpTest, AConnectPastItsTimeLimitIsEtimedout) {
  Listener listener("127.0.0.1", 0);
  ASSERT_TRUE(listener.ok());
  std::vector<SocketHandle> queued;
  Status last;
  // Fill the accept queue (its length is the system's choice for backlog 0).
  for (int i = 0; i < 16; ++i) {
    Result<SocketHandle> s = TcpConnect({"127.0.0.1", listener.port()}, 300);
    if (!s.ok()) {
      last = s.status();
      break;
    }
    queued.push_back(*s);
  }
  for (const SocketHandle s : queued) TcpClose(s);
  ASSERT_FALSE(last.ok()) << "16 connections queued on a listener of backlog 0";
  EXPECT_EQ(last.code(), StatusCode::kUnavailable);
  EXPECT_EQ(last.err(), ETIMEDOUT) << last.ToString();
  EXPECT_NE(last.message().find("within 300 ms"), std::string::npos) << last.message();
}

}  // namespace
}  // namespace loadcell
