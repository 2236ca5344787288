// The pgsql driver's prepared statements: text parameters (the server
// infers their types) sent through the lean path or libpq.

#include <charconv>
#include <string>

#include "db/pgsql/pgsql_internal.h"

namespace loadcell::pgsql_internal {

void PgStatement::BindInt(int index, int64_t v) {
  if (Param* p = At(index)) {
    auto r = std::to_chars(p->num, p->num + sizeof(p->num) - 1, v);
    *r.ptr = '\0';
    values_[static_cast<size_t>(index)] = p->num;
    lengths_[static_cast<size_t>(index)] = static_cast<int>(r.ptr - p->num);
  }
}

void PgStatement::BindDouble(int index, double v) {
  if (Param* p = At(index)) {
    auto r = std::to_chars(p->num, p->num + sizeof(p->num) - 1, v);
    *r.ptr = '\0';
    values_[static_cast<size_t>(index)] = p->num;
    lengths_[static_cast<size_t>(index)] = static_cast<int>(r.ptr - p->num);
  }
}

void PgStatement::BindString(int index, std::string_view v) {
  if (Param* p = At(index)) {
    p->text.assign(v);
    values_[static_cast<size_t>(index)] = p->text.c_str();
    lengths_[static_cast<size_t>(index)] = static_cast<int>(v.size());
  }
}

void PgStatement::BindNull(int index) {
  if (At(index) != nullptr) values_[static_cast<size_t>(index)] = nullptr;
}

DbError PgStatement::Execute(DbExecResult& result, DbRows* rows) {
  if (!conn_->open()) return conn_->Lost();
  if (conn_->generation() != generation_) {
    return {DbErrorClass::kFatal, 0, "",
            "pgsql: statement prepared before a reconnect: prepare it again"};
  }
  if (conn_->lean()) {
    if (conn_->broken()) return conn_->Lost();
    const int ready = conn_->StartRequest();
    PgWire& w = conn_->wire();
    w.Bind(name_, static_cast<int>(values_.size()), values_.data(), lengths_.data());
    if (rows != nullptr) w.DescribePortal();  // for the column names
    w.Execute();
    w.Sync();
    return conn_->Finish(ready + 1, result, rows);
  }
  return conn_->library().ExecutePrepared(name_, static_cast<int>(values_.size()), values_.data(),
                                          lengths_.data(), result, rows);
}

}  // namespace loadcell::pgsql_internal
