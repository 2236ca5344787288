// What a dbsim user states for the verdict (docs/validity.md): the files it
// reads or writes in the run's folder and their size, NoBuffering, writes
// durable before it goes on, the I/Os in flight per thread, paced.
#include <gtest/gtest.h>

#include "testing/temp_dir.h"
#include "workloads/dbsim/dbsim_users.h"

namespace loadcell {
namespace {

TEST(DbsimFacts, EachUserStatesItsFilesTheirSizeAndHowTheyAreWritten) {
  testing::TempDir dir;
  DbsimConfig config;
  config.no_buffering = false;
  DbsimFileConfig data;
  data.name = "data.mdx";
  data.initial_mb = 1;
  DbsimFileConfig log;
  log.name = "log.ldx";
  log.initial_mb = 2;
  log.log_file = true;
  config.files = {data, log};
  DbsimDatabase db(DefaultFileSystem(), true);
  DbPageFileSettings pages;
  pages.page_size = 8192;
  pages.pages = 16;
  db.AddDataFile("data.mdx", -1, pages);  // no I/O here: the facts only

  RunResult r;
  r.manifest.threads = 2;
  r.counters.assign(kDbsimFaultCounters, 0);
  r.counters[kDbsimBytesRead] = 81920;
  const DbsimUserWorkload random(DbsimUserSettings{DbsimUserKind::kRandom, &config, 1, dir.path()},
                                 db);
  const WorkloadFacts f = random.Facts(r);
  ASSERT_EQ(f.io.size(), 1u);
  const IoTargetFacts& t = f.io[0];
  EXPECT_EQ(t.dir, dir.path());
  EXPECT_EQ(t.paths, std::vector<std::string>{dir / "data.mdx"});
  EXPECT_EQ(t.file_set_bytes, 16u * 8192);
  EXPECT_TRUE(t.reads);
  EXPECT_FALSE(t.writes);  // no MaxMemoryMB: the checkpoint writes its pages
  EXPECT_FALSE(t.direct);
  EXPECT_EQ(t.engine, "sync");
  EXPECT_EQ(t.queue_depth, 1u);
  EXPECT_EQ(t.threads, 2);
  EXPECT_TRUE(t.paced);
  EXPECT_EQ(t.block_bytes, 8192u);
  EXPECT_EQ(f.io_bytes_read, 81920u);
  // --user-depth: the random user keeps that many of a thread's I/Os in flight.
  config.user_depth = 4;
  const IoTargetFacts deep = random.Facts(r).io.at(0);
  EXPECT_EQ(deep.queue_depth, 4u);
  EXPECT_TRUE(deep.asynchronous);
  EXPECT_EQ(f.option_names.direct, "NoBuffering=TRUE");

  config.no_buffering = true;
  config.log_buffered = true;  // InnoDB's redo log: buffered whatever NoBuffering says
  const DbsimUserWorkload writer(
      DbsimUserSettings{DbsimUserKind::kLogWriter, &config, 1, dir.path()}, db);
  const IoTargetFacts w = writer.Facts(r).io.at(0);
  EXPECT_EQ(w.paths, std::vector<std::string>{dir / "log.ldx"});
  EXPECT_EQ(w.file_set_bytes, 2u << 20);
  EXPECT_FALSE(w.reads);
  EXPECT_TRUE(w.writes);
  EXPECT_FALSE(w.direct);
  EXPECT_EQ(w.queue_depth, 1u);  // the log writer: one write at a time
  EXPECT_TRUE(w.write_through);  // an fdatasync after every log write
  EXPECT_EQ(w.block_bytes, 512u);
}

}  // namespace
}  // namespace loadcell
