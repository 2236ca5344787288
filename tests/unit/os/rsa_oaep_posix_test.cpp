// RsaOaepEncrypt's ciphertext decrypted with the private half of a key pair
// made here, by libcrypto itself (linked into this test): the padding is
// OAEP with SHA-1 and MGF1-SHA-1, as MySQL's servers expect.

#include <gtest/gtest.h>

#include <string>

#include "os/crypto.h"
#include "rsa_decrypt_posix.h"
#include "testing/status.h"

namespace loadcell::crypto {
namespace {

using testing::Decrypt;
using testing::Key;
using testing::PublicPem;

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
