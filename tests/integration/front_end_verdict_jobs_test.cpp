// The verdict of front ends that run several jobs at once (fio's jobs of a
// group, DiskSpd's threads, dbsim's users), through the binary: the
// process' CPU time shared over every job's threads (client-cpu), and the
// rates their own options ask (fio's rate_iops, DiskSpd's -g) judged in
// their words (docs/validity.md). Runs of a second or two each.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "os/thread.h"
#include "testing/diskspd_run.h"
#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell::testing {
namespace {

// `loadcell fio` of `job_file` (written as job.fio) with JSON output: its
// jobs.
nlohmann::json FioJobsOf(const TempDir& dir, const std::string& job_file) {
  dir.Write("job.fio", job_file);
  const ProcessResult r = RunFio(dir, {"--output-format=json", "job.fio"});
  EXPECT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  return FioJsonJobs(r);
}

// Two jobs at once on two CPUs: one reading the page cache as fast as its
// thread can, one paced to 20 reads a second. The process used about one
// of the two CPUs, shared over both threads: the paced job's verdict does
// not say the client was saturated (the process' CPU over its one thread
// said so). The busy job's own thread was: it ran or waited for a CPU all
// run long, and its verdict names it (client-cpu judges each worker).
TEST(FioVerdictJobs, TwoConcurrentJobsShareTheProcessCpuOverBothThreads) {
  if (AllowedCpus().size() < 2) GTEST_SKIP() << "needs two CPUs for the two jobs' threads";
  TempDir dir;
  const nlohmann::json jobs =
      FioJobsOf(dir,
                "[global]\nrw=randread\nbs=4k\nioengine=psync\ntime_based\nruntime=1\n"
                "[busy]\nsize=4m\n[paced]\nsize=1m\nrate_iops=20\n");
  ASSERT_EQ(jobs.size(), 2u) << jobs.dump();
  for (const nlohmann::json& job : jobs) {
    const nlohmann::json c = VerdictCheckOf(job["loadcell"], "client-cpu");
    ASSERT_FALSE(c.is_null()) << job["loadcell"].dump();
    if (job["jobname"] == "paced") {
      EXPECT_EQ(c["level"], "pass") << c.dump();
    } else {
#ifndef _WIN32  // Wine's per-thread CPU times are not the thread's: unjudged there
      EXPECT_EQ(c["level"], "warn") << c.dump();
      EXPECT_GE(c["figures"]["busiest_worker_wanting_cpu"].get<double>(), 0.9) << c.dump();
#endif
    }
    EXPECT_EQ(c["figures"]["concurrent_threads"], 2) << c.dump();
    EXPECT_LT(c["figures"]["cpu_per_thread"].get<double>(), 0.9) << c.dump();
  }
}

TEST(FioVerdictJobs, AnUnreachableRateIopsIsInvalidAndNamedAReachableOnePasses) {
  TempDir dir;
  // 10 ms of think time after each read: at most 100 a second of the 2000
  // asked. The other job asks 200 a second, which it keeps.
  const nlohmann::json jobs =
      FioJobsOf(dir,
                "[global]\nrw=randread\nbs=4k\nsize=1m\nioengine=psync\ntime_based\nruntime=1\n"
                "[slow]\nrate_iops=2000\nthinktime=10ms\n[kept]\nrate_iops=200\n");
  ASSERT_EQ(jobs.size(), 2u) << jobs.dump();
  const nlohmann::json slow = VerdictCheckOf(jobs[0]["loadcell"], "rate");
  ASSERT_FALSE(slow.is_null()) << jobs[0]["loadcell"].dump();
  EXPECT_EQ(slow["level"], "invalid") << slow.dump();
  EXPECT_NE(slow["seen"].get<std::string>().find(
                "read I/Os per second achieved of the 2000.00 asked by rate_iops"),
            std::string::npos)
      << slow.dump();
  EXPECT_EQ(slow["advice"].get<std::string>().rfind("ask a lower rate_iops", 0), 0u) << slow.dump();
  EXPECT_EQ(slow["figures"]["rate_asked"], 2000) << slow.dump();
  EXPECT_LT(slow["figures"]["rate_achieved"].get<double>(), 150) << slow.dump();
  // Each job against its own rate.
  const nlohmann::json kept = VerdictCheckOf(jobs[1]["loadcell"], "rate");
  ASSERT_FALSE(kept.is_null()) << jobs[1]["loadcell"].dump();
  EXPECT_EQ(kept["level"], "pass") << kept.dump();
  EXPECT_EQ(kept["figures"]["rate_asked"], 200) << kept.dump();
  // No rate asked: no rate check.
  const nlohmann::json none = FioJobsOf(
      dir, "[free]\nrw=randread\nbs=4k\nsize=1m\nioengine=psync\ntime_based\nruntime=1\n");
  ASSERT_EQ(none.size(), 1u) << none.dump();
  EXPECT_TRUE(VerdictCheckOf(none[0]["loadcell"], "rate").is_null()) << none.dump();
}

// DiskSpd's -g: I/Os per second (-g<n>i) or bytes per millisecond, per
// thread; in DiskSpd's text, the verdict after its tables.
TEST(DiskspdVerdictJobs, AnUnreachableThroughputLimitIsInvalidAndNamesG) {
  TempDir dir;
  // 10 ms of think time after each I/O (-i1 -j10): at most 100 a second of the
  // 2000 asked.
  const ProcessResult slow =
      RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-r", "-c1M", "-g2000i", "-i1", "-j10", "small.dat"});
  ASSERT_EQ(slow.exit_code, 0) << ShowVerdictRun(slow);
  EXPECT_NE(slow.out.find("    INVALID rate: "), std::string::npos) << slow.out;
  EXPECT_NE(slow.out.find("I/Os per second achieved of the 2000.00 asked by -g"), std::string::npos)
      << slow.out;
  EXPECT_NE(slow.out.find("ask a lower -g"), std::string::npos) << slow.out;
  // 400 bytes a millisecond, a 4 KiB read every ~10 ms: kept.
  const ProcessResult kept = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-r", "-g400", "small.dat"});
  ASSERT_EQ(kept.exit_code, 0) << ShowVerdictRun(kept);
  EXPECT_EQ(kept.out.find(" rate: "), std::string::npos) << kept.out;
}

// dbsim's users run at once: the process' CPU time over every user's
// threads. Unbuffered, the users wait for the device: loadcell's own share
// is not a saturated client. (A host whose CPUs others keep busy may still
// warn that the users' threads, more than its CPUs, queued for one: that
// finding is the host's, said in its own words.)
TEST(DbsimVerdictJobs, TheUsersShareTheProcessCpuOverAllTheirThreads) {
  TempDir dir(BuildTree());  // O_DIRECT: a real file system, not a tmpfs
  dir.Write("small.ini",
            "[CONFIG]\nTestCycles=1\nTestCycleDuration=1\nNoBuffering=TRUE\n"
            "WriteThrough=TRUE\n[RandomUser]\nUserCount=1\nSleepAfter=0\n"
            "[AuditUser]\nUserCount=1\nAuditDelay=0\n[ReadAheadUser]\nUserCount=0\n"
            "[BulkUpdateUser]\nUserCount=0\n[File1]\nFileName=data.mdx\nInitialSize=4\n"
            "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n");
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  const ProcessResult r =
      RunLoadcell({"dbsim", "-cfg", "small.ini", "-dir", ".", "--format=json"}, w);
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  int seen = 0;
  for (const nlohmann::json& u : doc["users"]) {
    // The cycle's users; the audit pass after it is a group of its own.
    if (u["name"].get<std::string>().rfind("end-of-cycle", 0) == 0) continue;
    const nlohmann::json c = VerdictCheckOf(u, "client-cpu");
    ASSERT_FALSE(c.is_null()) << u.dump();
    ++seen;
    const nlohmann::json& f = c["figures"];
    // The random user, the log writer, the checkpoint and the audit user:
    // one thread each, the process' CPU time over the four.
    ASSERT_TRUE(f.contains("concurrent_threads")) << u["name"] << ": " << c.dump();
    EXPECT_EQ(f["concurrent_threads"].get<double>(), 4) << u["name"] << ": " << c.dump();
    EXPECT_NEAR(f["cpu_per_thread"].get<double>() * 4,
                f["process_cpu_s"].get<double>() / f["wall_s"].get<double>(), 1e-6)
        << c.dump();
    EXPECT_LT(f["cpu_per_thread"].get<double>(), 0.9) << u["name"] << ": " << c.dump();
    EXPECT_LT(f["cpu_over_usable_cpus"].get<double>(), 0.9) << u["name"] << ": " << c.dump();
    if (c["level"] != "pass") {
      EXPECT_NE(c["seen"].get<std::string>().find("worker threads shared"), std::string::npos)
          << u["name"] << ": " << c.dump();
      EXPECT_GE(f["host_busy"].get<double>(), 0.9) << c.dump();
    }
  }
  EXPECT_EQ(seen, 4) << r.out;
}

}  // namespace
}  // namespace loadcell::testing
