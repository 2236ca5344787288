#include "db/dry_run_connection.h"

namespace loadcell {
namespace {

// Nothing is sent anywhere: a result is always empty.
DbError Succeed(DbExecResult& result, DbRows* rows) {
  result = DbExecResult{};
  if (rows != nullptr) rows->Clear();
  return {};
}

class DryRunStatement final : public DbStatement {
 public:
  void BindInt(int, int64_t) override {}
  void BindDouble(int, double) override {}
  void BindString(int, std::string_view) override {}
  void BindNull(int) override {}
  DbError Execute(DbExecResult& result, DbRows* rows) override { return Succeed(result, rows); }
};

class DryRunConnection final : public DbConnection {
 public:
  DbError Execute(std::string_view, DbExecResult& result, DbRows* rows) override {
    return Succeed(result, rows);
  }
  DbError Begin() override { return {}; }
  DbError Commit() override { return {}; }
  DbError Rollback() override { return {}; }
  DbError Reconnect() override { return {}; }
  std::string ServerVersion() override { return "none (dry run)"; }
  std::string StatementPath() const override { return "dry run: no server"; }

 protected:
  DbError PrepareServer(std::string_view, int, std::unique_ptr<DbStatement>& out) override {
    out = std::make_unique<DryRunStatement>();
    return {};
  }
};

}  // namespace

std::unique_ptr<DbConnection> MakeDryRunConnection() {
  return std::make_unique<DryRunConnection>();
}

}  // namespace loadcell
