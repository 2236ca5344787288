// `loadcell sqlio` end to end: the four command lines of the issue (with
// -s1 and an 8 MB file in a temporary folder), JSON output, files kept
// between runs (Ctrl-C and the process's own affinity: sqlio_posix_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "integration/sqlio_fixture.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ExpectAffinityRefused;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::SqlioRun;

TEST_F(SqlioRun, IssueCommandLines) {
  // 1: creates the file at the param file's size and keeps it.
  ProcessResult w = Sqlio({"-kW", "-s1", "-fsequential", "-o4", "-b64", "-F" + param_});
  ExpectReport(w);
  EXPECT_NE(w.out.find("2 threads writing for 1 secs to file c:\\testfile.dat"), std::string::npos);
  EXPECT_NE(w.out.find("enabling multiple I/Os per thread with 4 outstanding"), std::string::npos);
  EXPECT_NE(w.out.find("(O_RDWR|O_DIRECT|O_DSYNC)"), std::string::npos);  // -BN default
  EXPECT_NE(w.out.find("drive C: is " + dir_), std::string::npos);
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/testfile.dat"));
  EXPECT_EQ(std::filesystem::file_size(dir_ + "/testfile.dat"), 8u << 20);
  const std::string m = tmp_.Read(".loadcell-sqlio.manifest");
  EXPECT_NE(m.find("created testfile.dat 8388608"), std::string::npos) << m;
  EXPECT_NE(w.out.find("Total IO"), std::string::npos);
  EXPECT_NE(w.out.find("Write (ms)"), std::string::npos);

  // 2: reads the kept file.
  ProcessResult r = Sqlio({"-kR", "-s1", "-dc", "-b16", "-frandom", "-F" + param_});
  ExpectReport(r);
  EXPECT_NE(r.out.find("using specified size: 8 MB for file: C:\\testfile.dat"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("using 16KB random IOs"), std::string::npos);

  // 3: latency figures and histogram; -t1 is noted (the param file gives threads).
  ProcessResult l =
      Sqlio({"-kR", "-t1", "-s1", "-dC", "-frandom", "-b16", "-F" + param_, "-BH", "-LS"});
  ExpectReport(l);
  EXPECT_NE(l.out.find("(O_RDWR|O_DIRECT)"), std::string::npos);
  EXPECT_NE(l.out.find("latency metrics:\nMin_Latency(ms): "), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("ms:  0  1  2"), std::string::npos);
  EXPECT_NE(l.out.find("\n%: "), std::string::npos);
  EXPECT_NE(l.out.find("note: -t1:"), std::string::npos);
  EXPECT_NE(l.out.find("6-nines"), std::string::npos);

  // 4: a file named on the command line on drive R.
  const std::string rdir = dir_ + "/r";
  std::filesystem::create_directory(rdir);
  std::ofstream(rdir + "/testfile.dat") << std::string(8 << 20, 'x');
  // A file loadcell did not make: written only with the opt-in.
  ProcessResult d = RunLoadcell({"sqlio", "--quiet", "--drive=R=" + rdir, "-dR", "-BH", "-kW",
                                 "--sqlio-use-existing=write", "-frandom", "-t8", "-o1", "-s1",
                                 "-b64", "testfile.dat"});
  ExpectReport(d);
  EXPECT_NE(d.out.find("8 threads writing for 1 secs to file R:\\testfile.dat"), std::string::npos)
      << d.out;
  EXPECT_NE(d.out.find("drive R: is " + rdir + " (--drive=R="), std::string::npos);
  EXPECT_NE(d.out.find("using current size: 8 MB"), std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(rdir + "/testfile.dat"), 8u << 20);
  EXPECT_FALSE(std::filesystem::exists(rdir + "/.loadcell-sqlio.manifest"));  // not ours
}

TEST_F(SqlioRun, ClassicAndJson) {
  ProcessResult c =
      Sqlio({"-kW", "-s1", "-frandom", "-b8", "-F" + param_, "--sqlio-classic", "-U"});
  ExpectReport(c);
  EXPECT_EQ(c.out.find("Total IO"), std::string::npos);
  EXPECT_NE(c.out.find("CPU utilization: "), std::string::npos);

  ProcessResult j = Sqlio({"-kR", "-s1", "-frandom", "-b8", "-F" + param_, "--format=json"});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.out.rfind('{', 0), 0u) << j.out.substr(0, 200);
  EXPECT_NE(j.out.find("\"test\": \"sqlio\""), std::string::npos);
  EXPECT_NE(j.out.find("\"ios_per_second\""), std::string::npos);
  EXPECT_NE(j.err.find("initialization done"), std::string::npos);  // header on stderr
}

TEST_F(SqlioRun, ThrottleRunsOpenLoopAndPrintsTheServiceTime) {
  // 8 KiB blocks, 4000 bytes/ms per thread: 488.28 I/Os per second.
  ProcessResult r = Sqlio({"-kR", "-s1", "-frandom", "-b8", "-o4", "-g4000", "-F" + param_});
  ExpectReport(r);
  EXPECT_NE(r.out.find("note: -g4000: throttled to 488.28 I/Os/sec per thread"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("throttle (-g): target "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("service time (ms, from submission): min "), std::string::npos) << r.out;

  ProcessResult j =
      Sqlio({"-kR", "-s1", "-frandom", "-b8", "-g200i", "-F" + param_, "--format=json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  nlohmann::json doc = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << j.out.substr(0, 200);
  ASSERT_TRUE(doc["summary"]["rate"].is_object()) << j.out.substr(0, 2000);
  const double threads = doc["manifest"]["threads"].get<double>();
  EXPECT_DOUBLE_EQ(doc["summary"]["rate"]["target"].get<double>(), 200 * threads);
  EXPECT_TRUE(doc["summary"]["service_latency_ns"].is_object());
  // Events due in one second at that rate: never more.
  EXPECT_LE(doc["summary"]["events"].get<double>(), 200 * threads + 1);
}

TEST_F(SqlioRun, PlacementIsAppliedAndStated) {
  // 8 MB = 1024 blocks of 8KB: 63 rows of 16 blocks from block 4.
  ProcessResult r = Sqlio({"-kR", "-s1", "-b8", "-f16", "-i32", "-S4", "-F" + param_});
  ExpectReport(r);
  EXPECT_NE(r.out.find("\tusing 8KB striped IOs\n"
                       "\tstripe factor 16: runs of 32 I/Os 16 blocks (128KB) apart; each run "
                       "one block over\n"
                       "\tI/Os based 4 blocks (32KB) into the file\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("note:"), std::string::npos) << r.out;

  ProcessResult j =
      Sqlio({"-kR", "-s1", "-b8", "-frandom", "-S512", "-F" + param_, "--format=json"});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  EXPECT_NE(j.err.find("\tI/Os based 512 blocks (4096KB) into the file: random blocks from "
                       "there to the end\n"),
            std::string::npos)
      << j.err;
  EXPECT_NE(j.out.find("Start offset (blocks)"), std::string::npos);

  // Past the end of the file: one line, exit 2.
  ProcessResult bad = Sqlio({"-kR", "-s1", "-b8", "-S1024", "-F" + param_});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("-S1024: the start offset is at or past the end"), std::string::npos)
      << bad.err;
}

TEST_F(SqlioRun, AffinityAppliedOrRefused) {
  const std::string file = dir_ + "/testfile.dat";
  std::ofstream(param_) << "\n  c:\\testfile.dat 1 0x8000000000000000 8\n";
  ExpectAffinityRefused(Sqlio({"-kW", "-s1", "-b64", "-F" + param_}),
                        "param file " + param_ +
                            " line 2: affinity mask 0x8000000000000000 names CPU 63; this "
                            "machine has CPUs 0-",
                        file);
  std::ofstream(param_) << "c:\\testfile.dat 1 0x0 8\n";  // 0: no affinity
  ExpectAffinityRefused(Sqlio({"-kW", "-s1", "-b64", "-aR0x8000000000000000", "-F" + param_}),
                        "sqlio: '-aR0x8000000000000000': affinity mask 0x8000000000000000 "
                        "names CPU 63; this machine has CPUs 0-",
                        file);
  ExpectAffinityRefused(Sqlio({"-kW", "-s1", "-b64", "-p1023", "-F" + param_}),
                        "sqlio: '-p1023': -p names CPU 1023; this machine has CPUs 0-", file);

  // CPU 0 for the param file's thread, and for every thread with -a: applied.
  std::ofstream(param_) << "c:\\testfile.dat 1 0x1 8\n";
  ProcessResult ok = Sqlio({"-kW", "-s1", "-b64", "-F" + param_});
  ExpectReport(ok);
  EXPECT_EQ(ok.out.find("not applied"), std::string::npos) << ok.out;
  ProcessResult all = Sqlio({"-kR", "-s1", "-b64", "-a0x1", "-F" + param_});
  ExpectReport(all);
  EXPECT_EQ(all.out.find("not applied"), std::string::npos) << all.out;
}

TEST_F(SqlioRun, HelpAndBareCommand) {
  ProcessResult h = RunLoadcell({"sqlio", "--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("-BN|-BY|-BH|-BS"), std::string::npos);
  ProcessResult bare = RunLoadcell({"sqlio"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.out.find("Usage: loadcell sqlio"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
