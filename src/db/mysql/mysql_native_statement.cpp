// The native connector's prepared statements: COM_STMT_PREPARE, our own
// COM_STMT_EXECUTE (mysql_wire.h, as the library connector's own path
// sends it), binary rows read as text when they are kept, COM_STMT_CLOSE.

#include <fmt/format.h>

#include <cstring>
#include <string>

#include "db/mysql/mysql_native.h"

namespace loadcell::mysql_internal {
namespace {

constexpr uint16_t kUnsignedFlag = 32;

// The little-endian integer of `n` bytes at p[i].
uint64_t Le(std::string_view p, size_t i, size_t n) {
  uint64_t v = 0;
  for (size_t k = 0; k < n; ++k)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i + k])) << (8 * k);
  return v;
}

// An integer column of `n` bytes as text, signed unless the column says not.
void IntText(uint64_t v, size_t n, bool is_unsigned, std::string& out) {
  if (is_unsigned || n == 8) {
    out = is_unsigned ? fmt::format("{}", v) : fmt::format("{}", static_cast<int64_t>(v));
    return;
  }
  const uint64_t sign = uint64_t{1} << (8 * n - 1);
  const int64_t s = (v & sign) != 0 ? static_cast<int64_t>(v) - static_cast<int64_t>(sign << 1)
                                    : static_cast<int64_t>(v);
  out = fmt::format("{}", s);
}

// Microseconds as the column's `decimals` digits (none for 0 or above 6).
std::string Fraction(uint64_t usec, uint8_t decimals) {
  if (decimals == 0 || decimals > 6) return "";
  std::string f = fmt::format(".{:06}", usec);
  return f.substr(0, 1 + decimals);
}

// DATE, DATETIME, TIMESTAMP: a length byte, then year, month, day, hour,
// minute, second, microseconds as far as that length reaches.
bool DateText(std::string_view p, size_t& i, const MyColumn& c, std::string& out) {
  const size_t len = static_cast<unsigned char>(p[i++]);
  if (len > p.size() - i) return false;
  uint64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, us = 0;
  if (len >= 4) y = Le(p, i, 2), mo = Le(p, i + 2, 1), d = Le(p, i + 3, 1);
  if (len >= 7) h = Le(p, i + 4, 1), mi = Le(p, i + 5, 1), s = Le(p, i + 6, 1);
  if (len >= 11) us = Le(p, i + 7, 4);
  i += len;
  out = fmt::format("{:04}-{:02}-{:02}", y, mo, d);
  if (c.type != kMyTypeDate)
    out += fmt::format(" {:02}:{:02}:{:02}{}", h, mi, s, Fraction(us, c.decimals));
  return true;
}

// TIME: a length byte, then the sign, days, hours, minutes, seconds,
// microseconds.
bool TimeText(std::string_view p, size_t& i, const MyColumn& c, std::string& out) {
  const size_t len = static_cast<unsigned char>(p[i++]);
  if (len > p.size() - i) return false;
  uint64_t days = 0, h = 0, mi = 0, s = 0, us = 0;
  bool negative = false;
  if (len >= 8) {
    negative = p[i] != 0;
    days = Le(p, i + 1, 4), h = Le(p, i + 5, 1), mi = Le(p, i + 6, 1), s = Le(p, i + 7, 1);
  }
  if (len >= 12) us = Le(p, i + 8, 4);
  i += len;
  out = fmt::format("{}{:02}:{:02}:{:02}{}", negative ? "-" : "", days * 24 + h, mi, s,
                    Fraction(us, c.decimals));
  return true;
}

}  // namespace

bool MyParseColumn(std::string_view p, MyColumn& out) {
  size_t i = 0;
  std::string_view fields[6];  // catalog, schema, table, org_table, name, org_name
  for (std::string_view& f : fields) {
    uint64_t n = 0;
    if (!MyLenEnc(p, i, n) || n > p.size() - i) return false;
    f = p.substr(i, n);
    i += n;
  }
  uint64_t fixed = 0;
  if (!MyLenEnc(p, i, fixed) || i + 10 > p.size()) return false;
  out.name.assign(fields[4]);
  out.type = static_cast<uint8_t>(p[i + 6]);
  out.flags = MyU16(p, i + 7);
  out.decimals = static_cast<uint8_t>(p[i + 9]);
  return true;
}

bool MyBinaryValueText(std::string_view p, size_t& i, const MyColumn& c, std::string& out) {
  if (i >= p.size()) return false;
  const bool is_unsigned = (c.flags & kUnsignedFlag) != 0;
  size_t n = 0;
  switch (c.type) {
    case kMyTypeTiny:
      n = 1;
      break;
    case kMyTypeShort:
    case kMyTypeYear:
      n = 2;
      break;
    case kMyTypeLong:
    case kMyTypeInt24:
    case kMyTypeFloat:
      n = 4;
      break;
    case kMyTypeLongLong:
    case kMyTypeDouble:
      n = 8;
      break;
    case kMyTypeDate:
    case kMyTypeDateTime:
    case kMyTypeTimestamp:
      return DateText(p, i, c, out);
    case kMyTypeTime:
      return TimeText(p, i, c, out);
    default: {  // DECIMAL, strings, BLOBs, BIT, ENUM, SET, JSON: length-encoded
      uint64_t len = 0;
      if (!MyLenEnc(p, i, len) || len > p.size() - i) return false;
      out.assign(p.data() + i, len);
      i += len;
      return true;
    }
  }
  if (n > p.size() - i) return false;
  const uint64_t v = Le(p, i, n);
  i += n;
  if (c.type == kMyTypeFloat) {
    float f = 0;
    const auto bits = static_cast<uint32_t>(v);
    std::memcpy(&f, &bits, sizeof(f));
    out = fmt::format("{}", f);
  } else if (c.type == kMyTypeDouble) {
    double d = 0;
    std::memcpy(&d, &v, sizeof(d));
    out = fmt::format("{}", d);
  } else {
    IntText(v, n, is_unsigned, out);
  }
  return true;
}

DbError MyNativeConnection::PrepareServer(std::string_view sql, int /*nparams*/,
                                          std::unique_ptr<DbStatement>& out) {
  if (!connected()) return Lost();
  std::string payload;
  payload += '\x16';  // COM_STMT_PREPARE
  payload += sql;
  if (!SendCommand(payload)) return LostNow();
  std::string_view p;
  if (!io_.Next(p)) return LostNow();
  if (!p.empty() && static_cast<unsigned char>(p[0]) == 0xFF) return MyServerErrorOf(p, *settings_);
  if (p.size() < 12 || p[0] != 0) return MalformedNow();
  const auto id = static_cast<uint32_t>(Le(p, 1, 4));
  const uint16_t ncols = MyU16(p, 5);
  const uint16_t nparams = MyU16(p, 7);
  // The parameters' and the columns' definitions, each list ended by an EOF.
  const size_t skip = (nparams > 0 ? nparams + 1U : 0U) + (ncols > 0 ? ncols + 1U : 0U);
  for (size_t k = 0; k < skip; ++k) {
    if (!io_.Next(p)) return LostNow();
  }
  out = std::make_unique<MyNativeStatement>(this, id, nparams, generation_);
  return {};
}

MyNativeStatement::~MyNativeStatement() { conn_->CloseStatement(id_, generation_); }

DbError MyNativeStatement::Execute(DbExecResult& result, DbRows* rows) {
  result = {};
  if (!conn_->connected()) return conn_->Lost();
  if (conn_->generation() != generation_) {
    return {DbErrorClass::kFatal, 0, "",
            "mysql: statement prepared before a reconnect: prepare it again"};
  }
  MyRawIo& io = conn_->io();
  if (!MyBuildStmtExecute(io.out(), id_, types_, values_)) {
    return {DbErrorClass::kFatal, 0, "",
            "mysql: the statement's parameters do not fit one 16 MB packet"};
  }
  if (!io.Send()) return conn_->LostNow();
  if (rows == nullptr) {  // counted only, as the library connector's own path does
    MyCommandReply reply;
    MyReadExecuteReply(io, reply);
    result.rows_affected += reply.rows_affected;
    result.rows_returned += reply.rows_returned;
    return conn_->Outcome(reply);
  }
  return ReadRows(io, result, *rows);
}

// The reply to COM_STMT_EXECUTE with its rows kept: OKs and binary result
// sets, while the server's status says more follow.
DbError MyNativeStatement::ReadRows(MyRawIo& io, DbExecResult& result, DbRows& rows) {
  DbReplyBudget budget(conn_->settings().limits);
  for (uint64_t results = 0;; ++results) {
    if (results == kDbMaxResultsPerReply) return conn_->RefusedNow(TooManyResultsText());
    std::string_view p;
    if (!io.Next(p)) return conn_->LostNow();
    if (p.empty()) return conn_->MalformedNow();
    const auto head = static_cast<unsigned char>(p[0]);
    if (head == 0xFF) return MyServerErrorOf(p, conn_->settings());
    uint16_t status = 0;
    if (head == 0x00) {
      uint64_t affected = 0;
      uint16_t warnings = 0;
      if (!MyParseOk(p, affected, status, warnings)) return conn_->MalformedNow();
      result.rows_affected += affected;
    } else if (DbError e = ReadResultSet(io, p, result, rows, budget, status); !e.ok()) {
      return e;
    }
    if ((status & kMyServerMoreResultsExist) == 0) return {};
  }
}

DbError MyNativeStatement::ReadResultSet(MyRawIo& io, std::string_view head, DbExecResult& result,
                                         DbRows& rows, DbReplyBudget& budget, uint16_t& status) {
  size_t i = 0;
  uint64_t n = 0;
  if (!MyLenEnc(head, i, n)) return conn_->MalformedNow();
  if (n > kMyMaxColumns) return conn_->RefusedNow(TooManyColumnsText(n));
  columns_.resize(n);
  std::string_view p;
  for (auto& col : columns_) {
    if (!io.Next(p)) return conn_->LostNow();
    if (!MyParseColumn(p, col)) return conn_->MalformedNow();
  }
  if (rows.columns.empty()) {
    for (const auto& col : columns_) rows.columns.push_back(col.name);
  }
  if (!io.Next(p)) return conn_->LostNow();
  if (p.empty() || static_cast<unsigned char>(p[0]) != 0xFE) return conn_->MalformedNow();
  const size_t bitmap = (n + 9) / 8;
  for (;;) {
    if (!io.Next(p)) return conn_->LostNow();
    if (p.empty()) return conn_->MalformedNow();
    if (MyRowsEnd(p, status)) return {};
    const auto r = static_cast<unsigned char>(p[0]);
    if (r == 0xFF) return MyServerErrorOf(p, conn_->settings());
    if (r != 0x00 || p.size() < 1 + bitmap) return conn_->MalformedNow();
    ++result.rows_returned;
    if (!budget.Take(p.size())) return conn_->RefusedNow(budget.Text());
    DbRows::Row& out = rows.AddRow(n);
    size_t k = 1 + bitmap;
    for (size_t c = 0; c < n; ++c) {
      const size_t bit = c + 2;  // the first two bits are reserved
      if ((static_cast<unsigned char>(p[1 + bit / 8]) >> (bit % 8) & 1) != 0) {
        out[c].reset();
        continue;
      }
      if (!MyBinaryValueText(p, k, columns_[c], text_)) return conn_->MalformedNow();
      DbRows::SetValue(out[c], text_.data(), text_.size());
    }
  }
}

}  // namespace loadcell::mysql_internal
