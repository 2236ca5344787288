// Saved results that were damaged or made by someone else: thousands of
// mutants of one result that loadcell wrote (cut short, bytes replaced,
// numbers out of range, strings of control bytes or of great length, values
// nested without end), each read, rendered as the HTML page and compared
// with the original in-process. None may crash or hang; each is either read
// or refused in one line that quotes no raw control byte, and nothing
// printed holds a raw control byte, an infinity or a NaN.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands/compare_command.h"
#include "report/html/html_report.h"
#include "report/json/json_reader.h"
#include "testing/report_fixture.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::FakeWorkload;
using testing::Format;

// Whether `text` holds a C0 control other than newline and tab, DEL, or a
// C1 control in UTF-8.
std::string RawAt(const std::string& text);
bool HasRawControl(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) return true;
    if (b == 0xc2 && i + 1 < text.size() &&
        (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80) {
      return true;
    }
  }
  return false;
}

std::string RawAt(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f ||
        (b == 0xc2 && i + 1 < text.size() &&
         (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80)) {
      const size_t from = i > 80 ? i - 80 : 0;
      std::string around = text.substr(from, 160);
      for (char& c : around)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '#';
      return "byte " + std::to_string(b) + " in: " + around;
    }
  }
  return "";
}

// The spans of the number tokens of a JSON text (outside strings).
std::vector<std::pair<size_t, size_t>> Numbers(const std::string& json) {
  std::vector<std::pair<size_t, size_t>> out;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i;
      while (j < json.size() &&
             std::string_view("+-.eE0123456789").find(json[j]) != std::string_view::npos) {
        ++j;
      }
      out.emplace_back(i, j - i);
      i = j - 1;
    }
  }
  return out;
}

// The spans of the string tokens' contents.
std::vector<std::pair<size_t, size_t>> Strings(const std::string& json) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = 0; i < json.size(); ++i) {
    if (json[i] != '"') continue;
    size_t j = i + 1;
    while (j < json.size() && json[j] != '"') j += json[j] == '\\' ? 2 : 1;
    out.emplace_back(i + 1, j - i - 1);
    i = j;
  }
  return out;
}

std::string Mutant(const std::string& json, int kind, std::mt19937_64& rng) {
  const auto pick = [&rng](size_t n) {
    return static_cast<size_t>(rng() % std::max<size_t>(n, 1));
  };
  static const char* const kNumbers[] = {"1e308",
                                         "-1e308",
                                         "1e-320",
                                         "-0",
                                         "18446744073709551616",
                                         "99999999999999999999999",
                                         "-1",
                                         "0.5",
                                         "1e999",
                                         "NaN",
                                         "Infinity",
                                         "4294967296",
                                         "-9223372036854775809"};
  static const std::string kStrings[] = {"\\u001b[2J\\u001b[Hforged",
                                         "\\u0000",
                                         "\\u009b31m",
                                         std::string(100000, 'x'),
                                         "\\ud800",
                                         "\xff\xfe",
                                         "a\\nb\\rc",
                                         "{\\\"x\\\":1}"};
  std::string m = json;
  switch (kind) {
    case 0:  // cut short
      m.resize(pick(json.size()));
      break;
    case 1: {  // one byte replaced
      static const char kBytes[] = {'\x1b', '"', '{',  '}', '[', ']',  ',',    ':',
                                    '9',    '-', '\0', 'e', 'n', '\\', '\x7f', '\xc2'};
      m[pick(m.size())] = kBytes[pick(sizeof(kBytes))];
      break;
    }
    case 2: {  // a number out of range or of another kind
      const auto spans = Numbers(json);
      const auto [at, len] = spans[pick(spans.size())];
      m.replace(at, len, kNumbers[pick(std::size(kNumbers))]);
      break;
    }
    case 3: {  // a string of control bytes, great length or bad escapes
      const auto spans = Strings(json);
      const auto [at, len] = spans[pick(spans.size())];
      m.replace(at, len, kStrings[pick(std::size(kStrings))]);
      break;
    }
    case 4: {  // a value nested without end in place of a number
      const auto spans = Numbers(json);
      const auto [at, len] = spans[pick(spans.size())];
      const size_t depth = 1 + pick(200000);
      m.replace(at, len, std::string(depth, '[') + "1" + std::string(depth, ']'));
      break;
    }
    default: {  // a span duplicated or removed
      const size_t at = pick(m.size());
      const size_t len = pick(std::min<size_t>(200, m.size() - at));
      if (rng() % 2 == 0)
        m.insert(at, m.substr(at, len));
      else
        m.erase(at, len);
      break;
    }
  }
  return m;
}

TEST(SavedResultMutants, EachIsReadOrRefusedInOneLineAndNothingPrintedIsRaw) {
  FakeWorkload w;
  const std::string original =
      testing::Render(Format::kJson, w, testing::FixtureFullResult(), testing::FixtureSettings());
  Result<ResultData> base = ParseResultJson(original, "a.json");
  ASSERT_TRUE(base.ok()) << base.status().ToString();
  std::mt19937_64 rng(20261206);
  const testing::TempDir dir;
  const std::string a = dir.File("a.json");
  const std::string b = dir.File("b.json");
  {
    std::ofstream file(a, std::ios::binary);
    file << original;
  }
  const auto started = std::chrono::steady_clock::now();
  int read = 0;
  int refused = 0;
  constexpr int kMutants = 3000;
  for (int i = 0; i < kMutants; ++i) {
    const int kind = i % 6;
    const std::string m = Mutant(original, kind, rng);
    SCOPED_TRACE("mutant " + std::to_string(i) + " of kind " + std::to_string(kind));
    Result<ResultData> d = ParseResultJson(m, "b.json");
    if (!d.ok()) {
      ++refused;
      const std::string line = d.status().ToString();
      EXPECT_EQ(line.find('\n'), std::string::npos) << line.substr(0, 300);
      EXPECT_FALSE(HasRawControl(line)) << line.substr(0, 300);
      EXPECT_LT(line.size(), 2000u) << line.substr(0, 300);
      continue;
    }
    ++read;
    const std::string page = RenderRunHtml(*d);
    EXPECT_FALSE(HasRawControl(page)) << RawAt(page);
    // `loadcell compare a.json b.json`, as printed.
    {
      std::ofstream file(b, std::ios::binary | std::ios::trunc);
      file << m;
    }
    std::ostringstream out;
    std::ostringstream err;
    const int code =
        RunCompareCommand({a, b, kind % 2 == 0 ? "--format=text" : "--format=csv"}, out, err);
    const std::string printed = out.str() + err.str();
    EXPECT_TRUE(code == 0 || code == 2) << code << "\n" << err.str();
    EXPECT_FALSE(HasRawControl(printed)) << RawAt(printed);
    for (const char* word : {"inf", "nan", "NaN"}) {
      EXPECT_EQ(out.str().find(word), std::string::npos) << word << "\n" << out.str();
    }
  }
  // Both kinds of outcome were met: the mutants are not all refused at once.
  EXPECT_GT(read, kMutants / 10);
  EXPECT_GT(refused, kMutants / 10);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(took, 60.0);  // linear in what it reads: a few seconds here
}

}  // namespace
}  // namespace loadcell
