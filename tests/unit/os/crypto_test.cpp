// Known-answer tests of the crypto seam (os/crypto.h), on whichever
// implementation this build has (libcrypto on Linux, CNG on Windows).

#include "os/crypto.h"

#include <gtest/gtest.h>

#include <string>

#include "core/base64.h"
#include "testing/status.h"

namespace loadcell::crypto {
namespace {

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

template <typename F>
std::string HexOf(F&& f) {
  auto r = f();
  EXPECT_OK(r);
  return r.ok() ? Hex(*r) : std::string("(failed)");
}

// RFC 1321, appendix A.5.
TEST(CryptoTest, Md5MatchesRfc1321) {
  EXPECT_EQ(HexOf([] { return Md5(""); }), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(HexOf([] { return Md5("abc"); }), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(HexOf([] { return Md5("message digest"); }), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(HexOf([] {
              return Md5(
                  "1234567890123456789012345678901234567890"
                  "1234567890123456789012345678901234567890");
            }),
            "57edf4a22be3c955ac49da2e2107b67a");
}

// FIPS 180 (the examples of the Secure Hash Standard).
TEST(CryptoTest, Sha1MatchesFips180) {
  EXPECT_EQ(HexOf([] { return Sha1(""); }), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(HexOf([] { return Sha1("abc"); }), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(HexOf([] { return Sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"); }),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(HexOf([] { return Sha1(std::string(1000000, 'a')); }),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(CryptoTest, Sha256MatchesFips180) {
  EXPECT_EQ(HexOf([] { return Sha256(""); }),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(HexOf([] { return Sha256("abc"); }),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      HexOf([] { return Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"); }),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(HexOf([] { return Sha256(std::string(1000000, 'a')); }),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// RFC 4231, test cases 1, 2 and 6 (a key longer than the block).
TEST(CryptoTest, HmacSha256MatchesRfc4231) {
  EXPECT_EQ(HexOf([] { return HmacSha256(std::string(20, '\x0b'), "Hi There"); }),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(HexOf([] { return HmacSha256("Jefe", "what do ya want for nothing?"); }),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(HexOf([] {
              return HmacSha256(std::string(131, '\xaa'),
                                "Test Using Larger Than Block-Size Key - Hash Key First");
            }),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

// RFC 7914, section 11, and the common 32-byte "password"/"salt" vector.
TEST(CryptoTest, Pbkdf2HmacSha256MatchesRfc7914) {
  EXPECT_EQ(HexOf([] { return Pbkdf2HmacSha256("passwd", "salt", 1, 64); }),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
  EXPECT_EQ(HexOf([] { return Pbkdf2HmacSha256("Password", "NaCl", 80000, 64); }),
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d");
  EXPECT_EQ(HexOf([] { return Pbkdf2HmacSha256("password", "salt", 4096, 32); }),
            "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
}

TEST(CryptoTest, Pbkdf2RefusesZeroIterations) {
  Result<std::string> r = Pbkdf2HmacSha256("password", "salt", 0, 32);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
}

// The SCRAM-SHA-256 exchange of RFC 7677, section 3: the client proof and
// the server signature from the password, salt and nonces given there.
TEST(CryptoTest, ScramSha256MatchesRfc7677) {
  Result<std::string> salt = Base64Decode("W22ZaJ0SNY7soEsUEjb6gQ==");
  ASSERT_OK(salt);
  Result<std::string> salted = Pbkdf2HmacSha256("pencil", *salt, 4096, 32);
  ASSERT_OK(salted);
  const std::string auth_message =
      "n=user,r=rOprNGfwEbeRWgbNEkqO,"
      "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,"
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  Result<std::string> client_key = HmacSha256(*salted, "Client Key");
  ASSERT_OK(client_key);
  Result<std::string> stored_key = Sha256(*client_key);
  ASSERT_OK(stored_key);
  Result<std::string> client_signature = HmacSha256(*stored_key, auth_message);
  ASSERT_OK(client_signature);
  std::string proof = *client_key;
  for (size_t i = 0; i < proof.size(); ++i)
    proof[i] = static_cast<char>(proof[i] ^ (*client_signature)[i]);
  EXPECT_EQ(Base64Encode(proof), "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  Result<std::string> server_key = HmacSha256(*salted, "Server Key");
  ASSERT_OK(server_key);
  Result<std::string> server_signature = HmacSha256(*server_key, auth_message);
  ASSERT_OK(server_signature);
  EXPECT_EQ(Base64Encode(*server_signature), "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");
}

TEST(CryptoTest, RandomBytesHaveTheLengthAskedAndDiffer) {
  Result<std::string> a = RandomBytes(32);
  Result<std::string> b = RandomBytes(32);
  ASSERT_OK(a);
  ASSERT_OK(b);
  EXPECT_EQ(a->size(), 32u);
  // Two 256-bit draws from a working generator are equal with probability 2^-256.
  EXPECT_NE(*a, *b);
  EXPECT_NE(*a, std::string(32, '\0'));
  Result<std::string> none = RandomBytes(0);
  ASSERT_OK(none);
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace loadcell::crypto
