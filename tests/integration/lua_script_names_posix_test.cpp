// How sysbench names a script, through the binary: standard input (a shell
// pipes it: POSIX) and Lua modules found through LUA_PATH.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::Show;

// sysbench's ways to name a script: "-" reads it from standard input, and a
// name that is no built-in test is a Lua module found through LUA_PATH
// ("dir.name" is dir/name.lua).
TEST(LuaScriptNames, ScriptFromStdinAndAsAModuleThroughLuaPath) {
  testing::TempDir dir;
  const std::string dir_ = dir.path();
  const auto Write = [&](const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  };
  const std::string in = Write("in.lua", "print('from stdin')\nfunction event() end\n");
  testing::ChildWatch watch;
  auto piped = testing::RunCommand(
      {"/bin/sh", "-c", "exec \"$0\" - --events=1 run < \"$1\"", testing::LoadcellBinary(), in},
      watch);
  ASSERT_EQ(piped.exit_code, 0) << Show(piped);
  EXPECT_EQ(testing::CountOf(piped.out, "from stdin\n"), 2u) << piped.out;  // main + 1 worker
  std::filesystem::create_directories(dir_ + "/mods");
  Write("mods/my_bench.lua", "print('module loaded')\nfunction event() end\n");
  watch.env = {{"LUA_PATH", dir_ + "/?.lua;;"}};
  auto module = testing::RunLoadcell({"mods.my_bench", "--events=1", "run"}, watch);
  ASSERT_EQ(module.exit_code, 0) << Show(module);
  EXPECT_EQ(testing::CountOf(module.out, "module loaded\n"), 2u) << module.out;
  EXPECT_NE(module.out.find("mods/my_bench.lua"), std::string::npos) << module.out;
}

// sysbench mode, as sysbench's cmdline.t: a script on standard input only
// runs its main chunk, whatever the command; without one its malformed
// sysbench.cmdline.commands is not looked at.
TEST(LuaScriptNames, SysbenchModeRunsOnlyTheMainChunkOfAScriptFromStdin) {
  testing::TempDir dir;
  const std::string in = dir.Write("in.lua",
                                   "function prepare() print('prepare') end\n"
                                   "sysbench.cmdline.commands = {cmd1 = 'wrong structure'}\n"
                                   "print('global ' .. tostring(sysbench.cmdline.command))\n");
  testing::ChildWatch watch;
  auto piped =
      testing::RunCommand({"/bin/sh", "-c", "exec \"$0\" --compat=sysbench - prepare < \"$1\"",
                           testing::LoadcellBinary(), in},
                          watch);
  EXPECT_EQ(piped.exit_code, 0) << Show(piped);
  EXPECT_NE(piped.out.find("\n\nglobal nil\n"), std::string::npos) << Show(piped);
  EXPECT_EQ(piped.out.find("prepare\n"), std::string::npos) << Show(piped);
  EXPECT_EQ(piped.out.find("FATAL"), std::string::npos) << Show(piped);
}

}  // namespace
}  // namespace loadcell
