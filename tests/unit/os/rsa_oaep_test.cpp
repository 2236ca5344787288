// RsaOaepEncrypt and the PEM parser on every platform: what a key gives and
// what is refused. crypto_rsa_posix_test.cpp decrypts what it gives.

#include <gtest/gtest.h>

#include <string>

#include "os/crypto.h"
#include "os/rsa_public_key.h"
#include "rsa_test_key.h"
#include "testing/status.h"

namespace loadcell::crypto {
namespace {

using testing::kTestModulusStart;
using testing::kTestPublicKeyPem;

TEST(RsaPublicKeyTest, ReadsTheModulusAndExponent) {
  Result<RsaPublicKey> key = ParseRsaPublicKeyPem(kTestPublicKeyPem);
  ASSERT_OK(key);
  EXPECT_EQ(key->modulus.size(), 256u);
  EXPECT_TRUE(key->modulus.starts_with(kTestModulusStart));
  EXPECT_EQ(key->exponent, std::string("\x01\x00\x01", 3));  // 65537
}

TEST(RsaPublicKeyTest, IgnoresTextAroundTheBlock) {
  const std::string pem = std::string("key follows\r\n") + kTestPublicKeyPem + "\n\n";
  Result<RsaPublicKey> key = ParseRsaPublicKeyPem(pem);
  ASSERT_OK(key);
  EXPECT_EQ(key->modulus.size(), 256u);
}

// Each bad key is refused with a message that says what is wrong with it.
TEST(RsaPublicKeyTest, RefusesWhatIsNotAnRsaPublicKey) {
  const std::string good = kTestPublicKeyPem;
  const std::string body = good.substr(good.find('\n') + 1);
  struct Case {
    std::string pem;
    std::string says;
  };
  const Case cases[] = {
      {"", "BEGIN PUBLIC KEY"},
      {"-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
       "BEGIN PUBLIC KEY"},
      {"-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----\n", "base64"},
      {"-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "SubjectPublicKeyInfo"},
      // The first line cut short: the DER's lengths no longer fit.
      {"-----BEGIN PUBLIC KEY-----\n" + body.substr(64 + 1), "RSA public key"},
      // An EC key (prime256v1): another algorithm.
      {"-----BEGIN PUBLIC KEY-----\n"
       "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+mKP6kELx33YtlBOqJl3tTfGuzkv\n"
       "wQYdJ4cGBN33KbMvbXonJRKcL9y07fp/iqw+JnXLSuSJS7bU5M9gvcadcw==\n"
       "-----END PUBLIC KEY-----\n",
       "not an RSA key"},
  };
  for (const Case& c : cases) {
    Result<RsaPublicKey> key = ParseRsaPublicKeyPem(c.pem);
    ASSERT_FALSE(key.ok()) << c.pem;
    EXPECT_EQ(key.status().code(), StatusCode::kInvalidArgument) << c.pem;
    EXPECT_NE(key.status().message().find(c.says), std::string::npos)
        << c.pem << " -> " << key.status().message();
  }
}

TEST(RsaOaepTest, GivesACiphertextOfTheModulusLength) {
  Result<std::string> a = RsaOaepEncrypt(kTestPublicKeyPem, std::string_view("secret\0", 7));
  ASSERT_OK(a);
  EXPECT_EQ(a->size(), 256u);
  // OAEP draws a new seed for each encryption.
  Result<std::string> b = RsaOaepEncrypt(kTestPublicKeyPem, std::string_view("secret\0", 7));
  ASSERT_OK(b);
  EXPECT_NE(*a, *b);
}

TEST(RsaOaepTest, TakesTheLongestPlaintextTheKeyAllows) {
  // 2048 bits: 256 - 2 * 20 - 2 = 214 bytes.
  Result<std::string> fits = RsaOaepEncrypt(kTestPublicKeyPem, std::string(214, 'x'));
  ASSERT_OK(fits);
  EXPECT_EQ(fits->size(), 256u);
  Result<std::string> too_long = RsaOaepEncrypt(kTestPublicKeyPem, std::string(215, 'x'));
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(too_long.status().message().find("215 bytes"), std::string::npos)
      << too_long.status().message();
}

TEST(RsaOaepTest, RefusesABadKey) {
  for (const char* pem : {"", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"}) {
    Result<std::string> r = RsaOaepEncrypt(pem, "secret");
    ASSERT_FALSE(r.ok()) << pem;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << pem;
    EXPECT_NE(r.status().message().find("RSA public key"), std::string::npos)
        << r.status().message();
  }
}

}  // namespace
}  // namespace loadcell::crypto
