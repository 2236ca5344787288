// The native connector against a server played by the test on a loopback
// socket: caching_sha2_password's full authentication over an unencrypted
// connection, the password decrypted here with the private half of a key
// pair made here (libcrypto, linked into this test) and compared with what
// the protocol says it must be; then a text query's rows; and the one-line
// refusal when the server offers no RSA key. MariaDB 10.11, the test
// servers', has no caching_sha2_password plugin: this is where it is tested.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>

#include "db/mysql/mysql_native.h"
#include "testing/status.h"
#include "unit/os/rsa_decrypt_posix.h"

namespace loadcell::mysql_internal {
namespace {

const std::string kScramble = "ABCDEFGHIJKLMNOPQRST";
const std::string kPassword = "sha2-secret";

using crypto::testing::Decrypt;
using crypto::testing::Key;
using crypto::testing::PublicPem;

// One client connection to a listening socket of 127.0.0.1, played by the
// test: packets read and written whole, every wait bounded.
class FakeServer {
 public:
  FakeServer() {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (bind(listener_, reinterpret_cast<sockaddr*>(&a), len) != 0 || listen(listener_, 1) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      ADD_FAILURE() << "no listening socket";
    }
    port = ntohs(a.sin_port);
  }
  ~FakeServer() {
    if (peer_ >= 0) close(peer_);
    close(listener_);
  }
  bool Accept() {
    peer_ = accept(listener_, nullptr, nullptr);
    const timeval tv{5, 0};
    setsockopt(peer_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    return peer_ >= 0;
  }
  void Write(std::string_view payload) {
    std::string o(4, '\0');
    MyPutPacketHeader(o.data(), payload.size(), seq_++);
    o.append(payload);
    EXPECT_EQ(send(peer_, o.data(), o.size(), MSG_NOSIGNAL), static_cast<ssize_t>(o.size()));
  }
  std::string Read() {
    std::string h = Bytes(4);
    if (h.size() < 4) return "(closed)";
    seq_ = static_cast<uint8_t>(h[3] + 1);
    return Bytes(static_cast<unsigned char>(h[0]) | static_cast<unsigned char>(h[1]) << 8 |
                 static_cast<unsigned char>(h[2]) << 16);
  }
  void NewCommand() { seq_ = 1; }
  uint16_t port = 0;

 private:
  std::string Bytes(size_t n) {
    std::string b(n, '\0');
    size_t got = 0;
    while (got < n) {
      const ssize_t r = recv(peer_, b.data() + got, n - got, 0);
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    b.resize(got);
    return b;
  }
  int listener_ = -1;
  int peer_ = -1;
  uint8_t seq_ = 0;
};

std::string Hello() {
  std::string p = std::string("\x0A") + "8.0.36" + '\0';
  MyPutInt(p, 7, 4);
  p += kScramble.substr(0, 8) + '\0';
  const uint32_t caps = 0xF7FF | (0x81BFU << 16);
  MyPutInt(p, caps & 0xFFFF, 2);
  p += static_cast<char>(45);
  MyPutInt(p, 2, 2);
  MyPutInt(p, caps >> 16, 2);
  p += static_cast<char>(21);
  p.append(10, '\0');
  return p + kScramble.substr(8) + '\0' + "caching_sha2_password" + '\0';
}

const std::string kOk("\x00\x00\x00\x02\x00\x00\x00", 7);

std::string Column(std::string_view name) {
  std::string p;
  for (std::string_view f : {std::string_view("def"), {}, {}, {}, name, name}) {
    MyPutLenEnc(p, f.size());
    p += f;
  }
  p += '\x0c';
  MyPutInt(p, 45, 2);
  MyPutInt(p, 11, 4);
  p += static_cast<char>(kMyTypeLongLong);
  MyPutInt(p, 0, 2);
  p += '\0';
  p.append(2, '\0');
  return p;
}

MySettings Settings(uint16_t port) {
  MySettings s;
  s.hosts = {"127.0.0.1"};
  s.ports = {port};
  s.user = "bench";
  s.password_in_use = kPassword;
  s.db = "sbtest";
  s.native = true;
  s.timeouts.connect_s = 5;
  s.timeouts.read_s = 5;
  s.timeouts.write_s = 5;
  return s;
}

TEST(MyNativeLoopbackTest, FullCachingSha2AuthenticationEncryptsThePasswordForTheServersKey) {
  Key key(EVP_RSA_gen(2048));
  ASSERT_NE(key, nullptr);
  FakeServer server;
  std::string plaintext;
  std::string query;
  std::thread t([&] {
    if (!server.Accept()) return;
    server.Write(Hello());
    const std::string response = server.Read();
    EXPECT_NE(response.find("caching_sha2_password"), std::string::npos);
    server.Write("\x01\x04");  // the cache holds no such user: the password itself
    EXPECT_EQ(server.Read(), "\x02");
    server.Write("\x01" + PublicPem(key.get()));
    plaintext = Decrypt(key.get(), server.Read());
    server.Write(kOk);
    query = server.Read();
    server.NewCommand();
    server.Write("\x01");
    server.Write(Column("x"));
    server.Write("\xFE\x00\x00\x02\x00");
    server.Write(
        "\x01"
        "7");
    server.Write("\xFB");  // NULL
    server.Write("\xFE\x00\x00\x02\x00");
    server.Read();  // COM_QUIT or the close
  });
  const MySettings s = Settings(server.port);
  Result<std::unique_ptr<DbConnection>> c = OpenNativeConnection(&s, 0);
  if (c.ok()) {
    DbExecResult r;
    DbRows rows;
    EXPECT_OK((*c)->Execute("SELECT x", r, &rows));
    EXPECT_EQ(r.rows_returned, 2u);
    ASSERT_EQ(rows.columns, std::vector<std::string>{"x"});
    ASSERT_EQ(rows.rows.size(), 2u);
    EXPECT_EQ(rows.rows[0][0].value_or("(null)"), "7");
    EXPECT_FALSE(rows.rows[1][0].has_value());
    EXPECT_EQ((*c)->ServerVersion(), "MySQL 8.0.36");
    c->reset();
  }
  t.join();
  ASSERT_OK(c);
  // (password + NUL) XOR the scramble: what the server's private key reads.
  std::string want = kPassword + '\0';
  for (size_t k = 0; k < want.size(); ++k) want[k] = static_cast<char>(want[k] ^ kScramble[k % 20]);
  EXPECT_EQ(plaintext, want);
  EXPECT_EQ(query, "\x03SELECT x");
}

TEST(MyNativeLoopbackTest, AServerWithoutAnRsaKeyIsRefusedInOneLineSayingToEnableTls) {
  FakeServer server;
  std::thread t([&] {
    if (!server.Accept()) return;
    server.Write(Hello());
    server.Read();
    server.Write("\x01\x04");
    server.Read();
    server.Write("\xFF\x15\x04#28000Authentication requires secure connection.");
    server.Read();
  });
  const MySettings s = Settings(server.port);
  Result<std::unique_ptr<DbConnection>> c = OpenNativeConnection(&s, 0);
  t.join();
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_EQ(c.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(m.find("enable TLS"), std::string::npos) << m;
  EXPECT_NE(m.find("Authentication requires secure connection"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  EXPECT_EQ(m.find(kPassword), std::string::npos);
}

}  // namespace
}  // namespace loadcell::mysql_internal
