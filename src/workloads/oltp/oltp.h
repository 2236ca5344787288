#pragma once
// The sysbench 1.0 OLTP workloads (oltp_read_write, oltp_point_select, ...,
// bulk_insert) and the 0.4/0.5 `oltp` test, on sqlite, pgsql or mysql.
// One event is one transaction (or one statement for the single-statement
// tests; one row for bulk_insert).

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "db/db_driver.h"
#include "runner/run_facts.h"
#include "runner/workload.h"
#include "workloads/oltp/oltp_options.h"
#include "workloads/oltp/oltp_prepare.h"
#include "workloads/oltp/oltp_sql.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell {

class OltpWorkload final : public Workload, public TextReportSections {
 public:
  explicit OltpWorkload(OltpKind kind) : kind_(kind) {}

  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  // Checks the options, picks the driver and connects once (the server's
  // version goes into the report header; a refused connection fails here).
  Status Validate(int threads) override;
  // Under MPI: the ranks that prepare, run and clean up together. Refuses
  // bulk_insert (its tables are numbered by thread) and SQLite on ranks of
  // more than one host (they cannot share the file).
  Status JoinProcesses(ProcessGroup& group) override;

  Status Prepare(const PrepareContext& ctx) override;
  Status Cleanup(const PrepareContext& ctx) override;

  // Checks that prepare was run (FailedPrecondition otherwise).
  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;

  std::vector<std::pair<std::string, std::string>> Describe() const override;
  std::vector<Metric> Metrics(const RunResult& r) const override;
  WorkloadFacts Facts(const RunResult& r) const override;
  std::string TextSection(const RunResult& r) const override;
  std::string SysbenchSection(const RunResult& r) const override;
  std::string IntervalLine(const IntervalSnapshot& s, double percentile) const override;

  // Prepare and cleanup print nothing (for the quick suite).
  void SetQuiet(bool quiet) { quiet_ = quiet; }

  OltpKind kind() const { return kind_; }
  const OltpOptions& options() const { return opts_; }
  const OltpPlan& plan() const { return shared_.plan; }

 private:
  OltpDbContext DbContext(int threads, uint64_t seed);
  // The connection opened by Validate (null when there is none; the
  // prepare and cleanup steps connect when they need to).
  std::unique_ptr<DbConnection> TakeConnection();
  std::string SqlitePath() const;
  bool SqliteFileExists() const;

  const OltpKind kind_;
  OltpOptions opts_;
  DbDrivers db_;
  const OptionSet* option_set_ = nullptr;
  SqlDialect dialect_ = SqlDialect::kSqlite;
  int threads_ = 1;
  bool quiet_ = false;
  std::string server_version_;
  std::string statement_path_;  // how statements reach the server (empty for SQLite)
  // The server's settings, read by Init over the first connection (for
  // the manifest: what `loadcell compare` weighs).
  DatabaseSettings settings_;
  std::mutex conn_mu_;
  std::unique_ptr<DbConnection> first_conn_;
  // SQLite: the database's files that did not exist at Validate, before the
  // first connection (what a failed prepare removes).
  SqliteNewFiles sqlite_new_;
  ProcessGroup* group_ = nullptr;  // under MPI (JoinProcesses)
  // The tables' and the buffer pool's sizes, read by the first Facts() of a
  // run that did an event and did not fail (one connection, two queries,
  // after the run: a failed run's server may not answer).
  mutable std::mutex data_set_mu_;
  mutable DatabaseFacts data_set_;
  mutable bool data_set_read_ = false;
  OltpRunShared shared_;
};

}  // namespace loadcell
