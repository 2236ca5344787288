// SQLIOSim's configuration file as loadcell dbsim reads it: the defaults,
// a file with every section, and the table of bad files
// (tests/data/dbsim_bad_configs.tsv), each refused in one line naming the
// file, the line and the key.
#include "dbsim/dbsim_config.h"

#include <gtest/gtest.h>

#include <algorithm>
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
  EXPECT_EQ(config->target_io_duration_ms, 100);
  EXPECT_TRUE(config->not_simulated.empty());
}

// SQLIOSim's meaning of the keys that were accepted without effect before,
// and of the bulk update and shrink users: every one is read and run.
TEST(DbsimConfig, TheThrottleBulkUpdateShrinkAndErrorFileKeysAreRead) {
  auto defaults = ParseDbsimConfig("", "empty.ini");
  ASSERT_OK(defaults.status());
  EXPECT_EQ(defaults->bulk_update_users, -1);  // min(CPUCount * 2, 8)
  EXPECT_EQ(defaults->buffers_bu_min, 64);
  EXPECT_EQ(defaults->buffers_bu_max, 128);
  EXPECT_EQ(defaults->bu_delay_ms, 10);
  EXPECT_EQ(defaults->min_shrink_interval_s, 120);
  EXPECT_EQ(defaults->max_shrink_interval_s, 600);
  EXPECT_EQ(defaults->min_extends, 1);
  EXPECT_EQ(defaults->max_extends, 20);
  EXPECT_EQ(defaults->target_io_duration_ms, 100);
  EXPECT_EQ(defaults->rollback_chance, 100);
  const std::string text =
      "[CONFIG]\nErrorFile=x.xml\nMaxMemoryMB=32\nMaxOutstandingIO=16\n"
      "TargetIODuration=1000000\nAllowIOBursts=FALSE\nForceReadAhead=FALSE\nStampFiles=TRUE\n"
      "[RandomUser]\nRollbackChance=500\nYieldPercentage=100\n"
      "[BulkUpdateUser]\nUserCount=3\nBuffersBUMin=600\nBuffersBUMax=1000\nBUDelay=1\n"
      "[ShrinkUser]\nMinShrinkInterval=1\nMaxShrinkInterval=2\nMinExtends=2\nMaxExtends=3\n"
      "[File1]\nFileName=data.mdx\nInitialSize=10\nMaxSize=40\nIncrement=5\nShrinkable=TRUE\n"
      "[File2]\nFileName=replica.mdx\nInitialSize=10\nSparse=TRUE\n"
      "[File3]\nFileName=log.ldx\nInitialSize=5\nLogFile=TRUE\n";
  auto config = ParseDbsimConfig(text, "t.ini");
  ASSERT_OK(config.status());
  EXPECT_EQ(config->max_memory_mb, 32);
  EXPECT_EQ(config->max_outstanding_io, 16);
  EXPECT_EQ(config->target_io_duration_ms, 1000000);
  EXPECT_FALSE(config->allow_io_bursts);
  EXPECT_FALSE(config->force_read_ahead);
  EXPECT_TRUE(config->stamp_files);
  EXPECT_EQ(config->rollback_chance, 500);
  EXPECT_EQ(config->yield_percentage, 100);
  EXPECT_EQ(config->bulk_update_users, 3);
  EXPECT_EQ(config->buffers_bu_max, 1000);
  EXPECT_EQ(config->bu_delay_ms, 1);
  EXPECT_EQ(config->max_shrink_interval_s, 2);
  EXPECT_EQ(config->max_extends, 3);
  ASSERT_EQ(config->files.size(), 3u);
  EXPECT_TRUE(config->files[0].shrinkable);
  EXPECT_EQ(config->files[0].increment_mb, 5u);
  EXPECT_EQ(config->files[0].max_mb, 40u);
  EXPECT_TRUE(config->files[1].sparse);
  // ErrorFile names the XML error log (written there without -log).
  EXPECT_TRUE(config->not_simulated.empty());
  EXPECT_TRUE(config->error_file_given);
  EXPECT_EQ(config->error_file, "x.xml");
  EXPECT_FALSE(defaults->error_file_given);
}

bool SameEntries(const std::vector<DbsimConfigEntry>& a, const std::vector<DbsimConfigEntry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.section == y.section && x.key == y.key && x.value == y.value;
  });
}

// The configuration in force as its file: every key in SQLIOSim's spelling,
// section by section, read back as the same configuration (the run's
// manifest lists these keys; -save writes this text).
TEST(DbsimConfig, AConfigurationWrittenOutReadsBackTheSame) {
  const std::string text =
      "[CONFIG]\nMaxMemoryMB=32\nTestCycleDuration=20\nStopOnError=FALSE\n"
      "[RandomUser]\nUserCount=4\nRandomUserReadWriteRatio=7500\n"
      "[BulkUpdateUser]\nUserCount=-1\nBuffersBUMin=600\nBuffersBUMax=1000\n"
      "[File1]\nFileName=data.mdx\nInitialSize=10\nMaxSize=40\nIncrement=5\nShrinkable=TRUE\n"
      "[File2]\nFileName=log.ldx\nInitialSize=5\nLogFile=TRUE\n";
  auto config = ParseDbsimConfig(text, "t.ini");
  ASSERT_OK(config.status());
  const std::vector<DbsimConfigEntry> entries = DbsimConfigEntries(*config);
  auto value = [&entries](const std::string& section, const std::string& key) {
    for (const auto& e : entries) {
      if (e.section == section && e.key == key) return e.value;
    }
    return std::string("(absent)");
  };
  EXPECT_EQ(value("CONFIG", "MaxMemoryMB"), "32");
  EXPECT_EQ(value("CONFIG", "StopOnError"), "FALSE");
  EXPECT_EQ(value("CONFIG", "ErrorFile"), "sqliosim.log.xml");
  EXPECT_EQ(value("CONFIG", "CPUCount"), "(absent)");  // not set: the host's
  EXPECT_EQ(value("RandomUser", "RandomUserReadWriteRatio"), "7500");
  EXPECT_EQ(value("BulkUpdateUser", "UserCount"), "-1");
  EXPECT_EQ(value("ShrinkUser", "MaxExtends"), "20");
  EXPECT_EQ(value("File1", "Shrinkable"), "TRUE");
  EXPECT_EQ(value("File2", "MaxSize"), "(absent)");  // not given: its InitialSize
  EXPECT_EQ(value("File2", "FileName"), "log.ldx");

  const std::string saved = FormatDbsimConfig(*config, {"saved by a test"});
  EXPECT_EQ(saved.rfind("; saved by a test\n[CONFIG]\n", 0), 0u) << saved;
  auto again = ParseDbsimConfig(saved, "saved.ini");
  ASSERT_OK(again.status()) << saved;
  EXPECT_TRUE(SameEntries(DbsimConfigEntries(*again), entries)) << saved;
  EXPECT_EQ(again->files.size(), 2u);

  // SQLIOSim's defaults, with no [FileN], read back as themselves too.
  const std::string defaults = FormatDbsimConfig(DbsimConfig{}, {});
  auto read = ParseDbsimConfig(defaults, "defaults.ini");
  ASSERT_OK(read.status()) << defaults;
  EXPECT_TRUE(SameEntries(DbsimConfigEntries(*read), DbsimConfigEntries(DbsimConfig{})));
  EXPECT_EQ(defaults.find("[File"), std::string::npos) << defaults;
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
