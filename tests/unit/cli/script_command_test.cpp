#include "cli/script_command.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/temp_dir.h"

namespace loadcell {
namespace {

// Moved from the Lua tests with the function: the front-end decides what
// names a script, also in a build without Lua.
TEST(ScriptCommandTest, ScriptSpellings) {
  testing::TempDir dir;
  std::string file = dir.Write("mine.lua", "function event() end\n");
  auto builtin = [](const std::string& n) { return n == "oltp" || n == "oltp_read_write"; };
  EXPECT_TRUE(IsScriptSpelling(file, +builtin));
  EXPECT_TRUE(IsScriptSpelling("/no/such/custom.lua", +builtin));
  EXPECT_FALSE(IsScriptSpelling("/no/such/oltp.lua", +builtin));  // legacy built-in
  EXPECT_FALSE(IsScriptSpelling("cpu", +builtin));
  EXPECT_FALSE(IsScriptSpelling("", +builtin));
  std::string sb = dir.Write("oltp_read_write.lua", "function event() end\n");
  EXPECT_TRUE(IsScriptSpelling(sb, +builtin));  // an existing file wins
}

}  // namespace
}  // namespace loadcell
