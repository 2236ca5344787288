// RsaOaepEncrypt's ciphertext decrypted by Windows (CryptoAPI) with the
// private half of the test key: the padding is OAEP with SHA-1 and the
// ciphertext big-endian, as a MySQL server reads it. (The Linux build checks
// the same with libcrypto in rsa_oaep_posix_test.cpp.)

#include <windows.h>
// windows.h first: wincrypt.h needs its types.
#include <gtest/gtest.h>
#include <wincrypt.h>

#include <string>

#include "core/base64.h"
#include "os/crypto.h"
#include "rsa_test_key.h"
#include "testing/status.h"

namespace loadcell::crypto {
namespace {

// The private key of kTestPublicKeyPem as a PRIVATEKEYBLOB (what
// `openssl rsa -outform MSBLOB` writes), in base64. A test key only.
constexpr char kTestPrivateKeyBlob[] =
    "BwIAAACkAABSU0EyAAgAAAEAAQBJicCC1mG8uJBmfi3Skf1mIA2Qu4ea2KOVnyZc"
    "Zi1/wxHltcQzaxHHm5re3B8S4VRgmesaUq1M9yMOlrzZIG5z20xe1BndxEW/jfXB"
    "Tfjsb8AfzSJW1ZUbxuisA5cjgbIoUtN9dN2zKJLN+ylRLVdD44bwr5qcVto4QKuN"
    "Atu/IDWE5C43j15OUa2WgYF9dCKEZAoStJhfWO/FdpcwetVbWQ9qckuaTFJOl+zu"
    "kn9p97LOgcU+pISIQ9VAXFFCUljYQuCUkkorfZ9OZ6lz+LUv9bc7rEks9jocgmle"
    "dxhDNk7RSg5FsZaDI+E5h8yDf6uV8JL7CH+aTfZU1qVh18rGqXYdMGNJWHd0RxKj"
    "lwEALHYRS0LTJGN0ru2iSvRXplkdcz+TsJrzR2dgiWYW8EZwUdfkm7NB2fyZB95x"
    "l+NIjoU/smYojYLDPT+6WxbS1ebn0sSTsQJoorWem8O7JI1hp9E3yI33oTGGpH7K"
    "QBYVJTBgbRUQAwqQAiKxSm5QPfOhQVgDkTsSUQzrZ33zodYG98ss4JsYCROK7U5N"
    "TPzoPfLRBWw3VYVhIwQxemBCYP64CL7eNHvFtRz+c7n6u1GaM1RfpHfzBpiHw+ig"
    "hPlAZ/RYsVTx4NJeSvCnFFwhL38C/xQrnDAGr+QwqK8pFAILKZtUYUOKkR8dDfRM"
    "CJs40TmIsgz9vNh2DgrIihtcUwmZbne4ZHkhP1rVSb7ff6xrIxDOfErPgSBO9blS"
    "wiaYglGnxxpauXsmDGCVsgR+7Ha7E9f9T04TtGQ4RXN8cqIjr1wRPOpu+uTZoMjx"
    "bxqPeguIpU1/jJy2EZ6tzFS2ebv2uSt/zTsi91iNPs/15e3aIRAdG2zTUe4mw8UY"
    "OyHXxrROzolorrZkwX+Dj5KGni6EcBUzscwxTKAoYQebsR6bCfX2ed2nyPbE+axN"
    "UBM59Zgcm4bp+IYE8HmU0e/www/h4n3WRm4YkBBzY+9i+8e7CRUxopQuKq1cqCud"
    "OuUS+cKkUUYLNSJoZ8EPzoqU71rHXwwM0pdP4z9RyfdhSvaDlEHKjpz9ezj43tGz"
    "DwmHZDG1iji7qa6+twDgM/dhn68nTNpcQktqjjUjB5+LriKdYJV3rF+52SUmeNrt"
    "hWgRwl2cAJTnjKiI0piraaqoPYaHI3CUGrKmW4S4ybjHc3iHldWSH/m8fkHlOHtD"
    "NKveWyHZIhSN2jOU+kLCsyfOGUz6Pl5zQDUy5YbAWVeDPWNW+Cb3AepIxF68G81j"
    "PoHjLmJx/VspOdtY/XZLXzgUbJp4p0LjBvkDeiOiK+WqdlrXD9vf6I7Yk3gwfyZx"
    "dYH5J6CZOJGbAdhRbH4n7iSSD6FKaGbeYVfs6aWDPv+7WlyzdHb9eaxmimxwKvdd"
    "tvKABWBcqOBHAqesVP5YrUl5+l7zBFJgCf5MZBEZLLLZJ6A2TpirOlEEP6BiWHxO"
    "WrYb32MreJlpHcIfPosKzlprpcvBRBMG45AkAcHGo+263yOyAXgjvo3gKob9vUp1"
    "aVlvRoGsC2GJRtPfA/wuv3aZWAM=";

// `ciphertext` (big-endian) decrypted with the private key, or "(failed)".
std::string Decrypt(const std::string& ciphertext) {
  Result<std::string> blob = Base64Decode(kTestPrivateKeyBlob);
  if (!blob.ok()) return "(failed)";
  HCRYPTPROV provider = 0;
  if (CryptAcquireContextW(&provider, nullptr, nullptr, PROV_RSA_AES, CRYPT_VERIFYCONTEXT) == 0) {
    return "(failed)";
  }
  std::string out = "(failed)";
  HCRYPTKEY key = 0;
  if (CryptImportKey(provider, reinterpret_cast<const BYTE*>(blob->data()),
                     static_cast<DWORD>(blob->size()), 0, 0, &key) != 0) {
    std::string buffer(ciphertext.rbegin(), ciphertext.rend());  // CryptoAPI's little-endian
    auto length = static_cast<DWORD>(buffer.size());
    if (CryptDecrypt(key, 0, TRUE, CRYPT_OAEP, reinterpret_cast<BYTE*>(buffer.data()), &length) !=
        0) {
      out = buffer.substr(0, length);
    }
    CryptDestroyKey(key);
  }
  CryptReleaseContext(provider, 0);
  return out;
}

TEST(RsaOaepWin32Test, TheOwnerOfThePrivateKeyReadsThePlaintext) {
  const std::string plaintext("pass\0word\xff\x01", 11);
  Result<std::string> c = RsaOaepEncrypt(testing::kTestPublicKeyPem, plaintext);
  ASSERT_OK(c);
  EXPECT_EQ(c->size(), 256u);
  EXPECT_EQ(Decrypt(*c), plaintext);
  // Read little-endian, the ciphertext is another number: the check can fail.
  EXPECT_NE(Decrypt(std::string(c->rbegin(), c->rend())), plaintext);
}

}  // namespace
}  // namespace loadcell::crypto
