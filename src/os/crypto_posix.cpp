// The crypto seam on the system's libcrypto (OpenSSL 3), loaded on first use
// as the database client libraries are (os/dynamic_lib.h), so that runs that
// connect to no server do not map it.

#include <fmt/format.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include <climits>
#include <memory>

#include "os/crypto.h"
#include "os/dynamic_lib.h"
#include "os/rsa_public_key.h"

namespace loadcell {

// clang-format off
#define LOADCELL_CRYPTO_FUNCTIONS(X) \
  X(BIO_free)                        \
  X(BIO_new_mem_buf)                 \
  X(ERR_clear_error)                 \
  X(ERR_error_string_n)              \
  X(ERR_get_error)                   \
  X(EVP_Digest)                      \
  X(EVP_PKEY_CTX_free)               \
  X(EVP_PKEY_CTX_new)                \
  X(EVP_PKEY_CTX_set_rsa_padding)    \
  X(EVP_PKEY_encrypt)                \
  X(EVP_PKEY_encrypt_init)           \
  X(EVP_PKEY_free)                   \
  X(EVP_Q_mac)                       \
  X(EVP_md5)                         \
  X(EVP_sha1)                        \
  X(EVP_sha256)                      \
  X(PEM_read_bio_PUBKEY)             \
  X(PKCS5_PBKDF2_HMAC)               \
  X(RAND_bytes)
// clang-format on

// `name` is the identifier being declared: it cannot be parenthesised.
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define LOADCELL_DECLARE_FUNCTION_POINTER_(name) decltype(&::name) name = nullptr;

// libcrypto (libcrypto.so.3).
struct CryptoApi {
  LOADCELL_CRYPTO_FUNCTIONS(LOADCELL_DECLARE_FUNCTION_POINTER_)
};

#undef LOADCELL_DECLARE_FUNCTION_POINTER_

LOADCELL_DEFINE_DYNAMIC_LIBRARY(CryptoApi, LOADCELL_CRYPTO_FUNCTIONS, "libcrypto.so.3", "libssl3",
                                LoadCrypto, Crypto)

namespace crypto {
namespace {

// `what` failed, with libcrypto's reason (the oldest error it queued).
Status CryptoError(std::string_view what) {
  const unsigned long e = Crypto().ERR_get_error();
  std::string reason = "unknown error";
  if (e != 0) {
    char text[256];
    Crypto().ERR_error_string_n(e, text, sizeof(text));
    reason = text;
  }
  Crypto().ERR_clear_error();
  return Status::Internal(fmt::format("libcrypto: {} failed: {}", what, reason));
}

// libcrypto's lengths are int: larger inputs are refused rather than cut.
Status CheckFitsInt(size_t size, std::string_view what) {
  if (size > static_cast<size_t>(INT_MAX)) {
    return Status::InvalidArgument(fmt::format("{} of {} bytes is too long", what, size));
  }
  return Status::Ok();
}

// The digest that `md` (one of the EVP_md5/EVP_sha1/EVP_sha256 members)
// names, of `data`.
using MdMember = decltype(&::EVP_sha256) CryptoApi::*;

Result<std::string> Digest(std::string_view data, MdMember md, std::string_view name) {
  if (Status s = LoadCrypto(); !s.ok()) return s;
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (Crypto().EVP_Digest(data.data(), data.size(), out, &n, (Crypto().*md)(), nullptr) != 1) {
    return CryptoError(name);
  }
  return std::string(reinterpret_cast<const char*>(out), n);
}

struct BioFree {
  void operator()(BIO* b) const { Crypto().BIO_free(b); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* k) const { Crypto().EVP_PKEY_free(k); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* c) const { Crypto().EVP_PKEY_CTX_free(c); }
};

// The public key of the PEM text `pem`.
Result<std::unique_ptr<EVP_PKEY, PkeyFree>> ReadPublicKey(std::string_view pem) {
  if (Status s = CheckFitsInt(pem.size(), "an RSA public key"); !s.ok()) return s;
  std::unique_ptr<BIO, BioFree> bio(
      Crypto().BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (bio == nullptr) return CryptoError("BIO_new_mem_buf");
  std::unique_ptr<EVP_PKEY, PkeyFree> key(
      Crypto().PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  if (key == nullptr) {
    Status e = CryptoError("PEM_read_bio_PUBKEY");
    return Status::InvalidArgument(
        "RSA public key: not a \"-----BEGIN PUBLIC KEY-----\" block libcrypto can read (" +
        e.message() + ")");
  }
  return key;
}

}  // namespace

Result<std::string> Md5(std::string_view data) { return Digest(data, &CryptoApi::EVP_md5, "MD5"); }
Result<std::string> Sha1(std::string_view data) {
  return Digest(data, &CryptoApi::EVP_sha1, "SHA-1");
}
Result<std::string> Sha256(std::string_view data) {
  return Digest(data, &CryptoApi::EVP_sha256, "SHA-256");
}

Result<std::string> HmacSha256(std::string_view key, std::string_view data) {
  if (Status s = LoadCrypto(); !s.ok()) return s;
  unsigned char out[EVP_MAX_MD_SIZE];
  size_t n = 0;
  if (Crypto().EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(),
                         reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
                         sizeof(out), &n) == nullptr) {
    return CryptoError("HMAC-SHA-256");
  }
  return std::string(reinterpret_cast<const char*>(out), n);
}

Result<std::string> Pbkdf2HmacSha256(std::string_view password, std::string_view salt,
                                     uint32_t iterations, size_t length) {
  if (Status s = LoadCrypto(); !s.ok()) return s;
  for (const auto& [size, what] :
       {std::pair{password.size(), "a PBKDF2 password"}, std::pair{salt.size(), "a PBKDF2 salt"},
        std::pair{length, "a PBKDF2 key"}}) {
    if (Status s = CheckFitsInt(size, what); !s.ok()) return s;
  }
  if (iterations == 0 || iterations > static_cast<uint32_t>(INT_MAX)) {
    return Status::InvalidArgument(
        fmt::format("PBKDF2: {} iterations (1 to {} are valid)", iterations, INT_MAX));
  }
  std::string out(length, '\0');
  if (Crypto().PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                                 reinterpret_cast<const unsigned char*>(salt.data()),
                                 static_cast<int>(salt.size()), static_cast<int>(iterations),
                                 Crypto().EVP_sha256(), static_cast<int>(length),
                                 reinterpret_cast<unsigned char*>(out.data())) != 1) {
    return CryptoError("PBKDF2-HMAC-SHA-256");
  }
  return out;
}

Result<std::string> RandomBytes(size_t n) {
  if (Status s = LoadCrypto(); !s.ok()) return s;
  if (Status s = CheckFitsInt(n, "a random string"); !s.ok()) return s;
  std::string out(n, '\0');
  if (n > 0 &&
      Crypto().RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    return CryptoError("RAND_bytes");
  }
  return out;
}

Result<std::string> RsaOaepEncrypt(std::string_view pem_public_key, std::string_view plaintext) {
  // Read by the parser the Windows build uses too, so that a bad key is
  // refused in the same words on both; then by libcrypto.
  Result<RsaPublicKey> numbers = ParseRsaPublicKeyPem(pem_public_key);
  if (!numbers.ok()) return numbers.status();
  if (Status s = CheckOaepFits(plaintext.size(), numbers->modulus.size()); !s.ok()) return s;
  if (Status s = LoadCrypto(); !s.ok()) return s;
  auto key = ReadPublicKey(pem_public_key);
  if (!key.ok()) return key.status();
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(Crypto().EVP_PKEY_CTX_new(key->get(), nullptr));
  if (ctx == nullptr) return CryptoError("EVP_PKEY_CTX_new");
  // OAEP's digest and MGF1's are SHA-1 unless set otherwise.
  if (Crypto().EVP_PKEY_encrypt_init(ctx.get()) != 1 ||
      Crypto().EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_OAEP_PADDING) != 1) {
    return CryptoError("RSA-OAEP setup");
  }
  const auto* in = reinterpret_cast<const unsigned char*>(plaintext.data());
  size_t n = 0;
  if (Crypto().EVP_PKEY_encrypt(ctx.get(), nullptr, &n, in, plaintext.size()) != 1) {
    return CryptoError("RSA-OAEP");
  }
  std::string out(n, '\0');
  if (Crypto().EVP_PKEY_encrypt(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &n, in,
                                plaintext.size()) != 1) {
    return CryptoError("RSA-OAEP");
  }
  out.resize(n);
  return out;
}

}  // namespace crypto
}  // namespace loadcell
