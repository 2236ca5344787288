#pragma once
// Non-cryptographic checksums of byte ranges, by their published
// definitions: CRC-32C (Castagnoli, the iSCSI polynomial), CRC-64/XZ (the
// ECMA-182 polynomial, reflected, as xz uses it) and XXH64 (Yann Collet's
// xxHash, 64-bit). fio's verify types crc32c, crc64 and xxhash use these;
// MD5 and SHA-256 are os/crypto.h's (the system's libraries). Pure and
// thread-safe.

#include <cstddef>
#include <cstdint>

namespace loadcell {

// CRC-32C of `len` bytes (initial value and final xor 0xFFFFFFFF);
// "123456789" gives 0xE3069283.
uint32_t Crc32c(const void* data, size_t len);
// CRC-64/XZ (initial value and final xor all ones); "123456789" gives
// 0x995DC9BBDF1939FA.
uint64_t Crc64(const void* data, size_t len);
// XXH64 with `seed`; "" with seed 0 gives 0xEF46DB3751D8E999.
uint64_t Xxh64(const void* data, size_t len, uint64_t seed);

}  // namespace loadcell
