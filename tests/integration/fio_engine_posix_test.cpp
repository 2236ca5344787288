// `loadcell fio` on a system without the engine a job asks for: fio's
// windowsaio on Linux is refused in one line naming the job's line, before
// anything is laid out (exit 2).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "testing/fio_run.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

TEST(FioEngineTest, WindowsaioOnLinuxIsRefusedBeforeAnythingIsLaidOut) {
  TempDir dir;
  dir.Write("w.fio", "[w]\nrw=write\nsize=64k\nioengine=windowsaio\n");
  ProcessResult r = RunFio(dir, {"w.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("w.fio:4: ioengine=windowsaio does not run on this system or build of "
                       "loadcell (what runs here: psync, sync, pvsync, pvsync2, "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find("file-io-mode"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "w.0.0"));
}

}  // namespace
}  // namespace loadcell::testing
