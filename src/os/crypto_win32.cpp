// The crypto seam on Windows' own providers: CNG (bcrypt.dll) for hashes
// and HMAC (BCryptCreateHash), PBKDF2 (BCryptDeriveKeyPBKDF2) and the
// system's generator (BCryptGenRandom); CryptoAPI (advapi32.dll) for
// RSA-OAEP, under a key built from the PEM's numbers (os/rsa_public_key.h).
// CNG's BCryptEncrypt would do OAEP on Windows, but Wine implements only
// PKCS #1 v1.5 padding there (STATUS_NOT_IMPLEMENTED), while CryptoAPI's
// CRYPT_OAEP (SHA-1 and MGF1-SHA-1, the only OAEP it has, and MySQL's) works
// on both: one path, the one the Wine tests check.

#include <windows.h>
// windows.h first: bcrypt.h needs its types.
#include <bcrypt.h>
#include <fmt/format.h>
#include <wincrypt.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>

#include "os/crypto.h"
#include "os/rsa_public_key.h"
#include "os/win32_util.h"

namespace loadcell::crypto {
namespace {

constexpr size_t kMaxUlong = std::numeric_limits<ULONG>::max();

enum class Algorithm { kMd5, kSha1, kSha256, kHmacSha256, kCount };

struct Provider {
  BCRYPT_ALG_HANDLE handle = nullptr;
  NTSTATUS status = 0;
};

constexpr bool Succeeded(NTSTATUS s) { return s >= 0; }

Status CngError(std::string_view call, NTSTATUS s) {
  return Status::Internal(
      fmt::format("CNG: {} failed (NTSTATUS 0x{:08x})", call, static_cast<uint32_t>(s)));
}

// The provider of `a`, opened once per process and never closed (CNG's
// algorithm handles may be used from any number of threads at once).
Result<BCRYPT_ALG_HANDLE> ProviderFor(Algorithm a) {
  static const std::array<Provider, static_cast<size_t>(Algorithm::kCount)> providers = [] {
    struct Spec {
      const wchar_t* id;
      ULONG flags;
    };
    constexpr Spec kSpecs[] = {{BCRYPT_MD5_ALGORITHM, 0},
                               {BCRYPT_SHA1_ALGORITHM, 0},
                               {BCRYPT_SHA256_ALGORITHM, 0},
                               {BCRYPT_SHA256_ALGORITHM, BCRYPT_ALG_HANDLE_HMAC_FLAG}};
    std::array<Provider, static_cast<size_t>(Algorithm::kCount)> p{};
    for (size_t i = 0; i < p.size(); ++i) {
      p[i].status =
          BCryptOpenAlgorithmProvider(&p[i].handle, kSpecs[i].id, nullptr, kSpecs[i].flags);
    }
    return p;
  }();
  const Provider& p = providers[static_cast<size_t>(a)];
  if (!Succeeded(p.status)) return CngError("BCryptOpenAlgorithmProvider", p.status);
  return p.handle;
}

// CNG takes byte counts as ULONG: larger inputs are refused rather than cut.
Status CheckFitsUlong(size_t size, std::string_view what) {
  if (size > kMaxUlong) {
    return Status::InvalidArgument(fmt::format("{} of {} bytes is too long", what, size));
  }
  return Status::Ok();
}

PUCHAR Bytes(std::string_view s) {
  // CNG's inputs are not const in its declarations; it does not write them.
  return reinterpret_cast<PUCHAR>(const_cast<char*>(s.data()));
}

struct HashDestroy {
  void operator()(void* h) const { BCryptDestroyHash(h); }
};

// The hash (or, with a key, the HMAC) of `data` by `a`.
Result<std::string> Hash(Algorithm a, std::string_view key, std::string_view data) {
  Result<BCRYPT_ALG_HANDLE> alg = ProviderFor(a);
  if (!alg.ok()) return alg.status();
  if (Status s = CheckFitsUlong(key.size(), "an HMAC key"); !s.ok()) return s;
  BCRYPT_HASH_HANDLE raw = nullptr;
  NTSTATUS st = BCryptCreateHash(*alg, &raw, nullptr, 0, key.empty() ? nullptr : Bytes(key),
                                 static_cast<ULONG>(key.size()), 0);
  if (!Succeeded(st)) return CngError("BCryptCreateHash", st);
  std::unique_ptr<void, HashDestroy> hash(raw);
  DWORD length = 0;
  ULONG got = 0;
  st = BCryptGetProperty(*alg, BCRYPT_HASH_LENGTH, reinterpret_cast<PUCHAR>(&length),
                         sizeof(length), &got, 0);
  if (!Succeeded(st)) return CngError("BCryptGetProperty(BCRYPT_HASH_LENGTH)", st);
  while (!data.empty()) {
    const ULONG chunk = static_cast<ULONG>(std::min(data.size(), kMaxUlong));
    st = BCryptHashData(hash.get(), Bytes(data), chunk, 0);
    if (!Succeeded(st)) return CngError("BCryptHashData", st);
    data.remove_prefix(chunk);
  }
  std::string out(length, '\0');
  st = BCryptFinishHash(hash.get(), reinterpret_cast<PUCHAR>(out.data()), length, 0);
  if (!Succeeded(st)) return CngError("BCryptFinishHash", st);
  return out;
}

Status CryptoApiError(std::string_view call) {
  const DWORD e = GetLastError();
  return Status::Internal(
      fmt::format("CryptoAPI: {} failed: {} (0x{:08x})", call, Win32ErrorText(e), e));
}

struct ProviderRelease {
  void operator()(HCRYPTPROV* p) const { CryptReleaseContext(*p, 0); }
};
struct CryptKeyDestroy {
  void operator()(HCRYPTKEY* k) const { CryptDestroyKey(*k); }
};

// `key` as the PUBLICKEYBLOB CryptImportKey takes: the headers (the
// exponent is a DWORD there), then the modulus, little-endian.
Result<std::string> PublicKeyBlob(const RsaPublicKey& key) {
  if (key.exponent.size() > sizeof(DWORD)) {
    return Status::InvalidArgument(
        fmt::format("RSA public key: a public exponent of {} bytes (Windows takes at most 4)",
                    key.exponent.size()));
  }
  DWORD exponent = 0;
  for (const char c : key.exponent) exponent = exponent << 8 | static_cast<unsigned char>(c);
  const BLOBHEADER header{PUBLICKEYBLOB, CUR_BLOB_VERSION, 0, CALG_RSA_KEYX};
  constexpr DWORD kRsa1 = 0x31415352;  // "RSA1": a public key
  const RSAPUBKEY rsa{kRsa1, static_cast<DWORD>(key.modulus.size() * 8), exponent};
  std::string blob(reinterpret_cast<const char*>(&header), sizeof(header));
  blob.append(reinterpret_cast<const char*>(&rsa), sizeof(rsa));
  blob.append(key.modulus.rbegin(), key.modulus.rend());
  return blob;
}

}  // namespace

Result<std::string> Md5(std::string_view data) { return Hash(Algorithm::kMd5, {}, data); }
Result<std::string> Sha1(std::string_view data) { return Hash(Algorithm::kSha1, {}, data); }
Result<std::string> Sha256(std::string_view data) { return Hash(Algorithm::kSha256, {}, data); }
Result<std::string> HmacSha256(std::string_view key, std::string_view data) {
  return Hash(Algorithm::kHmacSha256, key, data);
}

Result<std::string> Pbkdf2HmacSha256(std::string_view password, std::string_view salt,
                                     uint32_t iterations, size_t length) {
  Result<BCRYPT_ALG_HANDLE> alg = ProviderFor(Algorithm::kHmacSha256);
  if (!alg.ok()) return alg.status();
  for (const auto& [size, what] :
       {std::pair{password.size(), "a PBKDF2 password"}, std::pair{salt.size(), "a PBKDF2 salt"},
        std::pair{length, "a PBKDF2 key"}}) {
    if (Status s = CheckFitsUlong(size, what); !s.ok()) return s;
  }
  if (iterations == 0) return Status::InvalidArgument("PBKDF2: 0 iterations (1 or more are valid)");
  std::string out(length, '\0');
  const NTSTATUS st =
      BCryptDeriveKeyPBKDF2(*alg, Bytes(password), static_cast<ULONG>(password.size()), Bytes(salt),
                            static_cast<ULONG>(salt.size()), iterations,
                            reinterpret_cast<PUCHAR>(out.data()), static_cast<ULONG>(length), 0);
  if (!Succeeded(st)) return CngError("BCryptDeriveKeyPBKDF2", st);
  return out;
}

Result<std::string> RandomBytes(size_t n) {
  if (Status s = CheckFitsUlong(n, "a random string"); !s.ok()) return s;
  std::string out(n, '\0');
  if (n == 0) return out;
  const NTSTATUS st = BCryptGenRandom(nullptr, reinterpret_cast<PUCHAR>(out.data()),
                                      static_cast<ULONG>(n), BCRYPT_USE_SYSTEM_PREFERRED_RNG);
  if (!Succeeded(st)) return CngError("BCryptGenRandom", st);
  return out;
}

Result<std::string> RsaOaepEncrypt(std::string_view pem_public_key, std::string_view plaintext) {
  Result<RsaPublicKey> numbers = ParseRsaPublicKeyPem(pem_public_key);
  if (!numbers.ok()) return numbers.status();
  if (Status s = CheckOaepFits(plaintext.size(), numbers->modulus.size()); !s.ok()) return s;
  Result<std::string> blob = PublicKeyBlob(*numbers);
  if (!blob.ok()) return blob.status();
  HCRYPTPROV provider = 0;
  if (CryptAcquireContextW(&provider, nullptr, nullptr, PROV_RSA_AES, CRYPT_VERIFYCONTEXT) == 0) {
    return CryptoApiError("CryptAcquireContext(PROV_RSA_AES)");
  }
  const std::unique_ptr<HCRYPTPROV, ProviderRelease> provider_guard(&provider);
  HCRYPTKEY key = 0;
  if (CryptImportKey(provider, reinterpret_cast<const BYTE*>(blob->data()),
                     static_cast<DWORD>(blob->size()), 0, 0, &key) == 0) {
    return CryptoApiError("CryptImportKey(PUBLICKEYBLOB)");
  }
  const std::unique_ptr<HCRYPTKEY, CryptKeyDestroy> key_guard(&key);
  // Encrypted in place, the ciphertext little-endian.
  std::string buffer(numbers->modulus.size(), '\0');
  plaintext.copy(buffer.data(), plaintext.size());
  auto length = static_cast<DWORD>(plaintext.size());
  if (CryptEncrypt(key, 0, TRUE, CRYPT_OAEP, reinterpret_cast<BYTE*>(buffer.data()), &length,
                   static_cast<DWORD>(buffer.size())) == 0) {
    return CryptoApiError("CryptEncrypt(CRYPT_OAEP)");
  }
  return std::string(buffer.rend() - length, buffer.rend());
}

}  // namespace loadcell::crypto
