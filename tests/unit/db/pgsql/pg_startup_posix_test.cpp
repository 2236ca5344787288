// The native connection's start against a scripted server on 127.0.0.1:
// the startup message, each password method's reply, ParameterStatus and
// BackendKeyData, and the failures (a refused password, a method this
// client lacks, a server that hangs up) as one line without the password.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "db/pgsql/pg_auth.h"
#include "db/pgsql/pg_startup.h"
#include "db/pgsql/pg_wire.h"
#include "testing/pg_messages.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::PgInt32;
using testing::PgMsg;
using testing::PgStr;

std::string Auth(uint32_t code, const std::string& rest = "") {
  return PgMsg('R', PgInt32(code) + rest);
}
std::string Param(const std::string& k, const std::string& v) {
  return PgMsg('S', PgStr(k) + PgStr(v));
}

// One connection's server side, played by `script` on the accepted socket.
class PgScriptedServer {
 public:
  explicit PgScriptedServer(std::function<void(PgScriptedServer&)> script) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    socklen_t len = sizeof(a);
    getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    listen(listener_, 1);
    thread_ = std::thread([this, script] {
      fd_ = accept(listener_, nullptr, nullptr);
      timeval tv{5, 0};
      setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
      script(*this);
      close(fd_);
    });
  }
  ~PgScriptedServer() {
    thread_.join();
    close(listener_);
  }
  uint16_t port() const { return port_; }

  void Send(const std::string& bytes) { (void)send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  // False once the client is gone (a send that timed out is not that).
  bool SendSome(const std::string& bytes) {
    return send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) >= 0 || errno == EAGAIN;
  }
  std::string Read(size_t n) {
    std::string s(n, '\0');
    size_t done = 0;
    while (done < n) {
      const ssize_t got = recv(fd_, s.data() + done, n - done, 0);
      if (got <= 0) return s.substr(0, done);
      done += static_cast<size_t>(got);
    }
    return s;
  }
  uint32_t ReadLength() {
    const std::string b = Read(4);
    if (b.size() < 4) return 4;
    const auto* u = reinterpret_cast<const unsigned char*>(b.data());
    return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
  }
  // The startup message's body (after the length).
  std::string ReadStartup() { return Read(ReadLength() - 4); }
  // A typed message: its type and body.
  std::pair<char, std::string> ReadMessage() {
    const std::string type = Read(1);
    if (type.empty()) return {'\0', ""};
    return {type[0], Read(ReadLength() - 4)};
  }

 private:
  int listener_ = -1;
  int fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
};

PgStartupParams ParamsFor(uint16_t port, const std::string& password = "s3cret-pw") {
  PgStartupParams p;
  p.host = "127.0.0.1";
  p.port = port;
  p.user = "bench";
  p.password = password;
  p.db = "sbtest";
  p.timeout_ms = 5000;
  return p;
}

const std::string kReady = PgMsg('Z', "I");

TEST(PgStartupMessage, NamesUserDatabaseAndApplication) {
  PgStartupParams p = ParamsFor(1);
  const std::string m = PgStartupMessage(p);
  const std::string body = PgInt32(196608) + PgStr("user") + PgStr("bench") + PgStr("database") +
                           PgStr("sbtest") + PgStr("application_name") + PgStr("loadcell") + '\0';
  EXPECT_EQ(m, PgInt32(static_cast<uint32_t>(body.size() + 4)) + body);
}

TEST(PgConnectNative, TrustKeepsParametersAndTheCancelKey) {
  std::string startup;
  PgScriptedServer server([&](PgScriptedServer& s) {
    startup = s.ReadStartup();
    s.Send(Auth(0) + Param("server_version", "16.4") + Param("client_encoding", "UTF8") +
           PgMsg('K', PgInt32(4242) + PgInt32(0x7fff0001)) + kReady);
  });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_OK(session.status());
  EXPECT_EQ(session->Parameter("server_version"), "16.4");
  EXPECT_EQ(session->Parameter("client_encoding"), "UTF8");
  EXPECT_EQ(session->Parameter("missing"), "");
  EXPECT_EQ(session->backend_pid, 4242);
  EXPECT_EQ(session->cancel_key, 0x7fff0001);
  TcpClose(session->socket);
  EXPECT_NE(startup.find(PgStr("user") + PgStr("bench")), std::string::npos);
}

// A server's words reach reports and messages with their control bytes
// escaped: a version with a screen clear and a forged line prints as text.
TEST(PgConnectNative, ParameterValuesAreKeptEscaped) {
  PgScriptedServer server([&](PgScriptedServer& s) {
    s.ReadStartup();
    s.Send(Auth(0) + Param("server_version", "16.4\x1b[2J\x1b[H\nforged") + kReady);
    s.Read(1);
  });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_OK(session.status());
  EXPECT_EQ(session->Parameter("server_version"), "16.4\\x1b[2J\\x1b[H\\x0aforged");
  TcpClose(session->socket);
}

TEST(PgConnectNative, CleartextSendsThePassword) {
  std::pair<char, std::string> reply;
  PgScriptedServer server([&](PgScriptedServer& s) {
    s.ReadStartup();
    s.Send(Auth(3));
    reply = s.ReadMessage();
    s.Send(Auth(0) + kReady);
  });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_OK(session.status());
  TcpClose(session->socket);
  EXPECT_EQ(reply.first, 'p');
  EXPECT_EQ(reply.second, PgStr("s3cret-pw"));
}

TEST(PgConnectNative, Md5SendsTheSaltedHash) {
  std::pair<char, std::string> reply;
  const std::string salt("\x09\x08\x07\x06", 4);
  PgScriptedServer server([&](PgScriptedServer& s) {
    s.ReadStartup();
    s.Send(Auth(5, salt));
    reply = s.ReadMessage();
    s.Send(Auth(0) + kReady);
  });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_OK(session.status());
  TcpClose(session->socket);
  auto expected = PgMd5Response("bench", "s3cret-pw", salt);
  ASSERT_OK(expected.status());
  EXPECT_EQ(reply.first, 'p');
  EXPECT_EQ(reply.second, PgStr(*expected));
}

TEST(PgConnectNative, ARefusedPasswordIsTheServersLineWithoutThePassword) {
  PgScriptedServer server([&](PgScriptedServer& s) {
    s.ReadStartup();
    s.Send(Auth(5, "abcd"));
    s.ReadMessage();
    s.Send(PgMsg('E', PgStr("SFATAL") + PgStr("C28P01") +
                          PgStr("Mpassword authentication failed for user \"bench\"") + '\0'));
  });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_FALSE(session.ok());
  const Status& s = session.status();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_EQ(s.message(), "password authentication failed for user \"bench\" (SQLSTATE 28P01)");
}

// The message of a start refused by the client after the server's
// authentication request `request`, without a password when `password` is
// empty.
std::string RefusedAfter(const std::string& request, const std::string& password = "pw") {
  PgScriptedServer server([&](PgScriptedServer& s) {
    s.ReadStartup();
    s.Send(request);
    s.Read(1);  // until the client hangs up
  });
  auto session = PgConnectNative(ParamsFor(server.port(), password));
  if (session.ok()) {
    TcpClose(session->socket);
    return "(connected)";
  }
  EXPECT_EQ(session.status().code(), StatusCode::kUnavailable);
  return session.status().message();
}

TEST(PgConnectNative, RefusesWhatItCannotAnswer) {
  EXPECT_NE(RefusedAfter(Auth(7)).find("GSSAPI"), std::string::npos);
  EXPECT_NE(RefusedAfter(Auth(10, PgStr("SCRAM-SHA-256-PLUS") + '\0')).find("channel binding"),
            std::string::npos);
  EXPECT_NE(RefusedAfter(Auth(10, PgStr("SCRAM-SHA-256") + '\0'), "").find("--pgsql-password"),
            std::string::npos);
}

TEST(PgConnectNative, AServerThatHangsUpMidStart) {
  PgScriptedServer server([&](PgScriptedServer& s) { s.ReadStartup(); });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(session.status().message().find("closed"), std::string::npos)
      << session.status().ToString();
}

// The SCRAM exchange's messages in order, with the server's side computed
// by the test from the client's nonce (the RFC 7677 salt and count).
// A start that never ends or costs without bound ends within the connect
// limit (1 s here: the whole start, not each wait), or at once at a bound,
// in one line. A client that took each byte's arrival as a new start would
// hang here until the server's 5 s socket limit.
TEST(PgConnectNative, AHostileStartEndsWithinTheConnectLimitOrAtItsBound) {
  const std::string notice = PgMsg('N', PgStr("SNOTICE") + PgStr("Mhello") + '\0');
  struct Case {
    const char* name;
    std::string unit;  // sent again and again after the startup message
    size_t chunk;      // bytes per send
    int pause_ms;
    const char* message_has;
    double at_least_s;  // a deadline is not met early
  };
  const Case cases[] = {
      {"endless NoticeResponse", notice, 64 * 1024, 0, "within 1000 ms (--db-connect-timeout)",
       0.9},
      {"one byte per 100 ms", notice, 1, 100, "within 1000 ms (--db-connect-timeout)", 0.9},
      {"endless ParameterStatus", Param("a", "b"), 64 * 1024, 0, "more than 1000 ParameterStatus",
       0},
      {"SCRAM with 2^31-1 iterations", "", 0, 0, "--pgsql-scram-max-iterations=100000", 0},
      {"a message claiming more than 1 MiB", "N" + PgInt32((1 << 20) + 1) + "x", 6, 100,
       "a message 'N' of 1048577 bytes at the start (more than 1048576, a fixed limit", 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::atomic<bool> stop{false};
    PgScriptedServer server([&](PgScriptedServer& s) {
      s.ReadStartup();
      if (c.chunk == 0) {  // SCRAM: the server-first message asks for 2^31-1 rounds
        s.Send(Auth(10, PgStr("SCRAM-SHA-256") + '\0'));
        const std::string initial = s.ReadMessage().second;
        const size_t r = initial.find("r=");
        if (r == std::string::npos) return;
        s.Send(
            Auth(11, "r=" + initial.substr(r + 2) + "X,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=2147483647"));
        s.Read(1);
        return;
      }
      std::string stream;
      while (stream.size() < c.chunk) stream += c.unit;
      for (size_t at = 0; !stop.load();) {
        const size_t n = std::min(c.chunk, stream.size() - at);
        if (!s.SendSome(stream.substr(at, n))) return;
        at = (at + n) % stream.size();
        if (c.pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(c.pause_ms));
      }
    });
    PgStartupParams p = ParamsFor(server.port());
    p.timeout_ms = 1000;
    const auto started = std::chrono::steady_clock::now();
    auto session = PgConnectNative(p);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    stop = true;
    if (session.ok()) TcpClose(session->socket);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.status().code(), StatusCode::kUnavailable);
    EXPECT_NE(session.status().message().find(c.message_has), std::string::npos)
        << session.status().ToString();
    EXPECT_GE(took, c.at_least_s);
    EXPECT_LT(took, 3.5);
  }
}

TEST(PgConnectNative, ScramSendsInitialResponseThenProof) {
  std::string initial;
  std::string proof_message;
  bool signature_sent = false;
  PgScriptedServer server([&](PgScriptedServer& s) {
    s.ReadStartup();
    s.Send(Auth(10, PgStr("SCRAM-SHA-256") + '\0'));
    initial = s.ReadMessage().second;
    // "SCRAM-SHA-256\0" + length + "n,,n=,r=NONCE"
    const size_t r = initial.find("r=");
    if (r == std::string::npos) return;
    const std::string client_nonce = initial.substr(r + 2);
    const std::string server_first =
        "r=" + client_nonce + "SERVERPART,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    s.Send(Auth(11, server_first));
    proof_message = s.ReadMessage().second;
    // The signature the client expects: its own computation replayed.
    PgScramClient replay("", client_nonce);
    auto expected = replay.ClientFinal(server_first, "s3cret-pw");
    if (!expected.ok() || *expected != proof_message) {
      s.Send(PgMsg('E', PgStr("SFATAL") + PgStr("C28P01") + PgStr("Mbad proof") + '\0'));
      return;
    }
    signature_sent = true;
    // A wrong signature: the client must refuse the server.
    s.Send(Auth(12, "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="));
    s.Read(1);
  });
  auto session = PgConnectNative(ParamsFor(server.port()));
  ASSERT_FALSE(session.ok());
  EXPECT_TRUE(signature_sent) << session.status().ToString();
  EXPECT_NE(session.status().message().find("signature"), std::string::npos)
      << session.status().ToString();
  EXPECT_EQ(initial.rfind(PgStr("SCRAM-SHA-256"), 0), 0u);
  EXPECT_NE(initial.find("n,,n=,r="), std::string::npos);
  EXPECT_EQ(proof_message.rfind("c=biws,r=", 0), 0u);
}

// --pgsql-scram-max-iterations is the cap to raise for a server the user
// trusts: a count above the default but within the option goes ahead to
// the proof, and the default refuses it before any PBKDF2 round.
TEST(PgConnectNative, ARaisedScramCapLetsTheLoginGoOnPastIt) {
  for (const uint32_t cap : {250'000U, 100'000U}) {
    SCOPED_TRACE(cap);
    std::string proof_message;
    PgScriptedServer server([&](PgScriptedServer& s) {
      s.ReadStartup();
      s.Send(Auth(10, PgStr("SCRAM-SHA-256") + '\0'));
      const std::string initial = s.ReadMessage().second;
      const size_t r = initial.find("r=");
      if (r == std::string::npos) return;
      const std::string client_nonce = initial.substr(r + 2);
      const std::string server_first =
          "r=" + client_nonce + "SERVERPART,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=200000";
      s.Send(Auth(11, server_first));
      const auto [type, body] = s.ReadMessage();
      if (type != 'p') return;
      proof_message = body;
      PgScramClient replay("", client_nonce, cap);
      auto expected = replay.ClientFinal(server_first, "s3cret-pw");
      if (!expected.ok() || *expected != proof_message) return;
      s.Send(PgMsg('E', PgStr("SFATAL") + PgStr("C28000") + PgStr("Mthe proof came") + '\0'));
    });
    PgStartupParams p = ParamsFor(server.port());
    p.max_scram_iterations = cap;
    auto session = PgConnectNative(p);
    if (session.ok()) TcpClose(session->socket);
    ASSERT_FALSE(session.ok());
    if (cap > 200'000) {
      // Past the SCRAM step: the right proof was sent, and the server's answer is the line.
      EXPECT_EQ(proof_message.rfind("c=biws,r=", 0), 0u) << proof_message;
      EXPECT_NE(session.status().message().find("the proof came"), std::string::npos)
          << session.status().ToString();
    } else {
      EXPECT_EQ(proof_message, "");
      EXPECT_NE(session.status().message().find(
                    "200000 PBKDF2 iterations, more than --pgsql-scram-max-iterations=100000"),
                std::string::npos)
          << session.status().ToString();
    }
  }
}

}  // namespace
}  // namespace loadcell
