#include "fio/fio_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "fio/expression.h"

namespace loadcell::fio {
namespace {

constexpr size_t kMaxSplitEntries = 64;    // fio's BSSPLIT_MAX and ZONESPLIT_MAX
constexpr size_t kMaxPercentiles = 20;     // fio's FIO_IO_U_LIST_MAX_LEN
constexpr double kDefaultZipfTheta = 1.1;  // fio's FIO_DEF_ZIPF
constexpr double kDefaultParetoH = 0.2;    // fio's FIO_DEF_PARETO

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string_view> SplitOn(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(
        text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// A number's digits and what follows them: "0x1f", "(4*1024)" or "123".
struct NumberText {
  uint64_t value = 0;
  std::string_view suffix;
};

// Reads the unsigned number at the start of `text`.
Result<NumberText> ReadNumber(std::string_view text) {
  NumberText number;
  if (!text.empty() && text.front() == '(') {
    const size_t close = text.rfind(')');
    if (close == std::string_view::npos) {
      return Status::InvalidArgument(QuoteFioText(text) + " has a '(' that is not closed");
    }
    LC_ASSIGN_OR_RETURN(int64_t value, EvaluateIntegerExpression(text.substr(1, close - 1)));
    if (value < 0) return Status::InvalidArgument(QuoteFioText(text) + " is negative");
    number.value = static_cast<uint64_t>(value);
    number.suffix = text.substr(close + 1);
    return number;
  }
  int base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, number.value, base);
  if (ptr == digits.data()) {
    return Status::InvalidArgument(QuoteFioText(text) + " is not a number");
  }
  if (ec == std::errc::result_out_of_range) {
    return Status::InvalidArgument(QuoteFioText(text) + " does not fit in 64 bits");
  }
  number.suffix = digits.substr(static_cast<size_t>(ptr - digits.data()));
  if (!number.suffix.empty() && number.suffix.front() == '.') {
    return Status::InvalidArgument(QuoteFioText(text) +
                                   ": give a whole number (fio reads no fractions here)");
  }
  return number;
}

// The multiplier of a size suffix ("" and "b" are 1), or 0 when unknown.
uint64_t SizeMultiplier(std::string_view suffix, FioKbBase kb_base) {
  std::string s = Lower(suffix);
  if (s.empty() || s == "b") return 1;
  if (s.size() > 1 && s.back() == 'b') s.pop_back();
  const bool iec = s.size() == 2 && s[1] == 'i';
  if (s.size() != 1 && !iec) return 0;
  const std::string_view prefixes = "kmgtp";
  const size_t power = prefixes.find(s[0]);
  if (power == std::string_view::npos) return 0;
  // kb_base=1024: k is 1024 and ki 1000 (fio's compatibility rule);
  // kb_base=1000: k is 1000 and ki 1024.
  const uint64_t step = (kb_base == FioKbBase::k1024) != iec ? 1024 : 1000;
  uint64_t multiplier = 1;
  for (size_t i = 0; i <= power; ++i) multiplier *= step;
  return multiplier;
}

Result<uint64_t> MultiplyChecked(uint64_t value, uint64_t multiplier, std::string_view text) {
  if (multiplier != 0 && value > std::numeric_limits<uint64_t>::max() / multiplier) {
    return Status::InvalidArgument(QuoteFioText(text) + " does not fit in 64 bits");
  }
  return value * multiplier;
}

Result<std::pair<std::string_view, std::string_view>> SplitRange(std::string_view text) {
  // The separator is the first '-' or ':' after the first character (a
  // leading sign is not one).
  const size_t at = text.find_first_of("-:", 1);
  if (at == std::string_view::npos) return std::pair{text, text};
  return std::pair{text.substr(0, at), text.substr(at + 1)};
}

constexpr int64_t kMicrosecondNs = 1000;
constexpr int64_t kMillisecondNs = 1000 * kMicrosecondNs;
constexpr int64_t kSecondNs = 1000 * kMillisecondNs;

int64_t UnitNanoseconds(FioTimeUnit unit) {
  switch (unit) {
    case FioTimeUnit::kMicroseconds:
      return kMicrosecondNs;
    case FioTimeUnit::kMilliseconds:
      return kMillisecondNs;
    case FioTimeUnit::kSeconds:
      return kSecondNs;
  }
  return 1;
}

// The nanoseconds of a time suffix, 0 when unknown.
int64_t TimeSuffixNanoseconds(std::string_view suffix, FioTimeUnit default_unit) {
  const std::string s = Lower(suffix);
  constexpr int64_t kSecond = kSecondNs;
  if (s.empty()) return UnitNanoseconds(default_unit);
  if (s == "us" || s == "usec") return kMicrosecondNs;
  if (s == "ms" || s == "msec") return kMillisecondNs;
  if (s == "s" || s == "sec") return kSecond;
  if (s == "m") return 60 * kSecond;
  if (s == "h") return 3600 * kSecond;
  if (s == "d") return 86400 * kSecond;
  return 0;
}

// One entry list of a split (bssplit, zoned) for one direction: the values
// before '/' and the percentages (or bytes) after it.
struct SplitEntry {
  std::string_view value;
  std::optional<std::string_view> share;
};

Result<std::vector<SplitEntry>> ReadSplitEntries(std::string_view text) {
  std::vector<SplitEntry> entries;
  for (std::string_view entry : SplitOn(text, ':')) {
    entry = Trim(entry);
    if (entry.empty()) break;  // fio stops at an empty entry
    if (entries.size() == kMaxSplitEntries) {
      return Status::InvalidArgument("more than " + std::to_string(kMaxSplitEntries) +
                                     " entries (fio's limit)");
    }
    SplitEntry split;
    const size_t slash = entry.find('/');
    split.value = Trim(entry.substr(0, slash));
    if (slash != std::string_view::npos) split.share = Trim(entry.substr(slash + 1));
    entries.push_back(split);
  }
  return entries;
}

// A percentage of a split: a whole number 0 to 100; nullopt for none (an
// empty one, or 0, which fio reads as none).
Result<std::optional<int>> ReadSplitPercent(const std::optional<std::string_view>& text) {
  // "4k/" is an entry without a percentage, as fio reads it.
  if (!text.has_value() || text->empty()) return std::optional<int>();
  LC_ASSIGN_OR_RETURN(uint64_t percent, ParseFioInt(*text, FioKbBase::k1024));
  if (percent > 100) {
    return Status::InvalidArgument("percentage " + QuoteFioText(*text) + " is over 100");
  }
  if (percent == 0) return std::optional<int>();
  return std::optional<int>(static_cast<int>(percent));
}

// The shares of entries: the given percentages, and what they leave of 100
// shared equally by those without one. Refused: given ones over 100; with
// none missing, a sum other than 100 when `exact` (bssplit; zoned sizes may
// leave some of the region).
Result<std::vector<double>> FillShares(const std::vector<std::optional<int>>& percents, bool exact,
                                       std::string_view what) {
  int given = 0;
  int missing = 0;
  for (const std::optional<int>& p : percents) {
    if (p.has_value()) {
      given += *p;
    } else {
      ++missing;
    }
  }
  if (given > 100) {
    return Status::InvalidArgument(std::string(what) + " percentages add up to " +
                                   std::to_string(given) + ", over 100");
  }
  if (missing == 0 && exact && given != 100) {
    return Status::InvalidArgument(std::string(what) + " percentages add up to " +
                                   std::to_string(given) + ": they must add up to 100");
  }
  const double rest = missing == 0 ? 0.0 : (100.0 - given) / missing;
  std::vector<double> shares;
  shares.reserve(percents.size());
  for (const std::optional<int>& p : percents) {
    shares.push_back((p.has_value() ? *p : rest) / 100.0);
  }
  return shares;
}

Result<std::vector<FioBlockSplit>> ParseOneBlockSplit(std::string_view text, FioKbBase kb_base) {
  LC_ASSIGN_OR_RETURN(std::vector<SplitEntry> entries, ReadSplitEntries(text));
  std::vector<std::optional<int>> percents;
  std::vector<FioBlockSplit> splits;
  for (const SplitEntry& entry : entries) {
    LC_ASSIGN_OR_RETURN(uint64_t bs, ParseFioBytes(entry.value, kb_base));
    if (bs == 0) return Status::InvalidArgument("a block size of 0 in " + QuoteFioText(text));
    LC_ASSIGN_OR_RETURN(std::optional<int> percent, ReadSplitPercent(entry.share));
    percents.push_back(percent);
    splits.push_back(FioBlockSplit{bs, 0});
  }
  if (splits.empty()) return splits;
  LC_ASSIGN_OR_RETURN(std::vector<double> shares, FillShares(percents, true, "bssplit"));
  for (size_t i = 0; i < splits.size(); ++i) splits[i].fraction = shares[i];
  return splits;
}

Result<std::vector<FioZone>> ParseOneZoneList(std::string_view text, bool absolute,
                                              FioKbBase kb_base) {
  LC_ASSIGN_OR_RETURN(std::vector<SplitEntry> entries, ReadSplitEntries(text));
  std::vector<std::optional<int>> accesses;
  std::vector<std::optional<int>> sizes;
  std::vector<FioZone> zones(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    LC_ASSIGN_OR_RETURN(uint64_t access, ParseFioInt(entries[i].value, FioKbBase::k1024));
    if (access > 100) {
      return Status::InvalidArgument("zone access percentage " + QuoteFioText(entries[i].value) +
                                     " is over 100");
    }
    accesses.emplace_back(static_cast<int>(access));
    if (absolute) {
      if (!entries[i].share.has_value()) {
        return Status::InvalidArgument("zoned_abs entry " + QuoteFioText(entries[i].value) +
                                       " has no size: write ACCESS/SIZE");
      }
      LC_ASSIGN_OR_RETURN(zones[i].size_bytes, ParseFioBytes(*entries[i].share, kb_base));
    } else {
      LC_ASSIGN_OR_RETURN(std::optional<int> size, ReadSplitPercent(entries[i].share));
      sizes.push_back(size);
    }
  }
  if (zones.empty()) return zones;
  int total_access = 0;
  for (const std::optional<int>& a : accesses) total_access += *a;
  if (total_access != 100) {
    return Status::InvalidArgument("zone access percentages add up to " +
                                   std::to_string(total_access) + ": they must add up to 100");
  }
  for (size_t i = 0; i < zones.size(); ++i) zones[i].access_fraction = *accesses[i] / 100.0;
  if (!absolute) {
    LC_ASSIGN_OR_RETURN(std::vector<double> shares, FillShares(sizes, false, "zone size"));
    for (size_t i = 0; i < zones.size(); ++i) zones[i].size_fraction = shares[i];
  }
  return zones;
}

// Per direction with `parse` for each given field; empty fields stay
// empty (the option's default, or no split).
template <typename T, typename Parse>
Result<FioPerDirection<T>> ParseEachDirection(std::string_view text, Parse parse) {
  LC_ASSIGN_OR_RETURN(auto fields, SplitFioPerDirection(text));
  FioPerDirection<T> out{};
  for (size_t d = 0; d < kFioDirections; ++d) {
    if (!fields[d].has_value()) continue;
    LC_ASSIGN_OR_RETURN(out[d], parse(*fields[d]));
  }
  return out;
}

Result<double> ReadCenteredParameter(std::string_view text, double* center) {
  const size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    LC_ASSIGN_OR_RETURN(*center, ParseFioDouble(text.substr(colon + 1)));
    if (*center < 0 || *center > 1) {
      return Status::InvalidArgument("center " + QuoteFioText(text.substr(colon + 1)) +
                                     " is outside 0 to 1");
    }
  }
  return ParseFioDouble(text.substr(0, colon));
}

struct RwName {
  std::string_view name;
  FioRwMode mode;
};
constexpr RwName kRwNames[] = {
    {"read", FioRwMode::kRead},
    {"write", FioRwMode::kWrite},
    {"trim", FioRwMode::kTrim},
    {"randread", FioRwMode::kRandRead},
    {"randwrite", FioRwMode::kRandWrite},
    {"randtrim", FioRwMode::kRandTrim},
    {"rw", FioRwMode::kMixed},
    {"readwrite", FioRwMode::kMixed},
    {"randrw", FioRwMode::kRandMixed},
    {"trimwrite", FioRwMode::kTrimWrite},
    {"randtrimwrite", FioRwMode::kRandTrimWrite},
};

// One hex run "0x...": its bytes (an odd count of digits: a leading 0).
Result<std::string> ReadHexBytes(std::string_view digits) {
  if (digits.empty()) return Status::InvalidArgument("'0x' without hexadecimal digits");
  std::string bytes;
  std::string padded;
  if (digits.size() % 2 == 1) padded.push_back('0');
  padded.append(digits);
  for (size_t i = 0; i < padded.size(); i += 2) {
    unsigned value = 0;
    auto [ptr, ec] = std::from_chars(padded.data() + i, padded.data() + i + 2, value, 16);
    if (ec != std::errc() || ptr != padded.data() + i + 2) {
      return Status::InvalidArgument("'0x" + EscapeControlBytes(digits) + "' is not hexadecimal");
    }
    bytes.push_back(static_cast<char>(value));
  }
  return bytes;
}

}  // namespace

std::string QuoteFioText(std::string_view text) {
  // Built by appends: gcc 12 warns falsely of an overlapping copy in
  // "'" + std::string.
  std::string quoted = "'";
  quoted.append(EscapeControlBytes(text)).push_back('\'');
  return quoted;
}

Result<uint64_t> ParseFioInt(std::string_view text, FioKbBase kb_base) {
  return ParseFioBytes(text, kb_base);
}

Result<bool> ParseFioBool(std::string_view text) {
  text = Trim(text);
  Result<NumberText> number = ReadNumber(text);
  if (!number.ok() || !number->suffix.empty() || number->value > 1) {
    return Status::InvalidArgument(QuoteFioText(text) + " is not a boolean: give 0 or 1");
  }
  return number->value == 1;
}

Result<bool> ParseFioFlag(std::string_view text) {
  text = Trim(text);
  Result<NumberText> number = ReadNumber(text);
  if (!number.ok() || !number->suffix.empty()) {
    return Status::InvalidArgument(QuoteFioText(text) + " is not 0 or 1 (or the option bare)");
  }
  return number->value != 0;
}

Result<double> ParseFioDouble(std::string_view text) {
  text = Trim(text);
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value)) {
    return Status::InvalidArgument(QuoteFioText(text) + " is not a number");
  }
  return value;
}

Result<uint64_t> ParseFioBytes(std::string_view text, FioKbBase kb_base) {
  text = Trim(text);
  if (text.empty()) return Status::InvalidArgument("an empty value: give a size such as 4k");
  if (text.front() == '-' || text.front() == '+') {
    return Status::InvalidArgument(QuoteFioText(text) + " is signed: give a size such as 4k");
  }
  LC_ASSIGN_OR_RETURN(NumberText number, ReadNumber(text));
  const uint64_t multiplier = SizeMultiplier(number.suffix, kb_base);
  if (multiplier == 0) {
    return Status::InvalidArgument(QuoteFioText(text) + " has an unknown unit " +
                                   QuoteFioText(number.suffix) +
                                   ": use b, k, m, g, t, p (KiB-style too)");
  }
  return MultiplyChecked(number.value, multiplier, text);
}

Result<int64_t> ParseFioSignedBytes(std::string_view text, FioKbBase kb_base) {
  text = Trim(text);
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  LC_ASSIGN_OR_RETURN(uint64_t bytes, ParseFioBytes(text, kb_base));
  if (bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Status::InvalidArgument(QuoteFioText(text) + " does not fit in 63 bits");
  }
  return negative ? -static_cast<int64_t>(bytes) : static_cast<int64_t>(bytes);
}

Result<FioSize> ParseFioSizeOrPercent(std::string_view text, FioKbBase kb_base) {
  text = Trim(text);
  FioSize size;
  if (!text.empty() && text.back() == '%') {
    LC_ASSIGN_OR_RETURN(double percent, ParseFioDouble(text.substr(0, text.size() - 1)));
    if (percent < 0 || percent > 100) {
      return Status::InvalidArgument(QuoteFioText(text) + " is not a percentage from 0 to 100");
    }
    size.is_fraction = true;
    size.fraction = percent / 100.0;
    return size;
  }
  LC_ASSIGN_OR_RETURN(size.bytes, ParseFioBytes(text, kb_base));
  return size;
}

Result<FioByteRange> ParseFioByteRange(std::string_view text, FioKbBase kb_base) {
  LC_ASSIGN_OR_RETURN(auto parts, SplitRange(Trim(text)));
  FioByteRange range;
  LC_ASSIGN_OR_RETURN(range.min, ParseFioBytes(parts.first, kb_base));
  LC_ASSIGN_OR_RETURN(range.max, ParseFioBytes(parts.second, kb_base));
  if (range.min > range.max) std::swap(range.min, range.max);
  return range;
}

Result<int64_t> ParseFioTime(std::string_view text, FioTimeUnit default_unit) {
  text = Trim(text);
  if (text.empty()) return Status::InvalidArgument("an empty value: give a time such as 30s");
  if (text.front() == '-') return Status::InvalidArgument(QuoteFioText(text) + " is negative");
  LC_ASSIGN_OR_RETURN(NumberText number, ReadNumber(text));
  const int64_t unit = TimeSuffixNanoseconds(number.suffix, default_unit);
  if (unit == 0) {
    return Status::InvalidArgument(QuoteFioText(text) + " has an unknown unit " +
                                   QuoteFioText(number.suffix) + ": use us, ms, s, m, h or d");
  }
  if (number.value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max() / unit)) {
    return Status::InvalidArgument(QuoteFioText(text) + " is too long a time");
  }
  return static_cast<int64_t>(number.value) * unit;
}

Result<FioTimeRange> ParseFioTimeRange(std::string_view text, FioTimeUnit default_unit) {
  LC_ASSIGN_OR_RETURN(auto parts, SplitRange(Trim(text)));
  FioTimeRange range;
  LC_ASSIGN_OR_RETURN(range.min_ns, ParseFioTime(parts.first, default_unit));
  LC_ASSIGN_OR_RETURN(range.max_ns, ParseFioTime(parts.second, default_unit));
  if (range.min_ns > range.max_ns) std::swap(range.min_ns, range.max_ns);
  return range;
}

Result<FioPerDirection<std::optional<std::string>>> SplitFioPerDirection(std::string_view text) {
  const std::vector<std::string_view> fields = SplitOn(text, ',');
  if (fields.size() > kFioDirections) {
    return Status::InvalidArgument(QuoteFioText(text) +
                                   " has more than three comma-separated fields (read,write,trim)");
  }
  FioPerDirection<std::optional<std::string>> out;
  for (size_t d = 0; d < kFioDirections; ++d) {
    const std::string_view field = Trim(fields[std::min(d, fields.size() - 1)]);
    if (!field.empty()) out[d] = std::string(field);
  }
  return out;
}

Result<FioPerDirection<std::vector<FioBlockSplit>>> ParseFioBlockSplit(std::string_view text,
                                                                       FioKbBase kb_base) {
  return ParseEachDirection<std::vector<FioBlockSplit>>(
      text, [kb_base](std::string_view one) { return ParseOneBlockSplit(one, kb_base); });
}

Result<FioRw> ParseFioRw(std::string_view text, FioKbBase kb_base) {
  text = Trim(text);
  const size_t colon = text.find(':');
  const std::string name = Lower(Trim(text.substr(0, colon)));
  FioRw rw;
  const auto* it = std::find_if(std::begin(kRwNames), std::end(kRwNames),
                                [&](const RwName& n) { return n.name == name; });
  if (it == std::end(kRwNames)) {
    return Status::InvalidArgument(
        QuoteFioText(name) +
        " is not a mode: read, write, trim, randread, randwrite, randtrim, rw (readwrite), "
        "randrw, trimwrite, randtrimwrite");
  }
  rw.mode = it->mode;
  if (colon == std::string_view::npos) return rw;
  const std::string_view postfix = Trim(text.substr(colon + 1));
  if (IsRandomRwMode(rw.mode)) {
    LC_ASSIGN_OR_RETURN(uint64_t count, ParseFioInt(postfix, kb_base));
    if (count == 0 || count > std::numeric_limits<uint32_t>::max()) {
      return Status::InvalidArgument(QuoteFioText(postfix) +
                                     ": the I/Os in a row are 1 to 4294967295");
    }
    rw.random_sequence = static_cast<uint32_t>(count);
  } else {
    LC_ASSIGN_OR_RETURN(rw.sequential_skip, ParseFioSignedBytes(postfix, kb_base));
  }
  return rw;
}

bool IsRandomRwMode(FioRwMode mode) {
  return mode == FioRwMode::kRandRead || mode == FioRwMode::kRandWrite ||
         mode == FioRwMode::kRandTrim || mode == FioRwMode::kRandMixed ||
         mode == FioRwMode::kRandTrimWrite;
}

bool RwModeReads(FioRwMode mode) {
  return mode == FioRwMode::kRead || mode == FioRwMode::kRandRead || mode == FioRwMode::kMixed ||
         mode == FioRwMode::kRandMixed;
}

bool RwModeWrites(FioRwMode mode) {
  return mode == FioRwMode::kWrite || mode == FioRwMode::kRandWrite || mode == FioRwMode::kMixed ||
         mode == FioRwMode::kRandMixed || mode == FioRwMode::kTrimWrite ||
         mode == FioRwMode::kRandTrimWrite;
}

bool RwModeTrims(FioRwMode mode) {
  return mode == FioRwMode::kTrim || mode == FioRwMode::kRandTrim ||
         mode == FioRwMode::kTrimWrite || mode == FioRwMode::kRandTrimWrite;
}

Result<FioRandomDistribution> ParseFioDistribution(std::string_view text, FioKbBase kb_base) {
  text = Trim(text);
  const size_t colon = text.find(':');
  const std::string kind = Lower(text.substr(0, colon));
  const std::string_view rest =
      colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  FioRandomDistribution d;
  if (kind == "random") {
    if (!rest.empty()) return Status::InvalidArgument("'random' takes no parameter");
    return d;
  }
  if (kind == "zoned" || kind == "zoned_abs") {
    const bool absolute = kind == "zoned_abs";
    d.kind = absolute ? FioDistributionKind::kZonedAbs : FioDistributionKind::kZoned;
    if (Trim(rest).empty()) {
      return Status::InvalidArgument(kind + " needs its zones: " + kind +
                                     (absolute ? ":60/10g:40/90g" : ":60/10:40/90"));
    }
    LC_ASSIGN_OR_RETURN(d.zones, ParseEachDirection<std::vector<FioZone>>(
                                     rest, [absolute, kb_base](std::string_view one) {
                                       return ParseOneZoneList(one, absolute, kb_base);
                                     }));
    return d;
  }
  if (kind == "zipf") {
    d.kind = FioDistributionKind::kZipf;
    d.parameter = kDefaultZipfTheta;
  } else if (kind == "pareto") {
    d.kind = FioDistributionKind::kPareto;
    d.parameter = kDefaultParetoH;
  } else if (kind == "normal") {
    d.kind = FioDistributionKind::kNormal;
  } else {
    return Status::InvalidArgument(QuoteFioText(kind) +
                                   " is not a distribution: random, zipf, pareto, normal, zoned, "
                                   "zoned_abs");
  }
  if (!rest.empty()) {
    LC_ASSIGN_OR_RETURN(d.parameter, ReadCenteredParameter(rest, &d.center));
  }
  if (d.kind == FioDistributionKind::kZipf && d.parameter == 1.0) {
    return Status::InvalidArgument("zipf theta must not be 1");
  }
  if (d.kind == FioDistributionKind::kZipf && d.parameter <= 0) {
    return Status::InvalidArgument("zipf theta must be above 0");
  }
  if (d.kind == FioDistributionKind::kPareto && (d.parameter <= 0 || d.parameter >= 1)) {
    return Status::InvalidArgument("pareto h must be between 0 and 1 (both excluded)");
  }
  if (d.kind == FioDistributionKind::kNormal) {
    if (d.parameter < 0 || d.parameter >= 100) {
      return Status::InvalidArgument("normal deviation must be 0 to 100 (excluded) percent");
    }
    d.parameter /= 100.0;
  }
  return d;
}

std::vector<std::string> SplitFioNames(std::string_view text) {
  std::vector<std::string> names;
  std::string current;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == ':') {
      current += ':';
      ++i;
    } else if (text[i] == ':') {
      if (!current.empty()) names.push_back(std::move(current));
      current.clear();
    } else {
      current += text[i];
    }
  }
  if (!current.empty()) names.push_back(std::move(current));
  return names;
}

Status CheckFioDevicePaths(const std::vector<std::string>& names, bool directories) {
  for (const std::string& name : names) {
    if (name.rfind("\\\\.\\", 0) != 0 && name.rfind("//./", 0) != 0) continue;
    const std::string_view device = std::string_view(name).substr(4);
    if (directories) {
      return Status::InvalidArgument("'" + name +
                                     "' is a device, not a folder: give it as filename=");
    }
    if (device.size() == 1 && std::isalpha(static_cast<unsigned char>(device[0])) != 0) {
      std::string why = "'" + name + "' names no device: the volume is '";
      why += name;
      why += ":', written '";
      why += name;
      why += "\\:' (fio splits names at an unescaped ':')";
      return Status::InvalidArgument(why);
    }
    constexpr std::string_view kDrive = "PhysicalDrive";
    if (Lower(device.substr(0, kDrive.size())) == Lower(kDrive)) {
      const std::string_view number = device.substr(kDrive.size());
      if (number.empty() || !std::all_of(number.begin(), number.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
          })) {
        std::string why = "'" + name + "': a disk is ";
        why += name.substr(0, 4);
        why += "PhysicalDriveN, N its number (0, 1, ...)";
        return Status::InvalidArgument(why);
      }
    }
  }
  return Status::Ok();
}

Result<std::vector<int>> ParseFioCpuList(std::string_view text) {
  std::vector<int> cpus;
  for (std::string_view item : SplitOn(Trim(text), ',')) {
    item = Trim(item);
    if (item.empty()) return Status::InvalidArgument(QuoteFioText(text) + " has an empty entry");
    const size_t dash = item.find('-');
    LC_ASSIGN_OR_RETURN(uint64_t low, ParseFioInt(item.substr(0, dash), FioKbBase::k1024));
    uint64_t high = low;
    if (dash != std::string_view::npos) {
      LC_ASSIGN_OR_RETURN(high, ParseFioInt(item.substr(dash + 1), FioKbBase::k1024));
    }
    if (high > static_cast<uint64_t>(kMaxFioCpu)) {
      return Status::InvalidArgument("CPU " + std::to_string(high) + " is over " +
                                     std::to_string(kMaxFioCpu));
    }
    if (low > high) {
      return Status::InvalidArgument(QuoteFioText(item) + " is a reversed range: write LOW-HIGH");
    }
    for (uint64_t cpu = low; cpu <= high; ++cpu) cpus.push_back(static_cast<int>(cpu));
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

Result<std::vector<double>> ParseFioPercentileList(std::string_view text) {
  std::vector<double> list;
  for (std::string_view item : SplitOn(Trim(text), ':')) {
    LC_ASSIGN_OR_RETURN(double percent, ParseFioDouble(item));
    if (percent <= 0 || percent > 100) {
      return Status::InvalidArgument("percentile " + QuoteFioText(Trim(item)) +
                                     " is outside (0, 100]");
    }
    list.push_back(percent / 100.0);
  }
  if (list.size() > kMaxPercentiles) {
    return Status::InvalidArgument("more than " + std::to_string(kMaxPercentiles) +
                                   " percentiles (fio's limit)");
  }
  return list;
}

Result<std::string> ParseFioPattern(std::string_view text) {
  std::string bytes;
  size_t i = 0;
  text = Trim(text);
  if (text.empty()) return Status::InvalidArgument("an empty pattern: give 0xHEX or \"text\"");
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      const size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) {
        return Status::InvalidArgument(QuoteFioText(text) + " has a '\"' that is not closed");
      }
      bytes.append(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
      size_t end = i + 2;
      while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
      LC_ASSIGN_OR_RETURN(std::string run, ReadHexBytes(text.substr(i + 2, end - i - 2)));
      bytes += run;
      i = end;
    } else {
      return Status::InvalidArgument(
          QuoteFioText(text) +
          ": a pattern is 0xHEX bytes and \"text\" in double quotes, one straight after the "
          "other (loadcell takes no decimal numbers or %o)");
    }
  }
  return bytes;
}

}  // namespace loadcell::fio
