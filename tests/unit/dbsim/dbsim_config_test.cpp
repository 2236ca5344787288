// SQLIOSim's configuration file as loadcell dbsim reads it: the defaults,
// a file with every section, and the table of bad files
// (tests/data/dbsim_bad_configs.tsv), each refused in one line naming the
// file, the line and the key.
#include "dbsim/dbsim_config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testing/status.h"

namespace loadcell {
namespace {

// "\n" in a table cell is a line break, "\\" a backslash.
std::string Unescape(const std::string& cell) {
  std::string out;
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '\\' && i + 1 < cell.size() && (cell[i + 1] == 'n' || cell[i + 1] == '\\')) {
      out += cell[i + 1] == 'n' ? '\n' : '\\';
      ++i;
    } else {
      out += cell[i];
    }
  }
  return out;
}

struct BadConfigCase {
  std::string name;
  std::string line;
  std::string piece;
  std::string text;
};

std::vector<BadConfigCase> ReadBadConfigCases() {
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/tests/data/dbsim_bad_configs.tsv");
  std::vector<BadConfigCase> cases;
  std::string row;
  while (std::getline(in, row)) {
    if (row.empty() || row[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream split(row);
    for (std::string cell; std::getline(split, cell, '\t');) cells.push_back(cell);
    if (cells.size() != 4) {
      ADD_FAILURE() << "bad table row: " << row;
      continue;
    }
    cases.push_back({cells[0], cells[1], Unescape(cells[2]), Unescape(cells[3])});
  }
  return cases;
}

TEST(DbsimConfig, AnEmptyFileIsSqlioSimsDefaults) {
  auto config = ParseDbsimConfig("", "empty.ini");
  ASSERT_OK(config.status());
  EXPECT_EQ(config->test_cycles, 1);
  EXPECT_EQ(config->test_cycle_duration_s, 300);
  EXPECT_EQ(config->cache_hit_ratio, 1000);
  EXPECT_TRUE(config->no_buffering);
  EXPECT_TRUE(config->write_through);
  EXPECT_TRUE(config->use_scatter_gather);
  EXPECT_EQ(config->read_write_ratio, 9000);
  EXPECT_EQ(config->audit_users, 2);
  EXPECT_EQ(config->buffers_ra_min, 32);
  EXPECT_EQ(config->buffers_ra_max, 64);
  EXPECT_TRUE(config->files.empty());
  EXPECT_TRUE(config->not_simulated.empty());
}

TEST(DbsimConfig, ReadsEverySectionCaseBlindWithCommentsAndCrLf) {
  const std::string text =
      "; a test configuration\r\n[CONFIG]\r\nTestCycles=3\r\ntestcycleduration = 20\r\n"
      "StopOnError=false\r\nWriteThrough=FALSE\r\nUseScatterGather=TRUE\r\n"
      "TargetIODuration=100\r\n;CPUCount=2\r\n"
      "[RandomUser]\nUserCount=4\nRandomUserReadWriteRatio=7500\nMinIOChainLength=5\n"
      "[AuditUser]\nUserCount=1\nBuffersValidated=16\n"
      "[ReadAheadUser]\nBuffersRAMin=8\nBuffersRAMax=16\n"
      "[BulkUpdateUser]\nBuffersBUMin=600\nBuffersBUMax=1000\n"
      "[ShrinkUser]\nMaxExtends=5\n"
      "[File2]\nFileName=log.ldx\nInitialSize=5\nMaxSize=5\nLogFile=TRUE\n"
      "[File1]\nFileName=data.mdx\nInitialSize=10\nMaxSize=100\nIncrement=0\n";
  auto config = ParseDbsimConfig(text, "t.ini");
  ASSERT_OK(config.status());
  EXPECT_EQ(config->test_cycles, 3);
  EXPECT_EQ(config->test_cycle_duration_s, 20);
  EXPECT_FALSE(config->stop_on_error);
  EXPECT_FALSE(config->write_through);
  EXPECT_EQ(config->random_users, 4);
  EXPECT_EQ(config->read_write_ratio, 7500);
  EXPECT_EQ(config->min_io_chain, 5);
  EXPECT_EQ(config->audit_users, 1);
  EXPECT_EQ(config->buffers_validated, 16);
  EXPECT_EQ(config->buffers_ra_max, 16);
  EXPECT_EQ(config->buffers_bu_max, 1000);
  EXPECT_EQ(config->max_extends, 5);
  ASSERT_EQ(config->files.size(), 2u);
  EXPECT_EQ(config->files[0].number, 1);  // sorted by N
  EXPECT_EQ(config->files[0].name, "data.mdx");
  EXPECT_EQ(config->files[0].initial_mb, 10u);
  EXPECT_FALSE(config->files[0].log_file);
  EXPECT_EQ(config->files[1].name, "log.ldx");
  EXPECT_TRUE(config->files[1].log_file);
  // Accepted but not simulated: named with its line for the warning.
  ASSERT_EQ(config->not_simulated.size(), 1u);
  EXPECT_EQ(config->not_simulated[0], "TargetIODuration (line 8)");
}

TEST(DbsimConfig, EveryBadFileOfTheTableIsRefusedNamingItsLine) {
  const auto cases = ReadBadConfigCases();
  ASSERT_GE(cases.size(), 40u);
  for (const auto& c : cases) {
    auto config = ParseDbsimConfig(c.text, "bad.ini");
    ASSERT_FALSE(config.ok()) << c.name;
    const Status& s = config.status();
    EXPECT_TRUE(s.IsUsageError()) << c.name;
    EXPECT_EQ(s.message().find("bad.ini:" + c.line + ": "), 0u) << c.name << ": " << s.message();
    EXPECT_NE(s.message().find(c.piece), std::string::npos) << c.name << ": " << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << c.name;
  }
}

}  // namespace
}  // namespace loadcell
