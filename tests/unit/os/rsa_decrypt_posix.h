#pragma once
// libcrypto's own calls for the POSIX tests that play the other side of
// RsaOaepEncrypt (a server holding the private key): a key pair's public half
// in PEM, and OAEP decryption. Test helper only; the test links libcrypto.

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <memory>
#include <string>

namespace loadcell::crypto::testing {

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;

inline std::string PublicPem(EVP_PKEY* key) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  if (PEM_write_bio_PUBKEY(bio.get(), key) != 1) return "";
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(n));
}

// `ciphertext` decrypted under `key` with OAEP (SHA-1 unless `oaep_md` says
// otherwise), or "(failed)".
inline std::string Decrypt(EVP_PKEY* key, const std::string& ciphertext,
                           const EVP_MD* oaep_md = EVP_sha1()) {
  std::unique_ptr<EVP_PKEY_CTX, CtxFree> ctx(EVP_PKEY_CTX_new(key, nullptr));
  if (EVP_PKEY_decrypt_init(ctx.get()) != 1 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_OAEP_PADDING) != 1 ||
      EVP_PKEY_CTX_set_rsa_oaep_md(ctx.get(), oaep_md) != 1) {
    return "(failed)";
  }
  const auto* in = reinterpret_cast<const unsigned char*>(ciphertext.data());
  size_t n = 0;
  if (EVP_PKEY_decrypt(ctx.get(), nullptr, &n, in, ciphertext.size()) != 1) return "(failed)";
  std::string out(n, '\0');
  if (EVP_PKEY_decrypt(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &n, in,
                       ciphertext.size()) != 1) {
    return "(failed)";
  }
  out.resize(n);
  return out;
}

}  // namespace loadcell::crypto::testing
