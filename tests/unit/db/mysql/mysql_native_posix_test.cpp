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

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
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
  // Bytes as they are (no header); false once the client is gone.
  bool WriteRaw(std::string_view bytes) {
    return send(peer_, bytes.data(), bytes.size(), MSG_NOSIGNAL) >= 0;
  }
  // A packet of `payload` with sequence id `seq`, as bytes.
  static std::string Packet(std::string_view payload, uint8_t seq) {
    std::string o(4, '\0');
    MyPutPacketHeader(o.data(), payload.size(), seq);
    o.append(payload);
    return o;
  }
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

std::string Hello(std::string_view version = "8.0.36") {
  std::string p = std::string("\x0A") + std::string(version) + '\0';
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
  MySettings s = Settings(server.port);
  s.get_server_public_key = true;  // the user trusts this server's key
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
  MySettings s = Settings(server.port);
  s.get_server_public_key = true;
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

// The login of the fast path: the handshake, the client's response, "fast
// authentication succeeded", OK.
void FastLogin(FakeServer& server, std::string_view version = "8.0.36") {
  server.Write(Hello(version));
  server.Read();
  server.Write("\x01\x03");
  server.Write(kOk);
}

// A server that logs the client in (or not) and then misbehaves. Each
// ends within its bound in one line: the time from the request's start
// (1 s here; bytes that trickle in do not extend it), the rows and bytes
// kept, a payload's length, the sequence ids, the results of one statement.
TEST(MyNativeLoopbackTest, AHostileServerEndsAtItsBoundInOneLine) {
  struct Case {
    const char* name;
    bool keep_rows;
    std::function<void(MySettings&)> settings;
    // The server after the login and the query's read, its sequence id at 1.
    std::function<void(FakeServer&, const std::atomic<bool>&)> reply;
    const char* message_has;
    double at_least_s;
  };
  auto endless = [](std::string bytes, size_t chunk, int pause_ms) {
    return [bytes, chunk, pause_ms](FakeServer& server, const std::atomic<bool>& stop) {
      std::string stream;
      while (stream.size() < chunk) stream += bytes;
      for (size_t at = 0; !stop.load();) {
        const size_t n = std::min(chunk, stream.size() - at);
        if (!server.WriteRaw(std::string_view(stream).substr(at, n))) return;
        at = (at + n) % stream.size();
        if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
      }
    };
  };
  // A result set's start: its column count, definition and EOF.
  const std::string rows_head = FakeServer::Packet("\x01", 1) + FakeServer::Packet(Column("x"), 2) +
                                FakeServer::Packet(std::string("\xFE\x00\x00\x02\x00", 5), 3);
  // Rows without end: every sequence id in turn from 4.
  std::string rows;
  for (int k = 0; k < 256; ++k)
    rows += FakeServer::Packet(
        "\x01"
        "7",
        static_cast<uint8_t>(4 + k));
  std::string more_results;  // OKs that say more results follow
  for (int k = 0; k < 256; ++k) {
    more_results += FakeServer::Packet(std::string("\x00\x00\x00\x0A\x00\x00\x00", 7),
                                       static_cast<uint8_t>(1 + k));
  }
  const Case cases[] = {
      {"endless rows, kept", true, [](MySettings& s) { s.limits.max_rows = 1000; },
       [&](FakeServer& sv, const std::atomic<bool>& stop) {
         if (sv.WriteRaw(rows_head)) endless(rows, rows.size(), 0)(sv, stop);
       },
       "--db-max-reply-rows=1000", 0},
      {"endless rows, counted only", false, [](MySettings&) {},
       [&](FakeServer& sv, const std::atomic<bool>& stop) {
         if (sv.WriteRaw(rows_head)) endless(rows, rows.size(), 0)(sv, stop);
       },
       "within 1s (--db-read-timeout)", 0.9},
      {"rows, one byte per 100 ms", false, [](MySettings&) {},
       [&](FakeServer& sv, const std::atomic<bool>& stop) {
         if (sv.WriteRaw(rows_head)) endless(rows, 1, 100)(sv, stop);
       },
       "within 1s (--db-read-timeout)", 0.9},
      {"a header claiming 16 MB", true, [](MySettings& s) { s.limits.max_bytes = 64 * 1024; },
       endless(std::string("\xFF\xFF\xFE\x01", 4) + "x", 5, 100), "--db-max-reply-size=65536", 0},
      {"a sequence id out of order", true, [](MySettings&) {},
       [](FakeServer& sv, const std::atomic<bool>&) { sv.WriteRaw(FakeServer::Packet(kOk, 5)); },
       "a packet out of order (sequence id 5, expected 1)", 0},
      {"more results without end", false, [](MySettings&) {},
       endless(more_results, more_results.size(), 0), "more than 100000 results", 0},
      // Each request for a LOAD DATA file is answered (with an empty one):
      // the answers are part of the statement and do not start its limit again.
      {"file requests without end", false, [](MySettings&) {},
       [](FakeServer& sv, const std::atomic<bool>& stop) {
         for (uint8_t seq = 1; !stop.load(); seq = static_cast<uint8_t>(seq + 2)) {
           if (!sv.WriteRaw(FakeServer::Packet("\xFB/etc/passwd", seq))) return;
           sv.Read();
           std::this_thread::sleep_for(std::chrono::milliseconds(50));
         }
       },
       "within 1s (--db-read-timeout)", 0.9},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FakeServer server;
    std::atomic<bool> stop{false};
    std::thread t([&] {
      if (!server.Accept()) return;
      FastLogin(server);
      server.Read();  // the query
      c.reply(server, stop);
    });
    MySettings s = Settings(server.port);
    s.timeouts.read_s = 1;
    c.settings(s);
    Result<std::unique_ptr<DbConnection>> conn = OpenNativeConnection(&s, 0);
    DbError e;
    double took = 0;
    if (conn.ok()) {
      DbExecResult r;
      DbRows kept;
      const auto started = std::chrono::steady_clock::now();
      e = (*conn)->Execute("SELECT x", r, c.keep_rows ? &kept : nullptr);
      took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      EXPECT_LE(kept.rows.size(), static_cast<size_t>(s.limits.max_rows));
      EXPECT_FALSE(static_cast<MyNativeConnection&>(**conn).connected());  // closed as failed
    }
    stop = true;
    conn = Status::Unavailable("closed");  // closes the socket: the server's sends end
    t.join();
    EXPECT_FALSE(e.ok());
    EXPECT_EQ(e.cls, DbErrorClass::kFatal);
    EXPECT_NE(e.message.find(c.message_has), std::string::npos) << e.message;
    EXPECT_EQ(e.message.find('\n'), std::string::npos);
    EXPECT_GE(took, c.at_least_s);
    EXPECT_LT(took, 3.5);
  }
}

// The login, all of its exchanges together, within the connect limit.
TEST(MyNativeLoopbackTest, AHandshakeThatTricklesEndsWithinTheConnectLimit) {
  FakeServer server;
  std::atomic<bool> stop{false};
  std::thread t([&] {
    if (!server.Accept()) return;
    const std::string hello = FakeServer::Packet(Hello(), 0);
    for (size_t at = 0; at < hello.size() && !stop.load(); ++at) {
      if (!server.WriteRaw(hello.substr(at, 1))) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  MySettings s = Settings(server.port);
  s.timeouts.connect_s = 1;
  const auto started = std::chrono::steady_clock::now();
  Result<std::unique_ptr<DbConnection>> c = OpenNativeConnection(&s, 0);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  stop = true;
  const std::string message = c.ok() ? "(connected)" : c.status().message();
  c = Status::Unavailable("closed");
  t.join();
  EXPECT_NE(message.find("--db-connect-timeout"), std::string::npos) << message;
  EXPECT_GE(took, 0.9);
  EXPECT_LT(took, 3.5);
}

// caching_sha2_password's full authentication over plaintext without the
// user's word: the client asks for no key and sends no password, and says
// which option would.
TEST(MyNativeLoopbackTest, FullAuthenticationWithoutTheUsersWordSendsNothingAndNamesTheOption) {
  FakeServer server;
  std::string after_request;
  std::thread t([&] {
    if (!server.Accept()) return;
    server.Write(Hello());
    server.Read();
    server.Write("\x01\x04");
    after_request = server.Read();  // the client's next packet, or its close
  });
  const MySettings s = Settings(server.port);
  Result<std::unique_ptr<DbConnection>> c = OpenNativeConnection(&s, 0);
  t.join();
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_EQ(c.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(m.find("--mysql-get-server-public-key=on"), std::string::npos) << m;
  EXPECT_NE(m.find("--mysql-server-public-key=FILE"), std::string::npos) << m;
  EXPECT_NE(after_request, "\x02");  // no key asked for
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

// Text from the server reaches a terminal with its control bytes escaped:
// the version, an error's words.
TEST(MyNativeLoopbackTest, TheServersVersionAndErrorsAreEscaped) {
  FakeServer server;
  std::thread t([&] {
    if (!server.Accept()) return;
    FastLogin(server, "8.0\x1b[2J\x1b[Hforged");
    server.Read();
    server.NewCommand();
    server.Write("\xFF\x28\x04#42000bad\x1b]0;title\x07 words");
    server.Read();
  });
  const MySettings s = Settings(server.port);
  Result<std::unique_ptr<DbConnection>> c = OpenNativeConnection(&s, 0);
  std::string version;
  DbError e;
  if (c.ok()) {
    version = (*c)->ServerVersion();
    DbExecResult r;
    e = (*c)->Execute("SELECT 1", r, nullptr);
    c = Status::Unavailable("closed");
  }
  t.join();
  EXPECT_EQ(version, "MySQL 8.0\\x1b[2J\\x1b[Hforged");
  EXPECT_NE(e.message.find("bad\\x1b]0;title\\x07 words"), std::string::npos) << e.message;
  EXPECT_EQ(e.message.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace loadcell::mysql_internal
