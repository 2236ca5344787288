// The tests' process runner (testing/run_binary.h; on Windows
// CreateProcessW with a quoted command line) through a Lua script that
// prints what it was given: arguments arrive byte for byte whatever blanks,
// quotes and backslashes they hold, the environment and the working folder
// are the ones asked for, a child that fills both pipes does not block, and
// the timeout ends a child that runs on.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using loadcell::testing::ChildWatch;
using loadcell::testing::ProcessResult;
using loadcell::testing::RunLoadcell;
using loadcell::testing::Show;

// Prints each of its options between brackets, one a line, and the
// variable LOADCELL_CHILD_TEST, from init().
constexpr const char* kEchoScript = R"(
sysbench.cmdline.options = {a = {"", ""}, b = {"", ""}, c = {"", ""}, d = {"", ""},
                            e = {"", ""}, f = {"", ""}}
function init()
  for _, k in ipairs({"a", "b", "c", "d", "e", "f"}) do
    io.write("[" .. k .. "=" .. tostring(sysbench.opt[k]) .. "]\n")
  end
  io.write("[env=" .. tostring(os.getenv("LOADCELL_CHILD_TEST")) .. "]\n")
end
function event() end
)";

TEST(ChildProcess, ArgumentsArriveAsTheyWere) {
  testing::TempDir tmp;
  const std::string script = tmp.Write("echo.lua", kEchoScript);
  const std::vector<std::string> values = {"two words", R"(say "hi")",    R"(ends\)",
                                           R"(ends\\)", R"(a\\"b \" c\)", "gr\u00f6\u00dfe\ttab"};
  const char* names[] = {"a", "b", "c", "d", "e", "f"};
  std::vector<std::string> args = {script};
  for (size_t i = 0; i < values.size(); ++i)
    args.push_back(std::string("--") + names[i] + "=" + values[i]);
  args.insert(args.end(), {"--events=1", "run"});
  ChildWatch watch;
  watch.env = {{"LOADCELL_CHILD_TEST", "from the runner"}};
  const ProcessResult r = RunLoadcell(args, watch);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string line = std::string("[") + names[i] + "=" + values[i] + "]\n";
    EXPECT_NE(r.out.find(line), std::string::npos) << line << Show(r);
  }
  EXPECT_NE(r.out.find("[env=from the runner]\n"), std::string::npos) << Show(r);
}

// The working folder is the one asked for: fileio's default --file-dir is
// the current one.
TEST(ChildProcess, RunsInTheFolderAskedFor) {
  testing::TempDir tmp;
  ChildWatch watch;
  watch.cwd = tmp.path();
  const ProcessResult r =
      RunLoadcell({"fileio", "--file-num=1", "--file-total-size=64K", "prepare"}, watch);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_FALSE(testing::ReadFile(tmp.File("test_file.0")).empty()) << Show(r);
  EXPECT_EQ(
      RunLoadcell({"fileio", "--file-num=1", "--file-total-size=64K", "cleanup"}, watch).exit_code,
      0);
  EXPECT_TRUE(tmp.IsEmpty());
}

int Occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// 2 MiB on each pipe, written alternately: read one pipe at a time, the
// child would block on the other.
TEST(ChildProcess, BothPipesFullDoNotBlock) {
  testing::TempDir tmp;
  const std::string script = tmp.Write("flood.lua", R"(
function init()
  local line = string.rep("x", 1023) .. "\n"
  for _ = 1, 2048 do io.stdout:write(line) io.stderr:write(line) end
  io.stdout:flush()
end
function event() end
)");
  const ProcessResult r = RunLoadcell({script, "--events=1", "run"});
  ASSERT_EQ(r.exit_code, 0) << r.exit_code << " " << r.err.substr(0, 200);
  const std::string line = std::string(1023, 'x') + "\n";
  EXPECT_EQ(Occurrences(r.out, line), 2048) << r.out.size();
  EXPECT_EQ(Occurrences(r.err, line), 2048) << r.err.size();
}

// A child that runs on is killed at the timeout: exit 137 (SIGKILL, or
// TerminateProcess with 137), within seconds, with what it had printed.
TEST(ChildProcess, TimeoutEndsTheChild) {
  ChildWatch watch;
  watch.timeout_s = 2;
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult r = RunLoadcell({"cpu", "--time=300", "--report-interval=1", "run"}, watch);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 137) << Show(r);
  EXPECT_LT(took, 30.0);
  EXPECT_NE(r.out.find("Threads started"), std::string::npos) << Show(r);
}

}  // namespace
}  // namespace loadcell
