// The native connector's login without a server: the handshake it parses,
// the HandshakeResponse41 it sends, the scrambles of both auth plugins
// (known answers computed independently), and the exchanges of MyLogIn
// against a scripted server: OK, ERR, auth switch, caching_sha2_password's
// fast path and its full authentication with the server's RSA key (the
// ciphertext's length here; its plaintext in mysql_native_posix_test), and
// the plugins it refuses, by name. No client library header: these run in
// the Windows build too.

#include "db/mysql/mysql_handshake.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "db/mysql/mysql_wire.h"
#include "testing/status.h"
#include "unit/os/rsa_test_key.h"

namespace loadcell {
namespace {

const std::string kScramble = "0123456789abcdefghij";

std::string Hex(std::string_view s) {
  std::string out;
  for (unsigned char c : s) out += fmt::format("{:02x}", c);
  return out;
}

// A MariaDB 10.11 style handshake: protocol 10, the "5.5.5-" version,
// the scramble in two parts, `plugin` named.
std::string Hello(std::string_view plugin = "mysql_native_password",
                  uint32_t caps = 0xF7FE | (0x81BFU << 16)) {
  std::string p;
  p += '\x0A';
  p += "5.5.5-10.11.19-MariaDB";
  p += '\0';
  MyPutInt(p, 42, 4);
  p += kScramble.substr(0, 8);
  p += '\0';
  MyPutInt(p, caps & 0xFFFF, 2);
  p += static_cast<char>(45);
  MyPutInt(p, 2, 2);  // status: autocommit
  MyPutInt(p, caps >> 16, 2);
  p += static_cast<char>(21);  // scramble length + NUL
  p.append(10, '\0');
  p += kScramble.substr(8);
  p += '\0';
  p += plugin;
  p += '\0';
  return p;
}

MyServerHello Parsed(const std::string& packet) {
  MyServerHello h;
  std::string why;
  EXPECT_TRUE(MyParseServerHello(packet, h, why)) << why;
  return h;
}

TEST(MyServerHelloTest, ReadsTheVersionTheIdTheWholeScrambleAndThePlugin) {
  const MyServerHello h = Parsed(Hello());
  EXPECT_EQ(h.server_version, "5.5.5-10.11.19-MariaDB");
  EXPECT_EQ(h.connection_id, 42u);
  EXPECT_EQ(h.scramble, kScramble);
  EXPECT_EQ(h.auth_plugin, "mysql_native_password");
  EXPECT_EQ(h.charset, 45);
  EXPECT_NE(h.capabilities & kMyClientPluginAuth, 0u);
  EXPECT_NE(h.capabilities & kMyClientProtocol41, 0u);
}

TEST(MyServerHelloTest, RefusesOtherProtocolsAndShortPackets) {
  MyServerHello h;
  std::string why;
  EXPECT_FALSE(MyParseServerHello("\x09version", h, why));
  EXPECT_NE(why.find("protocol 9"), std::string::npos) << why;
  EXPECT_FALSE(MyParseServerHello(std::string("\x0Av\0\x01\x02", 5), h, why));
  EXPECT_NE(why.find("cut short"), std::string::npos) << why;
  EXPECT_FALSE(MyParseServerHello(Hello("x", 0xF7FE & ~0x200U), h, why));
  EXPECT_NE(why.find("4.1"), std::string::npos) << why;
}

TEST(MyNativeClientFlagsTest, NeverTlsCompressionNorDeprecateEofAndTheDbOnlyWhenGiven) {
  const uint64_t all = 0xFFFFFFFF;
  const uint64_t f = MyNativeClientFlags(all, false);
  EXPECT_EQ(f & (kMyClientSsl | kMyClientCompress | kMyClientZstdCompression), 0u);
  EXPECT_EQ(f & kMyClientDeprecateEof, 0u);
  EXPECT_EQ(f & kMyClientConnectWithDb, 0u);
  EXPECT_NE(MyNativeClientFlags(all, true) & kMyClientConnectWithDb, 0u);
  EXPECT_NE(f & kMyClientLocalFiles, 0u);
  // Only what the server offers; and the statement path's own check passes.
  EXPECT_EQ(MyNativeClientFlags(kMyClientProtocol41, true), kMyClientProtocol41);
  EXPECT_EQ(MyOwnPathObstacle(f, all, false), nullptr);
}

TEST(MyBuildHandshakeResponseTest, LaysOutFlagsUserScrambleDatabaseAndPlugin) {
  MyHelloReply r;
  r.flags = kMyClientProtocol41 | kMyClientSecureConnection | kMyClientPluginAuth |
            kMyClientPluginAuthLenencData | kMyClientConnectWithDb;
  r.user = "bench";
  r.auth_response = "\x01\x02\x03";
  r.db = "sbtest";
  r.plugin = "mysql_native_password";
  const std::string p = MyBuildHandshakeResponse(r);
  std::string want;
  MyPutInt(want, r.flags, 4);
  MyPutInt(want, 1U << 24, 4);
  want += static_cast<char>(45);
  want.append(23, '\0');
  want += std::string("bench\0", 6) + "\x03\x01\x02\x03" + std::string("sbtest\0", 7) +
          std::string("mysql_native_password\0", 22);
  EXPECT_EQ(Hex(p), Hex(want));
}

TEST(MyScrambleTest, BothPluginsMatchTheirKnownAnswers) {
  Result<std::string> native = MyNativePasswordScramble("bench-pass", kScramble);
  ASSERT_OK(native);
  EXPECT_EQ(Hex(*native), "b9ff1a48cfe13cf3d22f1ef0d06db77408ee5b29");
  Result<std::string> sha2 = MyCachingSha2Scramble("bench-pass", kScramble);
  ASSERT_OK(sha2);
  EXPECT_EQ(Hex(*sha2), "898b1ee12eb7716627e38bb796e3f8f42cb4071d1a509d996126d4b1be19d137");
  // An empty password sends nothing, for both.
  EXPECT_EQ(MyNativePasswordScramble("", kScramble).value(), "");
  EXPECT_EQ(MyCachingSha2Scramble("", kScramble).value(), "");
}

// The server's side: its packets in order, the client's recorded.
class MyScriptedServer final : public MyPacketChannel {
 public:
  explicit MyScriptedServer(std::vector<std::string> replies) : replies_(std::move(replies)) {}
  bool Read(std::string_view& payload) override {
    if (next_ >= replies_.size()) return false;
    payload = replies_[next_++];
    return true;
  }
  bool Write(std::string_view payload) override {
    written.emplace_back(payload);
    return true;
  }
  std::vector<std::string> written;

 private:
  std::vector<std::string> replies_;
  size_t next_ = 0;
};

const std::string kOk("\x00\x00\x00\x02\x00\x00\x00", 7);
const MyLogin kLogin{"bench", "bench-pass", "sbtest", "", false};
// The user allowed the server to send its key (--mysql-get-server-public-key).
const MyLogin kLoginTrustingServerKey{"bench", "bench-pass", "sbtest", "", true};

std::string Err(int code, std::string_view state, std::string_view text) {
  std::string p = "\xFF";
  MyPutInt(p, static_cast<uint64_t>(code), 2);
  return p + "#" + std::string(state) + std::string(text);
}

std::string Switch(std::string_view plugin) {
  return "\xFE" + std::string(plugin) + '\0' + kScramble + '\0';
}

uint64_t Flags() { return MyNativeClientFlags(Parsed(Hello()).capabilities, true); }

TEST(MyLogInTest, NativePasswordSendsItsScrambleAndEndsAtTheOk) {
  MyScriptedServer server({kOk});
  MyLoginError err;
  ASSERT_TRUE(MyLogIn(server, Parsed(Hello()), Flags(), kLogin, err)) << err.message;
  ASSERT_EQ(server.written.size(), 1u);
  const std::string& r = server.written[0];
  EXPECT_NE(r.find(std::string("bench\0\x14", 7) +
                   MyNativePasswordScramble("bench-pass", kScramble).value()),
            std::string::npos);
  EXPECT_NE(r.find(std::string("sbtest\0mysql_native_password\0", 29)), std::string::npos);
}

TEST(MyLogInTest, TheServersErrIsTheFailureWithItsCodeAndWords) {
  MyScriptedServer server({Err(1045, "28000", "Access denied for user 'bench'@'localhost'")});
  MyLoginError err;
  EXPECT_FALSE(MyLogIn(server, Parsed(Hello()), Flags(), kLogin, err));
  EXPECT_EQ(err.code, 1045);
  EXPECT_EQ(err.message, "Access denied for user 'bench'@'localhost'");
}

TEST(MyLogInTest, AnAuthSwitchToCachingSha2TakesTheFastPath) {
  MyScriptedServer server({Switch("caching_sha2_password"), "\x01\x03", kOk});
  MyLoginError err;
  ASSERT_TRUE(MyLogIn(server, Parsed(Hello()), Flags(), kLogin, err)) << err.message;
  ASSERT_EQ(server.written.size(), 2u);
  EXPECT_EQ(server.written[1], MyCachingSha2Scramble("bench-pass", kScramble).value());
}

TEST(MyLogInTest, FullAuthenticationAsksForTheKeyAndSendsThePasswordEncrypted) {
  MyScriptedServer server(
      {"\x01\x04", std::string("\x01") + crypto::testing::kTestPublicKeyPem, kOk});
  MyLoginError err;
  ASSERT_TRUE(MyLogIn(server, Parsed(Hello("caching_sha2_password")), Flags(),
                      kLoginTrustingServerKey, err))
      << err.message;
  ASSERT_EQ(server.written.size(), 3u);
  EXPECT_NE(server.written[0].find("caching_sha2_password"), std::string::npos);
  EXPECT_EQ(server.written[1], "\x02");            // the public key, please
  EXPECT_EQ(server.written[2].size(), 2048u / 8);  // RSA-OAEP under a 2048-bit key
  EXPECT_EQ(server.written[2].find("bench-pass"), std::string::npos);
}

TEST(MyLogInTest, FullAuthenticationWithoutTheServersKeySaysToEnableTls) {
  for (const std::string& answer :
       {Err(1045, "28000", "Access denied: no RSA key"), std::string("\x01\x04")}) {
    MyScriptedServer server({"\x01\x04", answer});
    MyLoginError err;
    EXPECT_FALSE(MyLogIn(server, Parsed(Hello("caching_sha2_password")), Flags(),
                         kLoginTrustingServerKey, err));
    EXPECT_NE(err.message.find("RSA public key"), std::string::npos) << err.message;
    EXPECT_NE(err.message.find("enable TLS"), std::string::npos) << err.message;
    EXPECT_EQ(err.message.find('\n'), std::string::npos);
  }
}

// Full authentication over plaintext: whose key the password is encrypted
// to. Without the user's word the password never leaves, not even
// encrypted, and the server is not asked for a key; with a key file it goes
// to that key without asking.
TEST(MyLogInTest, FullAuthenticationSendsThePasswordOnlyToAKeyTheUserTrusts) {
  struct Case {
    const char* name;
    MyLogin login;
    bool ok;
    std::vector<std::string> written_after_response;  // "" stands for "the 256 sealed bytes"
    const char* message_has;
  };
  const std::string server_key = std::string("\x01") + crypto::testing::kTestPublicKeyPem;
  const Case cases[] = {
      {"no option: refused, nothing sent", kLogin, false, {}, "--mysql-get-server-public-key=on"},
      {"no option: names the key file option", kLogin, false, {}, "--mysql-server-public-key=FILE"},
      {"get-server-public-key: asks, then seals", kLoginTrustingServerKey, true, {"\x02", ""}, ""},
      {"key file: seals without asking",
       MyLogin{"bench", "bench-pass", "sbtest", crypto::testing::kTestPublicKeyPem, false},
       true,
       {""},
       ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const bool asks = c.written_after_response.size() == 2;
    std::vector<std::string> replies = {"\x01\x04"};
    if (asks) replies.push_back(server_key);
    replies.push_back(kOk);
    MyScriptedServer server(replies);
    MyLoginError err;
    EXPECT_EQ(MyLogIn(server, Parsed(Hello("caching_sha2_password")), Flags(), c.login, err), c.ok)
        << err.message;
    ASSERT_EQ(server.written.size(), 1 + c.written_after_response.size());
    for (size_t k = 0; k < c.written_after_response.size(); ++k) {
      const std::string& want = c.written_after_response[k];
      if (want.empty()) {
        EXPECT_EQ(server.written[1 + k].size(), 2048u / 8);
      } else {
        EXPECT_EQ(server.written[1 + k], want);
      }
    }
    for (const std::string& w : server.written) {
      EXPECT_EQ(w.find("bench-pass"), std::string::npos);
    }
    if (!c.ok) {
      EXPECT_EQ(err.code, 2061);
      EXPECT_NE(err.message.find(c.message_has), std::string::npos) << err.message;
      EXPECT_EQ(err.message.find('\n'), std::string::npos);
    }
  }
}

TEST(MyLogInTest, PluginsItDoesNotSpeakAreRefusedByName) {
  for (const std::string plugin : {"client_ed25519", "sha256_password", "dialog"}) {
    MyScriptedServer server({Switch(plugin)});
    MyLoginError err;
    EXPECT_FALSE(MyLogIn(server, Parsed(Hello()), Flags(), kLogin, err));
    EXPECT_NE(err.message.find("'" + plugin + "'"), std::string::npos) << err.message;
    EXPECT_EQ(err.message.find("bench-pass"), std::string::npos);
  }
  MyScriptedServer old({"\xFE"});
  MyLoginError err;
  EXPECT_FALSE(MyLogIn(old, Parsed(Hello()), Flags(), kLogin, err));
  EXPECT_NE(err.message.find("mysql_old_password"), std::string::npos) << err.message;
}

TEST(MyLogInTest, AnUnknownFirstPluginIsAnsweredAsNativeForTheServerToSwitch) {
  MyScriptedServer server({Switch("mysql_native_password"), kOk});
  MyLoginError err;
  ASSERT_TRUE(MyLogIn(server, Parsed(Hello("client_ed25519")), Flags(), kLogin, err))
      << err.message;
  EXPECT_NE(server.written[0].find("mysql_native_password"), std::string::npos);
}

TEST(MyLogInTest, AServerThatHangsUpIsALostConnection) {
  MyScriptedServer server({});
  MyLoginError err;
  EXPECT_FALSE(MyLogIn(server, Parsed(Hello()), Flags(), kLogin, err));
  EXPECT_EQ(err.code, 2013);
}

}  // namespace
}  // namespace loadcell
