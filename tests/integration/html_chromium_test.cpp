// Opens generated HTML reports in headless Chromium (Debian's `chromium`):
// the DOM must hold every chart with the expected number of points, the
// console must show no error, and a screenshot is saved as
// <build folder>/report.png (and sweep.png) for a human to look at.
// Skipped when /usr/bin/chromium is not installed.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "report/json/json_reader.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ReadFile;
using testing::TempDir;

constexpr const char* kChromium = "/usr/bin/chromium";

std::string BuildDir() { return std::filesystem::path(LOADCELL_BINARY).parent_path().string(); }

int ShellExitCode(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

struct ChromiumRun {
  int exit_code = -1;
  std::string dom;
  std::string log;
};

// Runs headless Chromium on `page` with a fresh profile; `mode` is
// "--dump-dom" or "--screenshot=PATH --window-size=W,H".
ChromiumRun Chromium(const std::string& page, const std::string& mode) {
  TempDir profile;
  const std::string dom = profile / "dom.html";
  const std::string log = profile / "log.txt";
  ChromiumRun r;
  r.exit_code =
      ShellExitCode(std::string("timeout 90 ") + kChromium +
                    " --headless --no-sandbox --disable-gpu --disable-background-networking"
                    " --disable-component-update --disable-sync --no-first-run"
                    " --enable-logging=stderr --v=0 --user-data-dir=" +
                    (profile / "profile") + " " + mode + " 'file://" + page + "' > '" + dom +
                    "' 2> '" + log + "'");
  r.dom = ReadFile(dom);
  r.log = ReadFile(log);
  return r;
}

// The <svg> element of chart `id` in `dom` ("" when absent).
std::string ChartSvg(const std::string& dom, const std::string& id) {
  size_t at = dom.find("data-chart=\"" + id + "\"");
  if (at == std::string::npos) return "";
  size_t begin = dom.rfind("<svg", at);
  size_t end = dom.find("</svg>", at);
  return dom.substr(begin, end - begin);
}

int DataPoints(const std::string& svg) {
  std::smatch m;
  if (!std::regex_search(svg, m, std::regex("data-points=\"([0-9]+)\""))) return -1;
  return std::stoi(m[1]);
}

int CountInSvg(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

void ExpectNoConsoleError(const ChromiumRun& r) {
  EXPECT_EQ(r.log.find("Uncaught"), std::string::npos) << r.log;
  EXPECT_EQ(r.log.find("ERROR:CONSOLE"), std::string::npos) << r.log;
  EXPECT_EQ(r.log.find("net::ERR_"), std::string::npos) << r.log;  // nothing fetched
}

void ExpectPng(const std::string& path) {
  const std::string png = ReadFile(path);
  ASSERT_GT(png.size(), 10000u) << path;
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

class HtmlChromiumTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kChromium, X_OK) != 0) GTEST_SKIP() << kChromium << " is not installed";
  }
};

TEST_F(HtmlChromiumTest, RunReportRendersEveryChart) {
  TempDir dir;
  const std::string page = BuildDir() + "/report.html";
  const std::string json = dir / "run.json";
  ASSERT_EQ(ShellExitCode(std::string(LOADCELL_BINARY) +
                          " cpu --time=1 --threads=2 --cpu-max-prime=3000 --report-interval=0.2"
                          " --format=json --output-file=" +
                          json + " --report-html=" + page + " > /dev/null"),
            0);
  Result<ResultData> data = ReadResultFile(json);
  ASSERT_OK(data);
  const int intervals = static_cast<int>(data->intervals.size());
  ASSERT_GE(intervals, 4);

  ChromiumRun r = Chromium(page, "--dump-dom");
  ASSERT_EQ(r.exit_code, 0) << r.log;
  ASSERT_NE(r.dom.find("<h1>loadcell cpu</h1>"), std::string::npos) << r.dom.substr(0, 500);
  ExpectNoConsoleError(r);

  const std::string throughput = ChartSvg(r.dom, "throughput");
  EXPECT_EQ(DataPoints(throughput), intervals);
  EXPECT_EQ(CountInSvg(throughput, "<circle"), intervals);
  const std::string percentiles = ChartSvg(r.dom, "latency-percentiles");
  EXPECT_EQ(DataPoints(percentiles), 5 * intervals);  // p50, p95, p99, p99.9, max
  EXPECT_EQ(CountInSvg(percentiles, "<circle"), 5 * intervals);
  const std::string threads = ChartSvg(r.dom, "threads");
  EXPECT_EQ(DataPoints(threads), 2);
  EXPECT_EQ(CountInSvg(threads, "<rect class=\"bar"), 2);
  const std::string histogram = ChartSvg(r.dom, "histogram");
  EXPECT_GT(DataPoints(histogram), 0);
  EXPECT_EQ(CountInSvg(histogram, "<rect class=\"bar"), DataPoints(histogram));
  EXPECT_NE(r.dom.find("id=\"manifest\""), std::string::npos);

  const std::string png = BuildDir() + "/report.png";
  std::remove(png.c_str());
  ChromiumRun shot = Chromium(page, "--screenshot=" + png + " --window-size=1200,2400");
  ASSERT_EQ(shot.exit_code, 0) << shot.log;
  ExpectNoConsoleError(shot);
  ExpectPng(png);
}

TEST_F(HtmlChromiumTest, PhoneWidthAndSweepPage) {
  TempDir dir;
  const std::string page = BuildDir() + "/sweep.html";
  ASSERT_EQ(ShellExitCode(std::string(LOADCELL_BINARY) +
                          " sweep --threads=1,2 --cpu-max-prime=1000,3000 --quiet" +
                          " --output-dir=" + (dir / "out") + " --report-html=" + page +
                          " -- cpu --time=0.2 run > /dev/null"),
            0);
  ChromiumRun r = Chromium(page, "--dump-dom");
  ASSERT_EQ(r.exit_code, 0) << r.log;
  ExpectNoConsoleError(r);
  EXPECT_EQ(DataPoints(ChartSvg(r.dom, "saturation-throughput")), 4);
  EXPECT_EQ(DataPoints(ChartSvg(r.dom, "saturation-p99")), 4);
  EXPECT_EQ(CountInSvg(ChartSvg(r.dom, "saturation-p99"), "<circle"), 4);
  // A phone-sized window renders too (the layout is one column there).
  const std::string png = BuildDir() + "/sweep-phone.png";
  std::remove(png.c_str());
  ChromiumRun shot = Chromium(page, "--screenshot=" + png + " --window-size=390,1600");
  ASSERT_EQ(shot.exit_code, 0) << shot.log;
  ExpectNoConsoleError(shot);
  ExpectPng(png);
}

}  // namespace
}  // namespace loadcell
