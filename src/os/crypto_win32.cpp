// The crypto seam on Windows CNG (bcrypt.dll, part of every Windows since
// Vista): hashes and HMAC through BCryptCreateHash, PBKDF2 through
// BCryptDeriveKeyPBKDF2, the system's generator through BCryptGenRandom,
// RSA-OAEP through BCryptEncrypt under a key built from the PEM's numbers
// (os/rsa_public_key.h).

#include <windows.h>
// windows.h first: bcrypt.h needs its types.
#include <bcrypt.h>
#include <fmt/format.h>

#include <array>
#include <memory>

#include "os/crypto.h"
#include "os/rsa_public_key.h"

namespace loadcell::crypto {
namespace {

enum class Algorithm { kMd5, kSha1, kSha256, kHmacSha256, kRsa, kCount };

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
                               {BCRYPT_SHA256_ALGORITHM, BCRYPT_ALG_HANDLE_HMAC_FLAG},
                               {BCRYPT_RSA_ALGORITHM, 0}};
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
  if (size > MAXULONG) {
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
struct KeyDestroy {
  void operator()(void* k) const { BCryptDestroyKey(k); }
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
    const ULONG chunk = static_cast<ULONG>(std::min<size_t>(data.size(), MAXULONG));
    st = BCryptHashData(hash.get(), Bytes(data), chunk, 0);
    if (!Succeeded(st)) return CngError("BCryptHashData", st);
    data.remove_prefix(chunk);
  }
  std::string out(length, '\0');
  st = BCryptFinishHash(hash.get(), reinterpret_cast<PUCHAR>(out.data()), length, 0);
  if (!Succeeded(st)) return CngError("BCryptFinishHash", st);
  return out;
}

// `key`'s numbers as the BCRYPT_RSAPUBLIC_BLOB BCryptImportKeyPair takes: the
// header, then the exponent and the modulus, both big-endian.
std::string RsaPublicBlob(const RsaPublicKey& key) {
  BCRYPT_RSAKEY_BLOB header{};
  header.Magic = BCRYPT_RSAPUBLIC_MAGIC;
  ULONG bits = static_cast<ULONG>(key.modulus.size() * 8);
  for (auto top = static_cast<unsigned char>(key.modulus[0]); (top & 0x80) == 0; top <<= 1) --bits;
  header.BitLength = bits;
  header.cbPublicExp = static_cast<ULONG>(key.exponent.size());
  header.cbModulus = static_cast<ULONG>(key.modulus.size());
  std::string blob(reinterpret_cast<const char*>(&header), sizeof(header));
  blob += key.exponent;
  blob += key.modulus;
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
  Result<BCRYPT_ALG_HANDLE> alg = ProviderFor(Algorithm::kRsa);
  if (!alg.ok()) return alg.status();
  const std::string blob = RsaPublicBlob(*numbers);
  BCRYPT_KEY_HANDLE raw = nullptr;
  NTSTATUS st = BCryptImportKeyPair(*alg, nullptr, BCRYPT_RSAPUBLIC_BLOB, &raw, Bytes(blob),
                                    static_cast<ULONG>(blob.size()), 0);
  if (!Succeeded(st)) return CngError("BCryptImportKeyPair(BCRYPT_RSAPUBLIC_BLOB)", st);
  std::unique_ptr<void, KeyDestroy> key(raw);
  // OAEP with SHA-1 for the label's hash and MGF1, no label.
  BCRYPT_OAEP_PADDING_INFO oaep{BCRYPT_SHA1_ALGORITHM, nullptr, 0};
  std::string out(numbers->modulus.size(), '\0');
  ULONG n = 0;
  st = BCryptEncrypt(key.get(), Bytes(plaintext), static_cast<ULONG>(plaintext.size()), &oaep,
                     nullptr, 0, reinterpret_cast<PUCHAR>(out.data()),
                     static_cast<ULONG>(out.size()), &n, BCRYPT_PAD_OAEP);
  if (!Succeeded(st)) return CngError("BCryptEncrypt(BCRYPT_PAD_OAEP)", st);
  out.resize(n);
  return out;
}

}  // namespace loadcell::crypto
