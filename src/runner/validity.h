#pragma once
// The validity verdict of a result: what each check over the run's facts
// found (src/validity/ makes them; reporters print them; docs/validity.md
// lists every check). Plain data, carried in RunResult.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loadcell {

// --verdict: off (no check is made, nothing printed), on (the default),
// strict (as on, and an INVALID result exits 3).
enum class VerdictMode { kOff, kOn, kStrict };

// The mode --verdict's value names ("off", "on", "strict"); nullopt for any
// other word. Every front end reads --verdict through it.
std::optional<VerdictMode> VerdictModeNamed(std::string_view word);

enum class CheckLevel { kPass, kWarn, kInvalid, kNotChecked };

// "pass", "warn", "invalid", "not_checked" (the JSON words).
const char* CheckLevelName(CheckLevel level);
// "pass", "WARN", "INVALID", "not checked" (the words of the text and HTML).
const char* CheckLevelWord(CheckLevel level);

// One figure a check's finding rests on, e.g. {"file_set_bytes", 1048576}.
struct CheckFigure {
  std::string name;  // snake_case with its unit when it has one
  double value = 0;
};

struct CheckOutcome {
  std::string id;  // stable: "cache", "queue-depth", ...
  CheckLevel level = CheckLevel::kPass;
  // What was seen, with its numbers (for not_checked: why it could not be
  // made).
  std::string seen;
  // What to change, naming the option ("" when it passed).
  std::string advice;
  std::vector<CheckFigure> figures;
};

enum class Overall { kValid, kValidWithWarnings, kInvalid };

struct Validity {
  bool judged = false;  // false: --verdict=off, or no verdict step ran
  VerdictMode mode = VerdictMode::kOn;
  // Every check that concerns the run, in the order of validity/checks.cpp
  // (a check that does not concern the test, e.g. the queue depth of a cpu
  // run, is left out).
  std::vector<CheckOutcome> checks;
  double cost_ms = 0;  // the whole verdict step: facts at the end and checks

  int Count(CheckLevel level) const;
  Overall overall() const;
  // The checks that did not pass, gravest first (INVALID, WARN, not
  // checked), each level in the list's order.
  std::vector<const CheckOutcome*> NotPassed() const;
};

// "valid", "valid_with_warnings", "invalid" (the JSON and CSV words).
const char* OverallName(Overall o);
// "valid", "valid with warnings (2)", "INVALID (1)": the text's last line.
std::string VerdictLine(const Validity& v);

// One part of a run judged on its own (a fio job of a group, a DiskSpd
// thread of a target, a dbsim user), named for the merged verdict's lines.
struct NamedValidity {
  std::string name;
  const Validity* validity = nullptr;  // not owned; null or unjudged parts are left out
};

// One verdict for parts that ran together (docs/validity.md, "Parts judged
// as one"): every check of any judged part, in the order it first appears,
// at its gravest level over the parts (INVALID, WARN, not checked, pass).
// What was seen is the parts' own words: one text when every part made
// the check and found it alike ("4 MiB of files in memory"), else each finding
// at that level after the parts that made it, the parts' names joined by
// "; ", the findings by " | " ("random user: ... | checkpoint; log writer:
// ..."). The advice and the figures are those of the first part at that
// level; cost_ms is the parts' sum; the mode the first judged part's.
// Unjudged (judged false) when no part was judged.
Validity MergeVerdicts(const std::vector<NamedValidity>& parts);

}  // namespace loadcell
