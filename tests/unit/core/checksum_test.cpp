// core/checksum.h: the published check values of each algorithm, and the
// slicing paths (8 bytes at a time, then the tail) against the plain
// bit-by-bit definition at every length and alignment.

#include "core/checksum.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"

namespace loadcell {
namespace {

// The CRCs by their definition: one bit at a time, reflected.
template <typename T>
T BitwiseCrc(const unsigned char* p, size_t n, T poly) {
  T crc = ~T{0};
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc & 1) != 0 ? (crc >> 1) ^ poly : crc >> 1;
  }
  return ~crc;
}

std::vector<unsigned char> RandomBytes(size_t n) {
  Random rng(42);
  std::vector<unsigned char> v(n);
  for (unsigned char& b : v) b = static_cast<unsigned char>(rng.Next());
  return v;
}

TEST(Checksum, Crc32cEveryPathGivesTheCheckValue) {
  const std::string digits = "123456789";
  EXPECT_EQ(Crc32cExtendPortable(0, digits.data(), digits.size()), 0xE3069283u);
  EXPECT_EQ(Crc32cExtendInstruction(0, digits.data(), digits.size()), 0xE3069283u);
  EXPECT_EQ(Crc32cExtendMultiply(0, digits.data(), digits.size()), 0xE3069283u);
  EXPECT_EQ(Crc32c("", 0), 0u);
  // 32 bytes of zeros and of 0xFF: the iSCSI specification's examples.
  const std::string zeros(32, '\0');
  const std::string ones(32, '\xFF');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62A8AB43u);
}

// The instruction path (three streams of 256 bytes joined, then the tail)
// and the carry-less multiply path (256-byte steps, then 16-byte ones, then
// the tail) against the table path at odd lengths around their steps, odd
// starts and a running CRC; and the extension of one range by another.
TEST(Checksum, Crc32cInstructionPathAgreesWithTheTablePath) {
  const std::vector<unsigned char> bytes = RandomBytes(20000);
  Random rng(7);
  std::vector<size_t> lengths = {1,   7,   9,   255, 256,  257,  271,  272,  511,
                                 512, 767, 768, 769, 1535, 1537, 8128, 8191, 19993};
  for (int i = 0; i < 40; ++i) lengths.push_back(rng.Uniform(0, 19000) | 1);
  for (size_t n : lengths) {
    for (size_t start : {size_t{0}, size_t{1}, size_t{3}}) {
      const unsigned char* p = bytes.data() + start;
      const auto seed = static_cast<uint32_t>(rng.Next());
      const uint32_t table = Crc32cExtendPortable(seed, p, n);
      ASSERT_EQ(Crc32cExtendInstruction(seed, p, n), table) << start << "+" << n;
      ASSERT_EQ(Crc32cExtendMultiply(seed, p, n), table) << start << "+" << n;
      ASSERT_EQ(Crc32c(p, n), BitwiseCrc<uint32_t>(p, n, 0x82F63B78u)) << start << "+" << n;
    }
  }
  const size_t cut = 3001;
  EXPECT_EQ(Crc32cExtend(Crc32c(bytes.data(), cut), bytes.data() + cut, bytes.size() - cut),
            Crc32c(bytes.data(), bytes.size()));
}

TEST(Checksum, CheckValues) {
  const std::string digits = "123456789";
  EXPECT_EQ(Crc32c(digits.data(), digits.size()), 0xE3069283u);
  EXPECT_EQ(Crc64(digits.data(), digits.size()), 0x995DC9BBDF1939FAULL);
  EXPECT_EQ(Xxh64("", 0, 0), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(Xxh64("abc", 3, 0), 0x44BC2CF5AD770999ULL);
}

TEST(Checksum, SlicedCrcsEqualTheBitwiseDefinition) {
  const std::vector<unsigned char> bytes = RandomBytes(200);
  for (size_t start = 0; start < 8; ++start) {
    for (size_t n = 0; start + n <= 120; ++n) {
      const unsigned char* p = bytes.data() + start;
      ASSERT_EQ(Crc32c(p, n), BitwiseCrc<uint32_t>(p, n, 0x82F63B78u)) << start << "+" << n;
      ASSERT_EQ(Crc64(p, n), BitwiseCrc<uint64_t>(p, n, 0xC96C5795D7870F42ULL))
          << start << "+" << n;
    }
  }
}

TEST(Checksum, EachDetectsAFlippedBit) {
  std::vector<unsigned char> bytes = RandomBytes(4096);
  const uint32_t c32 = Crc32c(bytes.data(), bytes.size());
  const uint64_t c64 = Crc64(bytes.data(), bytes.size());
  const uint64_t x = Xxh64(bytes.data(), bytes.size(), 1);
  for (size_t at : {size_t{0}, size_t{7}, size_t{2048}, size_t{4095}}) {
    bytes[at] ^= 0x10;
    EXPECT_NE(Crc32c(bytes.data(), bytes.size()), c32) << at;
    EXPECT_NE(Crc64(bytes.data(), bytes.size()), c64) << at;
    EXPECT_NE(Xxh64(bytes.data(), bytes.size(), 1), x) << at;
    bytes[at] ^= 0x10;
  }
  // The seed changes the hash.
  EXPECT_NE(Xxh64(bytes.data(), bytes.size(), 2), x);
}

}  // namespace
}  // namespace loadcell
