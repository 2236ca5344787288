#include "db/db_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "core/build_features.h"
#include "core/build_info.h"
#include "db/drivers.h"

namespace loadcell {

std::string_view DbErrorClassName(DbErrorClass c) {
  switch (c) {
    case DbErrorClass::kNone:
      return "none";
    case DbErrorClass::kRetryable:
      return "retryable";
    case DbErrorClass::kReconnect:
      return "reconnect";
    case DbErrorClass::kIgnorable:
      return "ignorable";
    case DbErrorClass::kFatal:
      return "fatal";
  }
  return "fatal";
}

Status DbError::ToStatus() const {
  switch (cls) {
    case DbErrorClass::kNone:
      return Status::Ok();
    case DbErrorClass::kReconnect:
      return Status(StatusCode::kUnavailable, message);
    default:
      return Status(StatusCode::kIoError, message);
  }
}

// ------------------------------------------------------------ DbStatement

void DbStatement::Bind(int index, const DbValue& v) {
  switch (v.type) {
    case DbType::kInt:
    case DbType::kBigInt:
      BindInt(index, v.i);
      break;
    case DbType::kDouble:
      BindDouble(index, v.d);
      break;
    case DbType::kString:
      BindString(index, v.s);
      break;
    case DbType::kNull:
      BindNull(index);
      break;
  }
}

DbError DbStatement::Execute(std::span<const DbValue> params, DbExecResult& result, DbRows* rows) {
  for (size_t i = 0; i < params.size(); ++i) Bind(static_cast<int>(i), params[i]);
  return Execute(result, rows);
}

// ------------------------------------------------------------ placeholders

namespace {

// Calls on_placeholder(position) for each `?` outside quotes and comments.
template <typename F>
void ScanPlaceholders(std::string_view sql, F&& on_placeholder) {
  const size_t n = sql.size();
  size_t i = 0;
  while (i < n) {
    const char c = sql[i];
    if (c == '\'' || c == '"' || c == '`') {
      // Quoted: a doubled quote stays inside; a backslash escapes in MySQL.
      size_t j = i + 1;
      while (j < n) {
        if (sql[j] == '\\' && c == '\'' && j + 1 < n) {
          j += 2;
          continue;
        }
        if (sql[j] == c) {
          if (j + 1 < n && sql[j + 1] == c) {
            j += 2;
            continue;
          }
          break;
        }
        ++j;
      }
      i = std::min(n, j + 1);
    } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      const size_t e = sql.find('\n', i);
      i = e == std::string_view::npos ? n : e + 1;
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      const size_t e = sql.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else {
      if (c == '?') on_placeholder(i);
      ++i;
    }
  }
}

}  // namespace

int CountPlaceholders(std::string_view sql) {
  int count = 0;
  ScanPlaceholders(sql, [&](size_t) { ++count; });
  return count;
}

std::string TranslatePlaceholdersDollar(std::string_view sql, int* count) {
  std::string out;
  out.reserve(sql.size() + 16);
  size_t copied = 0;
  int k = 0;
  ScanPlaceholders(sql, [&](size_t pos) {
    out.append(sql.substr(copied, pos - copied));
    out += '$';
    out += std::to_string(++k);
    copied = pos + 1;
  });
  out.append(sql.substr(copied));
  if (count != nullptr) *count = k;
  return out;
}

// ------------------------------------------------------------ emulated statements

namespace {

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

// The generic bulk path: multi-row INSERT statements of up to kMaxRows rows
// or about kMaxBytes of text.
class MultiRowInsert final : public DbBulkInsert {
 public:
  static constexpr size_t kMaxRows = 1000;
  static constexpr size_t kMaxBytes = 512 * 1024;

  MultiRowInsert(DbConnection* conn, std::string_view table,
                 const std::vector<std::string>& columns)
      : conn_(conn), ncols_(columns.size()) {
    head_ = fmt::format("INSERT INTO {} ({}) VALUES ", table, fmt::join(columns, ", "));
    text_.reserve(kMaxBytes + 4096);
  }

  DbError AddRow(std::span<const DbValue> values) override {
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    text_ += rows_ == 0 ? head_ : std::string_view(",");
    text_ += '(';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) text_ += ',';
      conn_->AppendLiteral(text_, values[i]);
    }
    text_ += ')';
    if (++rows_ >= kMaxRows || text_.size() >= kMaxBytes) return Flush();
    return {};
  }

  DbError Finish() override { return Flush(); }

 private:
  DbError Flush() {
    if (rows_ == 0) return {};
    DbExecResult r;
    DbError e = conn_->Execute(text_, r);
    text_.clear();
    rows_ = 0;
    return e;
  }

  DbConnection* conn_;
  size_t ncols_;
  std::string head_;
  std::string text_;
  size_t rows_ = 0;
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

DbError DbConnection::BeginBulkInsert(std::string_view table,
                                      const std::vector<std::string>& columns,
                                      std::unique_ptr<DbBulkInsert>& out) {
  out = std::make_unique<MultiRowInsert>(this, table, columns);
  return {};
}

namespace {

// Bytes of a string that may need an escape (any control byte, backslash)
// and bytes outside ASCII, eight at a time: the usual string has neither and
// is appended whole.
struct TextScan {
  bool maybe_escape = false;
  bool non_ascii = false;
};

TextScan ScanText(std::string_view s) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  uint64_t low = 0;   // high bit set in a lane whose byte was < 0x20 or a backslash
  uint64_t high = 0;  // high bits of the bytes themselves
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const uint64_t bs = w ^ (kOnes * '\\');
    // (x - n) & ~x has the lane's high bit set when x < n (x below 0x80).
    low |= ((w - kOnes * 0x20) & ~w) | ((bs - kOnes) & ~bs);
    high |= w;
  }
  TextScan out;
  out.maybe_escape = (low & kHigh) != 0;
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    out.maybe_escape |= c < 0x20 || c == '\\';
    high |= c;
  }
  out.non_ascii = (high & kHigh) != 0;
  // Text outside ASCII goes the careful way: byte by byte.
  if (out.non_ascii) out.maybe_escape = true;
  return out;
}

}  // namespace

TextRowInfo AppendTextRow(std::string& out, std::span<const DbValue> values, bool mysql) {
  TextRowInfo info;
  char num[32];
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += '\t';
    const DbValue& v = values[i];
    switch (v.type) {
      case DbType::kInt:
      case DbType::kBigInt:
        out.append(num, std::to_chars(num, num + sizeof(num), v.i).ptr);
        break;
      case DbType::kDouble:
        if (mysql && !std::isfinite(v.d)) {
          out += "\\N";
          info.escaped = true;
        } else {
          out.append(num, std::to_chars(num, num + sizeof(num), v.d).ptr);
        }
        break;
      case DbType::kString: {
        const TextScan scan = ScanText(v.s);
        if (scan.non_ascii) info.ascii = false;
        if (!scan.maybe_escape) {
          out += v.s;
          break;
        }
        for (char c : v.s) {
          const char* esc = nullptr;
          switch (c) {
            case '\\':
              esc = "\\\\";
              break;
            case '\t':
              esc = "\\t";
              break;
            case '\n':
              esc = "\\n";
              break;
            case '\r':
              esc = "\\r";
              break;
            case '\0':
              esc = mysql ? "\\0" : "\\000";
              break;
            default:
              out += c;
              continue;
          }
          out += esc;
          info.escaped = true;
        }
        break;
      }
      case DbType::kNull:
        out += "\\N";
        info.escaped = true;
        break;
    }
  }
  out += '\n';
  return info;
}

std::string_view LoadDataFieldsClause(bool escaped) {
  return escaped ? " FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\'"
                 : " FIELDS TERMINATED BY '\\t' ESCAPED BY ''";
}

std::optional<size_t> FirstFailingWarning(const DbRows& warnings) {
  for (size_t i = 0; i < warnings.rows.size(); ++i) {
    const DbRows::Row& row = warnings.rows[i];
    if (row.empty() || !row[0].has_value()) continue;
    if (*row[0] == "Warning" || *row[0] == "Error") return i;
  }
  return std::nullopt;
}

void DbConnection::AppendQuoted(std::string& out, std::string_view s) {
  out += '\'';
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
}

void DbConnection::AppendLiteral(std::string& out, const DbValue& v) {
  char buf[32];
  switch (v.type) {
    case DbType::kInt:
    case DbType::kBigInt: {
      auto r = std::to_chars(buf, buf + sizeof(buf), v.i);
      out.append(buf, r.ptr);
      break;
    }
    case DbType::kDouble: {
      if (!std::isfinite(v.d)) {
        out += "NULL";
        break;
      }
      auto r = std::to_chars(buf, buf + sizeof(buf), v.d);
      out.append(buf, r.ptr);
      break;
    }
    case DbType::kString:
      AppendQuoted(out, v.s);
      break;
    case DbType::kNull:
      out += "NULL";
      break;
  }
}

// ------------------------------------------------------------ DbDriver

Result<std::unique_ptr<DbConnection>> DbDriver::Connect(int index) {
  auto conn = Open(index);
  if (conn.ok()) conn.value()->server_prepared_ = server_prepared_;
  return conn;
}

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

Result<DbIgnoreList> DbIgnoreList::Parse(const std::vector<std::string>& items) {
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
    if (!digits && !state) {
      return Status::InvalidArgument(
          fmt::format("item '{}': not an error number, a five-character SQLSTATE, 'all' "
                      "or 'none'",
                      raw));
    }
    if (digits && item.size() <= 9) list.codes_.push_back(std::stoi(item));
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
  return d.Validate();
}

}  // namespace loadcell
