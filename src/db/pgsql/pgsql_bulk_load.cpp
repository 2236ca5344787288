// The pgsql driver's bulk load: COPY ... FROM STDIN through the lean path
// (libpq on an encrypted connection), in the binary format when every
// column has a type it writes, else in text.

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "db/pgsql/pgsql_internal.h"

namespace loadcell::pgsql_internal {
namespace {

// How one column of a binary COPY is written: the server's binary input of
// its type (COPY ... WITH (FORMAT binary) takes no other), or text when the
// column has a type this code does not write.
enum class PgBinaryKind { kInt2, kInt4, kInt8, kFloat4, kFloat8, kText };

// The binary kind of a column of type `oid`; nullopt for other types.
std::optional<PgBinaryKind> BinaryKindOf(uint32_t oid) {
  switch (oid) {
    case 21:
      return PgBinaryKind::kInt2;
    case 23:
      return PgBinaryKind::kInt4;
    case 20:
      return PgBinaryKind::kInt8;
    case 700:
      return PgBinaryKind::kFloat4;
    case 701:
      return PgBinaryKind::kFloat8;
    case 25:    // text
    case 1042:  // char(n)
    case 1043:  // varchar(n)
      return PgBinaryKind::kText;
    default:
      return std::nullopt;
  }
}

// What a value that does not fit its column gets: the SQLSTATE the server's
// text input would give (22P02 invalid text representation, 22003 out of
// range) and a line naming the column.
DbError BadValue(const char* sqlstate, size_t column, const std::string& why) {
  return {DbErrorClass::kFatal, 0, sqlstate,
          fmt::format("pgsql: bulk insert, column {}: {}", column + 1, why)};
}

// The text of a number as std::from_chars must see it to take what
// PostgreSQL's input functions take: leading and trailing ASCII whitespace
// and one leading '+' are dropped. A '+' followed by another sign is kept,
// so that "+-5" stays invalid, as it is for the server.
std::string_view NumberText(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  s = s.substr(first, s.find_last_not_of(kSpace) - first + 1);
  if (s.size() > 1 && s[0] == '+' && s[1] != '+' && s[1] != '-') s.remove_prefix(1);
  return s;
}

// The binary COPY value of an integer column of `bytes` bytes (2, 4 or 8):
// an integer, or a string the server's integer input would take.
DbError AppendBinaryInt(std::string& o, const DbValue& v, int bytes, size_t column) {
  int64_t x = 0;
  if (v.type == DbType::kInt || v.type == DbType::kBigInt) {
    x = v.i;
  } else if (v.type == DbType::kString) {
    const std::string_view text = NumberText(v.s);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, x);
    if (ec != std::errc() || ptr != end) {
      return BadValue("22P02", column, "invalid integer '" + v.s + "'");
    }
  } else {
    return BadValue("22P02", column, "a floating-point value for an integer column");
  }
  if (bytes < 8) {
    const int64_t lim = int64_t{1} << (8 * bytes - 1);
    if (x < -lim || x >= lim) {
      return BadValue("22003", column, fmt::format("{} is out of range", x));
    }
  }
  PgPutBigEndian(o, static_cast<uint64_t>(bytes), 4);
  PgPutBigEndian(o, static_cast<uint64_t>(x), bytes);
  return {};
}

// The binary COPY value of a real (`real`) or double precision column: a
// number, or a string the server's input would take.
DbError AppendBinaryFloat(std::string& o, const DbValue& v, bool real, size_t column) {
  double d = 0;
  if (v.type == DbType::kDouble) {
    d = v.d;
  } else if (v.type == DbType::kInt || v.type == DbType::kBigInt) {
    d = static_cast<double>(v.i);
  } else {
    const std::string_view text = NumberText(v.s);
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, d);
    if (ec != std::errc() || ptr != end) {
      return BadValue("22P02", column, "invalid number '" + v.s + "'");
    }
  }
  if (real) {
    const float f = static_cast<float>(d);
    if (std::isfinite(d) && !std::isfinite(f)) {
      return BadValue("22003", column, fmt::format("{} is out of range for real", d));
    }
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    PgPutBigEndian(o, 4, 4);
    PgPutBigEndian(o, bits, 4);
  } else {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    PgPutBigEndian(o, 8, 4);
    PgPutBigEndian(o, bits, 8);
  }
  return {};
}

// The binary COPY value of a text column: a string as it is, a number as
// its text.
void AppendBinaryText(std::string& o, const DbValue& v) {
  char num[32];
  std::string_view text;
  if (v.type == DbType::kString) {
    text = v.s;
  } else if (v.type == DbType::kDouble) {
    text = std::string_view(
        num, static_cast<size_t>(std::to_chars(num, num + sizeof(num), v.d).ptr - num));
  } else {
    text = std::string_view(
        num, static_cast<size_t>(std::to_chars(num, num + sizeof(num), v.i).ptr - num));
  }
  PgPutBigEndian(o, text.size(), 4);
  o.append(text);
}

// Appends value `column` of a binary COPY row (length word, then the bytes).
DbError AppendBinaryValue(std::string& o, const DbValue& v, PgBinaryKind kind, size_t column) {
  if (v.type == DbType::kNull) {
    PgPutBigEndian(o, 0xFFFFFFFFu, 4);
    return {};
  }
  switch (kind) {
    case PgBinaryKind::kInt2:
      return AppendBinaryInt(o, v, 2, column);
    case PgBinaryKind::kInt4:
      return AppendBinaryInt(o, v, 4, column);
    case PgBinaryKind::kInt8:
      return AppendBinaryInt(o, v, 8, column);
    case PgBinaryKind::kFloat4:
      return AppendBinaryFloat(o, v, true, column);
    case PgBinaryKind::kFloat8:
      return AppendBinaryFloat(o, v, false, column);
    case PgBinaryKind::kText:
      AppendBinaryText(o, v);
      return {};
  }
  return BadValue("22P02", column, "unknown column kind");
}

// COPY ... FROM STDIN, sent in chunks of about kChunk bytes: in the binary
// format when every column has a type it writes (the server then parses no
// text: a fifth less time for the sysbench tables than text), else in text.
class PgCopy final : public DbBulkInsert {
 public:
  static constexpr size_t kChunk = size_t{256} * 1024;

  PgCopy(PgConnection* conn, size_t ncols, std::vector<PgBinaryKind> binary)
      : conn_(conn), ncols_(ncols), binary_(std::move(binary)) {
    buf_.reserve(kChunk + 4096);
    if (!binary_.empty()) {
      buf_.append("PGCOPY\n\xff\r\n\0", 11);
      PgPutBigEndian(buf_, 0, 4);  // flags
      PgPutBigEndian(buf_, 0, 4);  // no header extension
    }
  }
  ~PgCopy() override {
    if (open_ && conn_->open()) Abandon("bulk insert abandoned");
  }

  DbError AddRow(std::span<const DbValue> values) override {
    if (!open_) return {DbErrorClass::kFatal, 0, "", "pgsql: bulk insert already finished"};
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    if (binary_.empty()) {
      AppendTextRow(buf_, values, false);
    } else {
      const size_t mark = buf_.size();
      PgPutBigEndian(buf_, ncols_, 2);
      for (size_t i = 0; i < ncols_; ++i) {
        if (DbError e = AppendBinaryValue(buf_, values[i], binary_[i], i); !e.ok()) {
          buf_.resize(mark);  // the row is not sent
          return e;
        }
      }
    }
    if (buf_.size() >= kChunk) return Send();
    return {};
  }

  DbError Finish() override {
    if (!open_) return {};
    if (!binary_.empty()) PgPutBigEndian(buf_, 0xFFFF, 2);  // the trailer
    DbError e = Send();
    open_ = false;
    if (!e.ok()) {
      if (conn_->open()) Abandon("bulk insert failed");
      return e;
    }
    return conn_->EndCopy(nullptr);
  }

 private:
  DbError Send() {
    if (buf_.empty()) return {};
    DbError e = conn_->PutCopy(buf_.data(), buf_.size());
    buf_.clear();
    return e;
  }

  // Ends the COPY with an error and drops the reply (each wait bounded).
  void Abandon(const char* why) { (void)conn_->EndCopy(why); }

  PgConnection* conn_;
  size_t ncols_;
  std::vector<PgBinaryKind> binary_;  // empty: text format
  std::string buf_;
  bool open_ = true;
};

}  // namespace

DbError PgConnection::BeginBulkInsert(std::string_view table,
                                      const std::vector<std::string>& columns,
                                      std::unique_ptr<DbBulkInsert>& out) {
  if (!open()) return Lost();
  // The columns' types decide the format; a catalog that cannot be read
  // (or a type not written in binary) leaves the text format.
  std::vector<PgBinaryKind> binary;
  {
    DbExecResult r;
    DbRows rows;
    std::string sql = "SELECT attname, atttypid FROM pg_attribute WHERE attrelid = ";
    AppendQuoted(sql, table);
    sql += "::regclass AND attnum > 0 AND NOT attisdropped";
    if (DbError e = Execute(sql, r, &rows); e.ok()) {
      for (const std::string& col : columns) {
        std::optional<PgBinaryKind> kind;
        for (const auto& row : rows.rows) {
          if (row.size() == 2 && row[0] && row[1] && *row[0] == col) {
            kind = BinaryKindOf(static_cast<uint32_t>(std::strtoul(row[1]->c_str(), nullptr, 10)));
          }
        }
        if (!kind) {
          binary.clear();
          break;
        }
        binary.push_back(*kind);
      }
    }
  }
  const std::string sql = fmt::format("COPY {} ({}) FROM STDIN{}", table, fmt::join(columns, ", "),
                                      binary.empty() ? "" : " WITH (FORMAT binary)");
  if (DbError e = StartCopy(sql); !e.ok()) return e;
  out = std::make_unique<PgCopy>(this, columns.size(), std::move(binary));
  return {};
}

}  // namespace loadcell::pgsql_internal
