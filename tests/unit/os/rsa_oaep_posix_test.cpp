// RsaOaepEncrypt's ciphertext decrypted with the private half of a key pair
// made here, by libcrypto itself (linked into this test): the padding is
// OAEP with SHA-1 and MGF1-SHA-1, as MySQL's servers expect.

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <memory>
#include <string>

#include "os/crypto.h"
#include "testing/status.h"

namespace loadcell::crypto {
namespace {

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

std::string PublicPem(EVP_PKEY* key) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  if (PEM_write_bio_PUBKEY(bio.get(), key) != 1) return "";
  char* data = nullptr;
  const long n = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(n));
}

// `ciphertext` decrypted under `key` with OAEP (SHA-1 unless `oaep_md` says
// otherwise), or "(failed)".
std::string Decrypt(EVP_PKEY* key, const std::string& ciphertext, const EVP_MD* oaep_md) {
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

TEST(RsaOaepPosixTest, TheOwnerOfThePrivateKeyReadsThePlaintext) {
  for (const unsigned bits : {1024u, 2048u}) {
    Key key(EVP_RSA_gen(bits));
    ASSERT_NE(key, nullptr);
    const std::string pem = PublicPem(key.get());
    ASSERT_FALSE(pem.empty());
    // caching_sha2_password sends the password with its NUL, XORed with the scramble.
    const std::string plaintext("pass\0word\xff\x01", 11);
    Result<std::string> c = RsaOaepEncrypt(pem, plaintext);
    ASSERT_OK(c) << bits;
    EXPECT_EQ(c->size(), bits / 8);
    EXPECT_EQ(Decrypt(key.get(), *c, EVP_sha1()), plaintext) << bits;
    // Not SHA-256 OAEP: the padding's digest is part of what is checked.
    EXPECT_EQ(Decrypt(key.get(), *c, EVP_sha256()), "(failed)") << bits;
  }
}

}  // namespace
}  // namespace loadcell::crypto
