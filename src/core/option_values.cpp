#include "core/option_values.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace loadcell {
namespace {

constexpr const char* kSizeHint = "use a number with an optional K, M, G or T suffix";
constexpr const char* kIntHint = "use a whole number, optionally with a K, M or G suffix";
constexpr const char* kSecondsHint = "use a number of seconds, or add a unit: us, ms, s, m or h";

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string LowerString(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Parses a whole decimal number without sign into *out; false on junk or
// overflow (*overflow tells which).
bool ParseDigits(std::string_view s, uint64_t* out, bool* overflow) {
  *overflow = false;
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (ec == std::errc::result_out_of_range) {
    *overflow = true;
    return false;
  }
  return ec == std::errc() && ptr == s.data() + s.size();
}

// Multiplier for a size suffix ("", "b", "K", "KB", "KiB", ... any case), or 0.
uint64_t SizeMultiplier(std::string_view suffix) {
  std::string s = LowerString(suffix);
  if (s.empty() || s == "b") return 1;
  uint64_t mult = 0;
  switch (s[0]) {
    case 'k':
      mult = 1ULL << 10;
      break;
    case 'm':
      mult = 1ULL << 20;
      break;
    case 'g':
      mult = 1ULL << 30;
      break;
    case 't':
      mult = 1ULL << 40;
      break;
    default:
      return 0;
  }
  std::string_view rest = std::string_view(s).substr(1);
  if (rest.empty() || rest == "b" || rest == "ib") return mult;
  return 0;
}

}  // namespace

Result<bool> ParseBool(std::string_view text) {
  std::string s = LowerString(text);
  if (s == "on" || s == "true" || s == "yes" || s == "1") return true;
  if (s == "off" || s == "false" || s == "no" || s == "0") return false;
  return Status::InvalidArgument("not a boolean; use on or off (also true/false, yes/no, 1/0)");
}

Result<int64_t> ParseInt(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  size_t digits = 0;
  while (digits < s.size() && IsDigit(s[digits])) ++digits;
  uint64_t mult = 1;
  std::string_view suffix = s.substr(digits);
  if (!suffix.empty()) {
    mult = SizeMultiplier(suffix);
    // A bare "b" is a byte count, which makes no sense for an integer.
    if (mult <= 1) return Status::InvalidArgument(std::string("not an integer; ") + kIntHint);
  }
  uint64_t magnitude = 0;
  bool overflow = false;
  if (!ParseDigits(s.substr(0, digits), &magnitude, &overflow)) {
    if (overflow) return Status::InvalidArgument("too large");
    return Status::InvalidArgument(std::string("not an integer; ") + kIntHint);
  }
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (magnitude > kLimit / mult) return Status::InvalidArgument("too large");
  magnitude *= mult;
  if (negative) return -static_cast<int64_t>(magnitude);
  return static_cast<int64_t>(magnitude);
}

Result<double> ParseDouble(std::string_view text) {
  std::string_view s = text;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec == std::errc::invalid_argument || ptr != s.data() + s.size()) {
    return Status::InvalidArgument("not a number; use a decimal number such as 10 or 0.5");
  }
  if (ec == std::errc::result_out_of_range || !std::isfinite(v)) {
    return Status::InvalidArgument("not a finite number");
  }
  return v;
}

Result<uint64_t> ParseSize(std::string_view text) {
  std::string_view s = text;
  if (!s.empty() && s.front() == '-') return Status::InvalidArgument("must not be negative");
  size_t num_end = 0;
  while (num_end < s.size() && (IsDigit(s[num_end]) || s[num_end] == '.')) ++num_end;
  std::string_view number = s.substr(0, num_end);
  std::string_view suffix = s.substr(num_end);
  uint64_t mult = SizeMultiplier(suffix);
  size_t dot = number.find('.');
  std::string_view whole = number.substr(0, dot);
  std::string_view frac =
      dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
  bool frac_ok =
      dot == std::string_view::npos || (frac.find('.') == std::string_view::npos && !frac.empty());
  if (mult == 0 || number.empty() || whole.empty() || !frac_ok) {
    return Status::InvalidArgument(std::string("not a size; ") + kSizeHint);
  }
  uint64_t w = 0;
  bool overflow = false;
  if (!ParseDigits(whole, &w, &overflow)) {
    if (overflow) return Status::InvalidArgument("too large");
    return Status::InvalidArgument(std::string("not a size; ") + kSizeHint);
  }
  if (w > std::numeric_limits<uint64_t>::max() / mult) return Status::InvalidArgument("too large");
  uint64_t bytes = w * mult;
  if (!frac.empty()) {
    for (char c : frac) {
      if (!IsDigit(c)) return Status::InvalidArgument(std::string("not a size; ") + kSizeHint);
    }
    // Fractions ("1.5G") are rounded to whole bytes.
    long double f = std::stold("0." + std::string(frac));
    long double extra = std::round(f * static_cast<long double>(mult));
    if (extra > static_cast<long double>(std::numeric_limits<uint64_t>::max() - bytes)) {
      return Status::InvalidArgument("too large");
    }
    bytes += static_cast<uint64_t>(extra);
  }
  return bytes;
}

Result<double> ParseSeconds(std::string_view text) {
  std::string_view s = text;
  if (!s.empty() && s.front() == '-') return Status::InvalidArgument("must not be negative");
  size_t num_end = 0;
  // The number: digits and '.', with an optional exponent ("1e3", "2e-3").
  while (num_end < s.size() && (IsDigit(s[num_end]) || s[num_end] == '.')) ++num_end;
  if (num_end > 0 && num_end + 1 < s.size() && (s[num_end] == 'e' || s[num_end] == 'E')) {
    size_t exp = num_end + 1;
    if (s[exp] == '-' || s[exp] == '+') ++exp;
    if (exp < s.size() && IsDigit(s[exp])) {
      while (exp < s.size() && IsDigit(s[exp])) ++exp;
      num_end = exp;
    }
  }
  std::string unit = LowerString(s.substr(num_end));
  double scale = 0;
  if (unit.empty() || unit == "s" || unit == "sec")
    scale = 1;
  else if (unit == "ns")
    scale = 1e-9;
  else if (unit == "us")
    scale = 1e-6;
  else if (unit == "ms")
    scale = 1e-3;
  else if (unit == "m" || unit == "min")
    scale = 60;
  else if (unit == "h")
    scale = 3600;
  auto number = ParseDouble(s.substr(0, num_end));
  if (scale == 0 || num_end == 0 || !number.ok()) {
    return Status::InvalidArgument(std::string("not a duration; ") + kSecondsHint);
  }
  if (*number < 0) return Status::InvalidArgument("must not be negative");
  double v = *number * scale;
  if (!std::isfinite(v)) return Status::InvalidArgument("too large");
  return v;
}

std::string FormatSize(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"T", "G", "M", "K"};
  static constexpr int kShifts[] = {40, 30, 20, 10};
  if (bytes == 0) return "0";
  for (int i = 0; i < 4; ++i) {
    uint64_t unit = 1ULL << kShifts[i];
    if (bytes % unit == 0) return std::to_string(bytes / unit) + kUnits[i];
  }
  return std::to_string(bytes);
}
}  // namespace loadcell
