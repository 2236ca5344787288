#include "workloads/oltp/oltp_registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <random>

namespace loadcell {
namespace {

std::string Text(const DbRows::Row& row, size_t i) {
  return i < row.size() && row[i].has_value() ? *row[i] : std::string();
}

Result<bool> Exists(DbConnection& conn, SqlDialect d, std::string_view table) {
  DbRows rows;
  LC_RETURN_IF_ERROR(ExecOltpSql(conn, TableExistsSql(d, table),
                                 fmt::format("cannot check whether table {} exists", table),
                                 &rows));
  return !rows.rows.empty();
}

}  // namespace

Status OltpDbFailure(const DbError& e, const std::string& what) {
  Status s = e.ToStatus();
  return Status(s.code(), fmt::format("{}: {}", what, e.message));
}

Status ExecOltpSql(DbConnection& conn, std::string_view sql, const std::string& what,
                   DbRows* rows) {
  DbExecResult r;
  DbError e = conn.Execute(sql, r, rows);
  if (!e.ok()) return OltpDbFailure(e, what);
  return Status::Ok();
}

Result<TableRegistry> TableRegistry::Load(DbConnection& conn, SqlDialect d) {
  TableRegistry reg;
  reg.dialect_ = d;
  LC_ASSIGN_OR_RETURN(reg.exists_, Exists(conn, d, kMarkerTable));
  if (!reg.exists_) return reg;
  LC_ASSIGN_OR_RETURN(std::vector<std::string> columns, TableColumns(conn, d, kMarkerTable));
  if (std::find(columns.begin(), columns.end(), "token") == columns.end()) {
    reg.old_layout_ = true;
    return reg;
  }
  DbRows rows;
  LC_RETURN_IF_ERROR(
      ExecOltpSql(conn, SelectMarkersSql(), fmt::format("cannot read {}", kMarkerTable), &rows));
  for (const DbRows::Row& row : rows.rows) {
    reg.rows_[Text(row, 0)] = RegistryRow{Text(row, 1), Text(row, 2), Text(row, 3)};
  }
  return reg;
}

Status TableRegistry::CheckLayout() const {
  if (!old_layout_) return Status::Ok();
  return Status::FailedPrecondition(fmt::format(
      "{} was written by an older loadcell that did not mark its tables; nothing was changed "
      "(drop its sbtestN tables and {} by hand, then prepare again)",
      kMarkerTable, kMarkerTable));
}

Result<TableOwner> TableRegistry::Owner(DbConnection& conn, std::string_view table) const {
  DbRows rows;
  LC_RETURN_IF_ERROR(ExecOltpSql(conn, TableMarkerSql(dialect_, table),
                                 fmt::format("cannot read the marker of table {}", table), &rows));
  if (rows.rows.empty()) return TableOwner::kMissing;
  const auto it = rows_.find(std::string(table));
  if (it == rows_.end() || it->second.token.empty()) return TableOwner::kForeign;
  const RegistryRow& reg = it->second;
  const std::string oid = Text(rows.rows[0], 0);
  const std::string marker = Text(rows.rows[0], 1);
  bool marker_complete = true;
  if (dialect_ == SqlDialect::kSqlite) {
    if (marker.find(SqliteMarker(reg.token)) == std::string::npos) return TableOwner::kForeign;
  } else {
    if (dialect_ == SqlDialect::kPgsql && oid != reg.oid) return TableOwner::kForeign;
    marker_complete = marker == MarkerComment(reg.token, true);
    if (!marker_complete && marker != MarkerComment(reg.token, false)) {
      return TableOwner::kForeign;
    }
  }
  return marker_complete && reg.state == "complete" ? TableOwner::kOurs
                                                    : TableOwner::kOursIncomplete;
}

Status TableRegistry::Record(DbConnection& conn, std::string_view table, std::string_view workload,
                             std::string_view token) {
  if (!exists_) {
    LC_RETURN_IF_ERROR(
        ExecOltpSql(conn, CreateMarkerTableSql(), fmt::format("cannot create {}", kMarkerTable)));
    exists_ = true;
  }
  LC_RETURN_IF_ERROR(Forget(conn, table));
  LC_RETURN_IF_ERROR(ExecOltpSql(conn, InsertMarkerSql(table, workload, token),
                                 fmt::format("cannot record {} in {}", table, kMarkerTable)));
  rows_[std::string(table)] = RegistryRow{std::string(token), "loading", ""};
  return Status::Ok();
}

Status TableRegistry::Forget(DbConnection& conn, std::string_view table) {
  if (!exists_) return Status::Ok();
  LC_RETURN_IF_ERROR(
      ExecOltpSql(conn, DeleteMarkerSql(table), fmt::format("cannot update {}", kMarkerTable)));
  rows_.erase(std::string(table));
  return Status::Ok();
}

std::string NewMarkerToken() {
  static std::random_device device;
  const uint64_t v = (static_cast<uint64_t>(device()) << 32) ^ device();
  return fmt::format("{:016x}", v);
}

Status CreateMarkedTable(DbConnection& conn, SqlDialect d, std::string_view table,
                         const std::string& create_sql, std::string_view token) {
  const std::string what = fmt::format("cannot create {}", table);
  if (d != SqlDialect::kPgsql) return ExecOltpSql(conn, create_sql, what);
  if (DbError e = conn.Begin(); !e.ok()) return OltpDbFailure(e, what);
  Status s = ExecOltpSql(conn, create_sql, what);
  if (s.ok()) {
    s = ExecOltpSql(conn, SetTableCommentSql(d, table, MarkerComment(token, false)),
                    fmt::format("cannot mark {}", table));
  }
  if (s.ok()) {
    s = ExecOltpSql(conn,
                    fmt::format("UPDATE {} SET oid = CAST(CAST(CAST('{}' AS regclass) AS oid) AS "
                                "text) WHERE name = '{}'",
                                kMarkerTable, table, table),
                    fmt::format("cannot record {} in {}", table, kMarkerTable));
  }
  if (!s.ok()) {
    (void)conn.Rollback();
    return s;
  }
  if (DbError e = conn.Commit(); !e.ok()) return OltpDbFailure(e, what);
  return Status::Ok();
}

Status MarkComplete(DbConnection& conn, SqlDialect d, std::string_view table,
                    std::string_view token) {
  if (d != SqlDialect::kSqlite) {
    LC_RETURN_IF_ERROR(ExecOltpSql(conn, SetTableCommentSql(d, table, MarkerComment(token, true)),
                                   fmt::format("cannot mark {} complete", table)));
  }
  return ExecOltpSql(conn, CompleteMarkerSql(table),
                     fmt::format("cannot record {} as complete in {}", table, kMarkerTable));
}

Result<std::vector<std::string>> TableColumns(DbConnection& conn, SqlDialect d,
                                              std::string_view table) {
  DbRows rows;
  LC_RETURN_IF_ERROR(ExecOltpSql(conn, TableColumnsSql(d, table),
                                 fmt::format("cannot read the columns of {}", table), &rows));
  std::vector<std::string> out;
  for (const DbRows::Row& row : rows.rows) {
    std::string name = Text(row, 0);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    out.push_back(std::move(name));
  }
  return out;
}

}  // namespace loadcell
