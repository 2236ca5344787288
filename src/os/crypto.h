#pragma once
// The few cryptographic primitives loadcell's own database clients need to
// authenticate (PostgreSQL md5 and SCRAM-SHA-256; MySQL's
// mysql_native_password and caching_sha2_password), behind one seam: Windows
// CNG (BCrypt*) in crypto_win32.cpp, the system's libcrypto (loaded at run
// time, as the client libraries are) in crypto_posix.cpp. No crypto code of
// our own. Byte strings are std::string (raw bytes, not text).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell::crypto {

Result<std::string> Md5(std::string_view data);     // 16 bytes
Result<std::string> Sha1(std::string_view data);    // 20 bytes
Result<std::string> Sha256(std::string_view data);  // 32 bytes
Result<std::string> HmacSha256(std::string_view key, std::string_view data);
// PBKDF2 with HMAC-SHA-256 (SCRAM's Hi()), `length` bytes.
Result<std::string> Pbkdf2HmacSha256(std::string_view password, std::string_view salt,
                                     uint32_t iterations, size_t length);
// `n` bytes from the system's secure random source (SCRAM's client nonce).
Result<std::string> RandomBytes(size_t n);
// RSA with OAEP padding (SHA-1 and MGF1-SHA-1, as MySQL's sha256_password and
// caching_sha2_password use) under a public key in PEM form
// ("-----BEGIN PUBLIC KEY-----", SubjectPublicKeyInfo, as the server sends).
Result<std::string> RsaOaepEncrypt(std::string_view pem_public_key, std::string_view plaintext);

}  // namespace loadcell::crypto
