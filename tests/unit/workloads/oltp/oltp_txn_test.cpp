#include "workloads/oltp/oltp_txn.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "workloads/oltp/oltp_report.h"

namespace loadcell {
namespace {

TEST(OltpPlan, ReadWriteCountsAsSysbench) {
  // sysbench 1.0 oltp_read_write with the defaults: 14 reads, 4 writes and
  // 2 others (BEGIN, COMMIT) per transaction.
  const OltpPlan p = MakeOltpPlan(OltpKind::kReadWrite, OltpOptions{});
  EXPECT_TRUE(p.transaction);
  const QueryMix m = ExpectedMix(p);
  EXPECT_EQ(m.reads, 14u);
  EXPECT_EQ(m.writes, 4u);
  EXPECT_EQ(m.others, 2u);
  EXPECT_EQ(m.total(), 20u);
  EXPECT_EQ(DescribePlan(p),
            "BEGIN, 10 point selects, 1 simple range, 1 sum range, 1 order range, 1 distinct "
            "range, 1 index update, 1 non-index update, 1 delete + insert, COMMIT");
}

TEST(OltpPlan, EveryWorkload) {
  struct Case {
    OltpKind kind;
    uint64_t reads, writes, others;
    bool trx;
  };
  const Case cases[] = {
      {OltpKind::kReadOnly, 14, 0, 2, true},       {OltpKind::kWriteOnly, 0, 4, 2, true},
      {OltpKind::kPointSelect, 1, 0, 0, false},    {OltpKind::kUpdateIndex, 0, 1, 0, false},
      {OltpKind::kUpdateNonIndex, 0, 1, 0, false}, {OltpKind::kInsert, 0, 1, 0, false},
      {OltpKind::kDelete, 0, 1, 0, false},         {OltpKind::kRandomPoints, 1, 0, 0, false},
      {OltpKind::kRandomRanges, 1, 0, 0, false},   {OltpKind::kLegacy, 14, 4, 2, true},
  };
  for (const Case& c : cases) {
    const OltpPlan p = MakeOltpPlan(c.kind, OltpOptions{});
    const QueryMix m = ExpectedMix(p);
    EXPECT_EQ(m.reads, c.reads) << OltpKindName(c.kind);
    EXPECT_EQ(m.writes, c.writes) << OltpKindName(c.kind);
    EXPECT_EQ(m.others, c.others) << OltpKindName(c.kind);
    EXPECT_EQ(p.transaction, c.trx) << OltpKindName(c.kind);
    EXPECT_FALSE(DescribePlan(p).empty());
  }
}

TEST(OltpPlan, OptionsChangeTheMix) {
  OltpOptions o;
  o.point_selects = 1000;
  o.range_selects = false;
  o.index_updates = 1000;
  o.skip_trx = true;
  const OltpPlan p = MakeOltpPlan(OltpKind::kReadWrite, o);
  EXPECT_FALSE(p.transaction);
  const QueryMix m = ExpectedMix(p);
  EXPECT_EQ(m.reads, 1000u);
  EXPECT_EQ(m.writes, 1000u + 1 + 2);
  EXPECT_EQ(m.others, 0u);
  // oltp_point_select always runs one select, whatever --point-selects says.
  EXPECT_EQ(ExpectedMix(MakeOltpPlan(OltpKind::kPointSelect, o)).reads, 1u);
  // oltp_insert without auto-increment sends its own ids.
  o.auto_inc = false;
  const OltpPlan ins = MakeOltpPlan(OltpKind::kInsert, o);
  ASSERT_EQ(ins.steps.size(), 1u);
  EXPECT_EQ(ins.steps[0].stmt, OltpStmt::kInsert);
  // Zero-count groups disappear.
  OltpOptions none;
  none.point_selects = 0;
  none.simple_ranges = 0;
  const OltpPlan ro = MakeOltpPlan(OltpKind::kReadOnly, none);
  for (const OltpStep& s : ro.steps) {
    EXPECT_NE(s.stmt, OltpStmt::kPointSelect);
    EXPECT_NE(s.stmt, OltpStmt::kSimpleRange);
  }
}

TEST(OltpCounting, SysbenchsRule) {
  DbExecResult none;
  DbExecResult one;
  one.rows_affected = 1;
  DbExecResult rows;
  rows.rows_returned = 5;
  // A SELECT is a read even when it finds nothing.
  EXPECT_EQ(CounterFor(OltpStmt::kPointSelect, none), kOltpReads);
  EXPECT_EQ(CounterFor(OltpStmt::kSumRange, rows), kOltpReads);
  // DML is a write when it changed a row, other when it changed none.
  EXPECT_EQ(CounterFor(OltpStmt::kDelete, one), kOltpWrites);
  EXPECT_EQ(CounterFor(OltpStmt::kDelete, none), kOltpOthers);
  EXPECT_EQ(CounterFor(OltpStmt::kIndexUpdate, one), kOltpWrites);
  EXPECT_EQ(CounterFor(OltpStmt::kInsert, one), kOltpWrites);
}

TEST(OltpCounting, CounterNames) {
  const auto& names = OltpCounterNames();
  ASSERT_EQ(names.size(), static_cast<size_t>(kOltpCounterCount));
  EXPECT_EQ(names[kOltpReads], "reads");
  EXPECT_EQ(names[kOltpWrites], "writes");
  EXPECT_EQ(names[kOltpOthers], "others");
  EXPECT_EQ(names[kOltpTransactions], "transactions");
  EXPECT_EQ(names[kOltpIgnoredErrors], "ignored_errors");
  EXPECT_EQ(names[kOltpReconnects], "reconnects");
  EXPECT_EQ(names[kOltpDeadlocks], "deadlocks");
  EXPECT_EQ(names[kOltpThinkTimeNs], "think_time_ns");
  EXPECT_EQ(names[kOltpClientCpuNs], "client_cpu_ns");
}

TEST(OltpCounting, Deadlocks) {
  DbError mysql;
  mysql.code = 1213;
  EXPECT_TRUE(IsDeadlock(mysql));
  DbError pg;
  pg.sqlstate = "40P01";
  EXPECT_TRUE(IsDeadlock(pg));
  DbError ser;
  ser.sqlstate = "40001";
  EXPECT_TRUE(IsDeadlock(ser));
  DbError wait;
  wait.code = 1205;
  EXPECT_FALSE(IsDeadlock(wait));
}

TEST(OltpIds, PermutationIsInjective) {
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < 200000; ++i) EXPECT_TRUE(seen.insert(PermuteId32(i)).second) << i;
  EXPECT_NE(PermuteId32(1), 1u);
}

RunResult ResultWith(uint64_t events, double secs, std::vector<uint64_t> counters) {
  RunResult r;
  r.events = events;
  r.total_time_s = secs;
  r.counter_names = OltpCounterNames();
  r.counters = std::move(counters);
  r.counters.resize(kOltpCounterCount);
  // What RunWorkload adds before reporting.
  FillDerivedFigures(r);
  r.metrics = OltpMetrics(r);
  return r;
}

TEST(OltpReport, SqlStatisticsInSysbenchsShape) {
  // 10 transactions of the default mix in 2 seconds.
  const RunResult r = ResultWith(10, 2.0, {140, 40, 20, 10, 3, 1, 2, 0, 5000000});
  const std::string text = OltpTextSection(r);
  const std::string expected_head =
      "SQL statistics:\n"
      "    queries performed:\n"
      "        read:                            140\n"
      "        write:                           40\n"
      "        other:                           20\n"
      "        total:                           200\n"
      "    transactions:                        10     (5.00 per sec.)\n"
      "    queries:                             200    (100.00 per sec.)\n"
      "    ignored errors:                      3      (1.50 per sec.)\n"
      "    reconnects:                          1      (0.50 per sec.)\n";
  EXPECT_EQ(text.substr(0, expected_head.size()), expected_head) << text;
  EXPECT_NE(text.find("CPU time per transaction:            0.5000 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("deadlocks:"), std::string::npos) << text;
  EXPECT_EQ(text.find("think time"), std::string::npos) << text;
}

// The section prints the result's derived figures; it computes none (a
// figure changed after FillDerivedFigures/Metrics is what it shows).
TEST(OltpReport, SqlStatisticsPrintTheDerivedFigures) {
  RunResult r = ResultWith(10, 2.0, {140, 40, 20, 10, 3, 1, 2, 0, 5000000});
  r.events_per_second = 7;
  r.counter_rates[kOltpIgnoredErrors] = 8;
  r.counter_rates[kOltpReconnects] = 9;
  r.counter_rates[kOltpDeadlocks] = 11;
  for (Metric& m : r.metrics) {
    if (m.key == "queries_per_second") m.value = 12;
    if (m.key == "client_cpu_ms_per_transaction") m.value = 13;
    if (m.key == "client_cpu_percent") m.value = 14;
  }
  const std::string text = OltpTextSection(r);
  for (const char* want :
       {"transactions:                        10     (7.00 per sec.)",
        "queries:                             200    (12.00 per sec.)",
        "ignored errors:                      3      (8.00 per sec.)",
        "reconnects:                          1      (9.00 per sec.)",
        "deadlocks:                           2      (11.00 per sec.)",
        "CPU time per transaction:            13.0000 ms", "(14.0% of one CPU)"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  }
}

TEST(OltpReport, FactsCountTheIncidentsTheVerdictNames) {
  // 3 ignored errors (2 of them deadlocks), 1 reconnect.
  const RunResult r = ResultWith(10, 2.0, {140, 40, 20, 10, 3, 1, 2, 0, 0});
  const WorkloadFacts f = OltpFacts(r, "mysql", /*reconnects_asked=*/false);
  ASSERT_EQ(f.incidents.size(), 3u);
  EXPECT_EQ(f.incidents[0].what, "ignored_errors");
  EXPECT_EQ(f.incidents[0].count, 3u);
  EXPECT_EQ(f.incidents[0].option, "--mysql-ignore-errors");
  EXPECT_EQ(f.incidents[1].count, 2u);
  EXPECT_EQ(f.incidents[2].what, "reconnects");
  EXPECT_EQ(f.incidents[2].count, 1u);
  EXPECT_FALSE(f.measures_client_cpu);
  // Reconnects a --oltp-reconnect-mode asked for are not incidents.
  EXPECT_EQ(OltpFacts(r, "pgsql", /*reconnects_asked=*/true).incidents.size(), 2u);
  EXPECT_EQ(OltpFacts(r, "pgsql", true).incidents[0].option, "--pgsql-ignore-errors");
  // SQLite has no --sqlite-ignore-errors (a script's hook ignores its
  // errors): no option is named.
  EXPECT_EQ(OltpFacts(r, "sqlite", false).incidents[0].option, "");
}

TEST(OltpReport, Metrics) {
  const RunResult r = ResultWith(10, 2.0, {140, 40, 20, 10, 0, 0, 0, 1000000000, 5000000});
  std::map<std::string, double> m;
  for (const Metric& x : OltpMetrics(r)) m[x.key] = x.value;
  EXPECT_DOUBLE_EQ(m["transactions_per_second"], 5.0);
  EXPECT_DOUBLE_EQ(m["queries_per_second"], 100.0);
  EXPECT_DOUBLE_EQ(m["reads_per_second"], 70.0);
  EXPECT_DOUBLE_EQ(m["client_cpu_ms_per_transaction"], 0.5);
  EXPECT_DOUBLE_EQ(m["think_time_seconds"], 1.0);
  // No time, no events: zeros, never NaN.
  for (const Metric& x : OltpMetrics(ResultWith(0, 0, {}))) EXPECT_EQ(x.value, 0) << x.key;
}

TEST(OltpReport, IntervalLine) {
  IntervalSnapshot s;
  s.duration_s = 2;
  s.threads = 4;
  s.events = 100;
  s.counters = {1400, 400, 200, 100, 2, 1, 0, 0, 0};
  FillDerivedFigures(s);
  EXPECT_EQ(OltpIntervalLine(s, 95),
            "thds: 4 tps: 50.00 qps: 1000.00 (r/w/o: 700.00/200.00/100.00) lat (ms,95%): 0.00 "
            "err/s: 1.00 reconn/s: 0.50");
  EXPECT_NE(OltpIntervalLine(s, 99.9).find("lat (ms,99.9%)"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
