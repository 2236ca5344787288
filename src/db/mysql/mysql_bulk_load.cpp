// The mysql driver's bulk load, for both connectors: LOAD DATA LOCAL INFILE
// served from memory, its warnings turned back into errors; multi-row INSERT
// where the server does not allow local files.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string>

#include "core/plural.h"
#include "db/mysql/mysql_settings.h"

namespace loadcell::mysql_internal {
namespace {

// Character sets in which ASCII text reads as itself.
bool AsciiCompatible(std::string_view cs) {
  return cs == "latin1" || cs == "ascii" || cs == "utf8" || cs == "utf8mb3" || cs == "utf8mb4";
}

// The fastest load path of MySQL and MariaDB: rows as tab-separated text
// through LOAD DATA LOCAL INFILE, one statement per few MB, served from
// memory. The server reads them without parsing SQL, and in the database's
// character set when the text is ASCII (no conversion per value); that costs
// the server a third less CPU per row than multi-row INSERT. A statement
// whose rows hold nothing escaped switches escapes off (ESCAPED BY ''), so
// that the server does not look for them: 10-15% less server CPU for
// sbtest rows. With LOCAL the
// server turns row errors (duplicate keys, bad values) into warnings and
// goes on; the first warning is turned back into an error with its code and
// SQLSTATE, so that a failing load fails as an INSERT would.
class MyLoadData final : public DbBulkInsert {
 public:
  static constexpr size_t kMaxBytes = size_t{4} * 1024 * 1024;

  MyLoadData(MyConnectionBase* conn, std::string_view table,
             const std::vector<std::string>& columns, std::string db_charset)
      : conn_(conn), ncols_(columns.size()), db_charset_(std::move(db_charset)) {
    head_ = fmt::format("LOAD DATA LOCAL INFILE 'loadcell' INTO TABLE {} CHARACTER SET ", table);
    columns_ = fmt::format(" LINES TERMINATED BY '\\n' ({})", fmt::join(columns, ", "));
    buf_.reserve(kMaxBytes + 4096);
  }

  DbError AddRow(std::span<const DbValue> values) override {
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    const TextRowInfo info = AppendTextRow(buf_, values, true);
    ascii_ = ascii_ && info.ascii;
    escaped_ = escaped_ || info.escaped;
    ++rows_;
    if (buf_.size() >= kMaxBytes) return Flush();
    return {};
  }

  DbError Finish() override { return Flush(); }

 private:
  DbError Flush();

  MyConnectionBase* conn_;
  size_t ncols_;
  std::string db_charset_;
  std::string head_;
  std::string columns_;
  std::string buf_;
  std::string sql_;
  uint64_t rows_ = 0;
  bool ascii_ = true;
  bool escaped_ = false;
};

}  // namespace

DbError MyConnectionBase::BeginBulkInsert(std::string_view table,
                                          const std::vector<std::string>& columns,
                                          std::unique_ptr<DbBulkInsert>& out) {
  if (!connected()) return Lost();
  DbExecResult r;
  DbRows rows;
  if (DbError e = Execute("SELECT @@local_infile, @@character_set_database", r, &rows); !e.ok()) {
    return e;
  }
  const bool allowed = rows.rows.size() == 1 && rows.rows[0].size() == 2 &&
                       rows.rows[0][0].value_or("0") != "0" &&
                       rows.rows[0][0].value_or("OFF") != "OFF";
  if (!allowed) return DbConnection::BeginBulkInsert(table, columns, out);  // multi-row INSERT
  out = std::make_unique<MyLoadData>(this, table, columns, rows.rows[0][1].value_or(""));
  return {};
}

DbError MyLoadData::Flush() {
  if (rows_ == 0) return {};
  // ASCII rows are read in the database's character set, others in the
  // connection's (the server converts them as it would an INSERT's).
  const std::string cs =
      ascii_ && AsciiCompatible(db_charset_) ? db_charset_ : conn_->CharacterSetName();
  sql_.assign(head_).append(cs).append(LoadDataFieldsClause(escaped_)).append(columns_);
  const uint64_t expected = rows_;
  DbExecResult r;
  unsigned warnings = 0;
  DbError e = conn_->LoadFromMemory(sql_, buf_, r, warnings);
  buf_.clear();
  rows_ = 0;
  ascii_ = true;
  escaped_ = false;
  if (!e.ok()) return e;
  if (warnings > 0) {
    if (e = conn_->FirstWarning(warnings); !e.ok()) return e;
  }
  if (r.rows_affected != expected) {
    return {DbErrorClass::kFatal, 0, "",
            fmt::format("mysql: LOAD DATA loaded {} of {} rows", r.rows_affected, expected)};
  }
  return {};
}

DbError MyConnectionBase::FirstWarning(unsigned count) {
  DbExecResult r;
  DbRows warnings;
  // SHOW WARNINGS leaves the conditions in place for GET DIAGNOSTICS.
  if (DbError e = Execute("SHOW WARNINGS", r, &warnings); !e.ok()) return e;
  const std::optional<size_t> failing = FirstFailingWarning(warnings);
  if (!failing.has_value()) {
    if (warnings.rows.size() >= count) return {};
    return {DbErrorClass::kFatal, 0, "",
            fmt::format("mysql: LOAD DATA ended with {}, of which the server kept only the "
                        "first {}, all notes (max_error_count)",
                        CountOf(count, "warning", "warnings"), warnings.rows.size())};
  }
  DbError e = Execute(fmt::format("GET DIAGNOSTICS CONDITION {} @loadcell_errno = MYSQL_ERRNO, "
                                  "@loadcell_state = RETURNED_SQLSTATE, "
                                  "@loadcell_text = MESSAGE_TEXT",
                                  *failing + 1),
                      r, nullptr);
  DbRows rows;
  if (e.ok()) e = Execute("SELECT @loadcell_errno, @loadcell_state, @loadcell_text", r, &rows);
  if (!e.ok()) return e;
  if (rows.rows.size() != 1 || rows.rows[0].size() != 3) {
    return {DbErrorClass::kFatal, 0, "", "mysql: LOAD DATA ended with warnings"};
  }
  const auto& row = rows.rows[0];
  int code = 0;
  const std::string code_text = row[0].value_or("0");
  std::from_chars(code_text.data(), code_text.data() + code_text.size(), code);
  const std::string state = row[1].value_or("");
  const std::string text = row[2].value_or("LOAD DATA ended with warnings");
  return Classify(code, state.c_str(), text.c_str(), *settings_);
}

}  // namespace loadcell::mysql_internal
