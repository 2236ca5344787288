// The queue-depth check's Little's law through the binary (docs/validity.md,
// `queue-depth`): an asynchronous engine asked for a depth the client does
// not keep, because it spends its time between a completion and the next
// submission. fio's verify=md5 on reads does that: each block read is
// checked (an MD5 of 1 MiB, milliseconds of CPU) after its completion is
// reaped and before its slot is submitted again, while the read itself, of
// a file in the page cache, takes a fraction of that. fio's latency, from
// submission to completion, leaves the checks out, so the mean in flight
// (IOPS x mean latency) falls far below the 16 asked. POSIX: io_uring.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/io_engine.h"
#include "testing/fio_run.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell::testing {
namespace {

TEST(VerdictDepth, ReadsVerifiedBetweenCompletionAndSubmissionDoNotKeepTheDepth) {
  if (!CheckIoEngine("io_uring", "").ok()) GTEST_SKIP() << "no io_uring here";
  TempDir dir(BuildTree());
  const std::vector<std::string> file = {"--filename=depth.bin", "--bs=1m", "--size=16m",
                                         "--verify=md5"};
  // The blocks, written with their MD5 headers (no verify pass).
  std::vector<std::string> write = {"--name=lay", "--rw=write", "--do_verify=0"};
  write.insert(write.end(), file.begin(), file.end());
  const ProcessResult laid = RunFio(dir, write);
  ASSERT_EQ(laid.exit_code, 0) << ShowVerdictRun(laid);
  std::vector<std::string> read = {"--name=depth",        "--rw=read",    "--ioengine=io_uring",
                                   "--iodepth=16",        "--time_based", "--runtime=1",
                                   "--output-format=json"};
  read.insert(read.end(), file.begin(), file.end());
  const ProcessResult r = RunFio(dir, read);
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json jobs = FioJsonJobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  const nlohmann::json c = VerdictCheckOf(jobs[0]["loadcell"], "queue-depth");
  ASSERT_FALSE(c.is_null()) << jobs[0]["loadcell"].dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_EQ(c["figures"]["queue_depth_asked"], 16) << c.dump();
  const double in_flight = c["figures"]["mean_in_flight"].get<double>();
  EXPECT_LT(in_flight, 8) << c.dump();
  // Little's law from the check's own figures.
  EXPECT_NEAR(in_flight,
              c["figures"]["requests_per_second"].get<double>() *
                  c["figures"]["mean_latency_s"].get<double>(),
              1e-9 + in_flight * 1e-9)
      << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("requests in flight on average"), std::string::npos)
      << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("of the 16 asked"), std::string::npos) << c.dump();
}

}  // namespace
}  // namespace loadcell::testing
