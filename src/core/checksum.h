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
// "123456789" gives 0xE3069283. The fastest way the CPU has (checked at
// run time): from 256 bytes AVX-512's carry-less multiply (VPCLMULQDQ),
// else SSE4.2's crc32 instruction in three interleaved streams, else
// slicing by 8; the same values every way.
uint32_t Crc32c(const void* data, size_t len);
// Continues a CRC-32C: Crc32cExtend(Crc32c(a), b) is Crc32c of a then b;
// Crc32cExtend(0, b) is Crc32c(b).
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t len);
// Each way Crc32cExtend computes, for the tests that hold them equal: the
// table one on any CPU; the crc32 instruction one (the table one where
// Crc32cHardwareAvailable() is false); the carry-less multiply one (the
// instruction one below 256 bytes or where the CPU lacks it).
bool Crc32cHardwareAvailable();
uint32_t Crc32cExtendPortable(uint32_t crc, const void* data, size_t len);
uint32_t Crc32cExtendInstruction(uint32_t crc, const void* data, size_t len);
uint32_t Crc32cExtendMultiply(uint32_t crc, const void* data, size_t len);

// CRC-64/XZ (initial value and final xor all ones); "123456789" gives
// 0x995DC9BBDF1939FA.
uint64_t Crc64(const void* data, size_t len);
// XXH64 with `seed`; "" with seed 0 gives 0xEF46DB3751D8E999.
uint64_t Xxh64(const void* data, size_t len, uint64_t seed);

}  // namespace loadcell
