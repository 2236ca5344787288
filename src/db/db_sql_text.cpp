// The SQL text helpers of db/db_driver.h: placeholders, literals and quoted
// strings, the tab-separated rows of COPY and LOAD DATA, the warnings that
// fail a LOAD DATA.

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>

#include "db/db_driver.h"
#include "db/placeholders.h"

namespace loadcell {

using db_internal::ScanPlaceholders;

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

}  // namespace loadcell
