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
