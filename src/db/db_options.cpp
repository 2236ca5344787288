// The driver registry, the general --db-* options, the choice of driver
// from the options given, and --*-ignore-errors lists.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/build_features.h"
#include "core/build_info.h"
#include "db/db_driver.h"
#include "db/drivers.h"

namespace loadcell {

// ------------------------------------------------------------ registry

namespace {

struct DriverEntry {
  const char* name;
  std::unique_ptr<DbDriver> (*make)();
};

const std::vector<DriverEntry>& Entries() {
  // The drivers compiled in; pgsql and mysql are optional parts (their build
  // options leave them out, core/build_info.h names them).
  static const std::vector<DriverEntry> kEntries = {
    {"sqlite", &NewSqliteDriver},
#if LOADCELL_WITH_PGSQL
    {"pgsql", &NewPgsqlDriver},
#endif
#if LOADCELL_WITH_MYSQL
    {"mysql", &NewMysqlDriver},
#endif
  };
  return kEntries;
}

std::string ValidNames() {
  std::string s;
  for (const auto& e : Entries()) {
    if (!s.empty()) s += ", ";
    s += e.name;
  }
  return s;
}

// The error for a --db-driver that names no driver compiled in.
Status UnknownDriver(const std::string& name) {
  const std::string asked = "--db-driver=" + name;
  if (IsLeftOut(name)) return NotInThisBuild(asked, name);
  return Status::InvalidArgument(
      fmt::format("{}: unknown database driver (valid: {})", asked, ValidNames()));
}

}  // namespace

std::vector<std::string> DbDriverNames() {
  std::vector<std::string> names;
  for (const auto& e : Entries()) names.emplace_back(e.name);
  return names;
}

Result<std::unique_ptr<DbDriver>> MakeDbDriver(const std::string& name) {
  for (const auto& e : Entries()) {
    if (name == e.name) return e.make();
  }
  return UnknownDriver(name);
}

void RegisterDbOptions(OptionSet& opts, DbOptions* out) {
  opts.String("db-driver", &out->driver, "",
              fmt::format("database driver: {} (default: chosen from the --mysql-* or "
                          "--pgsql-* options given, else sqlite)",
                          ValidNames()));
  opts.Enum("db-ps-mode", &out->ps_mode, "auto", {"auto", "disable"},
            "prepared statements: auto uses the server's, disable emulates them in the client");
  opts.Seconds("db-connect-timeout", &out->timeouts.connect_s, 10,
               "give up a connect attempt after this long (1s to 3600s)")
      .Min(1)
      .Max(3600);
  opts.Seconds("db-read-timeout", &out->timeouts.read_s, 300,
               "fail a statement whose reply does not come within this long (on the native "
               "connector, its whole reply within this long of its first bytes): a frozen server "
               "ends the run (0 = no limit, else 1s to 86400s)")
      .Min(0)
      .Max(86400);
  opts.Seconds("db-write-timeout", &out->timeouts.write_s, 300,
               "fail a statement the server does not take within this long (on the native "
               "connector, its whole request, a COPY's chunk of data or LOAD DATA's file, within "
               "this long of its first send): a server that reads slowly ends the run (0 = no "
               "limit, else 1s to 86400s)")
      .Min(0)
      .Max(86400);
  opts.Size("db-max-reply-size", &out->reply_limits.max_bytes, DbReplyLimits{}.max_bytes,
            "fail a statement whose reply holds a message, or rows kept, larger than this "
            "(native connector; 64K to 64G)")
      .Min(64 * 1024)
      .Max(static_cast<double>(uint64_t{64} << 30));
  opts.Int("db-max-reply-rows", &out->reply_limits.max_rows, DbReplyLimits{}.max_rows,
           "fail a statement whose reply has more rows to keep than this (native connector; "
           "1 to 1T)")
      .Min(1)
      .Max(static_cast<double>(uint64_t{1} << 40));
  opts.Enum("db-connector", &out->connector, "auto", {"auto", "native", "library"},
            "how the pgsql and mysql drivers connect: library (libpq, libmariadb: TLS, Unix "
            "sockets), native (loadcell's own client over TCP, no TLS), auto (library on "
            "Linux, native on Windows)");
}

Result<DbConnector> ResolveDbConnector(std::string_view connector) {
  constexpr bool kWindows = LOADCELL_WINDOWS != 0;
  if (connector == "native" || (connector == "auto" && kWindows)) return DbConnector::kNative;
  if (kWindows) {
    return Status::InvalidArgument(
        "--db-connector=library: the client libraries (libpq, libmariadb) are not in the "
        "Windows build (valid here: auto, native)");
  }
  return DbConnector::kLibrary;
}

std::string ReplyLimitText(std::string_view what, uint64_t limit) {
  return fmt::format("a reply of more than {} {} (--db-max-reply-{}={})", limit, what,
                     what == "bytes" ? "size" : "rows", limit);
}

unsigned int DbTimeouts::WholeSeconds(double s) {
  return s <= 0 ? 0u : static_cast<unsigned int>(std::ceil(s));
}

Result<std::string> ResolveDbDriverName(const DbOptions& db, const OptionSet& opts) {
  if (!db.driver.empty()) {
    for (const auto& e : Entries()) {
      if (db.driver == e.name) return db.driver;
    }
    return UnknownDriver(db.driver);
  }
  std::string chosen;
  std::string chosen_option;
  for (const OptionSpec& s : opts.specs()) {
    if (s.is_default()) continue;
    for (const auto& e : Entries()) {
      const std::string prefix = std::string(e.name) + "-";
      if (s.name().rfind(prefix, 0) != 0) continue;
      if (!chosen.empty() && chosen != e.name) {
        return Status::InvalidArgument(
            fmt::format("--{} and --{} name two database drivers: choose one with --db-driver",
                        chosen_option, s.name()));
      }
      chosen = e.name;
      chosen_option = s.name();
    }
  }
  return chosen.empty() ? std::string("sqlite") : chosen;
}

// ------------------------------------------------------------ ignore list

Result<DbIgnoreList> DbIgnoreList::Parse(const std::vector<std::string>& items,
                                         bool error_numbers) {
  DbIgnoreList list;
  for (const std::string& raw : items) {
    std::string item;
    for (char c : raw) {
      if (c != ' ' && c != '\t') item += c;
    }
    if (item.empty() || item == "none") continue;
    if (item == "all") {
      list.all_ = true;
      continue;
    }
    const bool digits =
        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    const bool state =
        item.size() == 5 && std::all_of(item.begin(), item.end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        });
    const char* valid = error_numbers
                            ? "an error number (1 to 999999999), a five-character SQLSTATE "
                              "(23000, HY000), 'all' or 'none'"
                            : "a five-character SQLSTATE (23505, 40P01), 'all' or 'none'; "
                              "PostgreSQL has no error numbers";
    // A number that cannot be an error code was once accepted and matched
    // nothing: refused, naming what is valid.
    const bool number_ok = digits && error_numbers && item.size() <= 9 &&
                           item.find_first_not_of('0') != std::string::npos;
    if (!(state || number_ok)) {
      return Status::InvalidArgument(fmt::format("item '{}': not {}", raw, valid));
    }
    if (number_ok) list.codes_.push_back(std::stoi(item));
    if (state) {
      for (char& c : item) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      list.states_.push_back(item);
    }
  }
  return list;
}

bool DbIgnoreList::Matches(int code, std::string_view sqlstate) const {
  if (all_) return true;
  if (code != 0 && std::find(codes_.begin(), codes_.end(), code) != codes_.end()) return true;
  if (sqlstate.size() == 5) {
    for (const std::string& s : states_) {
      if (s == sqlstate) return true;
    }
  }
  return false;
}

// ------------------------------------------------------------ DbDrivers

DbDrivers::DbDrivers() {
  for (const auto& e : Entries()) drivers_.push_back(e.make());
}

void DbDrivers::RegisterOptions(OptionSet& opts) {
  RegisterDbOptions(opts, &options_);
  for (auto& d : drivers_) d->RegisterOptions(opts);
}

Status DbDrivers::Resolve(const OptionSet& opts) {
  LC_ASSIGN_OR_RETURN(std::string name, ResolveDbDriverName(options_, opts));
  for (size_t i = 0; i < drivers_.size(); ++i) {
    if (drivers_[i]->Name() == name) chosen_ = i;
  }
  DbDriver& d = *drivers_[chosen_];
  d.set_server_prepared(options_.ps_mode != "disable");
  const std::pair<const char*, double> limits[] = {{"read", options_.timeouts.read_s},
                                                   {"write", options_.timeouts.write_s}};
  for (const auto& [name, t] : limits) {
    if (t > 0 && t < 1) {
      return Status::InvalidArgument(fmt::format(
          "--db-{}-timeout={}s: too short (valid: 0 = no limit, or 1s to 86400s)", name, t));
    }
  }
  d.set_timeouts(options_.timeouts);
  d.set_reply_limits(options_.reply_limits);
  LC_ASSIGN_OR_RETURN(DbConnector connector, ResolveDbConnector(options_.connector));
  d.set_connector(connector);
  return d.Validate();
}

}  // namespace loadcell
