#include "core/options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

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

// Shortest text that reads back as the same double ("95", "0.2", "100000", "1e+20").
std::string FormatNumber(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
    return buf;
  }
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  if (ec != std::errc()) return std::to_string(v);
  return std::string(buf, end);
}

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

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// "must be at least 1", "must be between 0 and 100", or "" when in range.
template <typename Fmt>
std::string RangeMessage(double v, const std::optional<double>& lo, const std::optional<double>& hi,
                         Fmt fmt) {
  bool below = lo.has_value() && v < *lo;
  bool above = hi.has_value() && v > *hi;
  if (!below && !above) return "";
  if (lo.has_value() && hi.has_value()) {
    return "must be between " + fmt(*lo) + " and " + fmt(*hi);
  }
  if (below) return "must be at least " + fmt(*lo);
  return "must be at most " + fmt(*hi);
}

std::string JoinChoices(const std::vector<std::string>& c) {
  std::string out;
  for (size_t i = 0; i < c.size(); ++i) {
    if (i > 0) out += (i + 1 == c.size()) ? " or " : ", ";
    out += c[i];
  }
  return out;
}

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string JoinList(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ",";
    out += items[i];
  }
  return out;
}

std::string StripDashes(std::string_view s) {
  while (!s.empty() && s.front() == '-') s.remove_prefix(1);
  return std::string(s);
}

}  // namespace

std::string_view OptionTypeName(OptionType t) {
  switch (t) {
    case OptionType::kBool:
      return "on|off";
    case OptionType::kInt:
      return "N";
    case OptionType::kDouble:
      return "N";
    case OptionType::kSize:
      return "SIZE";
    case OptionType::kSeconds:
      return "SECONDS";
    case OptionType::kString:
      return "STRING";
    case OptionType::kEnum:
      return "STRING";
    case OptionType::kList:
      return "LIST,...";
  }
  return "VALUE";
}

std::string NormalizeOptionName(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

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

// ---------------------------------------------------------------- RawOptions

void RawOptions::Add(std::string_view spelled_name, std::string value, bool has_value,
                     std::string origin) {
  RawOption opt;
  opt.name = NormalizeOptionName(StripDashes(spelled_name));
  opt.spelled = (spelled_name.substr(0, 1) == "-") ? std::string(spelled_name)
                                                   : "--" + std::string(spelled_name);
  opt.value = has_value ? std::move(value) : std::string();
  opt.has_value = has_value;
  opt.origin = std::move(origin);
  if (RawOption* existing = Find(opt.name)) {
    *existing = std::move(opt);
    return;
  }
  entries_.push_back(std::move(opt));
}

void RawOptions::AddDefaults(const RawOptions& other) {
  for (const RawOption& o : other.entries_) {
    if (Find(o.name) == nullptr) entries_.push_back(o);
  }
}

RawOption* RawOptions::Find(std::string_view normalised_name) {
  for (RawOption& o : entries_) {
    if (o.name == normalised_name) return &o;
  }
  return nullptr;
}

namespace {
// " (config file F line N)" for options not from the command line.
std::string OriginSuffix(const RawOption& o) {
  if (o.origin.empty() || o.origin == "command line") return "";
  return " (" + o.origin + ")";
}
}  // namespace

Status RawOptions::CheckAllConsumed(std::string_view hint) const {
  for (const RawOption& o : entries_) {
    if (o.consumed) continue;
    std::string msg = "unknown option '" + o.spelled + "'" + OriginSuffix(o);
    if (!hint.empty()) msg += " " + std::string(hint);
    return Status::InvalidArgument(msg);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- OptionSpec

OptionSpec::OptionSpec(std::string name, OptionType type, std::string help)
    : name_(NormalizeOptionName(name)), type_(type), help_(std::move(help)) {}

OptionSpec& OptionSpec::Alias(std::string legacy_name) {
  aliases_.push_back(NormalizeOptionName(legacy_name));
  return *this;
}
OptionSpec& OptionSpec::Min(double v) {
  min_ = v;
  return *this;
}
OptionSpec& OptionSpec::Max(double v) {
  max_ = v;
  return *this;
}
OptionSpec& OptionSpec::PowerOfTwo() {
  power_of_two_ = true;
  return *this;
}
OptionSpec& OptionSpec::Choices(std::vector<std::string> c) {
  choices_ = std::move(c);
  return *this;
}
OptionSpec& OptionSpec::Unit(std::string unit) {
  unit_ = std::move(unit);
  return *this;
}
OptionSpec& OptionSpec::Check(std::function<std::string()> check) {
  check_ = std::move(check);
  return *this;
}
OptionSpec& OptionSpec::Hidden() {
  hidden_ = true;
  return *this;
}

OptionSpec& OptionSpec::Secret() {
  secret_ = true;
  return *this;
}

std::string OptionSpec::ValueText() const {
  std::string text = value_text_ ? value_text_() : default_text_;
  if (secret_ && !text.empty()) return "(hidden)";
  return text;
}

bool OptionSpec::Matches(std::string_view normalised) const {
  if (name_ == normalised) return true;
  return std::find(aliases_.begin(), aliases_.end(), normalised) != aliases_.end();
}

// ---------------------------------------------------------------- OptionSet

namespace {
std::string NeedsValue(OptionType t) {
  return "needs a value (" + std::string(OptionTypeName(t)) + ")";
}
}  // namespace

OptionSpec& OptionSet::Bool(std::string name, bool* dst, bool def, std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kBool, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return std::string(*dst ? "on" : "off"); };
  s.default_text_ = s.value_text_();
  s.assign_ = [dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) {
      *dst = true;
      return "";
    }
    auto v = ParseBool(text);
    if (!v.ok()) return v.status().message();
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Int(std::string name, int64_t* dst, int64_t def, std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kInt, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return std::to_string(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseInt(text);
    if (!v.ok()) return v.status().message();
    std::string range = RangeMessage(static_cast<double>(*v), spec->min_, spec->max_,
                                     [](double x) { return FormatNumber(x); });
    if (!range.empty()) return range;
    if (spec->power_of_two_ && (*v <= 0 || !IsPowerOfTwo(static_cast<uint64_t>(*v)))) {
      return "must be a power of two";
    }
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Double(std::string name, double* dst, double def, std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kDouble, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return FormatNumber(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseDouble(text);
    if (!v.ok()) return v.status().message();
    std::string range =
        RangeMessage(*v, spec->min_, spec->max_, [](double x) { return FormatNumber(x); });
    if (!range.empty()) return range;
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Size(std::string name, uint64_t* dst, uint64_t def, std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kSize, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return FormatSize(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseSize(text);
    if (!v.ok()) return v.status().message();
    std::string range = RangeMessage(static_cast<double>(*v), spec->min_, spec->max_, [](double x) {
      return x >= 0 && x < 1.8e19 && x == std::floor(x) ? FormatSize(static_cast<uint64_t>(x))
                                                        : FormatNumber(x);
    });
    if (!range.empty()) return range;
    if (spec->power_of_two_ && !IsPowerOfTwo(*v)) {
      return "must be a power of two (e.g. 1K, 4K, 16K, 1M)";
    }
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Seconds(std::string name, double* dst, double def, std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kSeconds, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return FormatNumber(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseSeconds(text);
    if (!v.ok()) return v.status().message();
    std::string range =
        RangeMessage(*v, spec->min_, spec->max_, [](double x) { return FormatNumber(x) + "s"; });
    if (!range.empty()) return range;
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::String(std::string name, std::string* dst, std::string def,
                              std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kString, std::move(help));
  *dst = std::move(def);
  s.value_text_ = [dst] { return *dst; };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    *dst = std::string(text);
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Enum(std::string name, std::string* dst, std::string def,
                            std::vector<std::string> choices, std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kEnum, std::move(help));
  *dst = std::move(def);
  s.choices_ = std::move(choices);
  s.value_text_ = [dst] { return *dst; };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    std::string hint = "use " + JoinChoices(spec->choices_);
    if (!has_value) return "needs a value; " + hint;
    if (std::find(spec->choices_.begin(), spec->choices_.end(), text) == spec->choices_.end()) {
      return "not a valid choice; " + hint;
    }
    *dst = std::string(text);
    return "";
  };
  return s;
}

OptionSpec& OptionSet::List(std::string name, std::vector<std::string>* dst, std::string def,
                            std::string help) {
  OptionSpec& s = specs_.emplace_back(std::move(name), OptionType::kList, std::move(help));
  *dst = SplitList(def);
  s.value_text_ = [dst] { return JoinList(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    std::vector<std::string> items = SplitList(text);
    if (!spec->choices_.empty()) {
      for (const std::string& item : items) {
        if (std::find(spec->choices_.begin(), spec->choices_.end(), item) == spec->choices_.end()) {
          return "'" + item + "' is not a valid item; use a comma-separated list of " +
                 JoinChoices(spec->choices_);
        }
      }
    }
    *dst = std::move(items);
    return "";
  };
  return s;
}

Status OptionSet::Apply(RawOptions& raw) {
  for (OptionSpec& spec : specs_) {
    // Several entries may name one option (a legacy alias and the current
    // name, or the command line and a config file). The last entry from the
    // command line wins; otherwise the first one (AddDefaults appends).
    RawOption* winner = nullptr;
    for (RawOption& o : raw.entries()) {
      if (o.consumed || !spec.Matches(o.name)) continue;
      o.consumed = true;
      if (o.origin == "command line" || winner == nullptr) winner = &o;
    }
    if (winner == nullptr) continue;
    std::string msg = spec.assign_(winner->value, winner->has_value);
    if (msg.empty() && spec.check_) msg = spec.check_();
    if (!msg.empty()) {
      std::string what =
          winner->has_value ? winner->spelled + "=" + winner->value : winner->spelled;
      return Status::InvalidArgument(what + OriginSuffix(*winner) + ": " + msg);
    }
    spec.set_by_user_ = true;
  }
  return Status::Ok();
}

const OptionSpec* OptionSet::Find(std::string_view normalised_name) const {
  for (const OptionSpec& s : specs_) {
    if (s.Matches(normalised_name)) return &s;
  }
  return nullptr;
}

std::string FormatHelp(const OptionSet& set) {
  struct Line {
    std::string left;
    std::string right;
  };
  std::vector<Line> lines;
  size_t width = 0;
  for (const OptionSpec& s : set.specs()) {
    if (s.hidden()) continue;
    Line line;
    if (s.type() == OptionType::kBool) {
      line.left = "--" + s.name() + "[=on|off]";
    } else if (s.type() == OptionType::kList) {
      line.left = "--" + s.name() + "=[LIST,...]";
    } else {
      line.left = "--" + s.name() + "=" + std::string(OptionTypeName(s.type()));
    }
    line.right = s.help();
    if (!s.choices().empty()) {
      line.right += " {" + JoinList(s.choices()) + "}";
    }
    if (!s.unit().empty()) line.right += " (" + s.unit() + ")";
    bool show_default = !(s.default_text().empty() &&
                          (s.type() == OptionType::kString || s.type() == OptionType::kList));
    if (show_default) line.right += " [" + s.default_text() + "]";
    for (const std::string& alias : s.aliases()) {
      line.right += " (also --" + alias + ")";
    }
    width = std::max(width, line.left.size());
    lines.push_back(std::move(line));
  }
  std::string out = set.title() + ":\n";
  for (const Line& l : lines) {
    out += "  " + l.left + std::string(width - l.left.size() + 2, ' ') + l.right + "\n";
  }
  return out;
}

}  // namespace loadcell
