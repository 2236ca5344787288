// database (docs/validity.md): an OLTP run whose tables fit in the server's
// buffer pool (or, for SQLite, in the host's memory) measures memory, not
// storage; a p95 above 100 ms is an overloaded server; rolled-back
// transactions are work the figures do not count.

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckDatabase(const CheckInput& in) {
  constexpr const char* kId = "database";
  if (!in.workload.has_database) return std::nullopt;
  const DatabaseFacts& db = in.workload.database;
  // The tables' size and the cache may be unreadable (the catalog denied):
  // the deadlocks, the p95 and the rollbacks are the run's own and are
  // judged still; only the fit in the cache is then not checked.
  const bool sizes_known = db.unknown.empty();
  const std::string unsized =
      sizes_known ? "" : fmt::format(" (the tables' fit in the cache not checked: {})", db.unknown);
  uint64_t cache = db.cache_bytes;
  std::string cache_name = db.cache_name;
  if (db.driver == "sqlite") {
    cache = in.host.memory_bytes;
    if (in.host.cgroup_limit_bytes > 0) cache = std::min(cache, in.host.cgroup_limit_bytes);
    cache_name = "the host's memory";
  }
  const double p95_ms =
      in.result.latency.empty()
          ? 0
          : static_cast<double>(in.result.latency[0].histogram.Percentile(95)) / 1e6;
  const double rollbacks =
      db.transactions > 0 ? static_cast<double>(db.rollbacks) / static_cast<double>(db.transactions)
                          : 0;
  const double per_transaction = db.transactions > 0 ? 1 / static_cast<double>(db.transactions) : 0;
  const double deadlocks = static_cast<double>(db.deadlocks) * per_transaction;
  std::vector<CheckFigure> figures = {
      {"latency_p95_ms", p95_ms},
      {"rollbacks_per_transaction", rollbacks},
      {"deadlocks", static_cast<double>(db.deadlocks)},
      {"deadlocks_per_transaction", deadlocks},
      {"lock_wait_timeouts", static_cast<double>(db.lock_waits)},
      {"lock_wait_timeouts_per_transaction", static_cast<double>(db.lock_waits) * per_transaction}};
  if (sizes_known) {
    figures.insert(figures.begin(), {{"data_bytes", static_cast<double>(db.data_bytes)},
                                     {"cache_bytes", static_cast<double>(cache)}});
  }
  // Deadlocks first: they stretch the latency and roll back what they hit.
  if (deadlocks > kDbMaxDeadlockFraction) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("{} deadlocks in {} transactions ({:.2f}%, above {:.1f}%; {} rolled "
                             "back, {} lock wait timeouts): the threads collide on the same rows, "
                             "the figures measure lock contention{}",
                             db.deadlocks, db.transactions, deadlocks * 100,
                             kDbMaxDeadlockFraction * 100, db.rollbacks, db.lock_waits, unsized),
                 "a larger --table-size, more --tables or fewer --threads", std::move(figures));
  }
  if (p95_ms > kDbOverloadedP95Ms) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("the 95th percentile of the transactions' latency is {:.1f} ms "
                             "(above {:.0f} ms): the server is overloaded{}",
                             p95_ms, kDbOverloadedP95Ms, unsized),
                 "fewer --threads, or a --rate the server keeps up with", std::move(figures));
  }
  if (rollbacks > kDbMaxRollbackFraction) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("{} of {} transactions were rolled back ({:.1f}%): deadlocks or "
                             "conflicts the figures do not count{}",
                             db.rollbacks, db.transactions, rollbacks * 100, unsized),
                 "fewer --threads on the same rows, or more --tables", std::move(figures));
  }
  if (!sizes_known) return NotChecked(kId, db.unknown);
  if (cache > 0 && db.data_bytes <= cache) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("the tables ({}) fit in {} ({}): the run measures the server's "
                             "memory, not its storage",
                             BytesText(db.data_bytes), cache_name, BytesText(cache)),
                 fmt::format("a --table-size or --tables whose data is well above {}", cache_name),
                 std::move(figures));
  }
  return Passed(kId, std::move(figures));
}

}  // namespace loadcell::validity
