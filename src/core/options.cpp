#include "core/options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace loadcell {
namespace {

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

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The bounds of a numeric type (core/options.h), which no Min()/Max() widens.
struct TypeBounds {
  double lo;
  double hi;
};

TypeBounds BoundsOf(OptionType t) {
  switch (t) {
    case OptionType::kInt:
    case OptionType::kDouble:
      return {-kMaxOptionNumber, kMaxOptionNumber};
    case OptionType::kSize:
      return {0, static_cast<double>(kMaxOptionSize)};
    case OptionType::kSeconds:
      return {0, kMaxOptionSeconds};
    default:
      return {-HUGE_VAL, HUGE_VAL};
  }
}

// The limits one option's value must keep to: its Min()/Max() within the
// bounds of its type; `zero_ok` also admits 0 (a rate's "no limit").
struct Range {
  std::optional<double> lo, hi;
  OptionType type;
  bool zero_ok = false;
};

// "" when v is in range, else what is valid: "must be at least 1", "must
// be between 0 and 100". A value beyond the type's bounds (an overflow is
// passed as +-HUGE_VAL) is told the whole range, the bounds included.
template <typename Fmt>
std::string RangeMessage(double v, const Range& r, Fmt fmt) {
  if (r.zero_ok && v == 0) return "";
  const TypeBounds b = BoundsOf(r.type);
  const bool beyond_type = !(v >= b.lo && v <= b.hi);
  const bool below = r.lo.has_value() && v < *r.lo;
  const bool above = r.hi.has_value() && v > *r.hi;
  if (!beyond_type && !below && !above) return "";
  const std::string zero = r.zero_ok ? "0 (no limit) or " : "";
  if (beyond_type || r.zero_ok || (r.lo.has_value() && r.hi.has_value())) {
    const double lo = r.lo.has_value() ? std::max(*r.lo, b.lo) : b.lo;
    const double hi = r.hi.has_value() ? std::min(*r.hi, b.hi) : b.hi;
    return "must be " + zero + "between " + fmt(lo) + " and " + fmt(hi);
  }
  if (below) return "must be at least " + fmt(*r.lo);
  return "must be at most " + fmt(*r.hi);
}

// The value RangeMessage is given for a number that did not parse as too
// large: the infinity of its sign.
double Overflowed(std::string_view text) {
  return !text.empty() && text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
}

bool IsOverflow(const Status& s) {
  return s.message() == "too large" || s.message() == "not a finite number";
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
    case OptionType::kDouble:
      return "N";
    case OptionType::kSize:
      return "SIZE";
    case OptionType::kSeconds:
      return "SECONDS";
    case OptionType::kString:
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

std::string UnknownOptionText(const RawOption& o) {
  if (o.origin.rfind("config file ", 0) == 0) {
    return o.origin + ": unknown option (the line is not shown: it may hold a secret)";
  }
  return "unknown option '" + o.spelled + "'" + OriginSuffix(o);
}

Status RawOptions::CheckAllConsumed(std::string_view hint) const {
  for (const RawOption& o : entries_) {
    if (o.consumed) continue;
    std::string msg = UnknownOptionText(o);
    if (!hint.empty()) {
      // (Appended piecewise: `" " + std::string(hint)` trips GCC 12's
      // -Wrestrict false positive once this file inlines differently.)
      msg += ' ';
      msg += hint;
    }
    return Status::InvalidArgument(msg);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- OptionSpec

OptionSpec::OptionSpec(std::string_view name, OptionType type, std::string help)
    : name_(NormalizeOptionName(name)), type_(type), help_(std::move(help)) {}

OptionSpec& OptionSpec::Alias(std::string_view legacy_name) {
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

bool IsSecretOptionName(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n.find("password") != std::string::npos || n.find("passwd") != std::string::npos ||
         n.find("secret") != std::string::npos;
}

std::string HideSecretValue(const std::string& arg) {
  const size_t sep = arg.find_first_of("= \t");
  if (sep == std::string::npos || !IsSecretOptionName(arg.substr(0, sep))) return arg;
  return arg.substr(0, sep + 1) + "(hidden)";
}

OptionSpec& OptionSpec::Secret() {
  secret_ = true;
  return *this;
}

std::string OptionSpec::ValueText() const {
  std::string text = value_text_ ? value_text_() : default_text_;
  if ((secret_ || IsSecretOptionName(name_)) && !text.empty()) return "(hidden)";
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

OptionSpec& OptionSet::Bool(std::string_view name, bool* dst, bool def, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kBool, std::move(help));
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

OptionSpec& OptionSet::Int(std::string_view name, int64_t* dst, int64_t def, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kInt, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return std::to_string(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseInt(text);
    const Range r{spec->min_, spec->max_, spec->type_};
    if (!v.ok() && IsOverflow(v.status())) return RangeMessage(Overflowed(text), r, FormatNumber);
    if (!v.ok()) return v.status().message();
    std::string range = RangeMessage(static_cast<double>(*v), r, FormatNumber);
    if (!range.empty()) return range;
    if (spec->power_of_two_ && (*v <= 0 || !IsPowerOfTwo(static_cast<uint64_t>(*v)))) {
      return "must be a power of two";
    }
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Double(std::string_view name, double* dst, double def, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kDouble, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return FormatNumber(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseDouble(text);
    const Range r{spec->min_, spec->max_, spec->type_, spec->zero_or_min_};
    if (!v.ok() && IsOverflow(v.status())) return RangeMessage(Overflowed(text), r, FormatNumber);
    if (!v.ok()) return v.status().message();
    std::string range = RangeMessage(*v, r, FormatNumber);
    if (!range.empty()) return range;
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Rate(std::string_view name, double* dst, double def, std::string help) {
  OptionSpec& s = Double(name, dst, def, std::move(help));
  s.zero_or_min_ = true;
  return s.Min(kMinOptionRate).Max(kMaxOptionRate);
}

OptionSpec& OptionSet::Size(std::string_view name, uint64_t* dst, uint64_t def, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kSize, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return FormatSize(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseSize(text);
    const Range r{spec->min_, spec->max_, spec->type_};
    auto fmt = [](double x) {
      return x >= 0 && x < 1.8e19 && x == std::floor(x) ? FormatSize(static_cast<uint64_t>(x))
                                                        : FormatNumber(x);
    };
    if (!v.ok() && IsOverflow(v.status())) return RangeMessage(HUGE_VAL, r, fmt);
    if (!v.ok()) return v.status().message();
    std::string range = RangeMessage(static_cast<double>(*v), r, fmt);
    if (!range.empty()) return range;
    if (spec->power_of_two_ && !IsPowerOfTwo(*v)) {
      return "must be a power of two (e.g. 1K, 4K, 16K, 1M)";
    }
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::Seconds(std::string_view name, double* dst, double def, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kSeconds, std::move(help));
  *dst = def;
  s.value_text_ = [dst] { return FormatNumber(*dst); };
  s.default_text_ = s.value_text_();
  OptionSpec* spec = &s;
  s.assign_ = [spec, dst](std::string_view text, bool has_value) -> std::string {
    if (!has_value) return NeedsValue(spec->type_);
    auto v = ParseSeconds(text);
    const Range r{spec->min_, spec->max_, spec->type_};
    auto fmt = [](double x) { return FormatNumber(x) + "s"; };
    if (!v.ok() && IsOverflow(v.status())) return RangeMessage(HUGE_VAL, r, fmt);
    if (!v.ok()) return v.status().message();
    std::string range = RangeMessage(*v, r, fmt);
    if (!range.empty()) return range;
    *dst = *v;
    return "";
  };
  return s;
}

OptionSpec& OptionSet::String(std::string_view name, std::string* dst, std::string def,
                              std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kString, std::move(help));
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

OptionSpec& OptionSet::Enum(std::string_view name, std::string* dst, std::string def,
                            std::vector<std::string> choices, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kEnum, std::move(help));
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

OptionSpec& OptionSet::List(std::string_view name, std::vector<std::string>* dst,
                            std::string_view def, std::string help) {
  OptionSpec& s = specs_.emplace_back(name, OptionType::kList, std::move(help));
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
          winner->has_value
              ? winner->spelled + "=" +
                    (spec.secret_ || IsSecretOptionName(spec.name_) ? "(hidden)" : winner->value)
              : winner->spelled;
      what += OriginSuffix(*winner);
      what += ": ";
      what += msg;
      return Status::InvalidArgument(what);
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
