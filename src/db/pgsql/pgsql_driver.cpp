// The pgsql driver (PostgreSQL servers; libpq or loadcell's own client) and
// its options. What its
// connections do is told in pgsql_internal.h.

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "db/drivers.h"
#include "db/pgsql/pgsql_internal.h"

namespace loadcell {
namespace {

using pgsql_internal::PgConnection;
using pgsql_internal::PgSettings;

class PgsqlDriver final : public DbDriver {
 public:
  std::string Name() const override { return "pgsql"; }
  DbCapabilities Capabilities() const override {
    DbCapabilities c;
    c.prepared_statements = server_prepared();
    c.bulk_insert = "COPY";
    return c;
  }
  void RegisterOptions(OptionSet& opts) override {
    opts.String("pgsql-host", &s_.host, "localhost",
                "PostgreSQL server host; a comma list spreads the connections: connection i "
                "(counted across MPI ranks) goes to host i mod n, as --mysql-host does");
    opts.Int("pgsql-port", &s_.port, 5432, "PostgreSQL server port").Min(1).Max(65535);
    opts.String("pgsql-user", &s_.user, "sbtest", "PostgreSQL user");
    opts.String("pgsql-password", &s_.password, "", "PostgreSQL password (default: $PGPASSWORD)")
        .Secret();
    opts.String("pgsql-db", &s_.db, "sbtest", "PostgreSQL database name");
    opts.Enum("pgsql-sslmode", &s_.sslmode, "prefer",
              {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"},
              "PostgreSQL SSL mode");
    opts.Int("pgsql-scram-max-iterations", &s_.max_scram_iterations, 100'000,
             "native connector: refuse a SCRAM-SHA-256 login whose server asks for more "
             "PBKDF2 iterations than this (each costs the client as much as the server)")
        .Min(1)
        .Max(2147483647);
    opts.List("pgsql-ignore-errors", &s_.ignore_errors, "40P01,40001,23505",
              "SQLSTATEs that roll back and retry the transaction instead of failing "
              "the run, or 'all' or 'none'");
  }
  Status Validate() override {
    s_.connector = connector();
    if (s_.connector == DbConnector::kNative) {
      LC_RETURN_IF_ERROR(CheckNative());
    } else {
      LC_RETURN_IF_ERROR(pgsql_internal::LoadLibpq());
    }
    auto ignore = DbIgnoreList::Parse(s_.ignore_errors, /*error_numbers=*/false);
    if (!ignore.ok()) {
      return Status::InvalidArgument("--pgsql-ignore-errors: " + ignore.status().message());
    }
    s_.ignore = std::move(ignore).value();
    // The environment's password is used, never written into the option.
    s_.password_in_use = s_.password;
    s_.timeouts = timeouts();
    s_.limits = reply_limits();
    if (s_.password_in_use.empty()) {
      if (const char* pw = std::getenv("PGPASSWORD")) s_.password_in_use = pw;
    }
    return SpreadHosts();
  }
  std::string Describe() const override {
    return fmt::format("pgsql {}:{} user {} database {}", s_.host, s_.port, s_.user, s_.db);
  }

 protected:
  Result<std::unique_ptr<DbConnection>> Open(int index) override {
    const PgSettings* settings = &s_;
    if (!per_host_.empty()) {
      settings = &per_host_[static_cast<size_t>(index < 0 ? 0 : index) % per_host_.size()];
    }
    auto conn = std::make_unique<PgConnection>(settings);
    LC_RETURN_IF_ERROR(conn->Open());
    return std::unique_ptr<DbConnection>(std::move(conn));
  }

 private:
  // A --pgsql-host list ("db1,db2"): the settings of each host, connection i
  // opened on host i mod n (libpq would take the list as fail-over
  // candidates; loadcell spreads the load as sysbench spreads --mysql-host).
  Status SpreadHosts() {
    per_host_.clear();
    if (s_.host.find(',') == std::string::npos) return Status::Ok();
    size_t start = 0;
    while (start <= s_.host.size()) {
      const size_t comma = std::min(s_.host.find(',', start), s_.host.size());
      PgSettings one = s_;
      one.host = s_.host.substr(start, comma - start);
      if (one.host.empty()) {
        return Status::InvalidArgument(
            fmt::format("--pgsql-host={}: an empty host in the list (give host names or addresses "
                        "separated by commas)",
                        s_.host));
      }
      per_host_.push_back(std::move(one));
      start = comma + 1;
    }
    return Status::Ok();
  }

  // What the native connection cannot do, refused in one line before any
  // connection: TLS (never a silent plaintext connection when it was
  // required) and Unix sockets.
  Status CheckNative() const {
    if (s_.sslmode == "require" || s_.sslmode.rfind("verify-", 0) == 0) {
      return Status::InvalidArgument(fmt::format(
          "--pgsql-sslmode={}: the native connection (--db-connector=native, the only one of "
          "the Windows build) has no TLS; use --pgsql-sslmode=disable, allow or prefer "
          "(plaintext), or --db-connector=library on Linux",
          s_.sslmode));
    }
    if (s_.host.empty() || s_.host[0] == '/' || s_.host[0] == '@') {
      return Status::InvalidArgument(fmt::format(
          "--pgsql-host={}: a Unix socket needs --db-connector=library on Linux; the native "
          "connection is TCP only (give a host name or address)",
          s_.host));
    }
    return Status::Ok();
  }

  PgSettings s_;
  std::vector<PgSettings> per_host_;  // a --pgsql-host list, else empty
};

}  // namespace

std::unique_ptr<DbDriver> NewPgsqlDriver() { return std::make_unique<PgsqlDriver>(); }

}  // namespace loadcell
