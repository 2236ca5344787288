#include "core/base64.h"

#include <gtest/gtest.h>

#include "testing/status.h"

namespace loadcell {
namespace {

// RFC 4648, section 10.
TEST(Base64Test, EncodesRfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(Base64Test, DecodesWhatItEncodesAndSkipsLineBreaks) {
  for (const char* text : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    Result<std::string> r = Base64Decode(Base64Encode(text));
    ASSERT_OK(r) << text;
    EXPECT_EQ(*r, text);
  }
  Result<std::string> r = Base64Decode("Zm9v\r\nYmFy\n");
  ASSERT_OK(r);
  EXPECT_EQ(*r, "foobar");
  Result<std::string> binary = Base64Decode("//4A");
  ASSERT_OK(binary);
  EXPECT_EQ(*binary, std::string("\xff\xfe\x00", 3));
}

TEST(Base64Test, RefusesTextThatIsNotBase64) {
  for (const char* text : {"Zm9v!", "Zg=a", "Z", "Zm9vY", "Zm9v=", "Zg==="}) {
    Result<std::string> r = Base64Decode(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_NE(r.status().message().find("base64"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace loadcell
