// The default stop grace (--forced-shutdown=auto): after the time limit an
// event merely slower than 5 s is waited for, when it is no slower than
// twice the longest one completed; a stuck one still ends the run (stop_test).

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

// Every event sleeps 6 s: the first ends before the 6.2 s limit, the second
// runs 5.8 s past it, longer than a fixed 5 s grace.
TEST(StopGraceAuto, WaitsForAnEventSlowerThanFiveSeconds) {
  testing::TempDir dir;
  const std::string script = dir.path() + "/slow.lua";
  std::ofstream(script) << "local ffi = require('ffi')\n"
                           "ffi.cdef[[ int usleep(unsigned int); ]]\n"
                           "function event()\n"
                           "  for i = 1, 6 do ffi.C.usleep(1000000) end\n"
                           "end\n";
  const ProcessResult r = RunLoadcell({script, "--time=6.2", "--threads=1", "run"}, -1, 60);
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("total number of events:              2\n"), std::string::npos)
      << Show(r);
  EXPECT_EQ(r.err.find("abandoned"), std::string::npos) << Show(r);
}

}  // namespace
}  // namespace loadcell
