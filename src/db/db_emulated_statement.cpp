// Prepared statements emulated in the client (--db-ps-mode=disable), and
// DbConnection::Prepare, which chooses them or the driver's own.

#include <fmt/format.h>

#include "db/db_driver.h"
#include "db/placeholders.h"

namespace loadcell {
namespace {

using db_internal::ScanPlaceholders;

// A prepared statement done in the client: the text is split at the
// placeholders once; each Execute quotes the binds into a reused buffer.
class EmulatedStatement final : public DbStatement {
 public:
  EmulatedStatement(DbConnection* conn, std::string_view sql) : conn_(conn) {
    size_t copied = 0;
    ScanPlaceholders(sql, [&](size_t pos) {
      pieces_.emplace_back(sql.substr(copied, pos - copied));
      copied = pos + 1;
    });
    pieces_.emplace_back(sql.substr(copied));
    values_.resize(pieces_.size() - 1);
  }

  void BindInt(int index, int64_t v) override {
    if (DbValue* p = At(index)) {
      p->type = DbType::kBigInt;
      p->i = v;
    }
  }
  void BindDouble(int index, double v) override {
    if (DbValue* p = At(index)) {
      p->type = DbType::kDouble;
      p->d = v;
    }
  }
  void BindString(int index, std::string_view v) override {
    if (DbValue* p = At(index)) {
      p->type = DbType::kString;
      p->s.assign(v);
    }
  }
  void BindNull(int index) override {
    if (DbValue* p = At(index)) p->type = DbType::kNull;
  }

  using DbStatement::Execute;
  DbError Execute(DbExecResult& result, DbRows* rows) override {
    text_.clear();
    for (size_t i = 0; i < values_.size(); ++i) {
      text_ += pieces_[i];
      conn_->AppendLiteral(text_, values_[i]);
    }
    text_ += pieces_.back();
    return conn_->Execute(text_, result, rows);
  }

 private:
  DbValue* At(int index) {
    if (index < 0 || static_cast<size_t>(index) >= values_.size()) return nullptr;
    return &values_[static_cast<size_t>(index)];
  }

  DbConnection* conn_;
  std::vector<std::string> pieces_;
  std::vector<DbValue> values_;
  std::string text_;
};

}  // namespace

DbError DbConnection::Prepare(std::string_view sql, int nparams,
                              std::unique_ptr<DbStatement>& out) {
  const int found = CountPlaceholders(sql);
  if (nparams >= 0 && found != nparams) {
    return {DbErrorClass::kFatal, 0, "",
            fmt::format("prepare: {} placeholders in the statement, {} expected", found, nparams)};
  }
  if (!server_prepared_) {
    out = std::make_unique<EmulatedStatement>(this, sql);
    return {};
  }
  return PrepareServer(sql, found, out);
}

}  // namespace loadcell
