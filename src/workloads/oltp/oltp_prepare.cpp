#include "workloads/oltp/oltp_prepare.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include "core/clock.h"
#include "core/plural.h"
#include "core/progress.h"
#include "core/random.h"
#include "os/file_system.h"
#include "runner/runner.h"
#include "workloads/oltp/oltp_registry.h"

namespace loadcell {
namespace {

// Rows between two updates of the shared progress counter.
constexpr uint64_t kProgressStep = 1000;

std::mutex g_print_mu;
std::atomic<bool> g_quiet{false};

void PrintOut(const std::string& line) {
  if (g_quiet.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(g_print_mu);
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

// Whether `table` has bulk_insert's columns, (id, k) in that order.
Result<bool> HasBulkColumns(DbConnection& conn, const std::string& table) {
  DbExecResult r;
  DbRows rows;
  DbError e = conn.Execute(fmt::format("SELECT * FROM {} WHERE 1 = 0", table), r, &rows);
  if (!e.ok()) {
    const Status s = e.ToStatus();
    return Status(s.code(), fmt::format("cannot read the columns of {}: {}", table, e.message));
  }
  std::vector<std::string> names;
  for (std::string col : rows.columns) {
    for (char& ch : col) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    names.push_back(col);
  }
  return names == std::vector<std::string>{"id", "k"};
}

Result<std::unique_ptr<DbConnection>> ConnectOr(const OltpDbContext& c,
                                                std::unique_ptr<DbConnection> conn) {
  if (conn != nullptr) return conn;
  return c.driver->Connect(0);
}

// Shared state of the parallel load.
struct LoadState {
  Progress* progress = nullptr;
  std::atomic<bool> abort{false};
  std::mutex mu;
  Status first_error;

  void Fail(Status s) {
    std::lock_guard<std::mutex> lock(mu);
    if (first_error.ok()) first_error = std::move(s);
    abort.store(true, std::memory_order_relaxed);
  }
};

// Creates sbtest<n> with the marker of `token`, loads its rows, builds its
// indexes and marks it complete.
Status LoadTable(const OltpDbContext& c, DbConnection& conn, int64_t n, const std::string& token,
                 LoadState& st) {
  const OltpOptions& o = *c.opts;
  const std::string table = OltpTableName(n);
  PrintOut(fmt::format("Creating table '{}'...\n", table));
  if (c.kind == OltpKind::kBulkInsert) {
    LC_RETURN_IF_ERROR(
        CreateMarkedTable(conn, c.dialect, table, CreateBulkTableSql(c.dialect, n, token), token));
    return MarkComplete(conn, c.dialect, table, token);
  }
  LC_RETURN_IF_ERROR(
      CreateMarkedTable(conn, c.dialect, table, CreateTableSql(c.dialect, n, o, token), token));
  // oltp_insert with client-generated ids starts empty, as in sysbench (the
  // generated ids could collide with the loaded ones).
  const int64_t rows = (c.kind == OltpKind::kInsert && !o.auto_inc) ? 0 : o.table_size;
  if (rows > 0) {
    PrintOut(fmt::format("Inserting {} records into '{}'\n", rows, table));
    // k follows sysbench's default (special) distribution over [1, table-size].
    LC_ASSIGN_OR_RETURN(
        Distribution kdist,
        Distribution::Create(DistributionConfig{}, 1, static_cast<uint64_t>(o.table_size)));
    Random rng(ThreadSeed(c.seed, static_cast<int>(n)));
    const bool wrap = c.dialect == SqlDialect::kSqlite;
    if (wrap) {
      if (DbError e = conn.Begin(); !e.ok()) {
        return OltpDbFailure(e, "cannot begin loading " + table);
      }
    }
    std::unique_ptr<DbBulkInsert> bulk;
    if (DbError e = conn.BeginBulkInsert(table, LoadColumns(o.auto_inc), bulk); !e.ok()) {
      return OltpDbFailure(e, "cannot start loading " + table);
    }
    std::vector<DbValue> values;
    if (!o.auto_inc) values.push_back(DbValue::Int(0));
    values.push_back(DbValue::Int(0));
    values.push_back(DbValue::String(std::string(CValueTemplate())));
    values.push_back(DbValue::String(std::string(PadValueTemplate())));
    const size_t kc = o.auto_inc ? 0 : 1;
    uint64_t pending = 0;
    for (int64_t id = 1; id <= rows; ++id) {
      if (!o.auto_inc) values[0].i = id;
      values[kc].i = static_cast<int64_t>(kdist.Next(rng));
      RandomFromTemplate(rng, CValueTemplate(), values[kc + 1].s);
      RandomFromTemplate(rng, PadValueTemplate(), values[kc + 2].s);
      if (DbError e = bulk->AddRow(values); !e.ok()) {
        return OltpDbFailure(e, "cannot load " + table);
      }
      if (++pending == kProgressStep) {
        st.progress->Advance(pending);
        pending = 0;
        if (st.abort.load(std::memory_order_relaxed)) return Status::Cancelled("aborted");
        if (StopRequested()) return Status::Cancelled("interrupted");
      }
    }
    if (DbError e = bulk->Finish(); !e.ok()) return OltpDbFailure(e, "cannot load " + table);
    bulk.reset();
    if (wrap) {
      if (DbError e = conn.Commit(); !e.ok()) return OltpDbFailure(e, "cannot commit " + table);
    }
    st.progress->Advance(pending);
  }
  if (o.secondary) {
    const std::string sql = SecondaryIdIndexSql(c.dialect, n);
    if (!sql.empty()) LC_RETURN_IF_ERROR(ExecOltpSql(conn, sql, "cannot index id of " + table));
  }
  if (o.create_secondary) {
    PrintOut(fmt::format("Creating a secondary index on '{}'...\n", table));
    LC_RETURN_IF_ERROR(
        ExecOltpSql(conn, CreateKIndexSql(n), "cannot create index k_" + std::to_string(n)));
  }
  return MarkComplete(conn, c.dialect, table, token);
}

// The steps of OltpPrepare.

// The tables of `tables` that prepare replaces (drops, then creates again):
// those that exist, with --force. FailedPrecondition naming a table that
// exists without --force, except for bulk_insert's own complete tables,
// which it keeps (they are added to `kept`).
Result<std::vector<std::string>> TablesToReplace(const OltpDbContext& c, DbConnection& conn,
                                                 const std::vector<std::string>& tables,
                                                 const TableRegistry& reg,
                                                 std::set<std::string>& kept) {
  std::vector<std::string> to_drop;
  for (const std::string& t : tables) {
    LC_ASSIGN_OR_RETURN(TableOwner owner, reg.Owner(conn, t));
    if (owner == TableOwner::kMissing) continue;
    if (c.opts->force) {
      to_drop.push_back(t);
      continue;
    }
    if (owner == TableOwner::kForeign) {
      return Status::FailedPrecondition(fmt::format(
          "table {} already exists and was not created by loadcell; nothing was changed (use "
          "another database, or --force to replace it)",
          t));
    }
    if (owner == TableOwner::kOurs && c.kind == OltpKind::kBulkInsert) {
      // Kept as it is (CREATE TABLE IF NOT EXISTS, as sysbench): only a table
      // of bulk_insert's own shape can take its rows.
      LC_ASSIGN_OR_RETURN(bool bulk_shaped, HasBulkColumns(conn, t));
      if (!bulk_shaped) {
        return Status::FailedPrecondition(fmt::format(
            "table {} already exists with another test's columns (from an earlier prepare); "
            "bulk_insert needs (id, k): run that test's cleanup first, or add --force to "
            "replace it",
            t));
      }
      PrintOut(fmt::format("Keeping table '{}' (it exists, from an earlier prepare)\n", t));
      kept.insert(t);
      continue;
    }
    return Status::FailedPrecondition(fmt::format(
        "table {} already exists (from an earlier prepare{}); run cleanup first, or add --force "
        "to replace it",
        t, owner == TableOwner::kOursIncomplete ? " that did not finish" : ""));
  }
  return to_drop;
}

// Drops `to_drop`, and records each table of `tables` not in `kept` with a
// new token (returned in the order of `tables`; "" for a kept table). Each
// table is recorded before it is created, so that cleanup finds a table
// whose load failed half-way.
Result<std::vector<std::string>> MarkTables(const OltpDbContext& c, DbConnection& conn,
                                            const std::vector<std::string>& tables,
                                            TableRegistry& reg,
                                            const std::vector<std::string>& to_drop,
                                            const std::set<std::string>& kept) {
  for (const std::string& t : to_drop) {
    PrintOut(fmt::format("Dropping table '{}'...\n", t));
    LC_RETURN_IF_ERROR(ExecOltpSql(conn, DropTableSql(t), "cannot drop " + t));
    LC_RETURN_IF_ERROR(reg.Forget(conn, t));
  }
  std::vector<std::string> tokens;
  for (const std::string& t : tables) {
    if (kept.count(t) > 0) {
      tokens.emplace_back();
      continue;
    }
    tokens.push_back(NewMarkerToken());
    LC_RETURN_IF_ERROR(reg.Record(conn, t, OltpKindName(c.kind), tokens.back()));
  }
  return tokens;
}

// One table of a load: its number and the token it is recorded with.
struct TableJob {
  int64_t n = 0;
  std::string token;
};

// Loads the tables of `jobs` with `workers` threads, the first on `conn`,
// the others on connections of their own, advancing `progress`; the first
// failure.
Status LoadTables(const OltpDbContext& c, std::unique_ptr<DbConnection> conn,
                  const std::vector<TableJob>& jobs, int workers, Progress& progress) {
  LoadState st;
  st.progress = &progress;
  std::vector<std::thread> threads;
  std::vector<std::unique_ptr<DbConnection>> conns(static_cast<size_t>(workers));
  conns[0] = std::move(conn);
  for (int w = 1; w < workers; ++w) {
    auto made = c.driver->Connect(w);
    if (!made.ok()) return made.status();
    conns[static_cast<size_t>(w)] = std::move(made).value();
  }
  threads.reserve(static_cast<size_t>(workers));
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      DbConnection& my = *conns[static_cast<size_t>(w)];
      for (size_t j = static_cast<size_t>(w); j < jobs.size(); j += static_cast<size_t>(workers)) {
        if (st.abort.load(std::memory_order_relaxed)) return;
        Status s = LoadTable(c, my, jobs[j].n, jobs[j].token, st);
        if (!s.ok()) {
          st.Fail(std::move(s));
          return;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  progress.Done();
  if (!st.first_error.ok()) {
    if (st.first_error.code() == StatusCode::kCancelled) {
      return Status::Cancelled(
          "prepare interrupted; the tables created so far are recorded: run cleanup to drop "
          "them");
    }
    return st.first_error;
  }
  return Status::Ok();
}

// Every check before the first change, then the tables dropped (--force)
// and recorded: the tokens of `tables`, in order ("" for a kept table).
Result<std::vector<std::string>> CheckAndMark(const OltpDbContext& c, DbConnection& conn,
                                              const std::vector<std::string>& tables) {
  LC_ASSIGN_OR_RETURN(TableRegistry reg, TableRegistry::Load(conn, c.dialect));
  LC_RETURN_IF_ERROR(reg.CheckLayout());
  std::set<std::string> kept;
  LC_ASSIGN_OR_RETURN(std::vector<std::string> to_drop,
                      TablesToReplace(c, conn, tables, reg, kept));
  return MarkTables(c, conn, tables, reg, to_drop, kept);
}

// Loads `jobs` (this process' tables) on `conn` and more connections, one
// table per thread at a time, with a progress display when
// `progress_shown`, and prints the summary line of `ntables` tables
// (`who`: "" alone, "rank N: " across ranks).
Status LoadShare(const OltpDbContext& c, std::unique_ptr<DbConnection> conn,
                 const std::vector<TableJob>& jobs, int64_t ntables, const std::string& who,
                 bool progress_shown) {
  const Nanos t0 = MonotonicNow();
  // SQLite writes one transaction at a time and each table loads in one:
  // more loaders would only queue for the lock (and could outwait the busy
  // timeout on a big table), so SQLite loads the tables one after another.
  const int64_t parallel = c.dialect == SqlDialect::kSqlite ? 1 : c.threads;
  const int workers =
      static_cast<int>(std::clamp<int64_t>(parallel, 1, std::max<int64_t>(1, ntables)));
  const bool rows_loaded =
      c.kind != OltpKind::kBulkInsert && !(c.kind == OltpKind::kInsert && !c.opts->auto_inc);
  const auto loaded = static_cast<int64_t>(jobs.size());
  const uint64_t total = rows_loaded ? static_cast<uint64_t>(loaded * c.opts->table_size) : 0;
  Progress progress = progress_shown ? Progress("prepare", total, "rows")
                                     : Progress("prepare", total, "rows", nullptr, false);
  LC_RETURN_IF_ERROR(LoadTables(c, std::move(conn), jobs, workers, progress));
  const double secs = static_cast<double>(MonotonicNow() - t0) / 1e9;
  PrintOut(fmt::format("{}Prepared {} of {} rows in {:.2f}s ({}, {})\n", who,
                       CountOf(ntables, "table", "tables"), rows_loaded ? c.opts->table_size : 0,
                       secs, c.driver->Capabilities().bulk_insert,
                       CountOf(workers, "thread", "threads")));
  return Status::Ok();
}

// Which tables rank `rank` of `ranks` loads: table n goes to rank
// (n - 1) % ranks, so the ranks load in parallel; SQLite's all to rank 0
// (one writer at a time).
std::vector<int64_t> TablesOfRank(const OltpDbContext& c, int64_t ntables, int rank, int ranks) {
  std::vector<int64_t> out;
  if (c.dialect == SqlDialect::kSqlite) ranks = 1;
  for (int64_t n = rank + 1; n <= ntables; n += ranks) out.push_back(n);
  return out;
}

// This rank's share of a prepare across ranks, once rank 0 recorded every
// table: the tokens of its tables read back from the registry.
Status LoadRankShare(const OltpDbContext& c, std::unique_ptr<DbConnection> conn,
                     const std::vector<std::string>& tables) {
  const ProcessGroup& g = *c.group;
  const std::vector<int64_t> mine =
      TablesOfRank(c, static_cast<int64_t>(tables.size()), g.Rank(), g.Size());
  if (mine.empty()) return Status::Ok();  // fewer tables than ranks: nothing to load here
  LC_ASSIGN_OR_RETURN(conn, ConnectOr(c, std::move(conn)));
  LC_ASSIGN_OR_RETURN(TableRegistry reg, TableRegistry::Load(*conn, c.dialect));
  std::vector<TableJob> jobs;
  for (int64_t n : mine) {
    const std::string& t = tables[static_cast<size_t>(n - 1)];
    std::string token = reg.Token(t);
    if (token.empty()) {
      return Status::FailedPrecondition(fmt::format(
          "table {} was not recorded by rank 0's prepare (do the ranks have the same options, "
          "--tables among them?); nothing of this rank's share was created",
          t));
    }
    jobs.push_back({n, std::move(token)});
  }
  return LoadShare(c, std::move(conn), jobs, static_cast<int64_t>(jobs.size()),
                   fmt::format("rank {}: ", g.Rank()), !c.quiet && g.Rank() == 0);
}

// A prepare across ranks: rank 0 checks and records every table, every rank
// hears how that went, then each loads its share in parallel and every rank
// hears how every share went.
Status PrepareAcrossRanks(const OltpDbContext& c, std::unique_ptr<DbConnection> conn,
                          const std::vector<std::string>& tables) {
  ProcessGroup& g = *c.group;
  LC_RETURN_IF_ERROR(g.Agree(
      [&]() -> Status {
        if (g.Rank() != 0) return Status::Ok();
        LC_ASSIGN_OR_RETURN(conn, ConnectOr(c, std::move(conn)));
        return CheckAndMark(c, *conn, tables).status();
      },
      "check and record the tables"));
  return g.Agree([&] { return LoadRankShare(c, std::move(conn), tables); },
                 "load their share of the tables");
}

// A table loadcell cannot prove its own: usable only with
// --db-use-existing-tables=on and the columns the statements use.
Status CheckForeignTable(const OltpDbContext& c, DbConnection& conn, const std::string& t,
                         bool replaced) {
  if (!c.opts->use_existing_tables) {
    return Status::FailedPrecondition(
        fmt::format("table {} {}; nothing was changed (prepare it with loadcell, or add "
                    "--db-use-existing-tables=on to run on it)",
                    t,
                    replaced ? "is not the one loadcell's prepare created (it was replaced since)"
                             : "was not created by loadcell's prepare"));
  }
  LC_ASSIGN_OR_RETURN(std::vector<std::string> have, TableColumns(conn, c.dialect, t));
  std::vector<std::string> need = {"id", "k"};
  if (c.kind != OltpKind::kBulkInsert) {
    need.push_back("c");
    need.push_back("pad");
  }
  std::string missing;
  for (const std::string& col : need) {
    if (std::find(have.begin(), have.end(), col) != have.end()) continue;
    missing += missing.empty() ? col : ", " + col;
  }
  if (missing.empty()) return Status::Ok();
  std::sort(have.begin(), have.end());
  std::string has;
  for (const std::string& col : have) has += has.empty() ? col : ", " + col;
  return Status::FailedPrecondition(fmt::format(
      "--db-use-existing-tables=on: table {} has no column {} (its columns: {}); nothing was "
      "changed (the OLTP tests need sysbench's columns {})",
      t, missing, has, c.kind == OltpKind::kBulkInsert ? "id, k" : "id, k, c, pad"));
}

}  // namespace

std::vector<std::string> OltpTables(const OltpDbContext& c) {
  const int64_t n = c.kind == OltpKind::kBulkInsert ? c.threads : c.opts->tables;
  std::vector<std::string> out;
  for (int64_t i = 1; i <= n; ++i) out.push_back(OltpTableName(i));
  return out;
}

Status OltpPrepare(const OltpDbContext& c, std::unique_ptr<DbConnection> conn_in) {
  g_quiet.store(c.quiet, std::memory_order_relaxed);
  const std::vector<std::string> tables = OltpTables(c);
  if (c.group != nullptr && c.group->Size() > 1) {
    return PrepareAcrossRanks(c, std::move(conn_in), tables);
  }
  LC_ASSIGN_OR_RETURN(std::unique_ptr<DbConnection> conn, ConnectOr(c, std::move(conn_in)));
  LC_ASSIGN_OR_RETURN(std::vector<std::string> tokens, CheckAndMark(c, *conn, tables));
  std::vector<TableJob> jobs;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].empty()) jobs.push_back({static_cast<int64_t>(i + 1), tokens[i]});
  }
  // The summary counts bulk_insert's kept tables too.
  return LoadShare(c, std::move(conn), jobs, static_cast<int64_t>(tables.size()), "", !c.quiet);
}

Status EndSqlitePrepare(const Status& s, const SqliteNewFiles& files, OltpKind kind) {
  if (s.ok() || files.path().empty()) return s;
  const std::string what =
      s.code() == StatusCode::kCancelled ? std::string("prepare interrupted") : s.message();
  if (!files.database_is_new()) {
    // A refusal changed nothing: its line says so already.
    if (s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kFailedPrecondition) {
      return s;
    }
    return Status(s.code(),
                  fmt::format("{}; the database file {} existed before this prepare, so it was "
                              "left in place; a table this prepare began stays marked incomplete "
                              "(run refuses it): run 'loadcell {} cleanup' to drop it",
                              what, files.path(), OltpKindName(kind)),
                  s.err());
  }
  std::vector<std::string> removed = files.RemoveNew(DefaultFileSystem());
  if (removed.empty()) return s;
  std::string list;
  if (removed.front() == Basename(files.path())) {
    removed.erase(removed.begin());
    list = fmt::format("the database file {}{}", files.path(),
                       removed.empty() ? "" : fmt::format(" and its {}", fmt::join(removed, ", ")));
  } else {
    list = fmt::format("{} beside {}", fmt::join(removed, ", "), files.path());
  }
  return Status(s.code(), fmt::format("{}; removed {}, which this prepare had created", what, list),
                s.err());
}

Status OltpCleanup(const OltpDbContext& c, std::unique_ptr<DbConnection> conn_in) {
  if (c.group != nullptr && c.group->Size() > 1) {
    // Once, by rank 0; every rank hears how it went.
    OltpDbContext alone = c;
    alone.group = nullptr;
    return c.group->Agree(
        [&] {
          return c.group->Rank() == 0 ? OltpCleanup(alone, std::move(conn_in)) : Status::Ok();
        },
        "clean up");
  }
  g_quiet.store(c.quiet, std::memory_order_relaxed);
  LC_ASSIGN_OR_RETURN(std::unique_ptr<DbConnection> conn, ConnectOr(c, std::move(conn_in)));
  LC_ASSIGN_OR_RETURN(TableRegistry reg, TableRegistry::Load(*conn, c.dialect));
  LC_RETURN_IF_ERROR(reg.CheckLayout());
  for (const std::string& t : OltpTables(c)) {
    LC_ASSIGN_OR_RETURN(TableOwner owner, reg.Owner(*conn, t));
    if (owner == TableOwner::kForeign) {
      std::fprintf(stderr, "loadcell: warning: table %s %s; left in place\n", t.c_str(),
                   reg.Has(t) ? "is not the one loadcell created (it was replaced since prepare)"
                              : "was not created by loadcell");
    } else if (owner != TableOwner::kMissing) {
      PrintOut(fmt::format("Dropping table '{}'...\n", t));
      LC_RETURN_IF_ERROR(ExecOltpSql(*conn, DropTableSql(t), "cannot drop " + t));
    }
    if (reg.Has(t)) LC_RETURN_IF_ERROR(reg.Forget(*conn, t));
  }
  if (reg.exists() && reg.empty()) {
    LC_RETURN_IF_ERROR(
        ExecOltpSql(*conn, DropTableSql(kMarkerTable), "cannot drop " + std::string(kMarkerTable)));
  }
  return Status::Ok();
}

Status CheckOltpTables(const OltpDbContext& c, DbConnection& conn) {
  LC_ASSIGN_OR_RETURN(TableRegistry reg, TableRegistry::Load(conn, c.dialect));
  const std::string prepare_cmd = fmt::format("loadcell {} prepare", OltpKindName(c.kind));
  for (const std::string& t : OltpTables(c)) {
    LC_ASSIGN_OR_RETURN(TableOwner owner, reg.Owner(conn, t));
    switch (owner) {
      case TableOwner::kOurs:
        continue;
      case TableOwner::kMissing:
        return Status::FailedPrecondition(
            fmt::format("table {} does not exist ({}); run '{}' with the same options first", t,
                        c.driver->Describe(), prepare_cmd));
      case TableOwner::kOursIncomplete:
        return Status::FailedPrecondition(fmt::format(
            "table {} was not completely prepared (the prepare was interrupted or failed); "
            "nothing was changed: run 'loadcell {} cleanup', then '{}' again",
            t, OltpKindName(c.kind), prepare_cmd));
      case TableOwner::kForeign:
        LC_RETURN_IF_ERROR(CheckForeignTable(c, conn, t, reg.Has(t)));
    }
  }
  return Status::Ok();
}

Result<std::vector<int64_t>> BulkInsertNextIds(const OltpDbContext& c, DbConnection& conn) {
  std::vector<int64_t> out;
  for (int t = 1; t <= c.threads; ++t) {
    DbExecResult r;
    DbRows rows;
    DbError e = conn.Execute(fmt::format("SELECT MAX(id) FROM sbtest{}", t), r, &rows);
    if (!e.ok()) return OltpDbFailure(e, fmt::format("cannot read sbtest{}", t));
    int64_t next = 1;
    if (!rows.rows.empty() && !rows.rows[0].empty() && rows.rows[0][0].has_value()) {
      const std::string& text = *rows.rows[0][0];
      int64_t max_id = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), max_id);
      if (ec != std::errc() || ptr != text.data() + text.size()) {
        return Status::Internal(fmt::format("sbtest{}: MAX(id) is not an integer: {}", t, text));
      }
      next = max_id + 1;
    }
    out.push_back(next);
  }
  return out;
}

}  // namespace loadcell
