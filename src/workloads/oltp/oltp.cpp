#include "workloads/oltp/oltp.h"

#include <fmt/format.h>

#include <chrono>

#include "core/clock.h"
#include "os/file_system.h"
#include "workloads/oltp/oltp_data_set.h"
#include "workloads/oltp/oltp_report.h"

namespace loadcell {

namespace {

std::string SummaryOf(OltpKind kind) {
  switch (kind) {
    case OltpKind::kReadOnly:
      return "OLTP: read-only transactions (point and range SELECTs)";
    case OltpKind::kReadWrite:
      return "OLTP: read/write transactions (SELECTs, UPDATEs, DELETE + INSERT)";
    case OltpKind::kWriteOnly:
      return "OLTP: write-only transactions (UPDATEs, DELETE + INSERT)";
    case OltpKind::kPointSelect:
      return "OLTP: one primary-key SELECT per event";
    case OltpKind::kUpdateIndex:
      return "OLTP: UPDATE of the indexed column k per event";
    case OltpKind::kUpdateNonIndex:
      return "OLTP: UPDATE of the non-indexed column c per event";
    case OltpKind::kInsert:
      return "OLTP: one INSERT per event";
    case OltpKind::kDelete:
      return "OLTP: one DELETE per event";
    case OltpKind::kRandomPoints:
      return "OLTP: SELECT with random points (k IN (...)) per event";
    case OltpKind::kRandomRanges:
      return "OLTP: SELECT with random ranges (k BETWEEN) per event";
    case OltpKind::kBulkInsert:
      return "OLTP: multi-row INSERTs, one row per event";
    case OltpKind::kLegacy:
      return "OLTP: the sysbench 0.4/0.5 oltp test (--oltp-test-mode, --oltp-read-only)";
  }
  return "";
}

std::string EventDefinitionOf(OltpKind kind) {
  switch (kind) {
    case OltpKind::kReadOnly:
    case OltpKind::kReadWrite:
    case OltpKind::kWriteOnly:
    case OltpKind::kLegacy:
      return "one event is one transaction (BEGIN, the statements, COMMIT; without BEGIN/COMMIT "
             "under --skip-trx), retried after a deadlock; the counts of queries follow "
             "sysbench 1.0";
    case OltpKind::kBulkInsert:
      return "one event is one row appended to a multi-row INSERT, sent at 512 KiB";
    default:
      return "one event is one statement in autocommit mode, retried after a deadlock";
  }
}

}  // namespace

WorkloadInfo OltpWorkload::Info() const {
  WorkloadInfo info;
  info.name = std::string(OltpKindName(kind_));
  info.summary = SummaryOf(kind_);
  info.event_definition = EventDefinitionOf(kind_);
  info.supports_prepare = true;
  info.self_timed = opts_.has_think_time();
  info.counter_names = OltpCounterNames();
  info.runs_across_processes = true;
  return info;
}

void OltpWorkload::RegisterOptions(OptionSet& opts) {
  RegisterOltpOptions(kind_, opts_, opts);
  db_.RegisterOptions(opts);
  option_set_ = &opts;
}

Status OltpWorkload::Validate(int threads) {
  threads_ = threads;
  LC_RETURN_IF_ERROR(ValidateOltpOptions(kind_, opts_, threads));
  if (option_set_ == nullptr) return Status::Internal("options were not registered");
  LC_RETURN_IF_ERROR(db_.Resolve(*option_set_));
  DbDriver& driver = db_.driver();
  LC_ASSIGN_OR_RETURN(dialect_, DialectForDriver(driver.Name()));
  if (dialect_ == SqlDialect::kSqlite && opts_.secondary) {
    return Status::InvalidArgument(
        "--secondary=on: not supported with --db-driver=sqlite (its auto-increment id needs "
        "the primary key)");
  }
  shared_.plan = MakeOltpPlan(kind_, opts_);
  // Resolve the legacy mix once: the workers read the resolved options.
  shared_.opts = opts_;
  ResolveLegacyMix(kind_, shared_.opts);
  shared_.driver = &driver;
  shared_.dialect = dialect_;
  shared_.threads = threads;

  first_conn_.reset();
  if (dialect_ == SqlDialect::kSqlite) {
    sqlite_new_ = SqliteNewFiles::Before(DefaultFileSystem(), SqlitePath());
  }
  // A SQLite file that does not exist yet is created by prepare, not here.
  if (dialect_ == SqlDialect::kSqlite && !SqliteFileExists()) return Status::Ok();
  LC_ASSIGN_OR_RETURN(first_conn_, driver.Connect(0));
  server_version_ = first_conn_->ServerVersion();
  statement_path_ = first_conn_->StatementPath();
  return Status::Ok();
}

Status OltpWorkload::JoinProcesses(ProcessGroup& group) {
  group_ = &group;
  if (group.Size() == 1) return Status::Ok();
  if (kind_ == OltpKind::kBulkInsert) {
    return Status::InvalidArgument(
        "bulk_insert: not supported across MPI ranks yet (its tables are numbered by thread); "
        "--mpi=off runs each process on its own");
  }
  if (dialect_ == SqlDialect::kSqlite && group.HostCount() > 1) {
    return Status::InvalidArgument(fmt::format(
        "--db-driver=sqlite: the ranks run on {} hosts and cannot share one SQLite file; run "
        "them on one host, or use --db-driver=pgsql or mysql",
        group.HostCount()));
  }
  return Status::Ok();
}

std::string OltpWorkload::SqlitePath() const {
  const OptionSpec* spec = option_set_ != nullptr ? option_set_->Find("sqlite-db") : nullptr;
  return spec != nullptr ? spec->ValueText() : "";
}

bool OltpWorkload::SqliteFileExists() const {
  const std::string path = SqlitePath();
  if (path.empty() || path == ":memory:") return true;
  const Result<FileInfo> info = DefaultFileSystem().Stat(path);
  return info.ok() && info->exists;
}

std::unique_ptr<DbConnection> OltpWorkload::TakeConnection() {
  std::lock_guard<std::mutex> lock(conn_mu_);
  return std::move(first_conn_);
}

OltpDbContext OltpWorkload::DbContext(int threads, uint64_t seed) {
  OltpDbContext c;
  c.kind = kind_;
  c.opts = &opts_;
  c.driver = &db_.driver();
  c.dialect = dialect_;
  c.threads = threads;
  c.seed = seed;
  c.quiet = quiet_;
  c.group = group_;
  return c;
}

Status OltpWorkload::Prepare(const PrepareContext& ctx) {
  Status s = [&]() -> Status {
    // OltpPrepare connects when it needs to (a rank with no table to load
    // never does).
    return OltpPrepare(DbContext(ctx.threads, ctx.seed), TakeConnection());
  }();  // every connection is closed here
  // Across ranks only rank 0 may have created the SQLite file.
  if (dialect_ != SqlDialect::kSqlite || (group_ != nullptr && group_->Rank() != 0)) return s;
  return EndSqlitePrepare(s, sqlite_new_, kind_);
}

Status OltpWorkload::Cleanup(const PrepareContext& ctx) {
  return OltpCleanup(DbContext(ctx.threads, ctx.seed), TakeConnection());
}

Status OltpWorkload::Init(int threads) {
  threads_ = threads;
  shared_.threads = threads;
  std::lock_guard<std::mutex> lock(conn_mu_);
  if (dialect_ == SqlDialect::kSqlite && !SqliteFileExists()) {
    return Status::FailedPrecondition(fmt::format(
        "SQLite database {} does not exist; run 'loadcell {} prepare' with the same options "
        "first",
        SqlitePath(), OltpKindName(kind_)));
  }
  if (first_conn_ == nullptr) {
    LC_ASSIGN_OR_RETURN(first_conn_, db_.driver().Connect(0));
  }
  const OltpDbContext c = DbContext(threads, 0);
  LC_RETURN_IF_ERROR(CheckOltpTables(c, *first_conn_));
  settings_ = ReadDatabaseSettings(*first_conn_, dialect_);
  if (kind_ == OltpKind::kBulkInsert) {
    LC_ASSIGN_OR_RETURN(shared_.bulk_next_ids, BulkInsertNextIds(c, *first_conn_));
  }
  // Client-generated ids (--auto-inc=off) start at a point that differs
  // between runs, so that a second run does not repeat the first one's ids.
  shared_.unique_base =
      static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> OltpWorkload::NewWorker(const ThreadContext& ctx) {
  std::unique_ptr<DbConnection> conn;
  if (ctx.thread_id == 0) {
    std::lock_guard<std::mutex> lock(conn_mu_);
    conn = std::move(first_conn_);
    // Under MPI the connection of Validate went to host 0 of a host list;
    // a rank's first thread connects by its global id instead.
    if (ctx.GlobalThreadId() != 0) conn.reset();
  }
  return NewOltpWorker(shared_, ctx, std::move(conn));
}

std::vector<std::pair<std::string, std::string>> OltpWorkload::Describe() const {
  std::vector<std::pair<std::string, std::string>> d;
  if (option_set_ == nullptr || shared_.driver == nullptr) return d;
  const DbDriver& driver = *shared_.driver;
  const std::string where = driver.Describe();
  d.push_back({"Database driver",
               where.rfind(driver.Name(), 0) == 0 ? where : driver.Name() + " (" + where + ")"});
  if (!server_version_.empty()) d.push_back({"Server version", server_version_});
  if (!statement_path_.empty()) d.push_back({"Statements sent by", statement_path_});
  if (kind_ == OltpKind::kBulkInsert) {
    d.push_back({"Tables", fmt::format("sbtest1..sbtest{} (one per thread)", threads_)});
  } else {
    d.push_back({"Tables", fmt::format("{} x {} rows", opts_.tables, opts_.table_size)});
  }
  if (kind_ == OltpKind::kLegacy) {
    d.push_back({"Legacy test mode",
                 fmt::format("{}{} (as {})", opts_.test_mode,
                             opts_.read_only && opts_.test_mode == "complex" ? ", read-only" : "",
                             OltpKindName(shared_.plan.kind))});
  }
  d.push_back({"Statements per event", DescribePlan(shared_.plan)});
  const bool ps = driver.server_prepared() && driver.Capabilities().prepared_statements;
  d.push_back({"Prepared statements", ps ? "server-side (--db-ps-mode=auto)"
                                         : "emulated in the client (--db-ps-mode=disable)"});
  if (dialect_ == SqlDialect::kSqlite && threads_ > 1 && ExpectedMix(shared_.plan).writes > 0) {
    d.push_back({"Write concurrency",
                 "SQLite allows one writer at a time: write transactions wait for each other "
                 "(BEGIN IMMEDIATE), first come, first served"});
  }
  if (shared_.opts.reconnect() != ReconnectMode::kSession) {
    d.push_back({"Reconnect mode", shared_.opts.reconnect_mode});
  }
  if (opts_.has_think_time()) {
    d.push_back({"Think time", fmt::format("{}..{} us after each transaction (not in the latency)",
                                           opts_.user_delay_min_us, opts_.user_delay_max_us)});
  }
  return d;
}

std::vector<Metric> OltpWorkload::Metrics(const RunResult& r) const { return OltpMetrics(r); }

WorkloadFacts OltpWorkload::Facts(const RunResult& r) const {
  const std::string driver = shared_.driver != nullptr ? shared_.driver->Name() : "db";
  WorkloadFacts f = OltpFacts(r, driver, shared_.opts.reconnect() != ReconnectMode::kSession);
  f.database_settings = settings_;
  if (r.events == 0 || !r.failure.ok() || shared_.driver == nullptr) return f;
  std::lock_guard<std::mutex> lock(data_set_mu_);
  if (!data_set_read_) {
    data_set_read_ = true;
    data_set_ = ReadOltpDataSetAfterRun(*shared_.driver);
  }
  AddDataSetFacts(f, data_set_, r);
  return f;
}

std::string OltpWorkload::TextSection(const RunResult& r) const { return OltpTextSection(r); }

std::string OltpWorkload::SysbenchSection(const RunResult& r) const {
  return OltpSysbenchSection(r);
}

std::string OltpWorkload::IntervalLine(const IntervalSnapshot& s, double percentile) const {
  return OltpIntervalLine(s, percentile);
}

}  // namespace loadcell
