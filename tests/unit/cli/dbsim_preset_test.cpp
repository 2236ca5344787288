// `loadcell dbsim --preset=NAME`: each engine's page size, read-ahead, log
// and checkpoint as docs/dbsim.md derives them, and an unknown name refused.
#include "cli/dbsim/dbsim_preset.h"

#include <gtest/gtest.h>

#include "dbsim/dbsim_config.h"
#include "testing/status.h"

namespace loadcell {
namespace {

TEST(DbsimPreset, SqlServerIsUnbufferedWriteThroughWithExtentReadAhead) {
  auto p = DbsimPreset("sqlserver");
  ASSERT_OK(p.status());
  EXPECT_EQ(p->page_size, 8192u);
  EXPECT_TRUE(p->config.no_buffering);
  EXPECT_TRUE(p->config.write_through);
  EXPECT_EQ(p->config.buffers_ra_min, 8);   // one 64 KiB extent
  EXPECT_EQ(p->config.buffers_ra_max, 64);  // 512 KiB
  EXPECT_EQ(p->config.max_log_per_buffer, 61440);
  EXPECT_FALSE(p->config.doublewrite);
  EXPECT_FALSE(p->config.checkpoint_spread);
}

TEST(DbsimPreset, PostgreSqlIsBufferedWithWalBlocksSegmentsAndASpreadCheckpoint) {
  auto p = DbsimPreset("postgresql");
  ASSERT_OK(p.status());
  EXPECT_EQ(p->page_size, 8192u);
  EXPECT_FALSE(p->config.no_buffering);
  EXPECT_FALSE(p->config.write_through);
  EXPECT_EQ(p->config.log_block_bytes, 8192u);
  EXPECT_EQ(p->config.default_log_mb, 16u);
  EXPECT_TRUE(p->config.checkpoint_spread);
  EXPECT_EQ(p->config.buffers_ra_max, 16);  // 128 KiB
}

TEST(DbsimPreset, InnoDbHasSixteenKiBPagesWholeExtentsAndTheDoublewriteBuffer) {
  auto p = DbsimPreset("innodb");
  ASSERT_OK(p.status());
  EXPECT_EQ(p->page_size, 16384u);
  EXPECT_TRUE(p->config.no_buffering);
  EXPECT_FALSE(p->config.write_through);
  EXPECT_EQ(p->config.buffers_ra_min, 64);  // one 1 MiB extent
  EXPECT_EQ(p->config.buffers_ra_max, 64);
  EXPECT_TRUE(p->config.doublewrite);
  EXPECT_EQ(p->config.default_log_mb, 100u);
}

// Every value of every preset, as docs/dbsim.md's table of them states
// each with the engine's documentation it comes from: a change to one is a
// change to that table.
struct PinnedPreset {
  const char* name;
  uint32_t page_size;
  bool no_buffering;
  bool write_through;
  bool log_buffered;
  int64_t read_ahead_min;
  int64_t read_ahead_max;
  int64_t read_ahead_align;
  int64_t log_min;
  int64_t log_max;
  uint32_t log_block;
  uint64_t log_mb;
  bool checkpoint_spread;
  bool doublewrite;
};

TEST(DbsimPreset, EveryValueIsTheOneItsTableStates) {
  const PinnedPreset pinned[] = {
      {"sqlserver", 8192, true, true, false, 8, 64, 8, 512, 61440, 512, 50, false, false},
      {"postgresql", 8192, false, false, false, 4, 16, 1, 64, 8192, 8192, 16, true, false},
      {"innodb", 16384, true, false, true, 64, 64, 64, 64, 16384, 512, 100, false, true},
  };
  for (const PinnedPreset& want : pinned) {
    SCOPED_TRACE(want.name);
    auto p = DbsimPreset(want.name);
    ASSERT_OK(p.status());
    const DbsimConfig& c = p->config;
    EXPECT_EQ(p->page_size, want.page_size);
    EXPECT_EQ(c.no_buffering, want.no_buffering);
    EXPECT_EQ(c.write_through, want.write_through);
    EXPECT_EQ(c.log_buffered, want.log_buffered);
    EXPECT_EQ(c.buffers_ra_min, want.read_ahead_min);
    EXPECT_EQ(c.buffers_ra_max, want.read_ahead_max);
    EXPECT_EQ(c.read_ahead_align_pages, want.read_ahead_align);
    EXPECT_EQ(c.min_log_per_buffer, want.log_min);
    EXPECT_EQ(c.max_log_per_buffer, want.log_max);
    EXPECT_EQ(c.log_block_bytes, want.log_block);
    EXPECT_EQ(c.default_log_mb, want.log_mb);
    EXPECT_EQ(c.checkpoint_spread, want.checkpoint_spread);
    EXPECT_EQ(c.doublewrite, want.doublewrite);
    // The rest is SQLIOSim's default, as without a preset.
    EXPECT_EQ(c.user_depth, 1);
    EXPECT_EQ(c.test_cycle_duration_s, DbsimConfig{}.test_cycle_duration_s);
  }
}

TEST(DbsimPreset, AConfigurationFileOverridesThePresetKeyByKey) {
  auto p = DbsimPreset("postgresql");
  ASSERT_OK(p.status());
  auto config = ParseDbsimConfig("[CONFIG]\nWriteThrough=TRUE\n", "t.ini", p->config);
  ASSERT_OK(config.status());
  EXPECT_TRUE(config->write_through);      // the file's
  EXPECT_FALSE(config->no_buffering);      // the preset's
  EXPECT_TRUE(config->checkpoint_spread);  // the preset's
  EXPECT_EQ(config->buffers_ra_max, 16);   // the preset's
}

TEST(DbsimPreset, AnUnknownNameIsRefusedNamingTheValidOnes) {
  auto p = DbsimPreset("oracle");
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(p.status().IsUsageError());
  EXPECT_NE(p.status().message().find("'oracle'"), std::string::npos);
  EXPECT_NE(p.status().message().find("sqlserver, postgresql and innodb"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
