// `loadcell fio`: job files and fio's command-line form through the binary
// (the figures against the real fio: scripts/test-fio-compat).

#include <gtest/gtest.h>

#include <filesystem>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

ProcessResult Fio(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "fio");
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
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

  r = Fio(dir, {"--name=x", "--size=1m", "--rate_iops=100"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'rate_iops' is not supported by loadcell yet"), std::string::npos) << r.err;

  r = Fio(dir, {"--output-format=terse", "--name=x", "--size=1m"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--output-format=terse"), std::string::npos) << r.err;
}

TEST(FioCommandTest, ParseOnlyChecksAndRunsNothing) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--parse-only", "--name=p", "--size=1m"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "p.0.0"));
}

TEST(FioCommandTest, UnlinkRemovesTheJobsFilesAndAFailedJobExitsOne) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--name=u", "--size=1m", "--rw=write", "--unlink=1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "u.0.0"));
  // A folder that does not exist: the layout fails, exit 1.
  r = Fio(dir, {"--name=f", "--size=1m", "--directory=" + (dir / "missing")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("job f:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loadcell::testing
