#pragma once
// A 2048-bit RSA public key for the tests of RsaOaepEncrypt and of the PEM
// parser. Its private half is in rsa_oaep_win32_test.cpp (the Linux test
// that decrypts makes a key pair of its own).

namespace loadcell::crypto::testing {

inline constexpr char kTestPublicKeyPem[] =
    "-----BEGIN PUBLIC KEY-----\n"
    "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAxsrXYaXWVPZNmn8I+5Lw\n"
    "lat/g8yHOeEjg5axRQ5K0U42Qxh3XmmCHDr2LEmsO7f1L7X4c6lnTp99K0qSlOBC\n"
    "2FhSQlFcQNVDiISkPsWBzrL3aX+S7uyXTlJMmktyag9ZW9V6MJd2xe9YX5i0Egpk\n"
    "hCJ0fYGBlq1RTl6PNy7khDUgv9sCjatAONpWnJqv8IbjQ1ctUSn7zZIos910fdNS\n"
    "KLKBI5cDrOjGG5XVViLNH8Bv7PhNwfWNv0XE3RnUXkzbc24g2byWDiP3TK1SGuuZ\n"
    "YFThEh/c3pqbxxFrM8S15RHDfy1mXCaflaPYmoe7kA0gZv2R0i1+ZpC4vGHWgsCJ\n"
    "SQIDAQAB\n"
    "-----END PUBLIC KEY-----\n";

// The first bytes of its modulus (openssl pkey -pubin -text).
inline constexpr char kTestModulusStart[] = "\xc6\xca\xd7\x61\xa5\xd6\x54\xf6";

}  // namespace loadcell::crypto::testing
