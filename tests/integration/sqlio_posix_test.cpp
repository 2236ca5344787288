// `loadcell sqlio` end to end, what needs POSIX: an affinity the process
// inherits (sched_setaffinity on this thread) and Ctrl-C (SIGINT).

#include <gtest/gtest.h>
#include <sched.h>

#include <fstream>
#include <string>
#include <thread>

#include "integration/sqlio_fixture.h"
#include "testing/run_binary.h"

namespace loadcell {
namespace {

using testing::ExpectAffinityRefused;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::SqlioRun;

TEST_F(SqlioRun, AffinityOutsideTheProcessIsRefused) {
  const std::string file = dir_ + "/testfile.dat";
  std::ofstream(param_) << "c:\\testfile.dat 1 0x0 8\n";  // 0: no affinity
  // A CPU the machine has but this process may not use (its affinity is
  // inherited from this thread): refused too, naming the CPUs it may use.
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  cpu_set_t only0;
  CPU_ZERO(&only0);
  CPU_SET(0, &only0);
  ASSERT_EQ(sched_setaffinity(0, sizeof(only0), &only0), 0);
  ProcessResult outside = Sqlio({"-kW", "-s1", "-b64", "-a0x2", "-F" + param_});
  ASSERT_EQ(sched_setaffinity(0, sizeof(saved), &saved), 0);
  ExpectAffinityRefused(outside,
                        std::thread::hardware_concurrency() >= 2
                            ? "affinity mask 0x2 names CPU 1, outside this process's affinity: "
                              "it may run on CPUs 0"
                            : "affinity mask 0x2 names CPU 1; this machine has CPUs 0-0",
                        file);
}

TEST_F(SqlioRun, InterruptReportsTimeActuallyRun) {
  ProcessResult w = Sqlio({"-kW", "-s1", "-b64", "-F" + param_});  // create the file
  ASSERT_EQ(w.exit_code, 0) << w.err;
  ProcessResult r = Sqlio({"-kR", "-s60", "-frandom", "-b16", "-F" + param_}, 700);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.out.find("interrupted: the figures cover the "), std::string::npos) << r.out;
  EXPECT_GT(Figure(r.out, "IOs/sec:"), 0);
  const double secs = Figure(r.out, "interrupted: the figures cover the ");
  EXPECT_GT(secs, 0.1);
  EXPECT_LT(secs, 30);
}

}  // namespace
}  // namespace loadcell
