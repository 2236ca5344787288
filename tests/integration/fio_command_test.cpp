// `loadcell fio`: job files and fio's command-line form through the binary
// (the figures against the real fio: scripts/test-fio-compat).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

ProcessResult Fio(const TempDir& dir, std::vector<std::string> args) {
  return RunFio(dir, std::move(args));
}

TEST(FioCommandTest, TwoJobsFromAJobFileRunTogetherWithFiosNamesAndCounts) {
  TempDir dir;
  dir.Write("two.fio",
            "; two jobs, one group\n"
            "[global]\n"
            "bs=4k\n"
            "size=2m\n"
            "ioengine=psync\n"
            "[reader]\n"
            "rw=randread\n"
            "[writer]\n"
            "rw=write\n"
            "bs=64k\n");
  ProcessResult r = Fio(dir, {"two.fio"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("reader: (g=0): rw=randread"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("issued rwts: total=512,0,0,0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("issued rwts: total=0,32,0,0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Run status group 0 (all jobs):"), std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(dir / "reader.0.0"), 2u << 20);
  EXPECT_EQ(std::filesystem::file_size(dir / "writer.0.0"), 2u << 20);
}

TEST(FioCommandTest, JsonOnStdoutIsJsonAlone) {
  TempDir dir;
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=a", "--rw=read", "--size=1m", "--ioengine=null"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.front(), '{') << r.out;
  EXPECT_EQ(r.out.substr(r.out.find_last_not_of('\n')), "}\n");
  EXPECT_NE(r.out.find("\"fio version\": \"loadcell-"), std::string::npos);
  EXPECT_NE(r.out.find("\"total_ios\": 256"), std::string::npos);
  EXPECT_EQ(r.out.find("Starting"), std::string::npos);
}

// fio's option lists: the global sections' in "global options" (an option
// given bare, as thread here, left out as fio leaves it), each job's own in
// its "job options", a command-line job's --name among them.
TEST(FioCommandTest, JsonListsTheGlobalOptionsApartFromEachJobsAsFioDoes) {
  TempDir dir;
  dir.Write("g.fio", "[global]\nbs=4k\nioengine=null\nthread\n[a]\nrw=read\nsize=1m\n");
  ProcessResult r = Fio(dir, {"--output-format=json", "g.fio"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_EQ(doc["global options"], nlohmann::json({{"bs", "4k"}, {"ioengine", "null"}}));
  EXPECT_EQ(doc["jobs"][0]["job options"], nlohmann::json({{"rw", "read"}, {"size", "1m"}}));
  r = Fio(dir, {"--output-format=json", "--name=c", "--ioengine=null", "--size=1m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_FALSE(doc.contains("global options")) << r.out;
  EXPECT_EQ(doc["jobs"][0]["job options"],
            nlohmann::json({{"name", "c"}, {"ioengine", "null"}, {"size", "1m"}}));
}

TEST(FioCommandTest, OutputFileNumjobsAndStonewallGroups) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--output=res.json", "--output-format=json+", "--ioengine=null",
                              "--size=1m", "--name=a", "--numjobs=2", "--name=b", "--stonewall"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const std::string json = dir.Read("res.json");
  EXPECT_NE(json.find("\"bins\""), std::string::npos);
  // a and its clone in group 0, b (after the stonewall) in group 1.
  EXPECT_NE(json.find("\"groupid\": 1"), std::string::npos) << json;
  EXPECT_EQ(CountOf(json, "\"jobname\""), 3u);
}

TEST(FioCommandTest, BadInputIsOneLineAndExitTwoBeforeAnythingIsWritten) {
  TempDir dir;
  dir.Write("bad.fio", "[j]\nrw=randread\nsize=1m\nzonemode=zbd\n");
  ProcessResult r = Fio(dir, {"bad.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.fio:4: fio option 'zonemode' is not supported by loadcell"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "j.0.0"));

  r = Fio(dir, {"--name=x", "--rw=randread", "--filesize=1m-2m", "--random_distribution=zipf"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("with a filesize range is not supported by loadcell yet"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.0.0"));

  r = Fio(dir, {"--output-format=terse", "--name=x", "--size=1m"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--output-format=terse"), std::string::npos) << r.err;
}

// A raw device Windows does not have (\\.\PhysicalDrive99, the volume of
// a drive letter not there, fio's `\:` escape for its colon): one line
// naming it, exit 2. (On Linux such a name is a file's.)
TEST(FioCommandTest, AWindowsDeviceThatIsNotThereIsOneLine) {
#ifndef _WIN32
  GTEST_SKIP() << "Windows device names";
#else
  TempDir dir;
  for (const char* device : {"\\\\.\\PhysicalDrive99", "\\\\.\\Q\\:"}) {
    ProcessResult r = Fio(dir, {"--name=d", std::string("--filename=") + device, "--rw=randread",
                                "--bs=4k", "--size=1m"});
    EXPECT_EQ(r.exit_code, 2) << device << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(": no such device on this system"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(dir.IsEmpty());
#endif
}

TEST(FioCommandTest, ParseOnlyChecksAndRunsNothing) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--parse-only", "--name=p", "--size=1m"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "p.0.0"));
}

// fio's switches that take no value refuse one (fio's getopt does too):
// one line, exit 2, nothing laid out.
TEST(FioCommandTest, ASwitchGivenAValueIsOneLine) {
  for (const char* bad : {"--parse-only=7", "--readonly=3", "--allow-destructive=x"}) {
    SCOPED_TRACE(bad);
    TempDir dir;
    const ProcessResult r = Fio(dir, {bad, "--name=j", "--rw=read", "--size=1m"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("takes no value"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "j.0.0"));
  }
}

TEST(FioCommandTest, UnlinkRemovesTheJobsFilesAndAFailedJobExitsOne) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--name=u", "--size=1m", "--rw=write", "--unlink=1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "u.0.0"));
  // A file that is a folder: the layout fails, exit 1.
  std::filesystem::create_directory(dir / "sub");
  r = Fio(dir, {"--name=f", "--size=1m", "--filename=" + (dir / "sub")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("job f:"), std::string::npos) << r.err;
  // A folder that does not exist: refused before anything is made, one
  // line, exit 2 (named relative to the run's folder: a Windows drive's
  // colon would need fio's escape).
  r = Fio(dir, {"--name=f", "--size=1m", "--directory=missing"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.err,
            "loadcell: error: command line argument 3: job f: the folder missing of "
            "missing/f.0.0 does not exist: loadcell makes no folder for a job's files (fio "
            "would); make it first\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
}

// The first job of a JSON run: its figures, or null when the output is no
// JSON.
nlohmann::json FirstJob(const ProcessResult& r) {
  const nlohmann::json jobs = FioJsonJobs(r);
  return jobs.empty() ? nlohmann::json(nullptr) : jobs[0];
}

uint64_t Ios(const nlohmann::json& job, const char* dir) {
  return job.is_null() ? 0 : job[dir]["total_ios"].get<uint64_t>();
}

TEST(FioCommandTest, RateIopsForTwoSecondsDoesAboutRateTimesTime) {
  TempDir dir;
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=r", "--ioengine=null", "--rw=randread", "--size=1g",
                "--rate_iops=200", "--runtime=2", "--time_based"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = FirstJob(r);
  ASSERT_FALSE(job.is_null()) << r.out;
  // 200 per second for 2 s: 400 (the null engine could do millions).
  EXPECT_GE(Ios(job, "read"), 300u);
  EXPECT_LE(Ios(job, "read"), 402u);
  // Open loop: the latency counts from the intended start, the service
  // time of every I/O beside it.
  EXPECT_EQ(job["loadcell"]["latency_from"], "intended start");
  EXPECT_EQ(job["loadcell"]["service_ns"]["N"].get<uint64_t>(), Ios(job, "read"));

  // Per direction, and Poisson arrivals of the same mean.
  r = Fio(dir, {"--output-format=json", "--name=m", "--ioengine=null", "--rw=randrw", "--size=1g",
                "--rate_iops=200,50", "--rate_process=poisson", "--runtime=2", "--time_based"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json mixed = FirstJob(r);
  EXPECT_GE(Ios(mixed, "read"), 300u);
  EXPECT_LE(Ios(mixed, "read"), 500u);
  EXPECT_GE(Ios(mixed, "write"), 50u);
  EXPECT_LE(Ios(mixed, "write"), 150u);
}

TEST(FioCommandTest, ThinktimeLowersTheRateAccordingly) {
  TempDir dir;
  // 10 ms of think time after each I/O: at most 100 I/Os a second.
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=t", "--ioengine=null", "--rw=randread", "--size=1g",
                "--thinktime=10ms", "--runtime=2", "--time_based"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = FirstJob(r);
  EXPECT_GE(Ios(job, "read"), 20u);
  EXPECT_LE(Ios(job, "read"), 201u);
  // thinktime_blocks=10: the think comes after every 10 I/Os.
  r = Fio(dir, {"--output-format=json", "--name=t", "--ioengine=null", "--rw=randread", "--size=1g",
                "--thinktime=10ms", "--thinktime_blocks=10", "--runtime=2", "--time_based"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const uint64_t per_ten = Ios(FirstJob(r), "read");
  EXPECT_GE(per_ten, 200u);
  EXPECT_LE(per_ten, 2010u);
}

TEST(FioCommandTest, StartdelayDelaysTheJobsStartNotItsRuntime) {
  TempDir dir;
  const auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = Fio(dir, {"--output-format=json", "--name=d", "--ioengine=null", "--rw=read",
                              "--size=1g", "--startdelay=2", "--runtime=1", "--time_based"});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GE(took, 3.0);
  const nlohmann::json job = FirstJob(r);
  ASSERT_FALSE(job.is_null()) << r.out;
  // The job ran its second; the delay is not in its runtime.
  EXPECT_GE(job["read"]["runtime"].get<double>(), 900);
  EXPECT_LT(job["read"]["runtime"].get<double>(), 2000);
}

TEST(FioCommandTest, AZipfJobDoesItsSizeAndNamesItsDistribution) {
  TempDir dir;
  dir.Write("zipf.fio",
            "[z]\nrw=randread\nbs=4k\nsize=4m\nrandom_distribution=zipf:1.2\n"
            "random_generator=lfsr\n"
            "[zoned]\nrw=randwrite\nbs=4k\nsize=4m\n"
            "random_distribution=zoned:60/10:30/20:10/70\n");
  ProcessResult r = Fio(dir, {"--output-format=json", "zipf.fio"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  ASSERT_EQ(doc["jobs"].size(), 2u);
  // Size-bound: 4 MiB of 4 KiB requests, as fio does (offsets repeat: no
  // random map with a distribution).
  EXPECT_EQ(Ios(doc["jobs"][0], "read"), 1024u);
  EXPECT_EQ(doc["jobs"][0]["read"]["io_bytes"].get<uint64_t>(), 4u << 20);
  EXPECT_EQ(doc["jobs"][0]["job options"]["random_distribution"], "zipf:1.2");
  EXPECT_EQ(Ios(doc["jobs"][1], "write"), 1024u);
}

TEST(FioCommandTest, BadPacingValuesAreOneLineWithTheirLine) {
  TempDir dir;
  dir.Write("zoned.fio", "[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:70/10:40/90\n");
  ProcessResult r = Fio(dir, {"zoned.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("zoned.fio:4: fio option 'random_distribution': zone access percentages "
                       "add up to 110"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  dir.Write("proc.fio", "[j]\nsize=1m\nrate_iops=10\nrate_process=foo\n");
  r = Fio(dir, {"proc.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("proc.fio:4: fio option 'rate_process': 'foo' is not one of linear, "
                       "poisson"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  dir.Write("abs.fio", "[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned_abs:50/1m:50/1m\n");
  r = Fio(dir, {"abs.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("abs.fio:4: fio option 'random_distribution': zoned_abs zones add up to"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "j.0.0"));
}

TEST(FioCommandTest, ARateBelowRateIopsMinFailsTheJob) {
  TempDir dir;
  // 100 ms of think time after each I/O: about 10 I/Os a second, below 50.
  ProcessResult r =
      Fio(dir, {"--name=m", "--ioengine=null", "--rw=randread", "--size=1g", "--thinktime=100ms",
                "--rate_iops_min=50", "--runtime=10", "--time_based"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("job m:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("below rate_iops_min=50"), std::string::npos) << r.err;
  // The rate reported is the one over the cycle checked (at most 10 a
  // second with those thinks), not the I/Os since the start.
  const size_t at = r.err.find("read rate ");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_LE(std::stod(r.err.substr(at + 10)), 11) << r.err;
}

TEST(FioCommandTest, ARateBelowRateMinFailsTheJob) {
  TempDir dir;
  // 100 ms of think time after each 4 KiB read: about 40 KiB a second,
  // below rate_min=1m.
  ProcessResult r =
      Fio(dir, {"--name=b", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g",
                "--thinktime=100ms", "--rate_min=1m", "--runtime=10", "--time_based"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("job b:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("below rate_min=1048576"), std::string::npos) << r.err;
  const size_t at = r.err.find("read rate ");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_LE(std::stod(r.err.substr(at + 10)), 11 * 4096) << r.err;
}

}  // namespace
}  // namespace loadcell::testing
