// Saved results from anywhere (mangled, hostile): `loadcell report` and
// `loadcell compare` end with one line and exit 2, or compare with a bounded
// number of lines; never a crash, a raw control byte, inf or nan.

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

class SavedResults : public ::testing::Test {
 protected:
  void SetUp() override {
    ProcessResult r = RunLoadcell({"cpu", "--time=0.1", "--cpu-max-prime=2000", "--format=json",
                                   "--output-file=" + dir_.File("good.json")});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    good_ = testing::ReadFile(dir_.File("good.json"));
  }
  // The good result with the first `from` replaced by `to`, saved as `name`.
  std::string Mutated(const std::string& name, const std::string& from, const std::string& to) {
    std::string text = good_;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return dir_.Write(name, text);
  }
  testing::TempDir dir_;
  std::string good_;
};

TEST_F(SavedResults, MangledResultsAreOneLineExit2) {
  struct Case {
    const char* name;
    std::string from, to;
    std::string says;
  };
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string long_schema = "\"loadcell-result/" + std::string(1 << 20, 'x') + "\"";
  const std::vector<Case> cases = {
      {"a schema nested 100,000 levels", "\"loadcell-result/1\"", deep,
       "arrays and objects nested deeper than 64 levels"},
      {"a field nested 100,000 levels", "\"rand_type\": \"special\"", "\"rand_type\": " + deep,
       "arrays and objects nested deeper than 64 levels"},
      {"a schema of 1 MiB", "\"loadcell-result/1\"", long_schema, "\"... (1048592 bytes)"},
      {"a figure of 1e308", "\"events_per_second\": ", "\"events_per_second\": 1e308, \"x\": ",
       "summary.events_per_second: 1e+308 is out of range"},
      {"a figure of -1e300", "\"total_time_s\": ", "\"total_time_s\": -1e300, \"x\": ",
       "summary.total_time_s: -1e+300 is out of range"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string bad = Mutated("bad.json", c.from, c.to);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"report", bad},
          std::vector<std::string>{"compare", dir_.File("good.json"), bad}}) {
      SCOPED_TRACE(args[0]);
      ProcessResult r = RunLoadcell(args);
      EXPECT_EQ(r.exit_code, 2) << Show(r);
      EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err.substr(0, 2000);
      EXPECT_LT(r.err.size(), 1000u) << r.err.substr(0, 2000);
      EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err.substr(0, 2000);
      EXPECT_EQ(r.err.find("inf"), std::string::npos) << r.err.substr(0, 2000);
      EXPECT_EQ(r.out, "");
    }
  }
}

TEST_F(SavedResults, ATestNameWithAnEscapeSequenceIsEscapedInCompare) {
  const std::string esc = Mutated("esc.json", "\"test\": \"cpu\"", "\"test\": \"cpu\\u001b[2J\"");
  ProcessResult r = RunLoadcell({"compare", dir_.File("good.json"), esc});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("is a 'cpu\\x1b[2J' result"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  // The same name on both sides: compared, and the table is escaped too.
  ProcessResult both = RunLoadcell({"compare", esc, esc});
  EXPECT_EQ(both.exit_code, 0) << Show(both);
  EXPECT_NE(both.out.find("test 'cpu\\x1b[2J'"), std::string::npos) << both.out;
  EXPECT_EQ(both.out.find('\x1b'), std::string::npos) << both.out;
}

// Raw control bytes of a saved result: ESC, BEL, DEL and U+009B (CSI to a
// UTF-8 terminal) as JSON escapes, which the reader decodes to the bytes.
const char kControls[] = "\\u001b[2J\\u0007\\u007f\\u009b31m";

bool HasRawControl(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b < 0x20 && b != '\n' && b != '\t' && b != '\r') || b == 0x7f) return true;
    if (b == 0xc2 && i + 1 < text.size() &&
        (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80) {
      return true;
    }
  }
  return false;
}

TEST_F(SavedResults, ControlBytesOfASavedResultNeverReachTheReportRaw) {
  std::string text = good_;
  // The test's name, the machine's description, a workload line's label,
  // the first option's value and a validity check's words: all on the page.
  for (const char* key : {"\"test\": \"", "\"cpu_model\": \"", "\"kernel\": \"",
                          "\"name\": \"Prime", "\"value\": \"", "\"seen\": \""}) {
    size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    // A check's words: the first check that has some (which one differs
    // between hosts: a virtual machine's, under Wine another's), else the
    // first check's empty ones.
    const size_t len = std::strlen(key);
    for (size_t next = at; next != std::string::npos; next = text.find(key, next + 1)) {
      if (text[next + len] != '"') {
        at = next;
        break;
      }
    }
    text.insert(at + len, kControls);
  }
  const std::string esc = dir_.Write("esc.json", text);
  ProcessResult page = RunLoadcell({"report", esc});  // the page to stdout
  ASSERT_EQ(page.exit_code, 0) << Show(page).substr(0, 2000);
  EXPECT_FALSE(HasRawControl(page.out + page.err)) << Show(page).substr(0, 4000);
  // Shown escaped, not dropped: the title, the heading, the test, CPU,
  // kernel and workload rows and the option (a check that passed shows no
  // words).
  EXPECT_GE(testing::CountOf(page.out, "\\x1b[2J\\x07\\x7f\\xc2\\x9b31m"), 7u);

  // compare: the table (text and CSV) and the warnings (an option whose
  // value differs).
  std::string other_text = text;
  other_text.erase(other_text.find(kControls, other_text.find("\"value\": \"")),
                   std::strlen(kControls));
  const std::string other = dir_.Write("other.json", other_text);
  for (const std::string format : {"--format=text", "--format=csv"}) {
    SCOPED_TRACE(format);
    ProcessResult r = RunLoadcell({"compare", format, other, esc});
    ASSERT_EQ(r.exit_code, 0) << Show(r).substr(0, 2000);
    EXPECT_FALSE(HasRawControl(r.out + r.err)) << Show(r).substr(0, 4000);
    if (format == "--format=text") {  // the CSV holds no test name
      EXPECT_NE(r.out.find("test '\\x1b[2J"), std::string::npos) << r.out.substr(0, 2000);
    }
    EXPECT_NE(r.err.find("loadcell: warning: B differs from A"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\\x1b[2J\\x07\\x7f\\xc2\\x9b31m"), std::string::npos) << r.err;
  }
}

TEST_F(SavedResults, CompareOfAHundredThousandOptionsIsSummarised) {
  std::string a_opts, b_opts;
  for (int i = 0; i < 100000; ++i) {
    const std::string head = "{\"group\": \"g\", \"name\": \"o" + std::to_string(i) + "\", ";
    a_opts += head + "\"value\": \"a\"},";
    b_opts += head + "\"value\": \"b\"},";
  }
  const std::string a = Mutated("a.json", "\"options\": [", "\"options\": [" + a_opts);
  const std::string b = Mutated("b.json", "\"options\": [", "\"options\": [" + b_opts);
  // Quadratic, this took minutes (107 s). Linear, it takes about a second:
  // 20 s leaves room for a loaded machine and still fails a quadratic one.
  const auto started = std::chrono::steady_clock::now();
  ProcessResult r = RunLoadcell({"compare", a, b});
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.exit_code, 0) << Show(r).substr(0, 2000);
  EXPECT_LT(took, 20.0);
  EXPECT_LE(testing::OutputLines(r.err), 25) << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find("loadcell: warning: 99980 more differences not shown (100000 in all)"),
            std::string::npos)
      << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find("B differs from A in --o0: a in A, b in B"), std::string::npos)
      << r.err.substr(0, 2000);
}

TEST_F(SavedResults, AChangeOutOfRangeIsNamedSo) {
  // Both figures in range, their change is not: never +inf%.
  const std::string tiny =
      Mutated("tiny.json", "\"events_per_second\": ", "\"events_per_second\": 1e-300, \"x\": ");
  const std::string huge =
      Mutated("huge.json", "\"events_per_second\": ", "\"events_per_second\": 1e17, \"x\": ");
  ProcessResult r = RunLoadcell({"compare", tiny, huge});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("out of range"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace loadcell
