// The manifest's file targets and database settings (what `loadcell
// compare` weighs): the workload's facts of its settings and the mount of
// each target's folder, recorded by the runner whatever the verdict mode.

#include <gtest/gtest.h>

#include "os/file_system.h"
#include "os/host_facts.h"
#include "runner/runner.h"
#include "testing/temp_dir.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::Config;
using testing::FakeWorkload;
using testing::MustRun;
using testing::TempDir;

TEST(ManifestTargets, TheWorkloadsTargetsWithTheirMount) {
  TempDir dir;
  FakeWorkload w;
  IoTargetFacts read;  // a synchronous engine, no depth asked
  read.engine = "sync";
  read.queue_depth_asked = 128;
  read.queue_depth_set = false;
  read.queue_depth = 1;
  read.reads = true;
  read.write_pattern = "random";
  read.block_bytes = 4096;
  read.file_set_bytes = 1 << 20;
  read.dir = dir.path();
  IoTargetFacts written = read;  // an asynchronous engine at an asked depth
  written.engine = "io_uring";
  written.direct = true;
  written.queue_depth_asked = 32;
  written.queue_depth_set = true;
  written.queue_depth = 32;
  written.writes = true;
  written.write_pattern = "zero";
  w.facts.io = {read, written};
  const RunResult r = MustRun(w, Config(1, 0, 10));
  ASSERT_TRUE(r.manifest.targets_recorded);
  ASSERT_EQ(r.manifest.targets.size(), 2u);
  const TargetManifest& a = r.manifest.targets[0];
  EXPECT_EQ(a.engine, "sync");
  EXPECT_FALSE(a.direct);
  EXPECT_EQ(a.queue_depth_asked, 1u);  // the engine's own: nobody asked 128
  EXPECT_EQ(a.queue_depth, 1u);
  EXPECT_EQ(a.write_pattern, "none");  // not written
  EXPECT_EQ(a.block_bytes, 4096u);
  EXPECT_EQ(a.file_set_bytes, 1u << 20);
  // The mount table's words; where there is none (Windows), the volume's.
  const MountFacts mount = ReadMountFacts(dir.path());
  EXPECT_EQ(a.file_system,
            mount.file_system.empty() ? DefaultFileSystem().FsType(dir.path()) : mount.file_system);
  EXPECT_FALSE(a.file_system.empty());
  EXPECT_EQ(a.mount_options, mount.options);
  const TargetManifest& b = r.manifest.targets[1];
  EXPECT_EQ(b.engine, "io_uring");
  EXPECT_TRUE(b.direct);
  EXPECT_EQ(b.queue_depth_asked, 32u);
  EXPECT_EQ(b.write_pattern, "zero");
}

TEST(ManifestTargets, ATestWithoutFilesRecordsNone) {
  FakeWorkload w;
  const RunResult r = MustRun(w, Config(1, 0, 10));
  EXPECT_TRUE(r.manifest.targets_recorded);
  EXPECT_TRUE(r.manifest.targets.empty());
}

// The database server's settings the workload states go into the
// manifest as they are; a test without a database records none.
TEST(ManifestTargets, TheDatabaseSettingsTheWorkloadStates) {
  FakeWorkload w;
  w.facts.database_settings = {{"server", "PostgreSQL 16.4"}, {"fsync", "off"}};
  const RunResult r = MustRun(w, Config(1, 0, 10));
  EXPECT_EQ(r.manifest.database_settings, w.facts.database_settings);
  FakeWorkload none;
  EXPECT_TRUE(MustRun(none, Config(1, 0, 10)).manifest.database_settings.empty());
}

TEST(ManifestTargets, TheNullEngineHasNoMount) {
  TempDir dir;
  FakeWorkload w;
  IoTargetFacts t;
  t.engine = "null";
  t.null_engine = true;
  t.dir = dir.path();
  w.facts.io = {t};
  const RunResult r = MustRun(w, Config(1, 0, 10));
  ASSERT_EQ(r.manifest.targets.size(), 1u);
  EXPECT_EQ(r.manifest.targets[0].engine, "null");
  EXPECT_EQ(r.manifest.targets[0].file_system, "");
}

}  // namespace
}  // namespace loadcell
