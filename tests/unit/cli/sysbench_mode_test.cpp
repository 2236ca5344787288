#include "cli/sysbench_mode.h"

#include <gtest/gtest.h>

#include <string>

namespace loadcell {
namespace {

// The name the binary was started by decides sysbench mode: the base name
// (after the last '/' or '\'), in any case, is `sysbench` or `sysbench.exe`
// (the link of `make install`, the copy in the Windows zip).
TEST(StartedAsSysbench, TheLinkOrTheWindowsCopyInAnyFolderAndCase) {
  for (const char* argv0 : {"sysbench", "./sysbench", "/usr/local/bin/sysbench", "sysbench.exe",
                            "SYSBENCH.EXE", "SysBench.Exe", "C:\\Tools\\loadcell\\sysbench.exe",
                            "Z:\\opt\\bin\\Sysbench.exe", "C:/Tools/sysbench.EXE"}) {
    EXPECT_TRUE(StartedAsSysbench(argv0)) << argv0;
  }
}

TEST(StartedAsSysbench, AnyOtherNameIsLoadcellsOwnMode) {
  for (const char* argv0 :
       {"", "loadcell", "/usr/local/bin/loadcell", "loadcell.exe", "C:\\sysbench\\loadcell.exe",
        "/opt/sysbench/loadcell", "sysbench2", "sysbench.exe.bak", "my-sysbench", "sysbench.bat",
        "sysbench\\", "sysbench/"}) {
    EXPECT_FALSE(StartedAsSysbench(argv0)) << argv0;
  }
}

}  // namespace
}  // namespace loadcell
