// Bytes from input files in messages and at the start of files: a control
// byte (from a config line, a SQLIO param file, a file name, an option
// value) is written as \xHH in the one error line, never raw; a UTF-8 byte
// order mark at the start of a --config-file or SQLIO param file is no part
// of its first line. Through the real binary.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::Expand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

// How a control byte reaches a message. "@" stands for the temporary
// folder; `file` (when set) is written there as `file_name` first.
struct ControlByteCase {
  const char* name;
  const char* file_name;
  std::string file;
  std::vector<std::string> args;
  const char* escaped;  // what the error line shows
};

const std::string kEsc = "\x1b[31m";

const ControlByteCase kControlByteCases[] = {
    {"config_line_without_equals",
     "c.cfg",
     "thr\x07"
     "eads\n",
     {"cpu", "--config-file=@/c.cfg"},
     // A line that is not an option is never quoted (it may hold a secret).
     "line 1: expected 'name=value'"},
    {"config_value",
     "c.cfg",
     "threads=2" + kEsc + "\n",
     {"cpu", "--config-file=@/c.cfg"},
     "2\\x1b[31m"},
    {"config_option_name",
     "c.cfg",
     "thre\x1b"
     "ads=2\n",
     {"cpu", "--config-file=@/c.cfg"},
     "line 1: expected 'name=value'"},
    {"sqlio_param_line",
     "p.txt",
     "@/t.dat 2 0x0 1" + kEsc + "\n",
     {"sqlio", "-kR", "-F@/p.txt"},
     // A field is named by its place, not its value (it may hold a secret).
     "line 1: the size (field 4) is not a number of MB"},
    // U+009B (CSI to a UTF-8 terminal) in UTF-8: a C1 control, refused in
    // a SQLIO path as the others are.
    {"sqlio_param_path_c1",
     "p.txt",
     "@/t\xc2\x9b"
     "1m.dat 1 0x0 1\n",
     {"sqlio", "-kW", "-F@/p.txt"},
     "line 1: the path holds the control byte \\xc2\\x9b"},
    {"sqlio_argument_path_c1",
     "",
     "",
     {"sqlio", "-kW",
      "@/t\xc2\x9b"
      "1m.dat"},
     "the file name holds the control byte \\xc2\\x9b"},
    {"file_name", "", "", {"fileio", "--file-dir=@/a\rb", "prepare"}, "a\\x0db"},
    {"command_line_value", "", "", {"cpu", "--threads=2\x1b[2J"}, "2\\x1b[2J"},
    {"lua_option_value",
     "s.lua",
     "sysbench.cmdline.options = {rows = {'rows', 4}}\nfunction event() end\n",
     {"@/s.lua", "--rows=4\x08\x08x", "run"},
     "4\\x08\\x08x"},
};

void PrintTo(const ControlByteCase& c, std::ostream* os) { *os << c.name; }

class ControlBytesTest : public ::testing::TestWithParam<ControlByteCase> {};

TEST_P(ControlBytesTest, AreEscapedInTheOneErrorLine) {
  const ControlByteCase& c = GetParam();
  testing::TempDir tmp;
  if (*c.file_name != '\0') tmp.Write(c.file_name, Expand(c.file, tmp.path()));
  std::vector<std::string> args;
  for (const std::string& a : c.args) args.push_back(Expand(a, tmp.path()));
  const ProcessResult r = RunLoadcell(args);
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find(c.escaped), std::string::npos) << Show(r);
  for (const char ch : r.err) {
    const auto b = static_cast<unsigned char>(ch);
    EXPECT_TRUE(ch == '\n' || (b >= 0x20 && b != 0x7f)) << "raw byte " << int{b} << ": " << r.err;
  }
  EXPECT_EQ(r.err.find("\xc2\x9b"), std::string::npos) << r.err;  // nor a C1 control
  EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Inputs, ControlBytesTest, ::testing::ValuesIn(kControlByteCases),
                         [](const auto& info) { return std::string(info.param.name); });

// The text report's description lines (here a script's file name) and its
// options listing (a script option's value) show text from outside: its
// control bytes, C1 ones too, reach the terminal as \xHH.
TEST(TextReport, DescriptionsAndOptionValuesShowControlBytesEscaped) {
  testing::TempDir tmp;
#ifdef _WIN32
  // Windows takes no byte below 0x20 in a file name, and the test's own
  // narrow-path writes go through the ANSI code page, not UTF-8: the name
  // is plain there, the option value holds both controls.
  const std::string name = "s.lua";
  const std::string shown = "s.lua";
#else
  const std::string name = "s\x1b[2J\xc2\x9b.lua";
  const std::string shown = "s\\x1b[2J\\xc2\\x9b.lua";
#endif
  const std::string script =
      tmp.Write(name, "sysbench.cmdline.options = {tag = {'a tag', 'x'}}\nfunction event() end\n");
  const ProcessResult r = RunLoadcell({script, "--tag=v\x1b[31m\xc2\x9bw", "--events=1", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("Script: " + tmp.path() + "/" + shown + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tag=v\\x1b[31m\\xc2\\x9bw\n"), std::string::npos) << r.out;
  for (const std::string* all : {&r.out, &r.err}) {
    EXPECT_EQ(all->find('\x1b'), std::string::npos) << *all;
    EXPECT_EQ(all->find("\xc2\x9b"), std::string::npos) << *all;
  }
}

const std::string kBom = "\xEF\xBB\xBF";

TEST(ByteOrderMark, AtTheStartOfAConfigFileIsAccepted) {
  testing::TempDir tmp;
  tmp.Write("c.cfg", kBom + "threads=2\nevents=5\n");
  const ProcessResult r = RunLoadcell({"cpu", "--config-file=" + tmp.File("c.cfg")});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("Number of threads: 2"), std::string::npos) << r.out;
}

TEST(ByteOrderMark, AtTheStartOfASqlioParamFileIsAccepted) {
  testing::TempDir tmp;
  tmp.Write("p.txt", kBom + tmp.File("t.dat") + " 1 0x0 1\n");
  const ProcessResult r = RunLoadcell({"sqlio", "-kW", "-s1", "-F" + tmp.File("p.txt")});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_TRUE(std::filesystem::exists(tmp.File("t.dat"))) << Show(r);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/" + kBom + tmp.File("t.dat")));
  for (const auto& e : std::filesystem::directory_iterator(tmp.path())) {
    EXPECT_EQ(e.path().filename().string().find(kBom), std::string::npos) << e.path();
  }
}

}  // namespace
}  // namespace loadcell
