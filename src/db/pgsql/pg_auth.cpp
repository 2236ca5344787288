#include "db/pgsql/pg_auth.h"

#include <fmt/format.h>

#include <charconv>

#include "core/base64.h"
#include "os/crypto.h"

namespace loadcell {
namespace {

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    s += kDigits[u >> 4];
    s += kDigits[u & 0xF];
  }
  return s;
}

// The value of attribute `name` ("r", "s", "i", "v", "e") of a SCRAM
// message "a=...,b=...", or false when it has none.
bool Attribute(std::string_view message, char name, std::string_view& value) {
  size_t pos = 0;
  while (pos <= message.size()) {
    size_t end = message.find(',', pos);
    if (end == std::string_view::npos) end = message.size();
    const std::string_view item = message.substr(pos, end - pos);
    if (item.size() >= 2 && item[0] == name && item[1] == '=') {
      value = item.substr(2);
      return true;
    }
    pos = end + 1;
  }
  return false;
}

Status Malformed(std::string_view what) {
  return Status::Unavailable(fmt::format("SCRAM-SHA-256: the server's {} is malformed", what));
}

}  // namespace

Result<std::string> PgMd5Response(std::string_view user, std::string_view password,
                                  std::string_view salt) {
  std::string first(password);
  first.append(user);
  LC_ASSIGN_OR_RETURN(std::string inner, crypto::Md5(first));
  std::string second = Hex(inner);
  second.append(salt);
  LC_ASSIGN_OR_RETURN(std::string outer, crypto::Md5(second));
  return "md5" + Hex(outer);
}

PgScramClient::PgScramClient(std::string user, std::string nonce, uint32_t max_iterations)
    : user_(std::move(user)), nonce_(std::move(nonce)), max_iterations_(max_iterations) {}

std::string PgScramClient::ClientFirst() const {
  return fmt::format("n,,n={},r={}", user_, nonce_);
}

Result<std::string> PgScramClient::ClientFinal(std::string_view server_first,
                                               std::string_view password) {
  std::string_view nonce;
  std::string_view salt64;
  std::string_view iter_text;
  if (!Attribute(server_first, 'r', nonce) || !Attribute(server_first, 's', salt64) ||
      !Attribute(server_first, 'i', iter_text)) {
    return Malformed("first message");
  }
  if (nonce.size() <= nonce_.size() || nonce.substr(0, nonce_.size()) != nonce_) {
    return Status::Unavailable("SCRAM-SHA-256: the server's nonce does not extend the client's");
  }
  Result<std::string> salt = Base64Decode(salt64);
  uint32_t iterations = 0;
  const auto parsed =
      std::from_chars(iter_text.data(), iter_text.data() + iter_text.size(), iterations);
  if (!salt.ok() || parsed.ec != std::errc() || parsed.ptr != iter_text.data() + iter_text.size() ||
      iterations == 0) {
    return Malformed("salt or iteration count");
  }
  // PBKDF2 cannot be stopped half-way: a count a server chose without bound
  // would hold the connect far past its time limit.
  if (iterations > max_iterations_) {
    return Status::Unavailable(
        fmt::format("SCRAM-SHA-256: the server asks for {} PBKDF2 iterations, more than "
                    "--pgsql-scram-max-iterations={} (raise it for a server you trust)",
                    iterations, max_iterations_));
  }
  LC_ASSIGN_OR_RETURN(std::string salted,
                      crypto::Pbkdf2HmacSha256(password, *salt, iterations, 32));
  LC_ASSIGN_OR_RETURN(std::string client_key, crypto::HmacSha256(salted, "Client Key"));
  LC_ASSIGN_OR_RETURN(std::string stored_key, crypto::Sha256(client_key));
  // "biws" is base64 of the GS2 header "n,,": no channel binding.
  const std::string without_proof = fmt::format("c=biws,r={}", nonce);
  const std::string auth_message =
      fmt::format("n={},r={},{},{}", user_, nonce_, server_first, without_proof);
  LC_ASSIGN_OR_RETURN(std::string signature, crypto::HmacSha256(stored_key, auth_message));
  std::string proof = client_key;
  for (size_t i = 0; i < proof.size() && i < signature.size(); ++i) {
    proof[i] = static_cast<char>(static_cast<unsigned char>(proof[i]) ^
                                 static_cast<unsigned char>(signature[i]));
  }
  LC_ASSIGN_OR_RETURN(std::string server_key, crypto::HmacSha256(salted, "Server Key"));
  LC_ASSIGN_OR_RETURN(server_signature_, crypto::HmacSha256(server_key, auth_message));
  return fmt::format("{},p={}", without_proof, Base64Encode(proof));
}

Status PgScramClient::CheckServerFinal(std::string_view server_final) const {
  std::string_view value;
  if (Attribute(server_final, 'e', value)) {
    return Status::Unavailable(fmt::format("SCRAM-SHA-256: the server refused: {}", value));
  }
  if (!Attribute(server_final, 'v', value)) return Malformed("final message");
  Result<std::string> signature = Base64Decode(value);
  if (!signature.ok()) return Malformed("final message");
  if (server_signature_.empty() || *signature != server_signature_) {
    return Status::Unavailable(
        "SCRAM-SHA-256: the server's signature is wrong (it does not know the password)");
  }
  return Status::Ok();
}

}  // namespace loadcell
