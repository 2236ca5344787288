// `loadcell fio` with fio's buffer options and verify= on small files in a
// temp folder: what the files hold afterwards, a write+verify job that
// passes, a corrupted block found by a verify_only job (exit 1, one line
// naming the file and offset, the JSON still JSON), refusals (exit 2).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "workloads/fio/fio_buffers.h"

namespace loadcell::testing {
// Named, not anonymous: a unity build puts this file beside
// fio_command_test.cpp, whose helpers have the same names.
namespace fio_data {

ProcessResult Fio(const TempDir& dir, std::vector<std::string> args) {
  return RunFio(dir, std::move(args));
}

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void FlipByte(const std::string& path, uint64_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x5A));
}

bool IsJsonAlone(const std::string& out) {
  return !out.empty() && out.front() == '{' && out.substr(out.find_last_not_of('\n')) == "}\n";
}

TEST(FioDataTest, WriteAndVerifyOfA4MiBFilePassesForEveryType) {
  TempDir dir;
  for (const std::string kind : {"crc32c", "crc64", "xxhash", "md5", "sha256", "pattern"}) {
    SCOPED_TRACE(kind);
    std::vector<std::string> args = {"--output-format=json",
                                     "--name=v",
                                     "--rw=randwrite",
                                     "--bs=4k",
                                     "--size=4m",
                                     "--verify=" + kind,
                                     "--filename=" + kind + ".dat"};
    if (kind == "pattern") args.push_back("--verify_pattern=0x0102030405");
    ProcessResult r = Fio(dir, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(IsJsonAlone(r.out)) << r.out;
    // Every block written once and read back once, as fio counts them.
    EXPECT_EQ(CountOf(r.out, "\"total_ios\": 1024"), 2u) << r.out;
  }
}

TEST(FioDataTest, ACorruptedBlockFailsAVerifyOnlyJobNamingItsOffset) {
  TempDir dir;
  const std::vector<std::string> job = {"--name=c",  "--rw=randwrite",  "--bs=4k",
                                        "--size=4m", "--verify=crc32c", "--filename=c.dat"};
  std::vector<std::string> write = job;
  write.push_back("--do_verify=0");
  write.push_back("--output-format=json");
  ProcessResult r = Fio(dir, write);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // do_verify=0: the blocks are written as verified blocks, none read back.
  const nlohmann::json written = FioJsonJobs(r);
  ASSERT_EQ(written.size(), 1u) << r.out;
  EXPECT_EQ(written[0]["write"]["total_ios"].get<uint64_t>(), 1024u);
  EXPECT_EQ(written[0]["read"]["total_ios"].get<uint64_t>(), 0u);
  EXPECT_EQ(written[0]["read"]["io_bytes"].get<uint64_t>(), 0u);
  std::vector<std::string> check = job;
  check.push_back("--verify_only");
  check.push_back("--output-format=json");
  r = Fio(dir, check);
  ASSERT_EQ(r.exit_code, 0) << r.err;  // intact: passes
  // ... and reads every block (the same job with do_verify=1 would too).
  const nlohmann::json checked = FioJsonJobs(r);
  ASSERT_EQ(checked.size(), 1u) << r.out;
  EXPECT_EQ(checked[0]["read"]["total_ios"].get<uint64_t>(), 1024u);

  const std::string path = (dir / "c.dat");
  FlipByte(path, (1u << 20) + 100);
  r = Fio(dir, check);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("job c: verify failed: c.dat at offset 1048576 (4096 bytes): crc32c "
                       "mismatch"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(IsJsonAlone(r.out)) << r.out;
  EXPECT_NE(r.out.find("\"failure\": \"verify failed"), std::string::npos) << r.out;

  // Two blocks: without verify_fatal every block is checked and counted.
  FlipByte(path, (3u << 20) + 5);
  r = Fio(dir, check);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("(and 1 more blocks)"), std::string::npos) << r.err;
  // verify_fatal: the job stops at the first.
  check.push_back("--verify_fatal=1");
  r = Fio(dir, check);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("verify failed: c.dat at offset"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("more blocks"), std::string::npos) << r.err;
}

TEST(FioDataTest, AReadJobWithVerifyChecksEveryBlockItReads) {
  // A sequential write of a 4 MiB file verified at the end, then a read
  // job with verify= over the same file: every read block checked.
  TempDir dir;
  ProcessResult r = Fio(dir, {"--name=w", "--rw=write", "--bs=64k", "--size=4m", "--verify=sha256",
                              "--filename=w.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  FlipByte(dir / "w.dat", 3 * 65536 + 1000);
  r = Fio(dir, {"--name=w", "--rw=read", "--bs=64k", "--size=4m", "--verify=sha256",
                "--filename=w.dat"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("verify failed: w.dat at offset 196608 (65536 bytes): sha256 mismatch"),
            std::string::npos)
      << r.err;
}

TEST(FioDataTest, BufferOptionsReachTheFile) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--name=p", "--rw=write", "--bs=4k", "--size=64k",
                              "--buffer_pattern=\"abc\"0x0a", "--filename=p.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string p = FileBytes(dir / "p.dat");
  ASSERT_EQ(p.size(), 65536u);
  // Each 4 KiB write holds the pattern from its first byte.
  for (size_t i = 0; i < p.size(); ++i) ASSERT_EQ(p[i], "abc\n"[(i % 4096) % 4]) << i;

  r = Fio(dir, {"--name=d", "--rw=write", "--bs=4k", "--size=4m", "--dedupe_percentage=50",
                "--filename=d.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string d = FileBytes(dir / "d.dat");
  std::set<std::string> blocks;
  size_t repeats = 0;
  for (size_t at = 0; at < d.size(); at += 4096)
    repeats += !blocks.insert(d.substr(at, 4096)).second;
  EXPECT_NEAR(static_cast<double>(repeats) / 1024, 0.5, 0.07);

  r = Fio(dir, {"--name=z", "--rw=write", "--bs=4k", "--size=1m", "--buffer_compress_percentage=50",
                "--filename=z.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string z = FileBytes(dir / "z.dat");
  const auto* bytes = reinterpret_cast<const unsigned char*>(z.data());
  double repeated = 0;
  for (size_t at = 0; at < z.size(); at += 4096) repeated += RepeatedWordFraction(bytes + at, 4096);
  EXPECT_NEAR(repeated / 256, 0.5, 0.03);
}

TEST(FioDataTest, VerifyThatCannotRunIsOneLineAndExitTwo) {
  TempDir dir;
  dir.Write("bad.fio", "[j]\nrw=randwrite\nsize=1m\nverify_only\n");
  ProcessResult r = Fio(dir, {"bad.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.fio:4: fio option 'verify_only' needs 'verify'"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "j.0.0"));
  dir.Write("bad2.fio", "[j]\nrw=write\nsize=1m\nbs=32\nverify=md5\n");
  r = Fio(dir, {"bad2.fio"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad2.fio:5: fio option 'verify=md5' needs blocks of at least 48 bytes"),
            std::string::npos)
      << r.err;
}

}  // namespace fio_data
}  // namespace loadcell::testing
