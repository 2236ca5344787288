#include "db/mysql/mysql_handshake.h"

#include <fmt/format.h>

#include <algorithm>

#include "db/mysql/mysql_wire.h"
#include "os/crypto.h"

namespace loadcell {
namespace {

constexpr uint32_t kMaxPacket = 1U << 24;
constexpr int kClientAuthPluginError = 2059;  // CR_AUTH_PLUGIN_CANNOT_LOAD
constexpr int kClientMalformed = 2027;        // CR_MALFORMED_PACKET
constexpr int kClientServerLost = 2013;       // CR_SERVER_LOST
constexpr int kClientAuthSecure = 2061;       // CR_AUTH_PLUGIN_ERR: needs a secure connection

// The NUL-terminated string at p[i] (to the end when there is no NUL); `i`
// moves past its NUL.
std::string_view CString(std::string_view p, size_t& i) {
  const size_t end = p.find('\0', i);
  const size_t stop = end == std::string_view::npos ? p.size() : end;
  std::string_view s = p.substr(i, stop - i);
  i = end == std::string_view::npos ? p.size() : end + 1;
  return s;
}

std::string Xor(std::string_view a, std::string_view b) {
  std::string out(a);
  for (size_t k = 0; k < out.size() && !b.empty(); ++k) {
    out[k] = static_cast<char>(out[k] ^ b[k % b.size()]);
  }
  return out;
}

bool Fail(MyLoginError& err, int code, std::string message) {
  err.code = code;
  err.message = std::move(message);
  return false;
}

// The first answer of `plugin` to `scramble`; false (with `err`) for a
// plugin the connector does not speak.
bool FirstAnswer(std::string_view plugin, const MyLogin& login, std::string_view scramble,
                 std::string& answer, MyLoginError& err) {
  if (plugin != kMyNativePassword && plugin != kMyCachingSha2) {
    return Fail(err, kClientAuthPluginError,
                fmt::format("the server asks for the authentication plugin '{}', which "
                            "loadcell's own client does not speak (it speaks {} and {}): "
                            "authenticate user {} with one of those{}",
                            plugin, kMyNativePassword, kMyCachingSha2, login.user,
                            plugin == "client_ed25519" ? " (ALTER USER ... IDENTIFIED VIA "
                                                         "mysql_native_password USING ...)"
                                                       : ""));
  }
  Result<std::string> r = plugin == kMyNativePassword
                              ? MyNativePasswordScramble(login.password, scramble)
                              : MyCachingSha2Scramble(login.password, scramble);
  if (!r.ok()) return Fail(err, kClientAuthPluginError, r.status().message());
  answer = std::move(r).value();
  return true;
}

// caching_sha2_password asked for the password itself (its cache does not
// hold the user): without TLS, encrypted to an RSA public key. The key is the
// one the user gave, or the server's own only when the user said to trust it:
// a server that is not the one meant could send its key and read the password.
bool FullAuthentication(MyPacketChannel& ch, const MyLogin& login, std::string_view scramble,
                        MyLoginError& err) {
  if (login.password.empty()) {
    return ch.Write(std::string_view("\0", 1)) ||
           Fail(err, kClientServerLost, "lost the connection at login");
  }
  const std::string refusal = fmt::format(
      "the server needs caching_sha2_password's full authentication for user {}, which over "
      "an unencrypted connection needs the server's RSA public key",
      login.user);
  const char* advice =
      "enable TLS (--db-connector=library --mysql-ssl=on, Linux) or authenticate the user with "
      "mysql_native_password";
  std::string pem = login.trusted_key_pem;
  if (pem.empty()) {
    if (!login.get_server_key) {
      return Fail(err, kClientAuthSecure,
                  fmt::format("{}: give it with --mysql-server-public-key=FILE, or allow the "
                              "server to send it with --mysql-get-server-public-key=on (only "
                              "for a server you trust: the password is encrypted to that key), "
                              "or {}",
                              refusal, advice));
    }
    if (!ch.Write("\x02")) return Fail(err, kClientServerLost, "lost the connection at login");
    std::string_view p;
    if (!ch.Read(p)) return Fail(err, kClientServerLost, "lost the connection at login");
    if (!p.empty() && static_cast<unsigned char>(p[0]) == 0xFF) {
      MyServerError e;
      const std::string words =
          MyParseErrPacket(p, e) ? std::string(e.message) : std::string("an error");
      return Fail(err, kClientAuthSecure,
                  fmt::format("{}, and it answered: {}: {}", refusal, words, advice));
    }
    if (p.size() < 2 || p[0] != '\x01' ||
        p.substr(1).find("-----BEGIN") == std::string_view::npos) {
      return Fail(err, kClientAuthSecure, fmt::format("{}, and it sent none: {}", refusal, advice));
    }
    pem.assign(p.substr(1));
  }
  Result<std::string> sealed = MyCachingSha2Encrypted(pem, login.password, scramble);
  if (!sealed.ok()) {
    return Fail(err, kClientAuthSecure,
                fmt::format("{}: {}: {}", refusal, sealed.status().message(), advice));
  }
  return ch.Write(*sealed) || Fail(err, kClientServerLost, "lost the connection at login");
}

}  // namespace

bool MyParseServerHello(std::string_view p, MyServerHello& out, std::string& why) {
  if (p.empty() || p[0] != 10) {
    why = p.empty() ? "an empty handshake"
                    : fmt::format("handshake protocol {}, not 10",
                                  static_cast<int>(static_cast<unsigned char>(p[0])));
    return false;
  }
  size_t i = 1;
  out.server_version = std::string(CString(p, i));
  if (i + 4 + 8 + 1 + 2 > p.size()) {
    why = "a handshake cut short";
    return false;
  }
  out.connection_id = static_cast<uint32_t>(MyU16(p, i)) | static_cast<uint32_t>(MyU16(p, i + 2))
                                                               << 16;
  i += 4;
  out.scramble.assign(p.substr(i, 8));
  i += 9;  // and the filler
  out.capabilities = MyU16(p, i);
  i += 2;
  size_t data_len = 0;
  if (i + 16 <= p.size()) {
    out.charset = static_cast<uint8_t>(p[i]);
    out.status = MyU16(p, i + 1);
    out.capabilities |= static_cast<uint64_t>(MyU16(p, i + 3)) << 16;
    data_len = static_cast<unsigned char>(p[i + 5]);
    i += 16;  // and the 10 reserved bytes
  }
  if ((out.capabilities & kMyClientProtocol41) == 0) {
    why = "the server speaks a protocol older than 4.1";
    return false;
  }
  if ((out.capabilities & kMyClientSecureConnection) != 0) {
    const size_t n = data_len > 8 ? std::max<size_t>(13, data_len - 8) : 13;
    std::string_view part2 = p.substr(std::min(i, p.size()), n);
    i += part2.size();
    if (!part2.empty() && part2.back() == '\0') part2.remove_suffix(1);
    out.scramble.append(part2);
  }
  out.auth_plugin.clear();
  if ((out.capabilities & kMyClientPluginAuth) != 0 && i < p.size()) {
    out.auth_plugin = std::string(CString(p, i));
  }
  return true;
}

uint64_t MyNativeClientFlags(uint64_t server, bool with_db) {
  uint64_t want = kMyClientLongPassword | kMyClientLongFlag | kMyClientLocalFiles |
                  kMyClientProtocol41 | kMyClientTransactions | kMyClientSecureConnection |
                  kMyClientMultiResults | kMyClientPsMultiResults | kMyClientPluginAuth |
                  kMyClientPluginAuthLenencData;
  if (with_db) want |= kMyClientConnectWithDb;
  return want & server;
}

std::string MyBuildHandshakeResponse(const MyHelloReply& r) {
  std::string o;
  MyPutInt(o, r.flags & 0xFFFFFFFFU, 4);
  MyPutInt(o, kMaxPacket, 4);
  o += static_cast<char>(kMyUtf8mb4GeneralCi);
  o.append(23, '\0');
  o.append(r.user);
  o += '\0';
  if ((r.flags & kMyClientPluginAuthLenencData) != 0) {
    MyPutLenEnc(o, r.auth_response.size());
  } else {
    o += static_cast<char>(r.auth_response.size());
  }
  o.append(r.auth_response);
  if ((r.flags & kMyClientConnectWithDb) != 0) {
    o.append(r.db);
    o += '\0';
  }
  if ((r.flags & kMyClientPluginAuth) != 0) {
    o.append(r.plugin);
    o += '\0';
  }
  return o;
}

Result<std::string> MyNativePasswordScramble(std::string_view password, std::string_view scramble) {
  if (password.empty()) return std::string();
  LC_ASSIGN_OR_RETURN(std::string h1, crypto::Sha1(password));
  LC_ASSIGN_OR_RETURN(std::string h2, crypto::Sha1(h1));
  LC_ASSIGN_OR_RETURN(std::string h3, crypto::Sha1(std::string(scramble) + h2));
  return Xor(h1, h3);
}

Result<std::string> MyCachingSha2Scramble(std::string_view password, std::string_view scramble) {
  if (password.empty()) return std::string();
  LC_ASSIGN_OR_RETURN(std::string h1, crypto::Sha256(password));
  LC_ASSIGN_OR_RETURN(std::string h2, crypto::Sha256(h1));
  LC_ASSIGN_OR_RETURN(std::string h3, crypto::Sha256(h2 + std::string(scramble)));
  return Xor(h1, h3);
}

Result<std::string> MyCachingSha2Encrypted(std::string_view pem, std::string_view password,
                                           std::string_view scramble) {
  std::string plain(password);
  plain += '\0';
  return crypto::RsaOaepEncrypt(pem, Xor(plain, scramble));
}

bool MyLogIn(MyPacketChannel& ch, const MyServerHello& hello, uint64_t flags, const MyLogin& login,
             MyLoginError& err) {
  // A plugin the server names but we do not speak is answered as
  // mysql_native_password: the server then switches to the user's own.
  std::string plugin(hello.auth_plugin);
  if (plugin != kMyCachingSha2) plugin = kMyNativePassword;
  std::string scramble = hello.scramble;
  MyHelloReply reply{flags, login.user, {}, login.db, plugin};
  if (!FirstAnswer(plugin, login, scramble, reply.auth_response, err)) return false;
  if (!ch.Write(MyBuildHandshakeResponse(reply))) {
    return Fail(err, kClientServerLost, "lost the connection at login");
  }
  for (int round = 0; round < 8; ++round) {
    std::string_view p;
    if (!ch.Read(p)) return Fail(err, kClientServerLost, "lost the connection at login");
    const int head = p.empty() ? -1 : static_cast<unsigned char>(p[0]);
    if (head == 0x00) return true;
    if (head == 0xFF) {
      MyServerError e;
      if (!MyParseErrPacket(p, e)) return Fail(err, kClientMalformed, "a malformed ERR packet");
      return Fail(err, e.code, std::string(e.message));
    }
    if (head == 0xFE) {  // AuthSwitchRequest: plugin NUL data
      if (p.size() == 1) {
        return Fail(err, kClientAuthPluginError,
                    "the server asks for the pre-4.1 password scramble "
                    "(mysql_old_password), which loadcell's own client does not speak");
      }
      size_t i = 1;
      plugin = std::string(CString(p, i));
      std::string_view data = p.substr(i);
      if (!data.empty() && data.back() == '\0') data.remove_suffix(1);
      scramble.assign(data);
      std::string answer;
      if (!FirstAnswer(plugin, login, scramble, answer, err)) return false;
      if (!ch.Write(answer)) return Fail(err, kClientServerLost, "lost the connection at login");
      continue;
    }
    if (head == 0x01 && plugin == kMyCachingSha2 && p.size() == 2) {
      if (p[1] == '\x03') continue;  // fast authentication succeeded: the OK follows
      if (p[1] == '\x04') {
        if (!FullAuthentication(ch, login, scramble, err)) return false;
        continue;
      }
    }
    return Fail(err, kClientMalformed,
                fmt::format("an unexpected packet at login (first byte {:#04x})", head));
  }
  return Fail(err, kClientMalformed, "the login did not end after 8 exchanges");
}

}  // namespace loadcell
