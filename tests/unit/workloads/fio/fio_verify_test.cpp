// workloads/fio/fio_verify.h: each verify type's block round-trips and a
// flipped byte anywhere in it is found; a misplaced block, a pattern that
// differs and the log of written blocks.

#include "workloads/fio/fio_verify.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "core/random.h"
#include "testing/status.h"
#include "workloads/fileio/fileio_data.h"

namespace loadcell {
namespace {

using ::testing::HasSubstr;

constexpr FioVerifyKind kChecksums[] = {FioVerifyKind::kCrc32c, FioVerifyKind::kCrc64,
                                        FioVerifyKind::kXxhash, FioVerifyKind::kMd5,
                                        FioVerifyKind::kSha256};

// What the check of a block says ("" intact); a failing digest library fails the test.
std::string Why(unsigned char* buf, const FioVerifyBlock& block, FioVerifyKind kind,
                std::string_view pattern) {
  Result<std::string> r = CheckFioVerifyBlock(buf, block, kind, pattern);
  EXPECT_OK(r);
  return r.ok() ? r.value() : "(check failed)";
}

std::vector<unsigned char> RandomBlock(size_t n) {
  std::vector<unsigned char> v(n);
  Random rng(9);
  FillRandom(v.data(), v.size(), rng);
  return v;
}

TEST(FioVerifyTest, EveryTypeRoundTripsAndFindsAFlippedByte) {
  const FioVerifyBlock block{2, 8192, 4096};
  for (const FioVerifyKind kind : kChecksums) {
    SCOPED_TRACE(FioVerifyName(kind));
    std::vector<unsigned char> buf = RandomBlock(block.length);
    ASSERT_OK(StampFioVerifyBlock(buf.data(), block, kind, 77, ""));
    Result<std::string> ok = CheckFioVerifyBlock(buf.data(), block, kind, "");
    ASSERT_OK(ok);
    EXPECT_EQ(*ok, "");
    // A flipped byte in the data, in the digest, in a header field.
    for (const size_t at :
         {size_t{4095}, size_t{2000}, FioVerifyHeaderBytes(kind) - 1, size_t{24}}) {
      buf[at] ^= 0x01;
      Result<std::string> bad = CheckFioVerifyBlock(buf.data(), block, kind, "");
      ASSERT_OK(bad);
      EXPECT_THAT(*bad, HasSubstr(std::string(FioVerifyName(kind)) + " mismatch")) << at;
      buf[at] ^= 0x01;
    }
    // Checking put the digest back: the block is intact again.
    EXPECT_EQ(Why(buf.data(), block, kind, ""), "");
  }
}

TEST(FioVerifyTest, AMisplacedOrForeignBlockIsNamed) {
  std::vector<unsigned char> buf = RandomBlock(4096);
  const FioVerifyBlock block{0, 4096, 4096};
  ASSERT_OK(StampFioVerifyBlock(buf.data(), block, FioVerifyKind::kCrc32c, 1, ""));
  const FioVerifyBlock elsewhere{0, 8192, 4096};
  EXPECT_THAT(Why(buf.data(), elsewhere, FioVerifyKind::kCrc32c, ""),
              HasSubstr("the header is of file 0 offset 4096 length 4096"));
  EXPECT_THAT(Why(buf.data(), block, FioVerifyKind::kMd5, ""), HasSubstr("the job verifies md5"));
  std::vector<unsigned char> none = RandomBlock(4096);
  EXPECT_THAT(Why(none.data(), block, FioVerifyKind::kCrc32c, ""), HasSubstr("no verify header"));
}

TEST(FioVerifyTest, PatternBlocksAreCheckedByteForByte) {
  const FioVerifyBlock block{0, 1 << 20, 4096};
  std::vector<unsigned char> buf(block.length);
  ASSERT_OK(StampFioVerifyBlock(buf.data(), block, FioVerifyKind::kPattern, 0, "\xde\xad\xbe"));
  EXPECT_EQ(buf[0], 0xde);
  EXPECT_EQ(buf[4095], "\xde\xad\xbe"[4095 % 3] & 0xff);
  EXPECT_EQ(Why(buf.data(), block, FioVerifyKind::kPattern, "\xde\xad\xbe"), "");
  buf[100] ^= 0x80;
  EXPECT_THAT(Why(buf.data(), block, FioVerifyKind::kPattern, "\xde\xad\xbe"),
              HasSubstr("the byte at offset 1048676 is 0x2d, verify_pattern has 0xad"));
}

TEST(FioVerifyTest, AChecksumWithAPatternChecksBoth) {
  const FioVerifyBlock block{0, 0, 4096};
  std::vector<unsigned char> buf(block.length);
  ASSERT_OK(StampFioVerifyBlock(buf.data(), block, FioVerifyKind::kXxhash, 3, "ab"));
  EXPECT_EQ(buf[4095], 'b');
  EXPECT_EQ(Why(buf.data(), block, FioVerifyKind::kXxhash, "ab"), "");
  // Same checksum, another pattern expected.
  EXPECT_THAT(Why(buf.data(), block, FioVerifyKind::kXxhash, "ba"),
              HasSubstr("verify_pattern has"));
}

TEST(FioVerifyTest, TheLogKeepsTheLatestWholeBlocksInOrder) {
  FioVerifyLog log;
  log.Add({0, 8192, 4096});
  log.Add({0, 0, 4096});
  log.Add({1, 0, 4096});
  log.Add({0, 0, 4096});      // the same block again: one entry
  log.Add({0, 10240, 4096});  // over the second half of 8192: that one is dropped
  log.Add({0, 16384, 8192});
  log.Add({0, 20480, 4096});  // inside 16384+8192: dropped, this one kept
  const std::vector<FioVerifyBlock> blocks = log.Take();
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks[0].offset, 0u);
  EXPECT_EQ(blocks[1].offset, 10240u);
  EXPECT_EQ(blocks[2].offset, 20480u);
  EXPECT_EQ(blocks[3].file, 1u);
  EXPECT_EQ(log.size(), 0u);
}

TEST(FioVerifyTest, HeaderLengths) {
  EXPECT_EQ(FioVerifyHeaderBytes(FioVerifyKind::kCrc32c), 36u);
  EXPECT_EQ(FioVerifyHeaderBytes(FioVerifyKind::kSha256), 64u);
  EXPECT_EQ(FioVerifyHeaderBytes(FioVerifyKind::kPattern), 0u);
  EXPECT_EQ(FioVerifyHeaderBytes(FioVerifyKind::kNone), 0u);
}

}  // namespace
}  // namespace loadcell
