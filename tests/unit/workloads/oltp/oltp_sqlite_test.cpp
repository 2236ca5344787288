// The OLTP workloads end to end on an embedded SQLite file in a temporary
// folder: prepare, events on a worker, counters, cleanup, safety checks.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runner/recorder.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/oltp/oltp.h"

namespace loadcell {
namespace {

// Whether the thread CPU clock counts in microseconds or finer.
bool ThreadCpuClockIsFine() {
  timespec res{};
  return clock_getres(CLOCK_THREAD_CPUTIME_ID, &res) == 0 && res.tv_sec == 0 && res.tv_nsec <= 1000;
}

class OltpSqliteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    db_ = dir_ + "/sbtest.db";
  }

  struct Configured {
    std::unique_ptr<OptionSet> set;
    std::unique_ptr<OltpWorkload> w;
    Status status;
  };

  // Registers, applies `args` (plus --sqlite-db) and validates.
  Configured Make(OltpKind kind, std::vector<std::string> args, int threads = 1) {
    Configured c;
    c.set = std::make_unique<OptionSet>("oltp");
    c.w = std::make_unique<OltpWorkload>(kind);
    c.w->RegisterOptions(*c.set);
    RawOptions raw;
    args.push_back("sqlite-db=" + db_);
    for (const std::string& a : args) {
      const size_t eq = a.find('=');
      raw.Add("--" + a.substr(0, eq), a.substr(eq + 1), true, "test");
    }
    c.status = c.set->Apply(raw);
    if (c.status.ok()) c.status = raw.CheckAllConsumed("test");
    if (c.status.ok()) c.status = c.w->Validate(threads);
    return c;
  }

  // Runs `events` events on one worker and returns its counters.
  std::vector<uint64_t> RunEvents(OltpWorkload& w, int events, uint64_t seed = 1) {
    std::vector<uint64_t> out(kOltpCounterCount, 0);
    Status init = w.Init(1);
    EXPECT_OK(init);
    if (!init.ok()) return out;
    ThreadRecorder rec(0);
    ThreadContext ctx;
    ctx.seed = seed;
    ctx.recorder = &rec;
    auto worker = w.NewWorker(ctx);
    EXPECT_OK(worker);
    if (!worker.ok()) return out;
    for (int i = 0; i < events; ++i) {
      Status s = (*worker)->RunEvent();
      EXPECT_OK(s);
      if (!s.ok()) break;
    }
    EXPECT_OK((*worker)->Finish());
    for (int i = 0; i < kOltpCounterCount; ++i) out[static_cast<size_t>(i)] = rec.counter(i);
    return out;
  }

  // The rows of `sql`, first column, through a fresh sqlite connection.
  std::vector<std::string> Query(const std::string& sql) {
    DbDrivers db;
    OptionSet set("db");
    db.RegisterOptions(set);
    RawOptions raw;
    raw.Add("--sqlite-db", db_, true, "test");
    EXPECT_OK(set.Apply(raw));
    EXPECT_OK(db.Resolve(set));
    auto conn = db.driver().Connect(0);
    EXPECT_OK(conn);
    std::vector<std::string> out;
    if (!conn.ok()) return out;
    DbExecResult r;
    DbRows rows;
    DbError e = (*conn)->Execute(sql, r, &rows);
    EXPECT_OK(e);
    for (const auto& row : rows.rows) out.push_back(row.empty() || !row[0] ? "" : *row[0]);
    return out;
  }

  testing::TempDir tmp_;
  std::string dir_;  // tmp_.path()
  std::string db_;
};

TEST_F(OltpSqliteTest, PrepareRunCleanupReadWrite) {
  auto c = Make(OltpKind::kReadWrite, {"tables=2", "table-size=200"});
  ASSERT_OK(c.status);
  PrepareContext pctx;
  pctx.threads = 2;
  pctx.seed = 5;
  ASSERT_OK(c.w->Prepare(pctx));
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"200"});
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest2"), std::vector<std::string>{"200"});
  EXPECT_EQ(Query("SELECT MIN(id) || '-' || MAX(id) FROM sbtest2"),
            std::vector<std::string>{"1-200"});
  EXPECT_EQ(Query("SELECT length(c) || '/' || length(pad) FROM sbtest1 LIMIT 1"),
            std::vector<std::string>{"119/59"});
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'k_1'"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(Query("SELECT name FROM loadcell_tables ORDER BY name"),
            (std::vector<std::string>{"sbtest1", "sbtest2"}));

  // Run in a fresh workload (as the binary does).
  auto run = Make(OltpKind::kReadWrite, {"tables=2", "table-size=200"});
  ASSERT_OK(run.status);
  const std::vector<uint64_t> n = RunEvents(*run.w, 25);
  EXPECT_EQ(n[kOltpTransactions], 25u);
  EXPECT_EQ(n[kOltpReads], 25u * 14);
  // One thread on a full table: every UPDATE, DELETE and INSERT changes a row.
  EXPECT_EQ(n[kOltpWrites], 25u * 4);
  EXPECT_EQ(n[kOltpOthers], 25u * 2);
  EXPECT_EQ(n[kOltpIgnoredErrors], 0u);
  EXPECT_EQ(n[kOltpReconnects], 0u);
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"200"});

  auto clean = Make(OltpKind::kReadWrite, {"tables=2", "table-size=200"});
  ASSERT_OK(clean.status);
  ASSERT_OK(clean.w->Cleanup(pctx));
  EXPECT_TRUE(Query("SELECT name FROM sqlite_master WHERE type = 'table'").empty());
}

TEST_F(OltpSqliteTest, EveryWorkloadRuns) {
  for (OltpKind kind : AllOltpKinds()) {
    SCOPED_TRACE(std::string(OltpKindName(kind)));
    std::vector<std::string> args;
    if (kind != OltpKind::kBulkInsert) args.push_back("table-size=100");
    if (kind != OltpKind::kRandomPoints && kind != OltpKind::kRandomRanges &&
        kind != OltpKind::kBulkInsert) {
      args.push_back("tables=1");
    }
    if (kind == OltpKind::kReadOnly || kind == OltpKind::kReadWrite || kind == OltpKind::kLegacy) {
      args.push_back("range-size=10");
    }
    auto c = Make(kind, args);
    ASSERT_OK(c.status);
    PrepareContext pctx;
    ASSERT_OK(c.w->Prepare(pctx));
    auto run = Make(kind, args);
    ASSERT_OK(run.status);
    const std::vector<uint64_t> n = RunEvents(*run.w, 10);
    EXPECT_EQ(n[kOltpTransactions], 10u);
    const QueryMix mix = ExpectedMix(run.w->plan());
    EXPECT_EQ(n[kOltpReads], 10 * mix.reads);
    if (kind == OltpKind::kBulkInsert) {
      // Ten rows wait in the buffer and go out at Finish, in one INSERT.
      EXPECT_EQ(n[kOltpWrites], 1u);
      EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"10"});
    } else if (kind != OltpKind::kDelete) {
      EXPECT_EQ(n[kOltpWrites] + n[kOltpOthers], 10 * (mix.writes + mix.others));
    } else {
      // A DELETE of a row already deleted changes nothing: counted as other.
      EXPECT_EQ(n[kOltpWrites] + n[kOltpOthers], 10u);
      EXPECT_GE(n[kOltpWrites], 1u);
    }
    // Thread CPU time: fine-grained on Linux; Windows counts it in scheduler
    // ticks (15.6 ms, Wine in the kernel's), more than ten transactions take.
    if (ThreadCpuClockIsFine()) {
      EXPECT_GT(n[kOltpClientCpuNs], 0u);
    }
    ASSERT_OK(run.w->Cleanup(pctx));
  }
}

TEST_F(OltpSqliteTest, RunBeforePrepareSaysSo) {
  auto c = Make(OltpKind::kReadWrite, {});
  ASSERT_OK(c.status);
  Status s = c.w->Init(1);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("prepare"), std::string::npos) << s.message();
  // Validate and Init created no file.
  EXPECT_FALSE(std::filesystem::exists(db_));
  // An existing file without the tables: the same answer, naming the table.
  Query("CREATE TABLE other (x INTEGER)");
  auto again = Make(OltpKind::kReadWrite, {});
  Status s2 = again.w->Init(1);
  EXPECT_EQ(s2.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s2.message().find("sbtest1 does not exist"), std::string::npos) << s2.message();
}

TEST_F(OltpSqliteTest, PrepareRefusesForeignTablesAndCleanupKeepsThem) {
  Query("CREATE TABLE sbtest2 (x INTEGER)");
  Query("INSERT INTO sbtest2 VALUES (1)");
  auto c = Make(OltpKind::kReadWrite, {"tables=3", "table-size=10", "range-size=5"});
  ASSERT_OK(c.status);
  Status s = c.w->Prepare(PrepareContext{});
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("sbtest2 already exists and was not created by loadcell"),
            std::string::npos)
      << s.message();
  // Nothing was created or dropped.
  EXPECT_EQ(Query("SELECT name FROM sqlite_master WHERE type = 'table'"),
            std::vector<std::string>{"sbtest2"});
  auto clean = Make(OltpKind::kReadWrite, {"tables=3", "table-size=10", "range-size=5"});
  ASSERT_OK(clean.w->Cleanup(PrepareContext{}));
  EXPECT_EQ(Query("SELECT x FROM sbtest2"), std::vector<std::string>{"1"});

  // --force replaces it, and then it is ours to drop.
  auto forced =
      Make(OltpKind::kReadWrite, {"tables=3", "table-size=10", "range-size=5", "force=on"});
  ASSERT_OK(forced.w->Prepare(PrepareContext{}));
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest2"), std::vector<std::string>{"10"});
  auto clean2 = Make(OltpKind::kReadWrite, {"tables=3", "table-size=10", "range-size=5"});
  ASSERT_OK(clean2.w->Cleanup(PrepareContext{}));
  EXPECT_TRUE(Query("SELECT name FROM sqlite_master WHERE type = 'table'").empty());
}

TEST_F(OltpSqliteTest, SecondPrepareAsksForCleanup) {
  auto c = Make(OltpKind::kPointSelect, {"table-size=10"});
  ASSERT_OK(c.w->Prepare(PrepareContext{}));
  auto again = Make(OltpKind::kPointSelect, {"table-size=10"});
  Status s = again.w->Prepare(PrepareContext{});
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("run cleanup first"), std::string::npos) << s.message();
}

// bulk_insert keeps an existing table of its own shape (CREATE TABLE IF NOT
// EXISTS) but refuses another test's sbtest1, whose rows it could not take:
// the run used to fail after a prepare that said it created the table.
TEST_F(OltpSqliteTest, BulkInsertPrepareKeepsOnlyATableOfItsShape) {
  auto oltp = Make(OltpKind::kPointSelect, {"table-size=10"});
  ASSERT_OK(oltp.w->Prepare(PrepareContext{}));
  auto bulk = Make(OltpKind::kBulkInsert, {});
  Status s = bulk.w->Prepare(PrepareContext{});
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("sbtest1 already exists with another test's columns"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"10"});
  ASSERT_OK(oltp.w->Cleanup(PrepareContext{}));

  auto first = Make(OltpKind::kBulkInsert, {});
  ASSERT_OK(first.w->Prepare(PrepareContext{}));
  auto again = Make(OltpKind::kBulkInsert, {});
  ASSERT_OK(again.w->Prepare(PrepareContext{}));
  const std::vector<uint64_t> n = RunEvents(*again.w, 5);
  EXPECT_EQ(n[kOltpTransactions], 5u);
}

TEST_F(OltpSqliteTest, ClientIdsWithoutAutoIncrement) {
  auto c = Make(OltpKind::kInsert, {"table-size=10", "auto-inc=off"});
  ASSERT_OK(c.status);
  ASSERT_OK(c.w->Prepare(PrepareContext{}));
  // sysbench leaves the table empty here.
  EXPECT_EQ(Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"0"});
  auto run = Make(OltpKind::kInsert, {"table-size=10", "auto-inc=off"});
  const std::vector<uint64_t> n = RunEvents(*run.w, 50);
  EXPECT_EQ(n[kOltpWrites], 50u);
  EXPECT_EQ(Query("SELECT COUNT(DISTINCT id) FROM sbtest1"), std::vector<std::string>{"50"});
}

TEST_F(OltpSqliteTest, ThinkTimeIsCountedApart) {
  auto c = Make(OltpKind::kPointSelect,
                {"table-size=10", "oltp-user-delay-min=1000", "oltp-user-delay-max=2000"});
  ASSERT_OK(c.status);
  EXPECT_TRUE(c.w->Info().self_timed);
  ASSERT_OK(c.w->Prepare(PrepareContext{}));
  auto run = Make(OltpKind::kPointSelect,
                  {"table-size=10", "oltp-user-delay-min=1000", "oltp-user-delay-max=2000"});
  ASSERT_OK(run.w->Init(1));
  ThreadRecorder rec(0);
  ThreadContext ctx;
  ctx.recorder = &rec;
  auto worker = run.w->NewWorker(ctx);
  ASSERT_OK(worker);
  for (int i = 0; i < 5; ++i) ASSERT_OK((*worker)->RunEvent());
  // At least 1 ms of think time per event, outside the recorded latency.
  EXPECT_GE(rec.counter(kOltpThinkTimeNs), 5u * 1000000);
  LatencyHistogram h;
  rec.histogram(0).SnapshotInto(h);
  EXPECT_EQ(h.Count(), 5u);
}

TEST_F(OltpSqliteTest, ReconnectModeTransaction) {
  auto c = Make(OltpKind::kReadOnly, {"table-size=100", "oltp-reconnect-mode=transaction"});
  ASSERT_OK(c.status);
  ASSERT_OK(c.w->Prepare(PrepareContext{}));
  auto run = Make(OltpKind::kReadOnly, {"table-size=100", "oltp-reconnect-mode=transaction"});
  const std::vector<uint64_t> n = RunEvents(*run.w, 4);
  EXPECT_EQ(n[kOltpReconnects], 4u);
  EXPECT_EQ(n[kOltpReads], 4u * 14);
}

TEST_F(OltpSqliteTest, DescribeNamesDriverVersionAndMix) {
  auto c = Make(OltpKind::kReadWrite, {"table-size=10", "range-size=5"});
  ASSERT_OK(c.w->Prepare(PrepareContext{}));
  auto run = Make(OltpKind::kReadWrite, {"table-size=10", "range-size=5"});
  std::map<std::string, std::string> d;
  for (const auto& [k, v] : run.w->Describe()) d[k] = v;
  EXPECT_NE(d["Database driver"].find("sqlite"), std::string::npos);
  EXPECT_NE(d["Server version"].find("SQLite 3"), std::string::npos) << d["Server version"];
  EXPECT_EQ(d["Tables"], "1 x 10 rows");
  EXPECT_NE(d["Statements per event"].find("10 point selects"), std::string::npos);
  EXPECT_FALSE(d["Prepared statements"].empty());
}

TEST_F(OltpSqliteTest, SqliteRejectsSecondary) {
  auto c = Make(OltpKind::kReadWrite, {"secondary=on"});
  EXPECT_EQ(c.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(c.status.message().find("--secondary"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
