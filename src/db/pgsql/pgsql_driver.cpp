// The pgsql driver (libpq; PostgreSQL servers) and its options. What its
// connections do is told in pgsql_internal.h.

#include <fmt/format.h>

#include <cstdlib>
#include <string>

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
    opts.String("pgsql-host", &s_.host, "localhost", "PostgreSQL server host");
    opts.Int("pgsql-port", &s_.port, 5432, "PostgreSQL server port").Min(1).Max(65535);
    opts.String("pgsql-user", &s_.user, "sbtest", "PostgreSQL user");
    opts.String("pgsql-password", &s_.password, "", "PostgreSQL password (default: $PGPASSWORD)")
        .Secret();
    opts.String("pgsql-db", &s_.db, "sbtest", "PostgreSQL database name");
    opts.Enum("pgsql-sslmode", &s_.sslmode, "prefer",
              {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"},
              "PostgreSQL SSL mode");
    opts.List("pgsql-ignore-errors", &s_.ignore_errors, "40P01,40001,23505",
              "SQLSTATEs that roll back and retry the transaction instead of failing "
              "the run, or 'all' or 'none'");
  }
  Status Validate() override {
    LC_RETURN_IF_ERROR(LoadPq());
    auto ignore = DbIgnoreList::Parse(s_.ignore_errors, /*error_numbers=*/false);
    if (!ignore.ok()) {
      return Status::InvalidArgument("--pgsql-ignore-errors: " + ignore.status().message());
    }
    s_.ignore = std::move(ignore).value();
    // The environment's password is used, never written into the option.
    s_.password_in_use = s_.password;
    s_.timeouts = timeouts();
    if (s_.password_in_use.empty()) {
      if (const char* pw = std::getenv("PGPASSWORD")) s_.password_in_use = pw;
    }
    return Status::Ok();
  }
  std::string Describe() const override {
    return fmt::format("pgsql {}:{} user {} database {}", s_.host, s_.port, s_.user, s_.db);
  }

 protected:
  Result<std::unique_ptr<DbConnection>> Open(int index) override {
    LC_RETURN_IF_ERROR(LoadPq());
    auto conn = std::make_unique<PgConnection>(&s_);
    LC_RETURN_IF_ERROR(conn->Open());
    return std::unique_ptr<DbConnection>(std::move(conn));
  }

 private:
  PgSettings s_;
};

}  // namespace

std::unique_ptr<DbDriver> NewPgsqlDriver() { return std::make_unique<PgsqlDriver>(); }

}  // namespace loadcell
