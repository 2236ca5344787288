// Report files through the real binary: a usage error or a failed start never
// touches an existing file, an output path equal to an input or to another
// output is refused (exit 2), and a finished run puts the whole report in
// place with nothing left beside it. Each row of the table is one way a
// report file could be lost; the next finding of that kind joins it.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::Expand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::TempDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

struct KeepCase {
  const char* name;
  // Arguments; "@" in an argument is replaced by the temp folder's path.
  std::vector<std::string> args;
  int exit_code;
  const char* error;  // a part of the one error line
};

// The folder holds old.json, old.html and my.cfg with known contents before
// each case; after it, all three are byte for byte as they were and nothing
// else is in the folder.
TEST(OutputSafety, ExistingFilesSurviveUsageErrorsAndFailedStarts) {
  const std::vector<KeepCase> cases = {
      {"failed start, --output-file",
       {"fileio", "--file-dir=@", "--file-test-mode=rndrd", "--output-file=@/old.json",
        "--format=json", "run"},
       1,
       "no test files"},
      {"missing test folder",
       {"fileio", "--file-dir=@/none", "--output-file=@/old.json", "run"},
       2,
       "no such directory"},
      {"failed start, --report-html",
       {"fileio", "--file-dir=@", "--file-test-mode=rndrd", "--report-html=@/old.html", "run"},
       1,
       "no test files"},
      {"failed start, both outputs",
       {"fileio", "--file-dir=@", "--file-test-mode=rndrd", "--output-file=@/old.json",
        "--report-html=@/old.html", "run"},
       1,
       "no test files"},
      {"bad option value",
       {"cpu", "--threads=0", "--output-file=@/old.json", "run"},
       2,
       "--threads"},
      {"unknown option",
       {"cpu", "--no-such-option=1", "--output-file=@/old.json", "run"},
       2,
       "no-such"},
      {"two outputs on one path",
       {"cpu", "--time=1", "--output-file=@/old.json", "--report-html=@/./old.json", "run"},
       2,
       "the same file as --output-file"},
      {"output on the config file",
       {"cpu", "--config-file=@/my.cfg", "--output-file=@/my.cfg", "run"},
       2,
       "the same file as --config-file"},
      {"report -o on its input",
       {"report", "@/old.json", "-o", "@/old.json"},
       2,
       "result file itself"},
      {"sweep with a bad point, --report-html",
       {"sweep", "--threads=1,x", "--output-dir=@/sweep", "--report-html=@/old.html", "--", "cpu",
        "--time=0.1", "run"},
       2,
       "threads=x"},
      {"report of a file that is not a result",
       {"report", "@/my.cfg", "-o", "@/old.html"},
       2,
       "not a loadcell result"},
  };
  for (const KeepCase& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    const std::string json = dir.Write("old.json", "{\"old\": true}\n");
    const std::string html = dir.Write("old.html", "<p>old</p>\n");
    const std::string cfg = dir.Write("my.cfg", "time=1\n");
    ProcessResult r = RunLoadcell(Expand(c.args, dir.path()));
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_EQ(Slurp(json), "{\"old\": true}\n");
    EXPECT_EQ(Slurp(html), "<p>old</p>\n");
    EXPECT_EQ(Slurp(cfg), "time=1\n");
    EXPECT_EQ(Listing(dir.path()), (std::vector<std::string>{"my.cfg", "old.html", "old.json"}));
  }
}

TEST(OutputSafety, AFinishedRunReplacesTheFileWholeAndLeavesNothingBeside) {
  TempDir dir;
  dir.Write("res.json", "OLD");
  dir.Write("res.html", "OLD");
  ProcessResult r =
      RunLoadcell({"cpu", "--time=1", "--format=json", "--output-file=" + dir.File("res.json"),
                   "--report-html=" + dir.File("res.html"), "run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string json = Slurp(dir.File("res.json"));
  EXPECT_EQ(json.rfind("{", 0), 0u) << json.substr(0, 80);
  EXPECT_NE(json.find("\"schema\""), std::string::npos);
  EXPECT_EQ(json.back(), '\n');
  const std::string html = Slurp(dir.File("res.html"));
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_EQ(Listing(dir.path()), (std::vector<std::string>{"res.html", "res.json"}));

  ProcessResult page = RunLoadcell({"report", dir.File("res.json"), "-o", dir.File("page.html")});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_NE(Slurp(dir.File("page.html")).find("</html>"), std::string::npos);
  EXPECT_EQ(Listing(dir.path()), (std::vector<std::string>{"page.html", "res.html", "res.json"}));
}

TEST(OutputSafety, AMissingFolderIsOneLineAndExitTwo) {
  TempDir dir;
  ProcessResult r =
      RunLoadcell({"cpu", "--time=1", "--output-file=" + dir.File("no/such/res.json"), "run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--output-file=" + dir.File("no/such/res.json") +
                       ": cannot open for writing: No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(Listing(dir.path()).empty());
}

TEST(OutputSafety, ASweepPutsEachPointAndItsPageInPlaceWhole) {
  TempDir dir;
  dir.Write("page.html", "OLD");
  ProcessResult r = RunLoadcell({"sweep", "--threads=1,2", "--output-dir=" + dir.File("out"),
                                 "--report-html=" + dir.File("page.html"), "--quiet", "--", "cpu",
                                 "--time=0.1", "run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(Slurp(dir.File("page.html")).find("</html>"), std::string::npos);
  EXPECT_EQ(Listing(dir.path()), (std::vector<std::string>{"out", "page.html"}));
  EXPECT_EQ(Listing(dir.File("out")),
            (std::vector<std::string>{"cpu-threads=1.json", "cpu-threads=2.json"}));
}

}  // namespace
}  // namespace loadcell
