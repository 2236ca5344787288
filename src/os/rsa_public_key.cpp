#include "os/rsa_public_key.h"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

#include "core/base64.h"

namespace loadcell::crypto {
namespace {

constexpr std::string_view kBegin = "-----BEGIN PUBLIC KEY-----";
constexpr std::string_view kEnd = "-----END PUBLIC KEY-----";
// The DER of OBJECT IDENTIFIER 1.2.840.113549.1.1.1 (rsaEncryption).
constexpr std::string_view kRsaEncryptionOid = "\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01";

constexpr uint8_t kInteger = 0x02;
constexpr uint8_t kBitString = 0x03;
constexpr uint8_t kNull = 0x05;
constexpr uint8_t kSequence = 0x30;

Status BadKey(std::string_view what) {
  return Status::InvalidArgument("RSA public key: " + std::string(what));
}

// Reads DER elements (tag, definite length, contents) off the front of a
// byte string.
class DerReader {
 public:
  explicit DerReader(std::string_view bytes) : rest_(bytes) {}
  bool empty() const { return rest_.empty(); }

  // The contents of the next element, which must have `tag`.
  Result<std::string_view> Next(uint8_t tag, std::string_view what) {
    if (rest_.size() < 2 || static_cast<uint8_t>(rest_[0]) != tag) {
      return BadKey("no " + std::string(what) + " where one belongs");
    }
    size_t length = static_cast<uint8_t>(rest_[1]);
    size_t header = 2;
    if (length >= 0x80) {
      const size_t n = length & 0x7f;  // the length's own length, in bytes
      if (n == 0 || n > 4 || rest_.size() < 2 + n) return BadKey("a length DER does not allow");
      length = 0;
      for (size_t i = 0; i < n; ++i) length = length << 8 | static_cast<uint8_t>(rest_[2 + i]);
      header += n;
    }
    if (rest_.size() - header < length) return BadKey("an element longer than the key");
    std::string_view contents = rest_.substr(header, length);
    rest_.remove_prefix(header + length);
    return contents;
  }

 private:
  std::string_view rest_;
};

// A positive INTEGER's magnitude, big-endian without leading zeros.
Result<std::string> PositiveInteger(DerReader& der, std::string_view what) {
  Result<std::string_view> v = der.Next(kInteger, what);
  if (!v.ok()) return v.status();
  std::string_view bytes = *v;
  if (bytes.empty() || (static_cast<uint8_t>(bytes[0]) & 0x80) != 0) {
    return BadKey("the " + std::string(what) + " is not a positive integer");
  }
  while (!bytes.empty() && bytes[0] == '\0') bytes.remove_prefix(1);
  if (bytes.empty()) return BadKey("the " + std::string(what) + " is zero");
  return std::string(bytes);
}

// The RSAPublicKey inside the SubjectPublicKeyInfo `der`.
Result<std::string_view> RsaPublicKeyBits(std::string_view der) {
  DerReader outer(der);
  Result<std::string_view> info = outer.Next(kSequence, "SubjectPublicKeyInfo");
  if (!info.ok()) return info.status();
  if (!outer.empty()) return BadKey("bytes after the SubjectPublicKeyInfo");
  DerReader fields(*info);
  Result<std::string_view> algorithm = fields.Next(kSequence, "AlgorithmIdentifier");
  if (!algorithm.ok()) return algorithm.status();
  if (!algorithm->starts_with(kRsaEncryptionOid)) return BadKey("the key is not an RSA key");
  DerReader parameters(algorithm->substr(kRsaEncryptionOid.size()));
  if (!parameters.empty()) {
    Result<std::string_view> null = parameters.Next(kNull, "NULL parameters");
    if (!null.ok()) return null.status();
  }
  Result<std::string_view> bits = fields.Next(kBitString, "subjectPublicKey");
  if (!bits.ok()) return bits.status();
  if (bits->empty() || (*bits)[0] != '\0') return BadKey("a subjectPublicKey of partial bytes");
  return bits->substr(1);
}

}  // namespace

Result<RsaPublicKey> ParseRsaPublicKeyPem(std::string_view pem) {
  const size_t begin = pem.find(kBegin);
  const size_t end = begin == std::string_view::npos ? begin : pem.find(kEnd, begin);
  if (end == std::string_view::npos) {
    return BadKey("no \"-----BEGIN PUBLIC KEY-----\" ... \"-----END PUBLIC KEY-----\" block");
  }
  Result<std::string> der =
      Base64Decode(pem.substr(begin + kBegin.size(), end - begin - kBegin.size()));
  if (!der.ok()) return BadKey(der.status().message());
  Result<std::string_view> bits = RsaPublicKeyBits(*der);
  if (!bits.ok()) return bits.status();
  DerReader outer(*bits);
  Result<std::string_view> sequence = outer.Next(kSequence, "RSAPublicKey");
  if (!sequence.ok()) return sequence.status();
  DerReader numbers(*sequence);
  RsaPublicKey key;
  Result<std::string> modulus = PositiveInteger(numbers, "modulus");
  if (!modulus.ok()) return modulus.status();
  Result<std::string> exponent = PositiveInteger(numbers, "public exponent");
  if (!exponent.ok()) return exponent.status();
  if (!numbers.empty() || !outer.empty()) return BadKey("bytes after the RSAPublicKey");
  key.modulus = std::move(*modulus);
  key.exponent = std::move(*exponent);
  return key;
}

Status CheckOaepFits(size_t plaintext_size, size_t modulus_size) {
  constexpr size_t kSha1Size = 20;
  constexpr size_t kOverhead = 2 * kSha1Size + 2;
  if (modulus_size >= kOverhead && plaintext_size <= modulus_size - kOverhead) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("RSA-OAEP: {} bytes do not fit a key of {} bits (at most {} do)", plaintext_size,
                  modulus_size * 8, modulus_size >= kOverhead ? modulus_size - kOverhead : 0));
}

}  // namespace loadcell::crypto
