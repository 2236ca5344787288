#pragma once
// The connection phase of loadcell's own MySQL client (the native
// connector): the server's initial handshake (protocol 10), the client's
// HandshakeResponse41, the auth plugins mysql_native_password and
// caching_sha2_password (its fast path, and its full authentication over an
// unencrypted connection with the server's RSA public key), and
// AuthSwitchRequest. Pure protocol over a MyPacketChannel, so that tests
// play the server with scripted packets. Hashes and RSA through os/crypto.h.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

// The server's initial handshake (protocol version 10).
struct MyServerHello {
  std::string server_version;  // as sent ("5.5.5-10.11.6-MariaDB-..." for MariaDB)
  uint32_t connection_id = 0;
  uint64_t capabilities = 0;  // the 32 standard bits
  uint8_t charset = 0;
  uint16_t status = 0;
  std::string scramble;     // auth-plugin-data, 20 bytes (the trailing NUL left out)
  std::string auth_plugin;  // the plugin of the scramble; "" when the server names none
};

// Parses the handshake `p`; false with `why` in words when it is not one of
// protocol 10 with the 4.1 protocol (an ERR packet is the caller's to read).
bool MyParseServerHello(std::string_view p, MyServerHello& out, std::string& why);

// The capability flags the native connector asks for of a server that
// offers `server`: the 4.1 protocol with EOF packets (what the statement
// path of mysql_wire.h reads), LOAD DATA LOCAL, multi-results, plugin
// authentication, the schema in the handshake when `with_db`; never TLS,
// compression or CLIENT_DEPRECATE_EOF. Only flags the server has.
uint64_t MyNativeClientFlags(uint64_t server, bool with_db);

// The connector's character set: utf8mb4 (utf8mb4_general_ci, 45).
inline constexpr uint8_t kMyUtf8mb4GeneralCi = 45;
inline constexpr std::string_view kMyNativeCharset = "utf8mb4";

struct MyHelloReply {
  uint64_t flags = 0;
  std::string user;
  std::string auth_response;
  std::string db;      // sent when flags has CLIENT_CONNECT_WITH_DB
  std::string plugin;  // sent when flags has CLIENT_PLUGIN_AUTH
};

// The HandshakeResponse41 payload (no header) of `r`.
std::string MyBuildHandshakeResponse(const MyHelloReply& r);

inline constexpr std::string_view kMyNativePassword = "mysql_native_password";
inline constexpr std::string_view kMyCachingSha2 = "caching_sha2_password";

// mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); empty
// for an empty password.
Result<std::string> MyNativePasswordScramble(std::string_view password, std::string_view scramble);
// caching_sha2_password's fast path: SHA256(pw) XOR
// SHA256(SHA256(SHA256(pw)) + scramble); empty for an empty password.
Result<std::string> MyCachingSha2Scramble(std::string_view password, std::string_view scramble);
// caching_sha2_password's full authentication without TLS: (pw + NUL)
// XOR the scramble (repeated), encrypted with RSA-OAEP under the server's
// public key `pem`.
Result<std::string> MyCachingSha2Encrypted(std::string_view pem, std::string_view password,
                                           std::string_view scramble);

// The two sides of a packet exchange in lockstep: each packet carries the
// next sequence id (the server's handshake is 0, the client's reply 1, ...).
class MyPacketChannel {
 public:
  virtual ~MyPacketChannel() = default;
  // The next packet's payload, valid until the next call; false when the
  // connection ended or failed.
  virtual bool Read(std::string_view& payload) = 0;
  // Sends `payload` as one packet; false when the connection failed.
  virtual bool Write(std::string_view payload) = 0;
};

// Why a login failed: the server's ERR (its code and message) or the
// client's own (a CR_* code and words).
struct MyLoginError {
  int code = 0;
  std::string message;
};

struct MyLogin {
  std::string user;
  std::string password;
  std::string db;  // "" none
  // caching_sha2_password's full authentication over plaintext: the PEM
  // public key the user trusts (--mysql-server-public-key), or, when that is
  // empty, whether the server may send its own (--mysql-get-server-public-key).
  // With neither the password is not sent and the login fails saying so.
  std::string trusted_key_pem;
  bool get_server_key = false;
};

// Logs in after `hello` was read from `ch`: sends the HandshakeResponse41
// and answers the server (auth switch, caching_sha2_password's requests)
// until its OK (true) or a failure (false, `err` says why). A plugin the
// connector does not speak is refused, naming it. `flags`: what was asked
// for (MyNativeClientFlags).
bool MyLogIn(MyPacketChannel& ch, const MyServerHello& hello, uint64_t flags, const MyLogin& login,
             MyLoginError& err);

}  // namespace loadcell
