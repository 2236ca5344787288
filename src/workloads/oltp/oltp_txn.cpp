#include "workloads/oltp/oltp_txn.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/clock.h"
#include "os/thread.h"
#include "runner/recorder.h"
#include "runner/runner.h"

namespace loadcell {
namespace {

// A transaction that fails this many times in a row with retryable errors
// ends the run (a deadlock storm this long means something else is wrong).
constexpr int kMaxConsecutiveRetries = 1000;
// Client CPU time is read every this many events (and at the end).
constexpr uint64_t kCpuSampleEvery = 64;
// bulk_insert sends its multi-row INSERT when it reaches this many bytes
// (sysbench's bulk packet size).
constexpr size_t kBulkPacketBytes = size_t{512} * 1024;

// Base of the OLTP workers: connection, statement cache, counters, error
// recovery. One per thread.
class OltpWorkerBase : public Worker {
 public:
  OltpWorkerBase(const OltpRunShared& shared, const ThreadContext& ctx,
                 std::unique_ptr<DbConnection> conn)
      : shared_(shared),
        opts_(shared.opts),
        rec_(ctx.recorder),
        thread_id_(ctx.GlobalThreadId()),
        threads_(std::max(1, ctx.GlobalThreads())),
        rng_(ctx.seed),
        conn_(std::move(conn)) {}

  Status Finish() override {
    SampleCpu();
    ClearStatements();
    return Status::Ok();
  }

 protected:
  void Add(int counter, uint64_t n) {
    if (rec_ != nullptr) rec_->Add(counter, n);
  }

  // Prepared statements belong to their connection: dropped before it
  // reconnects or closes.
  void ClearStatements() {
    stmts_.clear();
    begin_stmt_.reset();
  }

  void SampleCpu() {
    const uint64_t now = ThreadCpuNs();
    if (cpu_base_ != 0 && now > cpu_base_) Add(kOltpClientCpuNs, now - cpu_base_);
    cpu_base_ = now;
  }

  void AfterEvent() {
    if (++events_ % kCpuSampleEvery == 0 || cpu_base_ == 0) SampleCpu();
  }

  static size_t SlotOf(OltpStmt s, int64_t table) {
    return static_cast<size_t>(table - 1) * kOltpStmtCount + static_cast<size_t>(s);
  }

  // The statement `s` on table `table` when it is prepared already (the
  // per-query path: no DbError made), else nullptr.
  DbStatement* Cached(OltpStmt s, int64_t table) const {
    const size_t slot = SlotOf(s, table);
    return slot < stmts_.size() ? stmts_[slot].get() : nullptr;
  }

  // The cached statement `s` on table `table`, prepared on first use.
  DbError Get(OltpStmt s, int64_t table, int64_t points, DbStatement*& out) {
    const size_t slot = SlotOf(s, table);
    if (slot >= stmts_.size()) stmts_.resize(slot + 1);
    std::unique_ptr<DbStatement>& st = stmts_[slot];
    if (st == nullptr) {
      DbError e = conn_->Prepare(StatementSql(s, table, points), StatementParams(s, points), st);
      if (!e.ok()) {
        st.reset();
        return e;
      }
    }
    out = st.get();
    return {};
  }

  // Runs `st` (statement kind `s`) and counts it as sysbench does.
  DbError Run(OltpStmt s, DbStatement& st) {
    DbError e = st.Execute(result_);
    if (!e.ok()) return e;
    Add(CounterFor(s, result_), 1);
    return e;
  }

  // After a failed attempt: decides whether to retry. OK: retry the event;
  // an error Status: give up (the run ends with it).
  Status Recover(const DbError& e) {
    switch (e.cls) {
      case DbErrorClass::kRetryable:
      case DbErrorClass::kIgnorable: {
        Add(kOltpIgnoredErrors, 1);
        if (IsDeadlock(e)) Add(kOltpDeadlocks, 1);
        if (IsLockWaitTimeout(e)) Add(kOltpLockWaits, 1);
        if (in_trx_) {
          in_trx_ = false;
          DbError r = conn_->Rollback();
          if (!r.ok()) {
            if (r.cls == DbErrorClass::kReconnect) return ReconnectWithBackoff(r);
            if (r.cls == DbErrorClass::kFatal) return WithContext(r);
          } else {
            Add(kOltpOthers, 1);
          }
        }
        if (++consecutive_failures_ >= kMaxConsecutiveRetries) {
          return Status::IoError(
              fmt::format("a transaction failed {} times in a row with retryable errors; last: {}",
                          consecutive_failures_, e.message));
        }
        if (StopRequested()) return Status::Cancelled("interrupted");
        return Status::Ok();
      }
      case DbErrorClass::kReconnect:
        in_trx_ = false;
        return ReconnectWithBackoff(e);
      default:
        return WithContext(e);
    }
  }

  Status WithContext(const DbError& e) const {
    Status s = e.ToStatus();
    std::string msg = e.message;
    if (!e.sqlstate.empty() && msg.find(e.sqlstate) == std::string::npos) {
      msg += fmt::format(" (SQLSTATE {})", e.sqlstate);
    }
    const std::string prefix = shared_.driver->Name() + ": ";
    if (msg.rfind(prefix, 0) == 0) return Status(s.code(), msg);
    return Status(s.code(), prefix + msg);
  }

  // Re-opens the connection, waiting 10 ms, 20 ms, ... up to 1 s between
  // attempts, for at most --reconnect-timeout.
  Status ReconnectWithBackoff(const DbError& cause) {
    ClearStatements();  // they belong to the lost connection
    const Nanos start = MonotonicNow();
    const Nanos limit = static_cast<Nanos>(opts_.reconnect_timeout_s * 1e9);
    Nanos backoff = 10 * kNanosPerMilli;
    DbError last = cause;
    for (;;) {
      if (StopRequested()) return Status::Cancelled("interrupted");
      DbError r = conn_->Reconnect();
      if (r.ok()) {
        Add(kOltpReconnects, 1);
        ConnectDelay();
        return Status::Ok();
      }
      last = r;
      const Nanos elapsed = MonotonicNow() - start;
      if (elapsed >= limit) break;
      std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(backoff, limit - elapsed)));
      backoff = std::min<Nanos>(backoff * 2, kNanosPerSecond);
    }
    return Status::Unavailable(
        fmt::format("lost the connection to {} ({}) and could not reconnect within "
                    "{}s: {}",
                    shared_.driver->Name(), shared_.driver->Describe(), opts_.reconnect_timeout_s,
                    last.message));
  }

  // A planned reconnect (--oltp-reconnect-mode).
  Status PlannedReconnect() {
    ClearStatements();
    DbError r = conn_->Reconnect();
    if (!r.ok()) return Recover(r);
    Add(kOltpReconnects, 1);
    ConnectDelay();
    return Status::Ok();
  }

  void ConnectDelay() const {
    if (opts_.connect_delay_us > 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(opts_.connect_delay_us));
    }
  }

  const OltpRunShared& shared_;
  const OltpOptions& opts_;
  ThreadRecorder* const rec_;
  // Among every rank's threads under MPI (ThreadContext::GlobalThreadId).
  const int thread_id_;
  const int threads_;
  Random rng_;
  std::unique_ptr<DbConnection> conn_;
  // Destroyed before conn_ (declared after it).
  std::vector<std::unique_ptr<DbStatement>> stmts_;
  std::unique_ptr<DbStatement> begin_stmt_;  // SQLite's BEGIN IMMEDIATE
  DbExecResult result_;
  bool in_trx_ = false;
  int consecutive_failures_ = 0;
  uint64_t events_ = 0;
  uint64_t cpu_base_ = 0;
};

// Every workload except bulk_insert: one event is one pass over the plan.
class OltpWorker final : public OltpWorkerBase {
 public:
  OltpWorker(const OltpRunShared& shared, const ThreadContext& ctx,
             std::unique_ptr<DbConnection> conn, Distribution ids, Distribution points)
      : OltpWorkerBase(shared, ctx, std::move(conn)),
        ids_(std::move(ids)),
        points_(std::move(points)),
        use_trx_(shared.plan.transaction),
        self_timed_(shared.opts.has_think_time()),
        begin_immediate_(shared.dialect == SqlDialect::kSqlite &&
                         ExpectedMix(shared.plan).writes > 0),
        reconnect_(shared.opts.reconnect()) {}

  Status RunEvent() override {
    const Nanos t0 = self_timed_ ? MonotonicNow() : 0;
    consecutive_failures_ = 0;
    for (;;) {
      DbError e = Attempt();
      if (e.ok()) break;
      LC_RETURN_IF_ERROR(Recover(e));
    }
    Add(kOltpTransactions, 1);
    if (self_timed_) {
      const Nanos t1 = MonotonicNow();
      rec_->RecordTimedEvent(t0, t1);  // under --rate: from the intended start
      ThinkTime();
    }
    // In query mode an autocommit statement reconnects at once (Exec); a
    // transaction reconnects here, after COMMIT.
    if (reconnect_ == ReconnectMode::kTransaction ||
        (reconnect_ == ReconnectMode::kQuery && use_trx_) ||
        (reconnect_ == ReconnectMode::kRandom && (rng_.Next() & 1) != 0)) {
      LC_RETURN_IF_ERROR(PlannedReconnect());
    }
    AfterEvent();
    return Status::Ok();
  }

 private:
  int64_t Table() {
    return static_cast<int64_t>(rng_.Uniform(1, static_cast<uint64_t>(opts_.tables)));
  }
  int64_t Id() { return static_cast<int64_t>(ids_.Next(rng_)); }

  // SQLite: a transaction that writes takes the write lock at BEGIN
  // (IMMEDIATE), so that concurrent writers wait in the busy handler instead
  // of failing when a read lock cannot be upgraded.
  DbError Begin() {
    if (!begin_immediate_) return conn_->Begin();
    if (begin_stmt_ == nullptr) {
      DbError e = conn_->Prepare("BEGIN IMMEDIATE", 0, begin_stmt_);
      if (!e.ok()) {
        begin_stmt_.reset();
        return e;
      }
    }
    return begin_stmt_->Execute(result_);
  }

  DbError Attempt() {
    in_trx_ = false;
    if (use_trx_) {
      DbError e = Begin();
      if (!e.ok()) return e;
      Add(kOltpOthers, 1);
      in_trx_ = true;
    }
    for (const OltpStep& step : shared_.plan.steps) {
      DbError e = RunStep(step);
      if (!e.ok()) return e;
    }
    if (in_trx_) {
      DbError e = conn_->Commit();
      if (!e.ok()) return e;
      in_trx_ = false;
      Add(kOltpOthers, 1);
    }
    return {};
  }

  // Runs statement `s` on `table` after `bind` set its parameters.
  template <typename BindFn>
  DbError Exec(OltpStmt s, int64_t table, int64_t points, BindFn&& bind) {
    DbStatement* st = Cached(s, table);
    if (st == nullptr) {
      if (DbError e = Get(s, table, points, st); !e.ok()) return e;
    }
    bind(*st);
    DbError e = Run(s, *st);
    if (e.ok() && reconnect_ == ReconnectMode::kQuery && !in_trx_ && !use_trx_) {
      // Reconnect after each autocommit statement; inside a transaction the
      // reconnect waits for its end.
      ClearStatements();
      e = conn_->Reconnect();
      if (e.ok()) Add(kOltpReconnects, 1);
    }
    return e;
  }

  // Step `step`: its statements, repeated, on one randomly chosen table.
  DbError RunStep(const OltpStep& step) {
    const int64_t table = Table();
    for (int64_t i = 0; i < step.repeat; ++i) {
      DbError e = RunStatement(step.stmt, table);
      if (!e.ok()) return e;
    }
    return {};
  }

  // One statement of kind `s` (kDelete: the DELETE + INSERT pair) on `table`.
  DbError RunStatement(OltpStmt s, int64_t table) {
    const int64_t range = opts_.range_size;
    switch (s) {
      case OltpStmt::kPointSelect:
      case OltpStmt::kIndexUpdate:
        return Exec(s, table, 0, [&](DbStatement& st) { st.BindInt(0, Id()); });
      case OltpStmt::kSimpleRange:
      case OltpStmt::kSumRange:
      case OltpStmt::kOrderRange:
      case OltpStmt::kDistinctRange:
        return Exec(s, table, 0, [&](DbStatement& st) {
          const int64_t id = Id();
          st.BindInt(0, id);
          st.BindInt(1, id + range - 1);
        });
      case OltpStmt::kNonIndexUpdate:
        RandomFromTemplate(rng_, CValueTemplate(), c_);
        return Exec(s, table, 0, [&](DbStatement& st) {
          st.BindString(0, c_);
          st.BindInt(1, Id());
        });
      case OltpStmt::kDelete:
        return DeleteInsert(table);
      case OltpStmt::kInsert:  // oltp_insert with --auto-inc=off
      case OltpStmt::kInsertAutoInc:
        return Insert(s, table);
      case OltpStmt::kRandomPoints:
        return Exec(s, 1, opts_.random_points, [&](DbStatement& st) {
          for (int j = 0; j < opts_.random_points; ++j) {
            st.BindInt(j, static_cast<int64_t>(points_.Next(rng_)));
          }
        });
      case OltpStmt::kRandomRanges:
        return Exec(s, 1, opts_.number_of_ranges, [&](DbStatement& st) {
          for (int j = 0; j < opts_.number_of_ranges; ++j) {
            const int64_t v = static_cast<int64_t>(points_.Next(rng_));
            st.BindInt(2 * j, v);
            st.BindInt(2 * j + 1, v + opts_.delta);
          }
        });
    }
    return {};
  }

  // A DELETE of a random row, then (except for oltp_delete) the INSERT of a
  // row with that id.
  DbError DeleteInsert(int64_t table) {
    const int64_t id = Id();
    const int64_t k = Id();
    DbError e = Exec(OltpStmt::kDelete, table, 0, [&](DbStatement& st) { st.BindInt(0, id); });
    if (!e.ok()) return e;
    if (shared_.plan.kind == OltpKind::kDelete) return e;  // oltp_delete: no INSERT
    RandomFromTemplate(rng_, CValueTemplate(), c_);
    RandomFromTemplate(rng_, PadValueTemplate(), pad_);
    return Exec(OltpStmt::kInsert, table, 0, [&](DbStatement& st) {
      st.BindInt(0, id);
      st.BindInt(1, k);
      st.BindString(2, c_);
      st.BindString(3, pad_);
    });
  }

  // oltp_insert's INSERT (`s`): the id left to the server (kInsertAutoInc)
  // or the next of this thread's client-generated ids.
  DbError Insert(OltpStmt s, int64_t table) {
    const int64_t k = Id();
    RandomFromTemplate(rng_, CValueTemplate(), c_);
    RandomFromTemplate(rng_, PadValueTemplate(), pad_);
    if (s == OltpStmt::kInsertAutoInc) {
      return Exec(s, table, 0, [&](DbStatement& st) {
        st.BindInt(0, k);
        st.BindString(1, c_);
        st.BindString(2, pad_);
      });
    }
    // Bases that are multiples of the thread count keep the threads' ids
    // apart also across ranks (each rank takes its base from its own clock).
    const auto threads = static_cast<uint64_t>(threads_);
    const uint64_t base = shared_.unique_base - shared_.unique_base % threads;
    const uint64_t n = base + unique_next_++ * threads + static_cast<uint64_t>(thread_id_);
    const int64_t id = static_cast<int64_t>(PermuteId32(static_cast<uint32_t>(n))) - 2147483648LL;
    return Exec(s, table, 0, [&](DbStatement& st) {
      st.BindInt(0, id);
      st.BindInt(1, k);
      st.BindString(2, c_);
      st.BindString(3, pad_);
    });
  }

  void ThinkTime() {
    const uint64_t us = rng_.Uniform(static_cast<uint64_t>(opts_.user_delay_min_us),
                                     static_cast<uint64_t>(opts_.user_delay_max_us));
    if (us == 0) return;
    const Nanos t0 = MonotonicNow();
    std::this_thread::sleep_for(std::chrono::microseconds(us));
    Add(kOltpThinkTimeNs, static_cast<uint64_t>(std::max<Nanos>(0, MonotonicNow() - t0)));
  }

  Distribution ids_;     // [1, table-size]
  Distribution points_;  // select_random_*: this thread's segment of k
  const bool use_trx_;
  const bool self_timed_;
  const bool begin_immediate_;
  const ReconnectMode reconnect_;
  uint64_t unique_next_ = 0;
  std::string c_, pad_;
};

// bulk_insert: one event appends one row to a multi-row INSERT into this
// thread's table; the statement is sent when it reaches 512 KiB and at the end.
class BulkInsertWorker final : public OltpWorkerBase {
 public:
  BulkInsertWorker(const OltpRunShared& shared, const ThreadContext& ctx,
                   std::unique_ptr<DbConnection> conn)
      : OltpWorkerBase(shared, ctx, std::move(conn)),
        table_(ctx.thread_id + 1),
        next_id_(static_cast<size_t>(ctx.thread_id) < shared.bulk_next_ids.size()
                     ? shared.bulk_next_ids[static_cast<size_t>(ctx.thread_id)]
                     : 1) {
    head_ = fmt::format("INSERT INTO sbtest{} VALUES", table_);
  }

  Status RunEvent() override {
    if (buffer_.empty())
      buffer_ = head_;
    else
      buffer_ += ',';
    fmt::format_to(std::back_inserter(buffer_), "({},{})", next_id_, next_id_);
    ++next_id_;
    ++rows_;
    Add(kOltpTransactions, 1);
    if (buffer_.size() >= kBulkPacketBytes) LC_RETURN_IF_ERROR(Flush());
    AfterEvent();
    return Status::Ok();
  }

  Status Finish() override {
    Status s = Flush();
    Status f = OltpWorkerBase::Finish();
    return s.ok() ? f : s;
  }

 private:
  Status Flush() {
    if (rows_ == 0) return Status::Ok();
    for (;;) {
      DbError e = conn_->Execute(buffer_, result_);
      if (e.ok()) break;
      // No transaction is open: a retry resends the same rows.
      LC_RETURN_IF_ERROR(Recover(e));
    }
    Add(result_.rows_affected > 0 ? kOltpWrites : kOltpOthers, 1);
    buffer_.clear();
    rows_ = 0;
    return Status::Ok();
  }

  const int64_t table_;
  int64_t next_id_;
  std::string head_;
  std::string buffer_;
  uint64_t rows_ = 0;
};

}  // namespace

const std::vector<std::string>& OltpCounterNames() {
  static const std::vector<std::string> kNames = {
      "reads",      "writes",    "others",        "transactions",  "ignored_errors",
      "reconnects", "deadlocks", "think_time_ns", "client_cpu_ns", "lock_wait_timeouts",
  };
  return kNames;
}

uint32_t PermuteId32(uint32_t x) {
  // Each step is a bijection on 32-bit integers (xor-shift, odd multiply).
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

Result<std::unique_ptr<Worker>> NewOltpWorker(const OltpRunShared& shared, const ThreadContext& ctx,
                                              std::unique_ptr<DbConnection> conn) {
  if (conn == nullptr) {
    // The global id: a host list spreads the connections of every rank.
    LC_ASSIGN_OR_RETURN(conn, shared.driver->Connect(ctx.GlobalThreadId()));
  }
  if (shared.opts.connect_delay_us > 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(shared.opts.connect_delay_us));
  }
  if (shared.plan.kind == OltpKind::kBulkInsert) {
    return std::unique_ptr<Worker>(
        std::make_unique<BulkInsertWorker>(shared, ctx, std::move(conn)));
  }
  static const DistributionConfig kDefaultConfig;
  const DistributionConfig& cfg =
      ctx.distribution_config != nullptr ? *ctx.distribution_config : kDefaultConfig;
  const OltpOptions& o = shared.opts;
  LC_ASSIGN_OR_RETURN(
      Distribution ids,
      Distribution::Create(cfg, 1, static_cast<uint64_t>(std::max<int64_t>(1, o.table_size))));
  // select_random_*: each thread draws k from its own segment of
  // [0, table-size] so that the threads' ranges do not overlap.
  const int threads = std::max(1, ctx.GlobalThreads());
  const uint64_t seg = static_cast<uint64_t>(o.table_size) / static_cast<uint64_t>(threads);
  const uint64_t lo = seg * static_cast<uint64_t>(ctx.GlobalThreadId());
  LC_ASSIGN_OR_RETURN(Distribution points, Distribution::Create(cfg, lo, lo + seg));
  return std::unique_ptr<Worker>(std::make_unique<OltpWorker>(shared, ctx, std::move(conn),
                                                              std::move(ids), std::move(points)));
}

}  // namespace loadcell
