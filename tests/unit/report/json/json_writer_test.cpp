#include "report/json/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace loadcell {
namespace {

TEST(JsonWriterTest, QuoteEscapesSpecialCharacters) {
  EXPECT_EQ(JsonWriter::Quote("plain"), "\"plain\"");
  EXPECT_EQ(JsonWriter::Quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonWriter::Quote("l1\nl2\tx\r"), "\"l1\\nl2\\tx\\r\"");
  EXPECT_EQ(JsonWriter::Quote(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(JsonWriter::Quote(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
}

TEST(JsonWriterTest, QuoteKeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(JsonWriter::Quote("caf\xc3\xa9 \xe2\x82\xac"), "\"caf\xc3\xa9 \xe2\x82\xac\"");
  EXPECT_EQ(JsonWriter::Quote("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(JsonWriter::Quote("\xc3"), "\"\\ufffd\"");                        // truncated sequence
  EXPECT_EQ(JsonWriter::Quote("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
  EXPECT_EQ(JsonWriter::Quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate
}

TEST(JsonWriterTest, NonFiniteNumbersBecomeNull) {
  EXPECT_EQ(JsonWriter::Number(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(JsonWriter::Number(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(JsonWriter::Number(-std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(JsonWriter::Number(0.1), "0.1");
  EXPECT_EQ(JsonWriter::Number(5), "5");
  EXPECT_EQ(JsonWriter::Number(-2.5), "-2.5");
  EXPECT_EQ(JsonWriter::Number(3.08e8), "308000000");
  EXPECT_EQ(JsonWriter::Number(0.000125), "0.000125");
  EXPECT_EQ(JsonWriter::Number(1e20), "1e+20");
}

TEST(JsonWriterTest, WritesADocumentThatParses) {
  std::ostringstream out;
  JsonWriter w(out);
  w.BeginObject();
  w.Key("s");
  w.String("x\"y");
  w.Key("n");
  w.Double(std::nan(""));
  w.Key("u");
  w.Uint(18446744073709551615ull);
  w.Key("i");
  w.Int(-7);
  w.Key("b");
  w.Bool(true);
  w.Key("z");
  w.Null();
  w.Key("empty_object");
  w.BeginObject();
  w.EndObject();
  w.Key("empty_array");
  w.BeginArray();
  w.EndArray();
  w.Key("rows");
  w.BeginArray();
  w.BeginInlineArray();
  w.Uint(1);
  w.Uint(2);
  w.EndInlineArray();
  w.BeginObject();
  w.Key("k");
  w.Double(1.5);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  EXPECT_TRUE(w.Done());

  const nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["s"], "x\"y");
  EXPECT_TRUE(j["n"].is_null());
  EXPECT_EQ(j["u"].get<uint64_t>(), 18446744073709551615ull);
  EXPECT_EQ(j["i"].get<int64_t>(), -7);
  EXPECT_EQ(j["b"], true);
  EXPECT_TRUE(j["z"].is_null());
  EXPECT_TRUE(j["empty_object"].is_object() && j["empty_object"].empty());
  EXPECT_TRUE(j["empty_array"].is_array() && j["empty_array"].empty());
  EXPECT_EQ(j["rows"][0], nlohmann::json::array({1, 2}));
  EXPECT_EQ(j["rows"][1]["k"].get<double>(), 1.5);
  EXPECT_NE(out.str().find("[1, 2]"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().back(), '\n');
}

TEST(JsonWriterTest, DoublesRoundTrip) {
  for (double v : {0.1, 1.0 / 3.0, 123456.789, 1e-9, 6.02e23}) {
    std::ostringstream out;
    JsonWriter w(out);
    w.Double(v);
    EXPECT_EQ(nlohmann::json::parse(out.str()).get<double>(), v);
  }
}

}  // namespace
}  // namespace loadcell
