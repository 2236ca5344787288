// `loadcell fio` with write_lat_log, write_bw_log, write_iops_log and
// log_avg_msec: the log files fio names, read back and checked against the
// JSON summary of the same run; a file of a log's name that is not a log is
// refused before anything is laid out.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
// Named, not anonymous: a unity build joins this file with the other fio
// tests.
namespace fio_log {

ProcessResult Fio(const TempDir& dir, std::vector<std::string> args) {
  return RunFio(dir, std::move(args));
}

struct Line {
  uint64_t time_ms = 0;
  uint64_t value = 0;
  int dir = 0;
  uint64_t bs = 0;
  uint64_t offset = 0;
  int columns = 0;
};

std::vector<Line> ReadLog(const std::filesystem::path& path) {
  std::vector<Line> out;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) {
    std::vector<uint64_t> v;
    std::stringstream ss(text);
    std::string field;
    while (std::getline(ss, field, ',')) v.push_back(std::stoull(field));
    Line l;
    l.columns = static_cast<int>(v.size());
    if (v.size() >= 4) {
      l.time_ms = v[0];
      l.value = v[1];
      l.dir = static_cast<int>(v[2]);
      l.bs = v[3];
    }
    if (v.size() == 6) l.offset = v[4];
    out.push_back(l);
  }
  return out;
}

nlohmann::json Jobs(const ProcessResult& r) { return FioJsonJobs(r); }

TEST(FioLogTest, PerIoLogsAgreeWithTheSummaryForEachClone) {
  TempDir dir;
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=lg", "--rw=randrw", "--bs=4k", "--size=1m",
                "--filename=lg.dat", "--write_lat_log=p", "--write_bw_log=p", "--write_iops_log=p",
                "--log_offset=1", "--numjobs=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 2u) << r.out;
  for (int index = 1; index <= 2; ++index) {
    SCOPED_TRACE(index);
    const nlohmann::json& job = jobs[static_cast<size_t>(index - 1)];
    const std::string n = std::to_string(index);
    ASSERT_EQ(job["loadcell"]["logs"].size(), 5u) << job["loadcell"];
    EXPECT_EQ(job["loadcell"]["logs"][0], "p_lat." + n + ".log");
    const std::vector<Line> lat = ReadLog(dir / ("p_lat." + n + ".log"));
    const std::vector<Line> clat = ReadLog(dir / ("p_clat." + n + ".log"));
    const std::vector<Line> bw = ReadLog(dir / ("p_bw." + n + ".log"));
    const std::vector<Line> iops = ReadLog(dir / ("p_iops." + n + ".log"));
    EXPECT_TRUE(std::filesystem::exists(dir / ("p_slat." + n + ".log")));
    EXPECT_TRUE(ReadLog(dir / ("p_slat." + n + ".log")).empty());
    const uint64_t reads = job["read"]["total_ios"].get<uint64_t>();
    const uint64_t writes = job["write"]["total_ios"].get<uint64_t>();
    ASSERT_EQ(lat.size(), reads + writes);
    EXPECT_EQ(clat.size(), lat.size());
    EXPECT_EQ(bw.size(), lat.size());
    EXPECT_EQ(iops.size(), lat.size());
    uint64_t n_read = 0;
    uint64_t read_bytes = 0;
    uint64_t write_bytes = 0;
    double read_lat = 0;
    uint64_t last_ms = 0;
    for (size_t i = 0; i < lat.size(); ++i) {
      const Line& l = lat[i];
      EXPECT_EQ(l.columns, 6);  // log_offset=1
      EXPECT_GE(l.time_ms, last_ms);
      last_ms = l.time_ms;
      EXPECT_EQ(l.offset % 4096, 0u);
      EXPECT_LT(l.offset, uint64_t{1} << 20);
      EXPECT_EQ(iops[i].value, 1u);
      EXPECT_EQ(clat[i].value, l.value);
      if (l.dir == 0) {
        ++n_read;
        read_bytes += l.bs;
        read_lat += static_cast<double>(l.value);
      } else {
        EXPECT_EQ(l.dir, 1);
        write_bytes += l.bs;
      }
    }
    EXPECT_EQ(n_read, reads);
    EXPECT_EQ(read_bytes, job["read"]["io_bytes"].get<uint64_t>());
    EXPECT_EQ(write_bytes, job["write"]["io_bytes"].get<uint64_t>());
    ASSERT_GT(n_read, 0u);
    // The log's latencies are the summary's.
    const double mean = job["read"]["lat_ns"]["mean"].get<double>();
    EXPECT_NEAR(read_lat / static_cast<double>(n_read), mean, mean * 1e-6 + 1);
  }
}

// An asynchronous engine's I/Os: each one's slat line and clat line add up
// to its lat line, and their means are the summary's slat_ns and clat_ns.
TEST(FioLogTest, AnAsynchronousEnginesLogsSplitSlatAndClatAsTheSummary) {
  TempDir dir;
#if defined(_WIN32)
  const std::string engine = "--ioengine=windowsaio";  // IOCP
#else
  const std::string engine = "--ioengine=libaio";
#endif
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=as", engine, "--iodepth=4", "--direct=1",
                "--rw=randrw", "--bs=4k", "--size=1m", "--filename=as.dat", "--write_lat_log=a"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = Jobs(r).at(0);  // none: at() throws, a failed test
  const std::vector<Line> lat = ReadLog(dir / "a_lat.1.log");
  const std::vector<Line> clat = ReadLog(dir / "a_clat.1.log");
  const std::vector<Line> slat = ReadLog(dir / "a_slat.1.log");
  ASSERT_EQ(lat.size(), 256u);
  ASSERT_EQ(clat.size(), lat.size());
  ASSERT_EQ(slat.size(), lat.size());
  double sums[2][2] = {};  // per direction: slat, clat
  for (size_t i = 0; i < lat.size(); ++i) {
    EXPECT_EQ(slat[i].value + clat[i].value, lat[i].value) << i;
    EXPECT_EQ(slat[i].dir, lat[i].dir);
    EXPECT_GT(slat[i].value, 0u);
    sums[lat[i].dir][0] += static_cast<double>(slat[i].value);
    sums[lat[i].dir][1] += static_cast<double>(clat[i].value);
  }
  for (int d = 0; d < 2; ++d) {
    const nlohmann::json& o = job[d == 0 ? "read" : "write"];
    const double n = o["total_ios"].get<double>();
    ASSERT_GT(n, 0);
    EXPECT_EQ(o["slat_ns"]["N"].get<double>(), n);
    const double s = o["slat_ns"]["mean"].get<double>();
    const double c = o["clat_ns"]["mean"].get<double>();
    EXPECT_NEAR(sums[d][0] / n, s, s * 1e-6 + 1);
    EXPECT_NEAR(sums[d][1] / n, c, c * 1e-6 + 1);
  }
}

TEST(FioLogTest, AveragedLogsAddUpToTheSummary) {
  TempDir dir;
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=av", "--ioengine=null", "--rw=randrw", "--bs=4k",
                "--size=1g", "--rate_iops=400", "--time_based", "--runtime=1", "--write_lat_log",
                "--write_bw_log", "--write_iops_log", "--log_avg_msec=100"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  const nlohmann::json& job = jobs[0];
  // Bare options: the job's name is the prefix.
  const std::vector<Line> iops = ReadLog(dir / "av_iops.1.log");
  const std::vector<Line> bw = ReadLog(dir / "av_bw.1.log");
  const std::vector<Line> lat = ReadLog(dir / "av_lat.1.log");
  ASSERT_FALSE(iops.empty());
  ASSERT_EQ(bw.size(), iops.size());
  ASSERT_EQ(lat.size(), iops.size());
  // Each window's I/Os (its rate times its length) add up to total_ios, its
  // bytes to io_bytes; a window's line is at its end.
  for (int d = 0; d < 2; ++d) {
    SCOPED_TRACE(d);
    const char* name = d == 0 ? "read" : "write";
    double ios = 0;
    double kib = 0;
    double lat_sum = 0;
    uint64_t window_start = 0;
    size_t windows = 0;
    for (size_t i = 0; i < iops.size(); ++i) {
      const uint64_t end = iops[i].time_ms;
      if (i > 0 && end != iops[i - 1].time_ms) window_start = iops[i - 1].time_ms;
      if (iops[i].dir != d) continue;
      ++windows;
      EXPECT_EQ(iops[i].bs, 0u);
      EXPECT_LE(end - window_start, 100u);
      const double secs = static_cast<double>(end - window_start) / 1000;
      ios += static_cast<double>(iops[i].value) * secs;
      kib += static_cast<double>(bw[i].value) * secs;
      lat_sum += static_cast<double>(lat[i].value) * static_cast<double>(iops[i].value) * secs;
    }
    const double total = job[name]["total_ios"].get<double>();
    ASSERT_GT(total, 0);
    EXPECT_GE(windows, 5u);
    // Rounding: each line's value is a whole number per second, and each
    // window's length a whole number of ms.
    EXPECT_NEAR(ios, total, 0.5 * static_cast<double>(windows) + total * 0.02);
    EXPECT_NEAR(kib * 1024, job[name]["io_bytes"].get<double>(),
                2048.0 * static_cast<double>(windows) + total * 4096 * 0.02);
    const double mean = job[name]["lat_ns"]["mean"].get<double>();
    EXPECT_NEAR(lat_sum / ios, mean, mean * 0.05);
  }
}

TEST(FioLogTest, AFileOfALogsNameThatIsNoLogIsRefusedBeforeAnythingIsLaidOut) {
  TempDir dir;
  {
    std::ofstream f(dir / "q_lat.1.log");
    f << "keep me\n";
  }
  ProcessResult r = Fio(dir, {"--name=q", "--rw=read", "--size=1m", "--write_lat_log=q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("write_lat_log: q_lat.1.log exists and is not a fio log"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "q.0.0"));
  {
    // Closed before the next run: Windows cannot replace a file held open.
    std::ifstream in(dir / "q_lat.1.log");
    std::string kept;
    std::getline(in, kept);
    EXPECT_EQ(kept, "keep me");
  }
  // A log of an earlier run is replaced.
  {
    std::ofstream f(dir / "q_lat.1.log");
    f << "0, 12, 0, 4096, 0\n";
  }
  r = Fio(dir, {"--name=q", "--rw=read", "--size=64k", "--write_lat_log=q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadLog(dir / "q_lat.1.log").size(), 16u);
}

}  // namespace fio_log
}  // namespace loadcell::testing
