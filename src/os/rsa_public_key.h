#pragma once
// An RSA public key read from the PEM text a MySQL server sends
// ("-----BEGIN PUBLIC KEY-----": a DER SubjectPublicKeyInfo holding
// rsaEncryption and the PKCS #1 RSAPublicKey). Parsing only, no
// cryptography: crypto_win32.cpp hands the numbers to CNG. Portable, so that
// the Linux tests check it too.

#include <cstddef>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell::crypto {

struct RsaPublicKey {
  std::string modulus;   // big-endian, no leading zero bytes
  std::string exponent;  // big-endian, no leading zero bytes
};

// The key of `pem`; text around the BEGIN/END lines is ignored. Anything
// else (another PEM type, bad base64, DER that is not an RSA
// SubjectPublicKeyInfo, trailing bytes) is kInvalidArgument saying which.
Result<RsaPublicKey> ParseRsaPublicKeyPem(std::string_view pem);

// OK when RSA-OAEP with SHA-1 can encrypt `plaintext_size` bytes under a key
// whose modulus is `modulus_size` bytes (at most modulus_size - 42), else
// kInvalidArgument saying both sizes.
Status CheckOaepFits(size_t plaintext_size, size_t modulus_size);

}  // namespace loadcell::crypto
