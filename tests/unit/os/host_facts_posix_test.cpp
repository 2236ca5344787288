// The host facts of the verdict on Linux: holes in a file, the host's CPU
// time, the device's write cache word.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "os/host_facts.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::TempDir;

TEST(HostFactsTest, AFileWrittenWholeHasNoHoleASparseOneIsAllHoles) {
  TempDir dir;
  const std::string full = dir.File("full");
  {
    std::ofstream f(full, std::ios::binary);
    const std::string block(1 << 16, 'x');
    for (int i = 0; i < 16; ++i) f << block;
  }
  Result<uint64_t> none = FileHoleBytes(full);
  ASSERT_OK(none);
  EXPECT_EQ(*none, 0u);
  const std::string sparse = dir.File("sparse");
  { std::ofstream f(sparse); }
  std::filesystem::resize_file(sparse, 1 << 20);
  Result<uint64_t> all = FileHoleBytes(sparse);
  if (!all.ok()) GTEST_SKIP() << all.status().ToString();
  // A file system without hole reports says the whole file is data (0).
  if (*all == 0) GTEST_SKIP() << "this file system reports no holes";
  EXPECT_EQ(*all, 1u << 20);
}

TEST(HostFactsTest, AMissingFileIsAnErrorNamingIt) {
  Result<uint64_t> r = FileHoleBytes("/nonexistent/loadcell-file");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/loadcell-file"), std::string::npos);
}

TEST(HostFactsTest, HostCpuTimeGrowsAndBusyIsPartOfIt) {
  const HostCpuTimes a = ReadHostCpuTimes();
  ASSERT_TRUE(a.known);
  EXPECT_LE(a.busy, a.total);
  EXPECT_GT(a.total, 0u);
}

TEST(HostFactsTest, TheWriteCacheIsOneOfTheKernelsWordsOrUnknown) {
  TempDir dir;
  const std::string mode = DeviceWriteCacheMode(dir.path());
  EXPECT_TRUE(mode.empty() || mode == "write back" || mode == "write through") << mode;
  EXPECT_EQ(DeviceWriteCacheMode("/nonexistent/loadcell-folder"), "");
}

TEST(HostFactsTest, DeviceCountersNameTheirDeviceOrAreUnknown) {
  TempDir dir;
  const DeviceCounters c = ReadDeviceCounters(dir.path());
  if (c.known) {
    EXPECT_FALSE(c.device.empty());
    EXPECT_EQ(c.device.find('/'), std::string::npos) << c.device;
  }
  EXPECT_FALSE(ReadDeviceCounters("/nonexistent/loadcell-folder").known);
}

}  // namespace
}  // namespace loadcell
