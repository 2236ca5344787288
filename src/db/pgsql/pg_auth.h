#pragma once
// The client's side of PostgreSQL's password authentication, as pure
// functions over the messages' text (no I/O): md5 (AuthenticationMD5Password)
// and SCRAM-SHA-256 without channel binding (RFC 5802, RFC 7677), the hashes
// through os/crypto.h. Used by the native connection (pg_startup.h).

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

// The md5 password message's text: "md5" followed by the hex digits of
// md5(hex(md5(password + user)) + salt), `salt` the server's 4 bytes.
Result<std::string> PgMd5Response(std::string_view user, std::string_view password,
                                  std::string_view salt);

// One SCRAM-SHA-256 exchange: client-first, then client-final from the
// server-first message, then the check of the server-final message.
// The password is used as given (SASLprep is the identity for ASCII).
class PgScramClient {
 public:
  // `nonce`: the client nonce (printable, no ','); `user` is empty for
  // PostgreSQL (the server takes the startup message's user).
  // `max_iterations`: a server-first message asking for more PBKDF2
  // iterations is refused (kUnavailable naming --pgsql-scram-max-iterations).
  PgScramClient(std::string user, std::string nonce, uint32_t max_iterations = 100'000);

  // "n,,n=USER,r=NONCE" (no channel binding).
  std::string ClientFirst() const;
  // The client-final message for `server_first` ("r=...,s=...,i=..."):
  // InvalidArgument when it is malformed or its nonce does not extend ours.
  Result<std::string> ClientFinal(std::string_view server_first, std::string_view password);
  // Ok when `server_final` ("v=...") carries the signature the password
  // gives; kUnavailable naming the problem for an "e=..." message or
  // another signature (a server that does not know the password).
  Status CheckServerFinal(std::string_view server_final) const;

 private:
  std::string user_;
  std::string nonce_;
  uint32_t max_iterations_;
  std::string server_signature_;  // expected, raw bytes
};

}  // namespace loadcell
