#include "cli/sysbench_compat.h"

#include <fmt/format.h>

#include "cli/test_setup.h"
#include "db/db_driver.h"

namespace loadcell {
namespace {

constexpr const char* kSysbenchCompatOrigin = "sysbench compatibility";

// The option's value as a boolean (sysbench's on/off spellings); an error
// names it.
Result<bool> BoolOf(const RawOption& o) {
  if (!o.has_value) return true;
  Result<bool> b = ParseBool(o.value);
  if (!b.ok()) {
    return Status::InvalidArgument(o.spelled + "=" + o.value + ": use on or off");
  }
  return *b;
}

// Adds `name=value` unless the user gave `name` (under any spelling).
void AddUnlessGiven(RawOptions& raw, const std::string& name, const std::string& value) {
  if (raw.Find(name) == nullptr) raw.Add(name, value, true, kSysbenchCompatOrigin);
}

RawOption* Unconsumed(RawOptions& raw, std::string_view name) {
  RawOption* o = raw.Find(name);
  if (o == nullptr || o->consumed) return nullptr;
  o->consumed = true;
  return o;
}

Status Refuse(const RawOption& o, const std::string& why) {
  return Status::InvalidArgument(o.spelled + (o.has_value ? "=" + o.value : "") + ": " + why);
}

// Boolean options that loadcell accepts and that change nothing when on:
// name, and why.
struct NoEffect {
  const char* name;
  const char* why;
};
constexpr NoEffect kNoEffect[] = {
    {"debug",
     "loadcell prints no extra debug lines; the run header and --format=json say all that the "
     "run did"},
    {"db-debug",
     "loadcell does not trace statements; the server's own log does (PostgreSQL: "
     "log_statement=all, MariaDB: general_log)"},
    {"mysql-debug",
     "libmariadb's call trace is not available through loadcell; the server's general_log "
     "shows every statement"},
};

Status TakeLegacyOltp(RawOptions& raw, std::vector<std::string>& notes) {
  if (RawOption* o = Unconsumed(raw, "oltp-nontrx-mode")) {
    if (o->value != "select") {
      return Refuse(*o,
                    "loadcell's nontrx mode runs point SELECTs only; for one UPDATE, INSERT or "
                    "DELETE per event use oltp_update_index, oltp_update_non_index, oltp_insert "
                    "or oltp_delete");
    }
  }
  if (RawOption* o = Unconsumed(raw, "oltp-table-name")) {
    if (o->value != "sbtest") {
      return Refuse(*o,
                    "loadcell's tables are named sbtest1..N (--tables), as in sysbench 0.5 and "
                    "1.0; other names are not supported");
    }
    notes.push_back(o->spelled + "=sbtest: the tables are sbtest1..N, as in sysbench 0.5 and 1.0");
  }
  if (RawOption* o = Unconsumed(raw, "oltp-avoid-deadlocks")) {
    LC_ASSIGN_OR_RETURN(bool on, BoolOf(*o));
    if (on) {
      notes.push_back(o->spelled +
                      ": keys are not sorted; a deadlocked transaction is rolled back and "
                      "retried instead (--mysql-ignore-errors, --pgsql-ignore-errors)");
    }
  }
  if (RawOption* o = Unconsumed(raw, "oltp-use-in-statement")) {
    if (o->value != "0" && !o->value.empty()) {
      return Refuse(*o, "for point selects with IN () use oltp_random_points (--random-points=N)");
    }
  }
  if (RawOption* o = Unconsumed(raw, "oltp-sp-name")) {
    if (!o->value.empty()) {
      return Refuse(*o, "sysbench 0.4's stored-procedure mode is not supported");
    }
  }
  if (RawOption* o = Unconsumed(raw, "myisam-max-rows")) {
    notes.push_back(o->spelled +
                    " is not applied: the tables are created without MAX_ROWS (it matters "
                    "only for MyISAM tables over 4 GiB)");
  }
  if (RawOption* o = Unconsumed(raw, "mysql-engine-trx")) {
    if (o->value != "auto" && o->value != "yes" && o->value != "no") {
      return Refuse(*o, "use auto, yes or no");
    }
  }
  return Status::Ok();
}

}  // namespace

Status ExpandSysbenchCompatOptions(RawOptions& raw) {
  if (RawOption* o = raw.Find("pgsql-variant")) {
    if (o->value != "redshift" && !o->value.empty()) {
      return Refuse(*o, "the only variant is redshift (as in sysbench)");
    }
    // As sysbench: Redshift has no secondary indexes and no DELETE/INSERT pairs.
    if (o->value == "redshift") {
      AddUnlessGiven(raw, "create-secondary", "off");
      AddUnlessGiven(raw, "delete-inserts", "0");
    }
  }
  if (RawOption* o = raw.Find("mysql-engine-trx"); o != nullptr && o->value == "no") {
    // sysbench 0.4: a non-transactional engine gets no BEGIN/COMMIT.
    AddUnlessGiven(raw, "skip-trx", "on");
  }
  return Status::Ok();
}

Status TakeSysbenchCompatOptions(RawOptions& raw, TestSetup& setup,
                                 std::vector<std::string>& notes) {
  for (const NoEffect& n : kNoEffect) {
    if (RawOption* o = Unconsumed(raw, n.name)) {
      LC_ASSIGN_OR_RETURN(bool on, BoolOf(*o));
      if (on) notes.push_back(o->spelled + ": " + n.why);
    }
  }
  if (RawOption* o = Unconsumed(raw, "validate")) {
    LC_ASSIGN_OR_RETURN(bool on, BoolOf(*o));
    if (on) {
      notes.push_back(o->spelled + ": the " + setup.test +
                      " test has no validation checks (fileio validates what it reads)");
    }
  }
  if (Unconsumed(raw, "pgsql-variant") != nullptr) {
    notes.push_back(
        "--pgsql-variant=redshift: no secondary index and no DELETE/INSERT pairs, "
        "as sysbench does for Redshift");
  }
  // sysbench 0.4/0.5: --init-rng / --rand-init=on seeds from the clock
  // (loadcell's default); off keeps the generator's fixed start, so runs repeat.
  for (const char* name : {"init-rng", "rand-init"}) {
    if (RawOption* o = Unconsumed(raw, name)) {
      LC_ASSIGN_OR_RETURN(bool on, BoolOf(*o));
      const OptionSpec* seed = setup.general.Find("rand-seed");
      if (!on && seed != nullptr && seed->is_default()) setup.cfg.seed = 1;
    }
  }
  return TakeLegacyOltp(raw, notes);
}

std::string DbDriverHelp() {
  std::string out = "Compiled-in database drivers:\n";
  for (const std::string& name : DbDriverNames()) {
    const char* what = name == "sqlite"  ? "SQLite driver (embedded, no server)"
                       : name == "pgsql" ? "PostgreSQL driver"
                       : name == "mysql" ? "MySQL/MariaDB driver"
                                         : "";
    out += fmt::format("  {} - {}\n", name, what);
  }
  return out;
}

}  // namespace loadcell
