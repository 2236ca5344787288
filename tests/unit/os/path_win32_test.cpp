// Paths on Windows: both separators, and a drive's root stays a root.

#include <gtest/gtest.h>

#include "os/file_system.h"

namespace loadcell {
namespace {

TEST(Win32PathTest, DirnameTakesBothSeparatorsAndKeepsTheDriveRoot) {
  EXPECT_EQ(Dirname("C:\\bench\\oltp.lua"), "C:\\bench");
  EXPECT_EQ(Dirname("C:\\oltp.lua"), "C:\\");
  EXPECT_EQ(Dirname("C:/bench/oltp.lua"), "C:/bench");
  EXPECT_EQ(Dirname("bench\\sub/oltp.lua"), "bench\\sub");
  EXPECT_EQ(Dirname("C:oltp.lua"), "C:");
  EXPECT_EQ(Dirname("\\oltp.lua"), "\\");
  EXPECT_EQ(Dirname("oltp.lua"), ".");
}

TEST(Win32PathTest, BasenameTakesBothSeparators) {
  EXPECT_EQ(Basename("C:\\bench\\oltp.lua"), "oltp.lua");
  EXPECT_EQ(Basename("C:/bench\\sub/oltp.lua"), "oltp.lua");
  EXPECT_EQ(Basename("oltp.lua"), "oltp.lua");
}

TEST(Win32PathTest, RootLength) {
  EXPECT_EQ(PathRootLength("C:\\f"), 3u);
  EXPECT_EQ(PathRootLength("c:/f"), 3u);
  EXPECT_EQ(PathRootLength("C:f"), 2u);
  EXPECT_EQ(PathRootLength("/f"), 1u);
  EXPECT_EQ(PathRootLength("f"), 0u);
  EXPECT_EQ(PathRootLength("1:\\f"), 0u);
}

}  // namespace
}  // namespace loadcell
