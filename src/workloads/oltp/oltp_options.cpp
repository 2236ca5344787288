#include "workloads/oltp/oltp_options.h"

#include <fmt/format.h>

namespace loadcell {
namespace {

constexpr int64_t kMaxInt32 = 2147483647;
constexpr int64_t kMaxTables = 100000;

bool UsesRanges(OltpKind kind) {
  return kind == OltpKind::kReadOnly || kind == OltpKind::kReadWrite || kind == OltpKind::kLegacy;
}

bool UsesPointSelects(OltpKind kind) {
  return kind == OltpKind::kReadOnly || kind == OltpKind::kReadWrite ||
         kind == OltpKind::kPointSelect || kind == OltpKind::kLegacy;
}

bool UsesWrites(OltpKind kind) {
  return kind == OltpKind::kReadWrite || kind == OltpKind::kWriteOnly || kind == OltpKind::kLegacy;
}

bool UsesTransactions(OltpKind kind) {
  return kind == OltpKind::kReadOnly || kind == OltpKind::kReadWrite ||
         kind == OltpKind::kWriteOnly || kind == OltpKind::kLegacy;
}

}  // namespace

std::string_view OltpKindName(OltpKind kind) {
  switch (kind) {
    case OltpKind::kReadOnly:
      return "oltp_read_only";
    case OltpKind::kReadWrite:
      return "oltp_read_write";
    case OltpKind::kWriteOnly:
      return "oltp_write_only";
    case OltpKind::kPointSelect:
      return "oltp_point_select";
    case OltpKind::kUpdateIndex:
      return "oltp_update_index";
    case OltpKind::kUpdateNonIndex:
      return "oltp_update_non_index";
    case OltpKind::kInsert:
      return "oltp_insert";
    case OltpKind::kDelete:
      return "oltp_delete";
    case OltpKind::kRandomPoints:
      return "select_random_points";
    case OltpKind::kRandomRanges:
      return "select_random_ranges";
    case OltpKind::kBulkInsert:
      return "bulk_insert";
    case OltpKind::kLegacy:
      return "oltp";
  }
  return "?";
}

const std::vector<OltpKind>& AllOltpKinds() {
  static const std::vector<OltpKind> kKinds = {
      OltpKind::kReadOnly,     OltpKind::kReadWrite,   OltpKind::kWriteOnly,
      OltpKind::kPointSelect,  OltpKind::kUpdateIndex, OltpKind::kUpdateNonIndex,
      OltpKind::kInsert,       OltpKind::kDelete,      OltpKind::kRandomPoints,
      OltpKind::kRandomRanges, OltpKind::kBulkInsert,  OltpKind::kLegacy,
  };
  return kKinds;
}

ReconnectMode OltpOptions::reconnect() const {
  if (reconnect_mode == "query") return ReconnectMode::kQuery;
  if (reconnect_mode == "transaction") return ReconnectMode::kTransaction;
  if (reconnect_mode == "random") return ReconnectMode::kRandom;
  return ReconnectMode::kSession;
}

namespace {

// The groups of RegisterOltpOptions, in the order help lists them.

// --tables, --table-size.
void RegisterTableSizeOptions(OltpKind kind, OltpOptions& o, OptionSet& opts) {
  const bool bulk = kind == OltpKind::kBulkInsert;
  if (!bulk) {
    opts.Int("tables", &o.tables, 1, "number of tables")
        .Alias("oltp-tables-count")
        .Min(1)
        .Max(kMaxTables);
    opts.Int("table-size", &o.table_size, 10000, "number of rows per table")
        .Alias("oltp-table-size")
        .Min(1)
        .Max(static_cast<double>(kMaxInt32));
  }
}

// The statements per transaction: --range-size, --point-selects, the
// ranges, the updates, --delete-inserts.
void RegisterMixOptions(OltpKind kind, OltpOptions& o, OptionSet& opts) {
  if (UsesRanges(kind)) {
    opts.Int("range-size", &o.range_size, 100, "range size for range SELECT queries")
        .Alias("oltp-range-size")
        .Min(0)
        .Max(static_cast<double>(kMaxInt32));  // at most --table-size
  }
  if (UsesPointSelects(kind) && kind != OltpKind::kPointSelect) {
    opts.Int("point-selects", &o.point_selects, 10,
             "number of point SELECT queries per transaction")
        .Alias("oltp-point-selects")
        .Min(0);
  }
  if (UsesRanges(kind)) {
    opts.Int("simple-ranges", &o.simple_ranges, 1,
             "number of simple range SELECT queries per transaction")
        .Alias("oltp-simple-ranges")
        .Min(0);
    opts.Int("sum-ranges", &o.sum_ranges, 1, "number of SELECT SUM() queries per transaction")
        .Alias("oltp-sum-ranges")
        .Min(0);
    opts.Int("order-ranges", &o.order_ranges, 1,
             "number of SELECT ORDER BY queries per transaction")
        .Alias("oltp-order-ranges")
        .Min(0);
    opts.Int("distinct-ranges", &o.distinct_ranges, 1,
             "number of SELECT DISTINCT queries per transaction")
        .Alias("oltp-distinct-ranges")
        .Min(0);
    opts.Bool("range-selects", &o.range_selects, true, "enable/disable all range SELECT queries")
        .Alias("oltp-range-selects");
  }
  if (UsesWrites(kind) || kind == OltpKind::kUpdateIndex) {
    opts.Int("index-updates", &o.index_updates, 1, "number of UPDATE index queries per transaction")
        .Alias("oltp-index-updates")
        .Min(0);
  }
  if (UsesWrites(kind) || kind == OltpKind::kUpdateNonIndex) {
    opts.Int("non-index-updates", &o.non_index_updates, 1,
             "number of UPDATE non-index queries per transaction")
        .Alias("oltp-non-index-updates")
        .Min(0);
  }
  if (UsesWrites(kind)) {
    opts.Int("delete-inserts", &o.delete_inserts, 1,
             "number of DELETE/INSERT combinations per transaction")
        .Alias("oltp-delete-inserts")
        .Min(0);
  }
}

// The tables' keys and engine, and --skip-trx.
void RegisterLayoutOptions(OltpKind kind, OltpOptions& o, OptionSet& opts) {
  const bool bulk = kind == OltpKind::kBulkInsert;
  if (!bulk) {
    opts.Bool("auto-inc", &o.auto_inc, true,
              "use an auto-increment column as primary key (SERIAL on PostgreSQL); off: "
              "client-generated ids")
        .Alias("oltp-auto-inc");
  }
  if (UsesTransactions(kind)) {
    opts.Bool("skip-trx", &o.skip_trx, false,
              "run the statements in autocommit mode, without BEGIN/COMMIT")
        .Alias("oltp-skip-trx");
  }
  if (!bulk) {
    opts.Bool("secondary", &o.secondary, false,
              "use a secondary index on id in place of the primary key")
        .Alias("oltp-secondary");
    opts.Bool("create-secondary", &o.create_secondary, true,
              "create the secondary index on k after loading");
  }
  opts.String("mysql-storage-engine", &o.mysql_storage_engine, "innodb",
              "storage engine of the tables on MySQL/MariaDB")
      .Alias("mysql-table-engine");
}

// select_random_points and select_random_ranges.
void RegisterRandomSelectOptions(OltpKind kind, OltpOptions& o, OptionSet& opts) {
  if (kind == OltpKind::kRandomPoints) {
    opts.Int("random-points", &o.random_points, 10,
             "number of random points in the IN() clause of each SELECT")
        .Min(1)
        .Max(100000);
  }
  if (kind == OltpKind::kRandomRanges) {
    opts.Int("number-of-ranges", &o.number_of_ranges, 10,
             "number of random BETWEEN ranges per SELECT")
        .Min(1)
        .Max(100000);
    opts.Int("delta", &o.delta, 5, "size of the BETWEEN ranges").Min(0);
  }
}

// --force, --db-use-existing-tables, reconnecting, the legacy test modes, delays.
void RegisterRunOptions(OltpKind kind, OltpOptions& o, OptionSet& opts) {
  opts.Bool("force", &o.force, false,
            "prepare: replace sbtestN tables that loadcell did not create");
  opts.Bool("db-use-existing-tables", &o.use_existing_tables, false,
            "run: use sbtestN tables that loadcell's prepare did not create (made by sysbench "
            "or by hand), once their columns are checked");
  opts.Seconds("reconnect-timeout", &o.reconnect_timeout_s, 10,
               "after a lost connection, give up reconnecting after this long (the run ends "
               "with exit 1)")
      .Min(0);
  if (kind == OltpKind::kLegacy) {
    opts.Enum("oltp-test-mode", &o.test_mode, "complex", {"simple", "complex", "nontrx"},
              "simple: one point SELECT per event; complex: transactions of the read/write "
              "mix; nontrx: one point SELECT per event, autocommit");
    opts.Bool("oltp-read-only", &o.read_only, false, "complex mode without the writes");
  }
  opts.Enum("oltp-reconnect-mode", &o.reconnect_mode, "session",
            {"session", "query", "transaction", "random"},
            "reconnect after each query, each transaction, randomly per transaction, or never "
            "(session)");
  opts.Int("oltp-connect-delay", &o.connect_delay_us, 0, "microseconds to sleep after each connect")
      .Min(0)
      .Unit("us");
  opts.Int("oltp-user-delay-min", &o.user_delay_min_us, 0,
           "minimum think time in microseconds after each transaction (not in the latency)")
      .Min(0)
      .Unit("us");
  opts.Int("oltp-user-delay-max", &o.user_delay_max_us, 0,
           "maximum think time in microseconds after each transaction (not in the latency)")
      .Min(0)
      .Unit("us");
}

}  // namespace

void RegisterOltpOptions(OltpKind kind, OltpOptions& o, OptionSet& opts) {
  RegisterTableSizeOptions(kind, o, opts);
  RegisterMixOptions(kind, o, opts);
  RegisterLayoutOptions(kind, o, opts);
  RegisterRandomSelectOptions(kind, o, opts);
  RegisterRunOptions(kind, o, opts);
}

Status ValidateOltpOptions(OltpKind kind, const OltpOptions& o, int threads) {
  const std::string name(OltpKindName(kind));
  if (kind == OltpKind::kBulkInsert && threads < 1) {
    return Status::InvalidArgument("--threads: must be at least 1");
  }
  OltpOptions copy = o;
  const OltpKind mix = ResolveLegacyMix(kind, copy);
  if (UsesRanges(mix) && copy.range_selects) {
    if (o.range_size < 1) {
      return Status::InvalidArgument(
          fmt::format("--range-size={}: must be at least 1", o.range_size));
    }
    if (o.range_size > o.table_size) {
      return Status::InvalidArgument(
          fmt::format("--range-size={} is larger than --table-size={}; use at most {}",
                      o.range_size, o.table_size, o.table_size));
    }
  }
  if ((kind == OltpKind::kRandomPoints || kind == OltpKind::kRandomRanges) && o.tables != 1) {
    return Status::InvalidArgument(
        fmt::format("--tables={}: {} works on one table only (sbtest1)", o.tables, name));
  }
  if (o.user_delay_min_us > o.user_delay_max_us && o.user_delay_max_us > 0) {
    return Status::InvalidArgument(
        fmt::format("--oltp-user-delay-min={} is larger than --oltp-user-delay-max={}",
                    o.user_delay_min_us, o.user_delay_max_us));
  }
  if (o.user_delay_min_us > 0 && o.user_delay_max_us == 0) {
    return Status::InvalidArgument(
        fmt::format("--oltp-user-delay-min={} needs --oltp-user-delay-max (at least as large)",
                    o.user_delay_min_us));
  }
  if (o.mysql_storage_engine.empty() ||
      o.mysql_storage_engine.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos) {
    return Status::InvalidArgument(
        fmt::format("--mysql-storage-engine={}: not an engine name (letters, digits, '_')",
                    o.mysql_storage_engine));
  }
  return Status::Ok();
}

OltpKind ResolveLegacyMix(OltpKind kind, OltpOptions& o) {
  if (kind != OltpKind::kLegacy) return kind;
  if (o.test_mode == "simple") return OltpKind::kPointSelect;
  if (o.test_mode == "nontrx") {
    o.skip_trx = true;
    return OltpKind::kPointSelect;
  }
  return o.read_only ? OltpKind::kReadOnly : OltpKind::kReadWrite;
}

}  // namespace loadcell
