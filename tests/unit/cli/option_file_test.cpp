// ReadOptionFile: the text of a --config-file or SQLIO param file, whatever
// encoding a Windows editor saved it in.

#include "cli/option_file.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

// `text` (ASCII) as UTF-16 with its byte order mark.
std::string Utf16(const std::string& text, bool little_endian) {
  std::string out = little_endian ? "\xFF\xFE" : "\xFE\xFF";
  for (char c : text) {
    if (little_endian) {
      out.push_back(c);
      out.push_back('\0');
    } else {
      out.push_back('\0');
      out.push_back(c);
    }
  }
  return out;
}

TEST(OptionFileTest, Utf8ByteOrderMarkIsDropped) {
  testing::TempDir tmp;
  const std::string path = tmp.Write("p.txt", "\xEF\xBB\xBFthreads=2\r\n");
  Result<std::string> text = ReadOptionFile(path, "-Fp.txt");
  ASSERT_OK(text.status());
  EXPECT_EQ(*text, "threads=2\r\n");
}

TEST(OptionFileTest, Utf16InEitherByteOrderIsReadAsUtf8) {
  testing::TempDir tmp;
  const std::string line = "c:\\testfile.dat 1 0x0 100\r\n";
  for (bool little : {true, false}) {
    const std::string path = tmp.Write("p.txt", Utf16(line, little));
    Result<std::string> text = ReadOptionFile(path, "-Fp.txt");
    ASSERT_OK(text.status());
    EXPECT_EQ(*text, line) << (little ? "little-endian" : "big-endian");
  }
  // Beyond ASCII: e (U+00E9), the euro sign (U+20AC) and U+1F600 (a surrogate pair).
  const std::string path =
      tmp.Write("u.txt", std::string("\xFF\xFE\xE9\x00\xAC\x20\x3D\xD8\x00\xDE", 10));
  Result<std::string> text = ReadOptionFile(path, "-Fu.txt");
  ASSERT_OK(text.status());
  EXPECT_EQ(*text, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST(OptionFileTest, BrokenUtf16IsRefusedInOneLine) {
  testing::TempDir tmp;
  const std::string odd = tmp.Write("odd.txt", std::string("\xFF\xFE\x61\x00\x62", 5));
  Result<std::string> r = ReadOptionFile(odd, "-Fodd.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsUsageError());
  EXPECT_NE(r.status().message().find("-Fodd.txt: starts with a UTF-16 byte order mark but has "
                                      "an odd number of bytes"),
            std::string::npos)
      << r.status().message();
  const std::string lone = tmp.Write("lone.txt", std::string("\xFF\xFE\x3D\xD8\x61\x00", 6));
  r = ReadOptionFile(lone, "-Flone.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("lone high surrogate"), std::string::npos);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace loadcell
