#pragma once
// Typed option specs with units, owned by each test and by the runner.
//
// A test binds its options to its own typed fields at registration:
//   opts.Size("memory-block-size", &block_size_, 1024, "size of each block").PowerOfTwo();
// The command line is first split into RawOptions (name -> text, names
// normalised so that '-' and '_' are equivalent), then each OptionSet
// consumes the entries it knows, parses and validates them and writes the
// bound fields. Entries nobody consumed are unknown options (exit 2).
//
// Value syntax:
//   bool    on|off (also true|false, yes|no, 1|0); a bare `--flag` means on
//   int     decimal integer; also accepts size suffixes K/M/G/T (x1024^n)
//   double  real number
//   size    bytes; suffixes b, K, M, G, T (either case, optional trailing B/iB):
//           powers of 1024 ("16K" = 16384)
//   seconds number with an optional unit: ns, us, ms, s, m, h (default s)
//   enum    one of the listed choices
//   list    comma-separated items (each item checked against choices if any)
//
// Bounds: every numeric option of a type stays within the type's bounds
// below, whatever its Min()/Max() say, so that no value overflows the
// nanosecond clock (int64: about 292 years) or an int64 byte count. A value
// outside them is refused with the option's valid range (exit 2).

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/option_values.h"
#include "core/status.h"

namespace loadcell {

enum class OptionType { kBool, kInt, kDouble, kSize, kSeconds, kString, kEnum, kList };

// The bounds of the numeric types (docs/cli.md, "Bounds").
inline constexpr double kMaxOptionNumber = 1e15;               // int and double: +-1e15
inline constexpr double kMaxOptionSeconds = 1e9;               // seconds: 0 to 1e9 (~31 years)
inline constexpr uint64_t kMaxOptionSize = uint64_t{1} << 50;  // size: 0 to 1024T (1 PiB)
inline constexpr double kMinOptionRate = 1e-3;                 // rate: 0 (off) or 1e-3 to 1e9
inline constexpr double kMaxOptionRate = 1e9;                  // events/s

std::string_view OptionTypeName(OptionType t);  // "on|off", "N", "SIZE", ...

// '_' -> '-' so that --num_threads and --num-threads are one option.
std::string NormalizeOptionName(std::string_view name);
// Whether an option of this name holds a secret (a password): its value is
// never shown in a message, a warning, a table, a file name or a report,
// whatever form it was given in. True for names with "password", "passwd" or
// "secret" in them (--pgsql-password, --mysql-password, a Lua script's own).
bool IsSecretOptionName(std::string_view name);
// `arg` with the value hidden when it is "--NAME=VALUE" (or "NAME=VALUE",
// "NAME VALUE") of a secret option; otherwise `arg` itself.
std::string HideSecretValue(const std::string& arg);

// One `--name=value` as given by the user.
struct RawOption {
  std::string name;     // normalised
  std::string spelled;  // as the user wrote it, for messages ("--num-threads")
  std::string value;    // empty when has_value is false
  bool has_value = false;
  std::string origin;  // "command line" or "config file PATH line N"
  bool consumed = false;
};

// "unknown option '--x'" for `o`, nobody's option; for one from a config
// file, "config file F line N: unknown option" without the word: a file
// given as --config-file that is no config file (a password file) may be
// one word of letters and digits, all secret.
std::string UnknownOptionText(const RawOption& o);

class RawOptions {
 public:
  // A later Add of the same normalised name replaces the earlier one.
  void Add(std::string_view spelled_name, std::string value, bool has_value, std::string origin);
  // Adds `other`'s entries that are not already present (used for config
  // files: the command line wins).
  void AddDefaults(const RawOptions& other);
  std::vector<RawOption>& entries() { return entries_; }
  const std::vector<RawOption>& entries() const { return entries_; }
  RawOption* Find(std::string_view normalised_name);
  // InvalidArgument naming the first entry nobody consumed
  // (UnknownOptionText, then `hint`), or OK.
  Status CheckAllConsumed(std::string_view hint) const;

 private:
  std::vector<RawOption> entries_;
};

class OptionSpec {
 public:
  OptionSpec(std::string_view name, OptionType type, std::string help);

  // Chainable modifiers, used at registration.
  OptionSpec& Alias(std::string_view legacy_name);  // e.g. "num-threads"
  OptionSpec& Min(double v);                        // inclusive
  OptionSpec& Max(double v);                        // inclusive
  OptionSpec& PowerOfTwo();                         // size/int must be 2^k
  OptionSpec& Choices(std::vector<std::string> c);  // enum and list items
  OptionSpec& Unit(std::string unit);               // shown in help ("ms", "bytes")
  // Extra check run after parsing; returns a message naming what is valid,
  // or an empty string when the value is fine.
  OptionSpec& Check(std::function<std::string()> check);
  OptionSpec& Hidden();  // not listed in help
  // The value is a secret (a password): ValueText() never shows it.
  OptionSpec& Secret();

  const std::string& name() const { return name_; }
  const std::vector<std::string>& aliases() const { return aliases_; }
  OptionType type() const { return type_; }
  const std::string& help() const { return help_; }
  const std::vector<std::string>& choices() const { return choices_; }
  const std::string& default_text() const { return default_text_; }
  const std::string& unit() const { return unit_; }
  bool hidden() const { return hidden_; }
  // The value in force, as text (after Apply; the default before).
  // For a Secret() option: "" when empty, "(hidden)" otherwise.
  std::string ValueText() const;
  bool is_default() const { return !set_by_user_; }
  bool Matches(std::string_view normalised) const;

 private:
  friend class OptionSet;
  std::string name_;
  std::vector<std::string> aliases_;
  OptionType type_;
  std::string help_;
  std::string default_text_;
  std::string unit_;
  std::vector<std::string> choices_;
  std::optional<double> min_, max_;
  bool zero_or_min_ = false;  // 0 is valid whatever min_ says (Rate)
  bool power_of_two_ = false;
  bool hidden_ = false;
  bool secret_ = false;
  bool set_by_user_ = false;
  std::function<std::string()> check_;
  // Parses text into the bound destination; returns a message or "".
  std::function<std::string(std::string_view text, bool has_value)> assign_;
  std::function<std::string()> value_text_;
};

// The options of one group ("General options", "cpu options").
// Not thread-safe; used during set-up only. Bound destinations must outlive
// the set.
class OptionSet {
 public:
  explicit OptionSet(std::string title) : title_(std::move(title)) {}
  OptionSet(const OptionSet&) = delete;
  OptionSet& operator=(const OptionSet&) = delete;

  // Each writes the default into *dst at once.
  OptionSpec& Bool(std::string_view name, bool* dst, bool def, std::string help);
  OptionSpec& Int(std::string_view name, int64_t* dst, int64_t def, std::string help);
  OptionSpec& Double(std::string_view name, double* dst, double def, std::string help);
  // A double in events/s where 0 means no limit; otherwise within
  // kMinOptionRate..kMaxOptionRate.
  OptionSpec& Rate(std::string_view name, double* dst, double def, std::string help);
  OptionSpec& Size(std::string_view name, uint64_t* dst, uint64_t def, std::string help);
  OptionSpec& Seconds(std::string_view name, double* dst, double def, std::string help);
  OptionSpec& String(std::string_view name, std::string* dst, std::string def, std::string help);
  OptionSpec& Enum(std::string_view name, std::string* dst, std::string def,
                   std::vector<std::string> choices, std::string help);
  OptionSpec& List(std::string_view name, std::vector<std::string>* dst, std::string_view def,
                   std::string help);

  // Consumes the entries of `raw` that name an option of this set (or an
  // alias), parses, validates and stores them. On error: InvalidArgument with
  // one line naming the option and what is valid, e.g.
  //   "--memory-block-size=12Q: not a size (use a number with K, M, G or T)".
  Status Apply(RawOptions& raw);

  const std::string& title() const { return title_; }
  const std::deque<OptionSpec>& specs() const { return specs_; }
  const OptionSpec* Find(std::string_view normalised_name) const;

 private:
  std::string title_;
  std::deque<OptionSpec> specs_;
};

// Help text: the title, then one entry per visible option:
//   --name=TYPE   help [default: value]
std::string FormatHelp(const OptionSet& set);

}  // namespace loadcell
