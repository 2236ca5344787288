// What goes where: with a JSON or CSV report on stdout, everything else (a
// Lua script's print() and io.write from every hook, a child process) goes
// to stderr, so stdout always parses. Through the real binary.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using loadcell::testing::ProcessResult;
using loadcell::testing::RunLoadcell;
using loadcell::testing::Show;

// Where a script writes "MARK" to its standard output.
struct ScriptPrint {
  const char* where;
  const char* script;
};

const ScriptPrint kScriptPrints[] = {
    {"main_chunk", "print('MARK')\nfunction event() end\n"},
    {"init", "function init() print('MARK') end\nfunction event() end\n"},
    {"thread_init", "function thread_init() print('MARK') end\nfunction event() end\n"},
    {"event", "function event() print('MARK') end\n"},
    {"thread_done", "function thread_done() io.write('MARK\\n') end\nfunction event() end\n"},
    {"done", "function done() print('MARK') end\nfunction event() end\n"},
    {"child_process", "function init() os.execute('echo MARK') end\nfunction event() end\n"},
    {"io_stdout", "function init() io.stdout:write('MARK\\n') end\nfunction event() end\n"},
};

void PrintTo(const ScriptPrint& p, std::ostream* os) { *os << p.where; }

class ScriptPrintStreams : public ::testing::TestWithParam<std::tuple<ScriptPrint, const char*>> {};

TEST_P(ScriptPrintStreams, GoToStderrAndStdoutParses) {
  const auto& [print, format] = GetParam();
  testing::TempDir tmp;
  const std::string s = tmp.Write("p.lua", print.script);
  ProcessResult r =
      RunLoadcell({s, "--events=3", "--threads=1", std::string("--format=") + format});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(r.out.find("MARK"), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("MARK"), std::string::npos) << Show(r);
  if (std::string(format) == "json") {
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded()) << r.out;
  } else {
    EXPECT_EQ(r.out.rfind("time_s,", 0), 0u) << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(AllHooks, ScriptPrintStreams,
                         ::testing::Combine(::testing::ValuesIn(kScriptPrints),
                                            ::testing::Values("json", "csv")),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).where) + "_" +
                                  std::get<1>(info.param);
                         });

// The text report keeps a script's print() on stdout, as sysbench does; so
// does --format=json with --output-file (the text report is on stdout).
TEST(ScriptPrintStreamsText, StayOnStdoutBesideATextReport) {
  testing::TempDir tmp;
  const std::string s =
      tmp.Write("p.lua", "function init() print('MARK') end\nfunction event() end\n");
  ProcessResult text = RunLoadcell({s, "--events=3"});
  ASSERT_EQ(text.exit_code, 0) << Show(text);
  EXPECT_NE(text.out.find("MARK"), std::string::npos) << Show(text);
  ProcessResult file =
      RunLoadcell({s, "--events=3", "--format=json", "--output-file=" + tmp.path() + "/r.json"});
  ASSERT_EQ(file.exit_code, 0) << Show(file);
  EXPECT_NE(file.out.find("MARK"), std::string::npos) << Show(file);
}

}  // namespace
}  // namespace loadcell
