// `loadcell sqlio`: switch parsing, param files (good and broken), Windows
// paths and drive letters, and the plan made from them (nothing touched).

#include "cli/sqlio/sqlio_options.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/sqlio/sqlio_command.h"
#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

TEST(SqlioSwitches, IssueCommandLines) {
  auto a = ParseSqlioArgs({"-kW", "-s5", "-fsequential", "-o4", "-b64", "-Fparam.txt"});
  ASSERT_OK(a);
  EXPECT_TRUE(a->write);
  EXPECT_EQ(a->seconds, 5);
  EXPECT_EQ(a->access, SqlioAccess::kSequential);
  EXPECT_EQ(a->outstanding, 4);
  EXPECT_EQ(a->block_kb, 64u);
  EXPECT_EQ(a->param_file, "param.txt");

  auto b = ParseSqlioArgs(
      {"-kR", "-t1", "-s300", "-dC", "-frandom", "-b16", "-Fparam.txt", "-BH", "-LS"});
  ASSERT_OK(b);
  EXPECT_FALSE(b->write);
  EXPECT_EQ(b->threads, 1);
  EXPECT_TRUE(b->threads_given);
  EXPECT_EQ(b->drives, "C");
  EXPECT_EQ(b->access, SqlioAccess::kRandom);
  EXPECT_EQ(b->buffering, 'H');
  EXPECT_EQ(b->latency, 'S');

  auto c = ParseSqlioArgs(
      {"-dR", "-BH", "-kW", "-frandom", "-t8", "-o1", "-s90", "-b64", "testfile.dat"});
  ASSERT_OK(c);
  EXPECT_EQ(c->drives, "R");
  EXPECT_EQ(c->threads, 8);
  ASSERT_EQ(c->files.size(), 1u);
  EXPECT_EQ(c->files[0], "testfile.dat");

  auto d = ParseSqlioArgs({"-dc", "-dEfg", "-dE"});
  ASSERT_OK(d);
  EXPECT_EQ(d->drives, "CEFG");  // upper case, each once
}

TEST(SqlioSwitches, OtherSwitchesAndOptions) {
  auto a = ParseSqlioArgs({"-f4", "-a0x3", "-p1", "-U", "-S10", "-i32", "-m4", "-BS", "-LP",
                           "--drive=r=/mnt/data", "--sqlio-classic", "--format=json"});
  ASSERT_OK(a);
  EXPECT_EQ(a->access, SqlioAccess::kStripe);
  EXPECT_EQ(a->stripe, 4u);
  EXPECT_EQ(a->affinity_mask, 3u);
  EXPECT_EQ(a->cpu, 1);
  EXPECT_TRUE(a->cpu_util);
  EXPECT_EQ(a->start_block, 10u);
  EXPECT_EQ(a->ios_per_run, 32u);
  EXPECT_EQ(a->buffers, 4);
  EXPECT_EQ(a->buffering, 'S');
  EXPECT_EQ(a->latency, 'P');
  EXPECT_EQ(a->drive_map.at('R'), "/mnt/data");
  EXPECT_TRUE(a->classic);
  EXPECT_EQ(a->format, "json");
  EXPECT_EQ(ParseSqlioArgs({"-kr"})->verdict, "on");
  EXPECT_EQ(ParseSqlioArgs({"--verdict=strict"})->verdict, "strict");
  EXPECT_EQ(ParseSqlioArgs({"--verdict=off"})->verdict, "off");
  EXPECT_EQ(ParseSqlioArgs({"-kr"})->write, false);  // values in either case
  EXPECT_EQ(ParseSqlioArgs({"-t256"})->threads, 256);
}

TEST(SqlioSwitches, BadInputIsOneLineNamingTheSwitch) {
  const std::vector<std::vector<std::string>> bad = {{"-x"},
                                                     {"-k"},
                                                     {"-kX"},
                                                     {"-t257"},
                                                     {"-t0"},
                                                     {"-b0"},
                                                     {"-bx"},
                                                     {"-s"},
                                                     {"-BQ"},
                                                     {"-LX"},
                                                     {"-F"},
                                                     {"-d1"},
                                                     {"-fdiagonal"},
                                                     {"-a0"},
                                                     {"--bogus"},
                                                     {"--format=xml"},
                                                     {"--drive=R"},
                                                     {"-Fp.txt", "file.dat"},
                                                     {"--verdict=maybe"}};
  for (const auto& args : bad) {
    auto r = ParseSqlioArgs(args);
    ASSERT_FALSE(r.ok()) << args[0];
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
    EXPECT_NE(r.status().message().find(args.back() == "file.dat" ? "file.dat" : args[0]),
              std::string::npos)
        << r.status().message();
  }
}

TEST(SqlioSwitches, ThrottleIsARatePerThread) {
  auto bytes = ParseSqlioArgs({"-g16000", "-b8"});
  ASSERT_OK(bytes);
  EXPECT_EQ(bytes->throttle, 16000u);
  EXPECT_FALSE(bytes->throttle_iops);
  // 16000 bytes per ms of 8 KiB blocks: 1953.125 I/Os per second per thread.
  EXPECT_DOUBLE_EQ(SqlioThrottleRate(*bytes, 1, 8192), 1953.125);
  EXPECT_DOUBLE_EQ(SqlioThrottleRate(*bytes, 4, 8192), 4 * 1953.125);

  auto iops = ParseSqlioArgs({"-g500i"});
  ASSERT_OK(iops);
  EXPECT_TRUE(iops->throttle_iops);
  EXPECT_DOUBLE_EQ(SqlioThrottleRate(*iops, 3, 8192), 1500);

  auto none = ParseSqlioArgs({"-kR"});
  ASSERT_OK(none);
  EXPECT_EQ(SqlioThrottleRate(*none, 3, 8192), 0);

  for (const char* bad : {"-g", "-g0", "-gx", "-g5k", "-gi", "-g0i"}) {
    auto r = ParseSqlioArgs({bad});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
  }
}

TEST(SqlioParamFile, GoodFile) {
  auto r = ParseSqlioParamText(
      "# SQLIO param file\n"
      "c:\\testfile.dat 2 0x0 100\n"
      "\n"
      "  d:\\data\\big.dat\t4\t0xF\t2048   # trailing comment\r\n"
      "\"e:\\with space\\f.dat\" 1 3 8\n"
      "f:\\existing.dat 1\n",
      "param.txt");
  ASSERT_OK(r);
  ASSERT_EQ(r->size(), 4u);
  EXPECT_EQ((*r)[0].path, "c:\\testfile.dat");
  EXPECT_EQ((*r)[0].threads, 2);
  EXPECT_EQ((*r)[0].mask, 0u);
  EXPECT_EQ((*r)[0].size_mb, 100u);
  EXPECT_EQ((*r)[0].line, 2);
  EXPECT_EQ((*r)[1].path, "d:\\data\\big.dat");
  EXPECT_EQ((*r)[1].threads, 4);
  EXPECT_EQ((*r)[1].mask, 15u);
  EXPECT_EQ((*r)[1].size_mb, 2048u);
  EXPECT_EQ((*r)[1].line, 4);
  EXPECT_EQ((*r)[2].path, "e:\\with space\\f.dat");
  EXPECT_EQ((*r)[2].mask, 3u);  // decimal mask
  EXPECT_EQ((*r)[3].size_mb, 0u);
}

TEST(SqlioParamFile, BrokenFilesNameTheFileAndLine) {
  struct Case {
    const char* text;
    int line;
    const char* words;
  };
  const Case cases[] = {
      {"c:\\a.dat 2 0x0 100\nc:\\b.dat\n", 2, "expected"},
      {"# ok\nc:\\a.dat two 0x0 100\n", 2, "thread count"},
      {"c:\\a.dat 300 0x0 100\n", 1, "thread count"},
      {"c:\\a.dat 0 0x0 100\n", 1, "thread count"},
      {"\n\n\nc:\\a.dat 1 0xZZ 100\n", 4, "mask"},
      {"c:\\a.dat 1 0x0 100MB\n", 1, "size"},
      {"c:\\a.dat 1 0x0 -5\n", 1, "size"},
      {"c:\\a.dat 1 0x0 8 extra\n", 1, "expected"},
      {"\"c:\\a.dat 1 0x0 8\n", 1, "quote"},
  };
  for (const Case& c : cases) {
    auto r = ParseSqlioParamText(c.text, "p.txt");
    ASSERT_FALSE(r.ok()) << c.text;
    const std::string& m = r.status().message();
    EXPECT_NE(m.find("p.txt line " + std::to_string(c.line) + ":"), std::string::npos) << m;
    EXPECT_NE(m.find(c.words), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  EXPECT_FALSE(ParseSqlioParamText("# nothing\n\n", "p.txt").ok());
  EXPECT_FALSE(ParseSqlioParamText("a 200\nb 100\n", "p.txt").ok());  // 300 threads in all
  auto missing = ReadSqlioParamFile("/nonexistent/param.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/param.txt"), std::string::npos);
}

TEST(SqlioPaths, WindowsPathsAndDrives) {
  const std::map<char, std::string> map = {{'R', "/mnt/r"}, {'S', "/"}};
  char d = 0;
  EXPECT_EQ(MapSqlioPath("r:\\dir\\t.dat", map, "/cwd", &d), "/mnt/r/dir/t.dat");
  EXPECT_EQ(d, 'R');
  EXPECT_EQ(MapSqlioPath("R:t.dat", map, "/cwd", &d), "/mnt/r/t.dat");
  EXPECT_EQ(MapSqlioPath("c:\\testfile.dat", map, "/cwd", &d), "/cwd/testfile.dat");
  EXPECT_EQ(d, 'C');
  EXPECT_EQ(MapSqlioPath("S:\\x.dat", map, "/cwd", &d), "/x.dat");
  EXPECT_EQ(MapSqlioPath("\\dir\\x.dat", map, "/cwd", &d), "/cwd/dir/x.dat");
  EXPECT_EQ(d, 0);
  EXPECT_EQ(MapSqlioPath("/tmp/x.dat", map, "/cwd", &d), "/tmp/x.dat");
  EXPECT_EQ(MapSqlioPath("x.dat", map, "/cwd", &d), "x.dat");
  EXPECT_EQ(WithDrive("testfile.dat", 'R'), "R:\\testfile.dat");
  EXPECT_EQ(WithDrive("c:\\dir\\t.dat", 'E'), "E:\\dir\\t.dat");
  EXPECT_EQ(WithDrive("c:t.dat", 'E'), "E:\\t.dat");
}

// Windows resolves drive letters itself: only a letter given with --drive is
// mapped; every other path, with or without a letter, is used as written.
TEST(SqlioPaths, NativeDriveLettersAreKeptAsWritten) {
  const std::map<char, std::string> map = {{'R', "C:\\mapped"}};
  char d = 0;
  EXPECT_EQ(MapSqlioPath("c:\\testfile.dat", map, "C:\\cwd", &d, true), "c:\\testfile.dat");
  EXPECT_EQ(d, 'C');
  EXPECT_EQ(MapSqlioPath("r:\\dir\\t.dat", map, "C:\\cwd", &d, true), "C:\\mapped/dir/t.dat");
  EXPECT_EQ(d, 'R');
  EXPECT_EQ(MapSqlioPath("\\\\?\\D:\\long\\t.dat", map, "C:\\cwd", &d, true),
            "\\\\?\\D:\\long\\t.dat");
  EXPECT_EQ(d, 0);
  EXPECT_EQ(MapSqlioPath("testfile.dat", map, "C:\\cwd", &d, true), "testfile.dat");
  // -dR with a file name: SQLIO's R:\testfile.dat.
  EXPECT_EQ(MapSqlioPath(WithDrive("testfile.dat", 'Q'), map, "C:\\cwd", &d, true),
            "Q:\\testfile.dat");
  EXPECT_EQ(d, 'Q');
}

class SqlioPlanTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    return tmp_.Write(name, text);
  }
  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

TEST_F(SqlioPlanTest, ParamFileWithDrivesAndNotes) {
  const std::string param = Write("param.txt", "c:\\a.dat 2 0x1 8\nc:\\b.dat 3 0x0 4\n");
  auto sw = ParseSqlioArgs({"-kR", "-t1", "-frandom", "-b16", "-o4", "-S8", "-i4", "-m2", "-f3",
                            "-dCE", "-F" + param, "--drive=E=" + dir_});
  ASSERT_OK(sw);
  auto plan = PlanSqlio(*sw, dir_);
  ASSERT_OK(plan);
  ASSERT_EQ(plan->plan.targets.size(), 4u);  // 2 files x 2 drives
  // Windows resolves C: itself; elsewhere it is the current folder.
  const bool native = PathsHaveDriveLetters();
  EXPECT_EQ(plan->plan.targets[0].path, native ? "C:\\a.dat" : dir_ + "/a.dat");
  EXPECT_EQ(plan->plan.targets[0].threads, 2);
  EXPECT_EQ(plan->plan.targets[0].mask, 1u);
  EXPECT_EQ(plan->plan.targets[0].size, 8u << 20);
  EXPECT_EQ(plan->plan.targets[2].shown, "E:\\a.dat");
  EXPECT_TRUE(plan->missing[0]);
  EXPECT_EQ(plan->header.files[3].first_thread, 7);
  EXPECT_EQ(plan->plan.block_size, 16384u);
  EXPECT_EQ(plan->plan.open_flags, O_DIRECT | O_DSYNC);  // -BN is the default
  // The drives used and every switch that does not apply as on Windows.
  ASSERT_EQ(plan->header.drives.size(), native ? 1u : 2u);
  if (!native) {
    EXPECT_NE(plan->header.drives[0].find("current folder"), std::string::npos);
  }
  EXPECT_NE(plan->header.drives.back().find("--drive=E="), std::string::npos);
  std::string notes;
  for (const std::string& n : plan->header.notes) notes += n + "\n";
  for (const char* sw_text : {"-t1", "-m2"}) {
    EXPECT_NE(notes.find(sw_text), std::string::npos) << sw_text << " in\n" << notes;
  }
  // -S, -f<N> and -i are applied, not noted.
  for (const char* sw_text : {"-S8", "-i4", "-f3"}) {
    EXPECT_EQ(notes.find(sw_text), std::string::npos) << sw_text << " in\n" << notes;
  }
  EXPECT_EQ(plan->plan.start_block, 8u);
  EXPECT_EQ(plan->plan.stripe, 3u);
  EXPECT_EQ(plan->plan.ios_per_run, 4u);
  EXPECT_FALSE(plan->plan.random);
  EXPECT_EQ(plan->header.start_block, 8u);
  EXPECT_EQ(plan->header.stripe, 3u);
  EXPECT_EQ(plan->header.ios_per_run, 4u);
  EXPECT_EQ(plan->header.access, "striped");
  // Nothing was created.
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/a.dat"));
}

TEST_F(SqlioPlanTest, PlacementSwitches) {
  const std::string param = Write("param.txt", "p.dat 2 0 1\n");  // 1 MB: 128 blocks of 8KB
  const std::string big = Write("big.txt", "p.dat 2 0 8\n");      // 8 MB: 128 rows of 8 blocks
  // SQLIO's default for the stripe pattern: -i64.
  auto sw = ParseSqlioArgs({"-f8", "-F" + big});
  ASSERT_OK(sw);
  auto plan = PlanSqlio(*sw, dir_);
  ASSERT_OK(plan);
  EXPECT_EQ(plan->plan.stripe, 8u);
  EXPECT_EQ(plan->plan.ios_per_run, 64u);
  EXPECT_TRUE(plan->header.notes.empty());
  // More I/Os per run than rows in the file: said, and the runs are shorter.
  sw = ParseSqlioArgs({"-f8", "-S8", "-i100", "-F" + param});
  plan = PlanSqlio(*sw, dir_);
  ASSERT_OK(plan);
  ASSERT_EQ(plan->header.notes.size(), 1u);
  EXPECT_NE(plan->header.notes[0].find("-i100: "), std::string::npos);
  EXPECT_NE(plan->header.notes[0].find("15 rows of 8 blocks from block 8"), std::string::npos)
      << plan->header.notes[0];
  // -i and -v1.1.1 mean nothing without a stripe factor: noted.
  for (const char* f : {"-frandom", "-fsequential"}) {
    sw = ParseSqlioArgs({f, "-S4", "-i8", "-v1.1.1", "-F" + param});
    plan = PlanSqlio(*sw, dir_);
    ASSERT_OK(plan);
    EXPECT_EQ(plan->plan.start_block, 4u) << f;  // -S applies to every access
    EXPECT_EQ(plan->plan.stripe, 0u);
    std::string notes;
    for (const std::string& n : plan->header.notes) notes += n + "\n";
    EXPECT_NE(
        notes.find(std::string("-i8: I/O runs apply to a stripe factor (-f<N>), not to ") + f),
        std::string::npos)
        << notes;
    EXPECT_NE(notes.find("-v1.1.1: applies to -f<N>"), std::string::npos) << notes;
  }
  sw = ParseSqlioArgs({"-f4", "-v1.1.1", "-F" + param});
  plan = PlanSqlio(*sw, dir_);
  ASSERT_OK(plan);
  EXPECT_TRUE(plan->plan.same_runs);
  EXPECT_TRUE(plan->header.same_runs);
}

TEST_F(SqlioPlanTest, SwitchesWithNoCounterpartAreNoted) {
  const std::string param = Write("param.txt", "p.dat 1 0 1\n");
  auto sw = ParseSqlioArgs({"-LSi", "-Up", "-aRI0x1", "-pI0", "-64", "-D11", "-mC4", "-F" + param});
  ASSERT_OK(sw);
  EXPECT_EQ(sw->latency, 'S');
  EXPECT_TRUE(sw->cpu_util);
  EXPECT_TRUE(sw->affinity_round_robin);
  EXPECT_EQ(sw->affinity_mask, 1u);
  EXPECT_EQ(sw->cpu, 0);
  auto plan = PlanSqlio(*sw, dir_);
  ASSERT_OK(plan);
  EXPECT_TRUE(plan->plan.affinity_round_robin);
  std::string notes;
  for (const std::string& n : plan->header.notes) notes += n + "\n";
  for (const char* text : {"-LSi: ", "-Up: ", "-aRI0x1: ", "-pI0: ", "-64: ", "-D11: ", "-m4: ",
                           "-p and -a both given"}) {
    EXPECT_NE(notes.find(text), std::string::npos) << text << " in\n" << notes;
  }
  // -a without R: every thread on the whole mask.
  sw = ParseSqlioArgs({"-a0x3", "-F" + param});
  ASSERT_OK(sw);
  EXPECT_FALSE(sw->affinity_round_robin);
}

TEST_F(SqlioPlanTest, BufferingFlags) {
  const std::string param = Write("param.txt", "x.dat 1 0 1\n");
  const std::pair<const char*, int> cases[] = {
      {"-BN", O_DIRECT | O_DSYNC}, {"-BY", 0}, {"-BH", O_DIRECT}, {"-BS", O_DSYNC}};
  for (const auto& [b, flags] : cases) {
    auto sw = ParseSqlioArgs({b, "-F" + param});
    ASSERT_OK(sw);
    auto plan = PlanSqlio(*sw, dir_);
    ASSERT_OK(plan);
    EXPECT_EQ(plan->plan.open_flags, flags) << b;
  }
}

TEST_F(SqlioPlanTest, ExistingFileKeepsItsSizeAndMissingFolderFails) {
  Write("have.dat", std::string(3 << 20, 'x'));
  auto sw = ParseSqlioArgs({"-b64", dir_ + "/have.dat"});
  auto plan = PlanSqlio(*sw, dir_);
  ASSERT_OK(plan);
  EXPECT_EQ(plan->plan.targets[0].size, 3u << 20);
  EXPECT_FALSE(plan->missing[0]);

  auto sw2 = ParseSqlioArgs({dir_ + "/no/such/folder/t.dat"});
  auto plan2 = PlanSqlio(*sw2, dir_);
  ASSERT_FALSE(plan2.ok());
  EXPECT_NE(plan2.status().message().find("does not exist"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
